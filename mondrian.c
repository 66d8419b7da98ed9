/*
 * mondrian.c: Mondrian multidimensional partitioning in memory (paper
 * 003) on the rows mload.c coded.
 *
 * Greedy top-down partitioning of the quasi-identifier space (paper 003
 * §4, Figure 7): a partition is cut in two while an allowable cut
 * exists, so the result is a minimal strict partitioning (003 §2.3);
 * under k alone with numeric columns no class then holds more than
 * 2d(k-1)+m rows (003 Theorem 4).  Relaxed partitioning (003 §3, §4)
 * may divide the rows that share the median, so classes hold at most
 * 2k-1 rows (003 Theorem 5).
 *
 * Numeric columns are cut at a threshold; a column with a hierarchy is
 * cut by specializing its node into the children (paper 004 §1.2,
 * Figures 1-2).  The cut is chosen by the median of the widest
 * normalized dimension, by information gain on a class label, or by
 * the squared error of a numeric target (004 §1.2).  A cut is allowable
 * when every part meets every requirement: k, l-diversity (distinct,
 * entropy, recursive (c,l)) and variance diversity (004 §1.1); on a
 * sample (Rothko-S) the requirement's test is pt->sample.test.
 *
 * Unlike implementations that try the median only, every cut position
 * of a dimension is considered (the allowable one nearest the median is
 * taken), so a class is final only when no allowable cut is left.
 *
 * Coding (mload.c): every row's value becomes a code whose order is the
 * dimension's (mondrian.h, struct dim); out of core the rows are
 * spooled as binary records of these codes for rothko.c.  mond_prepare
 * turns what the loader read into those codes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kanon.h"
#include "extsort.h"
#include "mondrian.h"

/* c ln c in fixed point (units of 2^-32): integers, so that sums of
 * them are exact and do not depend on the order they are added in. */
kn_i128
mond_x_log_x(struct part *pt, uint64_t c)
{
	if (c < pt->xlx_n)
		return pt->xlx_tab[c];
	if (c < 2)
		return 0;
	/* roundl, not llroundl: past about 1.1e8 rows c ln c 2^32 passes
	 * 2^63 (a long long); as a long double it is whole and exact in
	 * 128 bits. */
	return (kn_i128)roundl((long double)c * logl((long double)c) *
	    4294967296.0L);
}

/* kn_xlx62(c), from the table for small c. */
static inline kn_i128
x62(const struct part *pt, uint64_t c)
{
	return kn_ldiv_x62(&pt->req.ld, c);
}

/* A regression score term: (sum of the target)^2 / n. */
long double
mond_regression_term(kn_i128 ts, uint64_t n)
{
	long double t = (long double)ts;

	return t * t / (long double)n;
}

/* Whether a part of n rows, its sensitive values summing to s with
 * squares ss, meets k and variance diversity. */
int
mond_k_var_ok(struct part *pt, uint64_t n, kn_i128 s, kn_i128 ss)
{
	kn_sum sm;
	long double var;

	if (n < pt->req.k)
		return 0;
	if (!pt->req.hasv)
		return 1;
	sm.s = s;
	sm.ss = ss;
	sm.sc = pt->sens_F;
	return kn_variance_ok(n, &sm, pt->sens_F, pt->req.vm, pt->req.vs, &var);
}

/* Whether the sensitive counts gath[0..m) of a part of n rows meet the
 * l-diversity asked for. */
int
mond_gath_ok(struct part *pt, size_t m, uint64_t n)
{
	return kn_ldiv_ok_any(&pt->req.ld, pt->gath, m, n);
}

/* Whether a part meets every requirement.  Its sensitive counts are
 * hist[x], or with compl the node's totals less hist[x]. */
int
mond_side_ok(
    struct part *pt, const struct side *sd, const uint64_t *hist, int compl )
{
	size_t i, m = 0;

	if (pt->sample.on)
		return pt->sample.test(pt, sd, hist, compl);
	if (!mond_k_var_ok(pt, sd->n, sd->s, sd->ss))
		return 0;
	if (pt->nsens > 1)
		return msens_side_ok(pt, hist, compl, sd->n);
	if (pt->req.ld.on && pt->req.ld.kind == KN_DIV_DISTINCT &&
	    sd->distinct < pt->req.ld.lceil)
		return 0;
	if (pt->req.ld.on && pt->req.ld.kind != KN_DIV_DISTINCT) {
		for (i = 0; i < pt->nstouch; i++) {
			uint32_t x = pt->stouch[i];
			uint64_t c = compl ? pt->hs_tot[x] - hist[x] : hist[x];

			if (c > 0)
				pt->gath[m++] = c;
		}
		if (!mond_gath_ok(pt, m, sd->n))
			return 0;
	}
	return !pt->req.hast || msens_side_ok(pt, hist, compl, sd->n);
}

/* Adds a row's label y to part a's counts (and takes it from part b's,
 * if not NULL: the totals less a's). */
static inline void
part_add_label(struct part *pt, uint32_t y, struct side *a, struct side *b)
{
	uint64_t c = pt->hl_side[y]++;

	a->lf += mond_x_log_x(pt, c + 1) - mond_x_log_x(pt, c);
	if (b != NULL) {
		uint64_t rc = pt->hl_tot[y] - c;

		b->lf += mond_x_log_x(pt, rc - 1) - mond_x_log_x(pt, rc);
	}
}

/* Adds row r to part a (and takes it from part b, if not NULL, whose
 * sensitive and label counts are the totals less a's). */
static void
part_add_row(struct part *pt, const uint32_t *r, struct side *a, struct side *b)
{
	a->n++;
	if (b != NULL)
		b->n--;
	if (!pt->need_stats)
		return;
	if (pt->has_sens) {
		uint32_t x = r[pt->word_sens];
		uint64_t c = pt->hs_side[x]++;

		if (c == 0)
			a->distinct++;
		if (b != NULL && pt->hs_tot[x] - c == 1)
			b->distinct--;
		if (a->es_ok)
			a->es += x62(pt, c + 1) - x62(pt, c);
		if (b != NULL && b->es_ok)
			b->es += x62(pt, pt->hs_tot[x] - c - 1) -
			    x62(pt, pt->hs_tot[x] - c);
		if (pt->req.hasv) {
			kn_i128 v = pt->sens_val[x];

			a->s += v;
			a->ss += v * v;
			if (b != NULL) {
				b->s -= v;
				b->ss -= v * v;
			}
		}
	}
	if (pt->split == SPLIT_INFOGAIN)
		part_add_label(pt, r[pt->word_targ], a, b);
	else if (pt->split == SPLIT_REGRESSION) {
		kn_i128 v = pt->targ_val[r[pt->word_targ]];

		a->ts += v;
		if (b != NULL)
			b->ts -= v;
	}
}

/* Forgets the counts that part_add_row() added for the rows at perm[lo..hi). */
static void
part_forget_rows(struct part *pt, size_t b, size_t lo, size_t hi)
{
	size_t i;

	if (!pt->need_stats)
		return;
	for (i = lo; i < hi; i++) {
		const uint32_t *r = pt->rec + (b + pt->perm[i]) * pt->rec_words;

		if (pt->has_sens)
			pt->hs_side[r[pt->word_sens]] = 0;
		if (pt->split == SPLIT_INFOGAIN)
			pt->hl_side[r[pt->word_targ]] = 0;
	}
}

/* Sorts the positions 0..n-1 of a segment by key[] (all below range),
 * stably, into perm. */
static void
sort_pos(struct part *pt, size_t n, uint32_t range)
{
	size_t i, j;

	if (n < 64) {
		for (i = 0; i < n; i++) {
			uint32_t p = (uint32_t)i;

			for (j = i;
			     j > 0 && pt->key[pt->perm[j - 1]] > pt->key[p];
			     j--)
				pt->perm[j] = pt->perm[j - 1];
			pt->perm[j] = p;
		}
		return;
	}
	if (range <= 2 * n) {
		memset(pt->cnt, 0, ((size_t)range + 1) * sizeof(uint32_t));
		for (i = 0; i < n; i++)
			pt->cnt[pt->key[i] + 1]++;
		for (i = 1; i <= range; i++)
			pt->cnt[i] += pt->cnt[i - 1];
		for (i = 0; i < n; i++)
			pt->perm[pt->cnt[pt->key[i]]++] = (uint32_t)i;
		return;
	}
	for (i = 0; i < n; i++)
		pt->perm[i] = (uint32_t)i;
	for (int sh = 0; sh < 32 && ((range - 1) >> sh) != 0; sh += 8) {
		uint32_t c[257];

		memset(c, 0, sizeof(c));
		for (i = 0; i < n; i++)
			c[((pt->key[pt->perm[i]] >> sh) & 0xff) + 1]++;
		for (i = 1; i <= 256; i++)
			c[i] += c[i - 1];
		for (i = 0; i < n; i++)
			pt->perm_tmp[c[(pt->key[pt->perm[i]] >> sh) & 0xff]++] =
			    pt->perm[i];
		memcpy(pt->perm, pt->perm_tmp, n * sizeof(uint32_t));
	}
}

/* Whether dimension j is cut by its hierarchy. */
int
mond_is_hier(struct part *pt, size_t j)
{
	return pt->dims[j].h != NULL && !pt->relaxed;
}

