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
#include "daemon/selection.h"
#include "daemon/service.h"
#include "daemon/systemd.h"
#include "exporter/http.h"
#include "exporter/listen.h"
#include "exporter/tls.h"

struct service {
	const struct cli *cli;
	struct log_target *log;
	pthread_mutex_t config_lock; /* collections read cfg from HTTP threads */
	struct config *cfg;
	struct collection collection; /* under config_lock */
	struct scrape *scrape;
	struct http_server *http;
	int *sd_fds; /* from socket activation, owned here; MHD gets duplicates */
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

static int add_address(struct service *s, struct http_server *h, const struct listen_address *a)
{
	_cleanup_free_ char *name = NULL;
	_cleanup_free_ int *fds = NULL;
	size_t n = 0;
	int r;

	(void)listen_address_format(a, &name);
	r = listen_open(a, &fds, &n);
	for (size_t i = 0; i < n; i++) {
		int q = http_server_add_socket(h, fds[i]);

		if (q < 0 && r >= 0)
			r = q;
	}
	if (r == -EINVAL)
		log_error(s->log, "cannot serve on %s: libmicrohttpd refused to start",
			  name ? name : "?");
	else if (r < 0)
		log_error_errno(s->log, r, "cannot serve on %s", name ? name : "?");
	return r;
}

/* HTTP daemons for c's addresses (or systemd's sockets) and TLS settings. */
static int http_start(struct service *s, const struct config *c, struct http_server **ret)
{
	const struct http_options o = {
	    .web = c->web,
	    .threads = HTTP_THREADS_DEFAULT,
	    .connection_limit = HTTP_CONNECTION_LIMIT_DEFAULT,
	    .memory_limit = HTTP_MEMORY_LIMIT_DEFAULT,
	    .timeout_sec = HTTP_TIMEOUT_SEC_DEFAULT,
	    .log = mhd_log,
	    .log_userdata = s->log,
	};
	struct http_server *h;
	int r;

	r = http_server_new(s->scrape, CGACCT_VERSION, &o, &h);
	if (r < 0)
		return r;
	for (size_t i = 0; r >= 0 && i < s->n_sd_fds; i++) {
		int fd = fcntl(s->sd_fds[i], F_DUPFD_CLOEXEC, 3);

		r = fd < 0 ? -errno : http_server_add_socket(h, fd);
		if (r < 0)
			log_error_errno(s->log, r, "cannot serve on socket-activated fd %d",
					s->sd_fds[i]);
	}
	for (size_t i = 0; r >= 0 && s->n_sd_fds == 0 && i < c->n_listen; i++)
		r = add_address(s, h, &c->listen[i]);
	if (r < 0) {
		http_server_free(h);
		return r;
	}
	*ret = h;
	return 0;
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

static bool listen_equal(const struct config *a, const struct config *b)
{
	if (a->n_listen != b->n_listen)
		return false;
	for (size_t i = 0; i < a->n_listen; i++)
		if (!listen_address_equal(&a->listen[i], &b->listen[i]))
			return false;
	return true;
}

/*
 * Puts the HTTP side on next's settings: 0 when it did, 1 when it could not
 * and s->http serves s->cfg again, -errno when nothing serves any more.
 */
static int http_switch(struct service *s, const struct config *next)
{
	int r;

	if ((s->n_sd_fds > 0 || listen_equal(s->cfg, next)) &&
	    tls_same_setup(s->cfg->web, next->web)) {
		http_server_set_web_config(s->http, next->web);
		return 0;
	}
	/* The old daemons hold the addresses, so they go first. */
	http_server_free(s->http);
	s->http = NULL;
	if (http_start(s, next, &s->http) >= 0)
		return 0;
	log_error(s->log, "reload: cannot serve the new configuration, restoring the old one");
	r = http_start(s, s->cfg, &s->http);
	return r < 0 ? r : 1;
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
	if (r != 0) {
		config_free(next);
		if (r < 0)
			return r;
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
	r = http_start(&s, cfg, &s.http);
	if (r < 0)
		goto out_free_scrape;

	log_info(log, "serving /metrics%s", s.n_sd_fds ? " on socket-activated sockets" : "");
	notify_serving(&s);
	r = loop(&s, sigfd);
	systemd_notify("STOPPING=1");

	http_server_free(s.http);
out_free_scrape:
	scrape_free(s.scrape);
out_free_collection:
	collection_done(&s.collection);
	for (size_t i = 0; i < s.n_sd_fds; i++)
		close(s.sd_fds[i]);
	free(s.sd_fds);
out_free_config:
	config_free(s.cfg);
	pthread_mutex_destroy(&s.config_lock);
	return r;
}
