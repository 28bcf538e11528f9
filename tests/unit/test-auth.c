/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Basic auth as requests meet it: Authorization header parsing, bcrypt
 * checks against htpasswd hashes, unknown users costing one bcrypt of the
 * same cost as known ones, and the gate: credentials checked once, one
 * bcrypt at a time.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "base/util.h"
#include "config/bcrypt.h"
#include "config/error.h"
#include "exporter/auth.h"
#include "helpers-config.h"

#define ALICE_PASSWORD "cgacct test password"

TEST(htpasswd_hash_accepts_the_password_only)
{
	struct web_config *wc = web_config_fixture("config/web-full.yml");

	ASSERT_TRUE(auth_required(wc));
	ASSERT_EQ(auth_check_password(wc, "alice", ALICE_PASSWORD), 1);
	ASSERT_EQ(auth_check_password(wc, "alice", "cgacct test passwore"), 0);
	ASSERT_EQ(auth_check_password(wc, "alice", ""), 0);
	ASSERT_EQ(auth_check_password(wc, "bob", "hunter2"), 1);
	ASSERT_EQ(auth_check_password(wc, "bob", ALICE_PASSWORD), 0);
	ASSERT_EQ(auth_check_password(wc, "mallory", ALICE_PASSWORD), 0);
	ASSERT_EQ(auth_check_password(wc, "Alice", ALICE_PASSWORD), 0);
	web_config_free(wc);
}

TEST(without_users_nothing_is_required_or_accepted)
{
	struct web_config *wc = NULL;
	struct config_error e = {0};

	ASSERT_TRUE(!auth_required(NULL));
	ASSERT_EQ(
	    web_config_load_buffer("web.yml", LIT("http_server_config: {http2: true}\n"), &wc, &e),
	    0);
	ASSERT_TRUE(!auth_required(wc));
	ASSERT_EQ(auth_check_password(wc, "", ""), 0);
	web_config_free(wc);
}

/*
 * The test links with --wrap=crypt_ra: every bcrypt the code runs passes
 * through here, so the tests can see which hash each check hashed against
 * without timing anything.
 */
char *__real_crypt_ra(const char *phrase, const char *setting, void **data, int *size);
char *__wrap_crypt_ra(const char *phrase, const char *setting, void **data, int *size);

static unsigned crypt_calls;
static char crypt_setting[64];
static bool crypt_matches_all; /* as if every password hashed to the hash it is checked against */

/* Set: a bcrypt waits at the gate until it is opened, as a slow one would. */
static pthread_mutex_t crypt_gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t crypt_gate_changed = PTHREAD_COND_INITIALIZER;
static bool crypt_gate_closed, crypt_waiting;

char *__wrap_crypt_ra(const char *phrase, const char *setting, void **data, int *size)
{
	char *out;

	pthread_mutex_lock(&crypt_gate_lock);
	crypt_waiting = true;
	pthread_cond_broadcast(&crypt_gate_changed);
	while (crypt_gate_closed)
		pthread_cond_wait(&crypt_gate_changed, &crypt_gate_lock);
	crypt_waiting = false;
	pthread_mutex_unlock(&crypt_gate_lock);
	crypt_calls++;
	snprintf(crypt_setting, sizeof(crypt_setting), "%s", setting);
	out = __real_crypt_ra(phrase, setting, data, size);
	if (out && crypt_matches_all && strlen(out) == strlen(setting))
		memcpy(out, setting, strlen(setting));
	return out;
}

/* The hash that one wrong-password check for user ran bcrypt against. */
static const char *hashed_against(const struct web_config *wc, const char *user)
{
	crypt_calls = 0;
	ASSERT_EQ(auth_check_password(wc, user, "wrong"), 0);
	ASSERT_EQ(crypt_calls, 1);
	return crypt_setting;
}

TEST(unknown_user_costs_a_bcrypt_of_the_same_cost)
{
	struct web_config *wc = web_config_fixture("config/web-full.yml");
	unsigned cost = 0;

	/* The dummy has the users' highest cost (alice 10, bob 4) and is a hash crypt takes. */
	ASSERT_TRUE(bcrypt_hash_valid(wc->dummy_hash, &cost));
	ASSERT_EQ(cost, 10);
	ASSERT_EQ(auth_verify_bcrypt(wc->dummy_hash, ALICE_PASSWORD), 0);
	ASSERT_EQ(auth_verify_bcrypt(wc->dummy_hash, ""), 0);
	/* Known or not, a check is one full bcrypt: the unknown one of the highest cost. */
	ASSERT_STREQ(hashed_against(wc, "alice"),
		     "$2y$10$HPyoadJkS0ARZ6yDyv9chu3Qiub0A0yaNuZuIl40aUZM5gRCqRIQm");
	ASSERT_STREQ(hashed_against(wc, "mallory"), wc->dummy_hash);
	ASSERT_STREQ(hashed_against(wc, ""), wc->dummy_hash);
	web_config_free(wc);
}

