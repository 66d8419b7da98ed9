/*
 * msens.c: partition's requirements on the sensitive columns beyond
 * one column's l-diversity and variance (mondrian.c): t-closeness (Li,
 * Li, Venkatasubramanian, ICDE 2007; kanon(7), T-CLOSENESS) against
 * the whole table's distribution, and several sensitive columns (-s
 * a,b), whose tuple of values is the row's sensitive value and is
 * projected on each column to check it (l-diversity, variance
 * diversity and t-closeness in each).  Used by in-memory Mondrian,
 * Rothko-T (the same side counts) and Rothko-S's prune step.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kanon.h"
#include "mondrian.h"

/* With msvar: whether the current row's sensitive values are numbers;
 * dies naming the first that is not. */
void
msens_check_row(struct part *pt, kn_table *t)
{
	size_t j;
	kn_i128 m;
	int sc;

	for (j = 0; j < pt->nsens; j++) {
		kn_str v = t->f[pt->scols[j]];

		if (!kn_dec_parse(v.p, v.n, &m, &sc))
			kn_table_fail(t, pt->scols[j], "'%.*s' %s (--variance)",
			    (int)v.n, v.p, kn_missing(v.p, v.n) ?
			    "is a missing value, which has no variance: drop "
			    "the row or give it a value" :
			    kn_dec_why(v.p, v.n, "is not a number"));
	}
}

/* Dies unless the sums of column name's values are bounded whatever
 * the rows by the one farthest from 0, a (absolute) at the column's
 * scale, written w: a^2 times the rows and one more must fit 127
 * bits. */
void
msens_value_bound(const char *name, kn_i128 a, const char *w, int wn,
    uint64_t rows)
{
	kn_i128 b;

	if (__builtin_mul_overflow(a, a, &b) ||
	    __builtin_mul_overflow(b, (kn_i128)rows + 1, &b))
		kn_die("-s %s: values too large for exact variances out of "
		    "core: the largest, '%.*s', squared, times the rows, passes "
		    "2^127 (kanon(7), Numbers); scale the column down", name, wn,
		    w);
}

/* With msvar: column j's values as numbers of one scale, bounded as
 * msens_value_bound says. */
static void
prepare_values(struct part *pt, size_t j, const char *name)
{
	kn_dict *dc = &pt->sdicts[j];
	int *sc = kn_alloc((dc->n + 1) * sizeof(int)), F = 0;
	kn_i128 mx = 0, b;
	size_t x, xm = 0;
	kn_str w;

	pt->sval[j] = kn_alloc((dc->n + 1) * sizeof(kn_i128));
	for (x = 0; x < dc->n; x++) {
		kn_str v = kn_dict_get(dc, (uint32_t)x);

		if (!kn_dec_parse(v.p, v.n, &pt->sval[j][x], &sc[x]))
			kn_die("-s %s: '%.*s' %s (--variance)", name,
			    (int)v.n, v.p,
			    kn_dec_why(v.p, v.n, "is not a number"));
		if (sc[x] > F)
			F = sc[x];
	}
	for (x = 0; x < dc->n; x++) {
		if (__builtin_mul_overflow(pt->sval[j][x],
		    kn_pow10(F - sc[x]), &pt->sval[j][x])) {
			w = kn_dict_get(dc, (uint32_t)x);
			kn_die("-s %s: '%.*s' has too many digits for exact "
			    "variances at the column's largest scale, %d "
			    "decimals (kanon(7), Numbers)", name, (int)w.n,
			    w.p, F);
		}
		b = pt->sval[j][x] < 0 ? -pt->sval[j][x] : pt->sval[j][x];
		if (b > mx) {
			mx = b;
			xm = x;
		}
	}
	/* In memory the rows bound the sums (rows_bound), and a
	 * cluster's cuts job its groups (msens_sums_add), as one
	 * column's; out of core the largest value does. */
	if (pt->ooc && !pt->exact_sums && dc->n > 0) {
		w = kn_dict_get(dc, (uint32_t)xm);
		msens_value_bound(name, mx, w.p, (int)w.n, pt->nrows);
	}
	pt->svF[j] = F;
	free(sc);
}

