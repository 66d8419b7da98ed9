/*
 * rgroups.c: the frequency groups of partition's nodes on disk (paper
 * 004 §2: the AV, AVS and AVC sets), for Rothko-T, Rothko-S and the
 * cluster jobs: the reader of node files (the spool's records mapped to
 * codes), the counting of a node's rows into its groups (by code in an
 * array, or hashed with the sensitive value and the label), a streamed
 * dimension's statistics, and the groups made sorted lists, with the
 * ranks of a number's keys, the node's totals and its extents.
 */
#include <math.h>
#include <stddef.h>
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
	if (pt->split == SPLIT_INFOGAIN && !pt->targ_hashed)
		r[pt->word_targ] = pt->label_rank[r[pt->word_targ]];
}

/* The chunks of MOND_CHUNK records a reader's buffer holds: a 64th of
 * the budget, from one to four (four make the threads of a counting
 * scan meet once for 16384 rows, in a buffer that stays in a core's
 * cache while a column after another is counted: with eight, Rothko-T
 * on 20M rows took 5% longer). */
static size_t
read_chunks(const struct part *pt)
{
	size_t c = pt->budget / 64 / ((size_t)MOND_CHUNK * pt->dwords *
	    sizeof(uint32_t));

	return c < 1 ? 1 : c > 4 ? 4 : c;
}

/* The buffers of a reader: ROTHKO_SLOTS when they fit a sixteenth of
 * the budget, else one (no chunk held while the next is read). */
static size_t
read_slots(const struct part *pt)
{
	size_t b = read_chunks(pt) * MOND_CHUNK * pt->dwords *
	    sizeof(uint32_t);

	return ROTHKO_SLOTS * b <= pt->budget / 16 ? ROTHKO_SLOTS : 1;
}

size_t
rothko_read_cap(const struct part *pt)
{
	return read_chunks(pt) * MOND_CHUNK;
}

size_t
rothko_read_bytes(const struct part *pt)
{
	return read_slots(pt) * rothko_read_cap(pt) * pt->dwords *
	    sizeof(uint32_t) + 2 * numkey_group_bytes(pt) + KN_VBUF;
}

void
rothko_read_open(struct part *pt, struct oread *rd, const struct onode *on)
{
	size_t j;

	memset(rd, 0, sizeof(*rd));
	rd->nd = on;
	rd->pt = pt;
	if ((rd->f = kn_tmp_open(on->path, "rb")) == NULL)
		kn_die_sys("%s", on->path);
	/* numkey_read asks for a group of records (about a kilobyte) at
	 * a time: with the default buffer a read(2) per 4 KiB, 667,000 of
	 * them for Rothko-T on 20M rows. */
	rd->vbuf = kn_vbuf(rd->f);
	rd->cap = rothko_read_cap(pt);
	rd->nslot = read_slots(pt);
	for (j = 0; j < (size_t)rd->nslot; j++)
		rd->slot[j] = kn_alloc(rd->cap * pt->dwords *
		    sizeof(uint32_t));
	rd->grp = kn_alloc(numkey_group_bytes(pt));
	rd->hold = 1;
	/* Whether a record has anything to map. */
	rd->map = pt->split == SPLIT_INFOGAIN;
	for (j = 0; j < pt->nqi; j++)
		rd->map |= pt->dims[j].h != NULL;
	pt->acct.scans++;
}

int
rothko_read_double(struct oread *rd)
{
	if (rd->nslot < 2)
		return 0;
	rd->hold = 2;
	return 1;
}

/* Fills buffer s with the next records, up to the reader's cap, mapped,
 * none at the end.  They are read a block at a time (numkey_read), the
 * spool's each brought to the final scales as its chunk
 * (numkey_rescale). */
static void
fill_slot(struct oread *rd, size_t s)
{
	struct part *pt = rd->pt;
	size_t i, got, w = pt->dwords, n = 0;

	rd->sbytes[s] = 0;
	while (n + MOND_CHUNK <= rd->cap) {
		uint32_t *b = rd->slot[s] + n * w;

		got = numkey_read(pt, rd->f, rd->nd->path, b, &rd->sbytes[s],
		    rd->grp);
		if (got == 0)
			break;
		if (rd->nd->raw && rd->rows % MOND_CHUNK + got > MOND_CHUNK)
			kn_die("%s: internal error: a block across chunks",
			    rd->nd->path);
		if (rd->nd->raw) {
			numkey_rescale(pt, b, got, rd->rows / MOND_CHUNK);
			for (i = 0; i < got && rd->map; i++)
				map_record(pt, b + i * w);
		}
		rd->rows += got;
		n += got;
	}
	rd->sn[s] = n;
}

/* The thread that reads ahead: it fills the buffers in turn while one
 * is free (those the caller holds are not), until the end. */
static void *
read_ahead(void *arg)
{
	struct oread *rd = arg;

	kn_thread_nosignals();
	pthread_mutex_lock(&rd->mu);
	for (;;) {
		size_t s;

		while (!rd->quit && rd->filled + (uint64_t)rd->hold >=
		    rd->taken + (uint64_t)rd->nslot)
			pthread_cond_wait(&rd->cv, &rd->mu);
		if (rd->quit)
			break;
		s = (size_t)(rd->filled % (uint64_t)rd->nslot);
		pthread_mutex_unlock(&rd->mu);
		fill_slot(rd, s);
		pthread_mutex_lock(&rd->mu);
		rd->filled++;
		pthread_cond_broadcast(&rd->cv);
		if (rd->sn[s] == 0)
			break;
	}
	pthread_mutex_unlock(&rd->mu);
	return NULL;
}

/* Takes the next buffer of records; 0 at the end.  With -j above 1 and
 * a buffer to spare, a thread reads the next while the caller works on
 * this one. */
