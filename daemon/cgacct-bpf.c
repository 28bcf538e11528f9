/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cgacct-bpf: loads the BPF bulk reader (collector/bpf/cgacct.bpf.c) and
 * pins it, so that cgacctd reads it unprivileged; see cgacct-bpf(8).
 *
 *   cgacct-bpf load [--dir DIR] [--group GROUP] [--cgroup-root PATH] [--wait]
 *   cgacct-bpf unload [--dir DIR]
 *   cgacct-bpf dump [--dir DIR]
 *
 * load needs CAP_BPF and CAP_PERFMON (CAP_SYS_ADMIN before 5.8); the pins
 * are readable by GROUP alone. --wait also attaches the program that keeps
 * each cgroup's wait for a CPU, which runs at every context switch. dump prints what a reader gets,
 * a line per cgroup, as any user who may read the pins.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "collector/bpf/cgacct.skel.h"
#include "collector/bpf/records.h"

#define DIR_DEFAULT	    "/sys/fs/bpf/cgacct"
#define CGROUP_ROOT_DEFAULT "/sys/fs/cgroup"

/*
 * What a load pins, by name in the folder: the two iterators and the links
 * that keep the tracepoint programs, the last with --wait alone.
 */
static const char *const pins[] = {"walk", "records", "forget", "wait"};
#define PINS_ALWAYS 3

static int fail(int r, const char *fmt, ...)
{
	va_list ap;

	fputs("cgacct-bpf: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(-r));
	return 1;
}

/* Removes the pins in dir; dir stays, for a reader that bound it. */
static int unpin(const char *dir)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < ELEMENTSOF(pins); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, pins[i]);
		if (unlink(path) < 0 && errno != ENOENT)
			return fail(-errno, "cannot remove %s", path);
	}
	return 0;
}

/* Pins link as dir/name, readable by gid alone. */
static int pin(struct bpf_link *link, const char *dir, const char *name, gid_t gid)
{
	char path[PATH_MAX];
	int r;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	r = bpf_link__pin(link, path);
	if (r < 0)
		return fail(r, "cannot pin %s", path);
	if (chown(path, 0, gid) < 0 || chmod(path, 0440) < 0)
		return fail(-errno, "cannot hand %s to its group", path);
	return 0;
}

static struct bpf_link *attach_walk(struct cgacct *skel, const char *root)
{
	union bpf_iter_link_info info = {0};
	LIBBPF_OPTS(bpf_iter_attach_opts, opts, .link_info = &info, .link_info_len = sizeof(info));
	_cleanup_close_ int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct bpf_link *link;

	if (fd < 0) {
		fail(-errno, "cannot open %s", root);
		return NULL;
	}
	info.cgroup.cgroup_fd = (uint32_t)fd;
	info.cgroup.order = BPF_CGROUP_ITER_DESCENDANTS_PRE;
	link = bpf_program__attach_iter(skel->progs.walk, &opts);
	if (!link)
		fail(-errno, "cannot attach the walk to %s", root);
	return link;
}

static struct bpf_link *attach_records(struct cgacct *skel)
{
	union bpf_iter_link_info info = {0};
	LIBBPF_OPTS(bpf_iter_attach_opts, opts, .link_info = &info, .link_info_len = sizeof(info));
	struct bpf_link *link;

	info.map.map_fd = (uint32_t)bpf_map__fd(skel->maps.records);
	link = bpf_program__attach_iter(skel->progs.dump, &opts);
	if (!link)
		fail(-errno, "cannot attach the records iterator");
	return link;
}

static struct bpf_link *attach_tracepoint(struct bpf_program *prog)
{
	struct bpf_link *link = bpf_program__attach(prog);

	if (!link)
		fail(-errno, "cannot attach %s", bpf_program__name(prog));
	return link;
}

