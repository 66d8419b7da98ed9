/*
 * lattice-search: the k-minimal full-domain generalizations of a table
 * (or of its frequency set), with a suppression limit and optional
 * l-diversity, and the metrics of each node.
 *
 * The algorithms are those of paper 000 (LeFevre, DeWitt, Ramakrishnan,
 * Incognito, SIGMOD 2005; also 001 §20.3.1.2 and its Fig. 20.4):
 *  - incognito: "Basic Incognito Algorithm": a-priori over subsets of the
 *    quasi-identifier (join, prune, edge generation), a breadth-first
 *    search of each candidate graph with generalization marking and
 *    roll-up of frequency sets (generalization, roll-up and subset
 *    properties);
 *  - super-roots: the roots of each family are rolled up from the
 *    frequency set of their greatest common specialization, computed
 *    by one scan ("Algorithm Optimization" 1);
 *  - cube: "Bottom-up Pre-computation": the zero-generalization
 *    frequency sets of all subsets, rolled up in data-cube order, seed
 *    the roots;
 *  - samarati: Samarati's binary search for the least height holding a
 *    k-anonymous node (paper 002), then a sweep upward for the other
 *    minimal nodes;
 *  - bfs, bfs-scan: bottom-up breadth-first search of the whole
 *    lattice, with and without roll-up;
 *  - flash (the default): predictive tagging of the whole lattice, as
 *    Flash (Kohlmayer et al. 2012) and OLA (El Emam et al. 2009):
 *    passes inferred upward and failures downward (tagging.c), and
 *    --best's bounds below.
 * The "table" they scan is the frequency set of the input at the
 * leaves, held in memory with dictionary-encoded keys packed into
 * 64-bit words (latinput.c), or on disk when it does not fit -S
 * (latdisk.c): a set then comes from a pass over the file, in memory
 * while it fits its share, else as a set without keys, which evaluate
 * reads sorted from the disk.  All algorithms give the same nodes.
 *
 * With a suppression limit, a node qualifies when the rows of its
 * classes below k (or not l-diverse) number at most the limit.  That is
 * monotone along generalization and over attribute subsets for k and
 * distinct l-diversity, and without suppression for entropy and
 * recursive l-diversity; entropy or recursive l-diversity together with
 * suppression is not monotone (a diverse class merged with a suppressed
 * one can fail), so then every node of the lattice is evaluated and
 * minimality is decided over all specializations.  The monotone case
 * is what flash's inference needs both ways: a failing node's
 * specializations fail, since its passing would make them pass.
 *
 * The program's main, its options and their checks, the table opened
 * and its columns resolved, is lattice_search.c; it hands them to
 * lat_search (lattice.h), which reads, searches and writes the nodes.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kanon.h"
#include "lateval.h"
#include "latinput.h"
#include "lattice.h"
#include "tagging.h"

static const char *const algname[] = { "incognito", "super-roots", "cube",
    "samarati", "bfs", "bfs-scan", "flash" };

/* The metric of --metric (M_CDM...), which orders the output. */
static int metric;

/* A family: the nodes over one subset of the quasi-identifiers,
 * indexed in mixed radix over its members. */
struct family {
	uint64_t mask;
	int m, mem[MAXQ];
	uint64_t size, radix[MAXQ], ncand;
	uint8_t *st;		/* node states, below */
	fset **fs;		/* frequency sets alive during the search */
	struct metrics *met;	/* with all: metrics of evaluated nodes */
};

/* Node states; flash (tagging.c) tags FAIL on the nodes known to fail
 * and PRUNED on those --best passes over. */
enum { CAND = 1, ANON = 2, EVAL = 4, QUEUED = 8, BELOW = 16, ROOT = 32,
    FAIL = 64, PRUNED = 128 };

static struct lat_state L;

/* Statistics of a search. */
struct stats {
	uint64_t computed, scans, rollups, groups, dropped, sorted;
};

/* What each thread has of its own: scratch space, the sets it keeps
 * and its statistics. */
struct tstate {
	kn_pscratch scr;	/* the hash table of roll-ups */
	size_t budget, kept;
	struct stats st;
};
static _Thread_local struct tstate T;
static struct stats total;
static pthread_mutex_t total_mu = PTHREAD_MUTEX_INITIALIZER;

/* ---- frequency sets ------------------------------------------------ */

/* The set of node (mask, lev) from the input's set on disk: in memory
 * when it has at most L.most groups, else a set without keys, which
 * evaluate sorts from the disk. */
static fset *
disk_set(uint64_t mask, const int *lev)
{
	struct ldisk_node nd = { &L.lay, L.sword, L.sshift, L.sfm, mask,
	    lev };
	fset *f = ldisk_rollup(L.disk, &nd, L.most, &T.scr);

	if (f == NULL) {
		f = kn_zalloc(sizeof(*f));
		f->n = L.base.n;
	}
	return f;
}

/* Rolls the frequency set src of node (amask, alev) up to the node
 * (bmask, blev) (kn_pset_rollup), counting the groups read; from the
 * disk when src is there, or when the maps from its levels are not
 * kept (from the leaves ranked on disk). */
static fset *
rollup(const fset *src, uint64_t amask, const int *alev, uint64_t bmask,
    const int *blev)
{
	size_t j;

	T.st.groups += src->n;
	for (j = 0; src->key != NULL && j < L.d; j++)
		if ((amask & bmask) >> j & 1 && alev[j] != blev[j] &&
		    L.a[j].map[alev[j] * L.a[j].nlev + blev[j]] == NULL)
			break;
	if (src->key == NULL || j < L.d)
		return disk_set(bmask, blev);
	return kn_pset_rollup(&L.lay, &T.scr, src, amask, alev, bmask, blev);
}

/* Evaluates node (mask, lev) from its set f (lateval_node). */
static int
evaluate(const fset *f, uint64_t mask, const int *lev, struct metrics *m,
    struct tally *tp)
{
	return lateval_node(f, mask, lev, m, tp, &T.scr, &T.st.sorted);
}


/* ---- families and nodes ------------------------------------------- */

/* n zeroed items of each bytes for F's nodes, outside -S, said so. */
static void *
node_array(const struct family *F, uint64_t n, size_t each, const char *what)
{
	return tag_nodes_alloc(F->size, n, each, what, L.algo != A_FLASH ?
	    "-a flash, or " : each == sizeof(struct metrics) ?
	    "without --all, or " : "");
}

static struct family *
family_new(uint64_t mask)
{
	struct family *F = kn_zalloc(sizeof(*F));
	size_t j;

	F->mask = mask;
	F->size = 1;
	for (j = 0; j < L.d; j++)
		if (mask >> j & 1) {
			F->radix[F->m] = F->size;
			F->mem[F->m++] = (int)j;
			F->size *= (uint64_t)L.a[j].nlev;
		}
	F->st = node_array(F, F->size, 1, "the states of the nodes");
	return F;
}

static void
family_free(struct family *F)
{
	if (F == NULL)
		return;
	free(F->st);
	free(F->fs);
	free(F->met);
	free(F);
}

