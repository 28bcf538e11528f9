/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * End to end on a fake hybrid tree: layout from a mountinfo file, walks of
 * three hierarchies, merge by path, dedup, rendering; then the cgacctd
 * binary (argv[1]) on the same tree must print the same exposition.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/util.h"
#include "collector/bpf/record.h"
#include "collector/collect.h"
#include "collector/controllers/controller.h"
#include "exporter/render.h"
#include "test.h"

#define WEIRD "sp ace\"q\\b\n\xc3\xbc"

/* serial NULL: no cgroup.serial, as on v2 with kernel series v2 (identity: the inode number) */
static void make_cgroup(const char *hierarchy, const char *name, const char *fixtures,
			const char *serial)
{
	char *dir;

	if (name) {
		dir_make(hierarchy, name);
		ASSERT_TRUE(asprintf(&dir, "%s/%s", hierarchy, name) >= 0);
	} else
		dir = strdup(hierarchy);
	if (fixtures)
		tree_copy_files(fixtures, dir);
	if (serial)
		file_write(dir, "cgroup.serial", serial);
	file_write(dir, "cgroup.procs", "");
	free(dir);
}

static const char hybrid_mountinfo[] =
    "30 1 0:30 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
    "31 1 0:31 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
    "32 1 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";

static char *fake_hybrid_tree(void)
{
	char *root = tmpdir_make(), *cg, *mi;

	ASSERT_TRUE(asprintf(&cg, "%s/sys/fs/cgroup", root) >= 0);
	mkdir_p(cg);
	ASSERT_TRUE(asprintf(&mi, "%s/mountinfo", root) >= 0);
	file_write(root, "mountinfo", hybrid_mountinfo);
	dir_make(cg, "unified");
	dir_make(cg, "cpu,cpuacct");
	dir_make(cg, "memory");
	free(cg);

	ASSERT_TRUE(asprintf(&cg, "%s/sys/fs/cgroup/cpu,cpuacct", root) >= 0);
	make_cgroup(cg, NULL, NULL, "0\n");
	make_cgroup(cg, "a", "v1", "11\n");
	free(cg);
	ASSERT_TRUE(asprintf(&cg, "%s/sys/fs/cgroup/memory", root) >= 0);
	make_cgroup(cg, NULL, NULL, "0\n");
	make_cgroup(cg, "a", "v1", "12\n");
	make_cgroup(cg, WEIRD, NULL, "14\n");
	file_write(cg, WEIRD "/memory.usage_in_bytes", "4096\n");
	/* a cgroup whose cgroup.procs is gone was removed while we read it */
	dir_make(cg, "vanishing");
	file_write(cg, "vanishing/cgroup.serial", "15\n");
	file_write(cg, "vanishing/memory.usage_in_bytes", "1\n");
	free(cg);
	ASSERT_TRUE(asprintf(&cg, "%s/sys/fs/cgroup/unified", root) >= 0);
	make_cgroup(cg, NULL, NULL, NULL);
	make_cgroup(cg, "a", "v2", NULL);
	free(cg);
	free(mi);
	return root;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p += n)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

/* Whether text has /a's identity on the unified hierarchy: its cgroup ID, the inode number. */
static bool has_unified_a_identity(const char *text, const char *root)
{
	char *a, line[128];
	struct stat st;

	ASSERT_TRUE(asprintf(&a, "%s/sys/fs/cgroup/unified/a", root) >= 0);
	ASSERT_TRUE(stat(a, &st) == 0);
	snprintf(line, sizeof(line),
		 "cgroup_info{cgroup=\"/a\",hierarchy=\"unified\",ino=\"%ju\"} 1",
		 (uintmax_t)st.st_ino);
	free(a);
	return has_line(text, line);
}

/*
 * What promtool's parser demands and Prometheus assumes: each family's lines
 * contiguous with HELP and TYPE first, and no series twice.
 */
