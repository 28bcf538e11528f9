/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The program's log: one line per message on stderr, with a syslog
 * priority prefix ("<3>", sd-daemon(3)) when stderr is the journal, so
 * journalctl -p works, and "cgacctd: " otherwise. Only the program layer
 * (main.c, service.c) logs; libraries return -errno and say nothing.
 */
#pragma once

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <syslog.h>

struct log_target {
	atomic_int max_level; /* LOG_ERR..LOG_DEBUG; may change on reload */
	bool journal;	      /* stderr is connected to the journal */
};

void log_init(struct log_target *t, int max_level, bool journal);
void log_fullv(struct log_target *t, int level, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
void log_full(struct log_target *t, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * The same with ": " and the text of error (a negative errno) appended;
 * returns error, so that a failure is logged and passed on in one statement.
 */
int log_full_errno(struct log_target *t, int level, int error, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#define log_error(t, ...)   log_full(t, LOG_ERR, __VA_ARGS__)
#define log_warning(t, ...) log_full(t, LOG_WARNING, __VA_ARGS__)
#define log_notice(t, ...)  log_full(t, LOG_NOTICE, __VA_ARGS__)
#define log_info(t, ...)    log_full(t, LOG_INFO, __VA_ARGS__)
#define log_debug(t, ...)   log_full(t, LOG_DEBUG, __VA_ARGS__)

#define log_error_errno(t, e, ...)   log_full_errno(t, LOG_ERR, e, __VA_ARGS__)
#define log_warning_errno(t, e, ...) log_full_errno(t, LOG_WARNING, e, __VA_ARGS__)
