/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Container names from a runtime's API (collector/runtime/dockerapi.c,
 * collector/runtime/containers.c), against a Docker API server of the test's own on a
 * unix socket: what a list response yields and what it refuses, the
 * request on the wire, the timeout, and the cache that names a snapshot's
 * containers without ever waiting for the runtime. The real runtime,
 * podman, is tests/system's.
 */
#include <errno.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/clock.h"
#include "collector/identity.h"
#include "collector/runtime/containers.h"
#include "collector/runtime/dockerapi.h"
#include "test.h"

#define ID_WEB "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define ID_DB  "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"

#define OK_HEAD "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n"

static const char web_only[] =
    OK_HEAD "[{\"Id\":\"" ID_WEB "\",\"Names\":[\"/web\"],\"Image\":\"localhost/web:1\","
	    "\"State\":\"running\"}]\n";
static const char web_and_db[] =
    OK_HEAD "[{\"Id\":\"" ID_WEB "\",\"Names\":[\"/web\"],\"Image\":\"localhost/web:1\","
	    "\"Created\":1796528484},"
	    "{\"Id\":\"" ID_DB "\",\"Names\":[\"db\"],\"Image\":\"postgres\",\"Created\":-5}]";

/* The test's server: answers each connection with `response` once the gate is open. */
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

static void server_start(const char *response)
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

static void server_set(bool open, const char *response)
{
	pthread_mutex_lock(&srv.lock);
	srv.open = open;
	if (response)
		srv.response = response;
	pthread_cond_broadcast(&srv.changed);
	pthread_mutex_unlock(&srv.lock);
}

static unsigned server_answered(void)
{
	pthread_mutex_lock(&srv.lock);
	unsigned n = srv.answered;
	pthread_mutex_unlock(&srv.lock);
	return n;
}

static void server_stop(void)
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

static int parse(const char *response, struct runtime_container **v, size_t *n)
{
	return dockerapi_parse_response(response, strlen(response), v, n);
}

/*
 * Names lose Docker's '/', podman's plain ones stay; Created is kept when
 * it is a positive number of seconds; entries without a
 * 64-digit lowercase hex Id are skipped, not fatal; what is not a 200 with
 * one whole JSON array is an error, never a shorter list.
 */
TEST(list_responses_parse_or_fail_whole)
{
	static const char *const bad[] = {
	    "HTTP/1.0 500 Internal Server Error\r\n\r\n[]",
	    "HTTP/1.0 200 OK\r\n\r\n{\"message\":\"page not found\"}",
	    "HTTP/1.0 200 OK\r\n\r\n[{\"Id\":\"" ID_WEB "\",\"Names\":[\"/w",
	    "HTTP/1.0 200 OK\r\n\r\n[] []",
	    "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n",
	    "SSH-2.0-OpenSSH_9.2\r\n",
	    "",
	};
	static const char mixed[] =
	    OK_HEAD "[{\"Id\":\"" ID_WEB "\",\"Names\":[],\"Image\":7},"
		    "{\"Id\":\"0123\",\"Names\":[\"/short\"]},"
		    "{\"Id\":\"" ID_WEB "0\",\"Names\":[\"/long\"]},"
		    "{\"Id\":\"0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef\"},"
		    "{\"Names\":[\"/noid\"]}, 17, null]";
	struct runtime_container *v;
	size_t n;

	ASSERT_EQ(parse(web_and_db, &v, &n), 0);
	ASSERT_EQ(n, 2);
	ASSERT_STREQ(v[0].id, ID_WEB);
	ASSERT_STREQ(v[0].name, "web");
	ASSERT_STREQ(v[0].image, "localhost/web:1");
	ASSERT_EQ_U64(v[0].created, 1796528484);
	ASSERT_STREQ(v[1].id, ID_DB);
	ASSERT_STREQ(v[1].name, "db");
	ASSERT_STREQ(v[1].image, "postgres");
	ASSERT_EQ_U64(v[1].created, 0); /* not a time */
	runtime_containers_free(v, n);

	ASSERT_EQ(parse(web_only, &v, &n), 0); /* a trailing newline is no trailing garbage */
	ASSERT_EQ(n, 1);
	runtime_containers_free(v, n);

	ASSERT_EQ(parse(mixed, &v, &n), 0);
	ASSERT_EQ(n, 1);
	ASSERT_STREQ(v[0].name, "");
	ASSERT_STREQ(v[0].image, "");
	runtime_containers_free(v, n);

	ASSERT_EQ(parse(OK_HEAD "[{\"Id\":\"" ID_WEB "\",\"Names\":[\"//web\"]}]", &v, &n), 0);
	ASSERT_EQ(n, 1);
	ASSERT_STREQ(v[0].name, "web"); /* no name label reads as a path */
	runtime_containers_free(v, n);

	ASSERT_EQ(parse(OK_HEAD "[]", &v, &n), 0);
	ASSERT_EQ(n, 0);
	runtime_containers_free(v, n);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (parse(bad[i], &v, &n) != -EBADMSG) {
			fprintf(stderr, "accepted: %s\n", bad[i]);
			abort();
		}
}

