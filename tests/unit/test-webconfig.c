/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * web-config.yml: the toolkit's keys and defaults, TLS files read relative
 * to the file, refusals with file:line:col, users' bcrypt hashes checked
 * for form. Checking passwords against them is tests/unit/test-auth.c's.
 */
#include <errno.h>
#include <stdio.h>

#include "config/bcrypt.h"
#include "config/config.h"
#include "config/tlsnames.h"
#include "helpers-config.h"

/* message with @F for the file name and @D for the fixture directory. */
static char *expand(const char *message, const char *name)
{
	char *out = calloc(1, strlen(message) + 8 * strlen(name) + 1), *o = out;

	ASSERT_TRUE(out != NULL);
	for (const char *m = message; *m; m++) {
		if (m[0] == '@' && (m[1] == 'F' || m[1] == 'D')) {
			o = stpcpy(o, m[1] == 'F' ? name : FIXTURES_DIR "/config");
			m++;
		} else
			*o++ = *m;
	}
	return out;
}

/* Loaded as if from tests/fixtures/config/test.yml, so TLS paths find the fixtures. */
static void assert_error(const char *yaml, const char *message)
{
	char *name = fixture_path("config/test.yml"), *expected = expand(message, name);
	struct web_config *wc = NULL;
	struct config_error e = {0};

	ASSERT_EQ(web_config_load_buffer(name, yaml, strlen(yaml), &wc, &e), -EINVAL);
	ASSERT_TRUE(wc == NULL);
	ASSERT_STREQ(e.message, expected);
	free(expected);
	free(name);
}

TEST(tls_and_users_with_toolkit_defaults)
{
	struct web_config *wc = web_config_fixture("config/web.yml");

	ASSERT_TRUE(web_config_tls(wc));
	ASSERT_STREQ(wc->cert.path, FIXTURES_DIR "/config/server.pem");
	ASSERT_STREQ(wc->key.path, FIXTURES_DIR "/config/server.key");
	ASSERT_TRUE(strncmp(wc->cert.pem, "-----BEGIN CERTIFICATE-----", 27) == 0);
	ASSERT_EQ(wc->cert.pem_len, strlen(wc->cert.pem));
	ASSERT_TRUE(strstr(wc->key.pem, "PRIVATE KEY-----") != NULL);
	ASSERT_TRUE(wc->client_ca.path == NULL);
	ASSERT_EQ(wc->client_auth, WEB_CLIENT_AUTH_NONE);
	ASSERT_EQ(wc->min_version, TLS_VERSION_1_2);
	ASSERT_EQ(wc->max_version, TLS_VERSION_1_3);
	ASSERT_TRUE(wc->prefer_server_cipher_suites && wc->http2);
	ASSERT_TRUE(wc->cipher_suites == NULL && wc->curve_preferences == NULL);
	ASSERT_EQ(wc->n_headers, 0);
	ASSERT_EQ(wc->n_users, 1);
	ASSERT_STREQ(wc->users[0].name, "alice");
	ASSERT_TRUE(strncmp(wc->users[0].value, "$2y$10$", 7) == 0);
	web_config_free(wc);
}

TEST(every_toolkit_key_is_read)
{
	struct web_config *wc = web_config_fixture("config/web-full.yml");

	ASSERT_EQ(wc->client_auth, WEB_CLIENT_AUTH_REQUIRE_AND_VERIFY);
	ASSERT_STREQ(wc->client_ca.path, FIXTURES_DIR "/config/ca.pem");
	ASSERT_TRUE(wc->client_ca.pem != NULL);
	ASSERT_EQ(wc->min_version, TLS_VERSION_1_3);
	ASSERT_EQ(wc->max_version, TLS_VERSION_1_3);
	ASSERT_STREQ(wc->cipher_suites[0], "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");
	ASSERT_STREQ(wc->cipher_suites[1], "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");
	ASSERT_TRUE(wc->cipher_suites[2] == NULL);
	ASSERT_STREQ(wc->curve_preferences[0], "X25519");
	ASSERT_STREQ(wc->curve_preferences[1], "CurveP256");
	ASSERT_TRUE(!wc->prefer_server_cipher_suites && !wc->http2);
	ASSERT_EQ(wc->n_headers, 3);
	ASSERT_STREQ(wc->headers[0].name, "X-Frame-Options");
	ASSERT_STREQ(wc->headers[0].value, "deny");
	ASSERT_STREQ(wc->headers[2].value, "max-age=31536000");
	ASSERT_EQ(wc->n_users, 2);
	ASSERT_STREQ(wc->users[1].name, "bob");
	web_config_free(wc);
}