/* What a refusal of sums past 2^127 says of the column's scale F and
 * what to do: at F decimals a small value may be the cause. */
static const char *
scale_said(int F, char *b, size_t n)
{
	snprintf(b, n, ", every value counted at %d decimals, the most that "
	    "one has", F);
	return F > 0 ? b : "";
}

static const char *
scale_do(int F)
{
	return F > 0 ? "round the column or scale it down" :
		       "scale the column down";
}

void
msens_sums_die(const char *name, kn_str w, size_t i, int F)
{
	char b[96];

	kn_die("-s %s: values too large for exact variances: with '%.*s', of "
	    "data row %zu, the sum of the squares passes 2^127%s (kanon(7), "
	    "Numbers); %s", name, (int)w.n, w.p, i + 1,
	    scale_said(F, b, sizeof(b)), scale_do(F));
}

void
msens_node_sums_die(int sens, const char *name, kn_str w, uint64_t rows,
    int F)
{
	char b[96];

	kn_die("-%c %s: values too large for exact %s: the sum of the %s of "
	    "the node's %llu rows passes 2^127; its largest value is "
	    "'%.*s'%s (kanon(7), Numbers); %s", sens ? 's' : 't', name,
	    sens ? "variances" : "sums", sens ? "squares" : "absolute values",
	    (unsigned long long)rows, (int)w.n, w.p,
	    scale_said(F, b, sizeof(b)), scale_do(F));
}

void
msens_sums_add(struct part *pt, struct msums *ms, uint32_t x, uint64_t cnt)
{
	size_t j;
	uint32_t y;
	kn_i128 v, a;

	for (j = 0; j < pt->nsens; j++) {
		y = pt->tmap[j][x];
		v = pt->sval[j][y] < 0 ? -pt->sval[j][y] : pt->sval[j][y];
		if (!ms->seen || v > ms->top[j]) {
			ms->top[j] = v;
			ms->big[j] = y;
		}
		if (ms->over[j] || (!__builtin_mul_overflow(v, (kn_i128)cnt,
		    &a) && !__builtin_add_overflow(ms->s[j], a, &ms->s[j]) &&
		    !__builtin_mul_overflow(a, v, &a) &&
		    !__builtin_add_overflow(ms->ss[j], a, &ms->ss[j])))
			continue;
		ms->over[j] = 1;
	}
	ms->seen = 1;
}

void
msens_sums_check(struct part *pt, const struct msums *ms,
    char *const *names, uint64_t rows)
{
	size_t j;

	for (j = 0; j < pt->nsens; j++)
		if (ms->over[j])
			msens_node_sums_die(1, names[j],
			    kn_dict_get(&pt->sdicts[j], ms->big[j]), rows,
			    pt->svF[j]);
}

/* With msvar, several columns in one run in memory: each column's sums
 * of the absolute values and of the squares over the table's rows
 * within 2^127, as mondrian.c checks one column's, so that every
 * part's sums are exact; dies naming the value and its data row. */
static void
rows_bound(struct part *pt, char *const *names)
{
	kn_i128 s[KN_MAXSENS] = { 0 }, ss[KN_MAXSENS] = { 0 }, v, a;
	size_t i, j;
	uint32_t x, y;

	for (i = 0; i < pt->nrows; i++) {
		x = pt->rec[i * pt->rec_words + pt->word_sens];
		for (j = 0; j < pt->nsens; j++) {
			y = pt->tmap[j][x];
			v = pt->sval[j][y];
			a = v < 0 ? -v : v;
			if (!__builtin_add_overflow(s[j], a, &s[j]) &&
			    !__builtin_mul_overflow(v, v, &v) &&
			    !__builtin_add_overflow(ss[j], v, &ss[j]))
				continue;
			msens_sums_die(names[j], kn_dict_get(&pt->sdicts[j], y),
			    i, pt->svF[j]);
		}
	}
}

