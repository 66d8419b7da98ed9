/*
 * rothko.h: the out-of-core partitioning, Rothko-T (paper 004 §2) and
 * Rothko-S (004 §3): its part of a run's state, the frequency groups of
 * nodes on disk (rgroups.c) and the steps (rothko.c).
 */
#ifndef ROTHKO_H
#define ROTHKO_H

#include <math.h>
#include <pthread.h>

#include "extsort.h"
#include "mondrian.h"

/* A node on disk: a file of n records, with the numbers and labels still
 * as ids when raw (the spool). */
struct onode {
	char *path;
	uint64_t n;
	int raw;
	int big;		/* known to have no allowable cut */
	uint64_t spec;		/* Rothko-T: its first scan's (struct tnode) */
};

/* The buffers of a reader of node files: the chunks the caller holds
 * (one, or two: rothko_read_double) and one that a thread of -j reads
 * ahead into. */
#define ROTHKO_SLOTS 3

/* A reader of a node file, a buffer of records at a time. */
struct oread {
	FILE *f;
	const struct onode *nd;
	struct part *pt;
	size_t cap;		/* records a buffer holds */
	uint32_t *slot[ROTHKO_SLOTS];
	size_t sn[ROTHKO_SLOTS];	/* their records */
	uint64_t sbytes[ROTHKO_SLOTS];	/* the bytes read for them */
	int nslot, hold;	/* the buffers, and those the caller holds */
	unsigned char *grp;	/* a group as read (numkey_read) */
	char *vbuf;		/* f's stdio buffer (kn_vbuf) */
	uint64_t rows;		/* records read, for the spool's scales */
	int map;		/* the spool's records need map_record */
	/* The thread that reads ahead (started 1; -1 when it could not
	 * be, 0 before the first read) fills buffer number filled while
	 * filled + hold < taken + nslot. */
	int started, quit, eof;
	/* read on a thread beside others' work: no progress drawn, no
	 * thread reading ahead, no threads ranking (rothko.c) */
	int solo;
	uint64_t filled, taken;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* The buffer being taken. */
	uint32_t *buf;
	size_t n, i;
};

/* The frequency groups of a node (004 §2: AV, AVS, AVC sets): per
 * dimension the counts of (code, sensitive value, label). */
struct gent {
	uint64_t code;		/* counting: a number's key (numkey.c) */
	uint32_t s, y;
	uint64_t cnt;
};

/* A keyed sensitive value's or target's (mondrian.h) sums in a group,
 * which is then (code, label) or (code, sensitive value) alone: the
 * values at the column's scale, their squares, the targets. */
struct gsum {
	kn_i128 s, ss, ts;
};

struct gtab {
	struct gent *e;
	size_t n, cap;
	uint32_t *slot;
	size_t nslot;
	uint32_t *arr;		/* dense counts by code (k alone) */
	size_t dom;		/* arr's size */
	int mode;		/* this scan: 0 not decided, GT_DENSE, GT_HASH,
				 * GT_EXTENT */
	/* Rothko-T: the scan may count the dimension's extents alone
	 * (GT_EXTENT, unless its dense counts are cheap): its least and
	 * largest keys (codes), of xnum rows, and xmiss missing numbers */
	int extent;
	uint64_t xmn, xmx, xnum, xmiss;
	uint64_t rows;		/* the rows of the node counted, or 0 */
	int ranked;		/* a number's: its keys get ranks too */
	/* a node's groups with keyed values: each group's sums, sum[i]
	 * where i is its s (GS_S: the sensitive value is keyed) or its y
	 * (GS_Y: the target alone is), the group's index when it was
	 * added; 0 without */
	int sums;
	struct gsum *sum;
	int nosum;		/* keyed by hash with no target keyed: the
				 * groups have indexes (sums) but no sums */
	/* with sens_hashed (mondrian.h): each group's set of sensitive
	 * keys (rothko_lset_put), lset[i * lw ..] where i is its s, of
	 * lw = rothko_lcap + 1 words; lw is 0 without */
	size_t lw;
	uint64_t *lset;
};

/* Distinct l-diversity by hashed keys (sens_hashed): a part has l
 * distinct values if a set of at most ceil(l) of them (rothko_lcap) is
 * full.  A set is w[0] keys in w[1..w[0]].  Adds key to set w of at
 * most cap. */
static inline void
rothko_lset_put(uint64_t *w, size_t cap, uint64_t key)
{
	uint64_t i;

	if (w[0] >= cap)
		return;
	for (i = 1; i <= w[0]; i++)
		if (w[i] == key)
			return;
	w[++w[0]] = key;
}

