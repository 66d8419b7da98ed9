/*
 * mondrian.h: the state of one run of partition, shared by the in-memory
 * Mondrian (mondrian.c), Rothko-T and Rothko-S (rothko.c), the cluster
 * jobs (cluster.c) and partition's main (partition.c).  Every function
 * of these files takes the run as its first argument, struct part *pt;
 * no file keeps mutable state of its own.
 */
#ifndef MONDRIAN_H
#define MONDRIAN_H

#include <pthread.h>
#include <stdio.h>

#include "extsort.h"
#include "kanon.h"

struct part;

enum { SPLIT_MEDIAN, SPLIT_INFOGAIN, SPLIT_REGRESSION };

/* The scales a number may have: 0 to 18 decimals (kanon(7), Numbers). */
#define NUMKEY_SCALES 19

/*
 * A quasi-identifier.  Every row's value becomes a code whose order is
 * the dimension's order: the rank of the number, or for a column with a
 * hierarchy the rank of its leaf in depth-first order of the hierarchy,
 * so that the leaves under any node are a run of codes.
 */
struct dim {
	size_t col;
	const char *name;
	kn_hier *h;		/* NULL: numeric */
	int isdate;		/* --date: numbers are days or seconds */
	int dform;		/* its form (KN_DATE_*), once known */
	/* numeric: values as integers at the column's scale S; on a
	 * cluster the distinct values (mant, scale) get ids first, out of
	 * core none: they are keys (numkey.c), ranked in a node's vals */
	struct numdict {
		int64_t *m;	/* id -> mantissa */
		int8_t *sc;	/* id -> scale */
		uint32_t *slot;	/* hash index: id+1, 0 empty */
		size_t n, cap, nslot;
	} vd;
	uint32_t *rankof;	/* id -> rank */
	int64_t *raw;		/* per row while loading */
	int8_t *rsc;		/* per row: its own scale */
	/* out of core, raw holding keys with no rsc (rothko.c,
	 * key_put): the least and largest and how many are numbers */
	uint64_t rmn, rmx, rnum;
	int64_t *vals;		/* rank -> value * 10^S */
	uint32_t nrank;
	/* some value is missing (kanon(7), MISSING VALUES): rank 0 stands
	 * for it, below every number, and vals[0] is vals[1] */
	int miss;
	int S;
	/* on a cluster: the table's scale and range, from the tree; out
	 * of core the least and largest numbers of the table */
	int fS, hasg;
	int64_t gmn, gmx;
	/* out of core (numkey.c): the spool holds each number as a key,
	 * its value at the scale the column had when its chunk was
	 * written, sc_chunk[s] the first chunk at scale s; its extremes
	 * so far (at the scale sc_ext, which follows sc_now as the chunks
	 * are written in order) and whether one overflowed; the word of
	 * the key's low half in a record on disk (its high half is the
	 * dimension's own word); a node's local ranks: lkey[rank],
	 * the key of a rank, lcap their room */
	uint64_t sc_chunk[NUMKEY_SCALES];
	int sc_now, sc_ext, sc_ovf, has_num;
	int64_t kmn, kmx;
	size_t hword, kword;
	uint64_t *lkey;
	size_t lcap;
	/* hierarchy */
	int nl;			/* levels; nl is the implicit root above */
	uint32_t **anc;		/* anc[l][leaf] = ancestor at level l */
	uint32_t **nleaf;	/* nleaf[l][id] = leaves under the node */
	uint32_t *dfsleaf;	/* code -> leaf */
	uint32_t *dfsrank;	/* leaf -> code */
	uint32_t ncode;
	uint32_t wleaves;	/* the leaves that widths count */
};

/* Statistics of one part of a candidate cut. */
struct side {
	uint64_t n;
	uint64_t distinct;	/* sensitive values present */
	kn_i128 s, ss;		/* sums of the sensitive values, squares */
	kn_i128 ts;		/* sum of the numeric target * 10^tF */
	kn_i128 lf; /* sum of mond_x_log_x() over the label counts */
	/* With es_ok, the sum of kn_xlx62() over the sensitive counts:
	 * entropy l-diversity's sure verdicts (cut_sides_ok).  Only a
	 * side that mondrian.c's sweeps started (side_es_start) has it. */
	kn_i128 es;
	int es_ok;
};

/* The best cut found so far at a node. */
struct cut {
	int found;
	size_t dim;
	uint64_t L;		/* ordered: rows on the left */
	uint64_t dist;		/* median: |2L - n| */
	kn_i128 iscore;		/* infogain: larger is better */
	long double score;	/* regression: larger is better */
	int fast;		/* found by select_cut: */
	uint64_t med;		/* left: keys below med, and the first */
	uint64_t eqleft;	/* eqleft rows (in row order) equal to it */
};

/* The tree grown on a sample by Rothko-S: the cuts, to route the
 * population through.  A threshold cut sends codes <= thr to kid 0; a
 * hierarchy cut of node X at level lv sends each row to the child of X
 * it lies under, and the rows under children the sample did not have,
 * or not under X at all, to the last kid ("other"), which must stay
 * empty for the cut to stand. */
