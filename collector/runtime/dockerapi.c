/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * GET /containers/json?all=1 over the socket in HTTP/1.0: the server then
 * sends the body without chunked encoding and closes the connection, so
 * the response is everything read until end of file. The list's Id, Names,
 * Image and Created are what the Docker API documents since its version 1.18;
 * podman's compatible API returns the same fields.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/util.h"
#include "collector/runtime/dockerapi.h"

static const char request[] = "GET /containers/json?all=1 HTTP/1.0\r\n"
			      "Host: localhost\r\n"
			      "User-Agent: cgacctd\r\n"
			      "Accept: application/json\r\n"
			      "\r\n";

/* Waits for events on fd until deadline (now_usec()); -ETIMEDOUT past it. */
static int wait_for(int fd, short events, uint64_t deadline)
{
	for (;;) {
		struct pollfd p = {.fd = fd, .events = events};
		uint64_t now = now_usec();
		int r;

		if (now >= deadline)
			return -ETIMEDOUT;
		r = poll(&p, 1, (int)((deadline - now + USEC_PER_MSEC - 1) / USEC_PER_MSEC));
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
	}
}

/*
 * After a send() or recv() that returned n: 0 if it got on, or waits for
 * events when the socket was not ready; -errno on an error or past deadline.
 */
static int ready_again(ssize_t n, int fd, short events, uint64_t deadline)
{
	if (n >= 0)
		return 0;
	if (errno != EAGAIN && errno != EINTR)
		return -errno;
	return wait_for(fd, events, deadline);
}

static int connect_until(const char *path, uint64_t deadline, int *ret)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	_cleanup_close_ int fd = -1;
	socklen_t len = sizeof(int);
	int err = 0, r;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		/* a unix socket says EAGAIN where a full backlog delays it */
		if (errno != EAGAIN && errno != EINPROGRESS)
			return -errno;
		r = wait_for(fd, POLLOUT, deadline);
		if (r < 0)
			return r;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
			return -errno;
		if (err)
			return -err;
	}
	*ret = TAKE_FD(fd);
	return 0;
}

static int send_request(int fd, uint64_t deadline)
{
	size_t done = 0;
	ssize_t n;
	int r;

	while (done < sizeof(request) - 1) {
		n = send(fd, request + done, sizeof(request) - 1 - done, MSG_NOSIGNAL);
		r = ready_again(n, fd, POLLOUT, deadline);
		if (r < 0)
			return r;
		done += n > 0 ? (size_t)n : 0;
	}
	return 0;
}

static int read_response(int fd, uint64_t deadline, char **ret, size_t *ret_len)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;
	int r;

	for (;;) {
		if (len == cap) {
			if (cap >= DOCKERAPI_RESPONSE_MAX)
				return -EFBIG;
			if (array_grow((void **)&buf, &cap, len + 1, 1, 16384) < 0)
				return -ENOMEM;
		}
		n = recv(fd, buf + len, cap - len, 0);
		if (n == 0)
			break;
		r = ready_again(n, fd, POLLIN, deadline);
		if (r < 0)
			return r;
		len += n > 0 ? (size_t)n : 0;
	}
	*ret = TAKE_PTR(buf);
	*ret_len = len;
	return 0;
}

int dockerapi_list(const char *socket_path, uint64_t timeout_usec, struct runtime_container **ret,
		   size_t *ret_n)
{
	uint64_t deadline = now_usec() + timeout_usec;
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	int r;

	r = connect_until(socket_path, deadline, &fd);
	if (r < 0)
		return r;
	r = send_request(fd, deadline);
	if (r < 0)
		return r;
	r = read_response(fd, deadline, &buf, &len);
	if (r < 0)
		return r;
	return dockerapi_parse_response(buf, len, ret, ret_n);
}

void runtime_containers_free(struct runtime_container *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].image);
	}
	free(v);
}

/* "HTTP/1.x 200 ...", then headers up to the blank line: the body's offset, or 0. */
static size_t body_offset(const char *buf, size_t len)
{
	static const char status[] = "HTTP/1.";
	const char *end;

	if (len < sizeof(status) + 4 || memcmp(buf, status, sizeof(status) - 1) != 0 ||
	    memcmp(buf + sizeof(status), " 200", 4) != 0)
		return 0;
	end = memmem(buf, len, "\r\n\r\n", 4);
	return end ? (size_t)(end - buf) + 4 : 0;
}

