/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The collection driver. Per hierarchy it walks every cgroup and runs each
 * controller whose reader applies: on v1 the controllers bound to that
 * hierarchy, on the unified hierarchy every v2 reader (files of controllers
 * not enabled for a cgroup are simply absent). A v1 hierarchy where no
 * selected controller applies is not walked at all.
 *
 * A cgroup that disappears while being read is dropped and counted, never
 * reported as an error: removal races are normal on a busy host. Since a
 * missing file looks the same as a removed cgroup, a cgroup with any file
 * missing is confirmed by checking that cgroup.procs, which every cgroup
 * has on v1 and v2, is still there. One whose files were all there was
 * alive when its last file was read, and its record is whole.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/fileio.h"
#include "base/util.h"
#include "collector/bpf/source.h"
#include "collector/collect.h"
#include "collector/controllers/controller.h"
#include "collector/devname.h"
#include "collector/idcache.h"
#include "collector/identity.h"
#include "collector/layout.h"
#include "collector/walk.h"

struct collect_run {
	const struct collect_options *opts;
	const struct hierarchy *h;
	unsigned h_index;
	struct snapshot *snap;
	struct devnames devnames;
	struct hugetlb_sizes hugetlb; /* per hierarchy: v1 and v2 spell files differently */
	struct readbuf buf;
	struct cgroup_record rec; /* scratch: every cgroup is read into its sample buffer */
	long clock_ticks;
	uint64_t page_size;
	const struct bpf_source *bpf; /* NULL: files alone */
};

/* Whether controller i has a reader for h: on v1, where it is bound there. */
static bool controller_applies(size_t i, const struct hierarchy *h)
{
	const struct controller_reader *c = controller_readers[i];

	if (h->unified)
		return c->read_v2 != NULL;
	return c->read_v1 && (h->controllers & CONTROLLER_BIT(i));
}

static bool cgroup_gone(int dirfd)
{
	return faccessat(dirfd, "cgroup.procs", F_OK, 0) < 0 && errno_is_vanished(-errno);
}

static int visit_cgroup(void *userdata, const struct walk_entry *e)
{
	struct collect_run *run = userdata;
	struct cgroup_record *rec = &run->rec;
	unsigned absent = 0;
	struct reader_ctx ctx = {
	    .dirfd = e->fd,
	    .buf = &run->buf,
	    .absent = &absent,
	    .held = run->opts->held,
	    .rec = rec,
	    .devnames = &run->devnames,
	    .hugetlb = &run->hugetlb,
	    .per_cpu = run->opts->per_cpu,
	    .clock_ticks = run->clock_ticks,
	    .loads = run->opts->loads,
	    .id = e->id,
	    .cputimes = run->opts->cputimes,
	    .page_size = run->page_size,
	};
	bool vanished = false;
	int r;

	if (run->opts->select &&
	    !run->opts->select(run->opts->select_userdata,
			       run->h->path + (run->opts->root ? strlen(run->opts->root) : 0),
			       e->path, e->depth))
		return 0;
	/* records know v2 cgroups by their ID, the inode number */
	if (run->bpf && run->h->unified && !e->serial)
		ctx.bpf = bpf_source_find(run->bpf, e->id);
	/* see heldfiles.c for why only the unified hierarchy's */
	if (run->opts->held && run->h->unified)
		ctx.held_cgroup = held_files_cgroup(run->opts->held, run->h->path, e->id);
	rec->n_samples = 0;
	rec->labels_len = 0;
	r = record_add(rec, e->serial ? METRIC_INFO_SERIAL : METRIC_INFO_INO, run->h->name, e->id);
	if (r < 0)
		return r;

	for (size_t i = 0; i < _CONTROLLER_MAX && !vanished; i++) {
		const struct controller_reader *c = controller_readers[i];

		if (!controller_applies(i, run->h) ||
		    (run->opts->skip_controllers & CONTROLLER_BIT(i)))
			continue;
		r = run->h->unified ? c->read_v2(&ctx) : c->read_v1(&ctx);
		if (r == -ENOMEM)
			return r;
		if (errno_is_vanished(r))
			vanished = true;
		else if (r < 0)
			run->snap->collectors[i].errors++;
	}
	if (!vanished && absent > 0 && cgroup_gone(e->fd))
		vanished = true;
	if (run->opts->on_visit)
		run->opts->on_visit(run->opts->userdata, run->h->name, e->path, e->id, !vanished);
	if (vanished) {
		if (ctx.held_cgroup)
			held_cgroup_drop(run->opts->held, ctx.held_cgroup);
		run->snap->vanished++;
		return 0;
	}
	run->snap->hierarchies[run->h_index].cgroups++;
	return snapshot_take_record(run->snap, e->path, rec);
}

