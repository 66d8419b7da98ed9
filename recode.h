/*
 * recode.h: what recode's main (recode.c) shares with the release by
 * partition's regions (regions.c): the recoding's hooks and the
 * regions.  recode's own.
 */
#ifndef RECODE_H
#define RECODE_H

#include "kanon.h"
#include "keyset.h"
#include "rowpar.h"

/* A generated hierarchy forgets its values past this many in the
 * writing pass, so memory stays bounded. */
#define GEN_RESET (1 << 18)

/*
 * A recoding: which columns are quasi-identifiers, how the first pass
 * counts the classes and how a row's QI labels are found.  A lattice
 * node fills in these hooks, and so do partition's regions.
 */
struct recoding {
	const char *what;	/* what a QI is called in messages */
	size_t nq;
	size_t *qcol;		/* the QI columns of the table */
	long cls;		/* the class column of the table, or -1 */
	/* Extra output columns: column j, named xname[j], follows table
	 * column xcol[j] and holds label nq + j. */
	size_t nx;
	size_t *xcol;
	char **xname;
	/* Counts the classes of the rest of t (keyed last on the ns
	 * columns scol), calling out for each group in order. */
	void (*count)(struct recoding *, kn_table *, const size_t *scol,
	    size_t ns, kn_fsout out, kn_freqstats *st);
	/* Sets lab[0..nq + nx) to the labels of the current row of t. */
	void (*label)(struct recoding *, kn_table *, kn_str *lab);
	/* If not NULL: checks what the last pass read, at its end. */
	void (*done)(struct recoding *);
	/* If not NULL, the rows may be labelled on the threads of -j
	 * (rowpar.c): a thread's own state (NULL when none can be made),
	 * the labels of row f on it (0, or -1 when the main thread must
	 * label the row with label), leaving in rec what the main thread
	 * checks in the order of the rows with tcommit (if not NULL: 0
	 * when the main thread must label the row). */
	void *(*tnew)(struct recoding *, int nt);
	void (*tfree)(struct recoding *, void *ts);
	int (*tlabel)(struct recoding *, void *ts, const kn_str *f,
	    kn_str *lab, rowpar_buf *rec);
	int (*tcommit)(struct recoding *, const char **rec);
	void *priv;
	size_t *used, nused;	/* the columns read (kn_table_carry) */
};

enum { SUM_RANGE, SUM_MEAN, SUM_BOTH };

/*
 * partition's regions (-r): per class its row count and, per
 * quasi-identifier, the min, max and mean of a numeric attribute or the
 * hierarchy node of a categorical one.  The labels of each class are
 * made once, as they are written: its QIs', then its class id, then
 * with --summary both the means.  A row finds them by its class.
 */
struct regions {
	const char *path;
	const char *iname;	/* the input, for messages */
	size_t nqi;		/* quasi-identifiers */
	size_t nl;		/* labels per class */
	size_t n, cap;		/* classes */
	kn_dict ids;		/* class id -> index */
	uint64_t *count;	/* their count column */
	uint64_t *line;		/* their line in path */
	kn_str *lab;		/* n * nl labels */
	uint64_t *seen;		/* rows of each class read in this pass */
	int part;		/* --part: the input is a part of the table */
	size_t classcol;
	int *num;		/* per QI: numeric (min, max, mean), or a node */
	kn_hier **h;		/* per QI with a node: its hierarchy (-H) */
	char **qname;		/* per QI: its name in the table */
	struct bound *bd;	/* n * nqi: the numeric QIs' ranges */
	const char *dates;	/* --date: the date columns of the table */
	int *dform;		/* per QI: its date form, or KN_DATE_NONE */
	/* not --part: the numbers of each class added up (rstats.c),
	 * each column's most decimals (qsc), the last number region_fit
	 * read (fitm / 10^fitsc); out of core, in the record of counts */
	int sums;
	int *qsc;
	kn_i128 fitm;
	int fitsc;
	kn_i128 *tvm;		/* a thread's numbers of its row (-j) */
	int *tvs;
	uint64_t *smem;		/* beside cmem: the records' sums */
	char why[192];		/* why a value is not a date */
	/* for the count hook */
	size_t budget;		/* -S */
	int jobs;		/* -j */
	const char *tmpdir;	/* -T */
	kn_input *in;
	const char *columns;
	kn_fsout out;
	kn_str *key;
	int skey, unknown, outside;
	int have;		/* a group (class gx, value gs) is pending */
	size_t gx;
	char *gs;
	size_t gsn, gscap;
	char *sj;		/* several sensitive values, joined */
	size_t sjcap;
	uint64_t gcnt;
	/* what a region's line needs to be read again (region_parse) */
	size_t *fld;		/* per QI: its first field */
	char **hname;		/* the header's fields */
	size_t nh;
	int summary;
	char **txt;		/* per class in memory: its line */
	size_t *txtlen;
	void **walloc;		/* the labels' memory */
	size_t nwalloc, wacap;
	size_t mem;		/* bytes the regions in memory hold, about */
	/* Out of core (regions.c): the regions in ks, the rows read of
	 * each in the file cpath; in memory the window, slot 0. */
	int ooc;
	keyset ks;
	uint64_t nall;		/* the regions */
	int cfd;
	char *cpath;
	uint64_t *crec;		/* a record of counts */
	unsigned char *cset;	/* per region: its counts are on disk */
	unsigned char *cmem;	/* or all the counts, cw bytes each */
	size_t cw;
	uint64_t maxcnt;	/* the largest count */
	/* the class of least line whose rows passed its count too far for
	 * cmem: its line, count, rows and id */
	unsigned long long ovline;
	uint64_t ovcnt, ovseen;
	char *ovid;
	int64_t wrank;		/* the window's rank in ks, or -1 */
	char *wline;
	size_t wcap;
	char prev[20];		/* the sort's last id, for the check of */
	unsigned long long prevline, dupline, dupfirst;	/* ids named */
	uint64_t dupid;		/* twice */
	/* Out of core, the rows joined with the regions (regions_join):
	 * the labels of each row, in the rows' order, read from jr */
	int joined;
	int jgroups;		/* the first pass's groups passed on */
	int jover, jmiss;	/* a class passed its count, its missing */
	kn_sorter *jlab;	/* the labels by row, while joining */
	char *jbuf;
	size_t jcap;
	kn_reader jr;
	char *jpath;
	FILE *jctx;		/* jpath while written */
	/* while joining: the regions read in order (jks, the line jl
	 * of rank jrank if jhave), the counts written in order (jcf,
	 * up to record jcnext; jzero a record of zeros) */
	FILE *jks, *jcf;
	char *jl;
	size_t jlcap;
	int jhave;
	uint64_t jrank, jcnext;
	uint64_t *jzero;
	kn_str *jf;		/* a joined line's fields */
};

