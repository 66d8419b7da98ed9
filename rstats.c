/*
 * rstats.c: what recode -r checks of a region's range beyond its
 * holding the rows (regions.c): that its least and greatest values are
 * among its class's rows, and that its mean is theirs, rounded half
 * away from zero to the decimals it is written with (kn_dec_mean, as
 * partition writes it at the column's most decimals plus four, less
 * trailing zeros: mondrian.c's put_mean), or a date's mean day or
 * second (kn_date_mean).  A regions file of another table whose ranges
 * happen to hold this one's rows, with the same counts, would otherwise
 * release another table's ranges and means.  The values are added up
 * exactly as they are read, in the order of the rows; out of core each
 * region's sums are in its record of counts.  recode's own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recode.h"

/* What is wrong, and where, for a message naming it. */
enum { RSTATS_MIN = 1, RSTATS_MAX, RSTATS_BIG, RSTATS_MEAN };
struct rstats_where {
	const char *path, *cid, *iname, *qname;
	const char *fmin, *fmax, *fmean, *means;
	unsigned long long line;
};

void
rstats_take(struct bound *b, kn_i128 m, int sc, int *qsc)
{
	int vs = b->ssc;

	if (b->hit != 3) {
		if (kn_dec_cmp(m, sc, b->lo, b->slo) == 0)
			b->hit |= 1;
		if (kn_dec_cmp(m, sc, b->hi, b->shi) == 0)
			b->hit |= 2;
	}
	if (sc > *qsc)
		*qsc = sc;
	if (b->over)
		return;
	if (sc == vs) {
		if (__builtin_add_overflow(b->sum, m, &b->sum))
			b->over = 1;
	} else if (!kn_dec_add_ok(&b->sum, &vs, m, sc))
		b->over = 1;
	b->ssc = (signed char)vs;
}

/* |v| as an unsigned 128-bit number. */
static unsigned __int128
uabs(kn_i128 v)
{
	return v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
}

/*
 * Whether M / 10^D is sum / 10^ssc over np rounded half away from zero
 * to D decimals, exactly, whatever their sizes: the rounding is the
 * same for |sum| and |M| (of the same sign), so with A = 2 |sum| 10^D,
 * W = np 10^ssc and B = 2 |M| W, B - W <= A < B + W, in 1024 bits.
 */
static int
mean_is(kn_i128 sum, int ssc, uint64_t np, kn_i128 M, int D)
{
	kn_big A, B, W, two, t;

	if ((sum >= 0 && M < 0) || (sum < 0 && M > 0))
		return 0;
	kn_big_set(&two, 2);
	kn_big_set(&A, uabs(sum));
	kn_big_mul(&A, &two);
	kn_big_pow10(&A, D);
	kn_big_set(&W, np);
	kn_big_pow10(&W, ssc);
	kn_big_set(&B, uabs(M));
	kn_big_mul(&B, &W);
	kn_big_mul(&B, &two);
	if (kn_big_cmp(&B, &W) > 0) {
		t = B;
		kn_big_sub(&t, &W);
		if (kn_big_cmp(&t, &A) > 0)
			return 0;
	}
	if (kn_big_cmp(&A, &B) < 0)
		return 1;
	t = A;
	kn_big_sub(&t, &B);
	return kn_big_cmp(&t, &W) < 0;
}

/*
 * What is wrong with the np numbers read into b, against the mean
 * mean / 10^msc as written (a day or second if isdate): 0 if nothing.
 * The mean must be theirs rounded to the decimals it is written with
 * (partition's, at the column's most decimals plus four less trailing
 * zeros, or more), compared exactly.
 */
static int
stats_bad(const struct bound *b, uint64_t np, int isdate, kn_i128 mean,
    int msc)
{
	kn_i128 q;

	if (np == 0)
		return 0;
	if (!(b->hit & 1))
		return RSTATS_MIN;
	if (!(b->hit & 2))
		return RSTATS_MAX;
	if (b->over)
		return RSTATS_BIG;
	if (isdate)
		return kn_date_mean(b->sum, np) == (int64_t)mean ? 0 :
		    RSTATS_MEAN;
	/* In 128 bits when they hold it, else in 1024. */
	if (kn_dec_mean(b->sum, b->ssc, np, msc, &q))
		return q == mean ? 0 : RSTATS_MEAN;
	return mean_is(b->sum, b->ssc, np, mean, msc) ? 0 : RSTATS_MEAN;
}

