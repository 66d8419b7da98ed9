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
	/* The sensitive columns' names and hierarchies (msens_prepare).
	 * With --closeness the tree's sdist lines (the root's cuts job
	 * writes them) are the whole table's distribution of their values:
	 * nsdist lines, none held; the cuts and solve jobs read them again
	 * (to line hend, the last of the table's lines, whose digest is
	 * dig). */
	char *const *snames;
	kn_hier *const *shier;
	uint64_t nsdist, hend, dig;
	uint64_t srows, sbytes;	/* their rows, and their values' bytes */
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
 * input: cnt rows of value m / 10^sc (a hierarchy's: leaf m) in QI j,
 * with sensitive value s and label y (ids), or keyed by hash
 * (sens_hashed) the sensitive value's key sk, or as numbers
 * (sens_keyed, targ_keyed; csens.c) the sensitive value sm / 10^ssc
 * and the target ym / 10^ysc. */
struct cgroup {
	uint32_t j, s, y;
	int16_t sc;
	int8_t ssc, ysc;
	int64_t m;
	uint64_t cnt;
	union {
		uint64_t sk;
		int64_t sm;
	};
	union {
		int64_t ym;
		uint64_t yk;	/* the label's key (targ_hashed) */
	};
};

/* The groups spooled to a temp file, and each QI's most decimals.
 * Keyed by hash on disk (sens_sorted), each group is followed by the
 * keys of its nk sensitive columns' values (each column's hash, then
 * under the variance its number as written: nv of them, at the scales
 * that follow), the last read's in keys and scs, and the records of
 * the node's rows (struct rothko's rows) are made in rec: the group of
 * dimension rj being given, rleft times more. */
struct cspool {
	char *path;
	FILE *f;
	uint64_t n, left;
	int *scmax;
	size_t nk, nv, rj;
	uint64_t *keys, rleft;
	int32_t *scs;
	uint32_t *rec;
};

/* nk keys each group carries (sens_sorted: nshd + nsvd), or 0; nv of
 * them numbers with their scales. */
void cstream_begin(struct part *pt, struct cspool *sp, size_t nk, size_t nv);
/* Spools g, with keys[0..nk) and scs[0..nv). */
void cstream_put(struct cspool *sp, const struct cgroup *g,
    const uint64_t *keys, const int32_t *scs);
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
 * the node's distinct values of a column sorted by their keys. */
struct csens_check {
	kn_sorter *so;
	const char *id, *name;
	char *buf, prev[16];
	size_t cap;
	int any, label;		/* label: the labels of -t */
	/* With --closeness by hash, the table's keys in order (records of
	 * two words, the key first: rclose.c's files), which each of the
	 * node's must be among (csens_tables). */
	FILE *tab;
	uint64_t tk[2];
	int thave;
	const struct part *pt;
};

/* A column's numbers: sums of the absolute values (and, sq, of the
 * squares) by the scale they are written at, each scale's largest and
 * its text. */
struct csens_num {
	kn_i128 a[19], q[19];
	uint64_t top[19];
	char *topv[19];
	int seen[19], over[19];
	int sq;
};

/* What a cuts job knows of node id's sensitive values and target with
 * no dictionary of them (csens.c). */
struct csens {
	const char *id;
	size_t budget;
	/* By hash: each column's check, and the labels', while so is not
	 * NULL. */
	struct csens_check hc[KN_MAXSENS], lc;
	/* The line's keys: each column's hash (nshd), then by sorts under
	 * the variance its number as written (nsvd), at scale scs[c]. */
	uint64_t keys[2 * KN_MAXSENS];
	int32_t scs[KN_MAXSENS];
	/* Each column's numbers (--variance alone on one column, or by
	 * sorts), the target's (--split regression). */
	struct csens_num num[KN_MAXSENS], tnum;
};

void csens_begin(struct part *pt, struct csens *cs, const char *id,
    size_t budget);
/* Keyed by hash, the checks of each column's keys begin. */
void csens_check_begin(struct part *pt, struct csens *cs);
/* Keyed by hash, sensitive value v (several columns' joined by tabs)
 * of a line with cnt rows: each column's key and under the variance
 * its number, to cs->keys and cs->scs; with first (the first QI's
 * groups, which have every row), the keys checked and the numbers
 * summed. */
void csens_line(struct part *pt, struct csens *cs, kn_str v, uint64_t cnt,
    int first);
/* Keyed as a number (sens_keyed, targ_keyed), the value v of the line
 * of reader r (the -s column, sens, or the target) in *m / 10^*sc; with
 * first, its cnt rows summed. */
void csens_number(struct part *pt, struct csens *cs, kn_str v,
    const kn_reader *r, int sens, uint64_t cnt, int first, int64_t *m,
    int8_t *sc);
/* Dies of value v of option -o, column name, of node id (line r's, if
 * not NULL), none of the numbers opt asks for: missing, or why not a
 * number. */
void __attribute__((noreturn)) csens_not_number(const kn_reader *r,
    const char *id, int o, const char *name, kn_str v, const char *opt);
/* l, and the variance with it or on several columns, from the
 * dictionary to the values' hashes amid the reading or at its end (the
 * node decided from sorts of its rows, rsens.c): the groups so far,
 * held (*gl, *n) or spooled, spooled again with their keys (and the
 * numbers: their sums from cnt0[i], the rows of dictionary value i in
 * the first QI's groups so far, of nc0), *e (if not NULL) given its
 * keys.  0, and nothing changed, if a number of the dictionary does
 * not fit 64 bits with at most 18 decimals. */
int csens_to_sorted(struct part *pt, struct csens *cs, struct cspool *sp,
    struct cgroup **gl, size_t *n, struct cgroup *e, const uint64_t *cnt0,
    size_t nc0);
/* --split infogain's labels from the dictionary to their hashes amid the
 * reading (targ_hashed): the groups so far, held or spooled, spooled
 * with their labels' keys, *e given its label's; the node's labels
 * checked one to one. */
void csens_labels_hashed(struct part *pt, struct csens *cs, struct cspool *sp,
    struct cgroup **gl, size_t *n, struct cgroup *e);
/* By hash, label v's key; with first, checked. */
uint64_t csens_label(struct csens *cs, kn_str v, int first);
/* Once the node is read (rows rows): the hashes checked, and each
 * column of numbers at its largest scale, which every number must fit
 * 64 bits at and the node's sums 2^127 (else it dies). */
void csens_end(struct part *pt, struct csens *cs, uint64_t rows);

/* --closeness by hash: each column's check also finds the node's values
 * among the table's (rclose.c's files: by hash, or tcmap's pairs). */
void csens_tables(struct part *pt, struct csens *cs);

/* cdist.c: the tree's lines of the whole table.  A tree line split at
 * its tabs (which become NULs) into *f, grown as needed: the fields. */
size_t cdist_split(char *line, size_t len, kn_str **f, size_t *cap);
/* An unsigned field of a tree line (what it is, for the message). */
uint64_t cdist_u64(const kn_str *f, const kn_reader *r, const char *what);
/* The digest of the table's lines (domain, scale, sdist) in order, so
 * that a tree whose lines were edited, added or lost is refused:
 * CDIST_DIGEST0, each line added (without its newline), then end. */
#define CDIST_DIGEST0 0x84222325cbf29ce4ULL
uint64_t cdist_digest_line(uint64_t x, const char *p, size_t n);
uint64_t cdist_digest_end(uint64_t x);
/* Whether line p[0..n) is one of the table's (digested). */
int cdist_table_line(const char *p, size_t n);
/* An sdist line's fields f[0..nf): its rows (dies unless it is one,
 * with rows), and its value (with several columns their values joined
 * by tabs, put back) to *v. */
uint64_t cdist_sdist(const struct part *pt, kn_str *f, size_t nf,
    const kn_reader *r, kn_str *v);
/* The table's distribution in place of node id's (pt->scount), held:
 * the tree's sdist lines read again, within half of -S (job names the
 * job for the refusal). */
void cdist_set(struct part *pt, const char *id, const char *job);
/* Die: the tree has no sdist line; node id's value v is not in it. */
void __attribute__((noreturn)) cdist_none(const struct part *pt);
void __attribute__((noreturn)) cdist_missing(const struct part *pt,
    const char *id, kn_str v);

/* The root's distribution: its first QI's groups' values and rows,
 * sorted within an eighth of budget, summed by value into sdist lines
 * in a temp file (path, f: of rows rows). */
struct cdist_root {
	kn_sorter *so;
	char *buf, *path;
	size_t cap;
	FILE *f;
	uint64_t rows;
};
void cdist_root_begin(struct part *pt, struct cdist_root *dr, size_t budget);
void cdist_root_add(struct cdist_root *dr, kn_str v, uint64_t cnt);
void cdist_root_end(struct part *pt, struct cdist_root *dr);
/* Writes the sdist lines to fp, each added to digest x: the digest. */
uint64_t cdist_root_write(struct cdist_root *dr, FILE *fp, uint64_t x);
void cdist_root_free(struct cdist_root *dr);
/* By hash (tchash, tcord as --distance): rclose.c's files of each
 * column, from the root's sdist lines (dr) or the tree's (NULL), which
 * count rows rows. */
void cdist_files(struct part *pt, struct cdist_root *dr, uint64_t rows);
/* Under the ordered distance, node id's spooled groups keyed by the
 * positions of their values (tcmap), and tcf opened. */
void cdist_positions(struct part *pt, struct cspool *sp, const char *id);

/* Whether the tree's distribution takes more than an eighth of budget
 * held (it then goes by hash). */
int cdist_big(const struct part *pt, size_t budget);
/* A node in memory (the solve job, node id), its values held (after
 * msens_prepare): the table's distribution by hash (cdist_files), each
 * value found in it, the node's own kn_tclose (rclose_local). */
void cdist_local(struct part *pt, const char *id);

/* The names of the jobs, by JOB_*. */
extern const char *const cluster_job_names[];

/* Runs job on table t (or, for the reducers, the standard input),
 * writing to fp. */
void __attribute__((noreturn)) cluster_run_job(struct part *pt, int job,
    kn_table *t, FILE *fp, const char *classcol);

#endif