/* Adds set b to set a, of at most cap. */
static inline void
rothko_lset_union(uint64_t *a, const uint64_t *b, size_t cap)
{
	uint64_t i;

	for (i = 1; i <= b[0] && a[0] < cap; i++)
		rothko_lset_put(a, cap, b[i]);
}

/* The set of group e of g. */
static inline const uint64_t *
rothko_gset(const struct gtab *g, const struct gent *e)
{
	return g->lset + (size_t)e->s * g->lw;
}

#define GS_S 1
#define GS_Y 2

/* The sums of group e of g, or NULL if g has none. */
static inline const struct gsum *
rothko_gsum(const struct gtab *g, const struct gent *e)
{
	if (g->sums == 0 || g->nosum)
		return NULL;
	return &g->sum[g->sums == GS_S ? e->s : e->y];
}

#define GT_DENSE 1
#define GT_HASH 2
#define GT_EXTENT 3

/* Population statistics of a tree node, counted while repartitioning:
 * what the requirements need (004 §3: counts, sensitive histograms,
 * sums). */
struct pstat {
	uint64_t n;
	struct gtab h;		/* sensitive value -> count (code = s) */
	uint64_t *ls;		/* keyed by hash: the set of its values */
	int lok;		/* sens_sorted: -l met (rsens_tree_ok) */
	kn_i128 s, ss;
	char *path;		/* a leaf's records */
	FILE *f;
};

/* What a scan counts of a streamed dimension (a number's groups too
 * many for memory): its missing values, numbers, extremes and sum. */
struct sstat {
	uint64_t nmiss, nnum;
	int64_t mn, mx;
	kn_i128 sum;
};

/* The keyed column of a node in memory's labels (targ_hashed). */
#define ROTHKO_LABELS KN_MAXSENS

/* A streamed dimension's sweep (rcut.c). */
struct scut;

struct rothko {
	uint64_t fit_rows;	/* --fit-rows */
	size_t avail;		/* what the nodes may use */
	const char *tmpdir;
	int gdense;		/* groups are plain counts by code */
	struct gtab *gtab;
	size_t gbytes;		/* memory the groups use */
	int gsoft, gover;	/* a batch may overflow: say so */
	int sampling;		/* -a rothko-s */
	double alpha;		/* --alpha */
	uint64_t sample_max;	/* --sample */
	uint64_t seed;		/* --seed */
	uint64_t fcache;	/* --fcache */
	/* A node whose numbers' groups outgrow the budget: its numeric
	 * dimensions are streamed, their statistics counted in sst, the
	 * node's totals in gtot, and a cut found from the node's (key,
	 * sensitive value, label) sorted on disk: the node's file snode,
	 * its rows routed to tree node stn (or all, -1). */
	int streaming;
	/* rothko_choose_cut_on_disk() needed the groups of a dimension
	 * whose extents alone were counted (GT_EXTENT): no cut chosen */
	int unknown;
	struct sstat *sst;
	/* sens_hashed: a set of sensitive keys (rothko_lcap) for a part;
	 * a node in memory's ids of each keyed column's values (their keys
	 * by id, and a hash index of them), and with several columns the
	 * ids of its tuples (their values' ids in pt->tmap, and an index);
	 * targ_hashed: its labels' ids so, at [ROTHKO_LABELS] */
	uint64_t *lset, *lkey[KN_MAXSENS + 1];
	size_t lcap;		/* ceil(l), set with the groups */
	uint32_t *lslot[KN_MAXSENS + 1], *tslot;
	size_t lmask;
	uint64_t nlkey[KN_MAXSENS + 1], ntup;
	struct gtab gtot;
	const struct onode *snode;
	long stn;
	/* A cluster's cuts job whose groups outgrow -S (cstream.c): the
	 * lines of a streamed dimension's sort, each with its count after
	 * the label (16 hex digits), come from feed, not from snode; by
	 * hash (sens_hashed), each group's key is seen by sc
	 * (rothko_scut_seen). */
	void (*feed)(struct part *pt, size_t j, kn_sorter *so,
	    struct scut *sc);
	void *feedctx;
	/* and keyed by hash on disk (sens_sorted), the node's rows as
	 * dimension j sees them, each group's record as many times as it
	 * has rows (rothko_node_open, rothko_node_next): begun, then the
	 * next or NULL */
	void (*rows_begin)(struct part *pt, size_t j);
	const uint32_t *(*rows_next)(struct part *pt);
	/* The counting scans on the threads of -j (rgroups.c): each
	 * thread counts the rows of a chunk into the groups of its own
	 * dimensions; gmu guards gbytes and gover while they run. */
	int jobs;
	struct rpool *pool;
	pthread_mutex_t *gmu;
	/* The next node loaded while one is partitioned in memory
	 * (rothko.c, preload_start). */
	struct preload *pre;
	/* rothko_class_of(): the classes of rows [bucket_lo, bucket_hi) */
	uint64_t bucket_lo, bucket_hi;
	uint32_t *bucket;
};

