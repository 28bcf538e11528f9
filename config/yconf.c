/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * YAML documents to config values, strictly. libyaml's document loader
 * builds the node graph (with 0-based marks, reported 1-based); everything
 * here checks types and names before a value is accepted, and reports the
 * first problem with the position of the node it is about.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/fileio.h"
#include "base/strv.h"
#include "base/util.h"
#include "config/pathglob.h"
#include "config/values.h"
#include "config/yconf.h"

static int error_at(struct yconf *y, size_t line, size_t column, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

static int error_at(struct yconf *y, size_t line, size_t column, const char *fmt, va_list ap)
{
	struct config_error *e = y->err;
	int n;

	if (!e)
		return -EINVAL;
	e->line = (unsigned)line + 1;
	e->column = (unsigned)column + 1;
	n = snprintf(e->message, sizeof(e->message), "%s:%u:%u: ", y->name, e->line, e->column);
	if (n >= 0 && (size_t)n < sizeof(e->message))
		vsnprintf(e->message + n, sizeof(e->message) - (size_t)n, fmt, ap);
	return -EINVAL;
}

static int error_at_mark(struct yconf *y, size_t line, size_t column, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int error_at_mark(struct yconf *y, size_t line, size_t column, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = error_at(y, line, column, fmt, ap);
	va_end(ap);
	return r;
}

int yconf_error(struct yconf *y, const yaml_node_t *node, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = error_at(y, node->start_mark.line, node->start_mark.column, fmt, ap);
	va_end(ap);
	return r;
}

static const char *quote(const char *s, char *buf, size_t size)
{
	size_t o = 0;

	buf[o++] = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		/* Cut only before a UTF-8 lead byte, leaving room for its continuation. */
		if (o > size - 16 && (c & 0xc0) != 0x80) {
			memcpy(buf + o, "\"...", 5);
			return buf;
		}
		if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return buf;
}

const char *yconf_quote(const char *s, char buf[static YCONF_QUOTE_MAX])
{
	return quote(s, buf, YCONF_QUOTE_MAX);
}

const char *yconf_quote_path(const char *path, char buf[static YCONF_QUOTE_PATH_MAX])
{
	return quote(path, buf, YCONF_QUOTE_PATH_MAX);
}

static bool node_is_null(const yaml_node_t *node)
{
	return node->type == YAML_SCALAR_NODE &&
	       node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       value_is_null((const char *)node->data.scalar.value);
}

/* What a node is, for "expected X, got Y". */
static const char *describe(const yaml_node_t *node, char buf[static YCONF_QUOTE_MAX])
{
	if (node->type == YAML_MAPPING_NODE)
		return "a mapping";
	if (node->type == YAML_SEQUENCE_NODE)
		return "a list";
	if (node_is_null(node))
		return "an empty value";
	return yconf_quote((const char *)node->data.scalar.value, buf);
}

static int parser_error(struct yconf *y, const yaml_parser_t *p, const char *buf, size_t len)
{
	size_t line = 0, column = 0;

	if (p->error == YAML_MEMORY_ERROR) {
		if (y->err) {
			y->err->line = y->err->column = 0;
			snprintf(y->err->message, sizeof(y->err->message), "%s: out of memory",
				 y->name);
		}
		return -ENOMEM;
	}
	if (p->error == YAML_READER_ERROR) {
		/* Reader errors (bad encoding) carry a byte offset, not a mark. */
		for (size_t i = 0; i < p->problem_offset && i < len; i++) {
			if (buf[i] == '\n') {
				line++;
				column = 0;
			} else
				column++;
		}
		return error_at_mark(y, line, column, "%s", p->problem ? p->problem : "bad input");
	}
	if (p->context)
		return error_at_mark(y, p->problem_mark.line, p->problem_mark.column,
				     "%s (%s at %zu:%zu)", p->problem ? p->problem : "syntax error",
				     p->context, p->context_mark.line + 1,
				     p->context_mark.column + 1);
	return error_at_mark(y, p->problem_mark.line, p->problem_mark.column, "%s",
			     p->problem ? p->problem : "syntax error");
}

/* A second document in the stream is an error, not silently ignored. */
static int check_single_document(struct yconf *y, yaml_parser_t *p, const char *buf, size_t len)
{
	yaml_document_t extra;
	yaml_node_t *root;
	int r = 0;

	if (!yaml_parser_load(p, &extra))
		return parser_error(y, p, buf, len);
	root = yaml_document_get_root_node(&extra);
	if (root)
		r = yconf_error(y, root, "more than one YAML document");
	yaml_document_delete(&extra);
	return r;
}

/*
 * Refuses collections nested deeper than YCONF_DEPTH_MAX, looking at the
 * events only up to the first one too deep: building the document of
 * thousands of nested "[" takes libyaml time that grows with the square of
 * the depth, and its composer recurses once per level. A syntax error is
 * left to the load, which says it the same way.
 */
static int check_depth(struct yconf *y, const char *buf, size_t len)
{
	yaml_parser_t parser;
	unsigned depth = 0;
	int r = 0;

	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	for (bool end = false; !end && r == 0;) {
		yaml_event_t event;

		if (!yaml_parser_parse(&parser, &event))
			break;
		switch (event.type) {
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (++depth > YCONF_DEPTH_MAX)
				r = error_at_mark(y, event.start_mark.line, event.start_mark.column,
						  "nested deeper than %d levels", YCONF_DEPTH_MAX);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		case YAML_STREAM_END_EVENT:
			end = true;
			break;
		default:
			break;
		}
		yaml_event_delete(&event);
	}
	yaml_parser_delete(&parser);
	return r;
}

int yconf_load(struct yconf *y, const char *name, const char *buf, size_t len, const char *what,
	       struct config_error *err, yaml_node_t **ret_root)
{
	yaml_parser_t parser;
	yaml_node_t *root;
	char q[YCONF_QUOTE_MAX];
	int r;

	y->name = name;
	y->err = err;
	r = check_depth(y, buf, len);
	if (r < 0)
		return r;
	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	if (!yaml_parser_load(&parser, &y->doc)) {
		r = parser_error(y, &parser, buf, len);
		goto out;
	}
	y->have_doc = true;
	root = yaml_document_get_root_node(&y->doc);
	if (!root || node_is_null(root)) {
		r = error_at_mark(y, 0, 0, "empty %s", what);
		goto out;
	}
	r = check_single_document(y, &parser, buf, len);
	if (r < 0)
		goto out;
	if (root->type != YAML_MAPPING_NODE) {
		r = yconf_error(y, root, "expected a mapping of keys at the top level, got %s",
				describe(root, q));
		goto out;
	}
	*ret_root = root;
out:
	yaml_parser_delete(&parser);
	return r;
}

int yconf_load_keys(const char *name, const char *buf, size_t len, const char *what,
		    const struct yconf_key *keys, size_t n_keys, void *target,
		    struct config_error *err)
{
	_cleanup_(yconf_done) struct yconf y = {0};
	yaml_node_t *root;
	int r;

	r = yconf_load(&y, name, buf, len, what, err, &root);
	if (r < 0)
		return r;
	return yconf_mapping(&y, root, "", keys, n_keys, target);
}

int yconf_read_file(const char *path, char **ret, size_t *ret_len, struct config_error *err)
{
	int r = read_regular_file(path, ret, ret_len);

	if (r < 0 && err) {
		err->line = err->column = 0;
		snprintf(err->message, sizeof(err->message), "%s: %s", path,
			 r == -ERR_NOT_REGULAR ? "not a regular file" : strerror(-r));
	}
	return r;
}

int yconf_resolve_path(struct yconf *y, char **path)
{
	const char *slash = strrchr(y->name, '/');
	char *joined;

	if (!*path || (*path)[0] == '/' || !slash)
		return 0;
	if (asprintf(&joined, "%.*s/%s", (int)(slash - y->name), y->name, *path) < 0)
		return -ENOMEM;
	free(*path);
	*path = joined;
	return 0;
}

void yconf_done(struct yconf *y)
{
	if (y->have_doc)
		yaml_document_delete(&y->doc);
	y->have_doc = false;
}

static int scalar_string(struct yconf *y, const char *key, const yaml_node_t *node,
			 const char **ret)
{
	const char *s = (const char *)node->data.scalar.value;

	/* A "\0" escape would silently cut the value short in C. */
	if (strlen(s) != node->data.scalar.length)
		return yconf_error(y, node, "%s: contains a NUL character", key);
	*ret = s;
	return 0;
}

int yconf_scalar(struct yconf *y, const char *key, yaml_node_t *node, const char *expected,
		 bool plain_only, const char **ret)
{
	char q[YCONF_QUOTE_MAX];

	if (node->type != YAML_SCALAR_NODE)
		return yconf_error(y, node, "%s: expected %s, got %s", key, expected,
				   describe(node, q));
	if (plain_only && node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return yconf_error(y, node, "%s: expected %s, got the quoted string %s", key,
				   expected, describe(node, q));
	return scalar_string(y, key, node, ret);
}

int yconf_pairs(struct yconf *y, const char *key, yaml_node_t *node,
		int (*item)(struct yconf *y, const char *key, const char *name,
			    yaml_node_t *name_node, yaml_node_t *value, void *userdata),
		void *userdata)
{
	yaml_node_pair_t *start, *top;
	char q[YCONF_QUOTE_MAX];

	if (node_is_null(node))
		return 0;
	if (node->type != YAML_MAPPING_NODE)
		return yconf_error(y, node, "%s: expected a mapping, got %s", key,
				   describe(node, q));
	start = node->data.mapping.pairs.start;
	top = node->data.mapping.pairs.top;
	for (yaml_node_pair_t *p = start; p < top; p++) {
		yaml_node_t *k = yaml_document_get_node(&y->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(&y->doc, p->value);
		const char *name = NULL;
		int r;

		if (k->type != YAML_SCALAR_NODE)
			return yconf_error(y, k, "%s: keys must be strings, got %s",
					   *key ? key : "top level", describe(k, q));
		r = scalar_string(y, *key ? key : "top level", k, &name);
		if (r < 0)
			return r;
		for (yaml_node_pair_t *e = start; e < p; e++) {
			yaml_node_t *earlier = yaml_document_get_node(&y->doc, e->key);

			if (earlier->type == YAML_SCALAR_NODE &&
			    strcmp((const char *)earlier->data.scalar.value, name) == 0)
				return yconf_error(y, k, "%s%sduplicate key %s", key,
						   *key ? ": " : "", yconf_quote(name, q));
		}
		r = item(y, key, name, k, v, userdata);
		if (r < 0)
			return r;
	}
	return 0;
}

struct mapping_walk {
	const struct yconf_key *keys;
	size_t n_keys;
	void *base;
};

static int mapping_item(struct yconf *y, const char *prefix, const char *name,
			yaml_node_t *name_node, yaml_node_t *value, void *userdata)
{
	const struct mapping_walk *m = userdata;
	char path[128], q[YCONF_QUOTE_MAX];

	snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? "." : "", name);
	for (size_t i = 0; i < m->n_keys; i++)
		if (strcmp(m->keys[i].name, name) == 0)
			return m->keys[i].parse(y, path, value,
						(char *)m->base + m->keys[i].offset);
	return yconf_error(y, name_node, "unknown key %s", yconf_quote(path, q));
}

int yconf_mapping(struct yconf *y, yaml_node_t *node, const char *prefix,
		  const struct yconf_key *keys, size_t n_keys, void *base)
{
	struct mapping_walk m = {keys, n_keys, base};

	return yconf_pairs(y, prefix, node, mapping_item, &m);
}

int yconf_sequence(struct yconf *y, const char *key, yaml_node_t *node,
		   int (*item)(struct yconf *y, const char *key, yaml_node_t *item, void *userdata),
		   void *userdata)
{
	char q[YCONF_QUOTE_MAX];

	if (node_is_null(node))
		return 0;
	if (node->type != YAML_SEQUENCE_NODE)
		return yconf_error(y, node, "%s: expected a list, got %s", key, describe(node, q));
	for (yaml_node_item_t *i = node->data.sequence.items.start;
	     i < node->data.sequence.items.top; i++) {
		int r = item(y, key, yaml_document_get_node(&y->doc, *i), userdata);

		if (r < 0)
			return r;
	}
	return 0;
}

int yconf_enum(struct yconf *y, const char *key, yaml_node_t *node, const struct yconf_name *names,
	       size_t n_names, int *ret)
{
	char choices[256] = "", q[YCONF_QUOTE_MAX];
	const char *s;
	size_t len = 0;
	int r;

	r = yconf_scalar(y, key, node, "a name", false, &s);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n_names; i++)
		if (strcmp(names[i].name, s) == 0) {
			*ret = names[i].value;
			return 0;
		}
	for (size_t i = 0; i < n_names && len < sizeof(choices); i++)
		len += (size_t)snprintf(choices + len, sizeof(choices) - len, "%s%s", i ? ", " : "",
					names[i].name);
	return yconf_error(y, node, "%s: expected one of %s; got %s", key, choices,
			   describe(node, q));
}

struct strv_build {
	const char *what;
	const char *(*check)(const char *s);
	char **v;
	size_t n;
};

static int strv_item(struct yconf *y, const char *key, yaml_node_t *node, void *userdata)
{
	struct strv_build *b = userdata;
	const char *s, *why;
	char **grown, q[YCONF_QUOTE_MAX];
	int r;

	r = yconf_scalar(y, key, node, "a string", false, &s);
	if (r < 0)
		return r;
	why = b->check ? b->check(s) : NULL;
	if (why)
		return yconf_error(y, node, "%s: invalid %s %s: %s", key, b->what,
				   yconf_quote(s, q), why);
	grown = realloc(b->v, (b->n + 2) * sizeof(char *));
	if (!grown)
		return -ENOMEM;
	b->v = grown;
	b->v[b->n] = strdup(s);
	if (!b->v[b->n])
		return -ENOMEM;
	b->v[++b->n] = NULL;
	return 0;
}

int yconf_strv(struct yconf *y, const char *key, yaml_node_t *node, const char *what,
	       const char *(*check)(const char *s), char ***ret)
{
	struct strv_build b = {.what = what, .check = check, .v = calloc(1, sizeof(char *))};
	int r;

	if (!b.v)
		return -ENOMEM;
	r = yconf_sequence(y, key, node, strv_item, &b);
	if (r < 0) {
		strv_free(b.v);
		return r;
	}
	*ret = b.v;
	return 0;
}

/* A scalar type: how to read it, and what to call it in a message. */
struct scalar_type {
	const char *expected;
	bool plain_only; /* numbers and booleans: a quoted "5" is a string */
	int (*to_field)(const char *s, void *field);
};

/* The values.h parsers, each taking the field as a struct yconf_key hands it over. */
static int scalar_to_u64(const char *s, void *field)
{
	return value_parse_u64(s, field);
}

static int scalar_to_uint(const char *s, void *field)
{
	uint64_t v;
	int r = value_parse_u64(s, &v);

	if (r < 0)
		return r;
	if (v > UINT_MAX)
		return -ERANGE;
	*(unsigned *)field = (unsigned)v;
	return 0;
}

static int scalar_to_bool(const char *s, void *field)
{
	return value_parse_bool(s, field);
}

static int scalar_to_duration(const char *s, void *field)
{
	return value_parse_duration(s, field);
}

static int parse_scalar_type(struct yconf *y, const char *key, yaml_node_t *node,
			     const struct scalar_type *t, void *field)
{
	char q[YCONF_QUOTE_MAX];
	const char *s;
	int r;

	r = yconf_scalar(y, key, node, t->expected, t->plain_only, &s);
	if (r < 0)
		return r;
	r = t->to_field(s, field);
	if (r == -ERANGE)
		return yconf_error(y, node, "%s: %s is out of range", key, yconf_quote(s, q));
	if (r < 0)
		return yconf_error(y, node, "%s: expected %s, got %s", key, t->expected,
				   describe(node, q));
	return 0;
}

int yconf_parse_bool(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	static const struct scalar_type t = {"true or false", true, scalar_to_bool};

	return parse_scalar_type(y, key, value, &t, field);
}

int yconf_parse_u64(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	static const struct scalar_type t = {"a non-negative integer", true, scalar_to_u64};

	return parse_scalar_type(y, key, value, &t, field);
}

int yconf_parse_uint(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	static const struct scalar_type t = {"a non-negative integer", true, scalar_to_uint};

	return parse_scalar_type(y, key, value, &t, field);
}

int yconf_parse_duration(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	static const struct scalar_type t = {"a duration such as 500ms, 15s or 1m30s", false,
					     scalar_to_duration};

	return parse_scalar_type(y, key, value, &t, field);
}

int yconf_parse_string(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	char **s = field, *copy = NULL;
	const char *v;
	int r;

	r = yconf_scalar(y, key, value, "a string", false, &v);
	if (r < 0)
		return r;
	if (!node_is_null(value) && *v) {
		copy = strdup(v);
		if (!copy)
			return -ENOMEM;
	}
	free(*s);
	*s = copy;
	return 0;
}

int yconf_parse_checked_strv(struct yconf *y, const char *key, yaml_node_t *value, void *field,
			     const char *what, const char *(*check)(const char *s))
{
	char ***v = field, **list;
	int r;

	r = yconf_strv(y, key, value, what, check, &list);
	if (r < 0)
		return r;
	strv_free(*v);
	*v = list;
	return 0;
}

int yconf_parse_paths(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	return yconf_parse_checked_strv(y, key, value, field, "path", value_check_path);
}

int yconf_parse_globs(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	return yconf_parse_checked_strv(y, key, value, field, "glob", pathglob_check);
}
