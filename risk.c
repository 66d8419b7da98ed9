/*
 * risk.c: the re-identification risk of a release, as the field names
 * and measures it (score --risk; score(1), Risk, gives each formula and
 * its source).  A release is a sample of n rows in classes j of f_j
 * rows; with a population table (--population), F_j is the number of
 * the population's rows in class j.
 *
 * Prosecutor risk (the attacker knows the person is in the release):
 * 1/f_j; journalist risk (the attacker matches against the population):
 * 1/F_j; marketer risk (the share of rows an attacker who matches every
 * row re-identifies): sum(f_j/F_j)/n (El Emam and Dankar, JAMIA 2008;
 * Dankar and El Emam, 2010).  Sample uniques: rows with f_j = 1.
 * Population uniques estimated from the sample and the sampling
 * fraction by Zayatz's model (Zayatz, "Estimation of the number of
 * unique population elements using a sample", 1991), as ARX offers it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "risk.h"

void
risk_init(risk_ctx *r, uint64_t thresh, double pi)
{
	memset(r, 0, sizeof(*r));
	r->thresh = thresh;
	r->pi = pi;
}

/* Parses a count of the population's frequency set. */
static uint64_t
risk_count(const kn_table *t, size_t col)
{
	kn_str f = t->f[col];
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < f.n; i++)
		if (f.p[i] < '0' || f.p[i] > '9' ||
		    __builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(f.p[i] - '0'), &v))
			break;
	if (f.n == 0 || i < f.n)
		kn_table_fail(t, col, "'%.*s' is not a count (an integer from "
		    "0 to 2^64-1)", (int)f.n, f.p);
	return v;
}

/* The check of a row of the population as it is counted: its count,
 * and the population's rows within 64 bits. */
static void
pop_row(const kn_table *t, void *ctx)
{
	risk_ctx *r = ctx;

	if (__builtin_add_overflow(r->prows, risk_count(t, r->pcntcol),
	    &r->prows))
		kn_table_fail(t, r->pcntcol, "the population's rows overflow "
		    "64 bits");
}

/* A group of the population's frequency set, in order: to the file of
 * the groups, its labels each followed by a tab, then its count. */
static void
pop_group(const kn_fsrow *g, void *ctx)
{
	risk_ctx *r = ctx;
	size_t c;

	for (c = 0; c < r->nq; c++) {
		fwrite(g->key[c].p, 1, g->key[c].n, r->pf);
		putc('\t', r->pf);
	}
	kn_put_u64(r->pf, g->cnt);
	putc('\n', r->pf);
}

/* Reads the next group of the population: its key (the labels, each
 * followed by a tab) in r->pline[0..r->pklen), its count in r->pF. */
static void
pop_next(risk_ctx *r)
{
	ssize_t n = getline(&r->pline, &r->plcap, r->pf);
	size_t i, c = 0;

	if (n < 0) {
		if (ferror(r->pf))
			kn_die_sys("%s", r->ptmp);
		r->peof = 1;
		return;
	}
	for (i = 0; c < r->nq && i < (size_t)n; i++)
		c += r->pline[i] == '\t';
	r->pklen = i;
	for (r->pF = 0; i < (size_t)n && r->pline[i] != '\n'; i++)
		r->pF = r->pF * 10 + (uint64_t)(r->pline[i] - '0');
}

