/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scalar value parsing shared by cgacctd.yml and web-config.yml. Durations
 * follow Prometheus's model.ParseDuration so a value copied from a
 * Prometheus config means the same here.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "base/number.h"
#include "base/util.h"
#include "config/values.h"

int value_parse_u64(const char *s, uint64_t *ret)
{
	/* "010" would be octal to some YAML readers: refuse the ambiguity. */
	if (s[0] == '0' && s[1] != '\0')
		return -EINVAL;
	return number_parse_u64(s, strlen(s), ret);
}

/* Largest first: the order units must appear in. */
static const struct {
	const char *suffix;
	uint64_t usec;
} duration_units[] = {
    {"y", 365 * 24 * 3600 * USEC_PER_SEC},
    {"w", 7 * 24 * 3600 * USEC_PER_SEC},
    {"d", 24 * 3600 * USEC_PER_SEC},
    {"h", 3600 * USEC_PER_SEC},
    {"m", 60 * USEC_PER_SEC},
    {"s", USEC_PER_SEC},
    {"ms", USEC_PER_MSEC},
};

int value_parse_duration(const char *s, uint64_t *ret_usec)
{
	uint64_t total = 0;
	size_t next_unit = 0;

	if (strcmp(s, "0") == 0) {
		*ret_usec = 0;
		return 0;
	}
	if (*s == '\0')
		return -EINVAL;
	while (*s) {
		/* A number, then its unit. */
		size_t digits = strspn(s, "0123456789");
		uint64_t n;
		size_t i;
		int r;

		r = number_parse_u64(s, digits, &n);
		if (r < 0)
			return r;
		s += digits;
		for (i = next_unit; i < ELEMENTSOF(duration_units); i++) {
			size_t l = strlen(duration_units[i].suffix);

			/* "m" must not swallow the "m" of "ms". */
			if (strncmp(s, duration_units[i].suffix, l) == 0 &&
			    !(l == 1 && s[0] == 'm' && s[1] == 's'))
				break;
		}
		if (i == ELEMENTSOF(duration_units))
			return -EINVAL;
		if (n > (UINT64_MAX - total) / duration_units[i].usec)
			return -ERANGE;
		total += n * duration_units[i].usec;
		s += strlen(duration_units[i].suffix);
		next_unit = i + 1;
	}
	*ret_usec = total;
	return 0;
}

int value_format_duration(uint64_t usec, char **ret)
{
	char buf[128] = "";
	size_t len = 0;
	uint64_t ms = usec / USEC_PER_MSEC * USEC_PER_MSEC;

	if (ms == 0)
		return (*ret = strdup("0")) ? 0 : -ENOMEM;
	for (size_t i = 0; i < ELEMENTSOF(duration_units); i++) {
		uint64_t n = ms / duration_units[i].usec;

		if (n == 0)
			continue;
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%llu%s",
					(unsigned long long)n, duration_units[i].suffix);
		ms -= n * duration_units[i].usec;
	}
	return (*ret = strdup(buf)) ? 0 : -ENOMEM;
}

int value_parse_bool(const char *s, bool *ret)
{
	if (strcmp(s, "true") == 0 || strcmp(s, "True") == 0 || strcmp(s, "TRUE") == 0)
		*ret = true;
	else if (strcmp(s, "false") == 0 || strcmp(s, "False") == 0 || strcmp(s, "FALSE") == 0)
		*ret = false;
	else
		return -EINVAL;
	return 0;
}

bool value_is_null(const char *s)
{
	return s[0] == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 ||
	       strcmp(s, "Null") == 0 || strcmp(s, "NULL") == 0;
}

const char *value_check_path(const char *s)
{
	if (s[0] != '/')
		return "not an absolute path";
	for (const char *c = s + 1; *c;) {
		size_t l = strcspn(c, "/");

		if (l == 0 || (l == 1 && c[0] == '.') || (l == 2 && c[0] == '.' && c[1] == '.'))
			return "empty, \".\" or \"..\" path component";
		c += l;
		if (*c == '/')
			c++;
	}
	return NULL;
}
