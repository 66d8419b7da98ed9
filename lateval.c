/*
 * lateval.c: lattice-search's evaluation of a node (paper 000 §3): its
 * classes found in its frequency set (groups of one class brought
 * together by their keys without the sensitive fields), each judged
 * (below k, or not l-diverse or t-close in some sensitive column, it is
 * suppressed), and tallied exactly: the rows suppressed, the classes
 * kept, C_DM and Iyengar's loss summed in integers by attribute, so
 * that neither the order of the groups nor a set's being on disk
 * changes a bit; the metrics of a node that qualifies.  A set on disk
 * (latdisk.c) is read in pieces of whole classes.  Below lattice.c,
 * whose state (struct lat_state, latinput.h) it reads.
 */
#include <stdlib.h>
#include <string.h>

#include "kanon.h"
#include "lateval.h"
#include "tcdisk.h"

/* The run's state, lattice.c's L (lateval_init). */
static const struct lat_state *L;

/* Each thread's scratch. */
static _Thread_local struct {
	uint32_t *ord;		/* the groups in the order of their classes */
	uint64_t *vals;
	size_t valcap;
	kn_tval *tv;		/* a class's values of one sensitive column */
	size_t tvcap;
	kn_tscratch tsc;
	struct tdefer *td;	/* while t-closeness is measured on disk */
	/* the values of a class handed on alone (tally_value), each
	 * column's, for the distributions held */
	kn_tval *bv[KN_MAXSENS];
	size_t nbv[KN_MAXSENS], bvcap[KN_MAXSENS];
} E;

/*
 * t-closeness measured out of core (L->tdisk): a node's classes are
 * judged on k and l-diversity as they come, every class's values of
 * each sensitive column go to a tcdisk.c measure of its own (the ids
 * latdisk.c gave them, as positions: for the ordered distance their
 * ranks in its order), and each class waits in a spool (its key, rows
 * and whether it is already suppressed) until the measures give their
 * verdicts, in the order the classes came; then it is tallied.
 */
struct tdefer {
	tcd_ctx tc[KN_MAXSENS];
	tcd_spool cls;
	size_t rsize;		/* bytes of a class's record */
	uint64_t *rec;
};

void
lateval_init(const struct lat_state *l)
{
	L = l;
}

void
lateval_thread_free(void)
{
	size_t c;

	free(E.ord);
	free(E.vals);
	free(E.tv);
	free(E.tsc.p);
	for (c = 0; c < KN_MAXSENS; c++)
		free(E.bv[c]);
	memset(&E, 0, sizeof(E));
}

/* Compares two groups by their keys without the sensitive field. */
static int
cmp_qi(uint32_t x, uint32_t y, const void *ctx)
{
	const fset *f = ctx;
	const uint64_t *a = f->key + (size_t)x * L->W;
	const uint64_t *b = f->key + (size_t)y * L->W;
	uint64_t u, v;
	int w;

	for (w = 0; w < L->W; w++) {
		u = a[w] & ~L->smask[w];
		v = b[w] & ~L->smask[w];
		if (u != v)
			return u < v ? -1 : 1;
	}
	return 0;
}


/* A run of classes' sums: of the kept classes and of the suppressed
 * ones, by attribute (the rows times the leaves their label covers less
 * one), and C_DM's; added to a tally's at the end (tally_flush).  Each
 * fits 128 bits: at most N rows times 2^32 leaves, or N times N. */
struct tacc {
	uint64_t supp, classes, bclasses;
	unsigned __int128 cdm, bcdm;
	unsigned __int128 kcov[MAXQ], scov[MAXQ];
	/* the node's generalized attributes: their field and covers */
	size_t nop;
	struct {
		const uint32_t *cover;
		uint64_t fm;
		int word, shift;
		size_t j;
	} op[MAXQ];
};

/* Adds a class of n rows to a's counts and C_DM's sums; sup: it is
 * suppressed. */
static inline void
tally_sums(struct tacc *a, uint64_t n, int sup)
{
	uint64_t c = n < L->req.k ? L->req.k : n;

	a->bclasses++;
	a->bcdm += (unsigned __int128)n * (c < L->N ? c : L->N);
	if (sup)
		a->supp += n;
	else {
		a->classes++;
		a->cdm += (unsigned __int128)n * n;
	}
}

