/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz targets for the configuration parsers (see fuzz.h): cgacctd.yml, web-config.yml, path globs,
 * and the scalar values and listen addresses the YAML only reaches through well-formed documents
 * (and --listen directly). Each target checks what must hold for every input: a refusal always
 * explains itself, an accepted value is well-formed and reads back the same.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/util.h"
#include "config/address.h"
#include "config/bcrypt.h"
#include "config/config.h"
#include "config/pathglob.h"
#include "config/values.h"
#include "fuzz.h"

/* A refusal explains itself; a position, when there is one, is 1-based in both parts. */
static void check_error(int r, const struct config_error *e)
{
	if (r == -EINVAL && (!e->message[0] || (e->line == 0) != (e->column == 0)))
		abort();
}

TARGET fuzz_config(const char *buf, size_t len)
{
	struct config *c = NULL;
	struct config_error e = {0};

	int r = config_load_buffer("fuzz.yml", buf, len, &c, &e);

	if (r < 0) {
		if (c)
			abort();
		check_error(r, &e);
		return;
	}
	if (c->n_listen == 0 || !config_equal(c, c) || !c->include || !c->exclude)
		abort();
	/* Globs that passed the check must be safe to match. */
	(void)config_cgroup_selected(c, "/");
	(void)config_cgroup_selected(c, "/system.slice/a/b.service");
	config_free(c);
}

TARGET fuzz_web_config(const char *buf, size_t len)
{
	struct web_config *wc = NULL;
	struct config_error e = {0};
	char *priorities;
	int r = web_config_load_buffer("fuzz/web.yml", buf, len, &wc, &e);

	if (r < 0) {
		if (wc)
			abort();
		check_error(r, &e);
		return;
	}
	if (wc->n_users > 0 && !bcrypt_hash_valid(wc->dummy_hash, NULL))
		abort();
	if (web_config_gnutls_priorities(wc, &priorities) == 0)
		free(priorities);
	web_config_free(wc);
}

/* The input is a pattern, a newline, and a path. */
TARGET fuzz_pathglob(const char *buf, size_t len)
{
	const char *nl = memchr(buf, '\n', len);
	char *pattern, *path;

	if (!nl || memchr(buf, '\0', len))
		return;
	pattern = strndup(buf, (size_t)(nl - buf));
	path = strndup(nl + 1, len - (size_t)(nl - buf) - 1);
	if (pattern && path && !pathglob_check(pattern))
		(void)pathglob_match(pattern, path);
	free(pattern);
	free(path);
}

/* Whatever parses, formats to a spelling that parses back to the same. */
TARGET fuzz_listen_address(const char *buf, size_t len)
{
	_cleanup_free_ char *s = fuzz_string(buf, len), *again = NULL;
	struct listen_address a = {0}, b = {0};
	const char *why = NULL;

	if (!s)
		return;
	if (listen_address_parse(s, &a, &why) < 0) {
		if (!why)
			abort();
		return;
	}
	if (listen_address_format(&a, &again) == 0 &&
	    (listen_address_parse(again, &b, NULL) < 0 || !listen_address_equal(&a, &b)))
		abort();
	listen_address_done(&a);
	listen_address_done(&b);
}

/* A parsed duration formats (to the millisecond) to one that parses back. */
TARGET fuzz_values(const char *buf, size_t len)
{
	_cleanup_free_ char *s = fuzz_string(buf, len), *again = NULL;
	uint64_t v, w;
	bool b;

	if (!s)
		return;
	(void)value_parse_u64(s, &v);
	(void)value_parse_bool(s, &b);
	if (value_parse_duration(s, &v) < 0)
		return;
	if (value_format_duration(v, &again) == 0 &&
	    (value_parse_duration(again, &w) < 0 || w != v / USEC_PER_MSEC * USEC_PER_MSEC))
		abort();
}

FUZZ_MAIN()