struct tnode {
	int leaf;
	size_t dim;
	int hier;
	uint64_t thr;		/* out of core: a key (numkey.c) */
	int lv;
	uint32_t x;
	uint32_t *cid;		/* hierarchy: child ids, in kid order */
	size_t nkid;
	size_t kid0;		/* index of the first kid */
	uint64_t depth;
	/* Rothko-T: the rows, and relaxed cuts (codes below med, and the
	 * first eqleft rows at med in file order, go to kid 0) */
	uint64_t n;
	int big, rel;
	uint64_t med;
	uint64_t eqleft, left;
	/* Rothko-T, the median split and k alone: the dimensions (a bit
	 * each) whose groups the node's scan counts, the others' extents
	 * alone; 0: all */
	uint64_t spec;
};

/* Accounting of an out-of-core run (-v; paper 004 §4-5). */
struct part_acct {
	uint64_t scans;		/* passes over node files */
	uint64_t bread, bwritten;	/* temp file bytes */
	uint64_t bspool;	/* those of the spool */
	uint64_t repart;	/* nodes repartitioned to disk */
	uint64_t inmem;		/* nodes partitioned in memory */
	uint64_t bigleaf;	/* classes too large for memory */
	uint64_t classed;	/* rows put in a class, for the progress */
};

/* Rothko-S's growth phase (paper 004 §3): the rows in memory are a
 * sample of n of the N rows of a node, and a part is allowable when the
 * tests of hypo.c reject "it is not" at level alpha/m. */
struct part_sample {
	int on;
	uint64_t n, N;
	uint64_t k;		/* the k asked for (req.k is the sample's) */
	double alpha;
	int m;			/* parts of the cut being tested */
	int naive;		/* --naive: no tests (for comparison) */
	/* whether a part of the sample meets the requirements (rothko.c) */
	int (*test)(struct part *pt, const struct side *sd,
	    const uint64_t *hist, int compl);
};

/* The node being cut: its rows, totals and per-dimension extent. */
struct part_node {
	size_t b, n;
	struct side tot;
	uint32_t *mn, *mx;
	int *lv;		/* hierarchy: level of the LCA */
	uint32_t *node;		/* hierarchy: id of the LCA */
	long double *width;
	int *can;		/* the dimension can be cut */
	size_t sorted;		/* dimension perm is sorted by, or nqi */
};

/* The tree of cuts, recorded as it grows (out of core and on a
 * cluster). */
struct part_grow {
	int on;
	struct tnode *t;
	size_t n, cap;
	uint64_t maxdepth, maxleaves, leaves;
	int full;		/* also make classes (a cluster's solve job) */
	uint32_t *tcls;		/* with full: node -> its class, or 0 */
	size_t *stnode;		/* per stack pair: its tree node */
	size_t stcap;
};

struct rothko;
struct cluster;

/* One run of partition. */
struct part {
	kn_req req;
	int split;		/* --split: SPLIT_* */
	int relaxed;		/* --relaxed */
	const char *inname;	/* the input, for messages */
	size_t budget;		/* -S */
	size_t dgrown;		/* bytes of values the dictionaries took
				 * since the budget was last checked */
	int jobs;		/* -j: the threads that code the rows
				 * (mload.c) */
	int cut_jobs;		/* the threads of a node's cut (mondrian.c,
				 * cut_par), 0 or 1: none but this one */

	/* The quasi-identifiers and the rows as records of rec_words
	 * words: per QI its code, then the row number, the sensitive
	 * value and the target at word_row, word_sens, word_targ. */
	size_t nqi;
	struct dim *dims;
	size_t rec_words;
	int rec_huge;		/* rec and the numbers read were taken on
				 * huge pages (mload.c's load_cap) */
	size_t word_row, word_sens, word_targ;
	int has_sens, has_targ;
	/* Out of core, a sensitive column asked for its variance alone and
	 * a regression's target need only their values' sums: they are
	 * numbers with no dictionary (issue 17), keyed as a numeric QI is
	 * (numkey.c) by the dimensions dims[nqi..nkd) that follow the QIs
	 * (the sensitive column's first), never cut, their keys' high half
	 * in word_sens and word_targ; the frequency groups carry their
	 * sums (struct gsum, rothko.h), a streamed row its keys, and a
	 * node in memory gives its rows ids of their own (rothko.c).
	 * Distinct l-diversity alone on one column (sens_hashed) keys the
	 * sensitive values by a 64-bit hash of their bytes, checked to be
	 * one-to-one before the cuts (mload.c's mond_hash_check): a group
	 * carries a set of at most ceil(l) keys (gtab's lset, rothko.h),
	 * which tells exactly whether a part has l distinct values, and a
	 * node in memory gives its values ids by key (rothko.c).  Any
	 * other l-diversity (entropy, recursive, distinct l whose sets
	 * would not fit), on one column or several, with --variance or
	 * without, and --variance on several columns (not under --job, with
	 * no --closeness) are keyed so too (sens_sorted, with sens_hashed),
	 * each column by a dimension of its own, dims[nqi + c], and under
	 * --variance by a second, dims[nqi + nshd + c], its number (their
	 * keys' high halves in word_sens + ...): a node on disk, and
	 * Rothko-S's tree, is decided from sorts of its keys (rsens.c), its
	 * groups carry no set and no sum, and a node in memory numbers its
	 * tuples and each column's values (rothko.c's local_put), with
	 * their numbers. */
	int sens_keyed, targ_keyed, sens_hashed, sens_sorted;
	/* Out of core under --split infogain (not under --job), each record
	 * carries its label's 64-bit hash too (targ_hkey), keyed by the last
	 * dimension, dims[nkd - 1], both its words on the records on disk
	 * only (numkey_layout).  The labels
	 * are held in targ_dict while it takes at most an eighth of -S;
	 * past that it is dropped and the labels are known by their hashes
	 * alone (targ_hashed), checked one-to-one as the sensitive values'
	 * (mond_hash_check): a node on disk is then streamed, its labels'
	 * counts taken from sorts (rcut.c, rsens.c), its groups carry no
	 * label, and a node in memory gives its labels ids by key. */
	int targ_hkey, targ_hashed;
	/* targ_hkey: how the labels are read (-1 by their bytes, else
	 * kn_table_canon's mode, when -t is a sensitive column read by
	 * identity), and the input, for mond_hash_check */
	int targ_canon;
	kn_input *input;
	const char *incols;
	size_t nkd, nskd;
	/* sens_sorted: the columns keyed by hash (all, or none under
	 * --variance alone), then by their numbers under --variance (all),
	 * dims[nqi + nshd + c] */
	size_t nshd, nsvd;
	size_t *used, nused;	/* the columns read: QIs, -s, -t */
	int need_stats;		/* parts need more than their size */
	uint32_t *rec;		/* nrows records */
	uint32_t *rec_tmp;	/* scratch records, row i's at i (mpar.c: its
				 * part's slice) */
	/* A cut leaves its parts in rec_tmp, which the step that takes
	 * one of them swaps with rec (the stack says where each part is:
	 * MOND_IN_TMP), and a class's rows go back to the records (the
	 * buffer rec was first: rec_swapped is 0); else each cut copies
	 * its parts back.  Set while every part is cut or made a class
	 * by the same run of steps. */
	int pingpong, rec_swapped;
	uint64_t nrows;

