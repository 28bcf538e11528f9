/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MAJ:MIN to device name via sysfs: /sys/dev/block/MAJ:MIN/uevent has
 * DEVNAME=, and the link itself points at .../block/<name>. If both fail
 * (device gone, sysfs not mounted) the label stays "MAJ:MIN", which is still
 * unique, unlike an empty name that would merge devices.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/util.h"
#include "collector/devname.h"
#include "collector/parse.h"

int devnames_init(struct devnames *d, const char *root_prefix)
{
	_cleanup_free_ char *path = NULL;

	*d = (struct devnames){.dirfd = -1};
	if (asprintf(&path, "%s/sys/dev/block", root_prefix ? root_prefix : "") < 0)
		return -ENOMEM;
	d->dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->dirfd < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

/* "MAJOR=8\nMINOR=0\nDEVNAME=sda\nDEVTYPE=disk\n" */
int parse_uevent_devname(const char *buf, size_t len, char ret[LABEL_MAX])
{
	struct span rest = span_make(buf, len), line, key, value;

	while (span_next_line(&rest, &line)) {
		if (!span_split(line, '=', &key, &value) || !span_eq(key, "DEVNAME"))
			continue;
		if (value.len == 0 || value.len >= LABEL_MAX || memchr(value.ptr, '\0', value.len))
			return -EBADMSG;
		memcpy(ret, value.ptr, value.len);
		ret[value.len] = '\0';
		return 0;
	}
	return -ENOENT;
}

static int name_from_sysfs(int dirfd, const char *devnum, char ret[LABEL_MAX])
{
	_cleanup_free_ char *file = NULL, *buf = NULL;
	char link[4096];
	const char *base;
	size_t len;
	ssize_t n;

	if (asprintf(&file, "%s/uevent", devnum) < 0)
		return -ENOMEM;
	if (read_file_at(dirfd, file, &buf, &len) == 0 && parse_uevent_devname(buf, len, ret) == 0)
		return 0;

	n = readlinkat(dirfd, devnum, link, sizeof(link) - 1);
	if (n <= 0)
		return -ENOENT;
	link[n] = '\0';
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	if (!*base || strlen(base) >= LABEL_MAX)
		return -ENOENT;
	strcpy(ret, base);
	return 0;
}

void devnames_lookup(struct devnames *d, uint32_t major, uint32_t minor, char ret[LABEL_MAX])
{
	char devnum[32];
	struct block_device *bigger;

	for (size_t i = 0; i < d->n; i++)
		if (d->entries[i].major == major && d->entries[i].minor == minor) {
			strcpy(ret, d->entries[i].name);
			return;
		}

	snprintf(devnum, sizeof(devnum), "%u:%u", major, minor);
	if (d->dirfd < 0 || name_from_sysfs(d->dirfd, devnum, ret) < 0)
		strcpy(ret, devnum);

	/* the cache is an optimisation: on allocation failure just look up again next time */
	bigger = realloc(d->entries, (d->n + 1) * sizeof(*bigger));
	if (!bigger)
		return;
	d->entries = bigger;
	d->entries[d->n] = (struct block_device){.major = major, .minor = minor};
	strcpy(d->entries[d->n].name, ret);
	d->n++;
}

void devnames_done(struct devnames *d)
{
	closep(&d->dirfd);
	free(d->entries);
	*d = (struct devnames){.dirfd = -1};
}
