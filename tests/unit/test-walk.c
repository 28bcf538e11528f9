/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The walk on synthetic trees in a temporary directory. Identity comes from
 * cgroup.serial files the tests write (or inode numbers when they don't),
 * so the tests control the order and can churn the tree between steps.
 *
 * The oracle for the cursor rules: a cgroup's position is the sequence of
 * identities from the root down to it; pre-order by identity is the
 * lexicographic order of these sequences (a prefix first). The walk must
 * visit in strictly increasing position, and a cgroup created between steps
 * must be visited iff it is alive when reached and its position is
 * greater than the cursor's at creation.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collector/idcache.h"
#include "collector/walk.h"
#include "test.h"

#define NODES_MAX 512
#define DEPTH_MAX 8

struct node {
	char path[128]; /* relative to the tree root, "/" for the root */
	uint64_t key[DEPTH_MAX];
	unsigned depth;
	int parent;
	bool alive, from_start, ahead_at_creation;
	int visits, children;
};

struct model {
	const char *root;
	bool serial;
	uint64_t next_serial;
	struct node nodes[NODES_MAX];
	int n;
	int cursor; /* last visited node */
	int visits_in_step;
	uint64_t rng;
	char order[4096]; /* visited paths, space separated */
};

static uint64_t rnd(struct model *m, uint64_t n)
{
	m->rng ^= m->rng << 13;
	m->rng ^= m->rng >> 7;
	m->rng ^= m->rng << 17;
	return m->rng % n;
}

/* <0 if a is before b in pre-order by identity. */
static int key_cmp(const struct node *a, const struct node *b)
{
	for (unsigned i = 0; i < a->depth && i < b->depth; i++)
		if (a->key[i] != b->key[i])
			return a->key[i] < b->key[i] ? -1 : 1;
	return (a->depth > b->depth) - (a->depth < b->depth);
}

static char *abs_path(const struct model *m, const struct node *n)
{
	char *p;

	ASSERT_TRUE(asprintf(&p, "%s%s", m->root, n->depth ? n->path : "") >= 0);
	return p;
}

static int add_named(struct model *m, int parent, const char *name, uint64_t serial)
{
	struct node *n = &m->nodes[m->n], *p = &m->nodes[parent];
	char *dir, buf[32];
	struct stat st;

	ASSERT_TRUE(m->n < NODES_MAX && p->depth + 1 < DEPTH_MAX);
	*n = (struct node){.parent = parent, .depth = p->depth + 1, .alive = true};
	snprintf(n->path, sizeof(n->path), "%s/%s", p->depth ? p->path : "", name);
	memcpy(n->key, p->key, sizeof(n->key));
	dir = abs_path(m, n);
	ASSERT_TRUE(mkdir(dir, 0755) == 0);
	if (m->serial) {
		snprintf(buf, sizeof(buf), "%" PRIu64 "\n", serial);
		file_write(dir, "cgroup.serial", buf);
		n->key[p->depth] = serial;
	} else {
		ASSERT_TRUE(stat(dir, &st) == 0);
		n->key[p->depth] = st.st_ino;
	}
	free(dir);
	p->children++;
	return m->n++;
}

static int add_child(struct model *m, int parent)
{
	uint64_t serial = m->next_serial++;
	char name[32];

	/* names sort unlike identities, so readdir or name order would fail the test */
	snprintf(name, sizeof(name), "c%" PRIu64, (serial * 7919) % 10007);
	return add_named(m, parent, name, serial);
}

static void remove_node(struct model *m, int i)
{
	struct node *n = &m->nodes[i];
	char *dir = abs_path(m, n);

	ASSERT_TRUE(n->alive && n->children == 0 && i != 0);
	tmpdir_remove(dir);
	free(dir);
	n->alive = false;
	m->nodes[n->parent].children--;
}

static void model_init(struct model *m, bool serial, uint64_t seed)
{
	memset(m, 0, sizeof(*m));
	m->root = tmpdir_make();
	m->serial = serial;
	m->next_serial = 1;
	m->rng = seed * 0x9E3779B97F4A7C15ull + 1;
	m->nodes[0] = (struct node){.path = "/", .parent = -1, .alive = true, .from_start = true};
	m->n = 1;
	m->cursor = -1;
	if (serial)
		file_write(m->root, "cgroup.serial", "0\n");
}

static int find_alive(const struct model *m, const char *path)
{
	for (int i = 0; i < m->n; i++)
		if (m->nodes[i].alive && strcmp(m->nodes[i].path, path) == 0)
			return i;
	return -1;
}

/* Whether fd is the directory now at n's path, and not an older one of that name. */
static bool fd_is_dir_of(const struct model *m, const struct node *n, int fd)
{
	char *dir = abs_path(m, n);
	struct stat a, b;
	bool same = fstat(fd, &a) == 0 && stat(dir, &b) == 0 && a.st_ino == b.st_ino;

	free(dir);
	return same;
}

static int record_visit(void *userdata, const struct walk_entry *e)
{
	struct model *m = userdata;
	int i = find_alive(m, e->path);

	ASSERT_TRUE(i >= 0);
	ASSERT_EQ(e->depth, m->nodes[i].depth);
	ASSERT_TRUE(fd_is_dir_of(m, &m->nodes[i], e->fd));
	ASSERT_EQ_U64(e->id, i == 0 ? (m->serial ? 0 : e->id) : m->nodes[i].key[e->depth - 1]);
	if (m->cursor >= 0)
		ASSERT_TRUE(key_cmp(&m->nodes[m->cursor], &m->nodes[i]) < 0);
	m->nodes[i].visits++;
	m->cursor = i;
	m->visits_in_step++;
	strcat(m->order, e->path);
	strcat(m->order, " ");
	return 0;
}

/* Keeps every directory the walk offers, as the collection's held files do, and counts reuse. */
struct keeper {
	struct {
		uint64_t id, ino;
		int fd;
	} dirs[NODES_MAX];
	int n, hits;
	struct walk_dirs ops;
};

static int keeper_get(void *userdata, uint64_t id, uint64_t ino)
{
	struct keeper *k = userdata;

	for (int i = 0; i < k->n; i++)
		if (k->dirs[i].id == id && k->dirs[i].ino == ino) {
			k->hits++;
			return k->dirs[i].fd;
		}
	return -1;
}

static bool keeper_keep(void *userdata, uint64_t id, uint64_t ino, int fd)
{
	struct keeper *k = userdata;

	if (k->n == NODES_MAX)
		return false;
	k->dirs[k->n].id = id;
	k->dirs[k->n].ino = ino;
	k->dirs[k->n++].fd = fd;
	return true;
}

static struct keeper *keeper_new(void)
{
	struct keeper *k = calloc(1, sizeof(*k));

	ASSERT_TRUE(k != NULL);
	k->ops = (struct walk_dirs){.get = keeper_get, .keep = keeper_keep, .userdata = k};
	return k;
}

static void keeper_free(struct keeper *k)
{
	for (int i = 0; k && i < k->n; i++)
		close(k->dirs[i].fd);
	free(k);
}

/* A walk of m's tree, keeping directories with k and identities in ids (either may be NULL). */
static struct walk *walk_open_with(const struct model *m, struct keeper *k, struct id_table *ids)
{
	struct walk *w;
	int fd = open(m->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	ASSERT_TRUE(fd >= 0);
	ASSERT_EQ(walk_new(fd, k ? &k->ops : NULL, ids, &w), 0);
	return w;
}

static struct walk *walk_open(const struct model *m, struct keeper *k)
{
	return walk_open_with(m, k, NULL);
}

static int random_alive_leaf(struct model *m)
{
	for (int tries = 0; tries < 64; tries++) {
		int i = (int)rnd(m, (uint64_t)m->n);

		if (i != 0 && m->nodes[i].alive && m->nodes[i].children == 0)
			return i;
	}
	return -1;
}

static int random_alive(struct model *m)
{
	for (;;) {
		int i = (int)rnd(m, (uint64_t)m->n);

		if (m->nodes[i].alive && m->nodes[i].depth + 2 < DEPTH_MAX)
			return i;
	}
}

/* Between two steps: remove the cursor (and then ancestors that became leaves), others, add new
 * ones. */
static void churn(struct model *m)
{
	int c = m->cursor;

	if (rnd(m, 2) == 0)
		while (c > 0 && m->nodes[c].children == 0 && rnd(m, 3) != 0) {
			int parent = m->nodes[c].parent;

			remove_node(m, c);
			c = parent;
		}
	for (uint64_t k = rnd(m, 3); k > 0; k--) {
		int leaf = random_alive_leaf(m);

		if (leaf > 0)
			remove_node(m, leaf);
	}
	for (uint64_t k = rnd(m, 4); k > 0; k--) {
		int i = add_child(m, random_alive(m));

		m->nodes[i].ahead_at_creation = key_cmp(&m->nodes[m->cursor], &m->nodes[i]) < 0;
	}
}

/* With a keeper, the walk borrows the directories of a first walk over the same tree. */
static void check_churned_walk(uint64_t seed, size_t budget, bool keep)
{
	struct model *m = malloc(sizeof(*m));
	struct keeper *k = keep ? keeper_new() : NULL;
	struct walk *w;
	int r;

	model_init(m, true, seed);
	for (int i = 0; i < 40; i++)
		m->nodes[add_child(m, random_alive(m))].from_start = true;
	if (k) {
		w = walk_open(m, k);
		while (walk_step(w, 1000, record_visit, m) > 0)
			;
		walk_free(w);
		for (int i = 0; i < m->n; i++)
			m->nodes[i].visits = 0;
		m->cursor = -1;
	}

	w = walk_open(m, k);
	do {
		m->visits_in_step = 0;
		r = walk_step(w, budget, record_visit, m);
		ASSERT_TRUE(r >= 0);
		ASSERT_TRUE((size_t)m->visits_in_step <= budget);
		if (r > 0) {
			ASSERT_EQ(m->visits_in_step, budget);
			churn(m);
		}
	} while (r > 0);
	walk_free(w);
	keeper_free(k);

	for (int i = 0; i < m->n; i++) {
		const struct node *n = &m->nodes[i];

		ASSERT_TRUE(n->visits <= 1);
		if (n->alive && n->from_start)
			ASSERT_EQ(n->visits, 1); /* lived through the whole walk */
		else if (n->alive)
			ASSERT_EQ(n->visits, n->ahead_at_creation); /* created during the walk */
	}
	tmpdir_remove(m->root);
	free((char *)m->root);
	free(m);
}

TEST(churn_between_steps_keeps_the_cursor_rules)
{
	static const size_t budgets[] = {1, 2, 3, 5, 8};

	for (uint64_t seed = 1; seed <= 10; seed++)
		for (size_t b = 0; b < sizeof(budgets) / sizeof(budgets[0]); b++) {
			check_churned_walk(seed, budgets[b], false);
			check_churned_walk(seed, budgets[b], true);
		}
}

/* A whole walk without errors; a table of identities is ended after it, as collect.c does. */
static const char *walk_all_with(struct model *m, size_t budget, struct keeper *k,
				 struct id_table *ids)
{
	struct walk *w = walk_open_with(m, k, ids);

	m->order[0] = '\0';
	while (walk_step(w, budget, record_visit, m) > 0)
		;
	ASSERT_EQ(walk_errors(w), 0);
	walk_free(w);
	if (ids)
		id_table_end(ids);
	m->cursor = -1;
	return m->order;
}

static const char *walk_all_kept(struct model *m, size_t budget, struct keeper *k)
{
	return walk_all_with(m, budget, k, NULL);
}

static const char *walk_all(struct model *m, size_t budget)
{
	return walk_all_kept(m, budget, NULL);
}

/*
 * A second walk borrows every directory the first kept, and a cgroup
 * removed and made again under the same name is entered afresh, not
 * through the directory kept for the removed one (record_visit checks the
 * directory it is handed).
 */
TEST(kept_directories_serve_later_walks_but_not_a_new_namesake)
{
	struct model m;
	struct keeper *k = keeper_new();
	char first[4096];
	int leaf;

	model_init(&m, true, 8);
	for (int i = 0; i < 20; i++)
		add_child(&m, random_alive(&m));
	snprintf(first, sizeof(first), "%s", walk_all_kept(&m, 4, k));
	ASSERT_EQ(k->n, 20);
	ASSERT_EQ(k->hits, 0);

	ASSERT_STREQ(walk_all_kept(&m, 4, k), first);
	ASSERT_EQ(k->n, 20);
	ASSERT_EQ(k->hits, 20);

	leaf = random_alive_leaf(&m);
	ASSERT_TRUE(leaf > 0);
	remove_node(&m, leaf);
	add_named(&m, m.nodes[leaf].parent, strrchr(m.nodes[leaf].path, '/') + 1, m.next_serial++);
	k->hits = 0;
	walk_all_kept(&m, 4, k);
	ASSERT_TRUE(strstr(m.order, m.nodes[leaf].path) != NULL);
	ASSERT_EQ(k->n, 21);
	ASSERT_EQ(k->hits, 19);
	keeper_free(k);
	tmpdir_remove(m.root);
	free((char *)m.root);
}

TEST(siblings_follow_serial_not_name_order_depth_first)
{
	struct model m;

	model_init(&m, true, 1);
	add_named(&m, 0, "zeta", 3);
	add_named(&m, 0, "alpha", 7);
	add_named(&m, 1, "mid", 9);
	add_named(&m, 1, "early", 4);
	add_named(&m, 0, "beta", 5);
	ASSERT_STREQ(walk_all(&m, 100), "/ /zeta /zeta/early /zeta/mid /beta /alpha ");
	tmpdir_remove(m.root);
	free((char *)m.root);
}

static int by_key(const void *a, const void *b)
{
	return key_cmp(a, b);
}

/* Without cgroup.serial the identity is st_ino; the order is whatever the inodes say. */
TEST(without_serial_siblings_follow_inode_numbers)
{
	struct model m;
	struct node sorted[NODES_MAX];
	char expect[4096] = "";

	model_init(&m, false, 2);
	for (int i = 0; i < 12; i++)
		add_child(&m, (int)rnd(&m, (uint64_t)m.n));
	memcpy(sorted, m.nodes, sizeof(sorted[0]) * (size_t)m.n);
	qsort(sorted, (size_t)m.n, sizeof(sorted[0]), by_key);
	for (int i = 0; i < m.n; i++) {
		strcat(expect, sorted[i].path);
		strcat(expect, " ");
	}
	ASSERT_STREQ(walk_all(&m, 3), expect);
	tmpdir_remove(m.root);
	free((char *)m.root);
}

/* The cursor's cgroup is removed: resume at the smallest sibling identity above it. */
TEST(removed_cursor_resumes_at_next_larger_sibling)
{
	struct model m;
	struct walk *w;

	model_init(&m, true, 3);
	add_named(&m, 0, "a", 1);
	add_named(&m, 0, "b", 2);
	add_named(&m, 0, "c", 3);
	w = walk_open(&m, NULL);
	ASSERT_EQ(walk_step(w, 2, record_visit, &m), 1);
	ASSERT_STREQ(m.order, "/ /a ");
	remove_node(&m, 1);
	add_named(&m, 0, "d", 4);	/* after the cursor: visited */
	add_named(&m, 2, "under-b", 5); /* below b, which is still ahead: visited */
	while (walk_step(w, 2, record_visit, &m) > 0)
		;
	ASSERT_STREQ(m.order, "/ /a /b /b/under-b /c /d ");
	walk_free(w);
	tmpdir_remove(m.root);
	free((char *)m.root);
}

/* A cgroup created below an already-visited sibling is behind the cursor: not visited. */
TEST(cgroup_created_behind_cursor_is_not_visited)
{
	struct model m;
	struct walk *w;

	model_init(&m, true, 4);
	add_named(&m, 0, "a", 1);
	add_named(&m, 0, "b", 2);
	w = walk_open(&m, NULL);
	ASSERT_EQ(walk_step(w, 3, record_visit, &m), 1);
	add_named(&m, 1, "late-under-a", 10);
	add_named(&m, 2, "late-under-b", 11);
	ASSERT_EQ(walk_step(w, 10, record_visit, &m), 0);
	ASSERT_STREQ(m.order, "/ /a /b /b/late-under-b ");
	walk_free(w);
	tmpdir_remove(m.root);
	free((char *)m.root);
}

/* The cursor and its parent both removed: resume after the parent. */
TEST(removed_ancestor_resumes_after_the_ancestor)
{
	struct model m;
	struct walk *w;

	model_init(&m, true, 5);
	add_named(&m, 0, "a", 1);
	add_named(&m, 1, "a1", 2);
	add_named(&m, 1, "a2", 3);
	add_named(&m, 0, "b", 4);
	w = walk_open(&m, NULL);
	ASSERT_EQ(walk_step(w, 3, record_visit, &m), 1);
	ASSERT_STREQ(m.order, "/ /a /a/a1 ");
	remove_node(&m, 2);
	remove_node(&m, 3);
	remove_node(&m, 1);
	ASSERT_EQ(walk_step(w, 10, record_visit, &m), 0);
	ASSERT_STREQ(m.order, "/ /a /a/a1 /b ");
	walk_free(w);
	tmpdir_remove(m.root);
	free((char *)m.root);
}

/*
 * v1 can rename a cgroup within its parent, keeping its identity. The
 * cursor's old path no longer resolves, so the walk resumes after the
 * renamed cgroup rather than reporting children under a stale path.
 */
TEST(renamed_cursor_parent_never_yields_stale_paths)
{
	struct model m;
	struct walk *w;
	char *from, *to;

	model_init(&m, true, 7);
	add_named(&m, 0, "a", 1);
	add_named(&m, 1, "x", 2);
	add_named(&m, 1, "y", 3);
	add_named(&m, 0, "b", 4);
	w = walk_open(&m, NULL);
	ASSERT_EQ(walk_step(w, 3, record_visit, &m), 1);
	ASSERT_TRUE(asprintf(&from, "%s/a", m.root) >= 0);
	ASSERT_TRUE(asprintf(&to, "%s/renamed", m.root) >= 0);
	ASSERT_TRUE(rename(from, to) == 0);
	strcpy(m.nodes[1].path, "/renamed");
	strcpy(m.nodes[2].path, "/renamed/x");
	strcpy(m.nodes[3].path, "/renamed/y");
	ASSERT_EQ(walk_step(w, 10, record_visit, &m), 0);
	ASSERT_STREQ(m.order, "/ /a /a/x /b ");
	walk_free(w);
	free(from);
	free(to);
	tmpdir_remove(m.root);
	free((char *)m.root);
}

static int remove_sibling_on_visit(void *userdata, const struct walk_entry *e)
{
	struct model *m = userdata;

	if (strcmp(e->path, "/a") == 0)
		remove_node(m, 2);
	return record_visit(userdata, e);
}

/*
 * A step re-lists the directories on the cursor's path, but a sibling seen
 * before under the same name and inode number keeps its identity: with its
 * cgroup.serial now unreadable as a number, it is still visited in place,
 * so the walk did not read it again (one read per sibling, not per step).
 */
TEST(later_steps_keep_the_identities_already_read)
{
	static const char *const names[] = {"a", "b", "c", "d"};
	struct model m;
	struct walk *w;

	model_init(&m, true, 9);
	for (size_t i = 0; i < 4; i++)
		add_named(&m, 0, names[i], i + 1);
	w = walk_open(&m, NULL);
	ASSERT_EQ(walk_step(w, 2, record_visit, &m), 1);
	ASSERT_STREQ(m.order, "/ /a ");
	for (int i = 2; i <= 4; i++) {
		char *dir = abs_path(&m, &m.nodes[i]);

		file_write(dir, "cgroup.serial", "not a number\n");
		free(dir);
	}
	while (walk_step(w, 1, record_visit, &m) > 0)
		;
	ASSERT_STREQ(m.order, "/ /a /b /c /d ");
	ASSERT_EQ(walk_errors(w), 0);
	walk_free(w);
	tmpdir_remove(m.root);
	free((char *)m.root);
}

static void set_serial(struct model *m, int i, const char *serial)
{
	char *dir = abs_path(m, &m->nodes[i]);

	file_write(dir, "cgroup.serial", serial);
	free(dir);
}

/*
 * "/p" and its children "/p/z", "/p/a", "/p/m" (serials 1, 2, 3, 4), with
 * an id_table that one walk has filled.
 */
static struct id_table *family_walked_once(struct model *m, struct id_cache **ret_cache)
{
	struct id_table *t;

	model_init(m, true, 10);
	add_named(m, 0, "p", 1);
	add_named(m, 1, "z", 2);
	add_named(m, 1, "a", 3);
	add_named(m, 1, "m", 4);
	ASSERT_EQ(id_cache_new(ret_cache), 0);
	t = id_cache_table(*ret_cache, m->root);
	ASSERT_TRUE(t != NULL);
	ASSERT_STREQ(walk_all_with(m, 2, NULL, t), "/ /p /p/z /p/a /p/m ");
	return t;
}

/*
 * A later walk takes the identities an earlier one read, by inode number:
 * with the children's cgroup.serial unreadable as numbers it still visits
 * them in order under their identities. Only the first one remembered, /p,
 * is read again, and it still matches.
 */
TEST(later_walks_reuse_the_identities_read_before)
{
	struct id_cache *cache;
	struct model m;
	struct id_table *t = family_walked_once(&m, &cache);

	for (int i = 2; i <= 4; i++)
		set_serial(&m, i, "not a number\n");
	ASSERT_STREQ(walk_all_with(&m, 2, NULL, t), "/ /p /p/z /p/a /p/m ");
	id_cache_free(cache);
	tmpdir_remove(m.root);
	free((char *)m.root);
}

/*
 * A hierarchy mounted anew may list the same names under the same inode
 * numbers, with new serials: the first identity remembered no longer
 * matching its file, the walk reads them all again.
 */
TEST(a_remembered_identity_that_moved_makes_the_walk_read_all)
{
	static const uint64_t fresh[] = {0, 11, 14, 13, 12};
	struct id_cache *cache;
	struct model m;
	struct id_table *t = family_walked_once(&m, &cache);

	for (int i = 1; i <= 4; i++) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%" PRIu64 "\n", fresh[i]);
		set_serial(&m, i, buf);
		m.nodes[i].key[0] = fresh[1];
		if (i > 1)
			m.nodes[i].key[1] = fresh[i];
	}
	ASSERT_STREQ(walk_all_with(&m, 2, NULL, t), "/ /p /p/m /p/a /p/z ");
	id_cache_free(cache);
	tmpdir_remove(m.root);
	free((char *)m.root);
}

/* Removed between listing and visit, inside one step: skipped and counted. */
TEST(cgroup_removed_mid_step_is_skipped_and_counted)
{
	struct model m;
	struct walk *w;

	model_init(&m, true, 6);
	add_named(&m, 0, "a", 1);
	add_named(&m, 0, "b", 2);
	add_named(&m, 0, "c", 3);
	w = walk_open(&m, NULL);
	ASSERT_EQ(walk_step(w, 10, remove_sibling_on_visit, &m), 0);
	ASSERT_STREQ(m.order, "/ /a /c ");
	ASSERT_EQ_U64(walk_vanished(w), 1);
	ASSERT_EQ(walk_errors(w), 0);
	walk_free(w);
	tmpdir_remove(m.root);
	free((char *)m.root);
}
