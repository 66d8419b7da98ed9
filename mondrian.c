/*
 * partition: Mondrian multidimensional partitioning, in memory or out
 * of core (Rothko-T and Rothko-S).
 *
 * Greedy top-down partitioning of the quasi-identifier space (paper 003
 * §4, Figure 7): a partition is cut in two while an allowable cut
 * exists, so the result is a minimal strict partitioning (003 §2.3);
 * under k alone with numeric columns no class then holds more than
 * 2d(k-1)+m rows (003 Theorem 4).  Relaxed
 * partitioning (003 §3, §4) may divide the rows that share the median,
 * so classes hold at most 2k-1 rows (003 Theorem 5).
 *
 * Numeric columns are cut at a threshold; a column with a hierarchy is
 * cut by specializing its node into the children (paper 004 §1.2,
 * Figures 1-2).  The cut is chosen by the median of the widest
 * normalized dimension, by information gain on a class label, or by
 * the squared error of a numeric target (004 §1.2).  A cut is allowable
 * when every part meets every requirement: k, l-diversity (distinct,
 * entropy, recursive (c,l)) and variance diversity (004 §1.1).
 *
 * Unlike implementations that try the median only, every cut position
 * of a dimension is considered (the allowable one nearest the median is
 * taken), so a class is final only when no allowable cut is left.
 *
 * Output: the input rows, unchanged and in order, with the class
 * appended; with -r, the regions: per class its count and per QI the
 * min, max and mean (numeric) or the hierarchy node (the lowest common
 * ancestor of its values).  The regions file is renamed into place
 * before the first byte of the table is written, so a reader of the
 * table may open it as soon as it has read the header.
 *
 * Out of core (-S, -a): the rows are spooled once as fixed-width binary
 * records of dictionary codes.  Rothko-T (paper 004 §2) grows the tree
 * level by level from frequency groups counted in scans (FCACHE nodes
 * per scan), repartitions the rows across its leaves, and partitions a
 * node in memory once it fits: the same output as in memory.  Rothko-S
 * (004 §3) grows a tree on a sample, making a cut when the hypothesis
 * tests of hypo.c (004 §3.1) reject "not allowable", repartitions while
 * counting population statistics, and merges back any subtree with a
 * part that fails a requirement: every class meets every requirement
 * whatever the sample.
 */
#include <sys/wait.h>

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cluster.h"
#include "hypo.h"
#include "kanon.h"

static void __attribute__((noreturn))
usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: partition -q columns [-k k] [-s column [-l l "
	    "[--diversity distinct|entropy|recursive]\n"
	    "                 [-c c]] [--variance v]] [-t column] "
	    "[--split median|infogain|regression]\n"
	    "                 [--relaxed] [-H attr=spec|dir] "
	    "[--numeric columns] [--class-col name]\n"
	    "                 [-r file] [-o file] [-a memory|rothko-t|rothko-s] "
	    "[-S size]\n"
	    "                 [--fit-rows n] [--sample n] [--seed n] "
	    "[--alpha a] [--naive] [--fcache n]\n"
	    "                 [-T dir]\n"
	    "                 [-v] [--columns list | --columns-file file] [--skip-header]\n"
	    "                 [--progress] [file]\n"
	    "       partition --version\n");
	exit(status);
}

enum { OPT_ALPHA = 256, OPT_CLASSCOL, OPT_DIV,
    OPT_FCACHE, OPT_FITROWS, OPT_JOB, OPT_NAIVE, OPT_TREE, OPT_NUMERIC, OPT_SAMPLE, OPT_SEED,
    OPT_PROGRESS, OPT_RELAXED, OPT_SPLIT, OPT_VAR, OPT_VERSION };

static const struct option longopts[] = {
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "class-col", required_argument, NULL, OPT_CLASSCOL },
	KN_TABLE_OPTIONS,
	{ "diversity", required_argument, NULL, OPT_DIV },
	{ "fcache", required_argument, NULL, OPT_FCACHE },
	{ "fit-rows", required_argument, NULL, OPT_FITROWS },
	{ "help", no_argument, NULL, 'h' },
	{ "job", required_argument, NULL, OPT_JOB },
	{ "naive", no_argument, NULL, OPT_NAIVE },
	{ "numeric", required_argument, NULL, OPT_NUMERIC },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "relaxed", no_argument, NULL, OPT_RELAXED },
	{ "sample", required_argument, NULL, OPT_SAMPLE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "split", required_argument, NULL, OPT_SPLIT },
	{ "tree", required_argument, NULL, OPT_TREE },
	{ "variance", required_argument, NULL, OPT_VAR },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};



/* Out of core (Rothko-T, paper 004 §2): the rows are spooled once as
 * binary records of W words, the numbers as ids of their distinct
 * values, and read back in chunks. */
#define CHUNK 4096





/* ---- loading -------------------------------------------------------- */

/* Parses a decimal number into m / 10^sc with m in 64 bits (signed)
 * and no trailing fractional zeros; 0 if s is not one. */
static int
parse_num(const char *s, size_t n, int64_t *m, int *sc)
{
	size_t i = 0, nd = 0;
	uint64_t v = 0;
	int neg = 0, frac = -1;

	if (memchr(s, '.', n) != NULL)
		while (n > 0 && s[n - 1] == '0')
			n--;
	if (n > 0 && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		i++;
	}
	for (; i < n; i++) {
		if (s[i] == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (s[i] < '0' || s[i] > '9')
			return 0;
		if (v > (UINT64_MAX - 9) / 10 || v * 10 + (uint64_t)(s[i] -
		    '0') > (uint64_t)INT64_MAX)
			return 0;
		v = v * 10 + (uint64_t)(s[i] - '0');
		nd++;
		if (frac >= 0)
			frac++;
	}
	if (nd == 0)
		return 0;
	if (frac < 0)
		frac = 0;
	while (frac > 0 && v % 10 == 0) {
		v /= 10;
		frac--;
	}
	if (frac > 18)
		return 0;
	*m = neg ? -(int64_t)v : (int64_t)v;
	*sc = frac;
	return 1;
}

/* Ranks the values of a numeric column: brings them to the column's
 * scale and sorts (value, row) pairs by a radix sort on the value. */
static void
rank_numeric(struct part *pt, struct dim *dm, size_t j)
{
	uint64_t *a, *b, *t, mn = UINT64_MAX, mx = 0;
	uint32_t *ra, *rb, *rt, r = 0;
	size_t i;
	int S = 0, sh;

	for (i = 0, S = dm->fS; i < pt->nrows; i++)
		if (dm->rsc[i] > S)
			S = dm->rsc[i];
	dm->S = S;
	a = kn_alloc((pt->nrows + 1) * sizeof(uint64_t));
	b = kn_alloc((pt->nrows + 1) * sizeof(uint64_t));
	ra = kn_alloc((pt->nrows + 1) * sizeof(uint32_t));
	rb = kn_alloc((pt->nrows + 1) * sizeof(uint32_t));
	for (i = 0; i < pt->nrows; i++) {
		int64_t v;

		if (__builtin_mul_overflow(dm->raw[i],
		    (int64_t)kn_pow10(S - dm->rsc[i]), &v))
			kn_die("%s: column '%s': the values do not fit 64 "
			    "bits with %d decimals each", pt->inname, dm->name, S);
		a[i] = (uint64_t)v ^ ((uint64_t)1 << 63);
		ra[i] = (uint32_t)i;
		if (a[i] < mn)
			mn = a[i];
		if (a[i] > mx)
			mx = a[i];
	}
	free(dm->raw);
	free(dm->rsc);
	dm->raw = NULL;
	dm->rsc = NULL;
	if (pt->nrows > 0 && mx - mn < 4 * (uint64_t)pt->nrows + 65536) {
		/* A dense range: ranks by a table of the values present. */
		uint32_t *tab = kn_zalloc((size_t)(mx - mn + 2) *
		    sizeof(uint32_t));
		uint64_t v;

		for (i = 0; i < pt->nrows; i++)
			tab[a[i] - mn] = 1;
		dm->vals = kn_alloc((pt->nrows + 1) * sizeof(int64_t));
		for (v = 0; v <= mx - mn; v++)
			if (tab[v]) {
				dm->vals[r] = (int64_t)((v + mn) ^
				    ((uint64_t)1 << 63));
				tab[v] = r++;
			}
		for (i = 0; i < pt->nrows; i++)
			pt->rec[i * pt->rec_words + j] = tab[a[i] - mn];
		free(tab);
		dm->nrank = r;
		goto done;
	}
	for (sh = 0; sh < 64 && pt->nrows > 0 && ((mx - mn) >> sh) != 0; sh += 11) {
		uint32_t *c = kn_zalloc((2048 + 1) * sizeof(uint32_t));

		for (i = 0; i < pt->nrows; i++)
			c[(((a[i] - mn) >> sh) & 0x7ff) + 1]++;
		for (i = 1; i <= 2048; i++)
			c[i] += c[i - 1];
		for (i = 0; i < pt->nrows; i++) {
			size_t p = c[((a[i] - mn) >> sh) & 0x7ff]++;

			b[p] = a[i];
			rb[p] = ra[i];
		}
		free(c);
		t = a, a = b, b = t;
		rt = ra, ra = rb, rb = rt;
	}
	dm->vals = kn_alloc((pt->nrows + 1) * sizeof(int64_t));
	for (i = 0; i < pt->nrows; i++) {
		if (i > 0 && a[i] != a[i - 1])
			r++;
		if (i == 0 || a[i] != a[i - 1])
			dm->vals[r] = (int64_t)(a[i] ^ ((uint64_t)1 << 63));
		pt->rec[(size_t)ra[i] * pt->rec_words + j] = r;
	}
	dm->nrank = pt->nrows > 0 ? r + 1 : 0;
done:
	dm->vals = kn_realloc(dm->vals, (dm->nrank + 1) * sizeof(int64_t));
	free(a);
	free(b);
	free(ra);
	free(rb);
}

/* Orders leaves depth-first: by their ancestors from the top down. */
static int
cmp_dfs(uint32_t a, uint32_t b, const void *ctx)
{
	const struct dim *dm = ctx;
	int l;

	for (l = dm->nl - 1; l >= 1; l--)
		if (dm->anc[l][a] != dm->anc[l][b])
			return dm->anc[l][a] < dm->anc[l][b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Builds the ancestors, leaf counts and depth-first codes of a
 * hierarchy once all values are known. */
static void
prepare_hier(struct dim *dm)
{
	kn_hier *h = dm->h;
	size_t nleaves = h->lab[0].n, i;
	int l;

	dm->nl = h->nlevels;
	dm->anc = kn_alloc(((size_t)dm->nl + 1) * sizeof(uint32_t *));
	dm->nleaf = kn_alloc(((size_t)dm->nl + 1) * sizeof(uint32_t *));
	dm->anc[0] = kn_alloc((nleaves + 1) * sizeof(uint32_t));
	for (i = 0; i < nleaves; i++)
		dm->anc[0][i] = (uint32_t)i;
	for (l = 1; l < dm->nl; l++)
		dm->anc[l] = kn_hier_map(h, 0, l);
	for (l = 0; l < dm->nl; l++) {
		dm->nleaf[l] = kn_zalloc((h->lab[l].n + 1) *
		    sizeof(uint32_t));
		for (i = 0; i < nleaves; i++)
			dm->nleaf[l][dm->anc[l][i]]++;
	}
	dm->dfsleaf = kn_alloc((nleaves + 1) * sizeof(uint32_t));
	dm->dfsrank = kn_alloc((nleaves + 1) * sizeof(uint32_t));
	for (i = 0; i < nleaves; i++)
		dm->dfsleaf[i] = (uint32_t)i;
	kn_sort_ids(dm->dfsleaf, nleaves, cmp_dfs, dm);
	for (i = 0; i < nleaves; i++)
		dm->dfsrank[dm->dfsleaf[i]] = (uint32_t)i;
	dm->ncode = (uint32_t)nleaves;
}

static size_t dicts_bytes(struct part *pt);

/* The id of the number m / 10^sc (canonical: no trailing fractional
 * zeros) in a dictionary of distinct numbers, added if new. */
static uint32_t
numdict_id(struct numdict *v, int64_t m, int sc)
{
	uint64_t h;
	size_t i, k;

	if (2 * (v->n + 1) > v->nslot) {
		size_t ns = v->nslot ? 2 * v->nslot : 1024;

		free(v->slot);
		v->slot = kn_zalloc(ns * sizeof(uint32_t));
		v->nslot = ns;
		for (k = 0; k < v->n; k++) {
			h = ((uint64_t)v->m[k] * 0x9e3779b97f4a7c15ULL ^
			    (uint64_t)v->sc[k]) >> 17;
			while (v->slot[h & (ns - 1)] != 0)
				h++;
			v->slot[h & (ns - 1)] = (uint32_t)k + 1;
		}
	}
	h = ((uint64_t)m * 0x9e3779b97f4a7c15ULL ^ (uint64_t)sc) >> 17;
	for (;; h++) {
		i = v->slot[h & (v->nslot - 1)];
		if (i == 0)
			break;
		if (v->m[i - 1] == m && v->sc[i - 1] == sc)
			return (uint32_t)(i - 1);
	}
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 1024;
		v->m = kn_realloc(v->m, v->cap * sizeof(int64_t));
		v->sc = kn_realloc(v->sc, v->cap);
	}
	v->m[v->n] = m;
	v->sc[v->n] = (int8_t)sc;
	v->slot[h & (v->nslot - 1)] = (uint32_t)++v->n;
	return (uint32_t)(v->n - 1);
}

/* Writes the rows in the buffer to the spool, the numbers as the ids
 * of their distinct values. */
static void
flush_chunk(struct part *pt, size_t nb)
{
	size_t i, j;

	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j];

		if (dm->h != NULL)
			continue;
		for (i = 0; i < nb; i++)
			pt->rec[i * pt->rec_words + j] = numdict_id(&dm->vd, dm->raw[i],
			    dm->rsc[i]);
	}
	if (dicts_bytes(pt) + 2 * (size_t)CHUNK * pt->rec_words * sizeof(uint32_t) > pt->budget)
		kn_die("-S %zu: too small: the dictionaries of the values "
		    "outgrow it (%zu bytes at row %llu)", pt->budget,
		    dicts_bytes(pt), (unsigned long long)pt->nrows);
	if (fwrite(pt->rec, pt->rec_words * sizeof(uint32_t), nb, pt->spool) != nb)
		kn_die_sys("%s: write error", pt->spool_path);
	pt->acct.bwritten += nb * pt->rec_words * sizeof(uint32_t);
	pt->spooled += nb;
}

/* The id of value v in dc, added if new; with num, its number goes to
 * (*val)[id] / 10^(*scl)[id] and *F is the largest scale.  0 if num
 * and v is not a number. */
static int
value_id(kn_dict *dc, kn_str v, int num, kn_i128 **val, int **scl, int *F,
    uint32_t *id)
{
	size_t n0 = dc->n;
	kn_i128 m;
	int sc;

	*id = kn_dict_intern(dc, v.p, v.n);
	if (!num || dc->n == n0)
		return 1;
	if (!kn_dec_parse(v.p, v.n, &m, &sc))
		return 0;
	*val = kn_realloc(*val, dc->n * sizeof(kn_i128));
	*scl = kn_realloc(*scl, dc->n * sizeof(int));
	(*val)[*id] = m;
	(*scl)[*id] = sc;
	if (sc > *F)
		*F = sc;
	return 1;
}

/* The id of a sensitive value; of a target. */
static int
sens_id(struct part *pt, kn_str v, uint32_t *id)
{
	return value_id(&pt->sens_dict, v, pt->req.hasv, &pt->sens_val, &pt->sens_scale, &pt->sens_F, id);
}

static int
targ_id(struct part *pt, kn_str v, uint32_t *id)
{
	return value_id(&pt->targ_dict, v, pt->req.split == SPLIT_REGRESSION, &pt->targ_val,
	    &pt->targ_scale, &pt->targ_F, id);
}

/* Reads the table into records. */
static void
load(struct part *pt, kn_table *t, size_t scol, size_t tcol)
{
	size_t cap = 1 << 16, rawcap = 0, j;
	uint32_t *r;
	const char *err;

	if (pt->ooc)
		cap = CHUNK;
	pt->rec = kn_alloc(cap * pt->rec_words * sizeof(uint32_t));
	while (kn_table_next(t)) {
		size_t b = pt->nrows - pt->spooled;

		if ((t->rows & 0xffff) == 0)
			kn_progress(t->rows, t->r.bytes);
		if (pt->ooc && b == CHUNK) {
			flush_chunk(pt, b);
			b = 0;
		}
		if (b == cap) {
			cap *= 2;
			pt->rec = kn_realloc(pt->rec, cap * pt->rec_words * sizeof(uint32_t));
		}
		if (b == rawcap) {
			rawcap = cap;
			for (j = 0; j < pt->nqi; j++) {
				if (pt->dims[j].h != NULL)
					continue;
				pt->dims[j].raw = kn_realloc(pt->dims[j].raw,
				    rawcap * sizeof(int64_t));
				pt->dims[j].rsc = kn_realloc(pt->dims[j].rsc, rawcap);
			}
		}
		if (pt->nrows >= UINT32_MAX - 1)
			kn_die("%s: more than %u rows are not supported",
			    t->r.name, UINT32_MAX - 2);
		r = pt->rec + b * pt->rec_words;
		for (j = 0; j < pt->nqi; j++) {
			struct dim *dm = &pt->dims[j];
			kn_str v = t->f[dm->col];

			if (dm->h != NULL) {
				int64_t id = kn_hier_leaf(dm->h, v.p, v.n,
				    &err);

				if (id < 0)
					kn_table_fail(t, dm->col, "'%.*s': %s",
					    (int)v.n, v.p, err);
				r[j] = (uint32_t)id;
			} else {
				int64_t m;
				int sc;

				if (!parse_num(v.p, v.n, &m, &sc))
					kn_table_fail(t, dm->col, "'%.*s' is not a "
					    "decimal number within 64 bits (a "
					    "column with a hierarchy (-H) need not "
					    "be one)", (int)v.n, v.p);
				dm->raw[b] = m;
				dm->rsc[b] = (int8_t)sc;
				r[j] = 0;
			}
		}
		r[pt->word_row] = (uint32_t)pt->nrows;
		if (pt->has_sens && !sens_id(pt, t->f[scol], &r[pt->word_sens]))
			kn_table_fail(t, scol, "'%.*s' is not a number "
			    "(--variance)", (int)t->f[scol].n, t->f[scol].p);
		if (pt->has_targ && !targ_id(pt, t->f[tcol], &r[pt->word_targ]))
			kn_table_fail(t, tcol, "'%.*s' is not a number (--split "
			    "regression)", (int)t->f[tcol].n, t->f[tcol].p);
		pt->nrows++;
	}
	if (pt->ooc)
		flush_chunk(pt, pt->nrows - pt->spooled);
	kn_progress_done();
}

/* ---- the partitioning ----------------------------------------------- */

/* c ln c in fixed point (units of 2^-32): integers, so that sums of
 * them are exact and do not depend on the order they are added in. */
static kn_i128
xlxf(struct part *pt, uint64_t c)
{
	if (c < pt->xlx_n)
		return pt->xlx_tab[c];
	return (kn_i128)llroundl((long double)c * logl((long double)c) *
	    4294967296.0L);
}

/* A regression score term: (sum of the target)^2 / n. */
static long double
sq_n(kn_i128 ts, uint64_t n)
{
	long double t = (long double)ts;

	return t * t / (long double)n;
}


static int side_ok(struct part *pt, const struct side *sd, const uint64_t *hist,
    int compl);

/* Whether a part of n rows, its sensitive values summing to s with
 * squares ss, meets k and variance diversity. */
static int
k_var_ok(struct part *pt, uint64_t n, kn_i128 s, kn_i128 ss)
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
static int
gath_ok(struct part *pt, size_t m, uint64_t n)
{
	kn_counts_desc(pt->gath, m);
	return kn_ldiv_ok(&pt->req.ld, pt->gath, m, n);
}

/* side_ok on a sample part: the tests of 004 §3.1.  Distinct
 * l-diversity holds in the population part if it holds in the sample
 * part; entropy l-diversity has no test (§3.1.2, note 7) and is checked
 * on the sample as a rule of thumb.  A wrong guess is pruned later. */