/* Should a password ever match the dummy hash, the user it stood in for is still unknown. */
TEST(unknown_user_is_refused_even_if_the_dummy_matched)
{
	struct web_config *wc = web_config_fixture("config/web-full.yml");

	crypt_matches_all = true;
	ASSERT_EQ(auth_check_password(wc, "bob", "wrong"), 1);
	ASSERT_EQ(auth_check_password(wc, "mallory", "wrong"), 0);
	crypt_matches_all = false;
	web_config_free(wc);
}

TEST(malformed_hashes_never_reach_crypt)
{
	crypt_calls = 0;
	ASSERT_EQ(auth_verify_bcrypt("$2y$10$short", "x"), -EINVAL);
	/* crypt() would take this for a DES salt: it must never get there. */
	ASSERT_EQ(auth_verify_bcrypt("plain", "x"), -EINVAL);
	ASSERT_EQ(crypt_calls, 0);
}

static void assert_credentials(const char *header, const char *user, const char *password)
{
	char *u = NULL, *p = NULL;

	ASSERT_EQ(auth_parse_basic(header, strlen(header), &u, &p), 0);
	ASSERT_STREQ(u, user);
	ASSERT_STREQ(p, password);
	free(u);
	auth_erase_password(p);
}

TEST(authorization_header_is_decoded)
{
	assert_credentials("Basic YWxpY2U6Y2dhY2N0IHRlc3QgcGFzc3dvcmQ=", "alice", ALICE_PASSWORD);
	assert_credentials("basic  YTpiOmM=", "a", "b:c");
	assert_credentials(" BASIC\tYWxpY2U6 \t", "alice", "");
	assert_credentials("Basic Og==", "", "");
	assert_credentials("Basic YWI6Yw==", "ab", "c");
}

TEST(malformed_authorization_is_refused)
{
	static const char *const bad[] = {
	    "",
	    "Basic",
	    "Basic ",
	    "BasicYWI6Yw==",
	    "Bearer YWI6Yw==",
	    "Basic YWI6Yw",    /* padding missing */
	    "Basic YWI6Yw=",   /* padding short */
	    "Basic YW=6Yw==",  /* padding inside */
	    "Basic YWI6Yw==x", /* junk after the token */
	    "Basic YWI6 Yw==",
	    "Basic bm9jb2xvbg==", /* no ':' */
	    "Basic YQBiOmM=",	  /* NUL in the user name */
	    "Basic ====",
	    "Basic YWI6Yw-_",
	};
	char *u = NULL, *p = NULL;

	for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
		if (auth_parse_basic(bad[i], strlen(bad[i]), &u, &p) != -EINVAL)
			fprintf(stderr, "accepted \"%s\"\n", bad[i]);
		ASSERT_EQ(auth_parse_basic(bad[i], strlen(bad[i]), &u, &p), -EINVAL);
	}
	/* Exactly len bytes are read: the NUL here lies outside the value. */
	ASSERT_EQ(auth_parse_basic("Basic YWI6Yw==", 13, &u, &p), -EINVAL);
	ASSERT_TRUE(u == NULL && p == NULL);
}

static char *basic(const char *user, const char *password)
{
	static const char alphabet[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char plain[128], *out;
	size_t n, o = 6;

	n = (size_t)snprintf(plain, sizeof(plain), "%s:%s", user, password);
	out = malloc(6 + (n + 2) / 3 * 4 + 1);
	ASSERT_TRUE(out != NULL);
	memcpy(out, "Basic ", 6);
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)(unsigned char)plain[i] << 16;

		v |= i + 1 < n ? (uint32_t)(unsigned char)plain[i + 1] << 8 : 0;
		v |= i + 2 < n ? (uint32_t)(unsigned char)plain[i + 2] : 0;
		out[o++] = alphabet[v >> 18 & 63];
		out[o++] = alphabet[v >> 12 & 63];
		out[o++] = i + 1 < n ? alphabet[v >> 6 & 63] : '=';
		out[o++] = i + 2 < n ? alphabet[v & 63] : '=';
	}
	out[o] = '\0';
	return out;
}

