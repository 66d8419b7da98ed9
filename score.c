/*
 * score: metrics and privacy checks of a released table, as
 * name<TAB>value lines.  Works on any table (or a frequency set of one):
 * the equivalence classes are the distinct tuples of the quasi-identifier
 * columns, whatever tool generalized them.
 *
 * Metrics: C_DM, the discernibility metric (Bayardo and Agrawal; paper
 * 003 §1.2), with suppressed rows charged |T| each; C_AVG (paper 003
 * §1.2); NCP and precision (utility.c); prosecutor re-identification
 * risk.  Checks: k-anonymity (003 §1.1), distinct, entropy and
 * recursive (c,l)-diversity and variance diversity (paper 004 §1.1).
 *
 * Utility: with -t, the conditional entropy of a class label given the
 * classes and the error of a numeric target estimated by its class mean
 * (paper 004 §5.5; target.c); with --original and a workload, the error of
 * COUNT(*) queries answered from the release by assuming the values
 * uniform within each class (paper 003 §5, §6.3 and Figure 17).
 * --plot draws the classes of two numeric columns as SVG (paper 003
 * §6.3, Figures 15 and 16).  --risk adds the risk models of risk.c;
 * --report and --json write every figure, and what the release is,
 * as a page or an object (report.c).
 */
#include <sys/stat.h>

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kanon.h"
#include "value.h"
#include "risk.h"
#include "target.h"
#include "tcdisk.h"
#include "utility.h"

static const char synopsis[] =
    "usage: score [--check] [-k k] [-s columns [-l l [--diversity "
    "distinct|entropy|\n"
    "             recursive] [-c c]] [--variance v] [--closeness t "
    "[--distance d]]]\n"
    "             [-t column] [-o file] [-q columns] [--threshold n] "
    "[--freqset]\n"
    "             [--suppressed mark] [--risk [--population file]\n"
    "             [--sampling-fraction f]] [--report file] [--json] "
    "[--command text]\n"
    "             [--original file (--workload file | "
    "--workload-auto column)\n"
    "             [-H attr=spec|dir]] [--columns list | "
    "--columns-file file]\n"
    "             [--skip-header] [-j n] [-S size] [-T dir] [--progress] "
    "[file]\n"
    "       score --plot x,y [--class-col name] [-q columns] "
    "[-o file]\n"
    "             [--columns list | --columns-file file] "
    "[--skip-header] [file]\n";

static const char help[] =
    "The metrics (C_DM, C_AVG, NCP, precision, risk) and checks of a release.\n"
    "\n"
    "  -q COLUMNS           the quasi-identifiers, by name or number\n"
    "  --check              exit 1 when a check (-k, -l, --variance) "
    "fails\n"
    "  -t COLUMN            a target column: label entropy or squared "
    "error\n"
    "  --threshold N        count the rows in classes below N (default: "
    "k, or 2)\n"
    "  --suppressed MARK    the mark of suppressed values (default *)\n"
    "  --freqset            the input is a frequency set, with a count "
    "column\n"
    "  --original FILE      the table before release: workload, NCP, "
    "report\n"
    "  --workload FILE      the errors of the release's answers to "
    "COUNT queries\n"
    "  --workload-auto COL  one count query for each value of COL\n"
    "  --plot X,Y           draw the classes on columns X and Y, as SVG\n"
    "  --risk               add the sample uniques (re-identification risk)\n"
    "  --population FILE    its frequency set: journalist and marketer risk\n"
    "  --sampling-fraction F  the table's share of the population: population\n"
    "                       uniques estimated (Zayatz, Pitman)\n"
    "  --report FILE        write a release report (XHTML) to FILE\n"
    "  --json               the figures and the report as JSON, not lines\n"
    "  --command TEXT       a command line that made the release, for them\n"
    "  --class-col NAME     with --plot: the column of the classes\n"
    "  -S SIZE              memory budget (64M, 1G...); beyond it, runs on "
    "disk\n";

/* The short options, for getopt_long and kn_opt_error. */
#define OPTSTRING "H:S:T:c:hj:k:l:o:q:s:t:"

static void __attribute__((noreturn))
usage(int status)
{
	if (status == 0)
		kn_help(synopsis, help, KN_HELP_HIER | KN_HELP_REQ |
		    KN_HELP_VARIANCE | KN_HELP_TABLE | KN_HELP_MISSING |
		    KN_HELP_DATE | KN_HELP_TMP | KN_HELP_JOBS |
		    KN_HELP_PROGRESS);
	fputs(synopsis, stderr);
	exit(status);
}

enum { OPT_CHECK = 256, OPT_THRESH, OPT_SUPP,
    OPT_FREQSET, OPT_CLASSCOL, OPT_ORIG, OPT_PLOT, OPT_WORKLOAD, OPT_WAUTO };

static const struct option longopts[] = {
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "class-col", required_argument, NULL, OPT_CLASSCOL },
	KN_TABLE_OPTIONS,
	KN_OPT_MISSING_ENTRY,
	KN_OPT_DATE_ENTRY,
	KN_OPT_CLOSENESS_ENTRIES,
	KN_OPT_DIVERSITY_ENTRY,
	{ "freqset", no_argument, NULL, OPT_FREQSET },
	{ "help", no_argument, NULL, 'h' },
	{ "original", required_argument, NULL, OPT_ORIG },
	{ "plot", required_argument, NULL, OPT_PLOT },
	KN_OPT_PROGRESS_ENTRY,
	REPORT_OPTIONS,
	{ "suppressed", required_argument, NULL, OPT_SUPP },
	{ "threshold", required_argument, NULL, OPT_THRESH },
	KN_OPT_VARIANCE_ENTRY,
	KN_OPT_VERSION_ENTRY,
	{ "workload", required_argument, NULL, OPT_WORKLOAD },
	{ "workload-auto", required_argument, NULL, OPT_WAUTO },
	{ NULL, 0, NULL, 0 }
};

/* The options that decide the checks. */
static struct {
	kn_req req;
	long long thresh;
	int hasl, skey, tkey;
	size_t ns;		/* sensitive columns (-s a,b,...) */
	const char *mark;
	size_t nq;
	const char *sfile;		/* --freqset: the file */
	const char *sumsq[KN_MAXSENS];	/* and the S_sumsq columns */
	size_t *dcol, ndate;	/* --date: the date columns */
	char *numq;		/* which QIs hold numbers only, so far */
	int strict;		/* --plot into the report: valid UTF-8 */
} o;

/* The figures written so far, and what --report and --json say of the
 * release (report.c); the class sizes and the risk models (risk.c). */
static report rep;
static risk_ctx rk;
/* NCP and precision (utility.c). */
static util ut;

/* The running totals, and the class being read: the frequency set
 * arrives in order of (QI labels..., S label, T label), so a class is a
 * run of rows with the same QI labels, and within it the rows of one
 * sensitive value are a run too. */
static struct {
	uint64_t rows, supp, kept, nclass, minsz, maxsz, below, ldmin;
	unsigned __int128 cdm;
	long double lemin, varmin, tmax;
	int kfail, lfail, vfail, tfail, first;
	/* classes measured for t-closeness, and which one (from 1) is the
	 * class of '*' rows, or 0 */
	uint64_t nmeas, suppat;
	/* the current class */
	int have;
	char *key;		/* its QI labels, tab-joined */
	size_t keylen, keycap;
	int supp_cls;
	uint64_t n;
	uint64_t *vals;		/* its sensitive counts */
	size_t valcap;
} a = { .first = 1 };

/* Each sensitive column: its classes' values (kn_sclass), brought into
 * order through cv when sorted (not the first column, whose values of a
 * class the groups bring together), measured for t-closeness through
 * tc, and the current class's sums s/10^sc, ss/10^ssc. */
static struct sens {
	kn_sclass v;
	int sorted;
	cvals_ctx cv;
	tcd_ctx tc;
	kn_i128 s, ss;
	int sc, ssc;
} sens[KN_MAXSENS];

/* The target column -t: its figures (target.c). */
static targ_ctx tg;

/* A number or a date of the release (value.h). */
typedef val_num num;

/* A predicate of a workload query on one column: equality with a
 * constant (a number: lo = hi = the constant), or an inclusive range
 * lo..hi of numbers with either end open. */
typedef struct {
	size_t w;		/* the column, in W.col */
	int range;
	int haslo, hashi;
	num lo, hi;
	int eqnum;		/* the constant is a number */
	char *ceq;		/* the constant in canonical form */
	size_t ceqn;
	int64_t cid;		/* its id among the original's values; -1 */
	int64_t lid;		/* its id among the leaves; -1 */
	uint64_t ndom;		/* values of the domain that satisfy it */
	uint32_t **hcnt;	/* a range on a hierarchy: per level and node,
				 * the leaves under the node that satisfy it */
} pred;

/* A COUNT(*) query: a conjunction of predicates. */
typedef struct {
	pred *p;
	size_t np;
	uint64_t line;		/* in the workload file */
	uint64_t truth;		/* the answer on the original */
	long double est;	/* the estimate on the release */
} query;

/* A quasi-identifier the workload names, with what the estimates need
 * of the original's values: their range (a numeric column), the leaves
 * of its hierarchy, or its distinct values (a categorical column). */
