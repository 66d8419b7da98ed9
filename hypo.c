/*
 * hypo.c: the hypothesis tests of Rothko-S (paper 004 §3.1): a split
 * found on a sample is made only when the test rejects H0, "the split
 * is not allowable", at level a with the Bonferroni correction (a/m for
 * m parts) and the finite population correction.  The normal and
 * chi-square quantiles are computed here from C99 math alone (erfc,
 * lgamma, exp, log, sqrt): a rational first guess refined by Newton's
 * method on the exact distribution function.
 */
#include <math.h>

#include "hypo.h"

/* P(Z > z) for the standard normal. */
static double
norm_upper(double z)
{
	return 0.5 * erfc(z / sqrt(2.0));
}

double
hypo_z(double a)
{
	double p, t, z;
	int i;

	if (!(a > 0 && a < 1))
		return a <= 0 ? INFINITY : -INFINITY;
	/* A first guess from the tail expansion (Abramowitz and Stegun
	 * 26.2.23), then Newton's method on the upper tail. */
	p = a < 0.5 ? a : 1 - a;
	t = sqrt(-2.0 * log(p));
	z = t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
	    (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
	if (a > 0.5)
		z = -z;
	for (i = 0; i < 50; i++) {
		double f = norm_upper(z) - a;
		double dens = exp(-0.5 * z * z) / sqrt(2 * M_PI);
		double step = f / dens;

		z += step;
		if (fabs(step) < 1e-15 * (1 + fabs(z)))
			break;
	}
	return z;
}

/* The regularized lower incomplete gamma P(s, x): by its series below
 * s + 1, by the continued fraction of Q above. */
static double
gamma_p(double s, double x)
{
	double sum, term, b, c, dd, h, an, del;
	int i;

	if (x <= 0)
		return 0;
	if (x < s + 1) {
		sum = term = 1.0 / s;
		for (i = 1; i < 100000; i++) {
			term *= x / (s + i);
			sum += term;
			if (fabs(term) < fabs(sum) * 1e-17)
				break;
		}
		return sum * exp(-x + s * log(x) - lgamma(s));
	}
	/* Lentz's method for the continued fraction of Q(s, x). */
	b = x + 1 - s;
	c = 1.0 / 1e-300;
	dd = 1.0 / b;
	h = dd;
	for (i = 1; i < 100000; i++) {
		an = -i * (i - s);
		b += 2;
		dd = an * dd + b;
		if (fabs(dd) < 1e-300)
			dd = 1e-300;
		c = b + an / c;
		if (fabs(c) < 1e-300)
			c = 1e-300;
		dd = 1.0 / dd;
		del = dd * c;
		h *= del;
		if (fabs(del - 1) < 1e-17)
			break;
	}
	return 1.0 - exp(-x + s * log(x) - lgamma(s)) * h;
}

double
hypo_chi2_cdf(double x, double df)
{
	return gamma_p(df / 2, x / 2);
}

double
hypo_chi2(double a, double df)
{
	double x, z, h, lo = 0, hi;
	int i;

	if (!(a > 0 && a < 1) || !(df > 0))
		return NAN;
	/* Wilson and Hilferty's approximation as the first guess. */
	z = hypo_z(a);
	h = 2.0 / (9 * df);
	x = df * pow(1 - h + z * sqrt(h), 3);
	if (!(x > 0))
		x = df * 0.5;
	/* Newton's method on the upper tail, kept inside a bracket. */
	hi = x;
	while (1 - hypo_chi2_cdf(hi, df) > a)
		hi *= 2;
	for (i = 0; i < 200; i++) {
		double f = (1 - hypo_chi2_cdf(x, df)) - a;
		double dens = exp((df / 2 - 1) * log(x) - x / 2 -
		    (df / 2) * log(2.0) - lgamma(df / 2));
		double nx;

		if (f > 0)
			lo = x;
		else
			hi = x;
		nx = dens > 0 ? x + f / dens : (lo + hi) / 2;
		if (!(nx > lo && nx < hi))
			nx = (lo + hi) / 2;
		if (fabs(nx - x) < 1e-14 * x) {
			x = nx;
			break;
		}
		x = nx;
	}
	return x;
}

int
hypo_k(uint64_t ni, uint64_t n, uint64_t N, uint64_t k, double a, int m)
{
	double p0, p, var;

	if (n >= N)
		return ni >= k;
	p0 = (double)k / (double)N;
	p = (double)ni / (double)n;
	var = p0 * (1 - p0) / (double)n * ((double)(N - n) / (double)(N - 1));
	return p - p0 > hypo_z(a / m) * sqrt(var);
}

int
hypo_recursive(uint64_t x1, uint64_t xl, uint64_t ni, double c,
    uint64_t n, uint64_t N, double a, int m)
{
	double p1, p2, var;

	if (ni < 2)
		return 0;
	p1 = (double)x1 / (double)ni;
	p2 = (double)xl / (double)ni;
	var = (c * c * p2 * (1 - p2) + p1 * (1 - p1)) / (double)(ni - 1) *
	    ((double)(N - n) / (double)N);
	if (var <= 0)
		return c * p2 - p1 > 0;
	return c * p2 - p1 > hypo_z(a / m) * sqrt(var);
}

int
hypo_variance(double svar, uint64_t ni, double v, double a, int m)
{
	if (ni < 2)
		return 0;
	if (v <= 0)
		return 1;
	return (double)(ni - 1) * svar / v > hypo_chi2(a / m,
	    (double)(ni - 1));
}
