/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every controller's reader is made of (collector/controllers/reader.c):
 * missing files are not collected, malformed ones are errors, and the
 * table rows turn values into samples by their kind and scale.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/util.h"
#include "collector/parse.h"
#include "helpers-collector.h"

/* An empty directory is a cgroup where nothing is enabled: no samples, no error. */
TEST(every_reader_treats_missing_files_as_not_collected)
{
	char *dir = tmpdir_make();
	struct cgroup_record rec = {0};
	struct devnames dn = {.dirfd = -1};
	struct readbuf buf = {0};
	unsigned absent = 0, before;
	struct reader_ctx ctx = {.buf = &buf,
				 .absent = &absent,
				 .rec = &rec,
				 .devnames = &dn,
				 .per_cpu = true,
				 .clock_ticks = 100};

	ctx.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/*
	 * Each missing file is counted, so that the collection asks whether
	 * the cgroup itself is gone (hugetlb finds no sizes and reads none).
	 */
	for (size_t i = 0; i < _CONTROLLER_MAX; i++) {
		const struct controller_reader *c = controller_readers[i];
		bool reads = c != &reader_hugetlb;

		before = absent;
		if (c->read_v1)
			ASSERT_EQ(c->read_v1(&ctx), 0);
		ASSERT_TRUE(!c->read_v1 || !reads || absent > before);
		before = absent;
		if (c->read_v2)
			ASSERT_EQ(c->read_v2(&ctx), 0);
		ASSERT_TRUE(!c->read_v2 || !reads || absent > before);
	}
	ASSERT_EQ(rec.n_samples, 0);
	close(ctx.dirfd);
	readbuf_done(&buf);
	tmpdir_remove(dir);
	free(dir);
}

TEST(malformed_file_is_an_error_not_a_value)
{
	char *dir = tmpdir_make();
	struct reading r;

	file_write(dir, "pids.current", "3 4\n");
	reading_open(&r, dir);
	ASSERT_EQ(reader_pids.read_v2(&r.ctx), -EBADMSG);
	ASSERT_EQ(r.rec.n_samples, 0);
	reading_close(&r);
	tmpdir_remove(dir);
	free(dir);
}

/* A value times its scale, nothing for "unlimited", and no product that wraps. */
TEST(emit_scales_drops_unlimited_and_refuses_overflow)
{
	static const struct expect e[] = {
	    {METRIC_CPU_USAGE, NULL, 5000},
	    {METRIC_CPU_USAGE_PER_CPU, "0", 7},
	    {METRIC_CPU_USER, NULL, UINT64_MAX - 1},
	};
	char *dir = tmpdir_make();
	struct reading r;

	reading_open(&r, dir);
	ASSERT_EQ(reader_emit(&r.ctx, METRIC_CPU_USAGE, NULL, 5, 1000), 0);
	ASSERT_EQ(reader_emit(&r.ctx, METRIC_CPU_USAGE_PER_CPU, "0", 7, 0), 0);
	ASSERT_EQ(reader_emit(&r.ctx, METRIC_CPU_SYSTEM, NULL, CG_UNLIMITED, 1), 0);
	ASSERT_EQ(reader_emit(&r.ctx, METRIC_CPU_USER, NULL, UINT64_MAX - 1, 1), 0);
	ASSERT_EQ(reader_emit(&r.ctx, METRIC_CPU_WAIT, NULL, UINT64_MAX / 1000 + 1, 1000), -ERANGE);
	check_samples(&r.rec, e, ELEMENTSOF(e));
	reading_close(&r);
	tmpdir_remove(dir);
	free(dir);
}

/*
 * Each kind of single-value file: a count as it is (times its scale), a
 * limit without a sample for "max" or v1's page-counter maximum (2^62 and
 * up) but with one just below, a signed limit without one when negative.
 */
