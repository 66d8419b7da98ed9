/*
 * cstream.c: a cluster's cuts job (cluster.c) whose node has more
 * groups than -S holds: Rothko-T's streamed dimensions (paper 004 §2;
 * rcut.c) over the groups instead of the rows.  The groups are spooled
 * to a temp file as they are read, with each number as it was written
 * (no dictionary of the values); a pass over the spool then counts what
 * a scan of Rothko-T counts for a streamed node: each numeric
 * dimension's extremes and sum at the column's scale, the node's totals
 * by sensitive value and label, and the groups of the hierarchies,
 * which are held (their leaves, times the sensitive values and labels
 * met).  A numeric dimension's cut is then found from its groups sorted
 * on disk by key within the budget, each line with its count
 * (struct rothko's feed), as rcut.c finds a streamed node's from its rows: the
 * same cut, threshold and sizes as with the groups in memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "extsort.h"
#include "kanon.h"
#include "mondrian.h"
#include "rothko.h"

void
cstream_begin(struct part *pt, struct cspool *sp, size_t nk, size_t nv)
{
	memset(sp, 0, sizeof(*sp));
	sp->path = kn_tmp_new(pt->rk->tmpdir);
	if ((sp->f = kn_tmp_open(sp->path, "w+b")) == NULL)
		kn_die_sys("%s", sp->path);
	sp->scmax = kn_zalloc((pt->nqi + 1) * sizeof(int));
	sp->nk = nk;
	sp->nv = nv;
	sp->keys = kn_zalloc((nk + 1) * sizeof(uint64_t));
	sp->scs = kn_zalloc((nv + 1) * sizeof(int32_t));
}

void
cstream_put(struct cspool *sp, const struct cgroup *g, const uint64_t *keys,
    const int32_t *scs)
{
	if (fwrite(g, sizeof(*g), 1, sp->f) != 1 ||
	    (sp->nk > 0 && fwrite(keys, sizeof(*keys), sp->nk, sp->f) !=
	    sp->nk) ||
	    (sp->nv > 0 && fwrite(scs, sizeof(*scs), sp->nv, sp->f) != sp->nv))
		kn_die_sys("%s: write error", sp->path);
	if (g->sc > sp->scmax[g->j])
		sp->scmax[g->j] = g->sc;
	sp->n++;
}

void
cstream_rewind(struct cspool *sp)
{
	if (fflush(sp->f) != 0 || fseeko(sp->f, 0, SEEK_SET) != 0)
		kn_die_sys("%s", sp->path);
	sp->left = sp->n;
}

int
cstream_next(struct cspool *sp, struct cgroup *g)
{
	if (sp->left == 0)
		return 0;
	if (fread(g, sizeof(*g), 1, sp->f) != 1 || (sp->nk > 0 &&
	    fread(sp->keys, sizeof(*sp->keys), sp->nk, sp->f) != sp->nk) ||
	    (sp->nv > 0 &&
	    fread(sp->scs, sizeof(*sp->scs), sp->nv, sp->f) != sp->nv))
		kn_die("%s: cut short", sp->path);
	sp->left--;
	return 1;
}

/* Group g's number at its column's scale, or die as the groups in
 * memory do (mondrian.c's rank_ids). */
static int64_t
gval(struct part *pt, const struct cgroup *g)
{
	const struct dim *dm = &pt->dims[g->j];
	int64_t v;

	if (__builtin_mul_overflow(g->m, (int64_t)kn_pow10(dm->S - g->sc),
	    &v))
		kn_die("%s: column '%s': the values do not fit 64 bits with "
		    "%d decimals each", pt->inname, dm->name, dm->S);
	return v;
}

/* A keyed number m / 10^sc at scale F, which it fits 64 bits at
 * (csens_num_end). */
static int64_t
knum(int64_t m, int sc, int F)
{
	return m * (int64_t)kn_pow10(F - sc);
}

void
cstream_gsum(const struct part *pt, const struct cgroup *g, struct gsum *v)
{
	kn_i128 x = pt->sens_keyed && !pt->sens_hashed ?
	    knum(g->sm, g->ssc, pt->sens_F) : 0;

	v->s = x * (kn_i128)g->cnt;
	v->ss = x * v->s;	/* within the node's sums, 2^127 */
	v->ts = pt->targ_keyed ? knum(g->ym, g->ysc, pt->targ_F) *
	    (kn_i128)g->cnt : 0;
}

/* The keys of group g's sensitive number and target, keyed as numbers
 * (sens_keyed, targ_keyed), as rcut.c reads them. */