static int
sample_ok(struct part *pt, const struct side *sd, const uint64_t *hist, int compl)
{
	size_t i, m = 0;
	uint64_t xl = 0;

	if (pt->sample.n >= pt->sample.N || pt->sample.naive) {
		/* The sample is the node: the requirements themselves.
		 * Or 004 §3.1's naive check, the requirement on the sample
		 * with k scaled by n/N. */
		int on = pt->sample.on, ok;
		uint64_t k = pt->req.k;

		if ((long double)sd->n * pt->sample.N < (long double)pt->sample.k * pt->sample.n)
			return 0;
		pt->sample.on = 0;
		pt->req.k = 1;
		ok = side_ok(pt, sd, hist, compl);
		pt->req.k = k;
		pt->sample.on = on;
		return ok;
	}
	if (!hypo_k(sd->n, pt->sample.n, pt->sample.N, pt->sample.k, pt->sample.alpha, pt->sample.m))
		return 0;
	if (pt->req.hasv) {
		long double s = (long double)sd->s, ss = (long double)sd->ss;
		long double n = (long double)sd->n, sv;

		if (sd->n < 2)
			return 0;
		sv = (n * ss - s * s) / (n * (n - 1)) / powl(10, 2 * pt->sens_F);
		if (!hypo_variance((double)sv, sd->n,
		    (double)pt->req.vm / pow(10, pt->req.vs), pt->sample.alpha, pt->sample.m))
			return 0;
	}
	if (!pt->req.ld.on || pt->req.ld.kind != KN_DIV_RECURSIVE) {
		int on = pt->sample.on, ok;

		pt->sample.on = 0;
		ok = side_ok(pt, sd, hist, compl);
		pt->sample.on = on;
		return ok;
	}
	for (i = 0; i < pt->nstouch; i++) {
		uint32_t x = pt->stouch[i];
		uint64_t c = compl ? pt->hs_tot[x] - hist[x] : hist[x];

		if (c > 0)
			pt->gath[m++] = c;
	}
	kn_counts_desc(pt->gath, m);
	for (i = (size_t)pt->req.ld.l - 1; i < m; i++)
		xl += pt->gath[i];
	return hypo_recursive(m > 0 ? pt->gath[0] : 0, xl, sd->n,
	    (double)pt->req.ld.cm / pow(10, pt->req.ld.cs), pt->sample.n, pt->sample.N, pt->sample.alpha,
	    pt->sample.m);
}

/* Whether a part meets every requirement.  Its sensitive counts are
 * hist[x], or with compl the node's totals less hist[x]. */
static int
side_ok(struct part *pt, const struct side *sd, const uint64_t *hist, int compl)
{
	size_t i, m = 0;

	if (pt->sample.on)
		return sample_ok(pt, sd, hist, compl);
	if (!k_var_ok(pt, sd->n, sd->s, sd->ss))
		return 0;
	if (!pt->req.ld.on)
		return 1;
	if (pt->req.ld.kind == KN_DIV_DISTINCT)
		return (double)sd->distinct >= pt->req.ld.l;
	for (i = 0; i < pt->nstouch; i++) {
		uint32_t x = pt->stouch[i];
		uint64_t c = compl ? pt->hs_tot[x] - hist[x] : hist[x];

		if (c > 0)
			pt->gath[m++] = c;
	}
	return gath_ok(pt, m, sd->n);
}

/* Adds row r to part a (and takes it from part b, if not NULL, whose
 * sensitive and label counts are the totals less a's). */
static void
move(struct part *pt, const uint32_t *r, struct side *a, struct side *b)
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
	if (pt->req.split == SPLIT_INFOGAIN) {
		uint32_t y = r[pt->word_targ];
		uint64_t c = pt->hl_side[y]++;

		a->lf += xlxf(pt, c + 1) - xlxf(pt, c);
		if (b != NULL) {
			uint64_t rc = pt->hl_tot[y] - c;

			b->lf += xlxf(pt, rc - 1) - xlxf(pt, rc);
		}
	} else if (pt->req.split == SPLIT_REGRESSION) {
		kn_i128 v = pt->targ_val[r[pt->word_targ]];

		a->ts += v;
		if (b != NULL)
			b->ts -= v;
	}
}

/* Forgets the counts that move() added for the rows at perm[lo..hi). */
static void
unmove(struct part *pt, size_t b, size_t lo, size_t hi)
{
	size_t i;

	if (!pt->need_stats)
		return;
	for (i = lo; i < hi; i++) {
		const uint32_t *r = pt->rec + (b + pt->perm[i]) * pt->rec_words;

		if (pt->has_sens)
			pt->hs_side[r[pt->word_sens]] = 0;
		if (pt->req.split == SPLIT_INFOGAIN)
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

			for (j = i; j > 0 && pt->key[pt->perm[j - 1]] > pt->key[p]; j--)
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
			pt->perm_tmp[c[(pt->key[pt->perm[i]] >> sh) & 0xff]++] = pt->perm[i];
		memcpy(pt->perm, pt->perm_tmp, n * sizeof(uint32_t));
	}
}


/* Whether dimension j is cut by its hierarchy. */
static int
is_hier(struct part *pt, size_t j)
{
	return pt->dims[j].h != NULL && !pt->req.relaxed;
}

/* Fills key[] with the node's codes of dimension j and sorts. */
static void
sort_dim(struct part *pt, size_t j)
{
	size_t i;

	if (pt->node.sorted == j)
		return;
	for (i = 0; i < pt->node.n; i++)
		pt->key[i] = pt->rec[(pt->node.b + i) * pt->rec_words + j] - pt->node.mn[j];
	sort_pos(pt, pt->node.n, pt->node.mx[j] - pt->node.mn[j] + 1);
	pt->node.sorted = j;
}

static int
cmp_u32(const void *a, const void *b)
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
			qsort(a + lo, hi - lo + 1, sizeof(uint32_t), cmp_u32);
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
		for (i = 0; i < n; i++)
			pt->key[i] = r[i * pt->rec_words] - pt->node.mn[j];
		med = select_kth(pt->key, n, (n - 1) / 2);
		for (i = 0; i < n; i++) {
			c = r[i * pt->rec_words] - pt->node.mn[j];
			lt += c < med;
			eq += c == med;
		}
	}
	if (pt->req.relaxed)
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
static int
better(struct part *pt, const struct cut *best, kn_i128 isc, long double sc, uint64_t dist)
{
	long double tol;

	if (!best->found)
		return 1;
	if (pt->req.split == SPLIT_INFOGAIN) {
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

/* Considers the cuts of an ordered dimension (numeric, or any in
 * relaxed mode) by information gain or regression, updating best. */
static void
eval_ordered(struct part *pt, size_t j, struct cut *best)
{
	struct side L, R;
	size_t n = pt->node.n, i;

	pt->sample.m = 2;

	sort_dim(pt, j);
	memset(&L, 0, sizeof(L));
	R = pt->node.tot;
	for (i = 0; i + 1 < n; i++) {
		uint64_t l = i + 1, dist;
		kn_i128 isc = 0;
		long double sc = 0;

		move(pt, pt->rec + (pt->node.b + pt->perm[i]) * pt->rec_words, &L, &R);
		if (!pt->req.relaxed && pt->key[pt->perm[i]] == pt->key[pt->perm[i + 1]])
			continue;
		if (l < pt->req.k || n - l < pt->req.k)
			continue;
		dist = 2 * l > n ? 2 * l - n : n - 2 * l;
		if (pt->req.split == SPLIT_INFOGAIN)
			isc = L.lf - xlxf(pt, l) + R.lf - xlxf(pt, n - l);
		else
			sc = sq_n(L.ts, l) + sq_n(R.ts, n - l);
		if (!better(pt, best, isc, sc, dist) ||
		    !side_ok(pt, &L, pt->hs_side, 0) || !side_ok(pt, &R, pt->hs_side, 1))
			continue;
		best->found = 1;
		best->dim = j;
		best->L = l;
		best->dist = dist;
		best->iscore = isc;
		best->score = sc;
	}
	unmove(pt, pt->node.b, 0, n - 1);
}

/* Moves row r across a cut: into the left part L (dir > 0) or back
 * into the right part R; hist holds L's sensitive counts. */
static void
cross(struct part *pt, const uint32_t *r, struct side *L, struct side *R, uint64_t *hist,
    int dir)
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
	size_t n = pt->node.n, i, nb = 0, c = 0, pa, pb;
	long r, l;

	pt->sample.m = 2;

	sort_dim(pt, j);
	/* The cut positions, as row counts of the left part. */
	for (i = 0; i + 1 < n; i++) {
		uint64_t L = i + 1;

		if (!pt->req.relaxed && pt->key[pt->perm[i]] == pt->key[pt->perm[i + 1]])
			continue;
		if (L < pt->req.k || n - L < pt->req.k)
			continue;
		pt->grp[nb++] = (uint32_t)L;
	}
	if (nb == 0)
		return;
	for (i = 1; i < nb; i++)
		if ((2 * (uint64_t)pt->grp[i] > n ? 2 * (uint64_t)pt->grp[i] - n :
		    n - 2 * (uint64_t)pt->grp[i]) <= (2 * (uint64_t)pt->grp[c] > n ?
		    2 * (uint64_t)pt->grp[c] - n : n - 2 * (uint64_t)pt->grp[c]))
			c = i;
	/* Cursor a starts at grp[c] and goes right, b goes left. */
	memset(&La, 0, sizeof(La));
	Ra = pt->node.tot;
	for (pa = 0; pa < pt->grp[c]; pa++)
		cross(pt, pt->rec + (pt->node.b + pt->perm[pa]) * pt->rec_words, &La, &Ra, pt->hs_side, 1);
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
			dr = 2 * (uint64_t)pt->grp[r] > n ? 2 * (uint64_t)pt->grp[r] -
			    n : n - 2 * (uint64_t)pt->grp[r];
		if (l >= 0)
			dl = 2 * (uint64_t)pt->grp[l] > n ? 2 * (uint64_t)pt->grp[l] -
			    n : n - 2 * (uint64_t)pt->grp[l];
		right = r < (long)nb && (l < 0 || dr <= dl);
		if (right) {
			L = pt->grp[r++];
			for (; pa < L; pa++)
				cross(pt, pt->rec + (pt->node.b + pt->perm[pa]) * pt->rec_words, &La, &Ra,
				    pt->hs_side, 1);
			if (!side_ok(pt, &La, pt->hs_side, 0) ||
			    !side_ok(pt, &Ra, pt->hs_side, 1))
				continue;
		} else {
			L = pt->grp[l--];
			for (; pb > L; pb--)
				cross(pt, pt->rec + (pt->node.b + pt->perm[pb - 1]) * pt->rec_words, &Lb,
				    &Rb, pt->hs_side2, -1);
			if (!side_ok(pt, &Lb, pt->hs_side2, 0) ||
			    !side_ok(pt, &Rb, pt->hs_side2, 1))
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
static uint32_t
child_of(struct part *pt, size_t j, uint32_t c)
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
			pt->sample.m += child_of(pt, j, pt->key[pt->perm[i]]) !=
			    child_of(pt, j, pt->key[pt->perm[i + 1]]);
	}
	memset(&S, 0, sizeof(S));
	for (i = 0; i < n; i++) {
		move(pt, pt->rec + (pt->node.b + pt->perm[i]) * pt->rec_words, &S, NULL);
		if (i + 1 < n && child_of(pt, j, pt->key[pt->perm[i]]) ==
		    child_of(pt, j, pt->key[pt->perm[i + 1]]))
			continue;
		/* A child ends at i. */
		if (!side_ok(pt, &S, pt->hs_side, 0))
			ok = 0;
		if (pt->req.split == SPLIT_INFOGAIN)
			isc += S.lf - xlxf(pt, S.n);
		else if (pt->req.split == SPLIT_REGRESSION)
			sc += sq_n(S.ts, S.n);
		unmove(pt, pt->node.b, g0, i + 1);
		g0 = i + 1;
		memset(&S, 0, sizeof(S));
		if (!ok)
			break;
	}
	if (!ok)
		return;
	if (pt->req.split == SPLIT_MEDIAN) {
		if (!best->found) {
			best->found = 1;
			best->dim = j;
		}
		return;
	}
	/* Ties go to a balanced threshold cut, else the first dimension. */
	if (!better(pt, best, isc, sc, n))
		return;
	best->found = 1;
	best->dim = j;
	best->dist = n;
	best->iscore = isc;
	best->score = sc;
}


/* Pushes the segment [b,e) with the extents ext (min[d], max[d]). */
static void
push(struct part *pt, uint64_t b, uint64_t e, const uint32_t *ext)
{
	if (pt->nstack + 2 > pt->stack_cap) {
		pt->stack_cap = pt->stack_cap ? 2 * pt->stack_cap : 1024;
		pt->stack = kn_realloc(pt->stack, pt->stack_cap * sizeof(uint64_t));
		pt->stack_ext = kn_realloc(pt->stack_ext, pt->stack_cap / 2 * 2 * pt->nqi *
		    sizeof(uint32_t));
	}
	memcpy(pt->stack_ext + pt->nstack / 2 * 2 * pt->nqi, ext, 2 * pt->nqi * sizeof(uint32_t));
	pt->stack[pt->nstack++] = b;
	pt->stack[pt->nstack++] = e;
}

/* Makes the chosen cut: regroups the node's records stably by part,
 * noting each part's extents on the way, and pushes the parts,
 * leftmost on top. */
static void
apply(struct part *pt, const struct cut *c)
{
	size_t n = pt->node.n, i, m = 0, g, j = c->dim;
	uint32_t *off, *ext;
	const uint32_t *r = pt->rec + pt->node.b * pt->rec_words;

	if (c->fast)
		m = 2;
	else if (sort_dim(pt, j), is_hier(pt, j)) {
		for (i = 0; i < n; i++) {
			if (i > 0 && child_of(pt, j, pt->key[pt->perm[i]]) !=
			    child_of(pt, j, pt->key[pt->perm[i - 1]]))
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
		for (i = 0; i < pt->nqi; i++) {
			ext[g * 2 * pt->nqi + i] = UINT32_MAX;
			ext[g * 2 * pt->nqi + pt->nqi + i] = 0;
		}
	if (c->fast) {
		off[1] = (uint32_t)c->L;
		off[2] = (uint32_t)n;
	} else {
		for (i = 0; i < n; i++)
			off[pt->grp[i] + 1]++;
		for (i = 1; i <= m; i++)
			off[i] += off[i - 1];
	}
	{
		uint32_t *pos = kn_alloc((m + 1) * sizeof(uint32_t));
		uint64_t eqleft = c->eqleft;

		memcpy(pos, off, m * sizeof(uint32_t));
		for (i = 0; i < n; i++, r += pt->rec_words) {
			uint32_t *dst, *e;
			size_t q;

			if (c->fast) {
				uint32_t v = r[j];

				g = v < c->med || (v == c->med &&
				    eqleft > 0 && eqleft--) ? 0 : 1;
			} else
				g = pt->grp[i];
			dst = pt->rec_tmp + (size_t)pos[g]++ * pt->rec_words;
			e = ext + g * 2 * pt->nqi;
			for (q = 0; q < pt->nqi; q++) {
				uint32_t v = r[q];

				e[q] = v < e[q] ? v : e[q];
				e[pt->nqi + q] = v > e[pt->nqi + q] ? v : e[pt->nqi + q];
			}
			memcpy(dst, r, pt->rec_words * sizeof(uint32_t));
		}
		free(pos);
	}
	memcpy(pt->rec + pt->node.b * pt->rec_words, pt->rec_tmp, n * pt->rec_words * sizeof(uint32_t));
	for (g = m; g-- > 0;)
		push(pt, pt->node.b + off[g], pt->node.b + off[g + 1], ext + g * 2 * pt->nqi);
	free(off);
	free(ext);
}

/* From the node's extents: each hierarchy's lowest common ancestor,
 * the normalized widths, and which dimensions can be cut. */
static void
widths(struct part *pt)
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
			    (long double)dm->ncode : 1;
		} else {
			long double g = (long double)(dm->hasg ?
			    (kn_i128)dm->gmx - dm->gmn : (kn_i128)
			    dm->vals[dm->nrank - 1] - dm->vals[0]);

			pt->node.width[j] = g > 0 ? (long double)((kn_i128)
			    dm->vals[pt->node.mx[j]] - dm->vals[pt->node.mn[j]]) / g : 0;
		}
		if (pt->req.relaxed)
			pt->node.can[j] = 1;
		else if (is_hier(pt, j))
			pt->node.can[j] = pt->node.lv[j] > 0;
		else
			pt->node.can[j] = pt->node.mn[j] < pt->node.mx[j];
	}
}

/* Counts the node's totals and extents. */
static void
totals(struct part *pt, size_t b, size_t e, const uint32_t *ext)
{
	size_t i, j;

	pt->node.b = b;
	pt->node.n = e - b;
	pt->node.sorted = pt->nqi;
	memset(&pt->node.tot, 0, sizeof(pt->node.tot));
	pt->nstouch = pt->nltouch = 0;
	if (ext != NULL) {
		memcpy(pt->node.mn, ext, pt->nqi * sizeof(uint32_t));
		memcpy(pt->node.mx, ext + pt->nqi, pt->nqi * sizeof(uint32_t));
	} else {
		for (j = 0; j < pt->nqi; j++) {
			pt->node.mn[j] = UINT32_MAX;
			pt->node.mx[j] = 0;
		}
		for (i = b; i < e; i++)
			for (j = 0; j < pt->nqi; j++) {
				uint32_t v = pt->rec[i * pt->rec_words + j];

				pt->node.mn[j] = v < pt->node.mn[j] ? v : pt->node.mn[j];
				pt->node.mx[j] = v > pt->node.mx[j] ? v : pt->node.mx[j];
			}
	}
	for (i = b; i < e && pt->need_stats; i++) {
		const uint32_t *r = pt->rec + i * pt->rec_words;

		if (pt->has_sens && pt->hs_tot[r[pt->word_sens]]++ == 0)
			pt->stouch[pt->nstouch++] = r[pt->word_sens];
		if (pt->req.split == SPLIT_INFOGAIN && pt->hl_tot[r[pt->word_targ]]++ == 0)
			pt->ltouch[pt->nltouch++] = r[pt->word_targ];
	}
	if (pt->nltouch > 1)
		qsort(pt->ltouch, pt->nltouch, sizeof(uint32_t), cmp_u32);
	/* The statistics of the whole node, as of a part. */
	pt->node.tot.n = pt->node.n;
	if (pt->need_stats) {
		pt->node.tot.n = 0;
		for (i = 0; i < pt->node.n; i++) {
			pt->perm[i] = (uint32_t)i;
			move(pt, pt->rec + (b + i) * pt->rec_words, &pt->node.tot, NULL);
		}
		unmove(pt, b, 0, pt->node.n);
	}
	widths(pt);
}

/* Clears the node's total counts. */
static void
untotals(struct part *pt)
{
	size_t i;

	for (i = 0; i < pt->nstouch; i++)
		pt->hs_tot[pt->stouch[i]] = 0;
	for (i = 0; i < pt->nltouch; i++)
		pt->hl_tot[pt->ltouch[i]] = 0;
}


/* Makes room for n more bytes of the region line. */
static char *
rroom(struct part *pt, size_t n)
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
	char *p = rroom(pt, 64);

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
	char *p = rroom(pt, 64);

	*p++ = '\t';
	if (S == 0 && sum >= 0 && sum % (kn_i128)n == 0)
		pt->region_len += 1 + kn_fmt_u64(p, (uint64_t)(sum / (kn_i128)n));
	else {
		/* |sum| < 2^95 (under 2^32 rows of 63 bits): no overflow. */
		q = sum * 20000 / (kn_i128)n;
		q = q >= 0 ? (q + 1) / 2 : (q - 1) / 2;
		pt->region_len += 1 + kn_dec_format(q, S + 4, p);
	}
}

/* Writes the header line of the regions file. */
static void
regions_header(struct part *pt, FILE *fp)
{
	size_t j;

	fputs("class\tcount", fp);
	for (j = 0; j < pt->nqi; j++) {
		if (pt->dims[j].h != NULL)
			fprintf(fp, "\t%s", pt->dims[j].name);
		else
			fprintf(fp, "\t%s_min\t%s_max\t%s_mean", pt->dims[j].name,
			    pt->dims[j].name, pt->dims[j].name);
	}
	putc('\n', fp);
}

/* Writes the region of class id: n rows, the node's extents, and per
 * numeric dimension the sum of its values (scaled) for the mean. */

