/*
 * rcut.c: the cut of a node on disk (paper 004 §2), chosen from its
 * frequency groups (rgroups.c) as mond_partition() chooses it in memory:
 * an ordered dimension's boundaries swept in the order of its codes, a
 * hierarchy's children, or a streamed dimension's rows sorted on disk
 * (extsort.c); and the routing of a row through Rothko-S's tree.  With
 * sensitive values keyed by hash (sens_hashed, mondrian.h) a part's
 * distinct values are counted in sets of at most ceil(l) keys (rothko.h):
 * left to right for the parts on the left, right to left for those on
 * the right, or in a stream from the l-th least first key and the l-th
 * largest last key of the values (struct lthr).
 */
#include <stdlib.h>
#include <string.h>

#include "extsort.h"
#include "kanon.h"
#include "mondrian.h"
#include "rothko.h"

/* ---- out of core: Rothko-T (paper 004 §2) -------------------------- */

/* Adds cnt rows of sensitive value x and label y (ids, or a streamed
 * row's keys: mond_sens_of, mond_targ_of) to part L (and takes them
 * from R, if not NULL); a group's keyed values are its sums gs. */
static void
group_add(struct part *pt, uint64_t x, uint64_t y, uint64_t cnt,
    const struct gsum *gs, struct side *L, struct side *R)
{
	L->n += cnt;
	if (R != NULL)
		R->n -= cnt;
	if (pt->has_sens && !pt->sens_keyed) {
		uint64_t c = pt->hs_side[x];

		pt->hs_side[x] += cnt;
		if (c == 0)
			L->distinct++;
		if (R != NULL && pt->hs_tot[x] - c == cnt)
			R->distinct--;
	}
	/* Keyed by hash, the variance is judged by sorts (rsens.c). */
	if (pt->req.hasv && !pt->sens_hashed) {
		kn_i128 v = gs != NULL && pt->sens_keyed ? gs->s :
		    mond_sval(pt, x) * (kn_i128)cnt;
		kn_i128 v2 = gs != NULL && pt->sens_keyed ? gs->ss :
		    mond_sval(pt, x) * v;

		L->s += v;
		L->ss += v2;
		if (R != NULL) {
			R->s -= v;
			R->ss -= v2;
		}
	}
	if (pt->split == SPLIT_REGRESSION) {
		kn_i128 v = gs != NULL && pt->targ_keyed ? gs->ts :
		    mond_tval(pt, y) * (kn_i128)cnt;

		L->ts += v;
		if (R != NULL)
			R->ts -= v;
	}
	/* By hash, the labels' counts come from sorts (label_rows,
	 * label_hier_sum). */
	if (pt->split == SPLIT_INFOGAIN && !pt->targ_hashed) {
		uint64_t c = pt->hl_side[y], rc = pt->hl_tot[y] - c;

		pt->hl_side[y] += cnt;
		L->lf += mond_x_log_x(pt, c + cnt) - mond_x_log_x(pt, c);
		if (R != NULL)
			R->lf +=
			    mond_x_log_x(pt, rc - cnt) - mond_x_log_x(pt, rc);
	}
}

/* Clears the part counts. */
static void
group_clear(struct part *pt)
{
	mond_clear_touched(pt, pt->hs_side, pt->hl_side);
}

/* The cut of ordered dimension j below code c (the rows up to c on the
 * left, L; the others R): taken as the best if it beats it and both
 * parts meet the requirements, as eval_median and eval_ordered judge
 * it in memory. */