	/* Out of core (Rothko-T, paper 004 §2): the rows are spooled
	 * once as binary records, the numbers as 64-bit keys (numkey.c),
	 * and read back in chunks. */
	int ooc;
	int keyed;		/* the numbers are keys on disk (numkey.c) */
	size_t dwords;		/* words of a record on disk */
	uint64_t spooled;	/* rows spooled so far */
	FILE *spool;
	char *spool_path;
	FILE *pairs;		/* (row, class) pairs */
	char *pairs_path;
	const char *tmpdir;	/* -T: the temp files' directory */
	kn_i128 *sums;		/* per dimension, for a region's means */
	/* per dimension, for a region: its rows whose value is missing and
	 * the least rank of the others (set with the sums) */
	uint64_t *nmiss;
	uint32_t *mnp;
	struct part_acct acct;

	/* The sensitive column: dictionary, and for variance the values
	 * scaled to sens_F decimals. */
	kn_dict sens_dict;
	kn_i128 *sens_val;
	int *sens_scale, sens_F;
	/* The target: dictionary (labels) and numeric values. */
	kn_dict targ_dict;
	kn_i128 *targ_val;	/* numeric target * 10^targ_F */
	int *targ_scale, targ_F;
	uint32_t *label_rank;	/* infogain out of core: label id -> rank */
	int exact_sums; /* a cluster's cuts job checks the sums itself */
	kn_i128 *xlx_tab;	/* mond_x_log_x(c) for small c */
	size_t xlx_n;
	unsigned es_checks; /* a sweep's cuts judged from their counts */

