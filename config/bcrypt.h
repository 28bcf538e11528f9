/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What loading web-config's basic_auth_users needs to know of bcrypt: the
 * form of a hash as htpasswd -B writes it, and a hash for unknown users.
 * Checking a password against one is request-time work (exporter/auth.h).
 */
#pragma once

#include <stdbool.h>

/* "$2y$" (or $2a$, $2b$), two digits of cost, "$", 22 characters of salt, 31 of checksum. */
#define BCRYPT_HASH_LEN 60

/* Whether hash is a well-formed bcrypt hash; its cost in *ret_cost (may be NULL). */
bool bcrypt_hash_valid(const char *hash, unsigned *ret_cost);

/*
 * A valid bcrypt hash of the given cost (clamped to 4..31) that no password
 * is known to match: checked against for unknown users, so that they cost
 * as long as known ones with a wrong password.
 */
void bcrypt_dummy_hash(unsigned cost, char buf[static BCRYPT_HASH_LEN + 1]);
