/*
 * tcdisk.c: t-closeness (Li, Li and Venkatasubramanian, ICDE 2007, §4,
 * the Earth Mover's Distance) of a release's classes, measured out of
 * core for score and recode.  A class is measured against the whole
 * table's distribution, known only once every class is read; so every
 * class's values are spooled as they come (in memory up to a share of
 * -S, then in a temp file), with no dictionary, and are measured at
 * the end by sorts within -S, in the exact integers
 * of kn_tclose_ok (req.c), term for term:
 *
 * - hierarchical distance: the positions are the leaves of the
 *   column's hierarchy, whose rows are counted in memory as the
 *   hierarchy's size allows; the classes are read back one by one.
 * - equal and ordered: the lines "value<TAB>class rows" are sorted
 *   by value (for the ordered distance, in kn_tclose_ranks's order:
 *   numbers, missing values last, if every value is one, else bytes),
 *   which gives each value's position and rows in the table; then by
 *   class, which gives each class its values in order.  The equal
 *   distance's terms need only the value's rows in the table.  The
 *   ordered distance sums each run of positions between two of a
 *   class's values in closed form from the prefix sums P of the
 *   cumulative counts, split at the first position q where cum n >= s N:
 *   the runs are sorted by that threshold and merged with the table's
 *   counts in order to find q and P[q], then sorted by class again;
 *   or, when the table's cumulative counts and P fit a quarter of the
 *   budget, kept in the kn_tclose, each run's term is kn_tclose_run_at's
 *   as in memory.
 *
 * In the sorts' lines a number is its count of hexadecimal digits,
 * then the digits (no leading zero), so that the lines' byte order is
 * the numbers' order; a value is in hexadecimal too, then a tab, so
 * that any byte (a tab, a newline of a quoted CSV field) is safe and
 * "a" comes before "a<byte 1>" as in memcmp's order.  What the sorts
 * do not hold goes through spools: in memory up to a share of the
 * budget, then in a temp file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcdisk.h"

typedef unsigned __int128 u128;

/* ---- spools --------------------------------------------------------- */

/* A stream of records held in memory up to its limit, then in a temp
 * file: a small table needs no temp file (nor a writable -T), and
 * no more descriptors are open than the files made. */
void
tcd_spool_init(tcd_spool *sp, size_t lim, const char *dir)
{
	memset(sp, 0, sizeof(*sp));
	sp->lim = lim;
	sp->dir = dir;
}

/* A spool in a temp file is written and read through a buffer of its
 * own (buf, len and pos then the buffer's), of its share of memory up
 * to this: a record of a few bytes a call through stdio had taken a
 * sixth of the measure's time. */
#define SPOOL_IO ((size_t)64 << 10)

/* Writes the buffered bytes of a spool in a file. */
static void
spool_flush(tcd_spool *sp)
{
	if (sp->len > 0 && fwrite(sp->buf, 1, sp->len, sp->f) != sp->len)
		kn_die_sys("writing temp file %s", sp->name);
	sp->len = 0;
}

void
tcd_spool_put(tcd_spool *sp, const void *p, size_t n)
{
	if (sp->f == NULL && sp->len + n > sp->lim) {
		sp->name = kn_tmp_new(sp->dir);
		if ((sp->f = kn_tmp_open(sp->name, "wb")) == NULL)
			kn_die_sys("%s", sp->name);
		spool_flush(sp);
		/* Within the spool's share, and no less than stdio's. */
		free(sp->buf);
		sp->cap = sp->lim < 4096 ? 4096 : sp->lim > SPOOL_IO ?
		    SPOOL_IO : sp->lim;
		sp->buf = kn_alloc(sp->cap);
	}
	if (sp->f != NULL) {
		if (sp->reading)
			kn_die("internal error: temp file %s written after it "
			    "was read", sp->name);
		if (sp->len + n > sp->cap)
			spool_flush(sp);
		if (n >= sp->cap) {
			if (fwrite(p, 1, n, sp->f) != n)
				kn_die_sys("writing temp file %s", sp->name);
			return;
		}
		if (n > 0)
			memcpy(sp->buf + sp->len, p, n);
		sp->len += n;
		return;
	}
	if (n == 0)
		return;
	sp->buf = kn_grow(sp->buf, &sp->cap, sp->len + n, 1, 4096);
	memcpy(sp->buf + sp->len, p, n);
	sp->len += n;
}