/*
 * Over the socket: one read-only GET of every container; a server that
 * does not answer is given up on at the timeout; a missing socket, or a
 * path that is no socket, is an error of its own.
 */
TEST(list_over_the_socket_with_a_timeout)
{
	struct runtime_container *v;
	size_t n;

	server_start(web_only);
	ASSERT_EQ(dockerapi_list(srv.path, 5 * USEC_PER_SEC, &v, &n), 0);
	ASSERT_EQ(n, 1);
	ASSERT_STREQ(v[0].name, "web");
	runtime_containers_free(v, n);
	ASSERT_STREQ(srv.request, "GET /containers/json?all=1 HTTP/1.0");

	server_set(false, NULL);
	ASSERT_EQ(dockerapi_list(srv.path, 200 * USEC_PER_MSEC, &v, &n), -ETIMEDOUT);
	server_set(true, NULL);
	server_stop();

	ASSERT_EQ(dockerapi_list("/nonexistent/docker.sock", USEC_PER_SEC, &v, &n), -ENOENT);
	ASSERT_EQ(dockerapi_list("/proc/self/status", USEC_PER_SEC, &v, &n), -ECONNREFUSED);
}

/*
 * A snapshot of these cgroups, one sample each, as the collector has it
 * when it asks for names: identities attached, not finalized yet.
 */
static void snapshot_of(struct snapshot *s, const char *const *paths, size_t n)
{
	struct cgroup_record r = {0};

	*s = (struct snapshot){0};
	for (size_t i = 0; i < n; i++) {
		ASSERT_EQ(record_add(&r, METRIC_PIDS_CURRENT, NULL, i), 0);
		ASSERT_EQ(snapshot_take_record(s, paths[i], &r), 0);
	}
	record_done(&r);
	for (size_t i = 0; i < s->n_records; i++)
		identity_parse(s->records[i].path, &s->records[i].identity);
}

/* Names s's containers and freezes it, as a collection does. */
static void annotate(struct containers *c, struct snapshot *s)
{
	ASSERT_EQ(containers_annotate(c, s), 0);
	ASSERT_EQ(snapshot_finalize(s), 0);
}

/* What the client reported of the socket's answers, for the program to log. */
static struct {
	int error;
	size_t n, calls;
} reported;

static void report(void *userdata, const char *socket, int error, size_t n)
{
	ASSERT_STREQ(socket, srv.path);
	ASSERT_TRUE(userdata == &reported);
	reported.error = error;
	reported.n = n;
	reported.calls++;
}

static const struct container_names *named(const struct snapshot *s, const char *path)
{
	for (size_t i = 0; i < s->n_records; i++)
		if (strcmp(s->records[i].path, path) == 0)
			return s->records[i].container;
	abort();
}

/* The record's creation-time sample, the last of its samples; 0 if it has none. */
static uint64_t created(const struct snapshot *s, const char *path)
{
	for (size_t i = 0; i < s->n_records; i++) {
		const struct cgroup_record *r = &s->records[i];

		if (strcmp(r->path, path) == 0)
			return r->samples[r->n_samples - 1].metric == METRIC_CONTAINER_CREATED
				   ? r->samples[r->n_samples - 1].value
				   : 0;
	}
	abort();
}

#define WEB "/machine.slice/libpod-" ID_WEB ".scope"
#define DB  "/system.slice/docker-" ID_DB ".scope"
#define GHOST                                                                                      \
	"/system.slice/"                                                                           \
	"docker-2222222222222222222222222222222222222222222222222222222222222222.scope"

#define CONMON "/machine.slice/libpod-conmon-" ID_WEB ".scope"

/*
 * Annotates a fresh snapshot of the root, web's and conmon's cgroups and
 * path until path is named (or for 20 s), and returns it.
 */
static struct snapshot annotate_until_named(struct containers *c, const char *path)
{
	const char *const paths[] = {"/", WEB, CONMON, path};
	struct snapshot s;

	for (int i = 0; i < 400; i++) {
		snapshot_of(&s, paths, strcmp(path, WEB) == 0 ? 3 : 4);
		annotate(c, &s);
		if (named(&s, path))
			return s;
		snapshot_free(&s);
		usleep(50000);
	}
	fprintf(stderr, "%s was never named\n", path);
	abort();
}

/*
 * The cache: a collection never waits for the runtime, even one that has
 * not answered yet; the names come once it has; a new ID it did not list
 * makes it ask again, but only once; a failing runtime leaves the names it
 * gave; conmon's cgroup and the root are nobody's container.
 */