static int
read_fill(struct part *pt, struct oread *rd)
{
	size_t s;

	if (rd->eof)
		return 0;
	if (!rd->started && !rd->solo && pt->rk->jobs > 1 &&
	    rd->nslot > rd->hold) {
		pthread_mutex_init(&rd->mu, NULL);
		pthread_cond_init(&rd->cv, NULL);
		if (pthread_create(&rd->th, NULL, read_ahead, rd) == 0)
			rd->started = 1;
		else {
			pthread_mutex_destroy(&rd->mu);
			pthread_cond_destroy(&rd->cv);
			rd->started = -1;
		}
	}
	s = (size_t)(rd->taken % (uint64_t)rd->nslot);
	if (rd->started == 1) {
		pthread_mutex_lock(&rd->mu);
		while (rd->filled <= rd->taken)
			pthread_cond_wait(&rd->cv, &rd->mu);
		rd->taken++;
		pthread_cond_broadcast(&rd->cv);
		pthread_mutex_unlock(&rd->mu);
	} else {
		fill_slot(rd, s);
		rd->taken++;
	}
	rd->buf = rd->slot[s];
	rd->n = rd->sn[s];
	rd->i = 0;
	pt->acct.bread += rd->sbytes[s];
	if (rd->n == 0) {
		rd->eof = 1;
		return 0;
	}
	if (!rd->solo)
		kn_progress(pt->acct.classed, pt->acct.bread);
	return 1;
}

/* The next record, mapped, or NULL at the end. */
uint32_t *
rothko_read_next(struct part *pt, struct oread *rd)
{
	if (rd->i == rd->n && !read_fill(pt, rd))
		return NULL;
	return rd->buf + pt->dwords * rd->i++;
}

uint32_t *
rothko_read_chunk(struct part *pt, struct oread *rd, size_t *n)
{
	uint32_t *p;

	if (rd->i == rd->n && !read_fill(pt, rd))
		return NULL;
	p = rd->buf + pt->dwords * rd->i;
	*n = rd->n - rd->i;
	rd->i = rd->n;
	return p;
}

void
rothko_read_close(struct oread *rd)
{
	int s;

	if (rd->started == 1) {
		pthread_mutex_lock(&rd->mu);
		rd->quit = 1;
		pthread_cond_broadcast(&rd->cv);
		pthread_mutex_unlock(&rd->mu);
		pthread_join(rd->th, NULL);
		pthread_mutex_destroy(&rd->mu);
		pthread_cond_destroy(&rd->cv);
	}
	if (rd->f != NULL)	/* none: a cluster's rows (rothko_node_open) */
		fclose(rd->f);
	free(rd->vbuf);
	for (s = 0; s < rd->nslot; s++)
		free(rd->slot[s]);
	free(rd->grp);
}

static uint64_t
ghash(const struct gtab *g, uint64_t c, uint32_t s, uint32_t y)
{
	uint64_t h;

	/* With sums, the field that holds a group's index is not its key
	 * (rothko.h). */
	if (g->sums == GS_S)
		s = 0;
	if (g->sums == GS_Y)
		y = 0;
	h = (c * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)s * 0xc2b2ae3d27d4eb4fULL) ^
	    ((uint64_t)y * 0x165667b19e3779f9ULL);
	return h ^ (h >> 29);
}

/* Whether group e of g is (c, s, y), as ghash sees it. */
static int
gmatch(const struct gtab *g, const struct gent *e, uint64_t c, uint32_t s,
    uint32_t y)
{
	return e->code == c && (g->sums == GS_S || e->s == s) &&
	    (g->sums == GS_Y || e->y == y);
}

/* The memory of a group: with the rank and the value of its key when
 * it is a number's (groups_rank). */
static size_t
gent_bytes(const struct gtab *g)
{
	return sizeof(struct gent) + (g->ranked ? 2 * sizeof(uint64_t) : 0) +
	    (g->sums && !g->nosum ? sizeof(struct gsum) : 0) +
	    g->lw * sizeof(uint64_t);
}

/* gbytes and gover are shared by the threads of a scan. */
static void
gb_lock(struct part *pt)
{
	if (pt->rk->gmu != NULL)
		pthread_mutex_lock(pt->rk->gmu);
}

static void
gb_unlock(struct part *pt)
{
	if (pt->rk->gmu != NULL)
		pthread_mutex_unlock(pt->rk->gmu);
}

/* Counts b more bytes of frequency groups against what is left of the
 * budget: 0, with gover set, when they pass it in a scan that may end
 * early (gsoft); past it otherwise, an error. */
static int
gcharge(struct part *pt, size_t b)
{
	pt->rk->gbytes += b;
	if (pt->rk->gbytes <= pt->rk->avail)
		return 1;
	if (!pt->rk->gsoft) {
		char left[32];

		/* What is left, not what was counted: the threads of a
		 * scan count side by side, the message is one thread's. */
		mond_size(left, sizeof(left), pt->rk->avail);
		mond_too_small(pt, "the frequency groups of a node need more "
		    "than the %s left for them", left);
	}
	pt->rk->gover = 1;
	return 0;
}

/* Adds cnt rows to group (c, s, y) of g, with sums v to its sums, and
 * with sets (lw) sensitive key sk to its set. */
