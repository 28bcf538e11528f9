/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The main loop. Signals arrive through a signalfd: they are blocked
 * before any HTTP thread starts, so those threads inherit the mask and the
 * main thread alone handles them, outside any signal handler.
 *
 * Reload parses the new configuration first and changes nothing if that
 * fails. What a running server can take over (collection settings, users,
 * headers) is swapped in; new listen addresses or TLS settings need new
 * MHD daemons, which replace the old ones, and if they fail to start the
 * old configuration's are started again. With socket activation the
 * sockets are systemd's and configured addresses are ignored.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/util.h"
#include "daemon/collection.h"
#include "daemon/privileges.h"
#include "daemon/selection.h"
#include "daemon/service.h"
#include "daemon/systemd.h"
#include "exporter/http.h"
#include "exporter/listen.h"
#include "exporter/tls.h"

/* The sockets of one configured address, kept while a reload keeps the address. */
struct binding {
	struct listen_address address;
	int *fds; /* the HTTP server's once handed to it */
	size_t n;
};

struct service {
	const struct cli *cli;
	struct log_target *log;
	pthread_mutex_t config_lock; /* collections read cfg from HTTP threads */
	struct config *cfg;
	struct collection collection; /* under config_lock */
	struct scrape *scrape;
	struct http_server *http;
	struct binding *bindings; /* the configured addresses and their sockets */
	size_t n_bindings;
	int *sd_fds;  /* from socket activation, owned here */
	int *sd_dups; /* their duplicates, the server's */
	size_t n_sd_fds;
};

/* The scrape callback: one collection with the current configuration. */
static int collect(void *userdata, struct snapshot *ret)
{
	struct service *s = userdata;
	int r;

	pthread_mutex_lock(&s->config_lock);
	r = collection_run(&s->collection, s->cfg, NULL, NULL, ret);
	pthread_mutex_unlock(&s->config_lock);
	return r;
}

/*
 * Puts the runtime client on c's sockets and timeout, keeping the running
 * one (and the names it knows) when they are the same.
 */
static void containers_configure(struct service *s, const struct config *c)
{
	struct containers *next, *old;

	if (s->collection.containers &&
	    containers_same(s->collection.containers, c->container_runtime_sockets,
			    c->container_runtime_timeout_usec))
		return;
	collection_containers_new(&s->collection, c, &next);
	pthread_mutex_lock(&s->config_lock);
	old = s->collection.containers;
	s->collection.containers = next;
	pthread_mutex_unlock(&s->config_lock);
	containers_free(old);
}

static void mhd_log(void *userdata, const char *fmt, va_list ap)
{
	log_fullv(userdata, LOG_WARNING, fmt, ap);
}

static void configure_scrape(struct service *s, const struct config *c)
{
	const struct scrape_settings settings = selection_scrape_settings(c);

	scrape_configure(s->scrape, &settings);
}

static void bindings_free(struct binding *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		listen_address_done(&v[i].address);
		free(v[i].fds);
	}
	free(v);
}

static int address_copy(const struct listen_address *a, struct listen_address *ret)
{
	*ret = *a;
	ret->host = NULL;
	if (a->host && !(ret->host = strdup(a->host)))
		return -ENOMEM;
	return 0;
}

/* Frees bindings v that were not served, closing the sockets no running binding has. */
static void close_new_sockets(struct service *s, struct binding *v, size_t n)
{
	for (size_t i = 0; i < n && v; i++) {
		bool running = false;

		for (size_t k = 0; k < s->n_bindings && !running; k++)
			running = listen_address_equal(&s->bindings[k].address, &v[i].address);
		for (size_t f = 0; f < v[i].n && !running; f++)
			close(v[i].fds[f]);
	}
	bindings_free(v, n);
}

/*
 * The sockets for c's addresses: those of the running bindings where an
 * address stays (its socket cannot be bound twice, and keeping it refuses
 * no connection), new ones for the others. On failure the new sockets are
 * closed and the running ones left as they are.
 */