static int get_held_dir(void *userdata, uint64_t id, uint64_t ino)
{
	const struct collect_run *run = userdata;

	return held_dir(run->opts->held, run->h->path, id, ino);
}

static bool keep_held_dir(void *userdata, uint64_t id, uint64_t ino, int fd)
{
	const struct collect_run *run = userdata;

	return held_dir_keep(run->opts->held, run->h->path, id, ino, fd);
}

static int collect_hierarchy(struct collect_run *run)
{
	const struct walk_dirs held_dirs = {
	    .get = get_held_dir,
	    .keep = keep_held_dir,
	    .userdata = run,
	};
	struct id_table *ids = run->opts->ids ? id_cache_table(run->opts->ids, run->h->path) : NULL;
	struct walk *w = NULL;
	int fd, r;

	fd = open(run->h->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* see heldfiles.c for why only the unified hierarchy's */
	r = walk_new(fd, run->opts->held && run->h->unified ? &held_dirs : NULL, ids, &w);
	if (r < 0)
		return r;
	/*
	 * The whole hierarchy in one step: nothing waits to run between steps,
	 * and a step that resumes must first revalidate its cursor.
	 */
	r = walk_step(w, SIZE_MAX, visit_cgroup, run);
	if (ids)
		id_table_end(ids);
	run->snap->vanished += walk_vanished(w);
	if (r >= 0 && walk_errors(w) > 0)
		r = -EIO;
	walk_free(w);
	return r;
}

static int read_layout(const struct collect_options *o, struct layout *ret)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r;

	r = read_file_at(AT_FDCWD, o->mountinfo, &buf, &len);
	if (r < 0)
		return r;
	return layout_parse_mountinfo(buf, len, o->root, ret);
}

/* Whether path is dir or below it. */
static bool path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/' || n == 1);
}

