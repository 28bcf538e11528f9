/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The walk: depth first, siblings in ascending identity, with an explicit
 * cursor so it can stop after a budget and resume later.
 *
 * Identity is the cgroup ID, the directory's inode number (readdir()'s
 * d_ino, fstat()'s st_ino): within a hierarchy it increases in creation
 * order and is never reused. Our kernel patch 0003 documents that in
 * Documentation/admin-guide/cgroup-v2.rst ("Cgroup IDs") as what kernfs
 * already does, so it holds on stock kernels too, and a listing hands
 * out every child's identity without a further system call. v1 hierarchies
 * of our kernel series also have a cgroup.serial file with the same
 * properties (roots read 0); where a hierarchy's root has one, it is the
 * identity there. Where ino_t is 32 bits wide the inode number is only the
 * lower half of the ID and may repeat after 2^31 cgroups.
 *
 * The cursor is the stack of (name, identity, dirfd) from the root to the
 * last visited cgroup. Because new cgroups get the largest identity among
 * their siblings, "smallest sibling identity greater than the cursor's" is
 * a stable resume point even if the cursor's cgroup was removed meanwhile;
 * that is exactly what the kernel's css_next_child() does with serial_nr.
 * Hence: a cgroup living through the whole walk is visited exactly once, a
 * removed one is never visited after its removal, and one created during
 * the walk is visited iff it sorts after the cursor. The guarantee is for
 * changes between steps; inside a step each directory listing is a snapshot.
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "collector/idcache.h"
#include "collector/parse.h"
#include "collector/walk.h"

struct child {
	char *name;
	uint64_t id;
	ino_t ino; /* from the listing: tells the cgroup listed from a newer one of the same name */
};

struct level {
	int fd;
	uint64_t id;
	char *name;	    /* NULL for the root */
	size_t path_len;    /* length of the walk path up to this level */
	struct child *kids; /* sorted by id; valid while listed */
	size_t n_kids;
	nlink_t nlink; /* from the fstat that checked the entry; 0 until known */
	bool listed;
	bool borrowed; /* fd belongs to walk_dirs */
};

struct walk {
	const struct walk_dirs *dirs; /* or NULL */
	struct id_table *ids;	      /* the caller's, or own_ids */
	struct id_table *own_ids;     /* or NULL */
	bool ids_checked;	      /* a remembered identity matched its file */
	struct level *stack;	      /* stack[depth] is the cursor */
	size_t depth;
	size_t cap;
	struct strbuf path;
	struct readbuf buf; /* for cgroup.serial */
	char dents[32768];  /* for getdents64() */
	bool serial;
	bool started;
	bool done;
	bool resume_after; /* the cursor was removed: continue after resume_id */
	uint64_t resume_id;
	uint64_t vanished;
	unsigned errors;
};

static void level_forget_kids(struct level *l)
{
	for (size_t i = 0; i < l->n_kids; i++)
		free(l->kids[i].name);
	free(l->kids);
	l->kids = NULL;
	l->n_kids = 0;
	l->listed = false;
}

static void level_done(struct level *l)
{
	level_forget_kids(l);
	free(l->name);
	if (!l->borrowed)
		closep(&l->fd);
}

static int read_serial_at(struct walk *w, int dirfd, const char *name, uint64_t *ret)
{
	size_t len;
	int r;

	r = read_file_into(dirfd, name, &w->buf, &len);
	if (r < 0)
		return r;
	return parse_single_value(w->buf.data, len, ret);
}

/* Identity of an open cgroup directory. */
static int fd_identity(struct walk *w, int fd, uint64_t *ret)
{
	struct stat st;

	if (w->serial)
		return read_serial_at(w, fd, "cgroup.serial", ret);
	if (fstat(fd, &st) < 0)
		return -errno;
	*ret = st.st_ino;
	return 0;
}

/* Identity of the child directory `name` of `dirfd`, without opening it. */
static int child_identity(struct walk *w, int dirfd, const char *name, uint64_t *ret)
{
	static const char serial[] = "/cgroup.serial";
	char file[NAME_MAX + sizeof(serial)];
	size_t len = strlen(name);
	struct stat st;

	if (!w->serial) {
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return -errno;
		*ret = st.st_ino;
		return 0;
	}
	/* once per cgroup and scrape: no printf, no allocation */
	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(mempcpy(file, name, len), serial, sizeof(serial));
	return read_serial_at(w, dirfd, file, ret);
}