static int bind_addresses(struct service *s, const struct config *c, struct binding **ret,
			  size_t *ret_n)
{
	struct binding *v = calloc(c->n_listen ? c->n_listen : 1, sizeof(*v));
	size_t n = 0;
	int r = v ? 0 : -ENOMEM;

	for (size_t i = 0; r >= 0 && i < c->n_listen; i++, n++) {
		const struct binding *kept = NULL;

		for (size_t k = 0; k < s->n_bindings && !kept; k++)
			if (listen_address_equal(&s->bindings[k].address, &c->listen[i]))
				kept = &s->bindings[k];
		r = address_copy(&c->listen[i], &v[i].address);
		if (r >= 0 && kept) {
			v[i].fds = malloc((kept->n ? kept->n : 1) * sizeof(int));
			if (!v[i].fds)
				r = -ENOMEM;
			else
				memcpy(v[i].fds, kept->fds, kept->n * sizeof(int));
			v[i].n = kept->n;
		} else if (r >= 0) {
			_cleanup_free_ char *name = NULL;

			r = listen_open(&c->listen[i], &v[i].fds, &v[i].n);
			(void)listen_address_format(&c->listen[i], &name);
			if (r < 0)
				log_error_errno(s->log, r, "cannot serve on %s", name ? name : "?");
		}
		v[i].n = v[i].fds ? v[i].n : 0;
	}
	if (r < 0) {
		close_new_sockets(s, v, n);
		return r;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

/*
 * Serves c's web-config on the bindings' sockets or, with socket
 * activation, duplicates of systemd's; the server closes the sockets of
 * the bindings they replace. On failure nothing changed and v is freed,
 * its new sockets closed.
 */
static int serve(struct service *s, const struct config *c, struct binding *v, size_t n)
{
	_cleanup_free_ int *fds = NULL;
	size_t total = 0;
	int r;

	for (size_t i = 0; i < n; i++)
		total += v[i].n;
	fds = malloc((total + s->n_sd_fds + 1) * sizeof(*fds));
	if (!fds) {
		close_new_sockets(s, v, n);
		return -ENOMEM;
	}
	total = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t f = 0; f < v[i].n; f++)
			fds[total++] = v[i].fds[f];
	r = http_server_serve(s->http, c->web, s->n_sd_fds ? s->sd_dups : fds,
			      s->n_sd_fds ? s->n_sd_fds : total);
	if (r < 0) {
		log_error(s->log, "cannot serve this configuration%s",
			  r == -EINVAL ? ": libmicrohttpd refused its TLS settings" : "");
		close_new_sockets(s, v, n);
		return r;
	}
	bindings_free(s->bindings, s->n_bindings);
	s->bindings = v;
	s->n_bindings = n;
	return 0;
}

/* The HTTP server for c's TLS settings, on c's addresses or systemd's sockets. */
static int http_start(struct service *s, const struct config *c)
{
	const struct http_options o = {
	    .web = NULL,
	    .threads = HTTP_THREADS_DEFAULT,
	    .connection_limit = HTTP_CONNECTION_LIMIT_DEFAULT,
	    .per_address_limit = HTTP_PER_ADDRESS_LIMIT_DEFAULT,
	    .memory_limit = HTTP_MEMORY_LIMIT_DEFAULT,
	    .timeout_sec = HTTP_TIMEOUT_SEC_DEFAULT,
	    .head_timeout_usec = HTTP_HEAD_TIMEOUT_USEC_DEFAULT,
	    .log = mhd_log,
	    .log_userdata = s->log,
	};
	struct binding *v = NULL;
	size_t n = 0;
	int r;

	r = http_server_new(s->scrape, CGACCT_VERSION, &o, &s->http);
	if (r == -EINVAL)
		log_error(s->log, "cannot serve: libmicrohttpd refused to start");
	if (r < 0)
		return r;
	if (s->n_sd_fds > 0) {
		/* duplicates: the originals stay for a restart's activation */
		s->sd_dups = calloc(s->n_sd_fds, sizeof(*s->sd_dups));
		if (!s->sd_dups)
			return -ENOMEM;
		for (size_t i = 0; i < s->n_sd_fds; i++)
			if ((s->sd_dups[i] = fcntl(s->sd_fds[i], F_DUPFD_CLOEXEC, 3)) < 0)
				return log_error_errno(s->log, -errno,
						       "cannot serve on socket-activated fd %d",
						       s->sd_fds[i]);
	} else {
		r = bind_addresses(s, c, &v, &n);
		if (r < 0)
			return r;
	}
	return serve(s, c, v, n);
}

static void notify_serving(struct service *s)
{
	_cleanup_free_ char *first = NULL;

	if (s->n_sd_fds > 0)
		systemd_notify("READY=1\nSTATUS=Serving on %zu socket-activated socket(s)",
			       s->n_sd_fds);
	else if (listen_address_format(&s->cfg->listen[0], &first) >= 0)
		systemd_notify("READY=1\nSTATUS=Serving on %s%s", first,
			       s->cfg->n_listen > 1 ? " and more" : "");
}

/*
 * Puts the HTTP side on next's settings: 0 when it did, an error when it
 * could not and changed nothing, so that the running configuration keeps
 * serving. The server keeps what stays (a kept address's socket, the TLS
 * daemons where their setup is the same) and lets what goes finish what it
 * serves: a reload drops no scrape.
 */
static int http_switch(struct service *s, const struct config *next)
{
	struct binding *v = NULL;
	size_t n = 0;
	int r;

	if (s->n_sd_fds == 0) {
		r = bind_addresses(s, next, &v, &n);
		if (r < 0)
			return r;
	}
	return serve(s, next, v, n);
}

static int reload(struct service *s)
{
	struct config_error err;
	struct config *next = NULL, *old;
	int r;

	systemd_notify("RELOADING=1\nSTATUS=Reloading the configuration");
	r = cli_load_config(s->cli, &next, &err);
	if (r < 0) {
		log_error(s->log, "reload failed, keeping the running configuration: %s",
			  err.message[0] ? err.message : strerror(-r));
		notify_serving(s);
		return 0;
	}
	r = http_switch(s, next);
	if (r < 0) {
		log_error(s->log, "reload failed, keeping the running configuration");
		config_free(next);
		notify_serving(s);
		return 0;
	}
	pthread_mutex_lock(&s->config_lock);
	old = s->cfg;
	s->cfg = next;
	pthread_mutex_unlock(&s->config_lock);
	configure_scrape(s, next);
	containers_configure(s, next);
	atomic_store(&s->log->max_level, next->log_level);
	config_free(old);
	log_info(s->log, "configuration reloaded from %s",
		 s->cli->config_file ? s->cli->config_file : "the built-in defaults");
	notify_serving(s);
	return 0;
}

/* Waits for signals, pinging the watchdog on time; returns on SIGTERM/SIGINT or failure. */
static int loop(struct service *s, int sigfd)
{
	uint64_t watchdog = systemd_watchdog_interval_usec(), next_ping = now_usec() + watchdog;

	for (;;) {
		struct pollfd p = {.fd = sigfd, .events = POLLIN};
		struct signalfd_siginfo si;
		int timeout = -1, r;

		if (watchdog) {
			uint64_t now = now_usec();

			if (now >= next_ping) {
				systemd_notify("WATCHDOG=1");
				next_ping = now + watchdog;
			}
			timeout = (int)((next_ping - now + 999) / 1000);
		}
		r = poll(&p, 1, timeout);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r <= 0)
			continue;
		if (read(sigfd, &si, sizeof(si)) != sizeof(si))
			continue;
		if (si.ssi_signo != SIGHUP) {
			log_info(s->log, "SIG%s received, stopping",
				 sigabbrev_np((int)si.ssi_signo));
			return 0;
		}
		r = reload(s);
		if (r < 0)
			return r;
	}
}