static void check_exposition(const char *text)
{
	char *copy = strdup(text), *save = NULL, *seen_families = strdup(" "),
	     *seen_series = strdup("\n");
	char current[256] = "";

	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[256], *needle;

		if (strncmp(line, "# HELP ", 7) == 0) {
			sscanf(line + 7, "%255s", name);
			ASSERT_TRUE(asprintf(&needle, " %s ", name) >= 0);
			ASSERT_TRUE(strstr(seen_families, needle) == NULL);
			seen_families =
			    realloc(seen_families, strlen(seen_families) + strlen(name) + 2);
			strcat(strcat(seen_families, name), " ");
			strcpy(current, name);
			free(needle);
			continue;
		}
		if (line[0] == '#')
			continue;
		sscanf(line, "%255[^{ ]", name);
		ASSERT_STREQ(name, current);
		*strrchr(line, ' ') = '\0';
		ASSERT_TRUE(asprintf(&needle, "\n%s\n", line) >= 0);
		ASSERT_TRUE(strstr(seen_series, needle) == NULL);
		seen_series = realloc(seen_series, strlen(seen_series) + strlen(line) + 2);
		strcat(strcat(seen_series, line), "\n");
		free(needle);
	}
	free(copy);
	free(seen_families);
	free(seen_series);
}

/* Of the fake tree at root, records is how many paths it has now. */
static char *collect_and_render_held(const char *root, bool per_cpu, struct held_files *held,
				     size_t records)
{
	char *mi;
	struct collect_options o = {.root = root, .per_cpu = per_cpu, .held = held};
	struct snapshot s;
	struct strbuf out = {0};

	ASSERT_TRUE(asprintf(&mi, "%s/mountinfo", root) >= 0);
	o.mountinfo = mi;
	ASSERT_EQ(collect_snapshot(&o, &s), 0);
	ASSERT_EQ(s.n_records, records);
	s.duration_ns = 0;
	ASSERT_EQ(render_exposition(&s, &(struct render_options){.version = CGACCT_VERSION}, &out),
		  0);
	snapshot_free(&s);
	free(mi);
	return out.buf;
}

static char *collect_and_render(const char *root, bool per_cpu)
{
	/* "/", "/a" and the weird one, merged across hierarchies */
	return collect_and_render_held(root, per_cpu, NULL, 3);
}

TEST(hybrid_tree_merges_paths_and_v1_wins_duplicates)
{
	char *root = fake_hybrid_tree();
	char *text = collect_and_render(root, false);

	check_exposition(text);
	/* one logical /a, identities from all three hierarchies: v1 has cgroup.serial */
	ASSERT_TRUE(
	    has_line(text, "cgroup_info{cgroup=\"/a\",hierarchy=\"cpu,cpuacct\",serial=\"11\"} 1"));
	ASSERT_TRUE(
	    has_line(text, "cgroup_info{cgroup=\"/a\",hierarchy=\"memory\",serial=\"12\"} 1"));
	ASSERT_TRUE(has_unified_a_identity(text, root));
	/* cpuacct.usage (v1) beats the unified hierarchy's core cpu.stat usage_usec */
	ASSERT_TRUE(has_line(text, "cgroup_cpu_usage_seconds_total{cgroup=\"/a\"} 6.020658061"));
	ASSERT_TRUE(has_line(text, "cgroup_cpu_weight{cgroup=\"/a\"} 50"));
	ASSERT_TRUE(has_line(text, "cgroup_cpu_quota_seconds{cgroup=\"/a\"} 0.05"));
	ASSERT_TRUE(has_line(text, "cgroup_memory_limit_failures_total{cgroup=\"/a\"} 44003"));
	ASSERT_TRUE(
	    has_line(text, "cgroup_pressure_cpu_waiting_seconds_total{cgroup=\"/a\"} 8.984332"));
	ASSERT_TRUE(has_line(
	    text, "cgroup_memory_usage_bytes{cgroup=\"/sp ace\\\"q\\\\b\\n\xc3\xbc\"} 4096"));
	ASSERT_TRUE(!strstr(text, "cgroup_memory_soft_limit_bytes"));
	ASSERT_TRUE(!strstr(text, "vanishing"));
	ASSERT_TRUE(!strstr(text, "per_cpu"));
	ASSERT_TRUE(has_line(text, "cgacct_cgroups_vanished 1"));
	ASSERT_TRUE(has_line(text, "cgacct_cgroups{hierarchy=\"memory\"} 3"));
	ASSERT_TRUE(has_line(text, "cgacct_collector_success{collector=\"walk\"} 1"));
	free(text);
	tmpdir_remove(root);
	free(root);
}

