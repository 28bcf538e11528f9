/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The harness every unit test links (main() and the case list) and the
 * helpers of the ground floor: fixtures, temporary trees, open descriptors.
 * Each layer's own helpers are in helpers-<layer>.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "test.h"

char *fixture_path(const char *name)
{
	char *p;

	ASSERT_TRUE(asprintf(&p, "%s/%s", FIXTURES_DIR, name) >= 0);
	return p;
}

char *fixture_read(const char *name, size_t *ret_len)
{
	char *path = fixture_path(name), *buf;

	if (read_file_at(AT_FDCWD, path, &buf, ret_len) < 0) {
		fprintf(stderr, "cannot read fixture %s\n", path);
		abort();
	}
	free(path);
	return buf;
}

char *tmpdir_make(void)
{
	char *t;

	ASSERT_TRUE(asprintf(&t, "%s/cgacct-test-XXXXXX",
			     getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp") >= 0);
	ASSERT_TRUE(mkdtemp(t) != NULL);
	return t;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

void tmpdir_remove(const char *dir)
{
	ASSERT_TRUE(nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) == 0);
}

void file_write(const char *dir, const char *name, const char *content)
{
	char *path;
	FILE *f;

	ASSERT_TRUE(asprintf(&path, "%s/%s", dir, name) >= 0);
	f = fopen(path, "we");
	ASSERT_TRUE(f != NULL);
	ASSERT_TRUE(fputs(content, f) >= 0);
	ASSERT_TRUE(fclose(f) == 0);
	free(path);
}

void dir_make(const char *dir, const char *name)
{
	char *path;

	ASSERT_TRUE(asprintf(&path, "%s/%s", dir, name) >= 0);
	ASSERT_TRUE(mkdir(path, 0755) == 0);
	free(path);
}

/* Removes a directory and the files in it, as rmdir on cgroupfs does. */
void dir_remove(const char *dir, const char *name)
{
	char *path;

	ASSERT_TRUE(asprintf(&path, "%s/%s", dir, name) >= 0);
	tmpdir_remove(path);
	free(path);
}

/* Copies the regular files of one fixture directory into a fake cgroup. */
void tree_copy_files(const char *from, const char *to)
{
	char *src = fixture_path(from);
	DIR *d = opendir(src);

	ASSERT_TRUE(d != NULL);
	for (struct dirent *de; (de = readdir(d));) {
		char *name;
		size_t len;
		char *buf;

		if (de->d_name[0] == '.')
			continue;
		ASSERT_TRUE(asprintf(&name, "%s/%s", from, de->d_name) >= 0);
		buf = fixture_read(name, &len);
		file_write(to, de->d_name, buf);
		free(buf);
		free(name);
	}
	closedir(d);
	free(src);
}

void mkdir_p(const char *path)
{
	char *p = strdup(path);

	ASSERT_TRUE(p != NULL);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		ASSERT_TRUE(mkdir(p, 0755) == 0 || errno == EEXIST);
		*s = '/';
	}
	ASSERT_TRUE(mkdir(p, 0755) == 0 || errno == EEXIST);
	free(p);
}

/* The descriptors this process has open, counted in /proc/self/fd (with the one reading it). */
size_t open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	size_t n = 0;

	ASSERT_TRUE(d != NULL);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static struct test_case *cases;

/* Keeps the cases sorted by line, whatever order the constructors run in. */
void test_register(struct test_case *t)
{
	struct test_case **at = &cases;

	while (*at && (*at)->line < t->line)
		at = &(*at)->next;
	t->next = *at;
	*at = t;
}

int test_argc;
char **test_argv;

int main(int argc, char **argv)
{
	const char *only = getenv("TEST_ONLY");
	unsigned ran = 0;

	test_argc = argc;
	test_argv = argv;
	for (struct test_case *t = cases; t; t = t->next) {
		if (only && strcmp(only, t->name) != 0)
			continue;
		t->run();
		printf("ok %s\n", t->name);
		ran++;
	}
	if (ran == 0) {
		fprintf(stderr, "no test case ran%s%s\n", only ? " named " : "", only ? only : "");
		return 1;
	}
	return 0;
}