static void
region(struct part *pt, uint32_t id, uint64_t n, const kn_i128 *sums)
{
	size_t j;
	char *p;

	pt->region_len = 0;
	if (pt->region_tag != NULL) {
		p = rroom(pt, strlen(pt->region_tag) + 8);
		pt->region_len = (size_t)sprintf(p, "region\t%s", pt->region_tag);
	} else {
		p = rroom(pt, 48);
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
			p = rroom(pt, v.n + 1);
			*p = '\t';
			memcpy(p + 1, v.p, v.n);
			pt->region_len += v.n + 1;
			continue;
		}
		put_dec(pt, dm->vals[pt->node.mn[j]], dm->S);
		put_dec(pt, dm->vals[pt->node.mx[j]], dm->S);
		put_mean(pt, sums[j], n, dm->S);
	}
	*rroom(pt, 1) = '\n';
	pt->region_len++;
	if (fwrite(pt->region_line, 1, pt->region_len, pt->regions_fp) != pt->region_len)
		kn_die_sys("%s: write error", pt->regions_name);
}

/* Notes that row belongs to class id: in memory, or out of core as a
 * pair in the pairs file. */
static void
assign(struct part *pt, uint32_t row, uint32_t id)
{
	uint32_t pr[2];

	if (!pt->ooc) {
		pt->row_class[row] = id;
		return;
	}
	pr[0] = row;
	pr[1] = id;
	if (fwrite(pr, sizeof(pr), 1, pt->pairs) != 1)
		kn_die_sys("%s: write error", pt->pairs_path);
	pt->acct.bwritten += sizeof(pr);
}

/* Makes the node a class. */
static void
leaf(struct part *pt)
{
	size_t i, j;
	uint32_t id = ++pt->nclasses;

	if (pt->node.n > pt->max_class)
		pt->max_class = pt->node.n;
	for (i = 0; i < pt->node.n; i++)
		assign(pt, pt->rec[(pt->node.b + i) * pt->rec_words + pt->word_row], id);
	if (pt->regions_fp == NULL)
		return;
	for (j = 0; j < pt->nqi; j++) {
		pt->sums[j] = 0;
		if (pt->dims[j].h == NULL)
			for (i = 0; i < pt->node.n; i++)
				pt->sums[j] += pt->dims[j].vals[pt->rec[(pt->node.b + i) * pt->rec_words +
				    j]];
	}
	region(pt, id, pt->node.n, pt->sums);
}