static void
cut_at(struct part *pt, size_t j, struct cut *best, const struct side *L,
    const struct side *R, uint64_t c)
{
	uint64_t n = pt->node.n, l = L->n, dist;
	kn_i128 isc = 0;
	long double sc = 0;

	if (l < pt->req.k || n - l < pt->req.k)
		return;
	dist = 2 * l > n ? 2 * l - n : n - 2 * l;
	if (pt->split == SPLIT_MEDIAN) {
		if (best->found && dist > best->dist)
			return;
	} else if (pt->split == SPLIT_INFOGAIN) {
		isc = L->lf - mond_x_log_x(pt, l) + R->lf -
		    mond_x_log_x(pt, n - l);
		if (!mond_cut_better(pt, best, isc, 0, dist))
			return;
	} else {
		sc = mond_regression_term(L->ts, l) +
		    mond_regression_term(R->ts, n - l);
		if (!mond_cut_better(pt, best, 0, sc, dist))
			return;
	}
	if (!mond_side_ok(pt, L, pt->hs_side, 0) ||
	    !mond_side_ok(pt, R, pt->hs_side, 1))
		return;
	best->found = 1;
	best->fast = 1;
	best->dim = j;
	best->L = l;
	best->dist = dist;
	best->iscore = isc;
	best->score = sc;
	best->med = c;
	best->eqleft = UINT64_MAX;
}

/* The relaxed cut (k alone, checked at the start): the middle row,
 * whose code med has lt rows below it. */
static void
cut_relaxed(struct part *pt, size_t j, struct cut *best, uint64_t med,
    uint64_t lt)
{
	uint64_t n = pt->node.n;

	if (n < 2 * pt->req.k)
		return;
	best->found = 1;
	best->fast = 1;
	best->dim = j;
	best->L = (n + 1) / 2;
	best->med = med;
	best->eqleft = best->L - lt;
}

/* Cuts of an ordered dimension from its groups: the median (k alone:
 * as select_cut; with diversity: as eval_median) or the best score (as
 * eval_ordered), with the same choices as in memory. */
static void
groups_cut_ordered(struct part *pt, size_t j, struct cut *best)
{
	const struct gtab *g = &pt->rk->gtab[j];
	struct side L, R;
	uint64_t n = pt->node.n, *ls = pt->rk->lset;
	size_t i, cap = g->lw ? g->lw - 1 : 0, rfull = 0;

	if (pt->relaxed) {
		uint64_t lt = 0, pos = (n - 1) / 2, c = 0;
		uint64_t med = 0;

		for (i = 0; i < g->n; i++) {
			if (c + g->e[i].cnt > pos) {
				med = g->e[i].code;
				break;
			}
			c += g->e[i].cnt;
		}
		for (i = 0; i < g->n; i++)
			lt += g->e[i].code < med ? g->e[i].cnt : 0;
		cut_relaxed(pt, j, best, med, lt);
		return;
	}
	memset(&L, 0, sizeof(L));
	R = pt->node.tot;
	/* Keyed by hash: the part right of group i has l distinct values
	 * while i < rfull, the first group of the shortest stretch at the
	 * end that has. */
	if (g->lw) {
		ls[0] = 0;
		for (i = g->n; i > 0 && ls[0] < cap; i--)
			rothko_lset_union(ls, rothko_gset(g, &g->e[i - 1]), cap);
		rfull = ls[0] == cap ? i : 0;
		ls[0] = 0;
	}
	for (i = 0; i + 1 < g->n; i++) {
		group_add(pt, g->e[i].s, g->e[i].y, g->e[i].cnt,
		    rothko_gsum(g, &g->e[i]), &L, &R);
		if (g->lw) {
			rothko_lset_union(ls, rothko_gset(g, &g->e[i]), cap);
			L.distinct = ls[0];
			R.distinct = i < rfull ? cap : 0;
		}
		if (g->e[i + 1].code != g->e[i].code)
			cut_at(pt, j, best, &L, &R, g->e[i].code);
	}
	group_clear(pt);
}

/*
 * Keyed by hash, a stream's distinct values: the cap values of the
 * least first keys seen so far (or with last, the largest last keys),
 * each with that key, whatever the order of the rows.  Once cap are
 * kept, the worst of their keys only gets better, and a value dropped
 * had the worst: it comes back only with a key better than that, which
 * is then its best.  So at the end m[worst] is the cap-th least first
 * key of the values (largest last key): the part left of a boundary
 * holds cap values if its keys reach that one, the part right of it if
 * that one lies beyond.
 */
struct lthr {
	uint64_t *v, *m;
	size_t n, cap, worst;
	int last;
};