/* Adds the class of n rows at group i of f to a (the node's attributes
 * in a->op); sup: it is suppressed. */
static inline void
tally_class(const fset *f, size_t i, uint64_t n, int sup, struct tacc *a)
{
	const uint64_t *k = f->key + i * L->W;
	unsigned __int128 *acc;
	size_t o;

	tally_sums(a, n, sup);
	acc = sup ? a->scov : a->kcov;
	for (o = 0; o < a->nop; o++)
		acc[a->op[o].j] += (unsigned __int128)n *
		    (a->op[o].cover[k[a->op[o].word] >> a->op[o].shift &
		    a->op[o].fm] - 1);
}

static void
tally_flush(struct tally *t, const struct tacc *a)
{
	size_t j;

	t->supp += a->supp;
	t->classes += a->classes;
	t->bclasses += a->bclasses;
	t->cdm += a->cdm;
	t->bcdm += a->bcdm;
	for (j = 0; j < L->d; j++) {
		t->cov[j] += a->kcov[j];
		t->bcov[j] += a->kcov[j] + a->scov[j];
	}
}

/* The mean of Iyengar's loss over the cells of sums by attribute cov,
 * without the suppressed cells. */
long double
lateval_loss(const unsigned __int128 *cov)
{
	long double l = 0;
	size_t j;

	for (j = 0; j < L->d; j++)
		if (L->a[j].h->lab[0].n > 1)
			l += (long double)cov[j] /
			    (long double)(L->a[j].h->lab[0].n - 1);
	return l;
}

/* Sorts the groups of f by quasi-identifiers into E.ord, those of one
 * class in their order in f.  Keys of one word are sorted by their
 * bytes from the lowest (a stable radix sort, each byte that not all
 * share a pass), others by cmp_qi. */
