/*
 * gendata: synthetic tables for testing and benchmarking kanon.
 *
 * "uniform" and "skewed" are the discrete uniform and discrete skewed
 * joint distributions of Mondrian (paper 003 §6.1, parameters of
 * Figure 9): the skewed one is a multivariate normal discretized into
 * equal-width ranges.  "agrawal" is the generator of Agrawal et al. as
 * Rothko uses it (paper 004 §5.1, Figure 7), with the class functions
 * C2 and C7 and the numeric targets R7 and R10.
 *
 * Rows are streamed, so memory does not grow with -n.  The random
 * numbers come from our own xoshiro256** seeded through splitmix64,
 * and the normal deviates use only IEEE basic operations and sqrt(),
 * so one --seed gives the same bytes on every machine.
 */

#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kanon.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#define MAXDIM		1000
#define MAXCARD		1000000000LL
#define MAXSD		10.0
#define OUTBUF		(256 * 1024)
#define OPTSTRING	"c:d:hn:o:"

enum { M_UNIFORM, M_SKEWED, M_AGRAWAL, NMODE };
enum { T_C2, T_C7, T_R7, T_R10, NTARGET };
enum { OPT_MEAN = 256, OPT_RHO, OPT_SD, OPT_SEED, OPT_TARGET, OPT_VERSION };

/* The options that belong to some generators only. */
static const struct {
	int opt;
	const char *name;
	unsigned modes;		/* bit per M_ value */
} modeopts[] = {
	{ 'c',		"-c",		1 << M_UNIFORM | 1 << M_SKEWED },
	{ 'd',		"-d",		1 << M_UNIFORM | 1 << M_SKEWED },
	{ OPT_MEAN,	"--mean",	1 << M_SKEWED },
	{ OPT_RHO,	"--rho",	1 << M_SKEWED },
	{ OPT_SD,	"--sd",		1 << M_SKEWED },
	{ OPT_TARGET,	"--target",	1 << M_AGRAWAL },
};
#define NMODEOPT (sizeof(modeopts) / sizeof(modeopts[0]))

static const char *const modenames[] = { "uniform", "skewed", "agrawal" };
static const char *const targetnames[] = { "c2", "c7", "r7", "r10" };

static const struct option longopts[] = {
	{ "help",	no_argument,		NULL,	'h' },
	{ "mean",	required_argument,	NULL,	OPT_MEAN },
	{ "rho",	required_argument,	NULL,	OPT_RHO },
	{ "sd",		required_argument,	NULL,	OPT_SD },
	{ "seed",	required_argument,	NULL,	OPT_SEED },
	{ "target",	required_argument,	NULL,	OPT_TARGET },
	{ "version",	no_argument,		NULL,	OPT_VERSION },
	{ NULL,		0,			NULL,	0 }
};

struct opts {
	const char *out;
	uint64_t rows;
	uint64_t seed;
	long long card;
	long long dim;
	const char *mean;	/* text: its bounds depend on -c */
	double sd;
	double rho;
	const char *target;
	int given[NMODEOPT];
};

typedef struct {
	uint64_t s[4];
	double spare;		/* second deviate of the polar method */
	int havespare;
} rng;

typedef struct {
	FILE *f;
	char *buf, *p, *end;
	size_t maxrow;		/* longest row a generator can write */
} outbuf;

static const char help[] =
    "Synthetic tables: discrete uniform, discrete skewed (normal), and "
    "Agrawal's\n"
    "generator of the Rothko paper.  Options may follow the generator's "
    "name.\n"
    "\n"
    "  -n ROWS              the number of data rows (default 10000)\n"
    "  --seed N             the seed of the random numbers (default 1)\n"
    "  -c CARD              uniform, skewed: values 0 to CARD-1 "
    "(default 8)\n"
    "  -d ATTRS             uniform, skewed: attributes a1, a2... "
    "(default 5)\n"
    "  --mean MU            skewed: the centre (default: mid-domain)\n"
    "  --sd SIGMA           skewed: the standard deviation, relative to "
    "CARD\n"
    "                       (default 0.2)\n"
    "  --rho R              skewed: the correlation of the attributes "
    "(default 0)\n"
    "  --target LIST        agrawal: add target columns among c2, c7, r7, "
    "r10\n";

