/*
 * cluster.h: partition's jobs for a cluster (Rothko-T as map and reduce
 * steps, paper 004 §2): their part of a run's state.
 */
#ifndef CLUSTER_H
#define CLUSTER_H

#include <sys/types.h>

#include <stdio.h>

#include "rothko.h"

enum { JOB_NONE, JOB_GROUPS, JOB_CUTS, JOB_ROWS, JOB_SOLVE, JOB_CLASSES,
    JOB_REGIONS, JOB_OPEN };

enum { CN_OPEN, CN_CUT, CN_HCUT, CN_CLASS };

struct cnode {
	int kind;
	int hasn;
	uint64_t n;		/* rows, from a size or region line */
	size_t dim;
	int64_t tm;		/* cut: the threshold tm / 10^tsc */
	int tsc;
	int lv;			/* hcut: the level of the node cut */
	uint32_t *clab;		/* hcut: the children, ids at level lv-1 */
	size_t nk;		/* kids */
	uint32_t *kid;		/* their node ids; UINT32_MAX: none yet */
	char *region;		/* class: its region after the id */
	uint32_t cls;		/* class: its number */
	struct rbound *rb;	/* class, in the classes job: its region */
	uint32_t parent;	/* the node whose kid it is (the root: 0) */
};

/* A class's region of one quasi-identifier, which its rows must lie in:
 * a number from lo / 10^slo to hi / 10^shi, or, with a hierarchy, under
 * the region's label: at[l] its id at level l of the hierarchy, or -1
 * (at is NULL for a label that is no node, the implicit root). */
struct rbound {
	kn_i128 lo, hi;
	int slo, shi;
	int32_t *at;
};

/* A row's values, parsed once for routing. */
struct rowval {
	int64_t m;
	int sc;
	uint32_t leaf;
};

/* The tree for routing rows, compact: the kids of a node are a run of
 * entries, laid out depth-first, so that a row's path stays near. */
struct rnode {
	int64_t tm;		/* cut: the threshold tm / 10^tsc */
	uint32_t kid0;		/* cut: the first kid's entry */
	uint32_t id;		/* the node's id in ct */
	uint16_t dim;
	uint8_t kind;		/* CN_*; a missing kid: CN_CUT + 8 */
	int8_t tsc;
	uint32_t nk;
	const uint32_t *clab;	/* hcut: the children */
};

/* The tree file. */
struct cluster_tree {
	kn_dict ids;		/* node id -> index in v */
	struct cnode *v;
	size_t cap;
	const char *path;
	char *sig;		/* these options, columns, hierarchies */
	char sigh[17];		/* its digest, in the groups' n lines */
	const char *columns;	/* --columns, for the workers' tables */
	size_t scol, tcol;	/* columns of -s and -t */
	const char *sname, *tname;
	uint32_t nclass;
	int regions;		/* keep the regions' text (regions job) */
	int classes;		/* keep the regions' bounds (classes job) */
	/* The sensitive columns' names and hierarchies (msens_prepare);
	 * with --closeness the whole table's distribution of their values
	 * (sdist lines, the root's cuts job writes them): value i, the
	 * tuple of the columns' values joined by tabs, has sdn[i] rows. */
	char *const *snames;
	kn_hier *const *shier;
	kn_dict sdist;
	uint64_t *sdn;
	size_t sdcap;
};

/* The reducers: the input's lines begin with a node id, and each node's
 * lines are together (the engine sorts them).  Each node goes to a
 * worker, a child process with the rest of its lines as standard
 * input, so that nothing of one node's partitioning is left for the
 * next. */
struct cluster_worker {
	pid_t pid;
	FILE *to;
	const char *id;
	uint64_t line0;		/* the node's first line in the input */
};

struct cluster {
	struct cluster_tree tree;
	struct rowval *rowval;	/* the row being routed */
	struct rnode *rnodes;	/* the tree laid out for routing */
	struct cluster_worker worker;
};

/* cstream.c: a cuts job's groups past -S.  A group of the cuts job's
 * input: rows of value m / 10^sc (a hierarchy's: leaf m) in QI j, with
 * sensitive value s and label y (ids), or keyed by hash (sens_hashed)
 * the sensitive value's key sk, keyed as numbers (sens_keyed,
 * targ_keyed; csens.c) the sensitive value sm / 10^ssc, the target
 * tm / 10^tsc. */
