/*
 * rowpar.c: the rows of a table done on the threads of -j, their
 * outputs written in the order of the input, byte for byte as one
 * thread writes them (recode's second pass; kanon(7), -j).  The main
 * thread reads blocks of whole rows (block.c's kn_table_block), the
 * threads do their rows into outputs of their own, and the main thread
 * takes each block back in turn: the records its rows left, in order,
 * then its output.  A row a thread could not do, and the rest of its
 * block, is done again on the main thread as one thread does it, so
 * that the first bad row is reported as one thread reports it; when the
 * reading itself dies (rowpar_dying), the blocks in hand are written
 * first, and the whole rows read into the next.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kanon.h"
#include "rowpar.h"

void
rowpar_put(rowpar_buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = 2 * (b->len + n) + 256;
		b->p = kn_realloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* A block of rows and what a thread made of them. */
struct rpjob {
	kn_block b;
	uint64_t row0;		/* the table's rows before its first */
	kn_row out;		/* the rows written */
	rowpar_buf rec;		/* per row (with a commit): its offsets in
				 * b and out, the rows written before it,
				 * then the ops' record */
	int64_t written;
	int stop;		/* the thread stopped at a row: the main
				 * thread does it and the rest */
	uint64_t stop_at;	/* the rows of the block before it */
	size_t stop_in;		/* its offset in b (out ends before it) */
	size_t good;		/* the rows taken end here (kn_block_row
				 * ended each by a NUL) */
	int done;
};

/* The blocks between the main thread and the others. */
struct rowpar {
	kn_table *t;
	const struct rowpar_ops *ops;
	pthread_mutex_t mu;
	pthread_cond_t more, done;
	struct rpjob **q;	/* a ring of the blocks to do */
	size_t nb, qh, nq;
	int end;
};

struct rpworker {
	struct rowpar *rp;
	void *ts;
	kn_str *f;
};

/* Does the rows of j until its end or a row the main thread must do:
 * on copies of its block, output and records, which are the thread's
 * alone while it works (the blocks side by side are other threads'). */
static void
rowpar_block(struct rpworker *w, struct rpjob *j)
{
	const struct rowpar_ops *ops = w->rp->ops;
	kn_block b = j->b;
	kn_row out = j->out;
	rowpar_buf rec = j->rec;
	uint64_t off[3];
	size_t in, outl, recl;
	int64_t written = 0;
	int r;

	out.len = 0;
	out.nf = 0;
	rec.len = 0;
	j->stop = 0;
	for (;;) {
		in = b.pos;
		outl = out.len;
		recl = rec.len;
		if (ops->commit != NULL) {
			off[0] = in;
			off[1] = outl;
			off[2] = (uint64_t)written;
			rowpar_put(&rec, off, sizeof(off));
		}
		if (!kn_block_row(w->rp->t, &b, w->f)) {
			rec.len = recl;
			j->good = in;
			if (b.bad) {
				j->stop = 1;
				j->stop_in = in;
				j->stop_at = b.at - 1;
			}
			break;
		}
		r = ops->row(ops->ctx, w->ts, j->row0 + b.at - 1, w->f, &out,
		    &rec);
		if (r < 0) {
			out.len = outl;
			out.nf = 0;
			rec.len = recl;
			j->good = b.pos;
			j->stop = 1;
			j->stop_in = in;
			j->stop_at = b.at - 1;
			break;
		}
		written += r;
	}
	j->b = b;
	j->out = out;
	j->rec = rec;
	j->written = written;
}

static void *
rowpar_work(void *arg)
{
	struct rpworker *w = arg;
	struct rowpar *rp = w->rp;
	struct rpjob *j;

	kn_thread_nosignals();
	for (;;) {
		pthread_mutex_lock(&rp->mu);
		while (rp->nq == 0 && !rp->end)
			pthread_cond_wait(&rp->more, &rp->mu);
		if (rp->nq == 0) {
			pthread_mutex_unlock(&rp->mu);
			return NULL;
		}
		j = rp->q[rp->qh];
		rp->qh = (rp->qh + 1) % rp->nb;
		rp->nq--;
		pthread_mutex_unlock(&rp->mu);
		rowpar_block(w, j);
		pthread_mutex_lock(&rp->mu);
		j->done = 1;
		pthread_cond_broadcast(&rp->done);
		pthread_mutex_unlock(&rp->mu);
	}
}

