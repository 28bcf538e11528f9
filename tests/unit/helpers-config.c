/* SPDX-License-Identifier: GPL-2.0-only */
/* Configurations and fixtures of them, loaded as the program loads them. */
#include <stdio.h>

#include "config/error.h"
#include "helpers-config.h"

struct web_config *web_config_fixture(const char *name)
{
	char *path = fixture_path(name);
	struct web_config *wc = NULL;
	struct config_error e = {0};
	int r = web_config_load_file(path, &wc, &e);

	if (r < 0)
		fprintf(stderr, "%s\n", e.message);
	ASSERT_EQ(r, 0);
	free(path);
	return wc;
}

struct config *config_load_yaml(const char *name, const char *yaml)
{
	struct config *c = NULL;
	struct config_error e = {0};
	int r = config_load_buffer(name, yaml, strlen(yaml), &c, &e);

	if (r < 0)
		fprintf(stderr, "%s\n", e.message);
	ASSERT_EQ(r, 0);
	return c;
}
