/*
 * latdisk.c: lattice-search's frequency set on disk (issue 17; paper
 * 000 ran Incognito on a DBMS, where frequency sets are tables on
 * disk).  When the input's set at the leaves, or the leaves of its
 * hierarchies (a generated hierarchy has a leaf for each distinct value
 * of its column), pass -S, lattice.c hands the groups read here:
 *  - they are written as lines of text to a temp file (ldisk_group);
 *  - each generated hierarchy whose labels would pass a share of the
 *    budget has its leaves ranked instead of interned: the groups
 *    sorted by the column's value within the budget (extsort.c), the
 *    ranks given in that order, and the labels above each leaf, few,
 *    interned once per distinct value (kn_hier_above) with the leaves
 *    under each label counted for Iyengar's loss; one sort a column,
 *    the others' leaves looked up in their dictionaries;
 *  - the sensitive columns' values (but with t-closeness, which holds
 *    their distribution in memory and gives their ids) are numbered the
 *    same way: interned while their dictionary keeps within the share
 *    of a column, else ranked by a sort, the ids then in the order of
 *    the values (l-diversity asks only whether two are the same);
 *  - the set is then a file of records, each group's leaf and level-1
 *    ids, its sensitive ids and its count (ldisk_build);
 *  - a node's set is one pass over that file, each record's key made
 *    at the node's levels (from level 1 by the level maps, which the
 *    labels above the leaves keep small) and counted in a hash while it
 *    holds at most a given number of groups (ldisk_rollup); larger, the
 *    keys are written to parts by a hash of their class, as a
 *    database's hash aggregation spills, and each part is counted in
 *    memory and handed on, a set of whole classes (ldisk_each); the
 *    tally of lattice.c does not depend on the order of the classes.
 * Below lattice.c, above extsort.c and hier.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "kanon.h"
#include "extsort.h"
#include "latdisk.h"
#include "tcdisk.h"

/* Records read at a time. */
#define LD_BATCH 4096
/* The parts a set is split into at a time (ldisk_each), and the depth
 * past which parts that do not split are counted whole. */
#define LD_MAXPARTS 256
#define LD_MAXDEPTH 32

struct ldisk {
	size_t d, ns;
	int svals;		/* the sensitive values come as text */
	kn_dict sdict[KN_MAXSENS];	/* of those interned */
	int sranked[KN_MAXSENS];
	/* ranked in the ordered distance's order (ldisk_order), and
	 * whether its values are all numbers or missing (tcd_numeric) */
	int sorder[KN_MAXSENS], snum[KN_MAXSENS];
	char *kbuf;		/* an order key being made */
	size_t kcap;
	uint32_t nsid[KN_MAXSENS];	/* the ids of each column */
	uint64_t bigs;		/* classes handed on from sorts */
	kn_hier **hier;
	const char *tmpdir;
	char *gpath;		/* the groups read, as lines of text */
	FILE *gf;
	char *gbuf;		/* its stdio buffer (kn_vbuf) */
	uint64_t groups;
	int ranked[KN_PMAXQ];
	uint32_t **cover[KN_PMAXQ];	/* of the ranked columns */
	size_t *ccap[KN_PMAXQ];
	/* the ranked columns: quasi-identifiers c, then sensitive ones as
	 * d + c */
	size_t nr, rcol[KN_PMAXQ + KN_MAXSENS];
	size_t rsize;		/* bytes of a record */
	char *bpath;		/* the records */
	int bfd;
	FILE *bf;
	char *bbuf;		/* its stdio buffer (kn_vbuf) */
	/* the stage being sorted: its column, the next stage's sort, the
	 * value met last and its rank and level-1 id */
	size_t at;
	kn_sorter *next;
	char *prev;
	size_t prevlen, prevcap;
	uint32_t rank, l1;
	int have;
	void (*grown)(void *);	/* ldisk_on_grow */
	void *gctx;
	char *line, *out;	/* lines being made */
	size_t linecap, outcap;
	uint32_t *rec;		/* a record being made */
};

struct ldisk *
ldisk_new(size_t d, kn_hier **hier, size_t ns, int svals,
    const char *tmpdir)
{
	struct ldisk *ld = kn_zalloc(sizeof(*ld));
	size_t c;
	int fd;

	ld->d = d;
	ld->hier = hier;
	ld->ns = ns;
	ld->svals = svals;
	for (c = 0; c < ns; c++)
		kn_dict_init(&ld->sdict[c]);
	ld->tmpdir = tmpdir;
	ld->bfd = -1;
	fd = kn_mktemp(tmpdir, &ld->gpath);
	if ((ld->gf = fdopen(fd, "w+")) == NULL)
		kn_die_sys("%s", ld->gpath);
	ld->gbuf = kn_vbuf(ld->gf);
	ld->rsize = (2 * d + ns) * sizeof(uint32_t) + sizeof(uint64_t);
	ld->rec = kn_zalloc(ld->rsize + sizeof(uint64_t));
	return ld;
}

void
ldisk_group(struct ldisk *ld, const kn_str *key, const uint32_t *sid,
    uint64_t cnt)
{
	size_t c;

	for (c = 0; c < ld->d + (ld->svals ? ld->ns : 0); c++) {
		if (memchr(key[c].p, '\t', key[c].n) != NULL ||
		    memchr(key[c].p, '\n', key[c].n) != NULL)
			kn_die("'%.*s': a value with a tab or a newline in it "
			    "cannot go to the frequency set on disk: give a "
			    "larger -S (lattice-search(1), -S)", (int)key[c].n,
			    key[c].p);
		fwrite(key[c].p, 1, key[c].n, ld->gf);
		putc('\t', ld->gf);
	}
	for (c = 0; !ld->svals && c < ld->ns; c++)
		fprintf(ld->gf, "%lu\t", (unsigned long)sid[c]);
	kn_put_u64(ld->gf, cnt);
	if (putc('\n', ld->gf) == EOF)
		kn_die_sys("%s: write error", ld->gpath);
	ld->groups++;
}

