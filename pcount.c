/*
 * pcount.c: packed counting, the fast path of a frequency set: each
 * row's ids packed into one 64-bit key, counted in an open-addressing
 * hash batched by prefetch, the fields widened as the ids grow; and the
 * counts sorted by the byte order of their labels into (key, count)
 * pairs by an LSD radix sort of the labels' ranks.  What cannot be
 * packed (ids past 63 bits together) goes to freq.c's sets.  And
 * lattice-search's packed sets, keyed by their packed ids, with their
 * roll-up through the hierarchies' level maps (kn_pset_rollup).  Above
 * kanon.c and hier.c, below freq.c.
 */
#include <stdlib.h>
#include <string.h>

#include "kanon.h"

static inline uint64_t
pk_hash(uint64_t pk)
{
	return kn_hash_mix(pk * KN_HASH_M1 + KN_HASH_M2);
}

/*
 * The table holds a slot per key, in one of three forms.  Narrow (while
 * the key fits PC_NARROW bits and each count 32): one word, the key + 1
 * in its high half and the count in its low half, so that a million
 * keys take 16 MB where wide slots took 32: the table of each thread of
 * -j stays in the cache longer.  Wide: two words, the key + 1 (up to 63
 * bits) and the count.  A table turns wide, once, when a key needs more
 * bits or a count passes 32 bits.  Direct (dense keys): a 32-bit count
 * for every key the ids seen so far can make, packed in exactly the
 * bits they need, the key its index: no probe and no key stored.  A
 * narrow table that must grow turns direct when the array takes no
 * more than the grown table would (three columns of 100 values are 21
 * bits, 8 MB, where their million keys take 16 MB narrow), at most
 * PC_DIRECT bits; it turns back when an id outgrows that, or wide for a
 * count past 32 bits or of 0, which an empty slot cannot tell.
 */
#define PC_NARROW 31
#define PC_DIRECT 26

/* Bytes of a slot. */
static size_t
pc_slotb(const kn_pcount *pc)
{
	return pc->wide ? 16 : pc->direct ? 4 : 8;
}

size_t
kn_pcount_bytes(const kn_pcount *pc)
{
	/* A hash counted as wide slots whatever its form (see
	 * kn_pcount_flush); the array as it is, with the pairs its keys
	 * will become. */
	return pc->direct ? pc->nslot * 4 + (pc->n + pc->nb) * 16 :
	    pc->nslot * 16;
}

/* A table of ns empty slots, its pages written first: a page that a
 * probe reads before a write would be the shared zero page, whose copy
 * on the write costs every thread of -j a TLB flush. */
static uint64_t *
pc_table(const kn_pcount *pc, size_t ns)
{
	return kn_zalloc_huge(ns * pc_slotb(pc));
}

static inline int
pc_slot(const kn_pcount *pc, size_t i, uint64_t *pk, uint64_t *cnt)
{
	if (pc->direct) {
		uint32_t c = ((const uint32_t *)pc->tab)[i];

		if (c == 0)
			return 0;
		*pk = i;
		*cnt = c;
		return 1;
	}
	if (pc->wide) {
		if (pc->tab[2 * i] == 0)
			return 0;
		*pk = pc->tab[2 * i] - 1;
		*cnt = pc->tab[2 * i + 1];
		return 1;
	}
	if (pc->tab[i] == 0)
		return 0;
	*pk = (pc->tab[i] >> 32) - 1;
	*cnt = pc->tab[i] & 0xffffffffu;
	return 1;
}

int
kn_pcount_slot(const kn_pcount *pc, size_t i, uint64_t *pk, uint64_t *cnt)
{
	return pc_slot(pc, i, pk, cnt);
}

/* Spreads key bits over the d columns, each given at least need[c]: the
 * spare bits as headroom, round the columns; 0 if they pass most. */
static int
pc_spread(size_t d, const int *need, int most, int *bits, int *shift)
{
	int tot = 0, c, sh;

	for (c = 0; c < (int)d; c++) {
		bits[c] = need[c] > 0 ? need[c] : 1;
		tot += bits[c];
	}
	if (tot > most)
		return 0;
	for (c = 0; tot < most; c = (c + 1) % (int)d, tot++)
		bits[c]++;
	for (sh = 0, c = 0; c < (int)d; c++) {
		shift[c] = sh;
		sh += bits[c];
	}
	return 1;
}

int
kn_pcount_init(kn_pcount *pc, size_t d)
{
	int need[KN_PMAX] = { 0 };

	memset(pc, 0, sizeof(*pc));
	/* No column (a table's only count): the general set's. */
	if (d == 0 || d > KN_PMAX)
		return 0;
	pc->d = d;
	pc->wide = d > PC_NARROW;
	pc_spread(d, need, pc->wide ? KN_PMAX : PC_NARROW, pc->bits,
	    pc->shift);
	pc->nslot = 1024;
	pc->tab = pc_table(pc, pc->nslot);
	return 1;
}

