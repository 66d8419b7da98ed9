/*
 * parse.c: fuzz target of the option and node parsers: kn_parse_int,
 * kn_parse_size, kn_parse_double, kn_dec_parse and kn_dec_format (a round
 * trip, against a model of the canonical form), kn_dec_add, kn_ldiv_opt
 * and kn_ldiv_ok (against exact and floating models, and kn_ldiv_ok_any
 * on the counts in another order), kn_limit_parse,
 * kn_table_cols, kn_sort_keys, and recode's node (-n attr=level,... or a
 * node file, then checked against a table) and regions file (-r).
 *
 * recode's parsers are static: recode.c is compiled in, its main renamed.
 *
 * Input: a mode byte, a byte of options for the mode, then the text.
 */
#define main recode_main
#include "../recode.c"
#include "../regions.c"
#include "../rstats.c"
#include "../keyset.c"
#include "../rowpar.c"
#undef main

#include <limits.h>
#include <math.h>
#include <stdint.h>

#include "../extsort.h"
#include "harness.h"

enum {
	M_INT, M_SIZE, M_DOUBLE, M_DEC, M_LDIV, M_LIMIT, M_NODE, M_NODEFILE,
	M_REGIONS, M_COLS, M_KEYS, M_NMODE
};

struct pjob {
	int mode, opt;
	char *s;		/* the text, NUL-terminated */
	size_t n;		/* its length (to the first NUL) */
};

/* A table with the columns the node and region parsers look up. */
static kn_table tab;
static const char *sexpath;

static void
setup(void)
{
	static const char hdr[] = "age\tsex\tzip\trace\tclass\t1\tcount\n";
	static const char sex[] = "M\t*\nF\t*\n";
	char *paths[1];

	if (sexpath != NULL)
		return;
	fz_init("fuzz-parse");
	paths[0] = (char *)fz_file(0, "t.tsv", hdr, sizeof(hdr) - 1);
	kn_table_open(&tab, paths, 1, NULL);
	sexpath = strdup(fz_file(1, "sex.tsv", sex, sizeof(sex) - 1));
}

/* ---- numbers -------------------------------------------------------- */

static void
p_int(struct pjob *j)
{
	static const long long lim[][2] = {
		{ LLONG_MIN, LLONG_MAX }, { 1, INT64_MAX }, { 0, 100 },
		{ 1, 64 }, { -5, 5 }, { 2, 2 }
	};
	const long long *l = lim[j->opt % 6];
	long long v = kn_parse_int(j->s, l[0], l[1], "-k");

	FZ_ASSERT(v >= l[0] && v <= l[1], "int in range");
}

/* The size model: digits, an optional b/K/M/G/T suffix (default K) and
 * an optional B after it; 0 if it is not a size, is 0 (a budget of
 * nothing, refused) or overflows. */
static int
size_model(const char *s, unsigned long long *v)
{
	unsigned long long x = 0, mul = 1024;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(x, 10, &x) ||
		    __builtin_add_overflow(x, (unsigned)(*p - '0'), &x))
			return 0;
	if (*p != '\0') {
		switch (*p) {
		case 'b': mul = 1; break;
		case 'k': case 'K': mul = 1ULL << 10; break;
		case 'm': case 'M': mul = 1ULL << 20; break;
		case 'g': case 'G': mul = 1ULL << 30; break;
		case 't': case 'T': mul = 1ULL << 40; break;
		default: return 0;
		}
		p++;
		if (*p == 'B')
			p++;
		if (*p != '\0')
			return 0;
	}
	if (__builtin_mul_overflow(x, mul, &x) || x > SIZE_MAX || x == 0)
		return 0;
	*v = x;
	return 1;
}

static void
p_size(struct pjob *j)
{
	unsigned long long want = 0;
	int ok = size_model(j->s, &want);
	size_t v;

	j->opt = ok;		/* an error is expected unless ok */
	v = kn_parse_size(j->s, "-S");
	FZ_ASSERT(ok && v == want, "size as the model reads it");
}

static void
p_double(struct pjob *j)
{
	static const double lim[][2] = {
		{ 1, 1e9 }, { 0, 1 }, { -1e300, 1e300 }, { 0, 0 }
	};
	const double *l = lim[j->opt % 4];
	double v = kn_parse_double(j->s, l[0], l[1], "-l");

	FZ_ASSERT(isfinite(v) && v >= l[0] && v <= l[1], "double in range");
}

/* The canonical decimal of s as the model makes it, or 0 if s is not a
 * decimal kn_dec_parse takes (at most 36 significant digits and 36
 * decimals). */