/* The levels (over all attributes, 0 outside the family) of node x. */
static void
levels(const struct family *F, uint64_t x, int *lev)
{
	int i;

	memset(lev, 0, L.d * sizeof(int));
	for (i = 0; i < F->m; i++) {
		int nl = L.a[F->mem[i]].nlev;

		lev[F->mem[i]] = (int)(x / F->radix[i] % (uint64_t)nl);
	}
}

static int
height(const struct family *F, uint64_t x)
{
	int i, h = 0;

	for (i = 0; i < F->m; i++)
		h += (int)(x / F->radix[i] % (uint64_t)L.a[F->mem[i]].nlev);
	return h;
}

/* The direct generalization of x raising member i, or -1 at the top. */
static int64_t
up1(const struct family *F, uint64_t x, int i)
{
	int nl = L.a[F->mem[i]].nlev;

	if ((int)(x / F->radix[i] % (uint64_t)nl) == nl - 1)
		return -1;
	return (int64_t)(x + F->radix[i]);
}

static int64_t
down1(const struct family *F, uint64_t x, int i)
{
	int nl = L.a[F->mem[i]].nlev;

	if (x / F->radix[i] % (uint64_t)nl == 0)
		return -1;
	return (int64_t)(x - F->radix[i]);
}

static const int zero[MAXQ];

/* What a scan reads: the table's frequency set at the leaves, or in
 * Incognito's later iterations that set generalized to the lowest
 * levels any candidate has (the same counts, fewer groups). */
static struct {
	const fset *f;
	uint64_t mask;
	int lev[MAXQ];
} src;

/* A scan: the frequency set of node x computed from the table. */
static fset *
scan(const struct family *F, uint64_t x)
{
	int lev[MAXQ];

	levels(F, x, lev);
	T.st.scans++;
	return rollup(src.f, src.mask, src.lev, F->mask, lev);
}

/* Marks x and all its generalizations in F as anonymous. */
static void
mark_up(struct family *F, uint64_t x)
{
	int i;
	int64_t y;

	if (F->st[x] & ANON)
		return;
	F->st[x] |= ANON;
	for (i = 0; i < F->m; i++)
		if ((y = up1(F, x, i)) >= 0 && (F->st[y] & CAND))
			mark_up(F, (uint64_t)y);
}

/* Evaluates node x of F given its frequency set; returns whether it
 * qualifies.  Keeps the metrics of nodes on all attributes. */
static int
eval_node(struct family *F, uint64_t x, const fset *f)
{
	int lev[MAXQ], ok;
	struct metrics m;

	levels(F, x, lev);
	T.st.computed++;
	F->st[x] |= EVAL;
	if (F->mask != L.full)
		return evaluate(f, F->mask, lev, NULL, NULL);
	ok = evaluate(f, F->mask, lev, &m, NULL);
	if (F->met == NULL)
		F->met = node_array(F, F->size, sizeof(struct metrics),
		    "the metrics of the nodes");
	F->met[x] = m;
	return ok;
}

/* Keeps f as the set of node x, for roll-ups to its generalizations,
 * while the kept sets fit in the memory budget; frees it otherwise
 * (its generalizations then roll up from another set, or scan). */
static void
keep_set(struct family *F, uint64_t x, fset *f)
{
	size_t bytes = f->n * (L.W + 1) * sizeof(uint64_t);

	if (f->key == NULL || T.kept + bytes > T.budget) {
		kn_pset_free(f);
		T.st.dropped++;
		return;
	}
	T.kept += bytes;
	F->fs[x] = f;
}

static void
drop_set(struct family *F, uint64_t x)
{
	fset *f = F->fs[x];

	if (f == NULL)
		return;
	T.kept -= f->n * (L.W + 1) * sizeof(uint64_t);
	kn_pset_free(f);
	F->fs[x] = NULL;
}

/* Drops every kept set of F and frees the order by height. */
static void
drop_all(struct family *F, uint64_t *byh, uint64_t *bs)
{
	uint64_t x;

	for (x = 0; x < F->size; x++)
		drop_set(F, x);
	free(F->fs);
	F->fs = NULL;
	free(byh);
	free(bs);
}

/* The direct specialization of x with the smallest kept set, or -1. */
static int64_t
smallest_below(const struct family *F, uint64_t x)
{
	int64_t y, p = -1;
	int i;

	for (i = 0; i < F->m; i++)
		if ((y = down1(F, x, i)) >= 0 && F->fs[y] != NULL &&
		    (p < 0 || F->fs[y]->n < F->fs[p]->n))
			p = y;
	return p;
}

/* ---- the breadth-first search of one candidate graph -------------- */

/* How roots and other nodes get their frequency sets. */
struct how {
	int rollup;		/* from a specialization (else a scan) */
	const fset *seed;	/* roots roll up from this set of node */
	uint64_t seedmask;
	const int *seedlev;
	int mark;		/* generalization marking */
};

/* The candidates of F in order of height: byh[bstart[h]..bstart[h+1]). */
static uint64_t *
by_height(const struct family *F, uint64_t **bstartp, int *hmaxp)
{
	uint64_t x, *byh, *bs;
	int hmax = 0, i;

	for (i = 0; i < F->m; i++)
		hmax += L.a[F->mem[i]].nlev - 1;
	bs = kn_zalloc((size_t)(hmax + 2) * sizeof(uint64_t));
	byh = node_array(F, F->size + 1, sizeof(uint64_t),
	    "the nodes in order of height");
	for (x = 0; x < F->size; x++)
		if (F->st[x] & CAND)
			bs[height(F, x) + 1]++;
	for (i = 0; i <= hmax; i++)
		bs[i + 1] += bs[i];
	for (x = 0; x < F->size; x++)
		if (F->st[x] & CAND)
			byh[bs[height(F, x)]++] = x;
	/* bs[h] now ends bucket h; shift back to starts. */
	for (i = hmax; i > 0; i--)
		bs[i] = bs[i - 1];
	bs[0] = 0;
	*bstartp = bs;
	*hmaxp = hmax;
	return byh;
}

/*
 * The modified breadth-first search of paper 000 over the candidates
 * of F: from the roots (candidates without a candidate direct
 * specialization) in order of height; a node is skipped when marked,
 * else its frequency set is computed (by roll-up from its direct
 * specialization with the smallest kept set), and when it qualifies
 * all its generalizations are marked, else its direct generalizations
 * are queued.
 */