/* Inserts packed key pk (+1 stored) with count cnt into a wide tab. */
static inline void
pc_insert_wide(uint64_t *tab, size_t mask, uint64_t pk, uint64_t cnt,
    size_t *n)
{
	size_t j;

	for (j = pk_hash(pk) & mask; tab[2 * j] != 0; j = (j + 1) & mask)
		if (tab[2 * j] == pk + 1) {
			if (__builtin_add_overflow(tab[2 * j + 1], cnt,
			    &tab[2 * j + 1]))
				kn_die("a count overflows 64 bits");
			return;
		}
	tab[2 * j] = pk + 1;
	tab[2 * j + 1] = cnt;
	(*n)++;
}

/* The same into a narrow tab: 0, with nothing changed, when the count
 * would pass 32 bits. */
static inline int
pc_insert_narrow(uint64_t *tab, size_t mask, uint64_t pk, uint64_t cnt,
    size_t *n)
{
	size_t j;

	for (j = pk_hash(pk) & mask; tab[j] != 0; j = (j + 1) & mask)
		if (tab[j] >> 32 == pk + 1) {
			if (cnt > 0xffffffffu - (tab[j] & 0xffffffffu))
				return 0;
			tab[j] += cnt;
			return 1;
		}
	if (cnt > 0xffffffffu)
		return 0;
	tab[j] = (pk + 1) << 32 | cnt;
	(*n)++;
	return 1;
}

/* Adds cnt to key pk's count in a direct tab: 0, with nothing changed,
 * when it would pass 32 bits, or for a count of 0 (a frequency set's
 * group of no rows), which an empty slot cannot hold. */
static inline int
pc_insert_direct(uint64_t *tab, uint64_t pk, uint64_t cnt, size_t *n)
{
	uint32_t *t = (uint32_t *)tab;

	if (cnt == 0 || cnt > 0xffffffffu - t[pk])
		return 0;
	if (t[pk] == 0)
		(*n)++;
	t[pk] += (uint32_t)cnt;
	return 1;
}

/* Key pk of pc, its fields at shift. */
static uint64_t
pc_repack(const kn_pcount *pc, uint64_t pk, const int *shift)
{
	uint64_t np = 0;
	size_t c;

	for (c = 0; c < pc->d; c++)
		np |= (uint64_t)kn_pcount_field(pc, pk, c) << shift[c];
	return np;
}

static int
bitlen(uint64_t v)
{
	int b = 0;

	while (v != 0) {
		b++;
		v >>= 1;
	}
	return b;
}

/* The bits each column's ids added so far need (those of the largest),
 * in need; returns their total. */
static int
pc_need(const kn_pcount *pc, int *need)
{
	size_t c;
	int tot = 0;

	for (c = 0; c < pc->d; c++)
		tot += need[c] = bitlen(pc->seen[c]);
	return tot;
}

/* The slots of a hash table for n keys: a power of 2, at least 1,024,
 * at most 70% full. */
static size_t
pc_hash_slots(size_t n)
{
	size_t ns = 1024;

	while (10 * n > 7 * ns)
		ns *= 2;
	return ns;
}

/* Whether the keys, of tot bits, are better counted direct: the array
 * no larger than a narrow table of their number, within the limit.
 * Sets bits and shift to the fields of need without headroom, the last
 * column lowest (pc_direct_pairs reads it fastest). */
static int
pc_direct_fits(const kn_pcount *pc, const int *need, int tot, int *bits,
    int *shift)
{
	size_t c, b;
	int sh = 0;

	if (tot > PC_DIRECT)
		return 0;
	b = (size_t)4 << tot;
	if (b > 8 * pc_hash_slots(pc->n + pc->nb + 1) ||
	    (pc->limit > 0 && b + (pc->n + pc->nb) * 16 > pc->limit))
		return 0;
	for (c = pc->d; c-- > 0;) {
		bits[c] = need[c];
		shift[c] = sh;
		sh += need[c];
	}
	return 1;
}

/* Moves the counts into a table of ns slots, wide if wide (direct if
 * direct, of a slot per key), each key repacked from the fields of
 * pc->bits and pc->shift into those of bits and shift (NULL: as they
 * are); into a wide one of as many slots as the keys need if a count
 * does not fit the form asked for. */
