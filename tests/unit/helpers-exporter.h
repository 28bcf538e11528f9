/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The exporter's test helpers (helpers-exporter.c): small snapshots as the
 * collector hands them over, with the self-metrics they render to, for the
 * renderers' tests; and a body read whole and inflated, as a client reads it.
 */
#pragma once

#include "exporter/exposition.h"
#include "exporter/render.h"
#include "model/snapshot.h"
#include "test.h"

/* Adds a sample to r, or the test fails. */
void add(struct cgroup_record *r, enum metric m, const char *label, uint64_t v);

/*
 * Two empty records, "/" and second_path, and the self-metric inputs every
 * exposition test shares: collectors cpu (no errors) and walk (2), the
 * hierarchy cpu,cpuacct of 2 cgroups, 1 vanished, a collection of 1.5 ms.
 * No identities: the tests of what a path says attach them.
 */
struct snapshot snapshot_shell(const char *second_path);
/* Two cgroups, one awkwardly named: identity and CPU samples, per-CPU ones too. */
struct snapshot sample_snapshot(void);
/*
 * The root (9 tasks) and a podman container's cgroup (2 tasks) that its
 * runtime named web, with an image that needs escaping and a creation
 * time; the runtimes' sockets (docker's up with 3 containers, a second
 * one's down after 1) as they answered.
 */
struct snapshot container_snapshot(void);
#define CONTAINER_PATH                                                                             \
	"/machine.slice/"                                                                          \
	"libpod-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope"
/* Frees what snapshot_shell() and its samples allocated. */
void sample_snapshot_done(struct snapshot *s);

/* Text 0.0.4 in the native naming, version 9.9. */
extern const struct render_options text_native;

/* The self-metrics of snapshot_shell()'s inputs, up to the max_series gauge's samples. */
#define SELF_METRICS_TAIL                                                                          \
	"# HELP cgacct_collection_duration_seconds Time the collection behind this "               \
	"exposition took.\n"                                                                       \
	"# TYPE cgacct_collection_duration_seconds gauge\n"                                        \
	"cgacct_collection_duration_seconds 0.0015\n"                                              \
	"# HELP cgacct_collector_success 1 if the collector read every cgroup without "            \
	"error.\n"                                                                                 \
	"# TYPE cgacct_collector_success gauge\n"                                                  \
	"cgacct_collector_success{collector=\"cpu\"} 1\n"                                          \
	"cgacct_collector_success{collector=\"walk\"} 0\n"                                         \
	"# HELP cgacct_collector_errors Cgroups or hierarchies the collector failed to "           \
	"read.\n"                                                                                  \
	"# TYPE cgacct_collector_errors gauge\n"                                                   \
	"cgacct_collector_errors{collector=\"cpu\"} 0\n"                                           \
	"cgacct_collector_errors{collector=\"walk\"} 2\n"                                          \
	"# HELP cgacct_cgroups Cgroups collected per hierarchy.\n"                                 \
	"# TYPE cgacct_cgroups gauge\n"                                                            \
	"cgacct_cgroups{hierarchy=\"cpu,cpuacct\"} 2\n"                                            \
	"# HELP cgacct_collection_source Where the values came from: bpf (the BPF records of "     \
	"bpf_pins, files for what they lack) or files; value always 1.\n"                          \
	"# TYPE cgacct_collection_source gauge\n"                                                  \
	"cgacct_collection_source{source=\"files\"} 1\n"                                           \
	"# HELP cgacct_cgroups_vanished Cgroups removed while the collection was reading "         \
	"them.\n"                                                                                  \
	"# TYPE cgacct_cgroups_vanished gauge\n"                                                   \
	"cgacct_cgroups_vanished 1\n"                                                              \
	"# HELP cgacct_held_files Cgroup files kept open for the next collection "                 \
	"(keep_open_files).\n"                                                                     \
	"# TYPE cgacct_held_files gauge\n"                                                         \
	"cgacct_held_files 0\n"                                                                    \
	"# HELP cgacct_held_directories Cgroup directories kept open for the next collection "     \
	"(keep_open_files).\n"                                                                     \
	"# TYPE cgacct_held_directories gauge\n"                                                   \
	"cgacct_held_directories 0\n"                                                              \
	"# HELP cgacct_series_limit_hit 1 if max_series cut cgroups from this exposition.\n"       \
	"# TYPE cgacct_series_limit_hit gauge\n"

/* The self-metrics of version 9.9 when max_series cut nothing. */
#define SELF_METRICS_UNCUT                                                                         \
	"# HELP cgacct_build_info cgacct version, value always 1.\n"                               \
	"# TYPE cgacct_build_info gauge\n"                                                         \
	"cgacct_build_info{version=\"9.9\"} 1\n" SELF_METRICS_TAIL "cgacct_series_limit_hit 0\n"   \
	"# HELP cgacct_series_dropped Series left out of this exposition by max_series.\n"         \
	"# TYPE cgacct_series_dropped gauge\n"                                                     \
	"cgacct_series_dropped 0\n"

/*
 * Inflates in, which must be one whole gzip member and nothing more, into
 * out; its length. Fails the test otherwise.
 */
size_t gunzip_whole(const char *in, size_t len, char *out, size_t cap);
/*
 * A body of e read whole through a buffer far smaller than it, as MHD
 * reads it; malloc'd, its length in *ret_len.
 */
char *read_body(struct exposition *e, enum render_format f, unsigned gzip_level, size_t *ret_len);
