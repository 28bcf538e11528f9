/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Opening and closing a cgroup file costs the kernel more than producing
 * its content, which is all that a pread() at offset 0 on a file kept open
 * costs (seq_file starts over at offset 0; the figures are with the
 * benchmarks, tests/bench/README.md). So collections keep files open, up
 * to a budget: each open cgroup file pins kernel memory, charged to
 * cgacctd's cgroup: its seq_file buffer of one page, the struct file and
 * kernfs' per-open state.
 *
 * An open file does not keep its cgroup alive: kernfs deactivates the files
 * of a removed cgroup (reads fail with ENODEV) and cgroup_rmdir goes on
 * whatever is open. The kernfs nodes and the buffer stay until the file is
 * closed, which happens as soon as a collection finds the cgroup gone:
 * not visited by a walk, or gone when a held file reads ENODEV. Disabling
 * a controller in the parent's cgroup.subtree_control removes just that
 * controller's files, which then read ENODEV too: such a file is closed
 * and opened again, which tells the two apart (ENOENT for a missing file,
 * and the collection checks the cgroup itself). Files are held per cgroup
 * identity, which is never reused, so a new cgroup under an old name
 * starts with none.
 *
 * Only files of the unified (v2) hierarchy are held. An open file keeps its
 * filesystem busy, and umount fails with EBUSY: nobody unmounts cgroup2
 * under systemd, but v1 hierarchies are mounted and unmounted at run
 * time, and cgacctd must not be what stops that. Permissions are checked
 * at open, as anywhere in Unix: a held file stays readable to cgacctd if
 * its mode changes later.
 *
 * A cgroup's files are read in the same order every time, so the next
 * held file is found by comparing one name.
 *
 * Directories are kept too, for the walk: opening a cgroup's directory and
 * closing it again costs the kernel less than a file's open and close, but
 * not much less, while an open directory pins only its struct file, a small
 * part of what a held file pins (kernfs keeps no per-open state for
 * directories, and the dentry and inode are cached anyway while the cgroup
 * is read every collection). They have their own budget, from what the
 * open-file limit leaves. A directory is told from a newer cgroup's under
 * the same name by its inode number, which kernfs never reuses; one whose
 * cgroup was removed lists nothing and reads ENOENT, which the collection
 * takes for the removal it is, and it is closed at the collection's end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/util.h"
#include "collector/heldfiles.h"

#define HIERARCHIES_MAX 32

struct held_file {
	const char *name; /* interned in held_files.names */
	int fd;
};

struct held_cgroup {
	uint64_t id;
	uint64_t dir_ino;   /* of dirfd: the listing's inode number must match it */
	int dirfd;	    /* the cgroup's directory, or -1 */
	unsigned hierarchy; /* index in held_files.hierarchies */
	unsigned seen;	    /* generation of the last collection that visited it */
	unsigned next;	    /* where the next read should find its file */
	unsigned n;
	size_t cap;
	struct held_file *files;
};

struct held_files {
	size_t budget, count;
	size_t dir_budget, dirs;
	unsigned generation;
	struct held_cgroup *cgroups;
	size_t n_cgroups, cap_cgroups;
	uint32_t *slots; /* open addressing: index + 1 into cgroups, 0 empty */
	size_t n_slots;	 /* a power of two, over twice n_cgroups */
	char *hierarchies[HIERARCHIES_MAX];
	const char *last_hierarchy; /* the caller's string for last_index, this collection */
	unsigned last_index, n_hierarchies;
	char **names;
	size_t n_names;
};

int held_files_new(size_t budget, size_t dir_budget, struct held_files **ret)
{
	struct held_files *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	h->budget = budget;
	h->dir_budget = dir_budget;
	*ret = h;
	return 0;
}

static void files_close(struct held_files *h, struct held_cgroup *c)
{
	for (unsigned i = 0; i < c->n; i++)
		close(c->files[i].fd);
	h->count -= c->n;
	free(c->files);
	c->files = NULL;
	c->n = c->cap = 0;
}

