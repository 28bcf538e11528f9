/* SPDX-License-Identifier: GPL-2.0-only */
/* What a cgroup path says runs in it: the path shapes of real hosts. */

#include <string.h>

#include "base/util.h"
#include "collector/identity.h"
#include "test.h"

#define ID  "3f2a9c0d4b5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8"
#define UID "1b2c3d4e-5f60-7a8b-9c0d-1e2f3a4b5c6d"
/* The same UID as the systemd cgroup driver spells it in a slice name. */
#define UID_ "1b2c3d4e_5f60_7a8b_9c0d_1e2f3a4b5c6d"

struct want {
	const char *path;
	const char *unit, *runtime, *container_id, *pod_uid, *qos_class; /* NULL: none */
};

static const struct want wants[] = {
    {"/", NULL, NULL, NULL, NULL, NULL},
    {"/init.scope", "init.scope", NULL, NULL, NULL, NULL},
    {"/system.slice", "system.slice", NULL, NULL, NULL, NULL},
    {"/system.slice/nginx.service", "nginx.service", NULL, NULL, NULL, NULL},
    /* a sub-cgroup of a service with Delegate=yes still lies in the service */
    {"/system.slice/nginx.service/workers", "nginx.service", NULL, NULL, NULL, NULL},
    {"/user.slice/user-1000.slice/user@1000.service", "user@1000.service", NULL, NULL, NULL, NULL},
    {"/user.slice/user-1000.slice/user@1000.service/app.slice/app-firefox-4242.scope",
     "app-firefox-4242.scope", NULL, NULL, NULL, NULL},
    {"/system.slice/docker-" ID ".scope", "docker-" ID ".scope", "docker", ID, NULL, NULL},
    {"/docker/" ID, NULL, "docker", ID, NULL, NULL},
    {"/docker/" ID "/sub", NULL, NULL, NULL, NULL, NULL},
    {"/docker/not-an-id", NULL, NULL, NULL, NULL, NULL},
    {"/a/docker/" ID, NULL, NULL, NULL, NULL, NULL},
    {"/machine.slice/libpod-" ID ".scope", "libpod-" ID ".scope", "podman", ID, NULL, NULL},
    /* crun's sub-cgroup of a podman container is not the container again */
    {"/machine.slice/libpod-" ID ".scope/container", "libpod-" ID ".scope", NULL, NULL, NULL, NULL},
    {"/machine.slice/libpod-conmon-" ID ".scope", "libpod-conmon-" ID ".scope", NULL, NULL, NULL,
     NULL},
    {"/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID ".scope",
     "libpod-" ID ".scope", "podman", ID, NULL, NULL},
    {"/libpod_parent/libpod-" ID, NULL, "podman", ID, NULL, NULL},
    {"/system.slice/cri-containerd-" ID ".scope", "cri-containerd-" ID ".scope", "containerd", ID,
     NULL, NULL},
    {"/system.slice/crio-" ID ".scope", "crio-" ID ".scope", "cri-o", ID, NULL, NULL},
    {"/system.slice/crio-conmon-" ID ".scope", "crio-conmon-" ID ".scope", NULL, NULL, NULL, NULL},
    {"/lxc.payload.web1", NULL, "lxc", "web1", NULL, NULL},
    {"/lxc.monitor.web1", NULL, NULL, NULL, NULL, NULL},
    {"/lxc/web1", NULL, "lxc", "web1", NULL, NULL},
    {"/machine.slice/machine-qemu\\x2d1\\x2dvm1.scope", "machine-qemu\\x2d1\\x2dvm1.scope",
     "systemd-machined", "qemu-1-vm1", NULL, NULL},
    {"/machine.slice/systemd-nspawn@debian.service", "systemd-nspawn@debian.service",
     "systemd-nspawn", "debian", NULL, NULL},
    /* machine-*.scope outside machine.slice is not machined's */
    {"/system.slice/machine-x.scope", "machine-x.scope", NULL, NULL, NULL, NULL},

    /* Kubernetes, systemd cgroup driver */
    {"/kubepods.slice", "kubepods.slice", NULL, NULL, NULL, NULL},
    {"/kubepods.slice/kubepods-burstable.slice", "kubepods-burstable.slice", NULL, NULL, NULL,
     NULL},
    {"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_ ".slice",
     "kubepods-burstable-pod" UID_ ".slice", NULL, NULL, UID, "burstable"},
    {"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
     ".slice/cri-containerd-" ID ".scope",
     "cri-containerd-" ID ".scope", "containerd", ID, UID, "burstable"},
    {"/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_
     ".slice/crio-conmon-" ID ".scope",
     "crio-conmon-" ID ".scope", NULL, NULL, UID, "besteffort"},
    {"/kubepods.slice/kubepods-pod" UID_ ".slice/crio-" ID ".scope", "crio-" ID ".scope", "cri-o",
     ID, UID, "guaranteed"},
    {"/kubepods.slice/kubepods-pod" UID_ ".slice/docker-" ID ".scope", "docker-" ID ".scope",
     "docker", ID, UID, "guaranteed"},
    /* a QoS prefix without its QoS slice, a UID with the wrong separator */
    {"/kubepods.slice/kubepods-burstable-pod" UID_ ".slice", "kubepods-burstable-pod" UID_ ".slice",
     NULL, NULL, NULL, NULL},
    {"/kubepods.slice/kubepods-pod" UID ".slice", "kubepods-pod" UID ".slice", NULL, NULL, NULL,
     NULL},

    /* Kubernetes, cgroupfs cgroup driver */
    {"/kubepods/burstable/pod" UID, NULL, NULL, NULL, UID, "burstable"},
    {"/kubepods/burstable/pod" UID "/" ID, NULL, NULL, ID, UID, "burstable"},
    {"/kubepods/pod" UID "/" ID, NULL, NULL, ID, UID, "guaranteed"},
    {"/kubepods/besteffort/pod" UID "/crio-" ID, NULL, "cri-o", ID, UID, "besteffort"},
    {"/kubepods/besteffort/pod" UID_, NULL, NULL, NULL, NULL, NULL},
    {"/kubepods/burstable/pod" UID "/" ID "/x", NULL, NULL, NULL, UID, "burstable"},
    {"/kubepods/guaranteed/pod" UID, NULL, NULL, NULL, NULL, NULL},
};