static int load(const char *dir, const char *group, const char *root, bool wait)
{
	struct bpf_link *links[ELEMENTSOF(pins)] = {NULL};
	const size_t n = wait ? ELEMENTSOF(pins) : PINS_ALWAYS;
	struct cgacct *skel;
	gid_t gid = 0;
	int r;

	if (group) {
		const struct group *g = getgrnam(group);

		if (!g) {
			fprintf(stderr, "cgacct-bpf: no group %s\n", group);
			return 1;
		}
		gid = g->gr_gid;
	}
	skel = cgacct__open();
	if (!skel)
		return fail(-errno, "cannot open the programs");
	skel->rodata->wait_tracking = wait;
	skel->rodata->nr_cpus = (uint32_t)libbpf_num_possible_cpus();
	r = cgacct__load(skel);
	if (r < 0) {
		cgacct__destroy(skel);
		return fail(r, "cannot load the programs (is there BTF in /sys/kernel/btf?)");
	}
	links[0] = attach_walk(skel, root);
	links[1] = links[0] ? attach_records(skel) : NULL;
	links[2] = links[1] ? attach_tracepoint(skel->progs.forget) : NULL;
	if (wait)
		links[3] = links[2] ? attach_tracepoint(skel->progs.switched) : NULL;
	r = links[n - 1] ? 0 : 1;
	/*
	 * A load replaces the pins of the one before in the same folder, and
	 * unload leaves the folder: cgacctd.service binds it, and a new folder
	 * would not show through the bind.
	 */
	if (r == 0)
		r = unpin(dir);
	if (r == 0 && mkdir(dir, 0750) < 0 && errno != EEXIST)
		r = fail(-errno, "cannot make %s", dir);
	if (r == 0 && (chown(dir, 0, gid) < 0 || chmod(dir, 0750) < 0))
		r = fail(-errno, "cannot hand %s to its group", dir);
	for (size_t i = 0; r == 0 && i < n; i++)
		r = pin(links[i], dir, pins[i], gid);
	if (r != 0)
		(void)unpin(dir);
	for (size_t i = 0; i < ELEMENTSOF(links); i++)
		bpf_link__destroy(links[i]);
	cgacct__destroy(skel);
	return r;
}

/* The fields dump prints after the identity, each when the record has its controller. */
struct field {
	const char *name;
	size_t offset;
	unsigned has; /* enum record_has */
};

/* A huge page size's, by the kernel's index of it: hugetlb_pages_0 and so on. */
#define HUGETLB_FIELD(member, i)                                                                   \
	{                                                                                          \
#member "_" #i, offsetof(struct record, member[i]), RECORD_HAS_HUGETLB             \
	}
#define HUGETLB_FIELDS(i)                                                                          \
	HUGETLB_FIELD(hugetlb_pages, i), HUGETLB_FIELD(hugetlb_max_pages, i),                      \
	    HUGETLB_FIELD(hugetlb_max_events, i)
_Static_assert(RECORD_HUGETLB_SIZES == 4, "dump prints the sizes a record holds");

