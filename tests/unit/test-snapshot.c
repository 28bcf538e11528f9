/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One collection's result (model/snapshot.c): samples with their labels
 * kept once per record, records filed by path so that a path seen in
 * several v1 hierarchies is one cgroup, and finalize's order: records by
 * path, samples by metric, the first of a duplicated series kept.
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/snapshot.h"
#include "test.h"

static void add(struct cgroup_record *r, enum metric m, const char *label, uint64_t v)
{
	ASSERT_EQ(record_add(r, m, label, v), 0);
}

static void take(struct snapshot *s, const char *path, struct cgroup_record *r)
{
	ASSERT_EQ(snapshot_take_record(s, path, r), 0);
}

static const struct cgroup_record *record(const struct snapshot *s, const char *path)
{
	for (size_t i = 0; i < s->n_records; i++)
		if (strcmp(s->records[i].path, path) == 0)
			return &s->records[i];
	fprintf(stderr, "no record %s\n", path);
	abort();
}

static void assert_sample(const struct cgroup_record *r, size_t i, enum metric m, const char *label,
			  uint64_t value)
{
	ASSERT_TRUE(i < r->n_samples);
	ASSERT_EQ(r->samples[i].metric, m);
	ASSERT_STREQ(sample_label(r, &r->samples[i]), label);
	ASSERT_EQ_U64(r->samples[i].value, value);
}

/* Labels are kept once per record; a sample without one reads "". */
TEST(samples_keep_their_labels)
{
	struct cgroup_record r = {0};
	char long_label[LABEL_MAX + 1];

	add(&r, METRIC_CPU_USAGE, NULL, 1);
	add(&r, METRIC_CPU_USAGE_PER_CPU, "0", 2);
	add(&r, METRIC_CPU_USAGE_PER_CPU, "1", 3);
	ASSERT_EQ(r.n_samples, 3);
	ASSERT_EQ(r.samples[0].label, SAMPLE_NO_LABEL);
	assert_sample(&r, 0, METRIC_CPU_USAGE, "", 1);
	assert_sample(&r, 1, METRIC_CPU_USAGE_PER_CPU, "0", 2);
	assert_sample(&r, 2, METRIC_CPU_USAGE_PER_CPU, "1", 3);
	ASSERT_EQ(r.labels_len, 4);

	/* a label is at most LABEL_MAX - 1 bytes */
	memset(long_label, 'l', LABEL_MAX);
	long_label[LABEL_MAX] = '\0';
	ASSERT_EQ(record_add(&r, METRIC_IO_READ_BYTES, long_label, 1), -ENAMETOOLONG);
	long_label[LABEL_MAX - 1] = '\0';
	ASSERT_EQ(record_add(&r, METRIC_IO_READ_BYTES, long_label, 1), 0);
	ASSERT_EQ(r.n_samples, 4);
	ASSERT_STREQ(sample_label(&r, &r.samples[3]), long_label);
	record_done(&r);
	ASSERT_TRUE(r.samples == NULL && r.labels == NULL && r.n_samples == 0);
}

/* A record's labels are addressed by 16 bits: past that, no sample is added. */
TEST(labels_beyond_their_offsets_are_refused)
{
	struct cgroup_record r = {0};
	char label[LABEL_MAX];
	int e = 0;
	size_t n = 0;

	memset(label, 'x', sizeof(label) - 1);
	label[sizeof(label) - 1] = '\0';
	while ((e = record_add(&r, METRIC_IO_READ_BYTES, label, n)) == 0)
		n++;
	ASSERT_EQ(e, -E2BIG);
	ASSERT_EQ(n, SAMPLE_NO_LABEL / LABEL_MAX);
	ASSERT_EQ(r.n_samples, n);
	/* without a label there is room still */
	add(&r, METRIC_IO_WEIGHT, NULL, 100);
	record_done(&r);
}

/*
 * The scratch record is emptied for the next cgroup but keeps its room;
 * the same path from a second hierarchy joins the record the first made,
 * its labels still its own.
 */