void
msens_prepare(struct part *pt, kn_hier *const *h, char *const *names)
{
	uint64_t *cnt;
	size_t j, x;

	if (pt->nsens > 1)
		for (j = 0; j < pt->nsens; j++) {
			kn_dict_init(&pt->sdicts[j]);
			pt->tmap[j] = kn_alloc((pt->sens_dict.n + 1) *
			    sizeof(uint32_t));
		}
	for (x = 0; pt->nsens > 1 && x < pt->sens_dict.n; x++) {
		kn_str v = kn_dict_get(&pt->sens_dict, (uint32_t)x);
		const char *p = v.p, *e = v.p + v.n, *tab;

		for (j = 0; j < pt->nsens; j++) {
			tab = memchr(p, '\t', (size_t)(e - p));
			if (tab == NULL)
				tab = e;
			pt->tmap[j][x] = kn_dict_intern(&pt->sdicts[j], p,
			    (size_t)(tab - p));
			p = tab < e ? tab + 1 : e;
		}
	}
	/* Out of core by hash, a node's values numbered as it is read
	 * (rothko.c), their numbers at the scales of their keys. */
	for (j = 0; pt->msvar && !pt->sens_sorted && j < pt->nsens; j++)
		prepare_values(pt, j, names[j]);
	if (pt->msvar && !pt->sens_sorted && !pt->ooc)
		rows_bound(pt, names);
	/* Keyed by hash (tchash), a node in memory has its own
	 * (rclose_local). */
	if (!pt->req.hast || pt->tchash)
		return;
	if (pt->nsens <= 1) {
		kn_tclose_dict(&pt->tc[0], &pt->req, &pt->sens_dict, pt->scount,
		    h[0], &pt->tpos[0]);
		return;
	}
	for (j = 0; j < pt->nsens; j++) {
		cnt = kn_zalloc((pt->sdicts[j].n + 1) * sizeof(uint64_t));
		for (x = 0; x < pt->sens_dict.n && x < pt->nscount; x++)
			cnt[pt->tmap[j][x]] += pt->scount[x];
		kn_tclose_dict(&pt->tc[j], &pt->req, &pt->sdicts[j], cnt, h[j],
		    &pt->tpos[j]);
		free(cnt);
	}
}

/* Whether a part of b rows that holds a part of a rows at the distance
 * d, or is held by it, is surely farther than t (mondrian.h, struct
 * mfars).  The margin is far above long double's rounding of d (S / (2 n
 * N), S below 2^256: a relative error of a few 2^-64) and of the
 * difference. */
static int
sure_far(long double t, uint64_t a, long double d, uint64_t b)
{
	long double far = (long double)(a > b ? a - b : b - a) /
	    (long double)(a > b ? a : b);

	return d >= 0 && d - far > t + 1e-9L;
}

int
mond_far_fails(const struct part *pt, const struct mfars *fs, uint64_t n,
    uint64_t l)
{
	long double t;
	size_t i;

	/* t once a cut, not once a comparison (each cut of a node). */
	if (fs->n == 0)
		return 0;
	t = (long double)pt->req.tm / powl(10, pt->req.ts);
	for (i = 0; i < fs->n && i < MOND_NFAR; i++)
		if (sure_far(t, fs->f[i].l, fs->f[i].dl, l) ||
		    sure_far(t, n - fs->f[i].l, fs->f[i].dr, n - l))
			return 1;
	return 0;
}

void
mond_far_add(struct mfars *fs, uint64_t l, long double dl, long double dr)
{
	size_t i = fs->n++ % MOND_NFAR;

	fs->f[i].l = l;
	fs->f[i].dl = dl;
	fs->f[i].dr = dr;
}

/* kn_tclose_ids, the distance noted in pt->tdist (the greatest). */
static int
tclose_noted(struct part *pt, size_t j, kn_tval *v, size_t m, uint64_t n)
{
	long double d;
	int ok = kn_tclose_ids(&pt->tc[j], pt->tpos[j], v, m, n, &pt->tsc,
	    &d);

	if (d > pt->tdist)
		pt->tdist = d;
	return ok;
}

