/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Container names and images for the snapshot, from the runtimes' APIs
 * (runtime/dockerapi.h), for the sockets container_runtime_sockets lists.
 * A thread of its own asks the runtimes; a collection only looks up what
 * they last said, so a slow, failing or absent runtime never delays or
 * fails a scrape: its containers go without names until it answers.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "daemon/log.h"
#include "model/snapshot.h"

struct containers;

/* Starts asking the runtimes at sockets (NULL-terminated, at least one). */
int containers_new(char *const *sockets, uint64_t timeout_usec, struct log_target *log,
		   struct containers **ret);
/* Stops the thread, waiting for a request in flight to end (timeout_usec at most). */
void containers_free(struct containers *c);
/* Whether c asks these sockets with this timeout, so a reload can keep it. */
bool containers_same(const struct containers *c, char *const *sockets, uint64_t timeout_usec);

/*
 * Names s's records whose path says a container ID that a runtime listed
 * (record.container). An ID none listed wakes the thread to ask again.
 * Also says how each socket last answered (s.runtimes).
 */
int containers_annotate(struct containers *c, struct snapshot *s);
