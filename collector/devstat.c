/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Parsers for the per-device block I/O files (block/blk-cgroup.c,
 * blk-cgroup-rwstat.c, blk-throttle.c). Every line starts with "MAJ:MIN":
 *   v1 rwstat:  "8:0 Read 4096" ... "8:0 Total 8192", last line "Total 8192"
 *   v1 limits:  "8:0 1048576"
 *   v2 io.stat: "8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=5 dios=6"
 *               (other policies append key=value pairs; an idle device may
 *               print just "8:0 ")
 *   v2 io.max:  "8:0 rbps=max wbps=1048576 riops=max wiops=max"
 */
#include <errno.h>
#include <stdlib.h>

#include "base/util.h"
#include "collector/devstat.h"
#include "collector/parse.h"

static int dev_table_get(struct dev_table *t, struct span devnum, struct dev_stats **ret)
{
	struct dev_stats *bigger;
	uint32_t major, minor;

	if (parse_devnum(devnum, &major, &minor) < 0)
		return -EBADMSG;
	for (size_t i = 0; i < t->n; i++)
		if (t->devs[i].major == major && t->devs[i].minor == minor) {
			*ret = &t->devs[i];
			return 0;
		}
	bigger = realloc(t->devs, (t->n + 1) * sizeof(*bigger));
	if (!bigger)
		return -ENOMEM;
	t->devs = bigger;
	*ret = &t->devs[t->n++];
	**ret = (struct dev_stats){.major = major, .minor = minor};
	return 0;
}

static void dev_set(struct dev_stats *d, enum dev_field f, uint64_t v)
{
	d->v[f] = v;
	d->found |= 1u << f;
}

/*
 * read_field is DEV_RBYTES for io_service_bytes and DEV_RIOS for
 * io_serviced; write and discard follow it in enum dev_field.
 */
int parse_blkio_rwstat(const char *buf, size_t len, enum dev_field read_field, struct dev_table *t)
{
	struct span rest = span_make(buf, len), line;

	while (span_next_line(&rest, &line)) {
		struct span dev, op, value, extra;
		struct dev_stats *d;
		uint64_t v;
		int field, r;

		if (!span_next_word(&line, &dev))
			continue;
		if (!span_next_word(&line, &op))
			return -EBADMSG;
		if (span_eq(dev, "Total"))
			continue; /* the sum over all devices */
		if (!span_next_word(&line, &value) || span_next_word(&line, &extra) ||
		    parse_u64(value, &v) < 0)
			return -EBADMSG;
		if (span_eq(op, "Read"))
			field = read_field;
		else if (span_eq(op, "Write"))
			field = read_field + 1;
		else if (span_eq(op, "Discard"))
			field = read_field + 2;
		else
			continue; /* Sync, Async, Total: derived from the above */
		r = dev_table_get(t, dev, &d);
		if (r < 0)
			return r;
		dev_set(d, (enum dev_field)field, v);
	}
	return 0;
}

/* "MAJ:MIN value" per line (blkio.throttle.read_bps_device and friends). */
int parse_dev_value(const char *buf, size_t len, enum dev_field field, struct dev_table *t)
{
	struct span rest = span_make(buf, len), line;

	while (span_next_line(&rest, &line)) {
		struct span dev, value, extra;
		struct dev_stats *d;
		uint64_t v;
		int r;

		if (!span_next_word(&line, &dev))
			continue;
		if (!span_next_word(&line, &value) || span_next_word(&line, &extra) ||
		    parse_u64_or_max(value, &v) < 0)
			return -EBADMSG;
		r = dev_table_get(t, dev, &d);
		if (r < 0)
			return r;
		dev_set(d, field, v);
	}
	return 0;
}

/* "MAJ:MIN k=v ..." lines through a key table whose i-th key fills fields[i]. */
static int parse_dev_nested(const char *buf, size_t len, const char *const *keys,
			    const enum dev_field *fields, size_t n, struct dev_table *t)
{
	struct span rest = span_make(buf, len), line;

	while (span_next_line(&rest, &line)) {
		uint64_t values[KEYS_MAX], found;
		struct dev_stats *d;
		struct span dev;
		int r;

		if (!span_next_word(&line, &dev))
			continue;
		r = parse_nested_fields(line, keys, n, values, &found);
		if (r < 0)
			return r;
		r = dev_table_get(t, dev, &d);
		if (r < 0)
			return r;
		for (size_t i = 0; i < n; i++)
			if (found & (UINT64_C(1) << i))
				dev_set(d, fields[i], values[i]);
	}
	return 0;
}

int parse_io_stat(const char *buf, size_t len, struct dev_table *t)
{
	static const char *const keys[] = {"rbytes", "wbytes", "dbytes", "rios", "wios", "dios"};
	static const enum dev_field fields[] = {DEV_RBYTES, DEV_WBYTES, DEV_DBYTES,
						DEV_RIOS,   DEV_WIOS,	DEV_DIOS};

	return parse_dev_nested(buf, len, keys, fields, ELEMENTSOF(keys), t);
}

int parse_io_max(const char *buf, size_t len, struct dev_table *t)
{
	static const char *const keys[] = {"rbps", "wbps", "riops", "wiops"};
	static const enum dev_field fields[] = {DEV_RBPS, DEV_WBPS, DEV_RIOPS, DEV_WIOPS};

	return parse_dev_nested(buf, len, keys, fields, ELEMENTSOF(keys), t);
}

void dev_table_done(struct dev_table *t)
{
	free(t->devs);
	*t = (struct dev_table){0};
}
