/*
 * lateval.h: lattice-search's evaluation of a node (lateval.c): its
 * classes judged and tallied, its metrics.
 */
#ifndef LATEVAL_H
#define LATEVAL_H

#include "kanon.h"
#include "latinput.h"

/* What an evaluation of a node on all quasi-identifiers yields. */
struct metrics {
	uint64_t supp, classes;
	unsigned __int128 cdm;
	long double prec, loss;
};

/*
 * What the classes of a node's set add up to: the rows suppressed; of
 * the classes kept, their number, C_DM and, by attribute, the rows
 * times the leaves their label covers less one (Iyengar's loss, summed
 * exactly, so that no order of the classes changes a bit of it); the
 * same of all classes for flash's bound (bound_of).
 */
struct tally {
	uint64_t supp, classes, bclasses;
	unsigned __int128 cdm, bcdm, cov[MAXQ], bcov[MAXQ];
};

/* The state of the run the evaluations read (lattice.c's L). */
void lateval_init(const struct lat_state *L);
/*
 * Evaluates node (mask, lev) from its set f: the rows in classes below
 * k or failing l-diversity or t-closeness are suppressed; the node
 * qualifies (1) if they are at most the limit.  With m (all
 * quasi-identifiers), fills in the metrics of a qualifying node, and
 * with tp its whole tally.  scr: the thread's roll-up scratch; *sorted
 * counts the sets read sorted from the disk.
 */
int lateval_node(const fset *f, uint64_t mask, const int *lev,
    struct metrics *m, struct tally *tp, kn_pscratch *scr,
    uint64_t *sorted);
/* The sum of Iyengar's loss over the cells of sums by attribute cov,
 * without the suppressed cells. */
long double lateval_loss(const unsigned __int128 *cov);
/* Frees the calling thread's scratch. */
void lateval_thread_free(void);

#endif