static void usage(int) __attribute__((noreturn));

static void
usage(int status)
{
	char synopsis[512];

	snprintf(synopsis, sizeof(synopsis),
	    "usage: %s [-o file] [-n rows] [--seed n] uniform [-c card] "
	    "[-d attrs]\n"
	    "       %s [-o file] [-n rows] [--seed n] skewed [-c card] "
	    "[-d attrs]\n"
	    "               [--mean mu] [--rho r] [--sd sigma]\n"
	    "       %s [-o file] [-n rows] [--seed n] agrawal "
	    "[--target list]\n"
	    "       %s --version\n", kn_prog, kn_prog, kn_prog, kn_prog);
	if (status == 0)
		kn_help(synopsis, help, 0);
	fputs(synopsis, stderr);
	exit(status);
}

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static void
rng_seed(rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = kn_splitmix64(&seed);
	r->havespare = 0;
}

/* xoshiro256**: the next 64 random bits. */
static uint64_t
rng_next(rng *r)
{
	uint64_t *s = r->s;
	uint64_t out, t;

	out = rotl(s[1] * 5, 7) * 9;
	t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

/*
 * A uniform integer in [0, n), n > 0, without bias: the high word of a
 * 64x64-bit product, rejecting the few low words that would favour
 * some results (Lemire's method).
 */
static uint64_t
rng_below(rng *r, uint64_t n)
{
	unsigned __int128 m;
	uint64_t lo, t;

	m = (unsigned __int128)rng_next(r) * n;
	lo = (uint64_t)m;
	if (lo < n) {
		t = -n % n;
		while (lo < t) {
			m = (unsigned __int128)rng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* A uniform integer in [lo, hi]. */
static int64_t
rng_range(rng *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)rng_below(r, (uint64_t)(hi - lo) + 1);
}

/* A uniform double in [0, 1) with 53 random bits. */
static double
rng_unit(rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/*
 * Natural logarithm of a positive finite x from basic operations
 * only, so that its result, unlike libm's, is the same everywhere:
 * x = m 2^e with m in [sqrt(1/2), sqrt(2)), and log m by the atanh
 * series in s = (m-1)/(m+1), |s| < 0.172.
 */
static double
plain_log(double x)
{
	double m, s, z, p;
	int e, k;

	m = frexp(x, &e);
	if (m < 0.70710678118654752) {
		m *= 2;
		e--;
	}
	s = (m - 1) / (m + 1);
	z = s * s;
	p = 1.0 / 25;
	for (k = 23; k >= 1; k -= 2)
		p = p * z + 1.0 / k;
	return e * 0.69314718055994531 + 2 * s * p;
}

/* A standard normal deviate (Marsaglia's polar method). */
static double
rng_normal(rng *r)
{
	double u, v, s, f;

	if (r->havespare) {
		r->havespare = 0;
		return r->spare;
	}
	do {
		u = 2 * rng_unit(r) - 1;
		v = 2 * rng_unit(r) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	f = sqrt(-2 * plain_log(s) / s);
	r->spare = v * f;
	r->havespare = 1;
	return u * f;
}

/* ---- output --------------------------------------------------------- */

static void
ob_init(outbuf *o, FILE *f, size_t maxrow)
{
	o->f = f;
	o->maxrow = maxrow;
	o->buf = kn_alloc(OUTBUF + maxrow);
	o->p = o->buf;
	o->end = o->buf + OUTBUF + maxrow;
}

/* Writes out the buffer; a write error ends the run at once. */
static void
ob_flush(outbuf *o)
{
	size_t n = (size_t)(o->p - o->buf);

	if (n > 0 && fwrite(o->buf, 1, n, o->f) != n) {
		kn_close_out(o->f);	/* reports the error and exits */
		kn_die("write error");
	}
	o->p = o->buf;
}

/* Makes room for one more row. */
static void
ob_room(outbuf *o)
{
	if ((size_t)(o->end - o->p) < o->maxrow)
		ob_flush(o);
}

/* Appends a string no longer than a row. */
static void
ob_str(outbuf *o, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(o->end - o->p) < n)
		ob_flush(o);
	memcpy(o->p, s, n);
	o->p += n;
}

static char *
put_u64(char *p, uint64_t v)
{
	char t[20];
	int n = 0;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (n > 0)
		*p++ = t[--n];
	return p;
}

/* Writes an amount in cents as a decimal with two fraction digits. */
static char *
put_cents(char *p, int64_t c)
{
	uint64_t u;

	if (c < 0) {
		*p++ = '-';
		u = -(uint64_t)c;
	} else
		u = (uint64_t)c;
	p = put_u64(p, u / 100);
	*p++ = '.';
	*p++ = (char)('0' + u % 100 / 10);
	*p++ = (char)('0' + u % 10);
	return p;
}

/* ---- generators ----------------------------------------------------- */

/* Header a1..aD for the uniform and skewed tables. */
static void
header_attrs(outbuf *o, long long dim)
{
	long long i;

	for (i = 1; i <= dim; i++) {
		ob_room(o);
		*o->p++ = 'a';
		o->p = put_u64(o->p, (uint64_t)i);
		*o->p++ = i < dim ? '\t' : '\n';
	}
}

/* The discrete uniform table: D independent uniform values. */
static void
gen_uniform(outbuf *o, rng *r, const struct opts *op)
{
	uint64_t row;
	long long i;
	char *p;

	header_attrs(o, op->dim);
	for (row = 0; row < op->rows; row++) {
		ob_room(o);
		p = o->p;
		for (i = 0; i < op->dim; i++) {
			p = put_u64(p, rng_below(r, (uint64_t)op->card));
			*p++ = '\t';
		}
		p[-1] = '\n';
		o->p = p;
	}
}

/* Rounds x to the nearest integer; 0 if that is outside [0, card). */
static int
bucket(double x, double card, double *v)
{
	*v = floor(x + 0.5);
	return *v >= 0 && *v < card;
}

/*
 * The discrete skewed table.  Attribute i of a row is
 * x = mu + sigma card (sqrt(rho) w + sqrt(1 - rho) e_i), w shared by
 * the row and e_i its own, all standard normal; x is rounded to the
 * nearest integer.  A w that puts the row's centre outside the domain
 * is drawn anew, then so is each e_i that puts x outside: a truncated
 * normal with equal pairwise correlation.
 */
static void
gen_skewed(outbuf *o, rng *r, const struct opts *op, double mu)
{
	double card = (double)op->card;
	double a = op->sd * card * sqrt(op->rho);
	double b = op->sd * card * sqrt(1 - op->rho);
	double c, v;
	uint64_t row;
	long long i;
	char *p;

	header_attrs(o, op->dim);
	for (row = 0; row < op->rows; row++) {
		c = mu;
		if (a > 0)
			do {
				c = mu + a * rng_normal(r);
			} while (!bucket(c, card, &v));
		ob_room(o);
		p = o->p;
		for (i = 0; i < op->dim; i++) {
			while (!bucket(c + b * rng_normal(r), card, &v))
				continue;
			p = put_u64(p, (uint64_t)v);
			*p++ = '\t';
		}
		p[-1] = '\n';
		o->p = p;
	}
}

/*
 * The Agrawal et al. table (paper 004 Figure 7) with the targets in
 * tgt[0..ntgt).  Money is in whole dollars, so the targets are exact
 * in cents: 0.67 x is 67x cents, 0.2 x is 20x cents.
 */
static void
gen_agrawal(outbuf *o, rng *r, const struct opts *op, const int *tgt,
    int ntgt)
{
	int64_t salary, commission, age, elevel, car, zipcode, hvalue;
	int64_t hyears, loan, pay, r7, r10;
	uint64_t row;
	int j, c2;
	char *p;

	ob_str(o, "salary\tcommission\tage\televel\tcar\tzipcode\thvalue"
	    "\thyears\tloan");
	for (j = 0; j < ntgt; j++) {
		ob_str(o, "\t");
		ob_str(o, targetnames[tgt[j]]);
	}
	ob_str(o, "\n");

	for (row = 0; row < op->rows; row++) {
		salary = rng_range(r, 20000, 150000);
		commission = salary >= 75000 ? 0 :
		    rng_range(r, 10000, 75000);
		age = rng_range(r, 20, 80);
		elevel = rng_range(r, 0, 4);
		car = rng_range(r, 1, 20);
		zipcode = rng_range(r, 1, 9);
		hvalue = rng_range(r, 50000 * zipcode, 150000 * zipcode);
		hyears = rng_range(r, 1, 30);
		loan = rng_range(r, 0, 500000);

		ob_room(o);
		p = o->p;
		p = put_u64(p, (uint64_t)salary);
		*p++ = '\t';
		p = put_u64(p, (uint64_t)commission);
		*p++ = '\t';
		p = put_u64(p, (uint64_t)age);
		*p++ = '\t';
		p = put_u64(p, (uint64_t)elevel);
		*p++ = '\t';
		p = put_u64(p, (uint64_t)car);
		*p++ = '\t';
		p = put_u64(p, (uint64_t)zipcode);
		*p++ = '\t';
		p = put_u64(p, (uint64_t)hvalue);
		*p++ = '\t';
		p = put_u64(p, (uint64_t)hyears);
		*p++ = '\t';
		p = put_u64(p, (uint64_t)loan);

		pay = 67 * (salary + commission);
		r7 = pay - 20 * loan - 2000000;
		for (j = 0; j < ntgt; j++) {
			*p++ = '\t';
			switch (tgt[j]) {
			case T_C2:
				c2 = (age < 40 &&
				    salary >= 50000 && salary <= 100000) ||
				    (age >= 40 && age < 60 &&
				    salary >= 75000 && salary <= 125000) ||
				    (age >= 60 &&
				    salary >= 25000 && salary <= 75000);
				*p++ = c2 ? 'A' : 'B';
				break;
			case T_C7:
				*p++ = r7 > 0 ? 'A' : 'B';
				break;
			case T_R7:
				p = put_cents(p, r7);
				break;
			case T_R10:
				/* 0.2 equity = 0.2 * 0.1 hvalue (hyears - 20) */
				r10 = pay - 500000 * elevel - 1000000;
				if (hyears >= 20)
					r10 += 2 * hvalue * (hyears - 20);
				p = put_cents(p, r10);
				break;
			}
		}
		*p++ = '\n';
		o->p = p;
	}
}

/* ---- options -------------------------------------------------------- */

/* Parses a comma list of target names into tgt; returns the count. */
static int
parse_targets(const char *list, int *tgt)
{
	const char *s, *e;
	size_t n;
	int i, j, nt = 0;

	for (s = list;; s = e + 1) {
		e = strchr(s, ',');
		n = e != NULL ? (size_t)(e - s) : strlen(s);
		for (i = 0; i < NTARGET; i++)
			if (strlen(targetnames[i]) == n &&
			    strncmp(s, targetnames[i], n) == 0)
				break;
		if (i == NTARGET)
			kn_die("--target: unknown target '%.*s' in '%s' "
			    "(c2, c7, r7 or r10)", (int)n, s, list);
		for (j = 0; j < nt; j++)
			if (tgt[j] == i)
				kn_die("--target: '%s' given twice in '%s'",
				    targetnames[i], list);
		tgt[nt++] = i;
		if (e == NULL)
			break;
	}
	return nt;
}

/* Notes that a generator-specific option was given. */
static void
given(struct opts *o, int opt)
{
	size_t i;

	for (i = 0; i < NMODEOPT; i++)
		if (modeopts[i].opt == opt)
			o->given[i] = 1;
}

/* One getopt pass: the options before or after the generator name. */
static void
parse_opts(int argc, char **argv, const char *optstring, struct opts *o)
{
	int ch;

	while ((ch = getopt_long(argc, argv, optstring, longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c':
			o->card = kn_parse_int(optarg, 1, MAXCARD,
			    "cardinality (-c)");
			break;
		case 'd':
			o->dim = kn_parse_int(optarg, 1, MAXDIM,
			    "attributes (-d)");
			break;
		case 'h':
			usage(0);
		case 'n':
			o->rows = (uint64_t)kn_parse_int(optarg, 0,
			    INT64_MAX, "rows (-n)");
			break;
		case 'o':
			o->out = optarg;
			break;
		case OPT_MEAN:
			o->mean = optarg;
			break;
		case OPT_RHO:
			o->rho = kn_parse_double(optarg, -HUGE_VAL, HUGE_VAL,
			    "--rho");
			if (o->rho < 0 || o->rho >= 1)
				kn_die("--rho: '%s' is not in [0, 1)", optarg);
			break;
		case OPT_SD:
			o->sd = kn_parse_double(optarg, -HUGE_VAL, HUGE_VAL,
			    "--sd");
			if (o->sd <= 0 || o->sd > MAXSD)
				kn_die("--sd: '%s' is not in (0, %g]", optarg,
				    MAXSD);
			break;
		case OPT_SEED:
			o->seed = (uint64_t)kn_parse_int(optarg, 0,
			    INT64_MAX, "--seed");
			break;
		case OPT_TARGET:
			o->target = optarg;
			break;
		case OPT_VERSION:
			kn_version();
		default:
			if (ch == '?')
				kn_opt_error(argv, optstring);
			usage(2);
		}
		given(o, ch);
	}
}

int
main(int argc, char *argv[])
{
	struct opts o;
	const char *name;
	char *argv0 = argv[0];
	int tgt[NTARGET], ntgt = 0, mode;
	double mu = 0;
	size_t i, maxrow;
	outbuf ob;
	FILE *f;
	rng r;

	kn_init(argv[0]);
	memset(&o, 0, sizeof(o));
	o.rows = 10000;
	o.seed = 1;
	o.card = 8;
	o.dim = 5;
	o.sd = 0.2;

	/* Options may come before and after the generator name. */
	parse_opts(argc, argv, "+" OPTSTRING, &o);
	argc -= optind;
	argv += optind;
	if (argc == 0)
		usage(2);
	name = argv[0];
	argv[0] = argv0;	/* getopt skips it, as a program's name */
	optind = 0;
	parse_opts(argc, argv, OPTSTRING, &o);
	argc -= optind;
	argv += optind;
	if (argc > 0)
		kn_die("unexpected operand '%s'", argv[0]);

	for (mode = 0; mode < NMODE; mode++)
		if (strcmp(name, modenames[mode]) == 0)
			break;
	if (mode == NMODE)
		kn_die("unknown generator '%s' (uniform, skewed or agrawal)",
		    name);
	for (i = 0; i < NMODEOPT; i++)
		if (o.given[i] && !(modeopts[i].modes & 1U << mode))
			kn_die("option %s does not apply to %s",
			    modeopts[i].name, name);
	if (mode == M_SKEWED) {
		mu = (double)(o.card - 1) / 2;
		if (o.mean != NULL)
			mu = kn_parse_double(o.mean, 0, (double)(o.card - 1),
			    "--mean");
	}
	if (o.target != NULL)
		ntgt = parse_targets(o.target, tgt);

	/* Values have at most 10 digits; agrawal rows stay below 160. */
	maxrow = mode == M_AGRAWAL ? 256 : (size_t)o.dim * 11 + 16;
	f = kn_open_out(o.out);
	ob_init(&ob, f, maxrow);
	rng_seed(&r, o.seed);
	switch (mode) {
	case M_UNIFORM:
		gen_uniform(&ob, &r, &o);
		break;
	case M_SKEWED:
		gen_skewed(&ob, &r, &o, mu);
		break;
	case M_AGRAWAL:
		gen_agrawal(&ob, &r, &o, tgt, ntgt);
		break;
	}
	ob_flush(&ob);
	free(ob.buf);
	kn_close_out(f);
	kn_exit(0);
}
