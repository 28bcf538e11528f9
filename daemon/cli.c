/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Option parsing and the config the options select. --mountinfo, --root and
 * --walk-order point cgacctd at fake trees and let tests observe the walk;
 * they are documented but not meant for production.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "daemon/cli.h"

static void help(void)
{
	printf("Usage: cgacctd [OPTIONS]\n"
	       "Per-cgroup resource accounting, served to Prometheus over HTTP.\n\n"
	       "  -c, --config FILE   configuration file (default: the built-in defaults,\n"
	       "                      the same as %s as shipped)\n"
	       "  -l, --listen ADDR   serve on ADDR (HOST:PORT, [IPV6]:PORT or :PORT) instead\n"
	       "                      of the configured addresses; repeatable\n"
	       "  -n, --check-config  check the configuration and its web-config, then exit\n"
	       "      --once          collect once, print the exposition to stdout, exit\n"
	       "      --per-cpu       also export per-CPU CPU time (one series per CPU and\n"
	       "                      cgroup), whatever the configuration says\n"
	       "  -h, --help          show this help\n"
	       "      --version       show the version\n\n"
	       "For tests:\n"
	       "  --mountinfo FILE    mount table to find hierarchies in (default\n"
	       "                      /proc/self/mountinfo)\n"
	       "  --root DIR          prefix for every mount point and for /sys; with\n"
	       "                      --mountinfo this points cgacctd at a fake tree\n"
	       "  --walk-order FILE   with --once, also write every visited cgroup to FILE in\n"
	       "                      walk order, one line \"HIERARCHY<tab>ID<tab>kept|vanished\n"
	       "                      <tab>PATH\" (PATH with \\\\, \\t and \\n escaped)\n\n"
	       "SIGHUP reloads the configuration; see cgacctd(8).\n",
	       CONFIG_FILE_DEFAULT);
}

static int add_listen(struct cli *c, char *value)
{
	char **grown = realloc(c->listen, (c->n_listen + 2) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	c->listen = grown;
	c->listen[c->n_listen++] = value;
	c->listen[c->n_listen] = NULL;
	return 0;
}

int cli_parse(int argc, char **argv, struct cli *ret)
{
	enum { OPT_ONCE = 256, OPT_PER_CPU, OPT_MOUNTINFO, OPT_ROOT, OPT_WALK_ORDER, OPT_VERSION };
	static const struct option options[] = {
	    {"config", required_argument, NULL, 'c'},
	    {"listen", required_argument, NULL, 'l'},
	    {"check-config", no_argument, NULL, 'n'},
	    {"once", no_argument, NULL, OPT_ONCE},
	    {"per-cpu", no_argument, NULL, OPT_PER_CPU},
	    {"mountinfo", required_argument, NULL, OPT_MOUNTINFO},
	    {"root", required_argument, NULL, OPT_ROOT},
	    {"walk-order", required_argument, NULL, OPT_WALK_ORDER},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, OPT_VERSION},
	    {0},
	};
	struct cli c = {.mountinfo = "/proc/self/mountinfo", .root = ""};
	int opt, r = 0;

	while (r == 0 && (opt = getopt_long(argc, argv, "c:l:nh", options, NULL)) >= 0) {
		switch (opt) {
		case 'c':
			c.config_file = optarg;
			break;
		case 'l':
			r = add_listen(&c, optarg);
			break;
		case 'n':
			c.check_config = true;
			break;
		case OPT_ONCE:
			c.once = true;
			break;
		case OPT_PER_CPU:
			c.per_cpu = true;
			break;
		case OPT_MOUNTINFO:
			c.mountinfo = optarg;
			break;
		case OPT_ROOT:
			c.root = optarg;
			break;
		case OPT_WALK_ORDER:
			c.walk_order = optarg;
			break;
		case 'h':
			help();
			r = 1;
			break;
		case OPT_VERSION:
			printf("cgacctd %s\n", CGACCT_VERSION);
			r = 1;
			break;
		default:
			r = -EINVAL;
		}
	}
	if (r == 0 && optind < argc) {
		fprintf(stderr, "cgacctd: unexpected argument '%s'; see --help\n", argv[optind]);
		r = -EINVAL;
	}
	if (r == 0 && c.walk_order && !c.once) {
		fprintf(stderr, "cgacctd: --walk-order needs --once\n");
		r = -EINVAL;
	}
	if (r != 0) {
		cli_done(&c);
		return r;
	}
	*ret = c;
	return 0;
}

void cli_done(struct cli *c)
{
	free(c->listen);
	*c = (struct cli){0};
}

int cli_load_config(const struct cli *cli, struct config **ret, struct config_error *reterr)
{
	_cleanup_(config_freep) struct config *c = NULL;
	int r;

	*reterr = (struct config_error){0};
	if (cli->config_file) {
		r = config_load_file(cli->config_file, &c, reterr);
		if (r < 0)
			return r;
	} else {
		c = config_default();
		if (!c)
			return -ENOMEM;
	}
	r = config_override_listen(c, cli->listen, reterr);
	if (r < 0)
		return r;
	if (cli->per_cpu)
		c->per_cpu = true;
	*ret = TAKE_PTR(c);
	return 0;
}
