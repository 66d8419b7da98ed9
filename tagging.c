/*
 * Predictive tagging over a generalization lattice, for lattice-search's
 * flash algorithm (lattice.c).
 *
 * For a property monotone along generalization (a node qualifies, then
 * so do all its generalizations), one check decides more than its node:
 * a node that qualifies tags all its generalizations as qualifying, one
 * that fails all its specializations as failing.  The checks follow
 * Flash (Kohlmayer, Prasser, Eckert, Kemper and Kuhn, "Flash: Efficient,
 * Stable and Optimal K-Anonymity", 2012): from each node not yet tagged,
 * in order of height, a path goes upward through untagged nodes, and is
 * bisected as OLA (El Emam et al., 2009) bisects its strategy paths.
 * Every node ends tagged, so the minimal qualifying nodes are exact;
 * the nodes checked are the border between the two regions and the few
 * bisection steps that reach it.
 *
 * The lattice is the caller's: nodes are indexes in mixed radix over
 * the attributes, their states bytes whose bits it names; what a check
 * costs (frequency sets, roll-ups) is the caller's too.
 */
#include <stdlib.h>
#include <string.h>

#include "kanon.h"
#include "tagging.h"

/* Counts the levels lev of a node of height h up to those of the next
 * node by index; returns its height. */
static int
next_levels(const struct tag_lattice *tl, int *lev, int h)
{
	int i;

	for (i = 0; i < tl->m; i++) {
		if (lev[i] + 1 < tl->nl[i]) {
			lev[i]++;
			return h + 1;
		}
		h -= lev[i];
		lev[i] = 0;
	}
	return h;
}

void
tag_init(struct tag_lattice *tl, int m, const int *nl, uint8_t *st)
{
	uint64_t x, *bs;
	int i, h, lev[TAG_MAXQ];

	memset(tl, 0, sizeof(*tl));
	tl->m = m;
	tl->size = 1;
	for (i = 0; i < m; i++) {
		tl->nl[i] = nl[i];
		tl->radix[i] = tl->size;
		tl->size *= (uint64_t)nl[i];
		tl->hmax += nl[i] - 1;
		/* Lemire's fast division: exact for 32-bit dividends. */
		tl->magic[i] = nl[i] > 1 ? UINT64_MAX / (uint64_t)nl[i] + 1 :
		    0;
	}
	if (tl->size > UINT32_MAX)
		kn_die("tag_init: a lattice of %llu nodes",
		    (unsigned long long)tl->size);
	tl->st = st;
	/* The nodes by height: a counting sort, the levels counted up
	 * as the index is. */
	bs = kn_zalloc((size_t)(tl->hmax + 2) * sizeof(uint64_t));
	tl->byh = kn_alloc((tl->size + 1) * sizeof(uint32_t));
	memset(lev, 0, sizeof(lev));
	for (x = 0, h = 0; x < tl->size; x++) {
		bs[h + 1]++;
		h = next_levels(tl, lev, h);
	}
	for (h = 0; h <= tl->hmax; h++)
		bs[h + 1] += bs[h];
	for (x = 0, h = 0; x < tl->size; x++) {
		tl->byh[bs[h]++] = (uint32_t)x;
		h = next_levels(tl, lev, h);
	}
	for (h = tl->hmax; h > 0; h--)
		bs[h] = bs[h - 1];
	bs[0] = 0;
	tl->bstart = bs;
	tl->path = kn_alloc((size_t)(tl->hmax + 1) * sizeof(uint64_t));
}

void
tag_free(struct tag_lattice *tl)
{
	free(tl->byh);
	free(tl->bstart);
	free(tl->stack);
	free(tl->path);
	tl->byh = NULL;
	tl->bstart = tl->stack = tl->path = NULL;
}

void
tag_levels(const struct tag_lattice *tl, uint64_t x, int *lev)
{
	uint32_t q = (uint32_t)x, d;
	int i;

	for (i = 0; i < tl->m; i++) {
		if (tl->nl[i] == 1) {
			lev[i] = 0;
			continue;
		}
		d = (uint32_t)(((unsigned __int128)tl->magic[i] * q) >> 64);
		lev[i] = (int)(q - d * (uint32_t)tl->nl[i]);
		q = d;
	}
}

