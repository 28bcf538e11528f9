/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The containers a Docker Engine API server lists on its unix socket:
 * dockerd's (/run/docker.sock), or podman's API service
 * (/run/podman/podman.sock), which answers the same requests. Read-only:
 * one GET, no other call.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* A container ID: 64 hex digits, as in the cgroup path (identity.h). */
#define DOCKERAPI_ID_LEN 64

/*
 * The longest name and image kept, in bytes: a name or image is a label
 * value on every series of its container in cAdvisor's naming, so one the
 * runtime makes longer (a socket's answer is input) is cut there, at a
 * character's end, and ends in U+2026 ("…"). Docker's own names and
 * image references stay well within.
 */
#define DOCKERAPI_NAME_MAX  255
#define DOCKERAPI_IMAGE_MAX 511

struct runtime_container {
	char id[DOCKERAPI_ID_LEN + 1];
	char *name;	  /* without the Docker API's leading '/'s */
	char *image;	  /* as the container was created from: "busybox", "localhost/web:1" */
	uint64_t created; /* seconds since the epoch; 0: not said */
};

/* A response larger than this is refused (-EFBIG): no host runs that many containers. */
#define DOCKERAPI_RESPONSE_MAX (64u << 20)

/*
 * Lists every container, running or not, within timeout_usec for connect,
 * request and response together. -ENOENT, -ECONNREFUSED, -EACCES: the
 * socket's; -ETIMEDOUT; -EBADMSG: not a 200 response with a JSON array.
 */
int dockerapi_list(const char *socket_path, uint64_t timeout_usec, struct runtime_container **ret,
		   size_t *ret_n);

/* The list in a whole HTTP response, as dockerapi_list() reads it; for tests and fuzzing. */
int dockerapi_parse_response(const char *buf, size_t len, struct runtime_container **ret,
			     size_t *ret_n);

void runtime_containers_free(struct runtime_container *v, size_t n);