static int
dec_model(const char *s, size_t n, char *out)
{
	const char *p = s, *end = s + n, *ip, *fp = NULL;
	size_t ni = 0, nfr = 0, i, k = 0, sig = 0;
	int neg = 0, nonzero = 0, seen = 0;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	ip = p;
	for (; p < end && *p >= '0' && *p <= '9'; p++)
		ni++;
	if (p < end && *p == '.') {
		fp = ++p;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			nfr++;
	}
	if (p != end || ni + nfr == 0)
		return 0;
	/* Significant digits: from the first nonzero one on. */
	for (i = 0; i < ni + nfr; i++) {
		char c = i < ni ? ip[i] : fp[i - ni];

		if (c != '0')
			seen = 1;
		if (seen)
			sig++;
	}
	if (sig > 36)
		return 0;
	while (ni > 0 && *ip == '0') {
		ip++;
		ni--;
	}
	while (nfr > 0 && fp[nfr - 1] == '0')
		nfr--;
	if (nfr > 36)
		return 0;
	nonzero = ni + nfr > 0;
	if (neg && nonzero)
		out[k++] = '-';
	if (ni == 0)
		out[k++] = '0';
	memcpy(out + k, ip, ni);
	k += ni;
	if (nfr > 0) {
		out[k++] = '.';
		memcpy(out + k, fp, nfr);
		k += nfr;
	}
	out[k] = '\0';
	return 1;
}

static void
p_dec(struct pjob *j)
{
	char *model = malloc(j->n + 8), buf[64], buf2[64];
	const char *p = j->s, *e;
	kn_i128 m, m2, sum = 0;
	int sc, sc2, ssc = 0, ok;
	size_t len, fl;

	/* Each line a number; the last ones summed. */
	while (*p != '\0') {
		e = strchr(p, '\n');
		len = e ? (size_t)(e - p) : strlen(p);
		ok = kn_dec_parse(p, len, &m, &sc);
		FZ_ASSERT(ok == dec_model(p, len, model),
		    "dec_parse takes what the model takes");
		if (ok) {
			FZ_ASSERT(sc >= 0 && sc <= 36, "scale in range");
			fl = kn_dec_format(m, sc, buf);
			FZ_ASSERT(fl < 48 && strlen(buf) == fl,
			    "format length");
			FZ_ASSERT(strcmp(buf, model) == 0,
			    "format gives the canonical form");
			FZ_ASSERT(kn_dec_parse(buf, fl, &m2, &sc2) &&
			    m2 == m && sc2 == sc, "round trip");
			/* A wider scale formats the same. */
			if (sc < 36 && !__builtin_mul_overflow(m, 10, &m2)) {
				kn_dec_format(m2, sc + 1, buf2);
				FZ_ASSERT(strcmp(buf, buf2) == 0,
				    "trailing zeros dropped");
			}
			j->opt = 1;	/* an overflow may end it */
			kn_dec_add(&sum, &ssc, m, sc);
			j->opt = 0;
			FZ_ASSERT(ssc >= sc, "sum scale");
		}
		p = e ? e + 1 : p + len;
	}
	free(model);
}

/* ---- l-diversity and limits ---------------------------------------- */

/* The counts of a class: bytes of the text after the options. */
static size_t
counts(const char *s, uint64_t *v, uint64_t *n)
{
	size_t m = 0;

	*n = 0;
	for (; *s != '\0' && m < 64; s++)
		if ((unsigned char)*s % 32 != 0) {
			v[m] = (unsigned char)*s % 32;
			*n += v[m++];
		}
	return m;
}

