/* SPDX-License-Identifier: GPL-2.0-only */
/* A record's identity values, spelt as the labels show them. */
#include "model/identity.h"

static int hex_value(char h)
{
	if (h >= '0' && h <= '9')
		return h - '0';
	if (h >= 'a' && h <= 'f')
		return h - 'a' + 10;
	if (h >= 'A' && h <= 'F')
		return h - 'A' + 10;
	return -1;
}

void identity_value(const char *path, const struct identity_span *s, char *out)
{
	const char *v = path + s->off;
	size_t n = 0, len = s->len;

	for (size_t i = 0; i < len && n < IDENTITY_VALUE_MAX; i++) {
		char ch = v[i];

		if (s->spelling == IDENTITY_POD_UID_UNDERSCORED && ch == '_')
			ch = '-';
		if (s->spelling == IDENTITY_UNIT_ESCAPED && ch == '\\' && i + 3 < len &&
		    v[i + 1] == 'x' && hex_value(v[i + 2]) >= 0 && hex_value(v[i + 3]) >= 0) {
			ch = (char)(hex_value(v[i + 2]) * 16 + hex_value(v[i + 3]));
			i += 3;
		}
		out[n++] = ch;
	}
	out[n] = '\0';
}
