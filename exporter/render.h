/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Rendering a snapshot as the Prometheus text exposition format 0.0.4.
 * Pure formatting: the exporter never opens a cgroup file.
 */
#pragma once

#include <stdint.h>

#include "snapshot.h"
#include "strbuf.h"

#define PROMETHEUS_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

int render_prometheus(const struct snapshot *s, const char *version, struct strbuf *out);
void render_label_value(struct strbuf *b, const char *value);
void render_scaled(struct strbuf *b, uint64_t value, uint64_t divisor);
