/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Basic-auth credentials, checked per request through the gate (auth.h):
 * bcrypt is slow on purpose, so the gate runs one at a time and remembers
 * what it found.
 *
 * The Authorization header goes to the parser here rather than MHD's own,
 * so the same code (and its fuzz target) decides what a well-formed header
 * is. A libcrypt failure denies access: failing open is not an option.
 */
#include <crypt.h>
#include <errno.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "config/bcrypt.h"
#include "exporter/auth.h"

#define BASE64_ALPHABET "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
#define CREDENTIALS_MAX 4096

/* Takes as long whatever the contents: an early exit would time the matching prefix. */
static bool equal_consttime(const char *a, const char *b, size_t n)
{
	volatile unsigned char diff = 0;

	for (size_t i = 0; i < n; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return diff == 0;
}

int auth_verify_bcrypt(const char *hash, const char *password)
{
	void *data = NULL;
	int size = 0, r;
	const char *out;

	/* crypt() would take "plain" as a DES salt: only ever run bcrypt. */
	if (!bcrypt_hash_valid(hash, NULL))
		return -EINVAL;
	errno = 0;
	out = crypt_ra(password, hash, &data, &size);
	if (!out || out[0] == '*')
		r = errno > 0 ? -errno : -EINVAL;
	else
		r = strlen(out) == BCRYPT_HASH_LEN && equal_consttime(out, hash, BCRYPT_HASH_LEN);
	/* The scratch area holds key material derived from the password. */
	if (data)
		explicit_bzero(data, (size_t)size);
	free(data);
	return r;
}

/* The stored hash a check of user compares with: the user's, or the dummy for an unknown one. */
static const char *stored_hash(const struct web_config *wc, const char *user)
{
	const char *hash = wc->dummy_hash;

	/* No early exit: the loop costs the same wherever the user is. */
	for (size_t i = 0; i < wc->n_users; i++)
		if (strcmp(wc->users[i].name, user) == 0)
			hash = wc->users[i].value;
	return hash;
}

int auth_check_password(const struct web_config *wc, const char *user, const char *password)
{
	const char *hash;
	int r;

	if (wc->n_users == 0)
		return 0;
	hash = stored_hash(wc, user);
	r = auth_verify_bcrypt(hash, password);
	if (r < 0)
		return r;
	return hash != wc->dummy_hash && r == 1;
}

static int base64_decode(const char *s, size_t len, char **ret, size_t *ret_len)
{
	_cleanup_free_ char *out = NULL;
	size_t o = 0, pad = 0;
	uint32_t acc = 0;

	if (len % 4 != 0)
		return -EINVAL;
	out = malloc(len / 4 * 3 + 1);
	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < len; i++) {
		const char *p = s[i] ? strchr(BASE64_ALPHABET, s[i]) : NULL;

		/* '=' only as the last one or two characters. */
		if (s[i] == '=' && i + 2 >= len && (i + 1 == len || s[i + 1] == '=')) {
			pad++;
			acc <<= 6;
		} else if (p && pad == 0)
			acc = acc << 6 | (uint32_t)(p - BASE64_ALPHABET);
		else
			return -EINVAL;
		if (i % 4 == 3) {
			out[o++] = (char)(acc >> 16);
			out[o++] = (char)(acc >> 8);
			out[o++] = (char)acc;
			acc = 0;
		}
	}
	o -= pad;
	out[o] = '\0';
	*ret_len = o;
	*ret = TAKE_PTR(out);
	return 0;
}

