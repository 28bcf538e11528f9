/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What cgacctd uses of systemd, all of it harmless without systemd:
 * readiness and status notifications (Type=notify), the watchdog, socket
 * activation and journal detection. Facts: sd_notify(3), sd_listen_fds(3),
 * sd_watchdog_enabled(3), systemd.exec(5) $JOURNAL_STREAM.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sends "READY=1", "STATUS=...", ... to the service manager; a no-op without one. */
void systemd_notify(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* How often to send WATCHDOG=1 (half of WatchdogSec=), 0 if the watchdog is off. */
uint64_t systemd_watchdog_interval_usec(void);

/*
 * The listening sockets passed by socket activation, as a malloc'd array
 * (NULL, 0 without), after checking each is a listening stream socket. The
 * variables are unset so children do not inherit them.
 */
int systemd_listen_fds(int **ret_fds, size_t *ret_n);

/* Whether stderr is connected to the journal ($JOURNAL_STREAM names its device and inode). */
bool systemd_stderr_is_journal(void);
