/*
 * rgroups.c: the frequency groups of partition's nodes on disk (paper
 * 004 §2: the AV, AVS and AVC sets), for Rothko-T, Rothko-S and the
 * cluster jobs: the reader of node files (the spool's records mapped to
 * codes), the counting of a node's rows into its groups (by code in an
 * array, or hashed with the sensitive value and the label), a streamed
 * dimension's statistics, and the groups made sorted lists, with the
 * ranks of a number's keys, the node's totals and its extents.
 */
#include <stdlib.h>
#include <string.h>

#include "kanon.h"
#include "mondrian.h"
#include "rothko.h"

/* Maps a spooled record's leaves and labels to codes (its numbers are
 * keys already). */
static void
map_record(struct part *pt, uint32_t *r)
{
	size_t j;

	for (j = 0; j < pt->nqi; j++)
		if (pt->dims[j].h != NULL)
			r[j] = pt->dims[j].dfsrank[r[j]];
	if (pt->split == SPLIT_INFOGAIN)
		r[pt->word_targ] = pt->label_rank[r[pt->word_targ]];
}

void
rothko_read_open(struct part *pt, struct oread *rd, const struct onode *on)
{
	rd->nd = on;
	if ((rd->f = kn_tmp_open(on->path, "rb")) == NULL)
		kn_die_sys("%s", on->path);
	rd->buf = kn_alloc(MOND_CHUNK * pt->dwords * sizeof(uint32_t));
	rd->n = rd->i = 0;
	rd->chunk = 0;
	pt->acct.scans++;
}

/* The next record, mapped, or NULL at the end. */
uint32_t *
rothko_read_next(struct part *pt, struct oread *rd)
{
	size_t i;

	if (rd->i == rd->n) {
		rd->n = fread(rd->buf, pt->dwords * sizeof(uint32_t),
		    MOND_CHUNK, rd->f);
		rd->i = 0;
		if (rd->n == 0) {
			if (ferror(rd->f))
				kn_die_sys("%s: read error", rd->nd->path);
			return NULL;
		}
		pt->acct.bread += rd->n * pt->dwords * sizeof(uint32_t);
		kn_progress(pt->acct.classed, pt->acct.bread);
		if (rd->nd->raw) {
			numkey_rescale(pt, rd->buf, rd->n, rd->chunk++);
			for (i = 0; i < rd->n; i++)
				map_record(pt, rd->buf + i * pt->dwords);
		}
	}
	return rd->buf + pt->dwords * rd->i++;
}

void
rothko_read_close(struct oread *rd)
{
	fclose(rd->f);
	free(rd->buf);
}

static uint64_t
ghash(uint64_t c, uint32_t s, uint32_t y)
{
	uint64_t h = (c * 0x9e3779b97f4a7c15ULL) ^
	    ((uint64_t)s * 0xc2b2ae3d27d4eb4fULL) ^
	    ((uint64_t)y * 0x165667b19e3779f9ULL);

	return h ^ (h >> 29);
}

/* The memory of a group: with the rank and the value of its key when
 * it is a number's (groups_rank). */
static size_t
gent_bytes(const struct gtab *g)
{
	return sizeof(struct gent) + (g->ranked ? 2 * sizeof(uint64_t) : 0);
}

void
rothko_gtab_add(struct part *pt, struct gtab *g, uint64_t c, uint32_t s,
    uint32_t y, uint64_t cnt)
{
	size_t h, i;

	if (2 * (g->n + 1) > g->nslot) {
		size_t ns = g->nslot ? 2 * g->nslot : 1024, k;

		free(g->slot);
		pt->rk->gbytes += (ns - g->nslot) * sizeof(uint32_t);
		g->slot = kn_zalloc(ns * sizeof(uint32_t));
		g->nslot = ns;
		for (k = 0; k < g->n; k++) {
			h = ghash(g->e[k].code, g->e[k].s, g->e[k].y) &
			    (ns - 1);
			while (g->slot[h] != 0)
				h = (h + 1) & (ns - 1);
			g->slot[h] = (uint32_t)k + 1;
		}
		if (pt->rk->gbytes > pt->rk->avail && pt->rk->gsoft)
			pt->rk->gover = 1;
		else if (pt->rk->gbytes > pt->rk->avail)
			kn_die("-S %zu: too small: the frequency groups of a "
			    "node need more (%zu bytes so far)", pt->budget,
			    pt->rk->gbytes);
	}
	h = ghash(c, s, y) & (g->nslot - 1);
	while ((i = g->slot[h]) != 0) {
		struct gent *e = &g->e[i - 1];

		if (e->code == c && e->s == s && e->y == y) {
			e->cnt += cnt;
			return;
		}
		h = (h + 1) & (g->nslot - 1);
	}
	if (g->n == g->cap) {
		pt->rk->gbytes += g->cap * gent_bytes(g);
		if (pt->rk->gbytes > pt->rk->avail && pt->rk->gsoft) {
			/* Over before it grows: the scan ends (gover). */
			pt->rk->gover = 1;
			return;
		}
		g->cap = g->cap ? 2 * g->cap : 1024;
		g->e = kn_realloc(g->e, g->cap * sizeof(struct gent));
	}
	g->e[g->n].code = c;
	g->e[g->n].s = s;
	g->e[g->n].y = y;
	g->e[g->n].cnt = cnt;
	g->slot[h] = (uint32_t)++g->n;
}