static void
gadd(struct part *pt, struct gtab *g, uint64_t c, uint32_t s, uint32_t y,
    uint64_t cnt, const struct gsum *v, uint64_t sk)
{
	size_t h, i;

	if (2 * (g->n + 1) > g->nslot) {
		gb_lock(pt);
		size_t ns = g->nslot ? 2 * g->nslot : 32, k;
		size_t grow = (ns - g->nslot) * sizeof(uint32_t);

		free(g->slot);
		g->slot = kn_zalloc(ns * sizeof(uint32_t));
		g->nslot = ns;
		for (k = 0; k < g->n; k++) {
			h = ghash(g, g->e[k].code, g->e[k].s, g->e[k].y) &
			    (ns - 1);
			while (g->slot[h] != 0)
				h = (h + 1) & (ns - 1);
			g->slot[h] = (uint32_t)k + 1;
		}
		/* Over in a scan that may end: it ends (gover). */
		(void)gcharge(pt, grow);
		gb_unlock(pt);
	}
	h = ghash(g, c, s, y) & (g->nslot - 1);
	while ((i = g->slot[h]) != 0) {
		struct gent *e = &g->e[i - 1];

		if (gmatch(g, e, c, s, y)) {
			e->cnt += cnt;
			if (g->sums && !g->nosum) {
				struct gsum *m = &g->sum[g->sums == GS_S ?
				    e->s : e->y];

				m->s += v->s;
				m->ss += v->ss;
				m->ts += v->ts;
			}
			if (g->lw)
				rothko_lset_put(g->lset + (size_t)e->s * g->lw,
				    g->lw - 1, sk);
			return;
		}
		h = (h + 1) & (g->nslot - 1);
	}
	if (g->n == g->cap) {
		/* The entries added, counted before they are: 16 at
		 * first (a table of Rothko-S's population statistics per
		 * leaf of its tree holds few), then as many again. */
		size_t more = g->cap ? g->cap : 16;

		gb_lock(pt);
		pt->rk->gbytes += more * gent_bytes(g);
		if (pt->rk->gbytes > pt->rk->avail && pt->rk->gsoft) {
			/* Over before it grows: the scan ends (gover). */
			pt->rk->gover = 1;
			gb_unlock(pt);
			return;
		}
		gb_unlock(pt);
		g->cap += more;
		g->e = kn_realloc(g->e, g->cap * sizeof(struct gent));
		if (g->sums && !g->nosum)
			g->sum = kn_realloc(g->sum,
			    g->cap * sizeof(struct gsum));
		if (g->lw)
			g->lset = kn_realloc(g->lset,
			    g->cap * g->lw * sizeof(uint64_t));
	}
	if (g->sums == GS_S)
		s = (uint32_t)g->n;
	if (g->sums == GS_Y)
		y = (uint32_t)g->n;
	if (g->sums && !g->nosum)
		g->sum[g->n] = *v;
	if (g->lw) {
		g->lset[g->n * g->lw] = 1;
		g->lset[g->n * g->lw + 1] = sk;
	}
	g->e[g->n].code = c;
	g->e[g->n].s = s;
	g->e[g->n].y = y;
	g->e[g->n].cnt = cnt;
	g->slot[h] = (uint32_t)++g->n;
}

void
rothko_gtab_add(struct part *pt, struct gtab *g, uint64_t c, uint32_t s,
    uint32_t y, uint64_t cnt, uint64_t sk, const struct gsum *v)
{
	static const struct gsum none;

	/* A table with sums is counted from records (gadd_row), or from a
	 * cluster's groups with theirs; one with sets and no sums (a
	 * cuts job, sens_hashed) each group's with its key. */
	if (g->sums && !g->nosum && v == NULL)
		kn_die("internal error: groups with sums added without them");
	gadd(pt, g, c, s, y, cnt, v != NULL ? v : &none, sk);
}

/* Adds record r to group c of g: with sums, its keyed values to the
 * group's sums, its ids (if any) to its key. */
static void
gadd_row(struct part *pt, struct gtab *g, uint64_t c, const uint32_t *r)
{
	struct gsum v;
	kn_i128 x;

	/* By hash, a group has no label: its parts' are sorted (rcut.c). */
	if (!g->sums) {
		gadd(pt, g, c, (uint32_t)mond_sens_of(pt, r),
		    pt->targ_hashed ? 0 : (uint32_t)mond_targ_of(pt, r), 1,
		    NULL, 0);
		return;
	}
	x = pt->sens_keyed && !pt->sens_hashed ?
	    mond_sval(pt, mond_sens_of(pt, r)) : 0;
	v.s = x;
	v.ss = x * x;
	v.ts = pt->targ_keyed ? mond_tval(pt, mond_targ_of(pt, r)) : 0;
	gadd(pt, g, c, pt->sens_keyed ? 0 : (uint32_t)mond_sens_of(pt, r),
	    pt->targ_keyed || pt->targ_hashed ? 0 :
	    (uint32_t)mond_targ_of(pt, r), 1, &v,
	    pt->sens_hashed ? mond_sens_of(pt, r) : 0);
}

/* Empties g for a new count, keeping its list's memory (counted in
 * gbytes) if keep, else freeing it too. */
void
rothko_gclear(struct part *pt, struct gtab *g, int keep)
{
	g->sums = pt->sens_keyed ? GS_S : pt->targ_keyed ? GS_Y : 0;
	g->nosum = pt->sens_hashed && !pt->targ_keyed;
	g->lw = pt->sens_hashed && !pt->sens_sorted ? rothko_lcap(pt) + 1 : 0;
	free(g->slot);
	free(g->arr);
	g->arr = NULL;
	g->dom = 0;
	g->mode = 0;
	g->extent = 0;
	g->slot = NULL;
	g->nslot = 0;
	g->n = 0;
	if (!keep) {
		free(g->e);
		free(g->sum);
		free(g->lset);
		g->e = NULL;
		g->sum = NULL;
		g->lset = NULL;
		g->cap = 0;
	}
	pt->rk->gbytes += g->cap * gent_bytes(g);
}

/* The counts by code of dimension j fit an array of this many: the
 * leaves of a hierarchy, or a numeric column of a range below 65536 or
 * of at most twice as many numbers as the node's rows, rows (0:
 * unknown), whose array is then smaller than their hash would be; 0:
 * not. */
