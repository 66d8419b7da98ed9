/*
 * dict.c: hashing (kn_hash) and dictionaries, the values of a column or
 * a level interned as ids (kn_dict: an arena of the bytes, an open-
 * addressing index of hash tags and ids, a cache of short values) and
 * put in byte order (kn_dict_order, kn_dict_ranks); the merge sort of
 * ids by a comparison (kn_sort_ids).  Above kanon.c (see kanon.h).
 */
#include <stdlib.h>
#include <string.h>

#include "kanon.h"

uint64_t
kn_hash(const void *v, size_t n)
{
	const unsigned char *p = v;
	uint64_t h = KN_HASH_M1 ^ (n * KN_HASH_M2), w;

	while (n >= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * KN_HASH_M1;
		h ^= h >> 32;
		p += 8;
		n -= 8;
	}
	if (n > 0) {
		w = 0;
		memcpy(&w, p, n);
		h = (h ^ w) * KN_HASH_M1;
		h ^= h >> 32;
	}
	return kn_hash_mix(h);
}

void
kn_dict_init(kn_dict *d)
{
	memset(d, 0, sizeof(*d));
	d->nslot = 16;
	d->slot = kn_zalloc(d->nslot * sizeof(uint64_t));
}

void
kn_dict_free(kn_dict *d)
{
	free(d->arena);
	free(d->off);
	free(d->lens);
	free(d->slot);
	free(d->cache);
	memset(d, 0, sizeof(*d));
}

/* The most entries of a dictionary's cache of short values, and the
 * fewest: it has four times as many as the dictionary's hash slots
 * between the two, so that values seldom share an entry (a column of
 * 100 values: 1024 entries, 24 KB), and is made at the DCACHE_AFTER-th
 * look-up only, so that the dictionaries of a table of many columns and
 * few rows, or a hierarchy's dozens of small ones, take none. */
#define DCACHE 4096
#define DCACHE_MIN 16
#define DCACHE_AFTER 4096

/* The entries of the cache of a dictionary of nslot hash slots. */
static size_t
cache_entries(size_t nslot)
{
	return 4 * nslot < DCACHE_MIN ? DCACHE_MIN : 4 * nslot > DCACHE ?
	    DCACHE : 4 * nslot;
}

/* The bytes of d but its cache. */
static size_t
dict_base_bytes(const kn_dict *d)
{
	return d->acap + d->cap * 12 + d->nslot * 8;
}

size_t
kn_dict_bytes(const kn_dict *d)
{
	return dict_base_bytes(d) +
	    (d->cache != NULL ? d->ncache * sizeof(*d->cache) : 0);
}

size_t
kn_dict_bytes_ahead(const kn_dict *d)
{
	return dict_base_bytes(d) + (d->nslot > 0 ?
	    cache_entries(d->nslot) * sizeof(*d->cache) : 0);
}

/*
 * A slot holds the low 32 bits of its value's hash beside the value's
 * id + 1, in one word: a look-up reads one array, and a table of up to
 * 2^32 slots grows from the slots alone, without hashing the values
 * again.
 */
static inline uint64_t
dict_slot(uint64_t h, uint32_t id)
{
	return (h & 0xffffffffu) << 32 | ((uint64_t)id + 1);
}

static void
dict_grow(kn_dict *d)
{
	size_t ns = d->nslot * 2, i, j;
	uint64_t *slot = kn_zalloc_huge(ns * sizeof(uint64_t)), h, e;

	for (i = 0; i < d->nslot; i++) {
		if ((e = d->slot[i]) == 0)
			continue;
		h = e >> 32;
		if (ns > ((uint64_t)1 << 32))
			h = kn_hash(d->arena + d->off[(uint32_t)e - 1],
			    d->lens[(uint32_t)e - 1]);
		for (j = h & (ns - 1); slot[j] != 0; j = (j + 1) & (ns - 1))
			;
		slot[j] = e;
	}
	free(d->slot);
	d->slot = slot;
	d->nslot = ns;
	/* The cache made again, larger, at the next short value. */
	if (d->cache != NULL && d->ncache < DCACHE && d->ncache < 4 * ns) {
		free(d->cache);
		d->cache = NULL;
	}
}