/* Empties g for a new count, keeping its list's memory (counted in
 * gbytes) if keep, else freeing it too. */
void
rothko_gclear(struct part *pt, struct gtab *g, int keep)
{
	free(g->slot);
	free(g->arr);
	g->arr = NULL;
	g->slot = NULL;
	g->nslot = 0;
	g->n = 0;
	if (!keep) {
		free(g->e);
		g->e = NULL;
		g->cap = 0;
	}
	pt->rk->gbytes += g->cap * gent_bytes(g);
}

/* The counts by code of dimension j fit an array of this many: the
 * leaves of a hierarchy, or a numeric column of a small range; 0:
 * not. */
static size_t
dense_dom(struct part *pt, size_t j)
{
	const struct dim *dm = &pt->dims[j];

	if (dm->h != NULL)
		return dm->ncode;
	if (!pt->keyed)
		return dm->nrank;
	return (uint64_t)((kn_i128)dm->gmx - dm->gmn) < 65536 ?
	    (size_t)((kn_i128)dm->gmx - dm->gmn) + 2 : 0;
}

/* A key's place in the dense counts of dimension j, and back: 0 for a
 * missing value, then the numbers from the least. */
static size_t
dense_idx(struct part *pt, size_t j, uint64_t key)
{
	const struct dim *dm = &pt->dims[j];

	if (dm->h != NULL || !pt->keyed)
		return (size_t)key;
	if (key == 0 && dm->miss)
		return 0;
	return (size_t)(numkey_value(key) - dm->gmn) + 1;
}

static uint64_t
dense_key(struct part *pt, size_t j, size_t i)
{
	const struct dim *dm = &pt->dims[j];

	if (dm->h != NULL || !pt->keyed)
		return i;
	if (i == 0)
		return 0;
	return (uint64_t)(dm->gmn + (int64_t)(i - 1)) ^ ((uint64_t)1 << 63);
}

/* Counts a row of code c of dimension j into g: in an array indexed by
 * the code when the groups are plain counts, else in the hash. */
static void
gcount(struct part *pt, struct gtab *g, size_t j, const uint32_t *r)
{
	size_t dom;

	g->ranked = pt->keyed && pt->dims[j].h == NULL;
	if (pt->rk->gdense && (dom = dense_dom(pt, j)) > 0) {
		if (g->arr == NULL) {

			pt->rk->gbytes += (dom + 1) * (sizeof(uint64_t) +
			    (g->ranked ? 2 * sizeof(uint64_t) : 0));
			if (pt->rk->gbytes > pt->rk->avail && pt->rk->gsoft) {
				pt->rk->gover = 1;
				return;
			}
			if (pt->rk->gbytes > pt->rk->avail)
				kn_die(
				    "-S %zu: too small: the frequency groups "
				    "of a node need more (%zu bytes so far)",
				    pt->budget, pt->rk->gbytes);
			g->arr = kn_zalloc((dom + 1) * sizeof(uint64_t));
		}
		g->arr[dense_idx(pt, j, rothko_disk_key(pt, r, j))]++;
		return;
	}
	rothko_gtab_add(pt, g, rothko_disk_key(pt, r, j),
	    pt->has_sens ? r[pt->word_sens] : 0,
	    pt->split != SPLIT_MEDIAN ? r[pt->word_targ] : 0, 1);
}

/* Clears what a scan counts of a node besides its groups. */
void
rothko_count_clear(struct part *pt)
{
	size_t j;

	rothko_gclear(pt, &pt->rk->gtot, 0);
	for (j = 0; j < pt->nqi; j++)
		memset(&pt->rk->sst[j], 0, sizeof(struct sstat));
}

/* Counts record r of a node into its groups G[0..nqi), or for a
 * streamed dimension into its statistics, and into the node's
 * totals. */
