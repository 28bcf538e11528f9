/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command line (daemon/cli.c): each flag lands in its field, --help and
 * --version end the run, every usage error is -EINVAL, and cli_load_config
 * applies --listen and --per-cpu over the file and says where a file is
 * wrong. getopt keeps its place in globals, so each parse starts it over.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/util.h"
#include "daemon/cli.h"
#include "test.h"

/* What cli_parse() has not written to: its .mountinfo is never a parse's. */
static const struct cli untouched = {.mountinfo = "untouched"};
/* What cli_load_config() has not written to. */
static struct config *const no_config = (struct config *)&no_config;

/* cli_parse() of the words after "cgacctd", up to NULL. */
static int parse(struct cli *ret, const char *const *words)
{
	char *argv[16] = {"cgacctd"};
	int argc = 1;

	for (; *words; words++) {
		ASSERT_TRUE(argc < (int)ELEMENTSOF(argv) - 1);
		argv[argc++] = (char *)*words;
	}
	optind = 0; /* glibc: start over, as a fresh process would */
	*ret = untouched;
	return cli_parse(argc, argv, ret);
}

#define PARSE(ret, ...) parse(ret, (const char *const[]){__VA_ARGS__, NULL})

/* What cli_parse() printed on stdout; the caller frees it. */
static char *parse_stdout(int *ret_r, const char *const *words)
{
	char *dir = tmpdir_make(), *path, *out;
	struct cli c;
	size_t len;
	int fd, saved;

	ASSERT_TRUE(asprintf(&path, "%s/stdout", dir) >= 0);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ASSERT_TRUE(fd >= 0);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	ASSERT_TRUE(saved >= 0 && dup2(fd, STDOUT_FILENO) == STDOUT_FILENO);
	*ret_r = parse(&c, words);
	fflush(stdout);
	ASSERT_TRUE(dup2(saved, STDOUT_FILENO) == STDOUT_FILENO);
	close(saved);
	close(fd);
	ASSERT_EQ(read_file_at(AT_FDCWD, path, &out, &len), 0);
	ASSERT_TRUE(c.mountinfo == untouched.mountinfo);
	tmpdir_remove(dir);
	free(path);
	free(dir);
	return out;
}

TEST(no_flags_serve_the_real_root_with_the_default_config)
{
	struct cli c;

	ASSERT_EQ(parse(&c, (const char *const[]){NULL}), 0);
	ASSERT_TRUE(c.config_file == NULL);
	ASSERT_TRUE(c.listen == NULL);
	ASSERT_EQ(c.n_listen, 0);
	ASSERT_TRUE(!c.check_config && !c.once && !c.per_cpu);
	ASSERT_STREQ(c.mountinfo, "/proc/self/mountinfo");
	ASSERT_STREQ(c.root, "");
	ASSERT_TRUE(c.walk_order == NULL);
	cli_done(&c);
}

TEST(every_flag_sets_its_field)
{
	struct cli c;

	ASSERT_EQ(PARSE(&c, "--config", "/etc/a.yml", "--listen", ":1", "--check-config", "--once",
			"--per-cpu", "--mountinfo", "/tmp/mi", "--root", "/tmp/root",
			"--walk-order", "/tmp/order"),
		  0);
	ASSERT_STREQ(c.config_file, "/etc/a.yml");
	ASSERT_EQ(c.n_listen, 1);
	ASSERT_STREQ(c.listen[0], ":1");
	ASSERT_TRUE(c.check_config && c.once && c.per_cpu);
	ASSERT_STREQ(c.mountinfo, "/tmp/mi");
	ASSERT_STREQ(c.root, "/tmp/root");
	ASSERT_STREQ(c.walk_order, "/tmp/order");
	cli_done(&c);
}

