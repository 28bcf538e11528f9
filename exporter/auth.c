/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Basic-auth credentials, checked per request. bcrypt is slow on purpose
 * (cost 10 is some 70 ms), so the caller should serialise checks, as
 * exporter-toolkit does with a mutex, rather than let a flood of requests
 * run many at once.
 *
 * The Authorization header goes to the parser here rather than MHD's own,
 * so the same code (and its fuzz target) decides what a well-formed header
 * is. A libcrypt failure denies access: failing open is not an option.
 */
#include <crypt.h>
#include <errno.h>
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

int auth_check_password(const struct web_config *wc, const char *user, const char *password)
{
	const struct web_pair *found = NULL;
	int r;

	if (wc->n_users == 0)
		return 0;
	/* No early exit: the loop costs the same wherever the user is. */
	for (size_t i = 0; i < wc->n_users; i++)
		if (strcmp(wc->users[i].name, user) == 0)
			found = &wc->users[i];
	r = auth_verify_bcrypt(found ? found->value : wc->dummy_hash, password);
	if (r < 0)
		return r;
	return found && r == 1;
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

bool auth_request_allowed(struct MHD_Connection *c, const struct web_config *wc)
{
	const char *value;
	char *user = NULL, *password = NULL;
	int r;

	if (!auth_required(wc))
		return true;
	value = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
	if (!value || auth_parse_basic(value, strlen(value), &user, &password) < 0)
		return false;
	r = auth_check_password(wc, user, password);
	free(user);
	auth_erase_password(password);
	return r > 0;
}