static void
tcd_spool_put64(tcd_spool *sp, uint64_t v)
{
	tcd_spool_put(sp, &v, sizeof(v));
}

/* Ends the writing, or a reading: the next tcd_spool_get reads from the
 * start. */
void
tcd_spool_read(tcd_spool *sp)
{
	sp->pos = 0;
	if (sp->f == NULL)
		return;
	if (!sp->reading) {
		spool_flush(sp);
		if (fflush(sp->f) != 0 || ferror(sp->f))
			kn_die_sys("writing temp file %s", sp->name);
	}
	sp->reading = 1;
	fclose(sp->f);
	if ((sp->f = kn_tmp_open(sp->name, "rb")) == NULL)
		kn_die_sys("%s", sp->name);
	sp->len = 0;
}

/* Reads n bytes; 0 at the end. */
int
tcd_spool_get(tcd_spool *sp, void *p, size_t n)
{
	size_t k;

	if (sp->f != NULL && sp->len - sp->pos < n) {
		/* The buffer refilled: what is left of it first. */
		k = sp->len - sp->pos;
		memmove(sp->buf, sp->buf + sp->pos, k);
		sp->len = k;
		sp->pos = 0;
		if (n > sp->cap) {
			sp->buf = kn_realloc(sp->buf, n);
			sp->cap = n;
		}
		sp->len += fread(sp->buf + k, 1, sp->cap - k, sp->f);
		if (ferror(sp->f))
			kn_die_sys("reading temp file %s", sp->name);
		if (sp->len < n) {
			if (sp->len > 0)
				kn_die("temp file %s: cut short", sp->name);
			return 0;
		}
	}
	if (sp->len - sp->pos < n) {
		if (sp->pos < sp->len)
			kn_die("(t-closeness's records): cut short");
		return 0;
	}
	if (n > 0)
		memcpy(p, sp->buf + sp->pos, n);
	sp->pos += n;
	return 1;
}

void
tcd_spool_free(tcd_spool *sp)
{
	if (sp->f != NULL)
		fclose(sp->f);
	if (sp->name != NULL)
		kn_tmp_close(sp->name);
	free(sp->buf);
	memset(sp, 0, sizeof(*sp));
}


/* ---- the lines of the sorts ---------------------------------------- */

static const char hexd[] = "0123456789abcdef";

/* A number read from a line at *p (before end), past it. */
static u128
get_num(const char **p, const char *end)
{
	const char *q = *p;
	u128 v = 0;
	int n, i;

	if (q >= end || (n = *q++ - '0') < 0 || n > 32 || end - q < n)
		kn_die("(temp run): a line cut short");
	for (i = 0; i < n; i++)
		v = v << 4 | (u128)(q[i] <= '9' ? q[i] - '0' : q[i] - 'a' + 10);
	*p = q + n;
	return v;
}

/* A line being made. */
typedef struct {
	char *p;
	size_t n, cap;
} line;

static char *
room(line *l, size_t n)
{
	l->p = kn_grow(l->p, &l->cap, l->n + n, 1, 256);
	return l->p + l->n;
}

/* A number, so that the lines' byte order is the numbers' order: its
 * count of hexadecimal digits ('0' + n), then the digits, no leading
 * zero (short: the sort's prefixes see more of the line). */
static void
add_num(line *l, u128 v)
{
	char d[32], *p;
	int n = 0;

	for (; v > 0; v >>= 4)
		d[n++] = hexd[(int)(v & 15)];
	p = room(l, (size_t)n + 1);
	*p++ = (char)('0' + n);
	while (n > 0)
		*p++ = d[--n];
	l->n = (size_t)(p - l->p);
}

static void
add_bytes_hex(line *l, const char *s, size_t n)
{
	char *p = room(l, 2 * n);
	size_t i;

	for (i = 0; i < n; i++) {
		*p++ = hexd[(unsigned char)s[i] >> 4];
		*p++ = hexd[(unsigned char)s[i] & 15];
	}
	l->n += 2 * n;
}