typedef struct {
	size_t qpos;		/* position among the QIs */
	const char *name;
	size_t ocol;		/* column of the original */
	kn_hier *h;
	int numeric;		/* no hierarchy, and every value a number */
	int date;		/* --date: the values are dates */
	int dform;		/* their form, from the original */
	int allnum;
	uint64_t nnum;		/* the original's numeric values */
	num min, max;
	kn_dict vals;		/* the original's values */
	uint32_t *vcanon;	/* value id -> canonical id */
	size_t vcap;
	kn_dict canon;		/* the values in canonical form */
	num *cnum;		/* canonical id -> the value, if a number */
	char *cisnum;
	uint64_t *ccount;	/* canonical id -> rows of the original */
	size_t ccap;
	/* with a hierarchy */
	size_t nleaves;
	kn_dict lcanon;		/* the leaves in canonical form */
	int64_t *lfirst;	/* canonical id -> a leaf with that form */
	int64_t *lnext;		/* leaf -> the next with its form; -1 */
	num *lnum;
	char *lisnum;
	uint32_t **leafcnt;	/* [level][node]: the leaves under it */
	/* the queries that are one equality on this column, found fast */
	size_t *eq, neq;	/* all of them */
	size_t *eqnum, neqnum;	/* those with a number, by the number */
	kn_dict eqdict;		/* canonical constant -> eqfirst */
	int64_t *eqfirst;	/* -> a query, then eqnext[query] */
	size_t eqcap;
	uint64_t **nodecnt;	/* [level][node]: rows of classes there */
	uint64_t allcnt;	/* rows of classes suppressed here */
} wcol;

/* The region of one column of a release class: a numeric range, a node
 * of a hierarchy, the whole domain (suppressed), or a plain value. */
enum { RG_NUM, RG_NODE, RG_ALL, RG_CAT };

typedef struct {
	int kind;
	num a, b;		/* RG_NUM: [a, b] */
	int lvl;		/* RG_NODE: level and id */
	uint32_t id;
	const char *s;		/* RG_CAT: canonical form */
	size_t n;
	char buf[48];
} region;

/* The workload (paper 003 §5): columns, queries, and the regions of a
 * class. */
static struct {
	int on;
	wcol *col;
	size_t ncol;
	query *q;
	size_t nq, qcap;
	size_t *gen, ngen;	/* the queries that are not one equality */
	int64_t *eqnext;	/* see wcol.eqfirst */
	kn_str *lab;		/* the QI labels of a class */
	const char *wpath;	/* for messages */
	const char *relname;
	uint64_t orows;		/* rows of the original */
	region *reg;
	const size_t *qcol;	/* the QIs' columns of the release */
} W;

static FILE *out;