/* Sets bit on x and on the nodes reachable from it by raising (dir 1)
 * or lowering (dir -1) one level at a time, stopping at nodes that
 * have it: depth first, on a stack of its own. */
static void
tag_closure(struct tag_lattice *tl, uint64_t x, uint8_t bit, int dir)
{
	size_t n = 0;
	uint64_t y;
	int i, lev[TAG_MAXQ];

	if (tl->st[x] & bit)
		return;
	tl->st[x] |= bit;
	tl->stack = kn_grow(tl->stack, &tl->stackcap, n, sizeof(uint64_t),
	    64);
	tl->stack[n++] = x;
	while (n > 0) {
		x = tl->stack[--n];
		tag_levels(tl, x, lev);
		for (i = 0; i < tl->m; i++) {
			if (dir > 0 ? lev[i] == tl->nl[i] - 1 : lev[i] == 0)
				continue;
			y = dir > 0 ? x + tl->radix[i] : x - tl->radix[i];
			if (tl->st[y] & bit)
				continue;
			tl->st[y] |= bit;
			tl->stack = kn_grow(tl->stack, &tl->stackcap, n,
			    sizeof(uint64_t), 64);
			tl->stack[n++] = y;
		}
	}
}

void
tag_up(struct tag_lattice *tl, uint64_t x, uint8_t bit)
{
	tag_closure(tl, x, bit, 1);
}

void
tag_down(struct tag_lattice *tl, uint64_t x, uint8_t bit)
{
	tag_closure(tl, x, bit, -1);
}

/* Checks x and tags what its answer implies. */
static int
check_tag(struct tag_lattice *tl, uint64_t x)
{
	int ok = tl->check(tl->ctx, x);

	tl->checked++;
	if (ok) {
		tl->passed++;
		tag_up(tl, x, tl->pass);
	} else
		tag_down(tl, x, tl->fail);
	return ok;
}

/*
 * The path from x upward through untagged nodes, raising at each step
 * the next attribute after the last one raised that can go up to an
 * untagged node (so the path climbs the attributes in turn, through the
 * middle of the lattice, where the border is).  Returns its length.
 */
static int
path_up(struct tag_lattice *tl, uint64_t x)
{
	const uint8_t any = tl->pass | tl->fail;
	int n = 0, i, j, last = tl->m - 1, lev[TAG_MAXQ];
	uint64_t y = 0;

	tl->path[n++] = x;
	for (;;) {
		tag_levels(tl, x, lev);
		for (j = 1; j <= tl->m; j++) {
			i = (last + j) % tl->m;
			if (lev[i] == tl->nl[i] - 1)
				continue;
			y = x + tl->radix[i];
			if (!(tl->st[y] & any))
				break;
		}
		if (j > tl->m)
			return n;
		last = i;
		x = y;
		tl->path[n++] = x;
	}
}

void
tag_classify(struct tag_lattice *tl)
{
	const uint8_t any = tl->pass | tl->fail;
	uint64_t b, x;
	int lo, hi, mid, n;

	for (b = 0; b < tl->size; b++) {
		x = tl->byh[b];
		if (tl->st[x] & any)
			continue;
		/* Bisect the path: its nodes qualify from some point up.
		 * Each check tags the path's nodes on one side of it. */
		n = path_up(tl, x);
		lo = 0;
		hi = n - 1;
		while (lo <= hi) {
			mid = lo + (hi - lo) / 2;
			if (!(tl->st[tl->path[mid]] & any))
				check_tag(tl, tl->path[mid]);
			if (tl->st[tl->path[mid]] & tl->pass)
				hi = mid - 1;
			else
				lo = mid + 1;
		}
	}
}

void
tag_sweep(struct tag_lattice *tl, uint8_t need, uint8_t skip,
    int (*visit)(void *ctx, uint64_t x), void *ctx)
{
	uint64_t b, x;
	int i, lev[TAG_MAXQ];

	for (b = 0; b < tl->size; b++) {
		x = tl->byh[b];
		if ((tl->st[x] & need) != need || (tl->st[x] & skip))
			continue;
		if (!visit(ctx, x))
			continue;
		/* The generalizations, not x itself (visited). */
		tag_levels(tl, x, lev);
		for (i = 0; i < tl->m; i++)
			if (lev[i] < tl->nl[i] - 1)
				tag_up(tl, x + tl->radix[i], skip);
	}
}