/* 0 if root (below the prefix) is a cgroup directory of one of l's hierarchies. */
static int root_error(const struct layout *l, const char *prefix, const char *root)
{
	_cleanup_free_ char *full = NULL;
	bool within = false;
	struct stat st;

	if (asprintf(&full, "%s%s", prefix ? prefix : "", root) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < l->n && !within; i++)
		within = path_within(full, l->hierarchies[i].path);
	if (!within)
		return -EMEDIUMTYPE;
	if (stat(full, &st) < 0)
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

static int check_roots(const struct collect_options *o, const struct layout *l,
		       struct root_problem **ret, size_t *ret_n)
{
	struct root_problem *v = NULL;
	size_t n = 0, cap = 0;

	for (char *const *root = o->roots; root && *root; root++) {
		int e = root_error(l, o->root, *root);

		if (e == -ENOMEM ||
		    (e < 0 && array_grow((void **)&v, &cap, n + 1, sizeof(*v), 4) < 0)) {
			root_problems_free(v, n);
			return -ENOMEM;
		}
		if (e == 0)
			continue;
		v[n].path = strdup(*root);
		v[n].error = e;
		if (!v[n++].path) {
			root_problems_free(v, n - 1);
			return -ENOMEM;
		}
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

int collect_check_roots(const struct collect_options *o, struct root_problem **ret, size_t *ret_n)
{
	struct layout l = {0};
	int r;

	assert(o && o->mountinfo && ret && ret_n);
	r = read_layout(o, &l);
	if (r >= 0)
		r = check_roots(o, &l, ret, ret_n);
	layout_done(&l);
	return r;
}

/* Bit i set: controller i applies to some hierarchy of l. */
static unsigned controllers_mounted(const struct layout *l)
{
	unsigned mask = 0;

	for (size_t i = 0; i < _CONTROLLER_MAX; i++)
		for (size_t h = 0; h < l->n; h++)
			if (controller_applies(i, &l->hierarchies[h]))
				mask |= CONTROLLER_BIT(i);
	return mask;
}

/*
 * Drops the v1 hierarchies where no selected controller applies: walking
 * one would list every directory and read every cgroup.serial for nothing
 * but its identity series (controllers: narrowed to what systemd-cgtop
 * reads, a v1 host still walked the blkio and hugetlb trees). The unified
 * hierarchy stays: on a hybrid host it may hold the only identities.
 */
static void drop_unread_hierarchies(struct layout *l, unsigned skip_controllers)
{
	size_t kept = 0;

	for (size_t h = 0; h < l->n; h++) {
		struct hierarchy *hy = &l->hierarchies[h];
		bool read = hy->unified;

		for (size_t i = 0; i < _CONTROLLER_MAX && !read; i++)
			read = !(skip_controllers & CONTROLLER_BIT(i)) && controller_applies(i, hy);
		if (read)
			l->hierarchies[kept++] = *hy;
		else
			free(hy->path);
	}
	l->n = kept;
}

/* See collect_options.mounted_controllers; now is what is mounted this time. */
static void count_unmounted(const struct collect_options *o, unsigned now, struct snapshot *s)
{
	unsigned lost;

	if (!o->mounted_controllers)
		return;
	lost = *o->mounted_controllers & ~now & ~o->skip_controllers;
	for (size_t i = 0; i < _CONTROLLER_MAX; i++)
		if (lost & CONTROLLER_BIT(i))
			s->collectors[i].errors++;
	*o->mounted_controllers |= now;
}

static int snapshot_init(struct snapshot *s, const struct layout *l)
{
	*s = (struct snapshot){0};
	/* one status per controller, plus the walk itself last */
	s->n_collectors = _CONTROLLER_MAX + 1;
	s->collectors = calloc(s->n_collectors, sizeof(*s->collectors));
	s->n_hierarchies = l->n;
	s->hierarchies = calloc(l->n ? l->n : 1, sizeof(*s->hierarchies));
	if (!s->collectors || !s->hierarchies)
		return -ENOMEM;
	for (size_t i = 0; i < _CONTROLLER_MAX; i++)
		s->collectors[i].name = controller_info[i].name;
	s->collectors[_CONTROLLER_MAX].name = "walk";
	for (size_t i = 0; i < l->n; i++)
		strcpy(s->hierarchies[i].name, l->hierarchies[i].name);
	return 0;
}

/*
 * What the records' paths and the runtimes say, and the devices the
 * samples name, attached while the snapshot is still being written.
 */
static int annotate(const struct collect_options *o, struct devnames *devnames, struct snapshot *s)
{
	for (size_t i = 0; i < s->n_records; i++)
		identity_parse(s->records[i].path, &s->records[i].identity);
	/* cAdvisor's naming gives a device's numbers beside its name */
	s->devices = TAKE_PTR(devnames->entries);
	s->n_devices = devnames->n;
	if (!o->containers)
		return 0;
	return containers_annotate(o->containers, s);
}

/*
 * The records of o->bpf_pins, if asked for and the layout has a v2
 * hierarchy; a failure is no error of the collection: the files hold it all.
 */
static int read_bpf(const struct collect_options *o, const struct layout *l, struct bpf_source *src,
		    struct snapshot *s)
{
	_cleanup_free_ char *pins = NULL;
	bool unified = false;
	int r;

	if (!o->bpf_pins)
		return 0;
	for (size_t i = 0; i < l->n; i++)
		unified |= l->hierarchies[i].unified;
	if (!unified) {
		s->bpf_error = -EMEDIUMTYPE;
		return 0;
	}
	/* like /sys, below the root prefix */
	if (asprintf(&pins, "%s%s", o->root ? o->root : "", o->bpf_pins) < 0)
		return -ENOMEM;
	r = bpf_source_read(pins, src);
	if (r == -ENOMEM)
		return r;
	s->bpf_records = r == 0;
	s->bpf_error = r < 0 ? r : 0;
	return 0;
}

int collect_snapshot(const struct collect_options *o, struct snapshot *ret)
{
	struct collect_run run = {
	    .opts = o,
	    .devnames = {.dirfd = -1},
	    .clock_ticks = sysconf(_SC_CLK_TCK),
	    .page_size = (uint64_t)sysconf(_SC_PAGESIZE),
	};
	struct bpf_source bpf = {0};
	struct layout l = {0};
	struct snapshot s = {0};
	struct root_problem *bad_roots = NULL;
	size_t n_bad_roots = 0;
	uint64_t start = now_nsec();
	unsigned mounted;
	int r;

	assert(o && o->mountinfo && ret);
	r = read_layout(o, &l);
	if (r < 0)
		return r;
	/* before the drop: a skipped controller still counts as mounted, a root lies in it */
	mounted = controllers_mounted(&l);
	r = check_roots(o, &l, &bad_roots, &n_bad_roots);
	if (r < 0) {
		layout_done(&l);
		return r;
	}
	drop_unread_hierarchies(&l, o->skip_controllers);
	if (o->held)
		held_files_begin(o->held);
	r = snapshot_init(&s, &l);
	if (r >= 0) {
		count_unmounted(o, mounted, &s);
		s.collectors[_CONTROLLER_MAX].errors += (unsigned)n_bad_roots;
		s.bad_roots = TAKE_PTR(bad_roots);
		s.n_bad_roots = n_bad_roots;
		n_bad_roots = 0;
		r = devnames_init(&run.devnames, o->root);
	}
	if (r >= 0)
		r = read_bpf(o, &l, &bpf, &s);
	run.bpf = s.bpf_records ? &bpf : NULL;
	root_problems_free(bad_roots, n_bad_roots);
	run.snap = &s;
	for (size_t i = 0; r >= 0 && i < l.n; i++) {
		run.h = &l.hierarchies[i];
		run.h_index = (unsigned)i;
		run.hugetlb = (struct hugetlb_sizes){0};
		r = collect_hierarchy(&run);
		/* a hierarchy that cannot be walked fails the walk collector, not the scrape */
		if (r < 0 && r != -ENOMEM) {
			s.collectors[_CONTROLLER_MAX].errors++;
			r = 0;
		}
	}
	if (o->ids)
		id_cache_end(o->ids);
	if (o->loads)
		load_tracker_end(o->loads);
	cputime_tracker_end(o->cputimes);
	bpf_source_done(&bpf);
	if (o->held) {
		held_files_end(o->held);
		s.held_files = held_files_count(o->held);
		s.held_dirs = held_files_dirs(o->held);
	}
	if (r >= 0)
		r = annotate(o, &run.devnames, &s);
	if (r >= 0)
		r = snapshot_finalize(&s);
	devnames_done(&run.devnames);
	readbuf_done(&run.buf);
	record_done(&run.rec);
	layout_done(&l);
	if (r < 0) {
		snapshot_free(&s);
		return r;
	}
	s.duration_ns = now_nsec() - start;
	*ret = s;
	return 0;
}