void
ldisk_order(struct ldisk *ld, size_t c)
{
	ld->sorder[c] = ld->sranked[c] = ld->snum[c] = 1;
}

uint64_t
ldisk_groups(const struct ldisk *ld)
{
	return ld->groups;
}

int
ldisk_ranked(const struct ldisk *ld, size_t c)
{
	return ld->ranked[c];
}

uint32_t
ldisk_nsid(const struct ldisk *ld, size_t c)
{
	return ld->nsid[c];
}

uint64_t
ldisk_bigs(const struct ldisk *ld)
{
	return ld->bigs;
}

uint32_t **
ldisk_cover(struct ldisk *ld, size_t c)
{
	uint32_t **cv = ld->cover[c];

	ld->cover[c] = NULL;
	return cv;
}

/* Field i of the line p of n bytes (fields split by tabs). */
static kn_str
field(const char *p, size_t n, size_t i)
{
	const char *e = p + n, *q;
	kn_str s;

	for (; i > 0; i--) {
		q = memchr(p, '\t', (size_t)(e - p));
		p = q != NULL ? q + 1 : e;
	}
	q = memchr(p, '\t', (size_t)(e - p));
	s.p = p;
	s.n = (size_t)((q != NULL ? q : e) - p);
	return s;
}

/* A number of the line, written by ldisk_group or a stage in base b. */
static uint64_t
number(kn_str s, int b)
{
	uint64_t v = 0;
	size_t i;
	int x;

	for (i = 0; i < s.n; i++) {
		x = s.p[i] <= '9' ? s.p[i] - '0' : s.p[i] - 'a' + 10;
		v = v * (uint64_t)b + (uint64_t)x;
	}
	return v;
}

/* The bytes of a hierarchy's labels and links (latbudget.c counts them
 * the same way). */
static size_t
labels_bytes(const kn_hier *h)
{
	size_t b = 0;
	int l;

	for (l = 0; l < h->nlevels; l++)
		b += kn_dict_bytes(&h->lab[l]) + h->upcap[l] * sizeof(uint32_t);
	return b;
}

/* Whether a column's values, n bytes more of them read since the last
 * check (*added), are due to be measured against its share colmax:
 * every 1024 lines, or sooner once their bytes pass an eighth of it. */
static int
check_due(uint64_t lines, size_t *added, size_t n, size_t colmax)
{
	*added += n;
	if ((lines & 0x3ff) != 0 && *added <= colmax / 8)
		return 0;
	*added = 0;
	return 1;
}

/* Dies of a value the hierarchy of column c does not take. */
static void __attribute__((noreturn))
bad_value(const struct ldisk *ld, size_t c, kn_str v, const char *err)
{
	kn_die("%s: '%.*s': %s (%s)", ld->hier[c]->attr, (int)v.n, v.p,
	    err != NULL ? err : "value is not a leaf of the hierarchy",
	    ld->hier[c]->src);
}

/*
 * Interns the leaves of each generated hierarchy from the groups, until
 * its labels pass colmax bytes: its leaves are then ranked (and what it
 * learned forgotten); the same for the sensitive values given as text,
 * in a dictionary of their own.
 */
static void
decide(struct ldisk *ld, size_t colmax)
{
	char *buf = NULL;
	size_t cap = 0, c, added[KN_MAXSENS] = { 0 };
	size_t *ladd = kn_zalloc((ld->d + 1) * sizeof(size_t));
	ssize_t n;
	uint64_t lines = 0;
	const char *err;
	kn_str v;

	rewind(ld->gf);
	while ((n = getline(&buf, &cap, ld->gf)) > 0) {
		lines++;
		for (c = 0; c < ld->d; c++) {
			kn_hier *h = ld->hier[c];

			if (h->kind == KN_HFILE || ld->ranked[c])
				continue;
			v = field(buf, (size_t)n - 1, c);
			if (kn_hier_leaf(h, v.p, v.n, &err) < 0)
				bad_value(ld, c, v, err);
			if (check_due(lines, &ladd[c], v.n, colmax) &&
			    labels_bytes(h) > colmax) {
				ld->ranked[c] = 1;
				kn_hier_reset(h);
			}
		}
		for (c = 0; ld->svals && c < ld->ns; c++) {
			if (ld->sorder[c] && ld->snum[c]) {
				v = field(buf, (size_t)n - 1, ld->d + c);
				ld->snum[c] = tcd_numeric(v.p, v.n);
			}
			if (ld->sranked[c])
				continue;
			v = field(buf, (size_t)n - 1, ld->d + c);
			kn_dict_intern(&ld->sdict[c], v.p, v.n);
			if (check_due(lines, &added[c], v.n, colmax) &&
			    kn_dict_bytes(&ld->sdict[c]) > colmax) {
				ld->sranked[c] = 1;
				kn_dict_free(&ld->sdict[c]);
				kn_dict_init(&ld->sdict[c]);
			}
		}
	}
	if (ferror(ld->gf))
		kn_die_sys("%s", ld->gpath);
	free(buf);
	free(ladd);
	for (c = 0; c < ld->d; c++)
		if (ld->hier[c]->kind != KN_HFILE && !ld->ranked[c] &&
		    labels_bytes(ld->hier[c]) > colmax) {
			ld->ranked[c] = 1;
			kn_hier_reset(ld->hier[c]);
		}
	for (c = 0; c < ld->d; c++)
		if (ld->ranked[c])
			ld->rcol[ld->nr++] = c;
	for (c = 0; c < ld->ns; c++) {
		if (ld->svals && !ld->sranked[c] &&
		    kn_dict_bytes(&ld->sdict[c]) > colmax) {
			ld->sranked[c] = 1;
			kn_dict_free(&ld->sdict[c]);
			kn_dict_init(&ld->sdict[c]);
		}
		if (ld->sranked[c])
			ld->rcol[ld->nr++] = ld->d + c;
		else if (ld->svals)
			ld->nsid[c] = (uint32_t)ld->sdict[c].n;
	}
}

