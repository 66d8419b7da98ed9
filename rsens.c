/*
 * rsens.c: l-diversity and variance diversity (paper 004 §2) of a node
 * on disk whose sensitive values are keyed by hash (sens_sorted,
 * mondrian.h: entropy and recursive (c,l)-diversity, distinct l past
 * the groups' sets, l with --variance, any of them on several columns,
 * and --variance on several columns, its numbers keyed beside the
 * hashes), decided from external sorts with no memory by value, as
 * mond_partition() decides them in memory (mondrian.c's eval_median and
 * eval_hier, kn_ldiv_ok, kn_variance_ok; msens.c for several columns: a
 * part passes when it passes in each column, each column's sorts made
 * in turn and an ordered dimension's sweeps of the columns side by
 * side).  The variance is a part's sums of its numbers and their
 * squares, exact in 128 bits, added up as the rows come.  l-diversity:
 *
 * - a part's verdict exactly: its keys sorted, each value's count, the
 *   counts sorted in descending order and handed to kn_ldiv_add (the
 *   node as a whole; each child of a hierarchy, from the node's rows
 *   sorted by child and key);
 * - an ordered dimension's cut: the rows sorted by (the value's key, the
 *   dimension's key) give each row its rank j among the rows of its
 *   value in the dimension's order, and the value's total T; sorted
 *   again by the dimension's key, a sweep from the right adds to the
 *   right part, row by row, f(T - j + 1) - f(T - j) (f = kn_xlx62, c ln c
 *   in integers, so that the sum is the same in any order), and
 *   one from the left f(j) - f(j - 1) to the left part; recursive l
 *   keeps the l - 1 largest counts of the part that grows, distinct l
 *   its number of values.  Entropy is decided from those sums where
 *   they tell surely (kn_ldiv_entropy_sure), else from the part's
 *   counts as above.
 *
 * The cut chosen is the one eval_median chooses: the allowable cut
 * nearest the median, the right one of two as near (under --split,
 * eval_ordered's: each cut that scores better than the best so far,
 * judged in turn, the labels' or the target's part of the score added
 * up in the sweep from the left).  Rothko-S's pruning (004 §3.2) judges
 * each node of its tree the same way, from one sort of the node's rows
 * by value and leaf (rsens_tree_ok).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extsort.h"
#include "kanon.h"
#include "mondrian.h"
#include "rothko.h"

/* What one sort may take: a quarter of what the groups leave, as
 * rcut.c's streamed dimension (a sort's records may pass its budget
 * twice over as they grow). */
static size_t
sort_budget(const struct part *pt)
{
	return pt->rk->avail > pt->rk->gbytes ?
	    (pt->rk->avail - pt->rk->gbytes) / 4 : 0;
}

/* ---- a part's counts, in descending order -------------------------- */

struct cnts {
	struct part *pt;
	kn_sorter *so;
	uint64_t n;
	kn_ldiv_acc a;
};

static void
cnts_new(struct part *pt, struct cnts *c, size_t budget)
{
	memset(c, 0, sizeof(*c));
	c->pt = pt;
	c->so = kn_sort_new(NULL, 0, 1, budget, pt->rk->tmpdir);
}

/* A value of v rows. */
static void
cnts_add(struct cnts *c, uint64_t v)
{
	char line[16];

	mond_hex_put(line, ~v, 16);
	kn_sort_add(c->so, line, sizeof(line));
	c->n += v;
}

static void
cnts_line(const char *line, size_t len, void *ctx)
{
	struct cnts *c = ctx;

	(void)len;
	kn_ldiv_add(&c->a, ~mond_hex_get(line, 16));
}

/* Whether the part meets -k and -l, as mond_side_ok; frees the sort. */
static int
cnts_ok(struct cnts *c)
{
	struct part *pt = c->pt;

	kn_ldiv_begin(&c->a, &pt->req.ld, c->n);
	kn_sort_finish(c->so, 0, cnts_line, c);
	mond_sort_done(pt, c->so);
	c->so = NULL;
	return c->n >= pt->req.k && kn_ldiv_end(&c->a);
}

/* Runs of equal keys in a sorted stream of them, each run's length a
 * value's count: to c (-l), and with lk to cs, a part of n rows
 * (--closeness, tchash). */
struct runs {
	struct part *pt;
	struct cnts *c;
	struct rclook *lk;
	struct rcsum cs;
	uint64_t n;
	uint64_t cur, len;
	int any;
};

static void
run_done(struct runs *ru)
{
	if (ru->c != NULL)
		cnts_add(ru->c, ru->len);
	if (ru->lk != NULL) {
		struct rcval v = rclose_rows(ru->lk, ru->pt, ru->cur);

		rclose_add(ru->pt, &ru->cs, ru->len, &v, ru->n);
	}
}

static void
runs_line(const char *line, size_t len, void *ctx)
{
	struct runs *ru = ctx;
	uint64_t h = mond_hex_get(line, 16);

	(void)len;
	if (ru->any && h != ru->cur) {
		run_done(ru);
		ru->len = 0;
	}
	ru->cur = h;
	ru->len++;
	ru->any = 1;
}

static void
runs_end(struct runs *ru)
{
	if (ru->any)
		run_done(ru);
	ru->any = 0;
	ru->len = 0;
}

/* With --variance, whether a part of n rows in column col whose numbers
 * sum to vs, their squares to vss, has the variance asked for, as
 * msens.c and mond_k_var_ok decide it. */
static int
var_ok(const struct part *pt, size_t col, uint64_t n, kn_i128 vs,
    kn_i128 vss)
{
	kn_sum sm;
	long double var;

	if (pt->nsvd == 0)
		return 1;
	sm.s = vs;
	sm.ss = vss;
	sm.sc = pt->dims[pt->nqi + pt->nshd + col].S;
	return kn_variance_ok(n, &sm, sm.sc, pt->req.vm, pt->req.vs, &var);
}

/* Whether the node meets -k, the variance, -l and t-closeness in
 * sensitive column col. */
static int
node_col_ok(struct part *pt, size_t col)
{
	struct oread rd;
	const uint32_t *r;
	struct cnts c;
	struct runs ru;
	struct rclook lk;
	kn_sorter *so = NULL;
	char line[16];
	size_t b = sort_budget(pt) / 2;
	kn_i128 vs = 0, vss = 0, x;
	uint64_t n = 0;
	int ok;

	if (pt->req.ld.on || pt->tchash)
		so = kn_sort_new(NULL, 0, 1, b, pt->rk->tmpdir);
	rothko_node_open(pt, &rd, pt->nqi);
	while ((r = rothko_node_next(pt, &rd)) != NULL) {
		n++;
		if (pt->nsvd > 0) {
			x = mond_snum_col(pt, r, col);
			vs += x;
			vss += x * x;
		}
		if (so == NULL)
			continue;
		mond_hex_put(line, mond_sens_col(pt, r, col), 16);
		kn_sort_add(so, line, sizeof(line));
	}
	rothko_read_close(&rd);
	if (n < pt->req.k || !var_ok(pt, col, n, vs, vss)) {
		if (so != NULL)
			mond_sort_done(pt, so);
		return 0;
	}
	if (so == NULL)
		return 1;
	memset(&ru, 0, sizeof(ru));
	ru.pt = pt;
	ru.n = n;
	if (pt->req.ld.on) {
		cnts_new(pt, &c, b);
		ru.c = &c;
	}
	if (pt->tchash) {
		rclose_open(pt, col, &lk);
		ru.lk = &lk;
	}
	kn_sort_finish(so, 0, runs_line, &ru);
	mond_sort_done(pt, so);
	runs_end(&ru);
	ok = 1;
	if (pt->tchash) {
		rclose_close(&lk);
		ok = rclose_ok(pt, &ru.cs, n, NULL);
	}
	if (pt->req.ld.on)
		ok = cnts_ok(&c) && ok;
	return ok;
}