static void
p_ldiv(struct pjob *j)
{
	kn_ldiv ld;
	char *p = j->s, *e, *rest = NULL;
	uint64_t v[64], w[64], n;
	size_t m, i;
	int r, zero = 0;

	/* Lines "l5", "c0.5", "drecursive"; a line "--" ends them. */
	kn_ldiv_init(&ld);
	while (*p != '\0') {
		e = strchr(p, '\n');
		if (e != NULL)
			*e = '\0';
		if (strcmp(p, "--") == 0) {
			rest = e ? e + 1 : NULL;
			break;
		}
		if (*p != '\0')
			kn_ldiv_opt(&ld, *p == 'l' || *p == 'c' ? *p : 'd',
			    p + 1);
		if (e == NULL)
			break;
		p = e + 1;
	}
	kn_ldiv_check(&ld, j->opt & 1);
	if (!ld.on || rest == NULL)
		return;
	m = counts(rest, v, &n);
	if (m == 0)
		return;
	kn_counts_desc(v, m);
	for (i = 1; i < m; i++)
		FZ_ASSERT(v[i - 1] >= v[i], "counts descending");
	r = kn_ldiv_ok(&ld, v, m, n);
	/* The counts in another order, none zero, with the table of c ln c
	 * whole, of a few counts or none: kn_ldiv_ok_any agrees. */
	for (i = 0; i < m; i++) {
		w[i] = v[(i + j->opt) % m];
		zero |= w[i] == 0;
	}
	if (!zero) {
		kn_ldiv_table(&ld, n, j->opt % 3 == 0 ? SIZE_MAX :
		    (size_t)(j->opt % 40) * sizeof(kn_i128));
		FZ_ASSERT(kn_ldiv_ok_any(&ld, w, m, n) == r,
		    "kn_ldiv_ok_any agrees with kn_ldiv_ok");
		free(ld.x62);
	}
	switch (ld.kind) {
	case KN_DIV_DISTINCT:
		FZ_ASSERT(r == ((double)m >= ld.l), "distinct l-diversity");
		break;
	case KN_DIV_ENTROPY: {
		long double h = 0, d;

		for (i = 0; i < m; i++)
			h -= (long double)v[i] / n * logl((long double)v[i] / n);
		d = h - logl(ld.l);
		if (fabsl(d) > 1e-9L)
			FZ_ASSERT(r == (d > 0), "entropy l-diversity");
		break;
	}
	case KN_DIV_RECURSIVE: {
		/* r1 < c (r_l + ... + r_m), c = cm / 10^cs, exactly. */
		unsigned __int128 tail = 0, lhs, rhs;
		size_t l = (size_t)ld.l;

		if (l <= 1) {
			FZ_ASSERT(r, "(c,1)-diversity always holds");
			break;
		}
		if (m < l) {
			FZ_ASSERT(!r, "recursive: fewer than l values");
			break;
		}
		for (i = l - 1; i < m; i++)
			tail += v[i];
		if (ld.cs > 30 || ld.cm > ((kn_i128)1 << 90))
			break;
		lhs = (unsigned __int128)v[0] * (unsigned __int128)kn_pow10(ld.cs);
		rhs = (unsigned __int128)ld.cm * tail;
		FZ_ASSERT(r == (lhs < rhs), "recursive (c,l)-diversity");
		break;
	}
	}
}

static void
p_limit(struct pjob *j)
{
	kn_limit l;
	uint64_t rows = (uint64_t)j->opt * 7919u, got;

	kn_limit_parse(&l, j->s, "--max-suppress");
	got = kn_limit_rows(&l, rows);
	if (!l.pct) {
		FZ_ASSERT(got == l.n, "a number is the limit");
		return;
	}
	FZ_ASSERT(l.pm >= 0 && l.pm <= 100 * kn_pow10(l.ps),
	    "a percentage from 0 to 100");
	if (l.ps <= 20) {
		/* floor(pm / 10^ps / 100 * rows) */
		unsigned __int128 num = (unsigned __int128)l.pm * rows;
		unsigned __int128 den = (unsigned __int128)kn_pow10(l.ps) * 100;

		FZ_ASSERT(got == (uint64_t)(num / den), "percent of the rows");
	}
}

/* ---- columns and keys ----------------------------------------------- */

static void
p_cols(struct pjob *j)
{
	size_t *idx, n, i, k;

	n = kn_table_cols(&tab, j->s, &idx);
	for (i = 0; i < n; i++) {
		FZ_ASSERT(idx[i] < tab.ncols, "column in range");
		for (k = 0; k < i; k++)
			FZ_ASSERT(idx[k] != idx[i], "no column twice");
	}
	free(idx);
}

static void
p_keys(struct pjob *j)
{
	kn_skey *key;
	size_t n, i;

	n = kn_sort_keys(&tab, j->s, &key);
	FZ_ASSERT(n >= 1, "a key at least");
	for (i = 0; i < n; i++)
		FZ_ASSERT(key[i].col < tab.ncols, "key column in range");
	free(key);
}

/* ---- recode's node and regions ------------------------------------- */