/* Writes the record of a line of groups whose ranked columns' ranks and
 * level-1 ids follow its fields. */
static void
record(struct ldisk *ld, const char *p, size_t n)
{
	size_t d = ld->d, c, r = 0, i;
	uint32_t *rec = ld->rec;
	uint64_t cnt;
	kn_str v;
	int64_t id;
	const char *err;

	for (c = 0; c < d; c++) {
		kn_hier *h = ld->hier[c];

		v = field(p, n, c);
		if (ld->ranked[c]) {
			i = d + ld->ns + 1 + 2 * r++;
			rec[c] = (uint32_t)number(field(p, n, i), 16);
			rec[d + c] = (uint32_t)number(field(p, n, i + 1), 16);
			continue;
		}
		if ((id = kn_hier_leaf(h, v.p, v.n, &err)) < 0)
			bad_value(ld, c, v, err);
		rec[c] = (uint32_t)id;
		rec[d + c] = h->nlevels > 1 ? kn_hier_lift(h, (uint32_t)id, 0,
		    1) : 0;
	}
	for (c = 0; c < ld->ns; c++) {
		v = field(p, n, d + c);
		if (ld->sranked[c]) {
			i = d + ld->ns + 1 + 2 * r++;
			rec[2 * d + c] = (uint32_t)number(field(p, n, i), 16);
		} else if (ld->svals) {
			if ((id = kn_dict_find(&ld->sdict[c], v.p, v.n)) < 0)
				kn_die("(temp file %s): a sensitive value not "
				    "read before", ld->bpath);
			rec[2 * d + c] = (uint32_t)id;
		} else
			rec[2 * d + c] = (uint32_t)number(v, 10);
	}
	cnt = number(field(p, n, d + ld->ns), 10);
	memcpy((char *)rec + ld->rsize - sizeof(uint64_t), &cnt, sizeof(cnt));
	if (fwrite(rec, ld->rsize, 1, ld->bf) != 1)
		kn_die_sys("%s: write error", ld->bpath);
}

/* Hands a line of groups (its fields, the ranks so far) to the stage
 * ld->at: the sort of the next ranked column, keyed by its value, or
 * the records. */
static void
feed(struct ldisk *ld, const char *p, size_t n)
{
	kn_str v;
	size_t c;

	if (ld->at == ld->nr) {
		record(ld, p, n);
		return;
	}
	c = ld->rcol[ld->at];
	v = field(p, n, c);
	if (c >= ld->d && ld->sorder[c - ld->d]) {
		v.n = tcd_order_key(v.p, v.n, ld->snum[c - ld->d], &ld->kbuf,
		    &ld->kcap);
		v.p = ld->kbuf;
	}
	ld->line = kn_grow(ld->line, &ld->linecap, v.n + n + 1, 1, 256);
	memcpy(ld->line, v.p, v.n);
	ld->line[v.n] = '\t';
	memcpy(ld->line + v.n + 1, p, n);
	kn_sort_add(ld->next, ld->line, v.n + 1 + n);
}

/* The labels above the leaf v of ranked column c, each counting it
 * among its leaves; its label at level 1. */
static uint32_t
leaf_above(struct ldisk *ld, size_t c, kn_str v)
{
	kn_hier *h = ld->hier[c];
	uint32_t ids[KN_HIER_MAXLEVELS];
	const char *err;
	size_t i;
	int l;

	if (kn_hier_above(h, v.p, v.n, ids, &err) < 0)
		bad_value(ld, c, v, err);
	for (l = 1; l < h->nlevels; l++) {
		if (ids[l] >= ld->ccap[c][l]) {
			i = ld->ccap[c][l];
			ld->cover[c][l] = kn_grow(ld->cover[c][l],
			    &ld->ccap[c][l], ids[l], sizeof(uint32_t), 64);
			memset(ld->cover[c][l] + i, 0,
			    (ld->ccap[c][l] - i) * sizeof(uint32_t));
		}
		ld->cover[c][l][ids[l]]++;
	}
	return h->nlevels > 1 ? ids[1] : 0;
}

/* A line of the sort of column rcol[at], in the order of its values:
 * a new value takes the next rank, a leaf its labels above it; the line
 * goes on with them to the next stage. */