	/* Per-node scratch. */
	uint32_t *key, *perm, *perm_tmp, *grp, *cnt;
	uint64_t *hs_tot, *hs_side, *hs_side2, *hl_tot, *hl_side;
	uint32_t *stouch, *ltouch;
	uint64_t *gath;
	size_t nstouch, nltouch;
	/* Several sensitive columns (msens.c): scols[0..nsens); with more
	 * than one, a row's sensitive value (sens_dict) is the tuple of
	 * their values joined by tabs, and tmap[j][tuple] its value in
	 * column j (sdicts[j]). */
	size_t nsens;
	const size_t *scols;
	kn_dict sdicts[KN_MAXSENS];
	uint32_t *tmap[KN_MAXSENS];
	char *sjoin;
	size_t sjcap;
	/* --variance with several columns: the sides' sums (s, ss) are of
	 * one column, so partition turns req.hasv off and msvar on, and
	 * msens.c checks each column's variance from the tuples' counts:
	 * column j's values are sval[j][id] / 10^svF[j] (sdicts[j] ids). */
	int msvar;
	kn_i128 *sval[KN_MAXSENS];
	int svF[KN_MAXSENS];
	/* --closeness: each column's distribution over the whole table,
	 * each value's position in it; scratch. */
	kn_tclose tc[KN_MAXSENS];
	/* Out of core under the equal and the ordered distance (not under
	 * --job, not relaxed), the values are keyed by hash (sens_sorted,
	 * tchash; by position under the ordered one, tcord below) and held
	 * nowhere: column c's distribution is the file tcpath[c] of
	 * records (hash, rows) in hash order (mond_hash_check) that
	 * rclose.c looks the values up in, tcn the table's rows; a node in
	 * memory has tc[c] and tpos[c] of its own values (rclose_local).
	 * With no --variance (sens_hkey), each record carries its values'
	 * hashes too, keyed by dims[nqi .. nqi + nsens) (nskd of them, their
	 * words on disk only, numkey_layout) beside its id in sens_dict,
	 * held while it takes at most an eighth of -S; past that the
	 * dictionary is dropped (mond_sens_drop: tchash set, the ids all
	 * 0) and after the reading the run keys the values by those
	 * hashes (sens_sorted, nshd = nsens). */
	int tchash, sens_hkey;
	char *tcpath[KN_MAXSENS];
	uint64_t tcn;
	/* Under the ordered distance (tcord), the values are keyed by
	 * their positions in the distance's order once the reading is done
	 * (rclose_reorder): tcpath[c] holds by position the value's rows,
	 * their cumulative count and its prefix sum (struct rcpos), tcm[c]
	 * positions, tcP[c] the sum of all the cumulative counts, tcf[c]
	 * the file open for look-ups; tcmap[c] the pairs (hash, position)
	 * in hash order until the spool is rewritten. */
	int tcord;
	/* ... or, switched amid the run with the values held (rclose_switch),
	 * the records keep their hashes and mond_sens_col looks each up in
	 * tcpm[c]: pairs (key, position + 1) in 2 (mask + 1) words */
	struct {
		uint64_t *slot;
		size_t mask;
	} tcpm[KN_MAXSENS];
	uint64_t tcm[KN_MAXSENS];
	unsigned __int128 tcP[KN_MAXSENS];
	FILE *tcf[KN_MAXSENS];
	char *tcmap[KN_MAXSENS];
	uint64_t *scount;	/* rows of each sensitive value, as loaded */
	size_t nscount, scap;
	uint32_t *tpos[KN_MAXSENS];
	kn_tval *tv, *tv2;
	size_t tvcap, tv2cap;
	kn_tscratch tsc;
	/* The greatest distance to the table msens_pairs_ok measured
	 * since it was set to -1 (mond_far_side_ok). */
	long double tdist;
	struct part_sample sample;
	struct part_node node;

	/* The stack of segments still to partition. */
	uint64_t *stack;	/* pairs b, e */
	uint32_t *stack_ext;	/* per pair: min[nqi], max[nqi] */
	size_t nstack, stack_cap;
	struct part_grow grow;
	uint64_t ncuts;
	uint64_t pruned;	/* tree nodes merged back (Rothko-S) */

	/* Output of the partitioning. */
	uint32_t *row_class;	/* row -> class */
	uint32_t *node_row;	/* out of core: a node in memory's rows */
	uint32_t nclasses;
	uint64_t max_class;
	FILE *regions_fp;
	const char *regions_name;	/* for messages */
	/* The table's columns and name, against which the regions'
	 * header must read one way (mond_regions_header, rhead.c). */
	char **tcols;
	size_t ntcols;
	char *tname;
	char *region_line;	/* the line of a region being built */
	size_t region_len, region_cap;
	const char *region_tag;	/* a node id to write instead of a class's */

	struct rothko *rk;	/* out of core (rothko.c) */
	struct nkring *nkr;	/* the spool's chunks packed on -j's threads
				 * (numkey.c), or NULL */
	struct cluster *cl;	/* on a cluster (cluster.c) */
};

/* Out of core (Rothko-T, paper 004 §2): the rows are spooled once as
 * binary records of dwords words, the numbers as 64-bit keys (numkey.c),
 * and read back in chunks of this many. */
#define MOND_CHUNK 4096

/* A part on the stack whose rows are in the scratch buffer (pingpong). */
#define MOND_IN_TMP ((uint64_t)1 << 63)

/* The bytes of lines in a block coded by a thread of -j (mload.c). */
#define MLOAD_BLOCK ((size_t)512 << 10)

/* ---- mload.c: coding the rows ------------------------------------ */

/* Parses a decimal number into m / 10^sc with m in 64 bits (signed)
 * and no trailing fractional zeros; 0 if s is not one. */
int mond_parse_num(const char *s, size_t n, int64_t *m, int *sc);
/* Why mond_parse_num refused s, in words for a message. */
const char *mond_num_error(const char *s, size_t n);
/* Reads value s of numeric dimension dm: a number, or with --date a
 * date as its day or second (scale 0); NULL, or why not in buf. */
const char *mond_parse_value(struct dim *dm, const char *s, size_t n,
    int64_t *m, int *sc, char *buf, size_t size);

/* Builds the ancestors, leaf counts and depth-first codes of a
 * hierarchy once all values are known. */
void mond_prepare_hier(struct dim *dm);

/* ---- mrank.c: the numbers ranked --------------------------------- */

/* Ranks the numbers of dimension j of the nrows rows in rec, each
 * dm->raw[row] / 10^dm->rsc[row] (scale -1: missing, rank 0), into the
 * records' word j and dm->vals, dm->nrank; frees raw and rsc. */
void mond_rank_numeric(struct part *pt, struct dim *dm, size_t j);
/* The same for every numeric QI of the table in memory, on the threads
 * of pt->jobs (the columns taken in turn, one radix sort at a time; the
 * dense columns' ranks copied into the records together, the rows
 * shared out among the threads); dies naming the first column
 * of -q that does not fit, as one thread does. */
