/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pressure stall information (kernel/sched/psi.c), v2 only:
 *   some avg10=0.00 avg60=0.00 avg300=0.00 total=123
 *   full avg10=0.00 avg60=0.00 avg300=0.00 total=45
 * Only the cumulative "total" (microseconds) is exported: rate() over it
 * gives any window, while the kernel's avg10/60/300 are fixed windows that
 * Prometheus would sample, not aggregate. A line whose last word is not
 * total is malformed. A BPF record holds the totals too
 * (collector/bpf/cgacct.bpf.c says how current they are).
 */
#include <errno.h>
#include <string.h>

#include "base/util.h"
#include "collector/bpf/source.h"
#include "collector/controllers/controller.h"
#include "collector/controllers/pressure.h"
#include "collector/parse.h"

/*
 * The line's last word: psi_show() writes total last, so the averages
 * before it, which are not exported, are never parsed.
 */
static bool last_word(struct span line, struct span *ret)
{
	const char *start = line.ptr, *end = start + line.len, *p;

	while (end > start && span_is_blank(end[-1]))
		end--;
	for (p = end; p > start && !span_is_blank(p[-1]); p--)
		;
	*ret = span_make(p, (size_t)(end - p));
	return p < end;
}

int parse_pressure(const char *buf, size_t len, uint64_t totals[2], uint64_t *ret_found)
{
	static const char total_key[] = "total=";
	struct span rest = span_make(buf, len), line, kind, last;
	uint64_t found = 0;

	while (span_next_line(&rest, &line)) {
		uint64_t total;
		int idx;

		if (!span_next_word(&line, &kind))
			continue;
		if (span_eq(kind, "some"))
			idx = PRESSURE_SOME;
		else if (span_eq(kind, "full"))
			idx = PRESSURE_FULL;
		else
			continue;
		if (!last_word(line, &last) || last.len < sizeof(total_key) - 1 ||
		    memcmp(last.ptr, total_key, sizeof(total_key) - 1) != 0 ||
		    parse_u64(span_make(last.ptr + sizeof(total_key) - 1,
					last.len - (sizeof(total_key) - 1)),
			      &total) < 0 ||
		    (found & (1u << idx)))
			return -EBADMSG;
		totals[idx] = total;
		found |= 1u << idx;
	}
	*ret_found = found;
	return 0;
}

static const struct {
	const char *file;
	enum metric some, full;
} pressure_files[] = {
    {"cpu.pressure", METRIC_PRESSURE_CPU_WAITING, METRIC_PRESSURE_CPU_STALLED},
    {"memory.pressure", METRIC_PRESSURE_MEMORY_WAITING, METRIC_PRESSURE_MEMORY_STALLED},
    {"io.pressure", METRIC_PRESSURE_IO_WAITING, METRIC_PRESSURE_IO_STALLED},
};

_Static_assert(ELEMENTSOF(pressure_files) * 2 == RECORD_PRESSURE_TOTALS,
	       "a record's totals are the files' some and full, in the files' order");

/* The kernel's nanoseconds, which the files print in microseconds, rounded down. */
static int pressure_from_record(const struct reader_ctx *c, const struct record *rec)
{
	int r = 0;

	if (!(rec->has & RECORD_HAS_PRESSURE))
		return 0;
	for (size_t i = 0; r >= 0 && i < ELEMENTSOF(pressure_files); i++) {
		r = reader_emit(c, pressure_files[i].some, NULL, rec->pressure_ns[2 * i] / 1000, 1);
		if (r >= 0)
			r = reader_emit(c, pressure_files[i].full, NULL,
					rec->pressure_ns[2 * i + 1] / 1000, 1);
	}
	return r;
}

static int pressure_read_v2(const struct reader_ctx *c)
{
	const struct record *rec = reader_record(c);

	if (rec)
		return pressure_from_record(c, rec);
	for (size_t i = 0; i < ELEMENTSOF(pressure_files); i++) {
		const char *buf;
		uint64_t totals[2], found;
		size_t len;
		int r;

		r = reader_read(c, pressure_files[i].file, &buf, &len);
		if (r == 0)
			continue;
		if (r > 0)
			r = parse_pressure(buf, len, totals, &found);
		if (r >= 0 && (found & (1u << PRESSURE_SOME)))
			r = reader_emit(c, pressure_files[i].some, NULL, totals[PRESSURE_SOME], 1);
		if (r >= 0 && (found & (1u << PRESSURE_FULL)))
			r = reader_emit(c, pressure_files[i].full, NULL, totals[PRESSURE_FULL], 1);
		if (r < 0)
			return r;
	}
	return 0;
}

const struct controller_reader reader_pressure = {
    .read_v2 = pressure_read_v2,
};