static unsigned collector_errors(const char *root, unsigned *mounted, const char *name)
{
	char *mi;
	struct collect_options o = {.root = root, .mounted_controllers = mounted};
	struct snapshot s;
	unsigned errors = 0;

	ASSERT_TRUE(asprintf(&mi, "%s/mountinfo", root) >= 0);
	o.mountinfo = mi;
	ASSERT_EQ(collect_snapshot(&o, &s), 0);
	for (size_t i = 0; i < s.n_collectors; i++)
		if (strcmp(s.collectors[i].name, name) == 0)
			errors = s.collectors[i].errors;
	snapshot_free(&s);
	free(mi);
	return errors;
}

/*
 * cpuacct lives only on its v1 hierarchy: unmounted after a collection saw
 * it, its collector fails until it is mounted again; the others carry on.
 */
TEST(unmounted_controller_fails_its_collector_until_back)
{
	char *root = fake_hybrid_tree();
	unsigned mounted = 0, never_mounted = 0;

	ASSERT_EQ(collector_errors(root, &mounted, "cpuacct"), 0);
	file_write(root, "mountinfo",
		   "30 1 0:30 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
		   "32 1 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n");
	ASSERT_EQ(collector_errors(root, &mounted, "cpuacct"), 1);
	ASSERT_EQ(collector_errors(root, &mounted, "cpuacct"), 1);
	ASSERT_EQ(collector_errors(root, &mounted, "memory"), 0);
	ASSERT_EQ(collector_errors(root, &mounted, "walk"), 0);
	/* a daemon that never saw cpuacct mounted just does not collect it */
	ASSERT_EQ(collector_errors(root, &never_mounted, "cpuacct"), 0);
	file_write(root, "mountinfo", hybrid_mountinfo);
	ASSERT_EQ(collector_errors(root, &mounted, "cpuacct"), 0);
	/* without the bookkeeping (cgacctd --once) nothing is remembered */
	ASSERT_EQ(collector_errors(root, NULL, "cpuacct"), 0);
	tmpdir_remove(root);
	free(root);
}

static void count_cpu_hierarchy_visits(void *userdata, const char *hierarchy, const char *path,
				       uint64_t id, bool kept)
{
	if (strcmp(hierarchy, "cpu,cpuacct") == 0)
		(*(unsigned *)userdata)++;
}

/* Every controller but memory skipped, or none: how often cpu,cpuacct was visited. */
static unsigned collect_memory_only(const char *root, bool memory_only, unsigned *mounted,
				    char **ret_text)
{
	unsigned visits = 0;
	char *mi;
	struct collect_options o = {
	    .root = root,
	    .on_visit = count_cpu_hierarchy_visits,
	    .userdata = &visits,
	    .mounted_controllers = mounted,
	};
	struct snapshot s;
	struct strbuf out = {0};

	ASSERT_TRUE(asprintf(&mi, "%s/mountinfo", root) >= 0);
	o.mountinfo = mi;
	if (memory_only)
		o.skip_controllers = CONTROLLERS_ALL & ~CONTROLLER_BIT(CONTROLLER_memory);
	ASSERT_EQ(collect_snapshot(&o, &s), 0);
	ASSERT_EQ(s.n_hierarchies, memory_only ? 2 : 3);
	ASSERT_EQ(render_exposition(&s, &(struct render_options){.version = CGACCT_VERSION}, &out),
		  0);
	snapshot_free(&s);
	free(mi);
	*ret_text = out.buf;
	return visits;
}

/*
 * A v1 hierarchy where no selected controller applies is not walked, so
 * its identity series and its cgroup count go; the others stay, and a
 * skipped controller still counts as mounted.
 */
