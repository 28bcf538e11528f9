/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The TCP handshakes a listening socket has under way: connections whose
 * SYN it answered and whose ACK has not yet put them in its accept queue.
 * Asked of the kernel's socket diagnostics (sock_diag(7)), which any user
 * may read; the one way to know that closing the socket now resets nobody.
 */
#pragma once

/* How many handshakes listening socket fd has under way, or -errno (nobody can tell). */
int handshakes_pending(int fd);