TEST(take_record_merges_a_path_across_hierarchies)
{
	struct snapshot s = {0};
	struct cgroup_record r = {0};
	const struct cgroup_record *a;
	size_t cap;

	add(&r, METRIC_CPU_USAGE, NULL, 10);
	add(&r, METRIC_CPU_USAGE_PER_CPU, "0", 4);
	cap = r.cap;
	take(&s, "/a", &r);
	ASSERT_EQ(r.n_samples, 0);
	ASSERT_EQ(r.labels_len, 0);
	ASSERT_EQ(r.cap, cap);
	add(&r, METRIC_PIDS_CURRENT, NULL, 3);
	take(&s, "/b", &r);
	add(&r, METRIC_MEMORY_USAGE, NULL, 4096);
	add(&r, METRIC_IO_READ_BYTES, "sda", 512);
	take(&s, "/a", &r);
	record_done(&r);

	ASSERT_EQ(s.n_records, 2);
	a = record(&s, "/a");
	ASSERT_TRUE(a->merged);
	ASSERT_TRUE(!record(&s, "/b")->merged);
	ASSERT_EQ(a->n_samples, 4);
	assert_sample(a, 0, METRIC_CPU_USAGE, "", 10);
	assert_sample(a, 1, METRIC_CPU_USAGE_PER_CPU, "0", 4);
	assert_sample(a, 2, METRIC_MEMORY_USAGE, "", 4096);
	assert_sample(a, 3, METRIC_IO_READ_BYTES, "sda", 512);
	assert_sample(record(&s, "/b"), 0, METRIC_PIDS_CURRENT, "", 3);
	snapshot_free(&s);
	ASSERT_EQ(s.n_records, 0);
	ASSERT_TRUE(s.records == NULL && s.slots == NULL);
}

/*
 * Finalize orders records by path and samples by metric, keeping the
 * order within a metric (CPUs, devices, hierarchies); of a series that
 * two hierarchies both report, the first hierarchy's stays.
 */
TEST(finalize_orders_records_and_samples_and_keeps_the_first_duplicate)
{
	struct snapshot s = {0};
	struct cgroup_record r = {0};
	const struct cgroup_record *a, *b;

	add(&r, METRIC_MEMORY_USAGE, NULL, 1);
	add(&r, METRIC_CPU_USAGE_PER_CPU, "1", 11);
	add(&r, METRIC_CPU_USAGE, NULL, 2);
	add(&r, METRIC_CPU_USAGE_PER_CPU, "0", 10);
	take(&s, "/b", &r);
	/* /a: cpuacct on v1, then the unified hierarchy's core cpu.stat */
	add(&r, METRIC_CPU_USAGE, NULL, 100);
	add(&r, METRIC_INFO_SERIAL, "cpuacct", 7);
	take(&s, "/a", &r);
	add(&r, METRIC_CPU_USAGE, NULL, 999);
	add(&r, METRIC_PIDS_CURRENT, NULL, 5);
	add(&r, METRIC_INFO_INO, "unified", 8);
	add(&r, METRIC_INFO_SERIAL, "cpuacct", 9);
	take(&s, "/a", &r);
	take(&s, "/", &r);
	record_done(&r);

	ASSERT_EQ(snapshot_finalize(&s), 0);
	ASSERT_TRUE(s.finalized);
	ASSERT_TRUE(s.slots == NULL);
	ASSERT_EQ(s.n_records, 3);
	ASSERT_STREQ(s.records[0].path, "/");
	ASSERT_STREQ(s.records[1].path, "/a");
	ASSERT_STREQ(s.records[2].path, "/b");
	ASSERT_EQ(s.records[0].n_samples, 0);

	b = &s.records[2];
	ASSERT_EQ(b->n_samples, 4);
	ASSERT_TRUE(METRIC_CPU_USAGE < METRIC_CPU_USAGE_PER_CPU &&
		    METRIC_CPU_USAGE_PER_CPU < METRIC_MEMORY_USAGE);
	assert_sample(b, 0, METRIC_CPU_USAGE, "", 2);
	assert_sample(b, 1, METRIC_CPU_USAGE_PER_CPU, "1", 11);
	assert_sample(b, 2, METRIC_CPU_USAGE_PER_CPU, "0", 10);
	assert_sample(b, 3, METRIC_MEMORY_USAGE, "", 1);

	a = &s.records[1];
	ASSERT_EQ(a->n_samples, 4);
	for (size_t i = 0; i + 1 < a->n_samples; i++)
		ASSERT_TRUE(a->samples[i].metric <= a->samples[i + 1].metric);
	for (size_t i = 0; i < a->n_samples; i++) {
		const struct sample *x = &a->samples[i];

		if (x->metric == METRIC_CPU_USAGE)
			ASSERT_EQ_U64(x->value, 100);
		else if (x->metric == METRIC_INFO_SERIAL)
			ASSERT_EQ_U64(x->value, 7);
		else if (x->metric == METRIC_INFO_INO)
			ASSERT_EQ_U64(x->value, 8);
		else
			assert_sample(a, i, METRIC_PIDS_CURRENT, "", 5);
	}
	snapshot_free(&s);
}

