/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * web-config.yml loading. Keys follow exporter-toolkit v0.8 (Prometheus
 * 2.42), whose promtool must accept the same file; keys added by later
 * toolkits are refused by name so the message says why. Where the toolkit
 * quietly falls back to plain HTTP on a half-written TLS section, this
 * refuses the file instead.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/fileio.h"
#include "base/strv.h"
#include "base/util.h"
#include "config/bcrypt.h"
#include "config/tlsnames.h"
#include "config/webconfig.h"
#include "config/yconf.h"

#define FIELD(name) offsetof(struct web_config, name)

static void tls_file_done(struct web_tls_file *f)
{
	free(f->path);
	if (f->pem)
		explicit_bzero(f->pem, f->pem_len); /* the key file is a secret */
	free(f->pem);
	*f = (struct web_tls_file){0};
}

static void pairs_free(struct web_pair *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].value);
	}
	free(v);
}

static int pairs_append(struct web_pair **v, size_t *n, const char *name, const char *value)
{
	struct web_pair *grown = realloc(*v, (*n + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	*v = grown;
	grown[*n] = (struct web_pair){strdup(name), strdup(value)};
	(*n)++;
	return grown[*n - 1].name && grown[*n - 1].value ? 0 : -ENOMEM;
}

void web_config_free(struct web_config *wc)
{
	if (!wc)
		return;
	tls_file_done(&wc->cert);
	tls_file_done(&wc->key);
	tls_file_done(&wc->client_ca);
	strv_free(wc->cipher_suites);
	strv_free(wc->curve_preferences);
	pairs_free(wc->headers, wc->n_headers);
	pairs_free(wc->users, wc->n_users);
	free(wc);
}

static void web_config_freep(struct web_config **wc)
{
	web_config_free(*wc);
}

/* Relative paths are relative to the web-config file, as in exporter-toolkit. */
static int parse_tls_file(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	struct web_tls_file *f = field;
	struct config_error ignored;
	char q[YCONF_QUOTE_PATH_MAX];
	int r;

	tls_file_done(f);
	r = yconf_parse_string(y, key, value, &f->path);
	if (r < 0 || !f->path)
		return r;
	r = yconf_resolve_path(y, &f->path);
	if (r < 0)
		return r;
	r = yconf_read_file(f->path, &f->pem, &f->pem_len, &ignored);
	if (r < 0)
		return yconf_error(y, value, "%s: cannot read %s: %s", key,
				   yconf_quote_path(f->path, q),
				   r == -ERR_NOT_REGULAR ? "not a regular file" : strerror(-r));
	if (!strstr(f->pem, "-----BEGIN "))
		return yconf_error(y, value, "%s: %s holds no PEM data", key,
				   yconf_quote_path(f->path, q));
	return 0;
}

static int parse_client_auth(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	static const struct yconf_name names[] = {
	    {"NoClientCert", WEB_CLIENT_AUTH_NONE},
	    {"RequestClientCert", WEB_CLIENT_AUTH_REQUEST},
	    {"RequireAnyClientCert", WEB_CLIENT_AUTH_REQUIRE_ANY},
	    {"VerifyClientCertIfGiven", WEB_CLIENT_AUTH_VERIFY_IF_GIVEN},
	    {"RequireAndVerifyClientCert", WEB_CLIENT_AUTH_REQUIRE_AND_VERIFY},
	    /* The toolkit still takes this older spelling. */
	    {"RequireClientCert", WEB_CLIENT_AUTH_REQUIRE_ANY},
	};
	int v, r = yconf_enum(y, key, value, names, ELEMENTSOF(names), &v);

	if (r == 0)
		*(enum web_client_auth *)field = (enum web_client_auth)v;
	return r;
}

static int parse_tls_version(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	int v, r = yconf_enum(y, key, value, tls_version_names, tls_version_names_len, &v);

	if (r == 0)
		*(uint16_t *)field = (uint16_t)v;
	return r;
}

static int parse_ciphers(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	return yconf_parse_checked_strv(y, key, value, field, "cipher suite", tls_cipher_check);
}

static int parse_curves(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	return yconf_parse_checked_strv(y, key, value, field, "curve", tls_curve_check);
}

/* Keys of later exporter-toolkit versions: Prometheus 2.42's promtool rejects them too. */
static int parse_unsupported(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	return yconf_error(y, value,
			   "%s: not supported (a newer exporter-toolkit key that Prometheus "
			   "2.42's promtool rejects too)",
			   key);
}

static const struct yconf_key tls_keys[] = {
    {"cert_file", parse_tls_file, FIELD(cert)},
    {"key_file", parse_tls_file, FIELD(key)},
    {"client_ca_file", parse_tls_file, FIELD(client_ca)},
    {"client_auth_type", parse_client_auth, FIELD(client_auth)},
    {"min_version", parse_tls_version, FIELD(min_version)},
    {"max_version", parse_tls_version, FIELD(max_version)},
    {"cipher_suites", parse_ciphers, FIELD(cipher_suites)},
    {"curve_preferences", parse_curves, FIELD(curve_preferences)},
    {"prefer_server_cipher_suites", yconf_parse_bool, FIELD(prefer_server_cipher_suites)},
    {"cert", parse_unsupported, 0},
    {"key", parse_unsupported, 0},
    {"client_ca", parse_unsupported, 0},
    {"client_allowed_sans", parse_unsupported, 0},
};

/* The consistency exporter-toolkit checks when it builds its tls.Config, and a bit more. */
static int check_tls(struct yconf *y, const char *key, yaml_node_t *node, struct web_config *wc)
{
	bool enabled = wc->cert.path || wc->key.path || wc->client_ca.path ||
		       wc->client_auth != WEB_CLIENT_AUTH_NONE;

	if (enabled && !wc->cert.path)
		return yconf_error(y, node, "%s: missing cert_file", key);
	if (enabled && !wc->key.path)
		return yconf_error(y, node, "%s: missing key_file", key);
	if (wc->client_ca.path && wc->client_auth == WEB_CLIENT_AUTH_NONE)
		return yconf_error(y, node, "%s: client_ca_file needs a client_auth_type", key);
	/* Go would fall back to the system roots; a CA of one's own is what is meant. */
	if (!wc->client_ca.path && (wc->client_auth == WEB_CLIENT_AUTH_VERIFY_IF_GIVEN ||
				    wc->client_auth == WEB_CLIENT_AUTH_REQUIRE_AND_VERIFY))
		return yconf_error(y, node,
				   "%s: client_auth_type verifies certificates but "
				   "client_ca_file is missing",
				   key);
	if (wc->min_version > wc->max_version)
		return yconf_error(y, node, "%s: min_version is above max_version", key);
	return 0;
}

static int parse_tls(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	struct web_config *wc = field;
	int r;

	r = yconf_mapping(y, value, key, tls_keys, ELEMENTSOF(tls_keys), wc);
	if (r < 0)
		return r;
	return check_tls(y, key, value, wc);
}

/* The headers the toolkit lets one set, with their allowed values (NULL: any). */
static const struct {
	const char *name;
	const char *values[3];
} allowed_headers[] = {
    {"Strict-Transport-Security", {NULL}},
    {"X-Content-Type-Options", {"nosniff", NULL}},
    {"X-Frame-Options", {"deny", "sameorigin", NULL}},
    {"X-XSS-Protection", {NULL}},
    {"Content-Security-Policy", {NULL}},
};

static const char *header_check(const char *name, const char *value)
{
	for (size_t i = 0; i < ELEMENTSOF(allowed_headers); i++) {
		const char *const *v = allowed_headers[i].values;

		if (strcmp(allowed_headers[i].name, name) != 0)
			continue;
		if (!v[0])
			return NULL;
		for (; *v; v++)
			if (strcmp(*v, value) == 0)
				return NULL;
		return "value not allowed (X-Content-Type-Options: nosniff; X-Frame-Options: "
		       "deny or sameorigin)";
	}
	return "header cannot be configured (Strict-Transport-Security, "
	       "X-Content-Type-Options, X-Frame-Options, X-XSS-Protection, "
	       "Content-Security-Policy)";
}

static int header_item(struct yconf *y, const char *key, const char *name, yaml_node_t *name_node,
		       yaml_node_t *value, void *userdata)
{
	struct web_config *wc = userdata;
	const char *v, *why;
	char q[64];
	int r;

	r = yconf_scalar(y, key, value, "a header value", false, &v);
	if (r < 0)
		return r;
	why = header_check(name, v);
	if (why)
		return yconf_error(y, name_node, "%s: %s: %s", key, yconf_quote(name, q), why);
	return pairs_append(&wc->headers, &wc->n_headers, name, v);
}

static int parse_headers(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	return yconf_pairs(y, key, value, header_item, field);
}

static const struct yconf_key http_keys[] = {
    {"http2", yconf_parse_bool, FIELD(http2)},
    {"headers", parse_headers, 0},
};

static int parse_http(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	return yconf_mapping(y, value, key, http_keys, ELEMENTSOF(http_keys), field);
}

static int user_item(struct yconf *y, const char *key, const char *name, yaml_node_t *name_node,
		     yaml_node_t *value, void *userdata)
{
	struct web_config *wc = userdata;
	const char *hash;
	char q[64];
	int r;

	/* Basic credentials split at the first ':', so such a user could never log in. */
	if (strchr(name, ':'))
		return yconf_error(y, name_node, "%s: user name %s contains ':'", key,
				   yconf_quote(name, q));
	r = yconf_scalar(y, key, value, "a bcrypt hash", false, &hash);
	if (r < 0)
		return r;
	if (!bcrypt_hash_valid(hash, NULL))
		return yconf_error(y, value,
				   "%s: password of %s is not a bcrypt hash (as made by "
				   "htpasswd -nBC 10 USER)",
				   key, yconf_quote(name, q));
	return pairs_append(&wc->users, &wc->n_users, name, hash);
}

static int parse_users(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	return yconf_pairs(y, key, value, user_item, field);
}

static const struct yconf_key web_keys[] = {
    {"tls_server_config", parse_tls, 0},
    {"http_server_config", parse_http, 0},
    {"basic_auth_users", parse_users, 0},
    {"rate_limit", parse_unsupported, 0},
};

int web_config_load_buffer(const char *name, const char *buf, size_t len, struct web_config **ret,
			   struct config_error *reterr)
{
	_cleanup_(web_config_freep) struct web_config *wc = calloc(1, sizeof(*wc));
	unsigned cost = 0;
	int r;

	if (!wc)
		return -ENOMEM;
	/* exporter-toolkit's defaults. */
	wc->min_version = TLS_VERSION_1_2;
	wc->max_version = TLS_VERSION_1_3;
	wc->prefer_server_cipher_suites = true;
	wc->http2 = true;

	r = yconf_load_keys(name, buf, len, "web configuration", web_keys, ELEMENTSOF(web_keys), wc,
			    reterr);
	if (r < 0)
		return r;
	for (size_t i = 0; i < wc->n_users; i++) {
		unsigned c;

		if (bcrypt_hash_valid(wc->users[i].value, &c) && c > cost)
			cost = c;
	}
	if (wc->n_users > 0)
		bcrypt_dummy_hash(cost, wc->dummy_hash);
	*ret = TAKE_PTR(wc);
	return 0;
}

int web_config_load_file(const char *path, struct web_config **ret, struct config_error *reterr)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r = yconf_read_file(path, &buf, &len, reterr);

	return r < 0 ? r : web_config_load_buffer(path, buf, len, ret, reterr);
}

int web_config_gnutls_priorities(const struct web_config *wc, char **ret)
{
	return tls_gnutls_priorities(wc->min_version, wc->max_version, wc->cipher_suites,
				     wc->curve_preferences, wc->prefer_server_cipher_suites, ret);
}
