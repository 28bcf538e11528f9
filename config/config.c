/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cgacctd.yml: the embedded default, the key table, and the few keys whose
 * values need more than a typed reader (listen, controllers, names). The
 * annotated config/cgacctd.yml must load to exactly config_default(); a
 * unit test holds the two together.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <syslog.h>

#include "base/strv.h"
#include "base/util.h"
#include "config/config.h"
#include "config/pathglob.h"
#include "config/values.h"
#include "config/yconf.h"

static const struct yconf_name naming_names[] = {
    {"native", CONFIG_NAMING_NATIVE},
    {"cadvisor", CONFIG_NAMING_CADVISOR},
};

static const struct yconf_name log_level_names[] = {
    {"error", LOG_ERR}, {"warning", LOG_WARNING}, {"notice", LOG_NOTICE},
    {"info", LOG_INFO}, {"debug", LOG_DEBUG},
};

static char **strv_new(const char *only)
{
	char **v = calloc(2, sizeof(char *));

	if (v && only && !(v[0] = strdup(only)))
		v = strv_free(v);
	return v;
}

struct config *config_default(void)
{
	_cleanup_(config_freep) struct config *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->listen = calloc(1, sizeof(*c->listen));
	c->cgroup_roots = strv_new(NULL);
	c->include = strv_new("/**");
	c->exclude = strv_new(NULL);
	c->container_runtime_sockets = strv_new(NULL);
	c->bpf_pins = strdup(CONFIG_BPF_PINS_DEFAULT);
	if (!c->listen || !c->cgroup_roots || !c->include || !c->exclude ||
	    !c->container_runtime_sockets || !c->bpf_pins)
		return NULL;
	c->listen[0] = (struct listen_address){.port = CONFIG_PORT_DEFAULT, .family = AF_UNSPEC};
	c->n_listen = 1;
	c->controllers = CONTROLLERS_ALL;
	c->keep_open_files = CONFIG_KEEP_OPEN_FILES_DEFAULT;
	c->naming = CONFIG_NAMING_NATIVE;
	c->gzip_level = CONFIG_GZIP_LEVEL_DEFAULT;
	c->container_runtime_timeout_usec = CONFIG_RUNTIME_TIMEOUT_USEC_DEFAULT;
	c->log_level = LOG_INFO;
	return TAKE_PTR(c);
}

static void listen_free(struct listen_address *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		listen_address_done(&l[i]);
	free(l);
}

void config_free(struct config *c)
{
	if (!c)
		return;
	listen_free(c->listen, c->n_listen);
	strv_free(c->cgroup_roots);
	strv_free(c->include);
	strv_free(c->exclude);
	strv_free(c->container_runtime_sockets);
	free(c->bpf_pins);
	free(c->web_config_file);
	web_config_free(c->web);
	free(c);
}

