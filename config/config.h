/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cgacctd's configuration: the YAML file (see cgacctd.yml, the annotated
 * default, and cgacctd.yml(5)), the same values embedded for running with
 * no file, and the exporter-toolkit web-config it may point to. Loading is
 * all-or-nothing, so a reload can parse a new config and swap it in only
 * when it loaded.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/address.h"
#include "config/error.h"
#include "config/webconfig.h"
#include "model/controllers.h"

#define CONFIG_FILE_DEFAULT "/etc/cgacct/cgacctd.yml"

/*
 * Outside the 9100-9999 range Prometheus allocates to exporters (it is
 * full, and the exporter guide recommends an unlisted port outside it), below
 * Linux's ephemeral range (32768-60999) and absent from /etc/services.
 */
#define CONFIG_PORT_DEFAULT 19753
/* Files held open at most, each pinning kernel memory: see keep_open_files in cgacctd.yml(5). */
#define CONFIG_KEEP_OPEN_FILES_DEFAULT 10000

/*
 * gzip_level: 1, the cheapest, is what a Prometheus scraping every few
 * seconds should cost; 9 as gzip(1) -9; 0 never compresses.
 */
#define CONFIG_GZIP_LEVEL_DEFAULT 1
#define CONFIG_GZIP_LEVEL_MAX	  9

/*
 * container_runtime_timeout: a runtime's answer is some milliseconds; one
 * that takes seconds is stuck, and the names wait for its next answer.
 */
#define CONFIG_RUNTIME_TIMEOUT_USEC_DEFAULT (2 * 1000 * 1000)

/*
 * Where cgacctd.service binds the pins of the BPF bulk reader, which
 * cgacct-bpf.service makes in /sys/fs/bpf/cgacct.
 */
#define CONFIG_BPF_PINS_DEFAULT "/run/cgacct/bpf"

enum config_naming {
	CONFIG_NAMING_NATIVE,	/* cgroup_* families, cgroup="/path" */
	CONFIG_NAMING_CADVISOR, /* cAdvisor's container_* names and labels */
};

struct config {
	struct listen_address *listen; /* at least one */
	size_t n_listen;
	char **cgroup_roots;	    /* NULL-terminated; empty = every mounted hierarchy */
	char **include;		    /* NULL-terminated path globs (pathglob.h) */
	char **exclude;		    /* NULL-terminated path globs, win over include */
	unsigned max_depth;	    /* 0 = unlimited; 1 = the roots only */
	unsigned controllers;	    /* CONTROLLER_BIT()s (model/controllers.h) */
	bool per_cpu;		    /* per-CPU CPU time series */
	uint64_t min_interval_usec; /* scrapes closer than this get the last snapshot */
	uint64_t max_series;	    /* 0 = no cap */
	uint64_t keep_open_files;   /* cgroup files held open between collections */
	enum config_naming naming;
	unsigned gzip_level;		  /* for scrapes that accept gzip; 0: answer them plain */
	char **container_runtime_sockets; /* NULL-terminated; empty: ask no runtime */
	uint64_t container_runtime_timeout_usec;
	char *bpf_pins;		/* NULL: read files alone */
	char *web_config_file;	/* relative to the config file; NULL = plain HTTP */
	struct web_config *web; /* loaded from web_config_file, NULL without one */
	int log_level;		/* syslog priority, LOG_ERR..LOG_DEBUG */
};

struct config *config_default(void);
int config_load_file(const char *path, struct config **ret, struct config_error *reterr);
int config_load_buffer(const char *name, const char *buf, size_t len, struct config **ret,
		       struct config_error *reterr);
void config_free(struct config *c);
bool config_equal(const struct config *a, const struct config *b);

/*
 * Replaces the listen addresses with those given on the command line
 * (NULL-terminated; none leaves the config's). On -EINVAL the error says
 * "--listen: invalid address ..." and c is unchanged.
 */
int config_override_listen(struct config *c, char *const *addresses, struct config_error *reterr);

/* Whether a cgroup path ("/" = a hierarchy's root) matches include and no exclude. */
bool config_cgroup_selected(const struct config *c, const char *path);

static inline void config_freep(struct config **c)
{
	config_free(*c);
}