/* The ordered distance's key of a value when every value is a number or
 * missing: the numbers in order (a class letter, the decimal exponent,
 * the digits, complemented for a negative number), the missing values
 * after them, equal numbers by their bytes (kn_tclose_ranks). */
static void
add_numkey(line *l, const char *s, size_t n)
{
	kn_i128 mant;
	u128 u;
	char dig[48];
	int sc, nd = 0, i, e, neg;

	if (kn_missing(s, n) || !kn_dec_parse(s, n, &mant, &sc)) {
		*room(l, 1) = 'z';
		l->n++;
		add_bytes_hex(l, s, n);
		return;
	}
	if (mant == 0) {
		*room(l, 1) = 'o';
		l->n++;
		add_bytes_hex(l, s, n);
		return;
	}
	neg = mant < 0;
	u = neg ? (u128)0 - (u128)mant : (u128)mant;
	for (; u > 0; u /= 10)
		dig[nd++] = (char)('0' + (int)(u % 10));
	/* dig holds the digits last first; the value is 0.D 10^e. */
	e = nd - sc + 500;
	i = 0;
	while (dig[i] == '0')
		i++;		/* trailing zeros */
	{
		char *p = room(l, 5 + (size_t)(nd - i));
		int k;

		*p++ = neg ? 'n' : 'p';
		if (neg)
			e = 999 - e;
		*p++ = (char)('0' + e / 100);
		*p++ = (char)('0' + e / 10 % 10);
		*p++ = (char)('0' + e % 10);
		for (k = nd - 1; k >= i; k--)
			*p++ = neg ? (char)('9' - (dig[k] - '0')) : dig[k];
		*p++ = neg ? ':' : '.';
		l->n = (size_t)(p - l->p);
	}
	add_bytes_hex(l, s, n);
}

int
tcd_numeric(const char *s, size_t n)
{
	kn_i128 mant;
	int sc;

	return kn_missing(s, n) || kn_dec_parse(s, n, &mant, &sc);
}

size_t
tcd_order_key(const char *s, size_t n, int numeric, char **buf, size_t *cap)
{
	line l = { *buf, 0, *cap };

	if (numeric)
		add_numkey(&l, s, n);
	else
		add_bytes_hex(&l, s, n);
	*buf = l.p;
	*cap = l.cap;
	return l.n;
}

/* ---- reading the classes ------------------------------------------- */

/* Room for the rows of n leaves (a generated hierarchy makes its leaves
 * as the values come). */
static void
grow_leaves(tcd_ctx *t, size_t n)
{
	size_t was = t->m;

	if (n <= t->m)
		return;
	t->m = n > 2 * t->m ? n : 2 * t->m;
	t->C = kn_realloc(t->C, (t->m + 1) * sizeof(uint64_t));
	memset(t->C + was, 0, (t->m + 1 - was) * sizeof(uint64_t));
}

void
tcd_init(tcd_ctx *t, const kn_req *r, kn_hier *h, size_t budget,
    size_t hold, const char *tmpdir, int jobs)
{
	memset(t, 0, sizeof(*t));
	t->jobs = jobs < 1 ? 1 : jobs > 64 ? 64 : jobs;
	t->req = r;
	t->h = r->dist == KN_DIST_HIER ? h : NULL;
	t->budget = budget;
	t->tmpdir = tmpdir;
	t->numeric = 1;
	t->hold = hold;
	tcd_spool_init(&t->vals, hold / 2, tmpdir);
	tcd_spool_init(&t->cls, hold / 2, tmpdir);
	if (t->h != NULL)
		grow_leaves(t, t->h->lab[0].n + 1);
}

void
tcd_add(const char *p, size_t len, uint64_t cnt, void *ctx)
{
	tcd_ctx *t = ctx;
	const char *err = NULL;
	int64_t leaf;

	tcd_spool_put64(&t->vals, t->seq);
	tcd_spool_put64(&t->vals, cnt);
	if (t->h != NULL) {
		if ((leaf = kn_hier_leaf(t->h, p, len, &err)) < 0)
			kn_die("-s %s: '%.*s': %s", t->h->attr, (int)len, p,
			    err != NULL ? err : "not a leaf of its hierarchy");
		tcd_spool_put64(&t->vals, (uint64_t)leaf);
		grow_leaves(t, (size_t)leaf + 1);
		if (__builtin_add_overflow(t->C[leaf], cnt, &t->C[leaf]))
			kn_die("a row count overflows 64 bits");
		return;
	}
	if (t->numeric && t->req->dist == KN_DIST_ORDERED &&
	    !tcd_numeric(p, len))
		t->numeric = 0;
	tcd_spool_put64(&t->vals, len);
	tcd_spool_put(&t->vals, p, len);
}

