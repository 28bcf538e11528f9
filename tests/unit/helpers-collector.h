/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The collector's test helpers (helpers-collector.c): a controller's reader
 * run over one cgroup directory, with a fake sysfs for device names, and
 * the exact samples it must produce; and a Docker Engine API server of the
 * test's own on a unix socket, for the container runtime client.
 */
#pragma once

#include <stdbool.h>

#include "base/fileio.h"
#include "collector/controllers/controller.h"
#include "collector/devname.h"
#include "test.h"

struct expect {
	enum metric metric;
	const char *label;
	uint64_t value;
};

/* r holds exactly the samples e[0..n), in that order; else the test fails saying which differs. */
void check_samples(const struct cgroup_record *r, const struct expect *e, size_t n);

struct fake_sysfs {
	char *root;
	struct devnames devnames;
};

/*
 * The guest's disk 254:0 has a uevent naming it vda, 254:16 only the
 * symlink (to vdb): two of the three lookup paths, the third being
 * "MAJ:MIN" for a device sysfs does not know.
 */
void fake_sysfs_init(struct fake_sysfs *f);
void fake_sysfs_done(struct fake_sysfs *f);

/* Runs one controller's reader (read_v2 or read_v1) on the cgroup directory path. */
struct cgroup_record read_dir(const char *path, const struct controller_reader *c, bool v2,
			      bool per_cpu);
/* The same on a fixture directory (tests/fixtures/dir). */
struct cgroup_record read_fixture(const char *dir, const struct controller_reader *c, bool v2,
				  bool per_cpu);

/* A reader's context over one directory, filling rec; reading_close() frees rec too. */
struct reading {
	struct cgroup_record rec;
	struct readbuf buf;
	unsigned absent;
	struct reader_ctx ctx;
};

void reading_open(struct reading *r, const char *dir);
void reading_close(struct reading *r);

/* Two containers as a runtime lists them, and the head of its 200 answer. */
#define ID_WEB	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define ID_DB	"fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
#define OK_HEAD "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n"
#define WEB_ONLY                                                                                   \
	OK_HEAD "[{\"Id\":\"" ID_WEB "\",\"Names\":[\"/web\"],\"Image\":\"localhost/web:1\","      \
		"\"State\":\"running\"}]\n"
#define WEB_AND_DB                                                                                 \
	OK_HEAD "[{\"Id\":\"" ID_WEB "\",\"Names\":[\"/web\"],\"Image\":\"localhost/web:1\","      \
		"\"Created\":1796528484},"                                                         \
		"{\"Id\":\"" ID_DB "\",\"Names\":[\"db\"],\"Image\":\"postgres\",\"Created\":-5}]"

/*
 * The test's Docker API server, one at a time: answers each connection
 * with response once the gate is open (server_set), on the socket at
 * server_path(). server_request() is the last request's first line.
 */
void server_start(const char *response);
/* Opens or closes the gate; a response other than NULL replaces the answer. */
void server_set(bool open, const char *response);
unsigned server_answered(void);
char *server_path(void);
const char *server_request(void);
void server_stop(void);
