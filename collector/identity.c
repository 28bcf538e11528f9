/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The conventions, by who names the cgroup:
 *
 *   systemd               any component ending in a unit type's suffix;
 *                         the innermost is the unit
 *   Docker                docker-<id>.scope (systemd driver), /docker/<id>
 *                         (cgroupfs driver)
 *   podman                libpod-<id>.scope (systemd manager, rootful or
 *                         below user@UID.service), /libpod_parent/libpod-<id>
 *                         (cgroupfs manager); libpod-conmon-<id>.scope is
 *                         conmon's, not the container's
 *   containerd (CRI)      cri-containerd-<id>.scope
 *   CRI-O                 crio-<id>.scope, crio-<id> (cgroupfs);
 *                         crio-conmon-<id>.scope is conmon's
 *   LXC                   lxc.payload.<name> (LXC 4 and later), /lxc/<name>
 *   systemd-machined      machine.slice/machine-<name>.scope,
 *                         machine.slice/systemd-nspawn@<name>.service
 *   Kubernetes, systemd   /kubepods.slice[/kubepods-<qos>.slice]
 *     cgroup driver       /kubepods[-<qos>]-pod<uid, '_' for '-'>.slice
 *                         /<container scope, as above>
 *   Kubernetes, cgroupfs  /kubepods[/<qos>]/pod<uid>/<id> or crio-<id>
 *     cgroup driver
 *
 * where <id> is a runtime's 64-digit hexadecimal container ID. A pod
 * without a QoS level in its path is Guaranteed. Only the cgroup named so
 * is the container: cgroups below it (a runtime's own sub-cgroups) keep the
 * unit and the pod but are not the container a second time.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "collector/identity.h"

/* A string literal with its length, so that matching a path takes no strlen(). */
struct lit {
	const char *s;
	size_t len;
};

#define LIT(text)                                                                                  \
	{                                                                                          \
		text, sizeof(text) - 1                                                             \
	}

/* One path component, [s, s + len), and where it is. */
struct component {
	const char *s;
	size_t len;
	unsigned depth; /* 1 for the first below the root */
};

static bool has_prefix(const struct component *c, struct lit prefix)
{
	return c->len >= prefix.len && memcmp(c->s, prefix.s, prefix.len) == 0;
}

static bool has_suffix(const struct component *c, struct lit suffix)
{
	return c->len >= suffix.len &&
	       memcmp(c->s + c->len - suffix.len, suffix.s, suffix.len) == 0;
}

static bool is(const struct component *c, struct lit name)
{
	return c && c->len == name.len && memcmp(c->s, name.s, name.len) == 0;
}

static bool hex_digits(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* A container ID as runtimes make them: 64 lowercase hexadecimal digits. */
static bool container_id_shape(const char *s, size_t len)
{
	return len == 64 && hex_digits(s, len);
}

/* A pod UID, 8-4-4-4-12 hexadecimal digits, with sep between the groups. */
static bool pod_uid_shape(const char *s, size_t len, char sep)
{
	static const size_t groups[] = {8, 4, 4, 4, 12};
	size_t at = 0;

	if (len != 36)
		return false;
	for (size_t g = 0; g < 5; g++) {
		if (g > 0 && s[at++] != sep)
			return false;
		if (!hex_digits(s + at, groups[g]))
			return false;
		at += groups[g];
	}
	return true;
}

/*
 * A machine name as systemd-machined accepts it, before unit-name escaping;
 * a path component never holds the '/' it also refuses.
 */
static bool machine_name_shape(size_t len)
{
	return len > 0 && len <= 64;
}

enum value_shape { SHAPE_CONTAINER_ID, SHAPE_MACHINE_NAME };

struct container_rule {
	struct lit prefix, suffix;
	struct lit parent; /* the parent component, at depth 1; empty: any parent */
	enum value_shape shape;
	const char *runtime; /* NULL: the path does not tell */
};

static const struct container_rule container_rules[] = {
    {LIT("docker-"), LIT(".scope"), LIT(""), SHAPE_CONTAINER_ID, "docker"},
    {LIT(""), LIT(""), LIT("docker"), SHAPE_CONTAINER_ID, "docker"},
    {LIT("libpod-"), LIT(".scope"), LIT(""), SHAPE_CONTAINER_ID, "podman"},
    {LIT("libpod-"), LIT(""), LIT("libpod_parent"), SHAPE_CONTAINER_ID, "podman"},
    {LIT("cri-containerd-"), LIT(".scope"), LIT(""), SHAPE_CONTAINER_ID, "containerd"},
    {LIT("crio-"), LIT(".scope"), LIT(""), SHAPE_CONTAINER_ID, "cri-o"},
    {LIT("lxc.payload."), LIT(""), LIT(""), SHAPE_MACHINE_NAME, "lxc"},
    {LIT(""), LIT(""), LIT("lxc"), SHAPE_MACHINE_NAME, "lxc"},
    {LIT("machine-"), LIT(".scope"), LIT("machine.slice"), SHAPE_MACHINE_NAME, "systemd-machined"},
    {LIT("systemd-nspawn@"), LIT(".service"), LIT("machine.slice"), SHAPE_MACHINE_NAME,
     "systemd-nspawn"},
};

/* Kubernetes' containers, the children of a pod's cgroup: by scope, or the cgroupfs driver's. */
static const struct container_rule pod_container_rules[] = {
    {LIT(""), LIT(""), LIT(""), SHAPE_CONTAINER_ID, NULL},
    {LIT("crio-"), LIT(""), LIT(""), SHAPE_CONTAINER_ID, "cri-o"},
};

static const struct lit unit_suffixes[] = {LIT(".service"), LIT(".scope"), LIT(".slice"),
					   LIT(".socket"),  LIT(".mount"), LIT(".swap")};

static struct identity_span span(const char *path, const char *s, size_t len,
				 enum identity_spelling spelling)
{
	return (struct identity_span){
	    .off = (uint16_t)(s - path), .len = (uint16_t)len, .spelling = (uint8_t)spelling};
}

/* Whether c is rule's container; sets the ID and runtime in *id. */
static bool match_container(const char *path, const struct container_rule *rule,
			    const struct component *c, const struct component *parent,
			    struct identity *id)
{
	size_t pre = rule->prefix.len, suf = rule->suffix.len;
	const char *v = c->s + pre;
	size_t len;

	if (c->len <= pre + suf || !has_prefix(c, rule->prefix) || !has_suffix(c, rule->suffix))
		return false;
	if (rule->parent.len > 0 && (!is(parent, rule->parent) || parent->depth != 1))
		return false;
	len = c->len - pre - suf;
	if (rule->shape == SHAPE_CONTAINER_ID ? !container_id_shape(v, len)
					      : !machine_name_shape(len))
		return false;
	id->container_id = span(path, v, len,
				rule->shape == SHAPE_MACHINE_NAME && suf > 0 ? IDENTITY_UNIT_ESCAPED
									     : IDENTITY_AS_IS);
	id->runtime = rule->runtime;
	return true;
}

static void match_container_rules(const char *path, const struct container_rule *rules, size_t n,
				  const struct component *c, const struct component *parent,
				  struct identity *id)
{
	for (size_t i = 0; i < n; i++)
		if (match_container(path, &rules[i], c, parent, id))
			return;
}

/* Kubernetes' part of the path, component by component. */
struct kube {
	enum { KUBE_NONE, KUBE_SYSTEMD, KUBE_CGROUPFS } driver;
	unsigned pod_depth; /* 0 until the pod's component */
};

static const struct lit qos_classes[] = {LIT("burstable"), LIT("besteffort")};

/* The QoS level's own cgroup, at depth 2: "kubepods-burstable.slice" or "burstable". */
static const char *kube_qos_level(const struct kube *k, const struct component *c)
{
	for (size_t i = 0; i < ELEMENTSOF(qos_classes); i++) {
		struct lit q = qos_classes[i];

		if (k->driver == KUBE_CGROUPFS && is(c, q))
			return q.s;
		if (k->driver == KUBE_SYSTEMD && c->len == 9 + q.len + 6 &&
		    has_prefix(c, (struct lit)LIT("kubepods-")) &&
		    memcmp(c->s + 9, q.s, q.len) == 0 && has_suffix(c, (struct lit)LIT(".slice")))
			return q.s;
	}
	return NULL;
}

/* The pod's cgroup: "kubepods[-<qos>]-pod<uid>.slice" or "pod<uid>"; sets its UID. */
static bool kube_pod(const char *path, const struct kube *k, const struct component *c,
		     const char *qos, struct identity *id)
{
	bool systemd = k->driver == KUBE_SYSTEMD;
	struct lit suffix = systemd ? (struct lit)LIT(".slice") : (struct lit)LIT("");
	char sep = systemd ? '_' : '-', text[32];
	struct lit prefix = {text, 0};

	if (systemd)
		prefix.len = (size_t)snprintf(text, sizeof(text), "kubepods-%s%spod",
					      qos ? qos : "", qos ? "-" : "");
	else
		prefix = (struct lit)LIT("pod");
	if (c->len != prefix.len + 36 + suffix.len || !has_prefix(c, prefix) ||
	    !has_suffix(c, suffix) || !pod_uid_shape(c->s + prefix.len, 36, sep))
		return false;
	id->pod_uid = span(path, c->s + prefix.len, 36,
			   sep == '_' ? IDENTITY_POD_UID_UNDERSCORED : IDENTITY_AS_IS);
	id->qos_class = qos ? qos : "guaranteed";
	return true;
}

/* Steps Kubernetes' state over component c (not the root's). */
static void kube_step(const char *path, struct kube *k, const struct component *c,
		      const struct component *parent, bool last, struct identity *id)
{
	if (c->depth == 1) {
		k->driver = is(c, (struct lit)LIT("kubepods.slice")) ? KUBE_SYSTEMD
			    : is(c, (struct lit)LIT("kubepods"))     ? KUBE_CGROUPFS
								     : KUBE_NONE;
		return;
	}
	if (k->driver == KUBE_NONE)
		return;
	if (k->pod_depth == 0) {
		const char *qos = c->depth == 3 ? kube_qos_level(k, parent) : NULL;

		if (c->depth == 2 && kube_qos_level(k, c))
			return;
		if ((c->depth == 2 || qos) && kube_pod(path, k, c, qos, id))
			k->pod_depth = c->depth;
		else
			k->driver = KUBE_NONE;
		return;
	}
	if (last && c->depth == k->pod_depth + 1) {
		if (k->driver == KUBE_SYSTEMD)
			match_container_rules(path, container_rules, ELEMENTSOF(container_rules), c,
					      parent, id);
		else
			match_container_rules(path, pod_container_rules,
					      ELEMENTSOF(pod_container_rules), c, parent, id);
	}
}

/* Whether c ends in a unit type's suffix after a name: most components have no '.' at all. */
static bool unit_name(const struct component *c)
{
	const char *dot = memrchr(c->s, '.', c->len);

	if (!dot || dot == c->s)
		return false;
	for (size_t i = 0; i < ELEMENTSOF(unit_suffixes); i++)
		if ((size_t)(c->s + c->len - dot) == unit_suffixes[i].len &&
		    has_suffix(c, unit_suffixes[i]))
			return true;
	return false;
}

void identity_parse(const char *path, struct identity *ret)
{
	struct component c = {0}, parent = {0};
	struct kube k = {0};
	const char *p = path;

	*ret = (struct identity){0};
	if (strlen(path) > UINT16_MAX)
		return;
	while (*p == '/')
		p++;
	while (*p) {
		bool last;

		parent = c;
		c = (struct component){.s = p, .len = strcspn(p, "/"), .depth = parent.depth + 1};
		p += c.len;
		while (*p == '/')
			p++;
		last = *p == '\0';
		if (unit_name(&c))
			ret->unit = span(path, c.s, c.len, IDENTITY_AS_IS);
		kube_step(path, &k, &c, c.depth > 1 ? &parent : NULL, last, ret);
		if (last && k.driver == KUBE_NONE)
			match_container_rules(path, container_rules, ELEMENTSOF(container_rules),
					      &c, c.depth > 1 ? &parent : NULL, ret);
	}
}
