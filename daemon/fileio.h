/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

#include <stddef.h>

/* Upper bound for one cgroup/sysfs file; memory.stat and io.stat are far below. */
#define READ_FILE_MAX (16u << 20)

#include <dirent.h>

int read_file_at(int dirfd, const char *name, char **ret, size_t *ret_len);
int opendir_at(int dirfd, DIR **ret);