static int
lthr_better(const struct lthr *t, uint64_t a, uint64_t b)
{
	return t->last ? a > b : a < b;
}

/* Value v seen at key key. */
static void
lthr_add(struct lthr *t, uint64_t v, uint64_t key)
{
	size_t i;

	if (t->n == t->cap && !lthr_better(t, key, t->m[t->worst]))
		return;
	for (i = 0; i < t->n && t->v[i] != v; i++)
		;
	if (i == t->n) {
		if (t->n < t->cap)
			t->n++;
		else
			i = t->worst;
		t->v[i] = v;
		t->m[i] = key;
	} else if (lthr_better(t, key, t->m[i]))
		t->m[i] = key;
	else
		return;
	t->worst = 0;
	for (i = 1; i < t->n; i++)
		if (lthr_better(t, t->m[t->worst], t->m[i]))
			t->worst = i;
}

/* A streamed dimension's cut being found: the node's rows in the order
 * of (key, sensitive value, label), as the groups are, with the parts
 * so far, the key of the rows being added, and for --relaxed the middle
 * row's; keyed by hash, the thresholds of the distinct values. */
struct scut {
	struct part *pt;
	size_t j;
	struct cut *best;
	struct side L, R;
	uint64_t cur, ncur, before, pos, med, medlt;
	int any, medset;
	struct lthr first, last;
};

void
rothko_scut_seen(struct scut *sc, uint64_t v, uint64_t key)
{
	lthr_add(&sc->first, v, key);
	lthr_add(&sc->last, v, key);
}

/* The rows of key sc->cur are all in: a cut below the next key. */
static void
scut_boundary(struct scut *sc)
{
	if (sc->pt->relaxed) {
		if (!sc->medset && sc->before + sc->ncur > sc->pos) {
			sc->med = sc->cur;
			sc->medlt = sc->before;
			sc->medset = 1;
		}
		sc->before += sc->ncur;
		sc->ncur = 0;
		return;
	}
	if (sc->pt->sens_hashed) {
		const struct lthr *f = &sc->first, *l = &sc->last;

		sc->L.distinct = f->n == f->cap && f->m[f->worst] <= sc->cur ?
		    f->cap : 0;
		sc->R.distinct = l->n == l->cap && l->m[l->worst] > sc->cur ?
		    l->cap : 0;
	}
	cut_at(sc->pt, sc->j, sc->best, &sc->L, &sc->R, sc->cur);
}

/* The hex digits of a streamed row's sensitive value and label: 16 for
 * a keyed one's key (mondrian.h), else 8 for an id. */
static int
sens_digits(const struct part *pt)
{
	return pt->sens_keyed ? 16 : 8;
}

static int
targ_digits(const struct part *pt)
{
	return pt->targ_hashed ? 0 : pt->targ_keyed ? 16 : 8;
}

/* One row of the sorted stream: 16 hex digits of its key, then its
 * sensitive value's and its label's (sens_digits, targ_digits). */
static void
scut_line(const char *line, size_t len, void *ctx)
{
	struct scut *sc = ctx;
	uint64_t key = mond_hex_get(line, 16), cnt = 1;
	int sd = sens_digits(sc->pt), td = targ_digits(sc->pt);

	/* A cluster's groups (struct rothko's feed) carry a count. */
	if (len > (size_t)(16 + sd + td) && !sc->pt->targ_hashed)
		cnt = mond_hex_get(line + 16 + sd + td, 16);
	if (sc->any && key != sc->cur)
		scut_boundary(sc);
	if (!sc->pt->relaxed)
		group_add(sc->pt, mond_hex_get(line + 16, sd),
		    mond_hex_get(line + 16 + sd, td), cnt, NULL, &sc->L,
		    &sc->R);
	/* By hash, the row's rank among its label's rows and their total
	 * (label_rows): c ln c's steps for the parts. */
	if (sc->pt->targ_hashed) {
		struct part *pt = sc->pt;
		uint64_t j = mond_hex_get(line + 16 + sd, 16),
			 t = mond_hex_get(line + 32 + sd, 16);

		sc->L.lf += mond_x_log_x(pt, j) - mond_x_log_x(pt, j - 1);
		sc->R.lf += mond_x_log_x(pt, t - j) -
		    mond_x_log_x(pt, t - j + 1);
	}
	sc->cur = key;
	sc->ncur += cnt;
	sc->any = 1;
}

