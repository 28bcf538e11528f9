/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cgacctd.yml: the annotated default file equals the embedded default, a
 * file with every key loads into exactly those values, and every kind of
 * mistake is refused with the file, line, column and key it is about.
 */
#include <errno.h>
#include <sys/socket.h>
#include <syslog.h>

#include "config/config.h"
#include "helpers-config.h"

#define NAME "cgacctd.yml"

static struct config *const untouched = (struct config *)&untouched;

static struct config *load(const char *yaml)
{
	return config_load_yaml(NAME, yaml);
}

/* The exact message, and a failed load leaves the caller's config alone. */
static void assert_error_len(const char *yaml, size_t len, const char *message)
{
	struct config *c = untouched;
	struct config_error e = {0};

	ASSERT_EQ(config_load_buffer(NAME, yaml, len, &c, &e), -EINVAL);
	ASSERT_TRUE(c == untouched);
	ASSERT_STREQ(e.message, message);
}

static void assert_error(const char *yaml, const char *message)
{
	assert_error_len(yaml, strlen(yaml), message);
}

TEST(default_file_equals_embedded_default)
{
	struct config *d = config_default(), *f = NULL;
	struct config_error e = {0};

	ASSERT_EQ(config_load_file(CONFIG_DIR "/cgacctd.yml", &f, &e), 0);
	ASSERT_TRUE(config_equal(d, f));
	ASSERT_EQ(d->n_listen, 1);
	ASSERT_TRUE(d->listen[0].host == NULL);
	ASSERT_EQ(d->listen[0].port, CONFIG_PORT_DEFAULT);
	ASSERT_EQ(d->listen[0].family, AF_UNSPEC);
	ASSERT_STREQ(d->include[0], "/**");
	ASSERT_TRUE(d->include[1] == NULL && d->exclude[0] == NULL && d->cgroup_roots[0] == NULL);
	ASSERT_EQ(d->controllers, CONTROLLERS_ALL);
	ASSERT_TRUE(!d->per_cpu && d->max_depth == 0 && d->max_series == 0);
	ASSERT_EQ_U64(d->keep_open_files, CONFIG_KEEP_OPEN_FILES_DEFAULT);
	ASSERT_EQ_U64(d->min_interval_usec, 0);
	ASSERT_EQ(d->naming, CONFIG_NAMING_NATIVE);
	ASSERT_EQ(d->gzip_level, CONFIG_GZIP_LEVEL_DEFAULT);
	ASSERT_TRUE(d->container_runtime_sockets[0] == NULL);
	ASSERT_EQ_U64(d->container_runtime_timeout_usec, CONFIG_RUNTIME_TIMEOUT_USEC_DEFAULT);
	ASSERT_EQ(d->log_level, LOG_INFO);
	ASSERT_TRUE(d->web_config_file == NULL && d->web == NULL);
	config_free(d);
	config_free(f);
}

TEST(equal_tells_configs_apart)
{
	struct config *d = config_default(), *c = load("max_series: 1\n");

	ASSERT_TRUE(!config_equal(d, c));
	config_free(c);
	c = load("listen: [\"127.0.0.1:19753\"]\n");
	ASSERT_TRUE(!config_equal(d, c));
	config_free(c);
	c = load("include: [/**, /a]\n");
	ASSERT_TRUE(!config_equal(d, c));
	config_free(c);
	c = load("gzip_level: 9\n");
	ASSERT_TRUE(!config_equal(d, c));
	config_free(c);
	c = load("container_runtime_sockets: [/run/docker.sock]\n");
	ASSERT_TRUE(!config_equal(d, c));
	config_free(c);
	c = load("container_runtime_timeout: 1s\n");
	ASSERT_TRUE(!config_equal(d, c));
	config_free(c);
	config_free(d);
}

