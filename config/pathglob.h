/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Path globs for selecting cgroups by path: fnmatch(3) with FNM_PATHNAME,
 * plus a whole path component of two stars matching any number of
 * components, including none (so a pattern ending in slash-star-star
 * matches the directory itself and everything below it). Byte-wise, no
 * locale. Examples are in cgacctd.yml(5).
 *
 *   *       any run of characters within one component
 *   ?       one character other than '/'
 *   [a-z]   one character of the set; [!a-z] or [^a-z] one not in it
 *   \c      the character c itself
 *   **      zero or more whole components
 */
#pragma once

#include <stdbool.h>

/*
 * NULL when pattern is a valid glob, else why not (a static string). Stricter
 * than fnmatch: an unbalanced '[', a trailing '\', "**" inside a component,
 * an empty component and a relative pattern are errors, not literals.
 */
const char *pathglob_check(const char *pattern);

/* pattern must have passed pathglob_check(); path is absolute ("/" = root). */
bool pathglob_match(const char *pattern, const char *path);

/* True if any pattern of the NULL-terminated list matches. */
bool pathglob_match_any(char *const *patterns, const char *path);
