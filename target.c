/*
 * target.c: score's target column -t (paper 004 §5.5), in memory that
 * does not grow with the number of target values.  The target values of
 * a class are read in byte order of their labels, so that equal values
 * are adjacent and no dictionary is needed: as the frequency set brings
 * them (keyed by QI..., T), or, when the sensitive column comes between
 * (QI..., S, T), sorted per class (cvals.c), through the external sort
 * beyond a share of the budget.
 *
 * A class E of n rows adds n H(T, E) = n log2 n - sum(c log2 c) over
 * its distinct values of count c, and the squared error of its values
 * about their mean, sum(c (v - mean)^2) = (n S2 - S1^2) / n with S1 =
 * sum(c v) and S2 = sum(c v^2) in exact integers (decimals at a common
 * scale), of 128 bits, or of 1024 bits (kn_big) where those overflow:
 * the 36 digits and 36 decimals of a number (kn_dec_parse) and 64-bit
 * counts need fewer than 700.  Each figure depends only on the class's
 * values, in their byte order: the same for any -S.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target.h"

void
targ_init(targ_ctx *t, int sorted, size_t budget, const char *tmpdir)
{
	memset(t, 0, sizeof(*t));
	t->sorted = sorted;
	t->allnum = 1;
	cvals_init(&t->cv, budget, tmpdir);
}

/* x * 10^e into *r; 0 on overflow. */
static int
scale_up(kn_i128 x, int e, kn_i128 *r)
{
	if (e > 38)
		return x == 0 ? (*r = 0, 1) : 0;
	return !__builtin_mul_overflow(x, kn_pow10(e), r);
}

/* Adds the exact sums of c rows of value m / 10^sc; 0 on overflow. */
static int
exact_add(targ_ctx *t, kn_i128 m, int sc, uint64_t c)
{
	kn_i128 v, v2;

	if (sc > t->sc) {
		if (!scale_up(t->s1, sc - t->sc, &t->s1) ||
		    !scale_up(t->s2, 2 * (sc - t->sc), &t->s2))
			return 0;
		t->sc = sc;
	}
	if (!scale_up(m, t->sc - sc, &m) ||
	    __builtin_mul_overflow(m, m, &v2) ||
	    __builtin_mul_overflow(m, (kn_i128)c, &v) ||
	    __builtin_mul_overflow(v2, (kn_i128)c, &v2) ||
	    __builtin_add_overflow(t->s1, v, &t->s1) ||
	    __builtin_add_overflow(t->s2, v2, &t->s2))
		return 0;
	return 1;
}

/* x += y. */
static void
big_add(kn_big *x, const kn_big *y)
{
	uint64_t carry = 0;
	size_t i;

	for (i = 0; i < sizeof(x->d) / sizeof(x->d[0]); i++) {
		carry += (uint64_t)x->d[i] + y->d[i];
		x->d[i] = (uint32_t)carry;
		carry >>= 32;
	}
	if (carry != 0)
		kn_die("number too large for exact arithmetic");
}

/* x = |v|; returns whether v < 0. */
static int
big_i128(kn_big *x, kn_i128 v)
{
	kn_big_set(x, v < 0 ? (unsigned __int128)0 - (unsigned __int128)v :
	    (unsigned __int128)v);
	return v < 0;
}

/* The signed sum (x, *xneg) += (y, yneg). */
static void
big_sadd(kn_big *x, int *xneg, const kn_big *y, int yneg)
{
	kn_big t;

	if (*xneg == yneg)
		big_add(x, y);
	else if (kn_big_cmp(x, y) >= 0)
		kn_big_sub(x, y);
	else {
		t = *y;
		kn_big_sub(&t, x);
		*x = t;
		*xneg = yneg;
	}
}

/* Adds the sums of c rows of value m / 10^sc in 1024 bits, moving
 * the sums there first. */