static void
put(const char *name, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
put(const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_vput(&rep, name, fmt, ap);
	va_end(ap);
}

/* Makes room for need elements of size sz in p, of *cap so far, and
 * returns it; new elements are zeroed. */
static void *
grow(void *p, size_t *cap, size_t need, size_t sz)
{
	size_t n = *cap;

	if (need <= n)
		return p;
	n = n ? n : 16;
	while (n < need)
		n *= 2;
	p = kn_realloc(p, n * sz);
	memset((char *)p + *cap * sz, 0, (n - *cap) * sz);
	*cap = n;
	return p;
}

/* ---- numbers (value.c) ------------------------------------------ */

/* Whether column c of the table is a date column (--date). */
static int
is_date(size_t c)
{
	size_t i;

	for (i = 0; i < o.ndate && o.dcol[i] != c; i++)
		;
	return i < o.ndate;
}

/* ---- the workload (paper 003 §5, §6.3) ---------------------------- */

/* The fraction of the numeric region [x, y] that satisfies p, the
 * values uniform in it: counted on the integers when every bound is an
 * integer, else measured on the line. */
static long double
num_frac(const num *x, const num *y, const pred *p)
{
	const num *lo = p->haslo ? &p->lo : NULL;
	const num *hi = p->hashi ? &p->hi : NULL;
	const num *l, *h;

	if (!p->range && !p->eqnum)
		return 0;
	if (x->sc == 0 && y->sc == 0 && (lo == NULL || lo->sc == 0) &&
	    (hi == NULL || hi->sc == 0)) {
		kn_i128 il = x->m, ih = y->m;

		if (lo != NULL && lo->m > il)
			il = lo->m;
		if (hi != NULL && hi->m < ih)
			ih = hi->m;
		if (ih < il)
			return 0;
		return (long double)(ih - il + 1) /
		    (long double)(y->m - x->m + 1);
	}
	l = lo != NULL && val_cmp(lo, x) > 0 ? lo : x;
	h = hi != NULL && val_cmp(hi, y) < 0 ? hi : y;
	if (val_cmp(x, y) == 0)
		return val_cmp(l, h) <= 0;
	if (val_cmp(l, h) >= 0)
		return 0;
	return (h->v - l->v) / (y->v - x->v);
}

/* Whether a value (in canonical form s, n; a number x if isnum)
 * satisfies p. */
static int
pred_sat(const pred *p, const char *s, size_t n, const num *x, int isnum)
{
	if (!p->range)
		return n == p->ceqn && memcmp(s, p->ceq, n) == 0;
	return isnum && (!p->haslo || val_cmp(&p->lo, x) <= 0) &&
	    (!p->hashi || val_cmp(x, &p->hi) <= 0);
}

/* The fraction of region g of column w that satisfies p. */
static long double
wl_frac(const wcol *w, const pred *p, const region *g)
{
	uint64_t sat = 0;
	int64_t i;

	switch (g->kind) {
	case RG_NUM:
		return num_frac(&g->a, &g->b, p);
	case RG_ALL:
		if (w->h != NULL)
			return w->nleaves ?
			    (long double)p->ndom / w->nleaves : 0.0L;
		return w->canon.n ? (long double)p->ndom / w->canon.n : 0.0L;
	case RG_NODE:
		if (p->range)
			sat = p->hcnt[g->lvl][g->id];
		else
			for (i = p->lid >= 0 ? w->lfirst[p->lid] : -1; i >= 0;
			    i = w->lnext[i])
				sat += kn_hier_lift(w->h, (uint32_t)i, 0,
				    g->lvl) == g->id;
		return (long double)sat / w->leafcnt[g->lvl][g->id];
	default:
		return g->n == p->ceqn && memcmp(g->s, p->ceq, g->n) == 0;
	}
}

/* The region of the released value v of column w. */
static void
wl_region(const wcol *w, kn_str v, region *g)
{
	num x;
	int l, isnum;
	int64_t id;

	if (v.n == strlen(o.mark) && memcmp(v.p, o.mark, v.n) == 0) {
		/* Suppressed: the whole domain. */
		g->kind = w->numeric ? RG_NUM : RG_ALL;
		g->a = w->min;
		g->b = w->max;
		return;
	}
	if (w->h != NULL) {
		for (l = 0; l < w->h->nlevels; l++)
			if ((id = kn_dict_find(&w->h->lab[l], v.p, v.n)) >= 0) {
				g->kind = RG_NODE;
				g->lvl = l;
				g->id = (uint32_t)id;
				if (w->leafcnt[l][id] == 0)
					break;
				return;
			}
		/* A range of a column cut as numeric (partition --numeric,
		 * --date). */
		if (val_range_parse(w->date, v.p, v.n, &g->a, &g->b) &&
		    g->a.df == w->dform) {
			g->kind = RG_NUM;
			return;
		}
		kn_die("%s: column '%s': '%.*s' is neither a node of the "
		    "hierarchy %s over the original's values nor a range %s",
		    W.relname, w->name, (int)v.n, v.p, w->h->src, w->date ?
		    "a/b of its dates" : "[a-b]");
	}
	if (w->numeric) {
		if (!val_range_parse(w->date, v.p, v.n, &g->a, &g->b) ||
		    g->a.df != w->dform)
			kn_die("%s: column '%s': '%.*s' is neither a %s nor a "
			    "range %s", W.relname, w->name, (int)v.n, v.p,
			    !w->date ? "number" : w->dform == KN_DATE_DAY ?
			    "date" : "date-time", w->date ? "a/b of them" :
			    "[a-b]");
		g->kind = RG_NUM;
		return;
	}
	g->kind = RG_CAT;
	g->n = val_canonical(w->date, v.p, v.n, g->buf, &g->s, &x, &isnum);
}

/* Adds a class of n rows with the QI labels key to the estimates.  A
 * query of one equality is only visited when the class's region can
 * hold its constant; for a node of a hierarchy or the whole domain, the
 * rows are counted there and shared out at the end (wl_finish). */
static void
wl_class(const kn_str *key, uint64_t n)
{
	size_t c, i, j, lo, hi, mid;
	long double f;
	int64_t k;
	region *g;
	query *q;
	wcol *w;

	for (c = 0; c < W.ncol; c++)
		wl_region(&W.col[c], key[W.col[c].qpos], &W.reg[c]);
	for (i = 0; i < W.ngen; i++) {
		q = &W.q[W.gen[i]];
		for (f = 1, j = 0; j < q->np && f > 0; j++)
			f *= wl_frac(&W.col[q->p[j].w], &q->p[j],
			    &W.reg[q->p[j].w]);
		q->est += n * f;
	}
	for (c = 0; c < W.ncol; c++) {
		w = &W.col[c];
		g = &W.reg[c];
		switch (g->kind) {
		case RG_NUM:
			/* The constants from a to b. */
			for (lo = 0, hi = w->neqnum; lo < hi;) {
				mid = lo + (hi - lo) / 2;
				if (val_cmp(&W.q[w->eqnum[mid]].p[0].lo,
				    &g->a) < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (i = lo; i < w->neqnum; i++) {
				q = &W.q[w->eqnum[i]];
				if (val_cmp(&q->p[0].lo, &g->b) > 0)
					break;
				q->est += n * num_frac(&g->a, &g->b, &q->p[0]);
			}
			break;
		case RG_CAT:
			k = kn_dict_find(&w->eqdict, g->s, g->n);
			for (k = k >= 0 ? w->eqfirst[k] : -1; k >= 0;
			    k = W.eqnext[k])
				W.q[k].est += n;
			break;
		case RG_NODE:
			w->nodecnt[g->lvl][g->id] += n;
			break;
		default:
			w->allcnt += n;
		}
	}
}

/* Shares out the rows counted at the nodes of the hierarchies and in
 * suppressed values among the queries of one equality. */
static void
wl_finish(void)
{
	size_t c, i;
	int64_t j;
	uint32_t id;
	region all;
	query *q;
	wcol *w;
	int l;

	all.kind = RG_ALL;
	for (c = 0; c < W.ncol; c++) {
		w = &W.col[c];
		for (i = 0; i < w->neq; i++) {
			q = &W.q[w->eq[i]];
			if (w->allcnt > 0)
				q->est += w->allcnt *
				    wl_frac(w, &q->p[0], &all);
			if (w->h == NULL)
				continue;
			for (j = q->p[0].lid >= 0 ? w->lfirst[q->p[0].lid] : -1;
			    j >= 0; j = w->lnext[j])
				for (id = (uint32_t)j, l = 0; l < w->h->nlevels;
				    l++) {
					if (w->nodecnt[l][id] > 0)
						q->est += (long double)
						    w->nodecnt[l][id] /
						    w->leafcnt[l][id];
					if (l + 1 < w->h->nlevels)
						id = w->h->up[l][id];
				}
		}
	}
}

/* Orders the single-equality queries of a column by their number. */
static int
eqnum_cmp(const void *x, const void *y)
{
	const query *p = &W.q[*(const size_t *)x];
	const query *q = &W.q[*(const size_t *)y];
	int r = val_cmp(&p->p[0].lo, &q->p[0].lo);

	if (r == 0)
		return (p > q) - (p < q);
	return r;
}

/* Sorts the queries into those of one equality, indexed by column and
 * constant, and the others. */
static void
wl_index(void)
{
	size_t i, c;
	uint32_t id;
	query *q;
	wcol *w;

	W.gen = kn_alloc((W.nq + 1) * sizeof(size_t));
	W.eqnext = kn_alloc((W.nq + 1) * sizeof(int64_t));
	for (c = 0; c < W.ncol; c++) {
		w = &W.col[c];
		if (w->h != NULL) {
			int l;

			w->nodecnt = kn_alloc((size_t)w->h->nlevels *
			    sizeof(uint64_t *));
			for (l = 0; l < w->h->nlevels; l++)
				w->nodecnt[l] = kn_zalloc((w->h->lab[l].n + 1) *
				    sizeof(uint64_t));
		}
		w->eq = kn_alloc((W.nq + 1) * sizeof(size_t));
		w->eqnum = kn_alloc((W.nq + 1) * sizeof(size_t));
		kn_dict_init(&w->eqdict);
	}
	for (i = 0; i < W.nq; i++) {
		q = &W.q[i];
		if (q->np != 1 || q->p[0].range) {
			W.gen[W.ngen++] = i;
			continue;
		}
		w = &W.col[q->p[0].w];
		w->eq[w->neq++] = i;
		if (q->p[0].eqnum)
			w->eqnum[w->neqnum++] = i;
		c = w->eqdict.n;
		id = kn_dict_intern(&w->eqdict, q->p[0].ceq, q->p[0].ceqn);
		if (id == c) {
			w->eqfirst = grow(w->eqfirst, &w->eqcap, (size_t)id + 1,
			    sizeof(int64_t));
			w->eqfirst[id] = -1;
		}
		W.eqnext[i] = w->eqfirst[id];
		w->eqfirst[id] = (int64_t)i;
	}
	for (c = 0; c < W.ncol; c++)
		qsort(W.col[c].eqnum, W.col[c].neqnum, sizeof(size_t),
		    eqnum_cmp);
}

/* The workload column of the QI at position qpos (added if new). */
static size_t
wl_col(size_t qpos, const char *name)
{
	size_t c;
	wcol *w;

	for (c = 0; c < W.ncol; c++)
		if (W.col[c].qpos == qpos)
			return c;
	W.col = kn_realloc(W.col, (W.ncol + 1) * sizeof(wcol));
	w = &W.col[W.ncol];
	memset(w, 0, sizeof(*w));
	w->qpos = qpos;
	w->name = name;
	w->allnum = 1;
	w->date = is_date(W.qcol[qpos]);
	kn_dict_init(&w->vals);
	kn_dict_init(&w->canon);
	kn_dict_init(&w->lcanon);
	return W.ncol++;
}

/* Makes p an equality with the constant s. */
static void
pred_eq(pred *p, const char *s, size_t n)
{
	char buf[48];
	const char *c;

	p->range = 0;
	p->ceqn = val_canonical(W.col[p->w].date, s, n, buf, &c, &p->lo,
	    &p->eqnum);
	p->ceq = kn_strndup(c, p->ceqn);
	p->hi = p->lo;
	p->haslo = p->hashi = p->eqnum;
}

/* Adds a query; returns it. */
static query *
wl_query(uint64_t line)
{
	query *q;

	W.q = grow(W.q, &W.qcap, W.nq + 1, sizeof(query));
	q = &W.q[W.nq++];
	memset(q, 0, sizeof(*q));
	q->line = line;
	return q;
}

/* Reads the workload file: its header names quasi-identifiers, each
 * line is a query, each non-empty cell other than '*' a predicate. */
static void
wl_read(const char *path, const kn_table *rt, const size_t *qi, size_t nq)
{
	kn_table wt;
	char *paths[1];
	size_t *wc, c, q, i;
	query *qu;
	pred *p;
	int dt;

	paths[0] = (char *)path;
	kn_table_open_tsv(&wt, paths, 1, NULL);
	wc = kn_alloc((wt.ncols + 1) * sizeof(size_t));
	for (c = 0; c < wt.ncols; c++) {
		for (q = 0; q < nq; q++)
			if (strcmp(rt->names[qi[q]], wt.names[c]) == 0)
				break;
		if (q == nq)
			kn_die("%s: column '%s' is not a quasi-identifier of "
			    "%s (-q)", path, wt.names[c], rt->r.name);
		wc[c] = wl_col(q, rt->names[qi[q]]);
	}
	while (kn_table_next(&wt)) {
		qu = wl_query(wt.r.lineno);
		qu->p = kn_alloc((wt.ncols + 1) * sizeof(pred));
		for (c = 0; c < wt.ncols; c++) {
			const char *s = wt.f[c].p;
			size_t n = wt.f[c].n;

			if (n == 0 || (n == 1 && s[0] == '*'))
				continue;
			p = &qu->p[qu->np++];
			memset(p, 0, sizeof(*p));
			p->w = wc[c];
			for (i = 0; i + 1 < n; i++)
				if (s[i] == '.' && s[i + 1] == '.')
					break;
			if (i + 1 >= n) {
				pred_eq(p, s, n);
				continue;
			}
			p->range = 1;
			p->haslo = i > 0;
			p->hashi = i + 2 < n;
			dt = W.col[p->w].date;
			if ((!p->haslo && !p->hashi) ||
			    (p->haslo && !val_parse(dt, s, i, &p->lo)) ||
			    (p->hashi && !val_parse(dt, s + i + 2, n - i - 2,
			    &p->hi)))
				kn_table_fail(&wt, c, "'%.*s' is neither a "
				    "value nor a range lo..hi of %s", (int)n, s,
				    dt ? "dates" : "numbers");
			if (dt && p->haslo && p->hashi &&
			    p->lo.df != p->hi.df)
				kn_table_fail(&wt, c, "'%.*s': a date and a "
				    "date-time", (int)n, s);
			if (p->haslo && p->hashi && val_cmp(&p->lo, &p->hi) > 0)
				kn_table_fail(&wt, c, "'%.*s' is an empty "
				    "range", (int)n, s);
		}
	}
	free(wc);
	kn_table_free(&wt);
}

/* Notes a value new to column w of the original, met on the current
 * row of ot. */
static void
wl_value(kn_table *ot, wcol *w, uint32_t id, kn_str f)
{
	char buf[48];
	const char *s, *err;
	size_t n, n0;
	uint32_t cid;
	num x;
	int isnum;

	w->vcanon = grow(w->vcanon, &w->vcap, (size_t)id + 1, sizeof(uint32_t));
	if (w->date) {
		char why[192];
		int64_t v;
		const char *e = kn_date_value(&w->dform, f.p, f.n, &v, why,
		    sizeof(why));

		if (e != NULL)
			kn_table_fail(ot, w->ocol, "'%.*s' %s", (int)f.n, f.p, e);
	}
	n = val_canonical(w->date, f.p, f.n, buf, &s, &x, &isnum);
	n0 = w->canon.n;
	cid = kn_dict_intern(&w->canon, s, n);
	w->vcanon[id] = cid;
	if (cid == n0) {
		size_t cap = w->ccap;

		w->cnum = grow(w->cnum, &cap, (size_t)cid + 1, sizeof(num));
		cap = w->ccap;
		w->cisnum = grow(w->cisnum, &cap, (size_t)cid + 1, 1);
		w->ccount = grow(w->ccount, &w->ccap, (size_t)cid + 1,
		    sizeof(uint64_t));
		w->cnum[cid] = x;
		w->cisnum[cid] = (char)isnum;
	}
	if (!isnum)
		w->allnum = 0;
	else {
		if (w->nnum == 0 || val_cmp(&x, &w->min) < 0)
			w->min = x;
		if (w->nnum == 0 || val_cmp(&x, &w->max) > 0)
			w->max = x;
		w->nnum++;
	}
	if (w->h != NULL && kn_hier_leaf(w->h, f.p, f.n, &err) < 0)
		kn_table_fail(ot, w->ocol, "'%.*s': %s", (int)f.n, f.p, err);
}

/* Indexes the leaves of column w's hierarchy: their canonical forms
 * and numbers, and the number of leaves under every node. */
static void
wl_leaves(wcol *w)
{
	kn_hier *h = w->h;
	size_t i, lcap = 0;
	uint32_t id, cid;
	char buf[48];
	const char *s;
	kn_str v;
	int l, isnum;

	w->nleaves = h->lab[0].n;
	w->lnext = kn_alloc((w->nleaves + 1) * sizeof(int64_t));
	w->lnum = kn_alloc((w->nleaves + 1) * sizeof(num));
	w->lisnum = kn_alloc(w->nleaves + 1);
	w->leafcnt = kn_alloc((size_t)h->nlevels * sizeof(uint32_t *));
	for (l = 0; l < h->nlevels; l++)
		w->leafcnt[l] = kn_zalloc((h->lab[l].n + 1) *
		    sizeof(uint32_t));
	for (i = 0; i < w->nleaves; i++) {
		size_t n0 = w->lcanon.n, n;

		v = kn_dict_get(&h->lab[0], (uint32_t)i);
		n = val_canonical(w->date, v.p, v.n, buf, &s, &w->lnum[i], &isnum);
		w->lisnum[i] = (char)isnum;
		cid = kn_dict_intern(&w->lcanon, s, n);
		if (cid == n0) {
			w->lfirst = grow(w->lfirst, &lcap, (size_t)cid + 1,
			    sizeof(int64_t));
			w->lfirst[cid] = -1;
		}
		w->lnext[i] = w->lfirst[cid];
		w->lfirst[cid] = (int64_t)i;
		for (id = (uint32_t)i, l = 0; l < h->nlevels; l++) {
			w->leafcnt[l][id]++;
			if (l + 1 < h->nlevels)
				id = h->up[l][id];
		}
	}
}

/* Resolves p against what the original holds: the ids of its constant,
 * the domain values that satisfy it, and for a range on a hierarchy the
 * satisfying leaves under every node. */
static void
wl_resolve(const query *q, pred *p)
{
	wcol *w = &W.col[p->w];
	kn_hier *h = w->h;
	size_t i;
	uint32_t id;
	int64_t j;
	kn_str v;
	int l;

	if (p->range && h == NULL && !w->numeric)
		kn_die("%s:%llu: column '%s': a range on a column that is "
		    "neither numeric nor given a hierarchy (-H)", W.wpath,
		    (unsigned long long)q->line, w->name);
	if (w->date && w->dform != KN_DATE_NONE && (p->haslo || p->hashi) &&
	    (p->haslo ? p->lo.df : p->hi.df) != w->dform)
		kn_die("%s:%llu: column '%s': a %s, but the original holds "
		    "%ss", W.wpath, (unsigned long long)q->line, w->name,
		    w->dform == KN_DATE_DAY ? "date-time" : "date",
		    w->dform == KN_DATE_DAY ? "date" : "date-time");
	p->cid = p->lid = -1;
	if (!p->range) {
		p->cid = kn_dict_find(&w->canon, p->ceq, p->ceqn);
		p->ndom = p->cid >= 0;
	}
	if (h == NULL)
		return;
	if (!p->range) {
		p->lid = kn_dict_find(&w->lcanon, p->ceq, p->ceqn);
		for (p->ndom = 0, j = p->lid >= 0 ? w->lfirst[p->lid] : -1;
		    j >= 0; j = w->lnext[j])
			p->ndom++;
		return;
	}
	p->hcnt = kn_alloc((size_t)h->nlevels * sizeof(uint32_t *));
	for (l = 0; l < h->nlevels; l++)
		p->hcnt[l] = kn_zalloc((h->lab[l].n + 1) * sizeof(uint32_t));
	for (i = 0; i < w->nleaves; i++) {
		v = kn_dict_get(&h->lab[0], (uint32_t)i);
		if (!pred_sat(p, v.p, v.n, &w->lnum[i], w->lisnum[i]))
			continue;
		p->ndom++;
		for (id = (uint32_t)i, l = 0; l < h->nlevels; l++) {
			p->hcnt[l][id]++;
			if (l + 1 < h->nlevels)
				id = h->up[l][id];
		}
	}
}

/* Whether the value of canonical id c of column w satisfies p. */
static int
wl_sat(const wcol *w, const pred *p, uint32_t c)
{
	if (!p->range)
		return p->cid == (int64_t)c;
	return pred_sat(p, NULL, 0, &w->cnum[c], w->cisnum[c]);
}

/* Sets up the workload: its columns and queries (from the file wpath,
 * or one equality per value of the column wauto), the answers on the
 * original table, and what the estimates need to know of the original:
 * the range of a numeric column, the leaves of a hierarchy, the values
 * of a categorical column. */
static void
wl_setup(const kn_table *rt, const size_t *qi, size_t nq,
    const char *wpath, const char *wauto, const char *opath,
    const kn_hopts *ho, int uneed)
{
	kn_table ot;
	kn_fset fs;
	char *paths[1], **qn;
	uint32_t *key, *ord, id;
	size_t c, i, j, k, n0;
	query *q;
	wcol *w;

	W.on = 1;
	W.qcol = qi;
	W.wpath = wpath;
	W.relname = rt->r.name;
	qn = kn_alloc((nq + 1) * sizeof(char *));
	for (c = 0; c < nq; c++)
		qn[c] = rt->names[qi[c]];
	kn_hopts_check(ho, qn, nq);
	if (wpath != NULL)
		wl_read(wpath, rt, qi, nq);
	else {
		c = kn_table_col(rt, wauto);
		for (i = 0; i < nq && qi[i] != c; i++)
			;
		if (i == nq)
			kn_die("--workload-auto: '%s' is not a "
			    "quasi-identifier (-q)", wauto);
		wl_col(i, rt->names[c]);
	}
	for (c = 0; c < W.ncol; c++)
		W.col[c].h = util_hier(&ut, W.col[c].name);

	/* The original: its frequency set over the workload's columns, and
	 * in the same reading what NCP needs of it (uneed). */
	paths[0] = (char *)opath;
	kn_table_open(&ot, paths, 1, NULL);
	if (uneed)
		util_original_begin(&ut, &ot);
	for (c = 0; c < W.ncol; c++)
		W.col[c].ocol = kn_table_col(&ot, W.col[c].name);
	key = kn_alloc((W.ncol + 1) * sizeof(uint32_t));
	kn_fset_init(&fs, W.ncol, 0);
	kn_progress_phase("reading --original", "rows", 0);
	while (kn_table_next(&ot)) {
		if ((ot.rows & 0xffff) == 0)
			kn_progress(ot.rows, ot.r.bytes);
		for (c = 0; c < W.ncol; c++) {
			kn_str f;

			w = &W.col[c];
			f = ot.f[w->ocol];
			n0 = w->vals.n;
			id = kn_dict_intern(&w->vals, f.p, f.n);
			if (id == n0)
				wl_value(&ot, w, id, f);
			key[c] = w->vcanon[id];
		}
		kn_fset_add(&fs, key, 1);
		W.orows++;
		if (uneed)
			util_original_row(&ut, &ot);
	}
	util_original_end(&ut);
	kn_progress(ot.rows, ot.r.bytes);
	kn_progress_done();
	kn_table_free(&ot);
	for (i = 0; i < fs.n; i++)
		for (c = 0; c < W.ncol; c++)
			W.col[c].ccount[fs.key[i * W.ncol + c]] += fs.cnt[i];
	for (c = 0; c < W.ncol; c++) {
		w = &W.col[c];
		w->numeric = w->h == NULL && w->allnum && w->nnum > 0;
		if (w->h != NULL)
			wl_leaves(w);
	}

	if (wauto != NULL) {
		/* COUNT(*) WHERE wauto = v, v in byte order. */
		w = &W.col[0];
		ord = kn_dict_order(&w->vals);
		for (i = 0; i < w->vals.n; i++) {
			kn_str v = kn_dict_get(&w->vals, ord[i]);

			q = wl_query(0);
			q->p = kn_zalloc(sizeof(pred));
			q->np = 1;
			pred_eq(&q->p[0], v.p, v.n);
		}
		free(ord);
	}

	/* The true answers. */
	for (i = 0; i < W.nq; i++) {
		q = &W.q[i];
		for (j = 0; j < q->np; j++)
			wl_resolve(q, &q->p[j]);
		if (q->np == 0)
			q->truth = W.orows;
		else if (q->np == 1 && !q->p[0].range)
			q->truth = q->p[0].cid >= 0 ?
			    W.col[q->p[0].w].ccount[q->p[0].cid] : 0;
		else
			for (k = 0; k < fs.n; k++) {
				for (j = 0; j < q->np; j++)
					if (!wl_sat(&W.col[q->p[j].w], &q->p[j],
					    fs.key[k * W.ncol + q->p[j].w]))
						break;
				if (j == q->np)
					q->truth += fs.cnt[k];
			}
	}
	kn_fset_free(&fs);
	free(key);
	free(qn);
	wl_index();
	W.reg = kn_zalloc((W.ncol + 1) * sizeof(region));
	W.lab = kn_alloc((nq + 1) * sizeof(kn_str));
}

/* Writes the workload lines: the absolute and relative errors of the
 * estimates, their means and population standard deviations. */
static void
wl_report(void)
{
	long double e, r, sa = 0, sr = 0, va = 0, vr = 0, ma = 0, mr = 0;
	uint64_t nr = 0;
	size_t i;

	for (i = 0; i < W.nq; i++) {
		e = fabsl(W.q[i].est - (long double)W.q[i].truth);
		sa += e;
		if (W.q[i].truth > 0) {
			sr += e / W.q[i].truth;
			nr++;
		}
	}
	if (W.nq > 0)
		ma = sa / W.nq;
	if (nr > 0)
		mr = sr / nr;
	for (i = 0; i < W.nq; i++) {
		e = fabsl(W.q[i].est - (long double)W.q[i].truth);
		va += (e - ma) * (e - ma);
		if (W.q[i].truth > 0) {
			r = e / W.q[i].truth - mr;
			vr += r * r;
		}
	}
	put("workload_queries", "%llu", (unsigned long long)W.nq);
	put("workload_abs_error_mean", "%.10Lg", ma);
	put("workload_abs_error_sd", "%.10Lg", W.nq ? sqrtl(va / W.nq) : 0.0L);
	put("workload_rel_error_mean", "%.10Lg", mr);
	put("workload_rel_error_sd", "%.10Lg", nr ? sqrtl(vr / nr) : 0.0L);
	put("workload_rel_queries", "%llu", (unsigned long long)nr);
}

/* ---- the classes, as they arrive ---------------------------------- */

/* Whether n numbers can have the sum sm->s (scale F) and the sum of
 * squares sm->ss (scale 2F): ss >= 0 and n ss >= s^2 (Cauchy-Schwarz).
 * The rows of a table always can; the sums of a frequency set that was
 * edited or mixed up may not, and would give a variance below 0. */
static int
sums_ok(uint64_t n, const kn_sum *sm)
{
	kn_i128 l, r;
	kn_big bl, br, bt;
	unsigned __int128 as;

	if (sm->ss < 0)
		return 0;
	if (!__builtin_mul_overflow((kn_i128)n, sm->ss, &l) &&
	    !__builtin_mul_overflow(sm->s, sm->s, &r))
		return l >= r;
	kn_big_set(&bl, (unsigned __int128)sm->ss);
	kn_big_set(&bt, n);
	kn_big_mul(&bl, &bt);
	as = sm->s < 0 ? (unsigned __int128)0 - (unsigned __int128)sm->s :
	    (unsigned __int128)sm->s;
	kn_big_set(&br, as);
	kn_big_set(&bt, as);
	kn_big_mul(&br, &bt);
	return kn_big_cmp(&bl, &br) >= 0;
}

/* Whether the class of n rows being ended meets --variance in
 * sensitive column i, its variance in *var. */
static int
class_variance(size_t i, uint64_t n, long double *var)
{
	struct sens *se = &sens[i];
	kn_sum sm;
	int F = se->sc > (se->ssc + 1) / 2 ? se->sc : (se->ssc + 1) / 2;

	/* Bring s to scale F and ss to 2F. */
	sm.s = se->s;
	sm.ss = se->ss;
	if (__builtin_mul_overflow(sm.s, kn_pow10(F - se->sc), &sm.s) ||
	    __builtin_mul_overflow(sm.ss, kn_pow10(2 * F - se->ssc), &sm.ss))
		kn_die("sum overflow");
	if (o.sumsq[i] != NULL && !sums_ok(n, &sm))
		kn_die("%s: column '%s': the sums of class '%.*s' are not "
		    "those of any numbers (the sum of squares is below the "
		    "squared sum over the count)", o.sfile, o.sumsq[i],
		    (int)(a.keylen > 0 ? a.keylen - 1 : 0), a.key);
	return kn_variance_ok(n, &sm, F, o.req.vm, o.req.vs, var);
}

/* Judges the class of n rows being ended by -k, -l and --variance
 * (t-closeness: close_classes); with figures, its diversity and
 * variance count in the minima. */
static void
judge(uint64_t n, int figures)
{
	size_t i, m;
	long double he, var;

	if (o.req.k > 0 && n < (uint64_t)o.req.k)
		a.kfail = 1;
	for (i = 0; o.skey && (figures || o.hasl) && i < o.ns; i++) {
		if (!kn_sclass_ldiv(&sens[i].v, &o.req.ld, n, &a.vals,
		    &a.valcap, &m, &he) && o.hasl)
			a.lfail = 1;
		if (figures && ((a.first && i == 0) || m < a.ldmin))
			a.ldmin = m;
		if (figures && ((a.first && i == 0) || he < a.lemin))
			a.lemin = he;
	}
	for (i = 0; o.req.hasv && i < o.ns; i++) {
		if (!class_variance(i, n, &var))
			a.vfail = 1;
		if (figures && ((a.first && i == 0) || var < a.varmin))
			a.varmin = var;
	}
	if (figures)
		a.first = 0;
}

/* Scores the class just read. */
static void
end_class(void)
{
	uint64_t n = a.n;
	size_t i;

	if (!a.have)
		return;
	a.have = 0;
	if (__builtin_add_overflow(a.rows, n, &a.rows))
		kn_rows_overflow();
	/* Suppressed rows are one class for the target and the workload. */
	if (o.tkey)
		targ_class(&tg);
	if (o.skey)
		for (i = 0; i < o.ns; i++) {
			if (sens[i].sorted)
				cvals_end_sclass(&sens[i].cv, &sens[i].v);
			kn_sclass_end(&sens[i].v);
			/* Empty classes are measured in no class, but
			 * are the table's; the rows '*' everywhere are
			 * judged as one (judge). */
			if (o.req.hast)
				tcd_class(&sens[i].tc, n, n > 0);
		}
	if (W.on && n > 0) {
		const char *p = a.key, *e;

		for (i = 0; i < o.nq; i++) {
			e = memchr(p, '\t', (size_t)(a.key + a.keylen - p));
			W.lab[i].p = p;
			W.lab[i].n = (size_t)(e - p);
			p = e + 1;
		}
		wl_class(W.lab, n);
	}
	if (n > 0)
		util_class(&ut, a.key, a.keylen, n);
	if (n > 0 && o.req.hast)
		a.nmeas++;
	if (a.supp_cls) {
		/* To an outsider the rows '*' in every quasi-identifier,
		 * suppressed or not, are one class more, which holds whoever
		 * no other covers: the checks judge it as any other
		 * (recode(1), --suppress); the figures leave it out. */
		if (n > 0 && o.req.hast)
			a.suppat = a.nmeas;
		if (n > 0)
			judge(n, 0);
		a.supp += n;
		return;
	}
	if (n == 0)
		return;
	a.nclass++;
	a.kept += n;
	a.cdm += (unsigned __int128)n * n;
	if (a.first || n < a.minsz)
		a.minsz = n;
	if (a.first || n > a.maxsz)
		a.maxsz = n;
	if (n < (uint64_t)o.thresh)
		a.below += n;
	risk_class(&rk, a.key, a.keylen, n);
	judge(n, 1);
}

/* Measures the classes for t-closeness, once the whole table is read. */
static void
close_classes(void)
{
	uint64_t i;
	size_t j;
	long double d;

	for (j = 0; j < o.ns; j++) {
		tcd_finish(&sens[j].tc);
		for (i = 0; i < a.nmeas; i++) {
			if (!tcd_next(&sens[j].tc, &d))
				a.tfail = 1;
			/* The class of '*' rows is judged, not measured
			 * among the classes' figures. */
			if (d > a.tmax && i + 1 != a.suppat)
				a.tmax = d;
		}
		tcd_free(&sens[j].tc);
	}
}

/* A group of the frequency set of (QI..., S, T). */
static void
add_row(const kn_fsrow *r, void *ctx)
{
	static char *buf;
	static size_t cap;
	size_t c, len = 0;
	char *t;

	(void)ctx;
	for (c = 0; c < o.nq; c++)
		len += r->key[c].n + 1;
	if (len > cap) {
		cap = 2 * len;
		buf = kn_realloc(buf, cap);
	}
	for (len = 0, c = 0; c < o.nq; c++) {
		memcpy(buf + len, r->key[c].p, r->key[c].n);
		len += r->key[c].n;
		buf[len++] = '\t';
	}
	if (a.have && (len != a.keylen ||
	    (len > 0 && memcmp(buf, a.key, len) != 0)))
		end_class();
	if (!a.have) {
		/* A new class: keep its labels (swap the buffers). */
		t = a.key;
		a.key = buf;
		buf = t;
		c = a.keycap;
		a.keycap = cap;
		cap = c;
		a.keylen = len;
		a.supp_cls = o.nq > 0;
		for (c = 0; c < o.nq && a.supp_cls; c++)
			a.supp_cls = r->key[c].n == strlen(o.mark) &&
			    memcmp(r->key[c].p, o.mark, r->key[c].n) == 0;
		a.have = 1;
		a.n = 0;
		for (c = 0; c < o.ns; c++) {
			kn_sclass_begin(&sens[c].v);
			sens[c].s = sens[c].ss = 0;
			sens[c].sc = sens[c].ssc = 0;
		}
		/* Which quasi-identifiers hold plain numbers (the plot
		 * of the report). */
		for (c = 0; c < o.nq && !a.supp_cls; c++) {
			kn_i128 m;
			int sc;

			if (o.numq[c] && !kn_dec_parse(r->key[c].p,
			    r->key[c].n, &m, &sc))
				o.numq[c] = 0;
		}
	}
	if (__builtin_add_overflow(a.n, r->cnt, &a.n))
		kn_die("a class size overflows 64 bits");
	for (c = 0; o.skey && c < o.ns; c++)
		if (!sens[c].sorted)
			kn_sclass_add(&sens[c].v, r->key[o.nq + c].p,
			    r->key[o.nq + c].n, r->cnt);
		else if (r->cnt > 0)
			cvals_add(&sens[c].cv, r->key[o.nq + c].p,
			    r->key[o.nq + c].n, r->cnt);
	if (o.tkey && r->cnt > 0)
		targ_add(&tg, r->key[o.nq + (o.skey ? o.ns : 0)].p,
		    r->key[o.nq + (o.skey ? o.ns : 0)].n, r->cnt);
	for (c = 0; o.req.hasv && c < o.ns; c++) {
		kn_dec_add(&sens[c].s, &sens[c].sc, r->s[c], r->sc[c]);
		kn_dec_add(&sens[c].ss, &sens[c].ssc, r->ss[c], r->ssc[c]);
	}
}

/* ---- the picture (paper 003 Figures 15 and 16) -------------------- */

#define PL_LEFT 90		/* margins around the 800 x 800 plot */
#define PL_TOP 40
#define PL_SIZE 800
#define PL_PAD 10		/* between the axes and the extreme points */
#define PL_W (PL_LEFT + PL_SIZE + 40)
#define PL_H (PL_TOP + PL_SIZE + 70)

/* Writes s escaped for XML text, tabs as ", ". */
static void
xml_put(const char *s, size_t n)
{
	report_xml(out, s, n, REPORT_XML_TABS | (o.strict ? 0 :
	    REPORT_XML_BYTES));
}

/* Writes a number as written in the input, canonically; a date as
 * a date. */
static void
xml_num(const num *x)
{
	char buf[48];

	if (x->df != KN_DATE_NONE)
		fwrite(buf, 1, kn_date_format((int64_t)x->m, x->df, buf), out);
	else
		fwrite(buf, 1, kn_dec_format(x->m, x->sc, buf), out);
}

/* The position of v on an axis from lo to hi, in pixels from its
 * start. */
static double
pl_pos(long double v, const num *lo, const num *hi)
{
	if (val_cmp(lo, hi) == 0)
		return PL_SIZE / 2.0;
	return (double)(PL_PAD + (v - lo->v) / (hi->v - lo->v) *
	    (PL_SIZE - 2 * PL_PAD));
}

/* --plot: every row a dot at (X, Y) and every class its bounding box,
 * as SVG, the classes being the values of the class column or else the
 * distinct tuples of the quasi-identifiers. */
static void
plot(kn_table *t, const char *xy, const char *clscol, const char *qlist)
{
	struct pt {
		double x, y;
	} *pt = NULL;
	struct box {
		num x0, x1, y0, y1;
		uint64_t n;
	} *box = NULL;
	size_t *xyi, *qi = NULL, nq = 0, ci = 0, c, j, npt = 0, ptcap = 0;
	size_t nbox = 0, boxcap = 0, len, keycap = 0, mlen = strlen(o.mark);
	num v[2], lo[2], hi[2];
	char *key = NULL, why[192];
	uint32_t id, *ord;
	int hascls = 0, df[2] = { KN_DATE_NONE, KN_DATE_NONE };
	kn_dict cls;

	if (kn_table_cols(t, xy, &xyi) != 2)
		kn_die("--plot: '%s': expected two columns X,Y", xy);
	for (c = 0; c < o.ndate; c++)
		if (o.dcol[c] != xyi[0] && o.dcol[c] != xyi[1])
			kn_die("--date: '%s' is not a column of --plot",
			    t->names[o.dcol[c]]);
	if (clscol != NULL) {
		ci = kn_table_col(t, clscol);
		hascls = 1;
	} else
		for (c = 0; c < t->ncols && !hascls; c++)
			if (strcmp(t->names[c], "class") == 0) {
				ci = c;
				hascls = 1;
			}
	if (!hascls && qlist != NULL)
		nq = kn_table_cols(t, qlist, &qi);
	else if (!hascls) {
		qi = kn_alloc((t->ncols + 1) * sizeof(size_t));
		for (nq = 0; nq < t->ncols; nq++)
			qi[nq] = nq;
	}
	memset(lo, 0, sizeof(lo));
	memset(hi, 0, sizeof(hi));
	kn_dict_init(&cls);
	while (kn_table_next(t)) {
		/* The report's plot leaves the suppressed rows out (the
		 * mark in every QI), as its choice of columns did. */
		for (c = 0; o.strict && c < nq && t->f[qi[c]].n == mlen &&
		    memcmp(t->f[qi[c]].p, o.mark, mlen) == 0; c++)
			;
		if (o.strict && nq > 0 && c == nq)
			continue;
		for (j = 0; j < 2; j++) {
			kn_str f = t->f[xyi[j]];

			if (is_date(xyi[j])) {
				int64_t d;
				const char *e = kn_date_value(&df[j], f.p, f.n,
				    &d, why, sizeof(why));

				if (e != NULL)
					kn_table_fail(t, xyi[j], "'%.*s' %s",
					    (int)f.n, f.p, e);
				val_date_parse(f.p, f.n, &v[j]);
			} else if (!val_num_parse(f.p, f.n, &v[j]))
				kn_table_fail(t, xyi[j], "'%.*s' is not a "
				    "number%s", (int)f.n, f.p,
				    val_date_parse(f.p, f.n, &v[j]) ? " (a date: "
				    "name the column with --date)" : "");
			if (npt == 0 || val_cmp(&v[j], &lo[j]) < 0)
				lo[j] = v[j];
			if (npt == 0 || val_cmp(&v[j], &hi[j]) > 0)
				hi[j] = v[j];
		}
		if (hascls)
			id = kn_dict_intern(&cls, t->f[ci].p, t->f[ci].n);
		else {
			for (len = 0, c = 0; c < nq; c++)
				len += t->f[qi[c]].n + 1;
			key = grow(key, &keycap, len + 1, 1);
			for (len = 0, c = 0; c < nq; c++) {
				memcpy(key + len, t->f[qi[c]].p, t->f[qi[c]].n);
				len += t->f[qi[c]].n;
				key[len++] = '\t';
			}
			id = kn_dict_intern(&cls, key, len ? len - 1 : 0);
		}
		if (id == nbox) {
			box = grow(box, &boxcap, ++nbox, sizeof(struct box));
			box[id].x0 = box[id].x1 = v[0];
			box[id].y0 = box[id].y1 = v[1];
		}
		if (val_cmp(&v[0], &box[id].x0) < 0)
			box[id].x0 = v[0];
		if (val_cmp(&v[0], &box[id].x1) > 0)
			box[id].x1 = v[0];
		if (val_cmp(&v[1], &box[id].y0) < 0)
			box[id].y0 = v[1];
		if (val_cmp(&v[1], &box[id].y1) > 0)
			box[id].y1 = v[1];
		box[id].n++;
		pt = grow(pt, &ptcap, npt + 1, sizeof(struct pt));
		pt[npt].x = (double)v[0].v;
		pt[npt++].y = (double)v[1].v;
	}

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
	    "font-size=\"14\">\n<title>", PL_W, PL_H, PL_W, PL_H);
	xml_put(t->names[xyi[0]], strlen(t->names[xyi[0]]));
	fputs(" by ", out);
	xml_put(t->names[xyi[1]], strlen(t->names[xyi[1]]));
	fprintf(out, ": %zu row%s in %zu class%s</title>\n", npt,
	    npt == 1 ? "" : "s", nbox, nbox == 1 ? "" : "es");
	/* The classes, in byte order of their labels. */
	fputs("<g fill=\"none\" stroke=\"#1f4e9c\" stroke-width=\"1\">\n",
	    out);
	ord = kn_dict_order(&cls);
	for (j = 0; j < nbox; j++) {
		struct box *b = &box[ord[j]];
		kn_str l = kn_dict_get(&cls, ord[j]);
		double x0 = pl_pos(b->x0.v, &lo[0], &hi[0]);
		double x1 = pl_pos(b->x1.v, &lo[0], &hi[0]);
		double y0 = pl_pos(b->y0.v, &lo[1], &hi[1]);
		double y1 = pl_pos(b->y1.v, &lo[1], &hi[1]);

		/* A degenerate box is drawn 2 pixels wide. */
		if (x1 - x0 < 2) {
			x0 = (x0 + x1) / 2 - 1;
			x1 = x0 + 2;
		}
		if (y1 - y0 < 2) {
			y0 = (y0 + y1) / 2 - 1;
			y1 = y0 + 2;
		}
		fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
		    "height=\"%.2f\"><title>", PL_LEFT + x0,
		    PL_TOP + PL_SIZE - y1, x1 - x0, y1 - y0);
		xml_put(l.p, l.n);
		fprintf(out, ": %llu row%s</title></rect>\n",
		    (unsigned long long)b->n, b->n == 1 ? "" : "s");
	}
	free(ord);
	fputs("</g>\n<g fill=\"#b22222\" stroke=\"none\">\n", out);
	for (j = 0; j < npt; j++)
		fprintf(out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"1.5\"/>\n",
		    PL_LEFT + pl_pos(pt[j].x, &lo[0], &hi[0]),
		    PL_TOP + PL_SIZE - pl_pos(pt[j].y, &lo[1], &hi[1]));
	/* The axes, their names, and the least and greatest values. */
	fprintf(out, "</g>\n<path d=\"M%d %dV%dH%d\" fill=\"none\" "
	    "stroke=\"black\"/>\n", PL_LEFT, PL_TOP, PL_TOP + PL_SIZE,
	    PL_LEFT + PL_SIZE);
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
	    PL_LEFT + PL_SIZE / 2, PL_TOP + PL_SIZE + 50);
	xml_put(t->names[xyi[0]], strlen(t->names[xyi[0]]));
	fprintf(out, "</text>\n<text x=\"%d\" y=\"%d\" "
	    "text-anchor=\"middle\" transform=\"rotate(-90 %d %d)\">", 30,
	    PL_TOP + PL_SIZE / 2, 30, PL_TOP + PL_SIZE / 2);
	xml_put(t->names[xyi[1]], strlen(t->names[xyi[1]]));
	fputs("</text>\n", out);
	if (npt > 0) {
		fprintf(out, "<text x=\"%.2f\" y=\"%d\" "
		    "text-anchor=\"middle\">", PL_LEFT +
		    pl_pos(lo[0].v, &lo[0], &hi[0]), PL_TOP + PL_SIZE + 22);
		xml_num(&lo[0]);
		fprintf(out, "</text>\n<text x=\"%.2f\" y=\"%d\" "
		    "text-anchor=\"middle\">", PL_LEFT +
		    pl_pos(hi[0].v, &lo[0], &hi[0]), PL_TOP + PL_SIZE + 22);
		xml_num(&hi[0]);
		fprintf(out, "</text>\n<text x=\"%d\" y=\"%.2f\" "
		    "text-anchor=\"end\">", PL_LEFT - 6, PL_TOP + PL_SIZE -
		    pl_pos(lo[1].v, &lo[1], &hi[1]) + 5);
		xml_num(&lo[1]);
		fprintf(out, "</text>\n<text x=\"%d\" y=\"%.2f\" "
		    "text-anchor=\"end\">", PL_LEFT - 6, PL_TOP + PL_SIZE -
		    pl_pos(hi[1].v, &lo[1], &hi[1]) + 5);
		xml_num(&hi[1]);
		fputs("</text>\n", out);
	}
	fputs("</svg>\n", out);
	free(pt);
	free(box);
	free(key);
	free(qi);
	free(xyi);
	kn_dict_free(&cls);
}