TEST(full_file_sets_every_key)
{
	char *path = fixture_path("config/full.yml"), *web = fixture_path("config/web.yml");
	struct config *c = NULL;
	struct config_error e = {0};

	ASSERT_EQ(config_load_file(path, &c, &e), 0);
	ASSERT_EQ(c->n_listen, 3);
	ASSERT_STREQ(c->listen[0].host, "127.0.0.1");
	ASSERT_EQ(c->listen[0].port, 9999);
	ASSERT_EQ(c->listen[0].family, AF_INET);
	ASSERT_STREQ(c->listen[1].host, "::1");
	ASSERT_EQ(c->listen[1].family, AF_INET6);
	ASSERT_STREQ(c->listen[2].host, "localhost");
	ASSERT_EQ(c->listen[2].port, 8080);
	ASSERT_STREQ(c->cgroup_roots[0], "/sys/fs/cgroup/unified");
	ASSERT_STREQ(c->cgroup_roots[1], "/sys/fs/cgroup/memory/system.slice");
	ASSERT_TRUE(c->cgroup_roots[2] == NULL);
	ASSERT_STREQ(c->include[0], "/system.slice/**");
	ASSERT_STREQ(c->include[1], "/user.slice/user-*.slice");
	ASSERT_STREQ(c->exclude[0], "/**/*.mount");
	ASSERT_EQ(c->max_depth, 4);
	ASSERT_EQ(c->controllers,
		  CONTROLLER_BIT(CONTROLLER_cpu) | CONTROLLER_BIT(CONTROLLER_memory) |
		      CONTROLLER_BIT(CONTROLLER_blkio) | CONTROLLER_BIT(CONTROLLER_pressure));
	ASSERT_TRUE(c->per_cpu);
	ASSERT_EQ_U64(c->min_interval_usec, 90000000);
	ASSERT_EQ_U64(c->max_series, 100000);
	ASSERT_EQ_U64(c->keep_open_files, 250);
	ASSERT_EQ(c->naming, CONFIG_NAMING_CADVISOR);
	ASSERT_EQ(c->gzip_level, 0);
	ASSERT_STREQ(c->container_runtime_sockets[0], "/run/podman/podman.sock");
	ASSERT_STREQ(c->container_runtime_sockets[1], "/run/docker.sock");
	ASSERT_TRUE(c->container_runtime_sockets[2] == NULL);
	ASSERT_EQ_U64(c->container_runtime_timeout_usec, 500000);
	ASSERT_EQ(c->log_level, LOG_DEBUG);
	/* Relative to the config file, and loaded along with it. */
	ASSERT_STREQ(c->web_config_file, web);
	ASSERT_TRUE(web_config_tls(c->web));
	ASSERT_EQ(c->web->n_users, 1);
	config_free(c);
	free(path);
	free(web);
}

TEST(command_line_listen_replaces_the_files)
{
	struct config *c = load("listen: [\":1\", \":2\"]\n");
	char *good[] = {"127.0.0.1:3", "[::1]:4", NULL}, *bad[] = {":5", "[::1]", NULL};
	char *none[] = {NULL};
	struct config_error e = {0};

	ASSERT_EQ(config_override_listen(c, none, &e), 0);
	ASSERT_EQ(c->n_listen, 2);
	ASSERT_EQ(config_override_listen(c, bad, &e), -EINVAL);
	ASSERT_STREQ(e.message, "--listen: invalid address \"[::1]\": missing ':PORT' after ']'");
	ASSERT_EQ(c->n_listen, 2);
	ASSERT_EQ(c->listen[1].port, 2);
	ASSERT_EQ(config_override_listen(c, good, &e), 0);
	ASSERT_EQ(c->n_listen, 2);
	ASSERT_STREQ(c->listen[0].host, "127.0.0.1");
	ASSERT_EQ(c->listen[1].port, 4);
	config_free(c);
}

TEST(empty_values_mean_empty_lists_and_no_file)
{
	struct config *c = load("exclude:\ncgroup_roots: ~\nweb_config_file:\ninclude: []\n");

	ASSERT_TRUE(c->exclude[0] == NULL && c->cgroup_roots[0] == NULL);
	ASSERT_TRUE(c->include[0] == NULL);
	ASSERT_TRUE(c->web_config_file == NULL && c->web == NULL);
	config_free(c);
	c = load("web_config_file: \"\"\n");
	ASSERT_TRUE(c->web_config_file == NULL);
	config_free(c);
}

TEST(selection_is_include_minus_exclude)
{
	struct config *c = load("include: [/system.slice/**, /user.slice]\n"
				"exclude: [/**/*.mount]\n");

	ASSERT_TRUE(config_cgroup_selected(c, "/system.slice"));
	ASSERT_TRUE(config_cgroup_selected(c, "/system.slice/ssh.service"));
	ASSERT_TRUE(!config_cgroup_selected(c, "/system.slice/tmp.mount"));
	ASSERT_TRUE(config_cgroup_selected(c, "/user.slice"));
	ASSERT_TRUE(!config_cgroup_selected(c, "/user.slice/user-0.slice"));
	ASSERT_TRUE(!config_cgroup_selected(c, "/"));
	config_free(c);
}

