/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The page at "/": what a person opening the exporter in a browser wants to
 * see. The cgroup tree with current CPU, memory against its limit, limit
 * failures and throttling, and a link to /metrics. Self-contained HTML, no
 * external assets, every string from the tree escaped.
 */
#pragma once

#include "base/strbuf.h"
#include "model/snapshot.h"

#define LANDING_CONTENT_TYPE "text/html; charset=utf-8"

int landing_render(const struct snapshot *s, const char *version, struct strbuf *out);
