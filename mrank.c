/*
 * mrank.c: partition's numeric quasi-identifiers ranked (paper 003 §4:
 * a dimension's values in order, each row's value replaced by its
 * rank): the numbers brought to their column's scale, ranked by a
 * table of the values present when their range is dense, else by a
 * radix sort; in memory every numeric QI at once, the columns on the
 * threads of -j and the dense columns' ranks copied into the records
 * in one pass over the rows, shared out among the threads (a radix
 * sort's ranks go to the records as it ends).  Split from mload.c,
 * which loads the numbers; below mondrian.c and rothko.c, which call
 * it once all rows are read.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kanon.h"
#include "mondrian.h"

/* Ranks the values of a numeric column: brings them to the column's
 * scale, as keys in place of dm->raw, and gives each its rank by a
 * table of the values present when their range is dense, else by a
 * radix sort of (value, row) pairs, the sort within sortmu if not NULL
 * (one sort's memory at a time).  The ranks go to the records' word j,
 * or with rkp, when the range is dense, to an array of a rank a row
 * (0 for a missing value) in *rkp, for mond_rank_numbers to copy with
 * the other columns' in one pass over the records.  With no dm->rsc, dm->raw holds the
 * keys already (numkey.c: at the scale dm->S, not below dm->fS; 0 for a
 * missing value when dm->miss), and rmn, rmx and rnum their least and
 * largest and how many are numbers.  0 if the values do not fit 64 bits
 * at the column's scale (dm->S): nothing is ranked then. */
