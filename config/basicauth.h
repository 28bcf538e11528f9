/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HTTP basic authentication against web-config's basic_auth_users: parsing
 * the Authorization header, and checking a password against a bcrypt hash
 * with libcrypt (libxcrypt takes $2y$/$2b$/$2a$) in time that tells neither
 * how much of the hash matched nor whether the user exists.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "config/webconfig.h"

/*
 * Parses an Authorization header value, "Basic base64(user:password)"
 * (scheme case-insensitive, padding required as in Go's net/http). The
 * password is what follows the first ':'. -EINVAL if malformed, including
 * a NUL byte in the credentials. Free the password with basic_auth_erase().
 */
int basic_auth_parse(const char *value, size_t len, char **ret_user, char **ret_password);

/* Overwrites and frees a password. */
void basic_auth_erase(char *password);

/*
 * 1 if user and password match one of wc's users, 0 if not (also when wc
 * has no users: check wc->n_users to know whether auth is required at
 * all), -errno if libcrypt fails. An unknown user costs one bcrypt like a
 * known one, so timing does not reveal which users exist.
 */
int web_config_check_password(const struct web_config *wc, const char *user, const char *password);

/* 1 if password matches the bcrypt hash, 0 if not, -errno. */
int bcrypt_verify(const char *hash, const char *password);

/* Whether hash is a well-formed bcrypt hash; its cost in *ret_cost (may be NULL). */
bool bcrypt_hash_valid(const char *hash, unsigned *ret_cost);

/* A valid bcrypt hash of the given cost (4..31) that no password is known to match. */
void bcrypt_dummy_hash(unsigned cost, char buf[static 64]);
