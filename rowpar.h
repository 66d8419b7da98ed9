/*
 * rowpar.h: the rows of a table done on the threads of -j and written
 * in their order (rowpar.c): recode's and partition's second passes.
 * Above kanon.h.
 */
#ifndef ROWPAR_H
#define ROWPAR_H

#include <stdio.h>

#include "kanon.h"

/* Bytes a thread leaves for the main thread about a row. */
typedef struct {
	char *p;
	size_t len, cap;
} rowpar_buf;

/* Appends p[0..n) to b. */
void rowpar_put(rowpar_buf *b, const void *p, size_t n);

/*
 * What is done with each row.  A thread does a row (row) into its
 * block's output, and may leave a record of it; the main thread takes
 * the records in the order of the rows (commit), which is where state
 * that depends on the rows before (counts checked against a limit) is
 * kept.  A row that a thread cannot do as one thread would (a value it
 * must report, or a record the main thread refuses) is done again by
 * the main thread (serial), as the run on one thread does it, and so
 * are the rest of its block's rows: an error is reported there, at the
 * first row that has one, with the message of one thread.
 */
struct rowpar_ops {
	void *ctx;
	/* A thread's own state, made on the main thread before any row
	 * is read; NULL: the rows cannot be done on threads. */
	void *(*tnew)(void *ctx, int nt);
	void (*tfree)(void *ctx, void *ts);
	/* Row f, number row among the table's rows (0 the first), on a
	 * thread: its output appended to out (each row ended by
	 * kn_row_end), its record to rec; returns the rows written (0 or
	 * 1), or -1 when the main thread must do the row. */
	int (*row)(void *ctx, void *ts, uint64_t row, kn_str *f, kn_row *out,
	    rowpar_buf *rec);
	/* If not NULL: on the main thread, in the order of the rows,
	 * whether the row's record at *rec (moved past it) may be
	 * applied; applies it then.  0: the main thread does the row. */
	int (*commit)(void *ctx, const char **rec);
	/* The current row of t (its fields t->f, its file and line for
	 * messages, t->rows the rows up to it) as one thread does it,
	 * written to the output; returns the rows written. */
	int (*serial)(void *ctx, kn_table *t);
};

/*
 * Does the rest of TSV table t on nt threads (the main thread reads
 * blocks of lines with kn_table_block and writes the threads' outputs
 * to fp in the order of the input), the blocks and their outputs within
 * about limit bytes.  Returns the rows written, or -1 when the threads
 * could not start (ops->tnew returned NULL, or pthread_create failed):
 * then nothing of t was read.
 */
int64_t rowpar_run(kn_table *t, const struct rowpar_ops *ops, int nt,
    size_t limit, FILE *fp, const char *outname);

#endif