TEST(gnutls_priorities_mirror_the_config)
{
	struct web_config *wc = web_config_fixture("config/web.yml");
	char *p;

	ASSERT_EQ(web_config_gnutls_priorities(wc, &p), 0);
	ASSERT_STREQ(p, "NORMAL:-VERS-ALL:+VERS-TLS1.2:+VERS-TLS1.3:%SERVER_PRECEDENCE");
	free(p);
	web_config_free(wc);

	wc = web_config_fixture("config/web-full.yml");
	ASSERT_EQ(web_config_gnutls_priorities(wc, &p), 0);
	ASSERT_STREQ(p, "NORMAL:-VERS-ALL:+VERS-TLS1.3:-KX-ALL:-CIPHER-ALL:-MAC-ALL"
			":+ECDHE-ECDSA:+AES-128-GCM:+AEAD:+ECDHE-RSA:+CHACHA20-POLY1305"
			":+AES-256-GCM:-GROUP-ALL:+GROUP-X25519:+GROUP-SECP256R1");
	free(p);
	web_config_free(wc);
}

TEST(unknown_and_newer_keys_are_errors)
{
	assert_error("tls_server_config:\n  cert_fil: server.pem\n",
		     "@F:2:3: unknown key \"tls_server_config.cert_fil\"");
	assert_error("basic_auth:\n  alice: x\n", "@F:1:1: unknown key \"basic_auth\"");
	assert_error("tls_server_config:\n  client_allowed_sans: [a]\n",
		     "@F:2:24: tls_server_config.client_allowed_sans: not supported (a newer "
		     "exporter-toolkit key that Prometheus 2.42's promtool rejects too)");
	assert_error("rate_limit: {burst: 1}\n",
		     "@F:1:13: rate_limit: not supported (a newer exporter-toolkit key that "
		     "Prometheus 2.42's promtool rejects too)");
	assert_error("http_server_config: [http2]\n",
		     "@F:1:21: http_server_config: expected a mapping, got a list");
	assert_error("", "@F:1:1: empty web configuration");
}

/* However deep the checkout, the message names the file in full. */
static void assert_long_path_is_named_whole(void)
{
	char name[320] = "", yaml[400], message[600];

	for (int i = 0; i < 30; i++)
		strcat(name, "deep/dir/");
	strcat(name, "missing.pem");
	snprintf(yaml, sizeof(yaml), "tls_server_config:\n  cert_file: %s\n", name);
	snprintf(message, sizeof(message),
		 "@F:2:14: tls_server_config.cert_file: cannot read \"@D/%s\": No such file or "
		 "directory",
		 name);
	assert_error(yaml, message);
}

TEST(unreadable_tls_file_is_an_error)
{
	assert_error("tls_server_config:\n  cert_file: missing.pem\n  key_file: server.key\n",
		     "@F:2:14: tls_server_config.cert_file: cannot read \"@D/missing.pem\": No "
		     "such file or directory");
	assert_error("tls_server_config:\n  cert_file: server.pem\n  key_file: /nonexistent/k\n",
		     "@F:3:13: tls_server_config.key_file: cannot read \"/nonexistent/k\": No "
		     "such file or directory");
	assert_error(
	    "tls_server_config:\n  cert_file: .\n",
	    "@F:2:14: tls_server_config.cert_file: cannot read \"@D/.\": not a regular file");
	assert_error("tls_server_config:\n  client_ca_file: web.yml\n",
		     "@F:2:19: tls_server_config.client_ca_file: \"@D/web.yml\" holds no PEM data");

	assert_long_path_is_named_whole();
}

TEST(incomplete_tls_is_an_error)
{
	assert_error("tls_server_config:\n  key_file: server.key\n",
		     "@F:2:3: tls_server_config: missing cert_file");
	assert_error("tls_server_config:\n  cert_file: server.pem\n",
		     "@F:2:3: tls_server_config: missing key_file");
	assert_error("tls_server_config:\n  client_auth_type: RequireAnyClientCert\n",
		     "@F:2:3: tls_server_config: missing cert_file");
	assert_error("tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
		     "  client_ca_file: ca.pem\n",
		     "@F:2:3: tls_server_config: client_ca_file needs a client_auth_type");
	assert_error("tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
		     "  client_auth_type: RequireAndVerifyClientCert\n",
		     "@F:2:3: tls_server_config: client_auth_type verifies certificates but "
		     "client_ca_file is missing");
	assert_error("tls_server_config:\n  min_version: TLS13\n  max_version: TLS12\n",
		     "@F:2:3: tls_server_config: min_version is above max_version");
}

