/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The collections cgacctd runs (daemon/collection.c), for a scrape and for
 * --once alike: the configuration's selection over a fake unified tree,
 * and what collections keep from one to the next, sized by
 * keep_open_files within the open-file limit and started over when it
 * changes.
 */
#include <errno.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/collection.h"
#include "exporter/http.h"
#include "helpers-config.h"

/* What collection.c keeps free of held files. */
#define FD_RESERVE (HTTP_CONNECTION_LIMIT_DEFAULT + 256)

struct tree {
	char *root, *mountinfo;
	struct cli cli;
	struct log_target log;
};

/* A unified hierarchy with /a (the v2 fixture's files) and /a/b (none). */
static void tree_make(struct tree *t)
{
	char *cg;

	t->root = tmpdir_make();
	ASSERT_TRUE(asprintf(&t->mountinfo, "%s/mountinfo", t->root) >= 0);
	file_write(t->root, "mountinfo", "18 17 0:24 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	ASSERT_TRUE(asprintf(&cg, "%s/sys/fs/cgroup", t->root) >= 0);
	mkdir_p(cg);
	file_write(cg, "cgroup.procs", "");
	dir_make(cg, "a");
	dir_make(cg, "a/b");
	file_write(cg, "a/b/cgroup.procs", "");
	free(cg);
	ASSERT_TRUE(asprintf(&cg, "%s/sys/fs/cgroup/a", t->root) >= 0);
	tree_copy_files("v2", cg);
	file_write(cg, "cgroup.procs", "");
	free(cg);
	t->cli = (struct cli){.mountinfo = t->mountinfo, .root = t->root};
	log_init(&t->log, LOG_ERR, false);
}

static void tree_remove(struct tree *t)
{
	tmpdir_remove(t->root);
	free(t->root);
	free(t->mountinfo);
}

static struct config *load(const char *yaml)
{
	return config_load_yaml("cgacctd.yml", yaml);
}

static void count_visit(void *userdata, const char *hierarchy, const char *path, uint64_t id,
			bool kept)
{
	char ***paths = userdata;
	size_t n = 0;

	while ((*paths)[n])
		n++;
	*paths = realloc(*paths, (n + 2) * sizeof(**paths));
	ASSERT_TRUE(*paths != NULL);
	(*paths)[n] = strdup(path);
	(*paths)[n + 1] = NULL;
}

/* One collection of the configuration yaml; the snapshot is the caller's. */
static struct snapshot run(struct collection *c, const char *yaml, char ***visited)
{
	struct config *cfg = load(yaml);
	struct snapshot s;

	ASSERT_EQ(collection_run(c, cfg, visited ? count_visit : NULL, visited, &s), 0);
	config_free(cfg);
	return s;
}

/* The configuration's selection applies, and every cgroup visited is seen in walk order. */
TEST(a_collection_reads_what_the_configuration_selects)
{
	struct tree t;
	struct collection c;
	struct snapshot s;
	char **visited = calloc(1, sizeof(*visited));

	tree_make(&t);
	collection_init(&c, &t.cli, &t.log);
	ASSERT_TRUE(c.ids != NULL);
	s = run(&c, "keep_open_files: 0\n", &visited);
	ASSERT_EQ(s.n_records, 3);
	ASSERT_STREQ(s.records[0].path, "/");
	ASSERT_STREQ(s.records[1].path, "/a");
	ASSERT_STREQ(s.records[2].path, "/a/b");
	ASSERT_TRUE(s.records[1].n_samples > 50);
	ASSERT_STREQ(visited[0], "/");
	ASSERT_STREQ(visited[1], "/a");
	ASSERT_STREQ(visited[2], "/a/b");
	ASSERT_TRUE(visited[3] == NULL);
	for (size_t i = 0; visited[i]; i++)
		free(visited[i]);
	free(visited);
	snapshot_free(&s);

	s = run(&c, "exclude: [/a/**]\ncontrollers: [pids]\nkeep_open_files: 0\n", NULL);
	ASSERT_EQ(s.n_records, 1);
	ASSERT_STREQ(s.records[0].path, "/");
	snapshot_free(&s);
	collection_done(&c);
	ASSERT_TRUE(c.held == NULL && c.ids == NULL);
	tree_remove(&t);
}

/*
 * keep_open_files holds the files of the unified hierarchy between
 * collections, and a change of it starts over, closing all; 0 holds none.
 */
TEST(keep_open_files_holds_files_and_a_change_starts_over)
{
	struct tree t;
	struct collection c;
	struct snapshot s;
	size_t fds;

	tree_make(&t);
	collection_init(&c, &t.cli, &t.log);
	fds = open_fds();
	s = run(&c, "keep_open_files: 0\n", NULL);
	ASSERT_TRUE(c.held == NULL);
	ASSERT_EQ(s.held_files, 0);
	snapshot_free(&s);
	ASSERT_EQ(open_fds(), fds);

	s = run(&c, "keep_open_files: 10\n", NULL);
	ASSERT_TRUE(c.held != NULL);
	ASSERT_EQ(c.held_wanted, 10);
	ASSERT_EQ(s.held_files, 10);
	snapshot_free(&s);
	ASSERT_EQ(open_fds(), fds + 10 + held_files_dirs(c.held));

	s = run(&c, "keep_open_files: 1000\n", NULL);
	ASSERT_EQ(c.held_wanted, 1000);
	ASSERT_TRUE(s.held_files > 10);
	ASSERT_EQ(s.held_files, held_files_count(c.held));
	snapshot_free(&s);

	s = run(&c, "keep_open_files: 0\n", NULL);
	ASSERT_TRUE(c.held == NULL);
	snapshot_free(&s);
	ASSERT_EQ(open_fds(), fds);
	collection_done(&c);
	tree_remove(&t);
}

/*
 * Held files are what the open-file limit leaves after a reserve for HTTP
 * connections and the walk, however many keep_open_files asks for;
 * directories get the rest. In a child: the limit lowered stays lowered.
 */
TEST(held_files_stay_within_the_open_file_limit)
{
	struct tree t;
	int status;
	pid_t pid;

	tree_make(&t);
	fflush(NULL);
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = {.rlim_cur = FD_RESERVE + 5, .rlim_max = FD_RESERVE + 5};
		struct collection c;
		struct snapshot s;

		ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &rl), 0);
		collection_init(&c, &t.cli, &t.log);
		s = run(&c, "keep_open_files: 1000\n", NULL);
		ASSERT_EQ(s.held_files, 5);
		ASSERT_EQ(s.held_dirs, 0);
		snapshot_free(&s);
		collection_done(&c);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tree_remove(&t);
}

/* A collection that cannot learn the hierarchies fails whole, and says why. */
TEST(a_failed_collection_is_an_error)
{
	struct tree t;
	struct collection c;
	struct config *cfg = load("keep_open_files: 0\n");
	struct snapshot s;

	tree_make(&t);
	t.cli.mountinfo = "/nonexistent/mountinfo";
	collection_init(&c, &t.cli, &t.log);
	ASSERT_EQ(collection_run(&c, cfg, NULL, NULL, &s), -ENOENT);
	collection_done(&c);
	config_free(cfg);
	tree_remove(&t);
}

/* Without container_runtime_sockets no runtime is asked. */
TEST(no_runtime_client_without_sockets)
{
	struct tree t;
	struct collection c;
	struct config *cfg = load("container_runtime_sockets: []\n");
	struct containers *rt = (struct containers *)&rt;

	tree_make(&t);
	collection_init(&c, &t.cli, &t.log);
	collection_containers_new(&c, cfg, &rt);
	ASSERT_TRUE(rt == NULL);
	collection_done(&c);
	config_free(cfg);
	tree_remove(&t);
}