static void
ranked_line(const char *line, size_t len, void *ctx)
{
	struct ldisk *ld = ctx;
	size_t c = ld->rcol[ld->at - 1], i, n;
	const char *tab = memchr(line, '\t', len);
	char *buf;

	if (tab == NULL)
		kn_die("(temp file %s): a line without its value", ld->gpath);
	n = (size_t)(tab - line);
	if (!ld->have || n != ld->prevlen || memcmp(line, ld->prev, n) != 0) {
		if (ld->have)
			ld->rank++;
		ld->have = 1;
		if (ld->grown != NULL && c < ld->d && (ld->rank & 0xfff) == 0)
			ld->grown(ld->gctx);
		ld->prev = kn_grow(ld->prev, &ld->prevcap, n, 1, 64);
		memcpy(ld->prev, line, n);
		ld->prevlen = n;
		ld->l1 = c < ld->d ? leaf_above(ld, c, (kn_str){ line, n }) :
		    0;
	}
	/* The fields, then this column's rank and level-1 id. */
	ld->out = kn_grow(ld->out, &ld->outcap, len - n + 40, 1, 256);
	buf = ld->out;
	i = len - n - 1;
	memcpy(buf, tab + 1, i);
	i += (size_t)sprintf(buf + i, "\t%lx\t%lx", (unsigned long)ld->rank,
	    (unsigned long)ld->l1);
	feed(ld, buf, i);
}

void
ldisk_on_grow(struct ldisk *ld, void (*fn)(void *), void *ctx)
{
	ld->grown = fn;
	ld->gctx = ctx;
}

void
ldisk_build(struct ldisk *ld, size_t colmax, size_t budget)
{
	char *buf = NULL;
	size_t cap = 0, c, r;
	ssize_t n;
	int fd, l;
	kn_sorter *cur;

	if (fflush(ld->gf) == EOF || ferror(ld->gf))
		kn_die_sys("%s: write error", ld->gpath);
	decide(ld, colmax);
	for (r = 0; r < ld->nr && ld->rcol[r] < ld->d; r++) {
		c = ld->rcol[r];
		ld->cover[c] = kn_zalloc((size_t)ld->hier[c]->nlevels *
		    sizeof(uint32_t *));
		ld->ccap[c] = kn_zalloc((size_t)ld->hier[c]->nlevels *
		    sizeof(size_t));
	}
	fd = kn_mktemp(ld->tmpdir, &ld->bpath);
	if ((ld->bf = fdopen(fd, "w")) == NULL)
		kn_die_sys("%s", ld->bpath);
	ld->bbuf = kn_vbuf(ld->bf);
	/* Two sorts at a time: the one read and the next one fed. */
	ld->at = 0;
	if (ld->nr > 0)
		ld->next = kn_sort_new(NULL, 0, 1, budget / 2, ld->tmpdir);
	rewind(ld->gf);
	while ((n = getline(&buf, &cap, ld->gf)) > 0)
		feed(ld, buf, (size_t)n - 1);
	if (ferror(ld->gf))
		kn_die_sys("%s", ld->gpath);
	free(buf);
	fclose(ld->gf);
	ld->gf = NULL;
	free(ld->gbuf);
	ld->gbuf = NULL;
	kn_rmtemp(ld->gpath);
	ld->gpath = NULL;
	while (ld->at < ld->nr) {
		cur = ld->next;
		ld->at++;
		ld->next = ld->at < ld->nr ? kn_sort_new(NULL, 0, 1,
		    budget / 2, ld->tmpdir) : NULL;
		ld->have = 0;
		ld->rank = 0;
		kn_sort_finish(cur, 0, ranked_line, ld);
		kn_sort_free(cur);
		/* The leaves of the column, or its sensitive ids: its
		 * ranks. */
		c = ld->rcol[ld->at - 1];
		if (c >= ld->d) {
			ld->nsid[c - ld->d] = ld->have ? ld->rank + 1 : 0;
			continue;
		}
		ld->hier[c]->lab[0].n = ld->have ? ld->rank + 1 : 0;
		for (l = 1; l < ld->hier[c]->nlevels; l++)
			if (ld->ccap[c][l] <= ld->hier[c]->lab[l].n) {
				ld->cover[c][l] = kn_realloc(ld->cover[c][l],
				    (ld->hier[c]->lab[l].n + 1) *
				    sizeof(uint32_t));
				memset(ld->cover[c][l] + ld->ccap[c][l], 0,
				    (ld->hier[c]->lab[l].n + 1 -
				    ld->ccap[c][l]) * sizeof(uint32_t));
				ld->ccap[c][l] = ld->hier[c]->lab[l].n + 1;
			}
	}
	if (fflush(ld->bf) == EOF || ferror(ld->bf))
		kn_die_sys("%s: write error", ld->bpath);
	if ((ld->bfd = dup(fileno(ld->bf))) < 0)
		kn_die_sys("%s", ld->bpath);
	fclose(ld->bf);
	ld->bf = NULL;
	free(ld->bbuf);
	ld->bbuf = NULL;
	for (c = 0; c < ld->ns; c++) {
		kn_dict_free(&ld->sdict[c]);
		kn_dict_init(&ld->sdict[c]);
	}
	free(ld->prev);
	free(ld->line);
	free(ld->out);
	free(ld->kbuf);
	ld->prev = ld->line = ld->out = ld->kbuf = NULL;
	ld->prevcap = ld->linecap = ld->outcap = ld->kcap = 0;
}

/* How a record's key is made at a node: for each field of the key,
 * the record's id it takes, through a level map or as it is, and where
 * it goes. */
struct proj {
	size_t nop, cntat;
	int W;
	struct {
		size_t from;
		const uint32_t *map;
		int word, shift;
	} op[KN_PMAXQ + KN_MAXSENS];
};