static uint64_t
skey(const struct part *pt, const struct cgroup *g)
{
	return numkey_of(knum(g->sm, g->ssc, pt->sens_F));
}

static uint64_t
tkey(const struct part *pt, const struct cgroup *g)
{
	return numkey_of(knum(g->ym, g->ysc, pt->targ_F));
}

/* The label a group carries as the groups in memory are given it. */
static uint32_t
glabel(const struct part *pt, const struct cgroup *g)
{
	/* (by hash, none: label_rows) */
	return pt->targ_hashed ? 0 : pt->split == SPLIT_INFOGAIN ?
	    pt->label_rank[g->y] : g->y;
}

/* struct rothko's feed: the groups of dimension j, a line each: the
 * number's key (numkey.c: its sign bit flipped), the sensitive value
 * (8 hex digits, as rcut.c reads an id, or keyed 16 of its key: by
 * hash, which sc sees, or its number's) and the label (8, or keyed 16
 * of the target's number's key), the count. */
static void
feed(struct part *pt, size_t j, kn_sorter *so, struct scut *sc)
{
	struct cspool *sp = pt->rk->feedctx;
	struct cgroup g;
	char line[64];
	/* rcut.c's sens_digits and targ_digits */
	int sd = pt->sens_keyed ? 16 : 8, td = pt->targ_keyed ? 16 : 8;
	uint64_t key;

	cstream_rewind(sp);
	while (cstream_next(sp, &g)) {
		if (g.j != j)
			continue;
		key = numkey_of(gval(pt, &g));
		mond_hex_put(line, key, 16);
		if (pt->sens_hashed)
			mond_hex_put(line + 16, g.sk, 16);
		else if (pt->sens_keyed)
			mond_hex_put(line + 16, skey(pt, &g), 16);
		else
			mond_hex_put(line + 16, g.s, 8);
		if (pt->sens_hashed)
			rothko_scut_seen(sc, g.sk, key);
		mond_hex_put(line + 16 + sd, pt->targ_keyed ? tkey(pt, &g) :
		    glabel(pt, &g), td);
		mond_hex_put(line + 16 + sd + td, g.cnt, 16);
		kn_sort_add(so, line, (size_t)(32 + sd + td));
	}
}

/* struct rothko's rows (sens_sorted): the groups of dimension j (none,
 * nqi: the first's, which have every row), each as a record as many
 * times as it has rows: the dimension's key where rsens.c reads it
 * (rothko_disk_key: words j and nqi + j), each sensitive column's key
 * (mond_sens_col: words 2 nqi + 2c and the next), then under the
 * variance each column's number's at its scale (mond_snum_col). */
static void
rows_begin(struct part *pt, size_t j)
{
	struct cspool *sp = pt->rk->feedctx;

	sp->rj = j < pt->nqi ? j : 0;
	sp->rleft = 0;
	cstream_rewind(sp);
}

/* Key k of keyed dimension j into record r. */
static void
put_key(const struct part *pt, uint32_t *r, size_t j, uint64_t k)
{
	numkey_put(r, pt->dims[j].hword, pt->dims[j].kword, k);
}

static const uint32_t *
rows_next(struct part *pt)
{
	struct cspool *sp = pt->rk->feedctx;
	struct cgroup g;
	size_t c;

	while (sp->rleft == 0) {
		if (!cstream_next(sp, &g))
			return NULL;
		if (g.j != sp->rj)
			continue;
		if (pt->dims[g.j].h != NULL)
			sp->rec[g.j] = pt->dims[g.j].dfsrank[g.m];
		else
			numkey_put(sp->rec, g.j, pt->dims[g.j].kword,
			    numkey_of(gval(pt, &g)));
		for (c = 0; c < sp->nk; c++)
			put_key(pt, sp->rec, pt->nqi + c, c < sp->nk - sp->nv ?
			    sp->keys[c] : numkey_of(knum((int64_t)sp->keys[c],
			    sp->scs[c - (sp->nk - sp->nv)],
			    pt->dims[pt->nqi + c].S)));
		/* With no keys spooled (labels by hash alone), the sensitive
		 * value as the group carries it (mond_sens_of). */
		if (sp->nk == 0 && pt->sens_hashed)
			put_key(pt, sp->rec, pt->nqi, g.sk);
		else if (sp->nk == 0 && pt->sens_keyed)
			put_key(pt, sp->rec, pt->nqi, skey(pt, &g));
		else if (sp->nk == 0 && pt->has_sens)
			sp->rec[pt->word_sens] = g.s;
		if (pt->targ_hashed)
			put_key(pt, sp->rec, pt->nkd - 1, g.yk);
		else if (pt->split == SPLIT_INFOGAIN)
			sp->rec[pt->word_targ] = glabel(pt, &g);
		else if (pt->split == SPLIT_REGRESSION)
			put_key(pt, sp->rec, pt->nkd - 1, tkey(pt, &g));
		sp->rleft = g.cnt;
	}
	sp->rleft--;
	return sp->rec;
}

