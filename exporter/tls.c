/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Client certificates are checked per request with the connection's GnuTLS
 * session: gnutls_certificate_verify_peers2() checks the chain against the
 * client_ca given to MHD as its trust list. Go's crypto/tls would fail the
 * handshake instead; refusing every request on the connection is the
 * closest MHD allows.
 */
#include <errno.h>
#include <gnutls/gnutls.h>
#include <stdlib.h>
#include <string.h>

#include "exporter/tls.h"

int tls_setup_new(const struct web_config *wc, struct tls_setup *ret)
{
	struct tls_setup s = {0};
	int r;

	*ret = s;
	if (!web_config_tls(wc))
		return 0;
	r = web_config_gnutls_priorities(wc, &s.priorities);
	if (r < 0)
		return r;
	s.key = strdup(wc->key.pem);
	s.cert = strdup(wc->cert.pem);
	/* With a trust list MHD asks every client for a certificate; without, none. */
	if (wc->client_ca.pem && wc->client_auth != WEB_CLIENT_AUTH_NONE)
		s.trust = strdup(wc->client_ca.pem);
	if (!s.key || !s.cert ||
	    (wc->client_ca.pem && wc->client_auth != WEB_CLIENT_AUTH_NONE && !s.trust)) {
		tls_setup_done(&s);
		return -ENOMEM;
	}
	*ret = s;
	return 0;
}

void tls_setup_done(struct tls_setup *s)
{
	if (s->key)
		explicit_bzero(s->key, strlen(s->key));
	free(s->key);
	free(s->cert);
	free(s->trust);
	free(s->priorities);
	*s = (struct tls_setup){0};
}

void tls_daemon_options(const struct tls_setup *s, struct MHD_OptionItem opts[TLS_OPTIONS_MAX])
{
	size_t n = 0;

	if (s->key) {
		opts[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, s->key};
		opts[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, s->cert};
		opts[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_PRIORITIES, 0, s->priorities};
		if (s->trust)
			opts[n++] =
			    (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_TRUST, 0, s->trust};
	}
	opts[n] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
}

bool tls_client_allowed(struct MHD_Connection *c, const struct web_config *wc)
{
	const union MHD_ConnectionInfo *info;
	gnutls_session_t session;
	unsigned n_certs = 0, status = 0;
	bool verify;

	if (!web_config_tls(wc) || wc->client_auth == WEB_CLIENT_AUTH_NONE ||
	    wc->client_auth == WEB_CLIENT_AUTH_REQUEST)
		return true;
	info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	if (!info || !info->tls_session)
		return false;
	session = (gnutls_session_t)info->tls_session;
	if (!gnutls_certificate_get_peers(session, &n_certs) || n_certs == 0)
		return wc->client_auth == WEB_CLIENT_AUTH_VERIFY_IF_GIVEN;
	verify = wc->client_auth == WEB_CLIENT_AUTH_VERIFY_IF_GIVEN ||
		 wc->client_auth == WEB_CLIENT_AUTH_REQUIRE_AND_VERIFY;
	if (!verify)
		return true;
	return gnutls_certificate_verify_peers2(session, &status) == GNUTLS_E_SUCCESS &&
	       status == 0;
}

static bool same_string(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

bool tls_same_setup(const struct web_config *a, const struct web_config *b)
{
	char *pa = NULL, *pb = NULL;
	bool same;

	if (web_config_tls(a) != web_config_tls(b))
		return false;
	if (!web_config_tls(a))
		return true;
	if (web_config_gnutls_priorities(a, &pa) < 0 || web_config_gnutls_priorities(b, &pb) < 0)
		same = false;
	else
		same = strcmp(pa, pb) == 0 && same_string(a->key.pem, b->key.pem) &&
		       same_string(a->cert.pem, b->cert.pem) &&
		       same_string(a->client_ca.pem, b->client_ca.pem) &&
		       a->client_auth == b->client_auth;
	free(pa);
	free(pb);
	return same;
}
