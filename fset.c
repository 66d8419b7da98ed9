/*
 * fset.c: frequency sets in memory, the counts (and sums) of a table
 * grouped by its quasi-identifiers: their hash index, the packed
 * counts moved into one (kn_pcount_fset), sums at exact scales, the
 * roll-up of a set to a more general node (Incognito's rollup property,
 * paper 000 §3.1; paper 004 §2 calls the per-attribute sets AV groups)
 * and a set's groups in byte order of their labels.  Above pcount.c;
 * freq.c counts tables into them.
 */
#include <stdlib.h>
#include <string.h>

#include "kanon.h"

/* ---- frequency sets ------------------------------------------------ */

/* Makes room for cap entries. */
static void
fset_reserve(kn_fset *fs, size_t cap)
{
	if (cap <= fs->cap)
		return;
	fs->cap = cap;
	fs->key = kn_realloc(fs->key, cap * (fs->d ? fs->d : 1) *
	    sizeof(uint32_t));
	fs->cnt = kn_realloc(fs->cnt, cap * sizeof(uint64_t));
	if (fs->nsum > 0)
		fs->sum = kn_realloc(fs->sum, cap * fs->nsum * sizeof(kn_sum));
}

void
kn_fset_init(kn_fset *fs, size_t d, size_t nsum)
{
	memset(fs, 0, sizeof(*fs));
	fs->d = d;
	fs->nsum = nsum;
}

void
kn_fset_free(kn_fset *fs)
{
	free(fs->key);
	free(fs->cnt);
	free(fs->sum);
	free(fs->slot);
	memset(fs, 0, sizeof(*fs));
}

static inline uint64_t
key_hash(const uint32_t *k, size_t d)
{
	uint64_t h = KN_HASH_M1;
	size_t i;

	for (i = 0; i < d; i++)
		h = (h ^ k[i]) * KN_HASH_M2 + (h >> 29);
	return kn_hash_mix(h);
}

/* (Re)builds the hash index with room for twice the entries.  A slot
 * holds the upper hash bits and the entry number + 1 (0: empty). */
static void
fset_index(kn_fset *fs)
{
	size_t ns = 1024, i, j, mask;
	uint64_t *slot, h;

	while (ns < 2 * (fs->n + 1))
		ns *= 2;
	mask = ns - 1;
	slot = kn_zalloc_huge(ns * sizeof(uint64_t));
	for (i = 0; i < fs->n; i++) {
		h = key_hash(fs->key + i * fs->d, fs->d);
		for (j = h & mask; slot[j] != 0; j = (j + 1) & mask)
			;
		slot[j] = (h & 0xffffffff00000000ULL) | (i + 1);
	}
	free(fs->slot);
	fs->slot = slot;
	fs->nslot = ns;
}

/* The table being counted with a count column, for messages. */
static const kn_table *cnt_table;
static size_t cnt_col;

void
kn_fset_count_context(const kn_table *t, size_t col)
{
	cnt_table = t;
	cnt_col = col;
}

void
kn_count_overflow(void)
{
	if (cnt_table != NULL)
		kn_table_fail(cnt_table, cnt_col, "'%.*s': the group's count "
		    "overflows 64 bits", (int)cnt_table->f[cnt_col].n,
		    cnt_table->f[cnt_col].p);
	kn_die("a count overflows 64 bits");
}

uint32_t
kn_fset_add(kn_fset *fs, const uint32_t *key, uint64_t cnt)
{
	size_t d = fs->d, mask, j, c;
	uint64_t h, sl, tag;
	uint32_t e;
	const uint32_t *k;

	if (fs->slot == NULL || 2 * (fs->n + 1) > fs->nslot)
		fset_index(fs);
	mask = fs->nslot - 1;
	h = key_hash(key, d);
	tag = h & 0xffffffff00000000ULL;
	for (j = h & mask; (sl = fs->slot[j]) != 0; j = (j + 1) & mask) {
		if ((sl & 0xffffffff00000000ULL) != tag)
			continue;
		e = (uint32_t)(sl & 0xffffffff) - 1;
		k = fs->key + (size_t)e * d;
		for (c = 0; c < d && k[c] == key[c]; c++)
			;
		if (c == d) {
			if (__builtin_add_overflow(fs->cnt[e], cnt,
			    &fs->cnt[e]))
				kn_count_overflow();
			return e;
		}
	}
	if (fs->n >= UINT32_MAX - 1)
		kn_die("more than %u distinct keys", UINT32_MAX - 1);
	/* The first room: 256 keys, or 16 KB of wide ones. */
	if (fs->n == fs->cap)
		fset_reserve(fs, fs->cap ? 2 * fs->cap : d <= 16 ? 256 :
		    d <= 1024 ? 4096 / d : 4);
	e = (uint32_t)fs->n++;
	memcpy(fs->key + (size_t)e * d, key, d * sizeof(uint32_t));
	fs->cnt[e] = cnt;
	if (fs->nsum > 0)
		memset(fs->sum + (size_t)e * fs->nsum, 0,
		    fs->nsum * sizeof(kn_sum));
	fs->slot[j] = tag | ((uint64_t)e + 1);
	return e;
}