void
risk_population(risk_ctx *r, const char *path, char *const *names,
    size_t nq, size_t budget, const char *tmpdir)
{
	kn_table t;
	char *paths[1];
	size_t *col, cnt, c, q;
	kn_dict *dict;
	kn_countspec cs;

	r->ppath = path;
	r->nq = nq;
	paths[0] = (char *)path;
	kn_table_open_tsv(&t, paths, 1, NULL);
	cnt = kn_table_countcol(&t, "--population");
	col = kn_alloc((nq + 1) * sizeof(size_t));
	for (q = 0; q < nq; q++) {
		for (c = 0; c < cnt && strcmp(t.names[c], names[q]) != 0; c++)
			;
		if (c == cnt)
			kn_die("%s: the population's frequency set has no "
			    "column '%s': its columns before 'count' must be "
			    "the release's quasi-identifiers (-q)", path,
			    names[q]);
		col[q] = c;
	}
	if (cnt != nq)
		for (c = 0; c < cnt; c++) {
			for (q = 0; q < nq && col[q] != c; q++)
				;
			if (q == nq)
				kn_die("%s: column '%s' of the population's "
				    "frequency set is not a quasi-identifier of "
				    "the release (-q): the population must be "
				    "counted over the same columns", path,
				    t.names[c]);
		}
	/* Its groups, counted within the budget and in the order of the
	 * release's classes, to a temp file that risk_class reads along. */
	dict = kn_alloc((nq + 1) * sizeof(kn_dict));
	for (q = 0; q < nq; q++)
		kn_dict_init(&dict[q]);
	memset(&cs, 0, sizeof(cs));
	cs.d = nq;
	cs.key = col;
	cs.dict = dict;
	cs.hascount = 1;
	cs.cntcol = cnt;
	cs.row = pop_row;
	cs.rowctx = r;
	r->pcntcol = cnt;
	r->ptmp = kn_tmp_new(tmpdir);
	if ((r->pf = kn_tmp_open(r->ptmp, "wb")) == NULL)
		kn_die_sys("%s", r->ptmp);
	kn_freq(&t, &cs, NULL, budget, tmpdir, pop_group, r, NULL);
	if (fflush(r->pf) == EOF || ferror(r->pf) || fclose(r->pf) == EOF)
		kn_die_sys("%s: write error", r->ptmp);
	if ((r->pf = kn_tmp_open(r->ptmp, "rb")) == NULL)
		kn_die_sys("%s", r->ptmp);
	pop_next(r);
	for (q = 0; q < nq; q++)
		kn_dict_free(&dict[q]);
	free(dict);
	kn_table_free(&t);
	free(col);
}

/* The population's rows in the class whose key is key[0..len): the
 * classes come in increasing order of their keys, as the groups of the
 * population's file do, so the file is read along with them. */
static uint64_t
pop_find(risk_ctx *r, const char *key, size_t len)
{
	int c = 1;

	while (!r->peof) {
		size_t m = r->pklen < len ? r->pklen : len;

		c = memcmp(r->pline, key, m);
		if (c == 0)
			c = (r->pklen > len) - (r->pklen < len);
		if (c >= 0)
			break;
		pop_next(r);
	}
	return !r->peof && c == 0 ? r->pF : 0;
}

void
risk_class(risk_ctx *r, const char *key, size_t len, uint64_t n)
{
	uint64_t F;

	r->rows += n;
	r->classes++;
	if (n < RISK_SMALL)
		r->small[n]++;
	else {
		if (r->nbig == r->bigcap) {
			r->bigcap = r->bigcap ? 2 * r->bigcap : 64;
			r->big = kn_realloc(r->big, r->bigcap * sizeof(uint64_t));
		}
		r->big[r->nbig++] = n;
	}
	if (r->ppath == NULL)
		return;
	F = pop_find(r, key, len);
	if (F < n) {
		/* The labels joined by ", ", as a class is named. */
		char *lab = kn_alloc(2 * len + 1);
		size_t i, m = 0;

		for (i = 0; i + 1 < len; i++)
			if (key[i] == '\t') {
				lab[m++] = ',';
				lab[m++] = ' ';
			} else
				lab[m++] = key[i];
		lab[m] = '\0';
		kn_die("%s: the class '%s' has %llu row%s in the release "
		    "but %llu in the population: the population must be "
		    "counted over the released values, from a table that "
		    "holds the release", r->ppath, lab, (unsigned long long)n,
		    n == 1 ? "" : "s", (unsigned long long)F);
	}
	if (r->pmin == 0 || F < r->pmin)
		r->pmin = F;
	if (F < r->thresh)
		r->pbelow += n;
	if (F == 1)
		r->puniq++;
	r->msum += (long double)n / F;
}

/* Orders sizes. */
static int
u64_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

void
risk_finish(risk_ctx *r)
{
	size_t i, m = 0;

	for (i = 0; i < RISK_SMALL; i++)
		m += r->small[i] > 0;
	if (r->nbig > 0)
		qsort(r->big, r->nbig, sizeof(uint64_t), u64_cmp);
	for (i = 0; i < r->nbig; i++)
		m += i == 0 || r->big[i] != r->big[i - 1];
	r->fof = kn_alloc((m + 1) * sizeof(risk_fof));
	for (i = 0; i < RISK_SMALL; i++)
		if (r->small[i] > 0) {
			r->fof[r->nfof].size = i;
			r->fof[r->nfof++].classes = r->small[i];
		}
	for (i = 0; i < r->nbig; i++)
		if (i > 0 && r->big[i] == r->big[i - 1])
			r->fof[r->nfof - 1].classes++;
		else {
			r->fof[r->nfof].size = r->big[i];
			r->fof[r->nfof++].classes = 1;
		}
}

