/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fuzz target of what cgacctd reads from a container runtime's socket
 * (collector/runtime/dockerapi.c): a whole HTTP response. Whatever it is, a
 * list comes back only whole, its IDs 64 hex digits, its strings set and
 * within their bounds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collector/runtime/dockerapi.h"
#include "fuzz.h"

TARGET fuzz_docker_api(const char *buf, size_t size)
{
	struct runtime_container *v;
	size_t n;

	if (dockerapi_parse_response(buf, size, &v, &n) == 0) {
		for (size_t i = 0; i < n; i++)
			if (strlen(v[i].id) != DOCKERAPI_ID_LEN || !v[i].name || !v[i].image ||
			    v[i].name[0] == '/' || strlen(v[i].name) > DOCKERAPI_NAME_MAX ||
			    strlen(v[i].image) > DOCKERAPI_IMAGE_MAX)
				abort();
		runtime_containers_free(v, n);
	}
}

FUZZ_MAIN()