static void
order_classes(const fset *f)
{
	size_t i, n = f->n, (*cnt)[256], sum, c;
	uint32_t *a, *b, *t;
	uint64_t m, k;
	int d;

	E.ord = kn_realloc(E.ord, (n + 1) * sizeof(uint32_t));
	for (i = 0; i < n; i++)
		E.ord[i] = (uint32_t)i;
	if (L->W != 1 || n < 256) {
		kn_sort_ids(E.ord, n, cmp_qi, f);
		return;
	}
	m = ~L->smask[0];
	cnt = kn_zalloc(8 * sizeof(*cnt));
	for (i = 0; i < n; i++)
		for (k = f->key[i] & m, d = 0; d < 8; d++)
			cnt[d][k >> 8 * d & 255]++;
	a = E.ord;
	b = kn_alloc((n + 1) * sizeof(uint32_t));
	for (d = 0; d < 8; d++) {
		if (cnt[d][(f->key[0] & m) >> 8 * d & 255] == n)
			continue;
		for (sum = 0, c = 0; c < 256; c++) {
			sum += cnt[d][c];
			cnt[d][c] = sum - cnt[d][c];
		}
		for (i = 0; i < n; i++)
			b[cnt[d][(f->key[a[i]] & m) >> 8 * d & 255]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	E.ord = a;
	free(b);
	free(cnt);
}

/* Whether the n rows of groups o[i..e) of f meet l-diversity and
 * t-closeness in sensitive column s: its values' counts are gathered
 * by position (groups of one value differ in the other columns). */
static int
sens_ok(const fset *f, size_t i, size_t e, size_t s, uint64_t n)
{
	const uint32_t *o = E.ord;
	size_t j, nv = 0, k;

	for (j = i; j < e; j++) {
		uint64_t id = f->key[(size_t)o[j] * L->W + L->sword[s]] >>
		    L->sshift[s] & L->sfm[s];

		E.tv = kn_grow(E.tv, &E.tvcap, nv, sizeof(kn_tval), 64);
		E.tv[nv].pos = L->spos[s] != NULL ? L->spos[s][id] : (uint32_t)id;
		E.tv[nv++].cnt = f->cnt[o[j]];
	}
	if (L->ns > 1 || L->req.hast)
		kn_tval_sort(E.tv, nv);
	for (j = k = 0; j < nv; j++)
		if (k > 0 && E.tv[k - 1].pos == E.tv[j].pos)
			E.tv[k - 1].cnt += E.tv[j].cnt;
		else
			E.tv[k++] = E.tv[j];
	nv = k;
	for (j = 0; E.td != NULL && j < nv; j++)
		tcd_add_pos(&E.td->tc[s], E.tv[j].pos, E.tv[j].cnt);
	if (L->req.ld.on) {
		E.vals = kn_grow(E.vals, &E.valcap, nv, sizeof(uint64_t), 64);
		for (j = 0; j < nv; j++)
			E.vals[j] = E.tv[j].cnt;
		kn_counts_desc(E.vals, nv);
		if (!kn_ldiv_ok(&L->req.ld, E.vals, nv, n))
			return 0;
	}
	return !L->req.hast || E.td != NULL ||
	    kn_tclose_ok(&L->tc[s], E.tv, nv, n, &E.tsc, NULL);
}

/* The class at E.ord[i..): its size, the end of its run of groups, and
 * whether it must be suppressed (below k, or not l-diverse or t-close
 * in some sensitive column). */
static int
class_at(const fset *f, size_t i, size_t *end, uint64_t *np)
{
	const uint32_t *o = E.ord;
	uint64_t n = 0;
	size_t j, s;
	int sup;

	for (j = i; j < f->n && (j == i || cmp_qi(o[i], o[j], f) == 0);
	    j++)
		n += f->cnt[o[j]];
	*end = j;
	*np = n;
	/* Measured on disk, every class's values are the table's. */
	sup = n < L->req.k;
	for (s = 0; s < L->ns && (!sup || E.td != NULL); s++)
		if (!sens_ok(f, i, j, s, n))
			sup = 1;
	return sup;
}

/* A class of n rows, its key at k, waits for the verdicts of the
 * measures on disk; sup: it is suppressed whatever they say. */
static void
td_class(const uint64_t *k, uint64_t n, int sup)
{
	struct tdefer *td = E.td;
	size_t c;

	for (c = 0; c < L->ns; c++)
		tcd_class(&td->tc[c], n, !sup);
	memcpy(td->rec, k, (size_t)L->W * sizeof(uint64_t));
	td->rec[L->W] = n;
	td->rec[L->W + 1] = (uint64_t)sup;
	tcd_spool_put(&td->cls, td->rec, td->rsize);
}

/* Begins a's tally of classes of node lev over mask. */
static void
tacc_begin(struct tacc *a, uint64_t mask, const int *lev)
{
	size_t j;

	memset(a, 0, sizeof(*a));
	for (j = 0; j < L->d; j++)
		if (lev[j] > 0 && (mask >> j & 1)) {
			const struct attr *at = &L->a[j];

			a->op[a->nop].cover = at->cover[lev[j]];
			a->op[a->nop].fm = at->fm;
			a->op[a->nop].word = at->word;
			a->op[a->nop].shift = at->shift;
			a->op[a->nop++].j = j;
		}
}

/* tally's whole tally where each group of f is a class: the classes'
 * sums, then each generalized attribute's in a pass of its own (its
 * field and covers held in registers, the set in the cache), where
 * tally_class goes through every attribute for each class. */
static void
tally_groups(const fset *f, uint64_t mask, const int *lev, struct tally *t)
{
	struct tacc a;
	const uint64_t *key = f->key, *cnt = f->cnt, k = L->req.k;
	const size_t W = (size_t)L->W;
	size_t i, o;

	tacc_begin(&a, mask, lev);
	for (i = 0; i < f->n; i++)
		tally_sums(&a, cnt[i], cnt[i] < k);
	for (o = 0; o < a.nop; o++) {
		const uint32_t *cover = a.op[o].cover;
		const uint64_t *kw = key + a.op[o].word, fm = a.op[o].fm;
		const int sh = a.op[o].shift;
		unsigned __int128 all = 0, kept = 0, x;
		uint64_t all64 = 0, kept64 = 0, y;

		/* In 64 bits below 2^32 rows: each cover less one is below
		 * 2^32, so the sums stay below 2^64 (a 128-bit sum's carries
		 * made this loop slower than the one it replaced). */
		if (L->N <= UINT32_MAX) {
			for (i = 0; i < f->n; i++) {
				y = cnt[i] * (cover[kw[i * W] >> sh & fm] - 1);
				all64 += y;
				kept64 += cnt[i] < k ? 0 : y;
			}
			all = all64;
			kept = kept64;
		} else
			for (i = 0; i < f->n; i++) {
				x = (unsigned __int128)cnt[i] *
				    (cover[kw[i * W] >> sh & fm] - 1);
				all += x;
				kept += cnt[i] < k ? 0 : x;
			}
		a.kcov[a.op[o].j] += kept;
		a.scov[a.op[o].j] += all - kept;
	}
	tally_flush(t, &a);
}

/* Adds the classes of f (node lev over mask) to t: all of the tally
 * with full, else the rows suppressed only. */
static void
tally(const fset *f, uint64_t mask, const int *lev, struct tally *t,
    int full)
{
	struct tacc a;
	uint64_t n, supp = 0;
	size_t i, j, g;
	int sup;

	if (!full && !L->hass) {
		for (i = 0; i < f->n; i++)
			supp += f->cnt[i] < L->req.k ? f->cnt[i] : 0;
		t->supp += supp;
		return;
	}
	if (full && !L->hass && E.td == NULL) {
		tally_groups(f, mask, lev, t);
		return;
	}
	if (L->hass)
		order_classes(f);
	if (full)
		tacc_begin(&a, mask, lev);
	for (i = 0; i < f->n; i = j) {
		if (L->hass) {
			sup = class_at(f, i, &j, &n);
			g = E.ord[i];
		} else {
			j = i + 1;
			n = f->cnt[i];
			sup = n < L->req.k;
			g = i;
		}
		if (E.td != NULL)
			td_class(f->key + g * L->W, n, sup);
		else if (full)
			tally_class(f, g, n, sup, &a);
		else if (sup)
			supp += n;
	}
	t->supp += supp;
	if (full)
		tally_flush(t, &a);
}

/* The node and tally of a set on disk, which evaluate reads in pieces
 * of whole classes. */
struct piece {
	uint64_t mask;
	const int *lev;
	struct tally *t;
};

static void
tally_piece(const kn_pset *f, void *ctx)
{
	const struct piece *p = ctx;

	tally(f, p->mask, p->lev, p->t, 1);
}

/* A class of the set on disk too large to be handed on in a set: its
 * key, rows, and whether its sensitive values meet l-diversity. */
static void
tally_big(const uint64_t *key, uint64_t n, int sens_ok, void *ctx)
{
	const struct piece *p = ctx;
	fset f = { 0 };
	struct tacc a;
	size_t c;

	if (E.td != NULL) {
		td_class(key, n, n < L->req.k || !sens_ok);
		return;
	}
	/* The distributions held: each column's values came in the order
	 * of their ids, the positions. */
	for (c = 0; L->svdisk && c < L->ns; c++) {
		if (sens_ok && n >= L->req.k && !kn_tclose_ok(&L->tc[c],
		    E.bv[c], E.nbv[c], n, &E.tsc, NULL))
			sens_ok = 0;
		E.nbv[c] = 0;
	}
	f.n = 1;
	f.key = (uint64_t *)(uintptr_t)key;
	f.cnt = &n;
	tacc_begin(&a, p->mask, p->lev);
	tally_class(&f, 0, n, n < L->req.k || !sens_ok, &a);
	tally_flush(p->t, &a);
}

/* A distinct value of column c of such a class: its id and rows. */
static void
tally_value(size_t c, uint32_t id, uint64_t cnt, void *ctx)
{
	(void)ctx;
	if (E.td != NULL) {
		tcd_add_pos(&E.td->tc[c], id, cnt);
		return;
	}
	E.bv[c] = kn_grow(E.bv[c], &E.bvcap[c], E.nbv[c], sizeof(kn_tval), 64);
	E.bv[c][E.nbv[c]].pos = id;
	E.bv[c][E.nbv[c]++].cnt = cnt;
}

/* Tallies the classes of node (mask, lev) from the set on disk, read
 * in pieces (ldisk_each); fds: the descriptors the caller holds. */
static void
tally_disk(uint64_t mask, const int *lev, struct tally *t, kn_pscratch *scr,
    size_t fds)
{
	struct ldisk_node nd = { &L->lay, L->sword, L->sshift, L->sfm, mask,
	    lev };
	struct piece p = { mask, lev, t };
	struct ldisk_hand h = { tally_piece, tally_big,
	    L->svdisk ? tally_value : NULL, fds, &L->req.ld, &p };

	ldisk_each(L->disk, &nd, L->smask, L->most, scr, L->sortbud, &h);
}

/* Tallies the classes of node (mask, lev) from set f, with their
 * verdicts of t-closeness measured on disk. */
static void
td_tally(const fset *f, uint64_t mask, const int *lev, struct tally *t,
    kn_pscratch *scr)
{
	struct tdefer td;
	struct tacc a;
	fset one = { 0 };
	size_t c, budget = L->sortbud, hold = L->tdhold;
	long double d;
	uint64_t n;
	int sup;

	memset(&td, 0, sizeof(td));
	td.rsize = ((size_t)L->W + 2) * sizeof(uint64_t);
	td.rec = kn_alloc(td.rsize);
	/* The spools' share, a part for the classes and one for each
	 * column's values and classes; the sorts at the end take what
	 * the sets of the pass had. */
	for (c = 0; c < L->ns; c++)
		tcd_init(&td.tc[c], &L->req, NULL, budget, hold / (L->ns + 1),
		    L->tmpdir, 1);
	tcd_spool_init(&td.cls, hold / (L->ns + 1), L->tmpdir);
	E.td = &td;
	if (f->key == NULL)
		/* Each column's spools of values and classes, and the
		 * classes', may be files, each two descriptors (kanon.c's
		 * temp files keep theirs, the stream has its own). */
		tally_disk(mask, lev, t, scr, 4 * L->ns + 2);
	else
		tally(f, mask, lev, t, 1);
	E.td = NULL;
	for (c = 0; c < L->ns; c++)
		tcd_finish(&td.tc[c]);
	tcd_spool_read(&td.cls);
	tacc_begin(&a, mask, lev);
	one.n = 1;
	one.key = td.rec;
	one.cnt = &n;
	while (tcd_spool_get(&td.cls, td.rec, td.rsize)) {
		n = td.rec[L->W];
		sup = td.rec[L->W + 1] != 0;
		/* Every column's verdict is read, in the classes' order. */
		for (c = 0; !td.rec[L->W + 1] && c < L->ns; c++)
			if (!tcd_next(&td.tc[c], &d))
				sup = 1;
		tally_class(&one, 0, n, sup, &a);
	}
	tally_flush(t, &a);
	for (c = 0; c < L->ns; c++)
		tcd_free(&td.tc[c]);
	tcd_spool_free(&td.cls);
	free(td.rec);
}

/*
 * Evaluates node (mask, lev): the rows in classes below k or failing
 * l-diversity or t-closeness are suppressed; the node qualifies if they
 * are at most the limit.  With m (all quasi-identifiers), fills in the
 * metrics of a qualifying node, and with tp its whole tally.
 */
int
lateval_node(const fset *f, uint64_t mask, const int *lev,
    struct metrics *m, struct tally *tp, kn_pscratch *scr, uint64_t *sorted)
{
	struct tally t;
	uint64_t supp;
	size_t j;
	long double pl = 0;

	memset(&t, 0, sizeof(t));
	if (L->tdisk) {
		td_tally(f, mask, lev, &t, scr);
		*sorted += f->key == NULL;
	} else if (f->key == NULL) {
		tally_disk(mask, lev, &t, scr, 0);
		(*sorted)++;
	} else
		tally(f, mask, lev, &t, 0);
	if (t.supp > L->limit || m == NULL)
		return t.supp <= L->limit;
	if (f->key != NULL && !L->tdisk) {
		memset(&t, 0, sizeof(t));
		tally(f, mask, lev, &t, 1);
	}
	if (tp != NULL)
		*tp = t;
	memset(m, 0, sizeof(*m));
	/* Precision (Sweeney): one minus the mean generalization height
	 * of the cells; loss (Iyengar): the mean share of each cell's
	 * domain its label covers.  Suppressed cells count 1. */
	for (j = 0; j < L->d; j++)
		if (L->a[j].nlev > 1)
			pl += (long double)lev[j] / (L->a[j].nlev - 1);
	m->supp = supp = t.supp;
	m->classes = t.classes;
	m->cdm = t.cdm + (unsigned __int128)supp * L->N;
	m->prec = L->N == 0 ? 1 : 1 - (pl * (L->N - supp) +
	    (long double)supp * L->d) / L->N / L->d;
	m->loss = L->N == 0 ? 0 : (lateval_loss(t.cov) + (long double)supp * L->d) /
	    L->N / L->d;
	return 1;
}