TEST(cache_names_containers_without_waiting)
{
	static const char *const paths[] = {"/", WEB};
	struct containers *c;
	struct snapshot s;
	unsigned before;

	server_start(web_only);
	server_set(false, NULL); /* the runtime hangs */
	ASSERT_EQ(containers_new((char *const[]){srv.path, NULL}, 60 * USEC_PER_SEC, report,
				 &reported, &c),
		  0);
	ASSERT_TRUE(containers_same(c, (char *const[]){srv.path, NULL}, 60 * USEC_PER_SEC));
	ASSERT_TRUE(!containers_same(c, (char *const[]){srv.path, NULL}, USEC_PER_SEC));
	ASSERT_TRUE(!containers_same(c, (char *const[]){NULL}, 60 * USEC_PER_SEC));
	snapshot_of(&s, paths, 2);
	annotate(c, &s); /* returns while the runtime still hangs */
	ASSERT_TRUE(named(&s, WEB) == NULL);
	ASSERT_EQ(s.n_containers, 0);
	ASSERT_EQ(s.n_runtimes, 1);
	ASSERT_STREQ(s.runtimes[0].socket, srv.path);
	ASSERT_TRUE(!s.runtimes[0].up); /* not answered yet */
	ASSERT_EQ(s.runtimes[0].containers, 0);
	snapshot_free(&s);

	server_set(true, NULL);
	s = annotate_until_named(c, WEB);
	ASSERT_STREQ(named(&s, WEB)->name, "web");
	ASSERT_STREQ(named(&s, WEB)->image, "localhost/web:1");
	ASSERT_TRUE(named(&s, "/") == NULL);
	ASSERT_TRUE(named(&s, CONMON) == NULL);
	ASSERT_EQ(s.n_containers, 1);
	ASSERT_TRUE(s.runtimes[0].up);
	ASSERT_EQ(s.runtimes[0].containers, 1);
	snapshot_free(&s);

	/* db appears: its new ID has the thread ask again, within seconds, not a minute */
	server_set(true, web_and_db);
	s = annotate_until_named(c, DB);
	ASSERT_STREQ(named(&s, DB)->name, "db");
	ASSERT_STREQ(named(&s, DB)->image, "postgres");
	ASSERT_STREQ(named(&s, WEB)->name, "web");
	ASSERT_EQ_U64(created(&s, WEB), 1796528484);
	ASSERT_EQ_U64(created(&s, DB), 0);
	ASSERT_EQ(s.runtimes[0].containers, 2);
	snapshot_free(&s);

	/* an ID no runtime lists has them asked once, not every second */
	{
		static const char *const ghost[] = {"/", GHOST};
		unsigned asked;

		before = server_answered();
		for (int i = 0; i < 400 && server_answered() == before; i++) {
			snapshot_of(&s, ghost, 2);
			annotate(c, &s);
			snapshot_free(&s);
			usleep(50000);
		}
		ASSERT_TRUE(server_answered() > before);
		asked = server_answered();
		for (int i = 0; i < 30; i++) { /* 3 s: three times the least gap between asks */
			snapshot_of(&s, ghost, 2);
			annotate(c, &s);
			ASSERT_TRUE(named(&s, GHOST) == NULL);
			snapshot_free(&s);
			usleep(100000);
		}
		ASSERT_EQ(server_answered(), asked);
	}

	/* the runtime fails: a new unknown ID makes the thread ask, and the names stay */
	server_set(true, "HTTP/1.0 500 Internal Server Error\r\n\r\n");
	before = server_answered();
	{
		static const char *const unknown[] = {
		    "/", WEB, "/system.slice/docker-" ID_WEB "0.scope",
		    "/system.slice/"
		    "docker-1111111111111111111111111111111111111111111111111111111111111111."
		    "scope"};

		for (int i = 0; i < 400 && server_answered() == before; i++) {
			snapshot_of(&s, unknown, 4);
			annotate(c, &s);
			snapshot_free(&s);
			usleep(50000);
		}
		ASSERT_TRUE(server_answered() > before);
		for (int i = 0; i < 400; i++) { /* until the thread has taken the answer in */
			snapshot_of(&s, unknown, 4);
			annotate(c, &s);
			if (!s.runtimes[0].up || i == 399)
				break;
			snapshot_free(&s);
			usleep(50000);
		}
		ASSERT_TRUE(!s.runtimes[0].up);
		ASSERT_EQ(s.runtimes[0].containers, 2); /* the list it gave last */
		ASSERT_STREQ(named(&s, WEB)->name, "web");
		snapshot_free(&s);
	}
	/* reported once as it failed, for the program to log; never while it answered */
	ASSERT_EQ(reported.calls, 1);
	ASSERT_EQ(reported.error, -EBADMSG);

	/* it answers again: reported once more */
	server_set(true, web_and_db);
	for (int i = 0; i < 400 && reported.calls < 2; i++) {
		snapshot_of(&s,
			    (const char *const[]){
				"/",
				"/system.slice/docker-"
				"3333333333333333333333333333333333333333333333333333333333333333"
				".scope"},
			    2);
		annotate(c, &s);
		snapshot_free(&s);
		usleep(50000);
	}
	ASSERT_EQ(reported.calls, 2);
	ASSERT_EQ(reported.error, 0);
	ASSERT_EQ(reported.n, 2);
	containers_free(c);
	server_stop();
}
