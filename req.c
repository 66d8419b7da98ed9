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

/* What an option's value that is not a decimal number is said to be. */
static const char notdec[] = "is not a decimal number (digits with an "
    "optional point, no exponent: kanon(7), Numbers)";

/* Reads option opt's decimal arg into m / 10^sc, or dies saying why:
 * notnum, or the limit of digits it passes (kn_dec_why). */
static void
dec_opt(const char *opt, const char *arg, size_t n, kn_i128 *m, int *sc,
    const char *notnum)
{
	if (!kn_dec_parse(arg, n, m, sc))
		kn_die("%s: '%s' %s", opt, arg, kn_dec_why(arg, n, notnum));
}

/* l as given, exactly (kn_ldiv's lceil, lint and lnl): a double may
 * round 3.0000000000000001 to 3. */
static void
ldiv_exact(kn_ldiv *ld, const char *arg)
{
	kn_i128 m, p;
	int sc;

	dec_opt("-l", arg, strlen(arg), &m, &sc, notdec);
	if (m <= 0)
		kn_die("-l: '%s' is not a positive number", arg);
	p = kn_pow10(sc);
	ld->lint = sc == 0;
	ld->lceil = (uint64_t)(m / p + (m % p != 0));
	ld->lnl = logl((long double)m / powl(10, sc));
}

