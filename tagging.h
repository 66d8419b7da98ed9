/*
 * tagging.c: predictive tagging over a generalization lattice (the
 * nodes of m attributes of nl[i] levels each, indexed in mixed radix):
 * the checks of a search in the manner of Flash (Kohlmayer, Prasser,
 * Eckert, Kemper, Kuhn, 2012) and OLA (El Emam et al., 2009), for a
 * property that is monotone along generalization.  See tagging.c.
 */
#ifndef TAGGING_H
#define TAGGING_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "kanon.h"

#define TAG_MAXQ 64
/* The most threads of tag_search (lattice-search -j), and the walks
 * for each thread when there are several. */
#define TAG_MAXTHREADS 64
#define TAG_WALKS 8

/*
 * What a search over the lattice needs of its caller: frequency sets
 * (kanon.h's packed sets), rolled up from one another, and the evaluation of a
 * node from its set into a record of recsize bytes (its metrics, and
 * the bound of its generalizations' metric); the order of two records
 * for --best, and whether a bound is worse than the best record.
 */
struct tag_ops {
	void *ctx;
	/* The set of the node at levels lev from set src at levels slev;
	 * src NULL: from the table's set. */
	kn_pset *(*roll)(void *ctx, const kn_pset *src, const int *slev,
	    const int *lev);
	/* Evaluates node x (levels lev) from its set into rec; with bound
	 * the bound too.  Returns 1 when x qualifies. */
	int (*eval)(void *ctx, uint64_t x, const kn_pset *set,
	    const int *lev, void *rec, int bound);
	/* Whether record a of node x goes before record b of node y. */
	int (*better)(void *ctx, const void *a, uint64_t x, const void *b,
	    uint64_t y);
	/* Whether every generalization of node x, whose record is rec,
	 * is worse than the record best of node y. */
	int (*worse)(void *ctx, const void *rec, uint64_t x,
	    const void *best, uint64_t y);
	/* Counts a node done for the progress (from any thread). */
	void (*progress)(uint64_t n);
	/* Called by each thread of tag_search but the caller's as it ends:
	 * what roll and eval kept of their own goes. */
	void (*thread_done)(void);
	size_t recsize;
	size_t budget;		/* bytes of sets kept */
	uint64_t table_groups;	/* the groups of the table's set */
	size_t groupbytes;	/* the bytes of a group of a set */
};

/* The sets kept: at most TAG_KEEP, the least recently used dropped
 * first.  pk holds the levels a byte each (tag_lattice's pkw words),
 * so that a look-up for a specialization compares eight at once. */
#define TAG_KEEP 256
struct tag_kept {
	uint64_t x, used;
	int refs;		/* given out, not yet given back */
	kn_pset *set;
	size_t bytes;
	uint64_t pk[TAG_MAXQ / 8];
	int lev[TAG_MAXQ];
};

/* The sets kept (kept_set), within budget bytes, under mu when the
 * threads share them. */
struct tag_cache {
	struct tag_kept *kept;	/* TAG_KEEP of them */
	size_t nkept, keptbytes, budget;
	uint64_t clock;
	uint64_t scans, dropped;	/* sets made from the table, not kept */
	int shared;
	pthread_mutex_t mu;
};

/* A path that tag_classify bisects: its nodes, the part [lo, hi] not
 * yet tagged, its check of node x (state, tagging.c's W_*), the verdict
 * (ok) and record. */
struct tag_walk {
	uint64_t *path;
	int n, lo, hi, on, state, ok;
	uint64_t x;
	char *rec;
};

struct tag_pool;

/* A lattice, the states of its nodes (the caller's bytes), and the
 * state of a search over it. */
struct tag_lattice {
	int m;			/* attributes */
	int nl[TAG_MAXQ];	/* their numbers of levels */
	uint64_t radix[TAG_MAXQ];
	uint64_t magic[TAG_MAXQ];	/* for dividing by nl[i] */
	uint64_t size;		/* nodes: the product of nl */
	int hmax;		/* the height of the top */
	uint8_t *st;		/* st[x]: the caller's state bits of node x */
	uint8_t pass, fail;	/* the bits that mean: qualifies, fails */
	uint8_t checkbit;	/* set on each node checked */
	uint32_t *byh;		/* the nodes in order of height */
	uint64_t *bstart;	/* byh[bstart[h]..bstart[h + 1]): height h */
	uint64_t *stack;	/* for tag_up and tag_down */
	size_t stackcap;
	uint64_t checked, passed;	/* nodes checked, and those passing */
	/* tag_search's: */
	const struct tag_ops *ops;
	int nwalk;		/* paths bisected at once */
	struct tag_walk *walk;
	struct tag_pool *pool;	/* the threads besides the caller's */
	struct tag_cache cache;
	int pkw;		/* words of the levels packed a byte each */
	char *rec;		/* records of the nodes evaluated */
	size_t nrec, reccap;
	uint32_t *slot;		/* a hash of them: record + 1, 0 empty */
	size_t nslot;
	int bound;		/* records hold bounds */
	int hasbest;
	uint64_t bestx;
	char *best;		/* the best record so far */
	uint64_t swept, pruned;
};

/* Lays out the lattice of m attributes of nl[i] levels over the node
 * states st (size bytes, the caller's). */
void tag_init(struct tag_lattice *tl, int m, const int *nl, uint8_t *st);
/* n zeroed items of each bytes for a lattice of nodes nodes, outside -S:
 * when the system cannot give them, dies saying what they are and what
 * to try (hint, before "hierarchies of fewer levels"). */
void *tag_nodes_alloc(uint64_t nodes, uint64_t n, size_t each,
    const char *what, const char *hint);
void tag_free(struct tag_lattice *tl);
/* The levels lev[0..m) of node x. */
void tag_levels(const struct tag_lattice *tl, uint64_t x, int *lev);
/* Sets bit on x and every generalization of x (which must be closed
 * upward: a node with the bit has it on its generalizations). */
void tag_up(struct tag_lattice *tl, uint64_t x, uint8_t bit);
/* Sets bit on x and every specialization of x (closed downward). */
void tag_down(struct tag_lattice *tl, uint64_t x, uint8_t bit);
/* Visits, from the bottom up, every node with all the bits of need and
 * none of skip; when visit returns 1, sets skip on all the node's
 * generalizations. */
void tag_sweep(struct tag_lattice *tl, uint8_t need, uint8_t skip,
    int (*visit)(void *ctx, uint64_t x), void *ctx);
/* The search of lattice-search -a flash with the caller's sets: every
 * node tagged pass or fail, checking few (paths upward, each bisected,
 * a pass tagged on all generalizations and a failure on all
 * specializations), on threads threads, TAG_WALKS paths a thread
 * bisected at once when there are several; with best, the qualifying
 * nodes then swept for the best record, the generalizations of a node
 * whose bound is worse passed over (they get the bit skip).  The tags
 * and the best record do not depend on threads; the nodes checked do. */
void tag_search(struct tag_lattice *tl, const struct tag_ops *ops,
    int best, uint8_t skip, int threads);
/* The record of node x, or NULL when it was not evaluated. */
const void *tag_record(const struct tag_lattice *tl, uint64_t x);
/* Sets bit below on the qualifying nodes with a qualifying direct
 * specialization (not minimal). */
void tag_below(struct tag_lattice *tl, uint8_t below);

#endif