/* The slot of s (hash h) in d, or of the empty slot where it goes. */
static inline size_t
dict_probe(const kn_dict *d, const char *s, size_t n, uint64_t h)
{
	uint64_t tg = h << 32, e;
	size_t j, mask = d->nslot - 1;
	uint32_t id;

	for (j = h & mask; (e = d->slot[j]) != 0; j = (j + 1) & mask) {
		id = (uint32_t)e - 1;
		if ((e & ~(uint64_t)0xffffffffu) == tg && d->lens[id] == n &&
		    memcmp(d->arena + d->off[id], s, n) == 0)
			break;
	}
	return j;
}

static uint32_t dict_intern(kn_dict *, const char *, size_t);
static uint32_t dict_add(kn_dict *, const char *, size_t, uint64_t, size_t);

int64_t
kn_dict_find_at(const kn_dict *d, const char *s, size_t n, kn_dict_at *at)
{
	uint64_t e;

	at->h = kn_hash(s, n);
	at->j = dict_probe(d, s, n, at->h);
	at->n = d->n;
	e = d->slot[at->j];
	return e != 0 ? (int64_t)(uint32_t)(e - 1) : -1;
}

int64_t
kn_dict_find(const kn_dict *d, const char *s, size_t n)
{
	kn_dict_at at;

	return kn_dict_find_at(d, s, n, &at);
}

uint32_t
kn_dict_put_at(kn_dict *d, const char *s, size_t n, const kn_dict_at *at)
{
	if (at->n != d->n || d->slot[at->j] != 0)
		return dict_intern(d, s, n);
	return dict_add(d, s, n, at->h, at->j);
}

/* Interns s; values of at most 16 bytes go through a small cache first,
 * since most columns repeat a few short values. */
uint32_t
kn_dict_intern(kn_dict *d, const char *s, size_t n)
{
	return kn_dict_intern_padded(d, s, n, 0);
}

uint32_t
kn_dict_intern_padded(kn_dict *d, const char *s, size_t n, int padded)
{
	struct kn_dcache *ce;
	uint64_t w[2], slot;
	uint32_t id;

	if (n > 16)
		return dict_intern(d, s, n);
	if (d->cache == NULL) {
		if (d->nlook < DCACHE_AFTER) {
			d->nlook++;
			return dict_intern(d, s, n);
		}
		d->ncache = cache_entries(d->nslot);
		d->cache = kn_zalloc(d->ncache * sizeof(*d->cache));
	}
	slot = kn_short_key(s, n, padded, w);
	ce = &d->cache[slot & (d->ncache - 1)];
	if (ce->id1 != 0 && ce->w[0] == w[0] && ce->w[1] == w[1] &&
	    ce->len == n)
		return ce->id1 - 1;
	id = dict_intern(d, s, n);
	/* Not if the dictionary grew out of its cache (dict_grow). */
	if (d->cache != NULL) {
		ce->w[0] = w[0];
		ce->w[1] = w[1];
		ce->len = (uint32_t)n;
		ce->id1 = id + 1;
	}
	return id;
}

static uint32_t
dict_intern(kn_dict *d, const char *s, size_t n)
{
	uint64_t h = kn_hash(s, n);
	size_t j = dict_probe(d, s, n, h);

	if (d->slot[j] != 0)
		return (uint32_t)(d->slot[j] - 1);
	return dict_add(d, s, n, h, j);
}

/* Adds s (hash h) to d at its empty slot j. */
static uint32_t
dict_add(kn_dict *d, const char *s, size_t n, uint64_t h, size_t j)
{
	size_t k;
	uint32_t id;

	if (d->n >= UINT32_MAX - 1)
		kn_die("more than %u distinct values", UINT32_MAX - 1);
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 8;
		d->off = kn_realloc(d->off, d->cap * sizeof(*d->off));
		d->lens = kn_realloc(d->lens, d->cap * sizeof(*d->lens));
	}
	if (d->alen + n + 1 > d->acap) {
		/* From 64 bytes: a table of many columns has as many
		 * dictionaries, most of few values. */
		while (d->alen + n + 1 > d->acap)
			d->acap = d->acap ? 2 * d->acap : 64;
		d->arena = kn_realloc(d->arena, d->acap);
	}
	memcpy(d->arena + d->alen, s, n);
	d->arena[d->alen + n] = '\0';
	for (k = 0; k < n; k++)
		if ((unsigned char)s[k] < '\t')
			d->lowbyte = 1;
	id = (uint32_t)d->n;
	d->off[id] = d->alen;
	d->lens[id] = (uint32_t)n;
	d->alen += n + 1;
	d->n++;
	d->slot[j] = dict_slot(h, id);
	if (2 * d->n > d->nslot)
		dict_grow(d);
	return id;
}