/* Fills key[] with the node's codes of dimension j and sorts. */
static void
sort_dim(struct part *pt, size_t j)
{
	size_t i;

	if (pt->node.sorted == j)
		return;
	for (i = 0; i < pt->node.n; i++)
		pt->key[i] = pt->rec[(pt->node.b + i) * pt->rec_words + j] -
		    pt->node.mn[j];
	sort_pos(pt, pt->node.n, pt->node.mx[j] - pt->node.mn[j] + 1);
	pt->node.sorted = j;
}

int
mond_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The k-th smallest of a[0..n) (k < n), moving the elements about:
 * quickselect, falling back to a full sort when it degenerates. */
static uint32_t
select_kth(uint32_t *a, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1, rounds = 0;

	while (lo < hi) {
		uint32_t p = a[lo + (hi - lo) / 2], t;
		size_t i = lo, j = hi;

		if (++rounds > 64) {
			/* Degenerate pivots: sort what is left instead. */
			qsort(a + lo, hi - lo + 1, sizeof(uint32_t),
			    mond_cmp_u32);
			return a[k];
		}
		/* Median of three. */
		{
			uint32_t u = a[lo], v = a[hi];

			if ((u <= p && p <= v) || (v <= p && p <= u))
				;
			else if ((p <= u && u <= v) || (v <= u && u <= p))
				p = u;
			else
				p = v;
		}
		while (i <= j) {
			while (a[i] < p)
				i++;
			while (a[j] > p)
				j--;
			if (i <= j) {
				t = a[i];
				a[i] = a[j];
				a[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return a[k];
	}
	return a[k];
}

/* Median cut of an ordered dimension under k alone: only the cuts just
 * below and just above the median value can be the allowable one
 * nearest the middle (paper 003 §4), so a selection is enough. */
static void
select_cut(struct part *pt, size_t j, struct cut *best)
{
	size_t n = pt->node.n, i;
	uint64_t lt = 0, eq = 0, L, dist;
	uint32_t med, c;
	const uint32_t *r = pt->rec + pt->node.b * pt->rec_words + j;

	pt->node.sorted = pt->nqi;
	if ((uint64_t)pt->node.mx[j] - pt->node.mn[j] < n) {
		/* A small range: a histogram finds the median. */
		uint32_t range = pt->node.mx[j] - pt->node.mn[j] + 1;

		memset(pt->cnt, 0, range * sizeof(uint32_t));
		for (i = 0; i < n; i++)
			pt->cnt[r[i * pt->rec_words] - pt->node.mn[j]]++;
		for (med = 0; lt + pt->cnt[med] <= (n - 1) / 2; med++)
			lt += pt->cnt[med];
		eq = pt->cnt[med];
	} else {
		/* A wide range: the rows counted by buckets of the range
		 * (at most n of them, 65536: pt->cnt holds n), then the
		 * median selected among the rows of its bucket alone, which
		 * also holds every row equal to it. */
		uint32_t span = pt->node.mx[j] - pt->node.mn[j], b;
		size_t nb = 1, m = 0;
		int sh = 0;

		while (2 * nb <= n && nb < 65536)
			nb *= 2;
		while ((span >> sh) >= nb)
			sh++;
		memset(pt->cnt, 0, ((span >> sh) + 1) * sizeof(uint32_t));
		for (i = 0; i < n; i++)
			pt->cnt[(r[i * pt->rec_words] - pt->node.mn[j]) >>
			    sh]++;
		for (b = 0; lt + pt->cnt[b] <= (n - 1) / 2; b++)
			lt += pt->cnt[b];
		for (i = 0; i < n; i++) {
			c = r[i * pt->rec_words] - pt->node.mn[j];
			if (c >> sh == b)
				pt->key[m++] = c;
		}
		med = select_kth(pt->key, m, (n - 1) / 2 - lt);
		for (i = 0; i < m; i++) {
			lt += pt->key[i] < med;
			eq += pt->key[i] == med;
		}
	}
	if (pt->relaxed)
		L = (n + 1) / 2;
	else if (lt + eq <= n - pt->req.k && lt + eq >= pt->req.k &&
	    (lt < pt->req.k || n - 2 * lt >= 2 * (lt + eq) - n))
		L = lt + eq;
	else
		L = lt;
	if (L < pt->req.k || n - L < pt->req.k || L == 0 || L == n)
		return;
	dist = 2 * L > n ? 2 * L - n : n - 2 * L;
	best->found = 1;
	best->fast = 1;
	best->dim = j;
	best->L = L;
	best->dist = dist;
	best->med = med + pt->node.mn[j];
	best->eqleft = L - lt;
}

/* Whether a cut scoring (isc, sc) with balance dist beats the best so
 * far: a higher score; on a tie (regression: within rounding) the more
 * balanced cut, so that a pure node is halved rather than peeled. */
int
mond_cut_better(struct part *pt, const struct cut *best, kn_i128 isc,
    long double sc, uint64_t dist)
{
	long double tol;

	if (!best->found)
		return 1;
	if (pt->split == SPLIT_INFOGAIN) {
		if (isc != best->iscore)
			return isc > best->iscore;
		return dist < best->dist;
	}
	tol = 1e-12L * (fabsl(sc) > fabsl(best->score) ? fabsl(sc) :
	    fabsl(best->score));
	if (sc > best->score + tol)
		return 1;
	if (sc < best->score - tol)
		return 0;
	return dist < best->dist;
}

/*
 * Entropy l-diversity from sums (kn_ldiv_entropy_sure), in place of
 * gathering and sorting a part's counts for each cut judged: with many
 * sensitive values a sweep judged cut after cut at that cost (50,000
 * rows of 48,000 values took minutes).  Once a sweep has judged two
 * cuts from their counts, each side of the cut starts the sum of c ln c
 * over its counts (side_es_start), which part_add_row and
 * part_cross_row then keep; a verdict the sums do not tell surely is
 * taken from the counts as before.  Sure verdicts are those of the
 * counts (kn_ldiv_entropy_sure), so the cuts, and the output, are the
 * same whether or when the sums start.
 */
static int
es_can(const struct part *pt)
{
	return pt->req.ld.x62 != NULL && pt->has_sens && pt->nsens <= 1 &&
	    !pt->sample.on && pt->req.ld.on &&
	    pt->req.ld.kind == KN_DIV_ENTROPY;
}

/* Starts side sd's sum over its counts: hist[x], or with compl the
 * node's totals less hist[x]. */
static void
side_es_start(struct part *pt, struct side *sd, const uint64_t *hist,
    int compl )
{
	size_t i;

	sd->es = 0;
	for (i = 0; i < pt->nstouch; i++) {
		uint32_t x = pt->stouch[i];

		sd->es += x62(pt, compl ? pt->hs_tot[x] - hist[x] : hist[x]);
	}
	sd->es_ok = 1;
}

/* mond_side_ok, its l-diversity told by the sums where they are sure
 * (t-closeness, if asked, is judged after a sure pass as mond_side_ok
 * judges it after l-diversity). */
static int
side_ok(struct part *pt, struct side *sd, const uint64_t *hist, int compl )
{
	if (es_can(pt) && !sd->es_ok && pt->es_checks >= 2 &&
	    pt->nstouch >= 32)
		side_es_start(pt, sd, hist, compl);
	if (sd->es_ok && mond_k_var_ok(pt, sd->n, sd->s, sd->ss))
		switch (kn_ldiv_entropy_sure(&pt->req.ld, x62(pt, sd->n),
		    sd->es, sd->n, sd->distinct)) {
		case 1:
			return !pt->req.hast ||
			    msens_side_ok(pt, hist, compl, sd->n);
		case -1:
			return 0;
		}
	pt->es_checks++;
	return mond_side_ok(pt, sd, hist, compl);
}

/* Whether both parts of a cut of l rows on its left, L and R (hist:
 * L's sensitive counts), meet every requirement (mond_side_ok); under
 * t-closeness a cut that the cuts too far before it in fs show surely
 * too far is not judged, and one judged too far joins them
 * (mondrian.h, struct mfars). */
static int
cut_sides_ok(struct part *pt, struct mfars *fs, uint64_t l, struct side *L,
    struct side *R, const uint64_t *hist)
{
	long double dl, dr = -1;

	if (!pt->req.hast)
		return side_ok(pt, L, hist, 0) && side_ok(pt, R, hist, 1);
	if (mond_far_fails(pt, fs, pt->node.n, l))
		return 0;
	pt->tdist = -1;
	if (side_ok(pt, L, hist, 0)) {
		dl = pt->tdist;
		pt->tdist = -1;
		if (side_ok(pt, R, hist, 1))
			return 1;
		dr = pt->tdist;
	} else
		dl = pt->tdist;
	mond_far_add(fs, l, dl, dr);
	return 0;
}

/* Considers the cuts of an ordered dimension (numeric, or any in
 * relaxed mode) by information gain or regression, updating best. */
static void
eval_ordered(struct part *pt, size_t j, struct cut *best)
{
	struct side L, R;
	struct mfars fs;
	size_t n = pt->node.n, i;
	const uint32_t *lab = NULL;

	pt->sample.m = 2;
	pt->es_checks = 0;
	fs.n = 0;

	sort_dim(pt, j);
	/* Infogain with no sensitive column: the labels in the node's order
	 * (in perm_tmp, free once sorted), so that a row's is read from 4
	 * bytes, not from its record: the records, taken in the dimension's
	 * order, are read at random (three quarters of the time went on
	 * that read). */
	if (pt->split == SPLIT_INFOGAIN && !pt->has_sens) {
		for (i = 0; i < n; i++)
			pt->perm_tmp[i] = pt->rec[(pt->node.b + i) *
			    pt->rec_words + pt->word_targ];
		lab = pt->perm_tmp;
	}
	memset(&L, 0, sizeof(L));
	R = pt->node.tot;
	for (i = 0; i + 1 < n; i++) {
		uint64_t l = i + 1, dist;
		kn_i128 isc = 0;
		long double sc = 0;

		if (lab != NULL) {
			L.n++;
			R.n--;
			part_add_label(pt, lab[pt->perm[i]], &L, &R);
		} else
			part_add_row(pt, pt->rec + (pt->node.b + pt->perm[i]) *
			    pt->rec_words, &L, &R);
		if (!pt->relaxed &&
		    pt->key[pt->perm[i]] == pt->key[pt->perm[i + 1]])
			continue;
		if (l < pt->req.k || n - l < pt->req.k)
			continue;
		dist = 2 * l > n ? 2 * l - n : n - 2 * l;
		if (pt->split == SPLIT_INFOGAIN)
			isc = L.lf - mond_x_log_x(pt, l) + R.lf -
			    mond_x_log_x(pt, n - l);
		else
			sc = mond_regression_term(L.ts, l) +
			    mond_regression_term(R.ts, n - l);
		if (!mond_cut_better(pt, best, isc, sc, dist) ||
		    !cut_sides_ok(pt, &fs, l, &L, &R, pt->hs_side))
			continue;
		best->found = 1;
		best->dim = j;
		best->L = l;
		best->dist = dist;
		best->iscore = isc;
		best->score = sc;
	}
	if (lab != NULL)
		mond_clear_touched(pt, pt->hs_side, pt->hl_side);
	else
		part_forget_rows(pt, pt->node.b, 0, n - 1);
}

/* Moves row r across a cut: into the left part L (dir > 0) or back
 * into the right part R; hist holds L's sensitive counts. */
static void
part_cross_row(struct part *pt, const uint32_t *r, struct side *L,
    struct side *R, uint64_t *hist, int dir)
{
	uint32_t x;
	uint64_t c;

	if (dir > 0) {
		L->n++;
		R->n--;
	} else {
		L->n--;
		R->n++;
	}
	if (!pt->has_sens)
		return;
	x = r[pt->word_sens];
	if (dir > 0) {
		c = hist[x]++;
		if (c == 0)
			L->distinct++;
		if (pt->hs_tot[x] - c == 1)
			R->distinct--;
	} else {
		c = --hist[x];
		if (c == 0)
			L->distinct--;
		if (pt->hs_tot[x] - c == 1)
			R->distinct++;
	}
	/* L's count of x between c and c + 1, R's between t - c - 1 and
	 * t - c. */
	if (L->es_ok) {
		kn_i128 d = x62(pt, c + 1) - x62(pt, c);

		L->es += dir > 0 ? d : -d;
	}
	if (R->es_ok) {
		kn_i128 d = x62(pt, pt->hs_tot[x] - c) -
		    x62(pt, pt->hs_tot[x] - c - 1);

		R->es += dir > 0 ? -d : d;
	}
	if (pt->req.hasv) {
		kn_i128 v = dir > 0 ? pt->sens_val[x] : -pt->sens_val[x];
		kn_i128 v2 = dir > 0 ? pt->sens_val[x] * pt->sens_val[x] :
		    -(pt->sens_val[x] * pt->sens_val[x]);

		L->s += v;
		L->ss += v2;
		R->s -= v;
		R->ss -= v2;
	}
}

/* The median cut of an ordered dimension under requirements on the
 * sensitive column: the allowable cut nearest the median, found by
 * walking outward from the median, one cursor each way. */
static void
eval_median(struct part *pt, size_t j, struct cut *best)
{
	struct side La, Ra, Lb, Rb;
	struct mfars fs;
	size_t n = pt->node.n, i, nb = 0, c = 0, pa, pb;
	long r, l;

	pt->sample.m = 2;
	pt->es_checks = 0;
	fs.n = 0;

	sort_dim(pt, j);
	/* The cut positions, as row counts of the left part. */
	for (i = 0; i + 1 < n; i++) {
		uint64_t L = i + 1;

		if (!pt->relaxed &&
		    pt->key[pt->perm[i]] == pt->key[pt->perm[i + 1]])
			continue;
		if (L < pt->req.k || n - L < pt->req.k)
			continue;
		pt->grp[nb++] = (uint32_t)L;
	}
	if (nb == 0)
		return;
	for (i = 1; i < nb; i++)
		if ((2 * (uint64_t)pt->grp[i] > n
			    ? 2 * (uint64_t)pt->grp[i] - n
			    : n - 2 * (uint64_t)pt->grp[i]) <=
		    (2 * (uint64_t)pt->grp[c] > n
			    ? 2 * (uint64_t)pt->grp[c] - n
			    : n - 2 * (uint64_t)pt->grp[c]))
			c = i;
	/* Cursor a starts at grp[c] and goes right, b goes left. */
	memset(&La, 0, sizeof(La));
	Ra = pt->node.tot;
	for (pa = 0; pa < pt->grp[c]; pa++)
		part_cross_row(pt,
		    pt->rec + (pt->node.b + pt->perm[pa]) * pt->rec_words, &La,
		    &Ra, pt->hs_side, 1);
	Lb = La;
	Rb = Ra;
	for (i = 0; i < pt->nstouch; i++)
		pt->hs_side2[pt->stouch[i]] = pt->hs_side[pt->stouch[i]];
	pb = pa;
	r = (long)c;
	l = (long)c - 1;
	while (r < (long)nb || l >= 0) {
		uint64_t dr = 0, dl = 0, L;
		int right;

		if (r < (long)nb)
			dr = 2 * (uint64_t)pt->grp[r] > n
			    ? 2 * (uint64_t)pt->grp[r] - n
			    : n - 2 * (uint64_t)pt->grp[r];
		if (l >= 0)
			dl = 2 * (uint64_t)pt->grp[l] > n
			    ? 2 * (uint64_t)pt->grp[l] - n
			    : n - 2 * (uint64_t)pt->grp[l];
		right = r < (long)nb && (l < 0 || dr <= dl);
		if (right) {
			L = pt->grp[r++];
			for (; pa < L; pa++)
				part_cross_row(pt,
				    pt->rec +
					(pt->node.b + pt->perm[pa]) *
					    pt->rec_words,
				    &La, &Ra, pt->hs_side, 1);
			if (!cut_sides_ok(pt, &fs, L, &La, &Ra, pt->hs_side))
				continue;
		} else {
			L = pt->grp[l--];
			for (; pb > L; pb--)
				part_cross_row(pt,
				    pt->rec +
					(pt->node.b + pt->perm[pb - 1]) *
					    pt->rec_words,
				    &Lb, &Rb, pt->hs_side2, -1);
			if (!cut_sides_ok(pt, &fs, L, &Lb, &Rb, pt->hs_side2))
				continue;
		}
		best->found = 1;
		best->dim = j;
		best->L = L;
		break;
	}
	for (i = 0; i < pt->nstouch; i++)
		pt->hs_side[pt->stouch[i]] = pt->hs_side2[pt->stouch[i]] = 0;
}

/* The child of the node of dimension j that holds code c. */
uint32_t
mond_child_of(struct part *pt, size_t j, uint32_t c)
{
	const struct dim *dm = &pt->dims[j];

	return dm->anc[pt->node.lv[j] - 1][dm->dfsleaf[c + pt->node.mn[j]]];
}

/* Considers specializing the hierarchy node of dimension j into its
 * children: allowable when every child meets the requirements. */
static void
eval_hier(struct part *pt, size_t j, struct cut *best)
{
	struct side S;
	size_t n = pt->node.n, i, g0 = 0;
	long double sc = 0;
	kn_i128 isc = 0;
	int ok = 1;

	sort_dim(pt, j);
	if (pt->sample.on) {
		/* The tests are made for all the children at once. */
		pt->sample.m = 1;
		for (i = 0; i + 1 < n; i++)
			pt->sample.m +=
			    mond_child_of(pt, j, pt->key[pt->perm[i]]) !=
			    mond_child_of(pt, j, pt->key[pt->perm[i + 1]]);
	}
	memset(&S, 0, sizeof(S));
	for (i = 0; i < n; i++) {
		part_add_row(pt,
		    pt->rec + (pt->node.b + pt->perm[i]) * pt->rec_words, &S,
		    NULL);
		if (i + 1 < n && mond_child_of(pt, j, pt->key[pt->perm[i]]) ==
		    mond_child_of(pt, j, pt->key[pt->perm[i + 1]]))
			continue;
		/* A child ends at i. */
		if (!mond_side_ok(pt, &S, pt->hs_side, 0))
			ok = 0;
		if (pt->split == SPLIT_INFOGAIN)
			isc += S.lf - mond_x_log_x(pt, S.n);
		else if (pt->split == SPLIT_REGRESSION)
			sc += mond_regression_term(S.ts, S.n);
		part_forget_rows(pt, pt->node.b, g0, i + 1);
		g0 = i + 1;
		memset(&S, 0, sizeof(S));
		if (!ok)
			break;
	}
	if (!ok)
		return;
	if (pt->split == SPLIT_MEDIAN) {
		if (!best->found) {
			best->found = 1;
			best->dim = j;
		}
		return;
	}
	/* Ties go to a balanced threshold cut, else the first dimension. */
	if (!mond_cut_better(pt, best, isc, sc, n))
		return;
	best->found = 1;
	best->dim = j;
	best->dist = n;
	best->iscore = isc;
	best->score = sc;
}

/* Pushes the segment [b,e) with the extents ext (min[d], max[d]); b
 * with MOND_IN_TMP: its rows are in the buffer that rec was not
 * first. */
void
mond_stack_push(struct part *pt, uint64_t b, uint64_t e, const uint32_t *ext)
{
	if (pt->nstack + 2 > pt->stack_cap) {
		pt->stack_cap = pt->stack_cap ? 2 * pt->stack_cap : 1024;
		pt->stack =
		    kn_realloc(pt->stack, pt->stack_cap * sizeof(uint64_t));
		pt->stack_ext = kn_realloc(pt->stack_ext,
		    pt->stack_cap / 2 * 2 * pt->nqi * sizeof(uint32_t));
	}
	memcpy(pt->stack_ext + pt->nstack / 2 * 2 * pt->nqi, ext,
	    2 * pt->nqi * sizeof(uint32_t));
	pt->stack[pt->nstack++] = b;
	pt->stack[pt->nstack++] = e;
}

/*
 * cut_apply on threads (pt->cut_jobs, set by mpar.c while the parts are
 * fewer than its threads): the node's records cut into as many slices,
 * each counted by part, then placed from where the slices before it
 * end in each part, so that the order is the one thread's; the fast
 * median's rows equal to the median go left in the first slices first,
 * as one thread sends the first ones.
 */
struct cslice {
	struct part *pt;
	const struct cut *c;
	size_t lo, hi, m;
	int phase;		/* 0: count, 1: place, 2: copy back */
	uint64_t neq, nlt;	/* fast: its rows at and below the median */
	uint64_t eqleft;	/* fast: of those at it, those sent left */
	uint32_t *pos;		/* [m]: its rows by part, then where each
				 * goes next */
	uint32_t *ext;		/* [m][2 nqi]: its rows' extents by part */
};

/* The rows a thread of cut_par takes at least: fewer, one thread cuts
 * (8 in tests/partition-cut8, so that small tables take that way). */
#ifndef CUT_PAR_ROWS
#define CUT_PAR_ROWS 4096
#endif

/* Widens the extents e (min[nq], max[nq]) by the row r. */
static void
ext_row(uint32_t *e, const uint32_t *r, size_t nq)
{
	size_t q;

	for (q = 0; q < nq; q++) {
		e[q] = r[q] < e[q] ? r[q] : e[q];
		e[nq + q] = r[q] > e[nq + q] ? r[q] : e[nq + q];
	}
}

/* Extents e (min[nq], max[nq]) that no row widened yet. */
static void
ext_empty(uint32_t *e, size_t nq)
{
	size_t q;

	for (q = 0; q < nq; q++) {
		e[q] = UINT32_MAX;
		e[nq + q] = 0;
	}
}

/* Widens the extents d by the extents s (which may be empty). */
static void
ext_merge(uint32_t *d, const uint32_t *s, size_t nq)
{
	size_t q;

	for (q = 0; q < nq; q++) {
		d[q] = s[q] < d[q] ? s[q] : d[q];
		d[nq + q] = s[nq + q] > d[nq + q] ? s[nq + q] : d[nq + q];
	}
}

static void *
cslice_run(void *arg)
{
	struct cslice *s = arg;
	struct part *pt = s->pt;
	const struct cut *c = s->c;
	size_t w = pt->rec_words, nq = pt->nqi, i, g, j = c->dim;
	const uint32_t *r = pt->rec + (pt->node.b + s->lo) * w;

	if (s->phase == 2) {
		memcpy(pt->rec + (pt->node.b + s->lo) * w, pt->rec_tmp +
		    (pt->node.b + s->lo) * w, (s->hi - s->lo) * w *
		    sizeof(uint32_t));
		return NULL;
	}
	if (s->phase == 0) {
		for (i = s->lo; i < s->hi; i++, r += w)
			if (!c->fast)
				s->pos[pt->grp[i]]++;
			else if (r[j] < c->med)
				s->nlt++;
			else if (r[j] == c->med)
				s->neq++;
		return NULL;
	}
	/* In locals: the stores through rec_tmp could alias s's. */
	{
		uint32_t *pos = s->pos, *ext = s->ext;
		uint32_t *tmp = pt->rec_tmp + pt->node.b * w;
		uint64_t eqleft = s->eqleft;
		uint32_t med = c->med;

		if (!c->fast)
			for (i = s->lo; i < s->hi; i++, r += w) {
				g = pt->grp[i];
				ext_row(ext + g * 2 * nq, r, nq);
				memcpy(tmp + (size_t)pos[g]++ * w, r,
				    w * sizeof(uint32_t));
			}
		/* A median's two parts: a block of rows placed, then the
		 * extents of each part's rows of it, in a row there. */
		for (i = s->lo; c->fast && i < s->hi;) {
			size_t end = s->hi - i < 256 ? s->hi : i + 256;
			uint32_t p0 = pos[0], p1 = pos[1];

			for (; i < end; i++, r += w) {
				g = r[j] < med || (r[j] == med && eqleft > 0 &&
				    eqleft--) ? 0 : 1;
				memcpy(tmp + (size_t)pos[g]++ * w, r,
				    w * sizeof(uint32_t));
			}
			kn_ext_rows(ext, tmp + (size_t)p0 * w, pos[0] - p0, w,
			    nq);
			kn_ext_rows(ext + 2 * nq, tmp + (size_t)p1 * w,
			    pos[1] - p1, w, nq);
		}
	}
	return NULL;
}

/* The rows of the node regrouped into rec_tmp on nt threads (above; on
 * this one alone when nt is 1, with no count first), their extents by
 * part into ext, the parts' starts at off; then back into the records,
 * but for pt->pingpong. */
static void
cut_par(struct part *pt, const struct cut *c, size_t m, const uint32_t *off,
    uint32_t *ext, int nt)
{
	struct cslice s[64];
	size_t n = pt->node.n, nq = pt->nqi, g;
	uint64_t eqleft = c->eqleft;
	int k;

	for (k = 0; k < nt; k++) {
		s[k] = (struct cslice){ pt, c, n * (size_t)k / (size_t)nt,
		    n * (size_t)(k + 1) / (size_t)nt, m, 0, 0, 0, 0, NULL,
		    NULL };
		s[k].pos = kn_zalloc(m * sizeof(uint32_t));
		/* One thread widens ext itself. */
		s[k].ext = ext;
		if (nt > 1) {
			s[k].ext = kn_alloc(m * 2 * nq * sizeof(uint32_t));
			memcpy(s[k].ext, ext, m * 2 * nq * sizeof(uint32_t));
		}
	}
	if (nt == 1) {
		/* The parts' starts, and the rows at the median sent left,
		 * are the cut's. */
		memcpy(s[0].pos, off, m * sizeof(uint32_t));
		s[0].eqleft = eqleft;
	} else {
		kn_sort_par_run(cslice_run, s, sizeof(s[0]), nt);
		for (k = 0; c->fast && k < nt; k++) {
			s[k].eqleft = s[k].neq < eqleft ? s[k].neq : eqleft;
			eqleft -= s[k].eqleft;
			s[k].pos[0] = (uint32_t)(s[k].nlt + s[k].eqleft);
			s[k].pos[1] = (uint32_t)(s[k].hi - s[k].lo) - s[k].pos[0];
		}
		/* Counts to starts: part g of slice k after part g of
		 * those before. */
		for (g = 0; g < m; g++) {
			uint32_t at = off[g], n_k;

			for (k = 0; k < nt; k++) {
				n_k = s[k].pos[g];
				s[k].pos[g] = at;
				at += n_k;
			}
		}
	}
	for (k = 0; k < nt; k++)
		s[k].phase = 1;
	kn_sort_par_run(cslice_run, s, sizeof(s[0]), nt);
	for (k = 0; k < nt; k++) {
		for (g = 0; g < m && nt > 1; g++)
			ext_merge(ext + g * 2 * nq, s[k].ext + g * 2 * nq, nq);
		s[k].phase = 2;
	}
	if (!pt->pingpong)
		kn_sort_par_run(cslice_run, s, sizeof(s[0]), nt);
	for (k = 0; k < nt; k++) {
		free(s[k].pos);
		if (nt > 1)
			free(s[k].ext);
	}
}

/* A slice of records for mond_extents. */
struct eslice {
	const struct part *pt;
	size_t lo, hi;
	uint32_t *ext;
};

static void *
eslice_run(void *arg)
{
	struct eslice *s = arg;
	const struct part *pt = s->pt;

	kn_ext_rows(s->ext, pt->rec + s->lo * pt->rec_words, s->hi - s->lo,
	    pt->rec_words, pt->nqi);
	return NULL;
}

void
mond_extents(const struct part *pt, size_t b, size_t e, uint32_t *ext,
    int nt)
{
	struct eslice s[64];
	size_t n = e - b, nq = pt->nqi;
	int k;

	nt = nt < 1 ? 1 : nt > 64 ? 64 : nt;
	if (n < (size_t)nt * CUT_PAR_ROWS)
		nt = 1;
	for (k = 0; k < nt; k++) {
		s[k] = (struct eslice){ pt, b + n * (size_t)k / (size_t)nt,
		    b + n * (size_t)(k + 1) / (size_t)nt,
		    kn_alloc(2 * nq * sizeof(uint32_t)) };
		ext_empty(s[k].ext, nq);
	}
	kn_sort_par_run(eslice_run, s, sizeof(s[0]), nt);
	ext_empty(ext, nq);
	for (k = 0; k < nt; k++) {
		ext_merge(ext, s[k].ext, nq);
		free(s[k].ext);
	}
}

/* Makes the chosen cut: regroups the node's records stably by part,
 * noting each part's extents on the way, and pushes the parts,
 * leftmost on top. */
static void
cut_apply(struct part *pt, const struct cut *c)
{
	size_t n = pt->node.n, i, m = 0, g, j = c->dim;
	uint32_t *off, *ext;
	int nt = pt->cut_jobs < 64 ? pt->cut_jobs : 64;

	if (c->fast)
		m = 2;
	else if (sort_dim(pt, j), mond_is_hier(pt, j)) {
		for (i = 0; i < n; i++) {
			if (i > 0 &&
			    mond_child_of(pt, j, pt->key[pt->perm[i]]) !=
				mond_child_of(pt, j, pt->key[pt->perm[i - 1]]))
				m++;
			pt->grp[pt->perm[i]] = (uint32_t)m;
		}
		m++;
	} else {
		for (i = 0; i < n; i++)
			pt->grp[pt->perm[i]] = i < c->L ? 0 : 1;
		m = 2;
	}
	off = kn_zalloc((m + 1) * sizeof(uint32_t));
	ext = kn_alloc(m * 2 * pt->nqi * sizeof(uint32_t));
	for (g = 0; g < m; g++)
		ext_empty(ext + g * 2 * pt->nqi, pt->nqi);
	if (c->fast) {
		off[1] = (uint32_t)c->L;
		off[2] = (uint32_t)n;
	} else {
		for (i = 0; i < n; i++)
			off[pt->grp[i] + 1]++;
		for (i = 1; i <= m; i++)
			off[i] += off[i - 1];
	}
	cut_par(pt, c, m, off, ext,
	    nt > 1 && n >= (size_t)nt * CUT_PAR_ROWS ? nt : 1);
	for (g = m; g-- > 0;)
		mond_stack_push(pt, (pt->node.b + off[g]) | (pt->pingpong &&
		    !pt->rec_swapped ? MOND_IN_TMP : 0),
		    pt->node.b + off[g + 1], ext + g * 2 * pt->nqi);
	free(off);
	free(ext);
}

/* From the node's extents: each hierarchy's lowest common ancestor,
 * the normalized widths, and which dimensions can be cut. */
void
mond_widths(struct part *pt)
{
	size_t j;

	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j];

		if (dm->h != NULL) {
			uint32_t la = dm->dfsleaf[pt->node.mn[j]];
			uint32_t lb = dm->dfsleaf[pt->node.mx[j]];
			int l;

			for (l = 0; l < dm->nl; l++)
				if (dm->anc[l][la] == dm->anc[l][lb])
					break;
			pt->node.lv[j] = l;
			pt->node.node[j] = l < dm->nl ? dm->anc[l][la] : 0;
			pt->node.width[j] = l < dm->nl ?
			    (long double)dm->nleaf[l][pt->node.node[j]] /
			    (long double)(dm->wleaves > 0 ? dm->wleaves : 1) :
			    1;
		} else {
			long double g = (long double)(dm->hasg ?
			    (kn_i128)dm->gmx - dm->gmn : (kn_i128)
			    dm->vals[dm->nrank - 1] - dm->vals[0]);

			pt->node.width[j] = g > 0
			    ? (long double)((kn_i128)dm->vals[pt->node.mx[j]] -
				  dm->vals[pt->node.mn[j]]) /
				g
			    : 0;
		}
		if (pt->relaxed)
			pt->node.can[j] = 1;
		else if (mond_is_hier(pt, j))
			pt->node.can[j] = pt->node.lv[j] > 0;
		else
			pt->node.can[j] = pt->node.mn[j] < pt->node.mx[j];
	}
}

/* Counts the node's totals and extents. */
void
mond_node_totals(struct part *pt, size_t b, size_t e, const uint32_t *ext)
{
	size_t i;
	uint32_t *x = NULL;

	pt->node.b = b;
	pt->node.n = e - b;
	pt->node.sorted = pt->nqi;
	memset(&pt->node.tot, 0, sizeof(pt->node.tot));
	pt->nstouch = pt->nltouch = 0;
	if (ext == NULL) {
		ext = x = kn_alloc(2 * pt->nqi * sizeof(uint32_t));
		mond_extents(pt, b, e, x, 1);
	}
	memcpy(pt->node.mn, ext, pt->nqi * sizeof(uint32_t));
	memcpy(pt->node.mx, ext + pt->nqi, pt->nqi * sizeof(uint32_t));
	free(x);
	for (i = b; i < e && pt->need_stats; i++) {
		const uint32_t *r = pt->rec + i * pt->rec_words;

		if (pt->has_sens && pt->hs_tot[r[pt->word_sens]]++ == 0)
			pt->stouch[pt->nstouch++] = r[pt->word_sens];
		if (pt->split == SPLIT_INFOGAIN &&
		    pt->hl_tot[r[pt->word_targ]]++ == 0)
			pt->ltouch[pt->nltouch++] = r[pt->word_targ];
	}
	if (pt->nltouch > 1)
		qsort(pt->ltouch, pt->nltouch, sizeof(uint32_t), mond_cmp_u32);
	/* The statistics of the whole node, as of a part. */
	pt->node.tot.n = pt->node.n;
	if (pt->need_stats) {
		pt->node.tot.n = 0;
		for (i = 0; i < pt->node.n; i++) {
			pt->perm[i] = (uint32_t)i;
			part_add_row(pt, pt->rec + (b + i) * pt->rec_words,
			    &pt->node.tot, NULL);
		}
		part_forget_rows(pt, b, 0, pt->node.n);
	}
	mond_widths(pt);
}

void
mond_clear_touched(struct part *pt, uint64_t *hs, uint64_t *hl)
{
	size_t i;

	for (i = 0; i < pt->nstouch; i++)
		hs[pt->stouch[i]] = 0;
	for (i = 0; i < pt->nltouch; i++)
		hl[pt->ltouch[i]] = 0;
}

/* Clears the node's total counts. */
void
mond_node_clear_totals(struct part *pt)
{
	mond_clear_touched(pt, pt->hs_tot, pt->hl_tot);
}

/* Makes room for n more bytes of the region line. */
static char *
region_room(struct part *pt, size_t n)
{
	if (pt->region_len + n > pt->region_cap) {
		pt->region_cap = 2 * (pt->region_len + n) + 256;
		pt->region_line = kn_realloc(pt->region_line, pt->region_cap);
	}
	return pt->region_line + pt->region_len;
}

/* Appends a tab and v / 10^S. */
static void
put_dec(struct part *pt, int64_t v, int S)
{
	char *p = region_room(pt, 64);

	*p++ = '\t';
	if (S == 0 && v >= 0)
		pt->region_len += 1 + kn_fmt_u64(p, (uint64_t)v);
	else
		pt->region_len += 1 + kn_dec_format(v, S, p);
}

/* Appends a tab and the mean sum/n, rounded half away from zero to S+4
 * decimals. */
static void
put_mean(struct part *pt, kn_i128 sum, uint64_t n, int S)
{
	kn_i128 q;
	char *p = region_room(pt, 64);

	*p++ = '\t';
	if (S == 0 && sum >= 0 && sum % (kn_i128)n == 0)
		pt->region_len +=
		    1 + kn_fmt_u64(p, (uint64_t)(sum / (kn_i128)n));
	else {
		/* |sum| < 2^95 (under 2^32 rows of 63 bits): no overflow. */
		(void)kn_dec_mean(sum, S, n, S + 4, &q);
		pt->region_len += 1 + kn_dec_format(q, S + 4, p);
	}
}

/* Appends a tab and day or second v of a date dimension, in the
 * column's form; with n, the mean v / n rounded half away from zero to
 * a whole day or second (kanon(7), DATES). */
static void
put_date(struct part *pt, const struct dim *dm, kn_i128 v, uint64_t n)
{
	char *p = region_room(pt, KN_DATE_BUF + 1);

	*p++ = '\t';
	pt->region_len += 1 + kn_date_format(n > 0 ? kn_date_mean(v, n) :
	    (int64_t)v, dm->dform, p);
}

/* Writes the header line of the regions file. */
void
mond_regions_header(struct part *pt, FILE *fp)
{
	static const char *const sfx[] = { "_min", "_max", "_mean",
		"_missing" };
	char **f = kn_alloc((4 * pt->nqi + 1) * sizeof(char *));
	size_t j, n = 0, s;

	for (j = 0; j < pt->nqi; j++) {
		const struct dim *dm = &pt->dims[j];

		if (dm->h != NULL) {
			f[n++] = kn_strdup(dm->name);
			continue;
		}
		for (s = 0; s < (dm->miss ? 4u : 3u); s++) {
			f[n] = kn_alloc(strlen(dm->name) + 9);
			sprintf(f[n++], "%s%s", dm->name, sfx[s]);
		}
	}
	/* As recode -r reads it: one way, or not written. */
	if (pt->tcols != NULL &&
	    kn_rhead_read(f, n, pt->tcols, pt->ntcols, NULL, NULL) > 1)
		kn_die("-r: the regions' header would read two ways against "
		    "the columns of %s, so recode -r could not read it: a "
		    "column's name is also that of a range's field (Q_min, "
		    "Q_max, Q_mean, Q_missing) of a column Q; rename the "
		    "column", pt->tname);
	fputs("class\tcount", fp);
	for (j = 0; j < n; j++) {
		fprintf(fp, "\t%s", f[j]);
		free(f[j]);
	}
	putc('\n', fp);
	free(f);
}

/* Writes the region of class id: n rows, the node's extents, and per
 * numeric dimension the sum of its values (scaled) for the mean. */
void
mond_region(struct part *pt, uint32_t id, uint64_t n, const kn_i128 *sums)
{
	size_t j;
	char *p;

	pt->region_len = 0;
	if (pt->region_tag != NULL) {
		p = region_room(pt, strlen(pt->region_tag) + 8);
		pt->region_len =
		    (size_t)sprintf(p, "region\t%s", pt->region_tag);
	} else {
		p = region_room(pt, 48);
		pt->region_len = kn_fmt_u64(p, id);
	}
	pt->region_line[pt->region_len++] = '\t';
	pt->region_len += kn_fmt_u64(pt->region_line + pt->region_len, n);
	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j];
		kn_str v;

		if (dm->h != NULL) {
			v.p = "*";
			v.n = 1;
			if (pt->node.lv[j] < dm->nl)
				v = kn_dict_get(&dm->h->lab[pt->node.lv[j]],
				    pt->node.node[j]);
			p = region_room(pt, v.n + 1);
			*p = '\t';
			memcpy(p + 1, v.p, v.n);
			pt->region_len += v.n + 1;
			continue;
		}
		/* The numbers of the class, then, with missing values, their
		 * count: the extents are empty when all are missing. */
		if (dm->miss && pt->nmiss[j] == n) {
			p = region_room(pt, 3);
			memcpy(p, "\t\t\t", 3);
			pt->region_len += 3;
		} else {
			uint32_t lo = dm->miss ? pt->mnp[j] : pt->node.mn[j];
			uint64_t np = n - (dm->miss ? pt->nmiss[j] : 0);

			if (dm->isdate) {
				put_date(pt, dm, dm->vals[lo], 0);
				put_date(pt, dm, dm->vals[pt->node.mx[j]], 0);
				put_date(pt, dm, sums[j], np);
			} else {
				put_dec(pt, dm->vals[lo], dm->S);
				put_dec(pt, dm->vals[pt->node.mx[j]], dm->S);
				put_mean(pt, sums[j], np, dm->S);
			}
		}
		if (dm->miss) {
			p = region_room(pt, 24);
			*p = '\t';
			pt->region_len += 1 + kn_fmt_u64(p + 1, pt->nmiss[j]);
		}
	}
	*region_room(pt, 1) = '\n';
	pt->region_len++;
	if (fwrite(pt->region_line, 1, pt->region_len, pt->regions_fp) !=
	    pt->region_len)
		kn_die_sys("%s: write error", pt->regions_name);
}