static int child_cmp(const void *a, const void *b)
{
	const struct child *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static bool is_subdir(int dirfd, unsigned char type, const char *name)
{
	struct stat st;

	if (type != DT_UNKNOWN)
		return type == DT_DIR;
	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

/*
 * cgroupfs (kernfs), like tmpfs and ext4, counts a directory's
 * subdirectories in its link count: 2 is a leaf, and most cgroups are
 * leaves. Listing one means reading all its files' entries for nothing. The
 * count comes from the fstat that checked the cgroup on entry, or is read
 * here for the root and for levels a new step revalidated.
 */
static bool is_leaf(struct level *l)
{
	struct stat st;

	if (l->nlink == 0 && fstat(l->fd, &st) == 0)
		l->nlink = st.st_nlink;
	return l->nlink == 2;
}

/*
 * The largest record getdents64() can return: its header and a name of
 * NAME_MAX bytes with the NUL, rounded up to 8.
 */
#define DIRENT_MAX ((offsetof(struct dirent64, d_name) + NAME_MAX + 1 + 7) & ~(size_t)7)

/*
 * The identity of the child de of dirfd: read by this walk already if an
 * earlier step listed de's directory (a step lists the directories on the
 * cursor's path anew), else by an earlier walk if it listed the same inode
 * number (idcache.c), else read now. The first one an earlier walk read is
 * read again all the same, to tell a new hierarchy instance.
 */
static int recall_identity(struct walk *w, int dirfd, const struct dirent64 *de, uint64_t *ret)
{
	uint64_t known;
	bool earlier;
	bool remembered = id_table_get(w->ids, de->d_ino, &known, &earlier);
	int r;

	if (remembered && !earlier) {
		*ret = known;
		return 0;
	}
	if (remembered && w->ids_checked) {
		*ret = known;
	} else {
		r = child_identity(w, dirfd, de->d_name, ret);
		if (r < 0)
			return r;
		if (remembered) {
			w->ids_checked = true;
			if (known != *ret)
				id_table_forget(w->ids);
		}
	}
	/* a table that cannot grow costs a read later, nothing more */
	(void)id_table_put(w->ids, de->d_ino, *ret);
	return 0;
}

static int add_kid(struct walk *w, struct level *l, const struct dirent64 *de, size_t *cap)
{
	struct child c = {.id = de->d_ino, .ino = de->d_ino};
	int r;

	if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
	    !is_subdir(l->fd, de->d_type, de->d_name))
		return 0;
	/* the listing hands out the inode number for free; only serials cost a read */
	r = w->serial ? recall_identity(w, l->fd, de, &c.id) : 0;
	if (errno_is_vanished(r)) {
		w->vanished++;
		return 0;
	}
	if (r < 0) {
		w->errors++;
		return 0;
	}
	r = array_grow((void **)&l->kids, cap, l->n_kids + 1, sizeof(*l->kids), 16);
	if (r < 0)
		return r;
	c.name = strdup(de->d_name);
	if (!c.name)
		return -ENOMEM;
	l->kids[l->n_kids++] = c;
	return 0;
}

/*
 * Lists through the level's own descriptor, with getdents64() into the
 * walk's buffer: no stream to allocate, and no duplicate descriptor to
 * open and close for each of the thousands of directories that have
 * children. A listing that leaves room for another entry in the buffer
 * is the whole directory, as kernfs (and tmpfs) fill the buffer until they
 * run out of entries, so the call that would return 0 is spared, as with
 * file reads (fileio.c).
 */
static int list_kids(struct walk *w, struct level *l)
{
	size_t cap = 0;
	ssize_t n;
	int r;

	level_forget_kids(l);
	if (is_leaf(l)) {
		l->listed = true;
		return 0;
	}
	/*
	 * From the start: the directory may have been listed before (in an
	 * earlier step, or by an earlier walk when kept), and the visitor may
	 * have read it through a duplicate, which shares the offset.
	 */
	if (lseek(l->fd, 0, SEEK_SET) < 0)
		n = -1;
	else
		do {
			n = getdents64(l->fd, w->dents, sizeof(w->dents));
			for (ssize_t at = 0; at < n;) {
				const struct dirent64 *de =
				    (const struct dirent64 *)(w->dents + at);

				r = add_kid(w, l, de, &cap);
				if (r < 0)
					return r;
				at += de->d_reclen;
			}
		} while (n > 0 && (size_t)n + DIRENT_MAX > sizeof(w->dents));
	/* a removed directory simply has no children left to visit */
	if (n < 0 && !errno_is_vanished(-errno))
		return -errno;

	/* qsort() wants a valid array even for no elements; a leaf has none */
	if (l->n_kids > 1)
		qsort(l->kids, l->n_kids, sizeof(*l->kids), child_cmp);
	l->listed = true;
	return 0;
}

/* Takes ownership of fd unless borrowed; nlink is its link count. */
static int push_level(struct walk *w, int fd, bool borrowed, nlink_t nlink, const struct child *c)
{
	struct level *l;
	char *name = NULL;

	if (w->depth + 1 == w->cap) {
		size_t cap = w->cap * 2;
		struct level *bigger = realloc(w->stack, cap * sizeof(*bigger));

		if (!bigger)
			goto nomem;
		w->stack = bigger;
		w->cap = cap;
	}
	name = strdup(c->name);
	if (!name)
		goto nomem;
	l = &w->stack[++w->depth];
	*l = (struct level){
	    .fd = fd, .id = c->id, .name = name, .nlink = nlink, .borrowed = borrowed};
	strbuf_putc(&w->path, '/');
	strbuf_puts(&w->path, c->name);
	l->path_len = w->path.len;
	return strbuf_status(&w->path);
nomem:
	if (!borrowed)
		close(fd);
	return -ENOMEM;
}

static void pop_level(struct walk *w)
{
	level_done(&w->stack[w->depth]);
	w->depth--;
	strbuf_truncate(&w->path, w->stack[w->depth].path_len);
}

/*
 * Opens child c of level l, or borrows its kept directory: the listing's
 * inode number tells the cgroup listed from a newer one that took its name
 * since, as kernfs never reuses inode numbers (see the top), so the serial
 * read at listing time is not repeated here. Gives the descriptor, whether
 * it is borrowed, and the directory's link count.
 */
static int open_child(struct walk *w, const struct level *l, const struct child *c, int *ret_fd,
		      bool *ret_borrowed, nlink_t *ret_nlink)
{
	const struct walk_dirs *dirs = w->dirs;
	int fd = dirs ? dirs->get(dirs->userdata, c->id, c->ino) : -1;
	bool borrowed = fd >= 0;
	struct stat st;
	int r;

	if (!borrowed) {
		fd = openat(l->fd, c->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
	}
	/* also for a kept one: its link count moves as children come and go */
	r = fstat(fd, &st) < 0 ? -errno : st.st_ino != c->ino ? -ENOENT : 0;
	if (r < 0) {
		if (!borrowed)
			close(fd);
		return r;
	}
	if (!borrowed && dirs)
		borrowed = dirs->keep(dirs->userdata, c->id, c->ino, fd);
	*ret_fd = fd;
	*ret_borrowed = borrowed;
	*ret_nlink = st.st_nlink;
	return 0;
}

/*
 * Enters the first child of stack[lvl] with identity > after. A child that
 * disappeared since the listing, or whose name now belongs to a newer
 * cgroup, counts as vanished and is skipped.
 */
static int enter_child_after(struct walk *w, size_t lvl, uint64_t after)
{
	struct level *l = &w->stack[lvl];
	int r;

	if (!l->listed) {
		r = list_kids(w, l);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < l->n_kids; i++) {
		const struct child *c = &l->kids[i];
		bool borrowed = false;
		nlink_t nlink = 0;
		int fd = -1;

		if (c->id <= after)
			continue;
		r = open_child(w, l, c, &fd, &borrowed, &nlink);
		if (errno_is_vanished(r) || r == -ENOTDIR) {
			w->vanished++;
			continue;
		}
		if (r < 0) {
			w->errors++;
			continue;
		}
		r = push_level(w, fd, borrowed, nlink, c);
		return r < 0 ? r : 1;
	}
	return 0;
}

/* Moves the cursor to the next cgroup in pre-order; 0 at the end. */
static int advance(struct walk *w)
{
	size_t parent = w->depth;
	uint64_t after = 0; /* identities are > 0 below the root: 0 means "first child" */

	if (w->resume_after) {
		after = w->resume_id;
		w->resume_after = false;
	}
	for (;;) {
		int r = enter_child_after(w, parent, after);

		if (r != 0)
			return r;
		if (parent == 0) {
			w->done = true;
			return 0;
		}
		after = w->stack[parent].id;
		pop_level(w);
		parent--;
	}
}

/*
 * Between steps the tree may have changed. Listings are re-read lazily
 * (identities carry over by inode number, see recall_identity(), so a step
 * costs one getdents64() per level, not one serial read per sibling), and
 * if a cgroup on the cursor's path is gone (or its name now holds a newer
 * cgroup), everything below it is gone too, since only empty cgroups can be
 * removed: cut the stack there and resume after the removed identity.
 */
static void revalidate(struct walk *w)
{
	for (size_t i = 0; i <= w->depth; i++) {
		level_forget_kids(&w->stack[i]);
		w->stack[i].nlink = 0; /* children may have come since it was read */
	}

	for (size_t i = 1; i <= w->depth; i++) {
		uint64_t id;
		int r = child_identity(w, w->stack[i - 1].fd, w->stack[i].name, &id);

		if (r == 0 && id == w->stack[i].id)
			continue;
		w->resume_after = true;
		w->resume_id = w->stack[i].id;
		while (w->depth >= i)
			pop_level(w);
		return;
	}
}

static int visit_cursor(struct walk *w, walk_visit_fn visit, void *userdata)
{
	const struct level *l = &w->stack[w->depth];
	struct walk_entry e = {
	    .fd = l->fd,
	    .path = w->depth == 0 ? "/" : w->path.buf,
	    .id = l->id,
	    .serial = w->serial,
	    .depth = (unsigned)w->depth,
	};

	return visit(userdata, &e);
}

int walk_step(struct walk *w, size_t budget, walk_visit_fn visit, void *userdata)
{
	int r;

	assert(w && visit);
	if (w->done)
		return 0;
	if (!w->started) {
		w->started = true;
		r = visit_cursor(w, visit, userdata);
		if (r < 0)
			return r;
		if (budget > 0)
			budget--;
	} else
		revalidate(w);

	while (budget > 0) {
		r = advance(w);
		if (r <= 0)
			return r;
		r = visit_cursor(w, visit, userdata);
		if (r < 0)
			return r;
		budget--;
	}
	return 1;
}

int walk_new(int root_fd, const struct walk_dirs *dirs, struct id_table *ids, struct walk **ret)
{
	_cleanup_close_ int fd = root_fd;
	struct walk *w;
	int r;

	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->dirs = dirs;
	w->ids = ids ? ids : (w->own_ids = id_table_new());
	w->cap = 16;
	w->stack = calloc(w->cap, sizeof(*w->stack));
	if (!w->stack || !w->ids) {
		id_table_free(w->own_ids);
		free(w->stack);
		free(w);
		return -ENOMEM;
	}
	w->stack[0].fd = -1;

	w->serial = faccessat(fd, "cgroup.serial", F_OK, 0) == 0;
	r = fd_identity(w, fd, &w->stack[0].id);
	if (r < 0) {
		walk_free(w);
		return r;
	}
	w->stack[0].fd = TAKE_FD(fd);
	*ret = w;
	return 0;
}

uint64_t walk_vanished(const struct walk *w)
{
	return w->vanished;
}

unsigned walk_errors(const struct walk *w)
{
	return w->errors;
}

void walk_free(struct walk *w)
{
	if (!w)
		return;
	for (size_t i = 0; i <= w->depth; i++)
		level_done(&w->stack[i]);
	free(w->stack);
	strbuf_done(&w->path);
	readbuf_done(&w->buf);
	id_table_free(w->own_ids);
	free(w);
}
