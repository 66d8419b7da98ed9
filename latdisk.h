/*
 * latdisk.h: lattice-search's frequency set on disk (issue 17), for a
 * run whose set at the leaves, or its hierarchies' leaves, pass -S:
 * the groups read kept in a temp file, the leaves of the columns with
 * many distinct values ranked by sorts instead of a dictionary, and a
 * node's set made by one streaming pass over the file.  See latdisk.c.
 */
#ifndef LATDISK_H
#define LATDISK_H

#include "kanon.h"

struct ldisk;

/* The set of node lev over mask, packed in the layout ly (sensitive
 * fields at sword/sshift); kept by the caller. */
struct ldisk_node {
	const kn_playout *ly;
	const int *sword, *sshift;
	const uint64_t *sfm;
	uint64_t mask;
	const int *lev;
};

/* A frequency set to be kept on disk: d quasi-identifiers with their
 * hierarchies, ns sensitive columns, given as their values with svals
 * (numbered here: ldisk_nsid), else as ids; temp files in tmpdir. */
struct ldisk *ldisk_new(size_t d, kn_hier **hier, size_t ns, int svals,
    const char *tmpdir);
/* A group of the set: its quasi-identifiers' values key[0..d), its
 * sensitive values key[d..d+ns) with svals, else their ids sid, and
 * its count. */
void ldisk_group(struct ldisk *ld, const kn_str *key, const uint32_t *sid,
    uint64_t cnt);
/*
 * Turns the groups into the set on disk: each generated hierarchy
 * whose labels pass colmax bytes has its leaves ranked by a sort within
 * budget (lab[0].n is then the number of its leaves, with no
 * dictionary), the others are looked up; the sensitive values given
 * as text are interned while their dictionary keeps within colmax, else
 * ranked too; writes the records.
 */
void ldisk_build(struct ldisk *ld, size_t colmax, size_t budget);
/* Calls fn(ctx) as ldisk_build makes the labels above the ranked
 * leaves, every 4,096 of them, so that what they hold is checked as it
 * grows, not once they are all made. */
void ldisk_on_grow(struct ldisk *ld, void (*fn)(void *), void *ctx);
/* Whether column c's leaves were ranked; its leaves under each label
 * of the levels above them (cover[l][id], l > 0: kn_hier_cover). */
int ldisk_ranked(const struct ldisk *ld, size_t c);
uint32_t **ldisk_cover(struct ldisk *ld, size_t c);
/* With svals, the ids of sensitive column c (0 to n - 1). */
uint32_t ldisk_nsid(const struct ldisk *ld, size_t c);
/* The classes ldisk_each handed on from sorts (struct ldisk_hand's
 * big). */
uint64_t ldisk_bigs(const struct ldisk *ld);
/* The groups of the set. */
uint64_t ldisk_groups(const struct ldisk *ld);
/* The set of node nd, in memory in the order its groups are first met,
 * through the hash of s; NULL when it has more than most groups. */
kn_pset *ldisk_rollup(struct ldisk *ld, const struct ldisk_node *nd,
    size_t most, kn_pscratch *s);
/* What ldisk_each hands a node's classes to: each takes sets of whole
 * classes; with the sensitive values given as text (svals), big takes
 * a class of more groups than a set holds, as its key (the sensitive
 * fields cleared), its rows and whether its sensitive values meet div
 * in every column; value, if not NULL, takes each of its distinct
 * values before (column, id, rows), every column's. */
struct ldisk_hand {
	void (*each)(const kn_pset *, void *);
	void (*big)(const uint64_t *, uint64_t, int, void *);
	void (*value)(size_t, uint32_t, uint64_t, void *);
	size_t fds;		/* the descriptors the caller keeps open
				 * meanwhile */
	const kn_ldiv *div;
	void *ctx;
};
/*
 * The set of node nd handed on to h in sets of whole classes (a class:
 * the key with the fields of smask cleared), each of at most most
 * groups counted through s: the groups split into parts on disk by a
 * hash of their class, written through buffers of budget bytes in all,
 * and the parts still larger split again.  A class of more groups
 * (its sensitive values') is handed on alone: with svals to h->big,
 * from sorts within budget; else to h->each, whole.
 */
void ldisk_each(struct ldisk *ld, const struct ldisk_node *nd,
    const uint64_t *smask, size_t most, kn_pscratch *s, size_t budget,
    const struct ldisk_hand *h);
/* Column c's values (given as text) ranked in the ordered distance's
 * order, as kn_tclose_ranks ranks them (tcd_order_key), for t-closeness
 * measured from them: called before the set is built. */
void ldisk_order(struct ldisk *ld, size_t c);
/* Adds the rows of each id of sensitive column c to C[id] (C has
 * ldisk_nsid(ld, c) entries): a pass over the records. */
void ldisk_scounts(const struct ldisk *ld, size_t c, uint64_t *C);
/* Removes the files. */
void ldisk_free(struct ldisk *ld);

#endif