TEST(unknown_key_is_an_error)
{
	assert_error("listen: [\":1\"]\n\nlisen: [x]\n", NAME ":3:1: unknown key \"lisen\"");
	assert_error("  per_cpu: true\n  perCpu: true\n", NAME ":2:3: unknown key \"perCpu\"");
	assert_error("\"na\\x01me\": x\n", NAME ":1:1: unknown key \"na\\x01me\"");
}

TEST(wrong_type_is_an_error)
{
	assert_error("include:\n  a: b\n", NAME ":2:3: include: expected a list, got a mapping");
	assert_error("max_depth: deep\n",
		     NAME ":1:12: max_depth: expected a non-negative integer, got \"deep\"");
	assert_error("max_series: \"5\"\n", NAME ":1:13: max_series: expected a non-negative "
						 "integer, got the quoted string \"5\"");
	assert_error("max_depth: -1\n",
		     NAME ":1:12: max_depth: expected a non-negative integer, got \"-1\"");
	assert_error("max_depth: 4294967296\n",
		     NAME ":1:12: max_depth: \"4294967296\" is out of range");
	assert_error("log_level: info\ngzip_level: 10\n",
		     NAME ":2:13: gzip_level: 10 is out of range: 0 (no compression) to 9");
	assert_error("gzip_level: fast\n",
		     NAME ":1:13: gzip_level: expected a non-negative integer, got \"fast\"");
	assert_error("container_runtime_sockets: [run/docker.sock]\n",
		     NAME ":1:29: container_runtime_sockets: invalid socket path "
			  "\"run/docker.sock\": not an absolute path");
	assert_error("container_runtime_sockets:\n  - /run/"
		     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		     "aaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
		     NAME ":2:5: container_runtime_sockets: invalid socket path "
			  "\"/run/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"...: "
			  "too long for a unix socket address");
	assert_error("container_runtime_timeout: 0s\n",
		     NAME ":1:28: container_runtime_timeout: must be longer than 0");
	assert_error("exclude:\n  - [a]\n", NAME ":2:5: exclude: expected a string, got a list");
	assert_error("per_cpu: yes\n", NAME ":1:10: per_cpu: expected true or false, got \"yes\"");
	assert_error("per_cpu:\n",
		     NAME ":1:9: per_cpu: expected true or false, got an empty value");
	assert_error("naming: {a: b}\n", NAME ":1:9: naming: expected a name, got a mapping");
	assert_error("min_interval: 5\n", NAME ":1:15: min_interval: expected a duration such as "
					       "500ms, 15s or 1m30s, got \"5\"");
	assert_error("web_config_file: [a]\n",
		     NAME ":1:18: web_config_file: expected a string, got a list");
	assert_error("- listen\n",
		     NAME ":1:1: expected a mapping of keys at the top level, got a list");
	assert_error("? [a]\n: b\n", NAME ":1:3: top level: keys must be strings, got a list");
}

TEST(bad_values_name_the_key_and_why)
{
	assert_error("naming: prometheus\n", NAME ":1:9: naming: expected one of native, "
						  "cadvisor; got \"prometheus\"");
	assert_error("log_level: verbose\n", NAME ":1:12: log_level: expected one of error, "
						  "warning, notice, info, debug; got \"verbose\"");
	assert_error("controllers: [cpu, gpu]\n",
		     NAME ":1:20: controllers: expected one of cpuacct, cpu, memory, hugetlb, "
			  "blkio, io, pids, pressure, all; got \"gpu\"");
	assert_error("controllers: [all, cpu]\n",
		     NAME ":1:20: controllers: \"cpu\" repeats or overlaps an earlier entry");
	assert_error("controllers: [io, io]\n",
		     NAME ":1:19: controllers: \"io\" repeats or overlaps an earlier entry");
	assert_error("controllers: []\n",
		     NAME ":1:14: controllers: needs at least one controller, or [all]");
	assert_error("cgroup_roots: [sys/fs/cgroup]\n", NAME
		     ":1:16: cgroup_roots: invalid path \"sys/fs/cgroup\": not an absolute path");
	assert_error("include: [\"/a\\0b\"]\n", NAME ":1:11: include: contains a NUL character");
	assert_error("per_cpu: true\nper_cpu: false\n", NAME ":2:1: duplicate key \"per_cpu\"");
}