void
tcd_add_pos(tcd_ctx *t, uint64_t pos, uint64_t cnt)
{
	uint64_t len = sizeof(pos);

	t->pos = 1;
	tcd_spool_put64(&t->vals, t->seq);
	tcd_spool_put64(&t->vals, cnt);
	tcd_spool_put64(&t->vals, len);
	tcd_spool_put(&t->vals, &pos, sizeof(pos));
}

void
tcd_class(tcd_ctx *t, uint64_t n, int measure)
{
	unsigned char b = measure != 0;

	tcd_spool_put64(&t->cls, n);
	tcd_spool_put(&t->cls, &b, 1);
	t->seq++;
}

/* ---- measuring ----------------------------------------------------- */

/* The state of the measure, passed through the sorts. */
struct meas {
	tcd_ctx *t;
	kn_tclose tc;
	tcd_spool tab;		/* each value in order: its rows, pairs */
	tcd_spool rec;		/* the pairs (class, rows) by value */
	uint64_t cseq;		/* classes read from the classes' spool */
	uint64_t cn;		/* the rows of the class being measured */
	int cmeas;
	/* the sort by value */
	line key;		/* the value of the group being read */
	int have;
	uint64_t gC, gnrec;	/* its rows and pairs so far */
	uint64_t pseq, pcnt;	/* the pair being summed */
	uint64_t m, N;
	u128 Pm;		/* P[m] */
	/* the sort by class */
	uint64_t seq;		/* the class of the lines being read */
	int inclass;
	kn_tsum S;
	uint64_t in;		/* equal: the table's rows of its values */
	uint64_t a, s;		/* ordered: the run's start, rows up to it */
	u128 Pa;
	/* the merge of the runs with the table's counts */
	uint64_t G, cumG, vleft;
	u128 PG;
	kn_sorter *next;
	line out;
};

/* The next class of the classes' file; 0 at its end. */
static int
class_next(struct meas *me)
{
	unsigned char b;

	if (!tcd_spool_get(&me->t->cls, &me->cn, sizeof(me->cn)))
		return 0;
	if (!tcd_spool_get(&me->t->cls, &b, 1))
		kn_die("(t-closeness's classes): cut short");
	me->cmeas = b;
	me->cseq++;
	return 1;
}

/* Spools a measured class's verdict, for tcd_next. */
static void
put_verdict(tcd_ctx *t, int ok, long double d)
{
	unsigned char b = ok != 0;

	tcd_spool_put(&t->verd, &d, sizeof(d));
	tcd_spool_put(&t->verd, &b, 1);
}

static void
verdict(struct meas *me, kn_tsum S)
{
	long double d;
	int ok;

	if (!me->cmeas)
		return;
	ok = kn_tclose_judge(&me->tc, S, me->cn, &d);
	put_verdict(me->t, ok, d);
}

/* The classes before seq with no line: none of their rows had a value
 * (n = 0), or, for the ordered distance's last sort, none of their
 * runs adds to the distance. */
static void
classes_upto(struct meas *me, uint64_t seq)
{
	kn_tsum zero = { 0, 0 };

	while (me->cseq < seq) {
		if (!class_next(me))
			kn_die("(t-closeness's classes): a class missing");
		if (me->tc.dist == KN_DIST_EQUAL) {
			kn_tsum S = zero;

			kn_tclose_equal_rest(&S, 0, me->tc.N, me->cn);
			verdict(me, S);
		} else
			verdict(me, zero);
	}
}