/* The rest of block j's rows done on the main thread as one thread does
 * them, its first bad row reported as kn_table_next reports it; returns
 * the rows written. */
static int64_t
rowpar_serial(struct rowpar *rp, struct rpjob *j, kn_str *f)
{
	const struct rowpar_ops *ops = rp->ops;
	kn_block *b = &j->b;
	int64_t written = 0;
	kn_table tc;

	tc = *rp->t;
	tc.f = f;
	tc.r.name = b->name;
	while (kn_block_row(rp->t, b, f)) {
		tc.r.lineno = b->lineno;
		tc.rows = j->row0 + b->at;
		written += ops->serial(ops->ctx, &tc);
	}
	if (b->bad)
		kn_block_fail(rp->t, b);
	return written;
}

/*
 * On the main thread: waits for block j, applies its rows' records in
 * order and writes its output to fp; from the first row the thread
 * could not do or whose record is refused, the rest of the block is
 * done as one thread does it.  Returns the rows written.
 */
static int64_t
rowpar_finish(struct rowpar *rp, struct rpjob *j, FILE *fp,
    const char *outname, kn_str *f)
{
	const struct rowpar_ops *ops = rp->ops;
	kn_block *b = &j->b;
	const char *p, *e;
	uint64_t off[3], r = 0, at;
	int64_t written;
	size_t outn, in;
	int redo;

	pthread_mutex_lock(&rp->mu);
	while (!j->done)
		pthread_cond_wait(&rp->done, &rp->mu);
	pthread_mutex_unlock(&rp->mu);
	written = j->written;
	outn = j->out.len;
	in = j->stop_in;
	at = j->stop_at;
	redo = j->stop;
	if (ops->commit != NULL)
		for (p = j->rec.p, e = p + j->rec.len; p < e; r++) {
			memcpy(off, p, sizeof(off));
			p += sizeof(off);
			if (!ops->commit(ops->ctx, &p)) {
				redo = 1;
				in = (size_t)off[0];
				outn = (size_t)off[1];
				written = (int64_t)off[2];
				at = r;
				break;
			}
		}
	if (outn > 0 && (fwrite(j->out.buf, 1, outn, fp) != outn ||
	    ferror(fp)))
		kn_die_sys("%s: write error", outname);
	if (redo) {
		/* The rows taken from in on are as read again. */
		kn_block_rewind(rp->t, b, in, at, j->good);
		written += rowpar_serial(rp, j, f);
	}
	return written;
}

/* The main thread's blocks in hand, in the order read: order[wh] on,
 * nin of them, and fill, the one being read. */
struct rpread {
	struct rowpar *rp;
	struct rpjob **order, *fill;
	size_t wh, nin;
	FILE *fp;
	const char *outname;
	kn_str *f;
	int64_t written;
};

/* The oldest block in hand written (rowpar_finish); returns it. */
static struct rpjob *
rowpar_next(struct rpread *rd)
{
	struct rpjob *j = rd->order[rd->wh];

	rd->wh = (rd->wh + 1) % rd->rp->nb;
	rd->nin--;
	rd->written += rowpar_finish(rd->rp, j, rd->fp, rd->outname, rd->f);
	return j;
}

/*
 * The hook of the main thread when the reading dies (kn_die_defer: a
 * line too long, a NUL byte in a line the buffer did not hold, a CSV
 * quote never closed): the blocks in hand written in order, then the
 * whole rows read into the one being filled, so that the output and the
 * first bad row are those of one thread.
 */
static void
rowpar_dying(void *arg)
{
	struct rpread *rd = arg;

	while (rd->nin > 0)
		rowpar_next(rd);
	if (rd->fill != NULL && rd->fill->b.len > 0)
		rowpar_serial(rd->rp, rd->fill, rd->f);
}