static void
pc_rebuild(kn_pcount *pc, size_t ns, int wide, int direct,
    const int *bits, const int *shift)
{
	kn_pcount to = *pc;
	uint64_t pk, cnt, np;
	size_t i, n = 0;

	to.wide = wide;
	to.direct = direct;
	to.tab = pc_table(&to, ns);
	for (i = 0; i < pc->nslot; i++) {
		if (!pc_slot(pc, i, &pk, &cnt))
			continue;
		np = shift != NULL ? pc_repack(pc, pk, shift) : pk;
		if (wide)
			pc_insert_wide(to.tab, ns - 1, np, cnt, &n);
		else if (direct ? !pc_insert_direct(to.tab, np, cnt, &n) :
		    !pc_insert_narrow(to.tab, ns - 1, np, cnt, &n)) {
			free(to.tab);
			pc_rebuild(pc, pc_hash_slots(pc->n + pc->nb), 1, 0,
			    bits, shift);
			return;
		}
	}
	free(pc->tab);
	pc->tab = to.tab;
	pc->nslot = ns;
	pc->wide = wide;
	pc->direct = direct;
	if (bits != NULL) {
		memcpy(pc->bits, bits, pc->d * sizeof(int));
		memcpy(pc->shift, shift, pc->d * sizeof(int));
	}
}

/* The table made direct if pc_direct_fits (a narrow one that must
 * grow, a direct one whose ids grew), the batched keys repacked with
 * it. */
static int
pc_to_direct(kn_pcount *pc)
{
	int need[KN_PMAX], bits[KN_PMAX], shift[KN_PMAX], tot;
	kn_pcount from;
	size_t i;

	tot = pc_need(pc, need);
	if (!pc_direct_fits(pc, need, tot, bits, shift))
		return 0;
	from = *pc;
	for (i = 0; i < pc->nb; i++)
		pc->bk[i] = pc_repack(&from, pc->bk[i], shift);
	pc_rebuild(pc, (size_t)1 << tot, 0, 1, bits, shift);
	return 1;
}

void
kn_pcount_flush(kn_pcount *pc)
{
	size_t i;

	if (pc->direct) {
		if (pc->limit > 0 && kn_pcount_bytes(pc) > pc->limit)
			pc->full = 1;	/* the owner spills */
	} else if (10 * (pc->n + pc->nb) > 7 * pc->nslot) {
		/* Counted as wide slots whatever the form: a narrow
		 * table becomes pairs of 16 bytes a key beside its own 8
		 * a slot (kn_pcount_pairs), at most 1.2 times the 16 a
		 * slot counted, where a wide one is made pairs in place
		 * (measured peaks: no more than before). */
		if (pc->limit > 0 && 2 * pc->nslot * 16 > pc->limit &&
		    pc->n + pc->nb + 1 < pc->nslot)
			pc->full = 1;	/* the owner spills instead */
		else if (pc->wide || !pc_to_direct(pc))
			pc_rebuild(pc, 2 * pc->nslot, pc->wide, 0, NULL,
			    NULL);
	}
	for (i = 0; i < pc->nb; i++) {
		if (pc->direct ? pc_insert_direct(pc->tab, pc->bk[i],
		    pc->bc[i], &pc->n) : !pc->wide &&
		    pc_insert_narrow(pc->tab, pc->nslot - 1, pc->bk[i],
		    pc->bc[i], &pc->n))
			continue;
		/* A count past 32 bits turns the table wide, its keys
		 * with the bits they have. */
		if (!pc->wide)
			pc_rebuild(pc, pc->direct ?
			    pc_hash_slots(pc->n + pc->nb) : pc->nslot, 1, 0,
			    NULL, NULL);
		pc_insert_wide(pc->tab, pc->nslot - 1, pc->bk[i], pc->bc[i],
		    &pc->n);
	}
	pc->nb = 0;
}

int
kn_pcount_bits(size_t n)
{
	return bitlen(n > 0 ? n - 1 : 0);
}

/* Reassigns the bits so that the ids added fit, and repacks the table,
 * wide if the keys need more than a narrow slot's bits (a direct one
 * stays direct while pc_direct_fits); 0 if they need more than
 * KN_PMAX. */
static int
pc_widen(kn_pcount *pc)
{
	int need[KN_PMAX], bits[KN_PMAX], shift[KN_PMAX], wide;
	size_t d = pc->d;

	/* The flush may turn the table wide (found by review: a count
	 * past 32 bits in the batch was lost by a narrow rebuild). */
	kn_pcount_flush(pc);
	wide = pc->wide;
	if (pc->direct && pc_to_direct(pc))
		return 1;
	(void)pc_need(pc, need);
	if (!wide && !pc_spread(d, need, PC_NARROW, bits, shift))
		wide = 1;
	if (wide && !pc_spread(d, need, KN_PMAX, bits, shift))
		return 0;
	pc_rebuild(pc, pc->direct ? pc_hash_slots(pc->n + 1) : pc->nslot,
	    wide, 0, bits, shift);
	return 1;
}

