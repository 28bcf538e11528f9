/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What collections keep between them, sized by the configuration: files
 * and directories held open within the open-file limit, the identities
 * read, the runtimes' names. A reload that changes keep_open_files starts
 * the held files over; one that changes the runtime sockets swaps the
 * client (service.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "daemon/collection.h"
#include "daemon/selection.h"
#include "exporter/http.h"

/* Descriptors kept free of held files: HTTP connections, the walk, sysfs. */
#define FD_RESERVE (HTTP_CONNECTION_LIMIT_DEFAULT + 256)

void collection_init(struct collection *c, const struct cli *cli, struct log_target *log)
{
	*c = (struct collection){.cli = cli, .log = log};
	/* without it every collection reads every identity: slower, not wrong */
	if (id_cache_new(&c->ids) < 0)
		log_warning_errno(log, -ENOMEM, "cannot remember identities");
	if (load_tracker_new(&c->loads) < 0)
		log_warning_errno(log, -ENOMEM, "cannot keep load averages");
	if (cputime_tracker_new(&c->cputimes) < 0)
		log_warning_errno(log, -ENOMEM, "cannot keep CPU time splits");
}

void collection_done(struct collection *c)
{
	containers_free(c->containers);
	free(c->bad_roots);
	/* the files its collections kept open */
	held_files_free(c->held);
	id_cache_free(c->ids);
	load_tracker_free(c->loads);
	cputime_tracker_free(c->cputimes);
	*c = (struct collection){0};
}

/*
 * How many files and directories to hold for keep_open_files: files up to
 * keep_open_files and directories with the rest of what the open-file limit
 * leaves after the reserve, the soft limit raised to the hard one first
 * (the unit's LimitNOFILE= sets both; its seccomp filter forbids raising).
 */
static void held_budget(struct collection *c, uint64_t wanted, size_t *ret_files, size_t *ret_dirs)
{
	struct rlimit rl;
	rlim_t room;

	*ret_files = *ret_dirs = 0;
	if (wanted == 0 || getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	if (rl.rlim_cur < rl.rlim_max) {
		struct rlimit raised = {.rlim_cur = rl.rlim_max, .rlim_max = rl.rlim_max};

		if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
			rl = raised;
	}
	room = rl.rlim_cur > FD_RESERVE ? rl.rlim_cur - FD_RESERVE : 0;
	/* --once collects once: holding fewer files costs it nothing */
	if (room < wanted && !c->cli->once)
		log_notice(c->log,
			   "keep_open_files: holding %llu files, not %llu: the open-file limit is "
			   "%llu (raise LimitNOFILE=)",
			   (unsigned long long)room, (unsigned long long)wanted,
			   (unsigned long long)rl.rlim_cur);
	*ret_files = (size_t)(room < wanted ? room : wanted);
	*ret_dirs = (size_t)(room - *ret_files);
}

/* Follows keep_open_files; a change starts over, closing all. */
static void held_configure(struct collection *c, uint64_t wanted)
{
	size_t files, dirs;

	if (c->held_wanted == wanted)
		return;
	held_files_free(c->held);
	c->held = NULL;
	c->held_wanted = wanted;
	held_budget(c, wanted, &files, &dirs);
	if (files > 0 && held_files_new(files, dirs, &c->held) < 0)
		log_warning_errno(c->log, -ENOMEM, "cannot keep files open");
}

static void report_runtime(void *userdata, const char *socket, int error, size_t n)
{
	struct log_target *log = userdata;

	if (error < 0)
		log_warning_errno(log, error,
				  "container runtime at %s (its containers keep the names it gave "
				  "last)",
				  socket);
	else
		log_notice(log, "container runtime at %s answers again: %zu containers", socket, n);
}

void collection_containers_new(const struct collection *c, const struct config *cfg,
			       struct containers **ret)
{
	int r;

	*ret = NULL;
	if (!cfg->container_runtime_sockets[0])
		return;
	r = containers_new(cfg->container_runtime_sockets, cfg->container_runtime_timeout_usec,
			   report_runtime, c->log, ret);
	if (r < 0)
		log_warning_errno(c->log, r, "cannot ask container runtimes");
}

const char *collection_root_problem(int error)
{
	switch (error) {
	case -ENOENT:
		return "does not exist";
	case -ENOTDIR:
		return "is not a directory";
	case -EMEDIUMTYPE:
		return "is in no mounted cgroup hierarchy";
	default:
		return strerror(-error);
	}
}

/*
 * Logs the configured roots that are no cgroup when that changes, not at
 * every scrape: their collections go on, and cgacct_collector_success
 * {collector="walk"} 0 says it at every scrape.
 */
static void report_roots(struct collection *c, const struct snapshot *s)
{
	struct strbuf now = {0};

	for (size_t i = 0; i < s->n_bad_roots; i++)
		strbuf_printf(&now, "%s%s %s", i ? "; " : "", s->bad_roots[i].path,
			      collection_root_problem(s->bad_roots[i].error));
	if (now.len == 0 && !c->bad_roots)
		return;
	if (now.len > 0 && (!c->bad_roots || strcmp(now.buf, c->bad_roots) != 0))
		log_error(c->log, "cgroup_roots: %s: nothing is read there", now.buf);
	else if (now.len == 0)
		log_notice(c->log, "cgroup_roots: every root is a cgroup again");
	free(c->bad_roots);
	c->bad_roots = now.len > 0 ? TAKE_PTR(now.buf) : NULL;
	strbuf_done(&now);
}

/*
 * Logs where the values come from when that changes, as report_roots()
 * does; but not that a host without the loader (no pins, or no v2) reads
 * files from the start: that is most hosts, and the landing page and
 * cgacct_collection_source say it.
 */
static void report_bpf(struct collection *c, const struct config *cfg, const struct snapshot *s)
{
	int now = s->bpf_records ? 1 : s->bpf_error;
	bool usual = c->bpf_said == 0 && (now == -ENOENT || now == -EMEDIUMTYPE);

	if (now == c->bpf_said)
		return;
	if (now == 1)
		log_notice(c->log, "bpf_pins: reading the BPF records in %s, files for the rest",
			   cfg->bpf_pins);
	else if (now < 0 && !usual)
		log_notice(c->log, "bpf_pins: reading files alone: %s %s", cfg->bpf_pins,
			   snapshot_bpf_problem(now));
	c->bpf_said = now;
}

int collection_run(struct collection *c, const struct config *cfg, collect_visit_fn on_visit,
		   void *userdata, struct snapshot *ret)
{
	struct collect_options o;
	int r;

	selection_collect_options(cfg, c->cli, &o);
	o.on_visit = on_visit;
	o.userdata = userdata;
	o.mounted_controllers = &c->mounted_controllers;
	held_configure(c, cfg->keep_open_files);
	o.held = c->held;
	o.ids = c->ids;
	o.loads = c->loads;
	o.cputimes = c->cputimes;
	o.containers = c->containers;
	r = collect_snapshot(&o, ret);
	if (r < 0)
		return log_warning_errno(c->log, r, "collection failed");
	report_roots(c, ret);
	report_bpf(c, cfg, ret);
	return 0;
}