/* Whether distinct l alone on one column is counted by hashed keys in
 * sets (sens_hashed, not sens_sorted) within a budget of budget bytes:
 * while 1,024 groups' sets take at most an eighth of it (partition(1),
 * -S). */
static inline int
rothko_by_sets(const struct part *pt, size_t budget)
{
	return pt->nsens == 1 && pt->req.ld.on &&
	    pt->req.ld.kind == KN_DIV_DISTINCT && !pt->req.hasv &&
	    !pt->req.hast &&
	    (ceil(pt->req.ld.l) + 1) * 8 * 1024 <= (double)budget / 8;
}

/* The size of a set of distinct l by hashed keys: ceil(l). */
static inline size_t
rothko_lcap(const struct part *pt)
{
	return pt->rk->lcap;
}

/* rgroups.c: the frequency groups of nodes on disk. */

/* A reader of node file on, its records mapped to codes: opened (a scan
 * counted), the next record or NULL at the end, closed. */
void rothko_read_open(struct part *pt, struct oread *rd,
    const struct onode *on);
uint32_t *rothko_read_next(struct part *pt, struct oread *rd);
void rothko_read_close(struct oread *rd);
/* Makes the reader keep the chunk it gave last as it is while it gives
 * the next; 0 when the budget left it no buffer for that.  Called
 * before the first read. */
int rothko_read_double(struct oread *rd);
/* The records a reader's buffer holds, and the memory a reader takes
 * (counted in the budget: partition.c). */
size_t rothko_read_cap(const struct part *pt);
size_t rothko_read_bytes(const struct part *pt);

/* Keyed by hash (sens_hashed), a streamed dimension's sweep sc sees
 * sensitive key v at key in the dimension, before its sorted lines are
 * read: the thresholds of the distinct values (rcut.c). */
void rothko_scut_seen(struct scut *sc, uint64_t v, uint64_t key);

/* Adds cnt rows to group (c, s, y) of g, with sets (sens_hashed)
 * sensitive key sk to its set, with sums their sums v (else NULL). */
void rothko_gtab_add(struct part *pt, struct gtab *g, uint64_t c, uint32_t s,
    uint32_t y, uint64_t cnt, uint64_t sk, const struct gsum *v);

/* Empties g for a new count, keeping its list's memory (counted in
 * gbytes) if keep, else freeing it too. */
void rothko_gclear(struct part *pt, struct gtab *g, int keep);

/* The records of the reader's next chunk, mapped, n of them, or NULL
 * at the end. */
uint32_t *rothko_read_chunk(struct part *pt, struct oread *rd, size_t *n);

/* Clears what a scan counts of a node besides its groups. */
void rothko_count_clear(struct part *pt);

/* Before a scan that counts nb nodes into G[0..nb * nqi): how each
 * dimension's groups are counted, decided in order (a dense array
 * charged to gbytes now).  Returns 0 when the budget is passed in a
 * scan that may overflow (gover). */
int rothko_count_begin(struct part *pt, struct gtab *G, size_t nb);

/* Counts the n records at recs, record i into the groups of node sl[i]
 * (G + sl[i] * nqi; skipped when negative; all into G when sl is
 * NULL), or for a streamed dimension into its statistics, and into the
 * node's totals: on the threads of -j, each with dimensions of its own,
 * so that every count is the same as on one. */
void rothko_count_chunk(struct part *pt, struct gtab *G,
    const uint32_t *recs, size_t n, const long *sl);

/* rothko_count_chunk in two halves: the threads of -j start on the
 * chunk, and the caller, which may meanwhile read the next one (recs,
 * sl and G stay as they are until then), joins them and waits until
 * they are done. */
void rothko_count_start(struct part *pt, struct gtab *G,
    const uint32_t *recs, size_t n, const long *sl);
void rothko_count_wait(struct part *pt);