TEST(bad_glob_is_an_error)
{
	assert_error("include:\n  - /a\n  - /b/[c\n",
		     NAME ":3:5: include: invalid glob \"/b/[c\": unbalanced '['");
	assert_error(
	    "exclude: [\"/a**\"]\n",
	    NAME ":1:11: exclude: invalid glob \"/a**\": \"**\" must be a whole path component");
	assert_error("exclude: [system.slice]\n",
		     NAME ":1:11: exclude: invalid glob \"system.slice\": not an absolute path");
}

TEST(bad_address_is_an_error)
{
	assert_error("listen: [\":19753\", \"1.2.3:80\"]\n",
		     NAME ":1:20: listen: invalid address \"1.2.3:80\": invalid IPv4 address");
	assert_error("listen:\n  - 19753\n", NAME ":2:5: listen: invalid address \"19753\": "
						  "missing ':PORT'");
	assert_error("listen: []\n", NAME ":1:9: listen: needs at least one address");
	assert_error("listen:\n", NAME ":1:8: listen: needs at least one address");
	assert_error("listen: \":19753\"\n", NAME ":1:9: listen: expected a list, got \":19753\"");
}

TEST(empty_file_is_an_error)
{
	assert_error("", NAME ":1:1: empty configuration");
	assert_error("# only a comment\n\n", NAME ":1:1: empty configuration");
	assert_error("---\n", NAME ":1:1: empty configuration");
	assert_error("~\n", NAME ":1:1: empty configuration");
}

TEST(non_yaml_is_an_error_at_the_problem)
{
	assert_error("listen: [\":1\"\nper_cpu: true\n",
		     NAME ":2:1: did not find expected ',' or ']' (while parsing a flow sequence "
			  "at 1:9)");
	assert_error("per_cpu: true: false\n",
		     NAME ":1:14: mapping values are not allowed in this context");
	assert_error("listen:\n\t- \":1\"\n",
		     NAME ":2:1: found character that cannot start any "
			  "token (while scanning for the next token at 2:1)");
	assert_error("per_cpu: true\n---\nper_cpu: false\n",
		     NAME ":3:1: more than one YAML document");
	assert_error("include: *nothing\n", NAME ":1:10: found undefined alias");
	assert_error_len("per_cpu: true\nnaming: \xff\n", 24,
			 NAME ":2:9: invalid leading UTF-8 octet");
	assert_error_len("per_cpu: true\0\n", 15, NAME ":1:14: control characters are not allowed");
}

TEST(aliases_cannot_loop)
{
	assert_error("include: &a [*a]\n", NAME ":1:10: include: expected a string, got a list");
	struct config *c = load("include: &g [/a/**]\nexclude: *g\n");

	ASSERT_STREQ(c->exclude[0], "/a/**");
	config_free(c);
}

TEST(unreadable_files_name_the_file)
{
	struct config *c = untouched;
	struct config_error e = {0};

	ASSERT_EQ(config_load_file("/nonexistent/cgacctd.yml", &c, &e), -ENOENT);
	ASSERT_TRUE(c == untouched);
	ASSERT_STREQ(e.message, "/nonexistent/cgacctd.yml: No such file or directory");
	ASSERT_EQ(e.line, 0);

	/* The web-config is loaded with the config: its errors name its own file. */
	ASSERT_EQ(
	    config_load_buffer("/etc/cgacct/cgacctd.yml", LIT("web_config_file: w.yml\n"), &c, &e),
	    -ENOENT);
	ASSERT_STREQ(e.message, "/etc/cgacct/w.yml: No such file or directory");
}

TEST(unreadable_tls_file_is_an_error)
{
	char *dir = tmpdir_make(), *cfg, *expected;
	struct config *c = untouched;
	struct config_error e = {0};

	file_write(dir, "cgacctd.yml", "per_cpu: true\nweb_config_file: web.yml\n");
	file_write(dir, "web.yml", "tls_server_config:\n  cert_file: missing.pem\n");
	ASSERT_TRUE(asprintf(&cfg, "%s/cgacctd.yml", dir) > 0);
	ASSERT_EQ(config_load_file(cfg, &c, &e), -EINVAL);
	ASSERT_TRUE(c == untouched);
	ASSERT_TRUE(asprintf(&expected,
			     "%s/web.yml:2:14: tls_server_config.cert_file: cannot read "
			     "\"%s/missing.pem\": No such file or directory",
			     dir, dir) > 0);
	ASSERT_STREQ(e.message, expected);
	ASSERT_EQ(e.line, 2);
	ASSERT_EQ(e.column, 14);
	free(expected);
	free(cfg);
	tmpdir_remove(dir);
	free(dir);
}
