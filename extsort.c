/*
 * extsort.c: external merge sort of TSV lines by key columns within a
 * memory budget, the out-of-core path of kanon (paper 004 §2: data and
 * partitions kept in disk-resident runs; §4: one pass to form runs, then
 * merge passes of fan-in F, about log_F(runs) more passes).
 *
 * Runs are formed in input order and sorted stably, and the merge breaks
 * ties by run number, so the whole sort is stable.  The lines held in
 * memory, their keys, comparison and sorts are sortmem.c's.
 */
#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sortmem.h"

void
kn_sort_threads(kn_sorter *s, int n)
{
	s->threads = n < 1 ? 1 : n > 64 ? 64 : n;
}

/* After the first run of a sorter with threads: two buffers of half the
 * budget from now on, the first one's room given back. */
static void
halve(kn_sorter *s)
{
	s->halved = 1;
	s->bufbudget = s->budget / 2;
	/* Shrunk, its pages given back: freed before the smaller block is
	 * taken (kn_rebuf). */
	if (s->acap > SORT_FIRST_ARENA || s->acap > s->bufbudget) {
		s->acap = SORT_FIRST_ARENA < s->bufbudget ? SORT_FIRST_ARENA :
		    s->bufbudget;
		s->arena = kn_rebuf(s->arena, 0, s->acap);
	}
	if (s->rcap > SORT_FIRST_RECS) {
		s->rcap = SORT_FIRST_RECS;
		s->r = kn_rebuf(s->r, 0, s->rcap * sizeof(rec));
	}
}

kn_sorter *
kn_sort_new(const kn_skey *key, size_t nkey, size_t ncols, size_t budget,
    const char *tmpdir)
{
	kn_sorter *s = kn_zalloc(sizeof(*s));
	size_t i;

	s->key = key;
	s->nkey = nkey;
	s->ncols = ncols;
	s->budget = budget < (1 << 16) ? (1 << 16) : budget;
	s->tmpdir = tmpdir;
	s->threads = 1;
	s->bufbudget = s->budget;
	s->colkey = kn_alloc((ncols + 1) * sizeof(uint32_t));
	for (i = 0; i <= ncols; i++)
		s->colkey[i] = UINT32_MAX;
	for (i = nkey; i-- > 0;) {
		s->colkey[key[i].col] = (uint32_t)i;
		if (key[i].col > s->maxcol)
			s->maxcol = key[i].col;
	}
	s->keyed = 1;
	/* Arena and records of every buffer, each up to the buffer's
	 * budget: three times the budget at most (kn_sort_table's first
	 * buffer, then two halves). */
	s->ahead = s->budget >= KN_HEAP_HUGE && s->budget <= SIZE_MAX / 4 &&
	    kn_huge_ahead(3 * s->budget);
	/* Lines and records (with the merge sort's scratch) share the
	 * budget as the rows need: both grow as they fill, up to it, so
	 * that a budget is a ceiling and not an allocation (-S 1T). */
	s->acap = s->budget < SORT_FIRST_ARENA ? s->budget : SORT_FIRST_ARENA;
	s->arena = kn_alloc(s->acap);
	s->rcap = SORT_FIRST_RECS;
	s->r = kn_alloc(s->rcap * sizeof(rec));
	return s;
}

void
kn_sort_bulk(kn_sorter *s, void (*bulk)(const char *, size_t, void *))
{
	s->bulk = bulk;
}

void
kn_sort_direct(kn_sorter *s, int (*direct)(void *, const char **))
{
	s->direct = direct;
}

const kn_sortstats *
kn_sort_stats(const kn_sorter *s)
{
	return &s->st;
}

/* Keeps in s's high-water marks the bytes its arena and records (with
 * the sort's scratch) have touched, before they are emptied. */
static void
touched(kn_sorter *s)
{
	if (s->alen > s->ahw)
		s->ahw = s->alen;
	if (2 * s->n * sizeof(rec) > s->rhw)
		s->rhw = 2 * s->n * sizeof(rec);
}

/* Output buffer for runs.  A write error ends the program, or with
 * soft (a thread's run) is kept in err and ends the writing. */
struct wbuf {
	int fd;
	const char *path;
	char buf[1 << 16];
	size_t n;
	uint64_t *count;
	int soft, err;
};

static void
wfail(struct wbuf *w)
{
	if (!w->soft)
		kn_die_sys("%s: write error", w->path);
	if (w->err == 0)
		w->err = errno != 0 ? errno : EIO;
}

static void
wflush(struct wbuf *w)
{
	if (w->n > 0 && w->err == 0 && kn_write_all(w->fd, w->buf, w->n) != 0)
		wfail(w);
	*w->count += w->n;
	w->n = 0;
}

static void
wline(struct wbuf *w, const char *p, size_t len)
{
	if (len > KN_LINE_SHORT)
		kn_line_seen(len);
	if (w->n + len + 1 > sizeof(w->buf)) {
		wflush(w);
		if (len + 1 > sizeof(w->buf)) {
			if (w->err == 0 && (kn_write_all(w->fd, p, len) != 0 ||
			    kn_write_all(w->fd, "\n", 1) != 0))
				wfail(w);
			*w->count += len + 1;
			return;
		}
	}
	memcpy(w->buf + w->n, p, len);
	w->buf[w->n + len] = '\n';
	w->n += len + 1;
}

/* Sorts the lines of v in memory and writes them to w, which it
 * closes; the error of a soft w is left in w->err. */