TEST(hierarchy_of_skipped_controllers_is_not_walked)
{
	char *root = fake_hybrid_tree(), *text;
	unsigned mounted = 0;

	ASSERT_EQ(collect_memory_only(root, false, NULL, &text), 2);
	ASSERT_TRUE(has_line(text, "cgacct_cgroups{hierarchy=\"cpu,cpuacct\"} 2"));
	free(text);

	ASSERT_EQ(collect_memory_only(root, true, &mounted, &text), 0);
	check_exposition(text);
	ASSERT_TRUE(!strstr(text, "hierarchy=\"cpu,cpuacct\""));
	ASSERT_TRUE(!strstr(text, "cgroup_cpu_usage_seconds_total{cgroup=\"/a\"} 6.020658061"));
	ASSERT_TRUE(
	    has_line(text, "cgroup_info{cgroup=\"/a\",hierarchy=\"memory\",serial=\"12\"} 1"));
	ASSERT_TRUE(has_line(text, "cgroup_memory_limit_failures_total{cgroup=\"/a\"} 44003"));
	ASSERT_TRUE(has_line(text, "cgacct_cgroups{hierarchy=\"memory\"} 3"));
	ASSERT_TRUE(has_line(text, "cgacct_cgroups{hierarchy=\"unified\"} 2"));
	ASSERT_TRUE(has_line(text, "cgacct_collector_success{collector=\"walk\"} 1"));
	ASSERT_TRUE(mounted & CONTROLLER_BIT(CONTROLLER_cpuacct));
	free(text);
	tmpdir_remove(root);
	free(root);
}

static void expect_held_line(const char *text, size_t held)
{
	char line[64];

	snprintf(line, sizeof(line), "cgacct_held_files %zu", held);
	ASSERT_TRUE(has_line(text, line));
}

static size_t files_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	ASSERT_TRUE(d != NULL);
	while ((e = readdir(d)))
		n += e->d_type == DT_REG;
	closedir(d);
	return n;
}

#define A_CPU_WAITING "cgroup_pressure_cpu_waiting_seconds_total{cgroup=\"/a\"} "

/*
 * Files kept open are read afresh from the start, as many as the budget
 * allows, only on the unified hierarchy (a held file would keep a v1
 * hierarchy from being unmounted), and closed as soon as a collection
 * finds their cgroup gone. A new cgroup under a removed one's name is a
 * new identity and gets files and a directory of its own. Directories
 * have their own budget.
 */
TEST(held_files_reread_and_closed_with_their_cgroup)
{
	char *root = fake_hybrid_tree(), *v2, *a, *next, *text;
	size_t fds = open_fds(), all;
	struct held_files *h;

	ASSERT_TRUE(asprintf(&v2, "%s/sys/fs/cgroup/unified", root) >= 0);
	ASSERT_TRUE(asprintf(&a, "%s/a", v2) >= 0);
	ASSERT_TRUE(asprintf(&next, "%s/a.new", v2) >= 0);
	ASSERT_EQ(held_files_new(1000, 1000, &h), 0);
	free(collect_and_render_held(root, false, h, 3));
	all = held_files_count(h);
	/* v2's /a alone: its v1 twins in cpu,cpuacct and memory are not held */
	ASSERT_TRUE(all > 10 && all <= files_in(a));
	ASSERT_EQ(held_files_dirs(h), 1); /* /a's: the walk opens the root afresh */
	ASSERT_EQ(open_fds(), fds + all + 1);

	/* rewritten in place, as the kernel's content changes under an open file */
	file_write(a, "cpu.pressure", "some total=2000000\nfull total=0\n");
	text = collect_and_render_held(root, false, h, 3);
	ASSERT_TRUE(has_line(text, A_CPU_WAITING "2"));
	expect_held_line(text, all);
	free(text);

	/*
	 * The kernel never reuses a cgroup ID, but this file system may reuse
	 * a freed inode number: the new /a is made before the old one goes.
	 */
	make_cgroup(v2, "a.new", "v2", NULL);
	dir_remove(v2, "a");
	ASSERT_TRUE(rename(next, a) == 0);
	file_write(a, "cpu.pressure", "some total=3000000\nfull total=0\n");
	text = collect_and_render_held(root, false, h, 3);
	ASSERT_TRUE(has_line(text, A_CPU_WAITING "3"));
	ASSERT_TRUE(has_unified_a_identity(text, root));
	ASSERT_EQ(held_files_count(h), all);
	ASSERT_EQ(held_files_dirs(h), 1);
	ASSERT_EQ(open_fds(), fds + all + 1);
	free(text);

	dir_remove(v2, "a");
	free(collect_and_render_held(root, false, h, 3)); /* /a lives on in v1 */
	ASSERT_TRUE(held_files_count(h) < all);
	ASSERT_EQ(held_files_dirs(h), 0);
	ASSERT_EQ(open_fds(), fds + held_files_count(h));
	held_files_free(h);
	ASSERT_EQ(open_fds(), fds);

	make_cgroup(v2, "a", "v2", NULL);
	ASSERT_EQ(held_files_new(5, 0, &h), 0);
	text = collect_and_render_held(root, false, h, 3);
	ASSERT_EQ(held_files_count(h), 5);
	ASSERT_EQ(held_files_dirs(h), 0);
	ASSERT_EQ(open_fds(), fds + 5);
	expect_held_line(text, 5);
	free(text);
	held_files_free(h);
	free(next);
	free(a);
	free(v2);
	tmpdir_remove(root);
	free(root);
}