static void
proj_init(const struct ldisk *ld, const struct ldisk_node *nd,
    struct proj *pj)
{
	size_t c, d = ld->d, n = 0;
	int lv;

	for (c = 0; c < d; c++) {
		const kn_pfield *f = &nd->ly->f[c];

		if (!(nd->mask >> c & 1))
			continue;
		lv = nd->lev[c];
		pj->op[n].from = lv == 0 ? c : d + c;
		pj->op[n].map = lv < 2 ? NULL : f->map[f->nlev + lv];
		pj->op[n].word = f->word;
		pj->op[n++].shift = f->shift;
	}
	for (c = 0; c < ld->ns; c++) {
		pj->op[n].from = 2 * d + c;
		pj->op[n].map = NULL;
		pj->op[n].word = nd->sword[c];
		pj->op[n++].shift = nd->sshift[c];
	}
	pj->nop = n;
	pj->cntat = ld->rsize - sizeof(uint64_t);
	pj->W = nd->ly->W;
}

/* The key of the record rec (aligned to 4 bytes) into k, its count
 * into *cnt. */
static inline void
project(const struct proj *pj, const unsigned char *rec, uint64_t *k,
    uint64_t *cnt)
{
	const uint32_t *v = (const uint32_t *)(const void *)rec;
	uint64_t id;
	size_t i;
	int w;

	memcpy(cnt, rec + pj->cntat, sizeof(uint64_t));
	for (w = 0; w < pj->W; w++)
		k[w] = 0;
	for (i = 0; i < pj->nop; i++) {
		id = v[pj->op[i].from];
		if (pj->op[i].map != NULL)
			id = pj->op[i].map[id];
		k[pj->op[i].word] |= id << pj->op[i].shift;
	}
}

/* A source of groups keyed at a node: the records of the set, each
 * keyed through the projection pj, or a part written by ldisk_each
 * (pj NULL), whose entries are keys and counts as they are. */
struct src {
	int fd;
	const char *path;
	uint64_t n;		/* records or entries */
	size_t esize;		/* bytes of one */
	const struct proj *pj;
	int W;
};

static void
src_records(const struct ldisk *ld, const struct proj *pj, struct src *s)
{
	s->fd = ld->bfd;
	s->path = ld->bpath;
	s->n = ld->groups;
	s->esize = ld->rsize;
	s->pj = pj;
	s->W = pj->W;
}

/* Reads want records or entries of s at off into buf; their bytes. */
static size_t
read_at(const struct src *s, unsigned char *buf, uint64_t want, off_t off)
{
	size_t have, n = (size_t)want * s->esize;
	ssize_t got;

	for (have = 0; have < n; have += (size_t)got) {
		got = pread(s->fd, buf + have, n - have, off + (off_t)have);
		if (got < 0 && errno == EINTR) {
			got = 0;
			continue;
		}
		if (got < 0)
			kn_die_sys("%s: read error", s->path);
		if (got == 0)
			kn_die("%s: temp file shorter than written", s->path);
	}
	return have;
}

/* Calls each on every group of s (its key, its count), read in
 * batches, until each returns nonzero. */
static void
scan(const struct src *s, int (*each)(const uint64_t *, uint64_t, void *),
    void *ctx)
{
	unsigned char *buf = kn_alloc(LD_BATCH * s->esize);
	const size_t kb = (size_t)s->W * sizeof(uint64_t);
	uint64_t left = s->n, want, i, k[8], cnt;
	off_t off = 0;
	size_t have;

	while (left > 0) {
		want = left < LD_BATCH ? left : LD_BATCH;
		have = read_at(s, buf, want, off);
		for (i = 0; i < want; i++) {
			const unsigned char *e = buf + i * s->esize;

			if (s->pj != NULL)
				project(s->pj, e, k, &cnt);
			else {
				memcpy(k, e, kb);
				memcpy(&cnt, e + kb, sizeof(cnt));
			}
			if (each(k, cnt, ctx))
				goto done;
		}
		off += (off_t)have;
		left -= want;
	}
done:
	free(buf);
}

/* The rows of each id of a sensitive column (ldisk_scounts). */
struct scount {
	const struct ldisk *ld;
	uint64_t *C;
	uint32_t n;		/* its ids */
};

static int
scount_group(const uint64_t *k, uint64_t cnt, void *ctx)
{
	struct scount *sc = ctx;

	if (k[0] >= sc->n)
		kn_die("(temp file %s): a sensitive id out of range",
		    sc->ld->bpath);
	sc->C[k[0]] += cnt;
	return 0;
}

void
ldisk_scounts(const struct ldisk *ld, size_t c, uint64_t *C)
{
	struct scount sc = { ld, C, ld->nsid[c] };
	struct proj pj;
	struct src s;

	/* The records keyed by the column's id alone. */
	memset(&pj, 0, sizeof(pj));
	pj.nop = 1;
	pj.op[0].from = 2 * ld->d + c;
	pj.cntat = ld->rsize - sizeof(uint64_t);
	pj.W = 1;
	src_records(ld, &pj, &s);
	scan(&s, scount_group, &sc);
}

/* How many groups ahead agg_add fetches their slots. */
#define AGG_AHEAD 16

/* A set counted in memory, of at most most groups, through the hash
 * table of s; over when a group more was met.  A group waits in ring
 * (from its first, pending of them) while its slot is fetched, so that
 * the misses of a table larger than the caches overlap; they are
 * counted in the order met. */
