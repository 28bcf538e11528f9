/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blkio (v1) / io (v2) controller: bytes and operations per device, the
 * throttling limits, and the BFQ weight.
 *
 * v2 io.stat is hierarchical, so on v1 the *_recursive files have the same
 * meaning and are preferred. The throttle files are tried before the BFQ
 * ones because they exist whatever the I/O scheduler. Caveat of 6.1: v1
 * throttle statistics only count bios of cgroups that have a throttle rule
 * on the device (blk_should_throtl(), block/blk-throttle.h), so an
 * unthrottled v1 cgroup reads zeros there; BFQ statistics count only I/O
 * that went through BFQ.
 */
#include <stdlib.h>

#include "base/util.h"
#include "collector/controllers/controller.h"
#include "collector/devname.h"
#include "collector/devstat.h"
#include "collector/parse.h"

static const enum metric field_metric[_DEV_FIELD_MAX] = {
    [DEV_RBYTES] = METRIC_IO_READ_BYTES,     [DEV_WBYTES] = METRIC_IO_WRITE_BYTES,
    [DEV_DBYTES] = METRIC_IO_DISCARD_BYTES,  [DEV_RIOS] = METRIC_IO_READS,
    [DEV_WIOS] = METRIC_IO_WRITES,	     [DEV_DIOS] = METRIC_IO_DISCARDS,
    [DEV_RBPS] = METRIC_IO_READ_BPS_LIMIT,   [DEV_WBPS] = METRIC_IO_WRITE_BPS_LIMIT,
    [DEV_RIOPS] = METRIC_IO_READ_IOPS_LIMIT, [DEV_WIOPS] = METRIC_IO_WRITE_IOPS_LIMIT,
};

static int emit_dev_table(const struct reader_ctx *c, const struct dev_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct dev_stats *d = &t->devs[i];
		char name[LABEL_MAX];

		if (!d->found)
			continue;
		devnames_lookup(c->devnames, d->major, d->minor, name);
		for (int f = 0; f < _DEV_FIELD_MAX; f++) {
			int r;

			if (!(d->found & (1u << f)))
				continue;
			r = reader_emit(c, field_metric[f], name, d->v[f], 1);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

typedef int (*dev_parser)(const char *buf, size_t len, struct dev_table *t);

/* Parses the first existing file of a NULL-terminated candidate list. */
static int read_first(const struct reader_ctx *c, const char *const *files, dev_parser parse,
		      struct dev_table *t)
{
	for (; *files; files++) {
		const char *buf;
		size_t len;
		int r = reader_read(c, *files, &buf, &len);

		if (r != 0)
			return r < 0 ? r : parse(buf, len, t);
	}
	return 0;
}

static int parse_rwstat_bytes(const char *buf, size_t len, struct dev_table *t)
{
	return parse_blkio_rwstat(buf, len, DEV_RBYTES, t);
}

static int parse_rwstat_ios(const char *buf, size_t len, struct dev_table *t)
{
	return parse_blkio_rwstat(buf, len, DEV_RIOS, t);
}

static int read_v1_limits(const struct reader_ctx *c, struct dev_table *t)
{
	static const struct {
		const char *file;
		enum dev_field field;
	} limits[] = {
	    {"blkio.throttle.read_bps_device", DEV_RBPS},
	    {"blkio.throttle.write_bps_device", DEV_WBPS},
	    {"blkio.throttle.read_iops_device", DEV_RIOPS},
	    {"blkio.throttle.write_iops_device", DEV_WIOPS},
	};

	for (size_t i = 0; i < ELEMENTSOF(limits); i++) {
		const char *buf;
		size_t len;
		int r = reader_read(c, limits[i].file, &buf, &len);

		if (r > 0)
			r = parse_dev_value(buf, len, limits[i].field, t);
		if (r < 0)
			return r;
	}
	return 0;
}

static int blkio_read_v1(const struct reader_ctx *c)
{
	static const char *const bytes[] = {
	    "blkio.throttle.io_service_bytes_recursive", "blkio.throttle.io_service_bytes",
	    "blkio.bfq.io_service_bytes_recursive", "blkio.bfq.io_service_bytes", NULL};
	static const char *const ios[] = {
	    "blkio.throttle.io_serviced_recursive", "blkio.throttle.io_serviced",
	    "blkio.bfq.io_serviced_recursive", "blkio.bfq.io_serviced", NULL};
	static const struct file_metric weight[] = {
	    {"blkio.bfq.weight", METRIC_IO_WEIGHT, VALUE_COUNT, 0},
	};
	struct dev_table t = {0};
	int r;

	r = read_first(c, bytes, parse_rwstat_bytes, &t);
	if (r >= 0)
		r = read_first(c, ios, parse_rwstat_ios, &t);
	if (r >= 0)
		r = read_v1_limits(c, &t);
	if (r >= 0)
		r = emit_dev_table(c, &t);
	if (r >= 0)
		r = read_file_metrics(c, weight, ELEMENTSOF(weight));
	dev_table_done(&t);
	return r;
}

static int blkio_read_v2(const struct reader_ctx *c)
{
	static const char *const stat[] = {"io.stat", NULL};
	static const char *const max[] = {"io.max", NULL};
	/* "default 100" then per-device overrides, which are not exported */
	static const struct key_metric weight[] = {
	    {"default", METRIC_IO_WEIGHT, NULL, 0},
	};
	struct dev_table t = {0};
	int r;

	r = read_first(c, stat, parse_io_stat, &t);
	if (r >= 0)
		r = read_first(c, max, parse_io_max, &t);
	if (r >= 0)
		r = emit_dev_table(c, &t);
	if (r >= 0)
		r = read_keyed_file(c, "io.bfq.weight", weight, ELEMENTSOF(weight), NULL, NULL);
	dev_table_done(&t);
	return r;
}

const struct controller_reader reader_blkio = {
    .read_v1 = blkio_read_v1,
    .read_v2 = blkio_read_v2,
};