/*
 * Column j's counts in a part whose tuples have counts v[0..m): w[0..k),
 * each value of the column once with the sum of its tuples' counts, in
 * the order the values first appear (those of no row left out); returns
 * k.  Summed by value id in gath, which has a slot for every tuple and
 * so for every value of a column (a value is some tuple's); no order is
 * needed: l-diversity and the variance take the counts in any order,
 * and t-closeness sorts them by position.
 */
static size_t
project(struct part *pt, size_t j, const kn_tval *v, size_t m, kn_tval *w)
{
	const uint32_t *map = pt->tmap[j];
	uint64_t *sum = pt->gath;
	size_t i, k;
	uint32_t y;

	for (i = 0; i < m; i++)
		sum[map[v[i].pos]] = 0;
	for (i = 0; i < m; i++)
		sum[map[v[i].pos]] += v[i].cnt;
	for (i = k = 0; i < m; i++) {
		y = map[v[i].pos];
		if (sum[y] == 0)
			continue;
		w[k].pos = y;
		w[k++].cnt = sum[y];
		sum[y] = 0;
	}
	return k;
}

int
msens_pairs_ok(struct part *pt, kn_tval *v, size_t m, uint64_t n)
{
	size_t i, j, k;
	kn_tval *w;

	if (n == 0)
		return 1;
	if (pt->nsens <= 1)
		return !pt->req.hast || tclose_noted(pt, 0, v, m, n);
	pt->tv2 = kn_grow(pt->tv2, &pt->tv2cap, m, sizeof(kn_tval), 64);
	w = pt->tv2;
	for (j = 0; j < pt->nsens; j++) {
		k = project(pt, j, v, m, w);
		if (pt->req.ld.on) {
			for (i = 0; i < k; i++)
				pt->gath[i] = w[i].cnt;
			if (!kn_ldiv_ok_any(&pt->req.ld, pt->gath, k, n))
				return 0;
		}
		if (pt->msvar) {
			kn_sum sm = { 0, 0, pt->svF[j] };
			long double var;

			for (i = 0; i < k; i++) {
				kn_i128 v = pt->sval[j][w[i].pos];

				sm.s += v * (kn_i128)w[i].cnt;
				sm.ss += v * v * (kn_i128)w[i].cnt;
			}
			if (!kn_variance_ok(n, &sm, pt->svF[j], pt->req.vm,
			    pt->req.vs, &var))
				return 0;
		}
		if (pt->req.hast && !tclose_noted(pt, j, w, k, n))
			return 0;
	}
	return 1;
}

/* With one sensitive column under t-closeness, the node's values
 * (stouch) in the order of their positions, so that each side's values
 * reach kn_tclose_ids in order and need no sort: checked each call,
 * sorted once a node. */
static void
stouch_by_pos(struct part *pt)
{
	const uint32_t *pos = pt->tpos[0];
	size_t i, n = pt->nstouch;

	for (i = 1; i < n && pos[pt->stouch[i - 1]] <= pos[pt->stouch[i]];
	    i++)
		;
	if (i >= n)
		return;
	pt->tv = kn_grow(pt->tv, &pt->tvcap, n, sizeof(kn_tval), 64);
	for (i = 0; i < n; i++) {
		pt->tv[i].pos = pos[pt->stouch[i]];
		pt->tv[i].cnt = pt->stouch[i];
	}
	kn_tval_sort(pt->tv, n);
	for (i = 0; i < n; i++)
		pt->stouch[i] = (uint32_t)pt->tv[i].cnt;
}

int
msens_side_ok(struct part *pt, const uint64_t *hist, int compl, uint64_t n)
{
	size_t i, m = 0;

	if (pt->nsens <= 1 && pt->req.hast && pt->tpos[0] != NULL)
		stouch_by_pos(pt);

	for (i = 0; i < pt->nstouch; i++) {
		uint32_t x = pt->stouch[i];
		uint64_t c = compl ? pt->hs_tot[x] - hist[x] : hist[x];

		if (c == 0)
			continue;
		pt->tv = kn_grow(pt->tv, &pt->tvcap, m, sizeof(kn_tval), 64);
		pt->tv[m].pos = x;
		pt->tv[m++].cnt = c;
	}
	return msens_pairs_ok(pt, pt->tv, m, n);
}
