/*
 * score: metrics and privacy checks of a released table, as
 * name<TAB>value lines.  Works on any table (or a frequency set of one):
 * the equivalence classes are the distinct tuples of the quasi-identifier
 * columns, whatever tool generalized them.
 *
 * Metrics: C_DM, the discernibility metric (Bayardo and Agrawal; paper
 * 003 §1.2), with suppressed rows charged |T| each; C_AVG (paper 003
 * §1.2); prosecutor re-identification risk.  Checks: k-anonymity (003
 * §1.1), distinct, entropy and recursive (c,l)-diversity and variance
 * diversity (paper 004 §1.1).
 */
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kanon.h"

static void __attribute__((noreturn))
usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: score [--check] [-k k] [-s column [-l l [--diversity "
	    "distinct|entropy|recursive]\n"
	    "             [-c c]] [--variance v]] [-o file] [-q columns] "
	    "[--threshold n]\n"
	    "             [--suppressed mark] [--freqset] [--columns list | "
	    "--columns-file file]\n"
	    "             [--progress] [file]\n");
	exit(status);
}

enum { OPT_CHECK = 256, OPT_DIV, OPT_VAR, OPT_THRESH, OPT_SUPP,
    OPT_FREQSET, OPT_COLUMNS, OPT_COLFILE, OPT_VERSION, OPT_PROGRESS };

static const struct option longopts[] = {
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "columns", required_argument, NULL, OPT_COLUMNS },
	{ "columns-file", required_argument, NULL, OPT_COLFILE },
	{ "diversity", required_argument, NULL, OPT_DIV },
	{ "freqset", no_argument, NULL, OPT_FREQSET },
	{ "help", no_argument, NULL, 'h' },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "suppressed", required_argument, NULL, OPT_SUPP },
	{ "threshold", required_argument, NULL, OPT_THRESH },
	{ "variance", required_argument, NULL, OPT_VAR },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

enum { DIV_DISTINCT, DIV_ENTROPY, DIV_RECURSIVE };

/* Per class statistics. */
struct cls {
	uint64_t n;		/* rows */
	uint64_t distinct;	/* distinct sensitive values */
	uint32_t first, nval;	/* its sensitive counts in vals[] */
};

static FILE *out;