static void
big_sums_add(targ_ctx *t, kn_i128 m, int sc, uint64_t c)
{
	kn_big v, w, bc;
	int neg;

	if (!t->big) {
		t->b1neg = big_i128(&t->b1, t->s1);
		big_i128(&t->b2, t->s2);
		t->big = 1;
	}
	if (sc > t->sc) {
		kn_big_pow10(&t->b1, sc - t->sc);
		kn_big_pow10(&t->b2, 2 * (sc - t->sc));
		t->sc = sc;
	}
	neg = big_i128(&v, m);
	kn_big_pow10(&v, t->sc - sc);
	kn_big_set(&bc, c);
	w = v;
	kn_big_mul(&w, &v);
	kn_big_mul(&w, &bc);
	big_add(&t->b2, &w);
	kn_big_mul(&v, &bc);
	big_sadd(&t->b1, &t->b1neg, &v, neg);
}

/* A distinct value of the class being read, of c rows. */
static void
value(targ_ctx *t, const char *p, size_t len, uint64_t c)
{
	kn_i128 m;
	int sc;

	t->clog += (long double)c * log2l((long double)c);
	if (!t->allnum)
		return;
	if (!kn_dec_parse(p, len, &m, &sc)) {
		t->allnum = 0;
		return;
	}
	if (t->big || !exact_add(t, m, sc, c))
		big_sums_add(t, m, sc, c);
}

/* The next target of the class in byte order: runs of equal values
 * become one value. */
static void
in_order(targ_ctx *t, const char *p, size_t len, uint64_t cnt)
{
	if (t->haverun && len == t->runlen && memcmp(p, t->run, len) == 0) {
		if (__builtin_add_overflow(t->runcnt, cnt, &t->runcnt))
			kn_rows_overflow();
		return;
	}
	if (t->haverun)
		value(t, t->run, t->runlen, t->runcnt);
	if (len + 1 > t->runcap) {
		t->runcap = 2 * len + 16;
		t->run = kn_realloc(t->run, t->runcap);
	}
	memcpy(t->run, p, len);
	t->runlen = len;
	t->runcnt = cnt;
	t->haverun = 1;
}

/* A distinct value of the class from cvals_end. */
static void
sorted_value(const char *p, size_t len, uint64_t c, void *ctx)
{
	value(ctx, p, len, c);
}

void
targ_add(targ_ctx *t, const char *p, size_t len, uint64_t cnt)
{
	if (__builtin_add_overflow(t->n, cnt, &t->n))
		kn_die("a class size overflows 64 bits");
	if (t->sorted)
		in_order(t, p, len, cnt);
	else
		cvals_add(&t->cv, p, len, cnt);
}

void
targ_class(targ_ctx *t)
{
	uint64_t n = t->n;

	if (!t->sorted)
		cvals_end(&t->cv, sorted_value, t);
	if (t->haverun)
		value(t, t->run, t->runlen, t->runcnt);
	if (n > 0) {
		t->hsum += (long double)n * log2l((long double)n) - t->clog;
		if (t->allnum) {
			kn_i128 a, b, num;
			kn_big bl, bs, bt;

			if (!t->big &&
			    !__builtin_mul_overflow((kn_i128)n, t->s2, &a) &&
			    !__builtin_mul_overflow(t->s1, t->s1, &b) &&
			    !__builtin_sub_overflow(a, b, &num))
				t->sse += (long double)num /
				    powl(10.0L, 2.0L * t->sc) / (long double)n;
			else {
				/* n S2 - S1^2 in 1024 bits. */
				if (!t->big) {
					t->b1neg = big_i128(&t->b1, t->s1);
					big_i128(&t->b2, t->s2);
				}
				bl = t->b2;
				kn_big_set(&bt, n);
				kn_big_mul(&bl, &bt);
				bs = t->b1;
				kn_big_mul(&bs, &t->b1);
				kn_big_sub(&bl, &bs);
				t->sse += kn_big_ld(&bl) /
				    powl(10.0L, 2.0L * t->sc) / (long double)n;
			}
		}
	}
	t->n = 0;
	t->clog = 0;
	t->haverun = 0;
	t->big = 0;
	t->s1 = t->s2 = 0;
	t->sc = 0;
}

long double
targ_entropy(const targ_ctx *t, uint64_t rows)
{
	return rows ? t->hsum / (long double)rows : 0.0L;
}

long double
targ_rmse(const targ_ctx *t, uint64_t rows)
{
	return rows ? sqrtl(t->sse / (long double)rows) : 0.0L;
}

void
targ_free(targ_ctx *t)
{
	free(t->run);
	cvals_free(&t->cv);
}
