/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TLS for the HTTP server from a web-config: the MHD options (PEM in
 * memory, a GnuTLS priority string from the versions and suites) and the
 * client-certificate policy, which MHD leaves to the application: it only
 * asks for a certificate when given a trust list, and never requires one.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <microhttpd.h>

#include "config/webconfig.h"

/* Enough for key, certificate, trust list and priorities, and the end marker. */
#define TLS_OPTIONS_MAX 5

/*
 * What a daemon's TLS options point to, copied from a web-config: a daemon
 * that drains after a reload outlives the configuration it started with.
 */
struct tls_setup {
	char *key, *cert, *trust, *priorities; /* all NULL without TLS */
};

int tls_setup_new(const struct web_config *wc, struct tls_setup *ret);
void tls_setup_done(struct tls_setup *s);

/*
 * Fills opts (TLS_OPTIONS_MAX items, MHD_OPTION_END-terminated) for
 * MHD_OPTION_ARRAY from s, which must outlive the daemon. Without TLS opts
 * is just the end marker.
 */
void tls_daemon_options(const struct tls_setup *s, struct MHD_OptionItem opts[TLS_OPTIONS_MAX]);

/* Whether the connection's client certificate satisfies client_auth_type. */
bool tls_client_allowed(struct MHD_Connection *c, const struct web_config *wc);

/* Whether two web-configs need the same TLS setup (one that a running server cannot change). */
bool tls_same_setup(const struct web_config *a, const struct web_config *b);