/* Orders the dimensions by normalized width, widest first. */
static int
cmp_width(struct part *pt, uint32_t a, uint32_t b, const void *ctx)
{
	(void)ctx;
	if (pt->node.width[a] != pt->node.width[b])
		return pt->node.width[a] > pt->node.width[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}



/* A new tree node. */
static size_t
tnew(struct part *pt, uint64_t depth)
{
	if (pt->grow.n == pt->grow.cap) {
		pt->grow.cap = pt->grow.cap ? 2 * pt->grow.cap : 64;
		pt->grow.t = kn_realloc(pt->grow.t, pt->grow.cap * sizeof(struct tnode));
		pt->grow.tcls = kn_realloc(pt->grow.tcls, pt->grow.cap * sizeof(uint32_t));
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

	if (is_hier(pt, j)) {
		sort_dim(pt, j);
		cid = kn_alloc((pt->node.n + 1) * sizeof(uint32_t));
		for (i = 0; i < pt->node.n; i++)
			if (i == 0 || child_of(pt, j, pt->key[pt->perm[i]]) !=
			    child_of(pt, j, pt->key[pt->perm[i - 1]]))
				cid[m++] = child_of(pt, j, pt->key[pt->perm[i]]);
	} else
		m = 2;
	k0 = pt->grow.n;
	for (i = 0; i < m + (cid != NULL); i++)
		tnew(pt, pt->grow.t[t].depth + 1);
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
	pt->grow.leaves += tn->nkid - 1;
}

/* Allocates the scratch of partition() for the N rows in rec, or
 * frees it with the rows. */
static void
scratch(struct part *pt, int get)
{
	if (get) {
		pt->rec_tmp = kn_alloc((pt->nrows + 1) * pt->rec_words * sizeof(uint32_t));
		pt->key = kn_alloc((pt->nrows + 1) * sizeof(uint32_t));
		pt->perm = kn_alloc((pt->nrows + 1) * sizeof(uint32_t));
		pt->perm_tmp = kn_alloc((pt->nrows + 1) * sizeof(uint32_t));
		pt->grp = kn_alloc((pt->nrows + 1) * sizeof(uint32_t));
		pt->cnt = kn_alloc((2 * pt->nrows + 2) * sizeof(uint32_t));
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
static void
partition(struct part *pt)
{
	uint32_t *ord = kn_alloc((2 * pt->nqi + 1) * sizeof(uint32_t));
	size_t j;

	if (pt->nrows == 0) {
		free(ord);
		return;
	}
	totals(pt, 0, pt->nrows, NULL);
	memcpy(ord, pt->node.mn, pt->nqi * sizeof(uint32_t));
	memcpy(ord + pt->nqi, pt->node.mx, pt->nqi * sizeof(uint32_t));
	push(pt, 0, pt->nrows, ord);
	untotals(pt);
	if (pt->grow.on) {
		pt->grow.stnode = kn_realloc(pt->grow.stnode, 2 * sizeof(size_t));
		pt->grow.stcap = 1;
		pt->grow.stnode[0] = tnew(pt, 0);
		pt->grow.leaves = 1;
	}
	while (pt->nstack > 0) {
		uint64_t e = pt->stack[--pt->nstack], b = pt->stack[--pt->nstack];
		size_t tn = pt->grow.on ? pt->grow.stnode[pt->nstack / 2] : 0;
		struct cut best;

		totals(pt, b, e, pt->stack_ext + pt->nstack / 2 * 2 * pt->nqi);
		memset(&best, 0, sizeof(best));
		if (pt->node.n >= 2 * pt->req.k && (!pt->grow.on ||
		    (pt->grow.t[tn].depth < pt->grow.maxdepth &&
		    pt->grow.leaves < pt->grow.maxleaves))) {
			if (pt->req.split == SPLIT_MEDIAN) {
				for (j = 0; j < pt->nqi; j++) {
					size_t q = j;

					for (; q > 0 && cmp_width(pt, ord[q - 1],
					    (uint32_t)j, NULL) > 0; q--)
						ord[q] = ord[q - 1];
					ord[q] = (uint32_t)j;
				}
				for (j = 0; j < pt->nqi && !best.found; j++) {
					if (!pt->node.can[ord[j]])
						continue;
					if (is_hier(pt, ord[j]))
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
					if (is_hier(pt, j))
						eval_hier(pt, j, &best);
					else
						eval_ordered(pt, j, &best);
				}
			}
		}
		if (best.found && pt->grow.on) {
			size_t before = pt->nstack / 2, q, k0;

			record_cut(pt, tn, &best);
			apply(pt, &best);
			/* The kids were pushed last-first: the first on top.
			 * A hierarchy's "other" kid has no rows here. */
			k0 = pt->grow.t[tn].kid0;
			if (pt->grow.stcap < pt->nstack / 2 + 1) {
				pt->grow.stcap = 2 * (pt->nstack / 2 + 1);
				pt->grow.stnode = kn_realloc(pt->grow.stnode, pt->grow.stcap *
				    sizeof(size_t));
			}
			for (q = before; q < pt->nstack / 2; q++)
				pt->grow.stnode[q] = k0 + (pt->nstack / 2 - 1 - q);
		} else if (best.found) {
			pt->ncuts++;
			apply(pt, &best);
		} else if (!pt->grow.on)
			leaf(pt);
		else if (pt->grow.full) {
			leaf(pt);
			pt->grow.tcls[tn] = pt->nclasses;
		}
		untotals(pt);
	}
	free(ord);
}

/* ---- out of core: Rothko-T (paper 004 §2) -------------------------- */


/* The memory of a dictionary. */
static size_t
dict_bytes(const kn_dict *dc)
{
	return dc->acap + dc->cap * (sizeof(uint64_t) + sizeof(uint32_t)) +
	    dc->nslot * 2 * sizeof(uint32_t) + (dc->cache != NULL ?
	    4096 * sizeof(*dc->cache) : 0);
}

/* The memory the dictionaries and per-value arrays take: what -S must
 * hold besides the nodes. */
static size_t
dicts_bytes(struct part *pt)
{
	size_t b = 0, j;
	int l;

	for (j = 0; j < pt->nqi; j++) {
		const struct dim *dm = &pt->dims[j];

		if (dm->h == NULL) {
			b += dm->vd.cap * (sizeof(int64_t) + 1) +
			    dm->vd.nslot * sizeof(uint32_t) +
			    (size_t)dm->nrank * (sizeof(uint32_t) +
			    sizeof(int64_t));
			continue;
		}
		for (l = 0; l < dm->nl; l++)
			b += dict_bytes(&dm->h->lab[l]) + dm->h->lab[l].n *
			    2 * sizeof(uint32_t) + dm->ncode * sizeof(uint32_t);
		b += dm->ncode * 2 * sizeof(uint32_t);
	}
	b += dict_bytes(&pt->sens_dict) + pt->sens_dict.n * (5 * sizeof(uint64_t) +
	    sizeof(uint32_t));
	b += dict_bytes(&pt->targ_dict) + pt->targ_dict.n * (3 * sizeof(uint64_t) +
	    sizeof(uint32_t));
	return b;
}

static int
cmp_u64pair(const void *a, const void *b)
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
	size_t n = vd->n, i;
	uint64_t *pr;
	int S = 0;

	free(vd->slot);
	vd->slot = NULL;
	for (i = 0, S = dm->fS; i < n; i++)
		if (vd->sc[i] > S)
			S = vd->sc[i];
	/* (value with its sign bit flipped, id), sorted: the ranks. */
	pr = kn_alloc((n + 1) * 2 * sizeof(uint64_t));
	for (i = 0; i < n; i++) {
		int64_t v;

		if (__builtin_mul_overflow(vd->m[i],
		    (int64_t)kn_pow10(S - vd->sc[i]), &v))
			kn_die("%s: column '%s': the values do not fit 64 "
			    "bits with %d decimals each", pt->inname, dm->name, S);
		pr[2 * i] = (uint64_t)v ^ ((uint64_t)1 << 63);
		pr[2 * i + 1] = i;
	}
	free(vd->m);
	free(vd->sc);
	vd->m = NULL;
	vd->sc = NULL;
	qsort(pr, n, 2 * sizeof(uint64_t), cmp_u64pair);
	dm->S = S;
	dm->nrank = (uint32_t)n;
	dm->rankof = kn_alloc((n + 1) * sizeof(uint32_t));
	dm->vals = kn_alloc((n + 1) * sizeof(int64_t));
	for (i = 0; i < n; i++) {
		dm->rankof[pr[2 * i + 1]] = (uint32_t)i;
		dm->vals[i] = (int64_t)(pr[2 * i] ^ ((uint64_t)1 << 63));
	}
	free(pr);
}

/* Maps a spooled record's ids to codes. */
static void
map_record(struct part *pt, uint32_t *r)
{
	size_t j;

	for (j = 0; j < pt->nqi; j++)
		r[j] = pt->dims[j].h != NULL ? pt->dims[j].dfsrank[r[j]] :
		    pt->dims[j].rankof[r[j]];
	if (pt->req.split == SPLIT_INFOGAIN)
		r[pt->word_targ] = pt->rk->label_rank[r[pt->word_targ]];
}

static void
oread_open(struct part *pt, struct oread *rd, const struct onode *on)
{
	rd->nd = on;
	if ((rd->f = fopen(on->path, "rb")) == NULL)
		kn_die_sys("%s", on->path);
	rd->buf = kn_alloc(CHUNK * pt->rec_words * sizeof(uint32_t));
	rd->n = rd->i = 0;
	pt->acct.scans++;
}

/* The next record, mapped, or NULL at the end. */
static uint32_t *
oread_next(struct part *pt, struct oread *rd)
{
	size_t i;

	if (rd->i == rd->n) {
		rd->n = fread(rd->buf, pt->rec_words * sizeof(uint32_t), CHUNK, rd->f);
		rd->i = 0;
		if (rd->n == 0) {
			if (ferror(rd->f))
				kn_die_sys("%s: read error", rd->nd->path);
			return NULL;
		}
		pt->acct.bread += rd->n * pt->rec_words * sizeof(uint32_t);
		if (rd->nd->raw)
			for (i = 0; i < rd->n; i++)
				map_record(pt, rd->buf + i * pt->rec_words);
	}
	return rd->buf + pt->rec_words * rd->i++;
}

static void
oread_close(struct oread *rd)
{
	fclose(rd->f);
	free(rd->buf);
}



static uint64_t
ghash(uint32_t c, uint32_t s, uint32_t y)
{
	uint64_t h = ((uint64_t)c * 0x9e3779b97f4a7c15ULL) ^
	    ((uint64_t)s * 0xc2b2ae3d27d4eb4fULL) ^
	    ((uint64_t)y * 0x165667b19e3779f9ULL);

	return h ^ (h >> 29);
}

static void
gadd(struct part *pt, struct gtab *g, uint32_t c, uint32_t s, uint32_t y, uint64_t cnt)
{
	size_t h, i;

	if (2 * (g->n + 1) > g->nslot) {
		size_t ns = g->nslot ? 2 * g->nslot : 1024, k;

		free(g->slot);
		pt->rk->gbytes += (ns - g->nslot) * sizeof(uint32_t);
		g->slot = kn_zalloc(ns * sizeof(uint32_t));
		g->nslot = ns;
		for (k = 0; k < g->n; k++) {
			h = ghash(g->e[k].code, g->e[k].s, g->e[k].y) &
			    (ns - 1);
			while (g->slot[h] != 0)
				h = (h + 1) & (ns - 1);
			g->slot[h] = (uint32_t)k + 1;
		}
		if (pt->rk->gbytes > pt->rk->avail && pt->rk->gsoft)
			pt->rk->gover = 1;
		else if (pt->rk->gbytes > pt->rk->avail)
			kn_die("-S %zu: too small: the frequency groups of a "
			    "node need more (%zu bytes so far)", pt->budget,
			    pt->rk->gbytes);
	}
	h = ghash(c, s, y) & (g->nslot - 1);
	while ((i = g->slot[h]) != 0) {
		struct gent *e = &g->e[i - 1];

		if (e->code == c && e->s == s && e->y == y) {
			e->cnt += cnt;
			return;
		}
		h = (h + 1) & (g->nslot - 1);
	}
	if (g->n == g->cap) {
		pt->rk->gbytes += g->cap * sizeof(struct gent);
		g->cap = g->cap ? 2 * g->cap : 1024;
		g->e = kn_realloc(g->e, g->cap * sizeof(struct gent));
	}
	g->e[g->n].code = c;
	g->e[g->n].s = s;
	g->e[g->n].y = y;
	g->e[g->n].cnt = cnt;
	g->slot[h] = (uint32_t)++g->n;
}

/* Empties g for a new count, keeping its list's memory (counted in
 * gbytes) if keep, else freeing it too. */
static void
gclear(struct part *pt, struct gtab *g, int keep)
{
	free(g->slot);
	free(g->arr);
	g->arr = NULL;
	g->slot = NULL;
	g->nslot = 0;
	g->n = 0;
	if (!keep) {
		free(g->e);
		g->e = NULL;
		g->cap = 0;
	}
	pt->rk->gbytes += g->cap * sizeof(struct gent);
}

/* Counts a row of code c of dimension j into g: in an array indexed by
 * the code when the groups are plain counts, else in the hash. */
static void
gcount(struct part *pt, struct gtab *g, size_t j, const uint32_t *r)
{
	if (pt->rk->gdense) {
		if (g->arr == NULL) {
			size_t dom = pt->dims[j].h != NULL ? pt->dims[j].ncode :
			    pt->dims[j].nrank;

			pt->rk->gbytes += (dom + 1) * sizeof(uint64_t);
			if (pt->rk->gbytes > pt->rk->avail && pt->rk->gsoft) {
				pt->rk->gover = 1;
				return;
			}
			if (pt->rk->gbytes > pt->rk->avail)
				kn_die("-S %zu: too small: the frequency groups "
				    "of a node need more (%zu bytes so far)",
				    pt->budget, pt->rk->gbytes);
			g->arr = kn_zalloc((dom + 1) * sizeof(uint64_t));
		}
		g->arr[r[j]]++;
		return;
	}
	gadd(pt, g, r[j], pt->has_sens ? r[pt->word_sens] : 0,
	    pt->req.split != SPLIT_MEDIAN ? r[pt->word_targ] : 0, 1);
}

/* Turns dense counts into the sorted list of groups. */
static void
gdense_list(struct part *pt, struct gtab *g, size_t j)
{
	size_t dom = pt->dims[j].h != NULL ? pt->dims[j].ncode : pt->dims[j].nrank, c;

	if (g->arr == NULL)
		return;
	g->n = 0;
	for (c = 0; c < dom; c++) {
		if (g->arr[c] == 0)
			continue;
		if (g->n == g->cap) {
			g->cap = g->cap ? 2 * g->cap : 1024;
			g->e = kn_realloc(g->e, g->cap * sizeof(struct gent));
		}
		g->e[g->n].code = (uint32_t)c;
		g->e[g->n].s = g->e[g->n].y = 0;
		g->e[g->n].cnt = g->arr[c];
		g->n++;
	}
	free(g->arr);
	g->arr = NULL;
}

static int
cmp_gent(const void *a, const void *b)
{
	const struct gent *x = a, *y = b;

	if (x->code != y->code)
		return x->code < y->code ? -1 : 1;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return x->y < y->y ? -1 : x->y > y->y;
}

static void groups_finish(struct part *pt, uint64_t n);

/* Scans a node for its groups, totals and extents (nd.*). */
static void
groups(struct part *pt, const struct onode *on)
{
	struct oread rd;
	uint32_t *r;
	size_t j;

	pt->rk->gbytes = 0;
	for (j = 0; j < pt->nqi; j++)
		gclear(pt, &pt->rk->gtab[j], 1);
	oread_open(pt, &rd, on);
	while ((r = oread_next(pt, &rd)) != NULL)
		for (j = 0; j < pt->nqi; j++)
			gcount(pt, &pt->rk->gtab[j], j, r);
	oread_close(&rd);
	groups_finish(pt, on->n);
}

/* From the groups in gt of a node of n rows: sorted lists, the totals
 * and extents (nd.*). */
static void
groups_finish(struct part *pt, uint64_t n)
{
	size_t i, j;

	for (j = 0; j < pt->nqi; j++) {
		if (pt->rk->gtab[j].arr != NULL)
			gdense_list(pt, &pt->rk->gtab[j], j);
		else
			qsort(pt->rk->gtab[j].e, pt->rk->gtab[j].n, sizeof(struct gent),
			    cmp_gent);
	}
	/* Totals from the first dimension's groups. */
	pt->node.b = 0;
	pt->node.n = n;
	pt->node.sorted = pt->nqi;
	memset(&pt->node.tot, 0, sizeof(pt->node.tot));
	pt->nstouch = pt->nltouch = 0;
	for (i = 0; i < pt->rk->gtab[0].n; i++) {
		const struct gent *e = &pt->rk->gtab[0].e[i];

		if (pt->has_sens && pt->hs_tot[e->s] == 0)
			pt->stouch[pt->nstouch++] = e->s;
		if (pt->has_sens)
			pt->hs_tot[e->s] += e->cnt;
		if (pt->req.split == SPLIT_INFOGAIN && pt->hl_tot[e->y] == 0)
			pt->ltouch[pt->nltouch++] = e->y;
		if (pt->req.split == SPLIT_INFOGAIN)
			pt->hl_tot[e->y] += e->cnt;
		if (pt->req.hasv) {
			pt->node.tot.s += pt->sens_val[e->s] * (kn_i128)e->cnt;
			pt->node.tot.ss += pt->sens_val[e->s] * pt->sens_val[e->s] * (kn_i128)e->cnt;
		}
		if (pt->req.split == SPLIT_REGRESSION)
			pt->node.tot.ts += pt->targ_val[e->y] * (kn_i128)e->cnt;
	}
	if (pt->nltouch > 1)
		qsort(pt->ltouch, pt->nltouch, sizeof(uint32_t), cmp_u32);
	pt->node.tot.n = n;
	for (i = 0; i < pt->nstouch; i++)
		pt->node.tot.distinct++;
	for (i = 0; i < pt->nltouch; i++)
		pt->node.tot.lf += xlxf(pt, pt->hl_tot[pt->ltouch[i]]);
	for (j = 0; j < pt->nqi; j++) {
		pt->node.mn[j] = pt->rk->gtab[j].n > 0 ? pt->rk->gtab[j].e[0].code : 0;
		pt->node.mx[j] = pt->rk->gtab[j].n > 0 ? pt->rk->gtab[j].e[pt->rk->gtab[j].n - 1].code : 0;
	}
	widths(pt);
}

/* Adds cnt rows of sensitive value x and label y to part L (and takes
 * them from R, if not NULL). */
static void
wmove(struct part *pt, uint32_t x, uint32_t y, uint64_t cnt, struct side *L, struct side *R)
{
	L->n += cnt;
	if (R != NULL)
		R->n -= cnt;
	if (pt->has_sens) {
		uint64_t c = pt->hs_side[x];

		pt->hs_side[x] += cnt;
		if (c == 0)
			L->distinct++;
		if (R != NULL && pt->hs_tot[x] - c == cnt)
			R->distinct--;
		if (pt->req.hasv) {
			kn_i128 v = pt->sens_val[x] * (kn_i128)cnt;
			kn_i128 v2 = pt->sens_val[x] * v;

			L->s += v;
			L->ss += v2;
			if (R != NULL) {
				R->s -= v;
				R->ss -= v2;
			}
		}
	}
	if (pt->req.split == SPLIT_REGRESSION) {
		kn_i128 v = pt->targ_val[y] * (kn_i128)cnt;

		L->ts += v;
		if (R != NULL)
			R->ts -= v;
	}
	if (pt->req.split == SPLIT_INFOGAIN) {
		uint64_t c = pt->hl_side[y], rc = pt->hl_tot[y] - c;

		pt->hl_side[y] += cnt;
		L->lf += xlxf(pt, c + cnt) - xlxf(pt, c);
		if (R != NULL)
			R->lf += xlxf(pt, rc - cnt) - xlxf(pt, rc);
	}
}

/* Clears the part counts of wmove. */
static void
wclear(struct part *pt)
{
	size_t i;

	for (i = 0; i < pt->nstouch; i++)
		pt->hs_side[pt->stouch[i]] = 0;
	for (i = 0; i < pt->nltouch; i++)
		pt->hl_side[pt->ltouch[i]] = 0;
}

/* Cuts of an ordered dimension from its groups: the median (k alone:
 * as select_cut; with diversity: as eval_median) or the best score (as
 * eval_ordered), with the same choices as in memory. */
static void
w_ordered(struct part *pt, size_t j, struct cut *best)
{
	const struct gtab *g = &pt->rk->gtab[j];
	struct side L, R;
	uint64_t n = pt->node.n;
	size_t i;

	if (pt->req.relaxed) {
		/* k alone (checked at the start): the middle row. */
		uint64_t lt = 0, eq = 0, pos = (n - 1) / 2, c = 0;
		uint32_t med = 0;

		for (i = 0; i < g->n; i++) {
			if (c + g->e[i].cnt > pos) {
				med = g->e[i].code;
				break;
			}
			c += g->e[i].cnt;
		}
		for (i = 0; i < g->n; i++) {
			lt += g->e[i].code < med ? g->e[i].cnt : 0;
			eq += g->e[i].code == med ? g->e[i].cnt : 0;
		}
		if (n < 2 * pt->req.k)
			return;
		best->found = 1;
		best->fast = 1;
		best->dim = j;
		best->L = (n + 1) / 2;
		best->med = med;
		best->eqleft = best->L - lt;
		return;
	}
	memset(&L, 0, sizeof(L));
	R = pt->node.tot;
	for (i = 0; i < g->n; i++) {
		uint64_t l, dist;
		kn_i128 isc = 0;
		long double sc = 0;

		wmove(pt, g->e[i].s, g->e[i].y, g->e[i].cnt, &L, &R);
		if (i + 1 < g->n && g->e[i + 1].code == g->e[i].code)
			continue;
		if (i + 1 == g->n)
			break;
		l = L.n;
		if (l < pt->req.k || n - l < pt->req.k)
			continue;
		dist = 2 * l > n ? 2 * l - n : n - 2 * l;
		if (pt->req.split == SPLIT_MEDIAN) {
			if (best->found && dist > best->dist)
				continue;
		} else if (pt->req.split == SPLIT_INFOGAIN) {
			isc = L.lf - xlxf(pt, l) + R.lf - xlxf(pt, n - l);
			if (!better(pt, best, isc, 0, dist))
				continue;
		} else {
			sc = sq_n(L.ts, l) + sq_n(R.ts, n - l);
			if (!better(pt, best, 0, sc, dist))
				continue;
		}
		if (!side_ok(pt, &L, pt->hs_side, 0) || !side_ok(pt, &R, pt->hs_side, 1))
			continue;
		best->found = 1;
		best->fast = 1;
		best->dim = j;
		best->L = l;
		best->dist = dist;
		best->iscore = isc;
		best->score = sc;
		best->med = g->e[i].code;
		best->eqleft = UINT64_MAX;
	}
	wclear(pt);
}

/* Specializing the hierarchy of dimension j, from its groups (as
 * eval_hier). */
static void
w_hier(struct part *pt, size_t j, struct cut *best)
{
	const struct gtab *g = &pt->rk->gtab[j];
	struct side S;
	size_t i;
	kn_i128 isc = 0;
	long double sc = 0;
	int ok = 1;

	memset(&S, 0, sizeof(S));
	for (i = 0; i < g->n && ok; i++) {
		wmove(pt, g->e[i].s, g->e[i].y, g->e[i].cnt, &S, NULL);
		if (i + 1 < g->n && child_of(pt, j, g->e[i + 1].code - pt->node.mn[j]) ==
		    child_of(pt, j, g->e[i].code - pt->node.mn[j]))
			continue;
		if (!side_ok(pt, &S, pt->hs_side, 0))
			ok = 0;
		if (pt->req.split == SPLIT_INFOGAIN)
			isc += S.lf - xlxf(pt, S.n);
		else if (pt->req.split == SPLIT_REGRESSION)
			sc += sq_n(S.ts, S.n);
		wclear(pt);
		memset(&S, 0, sizeof(S));
	}
	wclear(pt);
	if (!ok)
		return;
	if (pt->req.split == SPLIT_MEDIAN) {
		if (!best->found) {
			best->found = 1;
			best->fast = 0;
			best->dim = j;
		}
		return;
	}
	if (!better(pt, best, isc, sc, pt->node.n))
		return;
	best->found = 1;
	best->fast = 0;
	best->dim = j;
	best->dist = pt->node.n;
	best->iscore = isc;
	best->score = sc;
}

/* Chooses the cut of a node on disk, as partition() would in memory. */
static void
decide(struct part *pt, struct cut *best)
{
	uint32_t ord[64], *op = pt->nqi <= 64 ? ord : kn_alloc(pt->nqi * sizeof(uint32_t));
	size_t j;

	memset(best, 0, sizeof(*best));
	if (pt->node.n < 2 * pt->req.k)
		goto out;
	for (j = 0; j < pt->nqi; j++) {
		size_t q = j;

		if (pt->req.split != SPLIT_MEDIAN) {
			op[j] = (uint32_t)j;
			continue;
		}
		for (; q > 0 && cmp_width(pt, op[q - 1], (uint32_t)j, NULL) > 0;
		    q--)
			op[q] = op[q - 1];
		op[q] = (uint32_t)j;
	}
	for (j = 0; j < pt->nqi; j++) {
		if (pt->req.split == SPLIT_MEDIAN && best->found)
			break;
		if (!pt->node.can[op[j]])
			continue;
		if (is_hier(pt, op[j]))
			w_hier(pt, op[j], best);
		else
			w_ordered(pt, op[j], best);
	}
out:
	if (op != ord)
		free(op);
}

/* Exits 1 when the table in memory does not meet the requirements. */
static void
root_check(struct part *pt, const char *name)
{
	if (pt->nrows == 0)
		return;
	totals(pt, 0, pt->nrows, NULL);
	if (!side_ok(pt, &pt->node.tot, pt->hs_side, 1)) {
		fprintf(stderr, "%s: %s: no partitioning: the whole table "
		    "(%llu rows) does not meet the requirements\n", kn_prog,
		    name, (unsigned long long)pt->nrows);
		kn_exit(1);
	}
	untotals(pt);
}

/* Whether a node of n rows can be partitioned in memory. */
static int
fits(struct part *pt, uint64_t n)
{
	return n * (8 * pt->rec_words + 40) <= pt->rk->avail && (pt->rk->fit_rows == 0 || n <= pt->rk->fit_rows);
}

/* Partitions a node in memory: reads it and runs the stack of
 * partition() over it, class ids continuing. */
static void
solve_in_memory(struct part *pt, const struct onode *on, const char *checkname)
{
	struct oread rd;
	uint32_t *r;
	uint64_t i = 0;

	pt->rec = kn_alloc((on->n + 1) * pt->rec_words * sizeof(uint32_t));
	oread_open(pt, &rd, on);
	while ((r = oread_next(pt, &rd)) != NULL)
		memcpy(pt->rec + i++ * pt->rec_words, r, pt->rec_words * sizeof(uint32_t));
	oread_close(&rd);
	pt->nrows = on->n;
	scratch(pt, 1);
	if (checkname != NULL)
		root_check(pt, checkname);
	partition(pt);
	scratch(pt, 0);
	pt->acct.inmem++;
}

/* Makes a node on disk one class. */
static void
big_leaf(struct part *pt, const struct onode *on)
{
	struct oread rd;
	uint32_t *r, id = ++pt->nclasses;
	size_t j, i;

	if (on->n > pt->max_class)
		pt->max_class = on->n;
	pt->acct.bigleaf++;
	oread_open(pt, &rd, on);
	while ((r = oread_next(pt, &rd)) != NULL)
		assign(pt, r[pt->word_row], id);
	oread_close(&rd);
	if (pt->regions_fp == NULL)
		return;
	for (j = 0; j < pt->nqi; j++) {
		pt->sums[j] = 0;
		if (pt->dims[j].h == NULL)
			for (i = 0; i < pt->rk->gtab[j].n; i++)
				pt->sums[j] += (kn_i128)pt->rk->gtab[j].e[i].cnt *
				    pt->dims[j].vals[pt->rk->gtab[j].e[i].code];
	}
	region(pt, id, on->n, pt->sums);
}

/* ---- out of core: Rothko-S (paper 004 §3) ------------------------- */


/* splitmix64: the random numbers of the sampling. */
static uint64_t
rnd(struct part *pt)
{
	uint64_t z = (pt->rk->seed += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A uniform integer in [0, n). */
static uint64_t
rnd_below(struct part *pt, uint64_t n)
{
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, x;

	while ((x = rnd(pt)) >= lim)
		;
	return x % n;
}

/* Reads a simple random sample of ns of the node's records into rec
 * (reservoir sampling, algorithm R), in file order. */
struct pstat;
static void pstat_add(struct part *pt, struct pstat *p, const uint32_t *r);

static void
sample_node(struct part *pt, const struct onode *on, uint64_t ns, struct pstat *all)
{
	struct oread rd;
	uint32_t *r, *pos = kn_alloc((ns + 1) * sizeof(uint32_t));
	uint64_t i = 0, q;

	pt->rec = kn_alloc((ns + 1) * pt->rec_words * sizeof(uint32_t));
	oread_open(pt, &rd, on);
	while ((r = oread_next(pt, &rd)) != NULL) {
		if (all != NULL)
			pstat_add(pt, all, r);
		if (i < ns)
			q = i;
		else if ((q = rnd_below(pt, i + 1)) >= ns) {
			i++;
			continue;
		}
		memcpy(pt->rec + q * pt->rec_words, r, pt->rec_words * sizeof(uint32_t));
		pos[q] = (uint32_t)i;
		i++;
	}
	oread_close(&rd);
	/* Back in file order, so that ties break as in memory. */
	{
		uint64_t *pr = kn_alloc((ns + 1) * 2 * sizeof(uint64_t));
		uint32_t *cp = kn_alloc((ns + 1) * pt->rec_words * sizeof(uint32_t));

		for (q = 0; q < ns; q++) {
			pr[2 * q] = pos[q];
			pr[2 * q + 1] = q;
		}
		qsort(pr, ns, 2 * sizeof(uint64_t), cmp_u64pair);
		for (q = 0; q < ns; q++)
			memcpy(cp + q * pt->rec_words, pt->rec + pr[2 * q + 1] * pt->rec_words,
			    pt->rec_words * sizeof(uint32_t));
		free(pt->rec);
		pt->rec = cp;
		free(pr);
	}
	free(pos);
}

/* Counts record r into p. */
static void
pstat_add(struct part *pt, struct pstat *p, const uint32_t *r)
{
	p->n++;
	if (!pt->has_sens)
		return;
	if (pt->req.ld.on)
		gadd(pt, &p->h, r[pt->word_sens], 0, 0, 1);
	if (pt->req.hasv) {
		p->s += pt->sens_val[r[pt->word_sens]];
		p->ss += pt->sens_val[r[pt->word_sens]] * pt->sens_val[r[pt->word_sens]];
	}
}

/* Whether population statistics meet every requirement, exactly. */
static int
pstat_ok(struct part *pt, const struct pstat *p)
{
	size_t i;

	if (!k_var_ok(pt, p->n, p->s, p->ss))
		return 0;
	if (!pt->req.ld.on)
		return 1;
	for (i = 0; i < p->h.n; i++)
		pt->gath[i] = p->h.e[i].cnt;
	return gath_ok(pt, p->h.n, p->n);
}

/* Adds b's statistics to a's, and with files b's records too. */
static void
pstat_merge(struct part *pt, struct pstat *a, struct pstat *b, int files)
{
	size_t i;

	a->n += b->n;
	a->s += b->s;
	a->ss += b->ss;
	for (i = 0; i < b->h.n; i++)
		gadd(pt, &a->h, b->h.e[i].code, 0, 0, b->h.e[i].cnt);
	if (!files)
		return;
	if (b->path != NULL) {
		if (a->path == NULL) {
			a->path = b->path;
			b->path = NULL;
		} else {
			/* Append b's records to a's file. */
			FILE *in = fopen(b->path, "rb"), *out;
			char buf[65536];
			size_t got;

			if (in == NULL || (out = fopen(a->path, "ab")) == NULL)
				kn_die_sys("%s", in == NULL ? b->path :
				    a->path);
			while ((got = fread(buf, 1, sizeof(buf), in)) > 0) {
				pt->acct.bread += got;
				pt->acct.bwritten += got;
				if (fwrite(buf, 1, got, out) != got)
					kn_die_sys("%s: write error", a->path);
			}
			if (ferror(in) || fclose(out) != 0)
				kn_die_sys("%s", a->path);
			fclose(in);
			kn_rmtemp(b->path);
			b->path = NULL;
		}
	}
	free(b->h.e);
	free(b->h.slot);
	memset(&b->h, 0, sizeof(b->h));
}

/* The leaf of the grown tree a record falls in. */
static size_t
route(struct part *pt, const uint32_t *r)
{
	size_t t = 0, k;

	while (!pt->grow.t[t].leaf) {
		const struct tnode *tn = &pt->grow.t[t];
		const struct dim *dm = &pt->dims[tn->dim];
		uint32_t v = r[tn->dim], leafid, c;

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

/* Moves the records of the leaves under t (t included) into p. */
static void
merge_down(struct part *pt, size_t t, struct pstat *ps, struct pstat *p)
{
	size_t k;

	if (pt->grow.t[t].leaf) {
		struct pstat tmp = ps[t];

		/* Only the records: p has the statistics already, or gets
		 * them from the kids' sums below. */
		memset(&tmp.h, 0, sizeof(tmp.h));
		tmp.n = 0;
		tmp.s = tmp.ss = 0;
		pstat_merge(pt, p, &tmp, 1);
		ps[t].path = NULL;
		return;
	}
	for (k = 0; k < pt->grow.t[t].nkid; k++)
		merge_down(pt, pt->grow.t[t].kid0 + k, ps, p);
}

/* The number of nodes under t (t excluded). */
static uint64_t
subtree_size(struct part *pt, size_t t)
{
	uint64_t n = 0;
	size_t k;

	if (pt->grow.t[t].leaf)
		return 0;
	for (k = 0; k < pt->grow.t[t].nkid; k++)
		n += 1 + subtree_size(pt, pt->grow.t[t].kid0 + k);
	return n;
}

/* The cuts left in the subtree of t. */
static uint64_t
count_cuts(struct part *pt, size_t t)
{
	uint64_t n = 0;
	size_t k;

	if (pt->grow.t[t].leaf)
		return 0;
	for (k = 0; k < pt->grow.t[t].nkid; k++)
		n += count_cuts(pt, pt->grow.t[t].kid0 + k);
	return n + 1;
}

/* Collects the final leaves under t, in order, into st (pushed in
 * reverse later). */
static void
collect(struct part *pt, size_t t, struct pstat *ps, struct onode *out, size_t *nout)
{
	size_t k;

	if (pt->grow.t[t].leaf) {
		if (ps[t].n == 0) {
			if (ps[t].path != NULL)
				kn_rmtemp(ps[t].path);
			ps[t].path = NULL;
			return;
		}
		out[*nout].path = ps[t].path;
		out[*nout].n = ps[t].n;
		out[*nout].raw = 0;
		out[*nout].big = pt->grow.t[t].big;
		ps[t].path = NULL;
		(*nout)++;
		return;
	}
	for (k = 0; k < pt->grow.t[t].nkid; k++)
		collect(pt, pt->grow.t[t].kid0 + k, ps, out, nout);
}

/* Writes the records of a node to one file per leaf of the tree gw
 * (ps[t].path), counting the leaves' rows in ps[t].n, or with stats all
 * of their population statistics. */
static void
route_rows(struct part *pt, const struct onode *on, struct pstat *ps, int stats)
{
	struct oread rd;
	uint32_t *r;
	size_t t;

	for (t = 0; t < pt->grow.n; t++) {
		int fd;

		pt->grow.t[t].left = pt->grow.t[t].eqleft;
		if (!pt->grow.t[t].leaf)
			continue;
		fd = kn_mktemp(pt->rk->tmpdir, &ps[t].path);
		if ((ps[t].f = fdopen(fd, "wb")) == NULL)
			kn_die_sys("%s", ps[t].path);
	}
	oread_open(pt, &rd, on);
	while ((r = oread_next(pt, &rd)) != NULL) {
		struct pstat *p = &ps[route(pt, r)];

		if (stats)
			pstat_add(pt, p, r);
		else
			p->n++;
		if (fwrite(r, pt->rec_words * sizeof(uint32_t), 1, p->f) != 1)
			kn_die_sys("%s: write error", p->path);
	}
	oread_close(&rd);
	for (t = 0; t < pt->grow.n; t++) {
		if (ps[t].f == NULL)
			continue;
		if (fflush(ps[t].f) != 0 || ferror(ps[t].f))
			kn_die_sys("%s: write error", ps[t].path);
		fclose(ps[t].f);
		ps[t].f = NULL;
		pt->acct.bwritten += ps[t].n * pt->rec_words * sizeof(uint32_t);
	}
	pt->acct.repart++;
}

/* One step of Rothko-S on a node too large for memory: grow a tree on
 * a sample with the tests of 004 §3.1, repartition the node across its
 * leaves counting their population statistics, merge back every
 * subtree with a part that fails a requirement, and hand the leaves
 * back (into kids, in order).  Returns the number of kids; 0 when the
 * sample made no progress. */
static size_t
rothko_s_step(struct part *pt, const struct onode *on, struct onode **kids,
    const char *checkname)
{
	uint64_t ns = pt->rk->avail / (8 * pt->rec_words + 40), kk, lo, hi;
	struct pstat *ps;
	size_t t, nk = 0;

	if (pt->rk->sample_max != 0 && ns > pt->rk->sample_max)
		ns = pt->rk->sample_max;
	if (pt->rk->fit_rows != 0 && ns > pt->rk->fit_rows)
		ns = pt->rk->fit_rows;
	if (ns > on->n)
		ns = on->n;
	if (ns < 2)
		kn_die("-S %zu: too small for a sample", pt->budget);
	pt->rk->gbytes = 0;
	if (checkname != NULL) {
		/* The whole table must meet the requirements. */
		struct pstat all;

		memset(&all, 0, sizeof(all));
		sample_node(pt, on, ns, &all);
		if (!pstat_ok(pt, &all)) {
			fprintf(stderr, "%s: %s: no partitioning: the whole "
			    "table (%llu rows) does not meet the "
			    "requirements\n", kn_prog, checkname,
			    (unsigned long long)on->n);
			kn_exit(1);
		}
		free(all.h.e);
		free(all.h.slot);
	} else
		sample_node(pt, on, ns, NULL);
	/* Growth. */
	pt->nrows = ns;
	pt->sample.on = 1;
	pt->sample.n = ns;
	pt->sample.N = on->n;
	pt->sample.k = pt->req.k;
	pt->sample.alpha = pt->rk->alpha;
	pt->sample.m = 2;
	/* The least sample count that passes the k test of a binary cut
	 * stands for k in the sample. */
	for (lo = 1, hi = ns + 1; lo < hi;) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (pt->sample.naive ? (long double)mid * on->n >=
		    (long double)pt->req.k * ns : hypo_k(mid, ns, on->n, pt->req.k,
		    pt->rk->alpha, 2))
			hi = mid;
		else
			lo = mid + 1;
	}
	kk = pt->req.k;
	pt->req.k = lo;
	pt->grow.on = 1;
	pt->grow.n = 0;
	pt->grow.maxdepth = 8;
	pt->grow.maxleaves = 256;
	scratch(pt, 1);
	partition(pt);
	scratch(pt, 0);
	pt->req.k = kk;
	pt->sample.on = 0;
	pt->grow.on = 0;
	if (pt->grow.t[0].leaf) {
		free(pt->grow.t);
		memset(&pt->grow, 0, sizeof(pt->grow));
		return 0;
	}
	/* Repartitioning, with the population statistics of the leaves. */
	ps = kn_zalloc(pt->grow.n * sizeof(struct pstat));
	pt->rk->gbytes = 0;
	route_rows(pt, on, ps, 1);
	/* Pruning, bottom up: kids come after their parents. */
	for (t = pt->grow.n; t-- > 0;) {
		struct tnode *tn = &pt->grow.t[t];
		size_t k;
		int bad = 0;

		if (tn->leaf)
			continue;
		for (k = 0; k < tn->nkid; k++) {
			struct pstat *kp = &ps[tn->kid0 + k];

			bad |= kp->n > 0 && !pstat_ok(pt, kp);
		}
		/* Rows of a child the sample did not have, or outside the
		 * sample's node: the parts would not be disjoint regions of
		 * the hierarchy, so the cut is undone too. */
		if (tn->hier && ps[tn->kid0 + tn->nkid - 1].n > 0)
			bad = 1;
		for (k = 0; k < tn->nkid; k++)
			pstat_merge(pt, &ps[t], &ps[tn->kid0 + k], 0);
		if (bad) {
			/* Merge the subtree back into t. */
			pt->pruned += subtree_size(pt, t);
			for (k = 0; k < tn->nkid; k++)
				merge_down(pt, tn->kid0 + k, ps, &ps[t]);
			tn->leaf = 1;
		}
	}
	if (pt->grow.t[0].leaf) {
		/* Everything merged back: no progress. */
		if (ps[0].path != NULL)
			kn_rmtemp(ps[0].path);
		ps[0].path = NULL;
		nk = 0;
	} else {
		*kids = kn_alloc(pt->grow.n * sizeof(struct onode));
		collect(pt, 0, ps, *kids, &nk);
		pt->ncuts += count_cuts(pt, 0);
	}
	for (t = 0; t < pt->grow.n; t++) {
		free(ps[t].h.e);
		free(ps[t].h.slot);
		if (ps[t].path != NULL)
			kn_rmtemp(ps[t].path);
		free(pt->grow.t[t].cid);
	}
	free(ps);
	free(pt->grow.t);
	memset(&pt->grow, 0, sizeof(pt->grow));
	return nk;
}


/* Repartitions a node across the leaves of the tree gw; fills kids
 * with the nonempty leaves in order.  Returns their number. */
static size_t
repartition_tree(struct part *pt, const struct onode *on, struct onode **kids)
{
	struct pstat *ps = kn_zalloc(pt->grow.n * sizeof(struct pstat));
	size_t nk = 0;

	route_rows(pt, on, ps, 0);
	*kids = kn_alloc((pt->grow.n + 1) * sizeof(struct onode));
	collect(pt, 0, ps, *kids, &nk);
	free(ps);
	return nk;
}

/* One step of Rothko-T on a node too large for memory (004 §2): the
 * tree is grown breadth first, the frequency groups of up to fcache
 * nodes counted per scan by routing every row through it, each cut
 * chosen from them exactly as in memory; then the rows are
 * repartitioned across the leaves, which are handed back in order.
 * Returns 0 when the node itself has no allowable cut. */
static size_t
rothko_t_step(struct part *pt, const struct onode *on, struct onode **kids,
    const char *checkname)
{
	struct gtab *G, *gsave = pt->rk->gtab;
	size_t *front, nf = 0, fb = 0, nb, b, t, j;
	long *slot;
	struct oread rd;
	uint32_t *r;
	size_t nk;

	pt->grow.n = 0;
	pt->grow.cap = 0;
	pt->grow.t = NULL;
	t = tnew(pt, 0);
	pt->grow.t[t].n = on->n;
	front = kn_alloc(1024 * sizeof(size_t));
	front[nf++] = t;
	G = kn_zalloc(pt->rk->fcache * pt->nqi * sizeof(struct gtab));
	/* Level by level while a level's nodes fit in one batch, as the
	 * report's FCACHE: past that the rows are repartitioned. */
	while (fb < nf && nf - fb <= pt->rk->fcache && pt->grow.n + 2 < 512) {
		nb = nf - fb;
again:
		slot = kn_alloc(pt->grow.n * sizeof(long));
		for (t = 0; t < pt->grow.n; t++) {
			slot[t] = -1;
			pt->grow.t[t].left = pt->grow.t[t].eqleft;
		}
		pt->rk->gbytes = 0;
		for (b = 0; b < pt->rk->fcache; b++) {
			if (b < nb)
				slot[front[fb + b]] = (long)b;
			for (j = 0; j < pt->nqi; j++)
				gclear(pt, &G[b * pt->nqi + j], b < nb);
		}
		/* One scan counts the groups of the whole batch; if they
		 * outgrow the budget, half the batch is tried. */
		pt->rk->gsoft = nb > 1;
		pt->rk->gover = 0;
		oread_open(pt, &rd, on);
		while ((r = oread_next(pt, &rd)) != NULL && !pt->rk->gover) {
			long sl = slot[route(pt, r)];

			if (sl < 0)
				continue;
			for (j = 0; j < pt->nqi; j++)
				gcount(pt, &G[sl * pt->nqi + j], j, r);
		}
		oread_close(&rd);
		free(slot);
		pt->rk->gsoft = 0;
		if (pt->rk->gover) {
			nb /= 2;
			goto again;
		}
		for (b = 0; b < nb; b++) {
			size_t tn = front[fb + b], m = 2, k, i;
			struct cut best;
			uint64_t *kc;

			pt->rk->gtab = &G[b * pt->nqi];
			groups_finish(pt, pt->grow.t[tn].n);
			if (tn == 0 && checkname != NULL &&
			    !side_ok(pt, &pt->node.tot, pt->hs_side, 1)) {
				fprintf(stderr, "%s: %s: no partitioning: the "
				    "whole table (%llu rows) does not meet the "
				    "requirements\n", kn_prog, checkname,
				    (unsigned long long)on->n);
				kn_exit(1);
			}
			decide(pt, &best);
			/* A node found final is one class; past 512 tree
			 * nodes (files to write at once) the rest wait for
			 * the next step. */
			if (!best.found || (tn != 0 &&
			    pt->grow.n + pt->rk->gtab[best.dim].n + 2 > 512)) {
				pt->grow.t[tn].big = !best.found;
				untotals(pt);
				continue;
			}
			pt->ncuts++;
			kc = kn_zalloc((pt->rk->gtab[best.dim].n + 3) *
			    sizeof(uint64_t));
			if (!best.fast) {
				/* A hierarchy: the children present, in order,
				 * and an "other" kid that stays empty. */
				const struct gtab *gg = &pt->rk->gtab[best.dim];
				uint32_t *cid = kn_alloc((gg->n + 1) *
				    sizeof(uint32_t));

				m = 0;
				for (i = 0; i < gg->n; i++) {
					uint32_t c = child_of(pt, best.dim,
					    gg->e[i].code - pt->node.mn[best.dim]);

					if (m == 0 || cid[m - 1] != c)
						cid[m++] = c;
					kc[m - 1] += gg->e[i].cnt;
				}
				pt->grow.t[tn].hier = 1;
				pt->grow.t[tn].lv = pt->node.lv[best.dim];
				pt->grow.t[tn].x = pt->node.node[best.dim];
				pt->grow.t[tn].cid = cid;
				m++;
			} else {
				kc[0] = best.L;
				kc[1] = pt->grow.t[tn].n - best.L;
				if (pt->req.relaxed) {
					pt->grow.t[tn].rel = 1;
					pt->grow.t[tn].med = best.med;
					pt->grow.t[tn].eqleft = best.eqleft;
				} else
					pt->grow.t[tn].thr = best.med;
			}
			pt->grow.t[tn].dim = best.dim;
			pt->grow.t[tn].nkid = m;
			pt->grow.t[tn].kid0 = pt->grow.n;
			pt->grow.t[tn].leaf = 0;
			for (k = 0; k < m; k++) {
				size_t kt = tnew(pt, pt->grow.t[tn].depth + 1);

				pt->grow.t[kt].n = kc[k];
				if (kc[k] > 0 && !fits(pt, kc[k])) {
					if (nf % 1024 == 0)
						front = kn_realloc(front, (nf +
						    1024) * sizeof(size_t));
					front[nf++] = kt;
				}
			}
			free(kc);
			untotals(pt);
		}
		fb += nb;
	}
	pt->rk->gtab = gsave;
	for (b = 0; b < pt->rk->fcache * pt->nqi; b++) {
		free(G[b].e);
		free(G[b].slot);
		free(G[b].arr);
	}
	free(G);
	free(front);
	if (pt->grow.t[0].leaf) {
		nk = 0;
		*kids = NULL;
		if (pt->grow.t[0].big == 0)
			pt->grow.t[0].big = 1;
	} else
		nk = repartition_tree(pt, on, kids);
	for (t = 0; t < pt->grow.n; t++)
		free(pt->grow.t[t].cid);
	free(pt->grow.t);
	memset(&pt->grow, 0, sizeof(pt->grow));
	return nk;
}

/* Rothko-T: nodes too large for memory are cut from their frequency
 * groups and repartitioned to disk, depth first; a node that fits is
 * partitioned in memory.  The classes are those of the in-memory
 * algorithm, numbered alike. */
static void
rothko_t(struct part *pt, struct onode *root, const char *name)
{
	struct onode *st = NULL;
	size_t nst = 0, cap = 0;
	int isroot = 1;

	if (root->n == 0)
		return;
	st = kn_alloc(16 * sizeof(struct onode));
	cap = 16;
	st[nst++] = *root;
	while (nst > 0) {
		struct onode on = st[--nst];
		size_t g;

		if (fits(pt, on.n)) {
			solve_in_memory(pt, &on, isroot ? name : NULL);
			kn_rmtemp(on.path);
			isroot = 0;
			continue;
		}
		if (on.big) {
			/* Known to have no allowable cut: one class. */
			groups(pt, &on);
			big_leaf(pt, &on);
			untotals(pt);
			kn_rmtemp(on.path);
			continue;
		}
		if (pt->rk->sampling) {
			struct onode *sk = NULL;
			size_t nk = rothko_s_step(pt, &on, &sk, isroot ? name :
			    NULL);
			int tries;

			/* A sample whose splits were all undone: try two
			 * more before giving up on sampling this node. */
			for (tries = 1; nk == 0 && tries < 3; tries++) {
				free(sk);
				sk = NULL;
				nk = rothko_s_step(pt, &on, &sk, NULL);
			}
			isroot = 0;
			if (nk > 0) {
				kn_rmtemp(on.path);
				if (nst + nk > cap) {
					cap = 2 * (nst + nk);
					st = kn_realloc(st, cap *
					    sizeof(struct onode));
				}
				for (g = nk; g-- > 0;)
					st[nst++] = sk[g];
				free(sk);
				continue;
			}
			free(sk);
			/* No progress from the sample: the exact step of
			 * Rothko-T. */
		}
		{
			struct onode *tk = NULL;
			size_t nk = rothko_t_step(pt, &on, &tk, isroot ? name :
			    NULL);

			isroot = 0;
			if (nk == 0) {
				/* No allowable cut: one class. */
				free(tk);
				groups(pt, &on);
				big_leaf(pt, &on);
				untotals(pt);
				kn_rmtemp(on.path);
				continue;
			}
			kn_rmtemp(on.path);
			if (nst + nk > cap) {
				cap = 2 * (nst + nk);
				st = kn_realloc(st, cap * sizeof(struct onode));
			}
			for (g = nk; g-- > 0;)
				st[nst++] = tk[g];
			free(tk);
		}
	}
	free(st);
}

/* The class of a row.  Out of core the pairs file is read once per
 * bucket of rows that fits the budget. */
static uint32_t
class_of(struct part *pt, uint64_t row)
{
	uint64_t B;
	uint32_t pr[2 * 4096];
	size_t got, i;
	FILE *f;

	if (!pt->ooc)
		return pt->row_class[row];
	if (row >= pt->rk->bucket_lo && row < pt->rk->bucket_hi)
		return pt->rk->bucket[row - pt->rk->bucket_lo];
	B = pt->rk->avail / sizeof(uint32_t);
	if (B < 4096)
		B = 4096;
	if (pt->rk->bucket == NULL)
		pt->rk->bucket = kn_alloc((pt->nrows < B ? pt->nrows : B) * sizeof(uint32_t) + 4);
	pt->rk->bucket_lo = row;
	pt->rk->bucket_hi = row + B < pt->nrows ? row + B : pt->nrows;
	if ((f = fopen(pt->pairs_path, "rb")) == NULL)
		kn_die_sys("%s", pt->pairs_path);
	pt->acct.scans++;
	while ((got = fread(pr, 2 * sizeof(uint32_t), 4096, f)) > 0) {
		pt->acct.bread += got * 2 * sizeof(uint32_t);
		for (i = 0; i < got; i++)
			if (pr[2 * i] >= pt->rk->bucket_lo && pr[2 * i] < pt->rk->bucket_hi)
				pt->rk->bucket[pr[2 * i] - pt->rk->bucket_lo] = pr[2 * i + 1];
	}
	if (ferror(f))
		kn_die_sys("%s: read error", pt->pairs_path);
	fclose(f);
	return pt->rk->bucket[row - pt->rk->bucket_lo];
}


/* Once the rows are read: codes for the values, exact scales for the
 * sums, and the scratch of the nodes. */
static void
prepare(struct part *pt, const char *scol, const char *tcol)
{
	size_t i, j;

	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j];

		if (dm->h != NULL) {
			if (dm->dfsrank == NULL)
				prepare_hier(dm);
			for (i = 0; i < pt->nrows && !pt->ooc; i++)
				pt->rec[i * pt->rec_words + j] = dm->dfsrank[pt->rec[i * pt->rec_words + j]];
		} else if (pt->ooc)
			rank_ids(pt, dm);
		else
			rank_numeric(pt, dm, j);
	}
	if (pt->req.hasv) {
		kn_i128 s = 0, ss = 0;

		for (i = 0; i < pt->sens_dict.n; i++)
			if (__builtin_mul_overflow(pt->sens_val[i],
			    kn_pow10(pt->sens_F - pt->sens_scale[i]), &pt->sens_val[i]))
				kn_die("-s %s: too many digits for exact "
				    "variances", scol);
		if (pt->ooc && !pt->rk->exact_sums) {
			/* The rows are on disk: bound the sums by the largest
			 * value. */
			kn_i128 mx = 0, b;

			for (i = 0; i < pt->sens_dict.n; i++)
				if ((pt->sens_val[i] < 0 ? -pt->sens_val[i] : pt->sens_val[i]) > mx)
					mx = pt->sens_val[i] < 0 ? -pt->sens_val[i] : pt->sens_val[i];
			if (__builtin_mul_overflow(mx, mx, &b) ||
			    __builtin_mul_overflow(b, (kn_i128)pt->nrows + 1, &b))
				kn_die("-s %s: values too large for exact "
				    "variances", scol);
		}
		for (i = 0; i < pt->nrows && !pt->ooc; i++) {
			kn_i128 v = pt->sens_val[pt->rec[i * pt->rec_words + pt->word_sens]], a = v < 0 ? -v : v;

			if (__builtin_add_overflow(s, a, &s) ||
			    __builtin_mul_overflow(v, v, &v) ||
			    __builtin_add_overflow(ss, v, &ss))
				kn_die("-s %s: values too large for exact "
				    "variances", scol);
		}
	}

	if (pt->req.split == SPLIT_INFOGAIN) {
		/* Labels numbered in byte order, so that scores are summed
		 * in an order that does not depend on the rows'. */
		uint32_t *rk = kn_dict_ranks(&pt->targ_dict);

		for (i = 0; i < pt->nrows && !pt->ooc; i++)
			pt->rec[i * pt->rec_words + pt->word_targ] = rk[pt->rec[i * pt->rec_words + pt->word_targ]];
		if (pt->ooc)
			pt->rk->label_rank = rk;
		else
			free(rk);
		pt->xlx_n = pt->nrows + 1 < ((size_t)1 << 20) ? pt->nrows + 1 : (size_t)1 << 20;
		pt->xlx_tab = kn_alloc(pt->xlx_n * sizeof(kn_i128));
		for (i = 0; i < pt->xlx_n; i++)
			pt->xlx_tab[i] = i < 2 ? 0 : (kn_i128)llroundl(
			    (long double)i * logl((long double)i) *
			    4294967296.0L);
	}
	if (pt->req.split == SPLIT_REGRESSION) {
		kn_i128 s = 0;

		for (i = 0; i < pt->targ_dict.n; i++)
			if (__builtin_mul_overflow(pt->targ_val[i],
			    kn_pow10(pt->targ_F - pt->targ_scale[i]), &pt->targ_val[i]))
				kn_die("-t %s: too many digits for exact sums",
				    tcol);
		if (pt->ooc && !pt->rk->exact_sums) {
			kn_i128 mx = 0, b;

			for (i = 0; i < pt->targ_dict.n; i++)
				if ((pt->targ_val[i] < 0 ? -pt->targ_val[i] : pt->targ_val[i]) > mx)
					mx = pt->targ_val[i] < 0 ? -pt->targ_val[i] : pt->targ_val[i];
			if (__builtin_mul_overflow(mx, (kn_i128)pt->nrows + 1, &b))
				kn_die("-t %s: values too large for exact "
				    "sums", tcol);
		}
		for (i = 0; i < pt->nrows && !pt->ooc; i++) {
			kn_i128 v = pt->targ_val[pt->rec[i * pt->rec_words + pt->word_targ]];

			if (__builtin_add_overflow(s, v < 0 ? -v : v, &s))
				kn_die("-t %s: values too large for exact "
				    "sums", tcol);
		}
	}

	/* Scratch for the nodes. */
	if (!pt->ooc) {
		scratch(pt, 1);
		pt->row_class = kn_alloc((pt->nrows + 1) * sizeof(uint32_t));
	} else
		pt->rk->gtab = kn_zalloc((pt->nqi + 1) * sizeof(struct gtab));
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
}

/* ---- on a cluster: Rothko-T as map and reduce jobs (004 §2) ------- */

/*
 * The jobs share a tree file, which reducers' outputs are appended to.
 * One record a line, tab-separated:
 *
 *	sig	OPTS		the options, columns and hierarchies the
 *				tree is grown with
 *	domain	Q MIN MAX S	numeric QI Q: the table's range and scale
 *	scale	s|t F		the scale of the sensitive value, the target
 *	size	ID N		node ID holds N rows
 *	cut	ID Q V		rows with Q <= V go to ID.0, the others ID.1
 *	hcut	ID Q LV A ...	rows under A (a node at level LV-1 of Q's
 *				hierarchy) go to ID.0, under the next ID.1 ...
 *	region	ID N ...	node ID is a class: its region
 *
 * The groups lines are "ID, QI number, value, sensitive value, target,
 * count", and "ID, n, , , , rows" for the node's rows.
 *
 * The root is r.  A node without a cut or a region is open while it
 * holds more than --fit-rows rows: a level job (groups, then cuts)
 * counts its frequency groups and cuts it as partition() would.  Then
 * the rows of each node that fits go to one reducer (rows, then solve),
 * which partitions it in memory and writes its subtree; classes routes
 * every row to its class, numbered depth-first as in memory, and
 * regions writes the regions file.  Every choice is made on exact
 * counts with the same rules, so the output is the one partition makes
 * on one machine.
 */

static const char *const jobnames[] = { "", "groups", "cuts", "rows",
    "solve", "classes", "regions", "open", NULL };


/* Whether a node of n rows is partitioned in memory by a solve job. */
static int
fits_cluster(struct part *pt, uint64_t n)
{
	return n <= (pt->rk->fit_rows ? pt->rk->fit_rows : 1000000);
}

/* The node with id s (n bytes), added if new. */
static uint32_t
cnode_id(struct part *pt, const char *s, size_t n)
{
	uint32_t id = kn_dict_intern(&pt->cl->tree.ids, s, n);

	if (id >= pt->cl->tree.cap) {
		size_t nc = pt->cl->tree.cap ? 2 * pt->cl->tree.cap : 64;

		pt->cl->tree.v = kn_realloc(pt->cl->tree.v, nc * sizeof(struct cnode));
		memset(pt->cl->tree.v + pt->cl->tree.cap, 0, (nc - pt->cl->tree.cap) * sizeof(struct cnode));
		pt->cl->tree.cap = nc;
	}
	return id;
}

/* Whether node c waits for a level job (one that fits waits for the
 * solve job). */
static int
cnode_open(struct part *pt, const struct cnode *c)
{
	return c->kind == CN_OPEN && !(c->hasn && fits_cluster(pt, c->n));
}

/* The QI named s, or die naming the tree line. */
static size_t
tree_dim(struct part *pt, const kn_str *f, const kn_reader *r)
{
	size_t j;

	for (j = 0; j < pt->nqi; j++)
		if (strlen(pt->dims[j].name) == f->n &&
		    memcmp(pt->dims[j].name, f->p, f->n) == 0)
			return j;
	kn_die("%s:%llu: '%.*s' is not a quasi-identifier", r->name,
	    (unsigned long long)r->lineno, (int)f->n, f->p);
}

static int cmp_dec(int64_t a, int as, int64_t b, int bs);

/* Parses an unsigned count field of a tree line. */
static uint64_t
tree_u64(const kn_str *f, const kn_reader *r, const char *what)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (f->p[i] < '0' || f->p[i] > '9' || v > (UINT64_MAX - 9) / 10)
			kn_die("%s:%llu: '%.*s' is not %s", r->name,
			    (unsigned long long)r->lineno, (int)f->n, f->p,
			    what);
		v = v * 10 + (uint64_t)(f->p[i] - '0');
	}
	if (f->n == 0)
		kn_die("%s:%llu: an empty field, not %s", r->name,
		    (unsigned long long)r->lineno, what);
	return v;
}

/* A node defined by a tree line, which must not be defined already. */
static struct cnode *
tree_define(struct part *pt, const kn_str *f, const kn_reader *r, int kind)
{
	uint32_t id = cnode_id(pt, f->p, f->n);
	struct cnode *c = &pt->cl->tree.v[id];

	if (c->kind != CN_OPEN)
		kn_die("%s:%llu: node %.*s is defined twice (a level "
		    "appended twice?)", r->name, (unsigned long long)r->lineno,
		    (int)f->n, f->p);
	c->kind = kind;
	return c;
}

/* Splits a line at tabs, which become NULs, into *f (grown as
 * needed); the field count. */
static size_t
split_line(char *line, size_t len, kn_str **f, size_t *cap)
{
	size_t n = 0, i, start = 0;

	for (i = 0; i <= len; i++) {
		if (i < len && line[i] != '\t')
			continue;
		if (n == *cap) {
			*cap = *cap ? 2 * *cap : 16;
			*f = kn_realloc(*f, *cap * sizeof(kn_str));
		}
		(*f)[n].p = line + start;
		(*f)[n].n = i - start;
		if (i < len)
			line[i] = '\0';
		n++;
		start = i + 1;
	}
	return n;
}

/* Reads the tree file (none yet: an empty tree, the root open). */
static void
tree_load(struct part *pt, const char *path)
{
	kn_reader r;
	kn_str *f = NULL;
	size_t cap = 0, nf, i, k;
	uint32_t id, n;

	kn_dict_init(&pt->cl->tree.ids);
	pt->cl->tree.path = path;
	cnode_id(pt, "r", 1);
	kn_reader_open(&r, path);
	while (kn_getline(&r)) {
		struct cnode *c = NULL;
		const char *ty, *tab;
		char *rest = NULL;

		if (pt->cl->tree.regions && r.len > 7 &&
		    memcmp(r.line, "region\t", 7) == 0 &&
		    (tab = memchr(r.line + 7, '\t', r.len - 7)) != NULL)
			rest = kn_strdup(tab + 1);
		nf = split_line(r.line, r.len, &f, &cap);
		ty = f[0].p;
		if (nf == 2 && strcmp(ty, "sig") == 0) {
			if (strcmp(f[1].p, pt->cl->tree.sig) != 0)
				kn_die("%s:%llu: the tree was grown with other "
				    "options (%s) than these (%s)", r.name,
				    (unsigned long long)r.lineno, f[1].p,
				    pt->cl->tree.sig);
		} else if (nf == 5 && strcmp(ty, "domain") == 0) {
			struct dim *dm = &pt->dims[tree_dim(pt, &f[1], &r)];
			int64_t a, b;
			uint64_t S = tree_u64(&f[4], &r, "a scale");
			int sa, sb;

			if (dm->h != NULL || S > 18 || !parse_num(f[2].p,
			    f[2].n, &a, &sa) || !parse_num(f[3].p, f[3].n, &b,
			    &sb) || sa > (int)S || sb > (int)S ||
			    cmp_dec(a, sa, b, sb) > 0 ||
			    __builtin_mul_overflow(a, (int64_t)kn_pow10(S - sa),
			    &dm->gmn) || __builtin_mul_overflow(b,
			    (int64_t)kn_pow10(S - sb), &dm->gmx))
				kn_die("%s:%llu: a bad domain line", r.name,
				    (unsigned long long)r.lineno);
			dm->fS = (int)S;
			dm->hasg = 1;
		} else if (nf == 3 && strcmp(ty, "scale") == 0) {
			uint64_t F = tree_u64(&f[2], &r, "a scale");

			if (F > 38 || (strcmp(f[1].p, "s") != 0 &&
			    strcmp(f[1].p, "t") != 0))
				kn_die("%s:%llu: a bad scale line", r.name,
				    (unsigned long long)r.lineno);
			if (strcmp(f[1].p, "s") == 0)
				pt->sens_F = (int)F;
			else
				pt->targ_F = (int)F;
		} else if (nf == 3 && strcmp(ty, "size") == 0) {
			id = cnode_id(pt, f[1].p, f[1].n);
			c = &pt->cl->tree.v[id];
			c->n = tree_u64(&f[2], &r, "a row count");
			c->hasn = 1;
		} else if (nf == 4 && strcmp(ty, "cut") == 0) {
			size_t j = tree_dim(pt, &f[2], &r);
			int64_t m;
			int sc;

			if (pt->dims[j].h != NULL || !parse_num(f[3].p, f[3].n, &m,
			    &sc))
				kn_die("%s:%llu: a bad cut", r.name,
				    (unsigned long long)r.lineno);
			c = tree_define(pt, &f[1], &r, CN_CUT);
			c->dim = j;
			c->tm = m;
			c->tsc = sc;
			c->nk = 2;
		} else if (nf >= 6 && strcmp(ty, "hcut") == 0) {
			size_t j = tree_dim(pt, &f[2], &r);
			kn_hier *h = pt->dims[j].h;
			uint64_t lv = tree_u64(&f[3], &r, "a level");

			if (h == NULL || lv < 1 || lv > (uint64_t)h->nlevels)
				kn_die("%s:%llu: a bad hierarchy cut", r.name,
				    (unsigned long long)r.lineno);
			c = tree_define(pt, &f[1], &r, CN_HCUT);
			c->dim = j;
			c->lv = (int)lv;
			c->nk = nf - 4;
			c->clab = kn_alloc(c->nk * sizeof(uint32_t));
			for (k = 0; k < c->nk; k++) {
				int64_t x = kn_dict_find(&h->lab[lv - 1],
				    f[4 + k].p, f[4 + k].n);

				if (x < 0)
					kn_die("%s:%llu: '%.*s' is not at level "
					    "%d of the hierarchy of %s", r.name,
					    (unsigned long long)r.lineno,
					    (int)f[4 + k].n, f[4 + k].p, (int)lv - 1,
					    pt->dims[j].name);
				c->clab[k] = (uint32_t)x;
			}
		} else if (nf >= 3 && strcmp(ty, "region") == 0) {
			c = tree_define(pt, &f[1], &r, CN_CLASS);
			c->n = tree_u64(&f[2], &r, "a row count");
			c->hasn = 1;
			c->region = rest;
			rest = NULL;
		} else
			kn_die("%s:%llu: not a line of a partition tree",
			    r.name, (unsigned long long)r.lineno);
		free(rest);
		if (c != NULL && c->nk > 0 && c->kid == NULL) {
			c->kid = kn_alloc(c->nk * sizeof(uint32_t));
			for (k = 0; k < c->nk; k++)
				c->kid[k] = UINT32_MAX;
		}
	}
	kn_reader_close(&r);
	free(f);
	/* Each node but the root is kid i of the node its id extends. */
	n = (uint32_t)pt->cl->tree.ids.n;
	for (id = 1; id < n; id++) {
		kn_str s = kn_dict_get(&pt->cl->tree.ids, id);
		const char *dot = NULL;
		int64_t p = -1;
		uint64_t x = 0;

		for (i = s.n; i-- > 0;)
			if (s.p[i] == '.') {
				dot = s.p + i;
				break;
			}
		if (dot != NULL)
			p = kn_dict_find(&pt->cl->tree.ids, s.p, (size_t)(dot - s.p));
		for (i = dot != NULL ? (size_t)(dot - s.p) + 1 : s.n; i < s.n;
		    i++)
			x = s.p[i] >= '0' && s.p[i] <= '9' && x < 1u << 30 ?
			    x * 10 + (uint64_t)(s.p[i] - '0') : UINT64_MAX;
		/* Kid numbers are written without leading zeros. */
		if (p < 0 || dot + 1 == s.p + s.n || x >= pt->cl->tree.v[p].nk ||
		    (dot[1] == '0' && dot + 2 != s.p + s.n) ||
		    pt->cl->tree.v[p].kid[x] != UINT32_MAX)
			kn_die("%s: node %.*s lies under no cut of the tree",
			    path, (int)s.n, s.p);
		pt->cl->tree.v[p].kid[x] = id;
	}
}

/* Parses the QIs of the current row of t into rv. */
static void
parse_row(struct part *pt, kn_table *t)
{
	const char *err;
	size_t j;

	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j];
		kn_str v = t->f[dm->col];

		if (dm->h != NULL) {
			int64_t id = kn_hier_leaf(dm->h, v.p, v.n, &err);

			if (id < 0)
				kn_table_fail(t, dm->col, "'%.*s': %s",
				    (int)v.n, v.p, err);
			pt->cl->rowval[j].leaf = (uint32_t)id;
		} else if (!parse_num(v.p, v.n, &pt->cl->rowval[j].m, &pt->cl->rowval[j].sc))
			kn_table_fail(t, dm->col, "'%.*s' is not a decimal "
			    "number within 64 bits", (int)v.n, v.p);
	}
}

