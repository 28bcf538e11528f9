/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Parsing of the comma-separated header lists with ";q=" weights behind
 * negotiation. Weights are read as thousandths with their own small parser,
 * never with strtod, whose result would depend on the locale.
 */
#include <string.h>
#include <strings.h>

#include "exporter/negotiate.h"

#define Q_MAX 1000

/* One element of a list header: "value; name=param; q=0.5". */
struct element {
	const char *value; /* media range or coding, not NUL-terminated */
	size_t value_len;
	const char *params; /* everything after the first ';', up to the next ',' */
	size_t params_len;
	unsigned q; /* thousandths, 0..1000 */
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static void trim(const char **s, size_t *len)
{
	while (*len > 0 && is_space(**s))
		(*s)++, (*len)--;
	while (*len > 0 && is_space((*s)[*len - 1]))
		(*len)--;
}

static bool equal_nocase(const char *s, size_t len, const char *literal)
{
	return strlen(literal) == len && strncasecmp(s, literal, len) == 0;
}

/* "1", "1.000", "0", "0.5", "0.123"; anything else is no weight at all. */
static unsigned parse_q(const char *s, size_t len)
{
	unsigned q, scale = 100;

	if (len == 0 || (s[0] != '0' && s[0] != '1') || len > 5 || (len > 1 && s[1] != '.'))
		return 0;
	q = (unsigned)(s[0] - '0') * Q_MAX;
	for (size_t i = 2; i < len; i++, scale /= 10) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		q += (unsigned)(s[i] - '0') * scale;
	}
	return q > Q_MAX ? 0 : q;
}

/* Finds parameter `name` in e's parameters; its value, quotes removed, in *ret. */
static bool element_param(const struct element *e, const char *name, const char **ret,
			  size_t *ret_len)
{
	const char *p = e->params, *end = e->params + e->params_len;

	while (p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		const char *stop = semi ? semi : end, *eq = memchr(p, '=', (size_t)(stop - p));

		if (eq) {
			const char *k = p, *v = eq + 1;
			size_t klen = (size_t)(eq - p), vlen = (size_t)(stop - v);

			trim(&k, &klen);
			trim(&v, &vlen);
			if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"')
				v++, vlen -= 2;
			if (equal_nocase(k, klen, name)) {
				*ret = v;
				*ret_len = vlen;
				return true;
			}
		}
		p = stop + 1;
	}
	return false;
}

/* The next element of a list header; false at its end. Empty elements are skipped. */
static bool element_next(const char **cursor, struct element *ret)
{
	while (**cursor) {
		const char *start = *cursor, *comma = strchr(start, ',');
		const char *end = comma ? comma : start + strlen(start), *semi, *q;
		size_t q_len;

		*cursor = comma ? comma + 1 : end;
		semi = memchr(start, ';', (size_t)(end - start));
		*ret = (struct element){.value = start,
					.value_len = (size_t)((semi ? semi : end) - start),
					.params = semi ? semi + 1 : end,
					.params_len = semi ? (size_t)(end - semi - 1) : 0,
					.q = Q_MAX};
		trim(&ret->value, &ret->value_len);
		if (ret->value_len == 0)
			continue;
		if (element_param(ret, "q", &q, &q_len))
			ret->q = parse_q(q, q_len);
		return true;
	}
	return false;
}

struct offer {
	const char *type, *subtype;
	const char *const *versions; /* acceptable "version=" values; absent is fine too */
};

static const char *const text_versions[] = {"0.0.4", NULL};
/* 0.0.1 is what client_golang calls its OpenMetrics; Prometheus parses both the same. */
static const char *const openmetrics_versions[] = {"1.0.0", "0.0.1", NULL};

static const struct offer offers[_RENDER_FORMAT_MAX] = {
    [RENDER_TEXT] = {"text", "plain", text_versions},
    [RENDER_OPENMETRICS] = {"application", "openmetrics-text", openmetrics_versions},
};

/*
 * How specifically the media range in e names offer o: -1 not at all, 0 for
 * the any-type wildcard, 1 for a wildcard subtype of o's type, 2 for o's
 * type and subtype.
 */
static int range_matches(const struct element *e, const struct offer *o)
{
	const char *slash = memchr(e->value, '/', e->value_len), *version;
	size_t type_len, subtype_len, version_len;

	if (!slash)
		return -1;
	type_len = (size_t)(slash - e->value);
	subtype_len = e->value_len - type_len - 1;
	if (equal_nocase(e->value, type_len, "*") && equal_nocase(slash + 1, subtype_len, "*"))
		return 0;
	if (!equal_nocase(e->value, type_len, o->type))
		return -1;
	if (equal_nocase(slash + 1, subtype_len, "*"))
		return 1;
	if (!equal_nocase(slash + 1, subtype_len, o->subtype))
		return -1;
	if (!element_param(e, "version", &version, &version_len))
		return 2;
	for (const char *const *v = o->versions; *v; v++)
		if (version_len == strlen(*v) && memcmp(version, *v, version_len) == 0)
			return 2;
	return -1;
}

/* The weight the header gives o: that of the most specific range naming it. */
static unsigned offer_weight(const char *accept, const struct offer *o)
{
	struct element e;
	int best = -1;
	unsigned q = 0;

	while (element_next(&accept, &e)) {
		int m = range_matches(&e, o);

		if (m > best || (m == best && m >= 0 && e.q > q)) {
			best = m;
			q = e.q;
		}
	}
	return q;
}

enum render_format negotiate_format(const char *accept)
{
	unsigned text, openmetrics;

	if (!accept)
		return RENDER_TEXT;
	text = offer_weight(accept, &offers[RENDER_TEXT]);
	openmetrics = offer_weight(accept, &offers[RENDER_OPENMETRICS]);
	/* On a tie the text format wins: every scraper reads it. */
	return openmetrics > text ? RENDER_OPENMETRICS : RENDER_TEXT;
}

bool negotiate_gzip(const char *accept_encoding)
{
	unsigned gzip = 0, any = 0;
	bool named = false;
	struct element e;

	if (!accept_encoding)
		return false;
	while (element_next(&accept_encoding, &e)) {
		if (equal_nocase(e.value, e.value_len, "gzip") ||
		    equal_nocase(e.value, e.value_len, "x-gzip")) {
			named = true;
			gzip = e.q > gzip ? e.q : gzip;
		} else if (equal_nocase(e.value, e.value_len, "*"))
			any = e.q;
	}
	return named ? gzip > 0 : any > 0;
}