int
kn_pcount_add(kn_pcount *pc, const uint32_t *key, uint64_t cnt)
{
	uint64_t pk = 0;
	size_t c, d = pc->d;

	for (c = 0; c < d; c++) {
		if (key[c] > pc->seen[c])
			pc->seen[c] = key[c];
		if ((uint64_t)key[c] >> pc->bits[c] != 0) {
			if (!pc_widen(pc))
				return 0;
			return kn_pcount_add(pc, key, cnt);
		}
		pk |= (uint64_t)key[c] << pc->shift[c];
	}
	if (pc->direct)
		__builtin_prefetch((uint32_t *)pc->tab + pk, 1);
	else
		__builtin_prefetch(pc->tab + (pk_hash(pk) & (pc->nslot - 1)) *
		    (pc->wide ? 2 : 1), 1);
	pc->bk[pc->nb] = pk;
	pc->bc[pc->nb] = cnt;
	if (++pc->nb == KN_PBATCH)
		kn_pcount_flush(pc);
	return 1;
}

/* LSD radix sort of n (key, value) pairs by key, 11-bit digits over
 * the low tot bits; skips digits where all keys agree. */
static void
radix_pairs(uint64_t *a, size_t n, int tot)
{
	uint64_t *t = kn_alloc_huge((2 * n + 2) * sizeof(uint64_t));
	uint64_t *src = a, *dst = t, *x;
	uint32_t cnt[2048], sum, v;
	size_t i, b;
	int pass;

	for (pass = 0; pass * 11 < tot; pass++) {
		unsigned sh = 11 * (unsigned)pass;

		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[(src[2 * i] >> sh) & 2047]++;
		for (b = 0; b < 2048 && cnt[b] != n; b++)
			;
		if (b < 2048)
			continue;
		for (sum = 0, b = 0; b < 2048; b++) {
			v = cnt[b];
			cnt[b] = sum;
			sum += v;
		}
		for (i = 0; i < n; i++) {
			uint32_t to = cnt[(src[2 * i] >> sh) & 2047]++;

			dst[2 * to] = src[2 * i];
			dst[2 * to + 1] = src[2 * i + 1];
		}
		x = src;
		src = dst;
		dst = x;
	}
	if (src != a)
		memcpy(a, src, 2 * n * sizeof(uint64_t));
	free(t);
}

/* Whether counts over the labels dict[0..d) can be sorted by their
 * ranks (kn_pcount_sorted): no label holds a byte below TAB, and the
 * ranks fit a key. */
int
kn_pcount_sortable(size_t d, const kn_dict *const *dict)
{
	size_t c;
	int tot = 0;

	for (c = 0; c < d; c++) {
		if (dict[c]->lowbyte)
			return 0;
		tot += bitlen(dict[c]->n > 0 ? dict[c]->n - 1 : 0);
	}
	return tot <= KN_PMAX;
}

/* Column c's ids up to pc->seen[c] in the order of their ranks (which
 * are distinct); caller frees. */
static uint32_t *
pc_rank_order(const kn_pcount *pc, const uint32_t *rank, size_t c)
{
	size_t m = (size_t)pc->seen[c] + 1, top = 0, i, k = 0;
	uint32_t *at, *ord = kn_alloc(m * sizeof(uint32_t));

	for (i = 0; i < m; i++)
		if (rank[i] >= top)
			top = (size_t)rank[i] + 1;
	at = kn_alloc(top * sizeof(uint32_t));
	memset(at, 0xff, top * sizeof(uint32_t));
	for (i = 0; i < m; i++)
		at[rank[i]] = (uint32_t)i;
	for (i = 0; i < top; i++)
		if (at[i] != UINT32_MAX)
			ord[k++] = at[i];
	free(at);
	return ord;
}

/* A direct table's pairs into a, in the order of their keys rewritten
 * from the ranks (rank and shift as kn_pcount_pairs), with no sort: the
 * slots read as an odometer over each column's ids in the order of
 * their ranks, the last column (the table's lowest bits) the fastest;
 * returns their number. */
