/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cgacctd as a service: serve HTTP until SIGTERM or SIGINT, reload on
 * SIGHUP, and keep systemd informed (readiness, status, reloads, watchdog).
 */
#pragma once

#include "config/config.h"
#include "daemon/cli.h"
#include "daemon/log.h"

/* Takes over cfg. Returns 0 after a clean stop, -errno if serving failed. */
int service_run(const struct cli *cli, struct config *cfg, struct log_target *log);
