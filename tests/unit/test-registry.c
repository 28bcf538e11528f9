/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One row owns a controller (model/controllers.h) and one a metric
 * (model/metric-rows.h): every row is reachable from the configuration,
 * the collector and both namings. Each controller's name and alias select
 * it alone; collected alone from the fixture trees of every layout, it
 * yields samples, all of which the native naming prints under their row's
 * name and some of which the cAdvisor naming prints; and every metric row
 * is yielded by some controller, or by the walk or the runtime client.
 */
#include "base/util.h"
#include "collector/collect.h"
#include "collector/controllers/controller.h"
#include "config/config.h"
#include "exporter/cadvisor.h"
#include "exporter/native.h"
#include "exporter/render.h"
#include "test.h"

/* What a name in `controllers:` selects. */
static unsigned selected(const char *name)
{
	struct config_error e;
	struct config *c;
	char yaml[64];
	unsigned mask;

	snprintf(yaml, sizeof(yaml), "controllers: [%s]\n", name);
	ASSERT_EQ(config_load_buffer("test.yml", yaml, strlen(yaml), &c, &e), 0);
	mask = c->controllers;
	config_free(c);
	return mask;
}

TEST(every_controller_is_selected_alone_by_its_name_and_alias)
{
	for (size_t i = 0; i < _CONTROLLER_MAX; i++) {
		ASSERT_EQ(selected(controller_info[i].name), CONTROLLER_BIT(i));
		if (controller_info[i].alias)
			ASSERT_EQ(selected(controller_info[i].alias), CONTROLLER_BIT(i));
		/* a reader for each kind of hierarchy it names */
		ASSERT_TRUE(controller_readers[i]->read_v1 || controller_readers[i]->read_v2);
		ASSERT_EQ(controller_readers[i]->read_v1 != NULL, controller_info[i].v1[0] != '\0');
	}
	ASSERT_EQ(selected("all"), CONTROLLERS_ALL);
}

/*
 * Files the captured fixtures leave at "max" or without, set so that every
 * limit has a value: an unlimited limit has no sample.
 */
static const struct {
	const char *layout, *file, *content;
} limits[] = {
    {"v1", "memory.soft_limit_in_bytes", "16777216\n"},
    {"v1", "memory.kmem.limit_in_bytes", "67108864\n"},
    {"v1", "memory.memsw.limit_in_bytes", "134217728\n"},
    {"v1", "blkio.throttle.read_bps_device", "254:0 1048576\n"},
    {"v1", "blkio.throttle.write_iops_device", "254:0 500\n"},
    {"v2", "memory.high", "16777216\n"},
    {"v2", "memory.swap.max", "134217728\n"},
    {"v2", "io.max", "254:0 rbps=1048576 wbps=max riops=1000 wiops=500\n"},
};

/*
 * A fake tree of layout under a new folder: the root cgroup and /a with the
 * fixture files, every limit set; on v2 also the series' cpu.stat
 * (load-v2/), for the wait, runnable and load metrics.
 */
static char *fixture_tree(const char *layout)
{
	char *root = tmpdir_make(), *mi, *mountinfo;
	char *line, *save = NULL;
	size_t len;

	ASSERT_TRUE(asprintf(&mountinfo, "%s.mountinfo", layout) >= 0);
	mi = fixture_read(mountinfo, &len);
	file_write(root, "mountinfo", mi);
	for (line = strtok_r(mi, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char mount[256], fstype[32], *dir, *a;

		if (sscanf(line, "%*s %*s %*s %*s %255s %*s - %31s", mount, fstype) != 2 ||
		    strncmp(fstype, "cgroup", 6) != 0)
			continue;
		ASSERT_TRUE(asprintf(&dir, "%s%s", root, mount) >= 0);
		mkdir_p(dir);
		file_write(dir, "cgroup.procs", "");
		ASSERT_TRUE(asprintf(&a, "%s/a", dir) >= 0);
		mkdir_p(a);
		file_write(a, "cgroup.procs", "");
		tree_copy_files(layout, a);
		if (strcmp(layout, "v2") == 0)
			tree_copy_files("load-v2", a);
		for (size_t i = 0; i < ELEMENTSOF(limits); i++)
			if (strcmp(limits[i].layout, layout) == 0 ||
			    (strcmp(layout, "hybrid") == 0 && strcmp(limits[i].layout, "v2") == 0))
				file_write(a, limits[i].file, limits[i].content);
		free(a);
		free(dir);
	}
	free(mountinfo);
	free(mi);
	return root;
}

/*
 * The second of two collections of root's tree with only controller i (or
 * none: -1): load averages need an interval.
 */
static void collect_alone(const char *root, int i, struct snapshot *ret)
{
	char *mountinfo;
	struct collect_options o = {.root = root, .per_cpu = true};
	struct snapshot first;

	ASSERT_TRUE(asprintf(&mountinfo, "%s/mountinfo", root) >= 0);
	o.mountinfo = mountinfo;
	o.skip_controllers = CONTROLLERS_ALL & ~(i >= 0 ? CONTROLLER_BIT(i) : 0);
	ASSERT_EQ(load_tracker_new(&o.loads), 0);
	ASSERT_EQ(collect_snapshot(&o, &first), 0);
	snapshot_free(&first);
	ASSERT_EQ(collect_snapshot(&o, ret), 0);
	load_tracker_free(o.loads);
	free(mountinfo);
}

static char *render(const struct snapshot *s, enum render_naming naming)
{
	struct strbuf out = {0};

	ASSERT_EQ(
	    render_exposition(s, &(struct render_options){.naming = naming, .version = "t"}, &out),
	    0);
	return out.buf;
}

/* Whether text has a series of name ("name{" or "name "). */
static bool has_series(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = text; (p = strstr(p, name)); p += n)
		if ((p == text || p[-1] == '\n') && (p[n] == '{' || p[n] == ' '))
			return true;
	return false;
}