static void
bfs(struct family *F, const struct how *how)
{
	uint64_t x, b, *byh, *bs, passed = 0;
	int hmax, h, i, ok, lev[MAXQ], plev[MAXQ];
	int64_t y, p;
	fset *f;

	byh = by_height(F, &bs, &hmax);
	F->fs = node_array(F, F->size + 1, sizeof(fset *),
	    "the places of the nodes' sets");
	for (b = 0; b < bs[hmax + 1]; b++)
		if (F->st[byh[b]] & ROOT)
			F->st[byh[b]] |= QUEUED;
	/* Every node queued at height h is a root or was queued by a node
	 * of height h - 1, processed before.  The progress counts the
	 * nodes passed over in batches, and each node evaluated. */
	for (h = 0; h <= hmax; h++) {
		for (b = bs[h]; b < bs[h + 1]; b++) {
			x = byh[b];
			if (!(F->st[x] & QUEUED) ||
			    ((F->st[x] & ANON) && how->mark)) {
				if (++passed == 4096) {
					kn_progress_add(passed);
					passed = 0;
				}
				continue;
			}
			kn_progress_add(passed + 1);
			passed = 0;
			levels(F, x, lev);
			if (F->st[x] & ROOT) {
				if (how->seed != NULL) {
					f = rollup(how->seed, how->seedmask,
					    how->seedlev, F->mask, lev);
					T.st.rollups++;
				} else
					f = scan(F, x);
			} else if (how->rollup &&
			    (p = smallest_below(F, x)) >= 0) {
				levels(F, (uint64_t)p, plev);
				f = rollup(F->fs[p], F->mask, plev, F->mask, lev);
				T.st.rollups++;
			} else
				f = scan(F, x);
			ok = eval_node(F, x, f);
			if (ok && how->mark) {
				mark_up(F, x);
				kn_pset_free(f);
				continue;
			}
			if (ok)
				F->st[x] |= ANON;
			keep_set(F, x, f);
			for (i = 0; i < F->m; i++)
				if ((y = up1(F, x, i)) >= 0 &&
				    (F->st[y] & CAND))
					F->st[y] |= QUEUED;
		}
		/* Sets of height h - 1 are no longer needed. */
		if (h > 0)
			for (b = bs[h - 1]; b < bs[h]; b++)
				drop_set(F, byh[b]);
	}
	for (b = bs[hmax]; b < bs[hmax + 1]; b++)
		drop_set(F, byh[b]);
	kn_progress_add(passed);
	free(byh);
	free(bs);
}

/* ---- the algorithms ------------------------------------------------ */

/* Marks the roots: the candidates without a candidate direct
 * specialization. */
static void
mark_roots(struct family *F)
{
	uint64_t x;
	int64_t y;
	int i;

	for (x = 0; x < F->size; x++) {
		if (!(F->st[x] & CAND))
			continue;
		for (i = 0; i < F->m; i++)
			if ((y = down1(F, x, i)) >= 0 && (F->st[y] & CAND))
				break;
		if (i == F->m)
			F->st[x] |= ROOT;
	}
}

static struct family *
full_family(void)
{
	struct family *F = family_new(L.full);

	memset(F->st, CAND, F->size);
	mark_roots(F);
	return F;
}

/* Zero-generalization frequency sets of subsets, by cube-order roll-up
 * (paper 000 "Bottom-up Pre-computation"): a subset's set is rolled up
 * from that of the subset with one more attribute. */
static struct {
	uint64_t *mask;
	fset **fs;
	size_t n, cap;
	uint64_t computed;
} cube;

static const fset *
cube_get(uint64_t mask)
{
	size_t i, j;
	uint64_t sup;
	const fset *f;

	if (mask == L.full)
		return &L.base;
	for (i = 0; i < cube.n; i++)
		if (cube.mask[i] == mask)
			return cube.fs[i];
	for (j = 0; mask >> j & 1; j++)
		;
	sup = mask | (uint64_t)1 << j;
	f = cube_get(sup);
	if (cube.n == cube.cap) {
		cube.cap = cube.cap ? 2 * cube.cap : 64;
		cube.mask = kn_realloc(cube.mask, cube.cap * sizeof(uint64_t));
		cube.fs = kn_realloc(cube.fs, cube.cap * sizeof(fset *));
	}
	cube.mask[cube.n] = mask;
	cube.fs[cube.n] = rollup(f, sup, zero, mask, zero);
	cube.computed++;
	return cube.fs[cube.n++];
}

/* Searches the candidate graph of F with the chosen algorithm's way of
 * computing the roots' frequency sets. */
static void
search_family(struct family *F)
{
	struct how how = { 1, NULL, 0, zero, 1 };
	int lev[MAXQ], srlev[MAXQ], i, j, any = 0;
	uint64_t x;
	fset *sr = NULL;

	mark_roots(F);
	if (L.algo == A_CUBE) {
		how.seed = cube_get(F->mask);
		how.seedmask = F->mask;
	} else if (L.algo == A_SUPERROOTS) {
		/* The super-root: the greatest common specialization of
		 * the roots, levels the minimum over them. */
		for (j = 0; j < (int)L.d; j++)
			srlev[j] = 0;
		for (x = 0; x < F->size; x++) {
			if (!(F->st[x] & ROOT))
				continue;
			levels(F, x, lev);
			for (i = 0; i < F->m; i++) {
				j = F->mem[i];
				if (!any || lev[j] < srlev[j])
					srlev[j] = lev[j];
			}
			any = 1;
		}
		T.st.scans++;
		sr = rollup(src.f, src.mask, src.lev, F->mask, srlev);
		how.seed = sr;
		how.seedmask = F->mask;
		how.seedlev = srlev;
	}
	bfs(F, &how);
	kn_pset_free(sr);
}

/* Orders families by prefix (all members but the last), then by the
 * last member, so that families that join are adjacent. */
static int
cmp_mask(const void *a, const void *b)
{
	uint64_t x = (*(struct family *const *)a)->mask;
	uint64_t y = (*(struct family *const *)b)->mask;
	int lx = 63 - __builtin_clzll(x), ly = 63 - __builtin_clzll(y);
	uint64_t px = x & ~((uint64_t)1 << lx), py = y & ~((uint64_t)1 << ly);

	if (px != py)
		return px < py ? -1 : 1;
	return (lx > ly) - (lx < ly);
}

/* The family of mask among fam[0..n), sorted by cmp_mask. */
static struct family *
find_family(struct family **fam, size_t n, uint64_t mask)
{
	struct family key, *kp = &key;
	struct family **f;

	key.mask = mask;
	f = bsearch(&kp, fam, n, sizeof(*fam), cmp_mask);
	return f != NULL ? *f : NULL;
}

/* The index in F of the projection of the levels lev. */
static uint64_t
index_of(const struct family *F, const int *lev)
{
	uint64_t x = 0;
	int i;

	for (i = 0; i < F->m; i++)
		x += (uint64_t)lev[F->mem[i]] * F->radix[i];
	return x;
}

/* Generalizes the table that later scans read to the lowest level of
 * each attribute among the candidates of families fam[0..n), dropping
 * the attributes none of them holds. */
static void
reduce_table(struct family **fam, size_t n)
{
	int lev[MAXQ], g[MAXQ], i;
	uint64_t mask = 0, x;
	size_t j, c;
	fset *f;

	for (c = 0; c < L.d; c++)
		g[c] = INT32_MAX;
	for (j = 0; j < n; j++) {
		mask |= fam[j]->mask;
		for (x = 0; x < fam[j]->size; x++) {
			if (!(fam[j]->st[x] & CAND))
				continue;
			levels(fam[j], x, lev);
			for (i = 0; i < fam[j]->m; i++)
				if (lev[fam[j]->mem[i]] < g[fam[j]->mem[i]])
					g[fam[j]->mem[i]] = lev[fam[j]->mem[i]];
		}
	}
	for (c = 0; c < L.d; c++)
		if (!(mask >> c & 1))
			g[c] = 0;
	f = rollup(src.f, src.mask, src.lev, mask, g);
	if (src.f != &L.base)
		kn_pset_free((fset *)src.f);
	src.f = f;
	src.mask = mask;
	memcpy(src.lev, g, sizeof(g));
}