TEST(short_flags_are_the_long_ones)
{
	struct cli c;

	ASSERT_EQ(PARSE(&c, "-c", "b.yml", "-l", ":2", "-n"), 0);
	ASSERT_STREQ(c.config_file, "b.yml");
	ASSERT_EQ(c.n_listen, 1);
	ASSERT_STREQ(c.listen[0], ":2");
	ASSERT_TRUE(c.check_config && !c.once && !c.per_cpu);
	cli_done(&c);
	ASSERT_EQ(PARSE(&c, "--once"), 0);
	ASSERT_TRUE(c.once && !c.check_config && !c.per_cpu);
	cli_done(&c);
	ASSERT_EQ(PARSE(&c, "--per-cpu"), 0);
	ASSERT_TRUE(c.per_cpu && !c.check_config && !c.once);
	cli_done(&c);
}

TEST(listen_repeats_in_order)
{
	struct cli c;

	ASSERT_EQ(PARSE(&c, "-l", ":1", "--listen", "[::1]:2", "-l", "127.0.0.1:3"), 0);
	ASSERT_EQ(c.n_listen, 3);
	ASSERT_STREQ(c.listen[0], ":1");
	ASSERT_STREQ(c.listen[1], "[::1]:2");
	ASSERT_STREQ(c.listen[2], "127.0.0.1:3");
	ASSERT_TRUE(c.listen[3] == NULL);
	cli_done(&c);
	ASSERT_TRUE(c.listen == NULL && c.n_listen == 0);
}

TEST(help_and_version_end_the_run)
{
	const char *const help[] = {"--help", NULL}, *const h[] = {"-h", NULL};
	const char *const version[] = {"--version", NULL};
	/* the first of them ends the parse: what follows is not looked at */
	const char *const help_first[] = {"--per-cpu", "-h", "--no-such-flag", NULL};
	char *out;
	int r;

	out = parse_stdout(&r, help);
	ASSERT_EQ(r, 1);
	ASSERT_TRUE(strncmp(out, "Usage: cgacctd [OPTIONS]\n", 25) == 0);
	ASSERT_TRUE(strstr(out, CONFIG_FILE_DEFAULT) != NULL);
	free(out);
	out = parse_stdout(&r, h);
	ASSERT_EQ(r, 1);
	ASSERT_TRUE(strncmp(out, "Usage: cgacctd [OPTIONS]\n", 25) == 0);
	free(out);
	out = parse_stdout(&r, version);
	ASSERT_EQ(r, 1);
	ASSERT_STREQ(out, "cgacctd " CGACCT_VERSION "\n");
	free(out);
	out = parse_stdout(&r, help_first);
	ASSERT_EQ(r, 1);
	free(out);
}

TEST(usage_errors_are_einval_and_leave_ret_alone)
{
	struct cli c;

	ASSERT_EQ(PARSE(&c, "--no-such-flag"), -EINVAL);
	ASSERT_TRUE(c.mountinfo == untouched.mountinfo);
	ASSERT_EQ(PARSE(&c, "-x"), -EINVAL);
	ASSERT_EQ(PARSE(&c, "--config"), -EINVAL);
	ASSERT_EQ(PARSE(&c, "-l", ":1", "-c"), -EINVAL);
	ASSERT_EQ(PARSE(&c, "--once=yes"), -EINVAL);
	ASSERT_EQ(PARSE(&c, "extra"), -EINVAL);
	ASSERT_EQ(PARSE(&c, "--once", "--", "extra"), -EINVAL);
	ASSERT_TRUE(c.mountinfo == untouched.mountinfo);
	/* --walk-order lists what --once visits, so it needs --once */
	ASSERT_EQ(PARSE(&c, "--walk-order", "/tmp/order"), -EINVAL);
	ASSERT_TRUE(c.mountinfo == untouched.mountinfo);
	ASSERT_EQ(PARSE(&c, "--walk-order", "/tmp/order", "--once"), 0);
	cli_done(&c);
}

static struct config *load(const struct cli *cli)
{
	struct config *c = NULL;
	struct config_error e;
	int r = cli_load_config(cli, &c, &e);

	if (r < 0)
		fprintf(stderr, "%s\n", e.message);
	ASSERT_EQ(r, 0);
	ASSERT_TRUE(c != NULL);
	return c;
}