static size_t skip_ows(const char *s, size_t i, size_t len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

int auth_parse_basic(const char *value, size_t len, char **ret_user, char **ret_password)
{
	_cleanup_free_ char *decoded = NULL, *user = NULL;
	size_t i, start, end, n;
	char *colon, *password;
	int r;

	if (len > CREDENTIALS_MAX)
		return -EINVAL;
	i = skip_ows(value, 0, len);
	if (len - i < 6 || strncasecmp(value + i, "Basic", 5) != 0 ||
	    (value[i + 5] != ' ' && value[i + 5] != '\t'))
		return -EINVAL;
	start = skip_ows(value, i + 5, len);
	/* value need not be NUL-terminated: scan within len only. */
	for (end = start; end < len && value[end] && strchr(BASE64_ALPHABET "=", value[end]);)
		end++;
	if (skip_ows(value, end, len) != len)
		end = len; /* junk after the token: let the decoder refuse it */
	r = base64_decode(value + start, end - start, &decoded, &n);
	if (r < 0)
		return r;
	colon = memchr(decoded, ':', n);
	if (!colon || memchr(decoded, '\0', n)) {
		explicit_bzero(decoded, n);
		return -EINVAL;
	}
	user = strndup(decoded, (size_t)(colon - decoded));
	password = strdup(colon + 1);
	explicit_bzero(decoded, n);
	if (!user || !password) {
		free(password);
		return -ENOMEM;
	}
	*ret_user = TAKE_PTR(user);
	*ret_password = password;
	return 0;
}

void auth_erase_password(char *password)
{
	if (password)
		explicit_bzero(password, strlen(password));
	free(password);
}

bool auth_required(const struct web_config *wc)
{
	return wc && wc->n_users > 0;
}

/* Credentials remembered: right ones for long, wrong ones in a larger ring. */
#define REMEMBER_ALLOWED 16
#define REMEMBER_DENIED	 256

struct remembered {
	uint8_t key[32]; /* HMAC-SHA256 of user, password and stored hash; all zero: empty */
	uint64_t used;	 /* when last asked, for replacing the oldest */
};

struct auth_gate {
	uint8_t secret[32]; /* the HMAC key, this process's alone */
	pthread_mutex_t lock;
	struct remembered allowed[REMEMBER_ALLOWED], denied[REMEMBER_DENIED];
	uint64_t clock;		  /* under lock: a counter for "used" */
	pthread_mutex_t checking; /* held by the one bcrypt in progress */
};

int auth_gate_new(struct auth_gate **ret)
{
	struct auth_gate *g = calloc(1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	if (gnutls_rnd(GNUTLS_RND_KEY, g->secret, sizeof(g->secret)) < 0) {
		free(g);
		return -EIO;
	}
	pthread_mutex_init(&g->lock, NULL);
	pthread_mutex_init(&g->checking, NULL);
	*ret = g;
	return 0;
}

void auth_gate_free(struct auth_gate *g)
{
	if (!g)
		return;
	pthread_mutex_destroy(&g->lock);
	pthread_mutex_destroy(&g->checking);
	explicit_bzero(g, sizeof(*g));
	free(g);
}

static int remember_key(const struct auth_gate *g, const char *user, const char *password,
			const char *hash, uint8_t key[32])
{
	size_t lu = strlen(user) + 1, lp = strlen(password) + 1, lh = strlen(hash) + 1;
	char *data = malloc(lu + lp + lh);
	int r;

	if (!data)
		return -ENOMEM;
	memcpy(data, user, lu);
	memcpy(data + lu, password, lp);
	memcpy(data + lu + lp, hash, lh);
	r = gnutls_hmac_fast(GNUTLS_MAC_SHA256, g->secret, sizeof(g->secret), data, lu + lp + lh,
			     key);
	explicit_bzero(data, lu + lp + lh);
	free(data);
	return r < 0 ? -EIO : 0;
}

static struct remembered *find(struct remembered *v, size_t n, const uint8_t key[32])
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(v[i].key, key, 32) == 0)
			return &v[i];
	return NULL;
}

/* Under lock: remembers key in v, over the entry asked for least lately. */
static void remember(struct auth_gate *g, struct remembered *v, size_t n, const uint8_t key[32])
{
	struct remembered *oldest = &v[0];

	for (size_t i = 1; i < n; i++)
		if (v[i].used < oldest->used)
			oldest = &v[i];
	memcpy(oldest->key, key, 32);
	oldest->used = ++g->clock;
}

/* AUTH_ALLOWED or AUTH_DENIED if the gate remembers key; -1 if not. */
static int recall(struct auth_gate *g, const uint8_t key[32])
{
	struct remembered *hit;
	int r = -1;

	pthread_mutex_lock(&g->lock);
	if ((hit = find(g->allowed, REMEMBER_ALLOWED, key)))
		r = AUTH_ALLOWED;
	else if ((hit = find(g->denied, REMEMBER_DENIED, key)))
		r = AUTH_DENIED;
	if (hit)
		hit->used = ++g->clock;
	pthread_mutex_unlock(&g->lock);
	return r;
}

/*
 * Takes the one bcrypt's turn if nobody has it. A check never waits for
 * it: a waiting check would hold its HTTP thread, and with it every
 * connection that thread serves, Prometheus's among them.
 */
static bool take_turn(struct auth_gate *g)
{
	return pthread_mutex_trylock(&g->checking) == 0;
}

static enum auth_result check(struct auth_gate *g, const struct web_config *wc, const char *user,
			      const char *password)
{
	const char *hash = stored_hash(wc, user);
	uint8_t key[32];
	int r;

	if (remember_key(g, user, password, hash, key) < 0)
		return AUTH_DENIED;
	r = recall(g, key);
	if (r >= 0)
		return (enum auth_result)r;
	if (!take_turn(g))
		return AUTH_BUSY;
	/* another check may have settled it while this one waited */
	r = recall(g, key);
	if (r < 0)
		r = auth_check_password(wc, user, password) > 0 ? AUTH_ALLOWED : AUTH_DENIED;
	pthread_mutex_lock(&g->lock);
	if (r == AUTH_ALLOWED && !find(g->allowed, REMEMBER_ALLOWED, key))
		remember(g, g->allowed, REMEMBER_ALLOWED, key);
	else if (r == AUTH_DENIED && !find(g->denied, REMEMBER_DENIED, key))
		remember(g, g->denied, REMEMBER_DENIED, key);
	pthread_mutex_unlock(&g->lock);
	pthread_mutex_unlock(&g->checking);
	return (enum auth_result)r;
}

enum auth_result auth_gate_check(struct auth_gate *g, const struct web_config *wc,
				 const char *authorization)
{
	char *user = NULL, *password = NULL;
	enum auth_result r;

	if (!auth_required(wc))
		return AUTH_ALLOWED;
	if (!authorization ||
	    auth_parse_basic(authorization, strlen(authorization), &user, &password) < 0)
		return AUTH_DENIED;
	r = check(g, wc, user, password);
	free(user);
	auth_erase_password(password);
	return r;
}
