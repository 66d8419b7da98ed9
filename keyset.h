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
 * sort), then written to a temp file, one block of about blk bytes
 * after another; the index keeps the first key of each block.  A line's
 * key is its first keylen bytes, or all of it (keylen 0).  A lookup
 * reads one block.  Memory: the sort's while adding (its budget), then
 * the index, bounded to about an eighth of the budget by the size of
 * the blocks, and one block.
 */
typedef struct {
	size_t budget;
	const char *tmpdir;
	size_t keylen;		/* 0: the whole line */
	kn_sorter *so;		/* while adding */
	uint64_t n, bytes;	/* lines, and their bytes with newlines */
	/* the sorted file */
	char *path;
	FILE *fp;
	uint64_t size;
	/* the index: per block its first key, offset and rank */
	char **ikey;
	size_t *iklen;
	uint64_t *ioff, *irank;
	size_t ni, icap;
	size_t blk;		/* bytes per block (at least) */
	/* sealing: the block being written */
	uint64_t off, boff, wrote;
	int sealed;
	void (*each)(const char *, size_t, uint64_t, void *);
	void *ectx;
	/* the block last read */
	char *buf;
	size_t bufcap, buflen;
	long cached;		/* its index, or -1 */
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
