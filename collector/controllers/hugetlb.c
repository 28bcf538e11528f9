/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hugetlb controller (mm/hugetlb_cgroup.c): one set of files per huge page
 * size, named "hugetlb.<size>.<file>" with the kernel's size spelling
 * ("2MB", "1GB"), which becomes the pagesize label. The sizes are taken
 * from the first cgroup directory that has hugetlb files, so whatever the
 * kernel offers is collected without configuration; the kernel's set of
 * sizes is fixed at boot, so one listing serves the whole collection
 * (listing every cgroup's directory, all its files, cost more than reading
 * its values).
 * v2 has no max_usage (no peak). A BPF record holds v2's values by the
 * kernel's index of each size, which the listing puts the sizes in.
 */
#include <errno.h>
#include <string.h>

#include "base/fileio.h"
#include "base/util.h"
#include "collector/bpf/source.h"
#include "collector/controllers/controller.h"
#include "collector/parse.h"

static const struct file_metric hugetlb_v1_files[] = {
    {"usage_in_bytes", METRIC_HUGETLB_USAGE, VALUE_COUNT, 0},
    {"max_usage_in_bytes", METRIC_HUGETLB_MAX_USAGE, VALUE_COUNT, 0},
    {"limit_in_bytes", METRIC_HUGETLB_LIMIT, VALUE_LIMIT, 0},
    {"failcnt", METRIC_HUGETLB_LIMIT_FAILURES, VALUE_COUNT, 0},
};

static const struct file_metric hugetlb_v2_files[] = {
    {"current", METRIC_HUGETLB_USAGE, VALUE_COUNT, 0},
    {"max", METRIC_HUGETLB_LIMIT, VALUE_LIMIT, 0},
};

/*
 * "hugetlb.2MB.usage_in_bytes" with probe "usage_in_bytes" yields "2MB".
 * The rsvd.* files have a longer middle part and are not matched.
 */
static bool pagesize_of(const char *file, const char *probe, char size[PAGESIZE_MAX])
{
	size_t n = strlen(file), p = strlen(probe);
	const char *start = file + strlen("hugetlb."), *dot;

	if (strncmp(file, "hugetlb.", strlen("hugetlb.")) != 0 || n <= strlen("hugetlb.") + p + 1)
		return false;
	dot = file + n - p - 1;
	if (*dot != '.' || strcmp(dot + 1, probe) != 0 || (size_t)(dot - start) >= PAGESIZE_MAX ||
	    memchr(start, '.', (size_t)(dot - start)))
		return false;
	memcpy(size, start, (size_t)(dot - start));
	size[dot - start] = '\0';
	return true;
}

/* "hugetlb.SIZE.FILE", without printf: five of these per cgroup and size. */
#define FILE_NAME_MAX 64
static const char *file_name(char name[FILE_NAME_MAX], const char *size, const char *file)
{
	/* size is under PAGESIZE_MAX and file one of ours: well within the buffer */
	stpcpy(stpcpy(stpcpy(stpcpy(name, "hugetlb."), size), "."), file);
	return name;
}

static int read_pagesize(const struct reader_ctx *c, const char *size,
			 const struct file_metric *files, size_t n, bool v2)
{
	char name[FILE_NAME_MAX];
	int r = 0;

	for (size_t i = 0; r >= 0 && i < n; i++)
		r = read_value_file(c, file_name(name, size, files[i].file), &files[i], size);
	if (r >= 0 && v2) {
		const struct key_metric events[] = {
		    {"max", METRIC_HUGETLB_LIMIT_FAILURES, size, 0},
		};

		/* The group's own limit hits, like v1's failcnt (see memory.c). */
		r = read_keyed_file(c, file_name(name, size, "events.local"), events,
				    ELEMENTSOF(events), NULL, NULL);
	}
	return r;
}

/*
 * The sizes named in the cgroup's directory, none where hugetlb is not
 * enabled, in the kernel's order of them (its hstate index, by which a BPF
 * record holds them): it makes each size's files in that order, and a
 * kernfs inode number only grows (the 32-bit ID wraps into a generation
 * count above it).
 */
