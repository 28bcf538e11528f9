/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command line. Flags override the configuration file: --listen
 * replaces its listen list, --per-cpu turns per-CPU series on.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"

struct cli {
	const char *config_file; /* NULL: the embedded default */
	char **listen;		 /* --listen values, in order; NULL-terminated */
	size_t n_listen;
	bool check_config;
	bool once;
	bool per_cpu;
	const char *mountinfo;	/* where to learn the hierarchies from */
	const char *root;	/* prefix for mount points and /sys; "" = the real root */
	const char *walk_order; /* --once: also list visited cgroups here; NULL = no */
};

/* 0: go on; 1: done (--help, --version), exit 0; -EINVAL: usage error, exit 2. */
int cli_parse(int argc, char **argv, struct cli *ret);
void cli_done(struct cli *c);

/*
 * Loads the configuration the command line names and applies its
 * overrides; on failure *reterr says why, with file:line:col where known.
 */
int cli_load_config(const struct cli *cli, struct config **ret, struct config_error *reterr);
