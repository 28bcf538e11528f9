/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bcrypt hashes by their form (config/bcrypt.c): what libcrypt will take
 * as bcrypt, never something it would take for another scheme, and the
 * dummy hash unknown users are checked against, of a given cost.
 */
#include "config/bcrypt.h"
#include "test.h"

#define SALT_AND_SUM "V/XGzg9EPlnsZyUbvutQXu/iqvao6V5e26S9JTMxUmS61ujmycNfm"

TEST(hashes_of_each_bcrypt_prefix_and_their_cost)
{
	unsigned cost = 0;

	ASSERT_TRUE(bcrypt_hash_valid("$2y$04$" SALT_AND_SUM, &cost));
	ASSERT_EQ(cost, 4);
	ASSERT_TRUE(bcrypt_hash_valid("$2b$10$" SALT_AND_SUM, &cost));
	ASSERT_EQ(cost, 10);
	ASSERT_TRUE(bcrypt_hash_valid("$2a$31$" SALT_AND_SUM, &cost));
	ASSERT_EQ(cost, 31);
	ASSERT_TRUE(bcrypt_hash_valid("$2y$12$" SALT_AND_SUM, NULL));
}

TEST(other_forms_are_not_bcrypt)
{
	unsigned cost = 99;

	ASSERT_TRUE(!bcrypt_hash_valid(
	    "$2y$03$V/XGzg9EPlnsZyUbvutQXu/iqvao6V5e26S9JTMxUmS61ujmycNfm", NULL));
	ASSERT_TRUE(!bcrypt_hash_valid(
	    "$2x$04$V/XGzg9EPlnsZyUbvutQXu/iqvao6V5e26S9JTMxUmS61ujmycNfm", NULL));
	ASSERT_TRUE(!bcrypt_hash_valid(
	    "$1$04$V/XGzg9EPlnsZyUbvutQXu/iqvao6V5e26S9JTMxUmS61ujmycNfmm", NULL));
	ASSERT_TRUE(!bcrypt_hash_valid("$2y$32$" SALT_AND_SUM, &cost));
	ASSERT_TRUE(!bcrypt_hash_valid("$2y$1a$" SALT_AND_SUM, &cost));
	ASSERT_TRUE(!bcrypt_hash_valid("$2y$10" SALT_AND_SUM "x", &cost));
	ASSERT_TRUE(!bcrypt_hash_valid("$2y$10$" SALT_AND_SUM "x", &cost));
	ASSERT_TRUE(!bcrypt_hash_valid(
	    "$2y$10$V/XGzg9EPlnsZyUbvutQXu/iqvao6V5e26S9JTMxUmS61ujmycNf", &cost));
	ASSERT_TRUE(!bcrypt_hash_valid(
	    "$2y$10$V/XGzg9EPlnsZyUbvutQXu/iqvao6V5e26S9JTMxUmS61ujmycNf+", &cost));
	ASSERT_TRUE(!bcrypt_hash_valid("", &cost));
	ASSERT_TRUE(!bcrypt_hash_valid("plain", &cost));
	ASSERT_EQ(cost, 99); /* untouched */
}

/* The dummy hash is a valid hash of the cost asked for, within bcrypt's range. */
TEST(dummy_hash_is_valid_at_the_cost_asked_for)
{
	char hash[BCRYPT_HASH_LEN + 1];
	unsigned cost;

	for (unsigned c = 0; c <= 40; c++) {
		bcrypt_dummy_hash(c, hash);
		ASSERT_EQ(strlen(hash), BCRYPT_HASH_LEN);
		ASSERT_TRUE(bcrypt_hash_valid(hash, &cost));
		ASSERT_EQ(cost, c < 4 ? 4 : c > 31 ? 31 : c);
	}
	bcrypt_dummy_hash(10, hash);
	ASSERT_EQ(strncmp(hash, "$2y$10$", 7), 0);
}