/* Adds this thread's statistics to the total. */
static void
add_stats(void)
{
	pthread_mutex_lock(&total_mu);
	total.computed += T.st.computed;
	total.scans += T.st.scans;
	total.rollups += T.st.rollups;
	total.groups += T.st.groups;
	total.dropped += T.st.dropped;
	total.sorted += T.st.sorted;
	pthread_mutex_unlock(&total_mu);
	memset(&T.st, 0, sizeof(T.st));
}

/* The families of one iteration, searched by several threads: each
 * family's search reads only the previous iteration and the table. */
static struct {
	struct family **fam;
	size_t n, next;
	pthread_mutex_t mu;
} pool = { NULL, 0, 0, PTHREAD_MUTEX_INITIALIZER };

static void *
worker(void *arg)
{
	size_t j;
	int main_thread = arg == NULL;

	T.budget = L.budget / (size_t)L.threads;
	for (;;) {
		pthread_mutex_lock(&pool.mu);
		j = pool.next++;
		pthread_mutex_unlock(&pool.mu);
		if (j >= pool.n)
			break;
		search_family(pool.fam[j]);
	}
	add_stats();
	if (!main_thread) {
		free(T.scr.tab);
		lateval_thread_free();
	}
	return NULL;
}

static int
cmp_size(const void *a, const void *b)
{
	const struct family *x = *(struct family *const *)a;
	const struct family *y = *(struct family *const *)b;

	if (x->ncand != y->ncand)
		return x->ncand > y->ncand ? -1 : 1;
	return (x->mask > y->mask) - (x->mask < y->mask);
}

/* Searches the families fam[0..n), on up to L.threads threads. */
static void
search_all(struct family **fam, size_t n)
{
	pthread_t tid[64];
	size_t j, nt = (size_t)L.threads < n ? (size_t)L.threads : n;
	int e;

	if (L.algo == A_CUBE)
		for (j = 0; j < n; j++)
			cube_get(fam[j]->mask);
	/* Largest first, for an even load. */
	qsort(fam, n, sizeof(*fam), cmp_size);
	pool.fam = fam;
	pool.n = n;
	pool.next = 0;
	for (j = 1; j < nt; j++)
		if ((e = pthread_create(&tid[j], NULL, worker, &pool)) != 0) {
			errno = e;
			kn_die_sys("pthread_create");
		}
	worker(NULL);
	for (j = 1; j < nt; j++)
		pthread_join(tid[j], NULL);
	/* The last count, which a thread may have left undrawn. */
	kn_progress_add(0);
	T.budget = L.budget;
}

/* Begins the progress of Incognito's iteration i over the candidates
 * of the families fam[0..n). */
static void
progress_iteration(struct family **fam, size_t n, size_t i)
{
	char phase[64];
	uint64_t cands = 0, x;
	size_t j;

	for (j = 0; j < n; j++)
		for (x = 0; x < fam[j]->size; x++)
			cands += (fam[j]->st[x] & CAND) != 0;
	snprintf(phase, sizeof(phase), "search, %zu of %zu attributes", i,
	    L.d);
	kn_progress_phase(phase, "nodes", cands);
}

/*
 * Incognito (paper 000): S_1 from the single-attribute chains; then
 * for i = 2..d the candidate families C_i, each the union of two
 * families of S_{i-1} that share all members but the last (the join),
 * keeping only the nodes whose every (i-1)-attribute projection is in
 * S_{i-1} (the join condition and the prune phase in one test); edges
 * are the direct generalizations among candidates.  Returns the family
 * of all attributes, or NULL when no candidate survives.
 */
static struct family *
incognito(void)
{
	struct family **prev, **next, *G, *P, *sub[MAXQ];
	size_t np = 0, nn, i, j, c;
	uint64_t x;
	int lev[MAXQ], ok;

	prev = kn_alloc(L.d * sizeof(*prev));
	for (j = 0; j < L.d; j++) {
		G = family_new((uint64_t)1 << j);
		memset(G->st, CAND, G->size);
		prev[np++] = G;
	}
	progress_iteration(prev, np, 1);
	search_all(prev, np);
	for (i = 2; i <= L.d; i++) {
		qsort(prev, np, sizeof(*prev), cmp_mask);
		next = NULL;
		nn = 0;
		for (j = 0; j < np; j++)
			for (c = j + 1; c < np; c++) {
				uint64_t a = prev[j]->mask, b = prev[c]->mask;
				uint64_t pa = a & ~((uint64_t)1 <<
				    (63 - __builtin_clzll(a)));
				uint64_t pb = b & ~((uint64_t)1 <<
				    (63 - __builtin_clzll(b)));
				int any = 0, k;

				if (pa != pb)
					break;
				G = family_new(a | b);
				for (k = 0; k < G->m; k++)
					sub[k] = find_family(prev, np, G->mask &
					    ~((uint64_t)1 << G->mem[k]));
				for (x = 0; x < G->size; x++) {
					levels(G, x, lev);
					ok = 1;
					for (k = 0; k < G->m && ok; k++) {
						P = sub[k];
						ok = P != NULL &&
						    (P->st[index_of(P, lev)] &
						    ANON);
					}
					if (ok) {
						G->st[x] = CAND;
						G->ncand++;
						any = 1;
					}
				}
				if (!any) {
					family_free(G);
					continue;
				}
				next = kn_realloc(next, (nn + 1) * sizeof(*next));
				next[nn++] = G;
			}
		for (j = 0; j < np; j++)
			family_free(prev[j]);
		free(prev);
		prev = next;
		np = nn;
		if (np == 0)
			break;
		reduce_table(next, nn);
		progress_iteration(next, nn, i);
		search_all(next, nn);
	}
	if (src.f != &L.base)
		kn_pset_free((fset *)src.f);
	G = np == 1 && prev[0]->mask == L.full ? prev[0] : NULL;
	if (G == NULL)
		for (j = 0; j < np; j++)
			family_free(prev[j]);
	free(prev);
	return G;
}

/* Bottom-up breadth-first search of the whole lattice, with roll-up
 * or with a scan per node; without marking when the criterion is not
 * monotone. */
static struct family *
bottom_up(int rollup_on, int mark)
{
	struct family *F = full_family();
	struct how how = { rollup_on, NULL, 0, zero, mark };

	kn_progress_phase("search", "nodes", F->size);
	bfs(F, &how);
	return F;
}

/* Marks x and all its specializations in F as failing. */
static void
mark_down(struct family *F, uint64_t x)
{
	int i;
	int64_t y;

	if (F->st[x] & FAIL)
		return;
	F->st[x] |= FAIL;
	for (i = 0; i < F->m; i++)
		if ((y = down1(F, x, i)) >= 0)
			mark_down(F, (uint64_t)y);
}