/* The report's picture: --plot of the first two QIs that hold numbers
 * only, from a second reading of the release (rep.svg). */
static void
report_plot(char **argv, int argc, const size_t *qi, size_t nq,
    const char *columns, int freq)
{
	FILE *save = out;
	char xy[48], *ql = kn_alloc(nq * 24 + 1);
	size_t c, n = 0, p[2], len = 0;
	kn_table t2;

	for (c = 0; c < nq; c++) {
		if (o.numq[c] && n < 2)
			p[n++] = qi[c];
		len += (size_t)sprintf(ql + len, "%s%zu", c ? "," : "", qi[c] + 1);
	}
	rep.svgwhy = n < 2 ? "fewer than two quasi-identifiers hold numbers "
	    "only" : freq ? "the input is a frequency set" : argc == 0 ||
	    strcmp(argv[0], "-") == 0 ? "the release was read from the "
	    "standard input, which is not read twice" : NULL;
	/* Nor a pipe named (/dev/stdin, <(...)): only files are read
	 * again. */
	for (c = 0; rep.svgwhy == NULL && c < (size_t)argc; c++) {
		struct stat st;

		if (stat(argv[c], &st) != 0 || !S_ISREG(st.st_mode))
			rep.svgwhy = "the release was read from a pipe or a "
			    "device, which is not read twice";
	}
	if (rep.svgwhy == NULL) {
		snprintf(xy, sizeof(xy), "%zu,%zu", p[0] + 1, p[1] + 1);
		kn_table_open(&t2, argv, (size_t)argc, columns);
		if ((out = open_memstream(&rep.svg, &rep.nsvg)) == NULL)
			kn_die_sys("open_memstream");
		o.strict = 1;
		plot(&t2, xy, NULL, ql);
		if (fclose(out) != 0)
			kn_die_sys("open_memstream");
		out = save;
		kn_table_free(&t2);
	}
	free(ql);
}

