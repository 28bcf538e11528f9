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
 * Fills opts (TLS_OPTIONS_MAX items, MHD_OPTION_END-terminated) for
 * MHD_OPTION_ARRAY; *ret_priorities is referenced by opts and must be
 * freed after MHD_start_daemon(). Without TLS opts is just the end marker.
 */
int tls_daemon_options(const struct web_config *wc, struct MHD_OptionItem opts[TLS_OPTIONS_MAX],
		       char **ret_priorities);

/* Whether the connection's client certificate satisfies client_auth_type. */
bool tls_client_allowed(struct MHD_Connection *c, const struct web_config *wc);

/* Whether two web-configs need the same TLS setup (one that a running server cannot change). */
bool tls_same_setup(const struct web_config *a, const struct web_config *b);