kn_str
kn_dict_get(const kn_dict *d, uint32_t id)
{
	kn_str s;

	s.p = d->arena + d->off[id];
	s.n = d->lens[id];
	return s;
}

int
kn_bytes_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	int c = memcmp(a, b, an < bn ? an : bn);

	if (c != 0)
		return c < 0 ? -1 : 1;
	return an < bn ? -1 : an > bn;
}

static int
cmp_dictval(uint32_t a, uint32_t b, const void *ctx)
{
	const kn_dict *d = ctx;

	return kn_bytes_cmp(d->arena + d->off[a], d->lens[a],
	    d->arena + d->off[b], d->lens[b]);
}

/*
 * A dictionary's values put in byte order.  Each value becomes a word:
 * four of its bytes from depth, big-endian, 0 past its end, above its
 * id; the words are sorted in place by those bytes (an American flag
 * sort, MSD radix with no second array), each run of equal bytes then
 * settled: the values that end within the four bytes first, shortest
 * first (each a prefix of the others), the rest sorted again on their
 * next four bytes.  Values still alike past DICT_RADIX_DEPTH bytes go
 * to a heap sort by cmp_dictval.  The words are read from the values
 * once each four bytes, in a sequential array: the sort's memory is
 * the 8 bytes a value of the words.
 */
#define DICT_RADIX_DEPTH 64

static inline uint64_t
dict_word(const kn_dict *d, uint32_t id, size_t depth)
{
	const unsigned char *p = (const unsigned char *)d->arena +
	    d->off[id] + depth;
	size_t len = d->lens[id], k;
	uint32_t c = 0;

	for (k = 0; k < 4; k++)
		c = c << 8 | (depth + k < len ? p[k] : 0);
	return (uint64_t)c << 32 | id;
}

/* Sorts a[0..n) by the bytes b.. of their words' high halves. */
static void
dict_wsort(uint64_t *a, size_t n, int b)
{
	size_t cnt[256], next[256], end[256], i, at, c;
	int sh = 0;
	uint64_t v, t;

	while (b < 4 && n >= 32) {
		sh = 56 - 8 * b;
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[a[i] >> sh & 255]++;
		if (cnt[a[0] >> sh & 255] < n)
			break;
		b++;
	}
	if (b == 4)
		return;
	if (n < 32) {
		for (i = 1; i < n; i++) {
			for (v = a[i], c = i; c > 0 && a[c - 1] > v; c--)
				a[c] = a[c - 1];
			a[c] = v;
		}
		return;
	}
	for (at = 0, c = 0; c < 256; c++) {
		next[c] = at;
		at += cnt[c];
		end[c] = at;
	}
	for (c = 0; c < 256; c++)
		while (next[c] < end[c]) {
			v = a[next[c]];
			while ((i = v >> sh & 255) != c) {
				t = a[next[i]];
				a[next[i]++] = v;
				v = t;
			}
			a[next[c]++] = v;
		}
	for (at = 0, c = 0; c < 256; at = end[c++])
		if (end[c] - at > 1)
			dict_wsort(a + at, end[c] - at, b + 1);
}

/* Sift-down of a heap of a[0..n) by cmp_dictval of the words' ids. */
static void
dict_sift(const kn_dict *d, uint64_t *a, size_t i, size_t n)
{
	size_t c;
	uint64_t v = a[i];

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && cmp_dictval((uint32_t)a[c + 1], (uint32_t)a[c],
		    d) > 0)
			c++;
		if (cmp_dictval((uint32_t)a[c], (uint32_t)v, d) <= 0)
			break;
		a[i] = a[c];
		i = c;
	}
	a[i] = v;
}

