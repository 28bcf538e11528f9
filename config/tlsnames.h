/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The names exporter-toolkit's web-config uses for TLS parameters (those of
 * Go's crypto/tls), and their GnuTLS equivalents.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "config/yconf.h"

extern const struct yconf_name tls_version_names[];
extern const size_t tls_version_names_len;

/* NULL if name is a cipher suite Go's tls.CipherSuites() lists, else why not. */
const char *tls_cipher_check(const char *name);
/* NULL if name is a curve exporter-toolkit accepts, else why not. */
const char *tls_curve_check(const char *name);

int tls_gnutls_priorities(uint16_t min_version, uint16_t max_version, char *const *ciphers,
			  char *const *curves, bool server_precedence, char **ret);
