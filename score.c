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
	    "             [-S size] [-T dir] [--progress] [file]\n");
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

/* The options that decide the checks. */
static struct {
	long long k, thresh;
	kn_ldiv ld;
	int hasl, hasv, skey;
	kn_i128 vm;
	int vs;
	const char *mark;
	size_t nq;
} o;

/* The running totals, and the class being read: the frequency set
 * arrives in order of (QI labels..., S label), so a class is a run of
 * rows with the same QI labels. */
static struct {
	uint64_t rows, supp, kept, nclass, minsz, maxsz, below, ldmin;
	unsigned __int128 cdm;
	long double lemin, varmin;
	int kfail, lfail, vfail, first;
	/* the current class */
	int have;
	char *key;		/* its QI labels, tab-joined */
	size_t keylen, keycap;
	int supp_cls;
	uint64_t n;
	uint64_t *vals;		/* its sensitive counts */
	size_t nval, valcap;
	kn_i128 s, ss;		/* sums of S: s/10^sc, ss/10^ssc */
	int sc, ssc;
} a = { .first = 1 };

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

/* Scores the class just read. */
static void
end_class(void)
{
	uint64_t n = a.n;

	if (!a.have)
		return;
	a.have = 0;
	if (__builtin_add_overflow(a.rows, n, &a.rows))
		kn_die("the row count overflows 64 bits");
	if (a.supp_cls) {
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
	if (o.k > 0 && n < (uint64_t)o.k)
		a.kfail = 1;
	if (o.skey) {
		uint64_t *v = a.vals;
		size_t m = a.nval;
		long double he;

		kn_counts_desc(v, m);
		he = v[0] == v[m - 1] ? (long double)m :
		    expl(kn_entropy(v, m, n));
		if (a.first || m < a.ldmin)
			a.ldmin = m;
		if (a.first || he < a.lemin)
			a.lemin = he;
		if (!kn_ldiv_ok(&o.ld, v, m, n))
			a.lfail = 1;
	}
	if (o.hasv) {
		kn_sum sm;
		long double var;
		int F = a.sc > (a.ssc + 1) / 2 ? a.sc : (a.ssc + 1) / 2;

		/* Bring s to scale F and ss to 2F. */
		sm.s = a.s;
		sm.ss = a.ss;
		if (__builtin_mul_overflow(sm.s, kn_pow10(F - a.sc), &sm.s) ||
		    __builtin_mul_overflow(sm.ss, kn_pow10(2 * F - a.ssc),
		    &sm.ss))
			kn_die("sum overflow");
		if (!kn_variance_ok(n, &sm, F, o.vm, o.vs, &var))
			a.vfail = 1;
		if (a.first || var < a.varmin)
			a.varmin = var;
	}
	a.first = 0;
}

/* A group of the frequency set of (QI..., S). */
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
		a.nval = 0;
		a.s = a.ss = 0;
		a.sc = a.ssc = 0;
	}
	if (__builtin_add_overflow(a.n, r->cnt, &a.n))
		kn_die("a class size overflows 64 bits");
	if (o.skey && r->cnt > 0) {
		if (a.nval == a.valcap) {
			a.valcap = a.valcap ? 2 * a.valcap : 64;
			a.vals = kn_realloc(a.vals, a.valcap * sizeof(uint64_t));
		}
		a.vals[a.nval++] = r->cnt;
	}
	if (o.hasv) {
		kn_dec_add(&a.s, &a.sc, r->s[0], r->sc[0]);
		kn_dec_add(&a.ss, &a.ssc, r->ss[0], r->ssc[0]);
	}
}

