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
 *  - the set is then a file of records, each group's leaf and level-1
 *    ids, its sensitive ids and its count (ldisk_build);
 *  - a node's set is one pass over that file, each record's key made
 *    at the node's levels (from level 1 by the level maps, which the
 *    labels above the leaves keep small) and counted in a hash while it
 *    holds at most a given number of groups (ldisk_rollup); larger, the
 *    keys are sorted within the budget and handed on in pieces of
 *    whole classes, in class order (ldisk_each).
 * Below lattice.c, above extsort.c and hier.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kanon.h"
#include "extsort.h"
#include "latdisk.h"

/* Records read at a time. */
#define LD_BATCH 4096
/* The groups of a piece of ldisk_each, at least. */
#define LD_PIECE 65536

struct ldisk {
	size_t d, ns;
	kn_hier **hier;
	const char *tmpdir;
	char *gpath;		/* the groups read, as lines of text */
	FILE *gf;
	uint64_t groups;
	int ranked[KN_PMAXQ];
	uint32_t **cover[KN_PMAXQ];	/* of the ranked columns */
	size_t *ccap[KN_PMAXQ];
	size_t nr, rcol[KN_PMAXQ];	/* the ranked columns */
	size_t rsize;		/* bytes of a record */
	char *bpath;		/* the records */
	int bfd;
	FILE *bf;
	/* the stage being sorted: its column, the next stage's sort, the
	 * value met last and its rank and level-1 id */
	size_t at;
	kn_sorter *next;
	char *prev;
	size_t prevlen, prevcap;
	uint32_t rank, l1;
	int have;
	char *line, *out;	/* lines being made */
	size_t linecap, outcap;
	uint32_t *rec;		/* a record being made */
};

struct ldisk *
ldisk_new(size_t d, kn_hier **hier, size_t ns, const char *tmpdir)
{
	struct ldisk *ld = kn_zalloc(sizeof(*ld));
	int fd;

	ld->d = d;
	ld->hier = hier;
	ld->ns = ns;
	ld->tmpdir = tmpdir;
	ld->bfd = -1;
	fd = kn_mktemp(tmpdir, &ld->gpath);
	if ((ld->gf = fdopen(fd, "w+")) == NULL)
		kn_die_sys("%s", ld->gpath);
	setvbuf(ld->gf, NULL, _IOFBF, 1 << 16);
	ld->rsize = (2 * d + ns) * sizeof(uint32_t) + sizeof(uint64_t);
	ld->rec = kn_zalloc(ld->rsize + sizeof(uint64_t));
	return ld;
}

void
ldisk_group(struct ldisk *ld, const kn_str *qi, const uint32_t *sid,
    uint64_t cnt)
{
	size_t c;

	for (c = 0; c < ld->d; c++) {
		if (memchr(qi[c].p, '\t', qi[c].n) != NULL ||
		    memchr(qi[c].p, '\n', qi[c].n) != NULL)
			kn_die("'%.*s': a value with a tab or a newline in it "
			    "cannot go to the frequency set on disk: give a "
			    "larger -S (lattice-search(1), -S)", (int)qi[c].n,
			    qi[c].p);
		fwrite(qi[c].p, 1, qi[c].n, ld->gf);
		putc('\t', ld->gf);
	}
	for (c = 0; c < ld->ns; c++)
		fprintf(ld->gf, "%lu\t", (unsigned long)sid[c]);
	kn_put_u64(ld->gf, cnt);
	if (putc('\n', ld->gf) == EOF)
		kn_die_sys("%s: write error", ld->gpath);
	ld->groups++;
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
 * learned forgotten).
 */