void mond_rank_numbers(struct part *pt);
/* The next numeric QI of pt from *next on, taken under mu by one of the
 * threads that rank them; pt->nqi or more when none is left. */
size_t mond_rank_next(const struct part *pt, pthread_mutex_t *mu,
    size_t *next);

/* ---- mload.c, continued ------------------------------------------- */

/* The id of the number m / 10^sc (canonical: no trailing fractional
 * zeros) in a dictionary of distinct numbers, added if new. */
uint32_t mond_numdict_id(struct numdict *v, int64_t m, int sc);

/* The id of a sensitive value; of a target. */
int mond_sens_id(struct part *pt, kn_str v, uint32_t *id);

int mond_targ_id(struct part *pt, kn_str v, uint32_t *id);

/* Reads the table into records; with pt->jobs above 1, TSV in memory
 * on that many threads, the same records. */
void mond_load(struct part *pt, kn_table *t, size_t scol, size_t tcol);
/* The ordered distance's record of a position in tcpath (struct
 * part): the value's rows C, the cumulative count cum (C of the
 * positions up to it) and P (the cumulative counts of the positions
 * before it, summed), in two halves; written by mload.c's hash check
 * and rclose_switch, read by rclose.c. */
struct rcpos {
	uint64_t C, cum, plo, phi;
};

static inline struct rcpos
rcpos_of(uint64_t C, uint64_t cum, unsigned __int128 P)
{
	struct rcpos r = { C, cum, (uint64_t)P, (uint64_t)(P >> 64) };

	return r;
}

static inline unsigned __int128
rcpos_P(const struct rcpos *r)
{
	return (unsigned __int128)r->phi << 64 | r->plo;
}

/* Frees sort so, its temp files' bytes added to pt's accounting. */
void mond_sort_done(struct part *pt, kn_sorter *so);
/* The key on the records of sensitive value v by its hash
 * (numkey_of its hash: mond_sens_col). */
uint64_t mond_sens_key(kn_str v);
/* Dies of two values of column col (a target's labels with targ) that
 * share hash h. */
void mond_hash_dup(const char *col, uint64_t h, int targ)
    __attribute__((noreturn));
/* With sens_hashed, dies unless the distinct values of the sensitive
 * column scol (named name) of the input have distinct hashes; with
 * targ (targ_hashed), those of the target's labels: a pass over the
 * input counting them within -S (kn_freq, on jobs threads), read as
 * the rows were (canon: kn_table_canon's mode, or -1 for the bytes),
 * their hashes then sorted in tmpdir; with tcol >= 0 (tchash), each
 * value's hash and rows written to the temp file pt->tcpath[tcol]. */
void mond_hash_check(struct part *pt, kn_input *in, const char *columns,
    size_t scol, const char *name, int targ, int canon, const char *tmpdir,
    int jobs, long tcol);
/* mond_hash_check's steps, for values from elsewhere (a cluster's
 * tree): each distinct value v of column name with its cnt rows added
 * once, in any order; end returns the rows added up (with tcol >= 0). */
struct mond_hcheck;
struct mond_hcheck *mond_hcheck_new(struct part *pt, const char *name,
    int targ, long tcol, const char *tmpdir);
void mond_hcheck_add(struct mond_hcheck *hc, kn_str v, uint64_t cnt);
uint64_t mond_hcheck_end(struct part *pt, struct mond_hcheck *hc, long tcol,
    const char *tmpdir);
/*
 * t-closeness: the cuts of an ordered dimension found too far from the
 * table (the last MOND_NFAR judged), each its left rows and the greatest
 * distance of its left and right parts in a column (-1 if not
 * measured).  A part at the distance d from the table and one of b rows
 * that holds it or is held by it, of a rows, differ by |a - b| / max(a,
 * b) at most (their total variation, for any of the three distances,
 * whose ground distances are at most 1), and so do their distances (the
 * triangle inequality): a cut that the cuts too far show surely
 * farther than t is not judged again (msens.c), so that a node whose
 * parts are far from the table is not measured once a cut.
 */
#define MOND_NFAR 8
struct mfars {
	struct {
		uint64_t l;
		long double dl, dr;
	} f[MOND_NFAR];
	size_t n;
};

/* Whether a cut of l rows on its left, of a node of n, surely fails
 * t-closeness by the cuts in fs. */
int mond_far_fails(const struct part *pt, const struct mfars *fs,
    uint64_t n, uint64_t l);
/* The cut of l rows on its left failed, its parts at dl and dr. */
void mond_far_add(struct mfars *fs, uint64_t l, long double dl,
    long double dr);

/* Drops the sensitive values' dictionary and counts (sens_hkey): from
 * now on they are known by their hashes (tchash). */
void mond_sens_drop(struct part *pt);
/* Then keys them by those hashes (sens_sorted), checked one-to-one,
 * with the distribution on disk (mond_hash_check, tcpath): after the
 * reading, or when a node's groups with the values outgrow the budget
 * (rothko.c); pt->tcn the table's rows. */
void mond_sens_hashed(struct part *pt, const char *tmpdir, int jobs);
/* Drops the labels' dictionary and ranks (targ_hkey): from now on they
 * are known by their hashes (targ_hashed). */
