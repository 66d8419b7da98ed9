/*
 * sortmem.c: the lines an external sort holds in memory (extsort.c,
 * above it; paper 004 §4, the forming of runs): their keys found in the
 * line, the prefixes of the first two keys, their comparison (byte-wise
 * as memcmp in LC_ALL=C, numeric as sort -n in the C locale: leading
 * blanks, optional '-', digits, optional '.' and fraction; anything
 * else counts as zero), and their stable sorts: a merge sort, on
 * several threads, and an LSD radix sort on the prefixes.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sortmem.h"

/* Parses a number as sort -n sees it; returns its parts. */
struct num {
	int neg;
	const char *ip, *fp;	/* integer digits (no leading zeros), fraction */
	size_t in, fn;		/* (no trailing zeros) */
};

static void
numparse(const char *s, size_t n, struct num *x)
{
	const char *p = s, *end = s + n, *q;

	memset(x, 0, sizeof(*x));
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && *p == '-') {
		x->neg = 1;
		p++;
	}
	while (p < end && *p == '0')
		p++;
	for (q = p; q < end && *q >= '0' && *q <= '9'; q++)
		;
	x->ip = p;
	x->in = (size_t)(q - p);
	if (q < end && *q == '.') {
		p = ++q;
		while (q < end && *q >= '0' && *q <= '9')
			q++;
		x->fp = p;
		x->fn = (size_t)(q - p);
		while (x->fn > 0 && x->fp[x->fn - 1] == '0')
			x->fn--;
	}
	if (x->in == 0 && x->fn == 0)
		x->neg = 0;	/* zero, or not a number: both zero */
}

/* Compares numbers as sort -n does. */
static int
numcmp(const char *a, size_t an, const char *b, size_t bn)
{
	struct num x, y;
	int c, sign;
	size_t m;

	numparse(a, an, &x);
	numparse(b, bn, &y);
	if (x.neg != y.neg)
		return x.neg ? -1 : 1;
	sign = x.neg ? -1 : 1;
	if (x.in != y.in)
		return x.in < y.in ? -sign : sign;
	if ((c = memcmp(x.ip, y.ip, x.in)) != 0)
		return c < 0 ? -sign : sign;
	m = x.fn < y.fn ? x.fn : y.fn;
	if (m > 0 && (c = memcmp(x.fp, y.fp, m)) != 0)
		return c < 0 ? -sign : sign;
	if (x.fn != y.fn)
		return x.fn < y.fn ? -sign : sign;
	return 0;
}

/* Compares two lines with their key offsets ka, kb, from key i on. */
int
kn_sort_keycmp_from(const kn_sorter *s, const char *a, size_t an, const uint32_t *ka,
    const char *b, size_t bn, const uint32_t *kb, size_t i)
{
	int c;

	if (s->nkey == 0)
		return kn_bytes_cmp(a, an, b, bn);
	for (; i < s->nkey; i++) {
		const char *x = a + ka[2 * i], *y = b + kb[2 * i];
		size_t xn = ka[2 * i + 1], yn = kb[2 * i + 1];

		c = s->key[i].numeric ? numcmp(x, xn, y, yn) :
		    kn_bytes_cmp(x, xn, y, yn);
		if (c != 0)
			return s->key[i].reverse ? -c : c;
	}
	return 0;
}

/* The prefixes of the first two keys (or of the whole line, its first
 * 16 bytes in two): eight bytes big-endian for byte keys (exact up to 8
 * bytes: NUL bytes never occur; a line's first eight are followed by
 * the next, exact up to 16), the biased value for numeric keys that are
 * integers of up to 18 digits. */
