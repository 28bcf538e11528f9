/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a cgroup's path says runs in it, by the naming conventions of
 * systemd, the container runtimes and Kubernetes' two cgroup drivers: the
 * systemd unit, the container's runtime and ID, the pod's UID and QoS
 * class. The path alone: a container's name and image take its runtime's
 * API. A path in no convention of the table gets nothing, never a guess.
 */
#pragma once

#include "model/identity.h"

/* Fills *ret from path ("/" or "/a/b", as a record's path). */
void identity_parse(const char *path, struct identity *ret);