void mond_targ_drop(struct part *pt);
/* What the labels or the target's values take: their dictionary, and
 * by label its rank, counts and place in a list. */
size_t mond_targ_bytes(struct part *pt);
/* mond_hash_check of the labels (targ_hashed), of pt->input. */
void mond_targ_check(struct part *pt, const char *tmpdir, int jobs);

/* The memory the dictionaries and per-value arrays take: what -S must
 * hold besides the nodes. */
size_t mond_dicts_bytes(struct part *pt);
/* Its share of the sensitive values: their dictionary and what is made
 * of each. */
size_t mond_sens_dict_bytes(const struct part *pt);
/* b bytes in words for a message: MiB, or KiB below one MiB (rounded
 * down). */
void mond_size(char *buf, size_t n, size_t b);
/* Refuses -S (exit 2): "-S SIZE: too small: " and what, then where to
 * read and what to do (partition(1), -S). */
void mond_too_small(const struct part *pt, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));

/* ---- mondrian.c: the partitioning ---------------------------------- */

/* c ln c in fixed point (units of 2^-32): integers, so that sums of
 * them are exact and do not depend on the order they are added in. */
kn_i128 mond_x_log_x(struct part *pt, uint64_t c);

/* A regression score term: (sum of the target)^2 / n. */
long double mond_regression_term(kn_i128 ts, uint64_t n);

/* Whether a part of n rows, its sensitive values summing to s with
 * squares ss, meets k and variance diversity. */
int mond_k_var_ok(struct part *pt, uint64_t n, kn_i128 s, kn_i128 ss);

/* Whether the sensitive counts gath[0..m) of a part of n rows meet the
 * l-diversity asked for. */
int mond_gath_ok(struct part *pt, size_t m, uint64_t n);

/* ---- msens.c: the requirements on the sensitive columns ---------- */

/* After mond_load: each sensitive column's values (several columns),
 * and with --closeness the whole table's distribution of each; h[j]
 * is column j's hierarchy for the hierarchical distance, names[j] its
 * name for messages; with msvar each column's values as numbers. */
void msens_prepare(struct part *pt, kn_hier *const *h, char *const *names);
/* With msvar: whether the current row's sensitive values are numbers;
 * dies naming the first that is not. */
void msens_check_row(struct part *pt, kn_table *t);
/* Dies unless a sensitive column's largest value (absolute, a; as
 * written, w[0..wn)), squared, times its rows and one more is within
 * 2^127: out of core, its sums are exact. */
void msens_value_bound(const char *name, kn_i128 a, const char *w, int wn,
    uint64_t rows);
/* Dies: in one run in memory, a sum over the rows of sensitive column
 * name's values or their squares passes 2^127 at value w, of row i (from
 * 0); F is the column's scale. */
void msens_sums_die(const char *name, kn_str w, size_t i, int F)
    __attribute__((noreturn));
/* Dies: in a cluster's cuts job, the sum over the node's rows rows of
 * a sensitive column's squares (sens), or of a target's values, passes
 * 2^127; w is its largest value, F its scale. */
void msens_node_sums_die(int sens, const char *name, kn_str w,
    uint64_t rows, int F) __attribute__((noreturn));
/* With msvar, a cluster's cuts job: each column's sums of the absolute
 * values and of the squares over the node's groups (zeroed at first),
 * whether they passed 2^127, and its largest value (an sdicts id, and
 * its absolute number in top). */
struct msums {
	kn_i128 s[KN_MAXSENS], ss[KN_MAXSENS], top[KN_MAXSENS];
	uint32_t big[KN_MAXSENS];
	int over[KN_MAXSENS], seen;
};
/* Adds cnt rows of sensitive tuple x (a sens_dict id) to ms. */
void msens_sums_add(struct part *pt, struct msums *ms, uint32_t x,
    uint64_t cnt);
/* Dies naming the first column whose sums in ms passed 2^127 (names
 * for messages; rows, the node's). */
void msens_sums_check(struct part *pt, const struct msums *ms,
    char *const *names, uint64_t rows);
/* Whether a part whose sensitive values (sens_dict ids) have the
 * counts v[0..m) (ids distinct), n rows, meets l-diversity and
 * variance diversity in each column when there are several, and
 * t-closeness in each; v is scratch. */
int msens_pairs_ok(struct part *pt, kn_tval *v, size_t m, uint64_t n);
/* The same for a part of the node: its counts hist[x], or with compl
 * the node's totals less hist[x], over the values touched. */
int msens_side_ok(struct part *pt, const uint64_t *hist, int compl,
    uint64_t n);

/* ---- numkey.c: the numbers out of core, without a dictionary ---- */

/* A number's key: its value at the column's scale, the sign bit flipped
 * so that keys compare as the numbers do; 0 for a missing value, below
 * every number (a column cannot have both a missing value and
 * -2^63). */
/* The key of numeric dimension j, whose low word is at kw, in a record
 * of the spool: its high word is the record's word j, which only the
 * ranks of a node in memory use (numkey_layout). */
static inline uint64_t
numkey_get(const uint32_t *r, size_t j, size_t kw)
{
	return (uint64_t)r[j] << 32 | r[kw];
}

