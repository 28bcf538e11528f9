/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Running a controller's reader as a collection does, over one directory,
 * and a Docker API server to ask for container names.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/fileio.h"
#include "helpers-collector.h"

void check_samples(const struct cgroup_record *r, const struct expect *e, size_t n)
{
	for (size_t i = 0; i < n && i < r->n_samples; i++) {
		const struct sample *s = &r->samples[i];

		if (s->metric != e[i].metric ||
		    strcmp(sample_label(r, s), e[i].label ? e[i].label : "") ||
		    s->value != e[i].value) {
			fprintf(stderr,
				"sample %zu: got metric %u label '%s' value %" PRIu64
				", expected metric %u label '%s' value %" PRIu64 "\n",
				i, s->metric, sample_label(r, s), s->value, e[i].metric,
				e[i].label ? e[i].label : "", e[i].value);
			abort();
		}
	}
	ASSERT_EQ(r->n_samples, n);
}

void fake_sysfs_init(struct fake_sysfs *f)
{
	char *p;

	f->root = tmpdir_make();
	ASSERT_TRUE(asprintf(&p, "%s/sys/dev/block/254:0", f->root) >= 0);
	mkdir_p(p);
	file_write(p, "uevent", "MAJOR=254\nMINOR=0\nDEVNAME=vda\nDEVTYPE=disk\n");
	free(p);
	ASSERT_TRUE(asprintf(&p, "%s/sys/dev/block/254:16", f->root) >= 0);
	ASSERT_TRUE(symlink("../../devices/pci0000:00/virtio3/block/vdb", p) == 0);
	free(p);
	ASSERT_EQ(devnames_init(&f->devnames, f->root), 0);
}

void fake_sysfs_done(struct fake_sysfs *f)
{
	devnames_done(&f->devnames);
	tmpdir_remove(f->root);
	free(f->root);
}

struct cgroup_record read_dir(const char *path, const struct controller_reader *c, bool v2,
			      bool per_cpu)
{
	struct cgroup_record rec = {0};
	struct fake_sysfs sys;
	struct readbuf buf = {0};
	unsigned absent = 0;
	struct reader_ctx ctx = {.buf = &buf,
				 .absent = &absent,
				 .rec = &rec,
				 .per_cpu = per_cpu,
				 .clock_ticks = 100,
				 .devnames = &sys.devnames};

	fake_sysfs_init(&sys);
	ctx.dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_TRUE(ctx.dirfd >= 0);
	ASSERT_EQ(v2 ? c->read_v2(&ctx) : c->read_v1(&ctx), 0);
	close(ctx.dirfd);
	readbuf_done(&buf);
	fake_sysfs_done(&sys);
	return rec;
}

struct cgroup_record read_fixture(const char *dir, const struct controller_reader *c, bool v2,
				  bool per_cpu)
{
	char *path = fixture_path(dir);
	struct cgroup_record rec = read_dir(path, c, v2, per_cpu);

	free(path);
	return rec;
}

void reading_open(struct reading *r, const char *dir)
{
	*r = (struct reading){0};
	r->ctx = (struct reader_ctx){.buf = &r->buf, .absent = &r->absent, .rec = &r->rec};
	r->ctx.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_TRUE(r->ctx.dirfd >= 0);
}

void reading_close(struct reading *r)
{
	close(r->ctx.dirfd);
	readbuf_done(&r->buf);
	record_done(&r->rec);
}

static struct server {
	char dir[64], path[128];
	int fd;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	bool open, stopping;
	const char *response;
	char request[256]; /* the last request's first line */
	unsigned answered;
} srv = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER};

static void serve_one(int c)
{
	char buf[1024];
	size_t len = 0;
	ssize_t n;

	while (len < sizeof(buf) - 1 && (n = read(c, buf + len, sizeof(buf) - 1 - len)) > 0) {
		len += (size_t)n;
		buf[len] = '\0';
		if (strstr(buf, "\r\n\r\n"))
			break;
	}
	buf[len] = '\0';
	pthread_mutex_lock(&srv.lock);
	snprintf(srv.request, sizeof(srv.request), "%.*s", (int)strcspn(buf, "\r"), buf);
	while (!srv.open && !srv.stopping)
		pthread_cond_wait(&srv.changed, &srv.lock);
	if (!srv.stopping)
		(void)!send(c, srv.response, strlen(srv.response), MSG_NOSIGNAL);
	srv.answered++;
	pthread_cond_broadcast(&srv.changed);
	pthread_mutex_unlock(&srv.lock);
}

static void *serve(void *unused)
{
	(void)unused;
	for (;;) {
		int c = accept(srv.fd, NULL, NULL);

		if (c < 0)
			return NULL;
		pthread_mutex_lock(&srv.lock);
		bool stopping = srv.stopping;
		pthread_mutex_unlock(&srv.lock);
		if (stopping) {
			close(c);
			return NULL;
		}
		serve_one(c);
		close(c);
	}
}

void server_start(const char *response)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};

	strcpy(srv.dir, "/tmp/cgacct-containers-XXXXXX");
	ASSERT_TRUE(mkdtemp(srv.dir) != NULL);
	snprintf(srv.path, sizeof(srv.path), "%s/docker.sock", srv.dir);
	strcpy(sa.sun_path, srv.path);
	srv.fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ASSERT_TRUE(srv.fd >= 0);
	ASSERT_EQ(bind(srv.fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ASSERT_EQ(listen(srv.fd, 16), 0);
	srv.response = response;
	srv.open = true;
	srv.stopping = false;
	srv.answered = 0;
	ASSERT_EQ(pthread_create(&srv.thread, NULL, serve, NULL), 0);
}

void server_set(bool open, const char *response)
{
	pthread_mutex_lock(&srv.lock);
	srv.open = open;
	if (response)
		srv.response = response;
	pthread_cond_broadcast(&srv.changed);
	pthread_mutex_unlock(&srv.lock);
}

unsigned server_answered(void)
{
	pthread_mutex_lock(&srv.lock);
	unsigned n = srv.answered;
	pthread_mutex_unlock(&srv.lock);
	return n;
}

char *server_path(void)
{
	return srv.path;
}

const char *server_request(void)
{
	return srv.request;
}

void server_stop(void)
{
	pthread_mutex_lock(&srv.lock);
	srv.stopping = true;
	pthread_cond_broadcast(&srv.changed);
	pthread_mutex_unlock(&srv.lock);
	shutdown(srv.fd, SHUT_RDWR);
	pthread_join(srv.thread, NULL);
	close(srv.fd);
	unlink(srv.path);
	rmdir(srv.dir);
}