/* Sets the value of the exposition's unlabelled sample of name to 0. */
static void blank_value(char *text, const char *name)
{
	char *p = strstr(text, name), *end;

	for (; p && (p == text || p[-1] != '\n' || p[strlen(name)] != ' '); p = strstr(p + 1, name))
		;
	ASSERT_TRUE(p != NULL);
	p += strlen(name) + 1;
	end = strchr(p, '\n');
	memmove(p + 1, end, strlen(end) + 1);
	*p = '0';
}

/* The binary (the first argument) prints what the library renders (duration and held files aside).
 */
TEST(cgacctd_once_prints_the_same_exposition)
{
	const char *cgacctd = test_argv[1];
	char *root = fake_hybrid_tree(), *expect = collect_and_render(root, true), *cmd;
	char got[1 << 16];
	size_t n;
	FILE *f;

	ASSERT_TRUE(test_argc >= 2);
	ASSERT_TRUE(asprintf(&cmd, "'%s' --once --per-cpu --mountinfo '%s/mountinfo' --root '%s'",
			     cgacctd, root, root) >= 0);
	f = popen(cmd, "r");
	ASSERT_TRUE(f != NULL);
	n = fread(got, 1, sizeof(got) - 1, f);
	got[n] = '\0';
	ASSERT_EQ(pclose(f), 0);

	/*
	 * The duration varies; the binary holds files as the service does, which
	 * the library's collection here does not (tests/service/once.sh holds
	 * --once to a scrape instead).
	 */
	blank_value(got, "cgacct_collection_duration_seconds");
	blank_value(got, "cgacct_held_files");
	blank_value(got, "cgacct_held_directories");
	ASSERT_STREQ(got, expect);
	ASSERT_TRUE(strstr(got, "cgroup_cpu_usage_per_cpu_seconds_total{cgroup=\"/a\",cpu=\"1\"} "
				"3.171872605\n"));
	free(cmd);
	free(expect);
	tmpdir_remove(root);
	free(root);
}

/* The number in dir/file (after key, if given; "*": its second); "max" is UINT64_MAX. */
static uint64_t file_number(const char *dir, const char *file, const char *key)
{
	char *path, *buf, *p;
	size_t len;
	uint64_t v = UINT64_MAX;

	ASSERT_TRUE(asprintf(&path, "%s/%s", dir, file) >= 0);
	ASSERT_EQ(read_file_at(AT_FDCWD, path, &buf, &len), 0);
	p = buf;
	if (key && strcmp(key, "*") == 0) /* the second word */
		p = strchr(buf, ' ') + 1;
	else if (key) {
		size_t n = strlen(key);

		while (p && !(strncmp(p, key, n) == 0 && p[n] == ' '))
			p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
		ASSERT_TRUE(p != NULL);
		p += n + 1;
	}
	if (strncmp(p, "max", 3) != 0)
		v = strtoull(p, NULL, 10);
	free(buf);
	free(path);
	return v;
}

static uint64_t pages(const char *dir, const char *file)
{
	uint64_t bytes = file_number(dir, file, NULL), size = (uint64_t)sysconf(_SC_PAGESIZE);

	return bytes == UINT64_MAX ? (uint64_t)INT64_MAX / size : bytes / size;
}

