/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest-side workloads for the demo tree (demo-tree.sh) and the in-guest
 * suites, built static so the busybox initramfs can run it:
 *
 *   workload spin                 busy loop on one CPU until killed
 *   workload spin-on CPU [--fifo] the same on CPU only; with --fifo as a
 *                                 SCHED_FIFO task, which starves the fair
 *                                 tasks of that CPU where RT throttling is off
 *   workload pagecache PATH       buffered reads of PATH over and over, so its
 *                                 page cache is charged to the memory cgroup
 *                                 and reclaimed at the limit (failures, no OOM)
 *   workload write PATH MIB       O_DIRECT writes of MIB MiB at the start of
 *                                 PATH (a block device); prints the bytes
 *   workload hugetlb N            maps N 2 MiB huge pages, touches each, holds;
 *                                 a page the hugetlb limit refuses (SIGBUS) is
 *                                 reported and skipped, not fatal
 *   workload hold                 sleeps until killed
 *   workload touch MIB            maps MIB MiB of anonymous memory, touches
 *                                 every page, unmaps, and again until killed:
 *                                 each round charges its memory cgroup anew
 *   workload churn [--move-task] DIR...
 *                                 creates and removes cgroups DIR/churn-N in
 *                                 every DIR, as fast as it can, until SIGTERM;
 *                                 then removes its cgroups. --move-task moves
 *                                 a task into each new one (so each is left
 *                                 before its removal)
 *   workload dump SRC DST         copies every readable file of the tree SRC
 *                                 to DST (one read() loop per file, no forks,
 *                                 so a dump of all hierarchies is quick), and
 *                                 writes each directory's inode number, the
 *                                 cgroup ID, to "@id" in its copy
 */
#define _GNU_SOURCE /* O_DIRECT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MIB	    (1024u * 1024u)
#define HUGE_PAGE   (2u * MIB)
#define CHURN_ALIVE 32 /* cgroups per DIR that exist at any time */

static int fail(const char *what, const char *arg)
{
	fprintf(stderr, "workload: %s %s: %s\n", what, arg, strerror(errno));
	return 1;
}

/* A decimal number in [min, max]: the whole string, no sign, no overflow. */
static int parse_count(const char *s, unsigned long min, unsigned long max, unsigned long *ret)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

static _Noreturn void spin(void)
{
	volatile uint64_t n = 0;

	for (;;)
		n++;
}

static int spin_on(const char *cpu, unsigned long n, bool fifo)
{
	const struct sched_param param = {.sched_priority = 50};
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((int)n, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return fail("cannot pin to CPU", cpu);
	if (fifo && sched_setscheduler(0, SCHED_FIFO, &param) < 0)
		return fail("cannot become SCHED_FIFO on CPU", cpu);
	spin();
}

static _Noreturn void hold(void)
{
	for (;;)
		pause();
}

static int pagecache(const char *path)
{
	static char buf[1 << 20];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return fail("open", path);
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno != EINTR)
			return fail("read", path);
		if (n == 0 && lseek(fd, 0, SEEK_SET) < 0)
			return fail("lseek", path);
	}
}

