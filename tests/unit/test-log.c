/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The program's log (daemon/log.c): one line per message on stderr, with a
 * syslog priority prefix for the journal and "cgacctd: " otherwise; levels
 * above the maximum are dropped, and the maximum may change; a message's
 * own newlines are not doubled, and a line too long is cut, still ending
 * in its one newline.
 */
#include <fcntl.h>
#include <unistd.h>

#include "base/fileio.h"
#include "daemon/log.h"
#include "test.h"

/* stderr goes to a file from capture_begin() until capture_end() returns what it got. */
static int saved_stderr = -1;
static char *capture_dir;

static void capture_begin(void)
{
	char *path;
	int fd;

	capture_dir = tmpdir_make();
	ASSERT_TRUE(asprintf(&path, "%s/stderr", capture_dir) >= 0);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	ASSERT_TRUE(fd >= 0);
	free(path);
	saved_stderr = dup(STDERR_FILENO);
	ASSERT_TRUE(saved_stderr >= 0);
	ASSERT_EQ(dup2(fd, STDERR_FILENO), STDERR_FILENO);
	close(fd);
}

static char *capture_end(void)
{
	char *text;
	size_t len;
	int fd = open(capture_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	ASSERT_EQ(dup2(saved_stderr, STDERR_FILENO), STDERR_FILENO);
	close(saved_stderr);
	ASSERT_EQ(read_file_at(fd, "stderr", &text, &len), 0);
	ASSERT_EQ(strlen(text), len);
	close(fd);
	tmpdir_remove(capture_dir);
	free(capture_dir);
	return text;
}

TEST(lines_carry_the_program_name_or_the_journals_priority)
{
	struct log_target console, journal;
	char *got;

	log_init(&console, LOG_INFO, false);
	log_init(&journal, LOG_DEBUG, true);
	capture_begin();
	log_error(&console, "cannot bind %s: %s", "[::1]:19753", "Address in use");
	log_notice(&console, "reloaded");
	log_warning(&journal, "collection failed: %d", -5);
	log_debug(&journal, "debug %u", 7u);
	got = capture_end();
	ASSERT_STREQ(got, "cgacctd: cannot bind [::1]:19753: Address in use\n"
			  "cgacctd: reloaded\n"
			  "<4>collection failed: -5\n"
			  "<7>debug 7\n");
	free(got);
}

/* Levels above the maximum say nothing; a reload may raise or lower it. */
TEST(levels_above_the_maximum_are_dropped)
{
	struct log_target t;
	char *got;

	log_init(&t, LOG_NOTICE, true);
	capture_begin();
	log_info(&t, "not shown");
	log_debug(&t, "not shown either");
	log_notice(&t, "shown");
	atomic_store(&t.max_level, LOG_DEBUG);
	log_debug(&t, "now shown");
	atomic_store(&t.max_level, LOG_ERR);
	log_warning(&t, "hidden again");
	log_error(&t, "always");
	got = capture_end();
	ASSERT_STREQ(got, "<5>shown\n<7>now shown\n<3>always\n");
	free(got);
}

/* MHD ends its messages in newlines: the line still ends in exactly one. */
TEST(a_message_ends_in_one_newline_and_long_ones_are_cut)
{
	struct log_target t;
	char long_message[3000], *got, *nl;

	log_init(&t, LOG_DEBUG, false);
	memset(long_message, 'm', sizeof(long_message) - 1);
	long_message[sizeof(long_message) - 1] = '\0';
	capture_begin();
	log_info(&t, "from MHD\n");
	log_info(&t, "twice\n\n");
	log_info(&t, "%s", "");
	log_info(&t, "%s", long_message);
	log_info(&t, "after");
	got = capture_end();
	ASSERT_EQ(strncmp(got, "cgacctd: from MHD\ncgacctd: twice\ncgacctd: \ncgacctd: mmm", 55),
		  0);
	nl = strchr(got + 43, '\n');
	ASSERT_TRUE(nl != NULL);
	/* 2048 bytes with the newline: "cgacctd: " and 2038 of the message */
	ASSERT_EQ(nl - (got + 43) + 1, 2048);
	ASSERT_STREQ(nl + 1, "cgacctd: after\n");
	free(got);
}
