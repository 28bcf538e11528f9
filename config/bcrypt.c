/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bcrypt hashes by their form alone: libcrypt is not needed to know that
 * a configured password hash is one it will take ($2y$, $2b$ or $2a$).
 */
#include <stdio.h>
#include <string.h>

#include "config/bcrypt.h"

#define BCRYPT_ALPHABET "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

/* Salt and checksum from a throwaway htpasswd run; only the cost is filled in. */
#define DUMMY_SALT_AND_SUM "zCyZJqIiT9uDeV9Mtd9t7.PlHeO975AApPLW9znlrQ5enpdYf9WcS"

bool bcrypt_hash_valid(const char *hash, unsigned *ret_cost)
{
	unsigned cost;

	if (strlen(hash) != BCRYPT_HASH_LEN || strncmp(hash, "$2", 2) != 0 ||
	    !strchr("aby", hash[2]) || hash[3] != '$' || hash[6] != '$')
		return false;
	if (hash[4] < '0' || hash[4] > '9' || hash[5] < '0' || hash[5] > '9')
		return false;
	cost = (unsigned)(hash[4] - '0') * 10 + (unsigned)(hash[5] - '0');
	if (cost < 4 || cost > 31 || strspn(hash + 7, BCRYPT_ALPHABET) != BCRYPT_HASH_LEN - 7)
		return false;
	if (ret_cost)
		*ret_cost = cost;
	return true;
}

void bcrypt_dummy_hash(unsigned cost, char buf[static BCRYPT_HASH_LEN + 1])
{
	snprintf(buf, BCRYPT_HASH_LEN + 1, "$2y$%02u$%s",
		 cost < 4    ? 4
		 : cost > 31 ? 31
			     : cost,
		 DUMMY_SALT_AND_SUM);
}