TEST(tls_names_are_checked)
{
	assert_error("tls_server_config:\n  min_version: TLS14\n",
		     "@F:2:16: tls_server_config.min_version: expected one of TLS10, TLS11, "
		     "TLS12, TLS13; got \"TLS14\"");
	assert_error("tls_server_config:\n  client_auth_type: Yes\n",
		     "@F:2:21: tls_server_config.client_auth_type: expected one of NoClientCert, "
		     "RequestClientCert, RequireAnyClientCert, VerifyClientCertIfGiven, "
		     "RequireAndVerifyClientCert, RequireClientCert; got \"Yes\"");
	assert_error("tls_server_config:\n  cipher_suites: [TLS_RSA_WITH_RC4_128_SHA]\n",
		     "@F:2:19: tls_server_config.cipher_suites: invalid cipher suite "
		     "\"TLS_RSA_WITH_RC4_128_SHA\": unknown cipher suite (Go names such as "
		     "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)");
	assert_error(
	    "tls_server_config:\n  curve_preferences: [P256]\n",
	    "@F:2:23: tls_server_config.curve_preferences: invalid curve \"P256\": unknown "
	    "curve (CurveP256, CurveP384, CurveP521 or X25519)");
}

TEST(headers_are_the_toolkits_few)
{
	assert_error("http_server_config:\n  headers:\n    Server: cgacct\n",
		     "@F:3:5: http_server_config.headers: \"Server\": header cannot be configured "
		     "(Strict-Transport-Security, X-Content-Type-Options, X-Frame-Options, "
		     "X-XSS-Protection, Content-Security-Policy)");
	assert_error("http_server_config:\n  headers:\n    X-Frame-Options: allow\n",
		     "@F:3:5: http_server_config.headers: \"X-Frame-Options\": value not allowed "
		     "(X-Content-Type-Options: nosniff; X-Frame-Options: deny or sameorigin)");
	assert_error("http_server_config:\n  http2: 1\n",
		     "@F:2:10: http_server_config.http2: expected true or false, got \"1\"");
}

TEST(users_need_bcrypt_hashes)
{
	assert_error("basic_auth_users:\n  alice: secret\n",
		     "@F:2:10: basic_auth_users: password of \"alice\" is not a bcrypt hash (as "
		     "made by htpasswd -nBC 10 USER)");
	assert_error("basic_auth_users:\n  \"a:b\": x\n",
		     "@F:2:3: basic_auth_users: user name \"a:b\" contains ':'");
	assert_error("basic_auth_users:\n  a: $2y$10$x\n  a: $2y$10$x\n",
		     "@F:2:6: basic_auth_users: password of \"a\" is not a bcrypt hash (as made "
		     "by htpasswd -nBC 10 USER)");
	assert_error("basic_auth_users:\n  bob: "
		     "$2y$04$V/XGzg9EPlnsZyUbvutQXu/iqvao6V5e26S9JTMxUmS61ujmycNfm\n"
		     "  bob: $2y$04$V/XGzg9EPlnsZyUbvutQXu/iqvao6V5e26S9JTMxUmS61ujmycNfm\n",
		     "@F:3:3: basic_auth_users: duplicate key \"bob\"");
}

/* A hash for unknown users, of the users' highest cost, is made only when there are users. */
TEST(dummy_hash_has_the_users_highest_cost)
{
	static const char bob_only[] =
	    "basic_auth_users:\n  bob: "
	    "$2y$04$V/XGzg9EPlnsZyUbvutQXu/iqvao6V5e26S9JTMxUmS61ujmycNfm\n";
	struct web_config *wc = web_config_fixture("config/web-full.yml");
	struct config_error e = {0};
	unsigned cost = 0;

	/* alice 10, bob 4 */
	ASSERT_TRUE(bcrypt_hash_valid(wc->dummy_hash, &cost));
	ASSERT_EQ(cost, 10);
	ASSERT_TRUE(strcmp(wc->dummy_hash, wc->users[0].value) != 0);
	web_config_free(wc);

	ASSERT_EQ(web_config_load_buffer("web.yml", LIT(bob_only), &wc, &e), 0);
	ASSERT_TRUE(bcrypt_hash_valid(wc->dummy_hash, &cost));
	ASSERT_EQ(cost, 4);
	web_config_free(wc);

	ASSERT_EQ(
	    web_config_load_buffer("web.yml", LIT("http_server_config: {http2: true}\n"), &wc, &e),
	    0);
	ASSERT_STREQ(wc->dummy_hash, "");
	web_config_free(wc);
}