/* The gate remembers what it checked: right and wrong credentials cost a bcrypt once. */
TEST(gate_checks_each_credential_once)
{
	struct web_config *wc = web_config_fixture("config/web-full.yml");
	char *right = basic("alice", ALICE_PASSWORD), *wrong = basic("alice", "guess"),
	     *stranger = basic("mallory", "guess");
	struct auth_gate *g;

	ASSERT_EQ(auth_gate_new(&g), 0);
	crypt_calls = 0;
	ASSERT_EQ(auth_gate_check(g, wc, right), AUTH_ALLOWED);
	ASSERT_EQ(auth_gate_check(g, wc, wrong), AUTH_DENIED);
	ASSERT_EQ(auth_gate_check(g, wc, stranger), AUTH_DENIED);
	ASSERT_EQ(crypt_calls, 3);
	for (int i = 0; i < 5; i++) {
		ASSERT_EQ(auth_gate_check(g, wc, right), AUTH_ALLOWED);
		ASSERT_EQ(auth_gate_check(g, wc, wrong), AUTH_DENIED);
		ASSERT_EQ(auth_gate_check(g, wc, stranger), AUTH_DENIED);
	}
	ASSERT_EQ(crypt_calls, 3);
	/* no header, or a malformed one: denied without a bcrypt */
	ASSERT_EQ(auth_gate_check(g, wc, NULL), AUTH_DENIED);
	ASSERT_EQ(auth_gate_check(g, wc, "Basic !!!"), AUTH_DENIED);
	ASSERT_EQ(crypt_calls, 3);
	/* without a web-config nothing is asked */
	ASSERT_EQ(auth_gate_check(g, NULL, NULL), AUTH_ALLOWED);
	auth_gate_free(g);
	free(right);
	free(wrong);
	free(stranger);
	web_config_free(wc);
}

/* A new password for a user is a new credential: what the gate knew of the old one is not used. */
TEST(gate_forgets_credentials_whose_hash_changed)
{
	struct web_config *wc = web_config_fixture("config/web-full.yml"), *changed;
	char *right = basic("alice", ALICE_PASSWORD);
	struct auth_gate *g;

	ASSERT_EQ(auth_gate_new(&g), 0);
	ASSERT_EQ(auth_gate_check(g, wc, right), AUTH_ALLOWED);
	changed = web_config_fixture("config/web-full.yml");
	/* alice's hash replaced by bob's: her old password is wrong now */
	free(changed->users[0].value);
	changed->users[0].value = strdup(changed->users[1].value);
	crypt_calls = 0;
	ASSERT_EQ(auth_gate_check(g, changed, right), AUTH_DENIED);
	ASSERT_EQ(crypt_calls, 1);
	auth_gate_free(g);
	free(right);
	web_config_free(wc);
	web_config_free(changed);
}

struct checker {
	struct auth_gate *g;
	const struct web_config *wc;
	const char *header;
	enum auth_result result;
};

static void *check_in_thread(void *userdata)
{
	struct checker *c = userdata;

	c->result = auth_gate_check(c->g, c->wc, c->header);
	return NULL;
}

/*
 * One bcrypt at a time, and nobody waits for it: while one runs, another
 * credential that needs one is busy at once, and one the gate knows goes
 * through, so a flood of new passwords cannot hold up a known scraper.
 */
TEST(gate_runs_one_bcrypt_and_never_waits_for_it)
{
	struct web_config *wc = web_config_fixture("config/web-full.yml");
	char *right = basic("alice", ALICE_PASSWORD), *guess = basic("alice", "guess 1"),
	     *other = basic("alice", "guess 2");
	struct checker slow;
	struct auth_gate *g;
	pthread_t t;

	ASSERT_EQ(auth_gate_new(&g), 0);
	ASSERT_EQ(auth_gate_check(g, wc, right), AUTH_ALLOWED);
	slow = (struct checker){.g = g, .wc = wc, .header = guess};
	pthread_mutex_lock(&crypt_gate_lock);
	crypt_gate_closed = true;
	pthread_mutex_unlock(&crypt_gate_lock);
	ASSERT_EQ(pthread_create(&t, NULL, check_in_thread, &slow), 0);
	pthread_mutex_lock(&crypt_gate_lock);
	while (!crypt_waiting)
		pthread_cond_wait(&crypt_gate_changed, &crypt_gate_lock);
	pthread_mutex_unlock(&crypt_gate_lock);
	/* a bcrypt runs (and waits at the test's gate) */
	ASSERT_EQ(auth_gate_check(g, wc, other), AUTH_BUSY);
	ASSERT_EQ(auth_gate_check(g, wc, right), AUTH_ALLOWED);
	pthread_mutex_lock(&crypt_gate_lock);
	crypt_gate_closed = false;
	pthread_cond_broadcast(&crypt_gate_changed);
	pthread_mutex_unlock(&crypt_gate_lock);
	ASSERT_EQ(pthread_join(t, NULL), 0);
	ASSERT_EQ(slow.result, AUTH_DENIED);
	ASSERT_EQ(auth_gate_check(g, wc, other), AUTH_DENIED);
	auth_gate_free(g);
	free(right);
	free(guess);
	free(other);
	web_config_free(wc);
}