/* Notes that row belongs to class id: in row_class when there is one
 * (in memory; out of core, a node in memory's, by its rows' places in
 * it), else as a pair in the pairs file. */
void
mond_class_assign(struct part *pt, uint32_t row, uint32_t id)
{
	uint32_t pr[2];

	pt->acct.classed++;
	if (pt->row_class != NULL) {
		pt->row_class[row] = id;
		return;
	}
	pr[0] = row;
	pr[1] = id;
	if (fwrite(pr, sizeof(pr), 1, pt->pairs) != 1)
		kn_die_sys("%s: write error", pt->pairs_path);
	pt->acct.bwritten += sizeof(pr);
}

/* Clears what mond_region_add gathers for a region. */
void
mond_region_clear(struct part *pt)
{
	size_t j;

	for (j = 0; j < pt->nqi; j++) {
		pt->sums[j] = 0;
		pt->nmiss[j] = 0;
		pt->mnp[j] = UINT32_MAX;
	}
}

/* Adds cnt rows of rank c of numeric dimension j to the region's sum,
 * missing count and least rank of a number. */
void
mond_region_add(struct part *pt, size_t j, uint32_t c, uint64_t cnt)
{
	const struct dim *dm = &pt->dims[j];

	if (dm->miss && c == 0) {
		pt->nmiss[j] += cnt;
		return;
	}
	pt->sums[j] += (kn_i128)cnt * dm->vals[c];
	if (c < pt->mnp[j])
		pt->mnp[j] = c;
}