/* ---- packed counting into a frequency set --------------------- */

void
kn_pcount_fset(kn_pcount *pc, kn_fset *fs)
{
	size_t i, c, d = pc->d, e;
	uint64_t pk, cnt;
	int fresh = fs->n == 0;

	kn_pcount_flush(pc);
	fset_reserve(fs, fs->n + pc->n + 1);
	for (i = 0; i < pc->nslot; i++) {
		if (!kn_pcount_slot(pc, i, &pk, &cnt))
			continue;
		if (fresh) {
			/* Distinct keys: append; the index is built later. */
			e = fs->n++;
			for (c = 0; c < d; c++)
				fs->key[e * d + c] = kn_pcount_field(pc, pk, c);
			fs->cnt[e] = cnt;
		} else {
			uint32_t k[KN_PMAX];

			for (c = 0; c < d; c++)
				k[c] = kn_pcount_field(pc, pk, c);
			kn_fset_add(fs, k, cnt);
		}
	}
	free(pc->tab);
	memset(pc, 0, sizeof(*pc));
}

/* Raises the scale of a sum to sc (the sum of squares to 2 sc); 0 on
 * overflow.  Each group keeps its own scale, so one value with many
 * decimals does not widen the sums of other groups. */
static int
sum_rescale(kn_sum *p, int sc)
{
	kn_i128 m1;

	if (sc <= p->sc)
		return 1;
	if (sc > 18)
		return 0;
	m1 = kn_pow10(sc - p->sc);
	if (__builtin_mul_overflow(p->s, m1, &p->s) ||
	    __builtin_mul_overflow(p->ss, m1 * m1, &p->ss))
		return 0;
	p->sc = sc;
	return 1;
}

int
kn_fset_addval(kn_fset *fs, size_t i, size_t j, kn_i128 mant, int scale)
{
	kn_sum *p = &fs->sum[i * fs->nsum + j];
	kn_i128 v, sq;

	if (!sum_rescale(p, scale))
		return 0;
	if (__builtin_mul_overflow(mant, kn_pow10(p->sc - scale), &v) ||
	    __builtin_mul_overflow(v, v, &sq) ||
	    __builtin_add_overflow(p->s, v, &p->s) ||
	    __builtin_add_overflow(p->ss, sq, &p->ss))
		return 0;
	return 1;
}

int
kn_fset_addsum(kn_fset *fs, size_t i, size_t j, kn_i128 s, int sc,
    kn_i128 ss, int ssc)
{
	kn_sum *p = &fs->sum[i * fs->nsum + j];
	int need = sc > (ssc + 1) / 2 ? sc : (ssc + 1) / 2;

	if (!sum_rescale(p, need))
		return 0;
	if (__builtin_mul_overflow(s, kn_pow10(p->sc - sc), &s) ||
	    __builtin_mul_overflow(ss, kn_pow10(2 * p->sc - ssc), &ss) ||
	    __builtin_add_overflow(p->s, s, &p->s) ||
	    __builtin_add_overflow(p->ss, ss, &p->ss))
		return 0;
	return 1;
}

void
kn_fset_rollup(const kn_fset *fs, kn_fset *out, const size_t *cols,
    size_t d, uint32_t *const *map)
{
	uint32_t *k = kn_alloc((d + 1) * sizeof(uint32_t)), e;
	size_t i, c, j;
	const uint32_t *src;
	const kn_sum *s;

	kn_fset_init(out, d, fs->nsum);
	for (i = 0; i < fs->n; i++) {
		src = fs->key + i * fs->d;
		for (c = 0; c < d; c++)
			k[c] = map != NULL && map[c] != NULL ?
			    map[c][src[cols[c]]] : src[cols[c]];
		e = kn_fset_add(out, k, fs->cnt[i]);
		for (j = 0; j < fs->nsum; j++) {
			s = &fs->sum[i * fs->nsum + j];
			if (!kn_fset_addsum(out, e, j, s->s, s->sc, s->ss,
			    2 * s->sc))
				kn_die("sum overflow in roll-up");
		}
	}
	free(k);
}

struct ordctx {
	const kn_fset *fs;
	const kn_dict *const *dict;
};

/* Compares two entries by their labels joined with tabs. */
static int
cmp_joined(uint32_t a, uint32_t b, const void *ctx)
{
	const struct ordctx *o = ctx;
	size_t d = o->fs->d, c;
	const uint32_t *ka = o->fs->key + (size_t)a * d;
	const uint32_t *kb = o->fs->key + (size_t)b * d;
	kn_str x, y;
	size_t i;

	for (c = 0; c < d; c++) {
		if (ka[c] == kb[c])
			continue;
		x = kn_dict_get(o->dict[c], ka[c]);
		y = kn_dict_get(o->dict[c], kb[c]);
		for (i = 0; i < x.n && i < y.n; i++)
			if (x.p[i] != y.p[i])
				return (unsigned char)x.p[i] <
				    (unsigned char)y.p[i] ? -1 : 1;
		/* One is a prefix of the other: the next byte of the line
		 * is a tab (a count or key follows every key) for one and a
		 * label byte, never a tab, for the other. */
		{
			int cx = i < x.n ? (unsigned char)x.p[i] : '\t';
			int cy = i < y.n ? (unsigned char)y.p[i] : '\t';

			return cx < cy ? -1 : 1;
		}
	}
	return 0;
}

