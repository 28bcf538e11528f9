/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HTTP basic authentication of a request against web-config's
 * basic_auth_users (the checking itself is config/basicauth.c's).
 */
#pragma once

#include <stdbool.h>
#include <microhttpd.h>

#include "config/webconfig.h"

/* Whether wc asks for authentication at all. */
bool auth_required(const struct web_config *wc);

/* Whether the request's Authorization header names a user of wc with the right password. */
bool auth_request_allowed(struct MHD_Connection *c, const struct web_config *wc);
