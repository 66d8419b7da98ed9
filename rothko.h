/*
 * rothko.h: the out-of-core partitioning, Rothko-T (paper 004 §2) and
 * Rothko-S (004 §3): its part of a run's state.
 */
#ifndef ROTHKO_H
#define ROTHKO_H

#include "mondrian.h"

/* A node on disk: a file of n records, with the numbers and labels still
 * as ids when raw (the spool). */
struct onode {
	char *path;
	uint64_t n;
	int raw;
	int big;		/* known to have no allowable cut */
};

/* A reader of a node file in chunks. */
struct oread {
	FILE *f;
	const struct onode *nd;
	uint32_t *buf;
	size_t n, i;
};

/* The frequency groups of a node (004 §2: AV, AVS, AVC sets): per
 * dimension the counts of (code, sensitive value, label). */
struct gent {
	uint32_t code, s, y;
	uint64_t cnt;
};

struct gtab {
	struct gent *e;
	size_t n, cap;
	uint32_t *slot;
	size_t nslot;
	uint64_t *arr;		/* dense counts by code (k alone) */
};

/* Population statistics of a tree node, counted while repartitioning:
 * what the requirements need (004 §3: counts, sensitive histograms,
 * sums). */
struct pstat {
	uint64_t n;
	struct gtab h;		/* sensitive value -> count (code = s) */
	kn_i128 s, ss;
	char *path;		/* a leaf's records */
	FILE *f;
};

struct rothko {
	uint64_t fit_rows;	/* --fit-rows */
	size_t avail;		/* what the nodes may use */
	const char *tmpdir;
	uint32_t *label_rank;	/* infogain: label id -> rank */
	int gdense;		/* groups are plain counts by code */
	struct gtab *gtab;
	size_t gbytes;		/* memory the groups use */
	int gsoft, gover;	/* a batch may overflow: say so */
	int sampling;		/* -a rothko-s */
	double alpha;		/* --alpha */
	uint64_t sample_max;	/* --sample */
	uint64_t seed;		/* --seed */
	uint64_t fcache;	/* --fcache */
	int exact_sums;		/* a cluster's cuts job checks the sums */
	/* class_of(): the classes of rows [bucket_lo, bucket_hi) */
	uint64_t bucket_lo, bucket_hi;
	uint32_t *bucket;
};

#endif
