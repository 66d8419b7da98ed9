/*
 * keyset.c: a set of lines on disk, sorted within -S by the external
 * sort (extsort.c) and looked up through two sparse indexes: on disk
 * the first key of each block of lines, in memory the first key of each
 * segment of that index.  recode keeps in it what grows with the table
 * (the classes a node suppresses, partition's regions), so that memory
 * holds a bounded window.
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

/* Writes n bytes to the temp file fp (path). */
static void
put(FILE *fp, const char *path, const void *p, size_t n)
{
	if (fwrite(p, 1, n, fp) != n)
		kn_die_sys("%s: write error", path);
}

/*
 * A sorted line: written to the file; the first of a block has an entry
 * in the index on disk (its offset, rank, key length and key), and the
 * first entry of a segment of that index one in memory.
 */
static void
seal_line(const char *line, size_t len, void *ctx)
{
	keyset *ks = ctx;
	size_t kl = key_len(ks, len);
	uint64_t e[3];

	if (ks->wrote == 0 || ks->off - ks->boff >= KEYSET_FINE) {
		if (ks->ns == 0 || ks->ioff - ks->sboff >= ks->seg) {
			ks->karena = kn_grow(ks->karena, &ks->kacap, ks->kalen +
			    kl, 1, 4096);
			memcpy(ks->karena + ks->kalen, line, kl);
			ks->koff = kn_grow(ks->koff, &ks->scap, ks->ns,
			    sizeof(uint64_t), 64);
			ks->klen = kn_realloc(ks->klen, ks->scap *
			    sizeof(uint64_t));
			ks->soff = kn_realloc(ks->soff, ks->scap *
			    sizeof(uint64_t));
			ks->koff[ks->ns] = ks->kalen;
			ks->klen[ks->ns] = kl;
			ks->soff[ks->ns++] = ks->ioff;
			ks->kalen += kl;
			ks->sboff = ks->ioff;
		}
		e[0] = ks->off;
		e[1] = ks->wrote;
		e[2] = kl;
		put(ks->ifp, ks->ipath, e, sizeof(e));
		put(ks->ifp, ks->ipath, line, kl);
		ks->ioff += sizeof(e) + kl;
		ks->boff = ks->off;
	}
	put(ks->fp, ks->path, line, len);
	if (putc('\n', ks->fp) == EOF)
		kn_die_sys("%s: write error", ks->path);
	if (ks->each != NULL)
		ks->each(line, len, ks->wrote, ks->ectx);
	ks->off += len + 1;
	ks->wrote++;
}

/* A temp file open for writing and reading. */
static FILE *
temp(const keyset *ks, char **path, char **vb)
{
	int fd = kn_mktemp(ks->tmpdir, path);
	FILE *fp = fdopen(fd, "w+");

	if (fp == NULL)
		kn_die_sys("%s", *path);
	*vb = kn_vbuf(fp);
	return fp;
}

/* Flushes the temp file fp (path). */
static void
flush(FILE *fp, const char *path)
{
	if (fflush(fp) == EOF || ferror(fp))
		kn_die_sys("%s: write error", path);
}

void
keyset_seal(keyset *ks, void (*each)(const char *, size_t, uint64_t, void *),
    void *ctx)
{
	size_t avg, room = ks->budget / 2;
	uint64_t ibytes;

	/* Segments large enough that the index in memory keeps within
	 * half the budget (the sort's, freed once it is built). */
	avg = ks->n > 0 ? (size_t)(ks->bytes / ks->n) : 1;
	if (ks->keylen > 0 && ks->keylen < avg)
		avg = ks->keylen;
	ibytes = (ks->bytes / KEYSET_FINE + 1) * (avg + 24);
	avg += 24;
	ks->seg = 256;
	if (room > 0 && ibytes / ks->seg * avg > room)
		ks->seg = (size_t)(ibytes * avg / room) + 1;
	ks->fp = temp(ks, &ks->path, &ks->fpbuf);
	ks->ifp = temp(ks, &ks->ipath, &ks->ifpbuf);
	ks->each = each;
	ks->ectx = ctx;
	kn_sort_finish(ks->so, 0, seal_line, ks);
	kn_sort_free(ks->so);
	ks->so = NULL;
	flush(ks->fp, ks->path);
	flush(ks->ifp, ks->ipath);
	ks->size = ks->off;
	ks->isize = ks->ioff;
	ks->sealed = 1;
}