/* Swaps rec and rec_tmp, the node's rows copied first if copy. */
static void
rec_swap(struct part *pt, int copy)
{
	uint32_t *t = pt->rec;
	size_t w = pt->rec_words;

	if (copy)
		memcpy(pt->rec_tmp + pt->node.b * w, pt->rec + pt->node.b * w,
		    pt->node.n * w * sizeof(uint32_t));
	pt->rec = pt->rec_tmp;
	pt->rec_tmp = t;
	pt->rec_swapped ^= 1;
}

/* Makes the node a class. */
static void
make_class(struct part *pt)
{
	size_t i, j;
	uint32_t id = ++pt->nclasses;

	if (pt->rec_swapped)
		rec_swap(pt, 1);
	if (pt->node.n > pt->max_class)
		pt->max_class = pt->node.n;
	for (i = 0; i < pt->node.n; i++)
		mond_class_assign(pt,
		    pt->rec[(pt->node.b + i) * pt->rec_words + pt->word_row],
		    id);
	if (pt->regions_fp == NULL)
		return;
	mond_region_clear(pt);
	for (j = 0; j < pt->nqi; j++)
		if (pt->dims[j].h == NULL)
			for (i = 0; i < pt->node.n; i++)
				mond_region_add(pt, j, pt->rec[(pt->node.b +
				    i) * pt->rec_words + j], 1);
	mond_region(pt, id, pt->node.n, pt->sums);
}