/* n hex digits at p, and v written as n of them: a key in the lines
 * of the sorts out of core (mload.c's hash check, rcut.c, rsens.c). */
static inline uint64_t
mond_hex_get(const char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v = v << 4 | (uint64_t)(p[i] <= '9' ? p[i] - '0' :
		    p[i] - 'a' + 10);
	return v;
}

static inline void
mond_hex_put(char *p, uint64_t v, int n)
{
	while (n-- > 0) {
		p[n] = "0123456789abcdef"[v & 15];
		v >>= 4;
	}
}

/* Sets that key. */
static inline void
numkey_put(uint32_t *r, size_t j, size_t kw, uint64_t key)
{
	r[j] = (uint32_t)(key >> 32);
	r[kw] = (uint32_t)key;
}

static inline int64_t
numkey_value(uint64_t key)
{
	return (int64_t)(key ^ ((uint64_t)1 << 63));
}

/* The key of number v: its sign bit flipped, so that keys sort as the
 * numbers do. */
static inline uint64_t
numkey_of(int64_t v)
{
	return (uint64_t)v ^ ((uint64_t)1 << 63);
}

/* A record's sensitive value and target as the groups carry them: the
 * key of a keyed one (struct part), else the dictionary's id, or 0
 * without. */
static inline uint64_t
mond_sens_of(const struct part *pt, const uint32_t *r)
{
	if (pt->sens_keyed)
		return numkey_get(r, pt->dims[pt->nqi].hword,
		    pt->dims[pt->nqi].kword);
	return pt->has_sens ? r[pt->word_sens] : 0;
}

/* Keyed by hash (sens_sorted), the key of a record's value in
 * sensitive column c. */
static inline uint64_t
mond_sens_col(const struct part *pt, const uint32_t *r, size_t c)
{
	uint64_t k = numkey_get(r, pt->dims[pt->nqi + c].hword,
	    pt->dims[pt->nqi + c].kword), *s = pt->tcpm[c].slot;
	size_t i;

	if (s == NULL)
		return k;
	/* The keys are hashes: their low bits place them. */
	for (i = (size_t)k & pt->tcpm[c].mask; s[2 * i + 1] != 0 &&
	    s[2 * i] != k; i = (i + 1) & pt->tcpm[c].mask)
		;
	if (s[2 * i + 1] == 0)
		kn_die("internal error: a sensitive value's hash %016llx is "
		    "not among the table's", (unsigned long long)k);
	return s[2 * i + 1] - 1;
}

/* With --variance (sens_sorted), the number of a record's value in
 * sensitive column c, at the column's scale (dims[nqi + nshd + c].S). */
static inline int64_t
mond_snum_col(const struct part *pt, const uint32_t *r, size_t c)
{
	c += pt->nshd;
	return numkey_value(numkey_get(r, pt->dims[pt->nqi + c].hword,
	    pt->dims[pt->nqi + c].kword));
}

static inline uint64_t
mond_targ_of(const struct part *pt, const uint32_t *r)
{
	/* Keyed by number or by hash: the last keyed dimension. */
	if (pt->targ_keyed || pt->targ_hashed)
		return numkey_get(r, pt->dims[pt->nkd - 1].hword,
		    pt->dims[pt->nkd - 1].kword);
	return pt->split != SPLIT_MEDIAN ? r[pt->word_targ] : 0;
}

/* The number of sensitive value s, or of target y, so carried, at the
 * column's scale (sens_F, targ_F). */
static inline kn_i128
mond_sval(const struct part *pt, uint64_t s)
{
	return pt->sens_keyed ? (kn_i128)numkey_value(s) : pt->sens_val[s];
}

static inline kn_i128
mond_tval(const struct part *pt, uint64_t y)
{
	return pt->targ_keyed ? (kn_i128)numkey_value(y) : pt->targ_val[y];
}

/* Sets the words of the spool's records: the in-memory record, then
 * two words for each numeric QI's key. */
void numkey_layout(struct part *pt);
/* Writes the nb rows loaded in pt->rec, their numbers in dm->raw and
 * dm->rsc, to the spool as records of keys: here, or with a ring
 * (pt->nkr) packed on the threads that call numkey_ring_work while the
 * next chunk is loaded into arrays of the ring's, and written in order. */
void numkey_flush(struct part *pt, size_t nb);
/* The ring of nslots chunks (their bytes: numkey_ring_bytes), under mu:
 * a chunk queued is broadcast on more, which the threads wait on, and
 * one packed on done; pt->rec and the numbers' arrays become its first
 * chunk's.  numkey_ring_work, with mu
 * held, packs a chunk waiting if there is one (mu released meanwhile)
 * and says whether it did; numkey_ring_end, once the last chunk is
 * flushed, writes those not yet written and leaves pt->rec and the
 * arrays as numkey_flush finds them without a ring. */
size_t numkey_ring_bytes(const struct part *pt, size_t nslots);
void numkey_ring_new(struct part *pt, size_t nslots, pthread_mutex_t *mu,
    pthread_cond_t *more, pthread_cond_t *done);
int numkey_ring_work(struct part *pt);
void numkey_ring_end(struct part *pt);
/* Once the rows are spooled: each numeric QI's scale and extremes, or
 * the error of a number that does not fit 64 bits at that scale. */