static const struct field fields[] = {
    {"cpu_usage_ns", offsetof(struct record, cpu_usage_ns), RECORD_HAS_CPU},
    {"cpu_user_ns", offsetof(struct record, cpu_user_ns), RECORD_HAS_CPU},
    {"cpu_system_ns", offsetof(struct record, cpu_system_ns), RECORD_HAS_CPU},
    {"cpu_prev_user_ns", offsetof(struct record, cpu_prev_user_ns), RECORD_HAS_CPU},
    {"cpu_prev_system_ns", offsetof(struct record, cpu_prev_system_ns), RECORD_HAS_CPU},
    {"cpu_periods", offsetof(struct record, cpu_periods), RECORD_HAS_CPU_CONTROLLER},
    {"cpu_throttled_periods", offsetof(struct record, cpu_throttled_periods),
     RECORD_HAS_CPU_CONTROLLER},
    {"cpu_throttled_ns", offsetof(struct record, cpu_throttled_ns), RECORD_HAS_CPU_CONTROLLER},
    {"cpu_bursts", offsetof(struct record, cpu_bursts), RECORD_HAS_CPU_CONTROLLER},
    {"cpu_burst_ns", offsetof(struct record, cpu_burst_ns), RECORD_HAS_CPU_CONTROLLER},
    {"cpu_quota_ns", offsetof(struct record, cpu_quota_ns), RECORD_HAS_CPU_CONTROLLER},
    {"cpu_period_ns", offsetof(struct record, cpu_period_ns), RECORD_HAS_CPU_CONTROLLER},
    {"cpu_burst_quota_ns", offsetof(struct record, cpu_burst_quota_ns), RECORD_HAS_CPU_CONTROLLER},
    {"cpu_shares", offsetof(struct record, cpu_shares), RECORD_HAS_CPU_CONTROLLER},
    {"memory_pages", offsetof(struct record, memory_pages), RECORD_HAS_MEMORY},
    {"memory_peak_pages", offsetof(struct record, memory_peak_pages), RECORD_HAS_MEMORY},
    {"memory_max_pages", offsetof(struct record, memory_max_pages), RECORD_HAS_MEMORY},
    {"memory_high_pages", offsetof(struct record, memory_high_pages), RECORD_HAS_MEMORY},
    {"memory_low_pages", offsetof(struct record, memory_low_pages), RECORD_HAS_MEMORY},
    {"memory_min_pages", offsetof(struct record, memory_min_pages), RECORD_HAS_MEMORY},
    {"memory_events_low", offsetof(struct record, memory_events[RECORD_MEMORY_LOW]),
     RECORD_HAS_MEMORY},
    {"memory_events_high", offsetof(struct record, memory_events[RECORD_MEMORY_HIGH]),
     RECORD_HAS_MEMORY},
    {"memory_events_max", offsetof(struct record, memory_events[RECORD_MEMORY_MAX]),
     RECORD_HAS_MEMORY},
    {"memory_events_oom", offsetof(struct record, memory_events[RECORD_MEMORY_OOM]),
     RECORD_HAS_MEMORY},
    {"memory_events_oom_kill", offsetof(struct record, memory_events[RECORD_MEMORY_OOM_KILL]),
     RECORD_HAS_MEMORY},
    {"memory_events_oom_group_kill",
     offsetof(struct record, memory_events[RECORD_MEMORY_OOM_GROUP_KILL]), RECORD_HAS_MEMORY},
    {"memory_events_tree_low", offsetof(struct record, memory_events_tree[RECORD_MEMORY_LOW]),
     RECORD_HAS_MEMORY},
    {"memory_events_tree_high", offsetof(struct record, memory_events_tree[RECORD_MEMORY_HIGH]),
     RECORD_HAS_MEMORY},
    {"memory_events_tree_max", offsetof(struct record, memory_events_tree[RECORD_MEMORY_MAX]),
     RECORD_HAS_MEMORY},
    {"memory_events_tree_oom", offsetof(struct record, memory_events_tree[RECORD_MEMORY_OOM]),
     RECORD_HAS_MEMORY},
    {"memory_events_tree_oom_kill",
     offsetof(struct record, memory_events_tree[RECORD_MEMORY_OOM_KILL]), RECORD_HAS_MEMORY},
    {"memory_events_tree_oom_group_kill",
     offsetof(struct record, memory_events_tree[RECORD_MEMORY_OOM_GROUP_KILL]), RECORD_HAS_MEMORY},
    {"swap_pages", offsetof(struct record, swap_pages), RECORD_HAS_MEMORY},
    {"swap_max_pages", offsetof(struct record, swap_max_pages), RECORD_HAS_MEMORY},
    {"swap_events_high", offsetof(struct record, swap_events[RECORD_SWAP_HIGH]), RECORD_HAS_MEMORY},
    {"swap_events_max", offsetof(struct record, swap_events[RECORD_SWAP_MAX]), RECORD_HAS_MEMORY},
    {"swap_events_fail", offsetof(struct record, swap_events[RECORD_SWAP_FAIL]), RECORD_HAS_MEMORY},
    {"pressure_cpu_some_ns", offsetof(struct record, pressure_ns[RECORD_PRESSURE_CPU_SOME]),
     RECORD_HAS_PRESSURE},
    {"pressure_cpu_full_ns", offsetof(struct record, pressure_ns[RECORD_PRESSURE_CPU_FULL]),
     RECORD_HAS_PRESSURE},
    {"pressure_memory_some_ns", offsetof(struct record, pressure_ns[RECORD_PRESSURE_MEMORY_SOME]),
     RECORD_HAS_PRESSURE},
    {"pressure_memory_full_ns", offsetof(struct record, pressure_ns[RECORD_PRESSURE_MEMORY_FULL]),
     RECORD_HAS_PRESSURE},
    {"pressure_io_some_ns", offsetof(struct record, pressure_ns[RECORD_PRESSURE_IO_SOME]),
     RECORD_HAS_PRESSURE},
    {"pressure_io_full_ns", offsetof(struct record, pressure_ns[RECORD_PRESSURE_IO_FULL]),
     RECORD_HAS_PRESSURE},
    HUGETLB_FIELDS(0),
    HUGETLB_FIELDS(1),
    HUGETLB_FIELDS(2),
    HUGETLB_FIELDS(3),
    {"pids_current", offsetof(struct record, pids_current), RECORD_HAS_PIDS},
    {"pids_max", offsetof(struct record, pids_max), RECORD_HAS_PIDS},
    {"pids_events_max", offsetof(struct record, pids_events_max), RECORD_HAS_PIDS},
    {"wait_ns", offsetof(struct record, wait_ns), RECORD_HAS_WAIT},
    {"kernel_wait_usec", offsetof(struct record, kernel_wait_usec), RECORD_HAS_KERNEL_WAIT},
};

