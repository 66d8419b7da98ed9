/*
 * req.c: the privacy requirements every program that releases or
 * checks data decides in the same exact arithmetic (kanon(7),
 * REQUIREMENTS): their options (kn_req_opt), suppression limits,
 * l-diversity and variance diversity (paper 004 §1.1), and t-closeness
 * (Li, Li, Venkatasubramanian, ICDE 2007) with its three Earth Mover's
 * Distances.  Above kanon.c (exact decimals, big integers) and hier.c
 * (the hierarchy of the hierarchical distance).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kanon.h"

/* ---- l-diversity ---------------------------------------------------- */

void
kn_ldiv_init(kn_ldiv *ld)
{
	memset(ld, 0, sizeof(*ld));
	ld->kind = KN_DIV_DISTINCT;
	ld->cm = 1;
}

void
kn_ldiv_opt(kn_ldiv *ld, int opt, const char *arg)
{
	switch (opt) {
	case 'l':
		ld->on = 1;
		ld->lstr = arg;
		ld->l = kn_parse_double(arg, 1, 1e9, "-l");
		break;
	case 'c':
		ld->hasc = 1;
		if (!kn_dec_parse(arg, strlen(arg), &ld->cm, &ld->cs))
			kn_die("-c: '%s' is not a decimal number (digits "
			    "with an optional point, no exponent, at most 36 "
			    "digits)", arg);
		if (ld->cm <= 0)
			kn_die("-c: '%s' is not a positive number", arg);
		break;
	default:
		ld->hasdiv = 1;
		if (strcmp(arg, "distinct") == 0)
			ld->kind = KN_DIV_DISTINCT;
		else if (strcmp(arg, "entropy") == 0)
			ld->kind = KN_DIV_ENTROPY;
		else if (strcmp(arg, "recursive") == 0)
			ld->kind = KN_DIV_RECURSIVE;
		else
			kn_die("--diversity: '%s' is not distinct, entropy or "
			    "recursive", arg);
	}
}

void
kn_ldiv_check(const kn_ldiv *ld, int hass)
{
	if (ld->on && !hass)
		kn_die("-l needs the sensitive column (-s)");
	if ((ld->hasdiv || ld->hasc) && !ld->on)
		kn_die("--diversity and -c apply to -l");
	if (ld->hasc && ld->kind != KN_DIV_RECURSIVE)
		kn_die("-c applies to --diversity recursive");
	if (ld->on && ld->kind != KN_DIV_ENTROPY && ld->l != floor(ld->l))
		kn_die("-l: '%s': distinct and recursive diversity need an "
		    "integer", ld->lstr);
}

void
kn_req_init(kn_req *r)
{
	memset(r, 0, sizeof(*r));
	kn_ldiv_init(&r->ld);
}

int
kn_req_opt(kn_req *r, int ch, const char *arg)
{
	switch (ch) {
	case 'k':
		r->k = (uint64_t)kn_parse_int(arg, 1, INT64_MAX, "-k");
		return 1;
	case 'l':
	case 'c':
		kn_ldiv_opt(&r->ld, ch, arg);
		return 1;
	case KN_OPT_DIVERSITY:
		kn_ldiv_opt(&r->ld, 'd', arg);
		return 1;
	case KN_OPT_VARIANCE:
		if (!kn_dec_parse(arg, strlen(arg), &r->vm, &r->vs))
			kn_die("--variance: '%s' is not a decimal number "
			    "(digits with an optional point, no exponent, at "
			    "most 36 digits)", arg);
		if (r->vm < 0)
			kn_die("--variance: '%s' is not a number >= 0", arg);
		r->hasv = 1;
		return 1;
	}
	return 0;
}

static int
cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

void
kn_counts_desc(uint64_t *v, size_t m)
{
	qsort(v, m, sizeof(uint64_t), cmp_desc);
}

long double
kn_entropy(const uint64_t *v, size_t m, uint64_t n)
{
	long double h = 0, p;
	size_t i;

	for (i = 0; i < m; i++) {
		p = (long double)v[i] / (long double)n;
		h -= p * logl(p);
	}
	return h;
}

