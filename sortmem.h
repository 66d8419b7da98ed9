/*
 * sortmem.h: the sort layer's own, shared by extsort.c and the two
 * files below it: the sorter's state, the lines it holds in memory with
 * their keys and prefixes, their comparison and sorts (sortmem.c), and
 * the merge of sorted sources (sortmerge.c).
 */
#ifndef KANON_SORTMEM_H
#define KANON_SORTMEM_H

#include "extsort.h"

/* Prefixes of the first two keys (with no key, of the line's first 8
 * and next 8 bytes): v[i] orders key i whenever the two values differ
 * and both are fast; with both exact, equal values mean equal keys. */
typedef struct {
	uint64_t v[2];
	uint8_t fast[2], exact[2];
} pfx;

/* A line held in memory: the prefixes of its first keys for fast
 * compares, and the offset of the line in the arena; the key field
 * offsets and lengths (uint32 pairs) are stored just before the line. */
typedef struct {
	pfx p;
	uint64_t off;
	uint32_t len;
} rec;

/* The first sizes of the line arena and of the records; both grow as
 * needed within the budget. */
#define SORT_FIRST_ARENA ((size_t)1 << 20)
#define SORT_FIRST_RECS ((size_t)1 << 12)

struct bgspill;

struct kn_sorter {
	const kn_skey *key;
	size_t nkey, ncols;
	size_t budget;
	const char *tmpdir;
	char *arena;
	size_t alen, acap;
	rec *r;
	size_t n, rcap;
	char **run;		/* temp files of sorted runs */
	size_t nrun;
	size_t maxcol;		/* the last column of a key */
	uint32_t *colkey;	/* a column's first key, or UINT32_MAX */
	int keyed;		/* every line came with its fields */
	int threads;		/* for sorting in memory (kn_sort_threads) */
	size_t nprep;		/* records with their keys and prefix */
	/* The first buffer has the whole budget, so that lines that fit
	 * are sorted in memory whatever the threads.  With threads, once
	 * it has been written, a full buffer is sorted and written as a
	 * run by a thread of its own while the next fills (spill_async):
	 * each of the two buffers has half the budget. */
	size_t bufbudget;
	int halved;		/* the buffers have half the budget */
	int ahead;		/* a buffer takes its ceiling at once
				 * (kn_huge_ahead) */
	uint64_t hint;		/* the input's bytes (kn_sort_table), or
				 * 0: not known */
	struct bgspill *bg;	/* the run being written, or NULL */
	char *sparea;		/* the buffers of the last run written */
	size_t spacap, sprcap;
	rec *spr;
	size_t ahw, rhw;	/* the bytes of arena and records touched */
	rec *scratch;		/* the sort's, or NULL: r + n */
	/* kn_sort_bulk's: lines ended by newlines, handed on at once */
	void (*bulk)(const char *, size_t, void *);
	/* kn_sort_direct's: the output for the last merge's threads */
	int (*direct)(void *, const char **);
	kn_sortstats st;
};

/* Compares two lines with their key offsets ka, kb, from key i on. */
int kn_sort_keycmp_from(const kn_sorter *s, const char *a, size_t an,
    const uint32_t *ka, const char *b, size_t bn, const uint32_t *kb,
    size_t i);
/* The prefixes x of the first two keys of a line (or of the whole
 * line), its key offsets k found. */
void kn_sort_prefix(const kn_sorter *s, const char *line, size_t len,
    const uint32_t *k, pfx *x);
/* Finds the key fields of a line: their offsets and lengths into k; 0
 * when the line has too few fields for the keys. */
int kn_sort_split_keys(const kn_sorter *s, const char *line, size_t len,
    uint32_t *k);
/* Readies the records kn_sort_add left (keys and prefixes), on the
 * sorter's threads. */
void kn_sort_prep_all(kn_sorter *s);
/* Sorts the records held in memory (r[0, n), scratch after them or at
 * s->scratch), on the sorter's threads; stable. */
void kn_sort_mem(kn_sorter *s);

/* Compares two lines with their key offsets. */
static inline int
keycmp(const kn_sorter *s, const char *a, size_t an, const uint32_t *ka,
    const char *b, size_t bn, const uint32_t *kb)
{
	return kn_sort_keycmp_from(s, a, an, ka, b, bn, kb, 0);
}

/* Compares two lines with prefixes, reading the lines only when the
 * prefixes cannot decide. */
static inline int
pfxcmp(const kn_sorter *s, const pfx *pa, const char *a, size_t an,
    const uint32_t *ka, const pfx *pb, const char *b, size_t bn,
    const uint32_t *kb)
{
	size_t i, np = s->nkey == 1 ? 1 : 2;

	for (i = 0; i < np; i++) {
		if (!pa->fast[i] || !pb->fast[i])
			break;
		if (pa->v[i] != pb->v[i])
			return pa->v[i] < pb->v[i] ? -1 : 1;
		if (!pa->exact[i] || !pb->exact[i])
			break;
	}
	if (s->nkey == 0 && i == np)
		return 0;
	return kn_sort_keycmp_from(s, a, an, ka, b, bn, kb, i);
}

/* A source of sorted lines for the merge. */
typedef struct {
	int kind;		/* SRC_MEM, SRC_RUN, SRC_TABLE */
	size_t run;		/* order of the source, for stability */
	kn_reader r;		/* SRC_RUN */
	uint64_t left;		/* SRC_RUN: bytes of its range, or 0: all */
	kn_table *t;		/* SRC_TABLE */
	size_t i;		/* SRC_MEM: next record */
	const char *line;	/* current line */
	size_t len;
	uint32_t *k;		/* its key offsets (in kbuf or the arena) */
	uint32_t *kbuf;
	pfx p;
	char *prev;		/* SRC_TABLE: the line before, to check order */
	size_t prevlen, prevcap;
	uint32_t *prevk;
} source;

enum { SRC_MEM, SRC_RUN, SRC_TABLE };

/* sortmerge.c: kn_sort_split_keys, dying on a short row (named name, or
 * a temp run). */
void kn_sort_locate(kn_sorter *s, const char *line, size_t len, uint32_t *k,
    const char *name, uint64_t lineno);
/* Opens the run at path as source x, order run, with a read buffer of
 * bufsz bytes. */
void kn_sort_open_run(source *x, const char *path, size_t run, size_t bufsz);
/* Merges the n sources to out (with unique: the first line of each run
 * of equal keys). */
void kn_sort_merge_src(kn_sorter *s, source *src, size_t n, int unique,
    void (*out)(const char *, size_t, void *), void *ctx);
/* The last merge of the runs, on the sorter's threads; 0 when the runs
 * give no splitter (one key throughout), and nothing was done. */
int kn_sort_merge_parts(kn_sorter *s, int unique, size_t bufsz,
    void (*out)(const char *, size_t, void *), void *ctx);

#endif