/* Reads n bytes at offset at of temp file fp (path) into buf; returns
 * how many there were. */
static size_t
get(FILE *fp, const char *path, char *buf, size_t n, uint64_t at)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		r = pread(fileno(fp), buf + got, n - got, (off_t)(at + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			kn_die_sys("%s: read error", path);
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return got;
}

/* Reads segment i of the index on disk. */
static void
read_segment(keyset *ks, size_t i)
{
	uint64_t from = ks->soff[i];
	uint64_t to = i + 1 < ks->ns ? ks->soff[i + 1] : ks->isize;
	size_t n = (size_t)(to - from);

	if (ks->cached == (long)i)
		return;
	if (n > ks->sbufcap) {
		ks->sbufcap = n;
		ks->sbuf = kn_realloc(ks->sbuf, n);
	}
	if (get(ks->ifp, ks->ipath, ks->sbuf, n, from) != n)
		kn_die("%s: temp file cut short", ks->ipath);
	ks->sbuflen = n;
	ks->cached = (long)i;
}

int64_t
keyset_find(keyset *ks, const char *key, size_t n, const char **line,
    size_t *len)
{
	size_t lo = 0, hi = ks->ns, have = 0, want, at = 0;
	uint64_t e[3], off = 0, rank = 0;
	const char *p, *pe;
	char *nl;
	int c;

	if (ks->ns == 0)
		return -1;
	/* The last segment whose first key is below key, then in it the
	 * last block whose first key is: the first line with key is in
	 * that block or after it. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (kn_bytes_cmp(ks->karena + ks->koff[mid], ks->klen[mid], key,
		    n) < 0)
			lo = mid;
		else
			hi = mid;
	}
	read_segment(ks, lo);
	for (p = ks->sbuf, pe = ks->sbuf + ks->sbuflen; p < pe;
	    p += sizeof(e) + e[2]) {
		memcpy(e, p, sizeof(e));
		if (p != ks->sbuf &&
		    kn_bytes_cmp(p + sizeof(e), e[2], key, n) >= 0)
			break;
		off = e[0];
		rank = e[1];
	}
	/* The lines from there, read a block at a time. */
	for (;;) {
		nl = have > at ? memchr(ks->buf + at, '\n', have - at) : NULL;
		if (nl == NULL) {
			/* The rest of a line, and a block more. */
			if (have > at)
				memmove(ks->buf, ks->buf + at, have - at);
			have -= at;
			off += at;
			at = 0;
			want = have + KEYSET_FINE + 256;
			if (want > ks->bufcap) {
				ks->bufcap = 2 * want;
				ks->buf = kn_realloc(ks->buf, ks->bufcap);
			}
			if (off + have >= ks->size)
				return -1;
			have += get(ks->fp, ks->path, ks->buf + have,
			    want - have, off + have);
			continue;
		}
		c = kn_bytes_cmp(ks->buf + at, key_len(ks, (size_t)(nl - ks->buf -
		    at)), key, n);
		if (c > 0)
			return -1;
		if (c == 0) {
			*line = ks->buf + at;
			*len = (size_t)(nl - ks->buf - at);
			return (int64_t)rank;
		}
		at = (size_t)(nl - ks->buf) + 1;
		rank++;
	}
}

void
keyset_free(keyset *ks)
{
	if (ks->so != NULL)
		kn_sort_free(ks->so);
	if (ks->fp != NULL) {
		fclose(ks->fp);
		kn_rmtemp(ks->path);
	}
	if (ks->ifp != NULL) {
		fclose(ks->ifp);
		kn_rmtemp(ks->ipath);
	}
	free(ks->fpbuf);
	free(ks->ifpbuf);
	free(ks->karena);
	free(ks->koff);
	free(ks->klen);
	free(ks->soff);
	free(ks->sbuf);
	free(ks->buf);
	memset(ks, 0, sizeof(*ks));
	ks->cached = -1;
}
