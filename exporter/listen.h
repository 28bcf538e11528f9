/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Listening sockets for the configured addresses. cgacctd opens them
 * itself, as systemd does for socket activation, so the HTTP server is
 * handed file descriptors either way.
 */
#pragma once

#include <stddef.h>

#include "config/address.h"

#define LISTEN_BACKLOG 128

/*
 * Opens and binds every socket the address stands for: one for a literal,
 * one per resolved address for a host name, and for ":port" one dual-stack
 * IPv6 socket (IPv4 only where IPv6 is unavailable). Appends the fds to
 * *fds (a malloc'd array of *n_fds). On failure nothing is appended.
 */
int listen_open(const struct listen_address *a, int **fds, size_t *n_fds);

/*
 * Whether the address's host resolves, as listen_open() would resolve it,
 * without opening anything: 0, or -EADDRNOTAVAIL (-EAGAIN for a temporary
 * failure) with *ret_why saying why, as a static string.
 */
int listen_resolve(const struct listen_address *a, const char **ret_why);