struct agg {
	kn_pscratch *s;
	kn_pset *dst;
	size_t cap, most, mask;
	int W, over;
	size_t first, pending;
	struct {
		uint64_t k[8], cnt, h;
	} ring[AGG_AHEAD];
};

static void
agg_begin(struct agg *a, kn_pscratch *s, size_t most, int W)
{
	memset(a, 0, sizeof(*a));
	a->s = s;
	a->most = most;
	a->W = W;
	a->mask = kn_pscratch_begin(s, most) - 1;
	a->dst = kn_zalloc(sizeof(kn_pset));
	a->dst->key = kn_alloc(W * sizeof(uint64_t));
	a->dst->cnt = kn_alloc(sizeof(uint64_t));
}

/* Counts the group k (cnt rows) at slot h onwards; 1 when over. */
static int
agg_put(struct agg *a, const uint64_t *k, uint64_t cnt, uint64_t h)
{
	kn_pset *dst = a->dst;
	const int W = a->W;
	kn_pslot *tab = a->s->tab;
	uint32_t gen = a->s->gen;

	for (;; h = (h + 1) & a->mask) {
		if (tab[h].gen != gen)
			break;
		if (tab[h].key == k[0] && (W == 1 || memcmp(dst->key +
		    (size_t)tab[h].idx * W, k, W * sizeof(uint64_t)) == 0)) {
			dst->cnt[tab[h].idx] += cnt;
			return 0;
		}
	}
	if (dst->n == a->most) {
		a->over = 1;
		return 1;
	}
	if (dst->n == a->cap) {
		a->cap = a->cap ? a->cap + a->cap / 2 : 1024;
		if (a->cap > a->most)
			a->cap = a->most;
		dst->key = kn_realloc(dst->key, (a->cap + 1) * W *
		    sizeof(uint64_t));
		dst->cnt = kn_realloc(dst->cnt, (a->cap + 1) *
		    sizeof(uint64_t));
	}
	tab[h].gen = gen;
	tab[h].key = k[0];
	tab[h].idx = (uint32_t)dst->n;
	memcpy(dst->key + dst->n * W, k, W * sizeof(uint64_t));
	dst->cnt[dst->n++] = cnt;
	return 0;
}

/* Counts the oldest group waiting; 1 when over. */
static int
agg_next(struct agg *a)
{
	int r = agg_put(a, a->ring[a->first].k, a->ring[a->first].cnt,
	    a->ring[a->first].h);

	a->first = (a->first + 1) % AGG_AHEAD;
	a->pending--;
	return r;
}

/* scan's each: the group k waits for its slot, the oldest waiting is
 * counted once the ring is full. */
static int
agg_add(const uint64_t *k, uint64_t cnt, void *ctx)
{
	struct agg *a = ctx;
	const int W = a->W;
	uint64_t h;
	size_t e;
	int w;

	if (a->pending == AGG_AHEAD && agg_next(a))
		return 1;
	if (W == 1)
		h = k[0] * 0x9E3779B97F4A7C15ULL;
	else for (h = 0, w = 0; w < W; w++)
		h = (h ^ k[w]) * 0x9E3779B97F4A7C15ULL;
	h = (h ^ (h >> 29)) & a->mask;
	__builtin_prefetch(&a->s->tab[h]);
	e = (a->first + a->pending++) % AGG_AHEAD;
	memcpy(a->ring[e].k, k, W * sizeof(uint64_t));
	a->ring[e].cnt = cnt;
	a->ring[e].h = h;
	return 0;
}

/* The groups of s counted into a (begun), those still waiting last;
 * a->over tells whether they passed a->most. */
static void
agg_scan(struct agg *a, const struct src *s)
{
	scan(s, agg_add, a);
	while (!a->over && a->pending > 0)
		agg_next(a);
}

kn_pset *
ldisk_rollup(struct ldisk *ld, const struct ldisk_node *nd, size_t most,
    kn_pscratch *s)
{
	struct proj pj;
	struct src src;
	struct agg a;

	proj_init(ld, nd, &pj);
	src_records(ld, &pj, &src);
	agg_begin(&a, s, most, nd->ly->W);
	agg_scan(&a, &src);
	if (a.over) {
		kn_pset_free(a.dst);
		return NULL;
	}
	return a.dst;
}

/* ldisk_each's pass: the groups of a source written to parts by a hash
 * of their class (the key with the fields of smask cleared), through a
 * buffer each. */
struct route {
	int W;
	const uint64_t *smask;
	uint64_t seed;
	size_t np, bufsz;
	struct src *part;
	unsigned char *buf;
	size_t *fill;
	uint64_t *first;	/* each part's first class */
	unsigned char *mixed;	/* whether it holds another */
};

static size_t
part_of(const struct route *r, const uint64_t *k)
{
	uint64_t h = r->seed;
	int w;

	for (w = 0; w < r->W; w++) {
		h = (h ^ (k[w] & ~r->smask[w])) * 0x9E3779B97F4A7C15ULL;
		h ^= h >> 32;
	}
	h *= 0xBF58476D1CE4E5B9ULL;
	h ^= h >> 31;
	return (size_t)(((unsigned __int128)h * r->np) >> 64);
}

static void
flush_part(struct route *r, size_t i)
{
	if (kn_write_all(r->part[i].fd, r->buf + i * r->bufsz, r->fill[i]))
		kn_die_sys("%s: write error", r->part[i].path);
	r->fill[i] = 0;
}