static void
write_run(kn_sorter *v, struct wbuf *w)
{
	size_t i;

	kn_sort_mem(v);
	/* The lines are scattered in the arena now: each is fetched a few
	 * lines ahead, so that the cache misses overlap. */
	for (i = 0; i < v->n && w->err == 0; i++) {
		if (i + 16 < v->n)
			__builtin_prefetch(v->arena + v->r[i + 16].off);
		wline(w, v->arena + v->r[i].off, v->r[i].len);
	}
	wflush(w);
	if (close(w->fd) != 0)
		wfail(w);
}

/* Takes the run written to path, after the runs before it. */
static void
add_run(kn_sorter *s, char *path)
{
	s->run = kn_realloc(s->run, (s->nrun + 1) * sizeof(char *));
	s->run[s->nrun++] = path;
	s->st.runs++;
}

/* Sorts the lines in memory and writes them out as a run. */
static void
spill(kn_sorter *s)
{
	struct wbuf *w;

	if (s->n == 0)
		return;
	w = kn_zalloc(sizeof(*w));
	w->fd = kn_mktemp(s->tmpdir, (char **)&w->path);
	w->count = &s->st.bytes_written;
	write_run(s, w);
	add_run(s, (char *)w->path);
	free(w);
	touched(s);
	s->alen = 0;
	s->n = s->nprep = 0;
}

/* A stretch of the records of a sorter written as a run by a thread
 * of its own (spill_parts). */
struct spart {
	kn_sorter v;
	struct wbuf *w;
};

static void *
spart_run(void *arg)
{
	struct spart *x = arg;

	write_run(&x->v, x->w);
	return NULL;
}

/* Sorts the records of s in np stretches of the input, each written
 * as a run by a thread of its own: the runs' files in path[0..np), in
 * order, and their write errors (errno) in err. */
static void
spill_parts(kn_sorter *s, size_t np, char **path, int *err)
{
	struct spart *x = kn_zalloc(np * sizeof(*x));
	size_t i, lo, hi;

	kn_sort_prep_all(s);
	for (i = 0; i < np; i++) {
		lo = s->n * i / np;
		hi = s->n * (i + 1) / np;
		x[i].v = *s;
		x[i].v.threads = 1;
		x[i].v.r = s->r + lo;
		x[i].v.n = x[i].v.nprep = hi - lo;
		x[i].v.scratch = s->r + s->n + lo;
		memset(&x[i].v.st, 0, sizeof(x[i].v.st));
		x[i].w = kn_zalloc(sizeof(*x[i].w));
		x[i].w->fd = kn_mktemp(s->tmpdir, (char **)&x[i].w->path);
		x[i].w->count = &x[i].v.st.bytes_written;
		x[i].w->soft = 1;
	}
	kn_sort_par_run(spart_run, x, sizeof(*x), (int)np);
	for (i = 0; i < np; i++) {
		path[i] = (char *)x[i].w->path;
		err[i] = x[i].w->err;
		s->st.bytes_written += x[i].v.st.bytes_written;
		free(x[i].w);
	}
	free(x);
}

/*
 * A run sorted and written by a thread while the sorter fills its other
 * buffer: a copy of the sorter holding the full buffer (its own arena
 * and records), the temp file made by the caller, and what went wrong.
 */
struct bgspill {
	kn_sorter view;
	int fd;
	char *path;
	int err;		/* errno of a write error, or 0 */
	uint64_t bytes;
	pthread_t th;
};

static void *
bg_run(void *arg)
{
	struct bgspill *b = arg;
	struct wbuf *w = kn_zalloc(sizeof(*w));

	w->fd = b->fd;
	w->path = b->path;
	w->count = &b->bytes;
	w->soft = 1;
	write_run(&b->view, w);
	b->err = w->err;
	free(w);
	return NULL;
}

/* Takes the run b wrote; its buffers become the spare ones. */
static void
bg_done(kn_sorter *s, struct bgspill *b)
{
	if (b->err != 0) {
		errno = b->err;
		kn_die_sys("%s: write error", b->path);
	}
	add_run(s, b->path);
	s->st.bytes_written += b->bytes;
	free(s->sparea);
	free(s->spr);
	s->sparea = b->view.arena;
	s->spacap = b->view.acap;
	s->spr = b->view.r;
	s->sprcap = b->view.rcap;
	free(b);
}

/* Waits for the run being written, and takes it. */
static void
bg_join(kn_sorter *s)
{
	struct bgspill *b = s->bg;

	if (b == NULL)
		return;
	pthread_join(b->th, NULL);
	s->bg = NULL;
	bg_done(s, b);
}

/* Hands the full buffer to a thread that sorts it and writes it as a
 * run (one at a time), and goes on with the spare buffers. */
static void
spill_async(kn_sorter *s)
{
	struct bgspill *b;

	bg_join(s);
	touched(s);
	b = kn_zalloc(sizeof(*b));
	b->view = *s;
	b->view.bg = NULL;
	/* The thread sorts on the threads but the one that reads. */
	b->view.threads = s->threads - 1;
	b->fd = kn_mktemp(s->tmpdir, &b->path);
	if (s->sparea != NULL) {
		s->arena = s->sparea;
		s->acap = s->spacap;
		s->r = s->spr;
		s->rcap = s->sprcap;
		s->sparea = NULL;
		s->spr = NULL;
	} else {
		s->acap = SORT_FIRST_ARENA < s->bufbudget ? SORT_FIRST_ARENA :
		    s->bufbudget;
		s->arena = kn_alloc(s->acap);
		s->rcap = SORT_FIRST_RECS;
		s->r = kn_alloc(s->rcap * sizeof(rec));
	}
	s->alen = 0;
	s->n = s->nprep = 0;
	if (pthread_create(&b->th, NULL, bg_run, b) != 0) {
		/* No thread: the run is written now. */
		bg_run(b);
		bg_done(s, b);
		return;
	}
	s->bg = b;
}