static void __attribute__((noreturn))
stats_die(const struct rstats_where *w, const struct bound *b,
    uint64_t np, int S, int dform, int bad)
{
	char buf[64];
	kn_i128 q = 0;

	switch (bad) {
	case RSTATS_MIN:
	case RSTATS_MAX:
		kn_die("%s:%llu: class %s: %s is %s, but no row of the class "
		    "in %s has that %s: the regions are not this table's "
		    "(recode(1), The regions)", w->path, w->line, w->cid,
		    bad == RSTATS_MIN ? w->fmin : w->fmax,
		    bad == RSTATS_MIN ? b->los : b->his, w->iname, w->qname);
	case RSTATS_BIG:
		kn_die("%s:%llu: class %s: the values of %s in %s are too "
		    "large to check %s: their sum passes 2^127", w->path,
		    w->line, w->cid, w->qname, w->iname, w->fmean);
	default:
		if (dform != KN_DATE_NONE)
			kn_date_format(kn_date_mean(b->sum, np), dform, buf);
		else if (S == 0 && b->ssc == 0 && b->sum >= 0 &&
		    b->sum % (kn_i128)np == 0)
			kn_dec_format(b->sum / (kn_i128)np, 0, buf);
		else if (kn_dec_mean(b->sum, b->ssc, np, S + 4, &q))
			kn_dec_format(q, S + 4, buf);
		else	/* past 127 bits at S + 4 decimals: not shown */
			buf[0] = '\0';
		kn_die("%s:%llu: class %s: %s is %s, but the class's %llu "
		    "value%s of %s in %s have %s%s: the regions are not this "
		    "table's (recode(1), The regions)", w->path, w->line,
		    w->cid, w->fmean, w->means, (unsigned long long)np,
		    np == 1 ? "" : "s", w->qname, w->iname, *buf != '\0' ?
		    "the mean " : "another mean", buf);
	}
}

/* What rstats.c finds wrong with the numbers of quasi-identifier q read
 * of a class of cnt rows, whose bound is b. */
int
rstats_class(const struct regions *rg, const struct bound *b, size_t q,
    uint64_t cnt)
{
	kn_i128 m = 0;
	int64_t d;
	int sc = 0, isdate = rg->dform[q] != KN_DATE_NONE;

	if (!rg->sums || !rg->num[q] || b->nonum)
		return 0;
	/* The mean as written: checked when the region was read. */
	if (isdate) {
		(void)kn_date_parse(b->means, strlen(b->means), &d);
		m = d;
	} else
		(void)kn_dec_parse(b->means, strlen(b->means), &m, &sc);
	return stats_bad(b, cnt - b->miss, isdate, m, sc);
}

/* Dies for what rstats_class found (bad) of quasi-identifier q of the
 * class cid of line ln, of cnt rows. */
void
rstats_class_die(const struct regions *rg, const struct bound *b, size_t q,
    uint64_t cnt, const char *cid, unsigned long long ln, int bad)
{
	struct rstats_where w;

	w.path = rg->path;
	w.cid = cid;
	w.iname = rg->iname;
	w.qname = rg->qname[q];
	w.fmin = rg->hname[rg->fld[q]];
	w.fmax = rg->hname[rg->fld[q] + 1];
	w.fmean = rg->hname[rg->fld[q] + 2];
	w.means = b->means;
	w.line = ln;
	stats_die(&w, b, cnt - b->miss, rg->qsc[q], rg->dform[q], bad);
}

/* A bound's sums from the four words w of a record (rstats_io). */
static void
words_get(const uint64_t *w, struct bound *b)
{
	b->sum = (kn_i128)((unsigned __int128)w[1] << 64 | w[0]);
	b->ssc = (signed char)w[2];
	b->over = (unsigned char)(w[3] & 1);
	b->hit = (unsigned char)(w[3] >> 1);
}

/* Out of core: the bound of quasi-identifier q of a region from its
 * fields f (checked when first read) and its record's sums w. */
void
rstats_bound(const struct regions *rg, size_t q, char **f,
    const uint64_t *w, struct bound *b)
{
	char **v = f + rg->fld[q];

	memset(b, 0, sizeof(*b));
	if (rg->num[q] == 2 && strcmp(v[3], "0") != 0)
		b->miss = strtoull(v[3], NULL, 10);
	if ((b->nonum = *v[0] == '\0'))
		return;
	b->los = v[0];
	b->his = v[1];
	b->means = v[2];
	words_get(w, b);
}

uint64_t
rstats_io(struct regions *rg, uint64_t *w, int put)
{
	uint64_t any = 0;
	size_t q;

	for (q = 0; rg->sums && q < rg->nqi; q++, w += 4) {
		struct bound *b = &rg->bd[q];
		unsigned __int128 u;

		if (!rg->num[q])
			continue;
		if (put) {
			u = (unsigned __int128)b->sum;
			w[0] = (uint64_t)u;
			w[1] = (uint64_t)(u >> 64);
			w[2] = (uint64_t)b->ssc;
			w[3] = (uint64_t)(b->over | b->hit << 1);
			any |= w[0] | w[1] | w[3];
		} else
			words_get(w, b);
	}
	return any;
}