void
cstream_groups(struct part *pt, struct cspool *sp)
{
	struct cgroup g;
	struct gsum v;
	size_t j;

	pt->keyed = 1;
	pt->rk->streaming = 1;
	/* (Labels by hash: no group carries a label, and rcut.c streams
	 * every dimension from the rows, which give their labels' keys.) */
	pt->rk->feed = feed;
	pt->rk->feedctx = sp;
	if (sp->nk > 0 || pt->targ_hashed) {
		/* Records of the layout rows_next makes: each QI's key, the
		 * sensitive columns' keys (or the value's id), under --split
		 * the label (mond_targ_of: word_targ) or the label's or the
		 * target's key (the last keyed dimension) last. */
		size_t j, ns = sp->nk > 0 ? sp->nk : pt->sens_keyed ? 1 : 0,
			  w = 2 * (pt->nqi + ns);

		for (j = 0; j < pt->nqi; j++)
			pt->dims[j].kword = pt->nqi + j;
		for (j = 0; j < ns; j++) {
			pt->dims[pt->nqi + j].hword = 2 * pt->nqi + 2 * j;
			pt->dims[pt->nqi + j].kword = 2 * pt->nqi + 2 * j + 1;
		}
		pt->word_sens = w;
		pt->word_targ = w + 1;
		if (pt->targ_keyed || pt->targ_hashed) {
			pt->nkd = pt->nqi + ns + 1;
			pt->dims[pt->nkd - 1].hword = w + 2;
			pt->dims[pt->nkd - 1].kword = w + 3;
		}
		sp->rec = kn_zalloc((w + 4) * sizeof(uint32_t));
		pt->rk->rows_begin = rows_begin;
		pt->rk->rows_next = rows_next;
	}
	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j];

		if (dm->h != NULL)
			continue;
		dm->S = sp->scmax[j] > dm->fS ? sp->scmax[j] : dm->fS;
		memset(&pt->rk->sst[j], 0, sizeof(pt->rk->sst[j]));
	}
	cstream_rewind(sp);
	while (cstream_next(sp, &g)) {
		struct dim *dm = &pt->dims[g.j];

		cstream_gsum(pt, &g, &v);
		if (g.j == 0)
			rothko_gtab_add(pt, &pt->rk->gtot, 0, g.s,
			    glabel(pt, &g), g.cnt, g.sk, &v);
		if (dm->h != NULL) {
			rothko_gtab_add(pt, &pt->rk->gtab[g.j],
			    dm->dfsrank[g.m], g.s, glabel(pt, &g), g.cnt,
			    g.sk, &v);
		} else {
			struct sstat *st = &pt->rk->sst[g.j];
			int64_t v = gval(pt, &g);

			if (st->nnum == 0 || v < st->mn)
				st->mn = v;
			if (st->nnum == 0 || v > st->mx)
				st->mx = v;
			st->nnum += g.cnt;
			st->sum += (kn_i128)v * (kn_i128)g.cnt;
		}
	}
	/* The root's range is the table's (a lower node's came with the
	 * tree, at the same scale). */
	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j];

		if (dm->h != NULL || dm->hasg)
			continue;
		dm->gmn = pt->rk->sst[j].mn;
		dm->gmx = pt->rk->sst[j].mx;
		dm->hasg = 1;
	}
	if (pt->rk->gbytes > pt->budget / 2)
		cstream_too_small(pt, "besides its groups, streamed from a "
		    "temp file, the node's rows counted by sensitive value and "
		    "label, and by the hierarchies' leaves", pt->rk->gbytes);
}

void
cstream_too_small(struct part *pt, const char *what, size_t b)
{
	char bs[32];

	mond_size(bs, sizeof(bs), b);
	mond_too_small(pt, "a cuts job holds %s, which take %s, more than "
	    "half of it", what, bs);
}

void
cstream_end(struct part *pt, struct cspool *sp)
{
	if (sp->f != NULL) {
		fclose(sp->f);
		kn_tmp_close(sp->path);
	}
	free(sp->scmax);
	free(sp->keys);
	free(sp->scs);
	free(sp->rec);
	pt->rk->feed = NULL;
	pt->rk->feedctx = NULL;
	pt->rk->rows_begin = NULL;
	pt->rk->rows_next = NULL;
	memset(sp, 0, sizeof(*sp));
}