/* Orders the dimensions by normalized width, widest first. */
int
mond_cmp_width(struct part *pt, uint32_t a, uint32_t b, const void *ctx)
{
	(void)ctx;
	if (pt->node.width[a] != pt->node.width[b])
		return pt->node.width[a] > pt->node.width[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* A new tree node. */
size_t
mond_tree_node_new(struct part *pt, uint64_t depth)
{
	if (pt->grow.n == pt->grow.cap) {
		pt->grow.cap = pt->grow.cap ? 2 * pt->grow.cap : 64;
		pt->grow.t =
		    kn_realloc(pt->grow.t, pt->grow.cap * sizeof(struct tnode));
		pt->grow.tcls =
		    kn_realloc(pt->grow.tcls, pt->grow.cap * sizeof(uint32_t));
	}
	pt->grow.tcls[pt->grow.n] = 0;
	memset(&pt->grow.t[pt->grow.n], 0, sizeof(struct tnode));
	pt->grow.t[pt->grow.n].leaf = 1;
	pt->grow.t[pt->grow.n].depth = depth;
	return pt->grow.n++;
}

/* Records the cut c of the node in memory as tree node t's, with m kids
 * created after it. */
static void
record_cut(struct part *pt, size_t t, const struct cut *c)
{
	struct tnode *tn;
	size_t j = c->dim, i, m = 0, k0;
	uint32_t *cid = NULL;

	if (mond_is_hier(pt, j)) {
		sort_dim(pt, j);
		cid = kn_alloc((pt->node.n + 1) * sizeof(uint32_t));
		for (i = 0; i < pt->node.n; i++)
			if (i == 0 ||
			    mond_child_of(pt, j, pt->key[pt->perm[i]]) !=
				mond_child_of(pt, j, pt->key[pt->perm[i - 1]]))
				cid[m++] =
				    mond_child_of(pt, j, pt->key[pt->perm[i]]);
	} else
		m = 2;
	k0 = pt->grow.n;
	for (i = 0; i < m + (cid != NULL); i++)
		mond_tree_node_new(pt, pt->grow.t[t].depth + 1);
	tn = &pt->grow.t[t];
	tn->leaf = 0;
	tn->dim = j;
	tn->kid0 = k0;
	tn->nkid = m + (cid != NULL);
	if (cid != NULL) {
		tn->hier = 1;
		tn->lv = pt->node.lv[j];
		tn->x = pt->node.node[j];
		tn->cid = cid;
	} else if (c->fast)
		tn->thr = c->eqleft == UINT64_MAX ? c->med : c->eqleft ==
		    0 ? c->med - 1 : c->med;
	else {
		sort_dim(pt, j);
		tn->thr = pt->key[pt->perm[c->L - 1]] + pt->node.mn[j];
	}
	if (pt->keyed && cid == NULL && pt->dims[j].h == NULL)
		/* A sample's ranks are its own: the key, or below med's. */
		tn->thr = c->fast && c->eqleft == 0 ?
		    pt->dims[j].lkey[c->med] - 1 : pt->dims[j].lkey[tn->thr];
	pt->grow.leaves += tn->nkid - 1;
}

void
mond_no_solution(const char *name, uint64_t n)
{
	kn_warn("%s%sno partitioning: the whole table (%llu rows) does not "
	    "meet the requirements", name != NULL ? name : "",
	    name != NULL ? ": " : "", (unsigned long long)n);
	kn_exit(1);
}

void
mond_scratch_rows(struct part *pt, size_t m)
{
	pt->rec_tmp = kn_alloc_large(m * pt->rec_words * sizeof(uint32_t));
	pt->key = kn_alloc_large(m * sizeof(uint32_t));
	pt->perm = kn_alloc_large(m * sizeof(uint32_t));
	pt->perm_tmp = kn_alloc_large(m * sizeof(uint32_t));
	pt->grp = kn_alloc_large(m * sizeof(uint32_t));
	pt->cnt = kn_alloc_large(2 * m * sizeof(uint32_t));
}

/* Allocates the scratch of mond_partition() for the nrows rows in rec, or
 * frees it with the rows. */
void
mond_scratch_alloc(struct part *pt, int get)
{
	if (get) {
		mond_scratch_rows(pt, pt->nrows + 1);
		return;
	}
	free(pt->rec);
	free(pt->rec_tmp);
	free(pt->key);
	free(pt->perm);
	free(pt->perm_tmp);
	free(pt->grp);
	free(pt->cnt);
	pt->rec = NULL;
}

/* Partitions all rows: Figure 7 of paper 003 with an explicit stack. */
void
mond_partition(struct part *pt)
{
	uint32_t *ord = kn_alloc((2 * pt->nqi + 1) * sizeof(uint32_t));

	if (pt->nrows == 0) {
		free(ord);
		return;
	}
	mond_node_totals(pt, 0, pt->nrows, NULL);
	memcpy(ord, pt->node.mn, pt->nqi * sizeof(uint32_t));
	memcpy(ord + pt->nqi, pt->node.mx, pt->nqi * sizeof(uint32_t));
	mond_stack_push(pt, 0, pt->nrows, ord);
	mond_node_clear_totals(pt);
	if (pt->grow.on) {
		pt->grow.stnode =
		    kn_realloc(pt->grow.stnode, 2 * sizeof(size_t));
		pt->grow.stcap = 1;
		pt->grow.stnode[0] = mond_tree_node_new(pt, 0);
		pt->grow.leaves = 1;
	}
	pt->pingpong = !pt->grow.on;
	while (pt->nstack > 0) {
		kn_progress(pt->acct.classed, pt->acct.bread);
		mond_step(pt, ord);
	}
	if (pt->rec_swapped)
		kn_die("internal error: a part's rows left in the scratch");
	pt->pingpong = 0;
	free(ord);
}

/* Takes the node on top of the stack: cuts it, its parts pushed, or
 * makes it a class; ord is scratch of 2 * nqi + 1 codes. */
void
mond_step(struct part *pt, uint32_t *ord)
{
	uint64_t e = pt->stack[--pt->nstack], b = pt->stack[--pt->nstack];
	size_t tn = pt->grow.on ? pt->grow.stnode[pt->nstack / 2] : 0, j;
	struct cut best;

	if ((b & MOND_IN_TMP ? 1 : 0) != pt->rec_swapped)
		rec_swap(pt, 0);
	b &= ~MOND_IN_TMP;
	mond_node_totals(pt, b, e, pt->stack_ext + pt->nstack / 2 * 2 * pt->nqi);
	memset(&best, 0, sizeof(best));
	if (pt->node.n >= 2 * pt->req.k && (!pt->grow.on ||
	    (pt->grow.t[tn].depth < pt->grow.maxdepth &&
	    pt->grow.leaves < pt->grow.maxleaves))) {
		if (pt->split == SPLIT_MEDIAN) {
			for (j = 0; j < pt->nqi; j++) {
				size_t q = j;

				for (; q > 0 && mond_cmp_width(pt, ord[q - 1],
				    (uint32_t)j, NULL) > 0; q--)
					ord[q] = ord[q - 1];
				ord[q] = (uint32_t)j;
			}
			for (j = 0; j < pt->nqi && !best.found; j++) {
				if (!pt->node.can[ord[j]])
					continue;
				if (mond_is_hier(pt, ord[j]))
					eval_hier(pt, ord[j], &best);
				else if (!pt->need_stats)
					select_cut(pt, ord[j], &best);
				else
					eval_median(pt, ord[j], &best);
			}
		} else {
			for (j = 0; j < pt->nqi; j++) {
				if (!pt->node.can[j])
					continue;
				if (mond_is_hier(pt, j))
					eval_hier(pt, j, &best);
				else
					eval_ordered(pt, j, &best);
			}
		}
	}
	if (best.found && pt->grow.on) {
		size_t before = pt->nstack / 2, q, k0;

		record_cut(pt, tn, &best);
		cut_apply(pt, &best);
		/* The kids were pushed last-first: the first on top.  A
		 * hierarchy's "other" kid has no rows here. */
		k0 = pt->grow.t[tn].kid0;
		if (pt->grow.stcap < pt->nstack / 2 + 1) {
			pt->grow.stcap = 2 * (pt->nstack / 2 + 1);
			pt->grow.stnode = kn_realloc(pt->grow.stnode,
			    pt->grow.stcap * sizeof(size_t));
		}
		for (q = before; q < pt->nstack / 2; q++)
			pt->grow.stnode[q] = k0 + (pt->nstack / 2 - 1 - q);
	} else if (best.found) {
		pt->ncuts++;
		cut_apply(pt, &best);
	} else if (!pt->grow.on)
		make_class(pt);
	else if (pt->grow.full) {
		make_class(pt);
		pt->grow.tcls[tn] = pt->nclasses;
	}
	mond_node_clear_totals(pt);
}

int
mond_cmp_u64pair(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Ranks the distinct values of a numeric column spooled as ids, and
 * frees the dictionary. */
static void
rank_ids(struct part *pt, struct dim *dm)
{
	struct numdict *vd = &dm->vd;
	size_t n = vd->n, i, m;
	uint64_t *pr;
	uint32_t missing = UINT32_MAX, base;
	int S = 0;

	free(vd->slot);
	vd->slot = NULL;
	for (i = 0, S = dm->fS; i < n; i++)
		if (vd->sc[i] > S)
			S = vd->sc[i];
	/* (value with its sign bit flipped, id), sorted: the ranks. */
	pr = kn_alloc((n + 1) * 2 * sizeof(uint64_t));
	for (i = 0, m = 0; i < n; i++) {
		int64_t v;

		if (vd->sc[i] < 0) {
			missing = (uint32_t)i;	/* rank 0 */
			continue;
		}
		if (__builtin_mul_overflow(vd->m[i],
		    (int64_t)kn_pow10(S - vd->sc[i]), &v))
			kn_die("%s: column '%s': the values do not fit 64 "
			       "bits with %d decimals each",
			    pt->inname, dm->name, S);
		pr[2 * m] = (uint64_t)v ^ ((uint64_t)1 << 63);
		pr[2 * m + 1] = i;
		m++;
	}
	free(vd->m);
	free(vd->sc);
	vd->m = NULL;
	vd->sc = NULL;
	qsort(pr, m, 2 * sizeof(uint64_t), mond_cmp_u64pair);
	dm->S = S;
	dm->miss = missing != UINT32_MAX;
	base = dm->miss != 0;
	dm->nrank = (uint32_t)n;
	dm->rankof = kn_alloc((n + 1) * sizeof(uint32_t));
	dm->vals = kn_alloc((n + 2) * sizeof(int64_t));
	for (i = 0; i < m; i++) {
		dm->rankof[pr[2 * i + 1]] = (uint32_t)(i + base);
		dm->vals[i + base] = (int64_t)(pr[2 * i] ^ ((uint64_t)1 << 63));
	}
	if (base) {
		dm->rankof[missing] = 0;
		dm->vals[0] = m > 0 ? dm->vals[1] : 0;
	}
	free(pr);
}

/* Out of core the sums are bounded by the largest value, v / 10^sc
 * (the one farthest from 0): the rows' (and one more) squares of it
 * with sens (variance), else the rows' (and one more) times it
 * (regression), must fit 128 bits. */
static void
sums_bound(struct part *pt, kn_i128 v, int sc, int sens, const char *name)
{
	kn_i128 b, mx = v < 0 ? -v : v;
	char w[64];
	int wn = (int)kn_dec_format(v, sc, w);

	if (sens)
		msens_value_bound(name, mx, w, wn, pt->nrows);
	else if (__builtin_mul_overflow(mx, (kn_i128)pt->nrows + 1, &b))
		kn_die("-t %s: values too large for exact sums out of core: "
		    "the largest, '%.*s', times the rows, passes 2^127 "
		    "(kanon(7), Numbers); scale the column down", name, wn, w);
}

/* The first of v[0..n) farthest from 0 (0 if none). */
static kn_i128
abs_max(const kn_i128 *v, size_t n)
{
	kn_i128 mx = 0, r = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if ((v[i] < 0 ? -v[i] : v[i]) > mx) {
			mx = v[i] < 0 ? -v[i] : v[i];
			r = v[i];
		}
	return r;
}

/* Once the rows are spooled, keyed column j, a sensitive column's (by
 * hash or number) or the target (mondrian.h): its scale, and the bound
 * on its sums that the values of a dictionary are checked against. */
static void
keyed_prepare(struct part *pt, size_t j)
{
	struct dim *dm = &pt->dims[j];
	int sens = j < pt->nqi + pt->nskd;

	if (dm->sc_ovf)
		kn_die("%s: column '%s': the values do not fit 64 bits with %d "
		    "decimals each, as %s takes them out of core (-S): run in "
		    "memory (-a memory), or round them", pt->inname, dm->name,
		    dm->sc_now, sens ? "--variance" : "--split regression");
	numkey_finish(pt, dm);
	if (j < pt->nqi + pt->nshd || (pt->sens_hkey && sens))
		return;		/* hashes, never summed */
	if (sens && pt->msvar)
		pt->svF[j - pt->nqi - pt->nshd] = dm->S;
	else if (sens)
		pt->sens_F = dm->S;
	else
		pt->targ_F = dm->S;
	sums_bound(pt, dm->kmx >= -(kn_i128)dm->kmn ? dm->kmx : dm->kmn, dm->S,
	    sens, dm->name);
}

/* Once the rows are read: codes for the values, exact scales for the
 * sums, and the scratch of the nodes. */
void
mond_prepare(struct part *pt, const char *scol, const char *tcol)
{
	size_t i, j;

	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j];

		if (dm->h != NULL) {
			if (dm->dfsrank == NULL)
				mond_prepare_hier(dm);
			for (i = 0; i < pt->nrows && !pt->ooc; i++)
				pt->rec[i * pt->rec_words + j] =
				    dm->dfsrank[pt->rec[i * pt->rec_words + j]];
		} else if (pt->keyed)
			numkey_finish(pt, dm);
		else if (pt->ooc)
			rank_ids(pt, dm);
	}
	if (!pt->ooc)
		mond_rank_numbers(pt);
	for (j = pt->nqi; j < pt->nkd; j++)
		keyed_prepare(pt, j);
	if (pt->req.hasv) {
		kn_i128 s = 0, ss = 0;

		for (i = 0; i < pt->sens_dict.n; i++)
			if (__builtin_mul_overflow(pt->sens_val[i],
				kn_pow10(pt->sens_F - pt->sens_scale[i]),
				&pt->sens_val[i])) {
				kn_str w = kn_dict_get(&pt->sens_dict,
				    (uint32_t)i);

				kn_die("-s %s: '%.*s' has too many digits for "
				    "exact variances at the column's largest "
				    "scale, %d decimals (kanon(7), Numbers)",
				    scol, (int)w.n, w.p, pt->sens_F);
			}
		/* The rows on disk: the sums bounded by the largest value. */
		if (pt->ooc && !pt->exact_sums)
			sums_bound(pt, abs_max(pt->sens_val, pt->sens_dict.n),
			    pt->sens_F, 1, scol);
		for (i = 0; i < pt->nrows && !pt->ooc; i++) {
			uint32_t x = pt->rec[i * pt->rec_words +
			    pt->word_sens];
			kn_i128 v = pt->sens_val[x], a = v < 0 ? -v : v;

			if (__builtin_add_overflow(s, a, &s) ||
			    __builtin_mul_overflow(v, v, &v) ||
			    __builtin_add_overflow(ss, v, &ss))
				msens_sums_die(scol,
				    kn_dict_get(&pt->sens_dict, x), i,
				    pt->sens_F);
		}
	}

	if (pt->split == SPLIT_INFOGAIN) {
		/* Labels numbered in byte order, so that scores are summed
		 * in an order that does not depend on the rows'. */
		uint32_t *rk = kn_dict_ranks(&pt->targ_dict);

		for (i = 0; i < pt->nrows && !pt->ooc; i++)
			pt->rec[i * pt->rec_words + pt->word_targ] =
			    rk[pt->rec[i * pt->rec_words + pt->word_targ]];
		/* By hash (targ_hashed), a node's own ids (rothko.c). */
		if (pt->ooc && !pt->targ_hashed)
			pt->label_rank = rk;
		else
			free(rk);
		/* c ln c of the counts below xlx_n from a table, the others
		 * computed (the same integers): out of core the table takes
		 * an eighth of -S at most, counted with the dictionaries
		 * (mond_dicts_bytes). */
		pt->xlx_n = pt->nrows + 1 < ((size_t)1 << 20) ? pt->nrows + 1
							      : (size_t)1 << 20;
		if (pt->ooc && pt->budget != 0 &&
		    pt->xlx_n > pt->budget / 8 / sizeof(kn_i128))
			pt->xlx_n = pt->budget / 8 / sizeof(kn_i128);
		pt->xlx_tab = kn_alloc(pt->xlx_n * sizeof(kn_i128));
		for (i = 0; i < pt->xlx_n; i++)
			pt->xlx_tab[i] = i < 2 ? 0 : (kn_i128)llroundl(
			    (long double)i * logl((long double)i) *
			    4294967296.0L);
	}
	/* kn_xlx62 of small counts, for entropy's sure verdicts (side_ok,
	 * kn_ldiv_ok_any): 64 KiB at most, counted with the dictionaries;
	 * out of core within -S, what the budget leaves once the rest is
	 * counted (partition.c, cluster.c's cuts job). */
	if (!pt->ooc || pt->budget == 0)
		kn_ldiv_table(&pt->req.ld, pt->nrows, SIZE_MAX);
	if (pt->split == SPLIT_REGRESSION) {
		kn_i128 s = 0;

		for (i = 0; i < pt->targ_dict.n; i++)
			if (__builtin_mul_overflow(pt->targ_val[i],
				kn_pow10(pt->targ_F - pt->targ_scale[i]),
				&pt->targ_val[i]))
				kn_die("-t %s: too many digits for exact sums",
				    tcol);
		if (pt->ooc && !pt->exact_sums)
			sums_bound(pt, abs_max(pt->targ_val, pt->targ_dict.n),
			    pt->targ_F, 0, tcol);
		for (i = 0; i < pt->nrows && !pt->ooc; i++) {
			uint32_t x = pt->rec[i * pt->rec_words + pt->word_targ];
			kn_i128 v = pt->targ_val[x];
			kn_str w;

			if (!__builtin_add_overflow(s, v < 0 ? -v : v, &s))
				continue;
			w = kn_dict_get(&pt->targ_dict, x);
			kn_die("-t %s: values too large for exact sums: with "
			    "'%.*s', of data row %zu, the sum of the absolute "
			    "values passes 2^127 (kanon(7), Numbers); scale the "
			    "column down", tcol, (int)w.n, w.p, i + 1);
		}
	}

	/* Scratch for the nodes. */
	if (!pt->ooc) {
		mond_scratch_alloc(pt, 1);
		pt->row_class = kn_alloc_large((pt->nrows + 1) *
		    sizeof(uint32_t));
	}
	pt->hs_tot = kn_zalloc((pt->sens_dict.n + 1) * sizeof(uint64_t));
	pt->hs_side = kn_zalloc((pt->sens_dict.n + 1) * sizeof(uint64_t));
	pt->hs_side2 = kn_zalloc((pt->sens_dict.n + 1) * sizeof(uint64_t));
	pt->gath = kn_zalloc((pt->sens_dict.n + 1) * sizeof(uint64_t));
	pt->stouch = kn_alloc((pt->sens_dict.n + 1) * sizeof(uint32_t));
	pt->hl_tot = kn_zalloc((pt->targ_dict.n + 1) * sizeof(uint64_t));
	pt->hl_side = kn_zalloc((pt->targ_dict.n + 1) * sizeof(uint64_t));
	pt->ltouch = kn_alloc((pt->targ_dict.n + 1) * sizeof(uint32_t));
	pt->node.mn = kn_alloc((pt->nqi + 1) * sizeof(uint32_t));
	pt->node.mx = kn_alloc((pt->nqi + 1) * sizeof(uint32_t));
	pt->node.lv = kn_alloc((pt->nqi + 1) * sizeof(int));
	pt->node.node = kn_alloc((pt->nqi + 1) * sizeof(uint32_t));
	pt->node.width = kn_alloc((pt->nqi + 1) * sizeof(long double));
	pt->node.can = kn_alloc((pt->nqi + 1) * sizeof(int));
	pt->sums = kn_alloc((pt->nqi + 1) * sizeof(kn_i128));
	pt->nmiss = kn_zalloc((pt->nqi + 1) * sizeof(uint64_t));
	pt->mnp = kn_zalloc((pt->nqi + 1) * sizeof(uint32_t));
}