static int
rank_numeric(struct part *pt, struct dim *dm, size_t j,
    pthread_mutex_t *sortmu, uint32_t **rkp)
{
	uint64_t *a = (uint64_t *)dm->raw, *b, *t, mn = UINT64_MAX, mx = 0;
	uint32_t *ra, *rb, *rt, r = 0, base;
	size_t i, n;
	int S = 0, sh;
	const int8_t *sc = dm->rsc;
	const int miss = dm->miss;

	/* With keys, 0 is a missing value's, or -2^63's in a column with
	 * none missing (numkey_finish). */
#define PRESENT(i) (sc != NULL ? sc[i] >= 0 : a[i] != 0 || !miss)
	if (sc == NULL) {
		mn = dm->rmn;
		mx = dm->rmx;
		n = dm->rnum;
		goto ranked;
	}
	for (i = 0, S = dm->fS; i < pt->nrows; i++)
		if (dm->rsc[i] > S)
			S = dm->rsc[i];
	dm->S = S;
	/* The rows whose value is missing keep rank 0 (mond_load); the
	 * numbers of the others are ranked from 1 on. */
	for (i = 0, n = 0; i < pt->nrows; i++) {
		int64_t v;

		if (dm->rsc[i] < 0)
			continue;
		if (__builtin_mul_overflow(dm->raw[i],
		    (int64_t)kn_pow10(S - dm->rsc[i]), &v))
			return 0;
		a[i] = (uint64_t)v ^ ((uint64_t)1 << 63);
		if (a[i] < mn)
			mn = a[i];
		if (a[i] > mx)
			mx = a[i];
		n++;
	}
ranked:
	r = base = dm->miss != 0;
	if (n > 0 && mx - mn < 4 * (uint64_t)n + 65536) {
		/* A dense range: ranks by a table of the values present. */
		uint32_t *tab = kn_zalloc((size_t)(mx - mn + 2) *
		    sizeof(uint32_t));
		uint64_t v;

		for (i = 0; i < pt->nrows; i++)
			if (PRESENT(i))
				tab[a[i] - mn] = 1;
		dm->vals = kn_alloc((n + 2) * sizeof(int64_t));
		for (v = 0; v <= mx - mn; v++)
			if (tab[v]) {
				dm->vals[r] = (int64_t)((v + mn) ^
				    ((uint64_t)1 << 63));
				tab[v] = r++;
			}
		if (rkp != NULL) {
			/* In place of the keys, the array halved after: a
			 * rank's 4 bytes never pass the keys still to read
			 * (stored bytewise: the two types alias). */
			for (i = 0; i < pt->nrows; i++) {
				uint32_t rk = PRESENT(i) ? tab[a[i] - mn] : 0;

				memcpy((char *)a + i * sizeof(rk), &rk,
				    sizeof(rk));
			}
			*rkp = kn_realloc(a, (pt->nrows + 1) *
			    sizeof(uint32_t));
			a = NULL;
		} else
			for (i = 0; i < pt->nrows; i++)
				if (PRESENT(i))
					pt->rec[i * pt->rec_words + j] =
					    tab[a[i] - mn];
		free(tab);
		dm->nrank = r;
		free(a);
		goto done;
	}
	if (sortmu != NULL)
		pthread_mutex_lock(sortmu);
	b = kn_alloc((n + 1) * sizeof(uint64_t));
	ra = kn_alloc((n + 1) * sizeof(uint32_t));
	rb = kn_alloc((n + 1) * sizeof(uint32_t));
	for (i = 0, n = 0; i < pt->nrows; i++)
		if (PRESENT(i)) {
			a[n] = a[i];
			ra[n++] = (uint32_t)i;
		}
	free(dm->rsc);
	dm->rsc = NULL;
	sc = NULL;
	for (sh = 0; sh < 64 && n > 0 && ((mx - mn) >> sh) != 0;
	     sh += 11) {
		uint32_t *c = kn_zalloc((2048 + 1) * sizeof(uint32_t));

		for (i = 0; i < n; i++)
			c[(((a[i] - mn) >> sh) & 0x7ff) + 1]++;
		for (i = 1; i <= 2048; i++)
			c[i] += c[i - 1];
		for (i = 0; i < n; i++) {
			size_t p = c[((a[i] - mn) >> sh) & 0x7ff]++;

			b[p] = a[i];
			rb[p] = ra[i];
		}
		free(c);
		t = a, a = b, b = t;
		rt = ra, ra = rb, rb = rt;
	}
	dm->vals = kn_alloc((n + 2) * sizeof(int64_t));
	for (i = 0; i < n; i++) {
		if (i > 0 && a[i] != a[i - 1])
			r++;
		if (i == 0 || a[i] != a[i - 1])
			dm->vals[r] = (int64_t)(a[i] ^ ((uint64_t)1 << 63));
		pt->rec[(size_t)ra[i] * pt->rec_words + j] = r;
	}
	dm->nrank = n > 0 ? r + 1 : base;
	free(a);
	free(b);
	free(ra);
	free(rb);
	if (sortmu != NULL)
		pthread_mutex_unlock(sortmu);
done:
	free(dm->rsc);
	dm->raw = NULL;
	dm->rsc = NULL;
	dm->vals = kn_realloc(dm->vals, (dm->nrank + 2) * sizeof(int64_t));
	if (base)
		dm->vals[0] = dm->nrank > 1 ? dm->vals[1] : 0;
	return 1;
#undef PRESENT
}

/* Says that the values of dm do not fit 64 bits at its scale. */
static void __attribute__((noreturn))
rank_die(struct part *pt, const struct dim *dm)
{
	kn_die("%s: column '%s': the values do not fit 64 bits with %d "
	    "decimals each", pt->inname, dm->name, dm->S);
}

void
mond_rank_numeric(struct part *pt, struct dim *dm, size_t j)
{
	if (!rank_numeric(pt, dm, j, NULL, NULL))
		rank_die(pt, dm);
}

/* The numeric QIs ranked on threads, which take them in turn. */
struct rankpar {
	struct part *pt;
	pthread_mutex_t mu, sortmu;
	size_t next;
	int *ok;
	uint32_t **rk;		/* a column's ranks by row (rank_numeric) */
};

size_t
mond_rank_next(const struct part *pt, pthread_mutex_t *mu, size_t *next)
{
	size_t j;

	pthread_mutex_lock(mu);
	while (*next < pt->nqi && pt->dims[*next].h != NULL)
		(*next)++;
	j = (*next)++;
	pthread_mutex_unlock(mu);
	return j;
}

