/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Selection by configuration. A cgroup root in cgroup_roots is a mount
 * point (the whole hierarchy) or a directory below one (a subtree); max_depth
 * counts from the root that selected the cgroup.
 */
#include <string.h>

#include "daemon/selection.h"

static unsigned components(const char *path)
{
	unsigned n = 0;

	for (; *path; path++)
		n += *path == '/' && path[1] != '\0';
	return n;
}

/* Whether path is at or below dir ("/" is above everything). */
static bool path_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return true;
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/*
 * Whether a configured root covers this cgroup; *ret_depth is the cgroup's
 * depth below that root. Without roots the hierarchy's root covers all.
 */
static bool covered(const struct config *c, const char *mount, const char *path, unsigned depth,
		    unsigned *ret_depth)
{
	size_t mlen = strlen(mount);

	if (!c->cgroup_roots || !c->cgroup_roots[0]) {
		*ret_depth = depth;
		return true;
	}
	for (char *const *root = c->cgroup_roots; *root; root++) {
		const char *sub;

		if (strncmp(*root, mount, mlen) != 0 ||
		    ((*root)[mlen] != '\0' && (*root)[mlen] != '/'))
			continue;
		sub = (*root)[mlen] ? *root + mlen : "/";
		if (path_below(path, sub)) {
			*ret_depth = depth - components(sub);
			return true;
		}
	}
	return false;
}

static bool select_cgroup(void *userdata, const char *mount, const char *path, unsigned depth)
{
	const struct config *c = userdata;
	unsigned below_root;

	if (!covered(c, mount, path, depth, &below_root))
		return false;
	if (c->max_depth > 0 && below_root >= c->max_depth)
		return false;
	return config_cgroup_selected(c, path);
}

void selection_collect_options(const struct config *c, const struct cli *cli,
			       struct collect_options *o)
{
	*o = (struct collect_options){
	    .mountinfo = cli->mountinfo,
	    .root = cli->root,
	    .per_cpu = c->per_cpu,
	    .select = select_cgroup,
	    .select_userdata = (void *)(uintptr_t)c,
	    .roots = c->cgroup_roots,
	    .bpf_pins = c->bpf_pins,
	};
	o->skip_controllers = CONTROLLERS_ALL & ~c->controllers;
}

struct scrape_settings selection_scrape_settings(const struct config *c)
{
	return (struct scrape_settings){
	    .min_interval_usec = c->min_interval_usec,
	    .max_series = c->max_series,
	    .naming =
		c->naming == CONFIG_NAMING_CADVISOR ? RENDER_NAMING_CADVISOR : RENDER_NAMING_NATIVE,
	    .gzip_level = c->gzip_level,
	};
}