void
rothko_node_open(struct part *pt, struct oread *rd, size_t j)
{
	size_t t;

	if (pt->rk->rows_begin != NULL) {
		memset(rd, 0, sizeof(*rd));
		pt->rk->rows_begin(pt, j);
		return;
	}
	for (t = 0; t < pt->grow.n; t++)
		pt->grow.t[t].left = pt->grow.t[t].eqleft;
	rothko_read_open(pt, rd, pt->rk->snode);
}

const uint32_t *
rothko_node_next(struct part *pt, struct oread *rd)
{
	uint32_t *r;

	if (pt->rk->rows_begin != NULL)
		return pt->rk->rows_next(pt);
	while ((r = rothko_read_next(pt, rd)) != NULL)
		if (pt->rk->stn < 0 ||
		    rothko_tree_route(pt, r) == (size_t)pt->rk->stn)
			return r;
	return NULL;
}

/* The sort lines of dimension j of the node on disk being cut, a row
 * each; keyed by hash, each row's sensitive key goes to sc's
 * thresholds.  With lab (labels by hash, label_rows's first sort), each
 * line starts with the row's label's key. */
static void
stream_rows(struct part *pt, size_t j, kn_sorter *so, struct scut *sc,
    int lab)
{
	struct oread rd;
	const uint32_t *r;
	char line[64];
	int sd = sens_digits(pt), td = targ_digits(pt), at = 0;

	rothko_node_open(pt, &rd, j);
	while ((r = rothko_node_next(pt, &rd)) != NULL) {
		if (lab) {
			mond_hex_put(line, mond_targ_of(pt, r), 16);
			at = 16;
		}
		mond_hex_put(line + at, rothko_disk_key(pt, r, j), 16);
		mond_hex_put(line + at + 16, mond_sens_of(pt, r), sd);
		if (pt->sens_hashed)
			rothko_scut_seen(sc, mond_sens_of(pt, r),
			    rothko_disk_key(pt, r, j));
		mond_hex_put(line + at + 16 + sd, mond_targ_of(pt, r), td);
		kn_sort_add(so, line, (size_t)(at + 16 + sd + td));
	}
	rothko_read_close(&rd);
}

/* ---- labels by hash (targ_hashed) ---------------------------------- */

/* A sort's lines that start with a label's key (16 hex digits), in
 * order: runs of one label, each row kept (rest bytes past the key) in
 * a temp file and each run's length in another, and the sum of c ln c
 * over the runs' lengths. */
struct lruns {
	struct part *pt;
	FILE *rows, *lens;
	char *nrows, *nlens;
	size_t rest;
	uint64_t cur, child, run;
	int any;
	kn_i128 lf;
};

FILE *
rothko_tmp_make(struct part *pt, char **name)
{
	FILE *f;

	*name = kn_tmp_new(pt->rk->tmpdir);
	if ((f = kn_tmp_open(*name, "w+b")) == NULL)
		kn_die_sys("%s", *name);
	return f;
}

static void
lr_end(struct lruns *lr)
{
	if (lr->any && lr->lens != NULL &&
	    fwrite(&lr->run, sizeof(lr->run), 1, lr->lens) != 1)
		kn_die_sys("%s: write error", lr->nlens);
	if (lr->any)
		lr->lf += mond_x_log_x(lr->pt, lr->run);
	lr->run = 0;
}

static void
lr_line(const char *line, size_t len, void *ctx)
{
	struct lruns *lr = ctx;
	uint64_t y = mond_hex_get(line, 16);

	if (lr->any && y != lr->cur)
		lr_end(lr);
	lr->cur = y;
	lr->any = 1;
	lr->run++;
	if (len != 16 + lr->rest)
		kn_die("internal error: a line of %zu bytes in %s", len,
		    lr->nrows);
	if (fwrite(line + 16, lr->rest, 1, lr->rows) != 1)
		kn_die_sys("%s: write error", lr->nrows);
}