int
rsens_node_ok(struct part *pt)
{
	size_t c;

	for (c = 0; c < pt->nshd; c++)
		if (!node_col_ok(pt, c))
			return 0;
	return 1;
}

/* ---- a hierarchy's children ---------------------------------------- */

struct hsort {
	struct part *pt;
	size_t budget, col;
	struct cnts c;
	struct runs ru;
	uint64_t child;
	kn_i128 vs, vss;	/* --variance: the child's sums */
	int open, ok;
	/* --closeness (tchash): each child's rows, counted as the rows are
	 * read, and the look-ups */
	uint64_t *chn;
	size_t nch;
	struct rclook lk;
};

static void
hier_end(struct hsort *hs)
{
	runs_end(&hs->ru);
	if (!var_ok(hs->pt, hs->col, hs->c.n, hs->vs, hs->vss)) {
		mond_sort_done(hs->pt, hs->c.so);
		hs->ok = 0;
	} else if (!cnts_ok(&hs->c))
		hs->ok = 0;
	else if (hs->pt->tchash && !rclose_ok(hs->pt, &hs->ru.cs, hs->c.n,
	    NULL))
		hs->ok = 0;
	hs->open = 0;
}

/* A row: 8 hex digits of its child, 16 of its value's key, and with
 * --variance 16 of its number. */
static void
hier_line(const char *line, size_t len, void *ctx)
{
	struct hsort *hs = ctx;
	uint64_t ch = mond_hex_get(line, 8);
	kn_i128 x;

	(void)len;
	if (!hs->ok)
		return;
	if (hs->open && ch != hs->child) {
		hier_end(hs);
		if (!hs->ok)
			return;
	}
	if (!hs->open) {
		cnts_new(hs->pt, &hs->c, hs->budget);
		memset(&hs->ru, 0, sizeof(hs->ru));
		hs->ru.pt = hs->pt;
		hs->ru.c = &hs->c;
		if (hs->pt->tchash) {
			hs->ru.lk = &hs->lk;
			hs->ru.n = hs->chn[ch];
		}
		hs->child = ch;
		hs->vs = hs->vss = 0;
		hs->open = 1;
	}
	if (hs->pt->nsvd > 0) {
		x = (int64_t)mond_hex_get(line + 24, 16);
		hs->vs += x;
		hs->vss += x * x;
	}
	runs_line(line + 8, 16, &hs->ru);
}

/* Whether every child of the hierarchy of dimension j meets -k, the
 * variance and -l in sensitive column col. */
static int
hier_col_ok(struct part *pt, size_t j, size_t col)
{
	struct oread rd;
	const uint32_t *r;
	struct hsort hs;
	kn_sorter *so;
	char line[40];
	size_t b = sort_budget(pt) / 2, len = pt->nsvd > 0 ? 40 : 24;

	memset(&hs, 0, sizeof(hs));
	hs.pt = pt;
	hs.budget = b;
	hs.col = col;
	hs.ok = 1;
	so = kn_sort_new(NULL, 0, 1, b, pt->rk->tmpdir);
	rothko_node_open(pt, &rd, j);
	while ((r = rothko_node_next(pt, &rd)) != NULL) {
		uint32_t ch = mond_child_of(pt, j,
		    (uint32_t)(rothko_disk_key(pt, r, j) - pt->node.mn[j]));

		if (pt->tchash) {
			/* The children are the hierarchy's, held. */
			if (ch >= hs.nch) {
				size_t was = hs.nch;

				hs.nch = 2 * (size_t)ch + 16;
				hs.chn = kn_realloc(hs.chn, hs.nch *
				    sizeof(uint64_t));
				memset(hs.chn + was, 0, (hs.nch - was) *
				    sizeof(uint64_t));
			}
			hs.chn[ch]++;
		}
		mond_hex_put(line, ch, 8);
		mond_hex_put(line + 8, mond_sens_col(pt, r, col), 16);
		if (pt->nsvd > 0)
			mond_hex_put(line + 24,
			    (uint64_t)mond_snum_col(pt, r, col), 16);
		kn_sort_add(so, line, len);
	}
	rothko_read_close(&rd);
	if (pt->tchash)
		rclose_open(pt, col, &hs.lk);
	kn_sort_finish(so, 0, hier_line, &hs);
	mond_sort_done(pt, so);
	if (hs.open)
		hier_end(&hs);
	if (pt->tchash)
		rclose_close(&hs.lk);
	free(hs.chn);
	return hs.ok;
}

/* Specializing the hierarchy of dimension j: allowable when every
 * child meets the requirements (eval_hier), in every column. */
static void
cut_hier(struct part *pt, size_t j, struct cut *best)
{
	size_t c;

	for (c = 0; c < pt->nshd; c++)
		if (!hier_col_ok(pt, j, c))
			return;
	/* The score, under --split, from the groups (rcut.c). */
	rothko_groups_cut_hier(pt, j, best, 1);
}

/* ---- an ordered dimension's cut ------------------------------------ */

/* The l - 1 largest counts of a part as it grows, each by one at a
 * time: a heap of the values, least count first, and the values' places
 * in it by hash. */
struct topl {
	size_t cap, n, mask;
	uint64_t *v, *c;	/* the heap */
	uint64_t *sv;		/* a slot's value + 1, or 0 */
	size_t *sp;		/* its place in the heap */
	uint64_t sum;
};

/* The bytes a topl of cap values takes. */
static size_t
topl_bytes(size_t cap)
{
	size_t ns = 2;

	while (ns < 2 * cap)
		ns *= 2;
	return 2 * cap * sizeof(uint64_t) +
	    ns * (sizeof(uint64_t) + sizeof(size_t));
}

static void
topl_init(struct topl *t, size_t cap)
{
	size_t ns = 2;

	memset(t, 0, sizeof(*t));
	while (ns < 2 * cap)
		ns *= 2;
	t->cap = cap;
	t->mask = ns - 1;
	t->v = kn_alloc((cap + 1) * sizeof(uint64_t));
	t->c = kn_alloc((cap + 1) * sizeof(uint64_t));
	t->sv = kn_zalloc(ns * sizeof(uint64_t));
	t->sp = kn_zalloc(ns * sizeof(size_t));
}

static void
topl_free(struct topl *t)
{
	free(t->v);
	free(t->c);
	free(t->sv);
	free(t->sp);
	memset(t, 0, sizeof(*t));
}

/* The slot of value v, or the empty one where it would go. */
static size_t
topl_slot(const struct topl *t, uint64_t v)
{
	size_t h = kn_hash_mix(v) & t->mask;

	while (t->sv[h] != 0 && t->sv[h] != v + 1)
		h = (h + 1) & t->mask;
	return h;
}