TEST(value_files_follow_their_kind)
{
	static const struct file_metric files[] = {
	    {"count", METRIC_PIDS_CURRENT, VALUE_COUNT, 1000},
	    {"limit-max", METRIC_PIDS_LIMIT, VALUE_LIMIT, 0},
	    {"limit-v1-max", METRIC_MEMORY_LIMIT, VALUE_LIMIT, 0},
	    {"limit-below", METRIC_MEMORY_SOFT_LIMIT, VALUE_LIMIT, 0},
	    {"quota-negative", METRIC_CPU_QUOTA, VALUE_SIGNED_LIMIT, 0},
	    {"period", METRIC_CPU_PERIOD, VALUE_SIGNED_LIMIT, 0},
	    {"missing", METRIC_CPU_BURST_QUOTA, VALUE_COUNT, 0},
	};
	static const struct expect e[] = {
	    {METRIC_PIDS_CURRENT, NULL, 3000},
	    {METRIC_MEMORY_SOFT_LIMIT, NULL, (UINT64_C(1) << 62) - 1},
	    {METRIC_CPU_PERIOD, NULL, 100000},
	};
	char *dir = tmpdir_make();
	struct reading r;

	file_write(dir, "count", "3\n");
	file_write(dir, "limit-max", "max\n");
	file_write(dir, "limit-v1-max", "9223372036854771712\n");
	file_write(dir, "limit-below", "4611686018427387903\n");
	file_write(dir, "quota-negative", "-1\n");
	file_write(dir, "period", "100000\n");
	reading_open(&r, dir);
	ASSERT_EQ(read_file_metrics(&r.ctx, files, ELEMENTSOF(files)), 0);
	check_samples(&r.rec, e, ELEMENTSOF(e));
	ASSERT_EQ(r.absent, 1);
	reading_close(&r);
	tmpdir_remove(dir);
	free(dir);
}

/*
 * A keyed file hands back what it parsed, found keys as bits of the table,
 * and emits each found key's sample in table order; a missing file finds
 * nothing and counts as absent; a table larger than a parse takes is refused.
 */
TEST(keyed_files_hand_back_values_and_found_keys)
{
	static const struct key_metric t[] = {
	    {"max", METRIC_MEMORY_EVENTS, "max", 0},
	    {"oom", METRIC_MEMORY_EVENTS, "oom", 0},
	    {"oom_kill", METRIC_MEMORY_OOM_KILLS, NULL, 0},
	};
	static const struct expect e[] = {
	    {METRIC_MEMORY_EVENTS, "max", 4},
	    {METRIC_MEMORY_OOM_KILLS, NULL, 2},
	};
	struct key_metric many[KEYS_MAX + 1] = {{0}};
	uint64_t values[3], found = 0;
	char *dir = tmpdir_make();
	struct reading r;

	file_write(dir, "memory.events", "oom_kill 2\nlow 9\nmax 4\n");
	reading_open(&r, dir);
	ASSERT_EQ(read_keyed_file(&r.ctx, "memory.events", t, ELEMENTSOF(t), values, &found), 0);
	ASSERT_EQ_U64(found, (1u << 0) | (1u << 2));
	ASSERT_EQ_U64(values[0], 4);
	ASSERT_EQ_U64(values[1], 0);
	ASSERT_EQ_U64(values[2], 2);
	check_samples(&r.rec, e, ELEMENTSOF(e));
	ASSERT_EQ(r.absent, 0);

	found = 7;
	ASSERT_EQ(read_keyed_file(&r.ctx, "memory.events.local", t, ELEMENTSOF(t), values, &found),
		  0);
	ASSERT_EQ_U64(found, 0);
	ASSERT_EQ(r.absent, 1);
	check_samples(&r.rec, e, ELEMENTSOF(e));

	ASSERT_EQ(read_keyed_file(&r.ctx, "memory.events", many, ELEMENTSOF(many), NULL, NULL),
		  -E2BIG);
	reading_close(&r);
	tmpdir_remove(dir);
	free(dir);
}