/*
 * Labels by hash: the node's rows of dimension j sorted by (label, key)
 * (stream_rows), so that each goes to so after its key and sensitive
 * value with its rank j among the rows of its label in the dimension's
 * order and their total t (16 hex digits each): adding the row to the
 * left part adds xlogx(j) - xlogx(j - 1) to its sum over the labels,
 * and xlogx(t - j) - xlogx(t - j + 1) to the right part's, whose sum
 * starts at the node's, returned: as the groups' label counts do
 * (group_add), with no memory by label.
 */
static kn_i128
label_rows(struct part *pt, size_t j, kn_sorter *so, struct scut *sc,
    size_t budget)
{
	struct lruns lr;
	kn_sorter *s1 = kn_sort_new(NULL, 0, 1, budget, pt->rk->tmpdir);
	char line[64];
	uint64_t t, i;

	memset(&lr, 0, sizeof(lr));
	lr.pt = pt;
	lr.rest = 16 + (size_t)sens_digits(pt);
	stream_rows(pt, j, s1, sc, 1);
	lr.rows = rothko_tmp_make(pt, &lr.nrows);
	lr.lens = rothko_tmp_make(pt, &lr.nlens);
	kn_sort_finish(s1, 0, lr_line, &lr);
	lr_end(&lr);
	mond_sort_done(pt, s1);
	if (fflush(lr.rows) != 0)
		kn_die_sys("%s: write error", lr.nrows);
	if (fflush(lr.lens) != 0)
		kn_die_sys("%s: write error", lr.nlens);
	rewind(lr.rows);
	rewind(lr.lens);
	while (fread(&t, sizeof(t), 1, lr.lens) == 1)
		for (i = 1; i <= t; i++) {
			if (fread(line, lr.rest, 1, lr.rows) != 1)
				kn_die("%s: read error: the file is shorter "
				    "than written", lr.nrows);
			mond_hex_put(line + lr.rest, i, 16);
			mond_hex_put(line + lr.rest + 16, t, 16);
			kn_sort_add(so, line, lr.rest + 32);
		}
	if (ferror(lr.lens))
		kn_die_sys("%s: read error", lr.nlens);
	fclose(lr.rows);
	kn_tmp_close(lr.nrows);
	fclose(lr.lens);
	kn_tmp_close(lr.nlens);
	return lr.lf;
}

/* A line of 8 hex digits of a child and 16 of a label: runs of one
 * pair, no rows kept. */
static void
hier_line(const char *line, size_t len, void *ctx)
{
	struct lruns *lr = ctx;
	uint64_t ch = mond_hex_get(line, 8), y = mond_hex_get(line + 8, 16);

	(void)len;
	if (lr->any && (ch != lr->child || y != lr->cur))
		lr_end(lr);
	lr->child = ch;
	lr->cur = y;
	lr->any = 1;
	lr->run++;
}

/* Labels by hash: the sum over the children of hierarchical dimension
 * j of the node on disk of c ln c over each child's label counts, from
 * the node's rows sorted by (child, label). */
static kn_i128
label_hier_sum(struct part *pt, size_t j)
{
	struct lruns lr;
	struct oread rd;
	const uint32_t *r;
	size_t budget = pt->rk->avail > pt->rk->gbytes ?
	    (pt->rk->avail - pt->rk->gbytes) / 4 : 0;
	kn_sorter *so = kn_sort_new(NULL, 0, 1, budget, pt->rk->tmpdir);
	char line[32];

	memset(&lr, 0, sizeof(lr));
	lr.pt = pt;
	rothko_node_open(pt, &rd, j);
	while ((r = rothko_node_next(pt, &rd)) != NULL) {
		mond_hex_put(line, mond_child_of(pt, j,
		    (uint32_t)(rothko_disk_key(pt, r, j) - pt->node.mn[j])), 8);
		mond_hex_put(line + 8, mond_targ_of(pt, r), 16);
		kn_sort_add(so, line, 24);
	}
	rothko_read_close(&rd);
	kn_sort_finish(so, 0, hier_line, &lr);
	lr_end(&lr);
	mond_sort_done(pt, so);
	return lr.lf;
}