/* Frees the lists made from dense counts of a node's groups G[0..nqi)
 * once its cut is chosen: rothko_count_begin counts them for one node
 * of a scan at a time. */
void rothko_groups_drop(struct part *pt, struct gtab *G);

/* Ends the threads of the counting scans. */
void rothko_count_end(struct part *pt);

/* Scans a node for its groups, totals and extents (pt->node). */
void rothko_node_groups(struct part *pt, const struct onode *on);

/* Frees the ranks of a numeric dimension's values. */
void rothko_local_free(struct dim *dm);

/* The key of dimension j in a record on disk: a leaf's code, or a
 * number's key. */
static inline uint64_t
rothko_disk_key(struct part *pt, const uint32_t *r, size_t j)
{
	return pt->dims[j].h != NULL || !pt->keyed ? r[j] :
	    numkey_get(r, j, pt->dims[j].kword);
}

/* Whether dimension j of the node being counted is streamed: a
 * number, its groups not held (struct rothko). */
static inline int
rothko_streamed(struct part *pt, size_t j)
{
	return pt->rk->streaming && pt->keyed && pt->dims[j].h == NULL;
}

/* The key of code c of dimension j in the node whose groups were
 * counted last (or in memory): c itself, or a number's key. */
static inline uint64_t
rothko_code_key(struct part *pt, size_t j, uint64_t c)
{
	return pt->dims[j].h != NULL || !pt->keyed ||
	    rothko_streamed(pt, j) ? c : pt->dims[j].lkey[c];
}

/* From the groups in gt of a node of n rows: sorted lists, the totals
 * and extents (pt->node). */
void rothko_groups_finish(struct part *pt, uint64_t n);

/* Rothko-T under k alone with the median split: the dimensions whose
 * groups a kid of the node just cut on dimension cut counts (struct
 * tnode's spec: the two its widths put first), and those of the whole
 * table's first scan; 0 (all) otherwise. */
uint64_t rothko_kid_spec(struct part *pt, size_t cut);
uint64_t rothko_table_spec(struct part *pt);


/* Allocates the frequency groups, once mond_prepare() has run. */
void rothko_groups_alloc(struct part *pt);

/* rcut.c: the cuts of nodes on disk. */

/* Chooses the cut of a node on disk, as mond_partition() would in memory. */
void rothko_choose_cut_on_disk(struct part *pt, struct cut *best);
/* The order the dimensions are tried in, into op[0..nqi). */
void rothko_dim_order(struct part *pt, uint32_t *op);
/* Specializing the hierarchy of dimension j, from its groups (as
 * eval_hier): taken as the best if every child meets the requirements
 * (judged: known to by the caller) and it scores better. */
void rothko_groups_cut_hier(struct part *pt, size_t j, struct cut *best,
    int judged);

/* Whether the rows in memory meet the requirements (no rows do). */
int rothko_rows_ok(struct part *pt);
/* Exits 1 when the table in memory does not meet the requirements. */
void rothko_root_check(struct part *pt, const char *name);

/* Keyed by hash (sens_sorted), takes what rsens.c keeps of recursive
 * l from the nodes' share of the budget, or refuses it. */
void rothko_sens_reserve(struct part *pt);

/* The leaf of Rothko-S's grown tree a record on disk falls in. */
size_t rothko_tree_route(struct part *pt, const uint32_t *r);

/* rclose.c: t-closeness under the equal and the ordered distance of
 * values held nowhere (tchash, tcord: mondrian.h). */

/* Column c's distribution on disk (pt->tcpath[c]), looked up: records
 * of w words, (hash, rows) in hash order, or under the ordered
 * distance a struct rcpos (mondrian.h) a position. */
struct rclook {
	FILE *f;
	int fd;
	const char *name;
	size_t col, w;
	uint64_t n;		/* records in the file */
	uint64_t b0, bn;	/* buf holds records [b0, b0 + bn) */
	uint64_t *buf;
};

/* A value as looked up: its key (hash, or position), its rows in the
 * table, and under the ordered distance cum and P at its position. */
struct rcval {
	uint64_t key, C, cum;
	unsigned __int128 P;
	size_t col;
};

/* A part's sum S of kn_tclose_ok's terms so far, and its values' rows
 * in the table; under the ordered distance, its rows so far (s), and
 * the last value added (at, with cum and P there). */
struct rcsum {
	kn_tsum S;
	uint64_t in, s, at, cum;
	unsigned __int128 P;
	size_t col;
	int any;
};

/* Reads records of two words (r: the last read, *have: one is) from f,
 * sorted by their first, up to the first of key k or more: whether it
 * is k's (the pairs of tcmap, the records of tcpath by hash). */