void
kn_sort_add(kn_sorter *s, const char *line, size_t len)
{
	s->keyed = 0;
	kn_sort_add_fields(s, line, len, NULL);
}

/* The bytes a row takes in a buffer of s beside its line: its key
 * offsets in the arena, its record and the sort's scratch record. */
static size_t
row_over(const kn_sorter *s)
{
	return 8 * s->nkey + 8 + 2 * sizeof(rec);
}

/* What the rows of a buffer of s may fill: its budget, less, on huge
 * pages (s->ahead), the 2 MiB page that the ends of its arena and of its
 * records may each hold resident beyond what they fill. */
static size_t
fill_budget(const kn_sorter *s)
{
	size_t h = s->ahead ? (size_t)4 << 20 : 0;

	return s->bufbudget > 2 * h ? s->bufbudget - h : s->bufbudget;
}

/* Whether a line of len bytes fits the buffer of s (an empty buffer
 * takes any line, held alone). */
static int
fits(const kn_sorter *s, size_t len)
{
	return s->n == 0 || s->alen + len + row_over(s) +
	    2 * s->n * sizeof(rec) <= fill_budget(s);
}

/*
 * With s->ahead, the arena (rec 0) or the records (rec 1) made the
 * size they can reach at once, n bytes at least, on huge pages from
 * their first byte, the used bytes copied (few: they grow once): the
 * buffer's budget, or less when the input's bytes are known (s->hint):
 * a row takes ncols bytes of it at least, so that it has hint / ncols
 * rows at most.  0, s->ahead turned off, when the system refuses that
 * much (room then doubles them as before).
 */
static int
ahead_to(kn_sorter *s, int rec, size_t used, size_t n)
{
	uint64_t rows, most;
	size_t cap = s->bufbudget;
	void *q;

	if (!s->ahead)
		return 0;
	rows = s->hint / (s->ncols > 0 ? s->ncols : 1) + 1;
	most = rec ? 2 * rows * sizeof(*s->r) : s->hint + rows *
	    (8 * s->nkey + 8);
	if (s->hint > 0 && most < cap)
		cap = (size_t)most;
	if (rec)
		cap -= cap % sizeof(*s->r);
	if (cap < n)
		cap = n;
	q = kn_move_huge(rec ? (void *)s->r : (void *)s->arena, used, cap);
	if (q == NULL) {
		s->ahead = 0;
		return 0;
	}
	if (rec) {
		s->r = q;
		s->rcap = cap / sizeof(*s->r);
	} else {
		s->arena = q;
		s->acap = cap;
	}
	return 1;
}

/* Room in s's arena for bytes more and in its records for rows more:
 * with s->ahead, each its ceiling at once (ahead_to), of which what
 * fits() lets the rows fill is touched; else the arena twice as large,
 * within the budget (a line larger than the budget held alone, the
 * arena empty), the records and the sort's scratch twice as many. */
static void
room(kn_sorter *s, size_t bytes, size_t rows)
{
	if (s->alen + bytes > s->acap &&
	    !ahead_to(s, 0, s->alen, s->alen + bytes)) {
		size_t cap = 2 * s->acap;

		if (cap > s->bufbudget)
			cap = s->bufbudget;
		if (cap < s->alen + bytes)
			cap = s->alen + bytes;
		s->arena = kn_rebuf(s->arena, s->alen, cap);
		s->acap = cap;
	}
	if (2 * (s->n + rows) > s->rcap && !ahead_to(s, 1,
	    s->n * sizeof(rec), 2 * (s->n + rows) * sizeof(rec))) {
		s->rcap = 2 * s->rcap > 2 * (s->n + rows) ? 2 * s->rcap :
		    2 * (s->n + rows);
		s->r = kn_rebuf(s->r, s->n * sizeof(rec),
		    s->rcap * sizeof(rec));
	}
}

/* Keeps line[0..len) in the buffer of s, which has room for it (fits):
 * its keys from the fields f (inside line), or, with none, found by
 * locate; with prep, its keys and prefix now, else by kn_sort_prep_all. */
static void
keep(kn_sorter *s, const char *line, size_t len, const kn_str *f, int prep)
{
	size_t need = 8 * s->nkey + len + 8, i;
	uint32_t *k;
	char *p;
	rec *r;

	if (len > UINT32_MAX - 16)
		kn_die("a line of %zu bytes is too long to sort", len);
	room(s, need, 1);
	s->alen += (8 - (s->alen & 7)) & 7;	/* align the offsets */
	k = (uint32_t *)(void *)(s->arena + s->alen);
	p = s->arena + s->alen + 8 * s->nkey;
	memcpy(p, line, len);
	p[len] = '\0';
	r = &s->r[s->n++];
	r->off = (uint64_t)(p - s->arena);
	r->len = (uint32_t)len;
	if (f != NULL)
		for (i = 0; i < s->nkey; i++) {
			k[2 * i] = (uint32_t)(f[s->key[i].col].p - line);
			k[2 * i + 1] = (uint32_t)f[s->key[i].col].n;
		}
	if (prep) {
		if (!s->keyed)
			kn_sort_locate(s, p, len, k, NULL, 0);
		kn_sort_prefix(s, p, len, k, &r->p);
		s->nprep = s->n;
	}
	s->alen += 8 * s->nkey + len + 1;
	s->st.rows++;
}