struct cgroup {
	uint32_t j, s, y;
	int32_t sc;
	int64_t m;
	uint64_t cnt, sk;
	int64_t sm, tm;
	int32_t ssc, tsc;
};

/* The groups spooled to a temp file, and each QI's most decimals.
 * Keyed by hash on disk (sens_sorted), each group is followed by the
 * keys of its nk sensitive columns' values, the last read's in keys,
 * and the records of the node's rows (struct rothko's rows) are made
 * in rec: the group of dimension rj being given, rleft times more. */
struct cspool {
	char *path;
	FILE *f;
	uint64_t n, left;
	int *scmax;
	size_t nk, rj;
	uint64_t *keys, rleft;
	uint32_t *rec;
};

/* nk: the keys each group carries (sens_sorted: nshd), or 0. */
void cstream_begin(struct part *pt, struct cspool *sp, size_t nk);
/* Spools g, with keys[0..nk). */
void cstream_put(struct cspool *sp, const struct cgroup *g,
    const uint64_t *keys);
/* Reads the groups from the first: 1 and *g (its keys in sp->keys), or
 * 0 at the end. */
void cstream_rewind(struct cspool *sp);
int cstream_next(struct cspool *sp, struct cgroup *g);
/* Once mond_prepare() and rothko_groups_alloc() have run: the node's
 * numeric dimensions streamed (rothko_streamed), their statistics, the
 * totals and the hierarchies' groups counted, ready for
 * rothko_groups_finish(). */
void cstream_groups(struct part *pt, struct cspool *sp);
void cstream_end(struct part *pt, struct cspool *sp);
/* Dies of -S too small for what (b bytes) a cuts job holds. */
void __attribute__((noreturn)) cstream_too_small(struct part *pt,
    const char *what, size_t b);

/* Keyed numbers (csens.c): group g's sums at the columns' scales
 * (sens_F, targ_F), which its numbers fit in 64 bits at. */
void cstream_gsum(const struct part *pt, const struct cgroup *g,
    struct gsum *v);

/* csens.c: a cuts job's sensitive values by hash, checked one to one:
 * the node's distinct values sorted by their keys. */
struct csens_check {
	kn_sorter *so;
	const char *id, *name;
	char *buf, prev[16];
	size_t cap;
	int any;
};
/* The checks of the keys of each column keyed by hash, of node id. */
void csens_check_begin(struct part *pt, struct csens_check *hc,
    const char *id, size_t budget);
void csens_check_end(struct part *pt, struct csens_check *hc);
/* The keys of sensitive value v (several columns' joined by tabs), a
 * column each, to keys; with hc, each checked. */
void csens_keys(const struct part *pt, kn_str v, uint64_t *keys,
    struct csens_check *hc);
/* l's values from the dictionary to their hashes amid the reading: the
 * groups so far, held (*gl, *n) or spooled, spooled again with their
 * keys, and *e (if not NULL) given its keys. */
void csens_to_sorted(struct part *pt, struct cspool *sp, struct cgroup **gl,
    size_t *n, struct cgroup *e, uint64_t *keys, struct csens_check *hc,
    const char *id, size_t budget);

/* A keyed column's numbers (sens_keyed, targ_keyed): sums of the
 * absolute values (and, sq, of the squares) by the scale they are
 * written at, each scale's largest and its text. */
struct csens_num {
	kn_i128 a[19], q[19];
	uint64_t top[19];
	char *topv[19];
	int seen[19], over[19];
	int sq;
};
/* v as a keyed number: 1, 0 if it is none, -1 if it does not fit 64
 * bits with at most 18 decimals. */
int csens_num_parse(kn_str v, int64_t *m, int *sc);
/* cnt rows of value m / 10^sc, written v. */
void csens_num_add(struct csens_num *cn, int64_t m, int sc, uint64_t cnt,
    kn_str v);
/* The column's scale: *F raised to the numbers' largest; dies unless
 * each fits 64 bits at it and the node's sums (of rows rows) fit 2^127,
 * naming option -s (sens) or -t and column name. */
void csens_num_end(struct csens_num *cn, int sens, const char *name,
    uint64_t rows, int *F);

/* The names of the jobs, by JOB_*. */
extern const char *const cluster_job_names[];

/* Runs job on table t (or, for the reducers, the standard input),
 * writing to fp. */
void __attribute__((noreturn)) cluster_run_job(struct part *pt, int job,
    kn_table *t, FILE *fp, const char *classcol);

#endif