int
main(int argc, char *argv[])
{
	kn_opts opt = { 0 };
	kn_hopts hopts = { 0, NULL };
	kn_table t;
	kn_dict *dict;
	kn_countspec cs;
	const char *opath = NULL, *wpath = NULL, *wauto = NULL;
	const char *plotxy = NULL, *clscol = NULL;
	report_opts ro = { 0 };
	FILE *rout = NULL;
	char cdmbuf[48];
	int uneed;
	size_t *qi, *key, nq, d, c, *sidx = NULL, tidx = 0, cntcol = 0;
	size_t scl[KN_MAXSENS], i, j, nsort;
	char *snames[KN_MAXSENS];
	kn_hier *shier[KN_MAXSENS] = { NULL };
	int ch, check = 0, freq = 0, nstdin, oargc = argc;
	char **oargv = argv;

	kn_init(argv[0]);
	kn_req_init(&o.req);
	o.mark = "*";
	while ((ch = getopt_long(argc, argv, OPTSTRING,
	    longopts, NULL)) != -1) {
		switch (ch) {
		case 'H':
			kn_hopts_add(&hopts, optarg);
			break;
		case 'h':
			usage(0);
		case OPT_CHECK:
			check = 1;
			break;
		case OPT_CLASSCOL:
			clscol = optarg;
			break;
		case OPT_FREQSET:
			freq = 1;
			break;
		case OPT_ORIG:
			opath = optarg;
			break;
		case OPT_PLOT:
			plotxy = optarg;
			break;
		case OPT_SUPP:
			o.mark = optarg;
			break;
		case OPT_THRESH:
			o.thresh = kn_parse_int(optarg, 1, INT64_MAX,
			    "--threshold");
			break;
		case OPT_WAUTO:
			wauto = optarg;
			break;
		case OPT_WORKLOAD:
			wpath = optarg;
			break;
		default:
			if (kn_req_opt(&o.req, ch, optarg) ||
			    report_opt(&ro, ch, optarg) ||
			    kn_opts_take(&opt, ch, optarg))
				break;
			if (ch == '?')
				kn_opt_error(argv, OPTSTRING);
			usage(2);
		}
	}
	argc -= optind;
	argv += optind;
	kn_progress_init(opt.progress);
	o.hasl = o.req.ld.on;
	if (argc > 1)
		kn_die("one table at a time (got %d files)", argc);
	if (plotxy != NULL && (check || o.req.k > 0 || opt.scol != NULL ||
	    opt.tcol != NULL || o.hasl || o.req.hasv || o.thresh > 0 || freq ||
	    opath != NULL || wpath != NULL || wauto != NULL || hopts.n > 0 ||
	    ro.risk || REPORT_ON(&ro)))
		kn_die("--plot draws the classes: it takes no metric, check, "
		    "risk, report or workload options");
	report_opts_check(&ro);
	if (clscol != NULL && plotxy == NULL)
		kn_die("--class-col applies to --plot");
	if ((o.hasl || o.req.hasv) && opt.scol == NULL)
		kn_die("-l and --variance need the sensitive column (-s)");
	kn_req_check(&o.req, opt.scol != NULL);
	if (check && o.req.k == 0 && !o.hasl && !o.req.hasv && !o.req.hast)
		kn_die("--check: nothing to check (give -k, -l, --variance "
		    "or --closeness)");
	if (wpath != NULL && wauto != NULL)
		kn_die("--workload and --workload-auto exclude each other");
	if ((wpath != NULL || wauto != NULL) && opath == NULL)
		kn_die("a workload needs the original table (--original)");
	nstdin = (argc == 0 || strcmp(argv[0], "-") == 0) +
	    (opath != NULL && strcmp(opath, "-") == 0) +
	    (wpath != NULL && strcmp(wpath, "-") == 0) +
	    (ro.pop != NULL && strcmp(ro.pop, "-") == 0);
	if (nstdin > 1)
		kn_die("only one input can be the standard input");
	if (o.thresh == 0)
		o.thresh = o.req.k > 0 ? o.req.k : 2;
	if (opt.budget == 0)
		opt.budget = kn_default_budget();
	opt.tmpdir = kn_tmpdir(opt.tmpdir);

	if (opt.dates != NULL && plotxy == NULL && opath == NULL)
		kn_die("--date: dates serve the workload (--original) and "
		    "--plot; the checks and metrics take released values as "
		    "they are");
	kn_table_open(&t, argv, (size_t)argc, opt.columns);
	if (opt.dates != NULL)
		o.ndate = kn_table_cols(&t, opt.dates, &o.dcol);
	/* Open the output first: a bad path fails before the work. */
	kn_note_later(opath);
	kn_note_later(wpath);
	out = kn_open_out_inplace(opt.outpath, argv, (size_t)argc);
	if (ro.path != NULL)
		rout = kn_open_out(ro.path);
	if (plotxy != NULL) {
		plot(&t, plotxy, clscol, opt.qlist);
		kn_close_out(out);
		kn_exit(0);
	}
	/* S is a key (for the l-diversity figures and t-closeness) unless
	 * it is only summed for variance diversity. */
	o.skey = opt.scol != NULL && (o.hasl || o.req.hast || !o.req.hasv);
	o.tkey = opt.tcol != NULL;
	if (opt.scol != NULL && (o.skey || !freq)) {
		o.ns = kn_table_cols(&t, opt.scol, &sidx);
		if (o.ns > KN_MAXSENS)
			kn_die("-s: more than %d sensitive columns", KN_MAXSENS);
		for (i = 0; i < o.ns; i++)
			snames[i] = t.names[sidx[i]];
	} else if (opt.scol != NULL) {
		/* Summed only, in a frequency set: S_sum and S_sumsq. */
		char *p = kn_strdup(opt.scol), *e;

		for (o.ns = 0; p != NULL; o.ns++) {
			if (o.ns == KN_MAXSENS)
				kn_die("-s: more than %d sensitive columns",
				    KN_MAXSENS);
			e = strchr(p, ',');
			if (e != NULL)
				*e++ = '\0';
			snames[o.ns] = p;
			p = e;
		}
	}
	for (i = 0; o.req.hast && o.req.dist == KN_DIST_HIER && i < o.ns;
	    i++)
		if ((shier[i] = kn_hopts_get(&hopts, snames[i])) == NULL)
			kn_die("--distance hierarchical: the sensitive column "
			    "'%s' has no hierarchy (give one with -H)",
			    snames[i]);
	/* The sensitive values counted by their identity (kanon(7),
	 * Sensitive values). */
	if (sidx != NULL && o.skey)
		kn_table_canon_sens(&t, sidx, o.ns, shier);
	if (o.tkey)
		tidx = kn_table_col(&t, opt.tcol);
	if (freq)
		cntcol = kn_table_countcol(&t, "--freqset");
	if (opt.qlist != NULL)
		nq = kn_table_cols(&t, opt.qlist, &qi);
	else {
		/* Every column but the sensitive and target ones (and the
		 * count and sums of a frequency set). */
		size_t lim = freq ? cntcol : t.ncols;

		qi = kn_alloc((t.ncols + 1) * sizeof(size_t));
		for (nq = 0, c = 0; c < lim; c++) {
			for (j = 0; sidx != NULL && j < o.ns && c != sidx[j];
			    j++)
				;
			if ((sidx == NULL || j == o.ns) &&
			    (!o.tkey || c != tidx))
				qi[nq++] = c;
		}
	}
	for (c = 0; c < nq; c++) {
		for (j = 0; sidx != NULL && j < o.ns; j++)
			if (qi[c] == sidx[j])
				kn_die("-s %s is also a quasi-identifier",
				    snames[j]);
		if (o.tkey && qi[c] == tidx)
			kn_die("-t %s is also a quasi-identifier", opt.tcol);
		if (freq && qi[c] >= cntcol)
			kn_die("-q: '%s' is not a key column of the frequency "
			    "set", t.names[qi[c]]);
	}
	for (i = 0; i < o.ndate; i++) {
		for (c = 0; c < nq && qi[c] != o.dcol[i]; c++)
			;
		if (c == nq)
			kn_die("--date: '%s' is not a quasi-identifier",
			    t.names[o.dcol[i]]);
	}
	for (i = 0; o.req.hasv && i < o.ns; i++) {
		char name[512];
		const char *base = snames[i];

		if (!freq) {
			scl[i] = sidx[i];
			continue;
		}
		snprintf(name, sizeof(name), "%s_sum", base);
		scl[i] = kn_table_col(&t, name);
		snprintf(name, sizeof(name), "%s_sumsq", base);
		if (scl[i] + 1 >= t.ncols ||
		    strcmp(t.names[scl[i] + 1], name) != 0)
			kn_die("%s: no %s column after %s_sum", t.r.name, name,
			    base);
		o.sfile = t.r.name;
		o.sumsq[i] = t.names[scl[i] + 1];
	}
	for (i = 0; o.skey && freq && i < o.ns; i++)
		if (sidx[i] >= cntcol)
			kn_die("-s: '%s' must be a key column of the frequency "
			    "set", t.names[sidx[i]]);
	if (o.tkey && freq && tidx >= cntcol)
		kn_die("-t: '%s' must be a key column of the frequency set",
		    t.names[tidx]);
	o.nq = nq;
	o.numq = kn_alloc(nq + 1);
	memset(o.numq, REPORT_ON(&ro), nq + 1);
	report_init(&rep, ro.json ? NULL : out);
	risk_init(&rk, (uint64_t)o.thresh, ro.pi);
	if (ro.pop != NULL) {
		char **qn = kn_alloc((nq + 1) * sizeof(char *));

		for (c = 0; c < nq; c++)
			qn[c] = t.names[qi[c]];
		risk_population(&rk, ro.pop, qn, nq, opt.budget,
		    opt.tmpdir);
		free(qn);
	}
	util_init(&ut, &t, qi, nq, o.dcol, o.ndate, snames, o.ns, &hopts,
	    o.mark);
	/* Without S as a key, the targets of a class arrive in order; with
	 * it, their sort and those of the sensitive columns after the
	 * first share an eighth of the budget. */
	nsort = (o.tkey && o.skey) + (o.skey && o.ns > 1 ? o.ns - 1 : 0);
	if (o.tkey)
		targ_init(&tg, !o.skey, o.skey ? opt.budget / 8 / nsort : 0,
		    opt.tmpdir);
	uneed = util_original_needs(&ut, opath);
	if (wpath != NULL || wauto != NULL)
		wl_setup(&t, qi, nq, wpath, wauto, opath, &hopts, uneed);
	else if (uneed)
		W.orows = util_original(&ut, opath);
	else {
		util_original_end(&ut);
		if (opath != NULL)	/* for the report, read first */
			W.orows = report_lines(opath, opt.columns);
	}

	/* The frequency set of (QI..., S if a key, T), S summed for
	 * variance diversity, arrives in order; classes are runs of equal
	 * QIs. */
	d = nq + (o.skey ? o.ns : 0) + (size_t)o.tkey;
	dict = kn_alloc((d + 1) * sizeof(kn_dict));
	key = kn_alloc((d + 1) * sizeof(size_t));
	for (c = 0; c < d; c++) {
		kn_dict_init(&dict[c]);
		key[c] = c < nq ? qi[c] : c < d - (size_t)o.tkey ?
		    sidx[c - nq] : tidx;
	}
	/* The first sensitive column comes right after the quasi-
	 * identifiers in the groups' order: a class's rows of each of its
	 * values come together.  The others' values of a class are sorted
	 * (cvals.c).  So none needs a dictionary, t-closeness's measure
	 * neither (tcdisk.c: its sorts take the budget once the frequency
	 * set is read). */
	for (i = 0; i < o.ns; i++) {
		kn_sclass_init(&sens[i].v);
		sens[i].sorted = i > 0 && o.skey;
		if (sens[i].sorted)
			cvals_init(&sens[i].cv, opt.budget / 8 / nsort,
			    opt.tmpdir);
		if (o.req.hast) {
			tcd_init(&sens[i].tc, &o.req, shier[i], opt.budget,
			    opt.budget / 8 / o.ns, opt.tmpdir, kn_jobs(&opt));
			sens[i].v.tap = tcd_add;
			sens[i].v.tapctx = &sens[i].tc;
		}
	}
	/* The columns not read may hold what TSV cannot (a CSV release
	 * with line ends in a column passed through). */
	{
		size_t *used = kn_alloc((d + 2 * o.ns + 3) * sizeof(size_t));
		size_t nu = d;

		memcpy(used, key, d * sizeof(size_t));
		if (freq)
			used[nu++] = cntcol;
		for (i = 0; o.req.hasv && i < o.ns; i++) {
			used[nu++] = scl[i];
			if (freq)
				used[nu++] = scl[i] + 1;
		}
		kn_table_carry(&t, used, nu, 0);
		free(used);
	}
	memset(&cs, 0, sizeof(cs));
	cs.d = d;
	cs.key = key;
	cs.dict = dict;
	cs.hascount = freq;
	cs.cntcol = cntcol;
	cs.nsum = o.req.hasv ? o.ns : 0;
	cs.sumcol = scl;
	cs.pairs = freq;
	cs.jobs = kn_jobs(&opt);
	/* The values spooled for t-closeness hold another eighth. */
	kn_freq(&t, &cs, NULL, opt.budget - (nsort > 0 ? opt.budget / 8 : 0) -
	    (o.req.hast ? opt.budget / 8 : 0), opt.tmpdir, add_row, NULL,
	    NULL);
	end_class();
	if (o.req.hast)
		close_classes();
	a.cdm += (unsigned __int128)a.supp * a.rows;

	put("rows", "%llu", (unsigned long long)a.rows);
	put("suppressed", "%llu", (unsigned long long)a.supp);
	put("classes", "%llu", (unsigned long long)a.nclass);
	put("class_size_min", "%llu", (unsigned long long)a.minsz);
	put("class_size_max", "%llu", (unsigned long long)a.maxsz);
	put("class_size_mean", "%.10Lg", a.nclass ?
	    (long double)a.kept / a.nclass : 0.0L);
	kn_fmt_u128(cdmbuf, a.cdm);
	put("cdm", "%s", cdmbuf);
	if (o.req.k > 0)
		put("cavg", "%.10Lg", a.nclass ?
		    (long double)a.kept / a.nclass / o.req.k : 0.0L);
	util_put(&ut, &rep);
	put("risk_max", "%.10Lg", a.minsz ? 1.0L / a.minsz : 0.0L);
	put("risk_mean", "%.10Lg", a.kept ?
	    (long double)a.nclass / a.kept : 0.0L);
	put("threshold", "%lld", o.thresh);
	put("rows_below_threshold", "%llu", (unsigned long long)a.below);
	put("share_below_threshold", "%.10Lg", a.kept ?
	    (long double)a.below / a.kept : 0.0L);
	risk_finish(&rk);
	if (ro.risk)
		risk_put(&rk, &rep);
	if (o.skey) {
		put("l_distinct_min", "%llu", (unsigned long long)a.ldmin);
		put("l_entropy_min", "%.10Lg", a.lemin);
	}
	if (o.req.hasv)
		put("variance_min", "%.10Lg", a.varmin);
	if (o.req.hast)
		put("closeness_max", "%.10Lg", a.tmax);
	if (o.tkey) {
		put("label_entropy", "%.10Lg", targ_entropy(&tg, a.rows));
		if (tg.allnum)
			put("target_rmse", "%.10Lg", targ_rmse(&tg, a.rows));
	}
	if (W.on) {
		wl_finish();
		wl_report();
	}
	if (o.req.k > 0)
		put("check_k", "%s", a.kfail ? "fail" : "pass");
	if (o.hasl)
		put(o.req.ld.kind == KN_DIV_DISTINCT ? "check_l_distinct" :
		    o.req.ld.kind == KN_DIV_ENTROPY ? "check_l_entropy" :
		    "check_l_recursive", "%s", a.lfail ? "fail" : "pass");
	if (o.req.hasv)
		put("check_variance", "%s", a.vfail ? "fail" : "pass");
	if (o.req.hast)
		put("check_closeness", "%s", a.tfail ? "fail" : "pass");
	if (REPORT_ON(&ro)) {
		report_run(&rep, oargc, oargv, &ro, &o.req, opt.scol);
		rep.fof = rk.fof;
		rep.nf = rk.nfof;
		report_file_set(&rep.rel, argc > 0 ? argv[0] : NULL, t.rows);
		if (opath != NULL)
			report_file_set(&rep.orig, opath, W.orows);
		report_columns(&rep, &t, qi, nq, sidx, opt.scol != NULL &&
		    (o.skey || !freq) ? o.ns : 0, o.tkey ? tidx : SIZE_MAX,
		    freq ? cntcol : t.ncols);
		report_plot(argv, argc, qi, nq, opt.columns, freq);
		if (rout != NULL) {
			report_html(&rep, rout);
			kn_close_out(rout);
		}
		if (ro.json)
			report_json(&rep, out);
	}
	kn_close_out(out);
	kn_exit(check && (a.kfail || a.lfail || a.vfail || a.tfail) ? 1 : 0);
}