void
kn_sort_prefix(const kn_sorter *s, const char *line, size_t len, const uint32_t *k,
    pfx *x)
{
	size_t i, j, n, np = s->nkey == 1 ? 1 : 2;
	const char *p;
	uint64_t v;

	memset(x, 0, sizeof(*x));
	for (i = 0; i < np; i++) {
		v = 0;
		if (s->nkey == 0) {
			n = len > 8 * i ? len - 8 * i : 0;
			p = n > 0 ? line + 8 * i : line;
		} else {
			p = line + k[2 * i];
			n = k[2 * i + 1];
		}
		if (s->nkey == 0 || !s->key[i].numeric) {
			for (j = 0; j < 8; j++)
				v = v << 8 | (j < n ? (unsigned char)p[j] : 0);
			x->fast[i] = 1;
			x->exact[i] = n <= 8 || (s->nkey == 0 && i == 0);
		} else {
			struct num u;
			int64_t m = 0;

			numparse(p, n, &u);
			if (u.fn == 0 && u.in <= 18) {
				for (j = 0; j < u.in; j++)
					m = m * 10 + (u.ip[j] - '0');
				if (u.neg)
					m = -m;
				v = (uint64_t)m ^ (1ULL << 63);
				x->fast[i] = x->exact[i] = 1;
			}
		}
		if (s->nkey > 0 && s->key[i].reverse)
			v = ~v;
		x->v[i] = v;
	}
}

static int
reccmp(const kn_sorter *s, const rec *a, const rec *b)
{
	const char *pa = s->arena + a->off, *pb = s->arena + b->off;

	return pfxcmp(s, &a->p, pa, a->len,
	    (const uint32_t *)(const void *)(pa - 8 * s->nkey),
	    &b->p, pb, b->len,
	    (const uint32_t *)(const void *)(pb - 8 * s->nkey));
}