static const char *string_member(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool is_id(const char *s)
{
	if (!s || strlen(s) != DOCKERAPI_ID_LEN)
		return false;
	return strspn(s, "0123456789abcdef") == DOCKERAPI_ID_LEN;
}

/*
 * The first of Names, without the '/'s that lead it: a label value starting
 * with '/' would read as a cgroup path. NULL if it has none.
 */
static const char *first_name(struct json_object *o)
{
	struct json_object *names, *first;
	const char *s;

	if (!json_object_object_get_ex(o, "Names", &names) ||
	    !json_object_is_type(names, json_type_array) || json_object_array_length(names) == 0)
		return NULL;
	first = json_object_array_get_idx(names, 0);
	if (!json_object_is_type(first, json_type_string))
		return NULL;
	s = json_object_get_string(first);
	return s + strspn(s, "/");
}

/* s, or its first bytes up to a character's end and "\u2026" to fill max bytes. */
static char *bounded_strdup(const char *s, size_t max)
{
	static const char ellipsis[] = "\xe2\x80\xa6";
	size_t len = strlen(s), keep;
	char *out;

	if (len <= max)
		return strdup(s);
	keep = max - (sizeof(ellipsis) - 1);
	/* not within a multi-byte character: back off its continuation bytes */
	while (keep > 0 && ((unsigned char)s[keep] & 0xc0) == 0x80)
		keep--;
	out = malloc(keep + sizeof(ellipsis));
	if (out) {
		memcpy(out, s, keep);
		memcpy(out + keep, ellipsis, sizeof(ellipsis));
	}
	return out;
}

/* Fills c from one element of the list; false for an element without a valid Id. */
static int container_from(struct json_object *o, struct runtime_container *c)
{
	const char *id = string_member(o, "Id"), *name = first_name(o),
		   *image = string_member(o, "Image");
	struct json_object *created;

	if (!json_object_is_type(o, json_type_object) || !is_id(id))
		return 0;
	memcpy(c->id, id, DOCKERAPI_ID_LEN + 1);
	if (json_object_object_get_ex(o, "Created", &created) &&
	    json_object_is_type(created, json_type_int) && json_object_get_int64(created) > 0)
		c->created = (uint64_t)json_object_get_int64(created);
	c->name = bounded_strdup(name ? name : "", DOCKERAPI_NAME_MAX);
	c->image = bounded_strdup(image ? image : "", DOCKERAPI_IMAGE_MAX);
	return c->name && c->image ? 1 : -ENOMEM;
}

int dockerapi_parse_response(const char *buf, size_t len, struct runtime_container **ret,
			     size_t *ret_n)
{
	struct json_tokener *tok;
	struct json_object *list;
	struct runtime_container *v;
	size_t body = body_offset(buf, len), n = 0, count, end;
	int r = 0;

	if (body == 0 || len - body > INT32_MAX)
		return -EBADMSG;
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	list = json_tokener_parse_ex(tok, buf + body, (int)(len - body));
	/* the whole body, but for a newline: a truncated one is an error, not a shorter list */
	end = body + json_tokener_get_parse_end(tok);
	while (end < len && strchr(" \t\r\n", buf[end]) && buf[end])
		end++;
	if (list && (json_tokener_get_error(tok) != json_tokener_success || end != len))
		r = -EBADMSG;
	json_tokener_free(tok);
	if (!list || r < 0 || !json_object_is_type(list, json_type_array)) {
		json_object_put(list);
		return -EBADMSG;
	}
	count = json_object_array_length(list);
	v = calloc(count ? count : 1, sizeof(*v));
	for (size_t i = 0; v && r >= 0 && i < count; i++) {
		r = container_from(json_object_array_get_idx(list, i), &v[n]);
		if (r > 0)
			n++;
	}
	json_object_put(list);
	if (!v || r < 0) {
		runtime_containers_free(v, n + (r < 0));
		return -ENOMEM;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}