/* Removes the value in slot h, shifting back those after it. */
static void
topl_unslot(struct topl *t, size_t h)
{
	size_t i = h, k;

	t->sv[h] = 0;
	for (;;) {
		i = (i + 1) & t->mask;
		if (t->sv[i] == 0)
			return;
		k = kn_hash_mix(t->sv[i] - 1) & t->mask;
		/* Stays where it is when its home lies cyclically in (h, i]. */
		if (h <= i ? h < k && k <= i : h < k || k <= i)
			continue;
		t->sv[h] = t->sv[i];
		t->sp[h] = t->sp[i];
		t->sv[i] = 0;
		h = i;
	}
}

static void
topl_swap(struct topl *t, size_t a, size_t b)
{
	uint64_t x = t->v[a], y = t->c[a];

	t->v[a] = t->v[b];
	t->c[a] = t->c[b];
	t->v[b] = x;
	t->c[b] = y;
	t->sp[topl_slot(t, t->v[a])] = a;
	t->sp[topl_slot(t, t->v[b])] = b;
}

static void
topl_down(struct topl *t, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < t->n && t->c[l] < t->c[m])
			m = l;
		if (l + 1 < t->n && t->c[l + 1] < t->c[m])
			m = l + 1;
		if (m == i)
			return;
		topl_swap(t, i, m);
		i = m;
	}
}

