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

enum { SPLIT_MEDIAN, SPLIT_INFOGAIN, SPLIT_REGRESSION };

/* The requirements and the split criterion. */
static struct {
	uint64_t k;
	kn_ldiv ld;
	int hasv;		/* --variance */
	kn_i128 vm;
	int vs;
	int split;
	int relaxed;
} o;

/*
 * A quasi-identifier.  Every row's value becomes a code whose order is
 * the dimension's order: the rank of the number, or for a column with a
 * hierarchy the rank of its leaf in depth-first order of the hierarchy,
 * so that the leaves under any node are a run of codes.
 */
struct dim {
	size_t col;
	const char *name;
	kn_hier *h;		/* NULL: numeric */
	/* numeric: values as integers at the column's scale S; out of
	 * core the distinct values (mant, scale) get ids first */
	struct numdict {
		int64_t *m;	/* id -> mantissa */
		int8_t *sc;	/* id -> scale */
		uint32_t *slot;	/* hash index: id+1, 0 empty */
		size_t n, cap, nslot;
	} vd;
	uint32_t *rankof;	/* id -> rank */
	int64_t *raw;		/* per row while loading */
	int8_t *rsc;		/* per row: its own scale */
	int64_t *vals;		/* rank -> value * 10^S */
	uint32_t nrank;
	int S;
	/* on a cluster: the table's scale and range, from the tree */
	int fS, hasg;
	int64_t gmn, gmx;
	/* hierarchy */
	int nl;			/* levels; nl is the implicit root above */
	uint32_t **anc;		/* anc[l][leaf] = ancestor at level l */
	uint32_t **nleaf;	/* nleaf[l][id] = leaves under the node */
	uint32_t *dfsleaf;	/* code -> leaf */
	uint32_t *dfsrank;	/* leaf -> code */
	uint32_t ncode;
};

static size_t d;		/* QIs */
static struct dim *dims;
static size_t W;		/* words per record */
static size_t wrow, wsens, wtarg;	/* word offsets */
static int hass, hast;
static int needstats;		/* parts need more than their size */
static uint32_t *rec;		/* N records of W words */
static uint32_t *rtmp;		/* scratch records */
static uint64_t N;
static const char *inname;	/* the input, for messages */

/* Out of core (Rothko-T, paper 004 §2): the rows are spooled once as
 * binary records of W words, the numbers as ids of their distinct
 * values, and read back in chunks. */
#define CHUNK 4096
static int ooc;			/* out of core */
static uint64_t base;		/* rows spooled so far */
static FILE *spool;
static char *spoolpath;
static FILE *pairs;		/* (row, class) pairs */
static char *pairspath;
static kn_i128 *sums;		/* per dimension, for a region's means */

/* Accounting of an out-of-core run (-v; paper 004 §4-5). */
static struct {
	uint64_t scans;		/* passes over node files */
	uint64_t bread, bwritten;	/* temp file bytes */
	uint64_t repart;	/* nodes repartitioned to disk */
	uint64_t inmem;		/* nodes partitioned in memory */
	uint64_t bigleaf;	/* classes too large for memory */
} oacct;

/* The sensitive column: dictionary, and for variance the values scaled
 * to F decimals. */
static kn_dict sdict;
static kn_i128 *sval;
static int *sscale, sF;
/* The target: dictionary (labels) and numeric values. */
static kn_dict tdict;
static kn_i128 *tval;		/* numeric target * 10^tF */
static int *tscale, tF;
static kn_i128 *xlxtab;		/* xlxf(c) for small c */
static size_t nxlx;

/* Per-node scratch. */
static uint32_t *key, *perm, *ptmp, *grp, *cnt;
static uint64_t *hs_tot, *hs_side, *hs_side2, *hl_tot, *hl_side;
static uint32_t *stouch, *ltouch;
static uint64_t *gath;
static size_t nstouch, nltouch;