TEST(load_without_file_is_the_embedded_default)
{
	struct config *d = config_default(), *c = load(&(struct cli){0});

	ASSERT_TRUE(config_equal(c, d));
	config_free(c);
	config_free(d);
}

TEST(load_applies_listen_and_per_cpu_over_the_file)
{
	char *dir = tmpdir_make(), *path, *listen[] = {"127.0.0.1:3", "[::1]:4", NULL};
	struct cli cli = {0};
	struct config *c;

	file_write(dir, "a.yml",
		   "listen: [\":1\", \":2\", \":5\"]\nmax_series: 7\nper_cpu: true\n");
	ASSERT_TRUE(asprintf(&path, "%s/a.yml", dir) >= 0);
	cli.config_file = path;

	/* no flags: the file as it is */
	c = load(&cli);
	ASSERT_EQ(c->n_listen, 3);
	ASSERT_EQ(c->listen[2].port, 5);
	ASSERT_EQ_U64(c->max_series, 7);
	ASSERT_TRUE(c->per_cpu);
	config_free(c);

	/* --listen replaces the file's whole list, in order */
	cli.listen = listen;
	cli.n_listen = 2;
	c = load(&cli);
	ASSERT_EQ(c->n_listen, 2);
	ASSERT_STREQ(c->listen[0].host, "127.0.0.1");
	ASSERT_EQ(c->listen[0].port, 3);
	ASSERT_EQ(c->listen[0].family, AF_INET);
	ASSERT_STREQ(c->listen[1].host, "::1");
	ASSERT_EQ(c->listen[1].port, 4);
	ASSERT_EQ(c->listen[1].family, AF_INET6);
	ASSERT_EQ_U64(c->max_series, 7);
	config_free(c);

	/* --per-cpu turns per-CPU series on; without it the file decides */
	cli = (struct cli){.per_cpu = true};
	c = load(&cli);
	ASSERT_TRUE(c->per_cpu);
	config_free(c);
	cli.per_cpu = false;
	c = load(&cli);
	ASSERT_TRUE(!c->per_cpu);
	config_free(c);

	tmpdir_remove(dir);
	free(path);
	free(dir);
}

/* Loads what cli names, which must fail with r; the message it gives. */
static void assert_load_error(const struct cli *cli, int r, const char *message)
{
	struct config *c = no_config;
	struct config_error e;

	ASSERT_EQ(cli_load_config(cli, &c, &e), r);
	ASSERT_TRUE(c == no_config);
	ASSERT_STREQ(e.message, message);
}

TEST(load_errors_say_where)
{
	char *dir = tmpdir_make(), *path, *message, *bad[] = {":1", "[::1]", NULL};
	struct config *c = no_config;
	struct config_error e;
	struct cli cli = {0};

	file_write(dir, "bad.yml", "per_cpu: true\nmax_depth: deep\n");
	ASSERT_TRUE(asprintf(&path, "%s/bad.yml", dir) >= 0);
	cli.config_file = path;
	ASSERT_EQ(cli_load_config(&cli, &c, &e), -EINVAL);
	ASSERT_TRUE(c == no_config);
	ASSERT_EQ(e.line, 2);
	ASSERT_EQ(e.column, 12);
	ASSERT_TRUE(asprintf(&message,
			     "%s:2:12: max_depth: expected a non-negative integer, got \"deep\"",
			     path) >= 0);
	ASSERT_STREQ(e.message, message);
	free(message);
	free(path);

	ASSERT_TRUE(asprintf(&path, "%s/missing.yml", dir) >= 0);
	ASSERT_TRUE(asprintf(&message, "%s: No such file or directory", path) >= 0);
	cli.config_file = path;
	assert_load_error(&cli, -ENOENT, message);
	free(message);
	free(path);

	/* a bad --listen fails the load whole, and names the address */
	cli = (struct cli){.listen = bad, .n_listen = 2};
	assert_load_error(&cli, -EINVAL,
			  "--listen: invalid address \"[::1]\": missing ':PORT' after ']'");

	tmpdir_remove(dir);
	free(dir);
}