/* Orders idx by the ranks packed into one 64-bit key per entry, first
 * column most significant, with an LSD radix sort of 11-bit digits.
 * Returns 0 if the ranks need more than 64 bits. */
static int
order_packed(const kn_fset *fs, const kn_dict *const *dict, uint32_t *idx)
{
	size_t n = fs->n, d = fs->d, c, i, b;
	int bits[KN_PMAX + 1], tot = 0, sh, pass;
	uint64_t *key, *ktmp;
	uint32_t *itmp, *rank, cnt[2048];

	if (d > KN_PMAX + 1)
		return 0;
	for (c = 0; c < d; c++) {
		bits[c] = kn_pcount_bits(dict[c]->n);
		tot += bits[c];
	}
	if (tot > 64)
		return 0;
	key = kn_zalloc((n + 1) * sizeof(uint64_t));
	for (sh = tot, c = 0; c < d; c++) {
		sh -= bits[c];
		if (bits[c] == 0)
			continue;
		rank = kn_dict_ranks(dict[c]);
		for (i = 0; i < n; i++)
			key[i] |= (uint64_t)rank[fs->key[i * d + c]] << sh;
		free(rank);
	}
	ktmp = kn_alloc((n + 1) * sizeof(uint64_t));
	itmp = kn_alloc((n + 1) * sizeof(uint32_t));
	for (pass = 0; pass * 11 < tot; pass++) {
		unsigned s = 11 * (unsigned)pass;
		uint32_t sum = 0, x;
		uint64_t *kt;

		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[(key[i] >> s) & 2047]++;
		for (b = 0; b < 2048; b++)
			if (cnt[b] == n)
				break;
		if (b < 2048)
			continue;	/* one digit value: nothing moves */
		for (b = 0; b < 2048; b++) {
			x = cnt[b];
			cnt[b] = sum;
			sum += x;
		}
		for (i = 0; i < n; i++) {
			uint32_t to = cnt[(key[i] >> s) & 2047]++;

			ktmp[to] = key[i];
			itmp[to] = idx[i];
		}
		kt = key;
		key = ktmp;
		ktmp = kt;
		memcpy(idx, itmp, n * sizeof(uint32_t));
	}
	free(key);
	free(ktmp);
	free(itmp);
	return 1;
}

uint32_t *
kn_fset_order(const kn_fset *fs, const kn_dict *const *dict)
{
	size_t n = fs->n, d = fs->d, c, i, pass;
	uint32_t *idx = kn_alloc((n + 1) * sizeof(uint32_t));
	uint32_t *tmp, *rank, *cnt, *t;
	int low = 0;

	for (i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	for (c = 0; c < d; c++)
		low |= dict[c]->lowbyte;
	if (low) {
		struct ordctx o = { fs, dict };

		kn_sort_ids(idx, n, cmp_joined, &o);
		return idx;
	}
	if (order_packed(fs, dict, idx))
		return idx;
	/* LSD radix sort on the byte-order ranks, last column first. */
	tmp = kn_alloc((n + 1) * sizeof(uint32_t));
	cnt = kn_alloc(((size_t)1 << 16) * sizeof(uint32_t));
	for (c = d; c-- > 0;) {
		size_t sz = dict[c]->n;

		rank = kn_dict_ranks(dict[c]);
		for (pass = 0; pass < 2; pass++) {
			unsigned sh = 16 * (unsigned)pass;
			size_t nb = (size_t)1 << 16, sum = 0, b;

			if (pass == 1 && sz <= ((size_t)1 << 16))
				break;
			if (pass == 0 && sz < nb)
				nb = sz ? sz : 1;
			memset(cnt, 0, nb * sizeof(uint32_t));
			for (i = 0; i < n; i++)
				cnt[(rank[fs->key[(size_t)idx[i] * d + c]] >>
				    sh) & 0xffff]++;
			for (b = 0; b < nb; b++) {
				uint32_t x = cnt[b];

				cnt[b] = (uint32_t)sum;
				sum += x;
			}
			for (i = 0; i < n; i++) {
				uint32_t e = idx[i];

				tmp[cnt[(rank[fs->key[(size_t)e * d + c]] >>
				    sh) & 0xffff]++] = e;
			}
			t = idx;
			idx = tmp;
			tmp = t;
		}
		free(rank);
	}
	free(tmp);
	free(cnt);
	return idx;
}