void
kn_sort_add_fields(kn_sorter *s, const char *line, size_t len,
    const kn_str *f)
{
	if (!fits(s, len)) {
		if (s->threads > 1 && s->halved)
			spill_async(s);
		else {
			spill(s);
			if (s->threads > 1)
				halve(s);
		}
	}
	/* With threads, the keys and the prefix are found by them, as
	 * the lines are sorted (kn_sort_prep_all). */
	keep(s, line, len, f, s->threads == 1);
}

/*
 * Runs formed on threads from blocks of lines (kn_sort_table).  This
 * thread reads whole lines into blocks (block.c's kn_table_block) and
 * gives each block its place in a buffer: room in the arena for its
 * lines and their keys, and its records, after the block before.  Any
 * worker takes a block and writes its rows there, each with its keys
 * and prefix, so the records of a buffer are in the order of the
 * input; a buffer full, once its blocks are done, is sorted and
 * written as a run by a worker while the blocks go to the other
 * buffer.  The runs are stretches of the input, numbered in its order,
 * and the merge (ties to the earlier run) gives the order of one
 * thread.  Two buffers and the blocks share the budget; the first
 * buffer has all of it but the blocks' share, so that lines that fit
 * are sorted in memory, and is sorted on every thread and written
 * before the other fills.  The earliest block's bad row is reported,
 * as one thread reports it.
 */
struct pbuf {
	kn_sorter v;		/* arena, records and counts of the buffer */
	size_t pending;		/* blocks being written into it */
	int full;		/* no more blocks: to sort once none pends */
	int busy;		/* being sorted and written */
	size_t run, nrun;	/* its runs' numbers */
};

struct pblk {
	kn_block b;
	struct pbuf *to;
	size_t aoff, roff;	/* its place in to's arena and records */
	uint64_t rows;
};

struct tfill {
	kn_sorter *s;
	kn_table *t;
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* any change: the few threads all look */
	struct pblk **q;	/* a ring of the blocks to do */
	size_t nb, qh, nq;
	struct pblk **spare;
	size_t nspare;
	struct pbuf buf[2];
	int first;		/* buf[0] has the budget (no run written),
				 * unless the lines cannot fit */
	int quit, stop;		/* the end; a bad row met */
	struct pblk *bad;	/* the earliest block with a bad row */
	char **path;		/* the runs, by their number */
	int *err;		/* and their write errors (errno) */
	size_t nrun, runcap;
	pthread_t main;		/* the thread that reads */
	int reading;		/* it is in kn_table_block */
};

/* The rows being formed on threads, for tfill_before_message, and the
 * kn_before_message it stands in front of: a hook takes no argument. */
static struct tfill *tfill_hooked;
static void (*tfill_next_hook)(void);

/*
 * kn_before_message while the rows are formed on threads.  When the
 * reading thread dies of an error of its input (a header that differs,
 * a NUL byte in a line longer than the reader's buffer), a block read
 * before may hold a bad row that one thread would have reported first:
 * the blocks read are done (within 5 seconds: a worker may be dying
 * too), and the earliest bad row, if any, is reported instead.
 */
static void
tfill_before_message(void)
{
	struct tfill *p = tfill_hooked;
	struct pblk *bad = NULL;
	struct timespec until;

	if (p != NULL && p->reading && pthread_equal(pthread_self(),
	    p->main)) {
		tfill_hooked = NULL;
		kn_before_message = tfill_next_hook;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 5;
		pthread_mutex_lock(&p->mu);
		while (p->nq > 0 || p->buf[0].pending > 0 ||
		    p->buf[1].pending > 0)
			if (pthread_cond_timedwait(&p->cv, &p->mu,
			    &until) != 0)
				break;
		bad = p->bad;
		pthread_mutex_unlock(&p->mu);
		if (bad != NULL)
			kn_block_fail(p->t, &bad->b);
	}
	if (tfill_next_hook != NULL)
		tfill_next_hook();
}

struct tworker {
	struct tfill *p;
	kn_str *f;
	pthread_t th;
};

/* Writes the rows of block x into its place; 0 at a bad row. */
static int
pblk_rows(struct tfill *p, struct pblk *x, kn_str *f)
{
	kn_sorter *v = &x->to->v;
	kn_block *b = &x->b;
	char *arena = v->arena, *q;
	rec *r = v->r + x->roff;
	size_t a = x->aoff, at, len, i, c, nk = v->nkey;
	uint32_t *k;

	for (;;) {
		at = b->pos;
		if (!kn_block_row(p->t, b, f))
			break;
		len = b->pos - at - 1;
		if (len > UINT32_MAX - 16)
			kn_die("a line of %zu bytes is too long to sort", len);
		a += (8 - (a & 7)) & 7;
		k = (uint32_t *)(void *)(arena + a);
		q = arena + a + 8 * nk;
		if (p->t->csv) {
			/* The record decoded, its fields joined by tabs
			 * (kn_table_join): no longer than its bytes read,
			 * which pblk_place gave room for. */
			for (len = 0, c = 0; c < p->t->ncols; c++) {
				memcpy(q + len, f[c].p, f[c].n);
				f[c].p = q + len;
				len += f[c].n;
				q[len++] = '\t';
			}
			q[--len] = '\0';
		} else
			memcpy(q, b->buf + at, len + 1);  /* and its NUL */
		for (i = 0; i < nk; i++) {
			k[2 * i] = (uint32_t)(f[v->key[i].col].p -
			    (p->t->csv ? q : b->buf + at));
			k[2 * i + 1] = (uint32_t)f[v->key[i].col].n;
		}
		r->off = (uint64_t)(q - arena);
		r->len = (uint32_t)len;
		kn_sort_prefix(v, q, len, k, &r->p);
		r++;
		a += 8 * nk + len + 1;
	}
	return !b->bad;
}