int rclose_seek(FILE *f, uint64_t r[2], int *have, uint64_t k);
void rclose_open(struct part *pt, size_t c, struct rclook *lk);
/* The value of key k, which must be among the table's: cheap for keys
 * in ascending order (a lesser one starts the search again from the
 * file's start). */
struct rcval rclose_rows(struct rclook *lk, const struct part *pt,
    uint64_t k);
void rclose_close(struct rclook *lk);
/* Adds to s a value v of c > 0 rows in a part of n: the values of a
 * part in ascending order of their keys (the ordered distance's). */
void rclose_add(const struct part *pt, struct rcsum *s, uint64_t c,
    const struct rcval *v, uint64_t n);
/* Whether the part of n rows whose values s summed is within t, its
 * distance in *d (if not NULL); ends s. */
int rclose_ok(const struct part *pt, struct rcsum *s, uint64_t n,
    long double *d);
/* A node in memory: tc[c] and tpos[c] of its values' ids (local_put),
 * looked up; freed by rclose_local_free. */
void rclose_local(struct part *pt);
void rclose_local_free(struct part *pt);
/* What rclose_local takes a distinct value (rothko.c's
 * local_row_bytes). */
size_t rclose_row_bytes(const struct part *pt);
/* Under the ordered distance, after the reading: each record's key of
 * its sensitive values turned from hash to position in the spool
 * (pt->spool_path, closed), by two sorts joined with tcmap[c]; then
 * tcf[c] opened. */
void rclose_reorder(struct part *pt);
/* Under the ordered distance, the values held until a node's groups
 * or Rothko-S's statistics outgrow the budget: known by their hashes
 * from then on, as mond_sens_hashed does, each looked up in memory to
 * its position (tcpm, mond_sens_col), the distribution written from
 * the one in memory. */
void rclose_switch(struct part *pt);
/* Closes and removes the distribution's files. */
void rclose_done(struct part *pt);

/* rsens.c: entropy and recursive l-diversity keyed by hash
 * (sens_sorted, mondrian.h), a node on disk decided from sorts. */

/* The rows of the node being counted (snode; of its batch, those the
 * tree routes to node stn), as far as dimension j (nqi: none) is read:
 * opened, the next or NULL, closed with rothko_read_close (rcut.c).  A
 * cluster's cuts job gives them from its groups (struct rothko's rows). */
void rothko_node_open(struct part *pt, struct oread *rd, size_t j);
const uint32_t *rothko_node_next(struct part *pt, struct oread *rd);
/* A temp file in -T's directory opened for writing and reading; its
 * name in *name, for messages and kn_tmp_close (rcut.c). */
FILE *rothko_tmp_make(struct part *pt, char **name);
/* Chooses the cut of the node being counted (snode, stn), as
 * rothko_choose_cut_on_disk. */
void rsens_choose_cut(struct part *pt, struct cut *best);
/* Whether that node as a whole meets -k and -l. */
int rsens_node_ok(struct part *pt);
/* What recursive l's sweeps hold of the budget, taken from it before
 * the nodes (partition.c): the l - 1 largest counts of a part. */
size_t rsens_reserve(const struct part *pt);
/* Rothko-S's pruning: whether each node t of the tree grown on a
 * sample of node on, all the rows the tree routes under it, meets -k
 * and -l, into ok[t]. */
void rsens_tree_ok(struct part *pt, const struct onode *on, int *ok);

/* rothko.c */

/* Rothko-T: nodes too large for memory are cut from their frequency
 * groups and repartitioned to disk, depth first; a node that fits is
 * partitioned in memory.  The classes are those of the in-memory
 * algorithm, numbered alike. */
void rothko_t(struct part *pt, struct onode *root, const char *name);

/* The memory a scan of a node file takes whatever the budget left for
 * the nodes: its reader's (rothko_read_bytes) and the slots of a
 * counting scan's rows, two buffers' worth (counted in the budget:
 * partition.c). */
size_t rothko_scan_bytes(const struct part *pt);

/* The class of a row.  Out of core the pairs file is read once per
 * bucket of rows that fits the budget. */
uint32_t rothko_class_of(struct part *pt, uint64_t row);
/* The classes of all the rows, by row, when they are in memory or fit
 * one bucket of rothko_class_of (then read now); NULL otherwise.  The
 * array stays as it is until rothko_class_of is called again. */
const uint32_t *rothko_classes(struct part *pt);

#endif
