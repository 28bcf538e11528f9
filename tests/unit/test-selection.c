/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Selection by configuration (daemon/selection.c), from cgacctd.yml text:
 * a cgroup root is a whole mount or a subtree of one, max_depth counts from
 * the root that selected the cgroup, include/exclude globs apply below
 * that, and controllers are matched to the collector's readers by name,
 * "io" being the v2 name of blkio.
 */
#include <errno.h>

#include "collector/controllers/controller.h"
#include "daemon/selection.h"
#include "helpers-config.h"

static const struct cli cli = {.mountinfo = "/tmp/mountinfo", .root = "/tmp/root"};

static struct config *load(const char *yaml)
{
	return config_load_yaml("cgacctd.yml", yaml);
}

/* The options the configuration yaml selects; *ret_c is freed by the caller. */
static struct collect_options options(const char *yaml, struct config **ret_c)
{
	struct collect_options o;

	*ret_c = load(yaml);
	selection_collect_options(*ret_c, &cli, &o);
	ASSERT_TRUE(o.select != NULL);
	return o;
}

/* A cgroup as the walk hands it to select(), and whether it is to be read. */
struct pick {
	const char *mount, *path;
	unsigned depth;
	bool read;
};

static void assert_picks(const char *yaml, const struct pick *p, size_t n)
{
	struct config *c;
	struct collect_options o = options(yaml, &c);

	for (size_t i = 0; i < n; i++)
		if (o.select(o.select_userdata, p[i].mount, p[i].path, p[i].depth) != p[i].read) {
			fprintf(stderr, "%s: %s %s at depth %u should %sbe read\n", yaml,
				p[i].mount, p[i].path, p[i].depth, p[i].read ? "" : "not ");
			abort();
		}
	config_free(c);
}

#define ASSERT_PICKS(yaml, ...)                                                                    \
	assert_picks(yaml, (const struct pick[]){__VA_ARGS__},                                     \
		     sizeof((const struct pick[]){__VA_ARGS__}) / sizeof(struct pick))

TEST(without_roots_every_hierarchy_is_whole)
{
	ASSERT_PICKS("per_cpu: false\n", {"/sys/fs/cgroup", "/", 0, true},
		     {"/sys/fs/cgroup", "/a/b/c", 3, true},
		     {"/sys/fs/cgroup/memory", "/a", 1, true});
}

TEST(root_at_a_mount_takes_that_hierarchy_whole)
{
	ASSERT_PICKS("cgroup_roots: [/sys/fs/cgroup/memory]\n",
		     {"/sys/fs/cgroup/memory", "/", 0, true},
		     {"/sys/fs/cgroup/memory", "/a/b", 2, true},
		     {"/sys/fs/cgroup/cpu,cpuacct", "/", 0, false},
		     {"/sys/fs/cgroup/cpu,cpuacct", "/a", 1, false},
		     /* a mount whose name starts with the root's is another */
		     {"/sys/fs/cgroup/memory2", "/", 0, false});
}

TEST(root_below_a_mount_takes_that_subtree)
{
	ASSERT_PICKS("cgroup_roots: [/sys/fs/cgroup/system.slice]\n",
		     {"/sys/fs/cgroup", "/system.slice", 1, true},
		     {"/sys/fs/cgroup", "/system.slice/a.service", 2, true},
		     {"/sys/fs/cgroup", "/", 0, false}, {"/sys/fs/cgroup", "/user.slice", 1, false},
		     {"/sys/fs/cgroup", "/system.slice2", 1, false},
		     /* the same subtree of another hierarchy is not below this root */
		     {"/sys/fs/cgroup/memory", "/system.slice", 1, false});
}

TEST(any_of_several_roots_selects)
{
	ASSERT_PICKS(
	    "cgroup_roots: [/sys/fs/cgroup/memory/a, /sys/fs/cgroup/pids]\n",
	    {"/sys/fs/cgroup/memory", "/a/x", 2, true}, {"/sys/fs/cgroup/memory", "/b", 1, false},
	    {"/sys/fs/cgroup/pids", "/b", 1, true}, {"/sys/fs/cgroup/cpu", "/a", 1, false});
}

TEST(max_depth_counts_from_the_selecting_root)
{
	/* 1: the roots only */
	ASSERT_PICKS("max_depth: 1\n", {"/sys/fs/cgroup", "/", 0, true},
		     {"/sys/fs/cgroup", "/a", 1, false});
	ASSERT_PICKS("max_depth: 2\n", {"/sys/fs/cgroup", "/a", 1, true},
		     {"/sys/fs/cgroup", "/a/b", 2, false});
	/* a subtree's root is its depth 0, whatever its depth in the hierarchy */
	ASSERT_PICKS(
	    "cgroup_roots: [/sys/fs/cgroup/system.slice/x.service, /sys/fs/cgroup/memory]\n"
	    "max_depth: 2\n",
	    {"/sys/fs/cgroup", "/system.slice/x.service", 2, true},
	    {"/sys/fs/cgroup", "/system.slice/x.service/a", 3, true},
	    {"/sys/fs/cgroup", "/system.slice/x.service/a/b", 4, false},
	    {"/sys/fs/cgroup/memory", "/a", 1, true}, {"/sys/fs/cgroup/memory", "/a/b", 2, false});
	/* 0: no limit */
	ASSERT_PICKS("max_depth: 0\n", {"/sys/fs/cgroup", "/a/b/c/d/e/f/g/h", 8, true});
}