/* Sorts full buffer c and writes it as runs c->run to c->run + c->nrun
 * - 1 (more than one: stretches written side by side). */
static void
pbuf_write(struct tfill *p, struct pbuf *c)
{
	char **path = kn_alloc(c->nrun * sizeof(char *));
	int *err = kn_alloc(c->nrun * sizeof(int));
	size_t i;

	c->v.nprep = c->v.n;
	spill_parts(&c->v, c->nrun, path, err);
	pthread_mutex_lock(&p->mu);
	for (i = 0; i < c->nrun; i++) {
		p->path[c->run + i] = path[i];
		p->err[c->run + i] = err[i];
	}
	pthread_mutex_unlock(&p->mu);
	free(path);
	free(err);
}

static void *
tfill_work(void *arg)
{
	struct tworker *w = arg;
	struct tfill *p = w->p;
	struct pblk *x;
	struct pbuf *c;
	int i, ok;

	kn_thread_nosignals();
	pthread_mutex_lock(&p->mu);
	for (;;) {
		/* A full buffer first: its room is awaited. */
		for (c = NULL, i = 0; i < 2; i++)
			if (p->buf[i].full && !p->buf[i].busy &&
			    p->buf[i].pending == 0)
				c = &p->buf[i];
		if (c != NULL) {
			c->busy = 1;
			ok = !p->stop;
			pthread_mutex_unlock(&p->mu);
			if (ok)
				pbuf_write(p, c);
			pthread_mutex_lock(&p->mu);
			c->busy = 0;
			c->full = 0;
			c->v.n = 0;
			c->v.alen = 0;
			pthread_cond_broadcast(&p->cv);
			continue;
		}
		if (p->nq > 0) {
			x = p->q[p->qh];
			p->qh = (p->qh + 1) % p->nb;
			p->nq--;
			pthread_mutex_unlock(&p->mu);
			ok = pblk_rows(p, x, w->f);
			pthread_mutex_lock(&p->mu);
			x->to->pending--;
			if (!ok) {
				p->stop = 1;
				if (p->bad == NULL || x->b.seq < p->bad->b.seq)
					p->bad = x;
			} else
				p->spare[p->nspare++] = x;
			pthread_cond_broadcast(&p->cv);
			continue;
		}
		if (p->quit)
			break;
		pthread_cond_wait(&p->cv, &p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Empties buffer v for cap bytes at most.  The pages it touched stay
 * while they fit: its arena and records are shrunk, in the proportion
 * they were used, only when they would not (a block then taken anew,
 * faulted in again, on huge pages when large: kn_rebuf). */
static void
pbuf_reset(kn_sorter *v, size_t cap)
{
	size_t a, r;

	v->bufbudget = cap;
	cap = fill_budget(v);
	if (v->arena == NULL) {
		v->acap = SORT_FIRST_ARENA < cap ? SORT_FIRST_ARENA : cap;
		v->rcap = SORT_FIRST_RECS;
		v->arena = kn_alloc(v->acap);
		v->r = kn_alloc(v->rcap * sizeof(rec));
	} else if (v->ahw + v->rhw > cap) {
		a = (size_t)((double)cap * (double)v->ahw /
		    (double)(v->ahw + v->rhw));
		r = (cap - a) / sizeof(rec);
		if (v->ahead) {
			/* In place, their pages past those shares given
			 * back: a block taken anew would grow by a copy. */
			v->arena = kn_shrink(v->arena, a, v->acap);
			v->r = kn_shrink(v->r, r * sizeof(rec),
			    v->rcap * sizeof(rec));
			v->ahw = a;
			v->rhw = r * sizeof(rec);
		} else {
			if (v->acap > a && a > 0) {
				v->acap = a;
				v->arena = kn_rebuf(v->arena, 0, v->acap);
			}
			if (v->rcap > r && r > 1) {
				v->rcap = r;
				v->r = kn_rebuf(v->r, 0,
				    v->rcap * sizeof(rec));
			}
		}
		v->ahw = v->ahw < v->acap ? v->ahw : v->acap;
		v->rhw = v->rhw < v->rcap * sizeof(rec) ? v->rhw :
		    v->rcap * sizeof(rec);
	}
	v->alen = 0;
	v->n = v->nprep = 0;
}

/* Waits, holding p->mu, until c pends on no block and is not being
 * sorted, or a bad row stops all. */
static void
pbuf_wait(struct tfill *p, struct pbuf *c)
{
	while ((c->pending > 0 || c->full) && !p->stop)
		pthread_cond_wait(&p->cv, &p->mu);
}

/* Gives block x, of rows rows, its place in the buffer that fills (*cp):
 * closing it when full, for the other one; growing it when every block
 * written into it is done.  Returns 0 when a bad row stops all.  Holds
 * p->mu. */
static int
pblk_place(struct tfill *p, struct pbuf **cp, struct pblk *x, uint64_t rows)
{
	struct pbuf *c = *cp;
	kn_sorter *v = &c->v;
	size_t na = x->b.len + (size_t)rows * (8 * v->nkey + 8), cap;

	if (v->n > 0 && v->alen + x->b.len + (size_t)rows * row_over(v) +
	    2 * v->n * sizeof(rec) > fill_budget(v)) {
		touched(v);
		/* The first is written by every thread, a stretch each. */
		c->run = p->nrun;
		c->nrun = p->first && v->n >= ((size_t)1 << 16) ?
		    (size_t)(p->s->threads > 8 ? 8 : p->s->threads) : 1;
		p->nrun += c->nrun;
		p->path = kn_grow(p->path, &p->runcap, p->nrun,
		    sizeof(char *), 16);
		p->err = kn_realloc(p->err, p->runcap * sizeof(int));
		for (cap = c->run; cap < p->nrun; cap++) {
			p->path[cap] = NULL;
			p->err[cap] = 0;
		}
		c->full = 1;
		pthread_cond_broadcast(&p->cv);
		if (p->first) {
			/* Written before the other takes its room. */
			pbuf_wait(p, c);
			if (p->stop)
				return 0;
			p->first = 0;
			pbuf_reset(v, p->buf[1].v.bufbudget);
		}
		c = *cp = c == &p->buf[0] ? &p->buf[1] : &p->buf[0];
		v = &c->v;
		pbuf_wait(p, c);
		if (p->stop)
			return 0;
		pbuf_reset(v, v->bufbudget);
	}
	if (v->alen + na > v->acap || 2 * (v->n + rows) > v->rcap) {
		/* Moved only when no thread writes into it. */
		while (c->pending > 0 && !p->stop)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->stop)
			return 0;
		room(v, na, rows);
	}
	x->to = c;
	x->aoff = v->alen;
	x->roff = v->n;
	x->rows = rows;
	v->alen += na;
	v->n += rows;
	v->st.rows += rows;
	c->pending++;
	return 1;
}

/* Whether the rows of a table of bytes bytes, judged by its first block
 * x (of rows rows), would not fit buffer v: the block's lines with what
 * its rows take beside them (row_over), in proportion to its bytes. */
static int
table_overflows(const kn_sorter *v, uint64_t bytes, const struct pblk *x,
    uint64_t rows)
{
	double per;

	if (x->b.len == 0)
		return 0;
	per = ((double)x->b.len + (double)rows * (double)row_over(v)) /
	    (double)x->b.len;
	return (double)bytes * per > (double)v->bufbudget;
}

void
kn_sort_table(kn_sorter *s, kn_table *t)
{
	struct tfill p;
	struct tworker w[64];
	struct pblk *blocks;
	struct pbuf *c;
	size_t want, room, i;
	uint64_t rows, bytes, seq = 0;
	int nt = s->threads, k, got, ok = 1;

	/* Blocks of a sixteenth of the budget in all, each of 1 MiB at
	 * most; the rest for two buffers of 64 KiB at least. */
	memset(&p, 0, sizeof(p));
	p.nb = (size_t)nt + 2;
	want = s->budget / 16 / p.nb;
	if (want > ((size_t)1 << 20))
		want = (size_t)1 << 20;
	/* A block's room: its lines and tsv.c's slack (block_room). */
	room = p.nb * (want + 4096 + 64);
	s->hint = kn_table_size(t);
	if (s->threads < 2 || !kn_table_blocks(t) || !s->keyed || s->n > 0 ||
	    s->budget < room + ((size_t)128 << 10)) {
		while (kn_table_next(t)) {
			kn_table_join(t);
			kn_sort_add_fields(s, t->r.line, t->r.len, t->f);
		}
		return;
	}
	p.s = s;
	p.t = t;
	/* Lines that cannot fit go to the two buffers at once: the whole
	 * budget taken by the first, then given back for two halves,
	 * would fault in half as much again. */
	bytes = s->hint;
	p.first = bytes <= s->budget;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	blocks = kn_zalloc(p.nb * sizeof(*blocks));
	p.q = kn_alloc(p.nb * sizeof(*p.q));
	p.spare = kn_alloc(p.nb * sizeof(*p.spare));
	for (i = 0; i < p.nb; i++)
		p.spare[p.nspare++] = &blocks[i];
	for (k = 0; k < 2; k++) {
		kn_sorter *v = &p.buf[k].v;

		*v = *s;
		v->threads = 1;
		v->bg = NULL;
		v->run = NULL;
		v->nrun = 0;
		v->sparea = NULL;
		v->spr = NULL;
		memset(&v->st, 0, sizeof(v->st));
		v->bufbudget = (s->budget - room) / 2;
	}
	/* The sorter's own buffer becomes the first. */
	if (p.first)
		p.buf[0].v.bufbudget = s->budget - room;
	p.buf[0].v.alen = p.buf[0].v.n = 0;
	p.buf[1].v.arena = NULL;
	p.buf[1].v.r = NULL;
	s->arena = NULL;
	s->r = NULL;
	pbuf_reset(&p.buf[1].v, p.buf[1].v.bufbudget);
	for (k = 0; k < nt; k++) {
		w[k].p = &p;
		w[k].f = kn_alloc((t->ncols + 1) * sizeof(kn_str));
		if (pthread_create(&w[k].th, NULL, tfill_work, &w[k]) != 0) {
			free(w[k].f);
			break;
		}
	}
	nt = k;
	if (nt == 0) {
		/* No thread: every row on this one. */
		p.quit = 1;
		p.buf[0].v.bufbudget = s->budget;
		ok = 0;
	}
	c = &p.buf[0];
	p.main = pthread_self();
	tfill_hooked = &p;
	tfill_next_hook = kn_before_message;
	kn_before_message = tfill_before_message;
	for (;;) {
		struct pblk *x;

		pthread_mutex_lock(&p.mu);
		while (p.nspare == 0 && !p.stop)
			pthread_cond_wait(&p.cv, &p.mu);
		x = p.stop || !ok ? NULL : p.spare[--p.nspare];
		pthread_mutex_unlock(&p.mu);
		if (x == NULL)
			break;
		rows = t->rows;
		p.reading = 1;
		got = kn_table_block(t, &x->b, want);
		p.reading = 0;
		if (got == 0) {
			pthread_mutex_lock(&p.mu);
			p.spare[p.nspare++] = x;
			pthread_mutex_unlock(&p.mu);
			break;
		}
		x->b.seq = seq++;
		pthread_mutex_lock(&p.mu);
		if (x->b.seq == 0 && p.first && bytes > 0 &&
		    table_overflows(&p.buf[0].v, bytes, x, t->rows - rows)) {
			p.first = 0;
			p.buf[0].v.bufbudget = p.buf[1].v.bufbudget;
		}
		if (pblk_place(&p, &c, x, t->rows - rows)) {
			p.q[(p.qh + p.nq++) % p.nb] = x;
			pthread_cond_broadcast(&p.cv);
		} else
			p.spare[p.nspare++] = x;
		/* A line lent by the reader: nothing is read until every
		 * block, it too, is back. */
		while (got == 2 && p.nspare < p.nb && !p.stop)
			pthread_cond_wait(&p.cv, &p.mu);
		pthread_mutex_unlock(&p.mu);
	}
	/* The blocks done and the full buffers written, then the end. */
	pthread_mutex_lock(&p.mu);
	while (!p.stop && (p.nq > 0 || c->pending > 0 || p.buf[0].full ||
	    p.buf[1].full))
		pthread_cond_wait(&p.cv, &p.mu);
	p.quit = 1;
	pthread_cond_broadcast(&p.cv);
	pthread_mutex_unlock(&p.mu);
	for (k = 0; k < nt; k++) {
		pthread_join(w[k].th, NULL);
		free(w[k].f);
	}
	kn_before_message = tfill_next_hook;
	tfill_hooked = NULL;
	for (i = 0; i < p.nrun; i++)
		if (p.err[i] != 0) {
			errno = p.err[i];
			kn_die_sys("%s: write error", p.path[i]);
		}
	if (p.bad != NULL)
		kn_block_fail(t, &p.bad->b);
	for (i = 0; i < p.nrun; i++)
		add_run(s, p.path[i]);
	for (k = 0; k < 2; k++) {
		kn_sorter *v = &p.buf[k].v;

		s->st.rows += v->st.rows;
		s->st.bytes_written += v->st.bytes_written;
		if (&p.buf[k] == c) {
			s->arena = v->arena;
			s->acap = v->acap;
			s->alen = v->alen;
			s->r = v->r;
			s->rcap = v->rcap;
			s->n = s->nprep = v->n;
			s->ahw = v->ahw;
			s->rhw = v->rhw;
		} else {
			free(v->arena);
			free(v->r);
		}
	}
	/* As kn_sort_add_fields leaves it after runs (halve). */
	if (p.nrun > 0) {
		s->halved = 1;
		s->bufbudget = s->budget / 2;
	}
	for (i = 0; i < p.nb; i++)
		kn_block_free(&blocks[i].b);
	free(blocks);
	free(p.q);
	free(p.spare);
	free(p.path);
	free(p.err);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	if (nt == 0) {
		s->threads = 1;
		kn_sort_table(s, t);
	}
}

static void
out_run(const char *line, size_t len, void *ctx)
{
	wline(ctx, line, len);
}

/* The merge fan-in and the read buffer per run for the budget: a run's
 * reader may grow to the longest line read (kn_line_longest), so that
 * the fan-in falls, down to 2, as lines outgrow a buffer. */
static size_t
fanin(const kn_sorter *s, size_t *bufsz)
{
	struct rlimit rl;
	size_t b = s->budget / 64, f, longest;

	if (b < (1 << 14))
		b = 1 << 14;
	if (b > (1 << 20))
		b = 1 << 20;
	longest = __atomic_load_n(&kn_line_longest, __ATOMIC_RELAXED);
	f = s->budget / (longest > b ? longest : b);
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < f + 16)
		f = rl.rlim_cur > 20 ? (size_t)rl.rlim_cur - 16 : 4;
	if (f < 2)
		f = 2;
	*bufsz = b;
	return f;
}

void
kn_sort_finish(kn_sorter *s, int unique,
    void (*out)(const char *, size_t, void *), void *ctx)
{
	size_t bufsz, f = fanin(s, &bufsz), i, j, ns;
	source *src;
	int done;

	bg_join(s);
	free(s->sparea);
	free(s->spr);
	s->sparea = NULL;
	s->spr = NULL;
	touched(s);
	if (s->nrun == 0) {
		/* Everything fit: sort in memory and write out. */
		kn_sort_mem(s);
		src = kn_zalloc(sizeof(source));
		src->kind = SRC_MEM;
		kn_sort_merge_src(s, src, 1, unique, out, ctx);
		free(src);
		return;
	}
	/* The last lines join the runs (with threads, as runs of their
	 * stretches written side by side); the arena is then free for
	 * the read buffers of the merge. */
	if (s->threads > 1 && s->n >= ((size_t)1 << 16)) {
		size_t np = s->threads > 8 ? 8 : (size_t)s->threads;
		char **path = kn_alloc(np * sizeof(char *));
		int *err = kn_alloc(np * sizeof(int));

		spill_parts(s, np, path, err);
		for (i = 0; i < np; i++)
			if (err[i] != 0) {
				errno = err[i];
				kn_die_sys("%s: write error", path[i]);
			}
		for (i = 0; i < np; i++)
			add_run(s, path[i]);
		free(path);
		free(err);
		s->alen = 0;
		s->n = s->nprep = 0;
	} else
		spill(s);
	if (s->threads < 2 || s->nrun > f) {
		/* Else kept for the last merge's chunks (mchunk_pool). */
		free(s->arena);
		s->arena = NULL;
		free(s->r);
		s->r = NULL;
	}
	s->n = s->nprep = 0;
	while (s->nrun > (f = fanin(s, &bufsz))) {
		/* A merge pass: consecutive groups of f runs, in order. */
		char **next = kn_alloc(((s->nrun + f - 1) / f) * sizeof(char *));
		size_t nn = 0;

		s->st.merge_passes++;
		for (i = 0; i < s->nrun; i += f) {
			struct wbuf *w = kn_zalloc(sizeof(*w));

			ns = s->nrun - i < f ? s->nrun - i : f;
			src = kn_alloc(ns * sizeof(source));
			for (j = 0; j < ns; j++)
				kn_sort_open_run(&src[j], s->run[i + j], j,
				    bufsz);
			w->fd = kn_mktemp(s->tmpdir, (char **)&w->path);
			w->n = 0;
			w->count = &s->st.bytes_written;
			kn_sort_merge_src(s, src, ns, 0, out_run, w);
			wflush(w);
			if (close(w->fd) != 0)
				kn_die_sys("%s: write error", w->path);
			for (j = 0; j < ns; j++) {
				kn_reader_close(&src[j].r);
				kn_rmtemp(s->run[i + j]);
			}
			next[nn++] = (char *)w->path;
			free(w);
			free(src);
		}
		free(s->run);
		s->run = next;
		s->nrun = nn;
	}
	s->st.merge_passes++;
	/* On threads each merges every run (a part of their keys), so
	 * not with lines longer than a run's buffer. */
	done = s->threads > 1 && s->nrun > 1 &&
	    __atomic_load_n(&kn_line_longest, __ATOMIC_RELAXED) <= bufsz &&
	    kn_sort_merge_parts(s, unique, bufsz, out, ctx);
	free(s->arena);
	s->arena = NULL;
	free(s->r);
	s->r = NULL;
	if (done) {
		for (j = 0; j < s->nrun; j++)
			kn_rmtemp(s->run[j]);
		s->nrun = 0;
		return;
	}
	src = kn_alloc(s->nrun * sizeof(source));
	for (j = 0; j < s->nrun; j++)
		kn_sort_open_run(&src[j], s->run[j], j, bufsz);
	kn_sort_merge_src(s, src, s->nrun, unique, out, ctx);
	for (j = 0; j < s->nrun; j++) {
		kn_reader_close(&src[j].r);
		kn_rmtemp(s->run[j]);
	}
	free(src);
	s->nrun = 0;
}

void
kn_sort_addrun(kn_sorter *s, char *path)
{
	bg_join(s);	/* the runs in order */
	add_run(s, path);
}

void
kn_sort_merge_tables(kn_sorter *s, kn_table *t, size_t n, int unique,
    void (*out)(const char *, size_t, void *), void *ctx)
{
	source *src = kn_zalloc((n + 1) * sizeof(source));
	size_t i;

	for (i = 0; i < n; i++) {
		src[i].kind = SRC_TABLE;
		src[i].run = i;
		src[i].t = &t[i];
	}
	kn_sort_merge_src(s, src, n, unique, out, ctx);
	free(src);
}

void
kn_sort_free(kn_sorter *s)
{
	size_t i;

	if (s->bg != NULL) {
		pthread_join(s->bg->th, NULL);
		kn_rmtemp(s->bg->path);
		free(s->bg->view.arena);
		free(s->bg->view.r);
		free(s->bg);
	}
	for (i = 0; i < s->nrun; i++) {
		kn_rmtemp(s->run[i]);
	}
	free(s->run);
	free(s->sparea);
	free(s->spr);
	free(s->arena);
	free(s->r);
	free(s->colkey);
	free(s);
}

size_t
kn_sort_keys(const kn_table *t, const char *spec, kn_skey **key)
{
	char *s = kn_strdup(spec), *item, *save = NULL, *colon, *fl;
	size_t n = 0, i;

	if (spec[0] == ',' || strstr(spec, ",,") != NULL ||
	    (spec[0] != '\0' && spec[strlen(spec) - 1] == ','))
		kn_die("-k %s: empty key", spec);

	*key = kn_alloc((strlen(spec) + 1) * sizeof(kn_skey));
	for (item = strtok_r(s, ",", &save); item != NULL;
	    item = strtok_r(NULL, ",", &save)) {
		kn_skey *k = &(*key)[n];

		memset(k, 0, sizeof(*k));
		colon = strrchr(item, ':');
		for (i = 0; i < t->ncols; i++)
			if (strcmp(t->names[i], item) == 0)
				colon = NULL;	/* a name with a colon */
		if (colon != NULL) {
			*colon = '\0';
			for (fl = colon + 1; *fl != '\0'; fl++)
				if (*fl == 'n')
					k->numeric = 1;
				else if (*fl == 'r')
					k->reverse = 1;
				else
					kn_die("-k %s: unknown key flag '%c' "
					    "(n numeric, r reverse)", spec, *fl);
		}
		if (*item == '\0')
			kn_die("-k %s: empty key", spec);
		k->col = kn_table_col(t, item);
		n++;
	}
	if (n == 0)
		kn_die("-k '%s': no keys", spec);
	free(s);
	return n;
}