static int list_sizes(const struct reader_ctx *c, const char *probe, struct hugetlb_sizes *ret)
{
	_cleanup_closedir_ DIR *d = NULL;
	ino_t ino[HUGETLB_SIZES_MAX];
	int r = opendir_at(c->dirfd, &d);

	if (r < 0)
		return r;
	ret->n = 0;
	for (struct dirent *de; (errno = 0, de = readdir(d));) {
		char size[PAGESIZE_MAX];
		size_t i = ret->n;

		if (i == HUGETLB_SIZES_MAX || !pagesize_of(de->d_name, probe, size))
			continue;
		for (; i > 0 && ino[i - 1] > de->d_ino; i--) {
			ino[i] = ino[i - 1];
			memcpy(ret->size[i], ret->size[i - 1], PAGESIZE_MAX);
		}
		ino[i] = de->d_ino;
		memcpy(ret->size[i], size, PAGESIZE_MAX);
		ret->n++;
	}
	if (errno)
		return -errno;
	ret->known = ret->n > 0;
	return 0;
}

/*
 * The collection's sizes (c->hugetlb), listed from this cgroup's directory
 * if they are not known yet; without c->hugetlb, in *scratch.
 */
static int sizes_of(const struct reader_ctx *c, const char *probe, struct hugetlb_sizes *scratch,
		    const struct hugetlb_sizes **ret)
{
	struct hugetlb_sizes *sizes = c->hugetlb ? c->hugetlb : scratch;

	*ret = sizes;
	return sizes->known ? 0 : list_sizes(c, probe, sizes);
}

/* Every size has these: v1's first file, and v2's "events", which is not read. */
#define PROBE_V1 "usage_in_bytes"
#define PROBE_V2 "events"

static int hugetlb_read(const struct reader_ctx *c, const struct file_metric *files, size_t n,
			bool v2)
{
	struct hugetlb_sizes scratch = {0};
	const struct hugetlb_sizes *sizes;
	int r = sizes_of(c, v2 ? PROBE_V2 : PROBE_V1, &scratch, &sizes);

	for (size_t i = 0; r >= 0 && i < sizes->n; i++)
		r = read_pagesize(c, sizes->size[i], files, n, v2);
	return r;
}

static int hugetlb_read_v1(const struct reader_ctx *c)
{
	return hugetlb_read(c, hugetlb_v1_files, ELEMENTSOF(hugetlb_v1_files), false);
}

/* "2MB" in bytes, as mem_fmt() in mm/hugetlb.c spells sizes; 0 if it is not one. */
static uint64_t size_bytes(const char *size)
{
	static const struct {
		const char *suffix;
		unsigned shift;
	} units[] = {{"KB", 10}, {"MB", 20}, {"GB", 30}};
	char *end;
	uint64_t n = strtoull(size, &end, 10);

	for (size_t i = 0; end != size && i < ELEMENTSOF(units); i++)
		if (strcmp(end, units[i].suffix) == 0 && n < UINT64_C(1) << (64 - units[i].shift))
			return n << units[i].shift;
	return 0;
}

static int hugetlb_from_record(const struct reader_ctx *c, const struct record *rec)
{
	struct hugetlb_sizes scratch = {0};
	const struct hugetlb_sizes *sizes;
	int r;

	if (!(rec->has & RECORD_HAS_HUGETLB))
		return 0;
	r = sizes_of(c, PROBE_V2, &scratch, &sizes);
	for (size_t i = 0; r >= 0 && i < sizes->n && i < RECORD_HUGETLB_SIZES; i++) {
		const char *size = sizes->size[i];

		r = reader_emit(c, METRIC_HUGETLB_USAGE, size,
				reader_counter_bytes(c, rec->hugetlb_pages[i], 1), 1);
		if (r >= 0)
			r = reader_emit(c, METRIC_HUGETLB_LIMIT, size,
					reader_counter_bytes(c, rec->hugetlb_max_pages[i],
							     size_bytes(size) / c->page_size),
					1);
		if (r >= 0)
			r = reader_emit(c, METRIC_HUGETLB_LIMIT_FAILURES, size,
					rec->hugetlb_max_events[i], 1);
	}
	return r;
}

static int hugetlb_read_v2(const struct reader_ctx *c)
{
	const struct record *rec = reader_record(c);

	if (rec)
		return hugetlb_from_record(c, rec);
	return hugetlb_read(c, hugetlb_v2_files, ELEMENTSOF(hugetlb_v2_files), true);
}

const struct controller_reader reader_hugetlb = {
    .read_v1 = hugetlb_read_v1,
    .read_v2 = hugetlb_read_v2,
};