/* Compares a / 10^as with b / 10^bs exactly. */
static int
cmp_dec(int64_t a, int as, int64_t b, int bs)
{
	kn_i128 x = (kn_i128)a, y = (kn_i128)b;

	if (as < bs)
		x *= kn_pow10(bs - as);
	else
		y *= kn_pow10(as - bs);
	return x < y ? -1 : x > y;
}

/* Lays the tree out for route_tree(). */
static void
route_build(struct part *pt)
{
	uint32_t *st, n = 1, i;
	size_t ns = 0, k, ne = 1;

	/* An entry per node and per missing kid. */
	for (i = 0; i < pt->cl->tree.ids.n; i++)
		ne += pt->cl->tree.v[i].nk;
	pt->cl->rnodes = kn_zalloc((ne + 1) * sizeof(struct rnode));
	st = kn_alloc((ne + 1) * sizeof(uint32_t));
	pt->cl->rnodes[0].id = 0;
	st[ns++] = 0;
	while (ns > 0) {
		uint32_t e = st[--ns];
		const struct cnode *c = &pt->cl->tree.v[pt->cl->rnodes[e].id];

		pt->cl->rnodes[e].kind = (uint8_t)c->kind;
		if (c->kind != CN_CUT && c->kind != CN_HCUT)
			continue;
		pt->cl->rnodes[e].dim = (uint16_t)c->dim;
		pt->cl->rnodes[e].tm = c->tm;
		pt->cl->rnodes[e].tsc = (int8_t)c->tsc;
		pt->cl->rnodes[e].nk = (uint32_t)c->nk;
		pt->cl->rnodes[e].clab = c->clab;
		pt->cl->rnodes[e].kid0 = n;
		for (k = 0; k < c->nk; k++) {
			if (c->kid[k] == UINT32_MAX) {
				/* Reached only by a row of a level cut short. */
				pt->cl->rnodes[n].kind = CN_CUT + 8;
				pt->cl->rnodes[n].id = pt->cl->rnodes[e].id;
				pt->cl->rnodes[n].nk = (uint32_t)k;
			} else
				pt->cl->rnodes[n].id = c->kid[k];
			n++;
		}
		for (k = c->nk; k-- > 0;)
			if (c->kid[k] != UINT32_MAX)
				st[ns++] = pt->cl->rnodes[e].kid0 + (uint32_t)k;
	}
	free(st);
}