static void *
rank_work(void *arg)
{
	struct rankpar *rp = arg;
	struct part *pt = rp->pt;
	size_t j;

	while ((j = mond_rank_next(pt, &rp->mu, &rp->next)) < pt->nqi)
		rp->ok[j] = rank_numeric(pt, &pt->dims[j], j, &rp->sortmu,
		    &rp->rk[j]);
	return NULL;
}

/* Thread entry of rank_work, with no signals. */
static void *
rank_thread(void *arg)
{
	kn_thread_nosignals();
	return rank_work(arg);
}

/* The ranks of the columns ranked apart (rk[j], rank_numeric) copied
 * into the records' words, rows [lo, hi): each record written once for
 * all of them, where a column's own pass wrote every record again. */
struct rankcopy {
	struct part *pt;
	uint32_t **rk;
	size_t lo, hi;
};

static void *
rank_copy(void *arg)
{
	struct rankcopy *c = arg;
	struct part *pt = c->pt;
	size_t i, j, m = 0, W = pt->rec_words;
	size_t *col = kn_alloc((pt->nqi + 1) * sizeof(size_t));

	for (j = 0; j < pt->nqi; j++)
		if (c->rk[j] != NULL)
			col[m++] = j;
	for (i = c->lo; i < c->hi; i++)
		for (j = 0; j < m; j++)
			pt->rec[i * W + col[j]] = c->rk[col[j]][i];
	free(col);
	return NULL;
}

static void *
rank_copy_thread(void *arg)
{
	kn_thread_nosignals();
	return rank_copy(arg);
}

void
mond_rank_numbers(struct part *pt)
{
	struct rankpar rp;
	struct rankcopy rc[64];
	pthread_t th[64];
	size_t j, nnum = 0;
	int nt = pt->jobs, k, started = 0;

	for (j = 0; j < pt->nqi; j++)
		nnum += pt->dims[j].h == NULL;
	if (nt > 64)
		nt = 64;
	if (nt < 1)
		nt = 1;
	memset(&rp, 0, sizeof(rp));
	rp.pt = pt;
	rp.ok = kn_zalloc((pt->nqi + 1) * sizeof(int));
	rp.rk = kn_zalloc((pt->nqi + 1) * sizeof(uint32_t *));
	pthread_mutex_init(&rp.mu, NULL);
	pthread_mutex_init(&rp.sortmu, NULL);
	/* The columns taken in turn, on at most one thread each. */
	for (k = 1; (size_t)k < nnum && k < nt; k++, started++)
		if (pthread_create(&th[started], NULL, rank_thread, &rp) != 0)
			break;
	rank_work(&rp);
	for (k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	/* One thread names the first column that does not fit. */
	for (j = 0; j < pt->nqi; j++)
		if (pt->dims[j].h == NULL && !rp.ok[j])
			rank_die(pt, &pt->dims[j]);
	/* The dense columns' ranks into the records, the rows shared out
	 * among the threads. */
	for (k = 0; k < nt; k++) {
		rc[k].pt = pt;
		rc[k].rk = rp.rk;
		rc[k].lo = pt->nrows * (size_t)k / (size_t)nt;
		rc[k].hi = pt->nrows * (size_t)(k + 1) / (size_t)nt;
	}
	for (started = 0, k = 1; k < nt; k++, started++)
		if (pthread_create(&th[started], NULL, rank_copy_thread,
		    &rc[k]) != 0)
			break;
	rank_copy(&rc[0]);
	for (k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	/* Rows of threads that did not start. */
	for (k = started + 1; k < nt; k++)
		rank_copy(&rc[k]);
	for (j = 0; j < pt->nqi; j++)
		free(rp.rk[j]);
	free(rp.rk);
	free(rp.ok);
	pthread_mutex_destroy(&rp.mu);
	pthread_mutex_destroy(&rp.sortmu);
}
