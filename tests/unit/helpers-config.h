/* SPDX-License-Identifier: GPL-2.0-only */
/* The configuration layer's test helpers (helpers-config.c). */
#pragma once

#include "config/config.h"
#include "config/webconfig.h"
#include "test.h"

/* A web-config fixture, loaded or the test fails. */
struct web_config *web_config_fixture(const char *name);
/* cgacctd.yml text loaded as the file name, or the test fails saying why. */
struct config *config_load_yaml(const char *name, const char *yaml);