/* The node of the tree the row parsed into rv lies in. */
static uint32_t
route_tree(struct part *pt, kn_table *t)
{
	const struct rnode *r = pt->cl->rnodes;
	size_t k;
	kn_str s;

	for (;;) {
		const struct rowval *v = &pt->cl->rowval[r->dim];

		if (r->kind == CN_CUT)
			k = (v->sc == r->tsc ? (v->m <= r->tm ? -1 : 1) :
			    cmp_dec(v->m, v->sc, r->tm, r->tsc)) <= 0 ? 0 : 1;
		else if (r->kind == CN_HCUT) {
			uint32_t a = kn_hier_lift(pt->dims[r->dim].h, v->leaf, 0,
			    pt->cl->tree.v[r->id].lv - 1);

			for (k = 0; k < r->nk && r->clab[k] != a; k++)
				;
			if (k == r->nk) {
				size_t col = pt->dims[r->dim].col;

				s = kn_dict_get(&pt->cl->tree.ids, r->id);
				kn_table_fail(t, col, "'%.*s' lies under no "
				    "child of the cut of node %.*s in %s (was "
				    "the tree grown from this table?)",
				    (int)t->f[col].n, t->f[col].p, (int)s.n,
				    s.p, pt->cl->tree.path);
			}
		} else if (r->kind == CN_CUT + 8) {
			s = kn_dict_get(&pt->cl->tree.ids, r->id);
			kn_die("%s: node %.*s.%u is missing (a level cut "
			    "short?)", pt->cl->tree.path, (int)s.n, s.p, r->nk);
		} else
			return r->id;
		r = pt->cl->rnodes + r->kid0 + k;
	}
}

/* Numbers the classes depth-first, as partition() does in memory; dies
 * if a node is still to be partitioned. */
static void
tree_number(struct part *pt)
{
	uint32_t *st = kn_alloc((pt->cl->tree.ids.n + 1) * sizeof(uint32_t));
	size_t ns = 0, k;

	st[ns++] = 0;
	pt->cl->tree.nclass = 0;
	while (ns > 0) {
		struct cnode *c = &pt->cl->tree.v[st[--ns]];

		if (c->kind == CN_CLASS) {
			c->cls = ++pt->cl->tree.nclass;
			continue;
		}
		if (c->kind == CN_OPEN) {
			kn_str s = kn_dict_get(&pt->cl->tree.ids, st[ns]);

			if (c->hasn && c->n == 0)
				continue;	/* an empty table */
			kn_die("%s: node %.*s is not partitioned yet (%s)",
			    pt->cl->tree.path, (int)s.n, s.p, cnode_open(pt, c) ?
			    "run the groups and cuts jobs" :
			    "run the rows and solve jobs");
		}
		for (k = c->nk; k-- > 0;)
			if (c->kid[k] != UINT32_MAX)
				st[ns++] = c->kid[k];
	}
	free(st);
}

/* Groups job (map): per row in an open node, per QI, the group
 * "node, QI, value, sensitive value, target" with a count, summed in
 * memory up to the budget. */
static void
job_groups(struct part *pt, kn_table *t, FILE *fp)
{
	kn_dict g;
	uint64_t *gc = NULL;
	size_t gcap = 0, len, cap = 256, j, i;
	char *key = kn_alloc(cap), num[64];
	size_t lim = pt->budget ? pt->budget : (size_t)64 << 20;

	kn_dict_init(&g);
	if (cnode_open(pt, &pt->cl->tree.v[0]) && !pt->cl->tree.v[0].hasn) {
		/* The root's rows are counted even when there is none. */
		kn_dict_intern(&g, "r\tn\t\t\t", 6);
		gc = kn_zalloc(1024 * sizeof(uint64_t));
		gcap = 1024;
	}
	for (;;) {
		int more = kn_table_next(t);

		if (!more || g.alen + g.n * 48 > lim) {
			/* Write the groups counted so far. */
			for (i = 0; i < g.n; i++) {
				kn_str k = kn_dict_get(&g, (uint32_t)i);

				fwrite(k.p, 1, k.n, fp);
				fprintf(fp, "\t%llu\n",
				    (unsigned long long)gc[i]);
			}
			kn_dict_free(&g);
			kn_dict_init(&g);
		}
		if (!more)
			break;
		parse_row(pt, t);
		{
			uint32_t id = route_tree(pt, t);
			kn_str ns = kn_dict_get(&pt->cl->tree.ids, id);
			kn_str sv = { "", 0 }, yv = { "", 0 };

			if (!cnode_open(pt, &pt->cl->tree.v[id]))
				continue;
			if (pt->has_sens)
				sv = t->f[pt->cl->tree.scol];
			if (pt->has_targ && pt->req.split != SPLIT_MEDIAN)
				yv = t->f[pt->cl->tree.tcol];
			for (j = 0; j <= pt->nqi; j++) {
				kn_str v;
				uint32_t k;

				if (j == pt->nqi) {
					/* The node's row count. */
					v.p = "";
					v.n = 0;
				} else if (pt->dims[j].h != NULL)
					v = kn_dict_get(&pt->dims[j].h->lab[0],
					    pt->cl->rowval[j].leaf);
				else {
					v.n = kn_dec_format((kn_i128)pt->cl->rowval[j].m,
					    pt->cl->rowval[j].sc, num);
					v.p = num;
				}
				len = ns.n + v.n + sv.n + yv.n + 32;
				if (len > cap) {
					cap = 2 * len;
					key = kn_realloc(key, cap);
				}
				memcpy(key, ns.p, ns.n);
				len = ns.n;
				key[len++] = '\t';
				if (j == pt->nqi)
					key[len++] = 'n';
				else
					len += kn_fmt_u64(key + len, j);
				key[len++] = '\t';
				memcpy(key + len, v.p, v.n);
				len += v.n;
				key[len++] = '\t';
				if (j < pt->nqi) {
					memcpy(key + len, sv.p, sv.n);
					len += sv.n;
				}
				key[len++] = '\t';
				if (j < pt->nqi) {
					memcpy(key + len, yv.p, yv.n);
					len += yv.n;
				}
				i = g.n;
				k = kn_dict_intern(&g, key, len);
				if (k >= gcap) {
					gcap = gcap ? 2 * gcap : 1024;
					gc = kn_realloc(gc, gcap *
					    sizeof(uint64_t));
				}
				if (g.n > i)
					gc[k] = 0;
				gc[k]++;
			}
		}
	}
	free(key);
	free(gc);
}

/* The node a reducer's worker is given, which must be open (a cuts
 * job) or fit (a solve job): else the tree and the input disagree. */