/* Resolves node nd against the table, with the -H options opt picks. */
static void
resolve(struct node *nd, int opt)
{
	struct recoding rc;
	kn_hopts ho = { 0, NULL };
	char *sexh = malloc(strlen(sexpath) + 8);
	size_t i;

	sprintf(sexh, "sex=%s", sexpath);
	if (opt & 1)
		kn_hopts_add(&ho, "age=interval:5,10,20");
	if (opt & 2)
		kn_hopts_add(&ho, sexh);
	if (opt & 4)
		kn_hopts_add(&ho, "zip=mask:1,3");
	if (opt & 8)
		kn_hopts_add(&ho, "1=interval:0.5");
	memset(&rc, 0, sizeof(rc));
	node_resolve(&rc, nd, &tab, &ho);
	FZ_ASSERT(rc.nq == nd->n, "a column per attribute");
	for (i = 0; i < nd->n; i++) {
		FZ_ASSERT(rc.qcol[i] < tab.ncols, "attribute column in range");
		FZ_ASSERT(nd->lv[i] >= 0 && nd->lv[i] < nd->h[i]->nlevels,
		    "level in range");
		kn_hier_free(nd->h[i]);
	}
	for (i = 0; i < ho.n; i++)
		free(ho.arg[i]);
	free(ho.arg);
	free(rc.qcol);
	free(sexh);
}

static void
node_free(struct node *nd, int fromfile)
{
	if (fromfile) {
		free(nd->a[0].name);	/* the header copy */
		free(nd->a[0].level);	/* the row copy */
	} else if (nd->n > 0)
		free(nd->a[0].name);	/* the list copy (strtok_r) */
	free(nd->a);
	free(nd->h);
	free(nd->lv);
	free(nd->where);
	free(nd);
}

static void
p_node(struct pjob *j)
{
	struct node *nd = node_read(j->s);
	size_t i;

	FZ_ASSERT(nd->n >= 1, "an attribute at least");
	for (i = 0; i < nd->n; i++) {
		FZ_ASSERT(*nd->a[i].name != '\0', "a named attribute");
		FZ_ASSERT(strchr(nd->a[i].name, ',') == NULL,
		    "no comma in a name");
	}
	resolve(nd, j->opt);
	node_free(nd, 0);
}

static void
p_nodefile(struct pjob *j)
{
	const char *path = fz_file(2, "node.tsv", j->s, j->n);
	struct node *nd = node_read(path);

	FZ_ASSERT(nd->n >= 1, "an attribute at least");
	resolve(nd, j->opt);
	node_free(nd, 1);
}

static void
p_regions(struct pjob *j)
{
	struct recoding rc;
	struct regions rg;
	kn_hopts ho = { 0, NULL };
	size_t i, k;

	memset(&rc, 0, sizeof(rc));
	memset(&rg, 0, sizeof(rg));
	rg.path = fz_file(2, "regions.tsv", j->s, j->n);
	/* As recode gives them: a budget, and where its keys spill. */
	rg.budget = (size_t)1 << 20;
	rg.tmpdir = fz_tmpdir();
	rg.jobs = 1;
	rc.priv = &rg;
	regions_read(&rc, &rg, &tab, j->opt % 3,
	    (j->opt & 4) ? "class" : "5", &ho);
	FZ_ASSERT(rg.nqi >= 1 && rc.nq == rg.nqi + 1, "QIs and the class");
	for (i = 0; i < rg.n; i++)
		for (k = 0; k < rg.nl; k++)
			FZ_ASSERT(rg.lab[i * rg.nl + k].p != NULL,
			    "every label set");
}

static void
run(void *arg)
{
	struct pjob *j = arg;

	switch (j->mode) {
	case M_INT: p_int(j); break;
	case M_SIZE: p_size(j); break;
	case M_DOUBLE: p_double(j); break;
	case M_DEC: p_dec(j); break;
	case M_LDIV: p_ldiv(j); break;
	case M_LIMIT: p_limit(j); break;
	case M_NODE: p_node(j); break;
	case M_NODEFILE: p_nodefile(j); break;
	case M_REGIONS: p_regions(j); break;
	case M_COLS: p_cols(j); break;
	case M_KEYS: p_keys(j); break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pjob j;
	struct stat st;
	int s;

	setup();
	if (size < 2)
		return 0;
	j.mode = data[0] % M_NMODE;
	j.opt = data[1];
	j.s = fz_str(data + 2, size - 2);
	j.n = strlen(j.s);
	/* -n names a file if one exists: not the fuzzer's files. */
	if (j.mode == M_NODE && stat(j.s, &st) == 0) {
		free(j.s);
		return 0;
	}
	s = fz_run_all(run, &j);
	FZ_ASSERT(s == -1 || s == 2, "an error exits 2");
	if (j.mode == M_SIZE)
		FZ_ASSERT((s == -1) == (j.opt == 1),
		    "a size is refused only when the model refuses it");
	if (j.mode == M_DEC)
		FZ_ASSERT(s == -1 || j.opt == 1,
		    "only a sum overflow ends the decimals");
	free(j.s);
	return 0;
}