/* Both NULL, or the same string. */
static bool streq_null(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

bool config_equal(const struct config *a, const struct config *b)
{
	if (a->n_listen != b->n_listen)
		return false;
	for (size_t i = 0; i < a->n_listen; i++)
		if (!listen_address_equal(&a->listen[i], &b->listen[i]))
			return false;
	if (!streq_null(a->web_config_file, b->web_config_file) ||
	    !streq_null(a->bpf_pins, b->bpf_pins))
		return false;
	return strv_equal(a->cgroup_roots, b->cgroup_roots) && strv_equal(a->include, b->include) &&
	       strv_equal(a->exclude, b->exclude) && a->max_depth == b->max_depth &&
	       a->controllers == b->controllers && a->per_cpu == b->per_cpu &&
	       a->min_interval_usec == b->min_interval_usec && a->max_series == b->max_series &&
	       a->keep_open_files == b->keep_open_files && a->naming == b->naming &&
	       a->gzip_level == b->gzip_level &&
	       strv_equal(a->container_runtime_sockets, b->container_runtime_sockets) &&
	       a->container_runtime_timeout_usec == b->container_runtime_timeout_usec &&
	       a->log_level == b->log_level;
}

bool config_cgroup_selected(const struct config *c, const char *path)
{
	return pathglob_match_any(c->include, path) && !pathglob_match_any(c->exclude, path);
}

/* Addresses being collected: they replace the config's only once all parsed. */
struct listen_build {
	struct listen_address *v;
	size_t n;
};

static int listen_append(struct listen_build *b, const char *s, const char **ret_why)
{
	struct listen_address *grown = realloc(b->v, (b->n + 1) * sizeof(*b->v));
	int r;

	if (!grown)
		return -ENOMEM;
	b->v = grown;
	r = listen_address_parse(s, &b->v[b->n], ret_why);
	if (r == 0)
		b->n++;
	return r;
}

/* Takes the collected addresses into c, or drops them if there are none or r < 0. */
static int listen_finish(struct config *c, struct listen_build *b, int r)
{
	if (r < 0 || b->n == 0) {
		listen_free(b->v, b->n);
		return r;
	}
	listen_free(c->listen, c->n_listen);
	c->listen = b->v;
	c->n_listen = b->n;
	return 0;
}

static int listen_item(struct yconf *y, const char *key, yaml_node_t *node, void *userdata)
{
	const char *s, *why;
	char q[64];
	int r;

	r = yconf_scalar(y, key, node, "an address", false, &s);
	if (r < 0)
		return r;
	r = listen_append(userdata, s, &why);
	if (r == -EINVAL)
		return yconf_error(y, node, "%s: invalid address %s: %s", key, yconf_quote(s, q),
				   why);
	return r;
}

static int parse_listen(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	struct listen_build b = {0};
	int r;

	r = yconf_sequence(y, key, value, listen_item, &b);
	if (r == 0 && b.n == 0)
		r = yconf_error(y, value, "%s: needs at least one address", key);
	return listen_finish(field, &b, r);
}

int config_override_listen(struct config *c, char *const *addresses, struct config_error *reterr)
{
	struct listen_build b = {0};
	const char *why;
	char q[64];
	int r = 0;

	for (char *const *a = addresses; a && *a && r == 0; a++) {
		r = listen_append(&b, *a, &why);
		if (r == -EINVAL && reterr) {
			reterr->line = reterr->column = 0;
			snprintf(reterr->message, sizeof(reterr->message),
				 "--listen: invalid address %s: %s", yconf_quote(*a, q), why);
		}
	}
	return listen_finish(c, &b, r);
}

/*
 * `controllers:` as it is read: the names it accepts, each controller's
 * name and alias from its row (model/controllers.h) and "all", and those
 * listed so far. A name stands for its controller, its alias for the same
 * one (blkio's io, as v2 calls it) and may be listed beside it.
 */
#define ALL_CONTROLLERS (2 * _CONTROLLER_MAX)
static_assert(ALL_CONTROLLERS < 64, "every name has a bit in controller_list.listed");

struct controller_list {
	struct yconf_name names[2 * _CONTROLLER_MAX + 1]; /* value: index into names[] */
	size_t n_names;
	uint64_t listed; /* bit i: names[i] was listed */
};

static void controller_list_init(struct controller_list *l)
{
	*l = (struct controller_list){0};
	for (int i = 0; i < _CONTROLLER_MAX; i++) {
		l->names[l->n_names++] = (struct yconf_name){controller_info[i].name, i};
		if (controller_info[i].alias)
			l->names[l->n_names++] =
			    (struct yconf_name){controller_info[i].alias, _CONTROLLER_MAX + i};
	}
	l->names[l->n_names++] = (struct yconf_name){"all", ALL_CONTROLLERS};
}

static int controller_item(struct yconf *y, const char *key, yaml_node_t *node, void *userdata)
{
	struct controller_list *l = userdata;
	uint64_t all = UINT64_C(1) << ALL_CONTROLLERS;
	int value, r;

	r = yconf_enum(y, key, node, l->names, l->n_names, &value);
	if (r < 0)
		return r;
	/* "all" alone or names alone: [all, cpu] says two different things. */
	if (l->listed & (UINT64_C(1) << value) || (l->listed && value == ALL_CONTROLLERS) ||
	    (l->listed & all))
		return yconf_error(y, node, "%s: \"%s\" repeats or overlaps an earlier entry", key,
				   (const char *)node->data.scalar.value);
	l->listed |= UINT64_C(1) << value;
	return 0;
}

static int parse_controllers(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	struct controller_list l;
	unsigned *controllers = field;
	int r;

	controller_list_init(&l);
	r = yconf_sequence(y, key, value, controller_item, &l);
	if (r < 0)
		return r;
	if (l.listed == 0)
		return yconf_error(y, value, "%s: needs at least one controller, or [all]", key);
	if (l.listed & UINT64_C(1) << ALL_CONTROLLERS) {
		*controllers = CONTROLLERS_ALL;
		return 0;
	}
	/* names and aliases to one bit per controller */
	*controllers = (unsigned)(l.listed | l.listed >> _CONTROLLER_MAX) & CONTROLLERS_ALL;
	return 0;
}

static int parse_naming(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	int v, r = yconf_enum(y, key, value, naming_names, ELEMENTSOF(naming_names), &v);

	if (r == 0)
		*(enum config_naming *)field = (enum config_naming)v;
	return r;
}

static int parse_gzip_level(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	unsigned level;
	int r = yconf_parse_uint(y, key, value, &level);

	if (r < 0)
		return r;
	if (level > CONFIG_GZIP_LEVEL_MAX)
		return yconf_error(y, value, "%s: %u is out of range: 0 (no compression) to %u",
				   key, level, CONFIG_GZIP_LEVEL_MAX);
	*(unsigned *)field = level;
	return 0;
}

static int parse_log_level(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	return yconf_enum(y, key, value, log_level_names, ELEMENTSOF(log_level_names), field);
}

/* An absolute path that fits a unix socket address (sockaddr_un's 108 bytes). */
static const char *check_socket_path(const char *s)
{
	struct sockaddr_un sa;

	return strlen(s) >= sizeof(sa.sun_path) ? "too long for a unix socket address"
						: value_check_path(s);
}

static int parse_sockets(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	return yconf_parse_checked_strv(y, key, value, field, "socket path", check_socket_path);
}

static int parse_runtime_timeout(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	uint64_t usec;
	int r = yconf_parse_duration(y, key, value, &usec);

	if (r < 0)
		return r;
	if (usec == 0)
		return yconf_error(y, value, "%s: must be longer than 0", key);
	*(uint64_t *)field = usec;
	return 0;
}

/* Relative to the config file's directory, as exporter-toolkit does for its files. */
static int parse_web_config_file(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	int r = yconf_parse_string(y, key, value, field);

	return r < 0 ? r : yconf_resolve_path(y, field);
}

#define FIELD(name) offsetof(struct config, name)

static const struct yconf_key config_keys[] = {
    {"listen", parse_listen, 0}, /* the whole struct: listen and n_listen */
    {"cgroup_roots", yconf_parse_paths, FIELD(cgroup_roots)},
    {"include", yconf_parse_globs, FIELD(include)},
    {"exclude", yconf_parse_globs, FIELD(exclude)},
    {"max_depth", yconf_parse_uint, FIELD(max_depth)},
    {"controllers", parse_controllers, FIELD(controllers)},
    {"per_cpu", yconf_parse_bool, FIELD(per_cpu)},
    {"min_interval", yconf_parse_duration, FIELD(min_interval_usec)},
    {"max_series", yconf_parse_u64, FIELD(max_series)},
    {"keep_open_files", yconf_parse_u64, FIELD(keep_open_files)},
    {"naming", parse_naming, FIELD(naming)},
    {"gzip_level", parse_gzip_level, FIELD(gzip_level)},
    {"container_runtime_sockets", parse_sockets, FIELD(container_runtime_sockets)},
    {"container_runtime_timeout", parse_runtime_timeout, FIELD(container_runtime_timeout_usec)},
    {"bpf_pins", yconf_parse_string, FIELD(bpf_pins)},
    {"web_config_file", parse_web_config_file, FIELD(web_config_file)},
    {"log_level", parse_log_level, FIELD(log_level)},
};

int config_load_buffer(const char *name, const char *buf, size_t len, struct config **ret,
		       struct config_error *reterr)
{
	_cleanup_(config_freep) struct config *c = config_default();
	int r;

	if (!c)
		return -ENOMEM;
	r = yconf_load_keys(name, buf, len, "configuration", config_keys, ELEMENTSOF(config_keys),
			    c, reterr);
	if (r < 0)
		return r;
	/* Loaded here so --check-config and reload also vouch for TLS files and users. */
	if (c->web_config_file) {
		r = web_config_load_file(c->web_config_file, &c->web, reterr);
		if (r < 0)
			return r;
	}
	*ret = TAKE_PTR(c);
	return 0;
}

int config_load_file(const char *path, struct config **ret, struct config_error *reterr)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r = yconf_read_file(path, &buf, &len, reterr);

	return r < 0 ? r : config_load_buffer(path, buf, len, ret, reterr);
}