void numkey_finish(struct part *pt, struct dim *dm);
/* Brings the keys of records buf[0..n) of the spool's chunk c to the
 * column's scale. */
void numkey_rescale(struct part *pt, uint32_t *buf, size_t n, uint64_t c);

/* Node files in packed blocks (numkey.c): writes the n records at recs,
 * the first of which is record first of the file, and returns the
 * bytes written; reads the next block into out (room for MOND_CHUNK
 * records) through buf (numkey_group_bytes), adds its bytes to *bytes
 * and returns its records, 0 at the end.  Both die on an error, with
 * the file's path. */
size_t numkey_write(const struct part *pt, FILE *f, const char *path,
    const uint32_t *recs, size_t n, uint64_t first);
size_t numkey_group_bytes(const struct part *pt);
size_t numkey_read(const struct part *pt, FILE *f, const char *path,
    uint32_t *out, uint64_t *bytes, unsigned char *buf);

/* ---- mondrian.c, continued ---------------------------------------- */

/* Whether a part meets every requirement.  Its sensitive counts are
 * hist[x], or with compl the node's totals less hist[x]. */
int mond_side_ok(
    struct part *pt, const struct side *sd, const uint64_t *hist, int compl );

/* Whether dimension j is cut by its hierarchy. */
int mond_is_hier(struct part *pt, size_t j);

int mond_cmp_u32(const void *a, const void *b);

/* Whether a cut scoring (isc, sc) with balance dist beats the best so
 * far: a higher score; on a tie (regression: within rounding) the more
 * balanced cut, so that a pure node is halved rather than peeled. */
int mond_cut_better(struct part *pt, const struct cut *best, kn_i128 isc,
    long double sc, uint64_t dist);

/* The child of the node of dimension j that holds code c. */
uint32_t mond_child_of(struct part *pt, size_t j, uint32_t c);

/* From the node's extents: each hierarchy's lowest common ancestor,
 * the normalized widths, and which dimensions can be cut. */
void mond_widths(struct part *pt);

/* Counts the node's totals and extents. */
/* The extents (min[nqi], then max[nqi]) of the records [b, e) into ext,
 * a slice a thread on nt threads. */
void mond_extents(const struct part *pt, size_t b, size_t e, uint32_t *ext,
    int nt);
void mond_node_totals(struct part *pt, size_t b, size_t e, const uint32_t *ext);

/* Clears the node's total counts. */
void mond_node_clear_totals(struct part *pt);
/* Clears the sensitive and label counts hs and hl of the values the
 * node touches (stouch, ltouch). */
void mond_clear_touched(struct part *pt, uint64_t *hs, uint64_t *hl);

/* Writes the header line of the regions file. */
void mond_regions_header(struct part *pt, FILE *fp);

/* Writes the region of class id: n rows, the node's extents, and per
 * numeric dimension the sum of its values (scaled) for the mean. */
void mond_region(struct part *pt, uint32_t id, uint64_t n, const kn_i128 *sums);
/* The statistics of a class's region, per numeric dimension: cleared,
 * then cnt rows of rank c of dimension j added at a time. */
void mond_region_clear(struct part *pt);
void mond_region_add(struct part *pt, size_t j, uint32_t c, uint64_t cnt);

/* Notes that row belongs to class id: in row_class when there is one
 * (in memory; out of core, a node in memory's, by its rows' places in
 * it), else as a pair in the pairs file. */
void mond_class_assign(struct part *pt, uint32_t row, uint32_t id);

/* Orders the dimensions by normalized width, widest first. */
int mond_cmp_width(struct part *pt, uint32_t a, uint32_t b, const void *ctx);

/* A new tree node. */
size_t mond_tree_node_new(struct part *pt, uint64_t depth);

/* Says that the whole table (name: the input, or NULL) of n rows does
 * not meet the requirements, and exits 1. */
void mond_no_solution(const char *name, uint64_t n)
    __attribute__((noreturn));

/* Allocates the scratch indexed by rows (rec_tmp, key, perm, perm_tmp,
 * grp, cnt) for m rows, on huge pages when large (kn_alloc_large). */
void mond_scratch_rows(struct part *pt, size_t m);
/* Allocates the scratch of mond_partition() for the nrows rows in rec, or
 * frees it with the rows. */
void mond_scratch_alloc(struct part *pt, int get);

/* Partitions all rows: Figure 7 of paper 003 with an explicit stack. */
void mond_partition(struct part *pt);
/* Pushes the segment [b,e) of the rows with the extents ext (min[d],
 * max[d]) on the stack of the nodes to cut. */
void mond_stack_push(struct part *pt, uint64_t b, uint64_t e,
    const uint32_t *ext);
/* Takes the node on top of the stack: cuts it, its parts pushed
 * leftmost on top, or makes it a class; ord is scratch of 2 * nqi + 1
 * codes.  mond_partition's loop, and a thread's in mpar.c. */
void mond_step(struct part *pt, uint32_t *ord);

int mond_cmp_u64pair(const void *a, const void *b);

/* Once the rows are read: codes for the values, exact scales for the
 * sums, and the scratch of the nodes. */
void mond_prepare(struct part *pt, const char *scol, const char *tcol);

#endif
