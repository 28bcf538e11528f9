/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Files and directories kept open between collections
 * (collector/heldfiles.c): a held file is read again from the descriptor
 * it kept, within a budget of files and one of directories, and what a
 * collection did not visit is closed at its end. How the collection uses
 * them on a fake tree is test-collect.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "collector/heldfiles.h"
#include "test.h"

#define HIERARCHY "/sys/fs/cgroup"

struct cgroup_dir {
	char *path;
	int fd;
};

static struct cgroup_dir cgroup_make(void)
{
	struct cgroup_dir d = {.path = tmpdir_make()};

	file_write(d.path, "cpu.stat", "usage_usec 1\n");
	file_write(d.path, "memory.current", "4096\n");
	d.fd = open(d.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_TRUE(d.fd >= 0);
	return d;
}

static void cgroup_remove(struct cgroup_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	tmpdir_remove(d->path);
	free(d->path);
}

static uint64_t inode_of(int fd)
{
	struct stat st;

	ASSERT_EQ(fstat(fd, &st), 0);
	return st.st_ino;
}

static bool fd_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

/* Reads name of c through h and checks what it read. */
static void assert_read(struct held_files *h, struct held_cgroup *c, int dirfd, const char *name,
			const char *want)
{
	struct readbuf rb = {0};
	size_t len;

	ASSERT_EQ(held_read(h, c, dirfd, name, &rb, &len), 0);
	ASSERT_EQ(len, strlen(want));
	ASSERT_STREQ(rb.data, want);
	readbuf_done(&rb);
}

/* One collection that visits cgroup 42 of d and reads both its files. */
static struct held_cgroup *collect_42(struct held_files *h, const struct cgroup_dir *d,
				      const char *cpu_stat, const char *memory_current)
{
	struct held_cgroup *c;

	held_files_begin(h);
	c = held_files_cgroup(h, HIERARCHY, 42);
	ASSERT_TRUE(c != NULL);
	assert_read(h, c, d->fd, "cpu.stat", cpu_stat);
	assert_read(h, c, d->fd, "memory.current", memory_current);
	held_files_end(h);
	return c;
}

/*
 * The next collection reads from the kept descriptors, from offset 0: a
 * file rewritten in place shows its new content, and one that is gone from
 * the directory is still read through its descriptor, nothing opened anew.
 * A file that does not exist reads -ENOENT and holds nothing.
 */
TEST(held_read_reuses_the_descriptor_it_kept)
{
	struct cgroup_dir d = cgroup_make();
	struct readbuf rb = {0};
	struct held_files *h;
	struct held_cgroup *c;
	size_t fds, len;

	ASSERT_EQ(held_files_new(10, 10, &h), 0);
	fds = open_fds();
	c = collect_42(h, &d, "usage_usec 1\n", "4096\n");
	ASSERT_EQ(held_files_count(h), 2);
	ASSERT_EQ(open_fds(), fds + 2);
	ASSERT_EQ(held_read(h, c, d.fd, "memory.max", &rb, &len), -ENOENT);
	ASSERT_EQ(held_files_count(h), 2);
	ASSERT_EQ(open_fds(), fds + 2);

	file_write(d.path, "cpu.stat", "usage_usec 22\n");
	ASSERT_EQ(unlinkat(d.fd, "memory.current", 0), 0);
	ASSERT_TRUE(collect_42(h, &d, "usage_usec 22\n", "4096\n") == c);
	ASSERT_EQ(held_files_count(h), 2);
	ASSERT_EQ(open_fds(), fds + 2);
	held_files_free(h);
	ASSERT_EQ(open_fds(), fds);
	readbuf_done(&rb);
	cgroup_remove(&d);
}

/*
 * Beyond the budget files are read and closed again, so they read what the
 * directory has now; the held ones stay held.
 */
TEST(files_beyond_the_budget_are_read_but_not_held)
{
	struct cgroup_dir d = cgroup_make();
	struct held_files *h;
	size_t fds = open_fds();

	ASSERT_EQ(held_files_new(1, 0, &h), 0);
	collect_42(h, &d, "usage_usec 1\n", "4096\n");
	ASSERT_EQ(held_files_count(h), 1);
	ASSERT_EQ(open_fds(), fds + 1);

	ASSERT_EQ(unlinkat(d.fd, "cpu.stat", 0), 0);
	file_write(d.path, "memory.current", "8192\n");
	collect_42(h, &d, "usage_usec 1\n", "8192\n");
	ASSERT_EQ(held_files_count(h), 1);
	held_files_free(h);
	ASSERT_EQ(open_fds(), fds);
	cgroup_remove(&d);
}

/*
 * Directories have a budget of their own; a kept one is handed out only
 * for the inode number it was kept with (a newer cgroup under the same
 * name has another), and a cgroup is its hierarchy's and identity's.
 */
TEST(directories_are_kept_within_their_budget_by_inode)
{
	struct cgroup_dir a = cgroup_make(), b = cgroup_make();
	uint64_t ino_a = inode_of(a.fd), ino_b = inode_of(b.fd);
	struct held_files *h;

	ASSERT_EQ(held_files_new(10, 1, &h), 0);
	held_files_begin(h);
	ASSERT_EQ(held_dir(h, HIERARCHY, 1, ino_a), -1);
	ASSERT_TRUE(held_dir_keep(h, HIERARCHY, 1, ino_a, a.fd));
	ASSERT_EQ(held_files_dirs(h), 1);
	ASSERT_TRUE(!held_dir_keep(h, HIERARCHY, 2, ino_b, b.fd));
	ASSERT_EQ(held_files_dirs(h), 1);
	ASSERT_EQ(held_dir(h, HIERARCHY, 1, ino_a), a.fd);
	ASSERT_EQ(held_dir(h, HIERARCHY, 1, ino_b), -1);
	ASSERT_EQ(held_dir(h, HIERARCHY "/memory", 1, ino_a), -1);
	ASSERT_EQ(held_dir(h, HIERARCHY, 2, ino_b), -1);
	held_files_end(h);
	ASSERT_EQ(held_dir(h, HIERARCHY, 1, ino_a), a.fd);
	held_files_free(h);
	ASSERT_TRUE(!fd_open(a.fd)); /* it was the held files' to close */
	a.fd = -1;

	/* with room for two, a cgroup already holding a directory keeps its first */
	ASSERT_EQ(held_files_new(10, 2, &h), 0);
	ASSERT_TRUE(held_dir_keep(h, HIERARCHY, 2, ino_b, b.fd));
	ASSERT_TRUE(!held_dir_keep(h, HIERARCHY, 2, ino_b, STDIN_FILENO));
	ASSERT_EQ(held_files_dirs(h), 1);
	held_files_free(h);
	b.fd = -1;
	cgroup_remove(&a);
	cgroup_remove(&b);
}

/*
 * A collection's end closes the files and directory of every cgroup it did
 * not visit and forgets it: seen again, it starts with nothing held. A
 * dropped cgroup's files close at once, its directory at the end.
 */
TEST(end_of_a_collection_closes_what_it_did_not_visit)
{
	struct cgroup_dir a = cgroup_make(), b = cgroup_make();
	int a_fd = a.fd, b_fd = b.fd;
	struct held_files *h;
	struct held_cgroup *ca, *cb;
	size_t fds = open_fds();

	ASSERT_EQ(held_files_new(10, 10, &h), 0);
	held_files_begin(h);
	ca = held_files_cgroup(h, HIERARCHY, 1);
	assert_read(h, ca, a.fd, "cpu.stat", "usage_usec 1\n");
	ASSERT_TRUE(held_dir_keep(h, HIERARCHY, 1, inode_of(a.fd), a.fd));
	a.fd = -1;
	cb = held_files_cgroup(h, HIERARCHY, 2);
	assert_read(h, cb, b.fd, "cpu.stat", "usage_usec 1\n");
	assert_read(h, cb, b.fd, "memory.current", "4096\n");
	ASSERT_TRUE(held_dir_keep(h, HIERARCHY, 2, inode_of(b.fd), b.fd));
	b.fd = -1;
	held_files_end(h);
	ASSERT_EQ(held_files_count(h), 3);
	ASSERT_EQ(held_files_dirs(h), 2);
	ASSERT_EQ(open_fds(), fds + 3);

	/* only cgroup 1 is visited */
	held_files_begin(h);
	ca = held_files_cgroup(h, HIERARCHY, 1);
	held_files_end(h);
	ASSERT_EQ(held_files_count(h), 1);
	ASSERT_EQ(held_files_dirs(h), 1);
	ASSERT_TRUE(fd_open(a_fd));
	ASSERT_TRUE(!fd_open(b_fd));
	ASSERT_EQ(open_fds(), fds); /* b's two files and directory closed */

	/* cgroup 1 is found removed: its file closes now, its directory at the end */
	held_files_begin(h);
	ca = held_files_cgroup(h, HIERARCHY, 1);
	held_cgroup_drop(h, ca);
	ASSERT_EQ(held_files_count(h), 0);
	ASSERT_EQ(held_files_dirs(h), 1);
	ASSERT_TRUE(fd_open(a_fd));
	held_files_end(h);
	ASSERT_EQ(held_files_dirs(h), 0);
	ASSERT_TRUE(!fd_open(a_fd));
	ASSERT_EQ(open_fds(), fds - 2);

	/* cgroup 2 again: nothing held from before */
	held_files_begin(h);
	cb = held_files_cgroup(h, HIERARCHY, 2);
	ASSERT_EQ(held_dir(h, HIERARCHY, 2, 0), -1);
	ASSERT_EQ(held_files_count(h), 0);
	held_files_end(h);
	held_files_free(h);
	cgroup_remove(&a);
	cgroup_remove(&b);
}

/* Many cgroups over several hierarchies: each finds its own files after the table grows. */
TEST(cgroups_are_found_by_hierarchy_and_identity_as_the_table_grows)
{
	struct cgroup_dir d = cgroup_make();
	static const char *const hierarchies[] = {HIERARCHY, HIERARCHY "/cpu", HIERARCHY "/memory"};
	struct held_files *h;
	size_t fds = open_fds();

	ASSERT_EQ(held_files_new(3000, 0, &h), 0);
	held_files_begin(h);
	for (uint64_t id = 0; id < 1000; id++)
		for (size_t k = 0; k < 3; k++) {
			struct held_cgroup *c = held_files_cgroup(h, hierarchies[k], id);

			ASSERT_TRUE(c != NULL);
			if (id % 100 == k)
				assert_read(h, c, d.fd, "cpu.stat", "usage_usec 1\n");
		}
	held_files_end(h);
	ASSERT_EQ(held_files_count(h), 30);
	held_files_begin(h);
	for (uint64_t id = 0; id < 1000; id++)
		for (size_t k = 0; k < 3; k++)
			if (id % 100 == k || id == 999)
				ASSERT_TRUE(held_files_cgroup(h, hierarchies[k], id) != NULL);
	held_files_end(h);
	ASSERT_EQ(held_files_count(h), 30);
	/* every held file is still its cgroup's: rewritten, each reads the new content */
	file_write(d.path, "cpu.stat", "usage_usec 3\n");
	held_files_begin(h);
	for (uint64_t id = 0; id < 1000; id += 100)
		for (size_t k = 0; k < 3; k++) {
			struct held_cgroup *c = held_files_cgroup(h, hierarchies[k], id + k);

			assert_read(h, c, d.fd, "cpu.stat", "usage_usec 3\n");
		}
	held_files_end(h);
	ASSERT_EQ(held_files_count(h), 30);
	ASSERT_EQ(open_fds(), fds + 30);
	held_files_free(h);
	cgroup_remove(&d);
}
