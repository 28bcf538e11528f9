/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cgacctd: only wiring. Parse the command line, load the configuration,
 * then check it, collect once, or serve.
 */
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "daemon/cli.h"
#include "daemon/collection.h"
#include "daemon/log.h"
#include "daemon/selection.h"
#include "daemon/service.h"
#include "daemon/systemd.h"
#include "exporter/listen.h"
#include "exporter/render.h"

/* One line per visited cgroup; see --walk-order in cli.c. */
static void print_visit(void *userdata, const char *hierarchy, const char *path, uint64_t id,
			bool kept)
{
	FILE *f = userdata;

	fprintf(f, "%s\t%" PRIu64 "\t%s\t", hierarchy, id, kept ? "kept" : "vanished");
	for (const char *p = path; *p; p++) {
		const char *escaped = *p == '\\'   ? "\\\\"
				      : *p == '\t' ? "\\t"
				      : *p == '\n' ? "\\n"
						   : NULL;

		if (escaped)
			fputs(escaped, f);
		else
			fputc(*p, f);
	}
	fputc('\n', f);
}

static int write_all(const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(STDOUT_FILENO, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * --once: one collection as a scrape makes it, container names included
 * once every runtime has answered, printed as text.
 */
static int run_once(const struct cli *cli, const struct config *cfg, struct log_target *log)
{
	_cleanup_fclose_ FILE *walk_file = NULL;
	const struct scrape_settings settings = selection_scrape_settings(cfg);
	const struct render_options ro = {.version = CGACCT_VERSION,
					  .naming = settings.naming,
					  .max_series = settings.max_series};
	struct collection c;
	struct snapshot snap;
	struct strbuf out = {0};
	int r;

	if (cli->walk_order) {
		walk_file = fopen(cli->walk_order, "we");
		if (!walk_file)
			return log_error_errno(log, -errno, "%s", cli->walk_order);
	}
	collection_init(&c, cli, log);
	collection_containers_new(&c, cfg, &c.containers);
	if (c.containers)
		containers_wait_first(c.containers);
	r = collection_run(&c, cfg, walk_file ? print_visit : NULL, walk_file, &snap);
	collection_done(&c);
	if (walk_file && fclose(TAKE_PTR(walk_file)) != 0 && r >= 0)
		return log_error_errno(log, -errno, "%s", cli->walk_order);
	if (r < 0)
		return r;
	r = render_exposition(&snap, &ro, &out);
	if (r >= 0)
		r = write_all(out.buf, out.len);
	snapshot_free(&snap);
	strbuf_done(&out);
	if (r < 0)
		return log_error_errno(log, r, "writing the exposition");
	return 0;
}

/*
 * --check-config: what loading could not see. Every listen host resolves,
 * and every cgroup_roots entry is a cgroup of a mounted hierarchy here.
 */
static int check_config(const struct cli *cli, const struct config *cfg, struct log_target *log)
{
	const char *name = cli->config_file ? cli->config_file : "(built-in)";
	struct root_problem *bad = NULL;
	struct collect_options o;
	size_t n_bad = 0;
	int r = 0, q;

	for (size_t i = 0; i < cfg->n_listen; i++) {
		_cleanup_free_ char *address = NULL;
		const char *why;

		if (listen_resolve(&cfg->listen[i], &why) >= 0)
			continue;
		(void)listen_address_format(&cfg->listen[i], &address);
		log_error(log, "%s: listen: %s does not resolve: %s", name, address ? address : "?",
			  why);
		r = -EADDRNOTAVAIL;
	}
	selection_collect_options(cfg, cli, &o);
	q = collect_check_roots(&o, &bad, &n_bad);
	if (q < 0)
		return log_error_errno(log, q, "%s: cannot check cgroup_roots in %s", name,
				       cli->mountinfo);
	for (size_t i = 0; i < n_bad; i++)
		log_error(log, "%s: cgroup_roots: %s %s", name, bad[i].path,
			  collection_root_problem(bad[i].error));
	if (n_bad > 0)
		r = -EINVAL;
	root_problems_free(bad, n_bad);
	return r;
}

int main(int argc, char **argv)
{
	struct log_target log;
	struct config_error err;
	struct config *cfg = NULL;
	struct cli cli;
	int r;

	/*
	 * One malloc arena: collections run on whichever HTTP thread took the
	 * scrape, and with an arena per thread each would keep the high-water
	 * mark of a whole snapshot resident.
	 */
	mallopt(M_ARENA_MAX, 1);
	r = cli_parse(argc, argv, &cli);
	if (r != 0)
		return r > 0 ? 0 : 2;
	log_init(&log, LOG_INFO, systemd_stderr_is_journal());

	r = cli_load_config(&cli, &cfg, &err);
	if (r < 0) {
		log_error(&log, "%s", err.message[0] ? err.message : strerror(-r));
		cli_done(&cli);
		return 1;
	}
	atomic_store(&log.max_level, cfg->log_level);

	if (cli.check_config) {
		r = check_config(&cli, cfg, &log);
		if (r >= 0)
			printf("%s: configuration OK\n",
			       cli.config_file ? cli.config_file : "(built-in)");
		config_free(cfg);
	} else if (cli.once) {
		r = run_once(&cli, cfg, &log);
		config_free(cfg);
	} else
		r = service_run(&cli, cfg, &log);
	cli_done(&cli);
	return r < 0 ? 1 : 0;
}