static void
decide(struct ldisk *ld, size_t colmax)
{
	char *buf = NULL;
	size_t cap = 0, c;
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
			if ((lines & 0x3ff) == 0 && labels_bytes(h) > colmax) {
				ld->ranked[c] = 1;
				kn_hier_reset(h);
			}
		}
	}
	if (ferror(ld->gf))
		kn_die_sys("%s", ld->gpath);
	free(buf);
	for (c = 0; c < ld->d; c++)
		if (ld->hier[c]->kind != KN_HFILE && !ld->ranked[c] &&
		    labels_bytes(ld->hier[c]) > colmax) {
			ld->ranked[c] = 1;
			kn_hier_reset(ld->hier[c]);
		}
	for (c = 0; c < ld->d; c++)
		if (ld->ranked[c])
			ld->rcol[ld->nr++] = c;
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
	for (c = 0; c < ld->ns; c++)
		rec[2 * d + c] = (uint32_t)number(field(p, n, d + c), 10);
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

	if (ld->at == ld->nr) {
		record(ld, p, n);
		return;
	}
	v = field(p, n, ld->rcol[ld->at]);
	ld->line = kn_grow(ld->line, &ld->linecap, v.n + n + 1, 1, 256);
	memcpy(ld->line, v.p, v.n);
	ld->line[v.n] = '\t';
	memcpy(ld->line + v.n + 1, p, n);
	kn_sort_add(ld->next, ld->line, v.n + 1 + n);
}

/* A line of the sort of column rcol[at], in the order of its values:
 * a new value takes the next rank, its labels above the leaf and their
 * leaves; the line goes on with them to the next stage. */
