/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Block device names for the device label: io.stat and blkio files say
 * "8:0", people say "sda". Looked up once per device per collection.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

struct devnames {
	int dirfd;		      /* <root>/sys/dev/block, or -1 if absent */
	struct block_device *entries; /* the devices looked up, handed to the snapshot at the end */
	size_t n;
};

int devnames_init(struct devnames *d, const char *root_prefix);
void devnames_lookup(struct devnames *d, uint32_t major, uint32_t minor, char ret[LABEL_MAX]);
void devnames_done(struct devnames *d);

int parse_uevent_devname(const char *buf, size_t len, char ret[LABEL_MAX]);
