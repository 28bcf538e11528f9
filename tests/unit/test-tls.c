/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TLS as the web-config asks for it (exporter/tls.c): the options MHD is
 * started with, whether a reload's web-config needs a new server, and
 * which client_auth_type lets every client through unasked. The
 * handshakes themselves are tests/service's.
 */
#include <errno.h>

#include "config/error.h"
#include "config/tlsnames.h"
#include "exporter/tls.h"
#include "helpers-config.h"

static struct web_config *without_tls(void)
{
	struct web_config *wc = NULL;
	struct config_error e = {0};

	ASSERT_EQ(
	    web_config_load_buffer("web.yml", LIT("http_server_config: {http2: true}\n"), &wc, &e),
	    0);
	return wc;
}

TEST(daemon_options_carry_key_certificate_priorities_and_trust)
{
	struct web_config *plain = without_tls(), *tls = web_config_fixture("config/web.yml"),
			  *mutual = web_config_fixture("config/web-full.yml");
	struct MHD_OptionItem opts[TLS_OPTIONS_MAX];
	char *priorities = (char *)"untouched";

	ASSERT_EQ(tls_daemon_options(plain, opts, &priorities), 0);
	ASSERT_TRUE(priorities == NULL);
	ASSERT_EQ(opts[0].option, MHD_OPTION_END);

	ASSERT_EQ(tls_daemon_options(tls, opts, &priorities), 0);
	ASSERT_EQ(opts[0].option, MHD_OPTION_HTTPS_MEM_KEY);
	ASSERT_TRUE(opts[0].ptr_value == tls->key.pem);
	ASSERT_EQ(opts[1].option, MHD_OPTION_HTTPS_MEM_CERT);
	ASSERT_TRUE(opts[1].ptr_value == tls->cert.pem);
	ASSERT_EQ(opts[2].option, MHD_OPTION_HTTPS_PRIORITIES);
	ASSERT_TRUE(opts[2].ptr_value == priorities);
	ASSERT_STREQ(priorities, "NORMAL:-VERS-ALL:+VERS-TLS1.2:+VERS-TLS1.3:%SERVER_PRECEDENCE");
	ASSERT_EQ(opts[3].option, MHD_OPTION_END);
	free(priorities);

	ASSERT_EQ(tls_daemon_options(mutual, opts, &priorities), 0);
	ASSERT_EQ(opts[3].option, MHD_OPTION_HTTPS_MEM_TRUST);
	ASSERT_TRUE(opts[3].ptr_value == mutual->client_ca.pem);
	ASSERT_TRUE(strstr(mutual->client_ca.pem, "BEGIN CERTIFICATE") != NULL);
	ASSERT_EQ(opts[4].option, MHD_OPTION_END);
	free(priorities);
	web_config_free(plain);
	web_config_free(tls);
	web_config_free(mutual);
}

/* A reload may keep the server only when nothing of its TLS changes. */
TEST(same_setup_means_the_same_tls_in_every_part)
{
	struct web_config *plain = without_tls(), *plain2 = without_tls(),
			  *tls = web_config_fixture("config/web.yml"),
			  *tls2 = web_config_fixture("config/web.yml"),
			  *mutual = web_config_fixture("config/web-full.yml");

	ASSERT_TRUE(tls_same_setup(plain, plain2));
	ASSERT_TRUE(tls_same_setup(tls, tls2));
	ASSERT_TRUE(!tls_same_setup(plain, tls));
	ASSERT_TRUE(!tls_same_setup(tls, plain));
	ASSERT_TRUE(!tls_same_setup(tls, mutual));
	tls2->client_auth = WEB_CLIENT_AUTH_REQUEST;
	ASSERT_TRUE(!tls_same_setup(tls, tls2));
	tls2->client_auth = tls->client_auth;
	tls2->max_version = TLS_VERSION_1_2;
	ASSERT_TRUE(!tls_same_setup(tls, tls2));
	web_config_free(plain);
	web_config_free(plain2);
	web_config_free(tls);
	web_config_free(tls2);
	web_config_free(mutual);
}

/* Without TLS, and with client_auth_type NoClientCert or RequestClientCert, nobody is asked. */
TEST(clients_pass_unasked_unless_certificates_count)
{
	struct web_config *plain = without_tls(), *tls = web_config_fixture("config/web.yml");

	ASSERT_TRUE(tls_client_allowed(NULL, plain));
	ASSERT_EQ(tls->client_auth, WEB_CLIENT_AUTH_NONE);
	ASSERT_TRUE(tls_client_allowed(NULL, tls));
	tls->client_auth = WEB_CLIENT_AUTH_REQUEST;
	ASSERT_TRUE(tls_client_allowed(NULL, tls));
	web_config_free(plain);
	web_config_free(tls);
}