static size_t
pc_direct_pairs(const kn_pcount *pc, uint32_t *const *rank,
    const int *shift, uint64_t *a)
{
	const uint32_t *t = (const uint32_t *)pc->tab;
	uint32_t *ord[KN_PMAX];
	uint64_t pk[KN_PMAX + 1], nk[KN_PMAX + 1];
	size_t d = pc->d, at[KN_PMAX], c, from = 0, n = 0;

	for (c = 0; c < d; c++) {
		ord[c] = pc_rank_order(pc, rank[c], c);
		at[c] = 0;
	}
	pk[0] = nk[0] = 0;
	for (;;) {
		/* The keys' parts from column from on. */
		for (c = from; c < d; c++) {
			uint32_t id = ord[c][at[c]];

			pk[c + 1] = pk[c] | (uint64_t)id << pc->shift[c];
			nk[c + 1] = nk[c] | (uint64_t)rank[c][id] << shift[c];
		}
		if (t[pk[d]] != 0) {
			a[2 * n] = nk[d];
			a[2 * n + 1] = t[pk[d]];
			n++;
		}
		for (c = d; c > 0 && ++at[c - 1] > pc->seen[c - 1]; c--)
			at[c - 1] = 0;
		if (c == 0)
			break;
		from = c - 1;
	}
	for (c = 0; c < d; c++)
		free(ord[c]);
	return n;
}

/*
 * Adds the counts of direct table pc into sum, a count for each
 * combination of the columns' ranks (rank[c], of each id), at the index
 * the sum over c of its rank times stride[c]: only the keys whose first
 * column's rank is in [lo, hi), so that threads may add the tables
 * into parts of sum of their own.  Each run of the last column's ids
 * (the table's lowest bits) is read in order.
 */
void
kn_pcount_addto(const kn_pcount *pc, uint32_t *const *rank,
    const size_t *stride, uint32_t lo, uint32_t hi, uint64_t *sum)
{
	const uint32_t *t = (const uint32_t *)pc->tab;
	const uint32_t *rl;
	size_t d = pc->d, last = d - 1, c, i, n, pk, gk;
	uint32_t at[KN_PMAX], id0, r0;

	if (!pc->direct || pc->nb > 0 || pc->shift[last] != 0)
		kn_die("internal error: kn_pcount_addto on a table not "
		    "direct and flushed");
	rl = rank[last];
	n = (size_t)pc->seen[last] + 1;
	for (id0 = 0; id0 <= pc->seen[0]; id0++) {
		r0 = rank[0][id0];
		if (r0 < lo || r0 >= hi)
			continue;
		if (d == 1) {
			sum[r0] += t[id0];
			continue;
		}
		/* The middle columns' ids as an odometer. */
		for (c = 1; c < last; c++)
			at[c] = 0;
		for (;;) {
			pk = (size_t)id0 << pc->shift[0];
			gk = (size_t)r0 * stride[0];
			for (c = 1; c < last; c++) {
				pk |= (size_t)at[c] << pc->shift[c];
				gk += (size_t)rank[c][at[c]] * stride[c];
			}
			for (i = 0; i < n; i++)
				if (t[pk + i] != 0)
					sum[gk + rl[i]] += t[pk + i];
			for (c = last; c-- > 1 && ++at[c] > pc->seen[c];)
				at[c] = 0;
			if (c == 0)
				break;
		}
	}
}

/* Compacts pc's table into pairs (key, count), each key rewritten from
 * the ranks rank[c] of its ids in bits[c] bits, the first column
 * highest (shift[c] is set), sorted by key; returns their number and
 * leaves pc empty. */
size_t
kn_pcount_pairs(kn_pcount *pc, uint32_t *const *rank, const int *bits, int *shift,
    uint64_t **pairs)
{
	size_t d = pc->d, c, i, n = 0;
	uint64_t *a, pk, nk;
	int tot = 0, sh;

	kn_pcount_flush(pc);
	for (c = 0; c < d; c++)
		tot += bits[c];
	for (sh = tot, c = 0; c < d; c++) {
		sh -= bits[c];
		shift[c] = sh;
	}
	/* Re-key by the ranks: in place in a wide table (pair n is at or
	 * before slot i), into pairs of their own from a narrow one; a
	 * direct one's in order, with no sort. */
	if (!pc->wide) {
		/* On huge pages, written in order (a direct table's) or
		 * not: a small page's first touch is a fault, which costs
		 * more than zeroing the page on a virtual machine. */
		a = kn_alloc_huge((2 * pc->n + 2) * sizeof(uint64_t));
	} else
		a = pc->tab;
	if (pc->direct) {
		n = pc_direct_pairs(pc, rank, shift, a);
		free(pc->tab);
		*pairs = a;
		memset(pc, 0, sizeof(*pc));
		return n;
	}
	for (i = 0; i < pc->nslot; i++) {
		uint64_t cnt;

		if (!pc_slot(pc, i, &pk, &cnt))
			continue;
		nk = 0;
		for (c = 0; c < d; c++)
			nk |= (uint64_t)rank[c][kn_pcount_field(pc, pk, c)] <<
			    shift[c];
		a[2 * n] = nk;
		a[2 * n + 1] = cnt;
		n++;
	}
	if (a != pc->tab)
		free(pc->tab);
	radix_pairs(a, n, tot);
	*pairs = a;
	memset(pc, 0, sizeof(*pc));
	return n;
}