static uint64_t
mulmod(uint64_t a, uint64_t b, uint64_t p)
{
	return (uint64_t)((unsigned __int128)a * b % p);
}

static uint64_t
powmod(uint64_t b, uint64_t e, uint64_t p)
{
	uint64_t r = 1 % p;

	for (b %= p; e > 0; e >>= 1) {
		if (e & 1)
			r = mulmod(r, b, p);
		b = mulmod(b, b, p);
	}
	return r;
}

/*
 * Whether H = log l exactly, l = lm / 10^ls: H = log l holds iff
 * n^n 10^(ls n) = lm^n prod c_i^c_i.  Both sides are compared modulo
 * four large primes, which tells equal integers from unequal ones but
 * for a vanishing chance.
 */
static int
entropy_equal(const uint64_t *v, size_t m, uint64_t n, kn_i128 lm, int ls)
{
	static const uint64_t prime[] = { 0xFFFFFFFFFFFFFFC5ULL,
	    0x7FFFFFFFFFFFFFE7ULL, 0x3FFFFFFFFFFFFFC7ULL,
	    0x1FFFFFFFFFFFFFFFULL };
	uint64_t p, a, b;
	size_t i, j;

	for (j = 0; j < sizeof(prime) / sizeof(prime[0]); j++) {
		p = prime[j];
		a = mulmod(powmod(n, n, p), powmod(powmod(10, (uint64_t)ls, p),
		    n, p), p);
		b = powmod((uint64_t)((unsigned __int128)lm % p), n, p);
		for (i = 0; i < m; i++)
			b = mulmod(b, powmod(v[i], v[i], p), p);
		if (a != b)
			return 0;
	}
	return 1;
}

/* Entropy l-diversity: H >= log l.  Computed in long double; when H is
 * within rounding of log l, equality is decided exactly (counts such as
 * 4,1,1,1,1 have H = log 4 exactly). */
static int
entropy_ok(const kn_ldiv *ld, const uint64_t *v, size_t m, uint64_t n)
{
	long double h, t;
	kn_i128 lm;
	int ls;

	if (m == 0)
		return 0;
	if (v[0] == v[m - 1])
		return (double)m >= ld->l;
	h = kn_entropy(v, m, n);
	t = logl((long double)ld->l);
	if (fabsl(h - t) > 1e-12L * (1 + t))
		return h >= t;
	if (ld->lstr != NULL &&
	    kn_dec_parse(ld->lstr, strlen(ld->lstr), &lm, &ls) && lm > 0 &&
	    entropy_equal(v, m, n, lm, ls))
		return 1;
	return h >= t;
}

/* Recursive (c,l)-diversity, decided exactly:
 * r1 10^cs < cm (r_l + ... + r_m). */
static int
recursive_ok(const uint64_t *v, size_t m, long l, kn_i128 cm, int cs)
{
	unsigned __int128 tail = 0;
	kn_i128 lhs, rhs;
	kn_big bl, br, t;
	size_t i;

	if (l <= 1)
		return 1;
	if (m < (size_t)l)
		return 0;
	for (i = (size_t)l - 1; i < m; i++)
		tail += v[i];
	if (tail <= (unsigned __int128)INT64_MAX &&
	    !__builtin_mul_overflow((kn_i128)v[0], kn_pow10(cs), &lhs) &&
	    !__builtin_mul_overflow(cm, (kn_i128)tail, &rhs))
		return lhs < rhs;
	kn_big_set(&bl, v[0]);
	kn_big_pow10(&bl, cs);
	kn_big_set(&br, (unsigned __int128)cm);
	kn_big_set(&t, tail);
	kn_big_mul(&br, &t);
	return kn_big_cmp(&bl, &br) < 0;
}

int
kn_ldiv_ok(const kn_ldiv *ld, const uint64_t *v, size_t m, uint64_t n)
{
	if (!ld->on)
		return 1;
	switch (ld->kind) {
	case KN_DIV_DISTINCT:
		return (double)m >= ld->l;
	case KN_DIV_ENTROPY:
		return entropy_ok(ld, v, m, n);
	default:
		return recursive_ok(v, m, (long)ld->l, ld->cm, ld->cs);
	}
}

