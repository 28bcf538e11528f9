/* SPDX-License-Identifier: GPL-2.0-only */
/* NULL-terminated string arrays, as the config holds its lists; NULL is empty. */
#pragma once

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static inline size_t strv_length(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

static inline char **strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
	return NULL;
}

static inline bool strv_equal(char *const *a, char *const *b)
{
	size_t n = strv_length(a);

	if (n != strv_length(b))
		return false;
	for (size_t i = 0; i < n; i++)
		if (strcmp(a[i], b[i]) != 0)
			return false;
	return true;
}

static inline void strv_freep(char ***v)
{
	strv_free(*v);
}
