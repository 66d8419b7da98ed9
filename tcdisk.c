/*
 * tcdisk.c: t-closeness (Li, Li and Venkatasubramanian, ICDE 2007, §4,
 * the Earth Mover's Distance) of a release's classes, measured out of
 * core for score and recode.  A class is measured against the whole
 * table's distribution, known only once every class is read; so every
 * class's values go to a temp file as they come, with no dictionary,
 * and are measured at the end by sorts within -S, in the exact integers
 * of kn_tclose_ok (req.c), term for term:
 *
 * - hierarchical distance: the positions are the leaves of the
 *   column's hierarchy, whose rows are counted in memory as the
 *   hierarchy's size allows; the classes are read back one by one.
 * - equal and ordered: the lines "value<TAB>class<TAB>rows" are sorted
 *   by value (for the ordered distance, in kn_tclose_ranks's order:
 *   numbers, missing values last, if every value is one, else bytes),
 *   which gives each value's position and rows in the table; then by
 *   class, which gives each class its values in order.  The equal
 *   distance's terms need only the value's rows in the table.  The
 *   ordered distance sums each run of positions between two of a
 *   class's values in closed form from the prefix sums P of the
 *   cumulative counts, split at the first position q where cum n >= s N:
 *   the runs are sorted by that threshold and merged with the table's
 *   counts in order to find q and P[q], then sorted by class again.
 *
 * Each line's numbers are fixed-width hexadecimal, so that the lines'
 * byte order is the numbers' order; values go as hexadecimal too, so
 * that any byte (a tab, a newline of a quoted CSV field) is safe and
 * "a" comes before "a<byte 1>" as in memcmp order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcdisk.h"

typedef unsigned __int128 u128;

/* ---- temp files ---------------------------------------------------- */

static FILE *
tmp_open(char **name, const char *dir, const char *mode)
{
	FILE *f;

	if (*name == NULL)
		*name = kn_tmp_new(dir);
	if ((f = kn_tmp_open(*name, mode)) == NULL)
		kn_die_sys("%s", *name);
	return f;
}

static void
put(FILE *f, const void *p, size_t n, const char *name)
{
	if (n > 0 && fwrite(p, 1, n, f) != n)
		kn_die_sys("writing temp file %s", name);
}

/* Reads n bytes; 0 at the file's end. */
static int
get(FILE *f, void *p, size_t n, const char *name)
{
	size_t k = fread(p, 1, n, f);

	if (k == n)
		return 1;
	if (ferror(f))
		kn_die_sys("reading temp file %s", name);
	if (k != 0)
		kn_die("temp file %s: cut short", name);
	return 0;
}

static void
put64(FILE *f, uint64_t v, const char *name)
{
	put(f, &v, sizeof(v), name);
}

static void
done_writing(FILE *f, const char *name)
{
	if (fflush(f) != 0 || ferror(f))
		kn_die_sys("writing temp file %s", name);
	fclose(f);
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
    const char *tmpdir, int jobs)
{
	memset(t, 0, sizeof(*t));
	t->jobs = jobs < 1 ? 1 : jobs > 64 ? 64 : jobs;
	t->req = r;
	t->h = r->dist == KN_DIST_HIER ? h : NULL;
	t->budget = budget;
	t->tmpdir = tmpdir;
	t->numeric = 1;
	t->vf = tmp_open(&t->vname, tmpdir, "wb");
	t->cf = tmp_open(&t->cname, tmpdir, "wb");
	if (t->h != NULL)
		grow_leaves(t, t->h->lab[0].n + 1);
}