/* The hierarchical distance: each class's leaves, read back in order. */
static void
measure_hier(struct meas *me)
{
	tcd_ctx *t = me->t;
	kn_tscratch scr = { NULL, 0 };
	uint64_t *acc;
	kn_tval *v = NULL;
	size_t nv = 0, vcap = 0, i;
	uint64_t rec[3];
	int more, ok;
	long double d;

	/* A generated hierarchy may have made leaves after the last
	 * value: they have no rows. */
	grow_leaves(t, t->h->lab[0].n);
	t->m = t->h->lab[0].n;
	acc = kn_zalloc((t->m + 1) * sizeof(uint64_t));
	kn_tclose_init(&me->tc, t->req, t->C, t->m, t->h);
	more = tcd_spool_get(&t->vals, rec, sizeof(rec));
	while (class_next(me)) {
		for (; more && rec[0] == me->cseq - 1;
		    more = tcd_spool_get(&t->vals, rec, sizeof(rec))) {
			if (acc[rec[2]] == 0) {
				v = kn_grow(v, &vcap, nv, sizeof(kn_tval), 64);
				v[nv].pos = (uint32_t)rec[2];
				v[nv++].cnt = 0;
			}
			acc[rec[2]] += rec[1];
		}
		for (i = 0; i < nv; i++) {
			v[i].cnt = acc[v[i].pos];
			acc[v[i].pos] = 0;
		}
		if (me->cmeas) {
			kn_tval_sort(v, nv);
			ok = kn_tclose_ok(&me->tc, v, nv, me->cn, &scr, &d);
			put_verdict(t, ok, d);
		}
		nv = 0;
	}
	if (more)
		kn_die("(t-closeness's values): a value past the last class");
	free(acc);
	free(v);
	free(scr.p);
}

/* Sort by value: a line "value<TAB>class rows".  Writes the pairs
 * (class, rows) of each value, equal classes summed, to rec, and the
 * value's rows in the table and number of pairs to tab. */
static void
pair_flush(struct meas *me)
{
	if (me->pcnt == 0)
		return;
	tcd_spool_put64(&me->rec, me->pseq);
	tcd_spool_put64(&me->rec, me->pcnt);
	me->gnrec++;
	me->pcnt = 0;
}

static void
group_flush(struct meas *me)
{
	if (!me->have)
		return;
	pair_flush(me);
	tcd_spool_put64(&me->tab, me->gC);
	tcd_spool_put64(&me->tab, me->gnrec);
	if (__builtin_add_overflow(me->N, me->gC, &me->N))
		kn_die("the row count overflows 64 bits");
	me->m++;
	me->gC = me->gnrec = 0;
	me->have = 0;
}

static void
by_value(const char *l, size_t len, void *ctx)
{
	struct meas *me = ctx;
	const char *tab = memchr(l, '\t', len), *p, *end = l + len;
	size_t k;
	uint64_t seq, cnt;

	if (tab == NULL)
		kn_die("(temp run): a value's line cut short");
	k = (size_t)(tab - l);
	p = tab + 1;
	seq = (uint64_t)get_num(&p, end);
	cnt = (uint64_t)get_num(&p, end);
	if (!me->have || k != me->key.n || memcmp(l, me->key.p, k) != 0) {
		group_flush(me);
		me->key.n = 0;
		memcpy(room(&me->key, k), l, k);
		me->key.n = k;
		me->have = 1;
	} else if (seq != me->pseq)
		pair_flush(me);
	me->pseq = seq;
	if (__builtin_add_overflow(me->pcnt, cnt, &me->pcnt) ||
	    __builtin_add_overflow(me->gC, cnt, &me->gC))
		kn_die("a row count overflows 64 bits");
}

/* The ordered distance: the run [a, b) of the class being read, s of
 * its rows before b, as a line of the sort by threshold: the numbers
 * T, class, a, b, P[a], P[b], s and n, T the least cumulative count
 * with cum n >= s N. */
