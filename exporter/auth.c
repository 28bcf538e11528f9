/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Authorization header goes to config/'s parser rather than MHD's own,
 * so the same code (and its fuzz target) decides what a well-formed header
 * is. A libcrypt failure denies access: failing open is not an option.
 */
#include <stdlib.h>
#include <string.h>

#include "config/basicauth.h"
#include "exporter/auth.h"

bool auth_required(const struct web_config *wc)
{
	return wc && wc->n_users > 0;
}

bool auth_request_allowed(struct MHD_Connection *c, const struct web_config *wc)
{
	const char *value;
	char *user = NULL, *password = NULL;
	int r;

	if (!auth_required(wc))
		return true;
	value = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
	if (!value || basic_auth_parse(value, strlen(value), &user, &password) < 0)
		return false;
	r = web_config_check_password(wc, user, password);
	free(user);
	basic_auth_erase(password);
	return r > 0;
}
