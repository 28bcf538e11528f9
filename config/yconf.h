/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The YAML layer shared by cgacctd.yml and web-config.yml: load a document
 * with libyaml, then walk it with key tables and typed readers that reject
 * anything unexpected with "FILE:LINE:COL: KEY: what" in a config_error.
 * Only fixed-depth structures are walked, so YAML aliases (which may form
 * cycles) can never make a walk recurse.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

#include "config/error.h"

struct yconf {
	yaml_document_t doc;
	bool have_doc;
	const char *name;	  /* the file name in messages */
	struct config_error *err; /* may be NULL */
};

/*
 * How deep collections may nest: cgacctd.yml and web-config need three
 * levels; the bound keeps a hostile file from taking libyaml minutes.
 */
#define YCONF_DEPTH_MAX 32

/*
 * Parses buf as one YAML document whose top level is a mapping, returned in
 * *ret_root. An empty document is an error: "empty <what>"; so is one
 * nested deeper than YCONF_DEPTH_MAX.
 */
int yconf_load(struct yconf *y, const char *name, const char *buf, size_t len, const char *what,
	       struct config_error *err, yaml_node_t **ret_root);
void yconf_done(struct yconf *y);

struct yconf_key;

/* yconf_load(), then the top-level mapping's keys into target (yconf_mapping()). */
int yconf_load_keys(const char *name, const char *buf, size_t len, const char *what,
		    const struct yconf_key *keys, size_t n_keys, void *target,
		    struct config_error *err);

/* Makes a relative *path relative to the directory of the file being read. */
int yconf_resolve_path(struct yconf *y, char **path);

/*
 * Reads a whole regular file (not a FIFO, whose read would wait for a
 * writer); on failure the error is "PATH: strerror" or "PATH: not a regular
 * file".
 */
int yconf_read_file(const char *path, char **ret, size_t *ret_len, struct config_error *err);

/* Fills y->err with "NAME:LINE:COL: " and the message; returns -EINVAL. */
int yconf_error(struct yconf *y, const yaml_node_t *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A printable, quoted copy of a user's string for messages, cut short if long. */
#define YCONF_QUOTE_MAX 64
const char *yconf_quote(const char *s, char buf[static YCONF_QUOTE_MAX]);

/* The same for a file path, shown whole: a cut path does not say which file. */
#define YCONF_QUOTE_PATH_MAX (PATH_MAX + 16)
const char *yconf_quote_path(const char *path, char buf[static YCONF_QUOTE_PATH_MAX]);

/* A key's reader: field points into the struct being filled, at the key's offset. */
struct yconf_key {
	const char *name;
	int (*parse)(struct yconf *y, const char *key, yaml_node_t *value, void *field);
	size_t offset;
};

/*
 * Walks a mapping: each key must be a string listed in keys and appear once.
 * prefix ("" at the top) names nested keys in messages: "prefix.key".
 */
int yconf_mapping(struct yconf *y, yaml_node_t *node, const char *prefix,
		  const struct yconf_key *keys, size_t n_keys, void *base);

/* Calls item() on each entry of a mapping whose keys are free-form strings. */
int yconf_pairs(struct yconf *y, const char *key, yaml_node_t *node,
		int (*item)(struct yconf *y, const char *key, const char *name,
			    yaml_node_t *name_node, yaml_node_t *value, void *userdata),
		void *userdata);

/* Calls item() on each entry of a list; a null value is an empty list. */
int yconf_sequence(struct yconf *y, const char *key, yaml_node_t *node,
		   int (*item)(struct yconf *y, const char *key, yaml_node_t *item, void *userdata),
		   void *userdata);

/*
 * The string of a scalar node. Numbers and booleans (plain_only) must be
 * written unquoted. `expected` says what was wanted, for the message.
 */
int yconf_scalar(struct yconf *y, const char *key, yaml_node_t *node, const char *expected,
		 bool plain_only, const char **ret);

struct yconf_name {
	const char *name;
	int value;
};

int yconf_enum(struct yconf *y, const char *key, yaml_node_t *node, const struct yconf_name *names,
	       size_t n_names, int *ret);

/*
 * A list of strings, each accepted by check() (which returns NULL or why
 * not); always allocated, NULL-terminated. `what` names an item: "glob".
 */
int yconf_strv(struct yconf *y, const char *key, yaml_node_t *node, const char *what,
	       const char *(*check)(const char *s), char ***ret);

/* Readers for yconf_key.parse, by the type of the field. */
int yconf_parse_bool(struct yconf *y, const char *key, yaml_node_t *value, void *field);
int yconf_parse_u64(struct yconf *y, const char *key, yaml_node_t *value, void *field);
int yconf_parse_uint(struct yconf *y, const char *key, yaml_node_t *value, void *field);
int yconf_parse_duration(struct yconf *y, const char *key, yaml_node_t *value, void *field);
/* char *: NULL for an empty or null value. */
int yconf_parse_string(struct yconf *y, const char *key, yaml_node_t *value, void *field);
/* char **: lists of absolute paths and of path globs. */
int yconf_parse_paths(struct yconf *y, const char *key, yaml_node_t *value, void *field);
int yconf_parse_globs(struct yconf *y, const char *key, yaml_node_t *value, void *field);
/* char **: a list of strings each accepted by check(); `what` names one in messages. */
int yconf_parse_checked_strv(struct yconf *y, const char *key, yaml_node_t *value, void *field,
			     const char *what, const char *(*check)(const char *s));