static struct cnode *
open_node(struct part *pt, const char *id, int fit)
{
	int64_t x = kn_dict_find(&pt->cl->tree.ids, id, strlen(id));
	struct cnode *c = x < 0 ? NULL : &pt->cl->tree.v[x];

	if (c == NULL || (fit ? c->kind != CN_OPEN || !c->hasn ||
	    !fits_cluster(pt, c->n) : !cnode_open(pt, c)))
		kn_die("node %s is not %s in %s (a job run twice, or on "
		    "another tree?)", id, c == NULL ? "a node" : fit ?
		    "to be solved" : "open", pt->cl->tree.path);
	return c;
}


/* Waits for the worker; exits as it did if it failed. */
static void
worker_end(struct part *pt)
{
	int st;

	if (pt->cl->worker.to == NULL)
		return;
	fclose(pt->cl->worker.to);		/* a worker that died early: EPIPE */
	pt->cl->worker.to = NULL;
	while (waitpid(pt->cl->worker.pid, &st, 0) < 0)
		if (errno != EINTR)
			kn_die_sys("waitpid");
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return;
	if (WIFSIGNALED(st))
		fprintf(stderr, "%s: node %s: the worker died of signal %d\n",
		    kn_prog, pt->cl->worker.id, WTERMSIG(st));
	kn_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 2);
}

static void
per_node(struct part *pt, void (*worker)(struct part *, const char *id), FILE *fp)
{
	kn_reader r;
	kn_dict seen;
	char *cur = NULL;
	size_t curlen = 0;

	kn_dict_init(&seen);
	signal(SIGPIPE, SIG_IGN);
	kn_reader_open(&r, "-");
	while (kn_getline(&r)) {
		const char *tab = memchr(r.line, '\t', r.len);
		size_t idn = tab != NULL ? (size_t)(tab - r.line) : 0;

		if (tab == NULL || idn == 0)
			kn_die("%s:%llu: expected a node id and a tab",
			    r.name, (unsigned long long)r.lineno);
		if (cur == NULL || idn != curlen ||
		    memcmp(cur, r.line, idn) != 0) {
			size_t n0 = seen.n;
			int fd[2];

			worker_end(pt);
			kn_dict_intern(&seen, r.line, idn);
			if (seen.n == n0)
				kn_die("%s:%llu: the lines of node %.*s are not "
				    "together (the input must be sorted)",
				    r.name, (unsigned long long)r.lineno,
				    (int)idn, r.line);
			free(cur);
			cur = kn_strndup(r.line, idn);
			curlen = idn;
			pt->cl->worker.id = cur;
			pt->cl->worker.line0 = r.lineno;
			if (fflush(fp) != 0 || pipe(fd) != 0)
				kn_die_sys("pipe");
			if ((pt->cl->worker.pid = fork()) < 0)
				kn_die_sys("fork");
			if (pt->cl->worker.pid == 0) {
				close(fd[1]);
				if (dup2(fd[0], 0) < 0)
					kn_die_sys("dup2");
				close(fd[0]);
				signal(SIGPIPE, SIG_DFL);
				worker(pt, cur);
				kn_exit(0);
			}
			close(fd[0]);
			if ((pt->cl->worker.to = fdopen(fd[1], "w")) == NULL)
				kn_die_sys("fdopen");
		}
		fwrite(tab + 1, 1, r.len - idn - 1, pt->cl->worker.to);
		putc('\n', pt->cl->worker.to);
		if (ferror(pt->cl->worker.to))
			worker_end(pt);	/* it failed: exit as it did */
	}
	worker_end(pt);
	kn_reader_close(&r);
	free(cur);
	kn_dict_free(&seen);
}

/* Writes v / 10^S of a numeric QI after a tab. */
static void
put_val(FILE *fp, int64_t v, int S)
{
	char b[64];

	b[0] = '\t';
	fwrite(b, 1, 1 + kn_dec_format((kn_i128)v, S, b + 1), fp);
}

/* Cuts job (reduce), one node: its groups "QI, value, sensitive value,
 * target, count" (the same group on several lines is added), then the
 * cut partition() would make, or the node's region if there is none. */
static void
worker_cuts(struct part *pt, const char *id)
{
	struct gl {
		uint32_t j, v, s, y;
		uint64_t cnt;
	} *gl = NULL;
	size_t n = 0, cap = 0, nf, fcap = 0, i, j;
	kn_str *f = NULL;
	kn_reader r;
	uint64_t tot = 0, *dt = kn_zalloc((pt->nqi + 1) * sizeof(uint64_t));
	int root = strcmp(id, "r") == 0;
	const char *err;
	struct cut best;
	struct cnode *c = open_node(pt, id, 0);
	uint64_t qn;

	pt->inname = "the groups";
	kn_reader_open(&r, "-");
	/* Lines numbered as in the reducer's input. */
	r.name = "stdin";
	r.lineno = pt->cl->worker.line0 - 1;
	while (kn_getline(&r)) {
		struct gl e;
		kn_str cf;

		nf = split_line(r.line, r.len, &f, &fcap);
		if (nf != 5)
			kn_die("%s:%llu: node %s: expected 5 fields "
			    "after the node (QI, value, sensitive value, "
			    "target, count), found %zu", r.name,
			    (unsigned long long)r.lineno, id, nf);
		if (strcmp(f[0].p, "n") == 0) {
			/* The node's rows in a split. */
			uint64_t c = tree_u64(&f[4], &r, "a count");

			if (__builtin_add_overflow(tot, c, &tot))
				kn_die("node %s: a count overflows 64 bits", id);
			continue;
		}
		cf = f[0];
		qn = tree_u64(&cf, &r, "a QI number");
		if (qn >= pt->nqi)
			kn_die("%s:%llu: node %s: no QI %llu", r.name,
			    (unsigned long long)r.lineno, id,
			    (unsigned long long)qn);
		e.j = (uint32_t)qn;
		if (pt->dims[e.j].h != NULL) {
			int64_t x = kn_hier_leaf(pt->dims[e.j].h, f[1].p, f[1].n,
			    &err);

			if (x < 0)
				kn_die("%s:%llu: node %s: '%s': %s", r.name,
			    (unsigned long long)r.lineno, id, f[1].p, err);
			e.v = (uint32_t)x;
		} else {
			int64_t m;
			int sc;

			if (!parse_num(f[1].p, f[1].n, &m, &sc))
				kn_die("%s:%llu: node %s: '%s' is not a "
				    "number", r.name,
			    (unsigned long long)r.lineno, id,
				    f[1].p);
			e.v = numdict_id(&pt->dims[e.j].vd, m, sc);
		}
		e.s = e.y = 0;
		if (pt->has_sens && !sens_id(pt, f[2], &e.s))
			kn_die("%s:%llu: node %s: '%s' is not a number "
			    "(--variance)", r.name,
			    (unsigned long long)r.lineno, id,
			    f[2].p);
		if (pt->has_targ && pt->req.split != SPLIT_MEDIAN && !targ_id(pt, f[3], &e.y))
			kn_die("%s:%llu: node %s: '%s' is not a number "
			    "(--split regression)", r.name,
			    (unsigned long long)r.lineno, id, f[3].p);
		e.cnt = tree_u64(&f[4], &r, "a count");
		if (e.cnt == 0)
			kn_die("%s:%llu: node %s: a count of 0", r.name,
			    (unsigned long long)r.lineno, id);
		if (__builtin_add_overflow(dt[e.j], e.cnt, &dt[e.j]))
			kn_die("node %s: a count overflows 64 bits", id);
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			gl = kn_realloc(gl, cap * sizeof(struct gl));
		}
		gl[n++] = e;
	}
	kn_reader_close(&r);
	for (j = 0; j < pt->nqi; j++)
		if (dt[j] != tot)
			kn_die("node %s: %llu rows, but the groups of %s count "
			    "%llu (a job's output lost or doubled, or the "
			    "reducer's input not sorted?)", id,
			    (unsigned long long)tot, pt->dims[j].name,
			    (unsigned long long)dt[j]);
	if (c != NULL && c->hasn && c->n != tot)
		kn_die("node %s: %llu rows, but %s says %llu (the table "
		    "changed since, or a job's output was lost or doubled)",
		    id, (unsigned long long)tot, pt->cl->tree.path,
		    (unsigned long long)c->n);
	if (tot == 0) {
		/* An empty table: no row, no class. */
		printf("sig\t%s\nsize\tr\t0\n", pt->cl->tree.sig);
		return;
	}
	/* Codes as out of core: ranks of the values, depth-first leaves. */
	pt->ooc = 1;
	pt->rk->gdense = 0;
	pt->rk->avail = SIZE_MAX;	/* a node's groups are held, as in Rothko-T */
	pt->nrows = tot;
	pt->rk->exact_sums = 1;
	prepare(pt, pt->cl->tree.sname, pt->cl->tree.tname);
	/* The sums as in memory: exact over the node's rows. */
	for (j = 0; j < 2; j++) {
		kn_i128 a = 0, b = 0, v, w;

		if (j == 0 ? !pt->req.hasv : pt->req.split != SPLIT_REGRESSION)
			continue;
		for (i = 0; i < n; i++) {
			if (gl[i].j != 0)
				continue;
			v = j == 0 ? pt->sens_val[gl[i].s] : pt->targ_val[gl[i].y];
			v = v < 0 ? -v : v;
			if (__builtin_mul_overflow(v, (kn_i128)gl[i].cnt, &w) ||
			    __builtin_add_overflow(a, w, &a) ||
			    (j == 0 && (__builtin_mul_overflow(w, v, &w) ||
			    __builtin_add_overflow(b, w, &b))))
				kn_die(j == 0 ? "-s %s: values too large for "
				    "exact variances" : "-t %s: values too "
				    "large for exact sums", j == 0 ? pt->cl->tree.sname :
				    pt->cl->tree.tname);
		}
	}
	for (i = 0; i < n; i++) {
		struct gl *e = &gl[i];
		struct dim *dm = &pt->dims[e->j];
		uint32_t code = dm->h != NULL ? dm->dfsrank[e->v] :
		    dm->rankof[e->v];

		if (e->cnt > 0)
			gadd(pt, &pt->rk->gtab[e->j], code, e->s, pt->req.split == SPLIT_INFOGAIN ?
			    pt->rk->label_rank[e->y] : e->y, e->cnt);
	}
	free(gl);
	groups_finish(pt, tot);
	if (root) {
		if (tot > 0 && !side_ok(pt, &pt->node.tot, pt->hs_side, 1)) {
			fprintf(stderr, "%s: no partitioning: the whole table "
			    "(%llu rows) does not meet the requirements\n",
			    kn_prog, (unsigned long long)tot);
			kn_exit(1);
		}
		printf("sig\t%s\n", pt->cl->tree.sig);
		for (j = 0; j < pt->nqi; j++) {
			struct dim *dm = &pt->dims[j];

			if (dm->h != NULL)
				continue;
			printf("domain\t%s", dm->name);
			put_val(stdout, dm->vals[0], dm->S);
			put_val(stdout, dm->vals[dm->nrank - 1], dm->S);
			printf("\t%d\n", dm->S);
		}
		if (pt->req.hasv)
			printf("scale\ts\t%d\n", pt->sens_F);
		if (pt->req.split == SPLIT_REGRESSION)
			printf("scale\tt\t%d\n", pt->targ_F);
		if (fits_cluster(pt, tot)) {
			printf("size\tr\t%llu\n", (unsigned long long)tot);
			return;
		}
	}
	decide(pt, &best);
	if (!best.found) {
		/* A class: its region from the groups. */
		for (j = 0; j < pt->nqi; j++) {
			pt->sums[j] = 0;
			if (pt->dims[j].h == NULL)
				for (i = 0; i < pt->rk->gtab[j].n; i++)
					pt->sums[j] += (kn_i128)pt->rk->gtab[j].e[i].cnt *
					    pt->dims[j].vals[pt->rk->gtab[j].e[i].code];
		}
		pt->region_tag = id;
		pt->regions_fp = stdout;
		pt->regions_name = "standard output";
		region(pt, 0, tot, pt->sums);
		return;
	}
	j = best.dim;
	if (!is_hier(pt, j)) {
		printf("cut\t%s\t%s", id, pt->dims[j].name);
		put_val(stdout, pt->dims[j].vals[best.med], pt->dims[j].S);
		printf("\nsize\t%s.0\t%llu\nsize\t%s.1\t%llu\n", id,
		    (unsigned long long)best.L, id,
		    (unsigned long long)(tot - best.L));
	} else {
		/* The children present, in depth-first order, with their
		 * rows. */
		const struct gtab *g = &pt->rk->gtab[j];
		kn_hier *h = pt->dims[j].h;
		int lv = pt->node.lv[j];
		uint32_t *cid = kn_alloc((g->n + 1) * sizeof(uint32_t));
		uint64_t *cc = kn_zalloc((g->n + 1) * sizeof(uint64_t));
		size_t m = 0;

		for (i = 0; i < g->n; i++) {
			uint32_t c = child_of(pt, j, g->e[i].code - pt->node.mn[j]);

			if (m == 0 || cid[m - 1] != c)
				cid[m++] = c;
			cc[m - 1] += g->e[i].cnt;
		}
		printf("hcut\t%s\t%s\t%d", id, pt->dims[j].name, lv);
		for (i = 0; i < m; i++) {
			kn_str s = kn_dict_get(&h->lab[lv - 1], cid[i]);

			printf("\t%.*s", (int)s.n, s.p);
		}
		putchar('\n');
		for (i = 0; i < m; i++)
			printf("size\t%s.%zu\t%llu\n", id, i,
			    (unsigned long long)cc[i]);
	}
}

/* Solve job (reduce), one node that fits: its rows in memory, cut as
 * partition() cuts them, written as the node's subtree: the cuts, and
 * a region per class. */
static void
worker_solve(struct part *pt, const char *id)
{
	kn_table t;
	char *rbuf = NULL, **line;
	size_t rsz = 0, i, ns = 0, nl = 0;
	struct frame {
		size_t tn;
		char *path;
	} *st;

	struct cnode *c = open_node(pt, id, 1);

	kn_table_open(&t, NULL, 0, pt->cl->tree.columns);
	t.r.name = "stdin";
	t.r.lineno = pt->cl->worker.line0 - 1;
	pt->inname = "the rows";
	pt->ooc = 0;
	pt->nrows = 0;
	load(pt, &t, pt->cl->tree.scol, pt->cl->tree.tcol);
	if (pt->nrows != c->n)
		kn_die("node %s: %llu rows, but %s says %llu (the table "
		    "changed since, or a job's output was lost or doubled)",
		    id, (unsigned long long)pt->nrows, pt->cl->tree.path,
		    (unsigned long long)c->n);
	prepare(pt, pt->cl->tree.sname, pt->cl->tree.tname);
	if (strcmp(id, "r") == 0)
		root_check(pt, "the table");
	if ((pt->regions_fp = open_memstream(&rbuf, &rsz)) == NULL)
		kn_die_sys("open_memstream");
	pt->grow.on = 1;
	pt->grow.full = 1;
	pt->grow.maxdepth = pt->grow.maxleaves = UINT64_MAX;
	partition(pt);
	if (fflush(pt->regions_fp) != 0)
		kn_die_sys("open_memstream");
	/* The regions, one line per class in class order. */
	line = kn_alloc((pt->nclasses + 1) * sizeof(char *));
	for (i = 0; i < rsz && nl < pt->nclasses; i++) {
		line[nl++] = rbuf + i;
		while (i < rsz && rbuf[i] != '\n')
			i++;
		rbuf[i] = '\0';
	}
	if (pt->nrows == 0)
		return;
	st = kn_alloc((pt->grow.n + 1) * sizeof(struct frame));
	st[ns].tn = 0;
	st[ns++].path = kn_strdup(id);
	while (ns > 0) {
		struct frame fr = st[--ns];
		const struct tnode *tn = &pt->grow.t[fr.tn];
		size_t k, nk;

		if (tn->leaf) {
			if (pt->grow.tcls[fr.tn] != 0) {
				const char *l = line[pt->grow.tcls[fr.tn] - 1];

				/* Less the class number of this run. */
				printf("region\t%s\t%s\n", fr.path,
				    strchr(l, '\t') + 1);
			}
			free(fr.path);
			continue;
		}
		if (tn->hier) {
			kn_hier *h = pt->dims[tn->dim].h;

			printf("hcut\t%s\t%s\t%d", fr.path,
			    pt->dims[tn->dim].name, tn->lv);
			/* The last kid is the empty "other". */
			nk = tn->nkid - 1;
			for (k = 0; k < nk; k++) {
				kn_str s = kn_dict_get(&h->lab[tn->lv - 1],
				    tn->cid[k]);

				printf("\t%.*s", (int)s.n, s.p);
			}
			putchar('\n');
		} else {
			printf("cut\t%s\t%s", fr.path, pt->dims[tn->dim].name);
			put_val(stdout, pt->dims[tn->dim].vals[tn->thr],
			    pt->dims[tn->dim].S);
			putchar('\n');
			nk = 2;
		}
		for (k = nk; k-- > 0;) {
			size_t pl = strlen(fr.path) + 24;

			st[ns].tn = tn->kid0 + k;
			st[ns].path = kn_alloc(pl);
			snprintf(st[ns].path, pl, "%s.%zu", fr.path, k);
			ns++;
		}
		free(fr.path);
	}
	free(st);
}

/* Rows job (map): each row of a node that fits, after its node id. */
static void
job_rows(struct part *pt, kn_table *t, FILE *fp)
{
	while (kn_table_next(t)) {
		uint32_t id;
		kn_str s;

		parse_row(pt, t);
		id = route_tree(pt, t);
		s = kn_dict_get(&pt->cl->tree.ids, id);
		if (pt->cl->tree.v[id].kind == CN_CLASS)
			continue;
		if (cnode_open(pt, &pt->cl->tree.v[id]))
			kn_die("%s: node %.*s is still open: run the groups and "
			    "cuts jobs until 'partition --job open' lists no "
			    "node", pt->cl->tree.path, (int)s.n, s.p);
		fwrite(s.p, 1, s.n, fp);
		putc('\t', fp);
		fwrite(t->r.line, 1, t->r.len, fp);
		putc('\n', fp);
	}
}

/* Classes job (map): each row with its class. */
static void
job_classes(struct part *pt, kn_table *t, FILE *fp, const char *classcol)
{
	size_t c;

	tree_number(pt);
	if (!t->headerless) {
		for (c = 0; c < t->ncols; c++)
			fprintf(fp, "%s\t", t->names[c]);
		fprintf(fp, "%s\n", classcol);
	}
	while (kn_table_next(t)) {
		parse_row(pt, t);
		fwrite(t->r.line, 1, t->r.len, fp);
		fprintf(fp, "\t%u\n", pt->cl->tree.v[route_tree(pt, t)].cls);
	}
}

/* Regions job: the regions file, as partition -r writes it. */
static void
job_regions(struct part *pt, FILE *fp)
{
	uint32_t i, *at = kn_zalloc((pt->cl->tree.ids.n + 1) * sizeof(uint32_t));

	tree_number(pt);
	regions_header(pt, fp);
	for (i = 0; i < pt->cl->tree.ids.n; i++)
		if (pt->cl->tree.v[i].kind == CN_CLASS)
			at[pt->cl->tree.v[i].cls - 1] = i;
	for (i = 0; i < pt->cl->tree.nclass; i++)
		fprintf(fp, "%u\t%s\n", i + 1, pt->cl->tree.v[at[i]].region);
	free(at);
}

/* Open job: the nodes a level job is still to cut, one a line. */
static void
job_open(struct part *pt, FILE *fp)
{
	uint32_t i;

	for (i = 0; i < pt->cl->tree.ids.n; i++)
		if (cnode_open(pt, &pt->cl->tree.v[i])) {
			kn_str s = kn_dict_get(&pt->cl->tree.ids, i);

			fprintf(fp, "%.*s\n", (int)s.n, s.p);
		}
}

/* A digest of a hierarchy: its labels and how they nest. */
static uint64_t
hier_digest(const kn_hier *h)
{
	uint64_t x = (uint64_t)h->nlevels;
	size_t i;
	int l;

	for (l = 0; l < h->nlevels; l++)
		for (i = 0; i < h->lab[l].n; i++) {
			kn_str v = kn_dict_get(&h->lab[l], (uint32_t)i);

			x = (x ^ kn_hash(v.p, v.n)) * 0x9e3779b97f4a7c15ULL;
			if (l + 1 < h->nlevels)
				x = (x ^ h->up[l][i]) * 0xbf58476d1ce4e5b9ULL;
		}
	return x;
}

