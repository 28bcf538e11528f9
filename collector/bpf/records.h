/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading the BPF bulk reader's output: the iterators cgacct-bpf pinned in
 * a bpffs folder, read with open() and read() alone. Reading "walk" runs
 * the walk (it prints nothing); reading "records" then gives a record per
 * cgroup the walk found (collector/bpf/record.h).
 */
#pragma once

#include <stddef.h>

#include "collector/bpf/record.h"

struct bpf_records {
	char *buf; /* the stream, as read */
	size_t len;
	size_t n; /* records in it */
};

/* Runs the walk pinned in dir and reads its records; -errno, -EBADMSG for a stream it cannot read.
 */
int bpf_records_read(const char *dir, struct bpf_records *ret);

/*
 * Checks a stream and counts its records: every record whole, of this
 * layout, its name without '/' or NUL and empty for the root alone;
 * -EBADMSG otherwise.
 */
int bpf_records_parse(char *buf, size_t len, struct bpf_records *ret);

/* The record at *pos (0 to start), its name and its length; NULL after the last. */
const struct record *bpf_records_next(const struct bpf_records *b, size_t *pos, const char **name);

void bpf_records_done(struct bpf_records *b);
