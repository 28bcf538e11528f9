/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Go crypto/tls names as GnuTLS priority strings (config/tlsnames.c):
 * the versions in range, each named suite's key exchange, cipher and MAC
 * once, every TLS 1.3 suite whenever 1.3 may be spoken, the curves, and the
 * server's preference; names Go does not have are refused.
 */
#include "config/tlsnames.h"
#include "test.h"

static char *priorities(uint16_t min, uint16_t max, char *const *ciphers, char *const *curves,
			bool server_precedence)
{
	char *p = NULL;

	ASSERT_EQ(tls_gnutls_priorities(min, max, ciphers, curves, server_precedence, &p), 0);
	return p;
}

TEST(versions_in_range_and_nothing_else_by_default)
{
	char *p;

	p = priorities(TLS_VERSION_1_2, TLS_VERSION_1_3, NULL, NULL, false);
	ASSERT_STREQ(p, "NORMAL:-VERS-ALL:+VERS-TLS1.2:+VERS-TLS1.3");
	free(p);
	p = priorities(TLS_VERSION_1_0, TLS_VERSION_1_1, (char *const[]){NULL},
		       (char *const[]){NULL}, true);
	ASSERT_STREQ(p, "NORMAL:-VERS-ALL:+VERS-TLS1.0:+VERS-TLS1.1:%SERVER_PRECEDENCE");
	free(p);
	p = priorities(TLS_VERSION_1_3, TLS_VERSION_1_3, NULL, NULL, false);
	ASSERT_STREQ(p, "NORMAL:-VERS-ALL:+VERS-TLS1.3");
	free(p);
}

/*
 * Suites sharing a key exchange, cipher or MAC name each once; a TLS 1.3
 * suite in the list adds nothing by itself (Go offers them all with 1.3),
 * and unknown names are skipped here (the config refuses them first).
 */
TEST(cipher_suites_become_their_parts_once)
{
	char *tls12[] = {"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
			 "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
			 "TLS_RSA_WITH_AES_128_CBC_SHA",
			 "TLS_AES_256_GCM_SHA384",
			 "TLS_NO_SUCH_SUITE",
			 NULL};
	char *curves[] = {"X25519", "CurveP384", "X25519", "CurveP999", NULL};
	char *p;

	p = priorities(TLS_VERSION_1_2, TLS_VERSION_1_2, tls12, curves, false);
	ASSERT_STREQ(p, "NORMAL:-VERS-ALL:+VERS-TLS1.2:-KX-ALL:-CIPHER-ALL:-MAC-ALL"
			":+ECDHE-RSA:+AES-128-GCM:+AEAD:+ECDHE-ECDSA:+RSA:+AES-128-CBC:+SHA1"
			":-GROUP-ALL:+GROUP-X25519:+GROUP-SECP384R1");
	free(p);
	p = priorities(TLS_VERSION_1_2, TLS_VERSION_1_3, tls12, NULL, true);
	ASSERT_STREQ(p, "NORMAL:-VERS-ALL:+VERS-TLS1.2:+VERS-TLS1.3:-KX-ALL:-CIPHER-ALL:-MAC-ALL"
			":+ECDHE-RSA:+AES-128-GCM:+AEAD:+ECDHE-ECDSA:+RSA:+AES-128-CBC:+SHA1"
			":+AES-256-GCM:+CHACHA20-POLY1305:%SERVER_PRECEDENCE");
	free(p);
}

TEST(go_names_are_checked)
{
	ASSERT_TRUE(tls_cipher_check("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256") == NULL);
	ASSERT_TRUE(tls_cipher_check("TLS_AES_128_GCM_SHA256") == NULL);
	ASSERT_STREQ(
	    tls_cipher_check("TLS_RSA_WITH_RC4_128_SHA"),
	    "unknown cipher suite (Go names such as TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)");
	ASSERT_TRUE(tls_cipher_check("tls_aes_128_gcm_sha256") != NULL);
	ASSERT_TRUE(tls_curve_check("CurveP521") == NULL);
	ASSERT_STREQ(tls_curve_check("P256"),
		     "unknown curve (CurveP256, CurveP384, CurveP521 or X25519)");
	ASSERT_EQ(tls_version_names_len, 4);
	ASSERT_STREQ(tls_version_names[3].name, "TLS13");
	ASSERT_EQ(tls_version_names[3].value, TLS_VERSION_1_3);
}