size_t
kn_pcount_sorted(kn_pcount *pc, const kn_dict *const *dict,
    uint64_t **pairs, int *shift, int *bits, uint32_t **inv)
{
	size_t d = pc->d, c, n;
	uint32_t *rank[KN_PMAX] = { NULL };

	if (!kn_pcount_sortable(d, dict))
		return (size_t)-1;
	for (c = 0; c < d; c++) {
		bits[c] = bitlen(dict[c]->n > 0 ? dict[c]->n - 1 : 0);
		rank[c] = kn_dict_ranks(dict[c]);
	}
	n = kn_pcount_pairs(pc, rank, bits, shift, pairs);
	for (c = 0; c < d; c++) {
		if (inv != NULL) {
			size_t i, m = dict[c]->n;

			inv[c] = kn_alloc((m + 1) * sizeof(uint32_t));
			for (i = 0; i < m; i++)
				inv[c][rank[c][i]] = (uint32_t)i;
		}
		free(rank[c]);
	}
	return n;
}

/* ---- packed frequency sets (lattice-search) ---------------------- */

static inline uint64_t
pset_hash(const uint64_t *k, int W)
{
	uint64_t h = 0;
	int w;

	for (w = 0; w < W; w++)
		h = (h ^ k[w]) * 0x9E3779B97F4A7C15ULL;
	return h ^ (h >> 29);
}

void
kn_pset_free(kn_pset *f)
{
	if (f == NULL)
		return;
	free(f->key);
	free(f->cnt);
	free(f);
}

size_t
kn_pscratch_begin(kn_pscratch *s, size_t most)
{
	size_t nslot;

	for (nslot = 16; nslot < 2 * most; nslot *= 2)
		;
	if (nslot > s->nslot) {
		free(s->tab);
		s->tab = kn_zalloc_huge(nslot * sizeof(*s->tab));
		s->nslot = nslot;
		s->gen = 0;
	}
	/* Slots of an earlier generation are empty: no clearing. */
	if (++s->gen == 0) {
		memset(s->tab, 0, s->nslot * sizeof(*s->tab));
		s->gen = 1;
	}
	return nslot;
}

/* A roll-up's change of one field: the bits of fm at shift in word w
 * mapped through map. */
struct pset_op {
	int w, shift;
	uint64_t fm;
	const uint32_t *map;
	size_t nid;		/* ids of the map: those past it never occur */
};

/*
 * A joint map: the fields of adjacent ops, with the kept bits between
 * them, looked up in one: one load where each op took one.  A roll-up
 * from the base set maps most fields, and the look-ups were most of its
 * time.  Made for a call, in at most PSET_JBITS bits, where the groups
 * to roll up outweigh its entries.
 */
#define PSET_JBITS 10
#define PSET_JMAX 4
typedef uint32_t pset_joint[1 << PSET_JBITS];

/* How many groups ahead kn_pset_rollup fetches their slots (also in a
 * table that fits the second-level cache: without, Adult took 5%
 * longer). */
#define PSET_AHEAD 16

/* One look-up of a one-word roll-up: the bits of m at shift mapped
 * through map, an op's level map or a joint map. */
struct pset_look {
	int shift;
	uint64_t m;
	const uint32_t *map;
};

/*
 * Rolls up the n one-word groups (sk, sc) with the nl look-ups lk, the
 * bits of keep kept, and counts them in tab (generation gen, nslot
 * slots) into dk and dc; returns the groups made, in the order first
 * met.  Each group's key and slot are found PSET_AHEAD groups early
 * (at e, into ring slot e % PSET_AHEAD) and the slot fetched, so that
 * the misses of a table larger than the caches overlap; group
 * i = e - PSET_AHEAD is counted first, from the ring slot that group e
 * then takes.  Inlined with nl a constant, the look-ups unroll.
 */
