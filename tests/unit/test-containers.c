/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cache of container names (collector/runtime/containers.c) that names
 * a snapshot's containers without ever waiting for the runtime, asked
 * through the Docker API of a server of the test's own on a unix socket
 * (helpers-collector.h). The real runtime, podman, is tests/system's.
 */
#include <errno.h>
#include <unistd.h>

#include "base/clock.h"
#include "collector/identity.h"
#include "collector/runtime/containers.h"
#include "helpers-collector.h"

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
	ASSERT_STREQ(socket, server_path());
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

	server_start(WEB_ONLY);
	server_set(false, NULL); /* the runtime hangs */
	ASSERT_EQ(containers_new((char *const[]){server_path(), NULL}, 60 * USEC_PER_SEC, report,
				 &reported, &c),
		  0);
	ASSERT_TRUE(containers_same(c, (char *const[]){server_path(), NULL}, 60 * USEC_PER_SEC));
	ASSERT_TRUE(!containers_same(c, (char *const[]){server_path(), NULL}, USEC_PER_SEC));
	ASSERT_TRUE(!containers_same(c, (char *const[]){NULL}, 60 * USEC_PER_SEC));
	snapshot_of(&s, paths, 2);
	annotate(c, &s); /* returns while the runtime still hangs */
	ASSERT_TRUE(named(&s, WEB) == NULL);
	ASSERT_EQ(s.n_containers, 0);
	ASSERT_EQ(s.n_runtimes, 1);
	ASSERT_STREQ(s.runtimes[0].socket, server_path());
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
	server_set(true, WEB_AND_DB);
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
	server_set(true, WEB_AND_DB);
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