void
rothko_count_row(struct part *pt, struct gtab *G, const uint32_t *r)
{
	size_t j;

	for (j = 0; j < pt->nqi; j++) {
		struct sstat *st = &pt->rk->sst[j];
		uint64_t key;
		int64_t v;

		if (!rothko_streamed(pt, j)) {
			gcount(pt, &G[j], j, r);
			continue;
		}
		key = rothko_disk_key(pt, r, j);
		if (key == 0 && pt->dims[j].miss) {
			st->nmiss++;
			continue;
		}
		v = numkey_value(key);
		if (st->nnum == 0 || v < st->mn)
			st->mn = v;
		if (st->nnum == 0 || v > st->mx)
			st->mx = v;
		st->nnum++;
		st->sum += v;
	}
	if (pt->rk->streaming)
		rothko_gtab_add(pt, &pt->rk->gtot, 0,
		    pt->has_sens ? r[pt->word_sens] : 0,
		    pt->split != SPLIT_MEDIAN ? r[pt->word_targ] : 0, 1);
}

/* Turns dense counts into the sorted list of groups. */
static void
gdense_list(struct part *pt, struct gtab *g, size_t j)
{
	size_t dom = dense_dom(pt, j), c;

	if (g->arr == NULL)
		return;
	g->n = 0;
	for (c = 0; c < dom; c++) {
		if (g->arr[c] == 0)
			continue;
		g->e = kn_grow(g->e, &g->cap, g->n, sizeof(struct gent), 1024);
		g->e[g->n].code = dense_key(pt, j, c);
		g->e[g->n].s = g->e[g->n].y = 0;
		g->e[g->n].cnt = g->arr[c];
		g->n++;
	}
	free(g->arr);
	g->arr = NULL;
}

static int
cmp_gent(const void *a, const void *b)
{
	const struct gent *x = a, *y = b;

	if (x->code != y->code)
		return x->code < y->code ? -1 : 1;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return x->y < y->y ? -1 : x->y > y->y;
}

/* Moves e[root] down the heap e[0..n) to its place. */
static void
gent_sift(struct gent *e, size_t root, size_t n)
{
	size_t kid;
	struct gent t;

	for (; (kid = 2 * root + 1) < n; root = kid) {
		if (kid + 1 < n && cmp_gent(&e[kid], &e[kid + 1]) < 0)
			kid++;
		if (cmp_gent(&e[root], &e[kid]) >= 0)
			break;
		t = e[root];
		e[root] = e[kid];
		e[kid] = t;
	}
}

/* Sorts groups by cmp_gent in place (a heapsort: qsort's scratch would
 * be as large as the groups, outside the budget; no two groups are
 * equal, so the order is qsort's). */
static void
sort_gents(struct gent *e, size_t n)
{
	size_t i;
	struct gent t;

	for (i = n / 2; i-- > 0;)
		gent_sift(e, i, n);
	for (i = n; i-- > 1;) {
		t = e[0];
		e[0] = e[i];
		e[i] = t;
		gent_sift(e, 0, i);
	}
}

/* Scans a node for its groups, totals and extents (pt->node). */
void
rothko_node_groups(struct part *pt, const struct onode *on)
{
	struct oread rd;
	uint32_t *r;
	size_t j;

	pt->rk->gbytes = 0;
	pt->rk->streaming = pt->keyed;	/* a region needs no groups */
	for (j = 0; j < pt->nqi; j++)
		rothko_gclear(pt, &pt->rk->gtab[j], 1);
	rothko_count_clear(pt);
	rothko_read_open(pt, &rd, on);
	while ((r = rothko_read_next(pt, &rd)) != NULL)
		rothko_count_row(pt, pt->rk->gtab, r);
	rothko_read_close(&rd);
	rothko_groups_finish(pt, on->n);
}

/* Makes room for a node's ranks of numeric dimension dm, n of them
 * (their memory is counted with the groups: gent_bytes). */
static void
local_room(struct dim *dm, size_t n)
{
	if (dm->lcap >= n)
		return;
	dm->lcap = n;
	dm->vals = kn_realloc(dm->vals, n * sizeof(int64_t));
	dm->lkey = kn_realloc(dm->lkey, n * sizeof(uint64_t));
}

/* Frees the ranks of a numeric dimension's values. */
void
rothko_local_free(struct dim *dm)
{
	if (dm->h != NULL)
		return;
	free(dm->vals);
	free(dm->lkey);
	dm->vals = NULL;
	dm->lkey = NULL;
	dm->lcap = 0;
	dm->nrank = 0;
}

/* The groups of numeric dimension j, sorted, by the ranks of their
 * keys among the node's (rank 0 for a missing value): what the cuts and
 * regions are chosen from, as in memory, with the node's own vals and
 * lkey (the key of each rank). */