static void
ranked_line(const char *line, size_t len, void *ctx)
{
	struct ldisk *ld = ctx;
	size_t c = ld->rcol[ld->at - 1], i, n;
	kn_hier *h = ld->hier[c];
	const char *tab = memchr(line, '\t', len), *err;
	uint32_t ids[KN_HIER_MAXLEVELS];
	char *buf;
	int l;

	if (tab == NULL)
		kn_die("(temp file %s): a line without its value", ld->gpath);
	n = (size_t)(tab - line);
	if (!ld->have || n != ld->prevlen || memcmp(line, ld->prev, n) != 0) {
		if (ld->have)
			ld->rank++;
		ld->have = 1;
		ld->prev = kn_grow(ld->prev, &ld->prevcap, n, 1, 64);
		memcpy(ld->prev, line, n);
		ld->prevlen = n;
		if (kn_hier_above(h, line, n, ids, &err) < 0)
			bad_value(ld, c, (kn_str){ line, n }, err);
		ld->l1 = h->nlevels > 1 ? ids[1] : 0;
		for (l = 1; l < h->nlevels; l++) {
			if (ids[l] >= ld->ccap[c][l]) {
				i = ld->ccap[c][l];
				ld->cover[c][l] = kn_grow(ld->cover[c][l],
				    &ld->ccap[c][l], ids[l], sizeof(uint32_t),
				    64);
				memset(ld->cover[c][l] + i, 0,
				    (ld->ccap[c][l] - i) * sizeof(uint32_t));
			}
			ld->cover[c][l][ids[l]]++;
		}
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
	for (r = 0; r < ld->nr; r++) {
		c = ld->rcol[r];
		ld->cover[c] = kn_zalloc((size_t)ld->hier[c]->nlevels *
		    sizeof(uint32_t *));
		ld->ccap[c] = kn_zalloc((size_t)ld->hier[c]->nlevels *
		    sizeof(size_t));
	}
	fd = kn_mktemp(ld->tmpdir, &ld->bpath);
	if ((ld->bf = fdopen(fd, "w")) == NULL)
		kn_die_sys("%s", ld->bpath);
	setvbuf(ld->bf, NULL, _IOFBF, 1 << 16);
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
		/* The leaves of the column: its ranks. */
		c = ld->rcol[ld->at - 1];
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
	free(ld->prev);
	free(ld->line);
	free(ld->out);
	ld->prev = ld->line = ld->out = NULL;
	ld->prevcap = ld->linecap = ld->outcap = 0;
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

/* Calls each on every record of the set, read in batches. */
static void
scan(struct ldisk *ld, void (*each)(const unsigned char *, void *),
    void *ctx)
{
	unsigned char *buf = kn_alloc(LD_BATCH * ld->rsize);
	uint64_t left = ld->groups, want, i;
	off_t off = 0;
	ssize_t got;
	size_t have;

	while (left > 0) {
		want = left < LD_BATCH ? left : LD_BATCH;
		for (have = 0; have < want * ld->rsize; have += (size_t)got) {
			got = pread(ld->bfd, buf + have, want * ld->rsize -
			    have, off + (off_t)have);
			if (got < 0 && errno == EINTR) {
				got = 0;
				continue;
			}
			if (got <= 0)
				kn_die_sys("%s: read error", ld->bpath);
		}
		for (i = 0; i < want; i++)
			each(buf + i * ld->rsize, ctx);
		off += (off_t)have;
		left -= want;
	}
	free(buf);
}

/* ldisk_rollup's pass. */
struct hpass {
	struct proj pj;
	kn_pscratch *s;
	kn_pset *dst;
	size_t cap, most, mask;
	int over;
};

static void
hash_rec(const unsigned char *rec, void *ctx)
{
	struct hpass *p = ctx;
	kn_pset *dst = p->dst;
	const int W = p->pj.W;
	uint64_t k[8], cnt, h;
	kn_pslot *tab = p->s->tab;
	uint32_t gen = p->s->gen;
	int w;

	if (p->over)
		return;
	project(&p->pj, rec, k, &cnt);
	if (W == 1)
		h = k[0] * 0x9E3779B97F4A7C15ULL;
	else for (h = 0, w = 0; w < W; w++)
		h = (h ^ k[w]) * 0x9E3779B97F4A7C15ULL;
	h = (h ^ (h >> 29)) & p->mask;
	for (;; h = (h + 1) & p->mask) {
		if (tab[h].gen != gen)
			break;
		if (tab[h].key == k[0] && (W == 1 || memcmp(dst->key +
		    (size_t)tab[h].idx * W, k, W * sizeof(uint64_t)) == 0)) {
			dst->cnt[tab[h].idx] += cnt;
			return;
		}
	}
	if (dst->n == p->most) {
		p->over = 1;
		return;
	}
	if (dst->n == p->cap) {
		p->cap = p->cap ? p->cap + p->cap / 2 : 1024;
		if (p->cap > p->most)
			p->cap = p->most;
		dst->key = kn_realloc(dst->key, (p->cap + 1) * W *
		    sizeof(uint64_t));
		dst->cnt = kn_realloc(dst->cnt, (p->cap + 1) *
		    sizeof(uint64_t));
	}
	tab[h].gen = gen;
	tab[h].key = k[0];
	tab[h].idx = (uint32_t)dst->n;
	memcpy(dst->key + dst->n * W, k, W * sizeof(uint64_t));
	dst->cnt[dst->n++] = cnt;
}

kn_pset *
ldisk_rollup(struct ldisk *ld, const struct ldisk_node *nd, size_t most,
    kn_pscratch *s)
{
	struct hpass p;
	size_t nslot = kn_pscratch_begin(s, most);

	memset(&p, 0, sizeof(p));
	proj_init(ld, nd, &p.pj);
	p.s = s;
	p.most = most;
	p.mask = nslot - 1;
	p.dst = kn_zalloc(sizeof(kn_pset));
	p.dst->key = kn_alloc(nd->ly->W * sizeof(uint64_t));
	p.dst->cnt = kn_alloc(sizeof(uint64_t));
	scan(ld, hash_rec, &p);
	if (p.over) {
		kn_pset_free(p.dst);
		return NULL;
	}
	return p.dst;
}

/* ldisk_each's pass: the sort, then the piece being filled, the group
 * being summed and its key (the fields of smask masked, then whole). */
struct spass {
	struct proj pj;
	const struct ldisk_node *nd;
	const uint64_t *smask;
	kn_sorter *so;
	char *line;
	size_t cap;
	kn_pset piece;
	size_t pcap;
	uint64_t key[16], cnt;	/* the class (masked), then the key */
	uint64_t last[8];	/* the class of the piece's last group */
	int have;
	void (*each)(const kn_pset *, void *);
	void *ctx;
};

/* v in 16 hexadecimal digits at b. */
static size_t
put_hex16(char *b, uint64_t v)
{
	int i;

	for (i = 15; i >= 0; i--, v >>= 4)
		b[i] = "0123456789abcdef"[v & 15];
	return 16;
}

static void
sort_rec(const unsigned char *rec, void *ctx)
{
	struct spass *p = ctx;
	const int W = p->nd->ly->W;
	uint64_t k[8], cnt;
	size_t n = 0;
	int w;

	project(&p->pj, rec, k, &cnt);
	for (w = 0; w < W; w++)
		n += put_hex16(p->line + n, k[w] & ~p->smask[w]);
	for (w = 0; w < W; w++)
		n += put_hex16(p->line + n, k[w]);
	p->line[n++] = '\t';
	n += put_hex16(p->line + n, cnt);
	kn_sort_add(p->so, p->line, n);
}

/* Adds the group summed to the piece, handing the piece on first when
 * it is full and the group begins a class. */
static void
put_group(struct spass *p)
{
	const int W = p->nd->ly->W;
	kn_pset *pc = &p->piece;

	if (pc->n >= LD_PIECE && memcmp(p->last, p->key,
	    W * sizeof(uint64_t)) != 0) {
		p->each(pc, p->ctx);
		pc->n = 0;
	}
	memcpy(p->last, p->key, W * sizeof(uint64_t));
	if (pc->n == p->pcap) {
		p->pcap = p->pcap ? 2 * p->pcap : 1024;
		pc->key = kn_realloc(pc->key, (p->pcap + 1) * W *
		    sizeof(uint64_t));
		pc->cnt = kn_realloc(pc->cnt, (p->pcap + 1) * sizeof(uint64_t));
	}
	memcpy(pc->key + pc->n * W, p->key + W, W * sizeof(uint64_t));
	pc->cnt[pc->n++] = p->cnt;
}

static uint64_t
hex16(const char *s)
{
	uint64_t v = 0;
	int i, x;

	for (i = 0; i < 16; i++) {
		x = s[i] <= '9' ? s[i] - '0' : s[i] - 'a' + 10;
		v = v << 4 | (uint64_t)x;
	}
	return v;
}

static void
sorted_line(const char *line, size_t len, void *ctx)
{
	struct spass *p = ctx;
	const int W = p->nd->ly->W;
	uint64_t k[16];
	int w;

	if (len < (size_t)W * 32 + 2)
		kn_die("(temp run): a short line");
	for (w = 0; w < 2 * W; w++)
		k[w] = hex16(line + 16 * w);
	if (p->have && memcmp(k, p->key, 2 * W * sizeof(uint64_t)) == 0) {
		p->cnt += number((kn_str){ line + W * 32 + 1,
		    len - W * 32 - 1 }, 16);
		return;
	}
	if (p->have)
		put_group(p);
	memcpy(p->key, k, 2 * W * sizeof(uint64_t));
	p->cnt = number((kn_str){ line + W * 32 + 1, len - W * 32 - 1 }, 16);
	p->have = 1;
}

void
ldisk_each(struct ldisk *ld, const struct ldisk_node *nd,
    const uint64_t *smask, size_t budget,
    void (*each)(const kn_pset *, void *), void *ctx)
{
	struct spass p;

	memset(&p, 0, sizeof(p));
	proj_init(ld, nd, &p.pj);
	p.nd = nd;
	p.smask = smask;
	p.each = each;
	p.ctx = ctx;
	p.line = kn_alloc((size_t)nd->ly->W * 32 + 32);
	p.so = kn_sort_new(NULL, 0, 1, budget, ld->tmpdir);
	scan(ld, sort_rec, &p);
	kn_sort_finish(p.so, 0, sorted_line, &p);
	kn_sort_free(p.so);
	if (p.have)
		put_group(&p);
	if (p.piece.n > 0)
		each(&p.piece, ctx);
	free(p.piece.key);
	free(p.piece.cnt);
	free(p.line);
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