static inline __attribute__((always_inline)) size_t
pset_count1(const uint64_t *sk, const uint64_t *sc, size_t n,
    uint64_t keep, const struct pset_look *lk, size_t nl, kn_pslot *tab,
    uint32_t gen, size_t nslot, uint64_t *dk, uint64_t *dc)
{
	uint64_t rk[PSET_AHEAD];
	size_t rh[PSET_AHEAD], e, i, j, out = 0, mask = nslot - 1;
	size_t ahead = n < PSET_AHEAD ? n : PSET_AHEAD;
	int hs = 64 - __builtin_ctzll(nslot);

#define PSET_FETCH(e) do {						\
	size_t r_ = (e) % PSET_AHEAD;					\
	uint64_t k_ = sk[e], x_ = k_ & keep;				\
									\
	for (j = 0; j < nl; j++)					\
		x_ |= (uint64_t)lk[j].map[k_ >> lk[j].shift &		\
		    lk[j].m] << lk[j].shift;				\
	rk[r_] = x_;							\
	rh[r_] = (x_ * 0x9E3779B97F4A7C15ULL) >> hs;			\
	__builtin_prefetch(&tab[rh[r_]]);				\
} while (0)
#define PSET_COUNT(i) do {						\
	uint64_t k0 = rk[(i) % PSET_AHEAD];				\
	size_t h = rh[(i) % PSET_AHEAD];				\
									\
	while (tab[h].gen == gen && tab[h].key != k0)			\
		h = (h + 1) & mask;					\
	if (tab[h].gen == gen)						\
		dc[tab[h].idx] += sc[i];				\
	else {								\
		tab[h].gen = gen;					\
		tab[h].key = k0;					\
		tab[h].idx = (uint32_t)out;				\
		dk[out] = k0;						\
		dc[out++] = sc[i];					\
	}								\
} while (0)
	for (e = 0; e < ahead; e++)
		PSET_FETCH(e);
	for (; e < n; e++) {
		PSET_COUNT(e - PSET_AHEAD);
		PSET_FETCH(e);
	}
	for (i = e >= PSET_AHEAD ? e - PSET_AHEAD : 0; i < n; i++)
		PSET_COUNT(i);
#undef PSET_FETCH
#undef PSET_COUNT
	return out;
}

/*
 * The look-ups of the one-word ops (in the order of their shifts, as
 * the layout's fields are) into lk: runs of them whose fields lie
 * within PSET_JBITS bits of each other each one look-up of a joint map
 * made in jm (at most PSET_JMAX), where rolling n groups saves more
 * look-ups than filling the map costs, their bits cleared in *keep; the
 * other ops each their own.  Returns the look-ups made.
 */
static size_t
pset_join(const struct pset_op *ops, size_t nop, uint64_t *keep, size_t n,
    pset_joint *jm, struct pset_look *lk)
{
	size_t i, j, k, c, nj = 0, nl = 0;
	uint64_t m;
	uint32_t x;
	int lo, span, width;

	for (i = 0; i < nop; i = j) {
		lo = ops[i].shift;
		span = 0;
		for (j = i; j < nop; j++) {
			width = 64 - __builtin_clzll(ops[j].fm);
			if (ops[j].shift + width - lo > PSET_JBITS)
				break;
			span = ops[j].shift + width - lo;
		}
		c = j - i;
		/* An op's look-up is about 7 instructions, an entry of the
		 * map about 6 per op and 4 more. */
		if (c < 2 || nj == PSET_JMAX || (uint64_t)n * 7 * (c - 1) <
		    ((uint64_t)1 << span) * (6 * c + 4)) {
			if (j == i)
				j = i + 1;
			for (k = i; k < j; k++)
				lk[nl++] = (struct pset_look){ ops[k].shift,
				    ops[k].fm, ops[k].map };
			continue;
		}
		m = ((uint64_t)1 << span) - 1;
		for (x = 0; x <= m; x++) {
			uint64_t r = x & (*keep >> lo) & m;

			for (k = i; k < j; k++) {
				uint64_t id = x >> (ops[k].shift - lo) &
				    ops[k].fm;

				if (id < ops[k].nid)
					r |= (uint64_t)ops[k].map[id] <<
					    (ops[k].shift - lo);
			}
			jm[nj][x] = (uint32_t)r;
		}
		*keep &= ~(m << lo);
		lk[nl++] = (struct pset_look){ lo, m, jm[nj++] };
	}
	return nl;
}

/* The key sk of W words rolled up into k; its hash. */
static inline uint64_t
pset_rolled_w(const uint64_t *sk, int W, const uint64_t *keep,
    const struct pset_op *ops, size_t nop, uint64_t *k)
{
	size_t j;
	int w;

	for (w = 0; w < W; w++)
		k[w] = sk[w] & keep[w];
	for (j = 0; j < nop; j++) {
		uint64_t id = sk[ops[j].w] >> ops[j].shift & ops[j].fm;

		k[ops[j].w] |= (uint64_t)ops[j].map[id] << ops[j].shift;
	}
	return pset_hash(k, W);
}

/* Counts cnt rows of the key k of W words at slot h onwards of tab
 * (generation gen, mask), into dst's first n groups; their number. */
