/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/util.h"
#include "collector/bpf/records.h"

_Static_assert(sizeof(struct record) % 8 == 0, "records are 8-byte aligned in the stream");

int bpf_records_parse(char *buf, size_t len, struct bpf_records *ret)
{
	size_t pos = 0, n = 0;

	while (pos < len) {
		struct record r;
		size_t size;

		if (len - pos < sizeof(r))
			return -EBADMSG;
		memcpy(&r, buf + pos, sizeof(r));
		size = RECORD_SIZE(r.name_len);
		/* only the root has no name */
		if (r.magic != RECORD_MAGIC || (r.name_len == 0) != (r.parent_id == 0) ||
		    r.name_len > RECORD_NAME_MAX || len - pos < size)
			return -EBADMSG;
		if (memchr(buf + pos + sizeof(r), '/', r.name_len) ||
		    memchr(buf + pos + sizeof(r), '\0', r.name_len))
			return -EBADMSG;
		pos += size;
		n++;
	}
	*ret = (struct bpf_records){.buf = buf, .len = len, .n = n};
	return 0;
}

const struct record *bpf_records_next(const struct bpf_records *b, size_t *pos, const char **name)
{
	const struct record *r;

	if (*pos >= b->len)
		return NULL;
	/* parse() checked every record: each starts 8-aligned in a malloc'd buffer */
	r = (const struct record *)(const void *)(b->buf + *pos);
	*name = b->buf + *pos + sizeof(*r);
	*pos += RECORD_SIZE(r->name_len);
	return r;
}

int bpf_records_read(const char *dir, struct bpf_records *ret)
{
	_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	_cleanup_free_ char *walked = NULL;
	char *buf = NULL;
	size_t len;
	int r;

	if (dfd < 0)
		return -errno;
	r = read_file_at(dfd, "walk", &walked, &len);
	if (r < 0)
		return r;
	r = read_file_at(dfd, "records", &buf, &len);
	if (r < 0)
		return r;
	r = bpf_records_parse(buf, len, ret);
	if (r < 0)
		free(buf);
	return r;
}

void bpf_records_done(struct bpf_records *b)
{
	free(b->buf);
	*b = (struct bpf_records){0};
}