static int dump(const char *dir)
{
	struct bpf_records b;
	const struct record *rec;
	const char *name;
	size_t pos = 0;
	int r = bpf_records_read(dir, &b);

	if (r < 0)
		return fail(r, "cannot read the records in %s", dir);
	while ((rec = bpf_records_next(&b, &pos, &name))) {
		printf("id=%" PRIu64 " parent=%" PRIu64 " level=%" PRIu32 " name=%.*s", rec->id,
		       rec->parent_id, rec->level, (int)rec->name_len, name);
		for (size_t i = 0; i < ELEMENTSOF(fields); i++) {
			uint64_t v;

			if (!(rec->has & fields[i].has))
				continue;
			memcpy(&v, (const char *)rec + fields[i].offset, sizeof(v));
			printf(" %s=%" PRIu64, fields[i].name, v);
		}
		putchar('\n');
	}
	bpf_records_done(&b);
	return 0;
}

static int usage(FILE *f, int status)
{
	fputs("usage: cgacct-bpf load [--dir DIR] [--group GROUP] [--cgroup-root PATH] [--wait]\n"
	      "       cgacct-bpf unload [--dir DIR]\n"
	      "       cgacct-bpf dump [--dir DIR]\n",
	      f);
	return status;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
	    {"dir", required_argument, NULL, 'd'},
	    {"group", required_argument, NULL, 'g'},
	    {"cgroup-root", required_argument, NULL, 'c'},
	    {"wait", no_argument, NULL, 'w'},
	    {"help", no_argument, NULL, 'h'},
	    {0},
	};
	const char *dir = DIR_DEFAULT, *group = NULL, *root = CGROUP_ROOT_DEFAULT, *command;
	bool wait = false;
	int c;

	while ((c = getopt_long(argc, argv, "d:g:c:wh", options, NULL)) != -1) {
		switch (c) {
		case 'd':
			dir = optarg;
			break;
		case 'g':
			group = optarg;
			break;
		case 'c':
			root = optarg;
			break;
		case 'w':
			wait = true;
			break;
		case 'h':
			return usage(stdout, 0);
		default:
			return usage(stderr, 2);
		}
	}
	if (optind + 1 != argc)
		return usage(stderr, 2);
	command = argv[optind];
	if (strcmp(command, "load") == 0)
		return load(dir, group, root, wait);
	if (strcmp(command, "unload") == 0)
		return unpin(dir);
	if (strcmp(command, "dump") == 0)
		return dump(dir);
	return usage(stderr, 2);
}
