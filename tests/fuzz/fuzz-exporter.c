/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz target for what the HTTP side parses from clients: the Accept and
 * Accept-Encoding headers. MHD hands them over NUL-terminated, so the
 * input is copied into an exact-size terminated buffer (ASan then sees any
 * read past its end). Whatever the header, negotiation picks a format we
 * render.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exporter/negotiate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *header = malloc(size + 1);
	enum render_format f;

	if (!header)
		return 0;
	memcpy(header, data, size);
	header[size] = '\0';
	f = negotiate_format(header);
	if (f != RENDER_TEXT && f != RENDER_OPENMETRICS)
		abort();
	(void)negotiate_gzip(header);
	free(header);
	return 0;
}