/* ln C(a, b). */
static long double
lchoose(long double a, long double b)
{
	return lgammal(a + 1) - lgammal(b + 1) - lgammal(a - b + 1);
}

/* The probability that a sample of n rows drawn without replacement
 * from N rows holds exactly one of the i rows of a class: the
 * hypergeometric i C(N-i, n-1) / C(N, n). */
static long double
hyper1(long double N, long double n, long double i)
{
	if (N - i < n - 1)
		return 0;
	return expl(logl(i) + lchoose(N - i, n - 1) - lchoose(N, n));
}

/*
 * Zayatz (1991), as ARX implements it: the share of the population's
 * classes of size i is taken to be that of the sample's, f_i / u, and
 * the chance that a sample unique comes from a population unique is
 *
 *   P(F=1 | f=1) = f_1 h(1) / sum_i f_i h(i)
 *
 * with h(i) the hypergeometric chance above, N = n / pi; the estimate
 * is f_1 P(F=1 | f=1).
 */
long double
risk_zayatz(const risk_ctx *r)
{
	long double n = (long double)r->rows, N, den = 0, f1;
	size_t i;

	if (r->nfof == 0 || r->fof[0].size != 1)
		return 0;
	N = roundl(n / r->pi);
	if (N < n)
		N = n;
	for (i = 0; i < r->nfof; i++)
		den += (long double)r->fof[i].classes *
		    hyper1(N, n, (long double)r->fof[i].size);
	f1 = (long double)r->fof[0].classes;
	if (den <= 0)
		return 0;
	return f1 * f1 * hyper1(N, n, 1) / den;
}

/* The digamma function psi(x), x > 0: the recurrence up to 10, then
 * the asymptotic series (Abramowitz and Stegun 6.3.5, 6.3.18). */
static long double
digamma(long double x)
{
	long double s = 0, y;

	for (; x < 10; x += 1)
		s -= 1 / x;
	y = 1 / (x * x);
	return s + logl(x) - 0.5L / x - y * (1.0L / 12 - y * (1.0L / 120 -
	    y * (1.0L / 252 - y * (1.0L / 240 - y / 132))));
}

/* The log-likelihood of Pitman's sampling formula for the sample's
 * classes (Hoshino 2001, eq. 3), without its constant:
 *   sum_{i<u} ln(t + i a) - sum_{i<n} ln(t + i)
 *     + sum_j f_j sum_{i<j} ln(i - a)
 * the sums in closed form with lgamma. */
static long double
pitman_ll(const risk_ctx *r, long double t, long double a)
{
	long double u = (long double)r->classes, n = (long double)r->rows;
	long double l;
	size_t i;

	l = (u - 1) * logl(a) + lgammal(t / a + u) - lgammal(t / a + 1) -
	    lgammal(t + n) + lgammal(t + 1);
	for (i = 0; i < r->nfof; i++)
		l += (long double)r->fof[i].classes *
		    (lgammal((long double)r->fof[i].size - a) - lgammal(1 - a));
	return l;
}

/* The theta that maximizes the likelihood for alpha a: the root of
 *   sum_{i<u} 1/(t + i a) = sum_{i<n} 1/(t + i),
 * whose left side is above the right for t near -a and below it for
 * large t; by bisection. */
static long double
pitman_theta(const risk_ctx *r, long double a)
{
	long double u = (long double)r->classes, n = (long double)r->rows;
	long double lo = -a, hi = 1, t, g;
	int it;

	/* g(t) = (psi(t/a + u) - psi(t/a + 1)) / a - psi(t + n) +
	 * psi(t + 1) */
	for (;;) {
		g = (digamma(hi / a + u) - digamma(hi / a + 1)) / a -
		    digamma(hi + n) + digamma(hi + 1);
		if (g < 0 || hi > 1e15L)
			break;
		hi *= 2;
	}
	for (it = 0; it < 200; it++) {
		t = lo + (hi - lo) / 2;
		if (t <= lo || t >= hi)
			break;
		g = (digamma(t / a + u) - digamma(t / a + 1)) / a -
		    digamma(t + n) + digamma(t + 1);
		if (g > 0)
			lo = t;
		else
			hi = t;
	}
	return lo + (hi - lo) / 2;
}