static void
run_line(struct meas *me, uint64_t b, u128 Pb)
{
	u128 sN = (u128)me->s * me->tc.N;

	/* A class not measured needs no term. */
	if (me->a >= b || !me->cmeas)
		return;
	if (me->tc.cum != NULL) {
		/* The table's counts in memory: the term as in memory. */
		kn_tsum_add(&me->S, kn_tclose_run_at(&me->tc, sN, me->cn,
		    (size_t)me->a, (size_t)b));
		return;
	}
	me->out.n = 0;
	add_num(&me->out, me->cn == 0 ? 0 : (sN + me->cn - 1) / me->cn);
	add_num(&me->out, me->seq);
	add_num(&me->out, me->a);
	add_num(&me->out, b);
	add_num(&me->out, me->Pa);
	add_num(&me->out, Pb);
	add_num(&me->out, me->s);
	add_num(&me->out, me->cn);
	kn_sort_add(me->next, me->out.p, me->out.n);
}

/* The end of the class being read in the sort by class. */
static void
class_done(struct meas *me)
{
	if (!me->inclass)
		return;
	me->inclass = 0;
	if (me->tc.dist == KN_DIST_EQUAL) {
		kn_tclose_equal_rest(&me->S, me->in, me->tc.N, me->cn);
		verdict(me, me->S);
	} else {
		run_line(me, me->m, me->Pm);
		if (me->tc.cum != NULL)
			verdict(me, me->S);
	}
}

/* A class with no value: only the ordered distance's one run. */
static void
class_empty(struct meas *me, uint64_t seq)
{
	kn_tsum zero = { 0, 0 };

	me->seq = seq;
	me->a = me->s = 0;
	me->Pa = 0;
	me->S = zero;
	me->inclass = 1;
	class_done(me);
}

/* The ordered distance's classes before seq with no value, in the sort
 * by class. */
static void
empties_upto(struct meas *me, uint64_t seq)
{
	while (me->cseq < seq) {
		if (!class_next(me))
			kn_die("(t-closeness's classes): a class missing");
		class_empty(me, me->cseq - 1);
	}
}

/* Sort by class: the numbers class, position, rows and X, X the
 * value's rows in the table (equal) or P at its position (ordered). */
static void
by_class(const char *l, size_t len, void *ctx)
{
	struct meas *me = ctx;
	const char *p = l, *end = l + len;
	uint64_t seq, pos, c;
	u128 X;
	kn_tsum zero = { 0, 0 };

	seq = (uint64_t)get_num(&p, end);
	pos = (uint64_t)get_num(&p, end);
	c = (uint64_t)get_num(&p, end);
	X = get_num(&p, end);
	if (!me->inclass || seq != me->seq) {
		class_done(me);
		if (me->tc.dist == KN_DIST_EQUAL)
			classes_upto(me, seq);
		else
			empties_upto(me, seq);
		if (!class_next(me))
			kn_die("(t-closeness's classes): a class missing");
		me->seq = seq;
		me->inclass = 1;
		me->S = zero;
		me->in = 0;
		me->a = me->s = 0;
		me->Pa = 0;
	}
	if (me->tc.dist == KN_DIST_EQUAL) {
		kn_tclose_equal_val(&me->S, c, (uint64_t)X, me->tc.N, me->cn);
		me->in += (uint64_t)X;
		return;
	}
	run_line(me, pos, X);
	me->s += c;
	me->a = pos;
	me->Pa = X;
}

/* The next value in order: its rows in the table, and its pairs in
 * rec (*nrec). */
static uint64_t
next_value(struct meas *me, uint64_t *nrec)
{
	uint64_t r[2];

	if (!tcd_spool_get(&me->tab, r, sizeof(r)))
		kn_die("(t-closeness's values): a value missing");
	if (nrec != NULL)
		*nrec = r[1];
	return r[0];
}

/* Sort by threshold: finds each run's q and P[q] by merging the runs
 * with the table's counts in order, and sends its term to the sort by
 * class: the numbers class, term's high and low 128 bits. */
