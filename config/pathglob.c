/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Glob matching on cgroup paths. Both levels, characters within a
 * component and components within a path, are the same problem: atoms that
 * each match one element, and stars that match any run of elements. So one
 * walk serves both, given how to step through each level.
 */
#include <stdint.h>
#include <string.h>

#include "config/pathglob.h"

struct wildcard {
	const char *pat, *subj;
	size_t pat_len, subj_len;
	/* Is the atom at p a star? If so, *ret_next is where the next atom starts. */
	bool (*is_star)(const struct wildcard *w, size_t p, size_t *ret_next);
	/* Does the atom at *p match the element at *s? Advances both if so. */
	bool (*match_one)(const struct wildcard *w, size_t *p, size_t *s);
	/* Where the subject element after the one at s starts. */
	size_t (*next_elem)(const struct wildcard *w, size_t s);
};

/*
 * On a mismatch, backtrack to the last star only: letting it absorb one more
 * element is enough, since any match an earlier star could have allowed, the
 * later one allows too. So O(pattern x subject) at worst, never exponential,
 * whatever cgroup names an unprivileged user creates in a delegated subtree.
 */
static bool wildcard_match(const struct wildcard *w)
{
	size_t p = 0, s = 0, star_p = SIZE_MAX, star_s = 0, next;

	while (s < w->subj_len) {
		if (p < w->pat_len && w->is_star(w, p, &next)) {
			star_p = p = next;
			star_s = s;
		} else if (p >= w->pat_len || !w->match_one(w, &p, &s)) {
			if (star_p == SIZE_MAX)
				return false;
			p = star_p;
			s = star_s = w->next_elem(w, star_s);
		}
	}
	while (p < w->pat_len && w->is_star(w, p, &next))
		p = next;
	return p == w->pat_len;
}

/* Length of the bracket expression starting at pat[0] == '[', or 0 if unterminated. */
static size_t class_len(const char *pat, size_t len)
{
	size_t i = 1;

	if (i < len && (pat[i] == '!' || pat[i] == '^'))
		i++;
	/* A ']' right after the opening (and negation) is a member, not the end. */
	if (i < len && pat[i] == ']')
		i++;
	for (; i < len; i++) {
		if (pat[i] == '\\') {
			if (++i == len)
				return 0;
		} else if (pat[i] == ']')
			return i + 1;
	}
	return 0;
}

/* pat[0..len) is a whole bracket expression, as measured by class_len(). */
static bool class_match(const char *pat, size_t len, char c)
{
	bool negate = pat[1] == '!' || pat[1] == '^', found = false;
	size_t i = negate ? 2 : 1, end = len - 1;

	while (i < end) {
		unsigned char lo, hi;

		if (pat[i] == '\\')
			i++;
		lo = hi = (unsigned char)pat[i++];
		if (i + 1 < end && pat[i] == '-') {
			if (pat[++i] == '\\')
				i++;
			hi = (unsigned char)pat[i++];
		}
		if ((unsigned char)c >= lo && (unsigned char)c <= hi)
			found = true;
	}
	return found != negate;
}

static bool char_is_star(const struct wildcard *w, size_t p, size_t *ret_next)
{
	*ret_next = p + 1;
	return w->pat[p] == '*';
}

static bool char_match_one(const struct wildcard *w, size_t *p, size_t *s)
{
	const char *a = w->pat + *p;
	char c = w->subj[*s];
	size_t n;
	bool ok;

	/* Malformed brackets and escapes (which pathglob_check refuses) are literals. */
	if (a[0] == '[' && (n = class_len(a, w->pat_len - *p)) > 0)
		ok = class_match(a, n, c);
	else if (a[0] == '\\' && *p + 1 < w->pat_len) {
		n = 2;
		ok = a[1] == c;
	} else {
		n = 1;
		ok = a[0] == '?' || a[0] == c;
	}
	if (ok) {
		*p += n;
		*s += 1;
	}
	return ok;
}

static size_t char_next(const struct wildcard *w, size_t s)
{
	return s + 1;
}

static bool component_match(const char *pat, size_t pat_len, const char *subj, size_t subj_len)
{
	const struct wildcard w = {
	    .pat = pat,
	    .pat_len = pat_len,
	    .subj = subj,
	    .subj_len = subj_len,
	    .is_star = char_is_star,
	    .match_one = char_match_one,
	    .next_elem = char_next,
	};

	return wildcard_match(&w);
}

/* Offset of the component after the one at i in a '/'-separated string. */
static size_t next_component(const char *str, size_t len, size_t i)
{
	i += strcspn(str + i, "/");
	return i < len ? i + 1 : len;
}

static bool path_is_star(const struct wildcard *w, size_t p, size_t *ret_next)
{
	*ret_next = next_component(w->pat, w->pat_len, p);
	return strncmp(w->pat + p, "**", 2) == 0 && (w->pat[p + 2] == '/' || w->pat[p + 2] == '\0');
}

static bool path_match_one(const struct wildcard *w, size_t *p, size_t *s)
{
	size_t pn = strcspn(w->pat + *p, "/"), sn = strcspn(w->subj + *s, "/");

	if (!component_match(w->pat + *p, pn, w->subj + *s, sn))
		return false;
	*p = next_component(w->pat, w->pat_len, *p);
	*s = next_component(w->subj, w->subj_len, *s);
	return true;
}

static size_t path_subj_next(const struct wildcard *w, size_t s)
{
	return next_component(w->subj, w->subj_len, s);
}

bool pathglob_match(const char *pattern, const char *path)
{
	struct wildcard w = {
	    .is_star = path_is_star,
	    .match_one = path_match_one,
	    .next_elem = path_subj_next,
	};

	if (pattern[0] != '/' || path[0] != '/')
		return false;
	/* the default include, asked about every cgroup of every scrape */
	if (strcmp(pattern, "/**") == 0)
		return true;
	w.pat = pattern + 1;
	w.pat_len = strlen(w.pat);
	w.subj = path + 1;
	w.subj_len = strlen(w.subj);
	return wildcard_match(&w);
}

bool pathglob_match_any(char *const *patterns, const char *path)
{
	for (; patterns && *patterns; patterns++)
		if (pathglob_match(*patterns, path))
			return true;
	return false;
}

static const char *component_check(const char *c, size_t len)
{
	if (len == 0)
		return "empty path component";
	if (len == 2 && c[0] == '*' && c[1] == '*')
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (c[i] == '*' && i + 1 < len && c[i + 1] == '*')
			return "\"**\" must be a whole path component";
		if (c[i] == '\\') {
			if (++i == len)
				return "trailing '\\'";
		} else if (c[i] == '[') {
			size_t n = class_len(c + i, len - i);

			if (n == 0)
				return "unbalanced '['";
			i += n - 1;
		}
	}
	return NULL;
}

const char *pathglob_check(const char *pattern)
{
	const char *c;

	if (pattern[0] != '/')
		return "not an absolute path";
	if (pattern[1] == '\0')
		return NULL;
	for (c = pattern + 1;;) {
		size_t len = strcspn(c, "/");
		const char *why = component_check(c, len);

		if (why)
			return why;
		if (c[len] == '\0')
			return NULL;
		c += len + 1;
	}
}
