/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The reader that runs a controller over one cgroup: reading its files,
 * through held descriptors where there are some, and turning table rows
 * into samples, so that adding a metric is adding a row. "Absent" is
 * success: a controller that is not enabled for a cgroup, or a kernel
 * without some file, is simply not collected.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/util.h"
#include "collector/bpf/source.h"
#include "collector/controllers/reader.h"
#include "collector/heldfiles.h"
#include "collector/parse.h"

/*
 * v1 reports "unlimited" as the page counter's maximum in bytes:
 * PAGE_COUNTER_MAX * PAGE_SIZE = 9223372036854771712 with 4 KiB pages, and
 * hugetlb rounds that down to whole huge pages. Anything from 2^62 on is
 * therefore "unlimited"; no real limit is 4 EiB.
 */
#define V1_UNLIMITED_MIN (UINT64_C(1) << 62)

int reader_read(const struct reader_ctx *c, const char *file, const char **ret, size_t *ret_len)
{
	int r = c->held_cgroup ? held_read(c->held, c->held_cgroup, c->dirfd, file, c->buf, ret_len)
			       : read_file_into(c->dirfd, file, c->buf, ret_len);

	if (r == -ENOENT) {
		(*c->absent)++;
		return 0;
	}
	if (r < 0)
		return r;
	*ret = c->buf->data;
	return 1;
}

int reader_emit(const struct reader_ctx *c, enum metric m, const char *label, uint64_t value,
		uint64_t scale)
{
	if (value == CG_UNLIMITED)
		return 0;
	if (scale > 1) {
		if (value > UINT64_MAX / scale)
			return -ERANGE;
		value *= scale;
	}
	return record_add(c->rec, m, label, value);
}

uint64_t reader_counter_bytes(const struct reader_ctx *c, uint64_t pages, uint64_t unit)
{
	const uint64_t counter_max = (uint64_t)INT64_MAX / c->page_size;

	if (unit == 0)
		unit = 1;
	return pages >= counter_max - counter_max % unit ? CG_UNLIMITED : pages * c->page_size;
}

const struct record *reader_record(const struct reader_ctx *c)
{
	return c->bpf && c->bpf->r->level > 0 ? c->bpf->r : NULL;
}

int reader_emit_keys(const struct reader_ctx *c, const struct key_metric *t, size_t n,
		     const uint64_t *values, uint64_t found)
{
	int r = 0;

	for (uint64_t left = found; r >= 0 && left; left &= left - 1) {
		unsigned i = (unsigned)__builtin_ctzll(left);

		if (i < n)
			r = reader_emit(c, t[i].metric, t[i].label, values[i], t[i].scale);
	}
	return r;
}

static int parse_value(const char *buf, size_t len, enum value_kind kind, uint64_t *ret)
{
	int64_t s;
	int r;

	if (kind == VALUE_SIGNED_LIMIT) {
		r = parse_single_s64(buf, len, &s);
		if (r < 0)
			return r;
		*ret = s < 0 ? CG_UNLIMITED : (uint64_t)s;
		return 0;
	}
	r = parse_single_value(buf, len, ret);
	if (r < 0)
		return r;
	if (kind == VALUE_LIMIT && *ret >= V1_UNLIMITED_MIN)
		*ret = CG_UNLIMITED;
	return 0;
}

int read_value_file(const struct reader_ctx *c, const char *file, const struct file_metric *fm,
		    const char *label)
{
	const char *buf;
	uint64_t v;
	size_t len;
	int r;

	r = reader_read(c, file, &buf, &len);
	if (r <= 0)
		return r;
	r = parse_value(buf, len, fm->kind, &v);
	if (r < 0)
		return r;
	return reader_emit(c, fm->metric, label, v, fm->scale);
}

int read_file_metrics(const struct reader_ctx *c, const struct file_metric *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int r = read_value_file(c, t[i].file, &t[i], NULL);

		if (r < 0)
			return r;
	}
	return 0;
}

/* Where the first line that starts with prefix does, or buf when none does. */
static const char *first_line_with(const char *buf, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = buf, *end = buf + len;

	if (len == 0 || (len >= n && memcmp(buf, prefix, n) == 0))
		return buf;
	/* past buf's first byte, so p[-1] is there */
	while ((p = memmem(p + 1, (size_t)(end - p - 1), prefix, n)) && p[-1] != '\n')
		;
	return p ? p : buf;
}

int read_keyed_file_from(const struct reader_ctx *c, const char *file, const char *from,
			 const struct key_metric *t, size_t n, uint64_t *ret_values,
			 uint64_t *ret_found)
{
	const char *buf;
	const char *keys[KEYS_MAX];
	uint64_t values[KEYS_MAX], found = 0;
	size_t len;
	int r;

	if (n > KEYS_MAX)
		return -E2BIG;
	memset(values, 0, n * sizeof(*values));
	r = reader_read(c, file, &buf, &len);
	if (r > 0 && from) {
		const char *start = first_line_with(buf, len, from);

		len -= (size_t)(start - buf);
		buf = start;
	}
	if (r > 0) {
		for (size_t i = 0; i < n; i++)
			keys[i] = t[i].key;
		r = parse_flat_keyed(buf, len, keys, n, values, &found);
	}
	if (r >= 0)
		r = reader_emit_keys(c, t, n, values, found);
	if (r < 0)
		return r;
	if (ret_values)
		for (size_t i = 0; i < n; i++)
			ret_values[i] = values[i];
	if (ret_found)
		*ret_found = found;
	return 0;
}

int read_keyed_file(const struct reader_ctx *c, const char *file, const struct key_metric *t,
		    size_t n, uint64_t *ret_values, uint64_t *ret_found)
{
	return read_keyed_file_from(c, file, NULL, t, n, ret_values, ret_found);
}