static void
put(const char *name, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
put(const char *name, const char *fmt, ...)
{
	va_list ap;

	fputs(name, out);
	fputc('\t', out);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}

static int
cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Entropy (nats) of the counts v[0..m) summing to n. */
static long double
entropy(const uint64_t *v, size_t m, uint64_t n)
{
	long double h = 0, p;
	size_t i;

	for (i = 0; i < m; i++) {
		p = (long double)v[i] / (long double)n;
		h -= p * logl(p);
	}
	return h;
}

/* Whether counts v (descending) pass entropy l-diversity: H >= log l.
 * Equal counts give H = log m exactly, decided without rounding. */
static int
entropy_ok(const uint64_t *v, size_t m, uint64_t n, double l)
{
	if (m == 0)
		return 0;
	if (v[0] == v[m - 1])
		return (double)m >= l;
	return entropy(v, m, n) >= logl((long double)l);
}

/* Recursive (c,l)-diversity: r1 < c (r_l + ... + r_m); c = cm/10^cs. */
static int
recursive_ok(const uint64_t *v, size_t m, long l, kn_i128 cm, int cs)
{
	kn_i128 tail = 0, lhs, rhs;
	size_t i;

	if (l <= 1)
		return 1;
	if (m < (size_t)l)
		return 0;
	for (i = (size_t)l - 1; i < m; i++)
		tail += v[i];
	if (__builtin_mul_overflow((kn_i128)v[0], kn_pow10(cs), &lhs) ||
	    __builtin_mul_overflow(cm, tail, &rhs))
		return (long double)v[0] < (long double)cm /
		    powl(10, cs) * (long double)tail;
	return lhs < rhs;
}

/* Var(E,S) >= v for a class of n rows with sums s (scale F) and ss
 * (scale 2F); v = vm/10^vs.  Sets *var to the variance. */
static int
variance_ok(uint64_t n, const kn_sum *sm, int F, kn_i128 vm, int vs,
    long double *var)
{
	kn_i128 num, a, b, lhs, rhs, n2;

	*var = 0;
	if (n == 0)
		return 1;
	if (__builtin_mul_overflow((kn_i128)n, sm->ss, &a) ||
	    __builtin_mul_overflow(sm->s, sm->s, &b) ||
	    __builtin_sub_overflow(a, b, &num)) {
		long double mean = (long double)sm->s / powl(10, F) / n;

		*var = (long double)sm->ss / powl(10, 2 * F) / n - mean * mean;
		return *var >= (long double)vm / powl(10, vs);
	}
	*var = (long double)num / powl(10, 2 * F) / ((long double)n * n);
	n2 = (kn_i128)n * (kn_i128)n;
	if (__builtin_mul_overflow(num, kn_pow10(vs), &lhs) ||
	    __builtin_mul_overflow(vm, n2, &rhs) ||
	    __builtin_mul_overflow(rhs, kn_pow10(2 * F), &rhs))
		return *var >= (long double)vm / powl(10, vs);
	return lhs >= rhs;
}

int
main(int argc, char *argv[])
{
	kn_table t;
	kn_fset fs, cl;
	kn_dict *dict;
	const char *qlist = NULL, *scol = NULL, *outpath = NULL, *mark = "*";
	const char *lstr = NULL, *cstr = "1", *vstr = NULL;
	char *columns = NULL;
	size_t *qi, nq, d, c, i, sidx = 0, cntcol = 0, sumcol = 0;
	uint32_t *ecls;
	int ch, check = 0, div = DIV_DISTINCT, freq = 0, failed = 0;
	int hasdiv = 0, cs = 0, vs = 0, F = 0, skey;
	long long kk = 0, thresh = 0;
	double l = 0;
	kn_i128 cm = 1, vm = 0;
	int64_t *markid;
	struct cls *C;
	uint64_t *vals, rows = 0, supp = 0, released, kept = 0, nclass = 0;
	uint64_t minsz = 0, maxsz = 0, below = 0, ldmin = 0;
	long double lemin = 0, varmin = 0;
	unsigned __int128 cdm = 0;
	char cdmbuf[48];
	int kfail = 0, lfail = 0, vfail = 0, first = 1;

	int progress = 0;

	kn_init(argv[0]);
	while ((ch = getopt_long(argc, argv, "c:hk:l:o:q:s:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c':
			cstr = optarg;
			if (!kn_dec_parse(optarg, strlen(optarg), &cm, &cs) ||
			    cm <= 0)
				kn_die("-c: '%s' is not a positive number",
				    optarg);
			break;
		case 'h':
			usage(0);
		case 'k':
			kk = kn_parse_int(optarg, 1, INT64_MAX, "-k");
			break;
		case 'l':
			lstr = optarg;
			l = kn_parse_double(optarg, 1, 1e9, "-l");
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'q':
			qlist = optarg;
			break;
		case 's':
			scol = optarg;
			break;
		case OPT_CHECK:
			check = 1;
			break;
		case OPT_COLFILE:
			columns = kn_columns_file(optarg);
			break;
		case OPT_COLUMNS:
			columns = optarg;
			break;
		case OPT_DIV:
			hasdiv = 1;
			if (strcmp(optarg, "distinct") == 0)
				div = DIV_DISTINCT;
			else if (strcmp(optarg, "entropy") == 0)
				div = DIV_ENTROPY;
			else if (strcmp(optarg, "recursive") == 0)
				div = DIV_RECURSIVE;
			else
				kn_die("--diversity: '%s' is not distinct, "
				    "entropy or recursive", optarg);
			break;
		case OPT_FREQSET:
			freq = 1;
			break;
		case OPT_SUPP:
			mark = optarg;
			break;
		case OPT_THRESH:
			thresh = kn_parse_int(optarg, 1, INT64_MAX,
			    "--threshold");
			break;
		case OPT_VAR:
			vstr = optarg;
			if (!kn_dec_parse(optarg, strlen(optarg), &vm, &vs) ||
			    vm < 0)
				kn_die("--variance: '%s' is not a number >= 0",
				    optarg);
			break;
		case OPT_PROGRESS:
			progress = 1;
			break;
		case OPT_VERSION:
			kn_version();
		default:
			usage(2);
		}
	}
	argc -= optind;
	argv += optind;
	kn_progress_init(progress);
	if (argc > 1)
		kn_die("one table at a time (got %d files)", argc);
	if ((lstr != NULL || vstr != NULL) && scol == NULL)
		kn_die("-l and --variance need the sensitive column (-s)");
	if ((hasdiv || strcmp(cstr, "1") != 0) && lstr == NULL)
		kn_die("--diversity and -c apply to -l");
	if (cm != 1 && div != DIV_RECURSIVE)
		kn_die("-c applies to --diversity recursive");
	if (div != DIV_ENTROPY && lstr != NULL && l != floor(l))
		kn_die("-l: '%s': distinct and recursive diversity need an "
		    "integer", lstr);
	if (check && kk == 0 && lstr == NULL && vstr == NULL)
		kn_die("--check: nothing to check (give -k, -l or "
		    "--variance)");
	if (thresh == 0)
		thresh = kk > 0 ? kk : 2;

	kn_table_open(&t, argv, (size_t)argc, columns);
	/* Open the output first: a bad path fails before the work. */
	out = kn_open_out(outpath);
	/* S is a key (for the l-diversity figures) unless it is only
	 * summed for variance diversity. */
	skey = scol != NULL && (lstr != NULL || vstr == NULL);
	if (scol != NULL && (skey || !freq))
		sidx = kn_table_col(&t, scol);
	if (freq)
		cntcol = kn_table_countcol(&t, "--freqset");
	if (qlist != NULL)
		nq = kn_table_cols(&t, qlist, &qi);
	else {
		/* Every column but the sensitive one (and the count and
		 * sums of a frequency set). */
		size_t lim = freq ? cntcol : t.ncols;

		qi = kn_alloc((t.ncols + 1) * sizeof(size_t));
		for (nq = 0, c = 0; c < lim; c++)
			if (scol == NULL || (!skey && freq) || c != sidx)
				qi[nq++] = c;
	}
	for (c = 0; c < nq; c++) {
		if (scol != NULL && (skey || !freq) && qi[c] == sidx)
			kn_die("-s %s is also a quasi-identifier", scol);
		if (freq && qi[c] >= cntcol)
			kn_die("-q: '%s' is not a key column of the frequency "
			    "set", t.names[qi[c]]);
	}
	if (vstr != NULL && freq) {
		char name[512];

		const char *base = skey ? t.names[sidx] : scol;

		snprintf(name, sizeof(name), "%s_sum", base);
		sumcol = kn_table_col(&t, name);
		snprintf(name, sizeof(name), "%s_sumsq", base);
		if (sumcol + 1 >= t.ncols ||
		    strcmp(t.names[sumcol + 1], name) != 0)
			kn_die("%s: no %s column after %s_sum", t.r.name, name,
			    base);
	}
	if (skey && freq && sidx >= cntcol)
		kn_die("-s: '%s' must be a key column of the frequency set",
		    t.names[sidx]);

	/* Frequency set of (QI..., S if l-diversity), with S summed for
	 * variance diversity. */
	d = nq + skey;
	dict = kn_alloc((d + 1) * sizeof(kn_dict));
	for (c = 0; c < d; c++)
		kn_dict_init(&dict[c]);
	{
		kn_countspec cs;
		size_t *key = kn_alloc((d + 1) * sizeof(size_t));
		size_t scl = freq ? sumcol : sidx;

		for (c = 0; c < nq; c++)
			key[c] = qi[c];
		if (d > nq)
			key[nq] = sidx;
		memset(&cs, 0, sizeof(cs));
		cs.d = d;
		cs.key = key;
		cs.dict = dict;
		cs.hascount = freq;
		cs.cntcol = cntcol;
		cs.nsum = vstr != NULL;
		cs.sumcol = &scl;
		cs.pairs = freq;
		kn_count(&t, &cs, &fs);
		free(key);
	}

	/* Classes: the roll-up onto the quasi-identifiers (the set itself
	 * when S is not part of the key). */
	ecls = kn_alloc((fs.n + 1) * sizeof(uint32_t));
	if (d == nq) {
		cl = fs;
		for (i = 0; i < fs.n; i++)
			ecls[i] = (uint32_t)i;
	} else {
		size_t *id = kn_alloc((nq + 1) * sizeof(size_t));

		for (c = 0; c < nq; c++)
			id[c] = c;
		kn_fset_rollup(&fs, &cl, id, nq, NULL);
		free(id);
		for (i = 0; i < fs.n; i++)
			ecls[i] = kn_fset_add(&cl, fs.key + i * d, 0);
	}
	F = cl.nsum ? cl.scale[0] : 0;
	C = kn_zalloc((cl.n + 1) * sizeof(struct cls));
	for (i = 0; i < fs.n; i++) {
		C[ecls[i]].n += fs.cnt[i];
		if (fs.cnt[i] > 0) {
			C[ecls[i]].distinct++;
			C[ecls[i]].nval++;
		}
	}
	{
		uint32_t pos = 0;

		for (i = 0; i < cl.n; i++) {
			C[i].first = pos;
			pos += C[i].nval;
			C[i].nval = 0;
		}
		vals = kn_alloc(((size_t)pos + 1) * sizeof(uint64_t));
		for (i = 0; i < fs.n; i++)
			if (fs.cnt[i] > 0) {
				struct cls *x = &C[ecls[i]];

				vals[x->first + x->nval++] = fs.cnt[i];
			}
	}

	/* The suppressed rows: every quasi-identifier is the mark. */
	markid = kn_alloc((nq + 1) * sizeof(int64_t));
	for (c = 0; c < nq; c++)
		markid[c] = kn_dict_find(&dict[c], mark, strlen(mark));

	for (i = 0; i < cl.n; i++) {
		const uint32_t *key = cl.key + i * nq;
		struct cls *x = &C[i];
		int sup = nq > 0 && x->n > 0;

		rows += x->n;
		for (c = 0; c < nq && sup; c++)
			sup = markid[c] >= 0 && key[c] == (uint32_t)markid[c];
		if (sup) {
			supp += x->n;
			continue;
		}
		if (x->n == 0)
			continue;
		nclass++;
		kept += x->n;
		cdm += (unsigned __int128)x->n * x->n;
		if (first || x->n < minsz)
			minsz = x->n;
		if (first || x->n > maxsz)
			maxsz = x->n;
		if (x->n < (uint64_t)thresh)
			below += x->n;
		if (kk > 0 && x->n < (uint64_t)kk)
			kfail = 1;
		if (scol != NULL && d > nq) {
			uint64_t *v = vals + x->first;
			long double he;

			qsort(v, x->nval, sizeof(uint64_t), cmp_desc);
			he = v[0] == v[x->nval - 1] ? (long double)x->nval :
			    expl(entropy(v, x->nval, x->n));
			if (first || x->distinct < ldmin)
				ldmin = x->distinct;
			if (first || he < lemin)
				lemin = he;
			if (lstr != NULL) {
				int ok = div == DIV_DISTINCT ?
				    (double)x->distinct >= l :
				    div == DIV_ENTROPY ?
				    entropy_ok(v, x->nval, x->n, l) :
				    recursive_ok(v, x->nval, (long)l, cm, cs);

				if (!ok)
					lfail = 1;
			}
		}
		if (vstr != NULL) {
			long double var;

			if (!variance_ok(x->n, &cl.sum[i], F, vm, vs, &var))
				vfail = 1;
			if (first || var < varmin)
				varmin = var;
		}
		first = 0;
	}
	released = rows;
	cdm += (unsigned __int128)supp * released;

	put("rows", "%llu", (unsigned long long)rows);
	put("suppressed", "%llu", (unsigned long long)supp);
	put("classes", "%llu", (unsigned long long)nclass);
	put("class_size_min", "%llu", (unsigned long long)minsz);
	put("class_size_max", "%llu", (unsigned long long)maxsz);
	put("class_size_mean", "%.10Lg", nclass ? (long double)kept / nclass :
	    0.0L);
	kn_dec_format((kn_i128)cdm, 0, cdmbuf);
	put("cdm", "%s", cdmbuf);
	if (kk > 0)
		put("cavg", "%.10Lg", nclass ? (long double)kept / nclass / kk :
		    0.0L);
	put("risk_max", "%.10Lg", minsz ? 1.0L / minsz : 0.0L);
	put("risk_mean", "%.10Lg", kept ? (long double)nclass / kept : 0.0L);
	put("threshold", "%lld", thresh);
	put("rows_below_threshold", "%llu", (unsigned long long)below);
	put("share_below_threshold", "%.10Lg", kept ?
	    (long double)below / kept : 0.0L);
	if (scol != NULL && d > nq) {
		put("l_distinct_min", "%llu", (unsigned long long)ldmin);
		put("l_entropy_min", "%.10Lg", lemin);
	}
	if (vstr != NULL)
		put("variance_min", "%.10Lg", varmin);
	if (kk > 0)
		put("check_k", "%s", kfail ? "fail" : "pass");
	if (lstr != NULL)
		put(div == DIV_DISTINCT ? "check_l_distinct" :
		    div == DIV_ENTROPY ? "check_l_entropy" :
		    "check_l_recursive", "%s", lfail ? "fail" : "pass");
	if (vstr != NULL)
		put("check_variance", "%s", vfail ? "fail" : "pass");
	kn_close_out(out);
	failed = kfail || lfail || vfail;
	kn_exit(check && failed ? 1 : 0);
}
