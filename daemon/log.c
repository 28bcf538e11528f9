/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Each message is formatted into one buffer and written with one write(2),
 * so lines from HTTP threads and the main thread never interleave.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/log.h"

/* The journal's own line limit is larger; a log line longer than this is a bug anyway. */
#define LOG_LINE_MAX 2048

void log_init(struct log_target *t, int max_level, bool journal)
{
	atomic_init(&t->max_level, max_level);
	t->journal = journal;
}

void log_fullv(struct log_target *t, int level, const char *fmt, va_list ap)
{
	char line[LOG_LINE_MAX];
	int n;

	if (level > atomic_load(&t->max_level))
		return;
	if (t->journal)
		n = snprintf(line, sizeof(line), "<%d>", level);
	else
		n = snprintf(line, sizeof(line), "cgacctd: ");
	n += vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	if (n >= (int)sizeof(line))
		n = (int)sizeof(line) - 1;
	/* MHD's messages end in a newline of their own */
	while (n > 0 && line[n - 1] == '\n')
		n--;
	line[n++] = '\n';
	/* Nothing sensible is left to do if stderr is gone. */
	(void)!write(STDERR_FILENO, line, (size_t)n);
}

void log_full(struct log_target *t, int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_fullv(t, level, fmt, ap);
	va_end(ap);
}

int log_full_errno(struct log_target *t, int level, int error, const char *fmt, ...)
{
	char message[LOG_LINE_MAX];
	va_list ap;

	assert(error < 0);
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	log_full(t, level, "%s: %s", message, strerror(-error));
	return error;
}
