/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Docker Engine API client (collector/runtime/dockerapi.c) that dockerd
 * and podman serve, against a server of the test's own on a unix socket
 * (helpers-collector.h): what a list response yields and what it refuses,
 * the request on the wire, the timeout. The real runtime, podman, is
 * tests/system's.
 */
#include <errno.h>

#include "base/clock.h"
#include "collector/runtime/dockerapi.h"
#include "helpers-collector.h"

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

	ASSERT_EQ(parse(WEB_AND_DB, &v, &n), 0);
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

	ASSERT_EQ(parse(WEB_ONLY, &v, &n), 0); /* a trailing newline is no trailing garbage */
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

	server_start(WEB_ONLY);
	ASSERT_EQ(dockerapi_list(server_path(), 5 * USEC_PER_SEC, &v, &n), 0);
	ASSERT_EQ(n, 1);
	ASSERT_STREQ(v[0].name, "web");
	runtime_containers_free(v, n);
	ASSERT_STREQ(server_request(), "GET /containers/json?all=1 HTTP/1.0");

	server_set(false, NULL);
	ASSERT_EQ(dockerapi_list(server_path(), 200 * USEC_PER_MSEC, &v, &n), -ETIMEDOUT);
	server_set(true, NULL);
	server_stop();

	ASSERT_EQ(dockerapi_list("/nonexistent/docker.sock", USEC_PER_SEC, &v, &n), -ENOENT);
	ASSERT_EQ(dockerapi_list("/proc/self/status", USEC_PER_SEC, &v, &n), -ECONNREFUSED);
}

/*
 * A name or image beyond its bound is cut at a character's end and ends in
 * U+2026, so that one runtime answer cannot blow up every series of its
 * container; one within its bound is kept whole, whatever its bytes.
 */
TEST(names_and_images_are_bounded)
{
	char *response, name[600], image[1200];
	struct runtime_container *v;
	size_t n;

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	/* "é" (2 bytes) on each side of the image's cut, at byte 507 */
	memset(image, 'i', sizeof(image) - 1);
	image[sizeof(image) - 1] = '\0';
	for (size_t i = 500; i < 520; i += 2)
		memcpy(image + i + 1, "\xc3\xa9", 2);
	ASSERT_TRUE(asprintf(&response,
			     OK_HEAD
			     "[{\"Id\":\"" ID_WEB "\",\"Names\":[\"/%s\"],\"Image\":\"%s\"},"
			     "{\"Id\":\"" ID_DB "\",\"Names\":[\"x\\u00ffy\"],\"Image\":\"a\"}]",
			     name, image) >= 0);
	ASSERT_EQ(parse(response, &v, &n), 0);
	ASSERT_EQ(n, 2);
	ASSERT_EQ(strlen(v[0].name), DOCKERAPI_NAME_MAX);
	ASSERT_TRUE(strncmp(v[0].name, name, DOCKERAPI_NAME_MAX - 3) == 0);
	ASSERT_STREQ(v[0].name + DOCKERAPI_NAME_MAX - 3, "\xe2\x80\xa6");
	ASSERT_TRUE(strlen(v[0].image) <= DOCKERAPI_IMAGE_MAX);
	ASSERT_TRUE(strlen(v[0].image) >= DOCKERAPI_IMAGE_MAX - 1);
	/* the cut is not inside "é": what precedes the ellipsis is whole characters */
	ASSERT_TRUE(strncmp(v[0].image, image, strlen(v[0].image) - 3) == 0);
	ASSERT_TRUE(((unsigned char)v[0].image[strlen(v[0].image) - 4] & 0xc0) != 0xc0);
	ASSERT_STREQ(v[1].name, "x\xc3\xbfy");
	runtime_containers_free(v, n);
	free(response);
}
