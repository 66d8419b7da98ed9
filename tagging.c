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
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

void *
tag_nodes_alloc(uint64_t nodes, uint64_t n, size_t each, const char *what,
    const char *hint)
{
	void *p = n <= SIZE_MAX / each ? calloc(n, each) : NULL;

	if (p == NULL)
		kn_die("a lattice of %llu nodes: %s take %.0f MiB, more than "
		    "the system gives, and grow with the lattice, not within "
		    "-S (lattice-search(1), -S): try %shierarchies of fewer "
		    "levels", (unsigned long long)nodes, what, (double)n *
		    each / 1048576, hint);
	return p;
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
	/* Levels a byte each (kept_below): a hierarchy has at most
	 * KN_HIER_MAXLEVELS. */
	tl->pkw = (m + 7) / 8;
	for (i = 0; i < m; i++)
		if (nl[i] > 128)
			kn_die("internal error: tag_init: %d levels", nl[i]);
	tl->st = st;
	/* The nodes by height: a counting sort, the levels counted up
	 * as the index is. */
	bs = kn_zalloc((size_t)(tl->hmax + 2) * sizeof(uint64_t));
	tl->byh = tag_nodes_alloc(tl->size, tl->size + 1, sizeof(uint32_t),
	    "the nodes in order of height", "");
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
}