static void assert_span(const char *path, const struct identity_span *s, const char *want)
{
	char got[IDENTITY_VALUE_MAX + 1];

	if (!want) {
		ASSERT_EQ(s->len, 0);
		return;
	}
	ASSERT_TRUE(s->len > 0);
	identity_value(path, s, got);
	ASSERT_STREQ(got, want);
}

static void assert_text(const char *got, const char *want)
{
	if (!want)
		ASSERT_TRUE(got == NULL);
	else
		ASSERT_STREQ(got, want);
}

TEST(real_path_shapes)
{
	for (size_t i = 0; i < ELEMENTSOF(wants); i++) {
		const struct want *w = &wants[i];
		struct identity id;

		fprintf(stderr, "  %s\n", w->path);
		identity_parse(w->path, &id);
		assert_span(w->path, &id.unit, w->unit);
		assert_text(id.runtime, w->runtime);
		assert_span(w->path, &id.container_id, w->container_id);
		assert_span(w->path, &id.pod_uid, w->pod_uid);
		assert_text(id.qos_class, w->qos_class);
	}
}

/* Doubled slashes as a path might carry them name the same cgroup. */
TEST(repeated_slashes_are_one)
{
	struct identity id;

	identity_parse("//system.slice//docker-" ID ".scope", &id);
	assert_text(id.runtime, "docker");
	assert_span("//system.slice//docker-" ID ".scope", &id.container_id, ID);
}
