/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a cgroup's path says runs in it (collector/identity.h reads it):
 * the systemd unit, the container's runtime and ID, the pod's UID and QoS
 * class, as places in the path, each with how it is spelt there.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* How a value is spelt in the path, to be written as the label shows it. */
enum identity_spelling {
	IDENTITY_AS_IS,
	IDENTITY_POD_UID_UNDERSCORED, /* systemd driver: '_' stands for the UID's '-' */
	IDENTITY_UNIT_ESCAPED,	      /* systemd unit-name escapes: "\x2d" for '-' */
};

/* Part of the path: [off, off + len); len 0 = none. */
struct identity_span {
	uint16_t off, len;
	uint8_t spelling; /* enum identity_spelling */
};

struct identity {
	struct identity_span unit;	   /* the systemd unit the cgroup is or lies in */
	struct identity_span container_id; /* the container whose cgroup this is */
	struct identity_span pod_uid;	   /* the Kubernetes pod it is or belongs to */
	const char *runtime;		   /* of the container; NULL when none or not known */
	const char *qos_class;		   /* of the pod: guaranteed, burstable or besteffort */
};

/* The longest value identity_value() writes: a unit name's limit. */
#define IDENTITY_VALUE_MAX 255

/* The span's value as the label shows it, NUL-terminated, into out[IDENTITY_VALUE_MAX + 1]. */
void identity_value(const char *path, const struct identity_span *s, char *out);
