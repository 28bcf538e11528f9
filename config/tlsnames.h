/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The names exporter-toolkit's web-config uses for TLS parameters (those of
 * Go's crypto/tls), and their GnuTLS equivalents.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "config/yconf.h"

/* TLS protocol versions, as on the wire. */
enum tls_version {
	TLS_VERSION_1_0 = 0x0301,
	TLS_VERSION_1_1 = 0x0302,
	TLS_VERSION_1_2 = 0x0303,
	TLS_VERSION_1_3 = 0x0304,
};

/* Go's names of the versions (TLS10 ... TLS13), for yconf_enum(). */
extern const struct yconf_name tls_version_names[];
extern const size_t tls_version_names_len;

/* NULL if name is a cipher suite Go's tls.CipherSuites() lists, else why not. */
const char *tls_cipher_check(const char *name);
/* NULL if name is a curve exporter-toolkit accepts, else why not. */
const char *tls_curve_check(const char *name);

/*
 * A GnuTLS priority string for the versions from min_version to
 * max_version, the Go-named cipher suites and curves (NULL or empty: the
 * library's defaults), and the server's precedence if asked for.
 */
int tls_gnutls_priorities(uint16_t min_version, uint16_t max_version, char *const *ciphers,
			  char *const *curves, bool server_precedence, char **ret);