/* Settles a[0..n), sorted by their words, whose values share their
 * first depth bytes. */
static void
dict_settle(const kn_dict *d, uint64_t *a, size_t n, size_t depth)
{
	size_t i = 0, j, e, k, m;
	uint64_t v;
	uint32_t id;

	for (; i < n; i = j) {
		for (j = i + 1; j < n && a[j] >> 32 == a[i] >> 32; j++)
			;
		if (j - i < 2)
			continue;
		/* The values that end within the four bytes to the front,
		 * the others' next words read (the values' bytes fetched
		 * ahead: they are far apart; each is longer than depth,
		 * since it did not end before). */
		for (e = i, k = i; k < j; k++) {
			if (k + 8 < j)
				__builtin_prefetch(&d->lens[(uint32_t)a[k + 8]]);
			if (k + 4 < j)
				__builtin_prefetch(d->arena +
				    d->off[(uint32_t)a[k + 4]] + depth);
			id = (uint32_t)a[k];
			if (d->lens[id] <= depth + 4) {
				v = a[e];
				a[e++] = a[k];
				a[k] = v;
			} else if (depth + 4 < DICT_RADIX_DEPTH)
				a[k] = dict_word(d, id, depth + 4);
		}
		/* The first by length (at most five, distinct lengths). */
		for (k = i + 1; k < e; k++) {
			for (v = a[k], m = k; m > i &&
			    d->lens[(uint32_t)a[m - 1]] > d->lens[(uint32_t)v];
			    m--)
				a[m] = a[m - 1];
			a[m] = v;
		}
		if ((m = j - e) < 2)
			continue;
		if (depth + 4 >= DICT_RADIX_DEPTH) {
			for (k = m / 2; k-- > 0;)
				dict_sift(d, a + e, k, m);
			for (k = m; k-- > 1;) {
				v = a[e];
				a[e] = a[e + k];
				a[e + k] = v;
				dict_sift(d, a + e, 0, k);
			}
			continue;
		}
		dict_wsort(a + e, m, 0);
		dict_settle(d, a + e, m, depth + 4);
	}
}

uint32_t *
kn_dict_order(const kn_dict *d)
{
	uint64_t *w = kn_alloc((d->n + 1) * sizeof(uint64_t));
	size_t i;
	uint32_t id;

	for (i = 0; i < d->n; i++)
		w[i] = dict_word(d, (uint32_t)i, 0);
	dict_wsort(w, d->n, 0);
	dict_settle(d, w, d->n, 0);
	/* The ids to the array's first half, in place. */
	for (i = 0; i < d->n; i++) {
		id = (uint32_t)w[i];
		memcpy((char *)w + i * sizeof(uint32_t), &id, sizeof(id));
	}
	return kn_realloc(w, (d->n + 1) * sizeof(uint32_t));
}

uint32_t *
kn_dict_ranks(const kn_dict *d)
{
	uint32_t *ids = kn_dict_order(d);
	uint32_t *rank = kn_alloc((d->n + 1) * sizeof(uint32_t));
	size_t i;

	for (i = 0; i < d->n; i++)
		rank[ids[i]] = (uint32_t)i;
	free(ids);
	return rank;
}

/* Merge sort of a[0..n) using tmp. */
static void
msort(uint32_t *a, uint32_t *tmp, size_t n,
    int (*cmp)(uint32_t, uint32_t, const void *), const void *ctx)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	msort(a, tmp, h, cmp, ctx);
	msort(a + h, tmp, n - h, cmp, ctx);
	if (cmp(a[h - 1], a[h], ctx) <= 0)
		return;
	while (i < h && j < n)
		tmp[k++] = cmp(a[j], a[i], ctx) < 0 ? a[j++] : a[i++];
	while (i < h)
		tmp[k++] = a[i++];
	memcpy(a, tmp, k * sizeof(uint32_t));
}

void
kn_sort_ids(uint32_t *a, size_t n,
    int (*cmp)(uint32_t, uint32_t, const void *), const void *ctx)
{
	uint32_t *tmp = kn_alloc((n + 1) * sizeof(uint32_t));

	msort(a, tmp, n, cmp, ctx);
	free(tmp);
}