/*
 * Pitman's model (Hoshino, "Applying Pitman's sampling formula to
 * microdata disclosure risk assessment", J. Official Statistics 17,
 * 2001): theta and alpha by maximum likelihood on the sample's class
 * sizes (alpha by golden-section search, theta the root above for each
 * alpha), then the population's uniques
 *   U_N = Gamma(theta + 1) / Gamma(theta + alpha) N^alpha,
 * of which the sample holds pi U_N.  Those are sample uniques: the
 * estimate is at most f_1, which it is taken to be when the model says
 * more (all classes of one row: theta grows without bound) or cannot
 * be fitted (fewer than two classes); 0 when f_1 is.
 */
long double
risk_pitman(const risk_ctx *r)
{
	const long double g = 0.6180339887498948482L;
	long double lo = 1e-9L, hi = 1 - 1e-9L, x1, x2, l1, l2, a, t, N, u;
	long double f1 = (long double)r->small[1];
	int it;

	if (f1 == 0 || r->rows < 2 || r->classes < 2)
		return f1;
	x1 = hi - g * (hi - lo);
	x2 = lo + g * (hi - lo);
	l1 = pitman_ll(r, pitman_theta(r, x1), x1);
	l2 = pitman_ll(r, pitman_theta(r, x2), x2);
	for (it = 0; it < 100 && hi - lo > 1e-12L; it++)
		if (l1 < l2) {
			lo = x1;
			x1 = x2;
			l1 = l2;
			x2 = lo + g * (hi - lo);
			l2 = pitman_ll(r, pitman_theta(r, x2), x2);
		} else {
			hi = x2;
			x2 = x1;
			l2 = l1;
			x1 = hi - g * (hi - lo);
			l1 = pitman_ll(r, pitman_theta(r, x1), x1);
		}
	a = lo + (hi - lo) / 2;
	t = pitman_theta(r, a);
	N = roundl((long double)r->rows / r->pi);
	u = r->pi * expl(lgammal(t + 1) - lgammal(t + a) + a * logl(N));
	return isfinite(u) && u >= 0 && u <= f1 ? u : f1;
}

void
risk_put(const risk_ctx *r, report *rp)
{
	uint64_t su = r->small[1];
	long double n = (long double)r->rows, z;

	report_put(rp, "sample_uniques", "%llu", (unsigned long long)su);
	report_put(rp, "sample_uniqueness", "%.10Lg", n > 0 ? su / n : 0.0L);
	if (r->ppath != NULL) {
		report_put(rp, "population_rows", "%llu",
		    (unsigned long long)r->prows);
		report_put(rp, "journalist_risk_max", "%.10Lg", r->pmin ?
		    1.0L / r->pmin : 0.0L);
		report_put(rp, "journalist_rows_below_threshold", "%llu",
		    (unsigned long long)r->pbelow);
		report_put(rp, "journalist_share_below_threshold", "%.10Lg",
		    n > 0 ? r->pbelow / n : 0.0L);
		report_put(rp, "marketer_risk", "%.10Lg", n > 0 ?
		    r->msum / n : 0.0L);
		report_put(rp, "population_uniques", "%llu",
		    (unsigned long long)r->puniq);
		report_put(rp, "population_uniqueness", "%.10Lg", n > 0 ?
		    r->puniq / n : 0.0L);
	}
	if (r->pi > 0) {
		z = risk_zayatz(r);
		report_put(rp, "sampling_fraction", "%.10g", r->pi);
		report_put(rp, "zayatz_population_uniques", "%.10Lg", z);
		report_put(rp, "zayatz_population_uniqueness", "%.10Lg",
		    n > 0 ? z / n : 0.0L);
		/* Six digits: the fit is flat near its optimum, and the
		 * digits after the eighth came out differently on AMD and
		 * Intel CPUs (the x87's logarithm and exponential). */
		z = risk_pitman(r);
		report_put(rp, "pitman_population_uniques", "%.6Lg", z);
		report_put(rp, "pitman_population_uniqueness", "%.6Lg",
		    n > 0 ? z / n : 0.0L);
	}
}

void
risk_free(risk_ctx *r)
{
	free(r->big);
	free(r->fof);
	free(r->pline);
	if (r->pf != NULL) {
		fclose(r->pf);
		kn_tmp_close(r->ptmp);
	}
}