/* The total= of a pressure file's line that starts with kind. */
static uint64_t pressure_total(const char *dir, const char *file, const char *kind)
{
	char *path, *buf, *line;
	size_t len;
	uint64_t v;

	ASSERT_TRUE(asprintf(&path, "%s/%s", dir, file) >= 0);
	ASSERT_EQ(read_file_at(AT_FDCWD, path, &buf, &len), 0);
	line = strstr(buf, kind);
	ASSERT_TRUE(line != NULL && strstr(line, "total=") != NULL);
	v = strtoull(strstr(line, "total=") + strlen("total="), NULL, 10);
	free(buf);
	free(path);
	return v;
}

/*
 * The sizes of the test's cgroup, where the kernel's index of a size
 * (which records go by) is the order its files were made in: their inode
 * numbers' order, whatever order the directory lists them in.
 */
static void hugetlb_of(const char *dir, struct record *r)
{
	static const char *const sizes[] = {"1GB", "2MB"};
	uint64_t ino[ELEMENTSOF(sizes)];

	for (size_t i = 0; i < ELEMENTSOF(sizes); i++) {
		char *events;
		struct stat st;

		ASSERT_TRUE(asprintf(&events, "%s/hugetlb.%s.events", dir, sizes[i]) >= 0);
		ASSERT_EQ(stat(events, &st), 0);
		ino[i] = st.st_ino;
		free(events);
	}
	for (size_t i = 0; i < ELEMENTSOF(sizes); i++) {
		size_t k = ino[i] > ino[1 - i]; /* the size's index */
		char *current, *max, *local;
		uint64_t per_huge_page = (i == 0 ? UINT64_C(1) << 30 : UINT64_C(2) << 20) /
					 (uint64_t)sysconf(_SC_PAGESIZE);
		uint64_t counter_max = (uint64_t)INT64_MAX / (uint64_t)sysconf(_SC_PAGESIZE);

		ASSERT_TRUE(asprintf(&current, "hugetlb.%s.current", sizes[i]) >= 0);
		ASSERT_TRUE(asprintf(&max, "hugetlb.%s.max", sizes[i]) >= 0);
		ASSERT_TRUE(asprintf(&local, "hugetlb.%s.events.local", sizes[i]) >= 0);
		r->hugetlb_pages[k] = pages(dir, current);
		/* "max": the largest count of whole huge pages a page counter holds */
		r->hugetlb_max_pages[k] = file_number(dir, max, NULL) == UINT64_MAX
					      ? counter_max - counter_max % per_huge_page
					      : pages(dir, max);
		r->hugetlb_max_events[k] = file_number(dir, local, "max");
		free(current);
		free(max);
		free(local);
	}
}

/* The record the BPF walk would give for the cgroup whose files are in dir. */
static struct record record_of(const char *dir, uint64_t id, uint64_t parent)
{
	static const char *const events[RECORD_MEMORY_EVENTS] = {
	    "low", "high", "max", "oom", "oom_kill", "oom_group_kill"};
	struct record r = {
	    .magic = RECORD_MAGIC,
	    .id = id,
	    .parent_id = parent,
	    .level = 1,
	    .has = RECORD_HAS_CPU | RECORD_HAS_CPU_CONTROLLER | RECORD_HAS_MEMORY | RECORD_HAS_PIDS,
	    /*
	     * Ticks in the ratio of the file's user and system, at another
	     * scale: only splitting the run time by them gives the file's values.
	     */
	    .cpu_usage_ns = file_number(dir, "cpu.stat", "usage_usec") * 1000,
	    .cpu_user_ns = file_number(dir, "cpu.stat", "user_usec"),
	    .cpu_system_ns = file_number(dir, "cpu.stat", "system_usec"),
	    .cpu_periods = file_number(dir, "cpu.stat", "nr_periods"),
	    .cpu_throttled_periods = file_number(dir, "cpu.stat", "nr_throttled"),
	    .cpu_throttled_ns = file_number(dir, "cpu.stat", "throttled_usec") * 1000,
	    .cpu_bursts = file_number(dir, "cpu.stat", "nr_bursts"),
	    .cpu_burst_ns = file_number(dir, "cpu.stat", "burst_usec") * 1000,
	    .cpu_period_ns = file_number(dir, "cpu.max", "*") * 1000,
	    .cpu_burst_quota_ns = file_number(dir, "cpu.max.burst", NULL) * 1000,
	    /* sched_weight_from_cgroup(), scale_load() */
	    .cpu_shares = (file_number(dir, "cpu.weight", NULL) * 1024 + 50) / 100 << 10,
	    .memory_pages = pages(dir, "memory.current"),
	    .memory_peak_pages = pages(dir, "memory.peak"),
	    .memory_max_pages = pages(dir, "memory.max"),
	    .memory_high_pages = pages(dir, "memory.high"),
	    .memory_low_pages = pages(dir, "memory.low"),
	    .memory_min_pages = pages(dir, "memory.min"),
	    .pids_current = file_number(dir, "pids.current", NULL),
	    .pids_max = file_number(dir, "pids.max", NULL),
	    .pids_events_max = file_number(dir, "pids.events", "max"),
	};
	uint64_t quota = file_number(dir, "cpu.max", NULL);