static void
topl_up(struct topl *t, size_t i)
{
	while (i > 0 && t->c[(i - 1) / 2] > t->c[i]) {
		topl_swap(t, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

/* Value v now has c rows in the part, one more than before: a value
 * outside the heap had at most its least count. */
static void
topl_add(struct topl *t, uint64_t v, uint64_t c)
{
	size_t h;

	if (t->cap == 0)
		return;
	h = topl_slot(t, v);
	if (t->sv[h] != 0) {
		t->c[t->sp[h]] = c;
		t->sum++;
		topl_down(t, t->sp[h]);
		return;
	}
	if (t->n < t->cap) {
		t->v[t->n] = v;
		t->c[t->n] = c;
		t->sv[h] = v + 1;
		t->sp[h] = t->n;
		t->sum += c;
		topl_up(t, t->n++);
		return;
	}
	if (c <= t->c[0])
		return;
	topl_unslot(t, topl_slot(t, t->v[0]));
	t->sum += c - t->c[0];
	t->v[0] = v;
	t->c[0] = c;
	h = topl_slot(t, v);
	t->sv[h] = v + 1;
	t->sp[h] = 0;
	topl_down(t, 0);
}

/* A part in a column: rows, values, the largest count, and s: for
 * entropy the sum of f(c), for recursive l the sum of the l - 1
 * largest counts; with --variance the sum of the numbers and of their
 * squares (at the column's scale).  As the sweep from the right leaves
 * it at a boundary for the sweep from the left, too. */
struct rinfo {
	kn_i128 s, vs, vss;
	uint64_t n, m, r1, pad;
};

/* A part as a sweep grows it (recursive l's largest counts in top). */
struct sweep {
	struct rinfo p;
	struct topl top;
};

/* Value v has now c rows in the part, one more, of number x. */
static void
sweep_add(struct part *pt, struct sweep *w, uint64_t v, uint64_t c,
    int64_t x)
{
	struct rinfo *p = &w->p;

	p->n++;
	p->m += c == 1;
	if (c > p->r1)
		p->r1 = c;
	p->vs += x;
	p->vss += (kn_i128)x * x;
	if (!pt->req.ld.on)
		return;
	if (pt->req.ld.kind == KN_DIV_ENTROPY)
		p->s += kn_xlx62(c) - kn_xlx62(c - 1);
	else if (pt->req.ld.kind == KN_DIV_RECURSIVE) {
		topl_add(&w->top, v, c);
		p->s = w->top.sum;
	}
}

static int side_sums(struct part *pt, size_t col, const struct rinfo *p);

/* 1 when a part in column col meets -k, the variance, -l and
 * t-closeness, 0 when not, -1 when only its counts can tell (entropy
 * near the threshold, and t-closeness always). */
static int
side_verdict(struct part *pt, size_t col, const struct rinfo *p)
{
	int v = side_sums(pt, col, p);

	return v == 1 && pt->tchash ? -1 : v;
}

/* side_verdict by -k, the variance and -l. */
static int
side_sums(struct part *pt, size_t col, const struct rinfo *p)
{
	uint64_t n = p->n, m = p->m, r1 = p->r1;
	kn_i128 s = p->s;

	if (n < pt->req.k || !var_ok(pt, col, n, p->vs, p->vss))
		return 0;
	if (!pt->req.ld.on)
		return 1;
	if (pt->req.ld.kind == KN_DIV_DISTINCT)
		return m >= pt->req.ld.lceil;
	if (pt->req.ld.kind != KN_DIV_ENTROPY)
		return kn_ldiv_recursive_ok(&pt->req.ld, r1,
		    (unsigned __int128)(n - (uint64_t)s), (size_t)m);
	/* Counts all alike (the largest is the mean): kn_ldiv_ok's
	 * verdict is m >= l, with no rounding to be unsure of (a constant
	 * column and -l 1, values in turn and an integer l). */
	if ((unsigned __int128)r1 * m == n)
		return m >= pt->req.ld.lceil;
	switch (kn_ldiv_entropy_sure(&pt->req.ld, kn_xlx62(n), s, n, m)) {
	case 1:
		return 1;
	case -1:
		return 0;
	}
	return -1;
}

/* A row of the node in the dimension's order: its key there, its
 * value's index (in the order of their keys), its rank j among the
 * rows of its value, their total t, its label or target y, and with
 * --variance its value's number x. */
struct orow {
	uint64_t key, v, j, t, y;
	int64_t x;
};

/* A row of the first sort's file: its key in the dimension, its label
 * or target (mond_targ_of), its value's number (--variance). */
struct krow {
	uint64_t key, y;
	int64_t x;
};

/* n bytes of file fd (name, for messages) at offset at. */
static void
pread_all(int fd, void *buf, size_t n, off_t at, const char *name)
{
	size_t got = 0;
	ssize_t w;

	while (got < n) {
		w = pread(fd, (char *)buf + got, n - got, at + (off_t)got);
		if (w <= 0)
			kn_die_sys("%s: read error", name);
		got += (size_t)w;
	}
}

/* A file of records read from its end. */
struct brev {
	int fd;
	off_t at;
	char *buf;
	size_t rs, cap, n;
	const char *name;
};

static void
brev_open(struct brev *b, FILE *f, const char *name, size_t rs)
{
	memset(b, 0, sizeof(*b));
	b->fd = fileno(f);
	b->name = name;
	b->rs = rs;
	b->cap = 65536 / rs;
	b->buf = kn_alloc(b->cap * rs);
	if ((b->at = lseek(b->fd, 0, SEEK_END)) < 0)
		kn_die_sys("%s", name);
}

static const void *
brev_prev(struct brev *b)
{
	if (b->n == 0) {
		size_t k = (size_t)(b->at / (off_t)b->rs);

		if (k == 0)
			return NULL;
		if (k > b->cap)
			k = b->cap;
		b->at -= (off_t)(k * b->rs);
		pread_all(b->fd, b->buf, k * b->rs, b->at, b->name);
		b->n = k;
	}
	return b->buf + --b->n * b->rs;
}

/* A cut whose parts only their counts can tell: in column c, the left
 * part if bit c of needl is set, the right one if bit c of needr. */
struct unsure {
	uint64_t l, kc;
	uint32_t needl, needr;
};

/* A sensitive column's files of an ordered dimension's cut: the keys in
 * the dimension in the order of (value, key) (f1), each value's rows
 * (ft), and the node's rows in the dimension's order (f2). */
struct ocol {
	char *n1, *nt, *n2;
	FILE *f1, *ft, *f2;
	int tcl;	/* ft's runs carry the value's rows in the table */
};

/* The state of an ordered dimension's cut. */
struct osort {
	struct part *pt;
	size_t j;
	struct cut *best;
	size_t budget;
	struct ocol *oc;	/* one a sensitive column, then the labels' */
	size_t nl;		/* how many: nshd, one more by hash */
	size_t c;		/* the column the first sorts are of */
	char *n3;
	FILE *f3;
	uint64_t cur, run;
	int any;
	struct rclook lk;	/* the first sort's look-ups (tcl) */
	/* the hex digits of a count of the node's rows in the sorts' lines,
	 * of a number (--variance), and of a label or target (none under
	 * the median split; column 0's alone) */
	int wd, xd, yd;
	/* --split: the left part's sum of c ln c over the labels and the
	 * right part's, or the left part's sum of the target */
	kn_i128 llf, rlf, lts;
	/* labels by hash (targ_hashed): the node's sum of c ln c over its
	 * labels' counts, from the first sort of their column (nshd) */
	kn_i128 lft;
	/* the cuts waiting for their counts (flush_unsure): nun in a file,
	 * the first nleft of them left of the median */
	FILE *fu;
	char *nu;
	uint64_t nun, nleft;
	/* --split infogain: the better cuts waiting for their counts, by
	 * score (flush_better), and whether one was settled */
	kn_sorter *ds;
	int dsdone;
	struct mfars far;	/* t-closeness: the last cuts too far */
};

static void
wr(FILE *f, const void *p, size_t n, const char *name)
{
	if (fwrite(p, n, 1, f) != 1)
		kn_die_sys("%s: write error", name);
}

static void
tmp_drop(FILE *f, char *name)
{
	fclose(f);
	kn_tmp_close(name);
}

static void rd(FILE *f, void *p, size_t n, const char *name);

/* The first sort's run of os->run rows of value os->cur to ft, with
 * its rows in the table under tcl. */
static void
run_put(struct osort *os, struct ocol *oc)
{
	struct rcval v;

	wr(oc->ft, &os->run, sizeof(os->run), oc->nt);
	if (oc->tcl) {
		/* The value's rows, or all it was looked up with. */
		v = rclose_rows(&os->lk, os->pt, os->cur);
		if (os->pt->tcord)
			wr(oc->ft, &v, sizeof(v), oc->nt);
		else
			wr(oc->ft, &v.C, sizeof(v.C), oc->nt);
	}
}

/* The next run of ft: its rows in *t, and under tcl the value as
 * looked up in *C; 0 at the end. */
static int
run_get(const struct part *pt, const struct ocol *oc, uint64_t *t,
    struct rcval *C)
{
	if (fread(t, sizeof(*t), 1, oc->ft) != 1) {
		if (ferror(oc->ft))
			kn_die_sys("%s: read error", oc->nt);
		return 0;
	}
	memset(C, 0, sizeof(*C));
	if (oc->tcl && pt->tcord)
		rd(oc->ft, C, sizeof(*C), oc->nt);
	else if (oc->tcl)
		rd(oc->ft, &C->C, sizeof(C->C), oc->nt);
	return 1;
}

/* The first sort's line: 16 hex digits of the value's key, 16 of the
 * dimension's, xd of the value's number, the rest the label or target.
 */
static void
first_line(const char *line, size_t len, void *ctx)
{
	struct osort *os = ctx;
	struct ocol *oc = &os->oc[os->c];
	uint64_t h = mond_hex_get(line, 16);
	size_t at = 32 + (size_t)os->xd;
	struct krow k;

	if (os->any && h != os->cur) {
		run_put(os, oc);
		os->run = 0;
	}
	os->cur = h;
	os->any = 1;
	os->run++;
	k.key = mond_hex_get(line + 16, 16);
	k.x = os->xd ? (int64_t)mond_hex_get(line + 32, os->xd) : 0;
	k.y = len > at ? mond_hex_get(line + at, (int)(len - at)) : 0;
	wr(oc->f1, &k, sizeof(k), oc->n1);
}

/* The second sort's line: key (16 hex digits), value, j, t (wd each), x
 * (xd), y (the rest). */
static void
second_line(const char *line, size_t len, void *ctx)
{
	struct osort *os = ctx;
	struct ocol *oc = &os->oc[os->c];
	size_t at = 16 + 3 * (size_t)os->wd;
	struct orow o;

	o.key = mond_hex_get(line, 16);
	o.v = mond_hex_get(line + 16, os->wd);
	o.j = mond_hex_get(line + 16 + os->wd, os->wd);
	o.t = mond_hex_get(line + 16 + 2 * os->wd, os->wd);
	o.x = os->xd ? (int64_t)mond_hex_get(line + at, os->xd) : 0;
	at += (size_t)os->xd;
	o.y = len > at ? mond_hex_get(line + at, (int)(len - at)) : 0;
	wr(oc->f2, &o, sizeof(o), oc->n2);
}

static void
rd(FILE *f, void *p, size_t n, const char *name)
{
	if (fread(p, n, 1, f) != 1)
		kn_die("%s: read error: the file is shorter than written",
		    name);
}

/* The verdicts of the parts left and right of a cut below key kc, of
 * nl rows on its left, that only their counts tell (needl, needr: a bit
 * a column), from the first sorts' files; with dl and dr (not NULL),
 * the left part's and the right part's greatest distance to the table
 * in a column (t-closeness, tchash), or -1. */
static int
exact_ok(struct osort *os, uint64_t kc, uint64_t nl, uint32_t needl,
    uint32_t needr, long double *dl, long double *dr)
{
	long double d;
	struct part *pt = os->pt;
	struct cnts cl, cr;
	struct rcsum sl, sr;
	struct krow k;
	struct rcval C;
	uint64_t t, i, tl, left, n = pt->node.n;
	size_t c;
	int ok = 1, l, r, ld = pt->req.ld.on;

	if (dl != NULL)
		*dl = *dr = -1;
	for (c = 0; c < pt->nshd && ok; c++) {
		struct ocol *oc = &os->oc[c];

		l = needl >> c & 1;
		r = needr >> c & 1;
		if (!l && !r)
			continue;
		if (l && ld)
			cnts_new(pt, &cl, os->budget / 2);
		if (r && ld)
			cnts_new(pt, &cr, os->budget / 2);
		memset(&sl, 0, sizeof(sl));
		memset(&sr, 0, sizeof(sr));
		rewind(oc->f1);
		rewind(oc->ft);
		for (left = 0; run_get(pt, oc, &t, &C);) {
			for (i = tl = 0; i < t; i++) {
				rd(oc->f1, &k, sizeof(k), oc->n1);
				tl += k.key <= kc;
			}
			left += tl;
			if (l && ld && tl > 0)
				cnts_add(&cl, tl);
			if (r && ld && t > tl)
				cnts_add(&cr, t - tl);
			if (l && oc->tcl && tl > 0)
				rclose_add(pt, &sl, tl, &C, nl);
			if (r && oc->tcl && t > tl)
				rclose_add(pt, &sr, t - tl, &C, n - nl);
		}
		if (left != nl)
			kn_die("internal error: %s: %llu rows left of a cut "
			    "of %llu", oc->n1, (unsigned long long)left,
			    (unsigned long long)nl);
		if (l && ld)
			ok = cnts_ok(&cl);
		if (r && ld)
			ok = cnts_ok(&cr) && ok;
		if (l && oc->tcl) {
			ok = rclose_ok(pt, &sl, nl, &d) && ok;
			if (dl != NULL && d > *dl)
				*dl = d;
		}
		if (r && oc->tcl) {
			ok = rclose_ok(pt, &sr, n - nl, &d) && ok;
			if (dr != NULL && d > *dr)
				*dr = d;
		}
	}
	return ok;
}

/* The code the groups of dimension j give key k (rothko_code_key's
 * inverse). */
static uint64_t
key_code(struct part *pt, size_t j, uint64_t k)
{
	const struct gtab *g = &pt->rk->gtab[j];
	size_t lo = 0, hi = g->n;

	if (!pt->keyed || rothko_streamed(pt, j))
		return k;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rothko_code_key(pt, j, g->e[mid].code) < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == g->n || rothko_code_key(pt, j, g->e[lo].code) != k)
		kn_die("internal error: a cut's key is not among the node's");
	return g->e[lo].code;
}

/* How far a cut of l rows on its left lies from the median of the
 * node's n: |2l - n|. */
static uint64_t
median_dist(uint64_t n, uint64_t l)
{
	return 2 * l > n ? 2 * l - n : n - 2 * l;
}

/* Takes the cut below key kc, l rows on its left, scoring (isc, sc),
 * as the best. */
static void
take(struct osort *os, uint64_t l, uint64_t kc, kn_i128 isc, long double sc)
{
	struct cut *best = os->best;

	best->found = 1;
	best->fast = 1;
	best->dim = os->j;
	best->L = l;
	best->dist = median_dist(os->pt->node.n, l);
	best->iscore = isc;
	best->score = sc;
	best->med = key_code(os->pt, os->j, kc);
	best->eqleft = UINT64_MAX;
}

/* Whether a cut of l rows on its left is nearer the median than the
 * best so far, or as near and right of it (eval_median's order). */
static int
nearer(const struct osort *os, uint64_t l)
{
	uint64_t dist = median_dist(os->pt->node.n, l);

	return !os->best->found || dist < os->best->dist ||
	    (dist == os->best->dist && l > os->best->L);
}

/* Waiting cut i (in the order they came, of l ascending). */
static void
unsure_at(struct osort *os, uint64_t i, struct unsure *u)
{
	pread_all(fileno(os->fu), u, sizeof(*u), (off_t)(i * sizeof(*u)),
	    os->nu);
}

/* exact_ok, unless the cuts too far before show the cut surely too far
 * (under t-closeness a node whose parts are far from the table is then
 * read a few times, not once a cut); a cut judged too far joins them. */
static int
judged_ok(struct osort *os, uint64_t kc, uint64_t l, uint32_t needl,
    uint32_t needr)
{
	long double dl, dr;

	if (!os->pt->tchash)
		return exact_ok(os, kc, l, needl, needr, NULL, NULL);
	if (mond_far_fails(os->pt, &os->far, os->pt->node.n, l))
		return 0;
	if (exact_ok(os, kc, l, needl, needr, &dl, &dr))
		return 1;
	mond_far_add(&os->far, l, dl, dr);
	return 0;
}

/* The cuts waiting for their counts, in eval_median's order (the
 * nearest the median first, of two as near the right one): those left
 * of it from the last backwards, those right of it from the first on,
 * until one passes or none is nearer than the best. */
static void
flush_unsure(struct osort *os)
{
	uint64_t lo = os->nleft, hi = os->nleft, n = os->pt->node.n;
	struct unsure a, b, u;

	if (fflush(os->fu) != 0)
		kn_die_sys("%s: write error", os->nu);
	while (lo > 0 || hi < os->nun) {
		if (lo > 0)
			unsure_at(os, lo - 1, &a);
		if (hi < os->nun)
			unsure_at(os, hi, &b);
		if (hi < os->nun && (lo == 0 || median_dist(n, b.l) <=
		    median_dist(n, a.l))) {
			u = b;
			hi++;
		} else {
			u = a;
			lo--;
		}
		if (!nearer(os, u.l))
			break;
		if (judged_ok(os, u.kc, u.l, u.needl, u.needr)) {
			take(os, u.l, u.kc, 0, 0);
			break;
		}
	}
}

/* The verdicts of the parts of a cut in every column, L[c] and R[c]
 * those of column c: 0 when one fails, else 1, the parts that only
 * their counts can tell in *needl and *needr (a bit a column). */
static int
verdicts(struct part *pt, const struct sweep *L, const struct rinfo *R,
    uint32_t *needl, uint32_t *needr)
{
	size_t c;
	int v;

	*needl = *needr = 0;
	for (c = 0; c < pt->nshd; c++) {
		if ((v = side_verdict(pt, c, &L[c].p)) == 0)
			return 0;
		*needl |= (uint32_t)(v < 0) << c;
		if ((v = side_verdict(pt, c, &R[c])) == 0)
			return 0;
		*needr |= (uint32_t)(v < 0) << c;
	}
	return 1;
}

/*
 * Under --split infogain, a cut that beats the best so far but whose
 * parts only their counts can tell waits in a sort by score (highest
 * first), distance from the median and place (least first), which is
 * eval_ordered's order of preference: the scores are integers, so the
 * best cut of the dimension is the first of those waiting that passes,
 * unless the best of the sure ones (or of a dimension before) beats it
 * (flush_better).  So a pass over the node is made for each waiting cut
 * better than the best that passes, not for each better than the best
 * at its place.  (--split regression, whose better has a tolerance,
 * judges each in turn.)
 */
static void
defer_better(struct osort *os, uint64_t l, uint64_t kc, kn_i128 isc,
    uint64_t dist, uint32_t ml, uint32_t mr)
{
	unsigned __int128 k = ~((unsigned __int128)isc ^
	    ((unsigned __int128)1 << 127));
	char line[96];

	if (os->ds == NULL)
		os->ds = kn_sort_new(NULL, 0, 1, os->budget / 2,
		    os->pt->rk->tmpdir);
	mond_hex_put(line, (uint64_t)(k >> 64), 16);
	mond_hex_put(line + 16, (uint64_t)k, 16);
	mond_hex_put(line + 32, dist, 16);
	mond_hex_put(line + 48, l, 16);
	mond_hex_put(line + 64, kc, 16);
	mond_hex_put(line + 80, ml, 8);
	mond_hex_put(line + 88, mr, 8);
	kn_sort_add(os->ds, line, sizeof(line));
}

/* A waiting cut, in defer_better's order: taken if it beats the best and
 * passes; the first that does not beat the best ends the wait. */
static void
better_line(const char *line, size_t len, void *ctx)
{
	struct osort *os = ctx;
	const struct cut *best = os->best;
	unsigned __int128 k;
	kn_i128 isc;
	uint64_t dist, l, kc;

	(void)len;
	if (os->dsdone)
		return;
	k = (unsigned __int128)mond_hex_get(line, 16) << 64 |
	    mond_hex_get(line + 16, 16);
	isc = (kn_i128)(~k ^ ((unsigned __int128)1 << 127));
	dist = mond_hex_get(line + 32, 16);
	l = mond_hex_get(line + 48, 16);
	kc = mond_hex_get(line + 64, 16);
	/* Of two alike, the one first in the node's order (a dimension
	 * before this one, or a lesser place in it) is eval_ordered's. */
	if (best->found && (isc != best->iscore ? isc < best->iscore :
	    dist != best->dist ? dist > best->dist :
	    best->dim != os->j || l > best->L)) {
		os->dsdone = 1;
		return;
	}
	if (judged_ok(os, kc, l, (uint32_t)mond_hex_get(line + 80, 8),
	    (uint32_t)mond_hex_get(line + 88, 8))) {
		take(os, l, kc, isc, 0);
		os->dsdone = 1;
	}
}

static void
flush_better(struct osort *os)
{
	kn_sort_finish(os->ds, 0, better_line, os);
	mond_sort_done(os->pt, os->ds);
	os->ds = NULL;
}

/* The boundary below key kc, the left parts L, the right ones R (one a
 * column): taken as the best if it is as near the median and both
 * parts pass.  One that only its counts can tell waits (in a file:
 * flush_unsure), so that a pass over the node is made for the nearest
 * alone. */
static void
boundary(struct osort *os, uint64_t kc, const struct sweep *L,
    const struct rinfo *R)
{
	struct part *pt = os->pt;
	uint64_t n = pt->node.n, l = L[0].p.n;
	struct unsure u;
	uint32_t ml, mr;

	if (l < pt->req.k || n - l < pt->req.k)
		return;
	if (pt->split != SPLIT_MEDIAN) {
		/* The best score, each cut that beats it judged in turn
		 * (eval_ordered). */
		uint64_t dist = median_dist(n, l);
		kn_i128 isc = 0;
		long double sc = 0;

		if (pt->split == SPLIT_INFOGAIN)
			isc = os->llf - mond_x_log_x(pt, l) + os->rlf -
			    mond_x_log_x(pt, n - l);
		else
			sc = mond_regression_term(os->lts, l) +
			    mond_regression_term(pt->node.tot.ts - os->lts,
			    n - l);
		if (!mond_cut_better(pt, os->best, isc, sc, dist) ||
		    !verdicts(pt, L, R, &ml, &mr))
			return;
		if ((ml | mr) != 0 && pt->split == SPLIT_INFOGAIN) {
			defer_better(os, l, kc, isc, dist, ml, mr);
			return;
		}
		if ((ml | mr) != 0 && !judged_ok(os, kc, l, ml, mr))
			return;
		take(os, l, kc, isc, sc);
		return;
	}
	if (!nearer(os, l) || !verdicts(pt, L, R, &ml, &mr))
		return;
	if ((ml | mr) == 0) {
		take(os, l, kc, 0, 0);
		return;
	}
	memset(&u, 0, sizeof(u));
	u.l = l;
	u.kc = kc;
	u.needl = ml;
	u.needr = mr;
	if (os->fu == NULL)
		os->fu = rothko_tmp_make(pt, &os->nu);
	wr(os->fu, &u, sizeof(u), os->nu);
	os->nun++;
	os->nleft += 2 * l <= n;
}

/* The l - 1 largest counts a sweep of a node of n rows keeps: none
 * when l is more than n, as no part of the node has l values then. */
static size_t
top_cap(const struct part *pt, uint64_t n)
{
	if (pt->req.ld.kind != KN_DIV_RECURSIVE || pt->req.ld.l < 2 ||
	    pt->req.ld.l - 1 >= (double)n)
		return 0;
	return (size_t)pt->req.ld.l - 1;
}

size_t
rsens_reserve(const struct part *pt)
{
	size_t cap = top_cap(pt, pt->nrows);

	return cap > 0 ? pt->nshd * topl_bytes(cap) : 0;
}

/* Column c's files of the cut of dimension j: the node's rows sorted by
 * (value, key), then in the dimension's order with each row's rank
 * among its value's rows and their total. */
static void
col_sorts(struct osort *os, size_t c)
{
	struct part *pt = os->pt;
	struct ocol *oc = &os->oc[c];
	struct oread rdr;
	const uint32_t *r;
	struct krow k;
	kn_sorter *so;
	char line[128];
	uint64_t t, v, i;
	struct rcval C;
	int yd = c == 0 ? os->yd : 0;
	/* Past the sensitive columns, the labels by hash (targ_hashed),
	 * which have no number. */
	int lab = c == pt->nshd;

	os->c = c;
	os->any = 0;
	os->run = 0;
	/* By value, then by the dimension's key. */
	so = kn_sort_new(NULL, 0, 1, os->budget, pt->rk->tmpdir);
	rothko_node_open(pt, &rdr, os->j);
	while ((r = rothko_node_next(pt, &rdr)) != NULL) {
		mond_hex_put(line, lab ? mond_targ_of(pt, r) :
		    mond_sens_col(pt, r, c), 16);
		mond_hex_put(line + 16, rothko_disk_key(pt, r, os->j), 16);
		if (os->xd)
			mond_hex_put(line + 32, lab ? 0 :
			    (uint64_t)mond_snum_col(pt, r, c), os->xd);
		if (yd)
			mond_hex_put(line + 32 + os->xd, mond_targ_of(pt, r),
			    yd);
		kn_sort_add(so, line, 32 + (size_t)os->xd + (size_t)yd);
	}
	rothko_read_close(&rdr);
	oc->f1 = rothko_tmp_make(pt, &oc->n1);
	oc->ft = rothko_tmp_make(pt, &oc->nt);
	oc->tcl = pt->tchash && !lab;
	if (oc->tcl)
		rclose_open(pt, c, &os->lk);
	kn_sort_finish(so, 0, first_line, os);
	mond_sort_done(pt, so);
	if (os->any)
		run_put(os, oc);
	if (oc->tcl)
		rclose_close(&os->lk);
	if (fflush(oc->f1) != 0 || fflush(oc->ft) != 0)
		kn_die_sys("%s: write error", oc->n1);

	/* Each row's rank among its value's rows, and their total, in the
	 * dimension's order. */
	so = kn_sort_new(NULL, 0, 1, os->budget, pt->rk->tmpdir);
	rewind(oc->f1);
	rewind(oc->ft);
	for (v = 0; run_get(pt, oc, &t, &C); v++) {
		if (lab)
			os->lft += mond_x_log_x(pt, t);
		for (i = 1; i <= t; i++) {
			rd(oc->f1, &k, sizeof(k), oc->n1);
			mond_hex_put(line, k.key, 16);
			mond_hex_put(line + 16, v, os->wd);
			mond_hex_put(line + 16 + os->wd, i, os->wd);
			mond_hex_put(line + 16 + 2 * os->wd, t, os->wd);
			if (os->xd)
				mond_hex_put(line + 16 + 3 * os->wd,
				    (uint64_t)k.x, os->xd);
			if (yd)
				mond_hex_put(line + 16 + 3 * os->wd + os->xd,
				    k.y, yd);
			kn_sort_add(so, line, 16 + 3 * (size_t)os->wd +
			    (size_t)os->xd + (size_t)yd);
		}
	}
	oc->f2 = rothko_tmp_make(pt, &oc->n2);
	kn_sort_finish(so, 0, second_line, os);
	mond_sort_done(pt, so);
	if (fflush(oc->f2) != 0)
		kn_die_sys("%s: write error", oc->n2);
}

/* Next row of each column's f2 from its end (b[c]) into op[c]: 0 at the
 * start of the files. */
static int
prev_rows(struct osort *os, struct brev *b, const struct orow **op)
{
	size_t c;

	for (c = 0; c < os->pt->nshd; c++)
		if ((op[c] = brev_prev(&b[c])) == NULL) {
			if (c > 0)
				kn_die("internal error: %s: fewer rows",
				    os->oc[c].n2);
			return 0;
		}
	return 1;
}

/* Next row of each column's f2 into o[c]: 0 at the end of the files. */
static int
next_rows(struct osort *os, struct orow *o)
{
	size_t c;

	for (c = 0; c < os->nl; c++)
		if (fread(&o[c], sizeof(o[c]), 1, os->oc[c].f2) != 1) {
			if (ferror(os->oc[c].f2))
				kn_die_sys("%s: read error", os->oc[c].n2);
			if (c > 0)
				kn_die("internal error: %s: fewer rows",
				    os->oc[c].n2);
			return 0;
		}
	return 1;
}

/* The sweeps, one a column, of a node of n rows. */
static struct sweep *
sweeps_new(const struct part *pt, size_t cap)
{
	struct sweep *w = kn_zalloc(pt->nshd * sizeof(*w));
	size_t c;

	for (c = 0; c < pt->nshd; c++)
		topl_init(&w[c].top, cap);
	return w;
}

static void
sweeps_free(const struct part *pt, struct sweep *w)
{
	size_t c;

	for (c = 0; c < pt->nshd; c++)
		topl_free(&w[c].top);
	free(w);
}

static void
cut_ordered(struct part *pt, size_t j, struct cut *best)
{
	size_t nc = pt->nshd, c, cap;
	struct osort os;
	const struct orow *op[KN_MAXSENS];
	struct orow o[KN_MAXSENS + 1];
	struct sweep *w;
	struct rinfo ri[KN_MAXSENS];
	struct brev b2[KN_MAXSENS], b3;
	const struct rinfo *rp;
	uint64_t i, cur = 0;
	int any;

	memset(&os, 0, sizeof(os));
	os.pt = pt;
	os.j = j;
	os.best = best;
	os.budget = sort_budget(pt);
	cap = top_cap(pt, pt->node.n);
	for (os.wd = 1; os.wd < 16 && pt->node.n >> (4 * os.wd) != 0; os.wd++)
		;
	os.xd = pt->nsvd > 0 ? 16 : 0;
	os.yd = pt->split == SPLIT_MEDIAN || pt->targ_hashed ? 0 : 16;
	os.nl = nc + (pt->targ_hashed ? 1 : 0);
	os.oc = kn_zalloc(os.nl * sizeof(struct ocol));
	for (c = 0; c < os.nl; c++)
		col_sorts(&os, c);

	/* From the right: the right parts at each boundary, those of the
	 * columns together. */
	os.f3 = rothko_tmp_make(pt, &os.n3);
	w = sweeps_new(pt, cap);
	for (c = 0; c < nc; c++)
		brev_open(&b2[c], os.oc[c].f2, os.oc[c].n2,
		    sizeof(struct orow));
	for (any = 0; prev_rows(&os, b2, op); any = 1) {
		if (any && op[0]->key != cur) {
			for (c = 0; c < nc; c++)
				ri[c] = w[c].p;
			wr(os.f3, ri, nc * sizeof(ri[0]), os.n3);
		}
		for (c = 0; c < nc; c++)
			sweep_add(pt, &w[c], op[c]->v,
			    op[c]->t - op[c]->j + 1, op[c]->x);
		cur = op[0]->key;
	}
	for (c = 0; c < nc; c++)
		free(b2[c].buf);
	sweeps_free(pt, w);
	if (fflush(os.f3) != 0)
		kn_die_sys("%s: write error", os.n3);

	/* From the left, each boundary judged with its right parts. */
	w = sweeps_new(pt, cap);
	brev_open(&b3, os.f3, os.n3, nc * sizeof(struct rinfo));
	os.rlf = pt->targ_hashed ? os.lft : pt->node.tot.lf;
	for (c = 0; c < os.nl; c++)
		rewind(os.oc[c].f2);
	for (any = 0; next_rows(&os, o); any = 1) {
		if (any && o[0].key != cur) {
			if ((rp = brev_prev(&b3)) == NULL)
				kn_die("internal error: %s: fewer boundaries "
				    "from the right", os.n3);
			boundary(&os, cur, w, rp);
		}
		for (c = 0; c < nc; c++)
			sweep_add(pt, &w[c], o[c].v, o[c].j, o[c].x);
		if (pt->targ_hashed) {
			/* The row's rank among its label's rows, of t. */
			uint64_t jr = o[nc].j, t = o[nc].t;

			os.llf += mond_x_log_x(pt, jr) -
			    mond_x_log_x(pt, jr - 1);
			os.rlf += mond_x_log_x(pt, t - jr) -
			    mond_x_log_x(pt, t - jr + 1);
		} else if (pt->split == SPLIT_INFOGAIN) {
			uint64_t n = pt->hl_side[o[0].y]++,
				 rn = pt->hl_tot[o[0].y] - n;

			os.llf += mond_x_log_x(pt, n + 1) - mond_x_log_x(pt, n);
			os.rlf += mond_x_log_x(pt, rn - 1) -
			    mond_x_log_x(pt, rn);
		} else if (pt->split == SPLIT_REGRESSION)
			os.lts += mond_tval(pt, o[0].y);
		cur = o[0].key;
	}
	for (i = 0; i < pt->nltouch; i++)
		pt->hl_side[pt->ltouch[i]] = 0;
	if (os.nun > 0) {
		flush_unsure(&os);
		tmp_drop(os.fu, os.nu);
	}
	if (os.ds != NULL)
		flush_better(&os);
	free(b3.buf);
	sweeps_free(pt, w);
	for (c = 0; c < os.nl; c++) {
		tmp_drop(os.oc[c].f1, os.oc[c].n1);
		tmp_drop(os.oc[c].ft, os.oc[c].nt);
		tmp_drop(os.oc[c].f2, os.oc[c].n2);
	}
	tmp_drop(os.f3, os.n3);
	free(os.oc);
}

void
rsens_choose_cut(struct part *pt, struct cut *best)
{
	uint32_t ord[64],
	    *op = pt->nqi <= 64 ? ord : kn_alloc(pt->nqi * sizeof(uint32_t));
	size_t j;

	memset(best, 0, sizeof(*best));
	if (pt->node.n >= 2 * pt->req.k) {
		rothko_dim_order(pt, op);
		for (j = 0; j < pt->nqi; j++) {
			if (pt->split == SPLIT_MEDIAN && best->found)
				break;
			if (!pt->node.can[op[j]])
				continue;
			if (mond_is_hier(pt, op[j]))
				cut_hier(pt, op[j], best);
			else
				cut_ordered(pt, op[j], best);
		}
	}
	if (op != ord)
		free(op);
}

/* ---- Rothko-S's pruning -------------------------------------------- */

/* The nodes of the grown tree (004 §3.2), each all its leaves' rows:
 * their rows by value, counted in each node on the value's leaves'
 * paths, then those counts by node and in descending order. */
struct tsort {
	struct part *pt;
	size_t *parent;
	uint64_t *cnt, *ntot;
	size_t *touched, ntouched;
	int *ok;
	kn_i128 *vs, *vss;	/* --variance: each node's sums */
	struct rcsum *cs;	/* --closeness (tchash): each node's */
	struct rclook lk;
	size_t col;
	kn_sorter *so2;
	uint64_t cur;
	int any;
	/* the second sort's node being read */
	size_t node;
	int open;
	kn_ldiv_acc a;
};

/* A value's counts in the nodes it touched, to the second sort. */
static void
tree_value_end(struct tsort *ts)
{
	char line[24];
	size_t i;
	struct rcval C;

	memset(&C, 0, sizeof(C));
	if (ts->pt->tchash && ts->ntouched > 0)
		C = rclose_rows(&ts->lk, ts->pt, ts->cur);

	for (i = 0; i < ts->ntouched; i++) {
		size_t t = ts->touched[i];

		if (ts->so2 != NULL) {
			mond_hex_put(line, t, 8);
			mond_hex_put(line + 8, ~ts->cnt[t], 16);
			kn_sort_add(ts->so2, line, sizeof(line));
		}
		if (ts->pt->tchash)
			rclose_add(ts->pt, &ts->cs[t], ts->cnt[t], &C,
			    ts->ntot[t]);
		ts->cnt[t] = 0;
	}
	ts->ntouched = 0;
}

/* The first sort's line: 16 hex digits of the value's key, 8 of the
 * row's leaf. */
static void
tree_line(const char *line, size_t len, void *ctx)
{
	struct tsort *ts = ctx;
	uint64_t h = mond_hex_get(line, 16);
	size_t t = (size_t)mond_hex_get(line + 16, 8);

	(void)len;
	if (ts->any && h != ts->cur)
		tree_value_end(ts);
	ts->cur = h;
	ts->any = 1;
	for (;; t = ts->parent[t]) {
		if (ts->cnt[t]++ == 0)
			ts->touched[ts->ntouched++] = t;
		if (t == 0)
			break;
	}
}

static void
tree_node_end(struct tsort *ts)
{
	size_t t = ts->node;

	if (ts->open)
		ts->ok[t] = ts->ntot[t] >= ts->pt->req.k &&
		    var_ok(ts->pt, ts->col, ts->ntot[t], ts->vs[t],
		    ts->vss[t]) && kn_ldiv_end(&ts->a);
	ts->open = 0;
}

/* The second sort's line: 8 hex digits of a node, 16 of a count's
 * complement. */
static void
count_line(const char *line, size_t len, void *ctx)
{
	struct tsort *ts = ctx;
	size_t t = (size_t)mond_hex_get(line, 8);

	(void)len;
	if (ts->open && t != ts->node)
		tree_node_end(ts);
	if (!ts->open) {
		ts->node = t;
		ts->open = 1;
		kn_ldiv_begin(&ts->a, &ts->pt->req.ld, ts->ntot[t]);
	}
	kn_ldiv_add(&ts->a, ~mond_hex_get(line + 8, 16));
}

/* Each tree node's verdict in sensitive column col, into ts->ok. */
static void
tree_col_ok(struct part *pt, const struct onode *on, struct tsort *ts,
    size_t col)
{
	struct oread rdr;
	const uint32_t *r;
	kn_sorter *so;
	char line[24];
	size_t t, nt = pt->grow.n, b = sort_budget(pt) / 2;

	kn_i128 x = 0;

	for (t = 0; t < nt; t++) {
		ts->ok[t] = 0;
		ts->ntot[t] = 0;
		ts->vs[t] = ts->vss[t] = 0;
		memset(&ts->cs[t], 0, sizeof(ts->cs[t]));
	}
	ts->any = ts->open = 0;
	ts->col = col;
	ts->so2 = NULL;
	so = pt->req.ld.on || pt->tchash ? kn_sort_new(NULL, 0, 1, b,
	    pt->rk->tmpdir) : NULL;
	pt->rk->snode = on;
	pt->rk->stn = -1;
	rothko_node_open(pt, &rdr, pt->nqi);
	while ((r = rothko_node_next(pt, &rdr)) != NULL) {
		size_t leaf = rothko_tree_route(pt, r);

		if (pt->nsvd > 0)
			x = mond_snum_col(pt, r, col);
		for (t = leaf;; t = ts->parent[t]) {
			ts->ntot[t]++;
			ts->vs[t] += x;
			ts->vss[t] += x * x;
			if (t == 0)
				break;
		}
		if (so == NULL)
			continue;
		mond_hex_put(line, mond_sens_col(pt, r, col), 16);
		mond_hex_put(line + 16, leaf, 8);
		kn_sort_add(so, line, sizeof(line));
	}
	rothko_read_close(&rdr);
	if (so != NULL) {
		if (pt->req.ld.on)
			ts->so2 = kn_sort_new(NULL, 0, 1, b, pt->rk->tmpdir);
		if (pt->tchash)
			rclose_open(pt, col, &ts->lk);
		kn_sort_finish(so, 0, tree_line, ts);
		mond_sort_done(pt, so);
		tree_value_end(ts);
		if (pt->tchash)
			rclose_close(&ts->lk);
	}
	if (!pt->req.ld.on) {
		/* No counts to sort: -k and the variance. */
		for (t = 0; t < nt; t++)
			ts->ok[t] = ts->ntot[t] >= pt->req.k &&
			    var_ok(pt, col, ts->ntot[t], ts->vs[t], ts->vss[t]);
	} else {
		kn_sort_finish(ts->so2, 0, count_line, ts);
		mond_sort_done(pt, ts->so2);
		ts->so2 = NULL;
		tree_node_end(ts);
	}
	for (t = 0; pt->tchash && t < nt; t++)
		ts->ok[t] = ts->ok[t] && rclose_ok(pt, &ts->cs[t],
		    ts->ntot[t], NULL);
}

void
rsens_tree_ok(struct part *pt, const struct onode *on, int *ok)
{
	struct tsort ts;
	size_t t, k, c, nt = pt->grow.n;

	memset(&ts, 0, sizeof(ts));
	ts.pt = pt;
	ts.ok = kn_alloc((nt + 1) * sizeof(int));
	ts.parent = kn_zalloc((nt + 1) * sizeof(size_t));
	ts.touched = kn_alloc((nt + 1) * sizeof(size_t));
	ts.cnt = kn_zalloc((nt + 1) * sizeof(uint64_t));
	ts.ntot = kn_zalloc((nt + 1) * sizeof(uint64_t));
	ts.vs = kn_zalloc((nt + 1) * sizeof(kn_i128));
	ts.vss = kn_zalloc((nt + 1) * sizeof(kn_i128));
	ts.cs = kn_zalloc((nt + 1) * sizeof(struct rcsum));
	for (t = 0; t < nt; t++) {
		ok[t] = 1;
		if (!pt->grow.t[t].leaf)
			for (k = 0; k < pt->grow.t[t].nkid; k++)
				ts.parent[pt->grow.t[t].kid0 + k] = t;
	}
	/* A node passes when it passes in every column. */
	for (c = 0; c < pt->nshd; c++) {
		tree_col_ok(pt, on, &ts, c);
		for (t = 0; t < nt; t++)
			ok[t] = ok[t] && ts.ok[t];
	}
	free(ts.ok);
	free(ts.cs);
	free(ts.vs);
	free(ts.vss);
	free(ts.parent);
	free(ts.touched);
	free(ts.cnt);
	free(ts.ntot);
}
