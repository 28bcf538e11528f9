/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cgacctd: only wiring. Parse the command line, collect one snapshot,
 * render it, print it. The HTTP server comes with the next issue.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "collect.h"
#include "render.h"

static void help(void)
{
	printf("Usage: cgacctd --once [OPTIONS]\n"
	       "Per-cgroup resource accounting in the Prometheus text format.\n\n"
	       "  --once             collect once, print the exposition to stdout, exit\n"
	       "  --per-cpu          also export per-CPU CPU time (one series per CPU and cgroup)\n"
	       "  --mountinfo FILE   mount table to find hierarchies in (default "
	       "/proc/self/mountinfo)\n"
	       "  --root DIR         prefix for every mount point and for /sys; with --mountinfo\n"
	       "                     this points cgacctd at a fake tree, e.g. in tests\n"
	       "  -h, --help         show this help\n"
	       "      --version      show the version\n");
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

int main(int argc, char **argv)
{
	enum { OPT_ONCE = 256, OPT_PER_CPU, OPT_MOUNTINFO, OPT_ROOT, OPT_VERSION };
	static const struct option options[] = {
	    {"once", no_argument, NULL, OPT_ONCE},
	    {"per-cpu", no_argument, NULL, OPT_PER_CPU},
	    {"mountinfo", required_argument, NULL, OPT_MOUNTINFO},
	    {"root", required_argument, NULL, OPT_ROOT},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, OPT_VERSION},
	    {0},
	};
	struct collect_options o = {.mountinfo = "/proc/self/mountinfo", .root = ""};
	struct snapshot snap;
	struct strbuf out = {0};
	bool once = false;
	int c, r;

	while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0) {
		switch (c) {
		case OPT_ONCE:
			once = true;
			break;
		case OPT_PER_CPU:
			o.per_cpu = true;
			break;
		case OPT_MOUNTINFO:
			o.mountinfo = optarg;
			break;
		case OPT_ROOT:
			o.root = optarg;
			break;
		case 'h':
			help();
			return 0;
		case OPT_VERSION:
			printf("cgacctd %s\n", CGACCT_VERSION);
			return 0;
		default:
			return 2;
		}
	}
	if (optind < argc || !once) {
		fprintf(stderr, "cgacctd: only --once is implemented; see --help\n");
		return 2;
	}

	r = collect_snapshot(&o, &snap);
	if (r < 0) {
		fprintf(stderr, "cgacctd: collection failed: %s\n", strerror(-r));
		return 1;
	}
	r = render_prometheus(&snap, CGACCT_VERSION, &out);
	if (r >= 0)
		r = write_all(out.buf, out.len);
	snapshot_free(&snap);
	strbuf_done(&out);
	if (r < 0) {
		fprintf(stderr, "cgacctd: %s\n", strerror(-r));
		return 1;
	}
	return 0;
}