/* ---- suppression limits -------------------------------------------- */

void
kn_limit_parse(kn_limit *l, const char *arg, const char *opt)
{
	size_t n = strlen(arg);

	memset(l, 0, sizeof(*l));
	l->pct = n > 0 && arg[n - 1] == '%';
	if (!l->pct)
		l->n = (uint64_t)kn_parse_int(arg, 0, INT64_MAX, opt);
	else if (!kn_dec_parse(arg, n - 1, &l->pm, &l->ps) || l->pm < 0 ||
	    l->pm > 100 * kn_pow10(l->ps))
		kn_die("%s: '%s' is not a percentage from 0%% to 100%%", opt,
		    arg);
}

/* The largest m with m * 100 * 10^ps <= pm * rows, by bisection in
 * 1024-bit integers: exact whatever the digits of the percentage. */
uint64_t
kn_limit_rows(const kn_limit *l, uint64_t rows)
{
	kn_big want, den, x;
	uint64_t lo = 0, hi = rows, mid;

	if (!l->pct)
		return l->n;
	kn_big_set(&want, (unsigned __int128)l->pm);
	kn_big_set(&x, rows);
	kn_big_mul(&want, &x);
	kn_big_set(&den, 100);
	kn_big_pow10(&den, l->ps);
	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		kn_big_set(&x, mid);
		kn_big_mul(&x, &den);
		if (kn_big_cmp(&x, &want) <= 0)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* ---- variance diversity (paper 004 §1.1) ------------------------- */

/* Var(E,S) >= v for a class of n rows with sums s (scale F) and ss
 * (scale 2F); v = vm/10^vs.  Decided exactly:
 * (n ss - s^2) 10^vs >= vm n^2 10^2F.  Sets *var to the variance. */
int
kn_variance_ok(uint64_t n, const kn_sum *sm, int F, kn_i128 vm, int vs,
    long double *var)
{
	kn_i128 num, a, b, lhs, rhs, n2;
	kn_big bn, bs, bt, bl, br;
	unsigned __int128 as;

	*var = 0;
	if (n == 0)
		return 1;
	n2 = (kn_i128)n * (kn_i128)n;
	if (n2 > 0 && vs <= 38 && 2 * F <= 38 &&
	    !__builtin_mul_overflow((kn_i128)n, sm->ss, &a) &&
	    !__builtin_mul_overflow(sm->s, sm->s, &b) &&
	    !__builtin_sub_overflow(a, b, &num) &&
	    !__builtin_mul_overflow(num, kn_pow10(vs), &lhs) &&
	    !__builtin_mul_overflow(vm, n2, &rhs) &&
	    !__builtin_mul_overflow(rhs, kn_pow10(2 * F), &rhs)) {
		*var = (long double)num / powl(10, 2 * F) /
		    ((long double)n * n);
		return lhs >= rhs;
	}
	/* The same in 1024-bit integers. */
	kn_big_set(&bn, n);
	kn_big_set(&bl, (unsigned __int128)sm->ss);
	kn_big_mul(&bl, &bn);			/* n ss */
	as = sm->s < 0 ? (unsigned __int128)0 - (unsigned __int128)sm->s :
	    (unsigned __int128)sm->s;
	kn_big_set(&bs, as);
	kn_big_set(&bt, as);
	kn_big_mul(&bs, &bt);			/* s^2 */
	kn_big_sub(&bl, &bs);			/* n ss - s^2 >= 0 */
	*var = kn_big_ld(&bl) / powl(10, 2 * F) / ((long double)n * n);
	kn_big_pow10(&bl, vs);
	kn_big_set(&br, (unsigned __int128)vm);
	kn_big_mul(&br, &bn);
	kn_big_mul(&br, &bn);
	kn_big_pow10(&br, 2 * F);
	return kn_big_cmp(&bl, &br) >= 0;
}
