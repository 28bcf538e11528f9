/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Container names and images for the snapshot, from the runtimes' APIs
 * (dockerapi.h), for the sockets the program names. A thread of its own
 * asks the runtimes; a collection only looks up what they last said, so a
 * slow, failing or absent runtime never delays or fails a scrape: its
 * containers go without names until it answers.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "model/snapshot.h"

struct containers;

/*
 * How a socket's answers change: error is -errno when an ask failed
 * differently from the one before, 0 when the socket answers again after
 * failing (n: the containers it listed). Called from the thread that asks,
 * so that the program can log it; a library says nothing itself.
 */
typedef void (*containers_report_fn)(void *userdata, const char *socket, int error, size_t n);

/* Starts asking the runtimes at sockets (NULL-terminated, at least one). */
int containers_new(char *const *sockets, uint64_t timeout_usec, containers_report_fn report,
		   void *userdata, struct containers **ret);
/* Stops the thread, waiting for a request in flight to end (timeout_usec at most). */
void containers_free(struct containers *c);
/* Whether c asks these sockets with this timeout, so a reload can keep it. */
bool containers_same(const struct containers *c, char *const *sockets, uint64_t timeout_usec);

/* Waits until every socket has answered or failed once: a single collection's names. */
void containers_wait_first(struct containers *c);

/*
 * Names the records of s, a snapshot not yet finalized, whose identity says
 * a container ID that a runtime listed (record.container, and its creation
 * time as a sample). An ID none listed wakes the thread to ask again. Also
 * says how each socket last answered (s.runtimes).
 */
int containers_annotate(struct containers *c, struct snapshot *s);
