/* SPDX-License-Identifier: GPL-2.0-only */
/* The systemd glue, on libsystemd's sd-daemon. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include "daemon/systemd.h"

void systemd_notify(const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0)
		return;
	/* Failing to notify is not worth stopping for: systemd would time the start out. */
	(void)sd_notify(0, msg);
	free(msg);
}

uint64_t systemd_watchdog_interval_usec(void)
{
	uint64_t usec = 0;

	if (sd_watchdog_enabled(0, &usec) <= 0)
		return 0;
	/* sd_watchdog_enabled(3) recommends pinging at half the timeout. */
	return usec / 2;
}

int systemd_listen_fds(int **ret_fds, size_t *ret_n)
{
	int n = sd_listen_fds(1), *fds;

	*ret_fds = NULL;
	*ret_n = 0;
	if (n <= 0)
		return n;
	for (int fd = SD_LISTEN_FDS_START; fd < SD_LISTEN_FDS_START + n; fd++)
		if (sd_is_socket(fd, AF_UNSPEC, SOCK_STREAM, 1) <= 0)
			return -EBADF;
	fds = calloc((size_t)n, sizeof(*fds));
	if (!fds)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		fds[i] = SD_LISTEN_FDS_START + i;
	*ret_fds = fds;
	*ret_n = (size_t)n;
	return 0;
}

bool systemd_stderr_is_journal(void)
{
	const char *e = getenv("JOURNAL_STREAM");
	uintmax_t dev, ino;
	struct stat st;

	if (!e || sscanf(e, "%ju:%ju", &dev, &ino) != 2 || fstat(STDERR_FILENO, &st) < 0)
		return false;
	return st.st_dev == dev && st.st_ino == ino;
}
