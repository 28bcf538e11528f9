/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The two ways of reading a file: cgroup and sysfs files in one piece,
 * everything else to EOF. A FIFO stands in for a file whose reads come
 * back short before the end, as /proc/self/mountinfo's do at a page
 * boundary: the writer controls exactly what each read() can see.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/fileio.h"
#include "test.h"

struct writer {
	char path[256];
	bool second; /* write a second chunk after a pause, then close */
	int fd;
};

static void *write_chunks(void *arg)
{
	struct writer *w = arg;
	struct timespec pause = {.tv_nsec = 50 * 1000 * 1000};

	w->fd = open(w->path, O_WRONLY | O_CLOEXEC);
	ASSERT_TRUE(w->fd >= 0);
	ASSERT_EQ(write(w->fd, "first\n", 6), 6);
	if (!w->second)
		return NULL; /* the write end stays open: a second read() would block */
	nanosleep(&pause, NULL);
	ASSERT_EQ(write(w->fd, "second\n", 7), 7);
	close(w->fd);
	return NULL;
}

static void fifo_start(const char *dir, struct writer *w, pthread_t *t)
{
	/* a reader that stops early makes the second write fail, not kill the test */
	signal(SIGPIPE, SIG_IGN);
	snprintf(w->path, sizeof(w->path), "%s/fifo", dir);
	unlink(w->path);
	ASSERT_EQ(mkfifo(w->path, 0600), 0);
	ASSERT_EQ(pthread_create(t, NULL, write_chunks, w), 0);
}

/* Growing past the first 4 KiB buffer must not end the read early. */
TEST(large_file_whole)
{
	char *dir = tmpdir_make(), *big = malloc(10001);
	struct readbuf rb = {0};
	size_t len;
	int fd;

	for (size_t i = 0; i < 10000; i++)
		big[i] = (char)('a' + i % 26);
	big[10000] = '\0';
	file_write(dir, "memory.stat", big);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_EQ(read_file_into(fd, "memory.stat", &rb, &len), 0);
	ASSERT_EQ(len, 10000);
	ASSERT_STREQ(rb.data, big);
	/* the buffer is reused: a shorter file leaves no tail of the longer one */
	file_write(dir, "memory.max", "max\n");
	ASSERT_EQ(read_file_into(fd, "memory.max", &rb, &len), 0);
	ASSERT_STREQ(rb.data, "max\n");
	readbuf_done(&rb);
	close(fd);
	free(big);
	tmpdir_remove(dir);
	free(dir);
}

/* One short read is the whole of a cgroup file: no second read() that could block. */
TEST(one_piece_stops_at_short_read)
{
	char *dir = tmpdir_make();
	struct writer w = {.second = false};
	struct readbuf rb = {0};
	pthread_t t;
	size_t len;

	fifo_start(dir, &w, &t);
	ASSERT_EQ(read_file_into(AT_FDCWD, w.path, &rb, &len), 0);
	ASSERT_STREQ(rb.data, "first\n");
	ASSERT_EQ(pthread_join(t, NULL), 0);
	close(w.fd);
	readbuf_done(&rb);
	tmpdir_remove(dir);
	free(dir);
}

/* Any other file is read until read() says EOF, across short reads. */
TEST(to_eof_across_short_reads)
{
	char *dir = tmpdir_make(), *buf;
	struct writer w = {.second = true};
	pthread_t t;
	size_t len;

	fifo_start(dir, &w, &t);
	ASSERT_EQ(read_file_at(AT_FDCWD, w.path, &buf, &len), 0);
	ASSERT_EQ(pthread_join(t, NULL), 0);
	ASSERT_STREQ(buf, "first\nsecond\n");
	ASSERT_EQ(len, 13);
	free(buf);
	tmpdir_remove(dir);
	free(dir);
}

TEST(missing_file)
{
	struct readbuf rb = {0};
	char *buf;
	size_t len;

	ASSERT_EQ(read_file_into(AT_FDCWD, "/nonexistent/cgroup.procs", &rb, &len), -ENOENT);
	ASSERT_EQ(read_file_at(AT_FDCWD, "/nonexistent/mountinfo", &buf, &len), -ENOENT);
	readbuf_done(&rb);
}