	static const char *const swap_events[RECORD_SWAP_EVENTS] = {"high", "max", "fail"};
	static const char *const pressure[] = {"cpu.pressure", "memory.pressure", "io.pressure"};

	r.cpu_quota_ns = quota == UINT64_MAX ? RECORD_UNLIMITED : quota * 1000;
	r.swap_pages = pages(dir, "memory.swap.current");
	r.swap_max_pages = pages(dir, "memory.swap.max");
	for (size_t i = 0; i < RECORD_SWAP_EVENTS; i++)
		r.swap_events[i] = file_number(dir, "memory.swap.events", swap_events[i]);
	/* nanoseconds below a microsecond, which the files leave out */
	r.has |= RECORD_HAS_PRESSURE;
	for (size_t i = 0; i < ELEMENTSOF(pressure); i++) {
		r.pressure_ns[2 * i] = pressure_total(dir, pressure[i], "some") * 1000 + 999;
		r.pressure_ns[2 * i + 1] = pressure_total(dir, pressure[i], "full") * 1000 + 999;
	}
	r.has |= RECORD_HAS_HUGETLB;
	hugetlb_of(dir, &r);
	for (size_t i = 0; i < RECORD_MEMORY_EVENTS; i++) {
		r.memory_events[i] = file_number(dir, "memory.events.local", events[i]);
		r.memory_events_tree[i] = file_number(dir, "memory.events", events[i]);
	}
	if (r.pids_max == UINT64_MAX)
		r.pids_max = 4194305; /* PIDS_MAX */
	return r;
}

static void write_records(const char *pins, const struct record *r, size_t n)
{
	FILE *f;
	char *path;

	mkdir_p(pins);
	file_write(pins, "walk", "");
	ASSERT_TRUE(asprintf(&path, "%s/records", pins) >= 0);
	f = fopen(path, "w");
	ASSERT_TRUE(f != NULL);
	for (size_t i = 0; i < n; i++) {
		static const char pad[8];
		const char *name = r[i].level ? "a" : "";

		ASSERT_EQ(fwrite(&r[i], sizeof(r[i]), 1, f), 1);
		ASSERT_EQ(fwrite(name, 1, r[i].name_len, f), r[i].name_len);
		ASSERT_EQ(
		    fwrite(pad, 1, RECORD_SIZE(r[i].name_len) - sizeof(r[i]) - r[i].name_len, f),
		    RECORD_SIZE(r[i].name_len) - sizeof(r[i]) - r[i].name_len);
	}
	ASSERT_EQ(fclose(f), 0);
	free(path);
}

static uint64_t inode_of(const char *dir)
{
	struct stat st;

	ASSERT_EQ(stat(dir, &st), 0);
	return st.st_ino;
}

/* The exposition of the v2 tree at root, without the line that names the source. */
static char *collect_v2(const char *root, const char *pins, struct snapshot *ret)
{
	char *mi, *text, *line;
	struct collect_options o = {.root = root, .bpf_pins = pins};
	struct strbuf out = {0};

	ASSERT_TRUE(asprintf(&mi, "%s/mountinfo", root) >= 0);
	o.mountinfo = mi;
	ASSERT_EQ(collect_snapshot(&o, ret), 0);
	ret->duration_ns = 0;
	ASSERT_EQ(render_exposition(ret, &(struct render_options){.version = CGACCT_VERSION}, &out),
		  0);
	text = out.buf;
	line = strstr(text, "\ncgacct_collection_source{");
	ASSERT_TRUE(line != NULL);
	memmove(line + 1, strchr(line + 1, '\n') + 1, strlen(strchr(line + 1, '\n') + 1) + 1);
	free(mi);
	return text;
}

