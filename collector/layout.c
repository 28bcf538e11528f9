/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Parses mountinfo (proc(5)): "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS
 * [OPTIONAL...] - FSTYPE SOURCE SUPEROPTS". For cgroup v1 the controllers
 * are among the super options; named hierarchies without any controller we
 * read (name=systemd) carry no accounting and are skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "collector/layout.h"
#include "collector/parse.h"

/* Mount points escape blanks, newline and backslash as \ooo octal. */
static char *unescape_octal(struct span s)
{
	char *out = malloc(s.len + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < s.len; i++) {
		if (s.ptr[i] == '\\' && i + 3 < s.len && s.ptr[i + 1] >= '0' &&
		    s.ptr[i + 1] <= '3' && s.ptr[i + 2] >= '0' && s.ptr[i + 2] <= '7' &&
		    s.ptr[i + 3] >= '0' && s.ptr[i + 3] <= '7') {
			*o++ = (char)((s.ptr[i + 1] - '0') * 64 + (s.ptr[i + 2] - '0') * 8 +
				      (s.ptr[i + 3] - '0'));
			i += 3;
			continue;
		}
		*o++ = s.ptr[i];
	}
	*o = '\0';
	return out;
}

/* A hierarchy's name, its controllers' v1 names joined by commas, always fits a label value. */
#define V1_NAME_SIZE(id, name, alias, v1) +sizeof(v1)
static_assert(0 CGACCT_CONTROLLERS(V1_NAME_SIZE) <= LABEL_MAX, "v1 hierarchy names fit LABEL_MAX");
#undef V1_NAME_SIZE

/* The controller whose v1 name opt is, or -1 for none cgacct reads. */
static int v1_controller(struct span opt)
{
	for (size_t i = 0; i < _CONTROLLER_MAX; i++)
		if (controller_info[i].v1[0] && span_eq(opt, controller_info[i].v1))
			return (int)i;
	return -1;
}

/*
 * The controllers cgacct reads among a v1 hierarchy's mount options, and
 * its name: theirs joined in the order the kernel lists them, which is the
 * name /proc/<pid>/cgroup gives the hierarchy ("cpu,cpuacct").
 */
static unsigned v1_controller_mask(struct span superopts, char name[LABEL_MAX])
{
	struct span opt, rest = superopts;
	unsigned mask = 0;

	name[0] = '\0';
	while (rest.len > 0) {
		int i;

		if (!span_split(rest, ',', &opt, &rest)) {
			opt = rest;
			rest.len = 0;
		}
		i = v1_controller(opt);
		if (i < 0 || (mask & CONTROLLER_BIT(i)))
			continue;
		mask |= CONTROLLER_BIT(i);
		if (name[0])
			strcat(name, ",");
		strcat(name, controller_info[i].v1);
	}
	return mask;
}

/* Fields of one mountinfo line that matter here. */
struct mount_line {
	struct span devnum, root, mount_point, fstype, superopts;
};

static int split_mount_line(struct span line, struct mount_line *ret)
{
	struct span w, skip;

	/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS */
	if (!span_next_word(&line, &skip) || !span_next_word(&line, &skip) ||
	    !span_next_word(&line, &ret->devnum) || !span_next_word(&line, &ret->root) ||
	    !span_next_word(&line, &ret->mount_point) || !span_next_word(&line, &skip))
		return -EBADMSG;
	/* optional fields end at a lone "-" */
	do {
		if (!span_next_word(&line, &w))
			return -EBADMSG;
	} while (!span_eq(w, "-"));
	if (!span_next_word(&line, &ret->fstype) || !span_next_word(&line, &skip) ||
	    !span_next_word(&line, &ret->superopts))
		return -EBADMSG;
	return 0;
}

static int layout_append(struct layout *l, const struct hierarchy *h)
{
	struct hierarchy *bigger = realloc(l->hierarchies, (l->n + 1) * sizeof(*bigger));

	if (!bigger)
		return -ENOMEM;
	l->hierarchies = bigger;
	l->hierarchies[l->n++] = *h;
	return 0;
}

/*
 * One hierarchy can be mounted several times (bind mounts, containers);
 * it is the same superblock, so keep one mount per device, preferring one
 * that shows the hierarchy root so paths are relative to the real root.
 */
static int layout_add(struct layout *l, struct hierarchy *h)
{
	for (size_t i = 0; i < l->n; i++) {
		struct hierarchy *o = &l->hierarchies[i];

		if (o->dev_major != h->dev_major || o->dev_minor != h->dev_minor)
			continue;
		if (h->whole && !o->whole) {
			free(o->path);
			*o = *h;
		} else
			free(h->path);
		h->path = NULL;
		return 0;
	}
	return layout_append(l, h);
}

static int hierarchy_from_line(const struct mount_line *m, const char *root_prefix,
			       struct hierarchy *ret)
{
	_cleanup_free_ char *mp = NULL;
	struct hierarchy h = {0};

	if (span_eq(m->fstype, "cgroup2")) {
		h.unified = true;
		strcpy(h.name, "unified");
	} else if (span_eq(m->fstype, "cgroup")) {
		h.controllers = v1_controller_mask(m->superopts, h.name);
		if (!h.controllers)
			return 0;
	} else
		return 0;

	if (parse_devnum(m->devnum, &h.dev_major, &h.dev_minor) < 0)
		return -EBADMSG;
	h.whole = span_eq(m->root, "/");
	mp = unescape_octal(m->mount_point);
	if (!mp)
		return -ENOMEM;
	if (asprintf(&h.path, "%s%s", root_prefix ? root_prefix : "", mp) < 0)
		return -ENOMEM;
	*ret = h;
	return 1;
}

int layout_parse_mountinfo(const char *buf, size_t len, const char *root_prefix, struct layout *ret)
{
	struct span rest = span_make(buf, len), line;
	struct layout l = {0}, sorted = {0};
	int r = 0;

	while (span_next_line(&rest, &line)) {
		struct mount_line m;
		struct hierarchy h;

		r = split_mount_line(line, &m);
		if (r < 0)
			goto fail;
		r = hierarchy_from_line(&m, root_prefix, &h);
		if (r < 0)
			goto fail;
		if (r > 0) {
			r = layout_add(&l, &h);
			if (r < 0) {
				free(h.path);
				goto fail;
			}
		}
	}

	/* v1 first: on duplicate samples the snapshot keeps the first hierarchy's */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < l.n; i++)
			if (l.hierarchies[i].unified == (pass == 1)) {
				r = layout_append(&sorted, &l.hierarchies[i]);
				if (r < 0)
					goto fail;
			}
	free(l.hierarchies);
	*ret = sorted;
	return 0;

fail:
	free(sorted.hierarchies);
	layout_done(&l);
	return r;
}

const char *layout_kind(const struct layout *l)
{
	bool v1 = false, v2 = false;

	for (size_t i = 0; i < l->n; i++) {
		if (l->hierarchies[i].unified)
			v2 = true;
		else
			v1 = true;
	}
	return v1 && v2 ? "hybrid" : v2 ? "v2" : v1 ? "v1" : "none";
}

void layout_done(struct layout *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->hierarchies[i].path);
	free(l->hierarchies);
	*l = (struct layout){0};
}
