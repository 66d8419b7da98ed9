/*
 * hypo.h: the statistics of Rothko-S (paper 004 §3.1): quantiles of the
 * normal and chi-square distributions and the three hypothesis tests
 * that decide, from a sample, whether a split is allowable.
 */
#ifndef HYPO_H
#define HYPO_H

#include <stdint.h>

/* The upper quantile of the standard normal: z with P(Z > z) = a. */
double hypo_z(double a);
/* The upper quantile of chi-square with df degrees of freedom: x with
 * P(X > x) = a. */
double hypo_chi2(double a, double df);
/* P(X <= x) for chi-square with df degrees of freedom. */
double hypo_chi2_cdf(double x, double df);

/* k-anonymity (§3.1.1): whether a sample part of ni of the n sampled
 * rows lets us reject "the population part has k rows or fewer"
 * (population N, level a, m parts: Bonferroni a/m).  Exact when n = N. */
int hypo_k(uint64_t ni, uint64_t n, uint64_t N, uint64_t k, double a,
    int m);
/* Recursive (c,l)-diversity (§3.1.2): x1 the count of the most frequent
 * sensitive value in the sample part of ni rows, xl the sum of the
 * counts from the l-th on. */
int hypo_recursive(uint64_t x1, uint64_t xl, uint64_t ni, double c,
    uint64_t n, uint64_t N, double a, int m);
/* Variance diversity (§3.1.3): svar the sample variance (divisor ni-1)
 * of the sensitive values in a sample part of ni rows. */
int hypo_variance(double svar, uint64_t ni, double v, double a, int m);

#endif