static size_t
dense_dom(struct part *pt, size_t j, uint64_t rows)
{
	const struct dim *dm = &pt->dims[j];
	uint64_t w;

	if (dm->h != NULL)
		return dm->ncode;
	if (!pt->keyed)
		return dm->nrank;
	w = (uint64_t)((kn_i128)dm->gmx - dm->gmn);
	if (w < 65536 || (w < SIZE_MAX / 64 && w + 2 <= 2 * rows))
		return (size_t)w + 2;
	return 0;
}

/* The key of place i in the dense counts of dimension j: 0 for a
 * missing value, then the numbers from the least. */
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

/* The bytes of a number's group made from dense counts, in its list
 * and with the rank of its key (groups_rank); a leaf's has no rank. */
#define DENSE_LIST (sizeof(struct gent) + 2 * sizeof(uint64_t))

/* The most groups dense counts of g in an array of dom can make. */
static size_t
dense_keys(const struct gtab *g, size_t dom)
{
	return g->rows > 0 && g->rows < dom ? (size_t)g->rows : dom;
}

/* Decides before a scan how g counts dimension j: in an array indexed
 * by the code when the groups are plain counts and the array fits (a
 * wide range only while it fits what is left of the budget, else
 * hashed), else in the hash.  Returns 0 when the budget is passed in a
 * scan that may overflow (gover). */