static int block_signals(sigset_t *ret)
{
	sigemptyset(ret);
	sigaddset(ret, SIGHUP);
	sigaddset(ret, SIGTERM);
	sigaddset(ret, SIGINT);
	/* MHD sends with MSG_NOSIGNAL on Linux; this covers every other write. */
	signal(SIGPIPE, SIG_IGN);
	return -pthread_sigmask(SIG_BLOCK, ret, NULL);
}

/* Signals blocked and read through *ret_sigfd; systemd's sockets, if it passed any. */
static int take_signals_and_sockets(struct service *s, int *ret_sigfd)
{
	_cleanup_close_ int sigfd = -1;
	sigset_t mask;
	int r;

	r = block_signals(&mask);
	if (r < 0)
		return r;
	sigfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sigfd < 0)
		return -errno;
	r = systemd_listen_fds(&s->sd_fds, &s->n_sd_fds);
	if (r < 0)
		return r;
	*ret_sigfd = TAKE_FD(sigfd);
	return 0;
}

int service_run(const struct cli *cli, struct config *cfg, struct log_target *log)
{
	struct service s = {.cli = cli, .log = log, .cfg = cfg};
	_cleanup_close_ int sigfd = -1;
	int r;

	pthread_mutex_init(&s.config_lock, NULL);
	r = take_signals_and_sockets(&s, &sigfd);
	if (r < 0) {
		log_error_errno(log, r, "cannot set up");
		goto out_free_config;
	}
	collection_init(&s.collection, cli, log);
	r = scrape_new(collect, &s, CGACCT_VERSION, &s.scrape);
	if (r < 0)
		goto out_free_collection;
	configure_scrape(&s, cfg);
	containers_configure(&s, cfg);
	r = http_start(&s, cfg);
	if (r < 0)
		goto out_free_http;

	log_info(log, "serving /metrics%s", s.n_sd_fds ? " on socket-activated sockets" : "");
	if (privileges_effective() != 0)
		log_warning(log,
			    "running with capabilities (%s): cgacctd needs none to read cgroup "
			    "files and serve them; run it as an unprivileged user, as the packaged "
			    "cgacctd.service does (User=cgacct, CapabilityBoundingSet=)",
			    geteuid() == 0 ? "as root" : "CapEff is not empty");
	notify_serving(&s);
	r = loop(&s, sigfd);
	systemd_notify("STOPPING=1");

out_free_http:
	http_server_free(s.http);
	bindings_free(s.bindings, s.n_bindings);
	scrape_free(s.scrape);
out_free_collection:
	collection_done(&s.collection);
	for (size_t i = 0; i < s.n_sd_fds; i++)
		close(s.sd_fds[i]);
	free(s.sd_fds);
	free(s.sd_dups);
out_free_config:
	config_free(s.cfg);
	pthread_mutex_destroy(&s.config_lock);
	return r;
}
