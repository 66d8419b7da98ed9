/*
 * tagging.c: predictive tagging over a generalization lattice (the
 * nodes of m attributes of nl[i] levels each, indexed in mixed radix):
 * the checks of a search in the manner of Flash (Kohlmayer, Prasser,
 * Eckert, Kemper, Kuhn, 2012) and OLA (El Emam et al., 2009), for a
 * property that is monotone along generalization.  See tagging.c.
 */
#ifndef TAGGING_H
#define TAGGING_H

#include <stddef.h>
#include <stdint.h>

#define TAG_MAXQ 64

/* A lattice, the states of its nodes (the caller's bytes), and the
 * check that decides a node. */
struct tag_lattice {
	int m;			/* attributes */
	int nl[TAG_MAXQ];	/* their numbers of levels */
	uint64_t radix[TAG_MAXQ];
	uint64_t magic[TAG_MAXQ];	/* for dividing by nl[i] */
	uint64_t size;		/* nodes: the product of nl */
	int hmax;		/* the height of the top */
	uint8_t *st;		/* st[x]: the caller's state bits of node x */
	uint8_t pass, fail;	/* the bits that mean: qualifies, fails */
	/* Decides node x (not yet tagged): 1 when it qualifies. */
	int (*check)(void *ctx, uint64_t x);
	void *ctx;
	uint32_t *byh;		/* the nodes in order of height */
	uint64_t *bstart;	/* byh[bstart[h]..bstart[h + 1]): height h */
	uint64_t *stack;	/* for tag_up and tag_down */
	uint64_t *path;
	size_t stackcap;
	uint64_t checked, passed;	/* nodes checked, and those passing */
};

/* Lays out the lattice of m attributes of nl[i] levels over the node
 * states st (size bytes, the caller's); check and ctx are set by the
 * caller. */
void tag_init(struct tag_lattice *tl, int m, const int *nl, uint8_t *st);
void tag_free(struct tag_lattice *tl);
/* The levels lev[0..m) of node x. */
void tag_levels(const struct tag_lattice *tl, uint64_t x, int *lev);
/* Sets bit on x and every generalization of x (which must be closed
 * upward: a node with the bit has it on its generalizations). */
void tag_up(struct tag_lattice *tl, uint64_t x, uint8_t bit);
/* Sets bit on x and every specialization of x (closed downward). */
void tag_down(struct tag_lattice *tl, uint64_t x, uint8_t bit);
/* Tags every node pass or fail, checking few: paths upward, each
 * bisected, a pass tagged on all generalizations and a failure on all
 * specializations. */
void tag_classify(struct tag_lattice *tl);
/* Visits, from the bottom up, every node with all the bits of need and
 * none of skip; when visit returns 1, sets skip on all the node's
 * generalizations. */
void tag_sweep(struct tag_lattice *tl, uint8_t need, uint8_t skip,
    int (*visit)(void *ctx, uint64_t x), void *ctx);

#endif
