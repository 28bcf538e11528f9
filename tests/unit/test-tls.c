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

/*
 * The daemon's TLS options point into a copy of the web-config's key,
 * certificate and trust list, which a draining daemon keeps after its
 * configuration is gone.
 */
TEST(daemon_options_carry_key_certificate_priorities_and_trust)
{
	struct web_config *plain = without_tls(), *tls = web_config_fixture("config/web.yml"),
			  *mutual = web_config_fixture("config/web-full.yml");
	struct MHD_OptionItem opts[TLS_OPTIONS_MAX];
	struct tls_setup s;

	ASSERT_EQ(tls_setup_new(plain, &s), 0);
	ASSERT_TRUE(!s.key && !s.cert && !s.trust && !s.priorities);
	tls_daemon_options(&s, opts);
	ASSERT_EQ(opts[0].option, MHD_OPTION_END);
	tls_setup_done(&s);

	ASSERT_EQ(tls_setup_new(tls, &s), 0);
	tls_daemon_options(&s, opts);
	ASSERT_EQ(opts[0].option, MHD_OPTION_HTTPS_MEM_KEY);
	ASSERT_STREQ(opts[0].ptr_value, tls->key.pem);
	ASSERT_TRUE(opts[0].ptr_value != tls->key.pem);
	ASSERT_EQ(opts[1].option, MHD_OPTION_HTTPS_MEM_CERT);
	ASSERT_STREQ(opts[1].ptr_value, tls->cert.pem);
	ASSERT_EQ(opts[2].option, MHD_OPTION_HTTPS_PRIORITIES);
	ASSERT_STREQ(opts[2].ptr_value,
		     "NORMAL:-VERS-ALL:+VERS-TLS1.2:+VERS-TLS1.3:%SERVER_PRECEDENCE");
	ASSERT_EQ(opts[3].option, MHD_OPTION_END);
	tls_setup_done(&s);

	ASSERT_EQ(tls_setup_new(mutual, &s), 0);
	tls_daemon_options(&s, opts);
	ASSERT_EQ(opts[3].option, MHD_OPTION_HTTPS_MEM_TRUST);
	ASSERT_STREQ(opts[3].ptr_value, mutual->client_ca.pem);
	ASSERT_TRUE(strstr(mutual->client_ca.pem, "BEGIN CERTIFICATE") != NULL);
	ASSERT_EQ(opts[4].option, MHD_OPTION_END);
	/* the copy outlives the configuration */
	web_config_free(mutual);
	ASSERT_TRUE(strstr(s.trust, "BEGIN CERTIFICATE") != NULL);
	tls_setup_done(&s);
	web_config_free(plain);
	web_config_free(tls);
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
