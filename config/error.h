/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Why loading a configuration file failed: shared by cgacctd.yml, the
 * web-config and the YAML layer under both.
 */
#pragma once

#include <limits.h>

/*
 * Why loading failed, ready to print: "FILE:LINE:COL: KEY: what" (LINE and
 * COL 1-based), or "FILE: what" when no position applies, e.g. the file
 * cannot be read. The error may come from the web-config file, and then
 * names that file.
 */
struct config_error {
	unsigned line, column; /* 0 when the error has no position */
	/* Room for the config's path and a path it names, both whole. */
	char message[2 * PATH_MAX + 512];
};