/* Whether some node of height h qualifies (each checked by a scan); a
 * node that fails tags its specializations, which fail too (Samarati's
 * search is used only when qualifying is monotone), and later steps
 * pass over them. */
static int
samarati_check(struct family *F, const uint64_t *byh, const uint64_t *bs,
    int h)
{
	uint64_t b, x;
	fset *f;
	int ok;

	for (b = bs[h]; b < bs[h + 1]; b++) {
		x = byh[b];
		if (F->st[x] & FAIL)
			continue;
		if (F->st[x] & EVAL) {
			if (F->st[x] & ANON)
				return 1;
			continue;
		}
		f = scan(F, x);
		ok = eval_node(F, x, f);
		kn_pset_free(f);
		kn_progress_add(1);
		if (ok) {
			F->st[x] |= ANON;
			return 1;
		}
		mark_down(F, x);
	}
	return 0;
}

/*
 * Samarati's binary search (paper 002): the least height h* holding a
 * qualifying node, found by bisection since qualifying is monotone in
 * the height; then, to list every minimal node, a sweep from h* upward
 * where a node with a qualifying direct specialization qualifies and
 * the others are evaluated (by roll-up from a specialization's set).
 */
static struct family *
samarati(void)
{
	struct family *F = full_family();
	uint64_t *byh, *bs, b, x;
	int hmax, lo, hi, mid, h, i, lev[MAXQ], plev[MAXQ];
	int64_t y, py;
	fset *f;

	byh = by_height(F, &bs, &hmax);
	F->fs = node_array(F, F->size + 1, sizeof(fset *),
	    "the places of the nodes' sets");
	/* The binary search checks only some heights: the count of the
	 * nodes checked ends below the lattice's size. */
	kn_progress_phase("search", "nodes checked", F->size);
	if (!samarati_check(F, byh, bs, hmax))
		goto done;
	lo = 0;
	hi = hmax;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (samarati_check(F, byh, bs, mid))
			hi = mid;
		else
			lo = mid + 1;
	}
	for (h = lo; h <= hmax; h++) {
		for (b = bs[h]; b < bs[h + 1]; b++) {
			x = byh[b];
			py = -1;
			for (i = 0; i < F->m; i++)
				if ((y = down1(F, x, i)) >= 0) {
					if (F->st[y] & ANON)
						break;
					if (F->fs[y] != NULL && (py < 0 ||
					    F->fs[y]->n < F->fs[py]->n))
						py = y;
				}
			if (i < F->m) {
				F->st[x] |= ANON;
				continue;
			}
			if (F->st[x] & (EVAL | FAIL))
				continue;
			if (py >= 0) {
				levels(F, (uint64_t)py, plev);
				levels(F, x, lev);
				f = rollup(F->fs[py], F->mask, plev, F->mask, lev);
				T.st.rollups++;
			} else
				f = scan(F, x);
			if (eval_node(F, x, f)) {
				F->st[x] |= ANON;
				kn_pset_free(f);
			} else
				keep_set(F, x, f);
			kn_progress_add(1);
		}
		if (h > lo)
			for (b = bs[h - 1]; b < bs[h]; b++)
				drop_set(F, byh[b]);
	}
done:
	drop_all(F, byh, bs);
	return F;
}

/* ---- output -------------------------------------------------------- */

static const struct family *OF;

static int
node_cmp_levels(const struct family *F, uint64_t x, uint64_t y)
{
	int lx[MAXQ], ly[MAXQ];
	size_t j;

	levels(F, x, lx);
	levels(F, y, ly);
	for (j = 0; j < L.d; j++)
		if (lx[j] != ly[j])
			return lx[j] < ly[j] ? -1 : 1;
	return 0;
}

/* prec and loss as written (ten significant digits, rounding being
 * monotone): equal values summed in other orders differ in their last
 * bits, and the tie-breaks must decide them.  Values farther apart than
 * that rounding cannot be written alike. */
static int
cmp_written(long double x, long double y)
{
	char a[64], b[64];
	long double u, v;

	if (x == y)
		return 0;
	if (fabsl(x - y) > 2e-9L * fmaxl(fabsl(x), fabsl(y)))
		return x < y ? -1 : 1;
	snprintf(a, sizeof(a), "%.10Lg", x);
	snprintf(b, sizeof(b), "%.10Lg", y);
	u = strtold(a, NULL);
	v = strtold(b, NULL);
	return u < v ? -1 : u > v;
}

/* Best first by the metric; ties by C_DM, height, then levels: nodes
 * a and b of F with the metrics x and y. */
static int
cmp_node(const struct family *F, const struct metrics *x, uint64_t a,
    const struct metrics *y, uint64_t b)
{
	int hx = height(F, a), hy = height(F, b), c;

	switch (metric) {
	case M_CAVG:
		if (x->classes == 0 || y->classes == 0) {
			if ((x->classes == 0) != (y->classes == 0))
				return x->classes == 0 ? 1 : -1;
			break;
		} else {
			unsigned __int128 l = (unsigned __int128)(L.N -
			    x->supp) * y->classes;
			unsigned __int128 r = (unsigned __int128)(L.N -
			    y->supp) * x->classes;

			if (l != r)
				return l < r ? -1 : 1;
		}
		break;
	case M_HEIGHT:
		if (hx != hy)
			return hx < hy ? -1 : 1;
		break;
	case M_PREC:
		if ((c = cmp_written(x->prec, y->prec)) != 0)
			return -c;
		break;
	case M_LOSS:
		if ((c = cmp_written(x->loss, y->loss)) != 0)
			return c;
		break;
	}
	if (x->cdm != y->cdm)
		return x->cdm < y->cdm ? -1 : 1;
	if (hx != hy)
		return hx < hy ? -1 : 1;
	return node_cmp_levels(F, a, b);
}

/* One node of the output and its metrics. */
struct outrow {
	uint64_t x;
	struct metrics m;
};

/* cmp_node for kn_sort_ids over the rows ctx of the family OF. */
static int
cmp_out(uint32_t a, uint32_t b, const void *ctx)
{
	const struct outrow *r = ctx;

	return cmp_node(OF, &r[a].m, r[a].x, &r[b].m, r[b].x);
}

static void
write_node(FILE *fp, const struct family *F, uint64_t x,
    const struct metrics *m)
{
	char buf[64];
	int lev[MAXQ];
	size_t j;

	levels(F, x, lev);
	for (j = 0; j < L.d; j++)
		fprintf(fp, "%d\t", lev[j]);
	kn_fmt_u128(buf, m->cdm);
	fprintf(fp, "%llu\t%llu\t%s\t%.10Lg\t%d\t%.10Lg\t%.10Lg\n",
	    (unsigned long long)m->supp, (unsigned long long)m->classes, buf,
	    m->classes ? (long double)(L.N - m->supp) / m->classes / L.req.k :
	    0.0L, height(F, x), m->prec, m->loss);
}

/* ---- flash: predictive tagging (tagging.c) ------------------------- */

/* A node's metrics, and what bounds the metric of every generalization
 * of it (and of it): the C_DM each row costs at least, the classes
 * there are at most, the precision there is at most and the loss at
 * least. */
