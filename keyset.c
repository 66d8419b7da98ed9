/*
 * keyset.c: a set of lines on disk, sorted within -S by the external
 * sort (extsort.c) and looked up through a sparse index: the first key
 * of each block of the sorted file, a block read per lookup.  recode
 * keeps in it what grows with the table (the classes a node suppresses,
 * partition's regions), so that memory holds a bounded window.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keyset.h"

void
keyset_init(keyset *ks, size_t keylen, size_t budget, const char *tmpdir)
{
	memset(ks, 0, sizeof(*ks));
	ks->keylen = keylen;
	ks->budget = budget;
	ks->tmpdir = tmpdir;
	ks->cached = -1;
	ks->so = kn_sort_new(NULL, 0, 1, budget, tmpdir);
}

void
keyset_add(keyset *ks, const char *line, size_t len)
{
	kn_sort_add(ks->so, line, len);
	ks->n++;
	ks->bytes += len + 1;
}

/* The key of a line: its first keylen bytes, or all of it. */
static size_t
key_len(const keyset *ks, size_t len)
{
	return ks->keylen > 0 && ks->keylen < len ? ks->keylen : len;
}

/* Byte-wise, as the sort: memcmp, then the shorter first. */
static int
key_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	int c = memcmp(a, b, an < bn ? an : bn);

	if (c != 0)
		return c < 0 ? -1 : 1;
	return an < bn ? -1 : an > bn;
}

/* A sorted line: written to the file, the first of a block indexed. */
static void
seal_line(const char *line, size_t len, void *ctx)
{
	keyset *ks = ctx;
	size_t kl;

	if (ks->ni == 0 || ks->off - ks->boff >= ks->blk) {
		ks->ikey = kn_grow(ks->ikey, &ks->icap, ks->ni, sizeof(char *),
		    64);
		ks->iklen = kn_realloc(ks->iklen, ks->icap * sizeof(size_t));
		ks->ioff = kn_realloc(ks->ioff, ks->icap * sizeof(uint64_t));
		ks->irank = kn_realloc(ks->irank, ks->icap * sizeof(uint64_t));
		kl = key_len(ks, len);
		ks->ikey[ks->ni] = kn_strndup(line, kl);
		ks->iklen[ks->ni] = kl;
		ks->ioff[ks->ni] = ks->off;
		ks->irank[ks->ni] = ks->wrote;
		ks->ni++;
		ks->boff = ks->off;
	}
	if (fwrite(line, 1, len, ks->fp) != len || putc('\n', ks->fp) == EOF)
		kn_die_sys("%s: write error", ks->path);
	if (ks->each != NULL)
		ks->each(line, len, ks->wrote, ks->ectx);
	ks->off += len + 1;
	ks->wrote++;
}

void
keyset_seal(keyset *ks, void (*each)(const char *, size_t, uint64_t, void *),
    void *ctx)
{
	size_t avg, room = ks->budget / 8;
	int fd;

	/* Blocks large enough that the index keeps within an eighth of
	 * the budget. */
	avg = ks->n > 0 ? (size_t)(ks->bytes / ks->n) : 1;
	if (ks->keylen > 0 && ks->keylen < avg)
		avg = ks->keylen;
	avg += 64;
	ks->blk = 4096;
	if (room > 0 && ks->bytes / ks->blk * avg > room)
		ks->blk = (size_t)(ks->bytes * avg / room) + 1;
	fd = kn_mktemp(ks->tmpdir, &ks->path);
	if ((ks->fp = fdopen(fd, "w+")) == NULL)
		kn_die_sys("%s", ks->path);
	setvbuf(ks->fp, NULL, _IOFBF, 1 << 16);
	ks->each = each;
	ks->ectx = ctx;
	kn_sort_finish(ks->so, 0, seal_line, ks);
	kn_sort_free(ks->so);
	ks->so = NULL;
	if (fflush(ks->fp) == EOF || ferror(ks->fp))
		kn_die_sys("%s: write error", ks->path);
	ks->size = ks->off;
	ks->sealed = 1;
}

/* Reads block i into the buffer. */
static void
read_block(keyset *ks, size_t i)
{
	uint64_t from = ks->ioff[i];
	uint64_t to = i + 1 < ks->ni ? ks->ioff[i + 1] : ks->size;
	size_t n = (size_t)(to - from), got = 0;
	ssize_t r;

	if (ks->cached == (long)i)
		return;
	if (n > ks->bufcap) {
		ks->bufcap = n;
		ks->buf = kn_realloc(ks->buf, n);
	}
	while (got < n) {
		r = pread(fileno(ks->fp), ks->buf + got, n - got,
		    (off_t)(from + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			kn_die_sys("%s: read error", ks->path);
		if (r == 0)
			kn_die("%s: temp file cut short", ks->path);
		got += (size_t)r;
	}
	ks->buflen = n;
	ks->cached = (long)i;
}

int64_t
keyset_find(keyset *ks, const char *key, size_t n, const char **line,
    size_t *len)
{
	size_t lo = 0, hi = ks->ni, i;
	uint64_t rank;
	const char *p, *e, *nl;
	int c;

	if (ks->ni == 0)
		return -1;
	/* The last block whose first key is below key: the first line
	 * with key is in it or starts the next. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_cmp(ks->ikey[mid], ks->iklen[mid], key, n) < 0)
			lo = mid;
		else
			hi = mid;
	}
	for (i = lo; i < ks->ni; i++) {
		read_block(ks, i);
		rank = ks->irank[i];
		for (p = ks->buf, e = ks->buf + ks->buflen; p < e; p = nl + 1,
		    rank++) {
			nl = memchr(p, '\n', (size_t)(e - p));
			c = key_cmp(p, key_len(ks, (size_t)(nl - p)), key, n);
			if (c > 0)
				return -1;
			if (c == 0) {
				*line = p;
				*len = (size_t)(nl - p);
				return (int64_t)rank;
			}
		}
	}
	return -1;
}

void
keyset_free(keyset *ks)
{
	size_t i;

	if (ks->so != NULL)
		kn_sort_free(ks->so);
	if (ks->fp != NULL) {
		fclose(ks->fp);
		kn_rmtemp(ks->path);
	}
	for (i = 0; i < ks->ni; i++)
		free(ks->ikey[i]);
	free(ks->ikey);
	free(ks->iklen);
	free(ks->ioff);
	free(ks->irank);
	free(ks->buf);
	memset(ks, 0, sizeof(*ks));
	ks->cached = -1;
}
