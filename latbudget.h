/*
 * latbudget.h: lattice-search's memory budget (-S, issue 17): the bytes
 * of what the search holds (the input's frequency set, the hierarchies'
 * labels and level maps, the roll-ups' work space), counted against the
 * budget; the share left for the frequency sets kept for roll-ups; and
 * the refusal, in the user's terms, when what the set on disk leaves in
 * memory does not fit.  See latbudget.c.
 */
#ifndef LATBUDGET_H
#define LATBUDGET_H

#include "kanon.h"

/* How far what the search holds may pass the budget before the set goes
 * to disk, and what the set on disk leaves held before the run is
 * refused: within the allowance of the goal (the budget plus 32 MiB). */
#define LBUD_SLACK ((size_t)8 << 20)

/* What lattice-search holds of its budget, in bytes. */
struct lbud {
	size_t budget;		/* -S */
	size_t groups;		/* the input's frequency set: its groups */
	size_t input;		/* that set, as read or packed */
	size_t labels;		/* the hierarchies' labels and links, and
				 * the sensitive columns' values */
	size_t maps;		/* the level maps and losses */
	size_t work;		/* roll-ups' hash tables, the sets being
				 * evaluated, their class orders */
	size_t dist;		/* t-closeness's distributions built from
				 * the set on disk */
	int disk;		/* the input's set is on disk (latdisk.c) */
	int svalues;		/* the sensitive values are held with it
				 * (t-closeness) */
	int making;		/* the labels are still being made (the
				 * leaves ranked): what is known so far */
	size_t d;		/* quasi-identifiers... */
	kn_hier *const *hier;	/* ...and their hierarchies */
	const char *const *name;	/* their column names */
};

/* The bytes of a hierarchy's labels and links. */
size_t lbud_hier_bytes(const kn_hier *h);
/* The bytes of the level maps (every level to every higher one) and
 * the losses of a hierarchy, as lattice.c builds them. */
size_t lbud_maps_bytes(const kn_hier *h, int leaves);
/* The work space of roll-ups from a set of groups groups of keys of W
 * words, on threads threads: each thread's hash table, two sets of that
 * size alive at once and, with ord, their class order. */
size_t lbud_work_bytes(size_t groups, int W, int threads, int ord);
/* What is held whatever the search does: the sum of b's parts. */
size_t lbud_fixed(const struct lbud *b);
/* Dies (exit 2) when the parts of b pass share bytes by more than
 * LBUD_SLACK, naming them and the budget that would do: what is held
 * with the frequency set on disk. */
void lbud_check(const struct lbud *b, size_t share);
/* The bytes left of the budget for the sets kept for roll-ups. */
size_t lbud_kept(const struct lbud *b);

#endif