/* The range of a numeric quasi-identifier in a region: its min and max,
 * as numbers and as written, its mean as written, and what its rows
 * read hold. */
struct bound {
	/* what every row's value is checked against, first */
	kn_i128 lo, hi;
	int slo, shi;
	int nonum;		/* all of them */
	/* what the rows read so far hold (rstats.c): the sum of their
	 * numbers (days, seconds) at scale ssc (over: past 127 bits),
	 * whether the min (bit 0) and the max (bit 1) were among them */
	signed char ssc;
	unsigned char over, hit;
	kn_i128 sum;
	uint64_t miss;		/* rows whose value is missing */
	uint64_t mseen;		/* of them, read so far */
	/* the min, max and mean as written, for messages */
	const char *los, *his, *means;
};

/* rstats.c: adds a number m / 10^sc of the class of b; *qsc gets the
 * most decimals of the column's.  rstats_class: whether the numbers of
 * quasi-identifier q read of a class of cnt rows (its bound b) are
 * wrong (0: they are right); rstats_class_die names what, of the class
 * cid of line ln.  rstats_bound: out of core, the bound of q of a
 * region from its fields f (checked when first read) and its record's
 * sums w.  rstats_io: the window's sums into the words w of its record
 * (put), or back; returns their bits or'ed. */
void rstats_take(struct bound *b, kn_i128 m, int sc, int *qsc);
int rstats_class(const struct regions *rg, const struct bound *b, size_t q,
    uint64_t cnt);
void rstats_class_die(const struct regions *rg, const struct bound *b,
    size_t q, uint64_t cnt, const char *cid, unsigned long long ln, int bad)
    __attribute__((noreturn));
void rstats_bound(const struct regions *rg, size_t q, char **f,
    const uint64_t *w, struct bound *b);
uint64_t rstats_io(struct regions *rg, uint64_t *w, int put);

/* Forgets a generated hierarchy's leaves past GEN_RESET or room bytes. */
void regions_hier_bound(kn_hier *h, size_t room);
/* Splits s at tabs in place; returns the fields (n of them). */
char **regions_tabsplit(char *s, size_t *n);
/* Waits until fd has something to read (a FIFO's writer, or the end). */
void regions_wait_input(int fd);
/* Reads the regions file rg->path and checks it against table t, whose
 * header has been read; fills in rc's hooks' state (kanon(7)). */
void regions_read(struct recoding *rc, struct regions *rg, const kn_table *t,
    int summary, const char *ccol, const kn_hopts *ho);
/* The hooks of a recoding by regions: the first pass's count, a row's
 * labels, and the check at the end of the pass that labels. */
void regions_count(struct recoding *rc, kn_table *t, const size_t *scol,
    size_t ns, kn_fsout out, kn_freqstats *st);
void regions_label(struct recoding *rc, kn_table *t, kn_str *lab);
/* Regions out of core (rg->ooc), without a first pass: the rows of t
 * joined with them, so that the pass that labels them reads no region
 * (unless a row does not match them: that pass then names it).  The
 * input is read again after. */
void regions_join(struct recoding *rc, kn_table *t);
void regions_done(struct recoding *rc);
/* The hooks of the threads of -j, regions in memory only (rg->ooc 0). */
void *regions_tnew(struct recoding *rc, int nt);
void regions_tfree(struct recoding *rc, void *ts);
int regions_tlabel(struct recoding *rc, void *ts, const kn_str *f,
    kn_str *lab, rowpar_buf *rec);
int regions_tcommit(struct recoding *rc, const char **rec);

#endif