static void
by_threshold(const char *l, size_t len, void *ctx)
{
	struct meas *me = ctx;
	const char *p = l, *end = l + len;
	uint64_t T, seq, a, b, s, n, q;
	u128 Pa, Pb, Pq;
	kn_tsum x;

	T = (uint64_t)get_num(&p, end);
	seq = (uint64_t)get_num(&p, end);
	a = (uint64_t)get_num(&p, end);
	b = (uint64_t)get_num(&p, end);
	Pa = get_num(&p, end);
	Pb = get_num(&p, end);
	s = (uint64_t)get_num(&p, end);
	n = (uint64_t)get_num(&p, end);
	while (me->cumG < T) {
		if (me->vleft == 0)
			kn_die("t-closeness: a threshold past the table");
		me->PG += me->cumG;
		me->G++;
		me->cumG += next_value(me, NULL);
		me->vleft--;
	}
	q = me->G < a ? a : me->G > b ? b : me->G;
	Pq = me->G < a ? Pa : me->G > b ? Pb : me->PG;
	x = kn_tclose_run((u128)s * me->tc.N, n, a, b, q, Pa, Pb, Pq);
	me->out.n = 0;
	add_num(&me->out, seq);
	add_num(&me->out, x.hi);
	add_num(&me->out, x.lo);
	kn_sort_add(me->next, me->out.p, me->out.n);
}

/* Sort by class of the ordered distance's terms. */
static void
by_term(const char *l, size_t len, void *ctx)
{
	struct meas *me = ctx;
	const char *p = l, *end = l + len;
	uint64_t seq;
	kn_tsum x, zero = { 0, 0 };

	seq = (uint64_t)get_num(&p, end);
	x.hi = get_num(&p, end);
	x.lo = get_num(&p, end);
	if (!me->inclass || seq != me->seq) {
		if (me->inclass)
			verdict(me, me->S);
		classes_upto(me, seq);
		if (!class_next(me))
			kn_die("(t-closeness's classes): a class missing");
		me->seq = seq;
		me->inclass = 1;
		me->S = zero;
	}
	kn_tsum_add(&me->S, x);
}

/* A sort of whole lines within budget bytes, on the threads of -j. */
static kn_sorter *
new_sort(const tcd_ctx *t, size_t budget)
{
	kn_sorter *so = kn_sort_new(NULL, 0, 1, budget, t->tmpdir);

	kn_sort_threads(so, t->jobs);
	return so;
}

/* Equal and ordered distances: the sorts of the head comment.  Two
 * sorts at a time (one handing its lines to the next), each in a
 * quarter of the budget; the spools of the values' rows and pairs in
 * a sixteenth each. */