static int
route_group(const uint64_t *k, uint64_t cnt, void *ctx)
{
	struct route *r = ctx;
	const size_t kb = (size_t)r->W * sizeof(uint64_t);
	size_t i = part_of(r, k);
	uint64_t *f = r->first + i * (size_t)r->W;
	unsigned char *b;
	int w;

	for (w = 0; w < r->W; w++)
		if (r->part[i].n == 0)
			f[w] = k[w] & ~r->smask[w];
		else if (f[w] != (k[w] & ~r->smask[w]))
			r->mixed[i] = 1;

	if (r->fill[i] + kb + sizeof(cnt) > r->bufsz)
		flush_part(r, i);
	b = r->buf + i * r->bufsz + r->fill[i];
	memcpy(b, k, kb);
	memcpy(b + kb, &cnt, sizeof(cnt));
	r->fill[i] += kb + sizeof(cnt);
	r->part[i].n++;
	return 0;
}

/* ldisk_each's node and what it hands the sets on to. */
struct each {
	struct ldisk *ld;
	const struct ldisk_node *nd;
	const uint64_t *smask;
	kn_pscratch *s;
	size_t most, budget, maxparts;
	int W;
	const struct ldisk_hand *h;
};

/* A class too large for a set made in memory, its sensitive values not
 * held (ldisk_new's svals): the counts of one sensitive column's values
 * added up in a sort by value, then given to the verdict in a sort by
 * count, descending. */
struct big {
	const struct each *e;
	size_t c;		/* the column */
	kn_sorter *byval, *bycnt;
	uint64_t n;		/* the class's rows */
	uint64_t key[8];	/* its key, the sensitive fields cleared */
	uint32_t prev;		/* the value being added up */
	uint64_t sum;
	int have;
	kn_ldiv_acc acc;
};

/* Writes the line of a group's value of column b->c and its count. */
static int
big_group(const uint64_t *k, uint64_t cnt, void *ctx)
{
	struct big *b = ctx;
	const struct ldisk_node *nd = b->e->nd;
	char line[32];
	int w;

	if (b->n == 0)
		for (w = 0; w < b->e->W; w++)
			b->key[w] = k[w] & ~b->e->smask[w];
	b->n += cnt;
	snprintf(line, sizeof(line), "%08lx%016llx", (unsigned long)(k[
	    nd->sword[b->c]] >> nd->sshift[b->c] & nd->sfm[b->c]),
	    (unsigned long long)cnt);
	kn_sort_add(b->byval, line, 24);
	return 0;
}

static void
big_flush(struct big *b)
{
	char line[24];

	if (!b->have)
		return;
	if (b->e->h->value != NULL)
		b->e->h->value(b->c, b->prev, b->sum, b->e->h->ctx);
	snprintf(line, sizeof(line), "%016llx", (unsigned long long)~b->sum);
	kn_sort_add(b->bycnt, line, 16);
}

/* A line of the sort by value: a value's counts added up. */
static void
big_value(const char *line, size_t len, void *ctx)
{
	struct big *b = ctx;
	uint32_t v = (uint32_t)number((kn_str){ line, 8 }, 16);

	(void)len;
	if (!b->have || v != b->prev) {
		big_flush(b);
		b->have = 1;
		b->prev = v;
		b->sum = 0;
	}
	b->sum += number((kn_str){ line + 8, 16 }, 16);
}

/* A line of the sort by count, descending. */
static void
big_count(const char *line, size_t len, void *ctx)
{
	struct big *b = ctx;

	(void)len;
	kn_ldiv_add(&b->acc, ~number((kn_str){ line, 16 }, 16));
}

/*
 * Hands on the class of s, of more groups than a set made in memory
 * holds, with no more of them in memory than two sorts within the
 * budget of the parts' buffers take: its size, and whether each
 * sensitive column's values meet l-diversity, are found from sorts of
 * its groups (two for each column), and the class is handed on as its
 * key (e->h->big).
 */
static void
hand_big(const struct each *e, const struct src *s)
{
	struct big b;
	int ok = 1;

	memset(&b, 0, sizeof(b));
	b.e = e;
	for (b.c = 0; b.c < e->ld->ns && (ok || b.c == 0 ||
	    e->h->value != NULL); b.c++) {
		b.n = 0;
		b.have = 0;
		b.byval = kn_sort_new(NULL, 0, 1, e->budget / 2,
		    e->ld->tmpdir);
		scan(s, big_group, &b);
		b.bycnt = kn_sort_new(NULL, 0, 1, e->budget / 2,
		    e->ld->tmpdir);
		kn_sort_finish(b.byval, 0, big_value, &b);
		kn_sort_free(b.byval);
		big_flush(&b);
		kn_ldiv_begin(&b.acc, e->h->div, b.n);
		kn_sort_finish(b.bycnt, 0, big_count, &b);
		kn_sort_free(b.bycnt);
		ok = kn_ldiv_end(&b.acc) && ok;
	}
	e->ld->bigs++;
	e->h->big(b.key, b.n, ok, e->h->ctx);
}

/* Hands on the groups of s counted in memory whatever their number,
 * in a table of their own that doubles until they fit (each try a pass
 * over s): for a part that holds one class whose groups (its sensitive
 * values') pass e->most, or one that hashing did not split. */
static void
hand_whole(const struct each *e, const struct src *s)
{
	kn_pscratch sc;
	struct agg a;
	size_t most = e->most;

	memset(&sc, 0, sizeof(sc));
	do {
		if (most > (size_t)UINT32_MAX / 4)
			kn_die("%s: a class of more than %zu groups: beyond "
			    "what lattice-search counts in one table", s->path,
			    most);
		most *= 2;
		agg_begin(&a, &sc, most, e->W);
		agg_scan(&a, s);
		if (a.over)
			kn_pset_free(a.dst);
	} while (a.over);
	e->h->each(a.dst, e->h->ctx);
	kn_pset_free(a.dst);
	free(sc.tab);
}