/* Runs job on table t (or, for the reducers, the standard input). */
static void __attribute__((noreturn))
cluster(struct part *pt, int job, kn_table *t, const char *outpath, const char *classcol)
{
	FILE *fp = NULL;
	size_t j;

	for (j = 0; j < pt->nqi; j++)
		if (pt->dims[j].h != NULL) {
			if (pt->dims[j].h->kind != KN_HFILE)
				kn_die("--job: %s: a generated hierarchy numbers "
				    "its nodes in the order of the rows; give a "
				    "hierarchy file", pt->dims[j].name);
			prepare_hier(&pt->dims[j]);
		}
	/* The tree holds for these columns and hierarchies only. */
	{
		size_t n = strlen(pt->cl->tree.sig) + strlen(pt->cl->tree.columns) + 32 + 40 * pt->nqi;
		char *sg = kn_alloc(n);
		int len = snprintf(sg, n, "%s cols=%s", pt->cl->tree.sig, pt->cl->tree.columns);

		for (j = 0; j < pt->nqi; j++)
			if (pt->dims[j].h != NULL)
				len += snprintf(sg + len, n - (size_t)len,
				    " h%zu=%016llx", j, (unsigned long long)
				    hier_digest(pt->dims[j].h));
		free(pt->cl->tree.sig);
		pt->cl->tree.sig = sg;
	}
	pt->cl->rowval = kn_alloc((pt->nqi + 1) * sizeof(struct rowval));
	pt->cl->tree.regions = job == JOB_REGIONS;
	tree_load(pt, pt->cl->tree.path);
	route_build(pt);
	fp = kn_open_out(outpath);
	switch (job) {
	case JOB_GROUPS:
		job_groups(pt, t, fp);
		break;
	case JOB_CUTS:
		per_node(pt, worker_cuts, fp);
		break;
	case JOB_ROWS:
		job_rows(pt, t, fp);
		break;
	case JOB_SOLVE:
		per_node(pt, worker_solve, fp);
		break;
	case JOB_CLASSES:
		job_classes(pt, t, fp, classcol);
		break;
	case JOB_REGIONS:
		job_regions(pt, fp);
		break;
	default:
		job_open(pt, fp);
		break;
	}
	kn_close_out(fp);
	kn_exit(0);
}

/* Writes the table with its classes: the second pass over the input. */
static void
write_table(struct part *pt, kn_input *in, const char *columns, const char *classcol,
    FILE *fp, const char *outname)
{
	kn_table t;
	size_t c;
	char num[24];

	kn_input_open(in, &t, columns);
	if (!t.headerless) {
		for (c = 0; c < t.ncols; c++) {
			fputs(t.names[c], fp);
			putc('\t', fp);
		}
		fputs(classcol, fp);
		putc('\n', fp);
	}
	while (kn_table_next(&t)) {
		size_t nn;

		if (t.rows > pt->nrows)
			break;
		nn = kn_fmt_u64(num, class_of(pt, t.rows - 1));
		num[nn++] = '\n';
		if (fwrite(t.r.line, 1, t.r.len, fp) != t.r.len ||
		    putc('\t', fp) == EOF || fwrite(num, 1, nn, fp) != nn)
			kn_die_sys("%s: write error", outname);
	}
	if (t.rows != pt->nrows)
		kn_die("%s: the input changed between the two passes",
		    in->name);
	kn_table_free(&t);
}

/* The options that shape the tree, as one string. */
static char *
make_sig(struct part *pt, const char *q, const char *s, const char *t, const char *num)
{
	char c[64] = "-", v[64] = "-", *b;
	size_t n;

	if (pt->req.ld.hasc)
		c[kn_dec_format(pt->req.ld.cm, pt->req.ld.cs, c)] = '\0';
	if (pt->req.hasv)
		v[kn_dec_format(pt->req.vm, pt->req.vs, v)] = '\0';
	n = strlen(q) + (s ? strlen(s) : 1) + (t ? strlen(t) : 1) +
	    (num ? strlen(num) : 1) + (pt->req.ld.lstr ? strlen(pt->req.ld.lstr) : 1) +
	    256;
	b = kn_alloc(n);
	snprintf(b, n, "q=%s k=%llu s=%s l=%s div=%d c=%s var=%s t=%s "
	    "split=%d num=%s", q, (unsigned long long)pt->req.k, s ? s : "-",
	    pt->req.ld.on ? pt->req.ld.lstr : "-", pt->req.ld.kind, c, v, t ? t : "-", pt->req.split,
	    num ? num : "-");
	return b;
}

int
main(int argc, char *argv[])
{
	struct rothko rothko_state = { .alpha = 0.05, .seed = 1,
	    .fcache = 8 };
	struct cluster cluster_state = { 0 };
	struct part run = { .regions_name = "regions",
	    .rk = &rothko_state, .cl = &cluster_state };
	struct part *pt = &run;
	kn_table t;
	kn_input in;
	kn_hopts hopts = { 0, NULL };
	const char *qlist = NULL, *scol = NULL, *tcol = NULL;
	const char *outpath = NULL, *rpath = NULL, *classcol = "class";
	const char *numlist = NULL, *algo = NULL;
	char *columns = NULL;
	size_t *qi, *numc = NULL, nnum = 0, sidx = 0, tidx = 0, j, i;
	int ch, verbose = 0, progress = 0, hasclasscol = 0;
	int seedset = 0, alphaset = 0, job = JOB_NONE;
	uint64_t ntot;
	struct timespec t0, t1;
	FILE *fp = NULL;

	kn_init(argv[0]);
	kn_ldiv_init(&pt->req.ld);
	pt->req.k = 1;
	while ((ch = getopt_long(argc, argv, "H:S:T:a:c:hk:l:o:q:r:s:t:v",
	    longopts, NULL)) != -1) {
		switch (ch) {
		case 'H':
			kn_hopts_add(&hopts, optarg);
			break;
		case 'S':
			pt->budget = kn_parse_size(optarg, "-S");
			break;
		case 'T':
			pt->rk->tmpdir = optarg;
			break;
		case 'a':
			algo = optarg;
			break;
		case 'c':
			kn_ldiv_opt(&pt->req.ld, 'c', optarg);
			break;
		case 'h':
			usage(0);
		case 'k':
			pt->req.k = (uint64_t)kn_parse_int(optarg, 1, INT64_MAX,
			    "-k");
			break;
		case 'l':
			kn_ldiv_opt(&pt->req.ld, 'l', optarg);
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'q':
			qlist = optarg;
			break;
		case 'r':
			rpath = optarg;
			break;
		case 's':
			scol = optarg;
			break;
		case 't':
			tcol = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		case OPT_CLASSCOL:
			classcol = optarg;
			hasclasscol = 1;
			break;
		case OPT_DIV:
			kn_ldiv_opt(&pt->req.ld, 'd', optarg);
			break;
		case OPT_ALPHA:
			alphaset = 1;
			pt->rk->alpha = kn_parse_double(optarg, 1e-12, 0.5,
			    "--alpha");
			break;
		case OPT_SAMPLE:
			pt->rk->sample_max = (uint64_t)kn_parse_int(optarg, 2,
			    INT64_MAX, "--sample");
			break;
		case OPT_SEED:
			seedset = 1;
			pt->rk->seed = (uint64_t)kn_parse_int(optarg, 0, INT64_MAX,
			    "--seed");
			break;
		case OPT_FCACHE:
			pt->rk->fcache = (uint64_t)kn_parse_int(optarg, 1, 1024,
			    "--fcache");
			break;
		case OPT_NAIVE:
			pt->sample.naive = 1;
			break;
		case OPT_JOB:
			for (job = 1; jobnames[job] != NULL &&
			    strcmp(jobnames[job], optarg) != 0; job++)
				;
			if (jobnames[job] == NULL)
				kn_die("--job: '%s' is not groups, cuts, rows, "
				    "solve, classes, regions or open", optarg);
			break;
		case OPT_TREE:
			pt->cl->tree.path = optarg;
			break;
		case OPT_FITROWS:
			pt->rk->fit_rows = (uint64_t)kn_parse_int(optarg, 1, INT64_MAX,
			    "--fit-rows");
			break;
		case OPT_NUMERIC:
			numlist = optarg;
			break;
		case OPT_PROGRESS:
			progress = 1;
			break;
		case OPT_RELAXED:
			pt->req.relaxed = 1;
			break;
		case OPT_SPLIT:
			if (strcmp(optarg, "median") == 0)
				pt->req.split = SPLIT_MEDIAN;
			else if (strcmp(optarg, "infogain") == 0)
				pt->req.split = SPLIT_INFOGAIN;
			else if (strcmp(optarg, "regression") == 0)
				pt->req.split = SPLIT_REGRESSION;
			else
				kn_die("--split: '%s' is not median, infogain "
				    "or regression", optarg);
			break;
		case OPT_VAR:
			if (!kn_dec_parse(optarg, strlen(optarg), &pt->req.vm,
			    &pt->req.vs) || pt->req.vm < 0)
				kn_die("--variance: '%s' is not a number >= 0",
				    optarg);
			pt->req.hasv = 1;
			break;
		case OPT_VERSION:
			kn_version();
		default:
			if (kn_table_opt(ch, optarg, &columns))
				break;
			usage(2);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		kn_die("one table at a time (got %d files)", argc);
	if (qlist == NULL)
		kn_die("no quasi-identifiers: name them with -q");
	kn_ldiv_check(&pt->req.ld, scol != NULL);
	if (pt->req.hasv && scol == NULL)
		kn_die("--variance needs the sensitive column (-s)");
	if (pt->req.split != SPLIT_MEDIAN && tcol == NULL)
		kn_die("--split %s needs the target column (-t)",
		    pt->req.split == SPLIT_INFOGAIN ? "infogain" : "regression");
	if (pt->req.split == SPLIT_MEDIAN && tcol != NULL)
		kn_die("-t needs --split infogain or regression");
	if (*classcol == '\0' || strpbrk(classcol, "\t\n\r") != NULL)
		kn_die("--class-col: '%s' is not a column name", classcol);
	/* The regions are in place before the input is read again. */
	if (rpath != NULL && outpath != NULL && strcmp(outpath, "-") != 0 &&
	    kn_same_file(rpath, outpath))
		kn_die("-r and -o name the same file");
	if (rpath != NULL && argc > 0 && strcmp(argv[0], "-") != 0 &&
	    kn_same_file(rpath, argv[0]))
		kn_die("-r names the input file");
	pt->has_sens = scol != NULL && (pt->req.ld.on || pt->req.hasv);
	if (scol != NULL && !pt->has_sens)
		kn_die("-s needs a requirement on it (-l or --variance)");
	pt->has_targ = tcol != NULL;
	pt->need_stats = pt->has_sens || pt->has_targ;
	pt->rk->gdense = !pt->has_sens && pt->req.split == SPLIT_MEDIAN;
	/* In memory unless told otherwise: -S bounds the memory, and the
	 * rows go to disk (Rothko-T) when they do not fit. */
	if (algo != NULL && strcmp(algo, "memory") != 0 &&
	    strcmp(algo, "rothko-t") != 0 && strcmp(algo, "rothko-s") != 0)
		kn_die("-a: '%s' is not memory, rothko-t or rothko-s", algo);
	pt->rk->sampling = algo != NULL && strcmp(algo, "rothko-s") == 0;
	pt->ooc = algo != NULL ? strcmp(algo, "memory") != 0 : pt->budget != 0;
	if (pt->ooc && pt->budget == 0)
		pt->budget = kn_default_budget();
	if (pt->rk->sampling && pt->req.relaxed)
		kn_die("--relaxed runs in memory or with -a rothko-t only");
	if (!pt->rk->sampling && (pt->rk->sample_max != 0 || pt->sample.naive || seedset || alphaset))
		kn_die("--sample, --seed, --alpha and --naive are for -a "
		    "rothko-s");
	if (pt->ooc && pt->req.relaxed && pt->need_stats)
		kn_die("--relaxed with -s or a split other than median runs "
		    "in memory only");
	if (job != JOB_NONE) {
		if (pt->cl->tree.path == NULL)
			kn_die("--job %s needs the tree file (--tree)",
			    jobnames[job]);
		if (algo != NULL || pt->req.relaxed || rpath != NULL)
			kn_die("--job runs Rothko-T's steps: -a, --relaxed and "
			    "-r do not apply (the regions job writes the "
			    "regions)");
		if ((job == JOB_CUTS || job == JOB_SOLVE) && outpath != NULL)
			kn_die("--job %s writes to the standard output",
			    jobnames[job]);
		/* A map task's split has no header (but the first). */
		if (columns == NULL)
			kn_die("--job %s: name the table's columns with "
			    "--columns or --columns-file (a split has no "
			    "header line)", jobnames[job]);
		if (job != JOB_GROUPS && job != JOB_ROWS &&
		    job != JOB_CLASSES) {
			if (argc > 0)
				kn_die("--job %s reads no table (%s)",
				    jobnames[job], job == JOB_REGIONS ||
				    job == JOB_OPEN ? "only the tree" :
				    "its input is the map step's output");
		}
		pt->ooc = 0;
		pt->cl->tree.columns = columns;
		pt->cl->tree.sname = scol;
		pt->cl->tree.tname = tcol;
		pt->cl->tree.sig = make_sig(pt, qlist, scol, tcol, numlist);
	} else if (pt->cl->tree.path != NULL)
		kn_die("--tree goes with --job");
	kn_progress_init(progress);
	pt->rk->tmpdir = kn_tmpdir(pt->rk->tmpdir);

	/* The outputs first: a bad path fails before any work. */
	if (job == JOB_NONE)
		fp = kn_open_out(outpath);
	if (rpath != NULL) {
		pt->regions_fp = kn_open_out(rpath);
		pt->regions_name = rpath;
	}
	if (job == JOB_NONE || job == JOB_GROUPS || job == JOB_ROWS ||
	    job == JOB_CLASSES)
		kn_input_init(&in, argc > 0 ? argv[0] : NULL,
		    job == JOB_NONE, columns, pt->rk->tmpdir);
	else
		kn_input_init(&in, "/dev/null", 0, columns, pt->rk->tmpdir);
	pt->inname = in.name;
	kn_input_open(&in, &t, columns);
	pt->nqi = kn_table_cols(&t, qlist, &qi);
	kn_hopts_check(&hopts, t.names, t.ncols);
	if (numlist != NULL)
		nnum = kn_table_cols(&t, numlist, &numc);
	for (i = 0; i < t.ncols; i++)
		if (strcmp(t.names[i], classcol) == 0)
			kn_die("%s: the table has a column '%s' already%s",
			    t.r.name, classcol, hasclasscol ? "" :
			    " (name the class column with --class-col)");
	pt->dims = kn_zalloc(pt->nqi * sizeof(struct dim));
	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j];
		int numeric = 0;

		dm->col = qi[j];
		dm->name = kn_strdup(t.names[qi[j]]);
		for (i = 0; i < nnum; i++)
			numeric |= numc[i] == qi[j];
		if (!numeric)
			dm->h = kn_hopts_get(&hopts, dm->name);
	}
	for (i = 0; i < nnum; i++) {
		for (j = 0; j < pt->nqi && qi[j] != numc[i]; j++)
			;
		if (j == pt->nqi)
			kn_die("--numeric: '%s' is not a quasi-identifier",
			    t.names[numc[i]]);
	}
	if (pt->has_sens) {
		sidx = kn_table_col(&t, scol);
		for (j = 0; j < pt->nqi; j++)
			if (qi[j] == sidx)
				kn_die("-s %s is also a quasi-identifier", scol);
	}
	if (pt->has_targ) {
		tidx = kn_table_col(&t, tcol);
		for (j = 0; j < pt->nqi; j++)
			if (qi[j] == tidx)
				kn_die("-t %s is also a quasi-identifier", tcol);
	}
	kn_dict_init(&pt->sens_dict);
	kn_dict_init(&pt->targ_dict);
	pt->word_row = pt->nqi;
	pt->rec_words = pt->nqi + 1;
	if (pt->has_sens)
		pt->word_sens = pt->rec_words++;
	if (pt->has_targ)
		pt->word_targ = pt->rec_words++;
	if (job != JOB_NONE) {
		pt->cl->tree.scol = sidx;
		pt->cl->tree.tcol = tidx;
		cluster(pt, job, &t, outpath, classcol);
	}

	/* Pass 1: read the rows (out of core: to the spool). */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (pt->ooc) {
		int fd = kn_mktemp(pt->rk->tmpdir, &pt->spool_path);

		if ((pt->spool = fdopen(fd, "wb")) == NULL)
			kn_die_sys("%s", pt->spool_path);
	}
	load(pt, &t, sidx, tidx);
	kn_table_free(&t);
	if (pt->ooc) {
		if (fflush(pt->spool) != 0 || ferror(pt->spool))
			kn_die_sys("%s: write error", pt->spool_path);
		fclose(pt->spool);
		free(pt->rec);
		pt->rec = NULL;
		for (j = 0; j < pt->nqi; j++) {
			free(pt->dims[j].raw);
			free(pt->dims[j].rsc);
		}
	}
	prepare(pt, scol, tcol);
	ntot = pt->nrows;

	/* The whole table must meet the requirements, or nothing can. */
	if (pt->nrows > 0 && !pt->ooc) {
		totals(pt, 0, pt->nrows, NULL);
		if (!side_ok(pt, &pt->node.tot, pt->hs_side, 1)) {
			fprintf(stderr, "%s: %s: no partitioning: the whole "
			    "table (%llu rows) does not meet the "
			    "requirements\n", kn_prog, in.name,
			    (unsigned long long)pt->nrows);
			kn_exit(1);
		}
		untotals(pt);
	}

	if (pt->regions_fp != NULL) {
		regions_header(pt, pt->regions_fp);
	}
	if (pt->ooc) {
		struct onode root;
		size_t used = dicts_bytes(pt) + (size_t)CHUNK * pt->rec_words *
		    sizeof(uint32_t);
		int fd;

		/* What is left of the budget for the nodes, the groups and
		 * the buckets of the output pass. */
		if (used + 4096 >= pt->budget)
			kn_die("-S %zu: too small: the dictionaries and a "
			    "read buffer alone take %zu bytes", pt->budget, used);
		pt->rk->avail = pt->budget - used;
		fd = kn_mktemp(pt->rk->tmpdir, &pt->pairs_path);
		if ((pt->pairs = fdopen(fd, "wb")) == NULL)
			kn_die_sys("%s", pt->pairs_path);
		root.path = pt->spool_path;
		root.n = pt->nrows;
		root.raw = 1;
		root.big = 0;
		rothko_t(pt, &root, in.name);
		pt->nrows = ntot;
		if (fflush(pt->pairs) != 0 || ferror(pt->pairs))
			kn_die_sys("%s: write error", pt->pairs_path);
		fclose(pt->pairs);
	} else
		partition(pt);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* The regions are in place before the table's first byte. */
	if (pt->regions_fp != NULL)
		kn_close_out(pt->regions_fp);

	/* Pass 2: the rows with their classes. */
	write_table(pt, &in, columns, classcol, fp,
	    outpath != NULL ? outpath : "standard output");
	kn_close_out(fp);
	kn_input_done(&in);
	if (pt->ooc)
		kn_rmtemp(pt->pairs_path);
	if (verbose && pt->ooc)
		fprintf(stderr, "%s: %s: -S %zu, %zu for nodes; %llu "
		    "scans of node files, %llu bytes written and %llu read "
		    "in temp files, %llu repartitions, %llu nodes in memory, "
		    "%llu classes too large for memory, %llu nodes "
		    "pruned\n", kn_prog, pt->rk->sampling ? "Rothko-S" : "Rothko-T",
		    pt->budget, pt->rk->avail, (unsigned long long)pt->acct.scans,
		    (unsigned long long)pt->acct.bwritten,
		    (unsigned long long)pt->acct.bread,
		    (unsigned long long)pt->acct.repart,
		    (unsigned long long)pt->acct.inmem,
		    (unsigned long long)pt->acct.bigleaf,
		    (unsigned long long)pt->pruned);
	if (verbose)
		fprintf(stderr, "%s: %llu rows, %u classes, %llu cuts, "
		    "largest class %llu, partitioning %.3f s\n", kn_prog,
		    (unsigned long long)pt->nrows, pt->nclasses, (unsigned long long)pt->ncuts,
		    (unsigned long long)pt->max_class,
		    (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	kn_exit(0);
}