static void
measure_sorted(struct meas *me)
{
	tcd_ctx *t = me->t;
	size_t share = t->budget / 4;
	kn_sorter *so = new_sort(t, share);
	uint64_t rec[2], len, g, j, C, gn, cum = 0;
	u128 P = 0;
	char *val = NULL;
	size_t vcap = 0;
	int ordered = t->req->dist == KN_DIST_ORDERED;
	kn_tsum zero = { 0, 0 };

	/* 1. By value. */
	while (tcd_spool_get(&t->vals, rec, sizeof(rec))) {
		if (!tcd_spool_get(&t->vals, &len, sizeof(len)))
			kn_die("(t-closeness's values): cut short");
		val = kn_grow(val, &vcap, (size_t)len, 1, 64);
		if (!tcd_spool_get(&t->vals, val, (size_t)len) && len > 0)
			kn_die("(t-closeness's values): cut short");
		me->out.n = 0;
		if (t->pos) {
			uint64_t pos;

			if (len != sizeof(pos))
				kn_die("(t-closeness's values): a position "
				    "cut short");
			memcpy(&pos, val, sizeof(pos));
			add_num(&me->out, pos);
		} else if (ordered && t->numeric)
			add_numkey(&me->out, val, (size_t)len);
		else
			add_bytes_hex(&me->out, val, (size_t)len);
		*room(&me->out, 1) = '\t';
		me->out.n++;
		add_num(&me->out, rec[0]);
		add_num(&me->out, rec[1]);
		kn_sort_add(so, me->out.p, me->out.n);
	}
	free(val);
	tcd_spool_free(&t->vals);
	tcd_spool_init(&me->tab, t->budget / 16, t->tmpdir);
	tcd_spool_init(&me->rec, t->budget / 16, t->tmpdir);
	kn_sort_finish(so, 0, by_value, me);
	kn_sort_free(so);
	group_flush(me);
	kn_tclose_params(&me->tc, t->req, me->N, me->m);

	/* 2. By class, each value's pairs with its position and rows.  For
	 * the ordered distance, when the table's cumulative counts and
	 * their prefix sums fit the other quarter, each run's q is found
	 * there as in memory, and the sorts 3 and 4 are not needed. */
	if (ordered && me->m + 1 <= share / (3 * sizeof(uint64_t))) {
		me->tc.cum = kn_alloc((me->m + 1) * sizeof(uint64_t));
		me->tc.P = kn_alloc((me->m + 1) * sizeof(u128));
	}
	so = new_sort(t, share);
	tcd_spool_read(&me->tab);
	tcd_spool_read(&me->rec);
	for (g = 0; g < me->m; g++) {
		C = next_value(me, &gn);
		for (j = 0; j < gn; j++) {
			if (!tcd_spool_get(&me->rec, rec, sizeof(rec)))
				kn_die("(t-closeness's pairs): a pair missing");
			me->out.n = 0;
			add_num(&me->out, rec[0]);
			add_num(&me->out, g);
			add_num(&me->out, rec[1]);
			add_num(&me->out, ordered ? P : C);
			kn_sort_add(so, me->out.p, me->out.n);
		}
		if (me->tc.P != NULL)
			me->tc.P[g] = P;
		cum += C;
		P += cum;
		if (me->tc.cum != NULL)
			me->tc.cum[g] = cum;
	}
	me->Pm = P;
	if (me->tc.P != NULL)
		me->tc.P[me->m] = P;
	tcd_spool_free(&me->rec);
	me->next = ordered && me->tc.cum == NULL ? new_sort(t, share) : NULL;
	me->S = zero;
	kn_sort_finish(so, 0, by_class, me);
	kn_sort_free(so);
	class_done(me);
	if (!ordered) {
		classes_upto(me, t->seq);
		return;
	}
	empties_upto(me, t->seq);
	if (me->tc.cum != NULL) {
		free(me->tc.cum);
		free(me->tc.P);
		me->tc.cum = NULL;
		me->tc.P = NULL;
		tcd_spool_free(&me->tab);
		return;
	}

	/* 3. The runs by threshold, merged with the table's counts. */
	so = me->next;
	me->next = new_sort(t, share);
	tcd_spool_read(&me->tab);
	me->G = 0;
	me->PG = 0;
	me->vleft = me->m > 0 ? me->m - 1 : 0;
	me->cumG = me->m > 0 ? next_value(me, NULL) : 0;
	kn_sort_finish(so, 0, by_threshold, me);
	kn_sort_free(so);
	tcd_spool_free(&me->tab);

	/* 4. The terms by class. */
	tcd_spool_read(&t->cls);
	me->cseq = 0;
	me->inclass = 0;
	kn_sort_finish(me->next, 0, by_term, me);
	kn_sort_free(me->next);
	me->next = NULL;
	if (me->inclass)
		verdict(me, me->S);
	classes_upto(me, t->seq);
}

void
tcd_finish(tcd_ctx *t)
{
	struct meas me;

	memset(&me, 0, sizeof(me));
	me.t = t;
	tcd_spool_read(&t->vals);
	tcd_spool_read(&t->cls);
	tcd_spool_init(&t->verd, t->hold, t->tmpdir);
	if (t->h != NULL)
		measure_hier(&me);
	else
		measure_sorted(&me);
	if (me.cseq != t->seq)
		kn_die("(t-closeness's classes): %llu classes of %llu "
		    "measured", (unsigned long long)me.cseq,
		    (unsigned long long)t->seq);
	kn_tclose_free(&me.tc);
	free(me.key.p);
	free(me.out.p);
	tcd_spool_free(&t->vals);
	tcd_spool_free(&t->cls);
	free(t->C);
	t->C = NULL;
	tcd_spool_read(&t->verd);
}

int
tcd_next(tcd_ctx *t, long double *d)
{
	unsigned char ok;

	if (!tcd_spool_get(&t->verd, d, sizeof(*d)) || !tcd_spool_get(&t->verd, &ok, 1))
		kn_die("(t-closeness's verdicts): a verdict missing");
	return ok;
}

void
tcd_free(tcd_ctx *t)
{
	tcd_spool_free(&t->vals);
	tcd_spool_free(&t->cls);
	tcd_spool_free(&t->verd);
	free(t->C);
	memset(t, 0, sizeof(*t));
}