void
tcd_add(const char *p, size_t len, uint64_t cnt, void *ctx)
{
	tcd_ctx *t = ctx;
	const char *err = NULL;
	int64_t leaf;
	kn_i128 mant;
	int sc;

	put64(t->vf, t->seq, t->vname);
	put64(t->vf, cnt, t->vname);
	if (t->h != NULL) {
		if ((leaf = kn_hier_leaf(t->h, p, len, &err)) < 0)
			kn_die("-s %s: '%.*s': %s", t->h->attr, (int)len, p,
			    err != NULL ? err : "not a leaf of its hierarchy");
		put64(t->vf, (uint64_t)leaf, t->vname);
		grow_leaves(t, (size_t)leaf + 1);
		if (__builtin_add_overflow(t->C[leaf], cnt, &t->C[leaf]))
			kn_die("a row count overflows 64 bits");
		return;
	}
	if (t->numeric && t->req->dist == KN_DIST_ORDERED &&
	    !kn_missing(p, len) && !kn_dec_parse(p, len, &mant, &sc))
		t->numeric = 0;
	put64(t->vf, len, t->vname);
	put(t->vf, p, len, t->vname);
}

void
tcd_class(tcd_ctx *t, uint64_t n, int measure)
{
	unsigned char b = measure != 0;

	put64(t->cf, n, t->cname);
	put(t->cf, &b, 1, t->cname);
	t->seq++;
}

/* ---- measuring ----------------------------------------------------- */

/* The state of the measure, passed through the sorts. */
struct meas {
	tcd_ctx *t;
	kn_tclose tc;
	FILE *cf, *rf, *vf;	/* classes, verdicts, the table's counts */
	FILE *rec;		/* the pairs (class, rows) by value */
	char *recname;
	uint64_t cseq;		/* classes read from cf */
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

	if (!get(me->cf, &me->cn, sizeof(me->cn), me->t->cname))
		return 0;
	if (!get(me->cf, &b, 1, me->t->cname))
		kn_die("temp file %s: cut short", me->t->cname);
	me->cmeas = b;
	me->cseq++;
	return 1;
}

static void
verdict(struct meas *me, kn_tsum S)
{
	long double d;
	unsigned char ok;

	if (!me->cmeas)
		return;
	ok = (unsigned char)kn_tclose_judge(&me->tc, S, me->cn, &d);
	put(me->rf, &d, sizeof(d), me->t->rname);
	put(me->rf, &ok, 1, me->t->rname);
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
			kn_die("temp file %s: a class missing",
			    me->t->cname);
		if (me->tc.dist == KN_DIST_EQUAL) {
			kn_tsum S = zero;

			kn_tclose_equal_rest(&S, 0, me->tc.N, me->cn);
			verdict(me, S);
		} else
			verdict(me, zero);
	}
}

static int
cmp_leaf(const void *a, const void *b)
{
	uint32_t x = ((const kn_tval *)a)->pos, y = ((const kn_tval *)b)->pos;

	return x < y ? -1 : x > y;
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
	int more;
	long double d;
	unsigned char ok;

	/* A generated hierarchy may have made leaves after the last
	 * value: they have no rows. */
	grow_leaves(t, t->h->lab[0].n);
	t->m = t->h->lab[0].n;
	acc = kn_zalloc((t->m + 1) * sizeof(uint64_t));
	kn_tclose_init(&me->tc, t->req, t->C, t->m, t->h);
	more = get(me->vf, rec, sizeof(rec), t->vname);
	while (class_next(me)) {
		for (; more && rec[0] == me->cseq - 1;
		    more = get(me->vf, rec, sizeof(rec), t->vname)) {
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
			qsort(v, nv, sizeof(kn_tval), cmp_leaf);
			ok = (unsigned char)kn_tclose_ok(&me->tc, v, nv,
			    me->cn, &scr, &d);
			put(me->rf, &d, sizeof(d), t->rname);
			put(me->rf, &ok, 1, t->rname);
		}
		nv = 0;
	}
	if (more)
		kn_die("temp file %s: a value past the last class", t->vname);
	free(acc);
	free(v);
	free(scr.p);
}

/* Sort by value: a line "value<TAB>class<TAB>rows".  Writes the pairs
 * (class, rows) of each value, equal classes summed, to rec, and the
 * value's rows in the table and number of pairs to vf. */