static int
gdecide(struct part *pt, struct gtab *g, size_t j)
{
	size_t dom, b, nk;

	g->ranked = pt->keyed && pt->dims[j].h == NULL;
	g->mode = GT_HASH;
	dom = pt->rk->gdense ? dense_dom(pt, j, g->rows) : 0;
	if (g->extent && !rothko_streamed(pt, j) &&
	    (dom == 0 || dom > 65536)) {
		/* Its extents alone, unless dense counts are cheap. */
		g->mode = GT_EXTENT;
		g->xmn = g->xmx = g->xnum = g->xmiss = 0;
		return 1;
	}
	if (dom == 0)
		return 1;
	/* The counts; their list and the ranks of a number's keys, for
	 * one node at a time, are counted by rothko_count_begin. */
	nk = dense_keys(g, dom);
	b = (dom + 1) * sizeof(uint32_t);
	if (dense_dom(pt, j, 0) == 0 &&
	    pt->rk->gbytes + b + nk * DENSE_LIST > pt->rk->avail)
		return 1;
	if (!gcharge(pt, b))
		return 0;
	g->arr = kn_zalloc((dom + 1) * sizeof(uint32_t));
	g->dom = dom;
	g->mode = GT_DENSE;
	return 1;
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

/* The threads of the counting scans: the caller is thread 0, the
 * others wait for a chunk (gen); each then takes the chunk's
 * dimensions (and the totals) one at a time, the costliest first, and
 * counts them, so that every dimension's counts are made by one thread
 * as they would be by one alone.  The caller may read and route the
 * next chunk before it joins them (rothko_count_start and
 * rothko_count_wait). */
struct rpool {
	pthread_mutex_t mu, gmu;
	pthread_cond_t go, done;
	unsigned long gen;
	int nth, pending, quit;
	pthread_t *th;
	struct rwork *w;
	/* The chunk. */
	struct part *pt;
	struct gtab *G;
	const uint32_t *recs;
	size_t n;
	const long *sl;
	size_t *order;		/* the dimensions, nqi for the totals */
	size_t norder, next;	/* the next to take, under mu */
};

struct rwork {
	struct rpool *p;
	int k;
};

/* Dense counts of at most TINY_DOM codes, the nodes of a scan at most
 * TINY_SLOTS: count_tiny. */
#define TINY_DOM 256
#define TINY_SLOTS 16

/* The mode in which every node of a scan of several (at most
 * TINY_SLOTS) that counts dimension j counts it, when that is one
 * count_extents or count_tiny takes: GT_EXTENT, or GT_DENSE over at
 * most TINY_DOM codes; else 0 (count_dim's loop). */
static int
local_mode(const struct part *pt, const struct gtab *G, const long *sl,
    size_t j)
{
	size_t b;
	int m = 0;

	if (sl == NULL || pt->rk->fcache > TINY_SLOTS)
		return 0;
	for (b = 0; b < pt->rk->fcache; b++) {
		const struct gtab *g = &G[b * pt->nqi + j];

		if (g->mode == 0)
			continue;
		if ((m != 0 && g->mode != m) || (g->mode != GT_EXTENT &&
		    (g->mode != GT_DENSE || g->dom + 1 > TINY_DOM)))
			return 0;
		m = g->mode;
	}
	return m;
}

/* Counts dimension j's extents of the n records at recs into G, as
 * count_dim, when every node of the scan that counts it counts its
 * extents (local_mode): in locals first. */
static void
count_extents(struct part *pt, struct gtab *G, const uint32_t *recs,
    size_t n, const long *sl, size_t j)
{
	uint64_t mn[TINY_SLOTS], mx[TINY_SLOTS], num[TINY_SLOTS];
	uint64_t nmiss[TINY_SLOTS];
	char on[TINY_SLOTS];
	const struct dim *dm = &pt->dims[j];
	size_t i, b, nq = pt->nqi, nb = pt->rk->fcache;
	int plain = dm->h != NULL || !pt->keyed, miss = dm->miss;

	for (b = 0; b < nb; b++) {
		on[b] = G[b * nq + j].mode == GT_EXTENT;
		mn[b] = UINT64_MAX;
		mx[b] = num[b] = nmiss[b] = 0;
	}
	for (i = 0; i < n; i++) {
		const uint32_t *r = recs + i * pt->dwords;
		long s = sl[i];
		uint64_t key;

		if (s < 0 || !on[s])
			continue;
		key = rothko_disk_key(pt, r, j);
		if (!plain && key == 0 && miss) {
			nmiss[s]++;
			continue;
		}
		mn[s] = key < mn[s] ? key : mn[s];
		mx[s] = key > mx[s] ? key : mx[s];
		num[s]++;
	}
	for (b = 0; b < nb; b++) {
		struct gtab *g = &G[b * nq + j];

		if (!on[b])
			continue;
		g->xmiss += nmiss[b];
		if (num[b] == 0)
			continue;
		if (g->xnum == 0 || mn[b] < g->xmn)
			g->xmn = mn[b];
		if (g->xnum == 0 || mx[b] > g->xmx)
			g->xmx = mx[b];
		g->xnum += num[b];
	}
}

/*
 * Counts dimension j of the n records at recs into G, as count_dim,
 * when every node of the scan that counts it counts it densely over at
 * most TINY_DOM codes (local_mode): into four copies of each
 * node's counts (4 KiB a node, taken for the chunk), the rows taking
 * them in turn, so that rows of one value in a row do not each wait
 * for the last one's count to be stored, then added to the nodes'.
 */
static void
count_tiny(struct part *pt, struct gtab *G, const uint32_t *recs, size_t n,
    const long *sl, size_t j)
{
	uint32_t *loc;
	char on[TINY_SLOTS];
	const struct dim *dm = &pt->dims[j];
	size_t i, b, v, w = pt->dwords, nq = pt->nqi, nb = pt->rk->fcache;
	int plain = dm->h != NULL || !pt->keyed, miss = dm->miss;
	int64_t gmn = dm->gmn;

	for (b = 0; b < nb; b++)
		on[b] = G[b * nq + j].mode == GT_DENSE;
	loc = kn_zalloc(nb * 4 * TINY_DOM * sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		const uint32_t *r = recs + i * w;
		long s = sl[i];
		uint64_t key;

		if (s < 0 || !on[s])
			continue;
		if (plain)
			v = r[j];
		else if ((key = numkey_get(r, j, dm->kword)) == 0 && miss)
			v = 0;
		else
			v = (size_t)(numkey_value(key) - gmn) + 1;
		loc[((size_t)s * 4 + (i & 3)) * TINY_DOM + v]++;
	}
	for (b = 0; b < nb; b++) {
		struct gtab *g = &G[b * nq + j];
		const uint32_t *c = loc + b * 4 * TINY_DOM;

		for (v = 0; on[b] && v <= g->dom; v++)
			g->arr[v] += c[v] + c[TINY_DOM + v] +
			    c[2 * TINY_DOM + v] + c[3 * TINY_DOM + v];
	}
	free(loc);
}

/* Counts dimension j of the n records at recs into G (as
 * rothko_count_chunk). */
static void
count_dim(struct part *pt, struct gtab *G, const uint32_t *recs, size_t n,
    const long *sl, size_t j)
{
	const struct dim *dm = &pt->dims[j];
	size_t i, w = pt->dwords, nq = pt->nqi;
	int plain = dm->h != NULL || !pt->keyed, miss = dm->miss;
	int64_t gmn = dm->gmn;

	if (rothko_streamed(pt, j)) {
		struct sstat *st = &pt->rk->sst[j];

		for (i = 0; i < n; i++) {
			const uint32_t *r = recs + i * w;
			uint64_t key;
			int64_t v;

			if (sl != NULL && sl[i] < 0)
				continue;
			key = rothko_disk_key(pt, r, j);
			if (key == 0 && miss) {
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
		return;
	}
	switch (local_mode(pt, G, sl, j)) {
	case GT_EXTENT:
		count_extents(pt, G, recs, n, sl, j);
		return;
	case GT_DENSE:
		count_tiny(pt, G, recs, n, sl, j);
		return;
	}
	for (i = 0; i < n; i++) {
		const uint32_t *r = recs + i * w;
		struct gtab *g;
		uint64_t key;

		if (sl != NULL && sl[i] < 0)
			continue;
		g = &G[(sl != NULL ? (size_t)sl[i] * nq : 0) + j];
		if (g->mode == GT_DENSE) {
			if (plain)
				g->arr[r[j]]++;
			else if ((key = numkey_get(r, j, dm->kword)) == 0 &&
			    miss)
				g->arr[0]++;
			else
				g->arr[(size_t)(numkey_value(key) - gmn) +
				    1]++;
			continue;
		}
		if (g->mode == GT_EXTENT) {
			key = rothko_disk_key(pt, r, j);
			if (!plain && key == 0 && miss) {
				g->xmiss++;
				continue;
			}
			if (g->xnum == 0 || key < g->xmn)
				g->xmn = key;
			if (g->xnum == 0 || key > g->xmx)
				g->xmx = key;
			g->xnum++;
			continue;
		}
		if (g->mode != GT_HASH)
			continue;
		gadd_row(pt, g, rothko_disk_key(pt, r, j), r);
	}
}

/* Counts the node's totals of the n records at recs (a streamed
 * node's). */
static void
count_tot(struct part *pt, const uint32_t *recs, size_t n, const long *sl)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const uint32_t *r = recs + i * pt->dwords;

		if (sl != NULL && sl[i] < 0)
			continue;
		gadd_row(pt, &pt->rk->gtot, 0, r);
	}
}

/* Counts the chunk's dimensions on this thread until none is left. */
static void
pool_count(struct rpool *p)
{
	for (;;) {
		size_t j;

		pthread_mutex_lock(&p->mu);
		j = p->next < p->norder ? p->order[p->next++] : SIZE_MAX;
		pthread_mutex_unlock(&p->mu);
		if (j == SIZE_MAX)
			return;
		if (j == p->pt->nqi)
			count_tot(p->pt, p->recs, p->n, p->sl);
		else
			count_dim(p->pt, p->G, p->recs, p->n, p->sl, j);
	}
}

static void *
pool_run(void *arg)
{
	struct rwork *w = arg;
	struct rpool *p = w->p;
	unsigned long seen = 0;

	kn_thread_nosignals();
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (p->gen == seen && !p->quit)
			pthread_cond_wait(&p->go, &p->mu);
		if (p->quit)
			break;
		seen = p->gen;
		pthread_mutex_unlock(&p->mu);
		pool_count(p);
		pthread_mutex_lock(&p->mu);
		if (--p->pending == 0)
			pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* The pool of -j's threads, started at the first scan that has work
 * for more than one; NULL with -j 1. */
static struct rpool *
pool_get(struct part *pt)
{
	struct rpool *p = pt->rk->pool;
	int k;

	if (p != NULL || pt->rk->jobs <= 1)
		return p;
	p = kn_zalloc(sizeof(*p));
	pthread_mutex_init(&p->mu, NULL);
	pthread_mutex_init(&p->gmu, NULL);
	pthread_cond_init(&p->go, NULL);
	pthread_cond_init(&p->done, NULL);
	p->order = kn_alloc((pt->nqi + 1) * sizeof(size_t));
	p->th = kn_alloc((size_t)pt->rk->jobs * sizeof(pthread_t));
	p->w = kn_alloc((size_t)pt->rk->jobs * sizeof(struct rwork));
	for (k = 1; k < pt->rk->jobs; k++) {
		p->w[k].p = p;
		p->w[k].k = k;
		if (pthread_create(&p->th[k], NULL, pool_run, &p->w[k]) != 0)
			break;
	}
	p->nth = k;
	pt->rk->pool = p;
	pt->rk->gmu = &p->gmu;
	return p;
}

/* The order in which the pool's threads take the dimensions (and the
 * totals) of each chunk: the costliest first, so that the last taken
 * are short. */
static void
pool_share(struct part *pt, struct rpool *p, struct gtab *G)
{
	size_t j, m = pt->nqi + 1, i;
	uint64_t *cost = kn_alloc(m * sizeof(uint64_t));

	for (j = 0, p->norder = 0; j < m; j++) {
		if (j == pt->nqi)
			cost[j] = pt->rk->streaming ? 4 : 0;
		else if (rothko_streamed(pt, j) || G[j].mode == GT_EXTENT ||
		    (G[j].mode == GT_DENSE && G[j].dom <= 65536))
			cost[j] = 1;
		else
			cost[j] = 3;
		if (cost[j] == 0)
			continue;
		for (i = p->norder++; i > 0 && cost[p->order[i - 1]] <
		    cost[j]; i--)
			p->order[i] = p->order[i - 1];
		p->order[i] = j;
	}
	free(cost);
}

int
rothko_count_begin(struct part *pt, struct gtab *G, size_t nb)
{
	size_t b, j, most, lists = 0;
	struct rpool *p;

	for (b = 0; b < nb; b++)
		for (j = 0; j < pt->nqi; j++)
			if (!rothko_streamed(pt, j) &&
			    !gdecide(pt, &G[b * pt->nqi + j], j))
				return 0;
	/* The lists made from dense counts, one node's at a time
	 * (rothko_groups_drop), as large as the largest. */
	for (j = 0; j < pt->nqi; j++) {
		int ranked = pt->keyed && pt->dims[j].h == NULL;

		for (most = 0, b = 0; b < nb; b++) {
			const struct gtab *g = &G[b * pt->nqi + j];

			if (g->mode == GT_DENSE &&
			    dense_keys(g, g->dom) > most)
				most = dense_keys(g, g->dom);
		}
		lists += (most + 1) * (ranked ? DENSE_LIST :
		    sizeof(struct gent));
	}
	if (!gcharge(pt, lists))
		return 0;
	if ((p = pool_get(pt)) != NULL)
		pool_share(pt, p, G);
	return 1;
}

void
rothko_count_start(struct part *pt, struct gtab *G, const uint32_t *recs,
    size_t n, const long *sl)
{
	struct rpool *p = pt->rk->pool;
	size_t j;

	if (p == NULL || p->nth <= 1) {
		for (j = 0; j < pt->nqi; j++)
			count_dim(pt, G, recs, n, sl, j);
		if (pt->rk->streaming)
			count_tot(pt, recs, n, sl);
		return;
	}
	pthread_mutex_lock(&p->mu);
	p->pt = pt;
	p->G = G;
	p->recs = recs;
	p->n = n;
	p->sl = sl;
	p->next = 0;
	p->pending = p->nth - 1;
	p->gen++;
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
}

void
rothko_count_wait(struct part *pt)
{
	struct rpool *p = pt->rk->pool;

	if (p == NULL || p->nth <= 1)
		return;
	pool_count(p);
	pthread_mutex_lock(&p->mu);
	while (p->pending > 0)
		pthread_cond_wait(&p->done, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

void
rothko_count_chunk(struct part *pt, struct gtab *G, const uint32_t *recs,
    size_t n, const long *sl)
{
	rothko_count_start(pt, G, recs, n, sl);
	rothko_count_wait(pt);
}

void
rothko_groups_drop(struct part *pt, struct gtab *G)
{
	size_t j;

	for (j = 0; j < pt->nqi; j++)
		if (G[j].mode == GT_DENSE) {
			free(G[j].e);
			G[j].e = NULL;
			G[j].n = G[j].cap = 0;
		}
}

void
rothko_count_end(struct part *pt)
{
	struct rpool *p = pt->rk->pool;
	int k;

	if (p == NULL)
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	for (k = 1; k < p->nth; k++)
		pthread_join(p->th[k], NULL);
	pt->rk->gmu = NULL;
	pt->rk->pool = NULL;
	free(p->order);
	free(p->th);
	free(p->w);
	free(p);
}

/* Turns dense counts into the sorted list of groups. */
static void
gdense_list(struct part *pt, struct gtab *g, size_t j)
{
	size_t dom = g->dom, c;

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
	g->dom = 0;
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

/* Sorts e[0..n) by cmp_gent: a heapsort. */
static void
heap_gents(struct gent *e, size_t n)
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

static void
gent_swap(struct gent *a, struct gent *b)
{
	struct gent t = *a;

	*a = *b;
	*b = t;
}

/*
 * Sorts groups by cmp_gent in place: qsort's scratch would be as large
 * as the groups, outside the budget; no two groups are equal, so the
 * order is qsort's.  A quicksort (the median of three, the smaller part
 * first so that the stack is log n deep, insertion below 16 groups)
 * that turns to the heapsort past 2 log2 n levels: the heapsort alone,
 * its reads all over the groups, took a third of a Rothko-T run with
 * hashed groups.
 */
static void
quick_gents(struct gent *e, size_t n, unsigned depth)
{
	while (n > 16) {
		struct gent p;
		ptrdiff_t i = -1, j = (ptrdiff_t)n;
		size_t m = n / 2;

		if (depth-- == 0) {
			heap_gents(e, n);
			return;
		}
		if (cmp_gent(&e[m], &e[0]) < 0)
			gent_swap(&e[m], &e[0]);
		if (cmp_gent(&e[n - 1], &e[m]) < 0) {
			gent_swap(&e[n - 1], &e[m]);
			if (cmp_gent(&e[m], &e[0]) < 0)
				gent_swap(&e[m], &e[0]);
		}
		p = e[m];
		for (;;) {
			do
				i++;
			while (cmp_gent(&e[i], &p) < 0);
			do
				j--;
			while (cmp_gent(&e[j], &p) > 0);
			if (i >= j)
				break;
			gent_swap(&e[i], &e[j]);
		}
		/* e[0..j] and e[j+1..n), neither empty. */
		if ((size_t)j + 1 < n - (size_t)j - 1) {
			quick_gents(e, (size_t)j + 1, depth);
			e += j + 1;
			n -= (size_t)j + 1;
		} else {
			quick_gents(e + j + 1, n - (size_t)j - 1, depth);
			n = (size_t)j + 1;
		}
	}
	for (size_t a = 1; a < n; a++) {
		struct gent t = e[a];
		size_t b = a;

		for (; b > 0 && cmp_gent(&e[b - 1], &t) > 0; b--)
			e[b] = e[b - 1];
		e[b] = t;
	}
}

static void
sort_gents(struct gent *e, size_t n)
{
	unsigned depth = 0;
	size_t m;

	for (m = n; m > 1; m >>= 1)
		depth += 2;
	quick_gents(e, n, depth);
}

/* Scans a node for its groups, totals and extents (pt->node). */
void
rothko_node_groups(struct part *pt, const struct onode *on)
{
	struct oread rd;
	uint32_t *r;
	size_t j, n;

	pt->rk->gbytes = 0;
	pt->rk->streaming = pt->keyed;	/* a region needs no groups */
	for (j = 0; j < pt->nqi; j++) {
		rothko_gclear(pt, &pt->rk->gtab[j], 1);
		pt->rk->gtab[j].rows = on->n;
	}
	rothko_count_clear(pt);
	rothko_count_begin(pt, pt->rk->gtab, 1);
	rothko_read_open(pt, &rd, on);
	while ((r = rothko_read_chunk(pt, &rd, &n)) != NULL)
		rothko_count_chunk(pt, pt->rk->gtab, r, n, NULL);
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

/* A number's extent in a table of three ranks: codes 0 (a missing
 * value), 1 and 2 (the least and largest of nnum numbers, mn and mx),
 * which are all the widths and regions need. */
static void
three_ranks(struct part *pt, size_t j, int miss, uint64_t nnum, int64_t mn,
    int64_t mx)
{
	struct dim *dm = &pt->dims[j];

	local_room(dm, 3);
	dm->vals[0] = dm->gmn;
	dm->lkey[0] = 0;
	dm->vals[1] = mn;
	dm->vals[2] = mx;
	dm->lkey[1] = (uint64_t)mn ^ ((uint64_t)1 << 63);
	dm->lkey[2] = (uint64_t)mx ^ ((uint64_t)1 << 63);
	dm->nrank = 3;
	pt->node.mn[j] = miss || nnum == 0 ? 0 : 1;
	pt->node.mx[j] = nnum == 0 ? 0 : mn == mx ? 1 : 2;
}

/* The extent of streamed dimension j from its statistics. */
static void
stream_extent(struct part *pt, size_t j)
{
	const struct sstat *st = &pt->rk->sst[j];

	three_ranks(pt, j, st->nmiss > 0, st->nnum, st->mn, st->mx);
}

/* The extent of dimension j from the least and largest keys a scan
 * counted (GT_EXTENT): a leaf's or a dictionary's codes themselves, or
 * a number's three ranks. */
static void
counted_extent(struct part *pt, size_t j)
{
	const struct gtab *g = &pt->rk->gtab[j];

	if (pt->dims[j].h != NULL || !pt->keyed) {
		pt->node.mn[j] = g->xnum > 0 ? (uint32_t)g->xmn : 0;
		pt->node.mx[j] = g->xnum > 0 ? (uint32_t)g->xmx : 0;
		return;
	}
	three_ranks(pt, j, g->xmiss > 0, g->xnum, numkey_value(g->xmn),
	    numkey_value(g->xmx));
}

/* The dimensions whose groups a scan of Rothko-T counts, when not all
 * (struct tnode's spec): a guess at the widest two. */
#define LAZY_DIMS 2

/* Whether a scan may count some dimensions' extents alone (struct
 * tnode's spec): the median split on k alone looks at no other
 * dimension than the widest it can cut, and the next if that one has
 * no allowable cut. */
static int
lazy(const struct part *pt)
{
	return pt->split == SPLIT_MEDIAN && !pt->need_stats &&
	    !pt->rk->sampling && pt->nqi <= 64;
}

/* The spec of a node whose widths are guessed to be w (negative: a
 * dimension it cannot cut): the LAZY_DIMS widest, ties to the first as
 * mond_cmp_width breaks them. */
static uint64_t
spec_of(const struct part *pt, const long double *w)
{
	uint64_t spec = 0;
	size_t j, d, top;

	for (d = 0; d < LAZY_DIMS; d++) {
		for (top = pt->nqi, j = 0; j < pt->nqi; j++)
			if (w[j] >= 0 && !(spec >> j & 1) &&
			    (top == pt->nqi || w[j] > w[top]))
				top = j;
		if (top == pt->nqi)
			break;
		spec |= (uint64_t)1 << top;
	}
	/* None it can cut: its extents say so. */
	return spec != 0 ? spec : 1;
}

/* The spec of a kid of the node just cut on dimension cut: the node's
 * widths, the cut dimension's halved.  A guess: a kid whose cut needs
 * another dimension's groups is counted again, whole. */
uint64_t
rothko_kid_spec(struct part *pt, size_t cut)
{
	long double w[64];
	size_t j;

	if (!lazy(pt))
		return 0;
	for (j = 0; j < pt->nqi; j++)
		w[j] = pt->node.can[j] ? pt->node.width[j] /
		    (j == cut ? 2 : 1) : -1;
	return spec_of(pt, w);
}

/* The spec of the whole table: its numbers' widths are 1, or 0 for a
 * single number (perhaps with missing values); a hierarchy's, unknown
 * before a scan, are counted. */
uint64_t
rothko_table_spec(struct part *pt)
{
	long double w[64];
	uint64_t hier = 0;
	size_t j;

	if (!lazy(pt))
		return 0;
	for (j = 0; j < pt->nqi; j++) {
		const struct dim *dm = &pt->dims[j];

		if (dm->h != NULL) {
			hier |= (uint64_t)1 << j;
			w[j] = -1;
		} else
			w[j] = (pt->keyed ? dm->gmx > dm->gmn :
			    dm->nrank > 1) ? 1 : 0;
	}
	return spec_of(pt, w) | hier;
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
		if (rothko_streamed(pt, j) ||
		    pt->rk->gtab[j].mode == GT_EXTENT)
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

		if (pt->has_sens && !pt->sens_keyed && pt->hs_tot[e->s] == 0)
			pt->stouch[pt->nstouch++] = (uint32_t)e->s;
		if (pt->has_sens && !pt->sens_keyed)
			pt->hs_tot[e->s] += e->cnt;
		if (pt->split == SPLIT_INFOGAIN && !pt->targ_hashed) {
			if (pt->hl_tot[e->y] == 0)
				pt->ltouch[pt->nltouch++] = e->y;
			pt->hl_tot[e->y] += e->cnt;
		}
		/* Keyed by hash, the variance is judged by sorts (rsens.c). */
		if (pt->req.hasv && pt->sens_hashed)
			;
		else if (pt->req.hasv && pt->sens_keyed) {
			pt->node.tot.s += rothko_gsum(g0, e)->s;
			pt->node.tot.ss += rothko_gsum(g0, e)->ss;
		} else if (pt->req.hasv) {
			kn_i128 v = pt->sens_val[e->s];

			pt->node.tot.s += v * (kn_i128)e->cnt;
			pt->node.tot.ss += v * v * (kn_i128)e->cnt;
		}
		if (pt->split == SPLIT_REGRESSION && pt->targ_keyed)
			pt->node.tot.ts += rothko_gsum(g0, e)->ts;
		else if (pt->split == SPLIT_REGRESSION)
			pt->node.tot.ts += pt->targ_val[e->y] * (kn_i128)e->cnt;
	}
	if (pt->nltouch > 1)
		qsort(pt->ltouch, pt->nltouch, sizeof(uint32_t), mond_cmp_u32);
	pt->node.tot.n = n;
	for (i = 0; i < pt->nstouch; i++)
		pt->node.tot.distinct++;
	if (pt->sens_hashed && !pt->sens_sorted) {
		pt->rk->lset[0] = 0;
		for (i = 0; i < g0->n; i++)
			rothko_lset_union(pt->rk->lset,
			    rothko_gset(g0, &g0->e[i]), g0->lw - 1);
		pt->node.tot.distinct = pt->rk->lset[0];
	}
	for (i = 0; i < pt->nltouch; i++)
		pt->node.tot.lf += mond_x_log_x(pt, pt->hl_tot[pt->ltouch[i]]);
	for (j = 0; j < pt->nqi; j++) {
		if (rothko_streamed(pt, j)) {
			stream_extent(pt, j);
			continue;
		}
		if (pt->rk->gtab[j].mode == GT_EXTENT) {
			counted_extent(pt, j);
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

/* Allocates the frequency groups, once mond_prepare() has run: each
 * table empty, of the kind the flags give (rothko_gclear). */
void
rothko_groups_alloc(struct part *pt)
{
	size_t j;

	pt->rk->gtab = kn_zalloc((pt->nqi + 1) * sizeof(struct gtab));
	pt->rk->sst = kn_zalloc((pt->nqi + 1) * sizeof(struct sstat));
	pt->rk->lcap = pt->sens_hashed && !pt->sens_sorted ?
	    (size_t)ceil(pt->req.ld.l) : 0;
	/* Emptied whether or not it is used (rcut.c). */
	pt->rk->lset = kn_zalloc((pt->rk->lcap + 1) * sizeof(uint64_t));
	for (j = 0; j < pt->nqi; j++)
		rothko_gclear(pt, &pt->rk->gtab[j], 0);
	rothko_gclear(pt, &pt->rk->gtot, 0);
}
