/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The web-config.yml of Prometheus's exporter-toolkit, as Prometheus 2.42
 * reads it (exporter-toolkit v0.8): TLS, HTTP headers and basic-auth users.
 * The same file works with `promtool check web-config`. Loading also reads
 * the TLS files, so a missing key fails at start or reload, not at the first
 * handshake.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/bcrypt.h"

struct config_error;

enum web_client_auth {
	WEB_CLIENT_AUTH_NONE,		    /* NoClientCert */
	WEB_CLIENT_AUTH_REQUEST,	    /* RequestClientCert: asked for, not checked */
	WEB_CLIENT_AUTH_REQUIRE_ANY,	    /* RequireAnyClientCert: must be sent, not verified */
	WEB_CLIENT_AUTH_VERIFY_IF_GIVEN,    /* VerifyClientCertIfGiven */
	WEB_CLIENT_AUTH_REQUIRE_AND_VERIFY, /* RequireAndVerifyClientCert: the only secure one */
};

struct web_tls_file {
	char *path; /* resolved against the web-config file's directory; NULL = unset */
	char *pem;  /* the file's contents, read at load time */
	size_t pem_len;
};

/* A header and its value, or a user and the bcrypt hash of their password. */
struct web_pair {
	char *name, *value;
};

struct web_config {
	/* tls_server_config: TLS is on when cert.path is set, and then key.path is too. */
	struct web_tls_file cert, key, client_ca;
	enum web_client_auth client_auth;
	uint16_t min_version, max_version; /* enum tls_version (tlsnames.h); default 1.2 to 1.3 */
	char **cipher_suites;		   /* Go crypto/tls names; empty = library default */
	char **curve_preferences;	   /* Go names: CurveP256, CurveP384, CurveP521, X25519 */
	bool prefer_server_cipher_suites;  /* default true */

	/* http_server_config */
	bool http2; /* default true; only meaningful with TLS */
	struct web_pair *headers;
	size_t n_headers;

	/* basic_auth_users, name to hash: authentication is required when there is one. */
	struct web_pair *users;
	size_t n_users;
	char dummy_hash[BCRYPT_HASH_LEN + 1]; /* of the users' highest cost, for unknown users */
};

int web_config_load_file(const char *path, struct web_config **ret, struct config_error *reterr);
int web_config_load_buffer(const char *name, const char *buf, size_t len, struct web_config **ret,
			   struct config_error *reterr);
void web_config_free(struct web_config *wc);

static inline bool web_config_tls(const struct web_config *wc)
{
	return wc && wc->cert.path;
}

/*
 * A GnuTLS priority string (for MHD_OPTION_HTTPS_PRIORITIES) with the
 * versions, cipher suites, curves and precedence of the config. Go names
 * map to GnuTLS key exchange, cipher and MAC sets, so a restricted list is
 * approximated by their union; TLS 1.3 suites stay enabled, as in Go.
 */
int web_config_gnutls_priorities(const struct web_config *wc, char **ret);