void
tag_free(struct tag_lattice *tl)
{
	free(tl->byh);
	free(tl->bstart);
	free(tl->stack);
	free(tl->rec);
	free(tl->slot);
	free(tl->best);
	tl->byh = NULL;
	tl->bstart = tl->stack = NULL;
	tl->rec = tl->best = NULL;
	tl->slot = NULL;
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

/*
 * The path from x upward through untagged nodes into path, raising at
 * each step the next attribute after the last one raised that can go up
 * to an untagged node (so the path climbs the attributes in turn,
 * through the middle of the lattice, where the border is).  Returns its
 * length.
 */
static int
path_up(const struct tag_lattice *tl, uint64_t x, uint64_t *path)
{
	const uint8_t any = tl->pass | tl->fail;
	int n = 0, i = 0, j, last = tl->m - 1, lev[TAG_MAXQ];
	uint64_t y = 0;

	path[n++] = x;
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
		path[n++] = x;
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

/* ---- the search of -a flash: sets kept, records, the sweep --------- */

/* A record: its node, then at offset 16 (for the alignment of long
 * doubles) the caller's recsize bytes. */
#define REC_AT 16
static size_t
rec_stride(const struct tag_lattice *tl)
{
	return REC_AT + ((tl->ops->recsize + 15) & ~(size_t)15);
}

/* The record of node x, or NULL. */
const void *
tag_record(const struct tag_lattice *tl, uint64_t x)
{
	size_t h;
	const char *r;

	if (tl->nslot == 0)
		return NULL;
	for (h = (x * 0x9E3779B97F4A7C15ULL) >> 32 & (tl->nslot - 1);
	    tl->slot[h] != 0; h = (h + 1) & (tl->nslot - 1)) {
		r = tl->rec + (size_t)(tl->slot[h] - 1) * rec_stride(tl);
		if (*(const uint64_t *)r == x)
			return r + REC_AT;
	}
	return NULL;
}

/* Puts record i in the hash of the records. */
static void
rec_slot(struct tag_lattice *tl, size_t i)
{
	uint64_t x;
	size_t h;

	memcpy(&x, tl->rec + i * rec_stride(tl), sizeof(x));
	for (h = (x * 0x9E3779B97F4A7C15ULL) >> 32 & (tl->nslot - 1);
	    tl->slot[h] != 0; h = (h + 1) & (tl->nslot - 1))
		;
	tl->slot[h] = (uint32_t)i + 1;
}

/* A new record for node x (not yet recorded): the node, then the
 * caller's bytes. */
static void *
rec_add(struct tag_lattice *tl, uint64_t x)
{
	size_t i, rs = rec_stride(tl);
	char *r;

	if (2 * (tl->nrec + 1) > tl->nslot) {
		free(tl->slot);
		tl->nslot = tl->nslot ? 2 * tl->nslot : 1024;
		tl->slot = kn_zalloc(tl->nslot * sizeof(uint32_t));
		for (i = 0; i < tl->nrec; i++)
			rec_slot(tl, i);
	}
	tl->rec = kn_grow(tl->rec, &tl->reccap, tl->nrec, rs, 256);
	r = tl->rec + tl->nrec * rs;
	memset(r, 0, rs);
	memcpy(r, &x, sizeof(x));
	rec_slot(tl, tl->nrec++);
	return r + REC_AT;
}

/* The levels lev packed a byte each into pkw words of pk. */
static void
tag_pack(const struct tag_lattice *tl, const int *lev, uint64_t *pk)
{
	int j;

	memset(pk, 0, (size_t)tl->pkw * sizeof(uint64_t));
	for (j = 0; j < tl->m; j++)
		pk[j / 8] |= (uint64_t)lev[j] << 8 * (j % 8);
}

/* Whether kept set e is of a specialization of the node whose levels
 * are packed in pk: each of its levels at most the node's.  A byte of
 * pk with its top bit set, less a byte below 128, keeps the bit when it
 * is no less, and borrows from no other byte. */
static inline int
kept_below(const struct tag_lattice *tl, const struct tag_kept *e,
    const uint64_t *pk)
{
	const uint64_t top = 0x8080808080808080ULL;
	int j;

	for (j = 0; j < tl->pkw; j++)
		if ((((pk[j] | top) - e->pk[j]) & top) != top)
			return 0;
	return 1;
}

/* Locks c, when threads share it. */
static void
cache_lock(struct tag_cache *c)
{
	if (c->shared)
		pthread_mutex_lock(&c->mu);
}

static void
cache_unlock(struct tag_cache *c)
{
	if (c->shared)
		pthread_mutex_unlock(&c->mu);
}

/* The entry of kept set s, or NULL (locked). */
static struct tag_kept *
cache_find(struct tag_cache *c, const kn_pset *s)
{
	size_t i;

	for (i = 0; i < c->nkept; i++)
		if (c->kept[i].set == s)
			return &c->kept[i];
	return NULL;
}

/* Gives back the set s that kept_set returned (takes the lock). */
static void
cache_put(struct tag_cache *c, const kn_pset *s, int owned)
{
	struct tag_kept *e;

	if (owned) {
		kn_pset_free((kn_pset *)s);
		return;
	}
	cache_lock(c);
	if ((e = cache_find(c, s)) != NULL)
		e->refs--;
	cache_unlock(c);
}

/*
 * The set of node x (levels lev): kept, or rolled up from the kept set
 * of a specialization with the fewest groups, then kept.  When none is
 * kept, from a hub: the node at level hub where x is higher, itself
 * from the hub at level hub - 1, and so on down to the table's set.  A
 * hub is shared by the many nodes near it that the paths check and
 * holds far fewer groups than the table (on adult-full's 12 attributes
 * at 2%, 561 scans of the table instead of 6,657 with hubs at levels 2
 * and 1, the best measured).  The threads share the sets kept: a set
 * given out is not dropped until it is given back (cache_put, with
 * *owned: 1 when the set is not kept, and the caller frees it).  The
 * lock is not held while a set is rolled up.
 */
static const kn_pset *
kept_set(const struct tag_lattice *tl, struct tag_cache *c, uint64_t x,
    const int *lev, int *owned, int hub)
{
	const struct tag_ops *ops = tl->ops;
	struct tag_kept *e;
	size_t i, p = SIZE_MAX, bytes, best = ops->table_groups;
	int j, hlev[TAG_MAXQ], plev[TAG_MAXQ], diff, o, dup;
	uint64_t hx, pk[TAG_MAXQ / 8];
	const kn_pset *hs, *ps = NULL;
	kn_pset *s;

	*owned = 0;
	tag_pack(tl, lev, pk);
	cache_lock(c);
	for (i = 0, e = c->kept; i < c->nkept; i++) {
		if (e[i].x == x) {
			/* Read under the lock: past it another thread may
			 * move the entries. */
			e[i].used = ++c->clock;
			e[i].refs++;
			ps = e[i].set;
			cache_unlock(c);
			return ps;
		}
		if (e[i].set->n < best && kept_below(tl, &e[i], pk)) {
			p = i;
			best = e[i].set->n;
		}
	}
	if (p != SIZE_MAX) {
		ps = e[p].set;
		e[p].refs++;
		memcpy(plev, e[p].lev, (size_t)tl->m * sizeof(int));
	}
	cache_unlock(c);
	/* No hub when no set can be kept: it would be made again. */
	for (s = NULL; ps == NULL && hub > 0 && c->budget > 0 && s == NULL;
	    hub--) {
		for (j = 0, hx = 0, diff = 0; j < tl->m; j++) {
			hlev[j] = lev[j] < hub ? lev[j] : hub;
			diff |= hlev[j] != lev[j];
			hx += tl->radix[j] * (uint64_t)hlev[j];
		}
		if (!diff)
			continue;
		hs = kept_set(tl, c, hx, hlev, &o, hub - 1);
		s = ops->roll(ops->ctx, hs, hlev, lev);
		cache_put(c, hs, o);
	}
	if (s == NULL && ps == NULL) {
		s = ops->roll(ops->ctx, NULL, NULL, lev);
		cache_lock(c);
		c->scans++;
	} else if (s == NULL) {
		s = ops->roll(ops->ctx, ps, plev, lev);
		cache_lock(c);
		e = cache_find(c, ps);	/* given out: still kept */
		e->refs--;
		e->used = ++c->clock;
	} else
		cache_lock(c);
	bytes = s->n * ops->groupbytes;
	/* Not kept: a set without keys (on disk, made again when read),
	 * past the budget, or made by another thread meanwhile. */
	for (i = 0, dup = 0; i < c->nkept && c->shared && !dup; i++)
		dup = c->kept[i].x == x;
	if (bytes > c->budget || s->key == NULL || dup) {
		c->dropped += !dup;
		cache_unlock(c);
		*owned = 1;
		return s;
	}
	/* Make room: drop the least recently used not given out. */
	e = c->kept;
	while (c->nkept == TAG_KEEP || c->keptbytes + bytes > c->budget) {
		for (p = SIZE_MAX, i = 0; i < c->nkept; i++)
			if (e[i].refs == 0 && (p == SIZE_MAX ||
			    e[i].used < e[p].used))
				p = i;
		if (p == SIZE_MAX) {
			c->dropped++;
			cache_unlock(c);
			*owned = 1;
			return s;
		}
		c->keptbytes -= e[p].bytes;
		kn_pset_free(e[p].set);
		e[p] = e[--c->nkept];
	}
	e = &c->kept[c->nkept++];
	e->x = x;
	e->used = ++c->clock;
	e->refs = 1;
	e->set = s;
	e->bytes = bytes;
	memcpy(e->lev, lev, (size_t)tl->m * sizeof(int));
	memcpy(e->pk, pk, (size_t)tl->pkw * sizeof(uint64_t));
	c->keptbytes += bytes;
	cache_unlock(c);
	return s;
}

/* Evaluates node x into a record: its set, kept or rolled up. */
static int
evaluate(const struct tag_lattice *tl, struct tag_cache *c, uint64_t x,
    void *rec)
{
	const struct tag_ops *ops = tl->ops;
	int lev[TAG_MAXQ], owned, ok;
	const kn_pset *s;

	tag_levels(tl, x, lev);
	s = kept_set(tl, c, x, lev, &owned, 2);
	ok = ops->eval(ops->ctx, x, s, lev, rec, tl->bound);
	cache_put(c, s, owned);
	ops->progress(1);
	return ok;
}

/* ---- the walks, on threads ----------------------------------------- */

/*
 * The next node walk w checks, in w->x: the middle of the part of its
 * path not yet tagged, which the checks so far (its own and the other
 * walks') narrow as a bisection does (a pass above, a failure below);
 * once none is left, the path of the next untagged node in order of
 * height (*b) is taken.  0 when no node is left to take.
 */
static int
walk_next(const struct tag_lattice *tl, struct tag_walk *w, uint64_t *b)
{
	const uint8_t any = tl->pass | tl->fail;
	int mid;

	for (;;) {
		if (!w->on) {
			while (*b < tl->size && (tl->st[tl->byh[*b]] & any))
				(*b)++;
			if (*b == tl->size)
				return 0;
			w->n = path_up(tl, tl->byh[(*b)++], w->path);
			w->lo = 0;
			w->hi = w->n - 1;
			w->on = 1;
		}
		while (w->lo <= w->hi) {
			mid = w->lo + (w->hi - w->lo) / 2;
			if (tl->st[w->path[mid]] & tl->pass)
				w->hi = mid - 1;
			else if (tl->st[w->path[mid]] & tl->fail)
				w->lo = mid + 1;
			else {
				w->x = w->path[mid];
				return 1;
			}
		}
		w->on = 0;
	}
}

/* A walk's check: none, waiting for a thread, taken, done. */
enum { W_NONE, W_WAIT, W_TAKEN, W_DONE };

/* The threads that check the walks' nodes besides the caller's: they
 * take the waiting checks in the order they were made (from take). */
struct tag_pool {
	pthread_t th[TAG_MAXTHREADS];
	int n, quit;
	uint64_t take, made;	/* checks: the first not taken, made */
	pthread_mutex_t mu;
	pthread_cond_t work, done;
};

/* The waiting check made first, marked taken, or NULL (mu held). */
static struct tag_walk *
pool_take(struct tag_lattice *tl)
{
	struct tag_pool *p = tl->pool;
	struct tag_walk *w;

	for (; p->take < p->made; p->take++) {
		w = &tl->walk[p->take % (uint64_t)tl->nwalk];
		if (w->state == W_WAIT) {
			w->state = W_TAKEN;
			p->take++;
			return w;
		}
	}
	return NULL;
}

/* Checks walk w's node, taken under mu, and says so (mu held on entry
 * and return). */
static void
pool_check(struct tag_lattice *tl, struct tag_walk *w)
{
	struct tag_pool *p = tl->pool;

	pthread_mutex_unlock(&p->mu);
	w->ok = evaluate(tl, &tl->cache, w->x, w->rec);
	pthread_mutex_lock(&p->mu);
	w->state = W_DONE;
	pthread_cond_broadcast(&p->done);
}

static void *
pool_thread(void *arg)
{
	struct tag_lattice *tl = arg;
	struct tag_pool *p = tl->pool;
	struct tag_walk *w;

	pthread_mutex_lock(&p->mu);
	while (!p->quit) {
		if ((w = pool_take(tl)) != NULL)
			pool_check(tl, w);
		else
			pthread_cond_wait(&p->work, &p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	tl->ops->thread_done();
	return NULL;
}

/* Starts threads - 1 threads. */
static void
pool_start(struct tag_lattice *tl, int threads)
{
	struct tag_pool *p = kn_zalloc(sizeof(*p));
	int e;

	tl->pool = p;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	for (p->n = 0; p->n < threads - 1; p->n++)
		if ((e = pthread_create(&p->th[p->n], NULL, pool_thread,
		    tl)) != 0)
			kn_die("cannot start a thread: %s", strerror(e));
}

/* Ends the threads. */
static void
pool_stop(struct tag_lattice *tl)
{
	struct tag_pool *p = tl->pool;
	int i;

	if (p == NULL)
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	for (i = 0; i < p->n; i++)
		pthread_join(p->th[i], NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	free(p);
	tl->pool = NULL;
}

/* Makes walk w's next check (walk_next), unless its node is another
 * walk's check not yet tagged (the walk then waits its next turn);
 * whether the walk had a node to take. */
static int
walk_make(struct tag_lattice *tl, struct tag_walk *w, uint64_t *b)
{
	struct tag_pool *p = tl->pool;
	int s, has = walk_next(tl, w, b);

	if (p != NULL)
		pthread_mutex_lock(&p->mu);
	for (s = 0; has && s < tl->nwalk; s++)
		if (&tl->walk[s] != w && tl->walk[s].state != W_NONE &&
		    tl->walk[s].x == w->x)
			has = -1;
	w->state = has > 0 ? W_WAIT : W_NONE;
	if (p != NULL) {
		p->made++;
		if (has > 0)
			pthread_cond_signal(&p->work);
		pthread_mutex_unlock(&p->mu);
	}
	return has != 0;
}

/* Waits for walk w's check, if it made one, checking others meanwhile;
 * whether it made one. */
static int
walk_wait(struct tag_lattice *tl, struct tag_walk *w)
{
	struct tag_pool *p = tl->pool;
	struct tag_walk *o;
	int made;

	if (p == NULL) {
		if (w->state != W_NONE)
			w->ok = evaluate(tl, &tl->cache, w->x, w->rec);
		return w->state != W_NONE;
	}
	pthread_mutex_lock(&p->mu);
	made = w->state != W_NONE;
	while (made && w->state != W_DONE) {
		if ((o = pool_take(tl)) != NULL)
			pool_check(tl, o);
		else
			pthread_cond_wait(&p->done, &p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return made;
}

/*
 * Tags every node pass or fail.  The walks make their checks in turn,
 * each the next node of its path (walk_make); the checks run on the
 * threads in the order they were made, and their verdicts are tagged
 * in that order: a pass on all the node's generalizations, a failure
 * on all its specializations, and a qualifying node's record kept.  A
 * walk makes its next check once its last is tagged, from the tags of
 * every check made before that one, so the checks made depend on the
 * number of walks alone, not on the threads' timing (the sets kept,
 * shared, do); with one walk they are Flash's, one path bisected after
 * another.
 */
static void
tag_classify(struct tag_lattice *tl)
{
	struct tag_walk *w;
	uint64_t b = 0, i;
	int s, idle = 0;

	for (s = 0; s < tl->nwalk; s++)
		(void)walk_make(tl, &tl->walk[s], &b);
	/* Done once every walk in a row has had no node to take. */
	for (i = 0; idle < tl->nwalk; i++) {
		w = &tl->walk[i % (uint64_t)tl->nwalk];
		if (walk_wait(tl, w)) {
			tl->checked++;
			tl->st[w->x] |= tl->checkbit;
			if (w->ok) {
				tl->passed++;
				tag_up(tl, w->x, tl->pass);
				memcpy(rec_add(tl, w->x), w->rec,
				    tl->ops->recsize);
			} else
				tag_down(tl, w->x, tl->fail);
		}
		idle = walk_make(tl, w, &b) ? 0 : idle + 1;
	}
}

/* ---- the search ---------------------------------------------------- */

/* Visits qualifying node x for --best: keeps it if it is the best so
 * far; says whether its generalizations are bound to be worse. */
static int
search_visit(void *ctx, uint64_t x)
{
	struct tag_lattice *tl = ctx;
	const struct tag_ops *ops = tl->ops;
	size_t rs = ops->recsize;
	const void *r = tag_record(tl, x);

	if (r == NULL) {
		r = rec_add(tl, x);
		evaluate(tl, &tl->cache, x, (void *)r);
		tl->st[x] |= tl->checkbit;
		tl->swept++;
	}
	if (!tl->hasbest || ops->better(ops->ctx, r, x, tl->best,
	    tl->bestx)) {
		memcpy(tl->best, r, rs);
		tl->bestx = x;
		tl->hasbest = 1;
	}
	if (!ops->worse(ops->ctx, r, x, tl->best, tl->bestx))
		return 0;
	tl->pruned++;
	return 1;
}

void
tag_search(struct tag_lattice *tl, const struct tag_ops *ops, int best,
    uint8_t skip, int threads)
{
	struct tag_walk *w;
	size_t i;
	const char *r;
	uint64_t x;
	int s;

	tl->ops = ops;
	tl->bound = best;
	tl->best = kn_zalloc(ops->recsize);
	/* One walk on one thread; on several, more walks than threads,
	 * so that each has a check to take while the others' are tagged.
	 * The threads share the sets kept. */
	if (threads > TAG_MAXTHREADS)
		threads = TAG_MAXTHREADS;
	tl->nwalk = threads <= 1 ? 1 : TAG_WALKS * threads;
	tl->walk = kn_zalloc((size_t)tl->nwalk * sizeof(*tl->walk));
	for (s = 0; s < tl->nwalk; s++) {
		w = &tl->walk[s];
		w->path = kn_alloc((size_t)(tl->hmax + 1) * sizeof(uint64_t));
		w->rec = kn_zalloc(ops->recsize);
	}
	tl->cache.kept = kn_alloc(TAG_KEEP * sizeof(*tl->cache.kept));
	tl->cache.budget = ops->budget;
	if (threads > 1) {
		tl->cache.shared = 1;
		pthread_mutex_init(&tl->cache.mu, NULL);
		pool_start(tl, threads);
	}
	tag_classify(tl);
	pool_stop(tl);
	if (best) {
		/* The best of the nodes checked first, free of cost, so
		 * that the bounds prune from the start of the sweep. */
		for (i = 0; i < tl->nrec; i++) {
			r = tl->rec + i * rec_stride(tl);
			memcpy(&x, r, sizeof(x));
			if (!tl->hasbest || ops->better(ops->ctx, r + REC_AT,
			    x, tl->best, tl->bestx)) {
				memcpy(tl->best, r + REC_AT, ops->recsize);
				tl->bestx = x;
				tl->hasbest = 1;
			}
		}
		tag_sweep(tl, tl->pass, skip, search_visit, tl);
	}
	while (tl->cache.nkept > 0) {
		tl->cache.nkept--;
		kn_pset_free(tl->cache.kept[tl->cache.nkept].set);
	}
	free(tl->cache.kept);
	tl->cache.kept = NULL;
	if (tl->cache.shared)
		pthread_mutex_destroy(&tl->cache.mu);
	for (s = 0; s < tl->nwalk; s++) {
		free(tl->walk[s].path);
		free(tl->walk[s].rec);
	}
	free(tl->walk);
	tl->walk = NULL;
}

void
tag_below(struct tag_lattice *tl, uint8_t below)
{
	uint64_t x;
	int lev[TAG_MAXQ], i;

	for (x = 0; x < tl->size; x++) {
		if (!(tl->st[x] & tl->pass))
			continue;
		tag_levels(tl, x, lev);
		for (i = 0; i < tl->m; i++)
			if (lev[i] > 0 && (tl->st[x - tl->radix[i]] & tl->pass))
				tl->st[x] |= below;
	}
}