struct mrec {
	struct metrics m;
	unsigned __int128 cdm;
	uint64_t classes;
	long double prec, loss;
};

/* The state of a flash search: its family (the whole lattice), the
 * lattice of tagging.c and its view of our sets. */
struct flash {
	struct family *F;
	struct tag_lattice tl;
	struct tag_ops ops;
};

/* tag_ops: a roll-up, from the table's set when src is NULL. */
static kn_pset *
flash_roll(void *ctx, const kn_pset *src, const int *slev, const int *lev)
{
	(void)ctx;
	if (src == NULL)
		return rollup(&L.base, L.full, zero, L.full, lev);
	T.st.rollups++;
	return rollup(src, L.full, slev, L.full, lev);
}

/*
 * The bound of node x's generalizations from the tally t of all its
 * classes.  A row of a class of n rows costs at least min(N, max(n, k))
 * in C_DM at any generalization (its class there is no smaller, at
 * least k if not suppressed, and N if suppressed); classes only merge;
 * each cell's label covers at least the leaves it covers here (a
 * suppressed cell counts 1); and the levels only rise, which bounds the
 * precision.
 */
static void
bound_of(const struct tally *t, const int *lev, struct mrec *b)
{
	size_t j;
	long double pl = 0;

	b->cdm = t->bcdm;
	b->classes = t->bclasses;
	for (j = 0; j < L.d; j++)
		if (L.a[j].nlev > 1)
			pl += (long double)lev[j] / (L.a[j].nlev - 1);
	b->prec = 1 - pl / L.d;
	b->loss = L.N > 0 ? lateval_loss(t->bcov) / L.N / L.d : 0;
}

/* tag_ops: evaluates node x from its set f; its metrics go to F->met
 * too when --all allocated it. */
static int
flash_eval(void *ctx, uint64_t x, const kn_pset *set, const int *lev,
    void *rec, int bound)
{
	struct flash *fl = ctx;
	struct mrec *r = rec;
	struct tally t;
	int ok = evaluate(set, L.full, lev, &r->m, &t);

	T.st.computed++;
	if (ok && fl->F->met != NULL)
		fl->F->met[x] = r->m;
	if (ok && bound)
		bound_of(&t, lev, r);
	return ok;
}

static int
flash_better(void *ctx, const void *a, uint64_t x, const void *b,
    uint64_t y)
{
	const struct flash *fl = ctx;

	return cmp_node(fl->F, &((const struct mrec *)a)->m, x,
	    &((const struct mrec *)b)->m, y) < 0;
}

/*
 * Whether every generalization of node x, with the bound b, is worse by
 * the metric than the best node y so far (so none of them can be it).
 * Strictly worse only, so that ties keep their order; precision and
 * loss, long doubles, with a margin far above their rounding.
 */
static int
flash_worse(void *ctx, const void *rec, uint64_t x, const void *best,
    uint64_t y)
{
	const struct flash *fl = ctx;
	const struct mrec *b = rec;
	const struct metrics *m = &((const struct mrec *)best)->m;

	if (L.N == 0)
		return 0;
	switch (metric) {
	case M_CDM:
		return b->cdm > m->cdm;
	case M_CAVG:
		/* (N - S) / classes / k, with S at most the limit and no
		 * more classes than here. */
		return m->classes > 0 && b->classes > 0 && L.limit < L.N &&
		    (unsigned __int128)(L.N - L.limit) * m->classes >
		    (unsigned __int128)(L.N - m->supp) * b->classes;
	case M_HEIGHT:
		return height(fl->F, x) + 1 > height(fl->F, y);
	case M_PREC:
		return b->prec + 1e-9L < m->prec;
	case M_LOSS:
		return b->loss > m->loss + 1e-9L;
	}
	return 0;
}

/* tag_ops: a thread of the search ends. */
static void
flash_thread_done(void)
{
	add_stats();
	free(T.scr.tab);
	lateval_thread_free();
}

/*
 * flash: every node of the lattice tagged as qualifying or failing by
 * predictive tagging (tagging.c), which needs the qualifying property
 * to be monotone along generalization.  With --best and a suppression
 * limit, the best node need not be minimal: the qualifying nodes are
 * then swept from the bottom, and the generalizations of a node whose
 * bound is worse than the best so far are passed over.  (Without
 * suppression no metric improves along generalization and the best
 * node is minimal: then ties of the metric go to C_DM, which does not
 * fall either, and then to the lower height.)  With --all, the metrics
 * of the nodes checked go to F->met, as the other algorithms'.
 */
static struct family *
flash(struct flash *fl, int best, int all)
{
	struct family *F = full_family();
	int nl[MAXQ];
	size_t j;

	fl->F = F;
	if (all)
		F->met = node_array(F, F->size + 1, sizeof(struct metrics),
		    "the metrics of the nodes");
	for (j = 0; j < L.d; j++)
		nl[j] = L.a[j].nlev;
	tag_init(&fl->tl, (int)L.d, nl, F->st);
	fl->tl.pass = ANON;
	fl->tl.fail = FAIL;
	fl->tl.checkbit = EVAL;
	fl->ops = (struct tag_ops){ fl, flash_roll, flash_eval, flash_better,
	    flash_worse, kn_progress_add, flash_thread_done,
	    sizeof(struct mrec), L.budget, L.base.n,
	    (L.W + 1) * sizeof(uint64_t) };
	kn_progress_phase("search", "nodes checked", F->size);
	tag_search(&fl->tl, &fl->ops, best && L.limit > 0, PRUNED,
	    L.threads);
	/* The count the threads' last adds may not have drawn. */
	kn_progress_add(0);
	T.st.scans += fl->tl.cache.scans;
	T.st.dropped += fl->tl.cache.dropped;
	return F;
}

/* Computes the metrics of the qualifying nodes that were marked, not
 * evaluated: their frequency sets by roll-up in order of height. */
static uint64_t
fill_metrics(struct family *F)
{
	uint64_t *byh, *bs, b, x, extra = 0;
	int hmax, h, lev[MAXQ], plev[MAXQ];
	int64_t py;
	fset *f;

	if (F->met == NULL)
		F->met = node_array(F, F->size + 1, sizeof(struct metrics),
		    "the metrics of the nodes");
	byh = by_height(F, &bs, &hmax);
	free(F->fs);
	F->fs = node_array(F, F->size + 1, sizeof(fset *),
	    "the places of the nodes' sets");
	for (h = 0; h <= hmax; h++) {
		for (b = bs[h]; b < bs[h + 1]; b++) {
			x = byh[b];
			if (!(F->st[x] & ANON))
				continue;
			kn_progress_add(1);
			py = smallest_below(F, x);
			levels(F, x, lev);
			if (py >= 0) {
				levels(F, (uint64_t)py, plev);
				f = rollup(F->fs[py], F->mask, plev, F->mask, lev);
			} else
				f = rollup(&L.base, L.full, zero, F->mask, lev);
			if (!(F->st[x] & EVAL)) {
				evaluate(f, F->mask, lev, &F->met[x], NULL);
				extra++;
			}
			keep_set(F, x, f);
		}
		if (h > 0)
			for (b = bs[h - 1]; b < bs[h]; b++)
				drop_set(F, byh[b]);
	}
	drop_all(F, byh, bs);
	return extra;
}

