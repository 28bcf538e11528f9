/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Content negotiation for /metrics from the request's Accept and
 * Accept-Encoding headers (RFC 9110 §12.5): OpenMetrics when the client
 * prefers it, as Prometheus does, the text format otherwise, including when
 * there is no header or nothing offered is acceptable (as client_golang's
 * promhttp does); gzip when asked for.
 */
#pragma once

#include <stdbool.h>

#include "exporter/render.h"

/* accept may be NULL (no header). */
enum render_format negotiate_format(const char *accept);

/* accept_encoding may be NULL (no header). */
bool negotiate_gzip(const char *accept_encoding);