/*
 * A v2 cgroup (the fixture's files) and the record the BPF walk would have
 * made of it: the same exposition from the record as from its files, with
 * the files the record holds removed, so that only the record can have
 * given their values; and from files, saying why, when no reader is there.
 */
TEST(bpf_records_give_what_their_files_would)
{
	static const char *const covered[] = {"cpu.stat",
					      "cpu.max",
					      "cpu.max.burst",
					      "cpu.weight",
					      "memory.current",
					      "memory.peak",
					      "memory.max",
					      "memory.high",
					      "memory.low",
					      "memory.min",
					      "memory.events",
					      "memory.events.local",
					      "pids.current",
					      "pids.max",
					      "pids.events",
					      "memory.swap.current",
					      "memory.swap.max",
					      "memory.swap.events",
					      "cpu.pressure",
					      "memory.pressure",
					      "io.pressure",
					      "hugetlb.2MB.current",
					      "hugetlb.2MB.max",
					      "hugetlb.2MB.events.local",
					      "hugetlb.1GB.current",
					      "hugetlb.1GB.max",
					      "hugetlb.1GB.events.local"};
	char *root = tmpdir_make(), *cg, *a, *pins, *from_files, *from_records;
	struct record r[2];
	struct snapshot s;

	ASSERT_TRUE(asprintf(&cg, "%s/sys/fs/cgroup", root) >= 0);
	ASSERT_TRUE(asprintf(&a, "%s/a", cg) >= 0);
	ASSERT_TRUE(asprintf(&pins, "%s/sys/fs/bpf/cgacct", root) >= 0);
	file_write(root, "mountinfo", "30 1 0:30 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	mkdir_p(cg);
	make_cgroup(cg, NULL, NULL, NULL);
	make_cgroup(cg, "a", "v2", NULL);
	/* a second size, unlimited, with other values than the fixture's 2MB */
	file_write(a, "hugetlb.1GB.current", "1073741824\n");
	file_write(a, "hugetlb.1GB.max", "max\n");
	file_write(a, "hugetlb.1GB.events", "max 9\n");
	file_write(a, "hugetlb.1GB.events.local", "max 7\n");

	from_files = collect_v2(root, "/sys/fs/bpf/cgacct", &s);
	ASSERT_TRUE(strstr(from_files, "pagesize=\"1GB\"") != NULL);
	ASSERT_TRUE(!s.bpf_records && s.bpf_error == -ENOENT);
	snapshot_free(&s);

	r[0] = (struct record){.magic = RECORD_MAGIC, .id = inode_of(cg)};
	r[1] = record_of(a, inode_of(a), inode_of(cg));
	r[1].name_len = 1;
	write_records(pins, r, 2);
	for (size_t i = 0; i < ELEMENTSOF(covered); i++)
		dir_remove(a, covered[i]);
	from_records = collect_v2(root, "/sys/fs/bpf/cgacct", &s);
	ASSERT_TRUE(s.bpf_records && s.bpf_error == 0);
	snapshot_free(&s);
	ASSERT_STREQ(from_records, from_files);

	free(from_files);
	free(from_records);
	free(pins);
	free(a);
	free(cg);
	tmpdir_remove(root);
	free(root);
}

/* promtool's own parser and linter, when the host has it (the second argument). */
TEST(promtool_finds_no_problem)
{
	const char *promtool = test_argc > 2 ? test_argv[2] : NULL;
	char *root, *text, *cmd;
	FILE *f;

	if (!promtool) {
		printf("# skipped: no promtool on this host\n");
		return;
	}
	root = fake_hybrid_tree();
	text = collect_and_render(root, true);
	ASSERT_TRUE(asprintf(&cmd, "'%s' check metrics", promtool) >= 0);
	f = popen(cmd, "w");
	ASSERT_TRUE(f != NULL);
	fputs(text, f);
	ASSERT_EQ(pclose(f), 0);
	free(cmd);
	free(text);
	tmpdir_remove(root);
	free(root);
}