/* Stable merge sort of a[0..n) with scratch t. */
static void
recsort(const kn_sorter *s, rec *a, rec *t, size_t n)
{
	size_t h = n / 2, i = 0, j, k = 0;

	if (n < 16) {
		for (i = 1; i < n; i++) {
			rec x = a[i];

			for (j = i; j > 0 && reccmp(s, &x, &a[j - 1]) < 0; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
		return;
	}
	recsort(s, a, t, h);
	recsort(s, a + h, t, n - h);
	if (reccmp(s, &a[h - 1], &a[h]) <= 0)
		return;
	j = h;
	while (i < h && j < n)
		t[k++] = reccmp(s, &a[j], &a[i]) < 0 ? a[j++] : a[i++];
	while (i < h)
		t[k++] = a[i++];
	memcpy(a, t, k * sizeof(rec));
}

/*
 * Sorting in memory on several threads: the records split in halves
 * sorted at once, each on its share of the threads, then merged by
 * all of them, each writing its own stretch of the output (the split
 * points found on the merge path by binary search).  Ties go to the
 * left half, as in recsort, so the order is the one thread's: the
 * output does not depend on -j.
 */
struct psort {
	const kn_sorter *s;
	rec *a, *t;		/* the records and a scratch as large */
	size_t n;
	int threads;
	/* a merge's share: a[0, na) and b[0, nb) from diagonal d0 to d1
	 * of the merge path into out */
	const rec *ma, *mb;
	size_t na, nb, d0, d1;
	rec *out;
};

/* Where diagonal d of the merge of a[0, na) and b[0, nb) crosses: the
 * number of records of a among the first d of the output. */
static size_t
merge_split(const kn_sorter *s, const rec *a, size_t na, const rec *b,
    size_t nb, size_t d)
{
	size_t lo = d > nb ? d - nb : 0, hi = d < na ? d : na, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		/* a[mid] precedes b[d - mid - 1] (ties go to a): it is
		 * among the first d. */
		if (reccmp(s, &b[d - mid - 1], &a[mid]) >= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Runs fn on each of the nt (at most 64) arguments at arg, of sz bytes
 * each, one thread each; the caller's thread takes the first, and the
 * arguments no thread could be made for. */
void
kn_sort_par_run(void *(*fn)(void *), void *arg, size_t sz, int nt)
{
	pthread_t th[64];
	int k, started;

	for (started = 1; started < nt; started++)
		if (pthread_create(&th[started], NULL, fn,
		    (char *)arg + (size_t)started * sz) != 0)
			break;
	fn(arg);
	for (k = 1; k < started; k++)
		pthread_join(th[k], NULL);
	for (k = started; k < nt; k++)
		fn((char *)arg + (size_t)k * sz);
}

static void *
merge_part(void *arg)
{
	struct psort *p = arg;
	size_t i = merge_split(p->s, p->ma, p->na, p->mb, p->nb, p->d0);
	size_t j = p->d0 - i, k;

	for (k = p->d0; k < p->d1; k++)
		if (j < p->nb && (i == p->na ||
		    reccmp(p->s, &p->mb[j], &p->ma[i]) < 0))
			p->out[k] = p->mb[j++];
		else
			p->out[k] = p->ma[i++];
	return NULL;
}

static void *
psort_run(void *arg)
{
	struct psort *p = arg, half[2], *part;
	size_t h = p->n / 2;
	int k, nt = p->threads;

	if (nt <= 1 || p->n < 2048) {
		recsort(p->s, p->a, p->t, p->n);
		return NULL;
	}
	for (k = 0; k < 2; k++) {
		half[k] = *p;
		half[k].a = p->a + (k ? h : 0);
		half[k].t = p->t + (k ? h : 0);
		half[k].n = k ? p->n - h : h;
		half[k].threads = k ? nt - nt / 2 : nt / 2;
	}
	kn_sort_par_run(psort_run, half, sizeof(half[0]), 2);
	if (reccmp(p->s, &p->a[h - 1], &p->a[h]) <= 0)
		return NULL;
	part = kn_alloc((size_t)nt * sizeof(*part));
	for (k = 0; k < nt; k++) {
		part[k] = *p;
		part[k].ma = p->a;
		part[k].na = h;
		part[k].mb = p->a + h;
		part[k].nb = p->n - h;
		part[k].d0 = p->n * (size_t)k / (size_t)nt;
		part[k].d1 = p->n * (size_t)(k + 1) / (size_t)nt;
		part[k].out = p->t;
	}
	kn_sort_par_run(merge_part, part, sizeof(*part), nt);
	free(part);
	memcpy(p->a, p->t, p->n * sizeof(rec));
	return NULL;
}

/*
 * Sorting by the prefixes first.  When every record's first prefix is
 * fast, a stable LSD radix sort on it (and on the second too, when every
 * first prefix is exact and every second one fast) orders the records
 * as reccmp does wherever the prefixes differ; it passes only over the
 * bytes that differ somewhere.  Where they cannot decide (a key longer
 * than its prefix, a key after the prefixes), each stretch of equal
 * prefixes is then sorted by recsort, which keeps its order on ties:
 * the order is the merge sort's.  Returns 0, having done nothing, when
 * a first prefix is not fast.
 */
static int
radix_sort(const kn_sorter *s, rec *a, rec *t, size_t n)
{
	size_t np = s->nkey == 1 ? 1 : 2, nk = s->nkey == 0 ? 2 : s->nkey;
	size_t i, j, lv, nv, (*cnt)[256];
	uint64_t or[2] = { 0, 0 }, and[2] = { ~0ULL, ~0ULL };
	int fast[2] = { 1, 1 }, exact[2] = { 1, 1 }, b;
	rec *src = a, *dst = t, *x;

	for (i = 0; i < n; i++)
		for (lv = 0; lv < np; lv++) {
			fast[lv] &= a[i].p.fast[lv];
			exact[lv] &= a[i].p.exact[lv];
			or[lv] |= a[i].p.v[lv];
			and[lv] &= a[i].p.v[lv];
		}
	if (!fast[0])
		return 0;
	nv = np == 2 && exact[0] && fast[1] ? 2 : 1;
	cnt = kn_zalloc(8 * nv * sizeof(*cnt));
	for (i = 0; i < n; i++)
		for (lv = 0; lv < nv; lv++)
			for (b = 0; b < 8; b++)
				cnt[8 * lv + b][a[i].p.v[lv] >> 8 * b & 255]++;
	for (lv = nv; lv-- > 0;)
		for (b = 0; b < 8; b++) {
			size_t *c = cnt[8 * lv + b], sum = 0, m;

			if (((or[lv] ^ and[lv]) >> 8 * b & 255) == 0)
				continue;
			for (j = 0; j < 256; j++) {
				m = c[j];
				c[j] = sum;
				sum += m;
			}
			for (i = 0; i < n; i++)
				dst[c[src[i].p.v[lv] >> 8 * b & 255]++] =
				    src[i];
			x = src;
			src = dst;
			dst = x;
		}
	free(cnt);
	if (src != a)
		memcpy(a, src, n * sizeof(rec));
	if (nv == nk && exact[nv - 1])
		return 1;
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && a[j].p.v[0] == a[i].p.v[0] &&
		    (nv == 1 || a[j].p.v[1] == a[i].p.v[1]); j++)
			;
		if (j - i > 1)
			recsort(s, a + i, t, j - i);
	}
	return 1;
}

/* Finds the key fields of a line: their offsets and lengths into k.
 * The fields after the last key's are not looked at: the lines are a
 * table's, whose fields were counted as it was read (kn_table_next), or
 * a caller's, or the runs made of them.  Returns 0 when the line has
 * too few fields for the keys. */
int
kn_sort_split_keys(const kn_sorter *s, const char *line, size_t len, uint32_t *k)
{
	size_t i, c = 0, start = 0;
	uint32_t *at = s->colkey;

	if (s->nkey == 0)
		return 1;
	for (i = 0; c <= s->maxcol; i++)
		if (i == len || line[i] == '\t') {
			if (at[c] != UINT32_MAX) {
				/* Every key on column c (a column may be
				 * two keys: -k a,a:n). */
				size_t j;

				for (j = at[c]; j < s->nkey; j++)
					if (s->key[j].col == c) {
						k[2 * j] = (uint32_t)start;
						k[2 * j + 1] =
						    (uint32_t)(i - start);
					}
			}
			c++;
			start = i + 1;
			if (i == len)
				break;
		}
	return c > s->maxcol;
}

/* The keys and prefixes of records [from, to), which kn_sort_add left
 * to the threads of sort_mem; *bad is set for a short row. */
struct prep {
	kn_sorter *s;
	size_t from, to;
	int bad;
};

static void *
prep_part(void *arg)
{
	struct prep *w = arg;
	kn_sorter *s = w->s;
	size_t i;

	for (i = w->from; i < w->to; i++) {
		rec *r = &s->r[i];
		char *p = s->arena + r->off;
		uint32_t *k = (uint32_t *)(void *)(p - 8 * s->nkey);

		if (!s->keyed && !kn_sort_split_keys(s, p, r->len, k))
			w->bad = 1;
		else
			kn_sort_prefix(s, p, r->len, k, &r->p);
	}
	return NULL;
}

/* Readies the records kn_sort_add left, on the sorter's threads. */
void
kn_sort_prep_all(kn_sorter *s)
{
	struct prep w[64];
	size_t n = s->n - s->nprep;
	int j, nt = s->threads;

	if (n == 0)
		return;
	for (j = 0; j < nt; j++) {
		w[j].s = s;
		w[j].from = s->nprep + n * (size_t)j / (size_t)nt;
		w[j].to = s->nprep + n * (size_t)(j + 1) / (size_t)nt;
		w[j].bad = 0;
	}
	kn_sort_par_run(prep_part, w, sizeof(w[0]), nt);
	for (j = 0; j < nt; j++)
		if (w[j].bad)
			kn_die("(temp run): a line of fewer than %zu fields",
			    s->maxcol + 1);
	s->nprep = s->n;
}

/* Sorts the lines held in memory. */
void
kn_sort_mem(kn_sorter *s)
{
	struct psort p;

	kn_sort_prep_all(s);
	memset(&p, 0, sizeof(p));
	p.s = s;
	p.a = s->r;
	/* scratch: the other half of r */
	p.t = s->scratch != NULL ? s->scratch : s->r + s->n;
	p.n = s->n;
	p.threads = s->threads;
	if (!radix_sort(s, p.a, p.t, p.n))
		psort_run(&p);
}