/* Closes s when it is a part, read for the last time. */
static void
src_done(struct src *s)
{
	if (s->pj == NULL && s->fd >= 0) {
		close(s->fd);
		s->fd = -1;
	}
}

/*
 * Hands on the groups of s in sets of whole classes: counted in memory
 * when they are at most e->most, else written to parts by a hash of
 * their class (a seed for each depth), each part then handed on the
 * same way and removed.  one: whether s holds a single class.  A part
 * (not the records) is closed once read: the parts above the one being
 * read are not open.
 */
static void
hand_on(const struct each *e, struct src *s, int depth, int one)
{
	struct route r;
	struct agg a;
	size_t i;

	if (s->n <= e->most || one) {
		agg_begin(&a, e->s, e->most, e->W);
		agg_scan(&a, s);
		if (!a.over)
			e->h->each(a.dst, e->h->ctx);
		kn_pset_free(a.dst);
		if (!a.over) {
			src_done(s);
			return;
		}
	}
	/* A class too large, or classes that the hashes of many seeds
	 * have not parted. */
	if (one && e->ld->svals) {
		hand_big(e, s);
		src_done(s);
		return;
	}
	if (one || depth >= LD_MAXDEPTH) {
		hand_whole(e, s);
		src_done(s);
		return;
	}
	memset(&r, 0, sizeof(r));
	r.W = e->W;
	r.smask = e->smask;
	r.seed = 0x243F6A8885A308D3ULL * (uint64_t)(depth + 1);
	r.np = (size_t)(s->n / (e->most / 2 + 1)) + 1;
	if (r.np > e->maxparts)
		r.np = e->maxparts;
	if (r.np < 2)
		r.np = 2;
	r.bufsz = e->budget / r.np;
	if (r.bufsz > ((size_t)1 << 20))
		r.bufsz = (size_t)1 << 20;
	if (r.bufsz < 4096)
		r.bufsz = 4096;
	r.part = kn_zalloc(r.np * sizeof(*r.part));
	r.fill = kn_zalloc(r.np * sizeof(*r.fill));
	r.first = kn_zalloc(r.np * (size_t)r.W * sizeof(uint64_t));
	r.mixed = kn_zalloc(r.np);
	r.buf = kn_alloc(r.np * r.bufsz);
	for (i = 0; i < r.np; i++) {
		char *path;

		r.part[i].fd = kn_mktemp(e->ld->tmpdir, &path);
		r.part[i].path = path;
		r.part[i].esize = (size_t)(e->W + 1) * sizeof(uint64_t);
		r.part[i].W = e->W;
	}
	scan(s, route_group, &r);
	src_done(s);
	/* Written, the parts are closed: only the one read is open. */
	for (i = 0; i < r.np; i++) {
		flush_part(&r, i);
		if (close(r.part[i].fd) != 0)
			kn_die_sys("%s: write error", r.part[i].path);
	}
	free(r.buf);
	free(r.fill);
	free(r.first);
	for (i = 0; i < r.np; i++) {
		if (r.part[i].n > 0) {
			r.part[i].fd = open(r.part[i].path, O_RDONLY |
			    O_NOFOLLOW);
			if (r.part[i].fd < 0)
				kn_die_sys("%s", r.part[i].path);
			hand_on(e, &r.part[i], depth + 1, !r.mixed[i]);
		}
		kn_rmtemp(r.part[i].path);	/* and frees it */
	}
	free(r.mixed);
	free(r.part);
}

void
ldisk_each(struct ldisk *ld, const struct ldisk_node *nd,
    const uint64_t *smask, size_t most, kn_pscratch *s, size_t budget,
    const struct ldisk_hand *h)
{
	struct each e;
	struct proj pj;
	struct src src;
	struct rlimit rl;

	memset(&e, 0, sizeof(e));
	e.ld = ld;
	e.nd = nd;
	e.smask = smask;
	e.s = s;
	e.most = most;
	e.budget = budget;
	e.W = nd->ly->W;
	e.h = h;
	/* The parts being written are open together, with one read at
	 * each depth above them: half the open files allowed, less those
	 * of the caller. */
	e.maxparts = LD_MAXPARTS;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur !=
	    RLIM_INFINITY) {
		rlim_t n = rl.rlim_cur > h->fds ? rl.rlim_cur - h->fds : 0;

		if (n / 2 < e.maxparts + 16)
			e.maxparts = n / 2 > 18 ? n / 2 - 16 : 2;
	}
	proj_init(ld, nd, &pj);
	src_records(ld, &pj, &src);
	hand_on(&e, &src, 0, 0);
}

void
ldisk_free(struct ldisk *ld)
{
	size_t c;
	int l;

	if (ld == NULL)
		return;
	if (ld->bfd >= 0)
		close(ld->bfd);
	if (ld->bpath != NULL)
		kn_rmtemp(ld->bpath);
	for (c = 0; c < ld->d; c++) {
		if (ld->cover[c] != NULL)
			for (l = 0; l < ld->hier[c]->nlevels; l++)
				free(ld->cover[c][l]);
		free(ld->cover[c]);
		free(ld->ccap[c]);
	}
	free(ld->rec);
	free(ld);
}