/* Cuts of a streamed dimension (a node whose numbers' groups outgrow
 * the budget): the node's (key, sensitive value, label) sorted on disk
 * within the budget (extsort.c), then read in order as the groups would
 * be, with the same choices: the cut's code is the key.  A cluster's
 * cuts job sorts its groups instead, each with its count (feed). */
static void
stream_cut_ordered(struct part *pt, size_t j, struct cut *best)
{
	struct scut sc;
	kn_sorter *so;
	/* A quarter of what the groups leave: the sort's records may
	 * double past its budget as they grow (extsort.c), to about twice
	 * it. */
	size_t budget = pt->rk->avail > pt->rk->gbytes ?
	    (pt->rk->avail - pt->rk->gbytes) / 4 : 0;

	memset(&sc, 0, sizeof(sc));
	sc.pt = pt;
	sc.j = j;
	sc.best = best;
	sc.R = pt->node.tot;
	sc.pos = (pt->node.n - 1) / 2;
	if (pt->sens_hashed) {
		sc.first.cap = sc.last.cap = rothko_lcap(pt);
		sc.first.v = kn_alloc(4 * sc.first.cap * sizeof(uint64_t));
		sc.first.m = sc.first.v + sc.first.cap;
		sc.last.v = sc.first.m + sc.first.cap;
		sc.last.m = sc.last.v + sc.first.cap;
		sc.last.last = 1;
	}
	so = kn_sort_new(NULL, 0, 1, budget, pt->rk->tmpdir);
	if (pt->targ_hashed)
		sc.R.lf = label_rows(pt, j, so, &sc, budget);
	else if (pt->rk->feed != NULL)
		pt->rk->feed(pt, j, so, &sc);
	else
		stream_rows(pt, j, so, &sc, 0);
	kn_sort_finish(so, 0, scut_line, &sc);
	mond_sort_done(pt, so);
	free(sc.first.v);
	if (pt->relaxed) {
		if (sc.any)
			scut_boundary(&sc);
		cut_relaxed(pt, j, best, sc.med, sc.medlt);
		return;
	}
	group_clear(pt);
}

void
rothko_groups_cut_hier(struct part *pt, size_t j, struct cut *best,
    int judged)
{
	const struct gtab *g = &pt->rk->gtab[j];
	struct side S;
	size_t i;
	kn_i128 isc = 0;
	long double sc = 0;
	int ok = 1;

	memset(&S, 0, sizeof(S));
	pt->rk->lset[0] = 0;
	for (i = 0; i < g->n && ok; i++) {
		group_add(pt, g->e[i].s, g->e[i].y, g->e[i].cnt,
		    rothko_gsum(g, &g->e[i]), &S, NULL);
		if (g->lw) {
			rothko_lset_union(pt->rk->lset,
			    rothko_gset(g, &g->e[i]), g->lw - 1);
			S.distinct = pt->rk->lset[0];
		}
		if (i + 1 < g->n &&
		    mond_child_of(pt, j, g->e[i + 1].code - pt->node.mn[j]) ==
			mond_child_of(pt, j, g->e[i].code - pt->node.mn[j]))
			continue;
		if (!judged && !mond_side_ok(pt, &S, pt->hs_side, 0))
			ok = 0;
		/* By hash, S.lf is 0: the labels' sums are added below. */
		if (pt->split == SPLIT_INFOGAIN)
			isc += S.lf - mond_x_log_x(pt, S.n);
		else if (pt->split == SPLIT_REGRESSION)
			sc += mond_regression_term(S.ts, S.n);
		group_clear(pt);
		memset(&S, 0, sizeof(S));
		pt->rk->lset[0] = 0;
	}
	group_clear(pt);
	if (!ok)
		return;
	if (pt->split == SPLIT_INFOGAIN && pt->targ_hashed)
		isc += label_hier_sum(pt, j);
	if (pt->split == SPLIT_MEDIAN) {
		if (!best->found) {
			best->found = 1;
			best->fast = 0;
			best->dim = j;
		}
		return;
	}
	if (!mond_cut_better(pt, best, isc, sc, pt->node.n))
		return;
	best->found = 1;
	best->fast = 0;
	best->dim = j;
	best->dist = pt->node.n;
	best->iscore = isc;
	best->score = sc;
}

