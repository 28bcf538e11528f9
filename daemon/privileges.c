/* SPDX-License-Identifier: GPL-2.0-only */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/util.h"
#include "daemon/privileges.h"

uint64_t privileges_effective(void)
{
	_cleanup_free_ char *status = NULL;
	const char *line;
	uint64_t caps = 0;
	size_t len;

	if (read_file_at(AT_FDCWD, "/proc/self/status", &status, &len) < 0)
		return 0;
	line = strstr(status, "\nCapEff:");
	if (line && sscanf(line + strlen("\nCapEff:"), "%" SCNx64, &caps) != 1)
		caps = 0;
	return caps;
}