/* Output of the partitioning. */
static uint32_t *cls;		/* row -> class */
static uint32_t ncls;
static uint64_t maxcls;
static FILE *rfp;		/* regions */
static const char *rname = "regions";	/* its name, for messages */

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
rank_numeric(struct dim *dm, size_t j)
{
	uint64_t *a, *b, *t, mn = UINT64_MAX, mx = 0;
	uint32_t *ra, *rb, *rt, r = 0;
	size_t i;
	int S = 0, sh;

	for (i = 0, S = dm->fS; i < N; i++)
		if (dm->rsc[i] > S)
			S = dm->rsc[i];
	dm->S = S;
	a = kn_alloc((N + 1) * sizeof(uint64_t));
	b = kn_alloc((N + 1) * sizeof(uint64_t));
	ra = kn_alloc((N + 1) * sizeof(uint32_t));
	rb = kn_alloc((N + 1) * sizeof(uint32_t));
	for (i = 0; i < N; i++) {
		int64_t v;

		if (__builtin_mul_overflow(dm->raw[i],
		    (int64_t)kn_pow10(S - dm->rsc[i]), &v))
			kn_die("%s: column '%s': the values do not fit 64 "
			    "bits with %d decimals each", inname, dm->name, S);
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
	if (N > 0 && mx - mn < 4 * (uint64_t)N + 65536) {
		/* A dense range: ranks by a table of the values present. */
		uint32_t *tab = kn_zalloc((size_t)(mx - mn + 2) *
		    sizeof(uint32_t));
		uint64_t v;

		for (i = 0; i < N; i++)
			tab[a[i] - mn] = 1;
		dm->vals = kn_alloc((N + 1) * sizeof(int64_t));
		for (v = 0; v <= mx - mn; v++)
			if (tab[v]) {
				dm->vals[r] = (int64_t)((v + mn) ^
				    ((uint64_t)1 << 63));
				tab[v] = r++;
			}
		for (i = 0; i < N; i++)
			rec[i * W + j] = tab[a[i] - mn];
		free(tab);
		dm->nrank = r;
		goto done;
	}
	for (sh = 0; sh < 64 && N > 0 && ((mx - mn) >> sh) != 0; sh += 11) {
		uint32_t *c = kn_zalloc((2048 + 1) * sizeof(uint32_t));

		for (i = 0; i < N; i++)
			c[(((a[i] - mn) >> sh) & 0x7ff) + 1]++;
		for (i = 1; i <= 2048; i++)
			c[i] += c[i - 1];
		for (i = 0; i < N; i++) {
			size_t p = c[((a[i] - mn) >> sh) & 0x7ff]++;

			b[p] = a[i];
			rb[p] = ra[i];
		}
		free(c);
		t = a, a = b, b = t;
		rt = ra, ra = rb, rb = rt;
	}
	dm->vals = kn_alloc((N + 1) * sizeof(int64_t));
	for (i = 0; i < N; i++) {
		if (i > 0 && a[i] != a[i - 1])
			r++;
		if (i == 0 || a[i] != a[i - 1])
			dm->vals[r] = (int64_t)(a[i] ^ ((uint64_t)1 << 63));
		rec[(size_t)ra[i] * W + j] = r;
	}
	dm->nrank = N > 0 ? r + 1 : 0;
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

static size_t dicts_bytes(void);
static size_t budget;		/* -S */

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
flush_chunk(size_t nb)
{
	size_t i, j;

	for (j = 0; j < d; j++) {
		struct dim *dm = &dims[j];

		if (dm->h != NULL)
			continue;
		for (i = 0; i < nb; i++)
			rec[i * W + j] = numdict_id(&dm->vd, dm->raw[i],
			    dm->rsc[i]);
	}
	if (dicts_bytes() + 2 * (size_t)CHUNK * W * sizeof(uint32_t) > budget)
		kn_die("-S %zu: too small: the dictionaries of the values "
		    "outgrow it (%zu bytes at row %llu)", budget,
		    dicts_bytes(), (unsigned long long)N);
	if (fwrite(rec, W * sizeof(uint32_t), nb, spool) != nb)
		kn_die_sys("%s: write error", spoolpath);
	oacct.bwritten += nb * W * sizeof(uint32_t);
	base += nb;
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
sens_id(kn_str v, uint32_t *id)
{
	return value_id(&sdict, v, o.hasv, &sval, &sscale, &sF, id);
}

static int
targ_id(kn_str v, uint32_t *id)
{
	return value_id(&tdict, v, o.split == SPLIT_REGRESSION, &tval,
	    &tscale, &tF, id);
}

/* Reads the table into records. */
static void
load(kn_table *t, size_t scol, size_t tcol)
{
	size_t cap = 1 << 16, rawcap = 0, j;
	uint32_t *r;
	const char *err;

	if (ooc)
		cap = CHUNK;
	rec = kn_alloc(cap * W * sizeof(uint32_t));
	while (kn_table_next(t)) {
		size_t b = N - base;

		if ((t->rows & 0xffff) == 0)
			kn_progress(t->rows, t->r.bytes);
		if (ooc && b == CHUNK) {
			flush_chunk(b);
			b = 0;
		}
		if (b == cap) {
			cap *= 2;
			rec = kn_realloc(rec, cap * W * sizeof(uint32_t));
		}
		if (b == rawcap) {
			rawcap = cap;
			for (j = 0; j < d; j++) {
				if (dims[j].h != NULL)
					continue;
				dims[j].raw = kn_realloc(dims[j].raw,
				    rawcap * sizeof(int64_t));
				dims[j].rsc = kn_realloc(dims[j].rsc, rawcap);
			}
		}
		if (N >= UINT32_MAX - 1)
			kn_die("%s: more than %u rows are not supported",
			    t->r.name, UINT32_MAX - 2);
		r = rec + b * W;
		for (j = 0; j < d; j++) {
			struct dim *dm = &dims[j];
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
		r[wrow] = (uint32_t)N;
		if (hass && !sens_id(t->f[scol], &r[wsens]))
			kn_table_fail(t, scol, "'%.*s' is not a number "
			    "(--variance)", (int)t->f[scol].n, t->f[scol].p);
		if (hast && !targ_id(t->f[tcol], &r[wtarg]))
			kn_table_fail(t, tcol, "'%.*s' is not a number (--split "
			    "regression)", (int)t->f[tcol].n, t->f[tcol].p);
		N++;
	}
	if (ooc)
		flush_chunk(N - base);
	kn_progress_done();
}

/* ---- the partitioning ----------------------------------------------- */

/* Statistics of one part of a candidate cut. */
struct side {
	uint64_t n;
	uint64_t distinct;	/* sensitive values present */
	kn_i128 s, ss;		/* sums of the sensitive values, squares */
	kn_i128 ts;		/* sum of the numeric target * 10^tF */
	kn_i128 lf;		/* sum of xlxf() over the label counts */
};

/* c ln c in fixed point (units of 2^-32): integers, so that sums of
 * them are exact and do not depend on the order they are added in. */
static kn_i128
xlxf(uint64_t c)
{
	if (c < nxlx)
		return xlxtab[c];
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

/* Rothko-S's growth phase (paper 004 §3): the rows in memory are a
 * sample of n of the N rows of a node, and a part is allowable when the
 * tests of hypo.c reject "it is not" at level alpha/m. */
static struct {
	int on;
	uint64_t n, N;
	uint64_t k;		/* the k asked for (o.k is the sample's) */
	double alpha;
	int m;			/* parts of the cut being tested */
	int naive;		/* --naive: no tests (for comparison) */
} smp;

static int side_ok(const struct side *sd, const uint64_t *hist,
    int compl);

/* Whether a part of n rows, its sensitive values summing to s with
 * squares ss, meets k and variance diversity. */
static int
k_var_ok(uint64_t n, kn_i128 s, kn_i128 ss)
{
	kn_sum sm;
	long double var;

	if (n < o.k)
		return 0;
	if (!o.hasv)
		return 1;
	sm.s = s;
	sm.ss = ss;
	sm.sc = sF;
	return kn_variance_ok(n, &sm, sF, o.vm, o.vs, &var);
}

/* Whether the sensitive counts gath[0..m) of a part of n rows meet the
 * l-diversity asked for. */
static int
gath_ok(size_t m, uint64_t n)
{
	kn_counts_desc(gath, m);
	return kn_ldiv_ok(&o.ld, gath, m, n);
}

/* side_ok on a sample part: the tests of 004 §3.1.  Distinct
 * l-diversity holds in the population part if it holds in the sample
 * part; entropy l-diversity has no test (§3.1.2, note 7) and is checked
 * on the sample as a rule of thumb.  A wrong guess is pruned later. */
static int
sample_ok(const struct side *sd, const uint64_t *hist, int compl)
{
	size_t i, m = 0;
	uint64_t xl = 0;

	if (smp.n >= smp.N || smp.naive) {
		/* The sample is the node: the requirements themselves.
		 * Or 004 §3.1's naive check, the requirement on the sample
		 * with k scaled by n/N. */
		int on = smp.on, ok;
		uint64_t k = o.k;

		if ((long double)sd->n * smp.N < (long double)smp.k * smp.n)
			return 0;
		smp.on = 0;
		o.k = 1;
		ok = side_ok(sd, hist, compl);
		o.k = k;
		smp.on = on;
		return ok;
	}
	if (!hypo_k(sd->n, smp.n, smp.N, smp.k, smp.alpha, smp.m))
		return 0;
	if (o.hasv) {
		long double s = (long double)sd->s, ss = (long double)sd->ss;
		long double n = (long double)sd->n, sv;

		if (sd->n < 2)
			return 0;
		sv = (n * ss - s * s) / (n * (n - 1)) / powl(10, 2 * sF);
		if (!hypo_variance((double)sv, sd->n,
		    (double)o.vm / pow(10, o.vs), smp.alpha, smp.m))
			return 0;
	}
	if (!o.ld.on || o.ld.kind != KN_DIV_RECURSIVE) {
		int on = smp.on, ok;

		smp.on = 0;
		ok = side_ok(sd, hist, compl);
		smp.on = on;
		return ok;
	}
	for (i = 0; i < nstouch; i++) {
		uint32_t x = stouch[i];
		uint64_t c = compl ? hs_tot[x] - hist[x] : hist[x];

		if (c > 0)
			gath[m++] = c;
	}
	kn_counts_desc(gath, m);
	for (i = (size_t)o.ld.l - 1; i < m; i++)
		xl += gath[i];
	return hypo_recursive(m > 0 ? gath[0] : 0, xl, sd->n,
	    (double)o.ld.cm / pow(10, o.ld.cs), smp.n, smp.N, smp.alpha,
	    smp.m);
}

/* Whether a part meets every requirement.  Its sensitive counts are
 * hist[x], or with compl the node's totals less hist[x]. */
static int
side_ok(const struct side *sd, const uint64_t *hist, int compl)
{
	size_t i, m = 0;

	if (smp.on)
		return sample_ok(sd, hist, compl);
	if (!k_var_ok(sd->n, sd->s, sd->ss))
		return 0;
	if (!o.ld.on)
		return 1;
	if (o.ld.kind == KN_DIV_DISTINCT)
		return (double)sd->distinct >= o.ld.l;
	for (i = 0; i < nstouch; i++) {
		uint32_t x = stouch[i];
		uint64_t c = compl ? hs_tot[x] - hist[x] : hist[x];

		if (c > 0)
			gath[m++] = c;
	}
	return gath_ok(m, sd->n);
}

/* Adds row r to part a (and takes it from part b, if not NULL, whose
 * sensitive and label counts are the totals less a's). */
static void
move(const uint32_t *r, struct side *a, struct side *b)
{
	a->n++;
	if (b != NULL)
		b->n--;
	if (!needstats)
		return;
	if (hass) {
		uint32_t x = r[wsens];
		uint64_t c = hs_side[x]++;

		if (c == 0)
			a->distinct++;
		if (b != NULL && hs_tot[x] - c == 1)
			b->distinct--;
		if (o.hasv) {
			kn_i128 v = sval[x];

			a->s += v;
			a->ss += v * v;
			if (b != NULL) {
				b->s -= v;
				b->ss -= v * v;
			}
		}
	}
	if (o.split == SPLIT_INFOGAIN) {
		uint32_t y = r[wtarg];
		uint64_t c = hl_side[y]++;

		a->lf += xlxf(c + 1) - xlxf(c);
		if (b != NULL) {
			uint64_t rc = hl_tot[y] - c;

			b->lf += xlxf(rc - 1) - xlxf(rc);
		}
	} else if (o.split == SPLIT_REGRESSION) {
		kn_i128 v = tval[r[wtarg]];

		a->ts += v;
		if (b != NULL)
			b->ts -= v;
	}
}

/* Forgets the counts that move() added for the rows at perm[lo..hi). */
static void
unmove(size_t b, size_t lo, size_t hi)
{
	size_t i;

	if (!needstats)
		return;
	for (i = lo; i < hi; i++) {
		const uint32_t *r = rec + (b + perm[i]) * W;

		if (hass)
			hs_side[r[wsens]] = 0;
		if (o.split == SPLIT_INFOGAIN)
			hl_side[r[wtarg]] = 0;
	}
}

/* Sorts the positions 0..n-1 of a segment by key[] (all below range),
 * stably, into perm. */
static void
sort_pos(size_t n, uint32_t range)
{
	size_t i, j;

	if (n < 64) {
		for (i = 0; i < n; i++) {
			uint32_t p = (uint32_t)i;

			for (j = i; j > 0 && key[perm[j - 1]] > key[p]; j--)
				perm[j] = perm[j - 1];
			perm[j] = p;
		}
		return;
	}
	if (range <= 2 * n) {
		memset(cnt, 0, ((size_t)range + 1) * sizeof(uint32_t));
		for (i = 0; i < n; i++)
			cnt[key[i] + 1]++;
		for (i = 1; i <= range; i++)
			cnt[i] += cnt[i - 1];
		for (i = 0; i < n; i++)
			perm[cnt[key[i]]++] = (uint32_t)i;
		return;
	}
	for (i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	for (int sh = 0; sh < 32 && ((range - 1) >> sh) != 0; sh += 8) {
		uint32_t c[257];

		memset(c, 0, sizeof(c));
		for (i = 0; i < n; i++)
			c[((key[perm[i]] >> sh) & 0xff) + 1]++;
		for (i = 1; i <= 256; i++)
			c[i] += c[i - 1];
		for (i = 0; i < n; i++)
			ptmp[c[(key[perm[i]] >> sh) & 0xff]++] = perm[i];
		memcpy(perm, ptmp, n * sizeof(uint32_t));
	}
}

/* The best cut found so far at a node. */
struct cut {
	int found;
	size_t dim;
	uint64_t L;		/* ordered: rows on the left */
	uint64_t dist;		/* median: |2L - n| */
	kn_i128 iscore;		/* infogain: larger is better */
	long double score;	/* regression: larger is better */
	int fast;		/* found by select_cut: */
	uint32_t med;		/* left: keys below med, and the first */
	uint64_t eqleft;	/* eqleft rows (in row order) equal to it */
};

/* The node being cut: its rows, totals and per-dimension extent. */
static struct {
	size_t b, n;
	struct side tot;
	uint32_t *mn, *mx;
	int *lv;		/* hierarchy: level of the LCA */
	uint32_t *node;		/* hierarchy: id of the LCA */
	long double *width;
	int *can;		/* the dimension can be cut */
	size_t sorted;		/* dimension perm is sorted by, or d */
} nd;

/* Whether dimension j is cut by its hierarchy. */
static int
is_hier(size_t j)
{
	return dims[j].h != NULL && !o.relaxed;
}

/* Fills key[] with the node's codes of dimension j and sorts. */
static void
sort_dim(size_t j)
{
	size_t i;

	if (nd.sorted == j)
		return;
	for (i = 0; i < nd.n; i++)
		key[i] = rec[(nd.b + i) * W + j] - nd.mn[j];
	sort_pos(nd.n, nd.mx[j] - nd.mn[j] + 1);
	nd.sorted = j;
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
select_cut(size_t j, struct cut *best)
{
	size_t n = nd.n, i;
	uint64_t lt = 0, eq = 0, L, dist;
	uint32_t med, c;
	const uint32_t *r = rec + nd.b * W + j;

	nd.sorted = d;
	if ((uint64_t)nd.mx[j] - nd.mn[j] < n) {
		/* A small range: a histogram finds the median. */
		uint32_t range = nd.mx[j] - nd.mn[j] + 1;

		memset(cnt, 0, range * sizeof(uint32_t));
		for (i = 0; i < n; i++)
			cnt[r[i * W] - nd.mn[j]]++;
		for (med = 0; lt + cnt[med] <= (n - 1) / 2; med++)
			lt += cnt[med];
		eq = cnt[med];
	} else {
		for (i = 0; i < n; i++)
			key[i] = r[i * W] - nd.mn[j];
		med = select_kth(key, n, (n - 1) / 2);
		for (i = 0; i < n; i++) {
			c = r[i * W] - nd.mn[j];
			lt += c < med;
			eq += c == med;
		}
	}
	if (o.relaxed)
		L = (n + 1) / 2;
	else if (lt + eq <= n - o.k && lt + eq >= o.k &&
	    (lt < o.k || n - 2 * lt >= 2 * (lt + eq) - n))
		L = lt + eq;
	else
		L = lt;
	if (L < o.k || n - L < o.k || L == 0 || L == n)
		return;
	dist = 2 * L > n ? 2 * L - n : n - 2 * L;
	best->found = 1;
	best->fast = 1;
	best->dim = j;
	best->L = L;
	best->dist = dist;
	best->med = med + nd.mn[j];
	best->eqleft = L - lt;
}

/* Whether a cut scoring (isc, sc) with balance dist beats the best so
 * far: a higher score; on a tie (regression: within rounding) the more
 * balanced cut, so that a pure node is halved rather than peeled. */
static int
better(const struct cut *best, kn_i128 isc, long double sc, uint64_t dist)
{
	long double tol;

	if (!best->found)
		return 1;
	if (o.split == SPLIT_INFOGAIN) {
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
eval_ordered(size_t j, struct cut *best)
{
	struct side L, R;
	size_t n = nd.n, i;

	smp.m = 2;

	sort_dim(j);
	memset(&L, 0, sizeof(L));
	R = nd.tot;
	for (i = 0; i + 1 < n; i++) {
		uint64_t l = i + 1, dist;
		kn_i128 isc = 0;
		long double sc = 0;

		move(rec + (nd.b + perm[i]) * W, &L, &R);
		if (!o.relaxed && key[perm[i]] == key[perm[i + 1]])
			continue;
		if (l < o.k || n - l < o.k)
			continue;
		dist = 2 * l > n ? 2 * l - n : n - 2 * l;
		if (o.split == SPLIT_INFOGAIN)
			isc = L.lf - xlxf(l) + R.lf - xlxf(n - l);
		else
			sc = sq_n(L.ts, l) + sq_n(R.ts, n - l);
		if (!better(best, isc, sc, dist) ||
		    !side_ok(&L, hs_side, 0) || !side_ok(&R, hs_side, 1))
			continue;
		best->found = 1;
		best->dim = j;
		best->L = l;
		best->dist = dist;
		best->iscore = isc;
		best->score = sc;
	}
	unmove(nd.b, 0, n - 1);
}

/* Moves row r across a cut: into the left part L (dir > 0) or back
 * into the right part R; hist holds L's sensitive counts. */
static void
cross(const uint32_t *r, struct side *L, struct side *R, uint64_t *hist,
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
	if (!hass)
		return;
	x = r[wsens];
	if (dir > 0) {
		c = hist[x]++;
		if (c == 0)
			L->distinct++;
		if (hs_tot[x] - c == 1)
			R->distinct--;
	} else {
		c = --hist[x];
		if (c == 0)
			L->distinct--;
		if (hs_tot[x] - c == 1)
			R->distinct++;
	}
	if (o.hasv) {
		kn_i128 v = dir > 0 ? sval[x] : -sval[x];
		kn_i128 v2 = dir > 0 ? sval[x] * sval[x] :
		    -(sval[x] * sval[x]);

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
eval_median(size_t j, struct cut *best)
{
	struct side La, Ra, Lb, Rb;
	size_t n = nd.n, i, nb = 0, c = 0, pa, pb;
	long r, l;

	smp.m = 2;

	sort_dim(j);
	/* The cut positions, as row counts of the left part. */
	for (i = 0; i + 1 < n; i++) {
		uint64_t L = i + 1;

		if (!o.relaxed && key[perm[i]] == key[perm[i + 1]])
			continue;
		if (L < o.k || n - L < o.k)
			continue;
		grp[nb++] = (uint32_t)L;
	}
	if (nb == 0)
		return;
	for (i = 1; i < nb; i++)
		if ((2 * (uint64_t)grp[i] > n ? 2 * (uint64_t)grp[i] - n :
		    n - 2 * (uint64_t)grp[i]) <= (2 * (uint64_t)grp[c] > n ?
		    2 * (uint64_t)grp[c] - n : n - 2 * (uint64_t)grp[c]))
			c = i;
	/* Cursor a starts at grp[c] and goes right, b goes left. */
	memset(&La, 0, sizeof(La));
	Ra = nd.tot;
	for (pa = 0; pa < grp[c]; pa++)
		cross(rec + (nd.b + perm[pa]) * W, &La, &Ra, hs_side, 1);
	Lb = La;
	Rb = Ra;
	for (i = 0; i < nstouch; i++)
		hs_side2[stouch[i]] = hs_side[stouch[i]];
	pb = pa;
	r = (long)c;
	l = (long)c - 1;
	while (r < (long)nb || l >= 0) {
		uint64_t dr = 0, dl = 0, L;
		int right;

		if (r < (long)nb)
			dr = 2 * (uint64_t)grp[r] > n ? 2 * (uint64_t)grp[r] -
			    n : n - 2 * (uint64_t)grp[r];
		if (l >= 0)
			dl = 2 * (uint64_t)grp[l] > n ? 2 * (uint64_t)grp[l] -
			    n : n - 2 * (uint64_t)grp[l];
		right = r < (long)nb && (l < 0 || dr <= dl);
		if (right) {
			L = grp[r++];
			for (; pa < L; pa++)
				cross(rec + (nd.b + perm[pa]) * W, &La, &Ra,
				    hs_side, 1);
			if (!side_ok(&La, hs_side, 0) ||
			    !side_ok(&Ra, hs_side, 1))
				continue;
		} else {
			L = grp[l--];
			for (; pb > L; pb--)
				cross(rec + (nd.b + perm[pb - 1]) * W, &Lb,
				    &Rb, hs_side2, -1);
			if (!side_ok(&Lb, hs_side2, 0) ||
			    !side_ok(&Rb, hs_side2, 1))
				continue;
		}
		best->found = 1;
		best->dim = j;
		best->L = L;
		break;
	}
	for (i = 0; i < nstouch; i++)
		hs_side[stouch[i]] = hs_side2[stouch[i]] = 0;
}

/* The child of the node of dimension j that holds code c. */
static uint32_t
child_of(size_t j, uint32_t c)
{
	const struct dim *dm = &dims[j];

	return dm->anc[nd.lv[j] - 1][dm->dfsleaf[c + nd.mn[j]]];
}

/* Considers specializing the hierarchy node of dimension j into its
 * children: allowable when every child meets the requirements. */
static void
eval_hier(size_t j, struct cut *best)
{
	struct side S;
	size_t n = nd.n, i, g0 = 0;
	long double sc = 0;
	kn_i128 isc = 0;
	int ok = 1;

	sort_dim(j);
	if (smp.on) {
		/* The tests are made for all the children at once. */
		smp.m = 1;
		for (i = 0; i + 1 < n; i++)
			smp.m += child_of(j, key[perm[i]]) !=
			    child_of(j, key[perm[i + 1]]);
	}
	memset(&S, 0, sizeof(S));
	for (i = 0; i < n; i++) {
		move(rec + (nd.b + perm[i]) * W, &S, NULL);
		if (i + 1 < n && child_of(j, key[perm[i]]) ==
		    child_of(j, key[perm[i + 1]]))
			continue;
		/* A child ends at i. */
		if (!side_ok(&S, hs_side, 0))
			ok = 0;
		if (o.split == SPLIT_INFOGAIN)
			isc += S.lf - xlxf(S.n);
		else if (o.split == SPLIT_REGRESSION)
			sc += sq_n(S.ts, S.n);
		unmove(nd.b, g0, i + 1);
		g0 = i + 1;
		memset(&S, 0, sizeof(S));
		if (!ok)
			break;
	}
	if (!ok)
		return;
	if (o.split == SPLIT_MEDIAN) {
		if (!best->found) {
			best->found = 1;
			best->dim = j;
		}
		return;
	}
	/* Ties go to a balanced threshold cut, else the first dimension. */
	if (!better(best, isc, sc, n))
		return;
	best->found = 1;
	best->dim = j;
	best->dist = n;
	best->iscore = isc;
	best->score = sc;
}

/* The stack of segments still to partition. */
static uint64_t *stk;		/* pairs b, e */
static uint32_t *stext;		/* per pair: min[d], max[d] */
static size_t nstk, capstk;

/* Pushes the segment [b,e) with the extents ext (min[d], max[d]). */
static void
push(uint64_t b, uint64_t e, const uint32_t *ext)
{
	if (nstk + 2 > capstk) {
		capstk = capstk ? 2 * capstk : 1024;
		stk = kn_realloc(stk, capstk * sizeof(uint64_t));
		stext = kn_realloc(stext, capstk / 2 * 2 * d *
		    sizeof(uint32_t));
	}
	memcpy(stext + nstk / 2 * 2 * d, ext, 2 * d * sizeof(uint32_t));
	stk[nstk++] = b;
	stk[nstk++] = e;
}

/* Makes the chosen cut: regroups the node's records stably by part,
 * noting each part's extents on the way, and pushes the parts,
 * leftmost on top. */
static void
apply(const struct cut *c)
{
	size_t n = nd.n, i, m = 0, g, j = c->dim;
	uint32_t *off, *ext;
	const uint32_t *r = rec + nd.b * W;

	if (c->fast)
		m = 2;
	else if (sort_dim(j), is_hier(j)) {
		for (i = 0; i < n; i++) {
			if (i > 0 && child_of(j, key[perm[i]]) !=
			    child_of(j, key[perm[i - 1]]))
				m++;
			grp[perm[i]] = (uint32_t)m;
		}
		m++;
	} else {
		for (i = 0; i < n; i++)
			grp[perm[i]] = i < c->L ? 0 : 1;
		m = 2;
	}
	off = kn_zalloc((m + 1) * sizeof(uint32_t));
	ext = kn_alloc(m * 2 * d * sizeof(uint32_t));
	for (g = 0; g < m; g++)
		for (i = 0; i < d; i++) {
			ext[g * 2 * d + i] = UINT32_MAX;
			ext[g * 2 * d + d + i] = 0;
		}
	if (c->fast) {
		off[1] = (uint32_t)c->L;
		off[2] = (uint32_t)n;
	} else {
		for (i = 0; i < n; i++)
			off[grp[i] + 1]++;
		for (i = 1; i <= m; i++)
			off[i] += off[i - 1];
	}
	{
		uint32_t *pos = kn_alloc((m + 1) * sizeof(uint32_t));
		uint64_t eqleft = c->eqleft;

		memcpy(pos, off, m * sizeof(uint32_t));
		for (i = 0; i < n; i++, r += W) {
			uint32_t *dst, *e;
			size_t q;

			if (c->fast) {
				uint32_t v = r[j];

				g = v < c->med || (v == c->med &&
				    eqleft > 0 && eqleft--) ? 0 : 1;
			} else
				g = grp[i];
			dst = rtmp + (size_t)pos[g]++ * W;
			e = ext + g * 2 * d;
			for (q = 0; q < d; q++) {
				uint32_t v = r[q];

				e[q] = v < e[q] ? v : e[q];
				e[d + q] = v > e[d + q] ? v : e[d + q];
			}
			memcpy(dst, r, W * sizeof(uint32_t));
		}
		free(pos);
	}
	memcpy(rec + nd.b * W, rtmp, n * W * sizeof(uint32_t));
	for (g = m; g-- > 0;)
		push(nd.b + off[g], nd.b + off[g + 1], ext + g * 2 * d);
	free(off);
	free(ext);
}

/* From the node's extents: each hierarchy's lowest common ancestor,
 * the normalized widths, and which dimensions can be cut. */
static void
widths(void)
{
	size_t j;

	for (j = 0; j < d; j++) {
		struct dim *dm = &dims[j];

		if (dm->h != NULL) {
			uint32_t la = dm->dfsleaf[nd.mn[j]];
			uint32_t lb = dm->dfsleaf[nd.mx[j]];
			int l;

			for (l = 0; l < dm->nl; l++)
				if (dm->anc[l][la] == dm->anc[l][lb])
					break;
			nd.lv[j] = l;
			nd.node[j] = l < dm->nl ? dm->anc[l][la] : 0;
			nd.width[j] = l < dm->nl ?
			    (long double)dm->nleaf[l][nd.node[j]] /
			    (long double)dm->ncode : 1;
		} else {
			long double g = (long double)(dm->hasg ?
			    (kn_i128)dm->gmx - dm->gmn : (kn_i128)
			    dm->vals[dm->nrank - 1] - dm->vals[0]);

			nd.width[j] = g > 0 ? (long double)((kn_i128)
			    dm->vals[nd.mx[j]] - dm->vals[nd.mn[j]]) / g : 0;
		}
		if (o.relaxed)
			nd.can[j] = 1;
		else if (is_hier(j))
			nd.can[j] = nd.lv[j] > 0;
		else
			nd.can[j] = nd.mn[j] < nd.mx[j];
	}
}

/* Counts the node's totals and extents. */
static void
totals(size_t b, size_t e, const uint32_t *ext)
{
	size_t i, j;

	nd.b = b;
	nd.n = e - b;
	nd.sorted = d;
	memset(&nd.tot, 0, sizeof(nd.tot));
	nstouch = nltouch = 0;
	if (ext != NULL) {
		memcpy(nd.mn, ext, d * sizeof(uint32_t));
		memcpy(nd.mx, ext + d, d * sizeof(uint32_t));
	} else {
		for (j = 0; j < d; j++) {
			nd.mn[j] = UINT32_MAX;
			nd.mx[j] = 0;
		}
		for (i = b; i < e; i++)
			for (j = 0; j < d; j++) {
				uint32_t v = rec[i * W + j];

				nd.mn[j] = v < nd.mn[j] ? v : nd.mn[j];
				nd.mx[j] = v > nd.mx[j] ? v : nd.mx[j];
			}
	}
	for (i = b; i < e && needstats; i++) {
		const uint32_t *r = rec + i * W;

		if (hass && hs_tot[r[wsens]]++ == 0)
			stouch[nstouch++] = r[wsens];
		if (o.split == SPLIT_INFOGAIN && hl_tot[r[wtarg]]++ == 0)
			ltouch[nltouch++] = r[wtarg];
	}
	if (nltouch > 1)
		qsort(ltouch, nltouch, sizeof(uint32_t), cmp_u32);
	/* The statistics of the whole node, as of a part. */
	nd.tot.n = nd.n;
	if (needstats) {
		nd.tot.n = 0;
		for (i = 0; i < nd.n; i++) {
			perm[i] = (uint32_t)i;
			move(rec + (b + i) * W, &nd.tot, NULL);
		}
		unmove(b, 0, nd.n);
	}
	widths();
}

/* Clears the node's total counts. */
static void
untotals(void)
{
	size_t i;

	for (i = 0; i < nstouch; i++)
		hs_tot[stouch[i]] = 0;
	for (i = 0; i < nltouch; i++)
		hl_tot[ltouch[i]] = 0;
}

/* The line of a region being built. */
static char *rline;
static size_t rlen, rcap;

/* Makes room for n more bytes of the region line. */
static char *
rroom(size_t n)
{
	if (rlen + n > rcap) {
		rcap = 2 * (rlen + n) + 256;
		rline = kn_realloc(rline, rcap);
	}
	return rline + rlen;
}

/* Appends a tab and v / 10^S. */
static void
put_dec(int64_t v, int S)
{
	char *p = rroom(64);

	*p++ = '\t';
	if (S == 0 && v >= 0)
		rlen += 1 + kn_fmt_u64(p, (uint64_t)v);
	else
		rlen += 1 + kn_dec_format(v, S, p);
}

/* Appends a tab and the mean sum/n, rounded half away from zero to S+4
 * decimals. */
static void
put_mean(kn_i128 sum, uint64_t n, int S)
{
	kn_i128 q;
	char *p = rroom(64);

	*p++ = '\t';
	if (S == 0 && sum >= 0 && sum % (kn_i128)n == 0)
		rlen += 1 + kn_fmt_u64(p, (uint64_t)(sum / (kn_i128)n));
	else {
		/* |sum| < 2^95 (under 2^32 rows of 63 bits): no overflow. */
		q = sum * 20000 / (kn_i128)n;
		q = q >= 0 ? (q + 1) / 2 : (q - 1) / 2;
		rlen += 1 + kn_dec_format(q, S + 4, p);
	}
}

/* Writes the header line of the regions file. */
static void
regions_header(FILE *fp)
{
	size_t j;

	fputs("class\tcount", fp);
	for (j = 0; j < d; j++) {
		if (dims[j].h != NULL)
			fprintf(fp, "\t%s", dims[j].name);
		else
			fprintf(fp, "\t%s_min\t%s_max\t%s_mean", dims[j].name,
			    dims[j].name, dims[j].name);
	}
	putc('\n', fp);
}

/* Writes the region of class id: n rows, the node's extents, and per
 * numeric dimension the sum of its values (scaled) for the mean. */
static const char *rtag;	/* a node id to write instead of a class's */

static void
region(uint32_t id, uint64_t n, const kn_i128 *sums)
{
	size_t j;
	char *p;

	rlen = 0;
	if (rtag != NULL) {
		p = rroom(strlen(rtag) + 8);
		rlen = (size_t)sprintf(p, "region\t%s", rtag);
	} else {
		p = rroom(48);
		rlen = kn_fmt_u64(p, id);
	}
	rline[rlen++] = '\t';
	rlen += kn_fmt_u64(rline + rlen, n);
	for (j = 0; j < d; j++) {
		struct dim *dm = &dims[j];
		kn_str v;

		if (dm->h != NULL) {
			v.p = "*";
			v.n = 1;
			if (nd.lv[j] < dm->nl)
				v = kn_dict_get(&dm->h->lab[nd.lv[j]],
				    nd.node[j]);
			p = rroom(v.n + 1);
			*p = '\t';
			memcpy(p + 1, v.p, v.n);
			rlen += v.n + 1;
			continue;
		}
		put_dec(dm->vals[nd.mn[j]], dm->S);
		put_dec(dm->vals[nd.mx[j]], dm->S);
		put_mean(sums[j], n, dm->S);
	}
	*rroom(1) = '\n';
	rlen++;
	if (fwrite(rline, 1, rlen, rfp) != rlen)
		kn_die_sys("%s: write error", rname);
}

/* Notes that row belongs to class id: in memory, or out of core as a
 * pair in the pairs file. */
static void
assign(uint32_t row, uint32_t id)
{
	uint32_t pr[2];

	if (!ooc) {
		cls[row] = id;
		return;
	}
	pr[0] = row;
	pr[1] = id;
	if (fwrite(pr, sizeof(pr), 1, pairs) != 1)
		kn_die_sys("%s: write error", pairspath);
	oacct.bwritten += sizeof(pr);
}

/* Makes the node a class. */
static void
leaf(void)
{
	size_t i, j;
	uint32_t id = ++ncls;

	if (nd.n > maxcls)
		maxcls = nd.n;
	for (i = 0; i < nd.n; i++)
		assign(rec[(nd.b + i) * W + wrow], id);
	if (rfp == NULL)
		return;
	for (j = 0; j < d; j++) {
		sums[j] = 0;
		if (dims[j].h == NULL)
			for (i = 0; i < nd.n; i++)
				sums[j] += dims[j].vals[rec[(nd.b + i) * W +
				    j]];
	}
	region(id, nd.n, sums);
}

/* Orders the dimensions by normalized width, widest first. */
static int
cmp_width(uint32_t a, uint32_t b, const void *ctx)
{
	(void)ctx;
	if (nd.width[a] != nd.width[b])
		return nd.width[a] > nd.width[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

static uint64_t ncuts;

/* The tree grown on a sample by Rothko-S: the cuts, to route the
 * population through.  A threshold cut sends codes <= thr to kid 0; a
 * hierarchy cut of node X at level lv sends each row to the child of X
 * it lies under, and the rows under children the sample did not have,
 * or not under X at all, to the last kid ("other"), which must stay
 * empty for the cut to stand. */
struct tnode {
	int leaf;
	size_t dim;
	int hier;
	uint32_t thr;
	int lv;
	uint32_t x;
	uint32_t *cid;		/* hierarchy: child ids, in kid order */
	size_t nkid;
	size_t kid0;		/* index of the first kid */
	uint64_t depth;
	/* Rothko-T: the rows, and relaxed cuts (codes below med, and the
	 * first eqleft rows at med in file order, go to kid 0) */
	uint64_t n;
	int big, rel;
	uint32_t med;
	uint64_t eqleft, left;
};

static struct {
	int on;
	struct tnode *t;
	size_t n, cap;
	uint64_t maxdepth, maxleaves, leaves;
	int full;		/* also make classes (a cluster's solve job) */
	uint32_t *tcls;		/* with full: node -> its class, or 0 */
	size_t *stnode;		/* per stack pair: its tree node */
	size_t stcap;
} gw;

/* A new tree node. */
static size_t
tnew(uint64_t depth)
{
	if (gw.n == gw.cap) {
		gw.cap = gw.cap ? 2 * gw.cap : 64;
		gw.t = kn_realloc(gw.t, gw.cap * sizeof(struct tnode));
		gw.tcls = kn_realloc(gw.tcls, gw.cap * sizeof(uint32_t));
	}
	gw.tcls[gw.n] = 0;
	memset(&gw.t[gw.n], 0, sizeof(struct tnode));
	gw.t[gw.n].leaf = 1;
	gw.t[gw.n].depth = depth;
	return gw.n++;
}

/* Records the cut c of the node in memory as tree node t's, with m kids
 * created after it. */
static void
record_cut(size_t t, const struct cut *c)
{
	struct tnode *tn;
	size_t j = c->dim, i, m = 0, k0;
	uint32_t *cid = NULL;

	if (is_hier(j)) {
		sort_dim(j);
		cid = kn_alloc((nd.n + 1) * sizeof(uint32_t));
		for (i = 0; i < nd.n; i++)
			if (i == 0 || child_of(j, key[perm[i]]) !=
			    child_of(j, key[perm[i - 1]]))
				cid[m++] = child_of(j, key[perm[i]]);
	} else
		m = 2;
	k0 = gw.n;
	for (i = 0; i < m + (cid != NULL); i++)
		tnew(gw.t[t].depth + 1);
	tn = &gw.t[t];
	tn->leaf = 0;
	tn->dim = j;
	tn->kid0 = k0;
	tn->nkid = m + (cid != NULL);
	if (cid != NULL) {
		tn->hier = 1;
		tn->lv = nd.lv[j];
		tn->x = nd.node[j];
		tn->cid = cid;
	} else if (c->fast)
		tn->thr = c->eqleft == UINT64_MAX ? c->med : c->eqleft ==
		    0 ? c->med - 1 : c->med;
	else {
		sort_dim(j);
		tn->thr = key[perm[c->L - 1]] + nd.mn[j];
	}
	gw.leaves += tn->nkid - 1;
}

/* Allocates the scratch of partition() for the N rows in rec, or
 * frees it with the rows. */
static void
scratch(int get)
{
	if (get) {
		rtmp = kn_alloc((N + 1) * W * sizeof(uint32_t));
		key = kn_alloc((N + 1) * sizeof(uint32_t));
		perm = kn_alloc((N + 1) * sizeof(uint32_t));
		ptmp = kn_alloc((N + 1) * sizeof(uint32_t));
		grp = kn_alloc((N + 1) * sizeof(uint32_t));
		cnt = kn_alloc((2 * N + 2) * sizeof(uint32_t));
		return;
	}
	free(rec);
	free(rtmp);
	free(key);
	free(perm);
	free(ptmp);
	free(grp);
	free(cnt);
	rec = NULL;
}

/* Partitions all rows: Figure 7 of paper 003 with an explicit stack. */
static void
partition(void)
{
	uint32_t *ord = kn_alloc((2 * d + 1) * sizeof(uint32_t));
	size_t j;

	if (N == 0) {
		free(ord);
		return;
	}
	totals(0, N, NULL);
	memcpy(ord, nd.mn, d * sizeof(uint32_t));
	memcpy(ord + d, nd.mx, d * sizeof(uint32_t));
	push(0, N, ord);
	untotals();
	if (gw.on) {
		gw.stnode = kn_realloc(gw.stnode, 2 * sizeof(size_t));
		gw.stcap = 1;
		gw.stnode[0] = tnew(0);
		gw.leaves = 1;
	}
	while (nstk > 0) {
		uint64_t e = stk[--nstk], b = stk[--nstk];
		size_t tn = gw.on ? gw.stnode[nstk / 2] : 0;
		struct cut best;

		totals(b, e, stext + nstk / 2 * 2 * d);
		memset(&best, 0, sizeof(best));
		if (nd.n >= 2 * o.k && (!gw.on ||
		    (gw.t[tn].depth < gw.maxdepth &&
		    gw.leaves < gw.maxleaves))) {
			if (o.split == SPLIT_MEDIAN) {
				for (j = 0; j < d; j++) {
					size_t q = j;

					for (; q > 0 && cmp_width(ord[q - 1],
					    (uint32_t)j, NULL) > 0; q--)
						ord[q] = ord[q - 1];
					ord[q] = (uint32_t)j;
				}
				for (j = 0; j < d && !best.found; j++) {
					if (!nd.can[ord[j]])
						continue;
					if (is_hier(ord[j]))
						eval_hier(ord[j], &best);
					else if (!needstats)
						select_cut(ord[j], &best);
					else
						eval_median(ord[j], &best);
				}
			} else {
				for (j = 0; j < d; j++) {
					if (!nd.can[j])
						continue;
					if (is_hier(j))
						eval_hier(j, &best);
					else
						eval_ordered(j, &best);
				}
			}
		}
		if (best.found && gw.on) {
			size_t before = nstk / 2, q, k0;

			record_cut(tn, &best);
			apply(&best);
			/* The kids were pushed last-first: the first on top.
			 * A hierarchy's "other" kid has no rows here. */
			k0 = gw.t[tn].kid0;
			if (gw.stcap < nstk / 2 + 1) {
				gw.stcap = 2 * (nstk / 2 + 1);
				gw.stnode = kn_realloc(gw.stnode, gw.stcap *
				    sizeof(size_t));
			}
			for (q = before; q < nstk / 2; q++)
				gw.stnode[q] = k0 + (nstk / 2 - 1 - q);
		} else if (best.found) {
			ncuts++;
			apply(&best);
		} else if (!gw.on)
			leaf();
		else if (gw.full) {
			leaf();
			gw.tcls[tn] = ncls;
		}
		untotals();
	}
	free(ord);
}

/* ---- out of core: Rothko-T (paper 004 §2) -------------------------- */

/* A node on disk: a file of n records, with the numbers and labels still
 * as ids when raw (the spool). */
struct onode {
	char *path;
	uint64_t n;
	int raw;
	int big;		/* known to have no allowable cut */
};

static uint64_t fitrows;	/* --fit-rows */
static size_t avail;		/* what the nodes may use */
static const char *tmpdir;
static uint32_t *lmap;		/* infogain: label id -> rank */

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
dicts_bytes(void)
{
	size_t b = 0, j;
	int l;

	for (j = 0; j < d; j++) {
		const struct dim *dm = &dims[j];

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
	b += dict_bytes(&sdict) + sdict.n * (5 * sizeof(uint64_t) +
	    sizeof(uint32_t));
	b += dict_bytes(&tdict) + tdict.n * (3 * sizeof(uint64_t) +
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
rank_ids(struct dim *dm)
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
			    "bits with %d decimals each", inname, dm->name, S);
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
map_record(uint32_t *r)
{
	size_t j;

	for (j = 0; j < d; j++)
		r[j] = dims[j].h != NULL ? dims[j].dfsrank[r[j]] :
		    dims[j].rankof[r[j]];
	if (o.split == SPLIT_INFOGAIN)
		r[wtarg] = lmap[r[wtarg]];
}

/* A reader of a node file in chunks. */
struct oread {
	FILE *f;
	const struct onode *nd;
	uint32_t *buf;
	size_t n, i;
};

static void
oread_open(struct oread *rd, const struct onode *on)
{
	rd->nd = on;
	if ((rd->f = fopen(on->path, "rb")) == NULL)
		kn_die_sys("%s", on->path);
	rd->buf = kn_alloc(CHUNK * W * sizeof(uint32_t));
	rd->n = rd->i = 0;
	oacct.scans++;
}

/* The next record, mapped, or NULL at the end. */
static uint32_t *
oread_next(struct oread *rd)
{
	size_t i;

	if (rd->i == rd->n) {
		rd->n = fread(rd->buf, W * sizeof(uint32_t), CHUNK, rd->f);
		rd->i = 0;
		if (rd->n == 0) {
			if (ferror(rd->f))
				kn_die_sys("%s: read error", rd->nd->path);
			return NULL;
		}
		oacct.bread += rd->n * W * sizeof(uint32_t);
		if (rd->nd->raw)
			for (i = 0; i < rd->n; i++)
				map_record(rd->buf + i * W);
	}
	return rd->buf + W * rd->i++;
}

static void
oread_close(struct oread *rd)
{
	fclose(rd->f);
	free(rd->buf);
}

/* The frequency groups of a node (004 §2: AV, AVS, AVC sets): per
 * dimension the counts of (code, sensitive value, label). */
struct gent {
	uint32_t code, s, y;
	uint64_t cnt;
};

struct gtab {
	struct gent *e;
	size_t n, cap;
	uint32_t *slot;
	size_t nslot;
	uint64_t *arr;		/* dense counts by code (k alone) */
};

static int gdense;		/* groups are plain counts by code */

static struct gtab *gt;
static size_t gbytes;		/* memory the groups use */
static int gsoft, gover;	/* a batch may overflow: say so */

static uint64_t
ghash(uint32_t c, uint32_t s, uint32_t y)
{
	uint64_t h = ((uint64_t)c * 0x9e3779b97f4a7c15ULL) ^
	    ((uint64_t)s * 0xc2b2ae3d27d4eb4fULL) ^
	    ((uint64_t)y * 0x165667b19e3779f9ULL);

	return h ^ (h >> 29);
}

static void
gadd(struct gtab *g, uint32_t c, uint32_t s, uint32_t y, uint64_t cnt)
{
	size_t h, i;

	if (2 * (g->n + 1) > g->nslot) {
		size_t ns = g->nslot ? 2 * g->nslot : 1024, k;

		free(g->slot);
		gbytes += (ns - g->nslot) * sizeof(uint32_t);
		g->slot = kn_zalloc(ns * sizeof(uint32_t));
		g->nslot = ns;
		for (k = 0; k < g->n; k++) {
			h = ghash(g->e[k].code, g->e[k].s, g->e[k].y) &
			    (ns - 1);
			while (g->slot[h] != 0)
				h = (h + 1) & (ns - 1);
			g->slot[h] = (uint32_t)k + 1;
		}
		if (gbytes > avail && gsoft)
			gover = 1;
		else if (gbytes > avail)
			kn_die("-S %zu: too small: the frequency groups of a "
			    "node need more (%zu bytes so far)", budget,
			    gbytes);
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
		gbytes += g->cap * sizeof(struct gent);
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
gclear(struct gtab *g, int keep)
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
	gbytes += g->cap * sizeof(struct gent);
}

/* Counts a row of code c of dimension j into g: in an array indexed by
 * the code when the groups are plain counts, else in the hash. */
static void
gcount(struct gtab *g, size_t j, const uint32_t *r)
{
	if (gdense) {
		if (g->arr == NULL) {
			size_t dom = dims[j].h != NULL ? dims[j].ncode :
			    dims[j].nrank;

			gbytes += (dom + 1) * sizeof(uint64_t);
			if (gbytes > avail && gsoft) {
				gover = 1;
				return;
			}
			if (gbytes > avail)
				kn_die("-S %zu: too small: the frequency groups "
				    "of a node need more (%zu bytes so far)",
				    budget, gbytes);
			g->arr = kn_zalloc((dom + 1) * sizeof(uint64_t));
		}
		g->arr[r[j]]++;
		return;
	}
	gadd(g, r[j], hass ? r[wsens] : 0,
	    o.split != SPLIT_MEDIAN ? r[wtarg] : 0, 1);
}

/* Turns dense counts into the sorted list of groups. */
static void
gdense_list(struct gtab *g, size_t j)
{
	size_t dom = dims[j].h != NULL ? dims[j].ncode : dims[j].nrank, c;

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

static void groups_finish(uint64_t n);

/* Scans a node for its groups, totals and extents (nd.*). */
static void
groups(const struct onode *on)
{
	struct oread rd;
	uint32_t *r;
	size_t j;

	gbytes = 0;
	for (j = 0; j < d; j++)
		gclear(&gt[j], 1);
	oread_open(&rd, on);
	while ((r = oread_next(&rd)) != NULL)
		for (j = 0; j < d; j++)
			gcount(&gt[j], j, r);
	oread_close(&rd);
	groups_finish(on->n);
}

/* From the groups in gt of a node of n rows: sorted lists, the totals
 * and extents (nd.*). */
static void
groups_finish(uint64_t n)
{
	size_t i, j;

	for (j = 0; j < d; j++) {
		if (gt[j].arr != NULL)
			gdense_list(&gt[j], j);
		else
			qsort(gt[j].e, gt[j].n, sizeof(struct gent),
			    cmp_gent);
	}
	/* Totals from the first dimension's groups. */
	nd.b = 0;
	nd.n = n;
	nd.sorted = d;
	memset(&nd.tot, 0, sizeof(nd.tot));
	nstouch = nltouch = 0;
	for (i = 0; i < gt[0].n; i++) {
		const struct gent *e = &gt[0].e[i];

		if (hass && hs_tot[e->s] == 0)
			stouch[nstouch++] = e->s;
		if (hass)
			hs_tot[e->s] += e->cnt;
		if (o.split == SPLIT_INFOGAIN && hl_tot[e->y] == 0)
			ltouch[nltouch++] = e->y;
		if (o.split == SPLIT_INFOGAIN)
			hl_tot[e->y] += e->cnt;
		if (o.hasv) {
			nd.tot.s += sval[e->s] * (kn_i128)e->cnt;
			nd.tot.ss += sval[e->s] * sval[e->s] * (kn_i128)e->cnt;
		}
		if (o.split == SPLIT_REGRESSION)
			nd.tot.ts += tval[e->y] * (kn_i128)e->cnt;
	}
	if (nltouch > 1)
		qsort(ltouch, nltouch, sizeof(uint32_t), cmp_u32);
	nd.tot.n = n;
	for (i = 0; i < nstouch; i++)
		nd.tot.distinct++;
	for (i = 0; i < nltouch; i++)
		nd.tot.lf += xlxf(hl_tot[ltouch[i]]);
	for (j = 0; j < d; j++) {
		nd.mn[j] = gt[j].n > 0 ? gt[j].e[0].code : 0;
		nd.mx[j] = gt[j].n > 0 ? gt[j].e[gt[j].n - 1].code : 0;
	}
	widths();
}

/* Adds cnt rows of sensitive value x and label y to part L (and takes
 * them from R, if not NULL). */
static void
wmove(uint32_t x, uint32_t y, uint64_t cnt, struct side *L, struct side *R)
{
	L->n += cnt;
	if (R != NULL)
		R->n -= cnt;
	if (hass) {
		uint64_t c = hs_side[x];

		hs_side[x] += cnt;
		if (c == 0)
			L->distinct++;
		if (R != NULL && hs_tot[x] - c == cnt)
			R->distinct--;
		if (o.hasv) {
			kn_i128 v = sval[x] * (kn_i128)cnt;
			kn_i128 v2 = sval[x] * v;

			L->s += v;
			L->ss += v2;
			if (R != NULL) {
				R->s -= v;
				R->ss -= v2;
			}
		}
	}
	if (o.split == SPLIT_REGRESSION) {
		kn_i128 v = tval[y] * (kn_i128)cnt;

		L->ts += v;
		if (R != NULL)
			R->ts -= v;
	}
	if (o.split == SPLIT_INFOGAIN) {
		uint64_t c = hl_side[y], rc = hl_tot[y] - c;

		hl_side[y] += cnt;
		L->lf += xlxf(c + cnt) - xlxf(c);
		if (R != NULL)
			R->lf += xlxf(rc - cnt) - xlxf(rc);
	}
}

/* Clears the part counts of wmove. */
static void
wclear(void)
{
	size_t i;

	for (i = 0; i < nstouch; i++)
		hs_side[stouch[i]] = 0;
	for (i = 0; i < nltouch; i++)
		hl_side[ltouch[i]] = 0;
}

/* Cuts of an ordered dimension from its groups: the median (k alone:
 * as select_cut; with diversity: as eval_median) or the best score (as
 * eval_ordered), with the same choices as in memory. */
static void
w_ordered(size_t j, struct cut *best)
{
	const struct gtab *g = &gt[j];
	struct side L, R;
	uint64_t n = nd.n;
	size_t i;

	if (o.relaxed) {
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
		if (n < 2 * o.k)
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
	R = nd.tot;
	for (i = 0; i < g->n; i++) {
		uint64_t l, dist;
		kn_i128 isc = 0;
		long double sc = 0;

		wmove(g->e[i].s, g->e[i].y, g->e[i].cnt, &L, &R);
		if (i + 1 < g->n && g->e[i + 1].code == g->e[i].code)
			continue;
		if (i + 1 == g->n)
			break;
		l = L.n;
		if (l < o.k || n - l < o.k)
			continue;
		dist = 2 * l > n ? 2 * l - n : n - 2 * l;
		if (o.split == SPLIT_MEDIAN) {
			if (best->found && dist > best->dist)
				continue;
		} else if (o.split == SPLIT_INFOGAIN) {
			isc = L.lf - xlxf(l) + R.lf - xlxf(n - l);
			if (!better(best, isc, 0, dist))
				continue;
		} else {
			sc = sq_n(L.ts, l) + sq_n(R.ts, n - l);
			if (!better(best, 0, sc, dist))
				continue;
		}
		if (!side_ok(&L, hs_side, 0) || !side_ok(&R, hs_side, 1))
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
	wclear();
}

/* Specializing the hierarchy of dimension j, from its groups (as
 * eval_hier). */
static void
w_hier(size_t j, struct cut *best)
{
	const struct gtab *g = &gt[j];
	struct side S;
	size_t i;
	kn_i128 isc = 0;
	long double sc = 0;
	int ok = 1;

	memset(&S, 0, sizeof(S));
	for (i = 0; i < g->n && ok; i++) {
		wmove(g->e[i].s, g->e[i].y, g->e[i].cnt, &S, NULL);
		if (i + 1 < g->n && child_of(j, g->e[i + 1].code - nd.mn[j]) ==
		    child_of(j, g->e[i].code - nd.mn[j]))
			continue;
		if (!side_ok(&S, hs_side, 0))
			ok = 0;
		if (o.split == SPLIT_INFOGAIN)
			isc += S.lf - xlxf(S.n);
		else if (o.split == SPLIT_REGRESSION)
			sc += sq_n(S.ts, S.n);
		wclear();
		memset(&S, 0, sizeof(S));
	}
	wclear();
	if (!ok)
		return;
	if (o.split == SPLIT_MEDIAN) {
		if (!best->found) {
			best->found = 1;
			best->fast = 0;
			best->dim = j;
		}
		return;
	}
	if (!better(best, isc, sc, nd.n))
		return;
	best->found = 1;
	best->fast = 0;
	best->dim = j;
	best->dist = nd.n;
	best->iscore = isc;
	best->score = sc;
}

/* Chooses the cut of a node on disk, as partition() would in memory. */
static void
decide(struct cut *best)
{
	uint32_t ord[64], *op = d <= 64 ? ord : kn_alloc(d * sizeof(uint32_t));
	size_t j;

	memset(best, 0, sizeof(*best));
	if (nd.n < 2 * o.k)
		goto out;
	for (j = 0; j < d; j++) {
		size_t q = j;

		if (o.split != SPLIT_MEDIAN) {
			op[j] = (uint32_t)j;
			continue;
		}
		for (; q > 0 && cmp_width(op[q - 1], (uint32_t)j, NULL) > 0;
		    q--)
			op[q] = op[q - 1];
		op[q] = (uint32_t)j;
	}
	for (j = 0; j < d; j++) {
		if (o.split == SPLIT_MEDIAN && best->found)
			break;
		if (!nd.can[op[j]])
			continue;
		if (is_hier(op[j]))
			w_hier(op[j], best);
		else
			w_ordered(op[j], best);
	}
out:
	if (op != ord)
		free(op);
}

/* Exits 1 when the table in memory does not meet the requirements. */
static void
root_check(const char *name)
{
	if (N == 0)
		return;
	totals(0, N, NULL);
	if (!side_ok(&nd.tot, hs_side, 1)) {
		fprintf(stderr, "%s: %s: no partitioning: the whole table "
		    "(%llu rows) does not meet the requirements\n", kn_prog,
		    name, (unsigned long long)N);
		kn_exit(1);
	}
	untotals();
}

/* Whether a node of n rows can be partitioned in memory. */
static int
fits(uint64_t n)
{
	return n * (8 * W + 40) <= avail && (fitrows == 0 || n <= fitrows);
}

/* Partitions a node in memory: reads it and runs the stack of
 * partition() over it, class ids continuing. */
static void
solve_in_memory(const struct onode *on, const char *checkname)
{
	struct oread rd;
	uint32_t *r;
	uint64_t i = 0;

	rec = kn_alloc((on->n + 1) * W * sizeof(uint32_t));
	oread_open(&rd, on);
	while ((r = oread_next(&rd)) != NULL)
		memcpy(rec + i++ * W, r, W * sizeof(uint32_t));
	oread_close(&rd);
	N = on->n;
	scratch(1);
	if (checkname != NULL)
		root_check(checkname);
	partition();
	scratch(0);
	oacct.inmem++;
}

/* Makes a node on disk one class. */
static void
big_leaf(const struct onode *on)
{
	struct oread rd;
	uint32_t *r, id = ++ncls;
	size_t j, i;

	if (on->n > maxcls)
		maxcls = on->n;
	oacct.bigleaf++;
	oread_open(&rd, on);
	while ((r = oread_next(&rd)) != NULL)
		assign(r[wrow], id);
	oread_close(&rd);
	if (rfp == NULL)
		return;
	for (j = 0; j < d; j++) {
		sums[j] = 0;
		if (dims[j].h == NULL)
			for (i = 0; i < gt[j].n; i++)
				sums[j] += (kn_i128)gt[j].e[i].cnt *
				    dims[j].vals[gt[j].e[i].code];
	}
	region(id, on->n, sums);
}

/* ---- out of core: Rothko-S (paper 004 §3) ------------------------- */

static int algo_s;		/* -a rothko-s */
static double salpha = 0.05;	/* --alpha */
static uint64_t sample_max;	/* --sample */
static uint64_t seed = 1;	/* --seed */
static uint64_t pruned;		/* tree nodes merged back */

/* splitmix64: the random numbers of the sampling. */
static uint64_t
rnd(void)
{
	uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A uniform integer in [0, n). */
static uint64_t
rnd_below(uint64_t n)
{
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, x;

	while ((x = rnd()) >= lim)
		;
	return x % n;
}

/* Reads a simple random sample of ns of the node's records into rec
 * (reservoir sampling, algorithm R), in file order. */
struct pstat;
static void pstat_add(struct pstat *p, const uint32_t *r);

static void
sample_node(const struct onode *on, uint64_t ns, struct pstat *all)
{
	struct oread rd;
	uint32_t *r, *pos = kn_alloc((ns + 1) * sizeof(uint32_t));
	uint64_t i = 0, q;

	rec = kn_alloc((ns + 1) * W * sizeof(uint32_t));
	oread_open(&rd, on);
	while ((r = oread_next(&rd)) != NULL) {
		if (all != NULL)
			pstat_add(all, r);
		if (i < ns)
			q = i;
		else if ((q = rnd_below(i + 1)) >= ns) {
			i++;
			continue;
		}
		memcpy(rec + q * W, r, W * sizeof(uint32_t));
		pos[q] = (uint32_t)i;
		i++;
	}
	oread_close(&rd);
	/* Back in file order, so that ties break as in memory. */
	{
		uint64_t *pr = kn_alloc((ns + 1) * 2 * sizeof(uint64_t));
		uint32_t *cp = kn_alloc((ns + 1) * W * sizeof(uint32_t));

		for (q = 0; q < ns; q++) {
			pr[2 * q] = pos[q];
			pr[2 * q + 1] = q;
		}
		qsort(pr, ns, 2 * sizeof(uint64_t), cmp_u64pair);
		for (q = 0; q < ns; q++)
			memcpy(cp + q * W, rec + pr[2 * q + 1] * W,
			    W * sizeof(uint32_t));
		free(rec);
		rec = cp;
		free(pr);
	}
	free(pos);
}

/* Population statistics of a tree node, counted while repartitioning:
 * what the requirements need (004 §3: counts, sensitive histograms,
 * sums). */
struct pstat {
	uint64_t n;
	struct gtab h;		/* sensitive value -> count (code = s) */
	kn_i128 s, ss;
	char *path;		/* a leaf's records */
	FILE *f;
};

/* Counts record r into p. */
static void
pstat_add(struct pstat *p, const uint32_t *r)
{
	p->n++;
	if (!hass)
		return;
	if (o.ld.on)
		gadd(&p->h, r[wsens], 0, 0, 1);
	if (o.hasv) {
		p->s += sval[r[wsens]];
		p->ss += sval[r[wsens]] * sval[r[wsens]];
	}
}

/* Whether population statistics meet every requirement, exactly. */
static int
pstat_ok(const struct pstat *p)
{
	size_t i;

	if (!k_var_ok(p->n, p->s, p->ss))
		return 0;
	if (!o.ld.on)
		return 1;
	for (i = 0; i < p->h.n; i++)
		gath[i] = p->h.e[i].cnt;
	return gath_ok(p->h.n, p->n);
}

/* Adds b's statistics to a's, and with files b's records too. */
static void
pstat_merge(struct pstat *a, struct pstat *b, int files)
{
	size_t i;

	a->n += b->n;
	a->s += b->s;
	a->ss += b->ss;
	for (i = 0; i < b->h.n; i++)
		gadd(&a->h, b->h.e[i].code, 0, 0, b->h.e[i].cnt);
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
				oacct.bread += got;
				oacct.bwritten += got;
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
route(const uint32_t *r)
{
	size_t t = 0, k;

	while (!gw.t[t].leaf) {
		const struct tnode *tn = &gw.t[t];
		const struct dim *dm = &dims[tn->dim];
		uint32_t v = r[tn->dim], leafid, c;

		if (tn->rel) {
			struct tnode *w = &gw.t[t];

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
merge_down(size_t t, struct pstat *ps, struct pstat *p)
{
	size_t k;

	if (gw.t[t].leaf) {
		struct pstat tmp = ps[t];

		/* Only the records: p has the statistics already, or gets
		 * them from the kids' sums below. */
		memset(&tmp.h, 0, sizeof(tmp.h));
		tmp.n = 0;
		tmp.s = tmp.ss = 0;
		pstat_merge(p, &tmp, 1);
		ps[t].path = NULL;
		return;
	}
	for (k = 0; k < gw.t[t].nkid; k++)
		merge_down(gw.t[t].kid0 + k, ps, p);
}

/* The number of nodes under t (t excluded). */
static uint64_t
subtree_size(size_t t)
{
	uint64_t n = 0;
	size_t k;

	if (gw.t[t].leaf)
		return 0;
	for (k = 0; k < gw.t[t].nkid; k++)
		n += 1 + subtree_size(gw.t[t].kid0 + k);
	return n;
}

/* The cuts left in the subtree of t. */
static uint64_t
count_cuts(size_t t)
{
	uint64_t n = 0;
	size_t k;

	if (gw.t[t].leaf)
		return 0;
	for (k = 0; k < gw.t[t].nkid; k++)
		n += count_cuts(gw.t[t].kid0 + k);
	return n + 1;
}

/* Collects the final leaves under t, in order, into st (pushed in
 * reverse later). */
static void
collect(size_t t, struct pstat *ps, struct onode *out, size_t *nout)
{
	size_t k;

	if (gw.t[t].leaf) {
		if (ps[t].n == 0) {
			if (ps[t].path != NULL)
				kn_rmtemp(ps[t].path);
			ps[t].path = NULL;
			return;
		}
		out[*nout].path = ps[t].path;
		out[*nout].n = ps[t].n;
		out[*nout].raw = 0;
		out[*nout].big = gw.t[t].big;
		ps[t].path = NULL;
		(*nout)++;
		return;
	}
	for (k = 0; k < gw.t[t].nkid; k++)
		collect(gw.t[t].kid0 + k, ps, out, nout);
}

/* Writes the records of a node to one file per leaf of the tree gw
 * (ps[t].path), counting the leaves' rows in ps[t].n, or with stats all
 * of their population statistics. */
static void
route_rows(const struct onode *on, struct pstat *ps, int stats)
{
	struct oread rd;
	uint32_t *r;
	size_t t;

	for (t = 0; t < gw.n; t++) {
		int fd;

		gw.t[t].left = gw.t[t].eqleft;
		if (!gw.t[t].leaf)
			continue;
		fd = kn_mktemp(tmpdir, &ps[t].path);
		if ((ps[t].f = fdopen(fd, "wb")) == NULL)
			kn_die_sys("%s", ps[t].path);
	}
	oread_open(&rd, on);
	while ((r = oread_next(&rd)) != NULL) {
		struct pstat *p = &ps[route(r)];

		if (stats)
			pstat_add(p, r);
		else
			p->n++;
		if (fwrite(r, W * sizeof(uint32_t), 1, p->f) != 1)
			kn_die_sys("%s: write error", p->path);
	}
	oread_close(&rd);
	for (t = 0; t < gw.n; t++) {
		if (ps[t].f == NULL)
			continue;
		if (fflush(ps[t].f) != 0 || ferror(ps[t].f))
			kn_die_sys("%s: write error", ps[t].path);
		fclose(ps[t].f);
		ps[t].f = NULL;
		oacct.bwritten += ps[t].n * W * sizeof(uint32_t);
	}
	oacct.repart++;
}

/* One step of Rothko-S on a node too large for memory: grow a tree on
 * a sample with the tests of 004 §3.1, repartition the node across its
 * leaves counting their population statistics, merge back every
 * subtree with a part that fails a requirement, and hand the leaves
 * back (into kids, in order).  Returns the number of kids; 0 when the
 * sample made no progress. */
static size_t
rothko_s_step(const struct onode *on, struct onode **kids,
    const char *checkname)
{
	uint64_t ns = avail / (8 * W + 40), kk, lo, hi;
	struct pstat *ps;
	size_t t, nk = 0;

	if (sample_max != 0 && ns > sample_max)
		ns = sample_max;
	if (fitrows != 0 && ns > fitrows)
		ns = fitrows;
	if (ns > on->n)
		ns = on->n;
	if (ns < 2)
		kn_die("-S %zu: too small for a sample", budget);
	gbytes = 0;
	if (checkname != NULL) {
		/* The whole table must meet the requirements. */
		struct pstat all;

		memset(&all, 0, sizeof(all));
		sample_node(on, ns, &all);
		if (!pstat_ok(&all)) {
			fprintf(stderr, "%s: %s: no partitioning: the whole "
			    "table (%llu rows) does not meet the "
			    "requirements\n", kn_prog, checkname,
			    (unsigned long long)on->n);
			kn_exit(1);
		}
		free(all.h.e);
		free(all.h.slot);
	} else
		sample_node(on, ns, NULL);
	/* Growth. */
	N = ns;
	smp.on = 1;
	smp.n = ns;
	smp.N = on->n;
	smp.k = o.k;
	smp.alpha = salpha;
	smp.m = 2;
	/* The least sample count that passes the k test of a binary cut
	 * stands for k in the sample. */
	for (lo = 1, hi = ns + 1; lo < hi;) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (smp.naive ? (long double)mid * on->n >=
		    (long double)o.k * ns : hypo_k(mid, ns, on->n, o.k,
		    salpha, 2))
			hi = mid;
		else
			lo = mid + 1;
	}
	kk = o.k;
	o.k = lo;
	gw.on = 1;
	gw.n = 0;
	gw.maxdepth = 8;
	gw.maxleaves = 256;
	scratch(1);
	partition();
	scratch(0);
	o.k = kk;
	smp.on = 0;
	gw.on = 0;
	if (gw.t[0].leaf) {
		free(gw.t);
		memset(&gw, 0, sizeof(gw));
		return 0;
	}
	/* Repartitioning, with the population statistics of the leaves. */
	ps = kn_zalloc(gw.n * sizeof(struct pstat));
	gbytes = 0;
	route_rows(on, ps, 1);
	/* Pruning, bottom up: kids come after their parents. */
	for (t = gw.n; t-- > 0;) {
		struct tnode *tn = &gw.t[t];
		size_t k;
		int bad = 0;

		if (tn->leaf)
			continue;
		for (k = 0; k < tn->nkid; k++) {
			struct pstat *kp = &ps[tn->kid0 + k];

			bad |= kp->n > 0 && !pstat_ok(kp);
		}
		/* Rows of a child the sample did not have, or outside the
		 * sample's node: the parts would not be disjoint regions of
		 * the hierarchy, so the cut is undone too. */
		if (tn->hier && ps[tn->kid0 + tn->nkid - 1].n > 0)
			bad = 1;
		for (k = 0; k < tn->nkid; k++)
			pstat_merge(&ps[t], &ps[tn->kid0 + k], 0);
		if (bad) {
			/* Merge the subtree back into t. */
			pruned += subtree_size(t);
			for (k = 0; k < tn->nkid; k++)
				merge_down(tn->kid0 + k, ps, &ps[t]);
			tn->leaf = 1;
		}
	}
	if (gw.t[0].leaf) {
		/* Everything merged back: no progress. */
		if (ps[0].path != NULL)
			kn_rmtemp(ps[0].path);
		ps[0].path = NULL;
		nk = 0;
	} else {
		*kids = kn_alloc(gw.n * sizeof(struct onode));
		collect(0, ps, *kids, &nk);
		ncuts += count_cuts(0);
	}
	for (t = 0; t < gw.n; t++) {
		free(ps[t].h.e);
		free(ps[t].h.slot);
		if (ps[t].path != NULL)
			kn_rmtemp(ps[t].path);
		free(gw.t[t].cid);
	}
	free(ps);
	free(gw.t);
	memset(&gw, 0, sizeof(gw));
	return nk;
}

static uint64_t fcache = 8;	/* --fcache */

/* Repartitions a node across the leaves of the tree gw; fills kids
 * with the nonempty leaves in order.  Returns their number. */
static size_t
repartition_tree(const struct onode *on, struct onode **kids)
{
	struct pstat *ps = kn_zalloc(gw.n * sizeof(struct pstat));
	size_t nk = 0;

	route_rows(on, ps, 0);
	*kids = kn_alloc((gw.n + 1) * sizeof(struct onode));
	collect(0, ps, *kids, &nk);
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
rothko_t_step(const struct onode *on, struct onode **kids,
    const char *checkname)
{
	struct gtab *G, *gsave = gt;
	size_t *front, nf = 0, fb = 0, nb, b, t, j;
	long *slot;
	struct oread rd;
	uint32_t *r;
	size_t nk;

	gw.n = 0;
	gw.cap = 0;
	gw.t = NULL;
	t = tnew(0);
	gw.t[t].n = on->n;
	front = kn_alloc(1024 * sizeof(size_t));
	front[nf++] = t;
	G = kn_zalloc(fcache * d * sizeof(struct gtab));
	/* Level by level while a level's nodes fit in one batch, as the
	 * report's FCACHE: past that the rows are repartitioned. */
	while (fb < nf && nf - fb <= fcache && gw.n + 2 < 512) {
		nb = nf - fb;
again:
		slot = kn_alloc(gw.n * sizeof(long));
		for (t = 0; t < gw.n; t++) {
			slot[t] = -1;
			gw.t[t].left = gw.t[t].eqleft;
		}
		gbytes = 0;
		for (b = 0; b < fcache; b++) {
			if (b < nb)
				slot[front[fb + b]] = (long)b;
			for (j = 0; j < d; j++)
				gclear(&G[b * d + j], b < nb);
		}
		/* One scan counts the groups of the whole batch; if they
		 * outgrow the budget, half the batch is tried. */
		gsoft = nb > 1;
		gover = 0;
		oread_open(&rd, on);
		while ((r = oread_next(&rd)) != NULL && !gover) {
			long sl = slot[route(r)];

			if (sl < 0)
				continue;
			for (j = 0; j < d; j++)
				gcount(&G[sl * d + j], j, r);
		}
		oread_close(&rd);
		free(slot);
		gsoft = 0;
		if (gover) {
			nb /= 2;
			goto again;
		}
		for (b = 0; b < nb; b++) {
			size_t tn = front[fb + b], m = 2, k, i;
			struct cut best;
			uint64_t *kc;

			gt = &G[b * d];
			groups_finish(gw.t[tn].n);
			if (tn == 0 && checkname != NULL &&
			    !side_ok(&nd.tot, hs_side, 1)) {
				fprintf(stderr, "%s: %s: no partitioning: the "
				    "whole table (%llu rows) does not meet the "
				    "requirements\n", kn_prog, checkname,
				    (unsigned long long)on->n);
				kn_exit(1);
			}
			decide(&best);
			/* A node found final is one class; past 512 tree
			 * nodes (files to write at once) the rest wait for
			 * the next step. */
			if (!best.found || (tn != 0 &&
			    gw.n + gt[best.dim].n + 2 > 512)) {
				gw.t[tn].big = !best.found;
				untotals();
				continue;
			}
			ncuts++;
			kc = kn_zalloc((gt[best.dim].n + 3) *
			    sizeof(uint64_t));
			if (!best.fast) {
				/* A hierarchy: the children present, in order,
				 * and an "other" kid that stays empty. */
				const struct gtab *gg = &gt[best.dim];
				uint32_t *cid = kn_alloc((gg->n + 1) *
				    sizeof(uint32_t));

				m = 0;
				for (i = 0; i < gg->n; i++) {
					uint32_t c = child_of(best.dim,
					    gg->e[i].code - nd.mn[best.dim]);

					if (m == 0 || cid[m - 1] != c)
						cid[m++] = c;
					kc[m - 1] += gg->e[i].cnt;
				}
				gw.t[tn].hier = 1;
				gw.t[tn].lv = nd.lv[best.dim];
				gw.t[tn].x = nd.node[best.dim];
				gw.t[tn].cid = cid;
				m++;
			} else {
				kc[0] = best.L;
				kc[1] = gw.t[tn].n - best.L;
				if (o.relaxed) {
					gw.t[tn].rel = 1;
					gw.t[tn].med = best.med;
					gw.t[tn].eqleft = best.eqleft;
				} else
					gw.t[tn].thr = best.med;
			}
			gw.t[tn].dim = best.dim;
			gw.t[tn].nkid = m;
			gw.t[tn].kid0 = gw.n;
			gw.t[tn].leaf = 0;
			for (k = 0; k < m; k++) {
				size_t kt = tnew(gw.t[tn].depth + 1);

				gw.t[kt].n = kc[k];
				if (kc[k] > 0 && !fits(kc[k])) {
					if (nf % 1024 == 0)
						front = kn_realloc(front, (nf +
						    1024) * sizeof(size_t));
					front[nf++] = kt;
				}
			}
			free(kc);
			untotals();
		}
		fb += nb;
	}
	gt = gsave;
	for (b = 0; b < fcache * d; b++) {
		free(G[b].e);
		free(G[b].slot);
		free(G[b].arr);
	}
	free(G);
	free(front);
	if (gw.t[0].leaf) {
		nk = 0;
		*kids = NULL;
		if (gw.t[0].big == 0)
			gw.t[0].big = 1;
	} else
		nk = repartition_tree(on, kids);
	for (t = 0; t < gw.n; t++)
		free(gw.t[t].cid);
	free(gw.t);
	memset(&gw, 0, sizeof(gw));
	return nk;
}

/* Rothko-T: nodes too large for memory are cut from their frequency
 * groups and repartitioned to disk, depth first; a node that fits is
 * partitioned in memory.  The classes are those of the in-memory
 * algorithm, numbered alike. */
static void
rothko_t(struct onode *root, const char *name)
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

		if (fits(on.n)) {
			solve_in_memory(&on, isroot ? name : NULL);
			kn_rmtemp(on.path);
			isroot = 0;
			continue;
		}
		if (on.big) {
			/* Known to have no allowable cut: one class. */
			groups(&on);
			big_leaf(&on);
			untotals();
			kn_rmtemp(on.path);
			continue;
		}
		if (algo_s) {
			struct onode *sk = NULL;
			size_t nk = rothko_s_step(&on, &sk, isroot ? name :
			    NULL);
			int tries;

			/* A sample whose splits were all undone: try two
			 * more before giving up on sampling this node. */
			for (tries = 1; nk == 0 && tries < 3; tries++) {
				free(sk);
				sk = NULL;
				nk = rothko_s_step(&on, &sk, NULL);
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
			size_t nk = rothko_t_step(&on, &tk, isroot ? name :
			    NULL);

			isroot = 0;
			if (nk == 0) {
				/* No allowable cut: one class. */
				free(tk);
				groups(&on);
				big_leaf(&on);
				untotals();
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
class_of(uint64_t row)
{
	static uint64_t lo, hi;
	static uint32_t *bucket;
	uint64_t B;
	uint32_t pr[2 * 4096];
	size_t got, i;
	FILE *f;

	if (!ooc)
		return cls[row];
	if (row >= lo && row < hi)
		return bucket[row - lo];
	B = avail / sizeof(uint32_t);
	if (B < 4096)
		B = 4096;
	if (bucket == NULL)
		bucket = kn_alloc((N < B ? N : B) * sizeof(uint32_t) + 4);
	lo = row;
	hi = row + B < N ? row + B : N;
	if ((f = fopen(pairspath, "rb")) == NULL)
		kn_die_sys("%s", pairspath);
	oacct.scans++;
	while ((got = fread(pr, 2 * sizeof(uint32_t), 4096, f)) > 0) {
		oacct.bread += got * 2 * sizeof(uint32_t);
		for (i = 0; i < got; i++)
			if (pr[2 * i] >= lo && pr[2 * i] < hi)
				bucket[pr[2 * i] - lo] = pr[2 * i + 1];
	}
	if (ferror(f))
		kn_die_sys("%s: read error", pairspath);
	fclose(f);
	return bucket[row - lo];
}

/* A cluster's cuts job checks the sums of its exact counts itself. */
static int exact_sums;

/* Once the rows are read: codes for the values, exact scales for the
 * sums, and the scratch of the nodes. */
static void
prepare(const char *scol, const char *tcol)
{
	size_t i, j;

	for (j = 0; j < d; j++) {
		struct dim *dm = &dims[j];

		if (dm->h != NULL) {
			if (dm->dfsrank == NULL)
				prepare_hier(dm);
			for (i = 0; i < N && !ooc; i++)
				rec[i * W + j] = dm->dfsrank[rec[i * W + j]];
		} else if (ooc)
			rank_ids(dm);
		else
			rank_numeric(dm, j);
	}
	if (o.hasv) {
		kn_i128 s = 0, ss = 0;

		for (i = 0; i < sdict.n; i++)
			if (__builtin_mul_overflow(sval[i],
			    kn_pow10(sF - sscale[i]), &sval[i]))
				kn_die("-s %s: too many digits for exact "
				    "variances", scol);
		if (ooc && !exact_sums) {
			/* The rows are on disk: bound the sums by the largest
			 * value. */
			kn_i128 mx = 0, b;

			for (i = 0; i < sdict.n; i++)
				if ((sval[i] < 0 ? -sval[i] : sval[i]) > mx)
					mx = sval[i] < 0 ? -sval[i] : sval[i];
			if (__builtin_mul_overflow(mx, mx, &b) ||
			    __builtin_mul_overflow(b, (kn_i128)N + 1, &b))
				kn_die("-s %s: values too large for exact "
				    "variances", scol);
		}
		for (i = 0; i < N && !ooc; i++) {
			kn_i128 v = sval[rec[i * W + wsens]], a = v < 0 ? -v : v;

			if (__builtin_add_overflow(s, a, &s) ||
			    __builtin_mul_overflow(v, v, &v) ||
			    __builtin_add_overflow(ss, v, &ss))
				kn_die("-s %s: values too large for exact "
				    "variances", scol);
		}
	}

	if (o.split == SPLIT_INFOGAIN) {
		/* Labels numbered in byte order, so that scores are summed
		 * in an order that does not depend on the rows'. */
		uint32_t *rk = kn_dict_ranks(&tdict);

		for (i = 0; i < N && !ooc; i++)
			rec[i * W + wtarg] = rk[rec[i * W + wtarg]];
		if (ooc)
			lmap = rk;
		else
			free(rk);
		nxlx = N + 1 < ((size_t)1 << 20) ? N + 1 : (size_t)1 << 20;
		xlxtab = kn_alloc(nxlx * sizeof(kn_i128));
		for (i = 0; i < nxlx; i++)
			xlxtab[i] = i < 2 ? 0 : (kn_i128)llroundl(
			    (long double)i * logl((long double)i) *
			    4294967296.0L);
	}
	if (o.split == SPLIT_REGRESSION) {
		kn_i128 s = 0;

		for (i = 0; i < tdict.n; i++)
			if (__builtin_mul_overflow(tval[i],
			    kn_pow10(tF - tscale[i]), &tval[i]))
				kn_die("-t %s: too many digits for exact sums",
				    tcol);
		if (ooc && !exact_sums) {
			kn_i128 mx = 0, b;

			for (i = 0; i < tdict.n; i++)
				if ((tval[i] < 0 ? -tval[i] : tval[i]) > mx)
					mx = tval[i] < 0 ? -tval[i] : tval[i];
			if (__builtin_mul_overflow(mx, (kn_i128)N + 1, &b))
				kn_die("-t %s: values too large for exact "
				    "sums", tcol);
		}
		for (i = 0; i < N && !ooc; i++) {
			kn_i128 v = tval[rec[i * W + wtarg]];

			if (__builtin_add_overflow(s, v < 0 ? -v : v, &s))
				kn_die("-t %s: values too large for exact "
				    "sums", tcol);
		}
	}

	/* Scratch for the nodes. */
	if (!ooc) {
		scratch(1);
		cls = kn_alloc((N + 1) * sizeof(uint32_t));
	} else
		gt = kn_zalloc((d + 1) * sizeof(struct gtab));
	hs_tot = kn_zalloc((sdict.n + 1) * sizeof(uint64_t));
	hs_side = kn_zalloc((sdict.n + 1) * sizeof(uint64_t));
	hs_side2 = kn_zalloc((sdict.n + 1) * sizeof(uint64_t));
	gath = kn_zalloc((sdict.n + 1) * sizeof(uint64_t));
	stouch = kn_alloc((sdict.n + 1) * sizeof(uint32_t));
	hl_tot = kn_zalloc((tdict.n + 1) * sizeof(uint64_t));
	hl_side = kn_zalloc((tdict.n + 1) * sizeof(uint64_t));
	ltouch = kn_alloc((tdict.n + 1) * sizeof(uint32_t));
	nd.mn = kn_alloc((d + 1) * sizeof(uint32_t));
	nd.mx = kn_alloc((d + 1) * sizeof(uint32_t));
	nd.lv = kn_alloc((d + 1) * sizeof(int));
	nd.node = kn_alloc((d + 1) * sizeof(uint32_t));
	nd.width = kn_alloc((d + 1) * sizeof(long double));
	nd.can = kn_alloc((d + 1) * sizeof(int));
	sums = kn_alloc((d + 1) * sizeof(kn_i128));
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

enum { JOB_NONE, JOB_GROUPS, JOB_CUTS, JOB_ROWS, JOB_SOLVE, JOB_CLASSES,
    JOB_REGIONS, JOB_OPEN };
static const char *const jobnames[] = { "", "groups", "cuts", "rows",
    "solve", "classes", "regions", "open", NULL };

enum { CN_OPEN, CN_CUT, CN_HCUT, CN_CLASS };

struct cnode {
	int kind;
	int hasn;
	uint64_t n;		/* rows, from a size or region line */
	size_t dim;
	int64_t tm;		/* cut: the threshold tm / 10^tsc */
	int tsc;
	int lv;			/* hcut: the level of the node cut */
	uint32_t *clab;		/* hcut: the children, ids at level lv-1 */
	size_t nk;		/* kids */
	uint32_t *kid;		/* their node ids; UINT32_MAX: none yet */
	char *region;		/* class: its region after the id */
	uint32_t cls;		/* class: its number */
};

static struct {
	kn_dict ids;		/* node id -> index in v */
	struct cnode *v;
	size_t cap;
	const char *path;
	char *sig;		/* these options, columns, hierarchies */
	const char *columns;	/* --columns, for the workers' tables */
	size_t scol, tcol;	/* columns of -s and -t */
	const char *sname, *tname;
	uint32_t nclass;
	int regions;		/* keep the regions' text (regions job) */
} ct;

/* Whether a node of n rows is partitioned in memory by a solve job. */
static int
fits_cluster(uint64_t n)
{
	return n <= (fitrows ? fitrows : 1000000);
}

/* The node with id s (n bytes), added if new. */
static uint32_t
cnode_id(const char *s, size_t n)
{
	uint32_t id = kn_dict_intern(&ct.ids, s, n);

	if (id >= ct.cap) {
		size_t nc = ct.cap ? 2 * ct.cap : 64;

		ct.v = kn_realloc(ct.v, nc * sizeof(struct cnode));
		memset(ct.v + ct.cap, 0, (nc - ct.cap) * sizeof(struct cnode));
		ct.cap = nc;
	}
	return id;
}

/* Whether node c waits for a level job (one that fits waits for the
 * solve job). */
static int
cnode_open(const struct cnode *c)
{
	return c->kind == CN_OPEN && !(c->hasn && fits_cluster(c->n));
}

/* The QI named s, or die naming the tree line. */
static size_t
tree_dim(const kn_str *f, const kn_reader *r)
{
	size_t j;

	for (j = 0; j < d; j++)
		if (strlen(dims[j].name) == f->n &&
		    memcmp(dims[j].name, f->p, f->n) == 0)
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
tree_define(const kn_str *f, const kn_reader *r, int kind)
{
	uint32_t id = cnode_id(f->p, f->n);
	struct cnode *c = &ct.v[id];

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
tree_load(const char *path)
{
	kn_reader r;
	kn_str *f = NULL;
	size_t cap = 0, nf, i, k;
	uint32_t id, n;

	kn_dict_init(&ct.ids);
	ct.path = path;
	cnode_id("r", 1);
	kn_reader_open(&r, path);
	while (kn_getline(&r)) {
		struct cnode *c = NULL;
		const char *ty, *tab;
		char *rest = NULL;

		if (ct.regions && r.len > 7 &&
		    memcmp(r.line, "region\t", 7) == 0 &&
		    (tab = memchr(r.line + 7, '\t', r.len - 7)) != NULL)
			rest = kn_strdup(tab + 1);
		nf = split_line(r.line, r.len, &f, &cap);
		ty = f[0].p;
		if (nf == 2 && strcmp(ty, "sig") == 0) {
			if (strcmp(f[1].p, ct.sig) != 0)
				kn_die("%s:%llu: the tree was grown with other "
				    "options (%s) than these (%s)", r.name,
				    (unsigned long long)r.lineno, f[1].p,
				    ct.sig);
		} else if (nf == 5 && strcmp(ty, "domain") == 0) {
			struct dim *dm = &dims[tree_dim(&f[1], &r)];
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
				sF = (int)F;
			else
				tF = (int)F;
		} else if (nf == 3 && strcmp(ty, "size") == 0) {
			id = cnode_id(f[1].p, f[1].n);
			c = &ct.v[id];
			c->n = tree_u64(&f[2], &r, "a row count");
			c->hasn = 1;
		} else if (nf == 4 && strcmp(ty, "cut") == 0) {
			size_t j = tree_dim(&f[2], &r);
			int64_t m;
			int sc;

			if (dims[j].h != NULL || !parse_num(f[3].p, f[3].n, &m,
			    &sc))
				kn_die("%s:%llu: a bad cut", r.name,
				    (unsigned long long)r.lineno);
			c = tree_define(&f[1], &r, CN_CUT);
			c->dim = j;
			c->tm = m;
			c->tsc = sc;
			c->nk = 2;
		} else if (nf >= 6 && strcmp(ty, "hcut") == 0) {
			size_t j = tree_dim(&f[2], &r);
			kn_hier *h = dims[j].h;
			uint64_t lv = tree_u64(&f[3], &r, "a level");

			if (h == NULL || lv < 1 || lv > (uint64_t)h->nlevels)
				kn_die("%s:%llu: a bad hierarchy cut", r.name,
				    (unsigned long long)r.lineno);
			c = tree_define(&f[1], &r, CN_HCUT);
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
					    dims[j].name);
				c->clab[k] = (uint32_t)x;
			}
		} else if (nf >= 3 && strcmp(ty, "region") == 0) {
			c = tree_define(&f[1], &r, CN_CLASS);
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
	n = (uint32_t)ct.ids.n;
	for (id = 1; id < n; id++) {
		kn_str s = kn_dict_get(&ct.ids, id);
		const char *dot = NULL;
		int64_t p = -1;
		uint64_t x = 0;

		for (i = s.n; i-- > 0;)
			if (s.p[i] == '.') {
				dot = s.p + i;
				break;
			}
		if (dot != NULL)
			p = kn_dict_find(&ct.ids, s.p, (size_t)(dot - s.p));
		for (i = dot != NULL ? (size_t)(dot - s.p) + 1 : s.n; i < s.n;
		    i++)
			x = s.p[i] >= '0' && s.p[i] <= '9' && x < 1u << 30 ?
			    x * 10 + (uint64_t)(s.p[i] - '0') : UINT64_MAX;
		/* Kid numbers are written without leading zeros. */
		if (p < 0 || dot + 1 == s.p + s.n || x >= ct.v[p].nk ||
		    (dot[1] == '0' && dot + 2 != s.p + s.n) ||
		    ct.v[p].kid[x] != UINT32_MAX)
			kn_die("%s: node %.*s lies under no cut of the tree",
			    path, (int)s.n, s.p);
		ct.v[p].kid[x] = id;
	}
}

/* A row's values, parsed once for routing. */
static struct rowval {
	int64_t m;
	int sc;
	uint32_t leaf;
} *rv;

/* Parses the QIs of the current row of t into rv. */
static void
parse_row(kn_table *t)
{
	const char *err;
	size_t j;

	for (j = 0; j < d; j++) {
		struct dim *dm = &dims[j];
		kn_str v = t->f[dm->col];

		if (dm->h != NULL) {
			int64_t id = kn_hier_leaf(dm->h, v.p, v.n, &err);

			if (id < 0)
				kn_table_fail(t, dm->col, "'%.*s': %s",
				    (int)v.n, v.p, err);
			rv[j].leaf = (uint32_t)id;
		} else if (!parse_num(v.p, v.n, &rv[j].m, &rv[j].sc))
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

/* The tree for routing rows, compact: the kids of a node are a run of
 * entries, laid out depth-first, so that a row's path stays near. */
struct rnode {
	int64_t tm;		/* cut: the threshold tm / 10^tsc */
	uint32_t kid0;		/* cut: the first kid's entry */
	uint32_t id;		/* the node's id in ct */
	uint16_t dim;
	uint8_t kind;		/* CN_*; a missing kid: CN_CUT + 8 */
	int8_t tsc;
	uint32_t nk;
	const uint32_t *clab;	/* hcut: the children */
};
static struct rnode *rt;

/* Lays the tree out for route_tree(). */
static void
route_build(void)
{
	uint32_t *st, n = 1, i;
	size_t ns = 0, k, ne = 1;

	/* An entry per node and per missing kid. */
	for (i = 0; i < ct.ids.n; i++)
		ne += ct.v[i].nk;
	rt = kn_zalloc((ne + 1) * sizeof(struct rnode));
	st = kn_alloc((ne + 1) * sizeof(uint32_t));
	rt[0].id = 0;
	st[ns++] = 0;
	while (ns > 0) {
		uint32_t e = st[--ns];
		const struct cnode *c = &ct.v[rt[e].id];

		rt[e].kind = (uint8_t)c->kind;
		if (c->kind != CN_CUT && c->kind != CN_HCUT)
			continue;
		rt[e].dim = (uint16_t)c->dim;
		rt[e].tm = c->tm;
		rt[e].tsc = (int8_t)c->tsc;
		rt[e].nk = (uint32_t)c->nk;
		rt[e].clab = c->clab;
		rt[e].kid0 = n;
		for (k = 0; k < c->nk; k++) {
			if (c->kid[k] == UINT32_MAX) {
				/* Reached only by a row of a level cut short. */
				rt[n].kind = CN_CUT + 8;
				rt[n].id = rt[e].id;
				rt[n].nk = (uint32_t)k;
			} else
				rt[n].id = c->kid[k];
			n++;
		}
		for (k = c->nk; k-- > 0;)
			if (c->kid[k] != UINT32_MAX)
				st[ns++] = rt[e].kid0 + (uint32_t)k;
	}
	free(st);
}

/* The node of the tree the row parsed into rv lies in. */
static uint32_t
route_tree(kn_table *t)
{
	const struct rnode *r = rt;
	size_t k;
	kn_str s;

	for (;;) {
		const struct rowval *v = &rv[r->dim];

		if (r->kind == CN_CUT)
			k = (v->sc == r->tsc ? (v->m <= r->tm ? -1 : 1) :
			    cmp_dec(v->m, v->sc, r->tm, r->tsc)) <= 0 ? 0 : 1;
		else if (r->kind == CN_HCUT) {
			uint32_t a = kn_hier_lift(dims[r->dim].h, v->leaf, 0,
			    ct.v[r->id].lv - 1);

			for (k = 0; k < r->nk && r->clab[k] != a; k++)
				;
			if (k == r->nk) {
				size_t col = dims[r->dim].col;

				s = kn_dict_get(&ct.ids, r->id);
				kn_table_fail(t, col, "'%.*s' lies under no "
				    "child of the cut of node %.*s in %s (was "
				    "the tree grown from this table?)",
				    (int)t->f[col].n, t->f[col].p, (int)s.n,
				    s.p, ct.path);
			}
		} else if (r->kind == CN_CUT + 8) {
			s = kn_dict_get(&ct.ids, r->id);
			kn_die("%s: node %.*s.%u is missing (a level cut "
			    "short?)", ct.path, (int)s.n, s.p, r->nk);
		} else
			return r->id;
		r = rt + r->kid0 + k;
	}
}

/* Numbers the classes depth-first, as partition() does in memory; dies
 * if a node is still to be partitioned. */
static void
tree_number(void)
{
	uint32_t *st = kn_alloc((ct.ids.n + 1) * sizeof(uint32_t));
	size_t ns = 0, k;

	st[ns++] = 0;
	ct.nclass = 0;
	while (ns > 0) {
		struct cnode *c = &ct.v[st[--ns]];

		if (c->kind == CN_CLASS) {
			c->cls = ++ct.nclass;
			continue;
		}
		if (c->kind == CN_OPEN) {
			kn_str s = kn_dict_get(&ct.ids, st[ns]);

			if (c->hasn && c->n == 0)
				continue;	/* an empty table */
			kn_die("%s: node %.*s is not partitioned yet (%s)",
			    ct.path, (int)s.n, s.p, cnode_open(c) ?
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
job_groups(kn_table *t, FILE *fp)
{
	kn_dict g;
	uint64_t *gc = NULL;
	size_t gcap = 0, len, cap = 256, j, i;
	char *key = kn_alloc(cap), num[64];
	size_t lim = budget ? budget : (size_t)64 << 20;

	kn_dict_init(&g);
	if (cnode_open(&ct.v[0]) && !ct.v[0].hasn) {
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
		parse_row(t);
		{
			uint32_t id = route_tree(t);
			kn_str ns = kn_dict_get(&ct.ids, id);
			kn_str sv = { "", 0 }, yv = { "", 0 };

			if (!cnode_open(&ct.v[id]))
				continue;
			if (hass)
				sv = t->f[ct.scol];
			if (hast && o.split != SPLIT_MEDIAN)
				yv = t->f[ct.tcol];
			for (j = 0; j <= d; j++) {
				kn_str v;
				uint32_t k;

				if (j == d) {
					/* The node's row count. */
					v.p = "";
					v.n = 0;
				} else if (dims[j].h != NULL)
					v = kn_dict_get(&dims[j].h->lab[0],
					    rv[j].leaf);
				else {
					v.n = kn_dec_format((kn_i128)rv[j].m,
					    rv[j].sc, num);
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
				if (j == d)
					key[len++] = 'n';
				else
					len += kn_fmt_u64(key + len, j);
				key[len++] = '\t';
				memcpy(key + len, v.p, v.n);
				len += v.n;
				key[len++] = '\t';
				if (j < d) {
					memcpy(key + len, sv.p, sv.n);
					len += sv.n;
				}
				key[len++] = '\t';
				if (j < d) {
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
open_node(const char *id, int fit)
{
	int64_t x = kn_dict_find(&ct.ids, id, strlen(id));
	struct cnode *c = x < 0 ? NULL : &ct.v[x];

	if (c == NULL || (fit ? c->kind != CN_OPEN || !c->hasn ||
	    !fits_cluster(c->n) : !cnode_open(c)))
		kn_die("node %s is not %s in %s (a job run twice, or on "
		    "another tree?)", id, c == NULL ? "a node" : fit ?
		    "to be solved" : "open", ct.path);
	return c;
}

/* The reducers: the input's lines begin with a node id, and each node's
 * lines are together (the engine sorts them).  Each node goes to a
 * worker, a child process with the rest of its lines as standard
 * input, so that nothing of one node's partitioning is left for the
 * next. */
static struct {
	pid_t pid;
	FILE *to;
	const char *id;
	uint64_t line0;		/* the node's first line in the input */
} wk;

/* Waits for the worker; exits as it did if it failed. */
static void
worker_end(void)
{
	int st;

	if (wk.to == NULL)
		return;
	fclose(wk.to);		/* a worker that died early: EPIPE */
	wk.to = NULL;
	while (waitpid(wk.pid, &st, 0) < 0)
		if (errno != EINTR)
			kn_die_sys("waitpid");
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return;
	if (WIFSIGNALED(st))
		fprintf(stderr, "%s: node %s: the worker died of signal %d\n",
		    kn_prog, wk.id, WTERMSIG(st));
	kn_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 2);
}

static void
per_node(void (*worker)(const char *id), FILE *fp)
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

			worker_end();
			kn_dict_intern(&seen, r.line, idn);
			if (seen.n == n0)
				kn_die("%s:%llu: the lines of node %.*s are not "
				    "together (the input must be sorted)",
				    r.name, (unsigned long long)r.lineno,
				    (int)idn, r.line);
			free(cur);
			cur = kn_strndup(r.line, idn);
			curlen = idn;
			wk.id = cur;
			wk.line0 = r.lineno;
			if (fflush(fp) != 0 || pipe(fd) != 0)
				kn_die_sys("pipe");
			if ((wk.pid = fork()) < 0)
				kn_die_sys("fork");
			if (wk.pid == 0) {
				close(fd[1]);
				if (dup2(fd[0], 0) < 0)
					kn_die_sys("dup2");
				close(fd[0]);
				signal(SIGPIPE, SIG_DFL);
				worker(cur);
				kn_exit(0);
			}
			close(fd[0]);
			if ((wk.to = fdopen(fd[1], "w")) == NULL)
				kn_die_sys("fdopen");
		}
		fwrite(tab + 1, 1, r.len - idn - 1, wk.to);
		putc('\n', wk.to);
		if (ferror(wk.to))
			worker_end();	/* it failed: exit as it did */
	}
	worker_end();
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
worker_cuts(const char *id)
{
	struct gl {
		uint32_t j, v, s, y;
		uint64_t cnt;
	} *gl = NULL;
	size_t n = 0, cap = 0, nf, fcap = 0, i, j;
	kn_str *f = NULL;
	kn_reader r;
	uint64_t tot = 0, *dt = kn_zalloc((d + 1) * sizeof(uint64_t));
	int root = strcmp(id, "r") == 0;
	const char *err;
	struct cut best;
	struct cnode *c = open_node(id, 0);
	uint64_t qn;

	inname = "the groups";
	kn_reader_open(&r, "-");
	/* Lines numbered as in the reducer's input. */
	r.name = "stdin";
	r.lineno = wk.line0 - 1;
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
		if (qn >= d)
			kn_die("%s:%llu: node %s: no QI %llu", r.name,
			    (unsigned long long)r.lineno, id,
			    (unsigned long long)qn);
		e.j = (uint32_t)qn;
		if (dims[e.j].h != NULL) {
			int64_t x = kn_hier_leaf(dims[e.j].h, f[1].p, f[1].n,
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
			e.v = numdict_id(&dims[e.j].vd, m, sc);
		}
		e.s = e.y = 0;
		if (hass && !sens_id(f[2], &e.s))
			kn_die("%s:%llu: node %s: '%s' is not a number "
			    "(--variance)", r.name,
			    (unsigned long long)r.lineno, id,
			    f[2].p);
		if (hast && o.split != SPLIT_MEDIAN && !targ_id(f[3], &e.y))
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
	for (j = 0; j < d; j++)
		if (dt[j] != tot)
			kn_die("node %s: %llu rows, but the groups of %s count "
			    "%llu (a job's output lost or doubled, or the "
			    "reducer's input not sorted?)", id,
			    (unsigned long long)tot, dims[j].name,
			    (unsigned long long)dt[j]);
	if (c != NULL && c->hasn && c->n != tot)
		kn_die("node %s: %llu rows, but %s says %llu (the table "
		    "changed since, or a job's output was lost or doubled)",
		    id, (unsigned long long)tot, ct.path,
		    (unsigned long long)c->n);
	if (tot == 0) {
		/* An empty table: no row, no class. */
		printf("sig\t%s\nsize\tr\t0\n", ct.sig);
		return;
	}
	/* Codes as out of core: ranks of the values, depth-first leaves. */
	ooc = 1;
	gdense = 0;
	avail = SIZE_MAX;	/* a node's groups are held, as in Rothko-T */
	N = tot;
	exact_sums = 1;
	prepare(ct.sname, ct.tname);
	/* The sums as in memory: exact over the node's rows. */
	for (j = 0; j < 2; j++) {
		kn_i128 a = 0, b = 0, v, w;

		if (j == 0 ? !o.hasv : o.split != SPLIT_REGRESSION)
			continue;
		for (i = 0; i < n; i++) {
			if (gl[i].j != 0)
				continue;
			v = j == 0 ? sval[gl[i].s] : tval[gl[i].y];
			v = v < 0 ? -v : v;
			if (__builtin_mul_overflow(v, (kn_i128)gl[i].cnt, &w) ||
			    __builtin_add_overflow(a, w, &a) ||
			    (j == 0 && (__builtin_mul_overflow(w, v, &w) ||
			    __builtin_add_overflow(b, w, &b))))
				kn_die(j == 0 ? "-s %s: values too large for "
				    "exact variances" : "-t %s: values too "
				    "large for exact sums", j == 0 ? ct.sname :
				    ct.tname);
		}
	}
	for (i = 0; i < n; i++) {
		struct gl *e = &gl[i];
		struct dim *dm = &dims[e->j];
		uint32_t code = dm->h != NULL ? dm->dfsrank[e->v] :
		    dm->rankof[e->v];

		if (e->cnt > 0)
			gadd(&gt[e->j], code, e->s, o.split == SPLIT_INFOGAIN ?
			    lmap[e->y] : e->y, e->cnt);
	}
	free(gl);
	groups_finish(tot);
	if (root) {
		if (tot > 0 && !side_ok(&nd.tot, hs_side, 1)) {
			fprintf(stderr, "%s: no partitioning: the whole table "
			    "(%llu rows) does not meet the requirements\n",
			    kn_prog, (unsigned long long)tot);
			kn_exit(1);
		}
		printf("sig\t%s\n", ct.sig);
		for (j = 0; j < d; j++) {
			struct dim *dm = &dims[j];

			if (dm->h != NULL)
				continue;
			printf("domain\t%s", dm->name);
			put_val(stdout, dm->vals[0], dm->S);
			put_val(stdout, dm->vals[dm->nrank - 1], dm->S);
			printf("\t%d\n", dm->S);
		}
		if (o.hasv)
			printf("scale\ts\t%d\n", sF);
		if (o.split == SPLIT_REGRESSION)
			printf("scale\tt\t%d\n", tF);
		if (fits_cluster(tot)) {
			printf("size\tr\t%llu\n", (unsigned long long)tot);
			return;
		}
	}
	decide(&best);
	if (!best.found) {
		/* A class: its region from the groups. */
		for (j = 0; j < d; j++) {
			sums[j] = 0;
			if (dims[j].h == NULL)
				for (i = 0; i < gt[j].n; i++)
					sums[j] += (kn_i128)gt[j].e[i].cnt *
					    dims[j].vals[gt[j].e[i].code];
		}
		rtag = id;
		rfp = stdout;
		rname = "standard output";
		region(0, tot, sums);
		return;
	}
	j = best.dim;
	if (!is_hier(j)) {
		printf("cut\t%s\t%s", id, dims[j].name);
		put_val(stdout, dims[j].vals[best.med], dims[j].S);
		printf("\nsize\t%s.0\t%llu\nsize\t%s.1\t%llu\n", id,
		    (unsigned long long)best.L, id,
		    (unsigned long long)(tot - best.L));
	} else {
		/* The children present, in depth-first order, with their
		 * rows. */
		const struct gtab *g = &gt[j];
		kn_hier *h = dims[j].h;
		int lv = nd.lv[j];
		uint32_t *cid = kn_alloc((g->n + 1) * sizeof(uint32_t));
		uint64_t *cc = kn_zalloc((g->n + 1) * sizeof(uint64_t));
		size_t m = 0;

		for (i = 0; i < g->n; i++) {
			uint32_t c = child_of(j, g->e[i].code - nd.mn[j]);

			if (m == 0 || cid[m - 1] != c)
				cid[m++] = c;
			cc[m - 1] += g->e[i].cnt;
		}
		printf("hcut\t%s\t%s\t%d", id, dims[j].name, lv);
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
worker_solve(const char *id)
{
	kn_table t;
	char *rbuf = NULL, **line;
	size_t rsz = 0, i, ns = 0, nl = 0;
	struct frame {
		size_t tn;
		char *path;
	} *st;

	struct cnode *c = open_node(id, 1);

	kn_table_open(&t, NULL, 0, ct.columns);
	t.r.name = "stdin";
	t.r.lineno = wk.line0 - 1;
	inname = "the rows";
	ooc = 0;
	N = 0;
	load(&t, ct.scol, ct.tcol);
	if (N != c->n)
		kn_die("node %s: %llu rows, but %s says %llu (the table "
		    "changed since, or a job's output was lost or doubled)",
		    id, (unsigned long long)N, ct.path,
		    (unsigned long long)c->n);
	prepare(ct.sname, ct.tname);
	if (strcmp(id, "r") == 0)
		root_check("the table");
	if ((rfp = open_memstream(&rbuf, &rsz)) == NULL)
		kn_die_sys("open_memstream");
	gw.on = 1;
	gw.full = 1;
	gw.maxdepth = gw.maxleaves = UINT64_MAX;
	partition();
	if (fflush(rfp) != 0)
		kn_die_sys("open_memstream");
	/* The regions, one line per class in class order. */
	line = kn_alloc((ncls + 1) * sizeof(char *));
	for (i = 0; i < rsz && nl < ncls; i++) {
		line[nl++] = rbuf + i;
		while (i < rsz && rbuf[i] != '\n')
			i++;
		rbuf[i] = '\0';
	}
	if (N == 0)
		return;
	st = kn_alloc((gw.n + 1) * sizeof(struct frame));
	st[ns].tn = 0;
	st[ns++].path = kn_strdup(id);
	while (ns > 0) {
		struct frame fr = st[--ns];
		const struct tnode *tn = &gw.t[fr.tn];
		size_t k, nk;

		if (tn->leaf) {
			if (gw.tcls[fr.tn] != 0) {
				const char *l = line[gw.tcls[fr.tn] - 1];

				/* Less the class number of this run. */
				printf("region\t%s\t%s\n", fr.path,
				    strchr(l, '\t') + 1);
			}
			free(fr.path);
			continue;
		}
		if (tn->hier) {
			kn_hier *h = dims[tn->dim].h;

			printf("hcut\t%s\t%s\t%d", fr.path,
			    dims[tn->dim].name, tn->lv);
			/* The last kid is the empty "other". */
			nk = tn->nkid - 1;
			for (k = 0; k < nk; k++) {
				kn_str s = kn_dict_get(&h->lab[tn->lv - 1],
				    tn->cid[k]);

				printf("\t%.*s", (int)s.n, s.p);
			}
			putchar('\n');
		} else {
			printf("cut\t%s\t%s", fr.path, dims[tn->dim].name);
			put_val(stdout, dims[tn->dim].vals[tn->thr],
			    dims[tn->dim].S);
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
job_rows(kn_table *t, FILE *fp)
{
	while (kn_table_next(t)) {
		uint32_t id;
		kn_str s;

		parse_row(t);
		id = route_tree(t);
		s = kn_dict_get(&ct.ids, id);
		if (ct.v[id].kind == CN_CLASS)
			continue;
		if (cnode_open(&ct.v[id]))
			kn_die("%s: node %.*s is still open: run the groups and "
			    "cuts jobs until 'partition --job open' lists no "
			    "node", ct.path, (int)s.n, s.p);
		fwrite(s.p, 1, s.n, fp);
		putc('\t', fp);
		fwrite(t->r.line, 1, t->r.len, fp);
		putc('\n', fp);
	}
}

/* Classes job (map): each row with its class. */
static void
job_classes(kn_table *t, FILE *fp, const char *classcol)
{
	size_t c;

	tree_number();
	if (!t->headerless) {
		for (c = 0; c < t->ncols; c++)
			fprintf(fp, "%s\t", t->names[c]);
		fprintf(fp, "%s\n", classcol);
	}
	while (kn_table_next(t)) {
		parse_row(t);
		fwrite(t->r.line, 1, t->r.len, fp);
		fprintf(fp, "\t%u\n", ct.v[route_tree(t)].cls);
	}
}

/* Regions job: the regions file, as partition -r writes it. */
static void
job_regions(FILE *fp)
{
	uint32_t i, *at = kn_zalloc((ct.ids.n + 1) * sizeof(uint32_t));

	tree_number();
	regions_header(fp);
	for (i = 0; i < ct.ids.n; i++)
		if (ct.v[i].kind == CN_CLASS)
			at[ct.v[i].cls - 1] = i;
	for (i = 0; i < ct.nclass; i++)
		fprintf(fp, "%u\t%s\n", i + 1, ct.v[at[i]].region);
	free(at);
}

/* Open job: the nodes a level job is still to cut, one a line. */
static void
job_open(FILE *fp)
{
	uint32_t i;

	for (i = 0; i < ct.ids.n; i++)
		if (cnode_open(&ct.v[i])) {
			kn_str s = kn_dict_get(&ct.ids, i);

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
cluster(int job, kn_table *t, const char *outpath, const char *classcol)
{
	FILE *fp = NULL;
	size_t j;

	for (j = 0; j < d; j++)
		if (dims[j].h != NULL) {
			if (dims[j].h->kind != KN_HFILE)
				kn_die("--job: %s: a generated hierarchy numbers "
				    "its nodes in the order of the rows; give a "
				    "hierarchy file", dims[j].name);
			prepare_hier(&dims[j]);
		}
	/* The tree holds for these columns and hierarchies only. */
	{
		size_t n = strlen(ct.sig) + strlen(ct.columns) + 32 + 40 * d;
		char *sg = kn_alloc(n);
		int len = snprintf(sg, n, "%s cols=%s", ct.sig, ct.columns);

		for (j = 0; j < d; j++)
			if (dims[j].h != NULL)
				len += snprintf(sg + len, n - (size_t)len,
				    " h%zu=%016llx", j, (unsigned long long)
				    hier_digest(dims[j].h));
		free(ct.sig);
		ct.sig = sg;
	}
	rv = kn_alloc((d + 1) * sizeof(struct rowval));
	ct.regions = job == JOB_REGIONS;
	tree_load(ct.path);
	route_build();
	fp = kn_open_out(outpath);
	switch (job) {
	case JOB_GROUPS:
		job_groups(t, fp);
		break;
	case JOB_CUTS:
		per_node(worker_cuts, fp);
		break;
	case JOB_ROWS:
		job_rows(t, fp);
		break;
	case JOB_SOLVE:
		per_node(worker_solve, fp);
		break;
	case JOB_CLASSES:
		job_classes(t, fp, classcol);
		break;
	case JOB_REGIONS:
		job_regions(fp);
		break;
	default:
		job_open(fp);
		break;
	}
	kn_close_out(fp);
	kn_exit(0);
}

/* Writes the table with its classes: the second pass over the input. */
static void
write_table(kn_input *in, const char *columns, const char *classcol,
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

		if (t.rows > N)
			break;
		nn = kn_fmt_u64(num, class_of(t.rows - 1));
		num[nn++] = '\n';
		if (fwrite(t.r.line, 1, t.r.len, fp) != t.r.len ||
		    putc('\t', fp) == EOF || fwrite(num, 1, nn, fp) != nn)
			kn_die_sys("%s: write error", outname);
	}
	if (t.rows != N)
		kn_die("%s: the input changed between the two passes",
		    in->name);
	kn_table_free(&t);
}

/* The options that shape the tree, as one string. */
static char *
make_sig(const char *q, const char *s, const char *t, const char *num)
{
	char c[64] = "-", v[64] = "-", *b;
	size_t n;

	if (o.ld.hasc)
		c[kn_dec_format(o.ld.cm, o.ld.cs, c)] = '\0';
	if (o.hasv)
		v[kn_dec_format(o.vm, o.vs, v)] = '\0';
	n = strlen(q) + (s ? strlen(s) : 1) + (t ? strlen(t) : 1) +
	    (num ? strlen(num) : 1) + (o.ld.lstr ? strlen(o.ld.lstr) : 1) +
	    256;
	b = kn_alloc(n);
	snprintf(b, n, "q=%s k=%llu s=%s l=%s div=%d c=%s var=%s t=%s "
	    "split=%d num=%s", q, (unsigned long long)o.k, s ? s : "-",
	    o.ld.on ? o.ld.lstr : "-", o.ld.kind, c, v, t ? t : "-", o.split,
	    num ? num : "-");
	return b;
}

int
main(int argc, char *argv[])
{
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
	kn_ldiv_init(&o.ld);
	o.k = 1;
	while ((ch = getopt_long(argc, argv, "H:S:T:a:c:hk:l:o:q:r:s:t:v",
	    longopts, NULL)) != -1) {
		switch (ch) {
		case 'H':
			kn_hopts_add(&hopts, optarg);
			break;
		case 'S':
			budget = kn_parse_size(optarg, "-S");
			break;
		case 'T':
			tmpdir = optarg;
			break;
		case 'a':
			algo = optarg;
			break;
		case 'c':
			kn_ldiv_opt(&o.ld, 'c', optarg);
			break;
		case 'h':
			usage(0);
		case 'k':
			o.k = (uint64_t)kn_parse_int(optarg, 1, INT64_MAX,
			    "-k");
			break;
		case 'l':
			kn_ldiv_opt(&o.ld, 'l', optarg);
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
			kn_ldiv_opt(&o.ld, 'd', optarg);
			break;
		case OPT_ALPHA:
			alphaset = 1;
			salpha = kn_parse_double(optarg, 1e-12, 0.5,
			    "--alpha");
			break;
		case OPT_SAMPLE:
			sample_max = (uint64_t)kn_parse_int(optarg, 2,
			    INT64_MAX, "--sample");
			break;
		case OPT_SEED:
			seedset = 1;
			seed = (uint64_t)kn_parse_int(optarg, 0, INT64_MAX,
			    "--seed");
			break;
		case OPT_FCACHE:
			fcache = (uint64_t)kn_parse_int(optarg, 1, 1024,
			    "--fcache");
			break;
		case OPT_NAIVE:
			smp.naive = 1;
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
			ct.path = optarg;
			break;
		case OPT_FITROWS:
			fitrows = (uint64_t)kn_parse_int(optarg, 1, INT64_MAX,
			    "--fit-rows");
			break;
		case OPT_NUMERIC:
			numlist = optarg;
			break;
		case OPT_PROGRESS:
			progress = 1;
			break;
		case OPT_RELAXED:
			o.relaxed = 1;
			break;
		case OPT_SPLIT:
			if (strcmp(optarg, "median") == 0)
				o.split = SPLIT_MEDIAN;
			else if (strcmp(optarg, "infogain") == 0)
				o.split = SPLIT_INFOGAIN;
			else if (strcmp(optarg, "regression") == 0)
				o.split = SPLIT_REGRESSION;
			else
				kn_die("--split: '%s' is not median, infogain "
				    "or regression", optarg);
			break;
		case OPT_VAR:
			if (!kn_dec_parse(optarg, strlen(optarg), &o.vm,
			    &o.vs) || o.vm < 0)
				kn_die("--variance: '%s' is not a number >= 0",
				    optarg);
			o.hasv = 1;
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
	kn_ldiv_check(&o.ld, scol != NULL);
	if (o.hasv && scol == NULL)
		kn_die("--variance needs the sensitive column (-s)");
	if (o.split != SPLIT_MEDIAN && tcol == NULL)
		kn_die("--split %s needs the target column (-t)",
		    o.split == SPLIT_INFOGAIN ? "infogain" : "regression");
	if (o.split == SPLIT_MEDIAN && tcol != NULL)
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
	hass = scol != NULL && (o.ld.on || o.hasv);
	if (scol != NULL && !hass)
		kn_die("-s needs a requirement on it (-l or --variance)");
	hast = tcol != NULL;
	needstats = hass || hast;
	gdense = !hass && o.split == SPLIT_MEDIAN;
	/* In memory unless told otherwise: -S bounds the memory, and the
	 * rows go to disk (Rothko-T) when they do not fit. */
	if (algo != NULL && strcmp(algo, "memory") != 0 &&
	    strcmp(algo, "rothko-t") != 0 && strcmp(algo, "rothko-s") != 0)
		kn_die("-a: '%s' is not memory, rothko-t or rothko-s", algo);
	algo_s = algo != NULL && strcmp(algo, "rothko-s") == 0;
	ooc = algo != NULL ? strcmp(algo, "memory") != 0 : budget != 0;
	if (ooc && budget == 0)
		budget = kn_default_budget();
	if (algo_s && o.relaxed)
		kn_die("--relaxed runs in memory or with -a rothko-t only");
	if (!algo_s && (sample_max != 0 || smp.naive || seedset || alphaset))
		kn_die("--sample, --seed, --alpha and --naive are for -a "
		    "rothko-s");
	if (ooc && o.relaxed && needstats)
		kn_die("--relaxed with -s or a split other than median runs "
		    "in memory only");
	if (job != JOB_NONE) {
		if (ct.path == NULL)
			kn_die("--job %s needs the tree file (--tree)",
			    jobnames[job]);
		if (algo != NULL || o.relaxed || rpath != NULL)
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
		ooc = 0;
		ct.columns = columns;
		ct.sname = scol;
		ct.tname = tcol;
		ct.sig = make_sig(qlist, scol, tcol, numlist);
	} else if (ct.path != NULL)
		kn_die("--tree goes with --job");
	kn_progress_init(progress);
	tmpdir = kn_tmpdir(tmpdir);

	/* The outputs first: a bad path fails before any work. */
	if (job == JOB_NONE)
		fp = kn_open_out(outpath);
	if (rpath != NULL) {
		rfp = kn_open_out(rpath);
		rname = rpath;
	}
	if (job == JOB_NONE || job == JOB_GROUPS || job == JOB_ROWS ||
	    job == JOB_CLASSES)
		kn_input_init(&in, argc > 0 ? argv[0] : NULL,
		    job == JOB_NONE, columns, tmpdir);
	else
		kn_input_init(&in, "/dev/null", 0, columns, tmpdir);
	inname = in.name;
	kn_input_open(&in, &t, columns);
	d = kn_table_cols(&t, qlist, &qi);
	kn_hopts_check(&hopts, t.names, t.ncols);
	if (numlist != NULL)
		nnum = kn_table_cols(&t, numlist, &numc);
	for (i = 0; i < t.ncols; i++)
		if (strcmp(t.names[i], classcol) == 0)
			kn_die("%s: the table has a column '%s' already%s",
			    t.r.name, classcol, hasclasscol ? "" :
			    " (name the class column with --class-col)");
	dims = kn_zalloc(d * sizeof(struct dim));
	for (j = 0; j < d; j++) {
		struct dim *dm = &dims[j];
		int numeric = 0;

		dm->col = qi[j];
		dm->name = kn_strdup(t.names[qi[j]]);
		for (i = 0; i < nnum; i++)
			numeric |= numc[i] == qi[j];
		if (!numeric)
			dm->h = kn_hopts_get(&hopts, dm->name);
	}
	for (i = 0; i < nnum; i++) {
		for (j = 0; j < d && qi[j] != numc[i]; j++)
			;
		if (j == d)
			kn_die("--numeric: '%s' is not a quasi-identifier",
			    t.names[numc[i]]);
	}
	if (hass) {
		sidx = kn_table_col(&t, scol);
		for (j = 0; j < d; j++)
			if (qi[j] == sidx)
				kn_die("-s %s is also a quasi-identifier", scol);
	}
	if (hast) {
		tidx = kn_table_col(&t, tcol);
		for (j = 0; j < d; j++)
			if (qi[j] == tidx)
				kn_die("-t %s is also a quasi-identifier", tcol);
	}
	kn_dict_init(&sdict);
	kn_dict_init(&tdict);
	wrow = d;
	W = d + 1;
	if (hass)
		wsens = W++;
	if (hast)
		wtarg = W++;
	if (job != JOB_NONE) {
		ct.scol = sidx;
		ct.tcol = tidx;
		cluster(job, &t, outpath, classcol);
	}

	/* Pass 1: read the rows (out of core: to the spool). */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ooc) {
		int fd = kn_mktemp(tmpdir, &spoolpath);

		if ((spool = fdopen(fd, "wb")) == NULL)
			kn_die_sys("%s", spoolpath);
	}
	load(&t, sidx, tidx);
	kn_table_free(&t);
	if (ooc) {
		if (fflush(spool) != 0 || ferror(spool))
			kn_die_sys("%s: write error", spoolpath);
		fclose(spool);
		free(rec);
		rec = NULL;
		for (j = 0; j < d; j++) {
			free(dims[j].raw);
			free(dims[j].rsc);
		}
	}
	prepare(scol, tcol);
	ntot = N;

	/* The whole table must meet the requirements, or nothing can. */
	if (N > 0 && !ooc) {
		totals(0, N, NULL);
		if (!side_ok(&nd.tot, hs_side, 1)) {
			fprintf(stderr, "%s: %s: no partitioning: the whole "
			    "table (%llu rows) does not meet the "
			    "requirements\n", kn_prog, in.name,
			    (unsigned long long)N);
			kn_exit(1);
		}
		untotals();
	}

	if (rfp != NULL) {
		regions_header(rfp);
	}
	if (ooc) {
		struct onode root;
		size_t used = dicts_bytes() + (size_t)CHUNK * W *
		    sizeof(uint32_t);
		int fd;

		/* What is left of the budget for the nodes, the groups and
		 * the buckets of the output pass. */
		if (used + 4096 >= budget)
			kn_die("-S %zu: too small: the dictionaries and a "
			    "read buffer alone take %zu bytes", budget, used);
		avail = budget - used;
		fd = kn_mktemp(tmpdir, &pairspath);
		if ((pairs = fdopen(fd, "wb")) == NULL)
			kn_die_sys("%s", pairspath);
		root.path = spoolpath;
		root.n = N;
		root.raw = 1;
		root.big = 0;
		rothko_t(&root, in.name);
		N = ntot;
		if (fflush(pairs) != 0 || ferror(pairs))
			kn_die_sys("%s: write error", pairspath);
		fclose(pairs);
	} else
		partition();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* The regions are in place before the table's first byte. */
	if (rfp != NULL)
		kn_close_out(rfp);

	/* Pass 2: the rows with their classes. */
	write_table(&in, columns, classcol, fp,
	    outpath != NULL ? outpath : "standard output");
	kn_close_out(fp);
	kn_input_done(&in);
	if (ooc)
		kn_rmtemp(pairspath);
	if (verbose && ooc)
		fprintf(stderr, "%s: %s: -S %zu, %zu for nodes; %llu "
		    "scans of node files, %llu bytes written and %llu read "
		    "in temp files, %llu repartitions, %llu nodes in memory, "
		    "%llu classes too large for memory, %llu nodes "
		    "pruned\n", kn_prog, algo_s ? "Rothko-S" : "Rothko-T",
		    budget, avail, (unsigned long long)oacct.scans,
		    (unsigned long long)oacct.bwritten,
		    (unsigned long long)oacct.bread,
		    (unsigned long long)oacct.repart,
		    (unsigned long long)oacct.inmem,
		    (unsigned long long)oacct.bigleaf,
		    (unsigned long long)pruned);
	if (verbose)
		fprintf(stderr, "%s: %llu rows, %u classes, %llu cuts, "
		    "largest class %llu, partitioning %.3f s\n", kn_prog,
		    (unsigned long long)N, ncls, (unsigned long long)ncuts,
		    (unsigned long long)maxcls,
		    (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	kn_exit(0);
}