/* Marks BELOW on the nodes with a qualifying node under them. */
static void
mark_below(struct family *F)
{
	uint64_t *byh, *bs, b, x;
	int hmax, i;
	int64_t y;

	byh = by_height(F, &bs, &hmax);
	for (b = 0; b < bs[hmax + 1]; b++) {
		x = byh[b];
		for (i = 0; i < F->m; i++)
			if ((y = down1(F, x, i)) >= 0 &&
			    (F->st[y] & (ANON | BELOW)))
				F->st[x] |= BELOW;
	}
	free(byh);
	free(bs);
}

/* ---- a run ------------------------------------------------------- */

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The search of a run (lattice.h), from the table open to the exit
 * status: reads the frequency set, searches, writes the nodes. */
int
lat_search(struct lat_run *r)
{
	kn_countspec cs;
	kn_dict *dict;
	kn_hier **hier = r->hier;
	struct family *F = NULL;
	struct flash fl;
	struct outrow *rows = NULL;
	size_t *qi = r->qi, *key, nq = r->nq, c, nout = 0, j;
	uint32_t *outn = NULL;
	uint64_t x, nanon = 0, nmin = 0, extra = 0, lattice = r->lattice;
	int all = r->all, best = r->best;
	double t0, t1;
	long double subsets;
	FILE *out = r->out;
	const char **qname;

	memset(&fl, 0, sizeof(fl));
	L.req = r->req;
	L.algo = r->algo;
	L.threads = r->threads;
	metric = r->metric;
	L.hass = L.req.ld.on || L.req.hast;
	L.ns = r->ns;
	L.d = nq;
	L.full = nq == 64 ? ~(uint64_t)0 : ((uint64_t)1 << nq) - 1;
	key = kn_alloc((nq + L.ns + 2) * sizeof(size_t));
	dict = kn_alloc((nq + L.ns + 2) * sizeof(kn_dict));
	for (c = 0; c < nq; c++) {
		key[c] = qi[c];
		L.a[c].name = r->t->names[qi[c]];
		L.a[c].h = hier[c];
		kn_dict_init(&dict[c]);
	}
	for (j = 0; j < L.ns; j++) {
		key[nq + j] = r->sidx[j];
		kn_dict_init(&dict[nq + j]);
		kn_dict_init(&L.in.sdict[j]);
	}
	L.in.w = nq + L.ns;
	/* The columns not read may hold what TSV cannot (kanon(7), CSV). */
	key[L.in.w] = r->cntcol;
	kn_table_carry(r->t, key, L.in.w + (size_t)r->freq, 0);
	memset(&cs, 0, sizeof(cs));
	cs.d = L.in.w;
	cs.key = key;
	cs.dict = dict;
	cs.hier = hier;
	cs.hascount = r->freq;
	cs.cntcol = r->cntcol;
	cs.skipzero = 1;	/* lattice-search(1): ignored, no leaf made */
	cs.jobs = r->threads;
	L.bud.budget = r->budget;
	L.bud.svalues = L.req.hast;
	L.hier = hier;
	L.tmpdir = r->tmpdir;
	lateval_init(&L);
	L.bud.d = nq;
	L.bud.hier = hier;
	qname = kn_alloc((nq + 1) * sizeof(char *));
	for (c = 0; c < nq; c++)
		qname[c] = L.a[c].name;
	L.bud.name = qname;
	t0 = now();
	/* A quarter of the budget for the counting, the rest for the
	 * groups read and their labels. */
	kn_freq(r->t, &cs, NULL, r->budget / 4, r->tmpdir, latin_group, &L,
	    NULL);
	kn_reader_close(&r->t->r);
	if (L.disk == NULL && latin_check(&L, PH_READ))
		latin_go_disk(&L);
	if (L.disk != NULL)
		latin_disk(&L);
	latin_layout(&L);
	if (L.disk != NULL && latin_check(&L, PH_BUILD))
		lbud_check(&L.bud, L.bud.budget);
	L.limit = kn_limit_rows(&r->lim, L.N);
	/* Entropy and recursive diversity, and t-closeness, with
	 * suppression are not monotone (a class that passes merged with
	 * one suppressed may fail): then every node is evaluated.
	 * Without suppression they are: a merged class is within t when
	 * its parts are (the distances are convex, paper §4.3). */
	L.monotone = !(L.hass && (L.req.hast ||
	    (L.req.ld.on && L.req.ld.kind != KN_DIV_DISTINCT)) &&
	    L.limit > 0);
	/* The default is flash whenever the requirement is monotone (not
	 * monotone, every node is evaluated whatever -a says): measured
	 * the fastest at every size, from Adult's 6,480 nodes (8 QIs, 40 to
	 * 140 ms against super-roots' 70 to 640 and bfs's 450 to 570, with
	 * and without suppression) to adult-full's 1.7 million (13 QIs,
	 * 0.2 s without suppression, 2.2 s with 2%, against 6.8 s and 392 s;
	 * bench/wide.sh).  Incognito searches the lattices of all attribute
	 * subsets, whose nodes number prod(levels + 1), refused when that
	 * passes MAXLAT. */
	for (c = 0, subsets = 1; c < nq; c++)
		subsets *= (long double)(L.a[c].nlev + 1) / L.a[c].nlev;
	if (L.algo < 0)
		L.algo = L.monotone ? A_FLASH : A_BFS;
	/* flash's threads: one without suppression, whose checks are few
	 * and cheap; under it each holds a roll-up's work space
	 * (latin_check), and no more of them than take an eighth of the
	 * budget, so that they crowd out neither the sets kept nor the
	 * input (found by review: at -S 6M two threads kept no set). */
	if (L.algo == A_FLASH && L.limit == 0)
		L.threads = 1;
	else if (L.algo == A_FLASH && L.monotone && L.disk == NULL)
		while (L.threads > 1 && lbud_work_bytes(L.in.n, L.W,
		    L.threads, L.hass) > L.bud.budget / 8)
			L.threads--;
	if (L.algo <= A_CUBE && subsets * lattice > (long double)MAXLAT)
		kn_die("-a %s: the lattices of the attribute subsets have "
		    "more than %llu nodes (use -a bfs)", algname[L.algo],
		    (unsigned long long)MAXLAT);
	if (L.disk == NULL && (latin_check(&L, PH_BUILD) ||
	    latin_check(&L, PH_SEARCH))) {
		latin_unlayout(&L);
		latin_go_disk(&L);
		latin_disk(&L);
		latin_layout(&L);
		if (latin_check(&L, PH_BUILD))
			lbud_check(&L.bud, L.bud.budget);
	}
	if (L.disk == NULL)
		latin_base(&L);
	for (c = 0; L.disk != NULL && c < L.d; c++)
		kn_hier_shed(L.a[c].h);
	if (latin_sheld(&L))
		for (j = 0; j < L.ns; j++)
			latin_tclose(&L, j, r->shier[j]);
	else if (L.svdisk)
		latin_disk_tclose(&L);
	src.f = &L.base;
	src.mask = L.full;
	if (latin_check(&L, PH_SEARCH))
		lbud_check(&L.bud, L.bud.budget);
	if (L.disk != NULL)
		latin_disk_budget(&L);
	L.budget = T.budget = lbud_kept(&L.bud);
	free(qname);
	L.bud.name = NULL;
	t1 = now();
	if (!L.monotone)
		F = bottom_up(1, 0);
	else if (L.algo <= A_CUBE)
		F = incognito();
	else if (L.algo == A_SAMARATI)
		F = samarati();
	else if (L.algo == A_FLASH) {
		F = flash(&fl, best, all);
	} else
		F = bottom_up(L.algo == A_BFS, 1);

	if (F != NULL) {
		if (L.algo == A_FLASH && L.monotone)
			tag_below(&fl.tl, BELOW);
		else
			mark_below(F);
		for (x = 0; x < F->size; x++) {
			if (F->st[x] & ANON)
				nanon++;
			if ((F->st[x] & ANON) && !(F->st[x] & BELOW))
				nmin++;
		}
		if (L.algo == A_FLASH && L.monotone && !all) {
			/* The metrics of the nodes checked; with --best
			 * and suppression, the best of the sweep. */
			rows = kn_alloc((nmin + 1) * sizeof(*rows));
			if (fl.tl.bound) {
				if (fl.tl.hasbest) {
					rows[0].x = fl.tl.bestx;
					rows[0].m = ((struct mrec *)
					    fl.tl.best)->m;
					nout = 1;
				}
			} else
				for (x = 0; x < F->size; x++)
					if ((F->st[x] & ANON) &&
					    !(F->st[x] & BELOW)) {
						rows[nout].x = x;
						rows[nout++].m = ((const struct
						    mrec *)tag_record(&fl.tl,
						    x))->m;
					}
		} else {
			if ((all || best) && nanon > 0) {
				kn_progress_phase("metrics", "nodes", nanon);
				extra = fill_metrics(F);
			}
			rows = kn_alloc((nanon + 1) * sizeof(*rows));
			for (x = 0; x < F->size; x++)
				if ((F->st[x] & ANON) && (all || best ||
				    !(F->st[x] & BELOW))) {
					rows[nout].x = x;
					rows[nout++].m = F->met[x];
				}
		}
		add_stats();
		outn = kn_alloc((nout + 1) * sizeof(uint32_t));
		for (j = 0; j < nout; j++)
			outn[j] = (uint32_t)j;
		OF = F;
		kn_sort_ids(outn, nout, cmp_out, rows);
		if (best && nout > 1)
			nout = 1;
	}
	for (j = 0; j < L.d; j++)
		fprintf(out, "%s\t", L.a[j].name);
	fputs("suppressed\tclasses\tcdm\tcavg\theight\tprec\tloss\n", out);
	kn_progress_done();
	for (j = 0; j < nout; j++)
		write_node(out, F, rows[outn[j]].x, &rows[outn[j]].m);
	if (r->verbose) {
		if (!L.monotone)
			fprintf(stderr, "lattice-search: not monotone: every "
			    "node evaluated (bfs without marking)\n");
		else if (L.algo <= A_CUBE || (L.algo == A_FLASH &&
		    L.limit > 0))
			fprintf(stderr, "lattice-search: algorithm %s, %d "
			    "thread%s\n", algname[L.algo], L.threads,
			    L.threads > 1 ? "s" : "");
		else
			fprintf(stderr, "lattice-search: algorithm %s\n",
			    algname[L.algo]);
		fprintf(stderr, "lattice-search: rows %llu, groups %zu, "
		    "suppression limit %llu\n", (unsigned long long)L.N,
		    L.base.n, (unsigned long long)L.limit);
		fprintf(stderr, "lattice-search: nodes %llu, anonymous %llu, "
		    "minimal %llu\n", (unsigned long long)lattice,
		    (unsigned long long)nanon, (unsigned long long)nmin);
		/* The nodes checked: by the search, then for --best's
		 * sweep; the other algorithms compute a set for each. */
		fprintf(stderr, "lattice-search: nodes checked %llu",
		    (unsigned long long)(total.computed - fl.tl.swept));
		if (L.algo == A_FLASH && L.monotone)
			fprintf(stderr, " (qualifying %llu), tagged without a "
			    "check %llu", (unsigned long long)fl.tl.passed,
			    (unsigned long long)(lattice - fl.tl.checked));
		if (fl.tl.bound)
			fprintf(stderr, "; for --best: evaluated %llu more, "
			    "generalizations pruned by the bound from %llu",
			    (unsigned long long)fl.tl.swept,
			    (unsigned long long)fl.tl.pruned);
		fputc('\n', stderr);
		fprintf(stderr, "lattice-search: frequency sets computed "
		    "%llu (scans %llu, roll-ups %llu, cube %llu, for "
		    "metrics %llu), groups rolled up %llu\n",
		    (unsigned long long)(L.algo == A_FLASH && L.monotone ?
		    total.scans + total.rollups : total.computed),
		    (unsigned long long)total.scans,
		    (unsigned long long)total.rollups,
		    (unsigned long long)cube.computed,
		    (unsigned long long)extra, (unsigned long long)total.groups);
		if (L.disk != NULL)
			fprintf(stderr, "lattice-search: frequency set on disk "
			    "(-S): sets of up to %zu groups made in memory, "
			    "larger ones counted in parts on disk (%llu)%s\n",
			    L.most, (unsigned long long)total.sorted,
			    ldisk_bigs(L.disk) > 0 ? ", classes larger "
			    "still from sorts of their sensitive values" : "");
		if (L.svdisk)
			fprintf(stderr, "lattice-search: t-closeness: %s\n",
			    L.tdisk ? "each node's classes measured on disk "
			    "(the distributions pass their share of -S)" :
			    "the distributions held, from the set on disk");
		if (total.dropped > 0)
			fprintf(stderr, "lattice-search: %llu sets not kept "
			    "within -S (%zu MiB of it left for them: the input, "
			    "the labels, the level maps and the roll-ups' work "
			    "space hold %zu MiB)\n",
			    (unsigned long long)total.dropped, L.budget >> 20,
			    (lbud_fixed(&L.bud) + (1 << 20) - 1) >> 20);
		fprintf(stderr, "lattice-search: read %.3f s, search %.3f s\n",
		    t1 - t0, now() - t1);
	}
	ldisk_free(L.disk);
	/* With no node, exit 1 keeps the file -o names, as recode and
	 * partition do (the temp file is removed on exit). */
	if (nout > 0 || out == stdout)
		kn_close_out(out);
	if (nout == 0)
		kn_warn("no node of the lattice meets the requirements, not "
		    "even the top (k %llu%s, %llu rows, %llu may be "
		    "suppressed): ask for less, or give more levels",
		    (unsigned long long)L.req.k, L.req.ld.on ?
		    " and l-diversity" : "", (unsigned long long)L.N,
		    (unsigned long long)L.limit);
	return nout > 0 ? 0 : 1;
}
