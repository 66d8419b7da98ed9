/*
 * extsort.h: the external merge sort of TSV lines (extsort.c), above the
 * reader and tables of kanon.h: sorted runs spilled to temp files within
 * a memory budget, then merged (paper 004 §2 and §4).  Used by the
 * extsort program and by the frequency streams (kn_freq) that spill.
 */
#ifndef KANON_EXTSORT_H
#define KANON_EXTSORT_H

#include "kanon.h"

/* A sort key: a column, byte-wise or numeric (as sort -n), ascending
 * or reversed. */
typedef struct {
	size_t col;
	int numeric, reverse;
} kn_skey;

typedef struct {
	uint64_t rows;		/* lines added */
	uint64_t runs;		/* runs written */
	uint64_t merge_passes;
	uint64_t bytes_written;	/* to temp files */
	uint64_t bytes_read;	/* from temp files */
} kn_sortstats;

typedef struct kn_sorter kn_sorter;

/* A stable sort of lines of ncols fields by key[0..nkey) (none: the
 * whole line, byte-wise) within budget bytes, spilling sorted runs to
 * tmpdir. */
kn_sorter *kn_sort_new(const kn_skey *key, size_t nkey, size_t ncols,
    size_t budget, const char *tmpdir);
/* Sorts in memory on n threads (1 to 64; 1 at first); the order is
 * the same for every n. */
void kn_sort_threads(kn_sorter *s, int n);
void kn_sort_add(kn_sorter *s, const char *line, size_t len);
/* kn_sort_add of a table's line whose fields f (kn_table_next's, each
 * inside line) are known, so that its keys need not be found again. */
void kn_sort_add_fields(kn_sorter *s, const char *line, size_t len,
    const kn_str *f);
/* kn_sort_add_fields of every row left in table t.  With threads and
 * TSV, this thread reads blocks of lines and the others split them and
 * form the runs; a bad row is reported as one thread reports it. */
void kn_sort_table(kn_sorter *s, kn_table *t);
/* Calls out for each line in order (with unique: the first line of each
 * run of equal keys); removes the temp files. */
void kn_sort_finish(kn_sorter *s, int unique,
    void (*out)(const char *, size_t, void *), void *ctx);
/* Lets kn_sort_finish hand several lines at once, each ended by a
 * newline, to bulk (same ctx as out) rather than one by one to out. */
void kn_sort_bulk(kn_sorter *s, void (*bulk)(const char *, size_t, void *));
/* Lets the last merge on threads write the lines itself, each thread
 * its part at its place in the output, out of order: direct(ctx, &name)
 * is called once, before any line, and returns the output's descriptor,
 * all that was written before flushed to it, and its name for a write
 * error in name; or -1 (the output may be read as it grows, or shared).
 * Taken for a regular file not open for appending and without unique
 * (a part's bytes are then the sum of its runs' cuts: the runs' lines
 * are handed on byte for byte); the file's offset is left after the
 * lines. */
void kn_sort_direct(kn_sorter *s, int (*direct)(void *, const char **));
/* Hands over a file of lines already sorted, to be merged as a run:
 * a temp file of this process, opened for writing by the last merge on
 * threads, which gives back its bytes as they are merged (kn_tmp_drop),
 * and removed after the merge. */
void kn_sort_addrun(kn_sorter *s, char *path);
/* Merges n tables already sorted by the keys (their order is checked). */
void kn_sort_merge_tables(kn_sorter *s, kn_table *t, size_t n, int unique,
    void (*out)(const char *, size_t, void *), void *ctx);
const kn_sortstats *kn_sort_stats(const kn_sorter *s);
void kn_sort_free(kn_sorter *s);
/* Parses -k KEY[:flags],... against table t (flags n and r). */
size_t kn_sort_keys(const kn_table *t, const char *spec, kn_skey **key);

/* Runs fn on each of the nt (at most 64) arguments at arg, of sz bytes
 * each, one thread each; the caller's thread takes the first, and the
 * arguments no thread could be made for.  The sort's threads, and
 * freq.c's. */
void kn_sort_par_run(void *(*fn)(void *), void *arg, size_t sz, int nt);

#endif