static void
pair_flush(struct meas *me)
{
	if (me->pcnt == 0)
		return;
	put64(me->rec, me->pseq, me->recname);
	put64(me->rec, me->pcnt, me->recname);
	me->gnrec++;
	me->pcnt = 0;
}

static void
group_flush(struct meas *me)
{
	if (!me->have)
		return;
	pair_flush(me);
	put64(me->vf, me->gC, me->t->vname);
	put64(me->vf, me->gnrec, me->t->vname);
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
 * its rows before b, as a line of the sort by threshold:
 * "T<TAB>class<TAB>a<TAB>b<TAB>P[a]<TAB>P[b]<TAB>s<TAB>n", T the least
 * cumulative count with cum n >= s N. */
static void
run_line(struct meas *me, uint64_t b, u128 Pb)
{
	u128 sN = (u128)me->s * me->tc.N;
	uint64_t T = me->cn == 0 ? 0 : (uint64_t)((sN + me->cn - 1) / me->cn);

	if (me->a >= b)
		return;
	me->out.n = 0;
	add_num(&me->out, T);
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
	} else
		run_line(me, me->m, me->Pm);
}

/* A class with no value: only the ordered distance's one run. */
static void
class_empty(struct meas *me, uint64_t seq)
{
	me->seq = seq;
	me->a = me->s = 0;
	me->Pa = 0;
	me->inclass = 1;
	class_done(me);
}

/* Sort by class: "class<TAB>position<TAB>rows<TAB>X", X the value's
 * rows in the table (equal) or P at its position (ordered). */
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
			while (me->cseq < seq) {
				if (!class_next(me))
					kn_die("temp file %s: a class missing",
					    me->t->cname);
				class_empty(me, me->cseq - 1);
			}
		if (!class_next(me))
			kn_die("temp file %s: a class missing", me->t->cname);
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

	if (!get(me->vf, r, sizeof(r), me->t->vname))
		kn_die("temp file %s: a value missing", me->t->vname);
	if (nrec != NULL)
		*nrec = r[1];
	return r[0];
}

/* Sort by threshold: finds each run's q and P[q] by merging the runs
 * with the table's counts in order, and sends its term to the sort by
 * class: "class<TAB>term". */
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

/* Sort by class of the ordered distance's terms: "class<TAB>term". */
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
			kn_die("temp file %s: a class missing", me->t->cname);
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