TEST(include_and_exclude_apply_below_the_roots)
{
	ASSERT_PICKS("include: [\"/system.slice/**\"]\nexclude: [\"/**/*.mount\"]\n",
		     {"/sys/fs/cgroup", "/system.slice/a.service", 2, true},
		     {"/sys/fs/cgroup", "/system.slice/b.mount", 2, false},
		     {"/sys/fs/cgroup", "/user.slice/c.service", 2, false});
	/* globs match the path in the hierarchy, not below the root */
	ASSERT_PICKS("cgroup_roots: [/sys/fs/cgroup/system.slice]\n"
		     "include: [\"/system.slice/a.service\"]\n",
		     {"/sys/fs/cgroup", "/system.slice/a.service", 2, true},
		     {"/sys/fs/cgroup", "/system.slice/b.service", 2, false});
	/* and a cgroup outside the roots stays out whatever the globs say */
	ASSERT_PICKS("cgroup_roots: [/sys/fs/cgroup/system.slice]\ninclude: [\"/**\"]\n",
		     {"/sys/fs/cgroup", "/user.slice", 1, false});
}

/* Whether the collector skips the reader named name, which must exist. */
static bool skipped(const struct collect_options *o, const char *name)
{
	for (size_t i = 0; i < _CONTROLLER_MAX; i++)
		if (strcmp(controller_info[i].name, name) == 0)
			return o->skip_controllers & CONTROLLER_BIT(i);
	fprintf(stderr, "no reader named %s\n", name);
	abort();
}

/* Every reader is skipped but those named in read, a NULL-terminated list. */
static void assert_reads_only(const char *yaml, const char *const *read)
{
	struct config *c;
	struct collect_options o = options(yaml, &c);

	for (size_t i = 0; i < _CONTROLLER_MAX; i++) {
		const char *name = controller_info[i].name;
		bool wanted = false;

		for (const char *const *r = read; *r; r++)
			wanted = wanted || strcmp(*r, name) == 0;
		if (skipped(&o, name) == wanted) {
			fprintf(stderr, "%s: reader %s is %s\n", yaml, name,
				wanted ? "skipped" : "read");
			abort();
		}
	}
	ASSERT_EQ(o.skip_controllers >> _CONTROLLER_MAX, 0);
	config_free(c);
}

TEST(controllers_are_matched_by_name)
{
	assert_reads_only("controllers: [all]\n",
			  (const char *const[]){"cpuacct", "cpu", "memory", "hugetlb", "blkio",
						"pids", "pressure", NULL});
	assert_reads_only("controllers: [memory]\n", (const char *const[]){"memory", NULL});
	/* cpu is not cpuacct */
	assert_reads_only("controllers: [cpu, pids]\n", (const char *const[]){"cpu", "pids", NULL});
	assert_reads_only("controllers: [cpuacct]\n", (const char *const[]){"cpuacct", NULL});
	assert_reads_only("controllers: [hugetlb, pressure]\n",
			  (const char *const[]){"hugetlb", "pressure", NULL});
}

TEST(io_and_blkio_both_name_the_blkio_reader)
{
	assert_reads_only("controllers: [io]\n", (const char *const[]){"blkio", NULL});
	assert_reads_only("controllers: [blkio]\n", (const char *const[]){"blkio", NULL});
	assert_reads_only("controllers: [io, blkio, cpu]\n",
			  (const char *const[]){"blkio", "cpu", NULL});
}

TEST(files_and_per_cpu_come_through)
{
	struct config *c;
	struct collect_options o = options("per_cpu: true\n", &c);

	ASSERT_STREQ(o.mountinfo, "/tmp/mountinfo");
	ASSERT_STREQ(o.root, "/tmp/root");
	ASSERT_TRUE(o.per_cpu);
	/* the service fills these in itself */
	ASSERT_TRUE(o.on_visit == NULL && o.mounted_controllers == NULL && o.held == NULL &&
		    o.ids == NULL);
	config_free(c);
	o = options("per_cpu: false\n", &c);
	ASSERT_TRUE(!o.per_cpu);
	config_free(c);
}

TEST(scrape_settings_come_through)
{
	struct config *c =
	    load("naming: cadvisor\nmin_interval: 2s\nmax_series: 7\ngzip_level: 6\n");
	struct scrape_settings s = selection_scrape_settings(c);

	ASSERT_EQ(s.naming, RENDER_NAMING_CADVISOR);
	ASSERT_EQ_U64(s.min_interval_usec, 2000000);
	ASSERT_EQ_U64(s.max_series, 7);
	ASSERT_EQ(s.gzip_level, 6);
	config_free(c);
	c = load("naming: native\n");
	ASSERT_EQ(selection_scrape_settings(c).naming, RENDER_NAMING_NATIVE);
	config_free(c);
}