int64_t
rowpar_run(kn_table *t, const struct rowpar_ops *ops, int nt, size_t limit,
    FILE *fp, const char *outname)
{
	struct rowpar rp;
	struct rpworker w[64];
	struct rpjob *jobs, **spare;
	struct rpread rd;
	pthread_t th[64];
	size_t want, nspare = 0, i;
	int started, k, got;

	if (nt > 64)
		nt = 64;
	memset(&rp, 0, sizeof(rp));
	rp.t = t;
	rp.ops = ops;
	for (started = 0; started < nt; started++) {
		w[started].rp = &rp;
		w[started].f = kn_alloc((t->ncols + 1) * sizeof(kn_str));
		if ((w[started].ts = ops->tnew(ops->ctx, nt)) == NULL) {
			free(w[started].f);
			break;
		}
	}
	if (started < nt) {
		for (k = 0; k < started; k++) {
			ops->tfree(ops->ctx, w[k].ts);
			free(w[k].f);
		}
		return -1;
	}
	pthread_mutex_init(&rp.mu, NULL);
	pthread_cond_init(&rp.more, NULL);
	pthread_cond_init(&rp.done, NULL);
	rp.nb = 2 * (size_t)nt + 1;
	jobs = kn_zalloc(rp.nb * sizeof(*jobs));
	rp.q = kn_zalloc(rp.nb * sizeof(*rp.q));
	memset(&rd, 0, sizeof(rd));
	rd.rp = &rp;
	rd.order = kn_zalloc(rp.nb * sizeof(*rd.order));
	rd.fp = fp;
	rd.outname = outname;
	rd.f = kn_alloc((t->ncols + 1) * sizeof(kn_str));
	spare = kn_zalloc(rp.nb * sizeof(*spare));
	for (i = 0; i < rp.nb; i++) {
		jobs[i].b.keep = 1;
		spare[nspare++] = &jobs[i];
	}
	/* A block's lines, its output and its records within a third of
	 * the share each; a CSV block's lines and their bytes as read
	 * (kept to be taken again) within the lines' third. */
	want = limit / 3 / rp.nb / (t->csv ? 2 : 1);
	if (want < ((size_t)16 << 10))
		want = (size_t)16 << 10;
	if (want > ((size_t)1 << 20))
		want = (size_t)1 << 20;
	for (started = 0; started < nt; started++)
		if (pthread_create(&th[started], NULL, rowpar_work,
		    &w[started]) != 0)
			break;
	for (k = started; k < nt; k++) {
		ops->tfree(ops->ctx, w[k].ts);
		free(w[k].f);
	}
	if (started == 0) {
		rd.written = -1;
		goto out;
	}
	for (;;) {
		struct rpjob *j;

		if (nspare == 0)
			spare[nspare++] = rowpar_next(&rd);
		j = spare[--nspare];
		/* Buffers grown by a long line are given back. */
		if (j->out.cap > 8 * (want + 4096)) {
			free(j->out.buf);
			memset(&j->out, 0, sizeof(j->out));
		}
		if (j->rec.cap > 8 * (want + 4096)) {
			free(j->rec.p);
			memset(&j->rec, 0, sizeof(j->rec));
		}
		j->row0 = t->rows;
		rd.fill = j;
		kn_die_defer(rowpar_dying, &rd);
		got = kn_table_block(t, &j->b, want);
		kn_die_defer(NULL, NULL);
		rd.fill = NULL;
		if (got == 0) {
			spare[nspare++] = j;
			break;
		}
		j->done = 0;
		rd.order[(rd.wh + rd.nin++) % rp.nb] = j;
		pthread_mutex_lock(&rp.mu);
		rp.q[(rp.qh + rp.nq++) % rp.nb] = j;
		pthread_cond_signal(&rp.more);
		pthread_mutex_unlock(&rp.mu);
		/* A line lent by the reader: nothing is read until it is
		 * written. */
		while (got == 2 && rd.nin > 0)
			spare[nspare++] = rowpar_next(&rd);
	}
	while (rd.nin > 0)
		rowpar_next(&rd);
	pthread_mutex_lock(&rp.mu);
	rp.end = 1;
	pthread_cond_broadcast(&rp.more);
	pthread_mutex_unlock(&rp.mu);
	for (k = 0; k < started; k++) {
		pthread_join(th[k], NULL);
		ops->tfree(ops->ctx, w[k].ts);
		free(w[k].f);
	}
out:
	for (i = 0; i < rp.nb; i++) {
		kn_block_free(&jobs[i].b);
		free(jobs[i].out.buf);
		free(jobs[i].rec.p);
	}
	free(jobs);
	free(rp.q);
	free(rd.order);
	free(spare);
	free(rd.f);
	pthread_mutex_destroy(&rp.mu);
	pthread_cond_destroy(&rp.done);
	pthread_cond_destroy(&rp.more);
	return rd.written;
}