static void cgroup_close(struct held_files *h, struct held_cgroup *c)
{
	files_close(h, c);
	if (c->dirfd >= 0) {
		close(c->dirfd);
		c->dirfd = -1;
		h->dirs--;
	}
}

void held_files_free(struct held_files *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->n_cgroups; i++)
		cgroup_close(h, &h->cgroups[i]);
	for (unsigned i = 0; i < h->n_hierarchies; i++)
		free(h->hierarchies[i]);
	for (size_t i = 0; i < h->n_names; i++)
		free(h->names[i]);
	free(h->names);
	free(h->cgroups);
	free(h->slots);
	free(h);
}

size_t held_files_count(const struct held_files *h)
{
	return h->count;
}

size_t held_files_dirs(const struct held_files *h)
{
	return h->dirs;
}

static size_t slot_of(const struct held_files *h, uint64_t id, unsigned hierarchy)
{
	uint64_t x = (id ^ ((uint64_t)hierarchy << 56)) * UINT64_C(0x9e3779b97f4a7c15);

	return (size_t)(x >> 32) & (h->n_slots - 1);
}

/* Fills the table afresh; the same size again needs no allocation. */
static int rehash(struct held_files *h, size_t n_slots)
{
	if (n_slots != h->n_slots) {
		uint32_t *slots = calloc(n_slots, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		free(h->slots);
		h->slots = slots;
		h->n_slots = n_slots;
	} else
		memset(h->slots, 0, n_slots * sizeof(*h->slots));
	for (size_t i = 0; i < h->n_cgroups; i++) {
		size_t s = slot_of(h, h->cgroups[i].id, h->cgroups[i].hierarchy);

		while (h->slots[s])
			s = (s + 1) & (n_slots - 1);
		h->slots[s] = (uint32_t)(i + 1);
	}
	return 0;
}

void held_files_begin(struct held_files *h)
{
	h->generation++;
	h->last_hierarchy = NULL;
}

/* Closes the files of every cgroup this collection did not visit, and forgets it. */
void held_files_end(struct held_files *h)
{
	size_t kept = 0;

	for (size_t i = 0; i < h->n_cgroups; i++) {
		struct held_cgroup *c = &h->cgroups[i];

		if (c->seen != h->generation) {
			cgroup_close(h, c);
			continue;
		}
		h->cgroups[kept++] = *c;
	}
	if (kept == h->n_cgroups)
		return;
	h->n_cgroups = kept;
	(void)rehash(h, h->n_slots);
}

static int hierarchy_index(struct held_files *h, const char *path, unsigned *ret)
{
	unsigned i;

	if (path == h->last_hierarchy) {
		*ret = h->last_index;
		return 0;
	}
	for (i = 0; i < h->n_hierarchies; i++)
		if (strcmp(h->hierarchies[i], path) == 0)
			break;
	if (i == h->n_hierarchies) {
		if (i == HIERARCHIES_MAX)
			return -E2BIG;
		h->hierarchies[i] = strdup(path);
		if (!h->hierarchies[i])
			return -ENOMEM;
		h->n_hierarchies++;
	}
	h->last_hierarchy = path;
	h->last_index = *ret = i;
	return 0;
}

static struct held_cgroup *cgroup_add(struct held_files *h, size_t slot, uint64_t id,
				      unsigned hierarchy)
{
	if (array_grow((void **)&h->cgroups, &h->cap_cgroups, h->n_cgroups + 1, sizeof(*h->cgroups),
		       256) < 0)
		return NULL;
	h->cgroups[h->n_cgroups] =
	    (struct held_cgroup){.id = id, .hierarchy = hierarchy, .dirfd = -1};
	h->slots[slot] = (uint32_t)++h->n_cgroups;
	return &h->cgroups[h->n_cgroups - 1];
}

struct held_cgroup *held_files_cgroup(struct held_files *h, const char *hierarchy, uint64_t id)
{
	struct held_cgroup *c = NULL;
	unsigned hi;
	size_t s;

	if (hierarchy_index(h, hierarchy, &hi) < 0)
		return NULL;
	if (2 * (h->n_cgroups + 1) > h->n_slots &&
	    rehash(h, h->n_slots ? 2 * h->n_slots : 1024) < 0)
		return NULL;
	for (s = slot_of(h, id, hi); h->slots[s]; s = (s + 1) & (h->n_slots - 1)) {
		struct held_cgroup *x = &h->cgroups[h->slots[s] - 1];

		if (x->id == id && x->hierarchy == hi) {
			c = x;
			break;
		}
	}
	if (!c)
		c = cgroup_add(h, s, id, hi);
	if (c) {
		c->seen = h->generation;
		c->next = 0;
	}
	return c;
}

void held_cgroup_drop(struct held_files *h, struct held_cgroup *c)
{
	files_close(h, c);
	/* the walk may still stand in its directory: held_files_end() closes that */
	c->seen = h->generation - 1;
}

int held_dir(struct held_files *h, const char *hierarchy, uint64_t id, uint64_t ino)
{
	struct held_cgroup *c = held_files_cgroup(h, hierarchy, id);

	return c && c->dirfd >= 0 && c->dir_ino == ino ? c->dirfd : -1;
}

bool held_dir_keep(struct held_files *h, const char *hierarchy, uint64_t id, uint64_t ino, int fd)
{
	struct held_cgroup *c;

	if (h->dirs >= h->dir_budget)
		return false;
	c = held_files_cgroup(h, hierarchy, id);
	if (!c || c->dirfd >= 0)
		return false;
	c->dirfd = fd;
	c->dir_ino = ino;
	h->dirs++;
	return true;
}

static struct held_file *find(struct held_cgroup *c, const char *name)
{
	if (c->next < c->n && strcmp(c->files[c->next].name, name) == 0)
		return &c->files[c->next++];
	for (unsigned i = 0; i < c->n; i++)
		if (strcmp(c->files[i].name, name) == 0) {
			c->next = i + 1;
			return &c->files[i];
		}
	return NULL;
}

/* The one copy of a file name every cgroup's entry points to. */
static const char *intern(struct held_files *h, const char *name)
{
	char **bigger;

	for (size_t i = 0; i < h->n_names; i++)
		if (strcmp(h->names[i], name) == 0)
			return h->names[i];
	bigger = realloc(h->names, (h->n_names + 1) * sizeof(*bigger));
	if (!bigger)
		return NULL;
	h->names = bigger;
	h->names[h->n_names] = strdup(name);
	return h->names[h->n_names] ? h->names[h->n_names++] : NULL;
}

/* Takes fd into c's files; false if it could not (the caller closes it). */
static bool hold(struct held_files *h, struct held_cgroup *c, const char *name, int fd)
{
	const char *interned;

	if (h->count >= h->budget)
		return false;
	interned = intern(h, name);
	if (!interned)
		return false;
	if (array_grow((void **)&c->files, &c->cap, c->n + 1, sizeof(*c->files), 8) < 0)
		return false;
	c->files[c->n++] = (struct held_file){.name = interned, .fd = fd};
	c->next = c->n;
	h->count++;
	return true;
}

/* Closes one held file whose kernfs node is gone, keeping the others in read order. */
static void release(struct held_files *h, struct held_cgroup *c, struct held_file *f)
{
	size_t i = (size_t)(f - c->files);

	close(f->fd);
	memmove(f, f + 1, (c->n - i - 1) * sizeof(*f));
	c->n--;
	c->next = (unsigned)i;
	h->count--;
}

int held_read(struct held_files *h, struct held_cgroup *c, int dirfd, const char *name,
	      struct readbuf *rb, size_t *ret_len)
{
	struct held_file *f = find(c, name);
	int fd, r;

	if (f) {
		r = reread_fd_into(f->fd, rb, ret_len);
		if (r != -ENODEV)
			return r;
		release(h, c, f);
	}
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	r = read_fd_into(fd, rb, ret_len);
	if (r < 0 || !hold(h, c, name, fd))
		close(fd);
	return r;
}
