/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Go crypto/tls names to GnuTLS priority strings. The cipher suite list is
 * Go 1.19's tls.CipherSuites() (the Go that built Prometheus 2.42), which
 * is what exporter-toolkit accepts; "insecure" suites are refused there too.
 */
#include <errno.h>
#include <string.h>
#include <sys/types.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "config/tlsnames.h"

const struct yconf_name tls_version_names[] = {
    {"TLS10", TLS_VERSION_1_0},
    {"TLS11", TLS_VERSION_1_1},
    {"TLS12", TLS_VERSION_1_2},
    {"TLS13", TLS_VERSION_1_3},
};
const size_t tls_version_names_len = ELEMENTSOF(tls_version_names);

/* The GnuTLS spelling of each version, indexed by the low byte of the wire value. */
static const char *const gnutls_versions[] = {"VERS-TLS1.0", "VERS-TLS1.1", "VERS-TLS1.2",
					      "VERS-TLS1.3"};

static const struct {
	const char *go, *kx, *cipher, *mac; /* kx NULL: a TLS 1.3 suite */
} ciphers[] = {
    {"TLS_RSA_WITH_AES_128_CBC_SHA", "RSA", "AES-128-CBC", "SHA1"},
    {"TLS_RSA_WITH_AES_256_CBC_SHA", "RSA", "AES-256-CBC", "SHA1"},
    {"TLS_RSA_WITH_AES_128_GCM_SHA256", "RSA", "AES-128-GCM", "AEAD"},
    {"TLS_RSA_WITH_AES_256_GCM_SHA384", "RSA", "AES-256-GCM", "AEAD"},
    {"TLS_AES_128_GCM_SHA256", NULL, "AES-128-GCM", "AEAD"},
    {"TLS_AES_256_GCM_SHA384", NULL, "AES-256-GCM", "AEAD"},
    {"TLS_CHACHA20_POLY1305_SHA256", NULL, "CHACHA20-POLY1305", "AEAD"},
    {"TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", "ECDHE-ECDSA", "AES-128-CBC", "SHA1"},
    {"TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", "ECDHE-ECDSA", "AES-256-CBC", "SHA1"},
    {"TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "ECDHE-RSA", "AES-128-CBC", "SHA1"},
    {"TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", "ECDHE-RSA", "AES-256-CBC", "SHA1"},
    {"TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "ECDHE-ECDSA", "AES-128-GCM", "AEAD"},
    {"TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "ECDHE-ECDSA", "AES-256-GCM", "AEAD"},
    {"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "ECDHE-RSA", "AES-128-GCM", "AEAD"},
    {"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "ECDHE-RSA", "AES-256-GCM", "AEAD"},
    {"TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-RSA", "CHACHA20-POLY1305", "AEAD"},
    {"TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-ECDSA", "CHACHA20-POLY1305", "AEAD"},
};

static const struct {
	const char *go, *gnutls;
} curves[] = {
    {"CurveP256", "GROUP-SECP256R1"},
    {"CurveP384", "GROUP-SECP384R1"},
    {"CurveP521", "GROUP-SECP521R1"},
    {"X25519", "GROUP-X25519"},
};

static ssize_t cipher_index(const char *name)
{
	for (size_t i = 0; i < ELEMENTSOF(ciphers); i++)
		if (strcmp(ciphers[i].go, name) == 0)
			return (ssize_t)i;
	return -1;
}

static ssize_t curve_index(const char *name)
{
	for (size_t i = 0; i < ELEMENTSOF(curves); i++)
		if (strcmp(curves[i].go, name) == 0)
			return (ssize_t)i;
	return -1;
}

const char *tls_cipher_check(const char *name)
{
	return cipher_index(name) < 0 ? "unknown cipher suite (Go names such as "
					"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)"
				      : NULL;
}

const char *tls_curve_check(const char *name)
{
	return curve_index(name) < 0 ? "unknown curve (CurveP256, CurveP384, CurveP521 or X25519)"
				     : NULL;
}

/* Appends ":+item" unless the string has it already. */
static void add_once(struct strbuf *b, const char *item)
{
	const char *p = b->buf;
	size_t n = strlen(item);

	for (; p && (p = strstr(p, item)); p += n)
		if (p[-1] == '+' && (p[n] == ':' || p[n] == '\0'))
			return;
	strbuf_printf(b, ":+%s", item);
}

int tls_gnutls_priorities(uint16_t min_version, uint16_t max_version, char *const *cipher_list,
			  char *const *curve_list, bool server_precedence, char **ret)
{
	struct strbuf b = {0};
	int r;

	strbuf_puts(&b, "NORMAL:-VERS-ALL");
	for (unsigned v = min_version; v <= max_version && v <= TLS_VERSION_1_3; v++)
		if (v >= TLS_VERSION_1_0)
			add_once(&b, gnutls_versions[v - TLS_VERSION_1_0]);
	if (cipher_list && *cipher_list) {
		strbuf_puts(&b, ":-KX-ALL:-CIPHER-ALL:-MAC-ALL");
		for (char *const *c = cipher_list; *c; c++) {
			ssize_t i = cipher_index(*c);

			if (i < 0 || !ciphers[i].kx)
				continue;
			add_once(&b, ciphers[i].kx);
			add_once(&b, ciphers[i].cipher);
			add_once(&b, ciphers[i].mac);
		}
		/* Go always offers every TLS 1.3 suite; cipher_suites is for 1.2 and older. */
		if (max_version >= TLS_VERSION_1_3)
			for (size_t i = 0; i < ELEMENTSOF(ciphers); i++)
				if (!ciphers[i].kx) {
					add_once(&b, ciphers[i].cipher);
					add_once(&b, ciphers[i].mac);
				}
	}
	if (curve_list && *curve_list) {
		strbuf_puts(&b, ":-GROUP-ALL");
		for (char *const *c = curve_list; *c; c++)
			if (curve_index(*c) >= 0)
				add_once(&b, curves[curve_index(*c)].gnutls);
	}
	if (server_precedence)
		strbuf_puts(&b, ":%SERVER_PRECEDENCE");
	r = strbuf_status(&b);
	if (r < 0) {
		strbuf_done(&b);
		return r;
	}
	*ret = b.buf;
	return 0;
}