static void
groups_rank(struct part *pt, size_t j)
{
	struct dim *dm = &pt->dims[j];
	struct gtab *g = &pt->rk->gtab[j];
	uint32_t r = dm->miss ? 1 : 0;
	size_t i;

	local_room(dm, g->n + 2);
	dm->vals[0] = dm->gmn;
	dm->lkey[0] = 0;
	for (i = 0; i < g->n; i++) {
		uint64_t key = g->e[i].code;

		if (dm->miss && key == 0) {
			g->e[i].code = 0;
			continue;
		}
		if (r == (dm->miss ? 1 : 0) || key != dm->lkey[r - 1]) {
			dm->lkey[r] = key;
			dm->vals[r] = numkey_value(key);
			r++;
		}
		g->e[i].code = r - 1;
	}
	dm->nrank = r;
}

/* The extent of streamed dimension j from its statistics: codes 0 (a
 * missing value), 1 and 2 (the least and largest numbers) in a table
 * of three ranks, which are all the widths and regions need. */
static void
stream_extent(struct part *pt, size_t j)
{
	struct dim *dm = &pt->dims[j];
	const struct sstat *st = &pt->rk->sst[j];

	local_room(dm, 3);
	dm->vals[0] = dm->gmn;
	dm->lkey[0] = 0;
	dm->vals[1] = st->mn;
	dm->vals[2] = st->mx;
	dm->lkey[1] = (uint64_t)st->mn ^ ((uint64_t)1 << 63);
	dm->lkey[2] = (uint64_t)st->mx ^ ((uint64_t)1 << 63);
	dm->nrank = 3;
	pt->node.mn[j] = st->nmiss > 0 || st->nnum == 0 ? 0 : 1;
	pt->node.mx[j] = st->nnum == 0 ? 0 : st->mn == st->mx ? 1 : 2;
}

/* From the groups in gt of a node of n rows: sorted lists, the totals
 * and extents (pt->node). */
void
rothko_groups_finish(struct part *pt, uint64_t n)
{
	size_t i, j;

	const struct gtab *g0 = pt->rk->streaming ? &pt->rk->gtot :
	    &pt->rk->gtab[0];

	for (j = 0; j < pt->nqi; j++) {
		if (rothko_streamed(pt, j))
			continue;
		if (pt->rk->gtab[j].arr != NULL)
			gdense_list(pt, &pt->rk->gtab[j], j);
		else
			sort_gents(pt->rk->gtab[j].e, pt->rk->gtab[j].n);
		if (pt->keyed && pt->dims[j].h == NULL)
			groups_rank(pt, j);
	}
	/* Totals from the first dimension's groups. */
	pt->node.b = 0;
	pt->node.n = n;
	pt->node.sorted = pt->nqi;
	memset(&pt->node.tot, 0, sizeof(pt->node.tot));
	pt->nstouch = pt->nltouch = 0;
	for (i = 0; i < g0->n; i++) {
		const struct gent *e = &g0->e[i];

		if (pt->has_sens && pt->hs_tot[e->s] == 0)
			pt->stouch[pt->nstouch++] = e->s;
		if (pt->has_sens)
			pt->hs_tot[e->s] += e->cnt;
		if (pt->split == SPLIT_INFOGAIN && pt->hl_tot[e->y] == 0)
			pt->ltouch[pt->nltouch++] = e->y;
		if (pt->split == SPLIT_INFOGAIN)
			pt->hl_tot[e->y] += e->cnt;
		if (pt->req.hasv) {
			pt->node.tot.s += pt->sens_val[e->s] * (kn_i128)e->cnt;
			pt->node.tot.ss += pt->sens_val[e->s] *
			    pt->sens_val[e->s] * (kn_i128)e->cnt;
		}
		if (pt->split == SPLIT_REGRESSION)
			pt->node.tot.ts += pt->targ_val[e->y] * (kn_i128)e->cnt;
	}
	if (pt->nltouch > 1)
		qsort(pt->ltouch, pt->nltouch, sizeof(uint32_t), mond_cmp_u32);
	pt->node.tot.n = n;
	for (i = 0; i < pt->nstouch; i++)
		pt->node.tot.distinct++;
	for (i = 0; i < pt->nltouch; i++)
		pt->node.tot.lf += mond_x_log_x(pt, pt->hl_tot[pt->ltouch[i]]);
	for (j = 0; j < pt->nqi; j++) {
		if (rothko_streamed(pt, j)) {
			stream_extent(pt, j);
			continue;
		}
		pt->node.mn[j] =
		    pt->rk->gtab[j].n > 0 ? pt->rk->gtab[j].e[0].code : 0;
		pt->node.mx[j] = pt->rk->gtab[j].n > 0
		    ? pt->rk->gtab[j].e[pt->rk->gtab[j].n - 1].code
		    : 0;
	}
	mond_widths(pt);
}

/* Allocates the frequency groups, once mond_prepare() has run. */
void
rothko_groups_alloc(struct part *pt)
{
	pt->rk->gtab = kn_zalloc((pt->nqi + 1) * sizeof(struct gtab));
	pt->rk->sst = kn_zalloc((pt->nqi + 1) * sizeof(struct sstat));
}