void
kn_ldiv_opt(kn_ldiv *ld, int opt, const char *arg)
{
	switch (opt) {
	case 'l':
		ld->on = 1;
		ld->lstr = arg;
		ld->l = kn_parse_double(arg, 1, 1e9, "-l");
		ldiv_exact(ld, arg);
		break;
	case 'c':
		ld->hasc = 1;
		dec_opt("-c", arg, strlen(arg), &ld->cm, &ld->cs, notdec);
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
	if (ld->on && ld->kind != KN_DIV_ENTROPY && !ld->lint)
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
	case KN_OPT_CLOSENESS:
		dec_opt("--closeness", arg, strlen(arg), &r->tm, &r->ts,
		    "is not a decimal number from 0 to 1");
		if (r->tm < 0 || r->tm > kn_pow10(r->ts))
			kn_die("--closeness: '%s' is not a decimal number from "
			    "0 to 1", arg);
		r->hast = 1;
		r->tstr = arg;
		return 1;
	case KN_OPT_DISTANCE:
		if (strcmp(arg, "equal") == 0)
			r->dist = KN_DIST_EQUAL;
		else if (strcmp(arg, "ordered") == 0)
			r->dist = KN_DIST_ORDERED;
		else if (strcmp(arg, "hierarchical") == 0)
			r->dist = KN_DIST_HIER;
		else
			kn_die("--distance: '%s' is not equal, ordered or "
			    "hierarchical", arg);
		r->hasdist = 1;
		return 1;
	case KN_OPT_VARIANCE:
		dec_opt("--variance", arg, strlen(arg), &r->vm, &r->vs, notdec);
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

static const uint64_t prime[] = { 0xFFFFFFFFFFFFFFC5ULL,
    0x7FFFFFFFFFFFFFE7ULL, 0x3FFFFFFFFFFFFFC7ULL, 0x1FFFFFFFFFFFFFFFULL };
#define NPRIME (sizeof(prime) / sizeof(prime[0]))

/* prod c_i^c_i modulo each prime, of the counts v[0..m). */
static void
entropy_prods(const uint64_t *v, size_t m, uint64_t *prod)
{
	size_t i, j;

	for (j = 0; j < NPRIME; j++)
		for (prod[j] = 1, i = 0; i < m; i++)
			prod[j] = mulmod(prod[j], powmod(v[i], v[i], prime[j]),
			    prime[j]);
}

/*
 * Whether H = log l exactly, l = lm / 10^ls: H = log l holds iff
 * n^n 10^(ls n) = lm^n prod c_i^c_i.  Both sides are compared modulo
 * four large primes (prod: prod c_i^c_i modulo each), which tells equal
 * integers from unequal ones but for a vanishing chance.
 */
static int
entropy_equal(const uint64_t *prod, uint64_t n, kn_i128 lm, int ls)
{
	uint64_t p, a, b;
	size_t j;

	for (j = 0; j < NPRIME; j++) {
		p = prime[j];
		a = mulmod(powmod(n, n, p), powmod(powmod(10, (uint64_t)ls, p),
		    n, p), p);
		b = mulmod(powmod((uint64_t)((unsigned __int128)lm % p), n, p),
		    prod[j], p);
		if (a != b)
			return 0;
	}
	return 1;
}

/* Entropy l-diversity: H >= log l, H computed in long double over the
 * m counts in descending order (uniform: all equal, m >= l exactly);
 * when H is within rounding of log l, equality is decided exactly from
 * the counts v, or with v NULL from prod (counts such as 4,1,1,1,1 have
 * H = log 4 exactly), and a class that is not equal fails. */
static int
entropy_ok(const kn_ldiv *ld, long double h, size_t m, int uniform,
    uint64_t n, const uint64_t *v, const uint64_t *prod)
{
	uint64_t pr[NPRIME];
	long double t;
	kn_i128 lm;
	int ls;

	if (m == 0)
		return 0;
	if (uniform)
		return m >= ld->lceil;
	/* h is within (m + 3)(1 + h) units of 2^-64 of H, log l of its
	 * own: four times that is rounding. */
	t = ld->lnl;
	if (fabsl(h - t) > 4 * ((long double)m + 4) * (1 + t) * 0x1p-64L)
		return h >= t;
	if (v != NULL) {
		entropy_prods(v, m, pr);
		prod = pr;
	}
	if (ld->lstr != NULL &&
	    kn_dec_parse(ld->lstr, strlen(ld->lstr), &lm, &ls) && lm > 0 &&
	    entropy_equal(prod, n, lm, ls))
		return 1;
	/* Unequal, but nearer than rounding tells: not shown to be at
	 * least log l, so not passed. */
	return 0;
}

/* Recursive (c,l)-diversity, decided exactly from the largest of m
 * counts and the sum of the l-th on:
 * r1 10^cs < cm (r_l + ... + r_m). */
static int
recursive_ok(uint64_t r1, unsigned __int128 tail, size_t m, long l,
    kn_i128 cm, int cs)
{
	kn_i128 lhs, rhs;
	kn_big bl, br, t;

	if (l <= 1)
		return 1;
	if (m < (size_t)l)
		return 0;
	if (tail <= (unsigned __int128)INT64_MAX &&
	    !__builtin_mul_overflow((kn_i128)r1, kn_pow10(cs), &lhs) &&
	    !__builtin_mul_overflow(cm, (kn_i128)tail, &rhs))
		return lhs < rhs;
	kn_big_set(&bl, r1);
	kn_big_pow10(&bl, cs);
	kn_big_set(&br, (unsigned __int128)cm);
	kn_big_set(&t, tail);
	kn_big_mul(&br, &t);
	return kn_big_cmp(&bl, &br) < 0;
}

int
kn_ldiv_ok(const kn_ldiv *ld, const uint64_t *v, size_t m, uint64_t n)
{
	unsigned __int128 tail = 0;
	size_t i;

	if (!ld->on)
		return 1;
	switch (ld->kind) {
	case KN_DIV_DISTINCT:
		return m >= ld->lceil;
	case KN_DIV_ENTROPY:
		return entropy_ok(ld, m > 0 ? kn_entropy(v, m, n) : 0, m,
		    m > 0 && v[0] == v[m - 1], n, v, NULL);
	default:
		for (i = ld->l >= 1 ? (size_t)ld->l - 1 : 0; i < m; i++)
			tail += v[i];
		return recursive_ok(m > 0 ? v[0] : 0, tail, m, (long)ld->l,
		    ld->cm, ld->cs);
	}
}

void
kn_ldiv_begin(kn_ldiv_acc *a, const kn_ldiv *ld, uint64_t n)
{
	size_t j;

	memset(a, 0, sizeof(*a));
	a->ld = ld;
	a->n = n;
	for (j = 0; j < NPRIME; j++)
		a->prod[j] = 1;
}

void
kn_ldiv_add(kn_ldiv_acc *a, uint64_t c)
{
	long double p;
	size_t j;

	if (a->m == 0)
		a->first = c;
	a->last = c;
	if (a->ld->l < 1 || a->m >= (size_t)a->ld->l - 1)
		a->tail += c;
	a->m++;
	if (a->ld->kind != KN_DIV_ENTROPY)
		return;
	/* As kn_entropy, term by term in the same order. */
	p = (long double)c / (long double)a->n;
	a->h -= p * logl(p);
	for (j = 0; j < NPRIME; j++)
		a->prod[j] = mulmod(a->prod[j], powmod(c, c, prime[j]),
		    prime[j]);
}

int
kn_ldiv_end(const kn_ldiv_acc *a)
{
	const kn_ldiv *ld = a->ld;

	if (!ld->on)
		return 1;
	switch (ld->kind) {
	case KN_DIV_DISTINCT:
		return a->m >= ld->lceil;
	case KN_DIV_ENTROPY:
		return entropy_ok(ld, a->h, a->m, a->m > 0 &&
		    a->first == a->last, a->n, NULL, a->prod);
	default:
		return recursive_ok(a->first, a->tail, a->m, (long)ld->l,
		    ld->cm, ld->cs);
	}
}

int
kn_ldiv_recursive_ok(const kn_ldiv *ld, uint64_t r1, unsigned __int128 tail,
    size_t m)
{
	return recursive_ok(r1, tail, m, (long)ld->l, ld->cm, ld->cs);
}

/*
 * H >= log l as n (H - log l) 2^62 = a - s - n log l 2^62 >= 0, in
 * units of 2^-62.  Each term of a and s is within 2^-62 of its size
 * and half a unit (long double's log and two products, each within
 * 2^-64); b = n log l 2^62 in long double within n (1 + t) / 2 units
 * (t = log l, of l in long double) and 2^-63 of itself; the difference
 * rounded once more.  So e bounds the error twice over.  kn_ldiv_ok
 * decides by H itself outside its zone of rounding (entropy_ok: 4 (m +
 * 4)(1 + t) 2^-64 about t, its own h within (m + 3)(1 + h) 2^-64, h <=
 * log m, t within (1 + t) 2^-64): a part farther than z (those, twice
 * over) from the threshold gets the verdict of H, whichever way it is
 * computed.  Past 2^58 rows nothing is sure (a would pass 2^127).
 */
kn_i128
kn_xlx62(uint64_t c)
{
	return c < 2 || c >= (uint64_t)1 << 58 ? 0 :
	    (kn_i128)roundl((long double)c * logl((long double)c) * 0x1p62L);
}

void
kn_ldiv_table(kn_ldiv *ld, uint64_t rows, size_t room)
{
	size_t i;

	if (!ld->on || ld->kind != KN_DIV_ENTROPY || ld->x62 != NULL)
		return;
	ld->nx62 = rows < 4095 ? (size_t)rows + 1 : 4096;
	if (ld->nx62 > room / sizeof(kn_i128))
		ld->nx62 = room / sizeof(kn_i128);
	/* Fewer than the counts 0 to 2: no table, and no sums. */
	if (ld->nx62 < 3) {
		ld->nx62 = 0;
		return;
	}
	ld->x62 = kn_alloc(ld->nx62 * sizeof(kn_i128));
	for (i = 0; i < ld->nx62; i++)
		ld->x62[i] = kn_xlx62(i);
}

size_t
kn_ldiv_table_bytes(const kn_ldiv *ld)
{
	return ld->nx62 * sizeof(kn_i128);
}

int
kn_ldiv_ok_any(const kn_ldiv *ld, uint64_t *v, size_t m, uint64_t n)
{
	uint64_t top[64], r1 = 0, sum = 0;
	unsigned __int128 tail = 0;
	size_t i, j, lm1, nt = 0;
	kn_i128 s = 0;

	if (!ld->on || ld->kind == KN_DIV_DISTINCT)
		return kn_ldiv_ok(ld, v, m, n);
	if (ld->kind == KN_DIV_RECURSIVE) {
		/* The largest and the sum from the l-th on, as kn_ldiv_ok
		 * takes them from the sorted counts: all but the l - 1
		 * largest, kept in top (descending). */
		lm1 = ld->l >= 1 ? (size_t)ld->l - 1 : 0;
		if (lm1 > 64 || m == 0)
			goto sorted;
		for (i = 0; i < m; i++) {
			uint64_t c = v[i];

			if (nt < lm1 || (nt > 0 && c > top[nt - 1])) {
				if (nt == lm1)
					tail += top[--nt];
				for (j = nt++; j > 0 && top[j - 1] < c; j--)
					top[j] = top[j - 1];
				top[j] = c;
			} else
				tail += c;
			if (c > r1)
				r1 = c;
		}
		return kn_ldiv_recursive_ok(ld, r1, tail, m);
	}
	/* Entropy: sure from the sums when the counts are the n rows'. */
	for (i = 0; i < m && ld->x62 != NULL; i++) {
		s += kn_ldiv_x62(ld, v[i]);
		sum += v[i];
	}
	if (ld->x62 != NULL && sum == n && m > 0)
		switch (kn_ldiv_entropy_sure(ld, kn_ldiv_x62(ld, n), s, n, m)) {
		case 1:
			return 1;
		case -1:
			return 0;
		}
sorted:
	kn_counts_desc(v, m);
	return kn_ldiv_ok(ld, v, m, n);
}

int
kn_ldiv_entropy_sure(const kn_ldiv *ld, kn_i128 a, kn_i128 s, uint64_t n,
    uint64_t m)
{
	long double t = ld->lnl, b, d, e, z;

	if (n >= (uint64_t)1 << 58 || m == 0)
		return 0;
	b = (long double)n * t * 0x1p62L;
	d = (long double)(a - s) - b;
	e = ((long double)a + (long double)s + b) * 0x1p-60L +
	    (long double)n * (1 + t) + (long double)m + 4;
	z = (long double)n * (((long double)m + 4) * 8 * (1 + t) +
	    ((long double)m + 3) * 2 * (1 + logl((long double)m)) +
	    2 * (1 + t)) * 0x1p-2L;
	if (d > e + z)
		return 1;
	if (d < -(e + z))
		return -1;
	return 0;
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
	else {
		dec_opt(opt, arg, n - 1, &l->pm, &l->ps,
		    "is not a percentage from 0% to 100%");
		if (l->pm < 0 || l->pm > 100 * kn_pow10(l->ps))
			kn_die("%s: '%s' is not a percentage from 0%% to "
			    "100%%", opt, arg);
	}
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

void
kn_req_check(const kn_req *r, int hass)
{
	kn_ldiv_check(&r->ld, hass);
	if (r->hast && !hass)
		kn_die("--closeness needs the sensitive column (-s)");
	if (r->hasdist && !r->hast)
		kn_die("--distance applies to --closeness");
}

/* ---- t-closeness (Li, Li, Venkatasubramanian, ICDE 2007) -------- */

const char *const kn_dist_name[] = { "equal", "ordered", "hierarchical" };

typedef unsigned __int128 u128;

/* Unsigned 256-bit integers: the sums of the distances, whose terms
 * reach n N < 2^126 and whose count the values bound. */
typedef kn_tsum u256;

static void
u256_add(u256 *x, u256 y)
{
	x->lo += y.lo;
	x->hi += y.hi + (x->lo < y.lo);
}

static void
u256_add128(u256 *x, u128 y)
{
	x->lo += y;
	x->hi += x->lo < y;
}

/* x - y, x >= y. */
static u256
u256_sub(u256 x, u256 y)
{
	u256 z;

	z.lo = x.lo - y.lo;
	z.hi = x.hi - y.hi - (x.lo < y.lo);
	return z;
}

static u256
u256_mul(u128 a, u128 b)
{
	uint64_t a0 = (uint64_t)a, a1 = (uint64_t)(a >> 64);
	uint64_t b0 = (uint64_t)b, b1 = (uint64_t)(b >> 64);
	u128 p00 = (u128)a0 * b0, p01 = (u128)a0 * b1, p10 = (u128)a1 * b0;
	u128 p11 = (u128)a1 * b1, mid;
	u256 z;

	mid = (p00 >> 64) + (uint64_t)p01 + (uint64_t)p10;
	z.lo = (p00 & ~(uint64_t)0) | (mid << 64);
	z.hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
	return z;
}

static void
big_u256(kn_big *b, u256 x)
{
	int i;

	kn_big_set(b, x.lo);
	for (i = 0; i < 4; i++)
		b->d[4 + i] = (uint32_t)(x.hi >> (32 * i));
}

static long double
u256_ld(u256 x)
{
	return (long double)x.hi * 18446744073709551616.0L *
	    18446744073709551616.0L + (long double)x.lo;
}

/* Whether S / (norm n N) <= tm / 10^ts, exactly: S 10^ts <=
 * tm norm n N. */
static int
tclose_cmp(const kn_tclose *tc, u256 S, uint64_t n)
{
	u128 lhs, rhs;
	kn_big bl, br, b;

	if (S.hi == 0 && tc->ts <= 38 &&
	    !__builtin_mul_overflow(S.lo, (u128)kn_pow10(tc->ts), &lhs) &&
	    !__builtin_mul_overflow((u128)tc->tm, (u128)tc->norm, &rhs) &&
	    !__builtin_mul_overflow(rhs, (u128)n, &rhs) &&
	    !__builtin_mul_overflow(rhs, (u128)tc->N, &rhs))
		return lhs <= rhs;
	big_u256(&bl, S);
	kn_big_pow10(&bl, tc->ts);
	kn_big_set(&br, (u128)tc->tm);
	kn_big_set(&b, tc->norm);
	kn_big_mul(&br, &b);
	kn_big_set(&b, (u128)n * tc->N);
	kn_big_mul(&br, &b);
	return kn_big_cmp(&bl, &br) <= 0;
}

void
kn_tclose_init(kn_tclose *tc, const kn_req *r, const uint64_t *C,
    size_t m, const kn_hier *h)
{
	size_t i, l, top;
	int virt;

	memset(tc, 0, sizeof(*tc));
	tc->dist = r->dist;
	tc->tm = r->tm;
	tc->ts = r->ts;
	tc->m = m;
	tc->C = kn_alloc((m + 1) * sizeof(uint64_t));
	for (i = 0; i < m; i++) {
		tc->C[i] = C[i];
		if (__builtin_add_overflow(tc->N, C[i], &tc->N))
			kn_rows_overflow();
	}
	switch (tc->dist) {
	case KN_DIST_EQUAL:
		tc->norm = 2;
		break;
	case KN_DIST_ORDERED:
		tc->norm = m > 1 ? m - 1 : 1;
		tc->cum = kn_alloc((m + 1) * sizeof(uint64_t));
		tc->P = kn_alloc((m + 1) * sizeof(u128));
		tc->P[0] = 0;
		for (i = 0; i < m; i++) {
			tc->cum[i] = (i > 0 ? tc->cum[i - 1] : 0) + C[i];
			tc->P[i + 1] = tc->P[i] + tc->cum[i];
		}
		break;
	default:
		/* The tree: the hierarchy's levels, and a root above them
		 * when its top level has several labels. */
		top = (size_t)h->nlevels - 1;
		virt = h->lab[top].n > 1;
		tc->nlev = h->nlevels + virt;
		tc->norm = (uint64_t)tc->nlev - 1;
		tc->up = kn_zalloc((size_t)tc->nlev * sizeof(uint32_t *));
		tc->tot = kn_zalloc((size_t)tc->nlev * sizeof(uint64_t *));
		tc->nnode = kn_zalloc((size_t)tc->nlev * sizeof(size_t));
		for (l = 0; l < (size_t)tc->nlev; l++) {
			tc->nnode[l] = l <= top ? h->lab[l].n : 1;
			tc->tot[l] = kn_zalloc((tc->nnode[l] + 1) *
			    sizeof(uint64_t));
			if (l + 1 < (size_t)tc->nlev) {
				tc->up[l] = kn_zalloc((tc->nnode[l] + 1) *
				    sizeof(uint32_t));
				if (l < top)
					memcpy(tc->up[l], h->up[l],
					    tc->nnode[l] * sizeof(uint32_t));
			}
		}
		if (m > tc->nnode[0])
			kn_die("t-closeness: more values than leaves");
		for (i = 0; i < m; i++)
			tc->tot[0][i] = C[i];
		for (l = 0; l + 1 < (size_t)tc->nlev; l++)
			for (i = 0; i < tc->nnode[l]; i++)
				tc->tot[l + 1][tc->up[l][i]] += tc->tot[l][i];
	}
}

void
kn_tclose_free(kn_tclose *tc)
{
	int l;

	free(tc->C);
	free(tc->cum);
	free(tc->P);
	for (l = 0; l < tc->nlev; l++) {
		free(tc->up[l]);
		free(tc->tot[l]);
	}
	free(tc->up);
	free(tc->tot);
	free(tc->nnode);
	memset(tc, 0, sizeof(*tc));
}

/* |a - b| of two products a1 a2 and b1 b2 below 2^127 each. */
static u128
absdiff(u128 a, u128 b)
{
	return a >= b ? a - b : b - a;
}

void
kn_tsum_add(kn_tsum *S, kn_tsum x)
{
	u256_add(S, x);
}

void
kn_tclose_equal_val(kn_tsum *S, uint64_t c, uint64_t C, uint64_t N,
    uint64_t n)
{
	u256_add128(S, absdiff((u128)c * N, (u128)C * n));
}

void
kn_tclose_equal_rest(kn_tsum *S, uint64_t in, uint64_t N, uint64_t n)
{
	u256_add128(S, (u128)(N - in) * n);
}

/* Equal distance: S = sum over the values of |c_i N - C_i n|, the
 * values absent from the class adding C_i n. */
static u256
sum_equal(const kn_tclose *tc, const kn_tval *v, size_t nv, uint64_t n)
{
	u256 S = { 0, 0 };
	uint64_t in = 0;
	size_t i;

	for (i = 0; i < nv; i++) {
		kn_tclose_equal_val(&S, v[i].cnt, tc->C[v[i].pos], tc->N, n);
		in += tc->C[v[i].pos];
	}
	kn_tclose_equal_rest(&S, in, tc->N, n);
	return S;
}

kn_tsum
kn_tclose_run(u128 sN, uint64_t n, uint64_t a, uint64_t b, uint64_t q,
    u128 Pa, u128 Pb, u128 Pq)
{
	u256 x;

	/* (q - a) s N - n (P[q] - P[a]) */
	x = u256_sub(u256_mul((u128)(q - a), sN), u256_mul(n, Pq - Pa));
	/* n (P[b] - P[q]) - (b - q) s N */
	u256_add(&x, u256_sub(u256_mul(n, Pb - Pq),
	    u256_mul((u128)(b - q), sN)));
	return x;
}

/* Ordered distance: S = sum over positions i of |s_i N - cum_i n|, s_i
 * the class's rows at positions up to i.  Between two of the class's
 * values s is constant and cum grows: each run is summed in closed form
 * from the prefix sums P, split where cum n passes s N. */
static u256
sum_ordered(const kn_tclose *tc, const kn_tval *v, size_t nv, uint64_t n)
{
	u256 S = { 0, 0 };
	size_t j, a, b;
	u128 s = 0;

	for (j = 0; j <= nv; j++) {
		if (tc->run != NULL) {
			if (j > 0)
				s += v[j - 1].cnt;
			u256_add(&S, tc->run(tc->ext, s * tc->N, n,
			    j == 0 ? KN_TEND : v[j - 1].pos,
			    j == nv ? KN_TEND : v[j].pos));
			continue;
		}
		a = j == 0 ? 0 : v[j - 1].pos;
		b = j == nv ? tc->m : v[j].pos;
		if (j > 0)
			s += v[j - 1].cnt;
		if (a < b)
			u256_add(&S, kn_tclose_run_at(tc, s * tc->N, n, a, b));
	}
	return S;
}

kn_tsum
kn_tclose_run_at(const kn_tclose *tc, u128 sN, uint64_t n, size_t a,
    size_t b)
{
	size_t lo, hi, mid;

	/* q: the first position in [a, b) with cum n >= s N. */
	for (lo = a, hi = b; lo < hi;) {
		mid = lo + (hi - lo) / 2;
		if ((u128)tc->cum[mid] * n >= sN)
			hi = mid;
		else
			lo = mid + 1;
	}
	return kn_tclose_run(sN, n, a, b, lo, tc->P[a], tc->P[b], tc->P[lo]);
}

/* A node of the tree that holds some of the class's rows. */
struct tnode {
	uint32_t id;
	kn_i128 extra;		/* c N - C n under the node */
	uint64_t tot;		/* C under the node */
};

static int
cmp_tnode(const void *a, const void *b)
{
	uint32_t x = ((const struct tnode *)a)->id;
	uint32_t y = ((const struct tnode *)b)->id;

	return x < y ? -1 : x > y;
}

/* Hierarchical distance (the paper's §4.2): bottom up, each node N of
 * height h costs h min(pos(N), neg(N)), the positive and negative
 * extra mass of its children; S is their sum (norm: the tree's
 * height).  Only the nodes above the class's values can cost: the
 * others have no positive extra. */
static u256
sum_hier(const kn_tclose *tc, const kn_tval *v, size_t nv, uint64_t n,
    kn_tscratch *sc)
{
	u256 S = { 0, 0 };
	struct tnode *t;
	size_t i, j, k, cnt = nv;
	int l;

	if (sc->cap < nv + 1) {
		free(sc->p);
		sc->cap = 2 * nv + 16;
		sc->p = kn_alloc(sc->cap * sizeof(struct tnode));
	}
	t = sc->p;
	for (i = 0; i < nv; i++) {
		t[i].id = v[i].pos;
		t[i].tot = tc->C[v[i].pos];
		t[i].extra = (kn_i128)((u128)v[i].cnt * tc->N) -
		    (kn_i128)((u128)t[i].tot * n);
	}
	for (l = 0; l + 1 < tc->nlev; l++) {
		for (i = 0; i < cnt; i++)
			t[i].id = tc->up[l][t[i].id];
		qsort(t, cnt, sizeof(*t), cmp_tnode);
		for (i = k = 0; i < cnt; i = j, k++) {
			u128 pos = 0, neg = 0;
			kn_i128 ex = 0;
			uint64_t under = 0, tot = tc->tot[l + 1][t[i].id];

			for (j = i; j < cnt && t[j].id == t[i].id; j++) {
				if (t[j].extra > 0)
					pos += (u128)t[j].extra;
				else
					neg += (u128)-t[j].extra;
				ex += t[j].extra;
				under += t[j].tot;
			}
			/* The children without the class's rows. */
			neg += (u128)(tot - under) * n;
			ex -= (kn_i128)((u128)(tot - under) * n);
			u256_add(&S, u256_mul((u128)(l + 1),
			    pos < neg ? pos : neg));
			t[k].id = t[i].id;
			t[k].extra = ex;
			t[k].tot = tot;
		}
		cnt = k;
	}
	return S;
}

int
kn_tclose_ok(const kn_tclose *tc, const kn_tval *v, size_t nv, uint64_t n,
    kn_tscratch *sc, long double *d)
{
	u256 S;

	if (n == 0 || tc->N == 0) {
		if (d != NULL)
			*d = 0;
		return 1;
	}
	switch (tc->dist) {
	case KN_DIST_EQUAL:
		S = sum_equal(tc, v, nv, n);
		break;
	case KN_DIST_ORDERED:
		S = sum_ordered(tc, v, nv, n);
		break;
	default:
		S = sum_hier(tc, v, nv, n, sc);
	}
	return kn_tclose_judge(tc, S, n, d);
}

int
kn_tclose_judge(const kn_tclose *tc, kn_tsum S, uint64_t n, long double *d)
{
	if (n == 0 || tc->N == 0) {
		if (d != NULL)
			*d = 0;
		return 1;
	}
	if (d != NULL)
		*d = u256_ld(S) / ((long double)tc->norm * n * tc->N);
	return tclose_cmp(tc, S, n);
}

void
kn_tclose_params(kn_tclose *tc, const kn_req *r, uint64_t N, uint64_t m)
{
	memset(tc, 0, sizeof(*tc));
	tc->dist = r->dist;
	tc->tm = r->tm;
	tc->ts = r->ts;
	tc->N = N;
	tc->m = (size_t)m;
	tc->norm = r->dist == KN_DIST_EQUAL ? 2 : m > 1 ? m - 1 : 1;
}

/* The values of the ordered distance: numbers (mant / 10^scale) or
 * not, missing or not. */
struct tvals {
	const kn_dict *d;
	kn_i128 *mant;
	int *scale;
	char *miss;
	int numeric;
};

static int
cmp_tval(uint32_t a, uint32_t b, const void *ctx)
{
	const struct tvals *tv = ctx;
	kn_str x = kn_dict_get(tv->d, a), y = kn_dict_get(tv->d, b);
	size_t n = x.n < y.n ? x.n : y.n;
	int c;

	if (tv->numeric) {
		if (tv->miss[a] != tv->miss[b])
			return tv->miss[a] ? 1 : -1;
		if (!tv->miss[a] && (c = kn_dec_cmp(tv->mant[a], tv->scale[a],
		    tv->mant[b], tv->scale[b])) != 0)
			return c;
	}
	if ((c = memcmp(x.p, y.p, n)) != 0)
		return c;
	return x.n < y.n ? -1 : x.n > y.n;
}

uint32_t *
kn_tclose_ranks(const kn_dict *d)
{
	struct tvals tv;
	uint32_t *ord, *rank;
	size_t i;
	kn_str s;

	tv.d = d;
	tv.mant = kn_alloc((d->n + 1) * sizeof(kn_i128));
	tv.scale = kn_alloc((d->n + 1) * sizeof(int));
	tv.miss = kn_zalloc(d->n + 1);
	tv.numeric = 1;
	for (i = 0; i < d->n && tv.numeric; i++) {
		s = kn_dict_get(d, (uint32_t)i);
		if (kn_missing(s.p, s.n))
			tv.miss[i] = 1;
		else if (!kn_dec_parse(s.p, s.n, &tv.mant[i], &tv.scale[i]))
			tv.numeric = 0;
	}
	ord = kn_alloc((d->n + 1) * sizeof(uint32_t));
	for (i = 0; i < d->n; i++)
		ord[i] = (uint32_t)i;
	kn_sort_ids(ord, d->n, cmp_tval, &tv);
	rank = kn_alloc((d->n + 1) * sizeof(uint32_t));
	for (i = 0; i < d->n; i++)
		rank[ord[i]] = (uint32_t)i;
	free(ord);
	free(tv.mant);
	free(tv.scale);
	free(tv.miss);
	return rank;
}

void
kn_tclose_dict(kn_tclose *tc, const kn_req *r, const kn_dict *d,
    const uint64_t *cnt, kn_hier *h, uint32_t **posp)
{
	uint64_t *C;
	uint32_t *pos;
	size_t i, m;
	int64_t leaf;
	const char *err;

	if (r->dist == KN_DIST_ORDERED)
		pos = kn_tclose_ranks(d);
	else {
		pos = kn_alloc((d->n + 1) * sizeof(uint32_t));
		for (i = 0; i < d->n; i++) {
			kn_str v = kn_dict_get(d, (uint32_t)i);

			err = NULL;
			if (h == NULL)
				pos[i] = (uint32_t)i;
			else if ((leaf = kn_hier_leaf(h, v.p, v.n, &err)) < 0)
				kn_die("-s %s: '%.*s': %s", h->attr, (int)v.n,
				    v.p, err != NULL ? err :
				    "not a leaf of its hierarchy");
			else
				pos[i] = (uint32_t)leaf;
		}
	}
	m = h != NULL ? h->lab[0].n : d->n;
	C = kn_zalloc((m + 1) * sizeof(uint64_t));
	for (i = 0; i < d->n; i++)
		C[pos[i]] += cnt[i];
	kn_tclose_init(tc, r, C, m, h);
	free(C);
	*posp = pos;
}

void
kn_tval_sort(kn_tval *v, size_t n)
{
	size_t cnt[2048], i, d, at, nd;
	uint32_t all = 0;
	kn_tval *src = v, *dst, *tmp, *x0, x;
	int shift, bits;

	if (n < 32) {
		for (i = 1; i < n; i++) {
			x = v[i];
			for (d = i; d > 0 && v[d - 1].pos > x.pos; d--)
				v[d] = v[d - 1];
			v[d] = x;
		}
		return;
	}
	for (i = 1; i < n && v[i - 1].pos <= v[i].pos; i++)
		;
	if (i == n)
		return;
	for (i = 0; i < n; i++)
		all |= v[i].pos;
	/* Least significant digit first, each pass stable: 8 bits a
	 * digit for a few thousand values, 11 above (three passes for
	 * any position), no pass past the highest bit set. */
	bits = n < 4096 ? 8 : 11;
	nd = (size_t)1 << bits;
	tmp = kn_alloc(n * sizeof(kn_tval));
	dst = tmp;
	for (shift = 0; shift < 32 && (all >> shift) != 0; shift += bits) {
		memset(cnt, 0, nd * sizeof(size_t));
		for (i = 0; i < n; i++)
			cnt[src[i].pos >> shift & (nd - 1)]++;
		if (cnt[src[0].pos >> shift & (nd - 1)] == n)
			continue;
		for (d = at = 0; d < nd; d++) {
			size_t c = cnt[d];

			cnt[d] = at;
			at += c;
		}
		for (i = 0; i < n; i++)
			dst[cnt[src[i].pos >> shift & (nd - 1)]++] = src[i];
		x0 = src;
		src = dst;
		dst = x0;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(kn_tval));
	free(tmp);
}

int
kn_tclose_ids(const kn_tclose *tc, const uint32_t *pos, kn_tval *v,
    size_t nv, uint64_t n, kn_tscratch *sc, long double *d)
{
	size_t i, k;

	for (i = 0; i < nv; i++)
		v[i].pos = pos[v[i].pos];
	kn_tval_sort(v, nv);
	for (i = k = 0; i < nv; i++)
		if (k > 0 && v[k - 1].pos == v[i].pos)
			v[k - 1].cnt += v[i].cnt;
		else if (v[i].cnt > 0)
			v[k++] = v[i];
	return kn_tclose_ok(tc, v, k, n, sc, d);
}

/* ---- a sensitive column's classes, as they arrive ------------------ */

void
kn_sclass_init(kn_sclass *sc)
{
	memset(sc, 0, sizeof(*sc));
}

/* One more value of c rows in the current class. */
static void
hist_add(kn_sclass *sc, uint64_t c)
{
	size_t h, i;

	if (2 * (sc->nh + 1) > sc->hmask + 1) {
		size_t ns = sc->hmask ? 2 * (sc->hmask + 1) : 64;

		free(sc->hslot);
		sc->hslot = kn_zalloc(ns * sizeof(uint32_t));
		sc->hmask = ns - 1;
		for (i = 0; i < sc->nh; i++) {
			h = kn_hash_mix(sc->hc[i] * KN_HASH_M1) & sc->hmask;
			while (sc->hslot[h] != 0)
				h = (h + 1) & sc->hmask;
			sc->hslot[h] = (uint32_t)i + 1;
		}
	}
	h = kn_hash_mix(c * KN_HASH_M1) & sc->hmask;
	while ((i = sc->hslot[h]) != 0 && sc->hc[i - 1] != c)
		h = (h + 1) & sc->hmask;
	if (i != 0) {
		sc->hm[i - 1]++;
		return;
	}
	if (sc->nh == sc->hcap) {
		sc->hcap = sc->hcap ? 2 * sc->hcap : 32;
		sc->hc = kn_realloc(sc->hc, sc->hcap * sizeof(uint64_t));
		sc->hm = kn_realloc(sc->hm, sc->hcap * sizeof(uint64_t));
	}
	sc->hc[sc->nh] = c;
	sc->hm[sc->nh] = 1;
	sc->hslot[h] = (uint32_t)++sc->nh;
}

/* The value being read has all its rows in the class. */
static void
run_end(kn_sclass *sc)
{
	hist_add(sc, sc->run);
	if (sc->tap != NULL)
		sc->tap(sc->last, sc->lastlen, sc->run, sc->tapctx);
}

void
kn_sclass_begin(kn_sclass *sc)
{
	size_t i, h;

	sc->run = 0;
	/* The histogram's slots emptied one by one: a class of many
	 * counts leaves a large index that the small ones after it would
	 * otherwise clear whole. */
	for (i = 0; i < sc->nh; i++) {
		h = kn_hash_mix(sc->hc[i] * KN_HASH_M1) & sc->hmask;
		while (sc->hslot[h] != (uint32_t)i + 1)
			h = (h + 1) & sc->hmask;
		sc->hslot[h] = 0;
	}
	sc->nh = 0;
}

void
kn_sclass_add(kn_sclass *sc, const char *p, size_t len, uint64_t cnt)
{
	if (cnt == 0)
		return;
	if (sc->run > 0 && len == sc->lastlen &&
	    memcmp(p, sc->last, len) == 0) {
		if (__builtin_add_overflow(sc->run, cnt, &sc->run))
			kn_rows_overflow();
		return;
	}
	if (sc->run > 0)
		run_end(sc);
	sc->last = kn_grow(sc->last, &sc->lastcap, len, 1, 64);
	memcpy(sc->last, p, len);
	sc->lastlen = len;
	sc->run = cnt;
}

void
kn_sclass_end(kn_sclass *sc)
{
	if (sc->run > 0)
		run_end(sc);
	sc->run = 0;
}

static int
cmp_pair_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

int
kn_sclass_ldiv(kn_sclass *sc, const kn_ldiv *ld, uint64_t n,
    uint64_t **v, size_t *vcap, size_t *m, long double *he)
{
	uint64_t prod[NPRIME], lm1, k;
	unsigned __int128 tail = 0;
	long double h = 0, p;
	size_t i, j;

	/* The counts with how many values have each, the largest first:
	 * the terms of kn_entropy and kn_ldiv_ok in their order. */
	*v = kn_grow(*v, vcap, 2 * sc->nh, sizeof(uint64_t), 64);
	for (i = 0; i < sc->nh; i++) {
		(*v)[2 * i] = sc->hc[i];
		(*v)[2 * i + 1] = sc->hm[i];
	}
	qsort(*v, sc->nh, 2 * sizeof(uint64_t), cmp_pair_desc);
	/* As kn_ldiv_ok: the entropy term by term, the sum of the counts
	 * from the l-th on, and the products for an exact tie a count at
	 * a time (c^c to the power of its values). */
	lm1 = ld->l >= 1 ? (uint64_t)ld->l - 1 : 0;
	for (j = 0; j < NPRIME; j++)
		prod[j] = 1;
	*m = 0;
	for (i = 0; i < sc->nh; i++) {
		uint64_t c = (*v)[2 * i], mult = (*v)[2 * i + 1];

		for (k = 0; k < mult; k++) {
			p = (long double)c / (long double)n;
			h -= p * logl(p);
		}
		if (*m + mult > lm1)
			tail += (unsigned __int128)c *
			    (*m + mult - (*m > lm1 ? *m : lm1));
		for (j = 0; ld->on && ld->kind == KN_DIV_ENTROPY &&
		    j < NPRIME; j++)
			prod[j] = mulmod(prod[j], powmod(powmod(c, c, prime[j]),
			    mult, prime[j]), prime[j]);
		*m += mult;
	}
	*he = *m == 0 ? 0 : sc->nh == 1 ? (long double)*m : expl(h);
	if (!ld->on)
		return 1;
	switch (ld->kind) {
	case KN_DIV_DISTINCT:
		return *m >= ld->lceil;
	case KN_DIV_ENTROPY:
		return entropy_ok(ld, *m > 0 ? h : 0, *m, sc->nh == 1, n, NULL,
		    prod);
	default:
		return recursive_ok(sc->nh > 0 ? (*v)[0] : 0, tail, *m,
		    (long)ld->l, ld->cm, ld->cs);
	}
}