int
main(int argc, char *argv[])
{
	kn_table t;
	kn_dict *dict;
	kn_countspec cs;
	const char *qlist = NULL, *scol = NULL, *outpath = NULL;
	const char *vstr = NULL, *tmpdir = NULL;
	char *columns = NULL, cdmbuf[48];
	size_t *qi, *key, nq, d, c, sidx = 0, cntcol = 0, sumcol = 0, scl;
	size_t budget = 0;
	int ch, check = 0, freq = 0, progress = 0;

	kn_init(argv[0]);
	kn_ldiv_init(&o.ld);
	o.mark = "*";
	while ((ch = getopt_long(argc, argv, "S:T:c:hk:l:o:q:s:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'S':
			budget = kn_parse_size(optarg, "-S");
			break;
		case 'T':
			tmpdir = optarg;
			break;
		case 'c':
			kn_ldiv_opt(&o.ld, 'c', optarg);
			break;
		case 'h':
			usage(0);
		case 'k':
			o.k = kn_parse_int(optarg, 1, INT64_MAX, "-k");
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
			kn_ldiv_opt(&o.ld, 'd', optarg);
			break;
		case OPT_FREQSET:
			freq = 1;
			break;
		case OPT_PROGRESS:
			progress = 1;
			break;
		case OPT_SUPP:
			o.mark = optarg;
			break;
		case OPT_THRESH:
			o.thresh = kn_parse_int(optarg, 1, INT64_MAX,
			    "--threshold");
			break;
		case OPT_VAR:
			vstr = optarg;
			if (!kn_dec_parse(optarg, strlen(optarg), &o.vm, &o.vs) ||
			    o.vm < 0)
				kn_die("--variance: '%s' is not a number >= 0",
				    optarg);
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
	o.hasl = o.ld.on;
	o.hasv = vstr != NULL;
	if (argc > 1)
		kn_die("one table at a time (got %d files)", argc);
	if ((o.hasl || o.hasv) && scol == NULL)
		kn_die("-l and --variance need the sensitive column (-s)");
	kn_ldiv_check(&o.ld, scol != NULL);
	if (check && o.k == 0 && !o.hasl && !o.hasv)
		kn_die("--check: nothing to check (give -k, -l or "
		    "--variance)");
	if (o.thresh == 0)
		o.thresh = o.k > 0 ? o.k : 2;
	if (budget == 0)
		budget = kn_default_budget();
	tmpdir = kn_tmpdir(tmpdir);

	kn_table_open(&t, argv, (size_t)argc, columns);
	/* Open the output first: a bad path fails before the work. */
	out = kn_open_out(outpath);
	/* S is a key (for the l-diversity figures) unless it is only
	 * summed for variance diversity. */
	o.skey = scol != NULL && (o.hasl || !o.hasv);
	if (scol != NULL && (o.skey || !freq))
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
			if (scol == NULL || (!o.skey && freq) || c != sidx)
				qi[nq++] = c;
	}
	for (c = 0; c < nq; c++) {
		if (scol != NULL && (o.skey || !freq) && qi[c] == sidx)
			kn_die("-s %s is also a quasi-identifier", scol);
		if (freq && qi[c] >= cntcol)
			kn_die("-q: '%s' is not a key column of the frequency "
			    "set", t.names[qi[c]]);
	}
	if (o.hasv && freq) {
		char name[512];
		const char *base = o.skey ? t.names[sidx] : scol;

		snprintf(name, sizeof(name), "%s_sum", base);
		sumcol = kn_table_col(&t, name);
		snprintf(name, sizeof(name), "%s_sumsq", base);
		if (sumcol + 1 >= t.ncols ||
		    strcmp(t.names[sumcol + 1], name) != 0)
			kn_die("%s: no %s column after %s_sum", t.r.name, name,
			    base);
	}
	if (o.skey && freq && sidx >= cntcol)
		kn_die("-s: '%s' must be a key column of the frequency set",
		    t.names[sidx]);
	o.nq = nq;

	/* The frequency set of (QI..., S if a key), S summed for variance
	 * diversity, arrives in order; classes are runs of equal QIs. */
	d = nq + (size_t)o.skey;
	dict = kn_alloc((d + 1) * sizeof(kn_dict));
	key = kn_alloc((d + 1) * sizeof(size_t));
	for (c = 0; c < d; c++) {
		kn_dict_init(&dict[c]);
		key[c] = c < nq ? qi[c] : sidx;
	}
	scl = freq ? sumcol : sidx;
	memset(&cs, 0, sizeof(cs));
	cs.d = d;
	cs.key = key;
	cs.dict = dict;
	cs.hascount = freq;
	cs.cntcol = cntcol;
	cs.nsum = o.hasv;
	cs.sumcol = &scl;
	cs.pairs = freq;
	kn_freq(&t, &cs, NULL, budget, tmpdir, add_row, NULL, NULL);
	end_class();
	a.cdm += (unsigned __int128)a.supp * a.rows;

	put("rows", "%llu", (unsigned long long)a.rows);
	put("suppressed", "%llu", (unsigned long long)a.supp);
	put("classes", "%llu", (unsigned long long)a.nclass);
	put("class_size_min", "%llu", (unsigned long long)a.minsz);
	put("class_size_max", "%llu", (unsigned long long)a.maxsz);
	put("class_size_mean", "%.10Lg", a.nclass ?
	    (long double)a.kept / a.nclass : 0.0L);
	kn_dec_format((kn_i128)a.cdm, 0, cdmbuf);
	put("cdm", "%s", cdmbuf);
	if (o.k > 0)
		put("cavg", "%.10Lg", a.nclass ?
		    (long double)a.kept / a.nclass / o.k : 0.0L);
	put("risk_max", "%.10Lg", a.minsz ? 1.0L / a.minsz : 0.0L);
	put("risk_mean", "%.10Lg", a.kept ?
	    (long double)a.nclass / a.kept : 0.0L);
	put("threshold", "%lld", o.thresh);
	put("rows_below_threshold", "%llu", (unsigned long long)a.below);
	put("share_below_threshold", "%.10Lg", a.kept ?
	    (long double)a.below / a.kept : 0.0L);
	if (o.skey) {
		put("l_distinct_min", "%llu", (unsigned long long)a.ldmin);
		put("l_entropy_min", "%.10Lg", a.lemin);
	}
	if (o.hasv)
		put("variance_min", "%.10Lg", a.varmin);
	if (o.k > 0)
		put("check_k", "%s", a.kfail ? "fail" : "pass");
	if (o.hasl)
		put(o.ld.kind == KN_DIV_DISTINCT ? "check_l_distinct" :
		    o.ld.kind == KN_DIV_ENTROPY ? "check_l_entropy" :
		    "check_l_recursive", "%s", a.lfail ? "fail" : "pass");
	if (o.hasv)
		put("check_variance", "%s", a.vfail ? "fail" : "pass");
	kn_close_out(out);
	kn_exit(check && (a.kfail || a.lfail || a.vfail) ? 1 : 0);
}