/* The order the dimensions are tried in, into op[0..nqi): by width
 * under the median split (mond_cmp_width), else as listed. */
void
rothko_dim_order(struct part *pt, uint32_t *op)
{
	size_t j;

	for (j = 0; j < pt->nqi; j++) {
		size_t q = j;

		if (pt->split != SPLIT_MEDIAN) {
			op[j] = (uint32_t)j;
			continue;
		}
		for (; q > 0 &&
		     mond_cmp_width(pt, op[q - 1], (uint32_t)j, NULL) > 0;
		     q--)
			op[q] = op[q - 1];
		op[q] = (uint32_t)j;
	}
}

/* Chooses the cut of a node on disk, as mond_partition() would in memory. */
void
rothko_choose_cut_on_disk(struct part *pt, struct cut *best)
{
	uint32_t ord[64],
	    *op = pt->nqi <= 64 ? ord : kn_alloc(pt->nqi * sizeof(uint32_t));
	size_t j;

	memset(best, 0, sizeof(*best));
	if (pt->node.n < 2 * pt->req.k)
		goto out;
	rothko_dim_order(pt, op);
	for (j = 0; j < pt->nqi; j++) {
		if (pt->split == SPLIT_MEDIAN && best->found)
			break;
		if (!pt->node.can[op[j]])
			continue;
		if (pt->rk->gtab[op[j]].mode == GT_EXTENT) {
			/* Its groups were not counted (rothko_t_step). */
			memset(best, 0, sizeof(*best));
			pt->rk->unknown = 1;
			break;
		}
		if (mond_is_hier(pt, op[j]))
			rothko_groups_cut_hier(pt, op[j], best, 0);
		else if (rothko_streamed(pt, op[j]))
			stream_cut_ordered(pt, op[j], best);
		else
			groups_cut_ordered(pt, op[j], best);
	}
out:
	if (op != ord)
		free(op);
}

int
rothko_rows_ok(struct part *pt)
{
	int ok;

	if (pt->nrows == 0)
		return 1;
	mond_node_totals(pt, 0, pt->nrows, NULL);
	ok = mond_side_ok(pt, &pt->node.tot, pt->hs_side, 1);
	mond_node_clear_totals(pt);
	return ok;
}

/* Exits 1 when the table in memory does not meet the requirements. */
void
rothko_root_check(struct part *pt, const char *name)
{
	if (!rothko_rows_ok(pt))
		mond_no_solution(name, pt->nrows);
}

/* The leaf of the grown tree a record falls in. */
size_t
rothko_tree_route(struct part *pt, const uint32_t *r)
{
	size_t t = 0, k;

	while (!pt->grow.t[t].leaf) {
		const struct tnode *tn = &pt->grow.t[t];
		const struct dim *dm = &pt->dims[tn->dim];
		uint64_t v = rothko_disk_key(pt, r, tn->dim);
		uint32_t leafid, c;

		if (tn->rel) {
			struct tnode *w = &pt->grow.t[t];

			t = tn->kid0 + (v < w->med || (v == w->med &&
			    w->left > 0 && w->left--) ? 0 : 1);
			continue;
		}
		if (!tn->hier) {
			t = tn->kid0 + (v <= tn->thr ? 0 : 1);
			continue;
		}
		leafid = dm->dfsleaf[v];
		t = tn->kid0 + tn->nkid - 1;	/* other */
		if (tn->lv < dm->nl && dm->anc[tn->lv][leafid] != tn->x)
			continue;
		c = dm->anc[tn->lv - 1][leafid];
		for (k = 0; k + 1 < tn->nkid; k++)
			if (tn->cid[k] == c) {
				t = tn->kid0 + k;
				break;
			}
	}
	return t;
}

