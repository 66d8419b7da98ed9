/*
 * keyset.h: a set of lines on disk, sorted by the external sort and
 * looked up through a sparse index in memory (keyset.c), for what
 * recode would otherwise hold in memory whatever its size: the classes
 * a node suppresses, partition's regions (recode -r).  Above
 * extsort.h.
 */
#ifndef KEYSET_H
#define KEYSET_H

#include <stdio.h>

#include "kanon.h"
#include "extsort.h"

/*
 * The lines are added in any order and sorted byte-wise (as LC_ALL=C
 * sort), then written to a temp file.  A line's key is its first
 * keylen bytes, or all of it (keylen 0).  Two indexes find a key: on
 * disk the first key and offset of each block of about KEYSET_FINE
 * bytes of lines, in memory the first key of each segment of that
 * index, segments large enough that the index in memory keeps within
 * half the budget.  A lookup reads a segment and a block.
 */
#define KEYSET_FINE 512

typedef struct {
	size_t budget;
	const char *tmpdir;
	size_t keylen;		/* 0: the whole line */
	kn_sorter *so;		/* while adding */
	uint64_t n, bytes;	/* lines, and their bytes with newlines */
	/* the sorted lines and the index of their blocks */
	char *path, *ipath;
	FILE *fp, *ifp;
	char *fpbuf, *ifpbuf;	/* their stdio buffers (kn_vbuf) */
	uint64_t size, isize;
	/* the index in memory: per segment its first key (in karena at
	 * koff, klen bytes) and offset in the index on disk */
	char *karena;
	size_t kalen, kacap;
	uint64_t *koff, *klen, *soff;
	size_t ns, scap;
	size_t seg;		/* bytes per segment (at least) */
	/* sealing */
	uint64_t off, boff, ioff, sboff, wrote;
	int sealed;
	void (*each)(const char *, size_t, uint64_t, void *);
	void *ectx;
	/* the segment last read, and the lines being scanned */
	char *sbuf, *buf;
	size_t sbufcap, sbuflen, bufcap;
	long cached;		/* the segment's index, or -1 */
} keyset;

/* An empty set whose sort keeps within budget bytes in tmpdir. */
void keyset_init(keyset *ks, size_t keylen, size_t budget,
    const char *tmpdir);
/* Adds a line (no newline in it). */
void keyset_add(keyset *ks, const char *line, size_t len);
/* Sorts the lines and writes them, calling each (if not NULL) with
 * every line in order and its rank (0, 1, ...); then lookups may
 * start. */
void keyset_seal(keyset *ks, void (*each)(const char *, size_t, uint64_t,
    void *), void *ctx);
/* The rank of the first line whose key is key[0..n), or -1; sets
 * *line and *len to it (valid until the next lookup). */
int64_t keyset_find(keyset *ks, const char *key, size_t n,
    const char **line, size_t *len);
/* Removes the temp file and frees the set. */
void keyset_free(keyset *ks);

#endif
