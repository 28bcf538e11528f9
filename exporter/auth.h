/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HTTP basic authentication of a request against web-config's
 * basic_auth_users: parsing the Authorization header, and checking a
 * password against a bcrypt hash with libcrypt (libxcrypt takes
 * $2y$/$2b$/$2a$) in time that tells neither how much of the hash matched
 * nor whether the user exists.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <microhttpd.h>

#include "config/webconfig.h"

/* Whether wc asks for authentication at all. */
bool auth_required(const struct web_config *wc);

/*
 * What stands between a flood of wrong passwords and the scrapes that
 * know theirs: a memory of the credentials checked lately, right and
 * wrong, keyed by a keyed hash of user, password and stored hash (as
 * exporter-toolkit keeps one), so that a scraper's credentials cost a
 * bcrypt once; and a bound of one bcrypt at a time, a check that would
 * need another being refused as busy at once. A flood of new wrong
 * passwords then costs one CPU and keeps only itself waiting, and every
 * scrape whose credentials were checked before goes through at once.
 */
struct auth_gate;

enum auth_result {
	AUTH_DENIED,
	AUTH_ALLOWED,
	AUTH_BUSY, /* a check was needed and none could run: answer 429 and come back */
};

int auth_gate_new(struct auth_gate **ret);
void auth_gate_free(struct auth_gate *g);

/*
 * Whether the Authorization header value (NULL: none) names a user of wc
 * with the right password, as the gate remembers it or as a bcrypt finds.
 * Allowed whatever the header where wc asks for no authentication.
 */
enum auth_result auth_gate_check(struct auth_gate *g, const struct web_config *wc,
				 const char *authorization);

/*
 * Parses an Authorization header value, "Basic base64(user:password)"
 * (scheme case-insensitive, padding required as in Go's net/http). The
 * password is what follows the first ':'. -EINVAL if malformed, including
 * a NUL byte in the credentials. Free the password with auth_erase_password().
 */
int auth_parse_basic(const char *value, size_t len, char **ret_user, char **ret_password);

/* Overwrites and frees a password. */
void auth_erase_password(char *password);

/*
 * 1 if user and password match one of wc's users, 0 if not (also when wc
 * has no users: auth_required() says whether it is needed at all), -errno
 * if libcrypt fails. An unknown user costs one bcrypt like a known one
 * (against wc->dummy_hash), so timing does not reveal which users exist.
 */
int auth_check_password(const struct web_config *wc, const char *user, const char *password);

/* 1 if password matches the bcrypt hash, 0 if not, -EINVAL for a malformed hash, -errno. */
int auth_verify_bcrypt(const char *hash, const char *password);