/* The metrics of /a in s; their count. */
static size_t yielded(const struct snapshot *s, bool *metrics)
{
	size_t n = 0;

	for (size_t r = 0; r < s->n_records; r++) {
		if (strcmp(s->records[r].path, "/a") != 0)
			continue;
		for (size_t k = 0; k < s->records[r].n_samples; k++) {
			enum metric m = s->records[r].samples[k].metric;

			if (m == METRIC_INFO_SERIAL || m == METRIC_INFO_INO)
				continue;
			metrics[m] = true;
			n++;
		}
	}
	return n;
}

TEST(every_row_is_reachable_from_the_collector_and_both_namings)
{
	static const char *const layouts[] = {"v1", "v2", "hybrid"};
	bool anywhere[_METRIC_MAX] = {false};

	for (size_t l = 0; l < ELEMENTSOF(layouts); l++) {
		char *root = fixture_tree(layouts[l]);
		struct snapshot s;

		/* with no controller, only the walk's identities */
		collect_alone(root, -1, &s);
		for (size_t r = 0; r < s.n_records; r++)
			for (size_t k = 0; k < s.records[r].n_samples; k++)
				ASSERT_TRUE(s.records[r].samples[k].metric <= METRIC_INFO_INO);
		snapshot_free(&s);

		for (int i = 0; i < _CONTROLLER_MAX; i++) {
			bool own[_METRIC_MAX] = {false};
			char *native, *cadvisor;
			bool named = false;

			collect_alone(root, i, &s);
			if (yielded(&s, own) == 0) {
				/* only where the layout has no hierarchy it reads */
				ASSERT_TRUE(!strcmp(layouts[l], "v2")
						? !controller_readers[i]->read_v2
						: !controller_readers[i]->read_v1);
				snapshot_free(&s);
				continue;
			}
			native = render(&s, RENDER_NAMING_NATIVE);
			cadvisor = render(&s, RENDER_NAMING_CADVISOR);
			for (size_t m = 0; m < _METRIC_MAX; m++) {
				if (!own[m])
					continue;
				anywhere[m] = true;
				if (!has_series(native, native_rows[m].name)) {
					fprintf(stderr, "%s, %s alone: no %s\n", layouts[l],
						controller_info[i].name, native_rows[m].name);
					abort();
				}
			}
			for (size_t k = 0; k < cadvisor_naming.n_rows && !named; k++)
				named = own[cadvisor_rows[k].source] &&
					has_series(cadvisor, cadvisor_rows[k].name);
			if (!named) {
				fprintf(stderr, "%s, %s alone: no cAdvisor series\n", layouts[l],
					controller_info[i].name);
				abort();
			}
			free(native);
			free(cadvisor);
			snapshot_free(&s);
		}
		tmpdir_remove(root);
		free(root);
	}
	/* the walk's identities and the runtime's creation time are theirs, not a controller's */
	for (size_t m = 0; m < _METRIC_MAX; m++) {
		bool others = m == METRIC_INFO_SERIAL || m == METRIC_INFO_INO ||
			      m == METRIC_CONTAINER_CREATED;

		if (anywhere[m] == others) {
			fprintf(stderr, "metric row %s is %s\n", native_rows[m].name,
				others ? "yielded by a controller" : "yielded by no controller");
			abort();
		}
	}
	/* and no cAdvisor row stands for a metric nothing yields */
	for (size_t k = 0; k < cadvisor_naming.n_rows; k++)
		ASSERT_TRUE(anywhere[cadvisor_rows[k].source] ||
			    cadvisor_rows[k].source == METRIC_CONTAINER_CREATED);
}