/*
 * The path index starts at 1024 slots and doubles to stay at most half
 * full: thousands of paths later, every one still finds its record.
 */
TEST(path_index_grows_and_still_finds_every_path)
{
	struct snapshot s = {0};
	struct cgroup_record r = {0};
	char path[32];

	for (size_t pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < 5000; i++) {
			snprintf(path, sizeof(path), "/slice-%zu/leaf", i);
			add(&r, pass ? METRIC_MEMORY_USAGE : METRIC_CPU_USAGE, NULL, i);
			take(&s, path, &r);
			if (pass == 0 && i == 511)
				ASSERT_EQ(s.n_slots, 1024);
			if (pass == 0 && i == 512)
				ASSERT_EQ(s.n_slots, 2048);
		}
	record_done(&r);
	ASSERT_EQ(s.n_records, 5000);
	ASSERT_EQ(s.n_slots, 16384);
	ASSERT_EQ(snapshot_finalize(&s), 0);
	for (size_t i = 0; i < s.n_records; i++) {
		const struct cgroup_record *x = &s.records[i];
		size_t n;

		ASSERT_TRUE(sscanf(x->path, "/slice-%zu/leaf", &n) == 1);
		ASSERT_TRUE(x->merged);
		ASSERT_EQ(x->n_samples, 2);
		assert_sample(x, 0, METRIC_CPU_USAGE, "", n);
		assert_sample(x, 1, METRIC_MEMORY_USAGE, "", n);
		if (i > 0)
			ASSERT_TRUE(strcmp(s.records[i - 1].path, x->path) < 0);
	}
	snapshot_free(&s);
}

TEST(devices_are_found_by_name)
{
	struct block_device devices[] = {{8, 0, "sda"}, {254, 16, "254:16"}};
	const struct snapshot s = {.devices = devices, .n_devices = 2};

	ASSERT_TRUE(snapshot_device(&s, "sda") == &devices[0]);
	ASSERT_TRUE(snapshot_device(&s, "254:16") == &devices[1]);
	ASSERT_TRUE(snapshot_device(&s, "sdb") == NULL);
	ASSERT_TRUE(snapshot_device(&(struct snapshot){0}, "sda") == NULL);
}

/* After finalize nothing is filed: a writer that tries stops the program. */
TEST(a_finalized_snapshot_takes_no_record)
{
	struct snapshot s = {0};
	struct cgroup_record r = {0};
	int status;
	pid_t pid;

	ASSERT_EQ(snapshot_finalize(&s), 0);
	ASSERT_EQ(s.n_records, 0);
#ifdef NDEBUG
	return; /* the check is an assert() */
#endif
	fflush(NULL);
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (pid == 0) {
		/* the abort is expected: no core, no sanitizer report */
		signal(SIGABRT, SIG_DFL);
		(void)!freopen("/dev/null", "w", stderr);
		snapshot_take_record(&s, "/", &r);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	snapshot_free(&s);
}