/* Equal and ordered distances: the sorts of the head comment. */
static void
measure_sorted(struct meas *me)
{
	tcd_ctx *t = me->t;
	size_t half = t->budget / 2;
	kn_sorter *so = new_sort(t, half);
	uint64_t rec[2], len, g, j, C, gn, cum = 0;
	u128 P = 0;
	char *val = NULL;
	size_t vcap = 0;
	int ordered = t->req->dist == KN_DIST_ORDERED;
	kn_tsum zero = { 0, 0 };

	/* 1. By value. */
	while (get(me->vf, rec, sizeof(rec), t->vname)) {
		if (!get(me->vf, &len, sizeof(len), t->vname))
			kn_die("temp file %s: cut short", t->vname);
		val = kn_grow(val, &vcap, (size_t)len, 1, 64);
		if (!get(me->vf, val, (size_t)len, t->vname) && len > 0)
			kn_die("temp file %s: cut short", t->vname);
		me->out.n = 0;
		if (ordered && t->numeric)
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
	fclose(me->vf);
	me->vf = NULL;
	kn_tmp_close(t->vname);
	t->vname = NULL;
	me->vf = tmp_open(&t->vname, t->tmpdir, "wb");
	me->rec = tmp_open(&me->recname, t->tmpdir, "wb");
	kn_sort_finish(so, 0, by_value, me);
	kn_sort_free(so);
	group_flush(me);
	done_writing(me->vf, t->vname);
	done_writing(me->rec, me->recname);
	kn_tclose_params(&me->tc, t->req, me->N, me->m);

	/* 2. By class, each value's pairs with its position and rows. */
	so = new_sort(t, half);
	me->vf = tmp_open(&t->vname, t->tmpdir, "rb");
	me->rec = tmp_open(&me->recname, t->tmpdir, "rb");
	for (g = 0; g < me->m; g++) {
		C = next_value(me, &gn);
		for (j = 0; j < gn; j++) {
			if (!get(me->rec, rec, sizeof(rec), me->recname))
				kn_die("temp file %s: a pair missing",
				    me->recname);
			me->out.n = 0;
			add_num(&me->out, rec[0]);
			add_num(&me->out, g);
			add_num(&me->out, rec[1]);
			if (ordered)
				add_num(&me->out, P);
			else
				add_num(&me->out, C);
			kn_sort_add(so, me->out.p, me->out.n);
		}
		cum += C;
		P += cum;
	}
	me->Pm = P;
	fclose(me->vf);
	me->vf = NULL;
	fclose(me->rec);
	kn_tmp_close(me->recname);
	me->recname = NULL;
	me->next = ordered ? new_sort(t, half) : NULL;
	me->S = zero;
	kn_sort_finish(so, 0, by_class, me);
	kn_sort_free(so);
	class_done(me);
	if (!ordered) {
		classes_upto(me, t->seq);
		return;
	}
	while (me->cseq < t->seq) {
		class_next(me);
		class_empty(me, me->cseq - 1);
	}

	/* 3. The runs by threshold, merged with the table's counts. */
	so = me->next;
	me->next = new_sort(t, half);
	me->vf = tmp_open(&t->vname, t->tmpdir, "rb");
	me->G = 0;
	me->PG = 0;
	me->vleft = me->m > 0 ? me->m - 1 : 0;
	me->cumG = me->m > 0 ? next_value(me, NULL) : 0;
	kn_sort_finish(so, 0, by_threshold, me);
	kn_sort_free(so);
	fclose(me->vf);
	me->vf = NULL;

	/* 4. The terms by class. */
	rewind(me->cf);
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
	done_writing(t->vf, t->vname);
	done_writing(t->cf, t->cname);
	t->vf = t->cf = NULL;
	me.vf = tmp_open(&t->vname, t->tmpdir, "rb");
	me.cf = tmp_open(&t->cname, t->tmpdir, "rb");
	me.rf = tmp_open(&t->rname, t->tmpdir, "wb");
	if (t->h != NULL) {
		measure_hier(&me);
		fclose(me.vf);
	} else
		measure_sorted(&me);
	if (me.cseq != t->seq)
		kn_die("temp file %s: %llu classes of %llu measured", t->cname,
		    (unsigned long long)me.cseq, (unsigned long long)t->seq);
	fclose(me.cf);
	done_writing(me.rf, t->rname);
	kn_tclose_free(&me.tc);
	free(me.key.p);
	free(me.out.p);
	kn_tmp_close(t->vname);
	kn_tmp_close(t->cname);
	t->vname = t->cname = NULL;
	free(t->C);
	t->C = NULL;
	t->rf = tmp_open(&t->rname, t->tmpdir, "rb");
}

int
tcd_next(tcd_ctx *t, long double *d)
{
	unsigned char ok;

	if (!get(t->rf, d, sizeof(*d), t->rname) ||
	    !get(t->rf, &ok, 1, t->rname))
		kn_die("temp file %s: a verdict missing", t->rname);
	return ok;
}

void
tcd_free(tcd_ctx *t)
{
	if (t->vf != NULL)
		fclose(t->vf);
	if (t->cf != NULL)
		fclose(t->cf);
	if (t->rf != NULL)
		fclose(t->rf);
	if (t->vname != NULL)
		kn_tmp_close(t->vname);
	if (t->cname != NULL)
		kn_tmp_close(t->cname);
	if (t->rname != NULL)
		kn_tmp_close(t->rname);
	free(t->C);
	memset(t, 0, sizeof(*t));
}