static size_t
pset_count_w(kn_pslot *tab, uint32_t gen, size_t mask, size_t h,
    const uint64_t *k, int W, uint64_t cnt, kn_pset *dst, size_t n)
{
	for (;; h = (h + 1) & mask) {
		if (tab[h].gen != gen) {
			tab[h].gen = gen;
			tab[h].key = k[0];
			tab[h].idx = (uint32_t)n;
			memcpy(dst->key + n * W, k, W * sizeof(uint64_t));
			dst->cnt[n] = cnt;
			return n + 1;
		}
		if (tab[h].key == k[0] && memcmp(dst->key +
		    (size_t)tab[h].idx * W, k, W * sizeof(uint64_t)) == 0) {
			dst->cnt[tab[h].idx] += cnt;
			return n;
		}
	}
}

/*
 * Rolls the packed frequency set src of node (amask, alev) up to the
 * node (bmask, blev), which generalizes it or drops attributes (the
 * roll-up property of paper 000): each key is mapped through the
 * hierarchies and the counts of keys that meet are added, in a hash
 * table of s's.  The groups come in the order they are first met.
 */
kn_pset *
kn_pset_rollup(const kn_playout *ly, kn_pscratch *s, const kn_pset *src,
    uint64_t amask, const int *alev, uint64_t bmask, const int *blev)
{
	struct pset_op ops[KN_PMAXQ];
	uint64_t keep[8];
	size_t j, nop = 0, nslot, n = 0, bound;
	uint64_t prod;
	kn_pslot *tab;
	uint32_t gen;
	const int W = ly->W;
	kn_pset *dst;
	int w;

	for (w = 0; w < W; w++)
		keep[w] = ~(uint64_t)0;
	for (j = 0; j < ly->d; j++) {
		const kn_pfield *a = &ly->f[j];

		if (!(amask >> j & 1))
			continue;
		if (!(bmask >> j & 1))
			keep[a->word] &= ~(a->fm << a->shift);
		else if (alev[j] != blev[j]) {
			keep[a->word] &= ~(a->fm << a->shift);
			ops[nop].w = a->word;
			ops[nop].shift = a->shift;
			ops[nop].fm = a->fm;
			ops[nop].map = a->map[alev[j] * a->nlev + blev[j]];
			ops[nop].nid = a->h->lab[alev[j]].n;
			nop++;
		}
	}
	/* The output has at most min(src->n, product of the label counts
	 * at the target levels) groups: a small table for general nodes. */
	bound = src->n;
	for (j = 0, prod = 1; j < ly->d && prod < bound; j++)
		if (bmask >> j & 1)
			prod *= ly->f[j].h->lab[blev[j]].n;
	if (ly->sprod != 0 && prod < bound)
		prod = ly->sprod > bound / prod ? bound : prod * ly->sprod;
	if (prod < bound)
		bound = prod;
	nslot = kn_pscratch_begin(s, bound);
	gen = s->gen;
	tab = s->tab;
	dst = kn_alloc(sizeof(*dst));
	dst->key = kn_alloc((bound + 1) * W * sizeof(uint64_t));
	dst->cnt = kn_alloc((bound + 1) * sizeof(uint64_t));
	if (W == 1) {
		/* One key word: the common case, its look-ups unrolled for
		 * the usual counts. */
		pset_joint jm[PSET_JMAX];
		struct pset_look lk[KN_PMAXQ];
		uint64_t kp = keep[0];
		size_t nl = pset_join(ops, nop, &kp, src->n, jm, lk);

#define PSET_COUNT1(nl) pset_count1(src->key, src->cnt, src->n, kp, lk,	\
	(nl), tab, gen, nslot, dst->key, dst->cnt)
		switch (nl) {
		case 0: n = PSET_COUNT1(0); break;
		case 1: n = PSET_COUNT1(1); break;
		case 2: n = PSET_COUNT1(2); break;
		case 3: n = PSET_COUNT1(3); break;
		case 4: n = PSET_COUNT1(4); break;
		case 5: n = PSET_COUNT1(5); break;
		default: n = PSET_COUNT1(nl); break;
		}
#undef PSET_COUNT1
	} else {
		/* Several words: the same, each key made in rk. */
		uint64_t rk[PSET_AHEAD][8];
		size_t rh[PSET_AHEAD], e;

		for (e = 0; e < src->n + PSET_AHEAD; e++) {
			size_t r = e % PSET_AHEAD;

			if (e >= PSET_AHEAD)
				n = pset_count_w(tab, gen, nslot - 1, rh[r],
				    rk[r], W, src->cnt[e - PSET_AHEAD], dst, n);
			if (e < src->n) {
				rh[r] = pset_rolled_w(src->key + e * W, W, keep,
				    ops, nop, rk[r]) & (nslot - 1);
				__builtin_prefetch(&tab[rh[r]]);
			}
		}
	}
	dst->n = n;
	return dst;
}