static int write_direct(const char *path, unsigned long mib)
{
	uint64_t done = 0;
	void *buf;
	int fd;

	fd = open(path, O_WRONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return fail("open", path);
	if (posix_memalign(&buf, 4096, MIB) != 0)
		return fail("allocate", "buffer");
	memset(buf, 0x5a, MIB);
	while (done < (uint64_t)mib * MIB) {
		ssize_t n = pwrite(fd, buf, MIB, (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return fail("write", path);
		done += (uint64_t)n;
	}
	if (fsync(fd) < 0)
		return fail("fsync", path);
	close(fd);
	free(buf);
	printf("%" PRIu64 "\n", done);
	return 0;
}

/*
 * Under memory.high a charge over the limit throttles the task, so mapping
 * anew each round keeps the group pressing on its limit instead of
 * settling once every page is resident.
 */
static int touch(unsigned long mib)
{
	const size_t size = (size_t)mib * MIB;

	for (;;) {
		volatile char *p =
		    mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return fail("mmap", "anonymous memory");
		for (size_t off = 0; off < size; off += 4096)
			p[off] = 1;
		munmap((void *)p, size);
	}
}

static sigjmp_buf refused;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(refused, 1);
}

/*
 * The hugetlb controller charges a page when it is first touched; over the
 * limit that fault is a SIGBUS. Each touch is a recovery point, so the
 * group keeps running and shows its usage and failure count.
 */
static int hugetlb(unsigned long pages)
{
	struct sigaction sa = {.sa_handler = on_sigbus};
	volatile unsigned long touched = 0, refusals = 0;
	volatile unsigned long i;
	char *p;

	p = mmap(NULL, pages * HUGE_PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (p == MAP_FAILED)
		return fail("mmap", "MAP_HUGETLB");
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NODEFER;
	if (sigaction(SIGBUS, &sa, NULL) < 0)
		return fail("sigaction", "SIGBUS");
	for (i = 0; i < pages; i++) {
		if (sigsetjmp(refused, 1)) {
			refusals++;
			continue;
		}
		p[i * HUGE_PAGE] = 1;
		touched++;
	}
	printf("hugetlb: %lu pages touched, %lu refused\n", touched, refusals);
	fflush(stdout);
	hold();
}

static volatile sig_atomic_t stopping;

static void on_sigterm(int sig)
{
	(void)sig;
	stopping = 1;
}

/* Writes pid to the cgroup.procs of the cgroup at dir. */
static int move_task(const char *dir, pid_t pid)
{
	char path[PATH_MAX + sizeof("/cgroup.procs")], num[24];
	int fd, n, r = 0;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return fail("open", path);
	n = snprintf(num, sizeof(num), "%d\n", (int)pid);
	if (write(fd, num, (size_t)n) != n)
		r = fail("move a task to", path);
	close(fd);
	return r;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The task churn moves: it burns CPU for about a millisecond in every ten,
 * so each cgroup it passes through has CPU time to account, yet under TCG
 * it does not take a host CPU from the vCPU the collector runs on.
 */
static _Noreturn void mover(void)
{
	for (;;) {
		uint64_t end = now_ns() + 1000000;

		while (now_ns() < end)
			;
		usleep(9000);
	}
}

/*
 * Until SIGTERM; then removes what it created and exits 0. It runs at the
 * lowest priority: as fast as it can, but on the CPU time the collector
 * leaves.
 */
static int churn(bool move, int n, char **dirs)
{
	struct sigaction sa = {.sa_handler = on_sigterm};
	char path[PATH_MAX];
	unsigned long gen, moves = 0;
	pid_t task = 0;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) < 0)
		return fail("sigaction", "SIGTERM");
	errno = 0;
	if (nice(19) < 0 && errno)
		return fail("nice", "19");
	if (move) {
		task = fork();
		if (task < 0)
			return fail("fork", "the task to move");
		if (task == 0)
			mover();
	}
	for (gen = 0; !stopping; gen++) {
		for (int i = 0; i < n; i++) {
			snprintf(path, sizeof(path), "%s/churn-%lu", dirs[i], gen);
			if (mkdir(path, 0755) < 0 && errno != EEXIST)
				return fail("mkdir", path);
			if (move && move_task(path, task) < 0)
				return 1;
			moves += move;
			if (gen < CHURN_ALIVE)
				continue;
			snprintf(path, sizeof(path), "%s/churn-%lu", dirs[i], gen - CHURN_ALIVE);
			if (rmdir(path) < 0 && errno != ENOENT)
				return fail("rmdir", path);
		}
	}
	/* a reaped task has left its cgroups, which can then go */
	if (move) {
		kill(task, SIGKILL);
		waitpid(task, NULL, 0);
	}
	for (unsigned long g = gen > CHURN_ALIVE ? gen - CHURN_ALIVE : 0; g < gen; g++)
		for (int i = 0; i < n; i++) {
			snprintf(path, sizeof(path), "%s/churn-%lu", dirs[i], g);
			if (rmdir(path) < 0 && errno != ENOENT)
				return fail("rmdir", path);
		}
	printf("churn: %lu generations in %d folders, %lu cgroups, %lu task moves\n", gen, n,
	       gen * (unsigned long)n, moves);
	return 0;
}

/* Copies one file; files that cannot be read (write-only ones) are skipped. */
static void dump_file(int srcdir, const char *name, int dstdir)
{
	static char buf[1 << 16];
	int in, out;
	ssize_t n;

	in = openat(srcdir, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (in < 0)
		return;
	out = openat(dstdir, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out >= 0) {
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n)
				break;
		close(out);
		/* a read error leaves an empty file: remove it, as if unreadable */
		if (n < 0)
			unlinkat(dstdir, name, 0);
	}
	close(in);
}

/*
 * The cgroup ID of directory src, its inode number, to "@id" in dst: how
 * cgacctd identifies and orders cgroups where there is no cgroup.serial
 * (v2), and no file says it. No name of a cgroup file starts with '@'.
 */
static void dump_id(int src, int dst)
{
	struct stat st;
	char text[24];
	int out, n;

	if (fstat(src, &st) < 0)
		return;
	n = snprintf(text, sizeof(text), "%ju\n", (uintmax_t)st.st_ino);
	out = openat(dst, "@id", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		return;
	if (write(out, text, (size_t)n) != n)
		unlinkat(dst, "@id", 0);
	close(out);
}

/* Takes ownership of both fds. Directories that vanish midway are left half-copied. */
static void dump_dir(int src, int dst)
{
	DIR *d;
	struct dirent *de;

	dump_id(src, dst);
	d = fdopendir(src);
	if (!d) {
		close(src);
		close(dst);
		return;
	}
	while ((de = readdir(d))) {
		int s, t;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type == DT_REG) {
			dump_file(src, de->d_name, dst);
			continue;
		}
		if (de->d_type != DT_DIR)
			continue;
		s = openat(src, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (s < 0)
			continue;
		mkdirat(dst, de->d_name, 0755);
		t = openat(dst, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (t < 0) {
			close(s);
			continue;
		}
		dump_dir(s, t);
	}
	closedir(d);
	close(dst);
}

static int dump(const char *from, const char *to)
{
	int s, t;

	if (mkdir(to, 0755) < 0 && errno != EEXIST)
		return fail("mkdir", to);
	s = open(from, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s < 0)
		return fail("open", from);
	t = open(to, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t < 0)
		return fail("open", to);
	dump_dir(s, t);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: workload spin | spin-on CPU [--fifo] | pagecache PATH | write PATH "
			"MIB | hugetlb N | hold"
			" | touch MIB | churn [--move-task] DIR... | dump SRC DST\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long n;

	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "spin") && argc == 2)
		spin();
	if (!strcmp(argv[1], "spin-on") &&
	    (argc == 3 || (argc == 4 && !strcmp(argv[3], "--fifo")))) {
		if (parse_count(argv[2], 0, CPU_SETSIZE - 1, &n) < 0)
			return usage();
		return spin_on(argv[2], n, argc == 4);
	}
	if (!strcmp(argv[1], "hold") && argc == 2)
		hold();
	if (!strcmp(argv[1], "pagecache") && argc == 3)
		return pagecache(argv[2]);
	if (!strcmp(argv[1], "write") && argc == 4) {
		if (parse_count(argv[3], 1, 1024 * 1024, &n) < 0)
			return usage();
		return write_direct(argv[2], n);
	}
	if (!strcmp(argv[1], "hugetlb") && argc == 3) {
		if (parse_count(argv[2], 1, 4096, &n) < 0)
			return usage();
		return hugetlb(n);
	}
	if (!strcmp(argv[1], "touch") && argc == 3) {
		if (parse_count(argv[2], 1, 1024 * 1024, &n) < 0)
			return usage();
		return touch(n);
	}
	if (!strcmp(argv[1], "churn") && argc >= 3) {
		bool move = !strcmp(argv[2], "--move-task");

		if (argc - 2 - move < 1)
			return usage();
		return churn(move, argc - 2 - move, argv + 2 + move);
	}
	if (!strcmp(argv[1], "dump") && argc == 4)
		return dump(argv[2], argv[3]);
	return usage();
}
