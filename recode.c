/*
 * recode: the table to release.  Each row's quasi-identifiers are
 * generalized by a recoding, and the rows of classes that are too small
 * (-k) or not diverse enough (-l) are suppressed; every other column
 * passes through as it is.
 *
 * The recoding is a lattice node (-n): full-domain generalization, each
 * attribute replaced by its ancestor at one level of its hierarchy
 * (paper 000, "Full Domain Generalization"; the domain and value
 * generalization hierarchies and Definitions 2.2 and 3.1 of paper 002),
 * with the suppression of small classes that lattice-search assumes.
 * Or it is partition's regions (-r): each row's quasi-identifiers are
 * replaced by the summary statistics of its class, the range (paper 003
 * Figure 3), the mean (§5) or both (Figure 8).
 * l-diversity as in paper 004 §1.1.
 *
 * Suppressing takes two passes: the first counts the classes (within
 * -S) and keeps only the set of failing ones (on disk past a share of
 * -S, keyset.c), the second writes the rows.  Input that cannot be
 * read twice is spooled to a temp file.
 * With --classes the first pass is made from the frequency set of the
 * whole table instead, and the rows are read once, as they come: a
 * mapper of Hadoop Streaming or Spark's pipe() recodes any split of
 * them (DESIGN.md, "Scale").
 *
 * What recode releases by is checked against the rows it reads, so
 * that a stale frequency set or the regions of another run cannot
 * release a class smaller than its count, or a range that does not
 * hold the rows: no class may have more rows than counted, and unless
 * --part says the input is a split, each must have exactly its count;
 * with -r each row must lie in its class's region.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kanon.h"
#include "recode.h"
#include "keyset.h"
#include "cvals.h"
#include "tcdisk.h"

static const char synopsis[] =
    "usage: recode -n node [-v] [-H attr=spec|dir] [-k k] "
    "[--max-suppress n|p%]\n"
    "              [--classes file [--part]] [-s columns [-l l "
    "[--diversity kind]\n"
    "              [-c c]] [--closeness t [--distance d]]] "
    "[--suppress star|drop]\n"
    "              [-x columns] [-j n] [-o file] [-S size]\n"
    "              [-T dir] [--columns list | --columns-file file] "
    "[--skip-header]\n"
    "              [--progress] [--raw] [file]\n"
    "       recode -r regions [--summary range|mean|both] "
    "[--keep-class]\n"
    "              [--class-col name] [--part] [the options of -n "
    "but --classes]\n"
    "              [file]\n";

static const char help[] =
    "The table to release: generalized to a lattice node (-n), or each "
    "class\n"
    "summarized by partition's regions (-r); classes below k "
    "suppressed.\n"
    "\n"
    "  -n NODE              the node: COL=LEVEL,... or lattice-search's "
    "output\n"
    "  -r REGIONS           partition's regions file: each class's "
    "region\n"
    "  --summary HOW        with -r: range (the default), mean or both\n"
    "  --keep-class         with -r: keep the class column\n"
    "  --class-col NAME     with -r: the class column (default class)\n"
    "  --classes FILE       with -n: count the classes in this frequency "
    "set\n"
    "  --part               the input is a part of the table (-r, "
    "--classes)\n"
    "  --max-suppress N|P%  fail rather than suppress more than N rows, "
    "or P%\n"
    "  --suppress HOW       star (the default: * for the "
    "quasi-identifiers) or drop\n"
    "  -x COLUMNS           drop these columns (direct identifiers)\n"
    "  --raw                a column named count is data, not a count\n"
    "  -S SIZE              memory budget (64M, 1G...): beyond it, temp "
    "files\n"
    "  -v                   print rows, classes and suppressed rows on "
    "stderr\n";

/* The short options, for getopt_long and kn_opt_error. */
#define OPTSTRING "H:S:T:c:hj:k:l:n:o:r:s:vx:"

static void __attribute__((noreturn))
usage(int status)
{
	if (status == 0)
		kn_help(synopsis, help, KN_HELP_HIER | KN_HELP_REQ |
		    KN_HELP_TABLE | KN_HELP_OCSV | KN_HELP_MISSING |
		    KN_HELP_DATE | KN_HELP_TMP | KN_HELP_PROGRESS |
		    KN_HELP_JOBS);
	fputs(synopsis, stderr);
	exit(status);
}

enum { OPT_CLASSCOL = 256, OPT_CLASSES, OPT_KEEPCLASS, OPT_MAXSUPP, OPT_PART, OPT_RAW, OPT_SUMMARY,
    OPT_SUPPRESS };

static const struct option longopts[] = {
	{ "class-col", required_argument, NULL, OPT_CLASSCOL },
	{ "classes", required_argument, NULL, OPT_CLASSES },
	KN_TABLE_OPTIONS,
	KN_OPT_MISSING_ENTRY,
	KN_OUT_OPTIONS,
	KN_OPT_DATE_ENTRY,
	KN_OPT_CLOSENESS_ENTRIES,
	KN_OPT_DIVERSITY_ENTRY,
	{ "help", no_argument, NULL, 'h' },
	{ "keep-class", no_argument, NULL, OPT_KEEPCLASS },
	{ "max-suppress", required_argument, NULL, OPT_MAXSUPP },
	KN_OPT_PROGRESS_ENTRY,
	{ "raw", no_argument, NULL, OPT_RAW },
	{ "summary", required_argument, NULL, OPT_SUMMARY },
	{ "part", no_argument, NULL, OPT_PART },
	{ "suppress", required_argument, NULL, OPT_SUPPRESS },
	KN_OPT_VERSION_ENTRY,
	{ NULL, 0, NULL, 0 }
};


/* The options. */
static struct {
	kn_req req;
	int drop;		/* --suppress drop */
	int haslim;		/* --max-suppress given */
	kn_limit lim;
	size_t budget;
	const char *tmpdir;
	int jobs;		/* -j */
} o;


/* ---- node mode ------------------------------------------------------ */

/* An attribute of a node as written, before it is checked against the
 * table. */
struct nattr {
	char *name, *level;
};

struct node {
	char *where;		/* the node's origin, for messages */
	size_t n;
	struct nattr *a;
	kn_hier **h;
	int *lv;
};


/* Reads a node file: lattice-search output, whose columns before
 * 'suppressed' name the attributes and whose first row holds their
 * levels (best first: the rest is ignored). */
/* The columns lattice-search writes after the levels. */
static const char *const metric[] = { "suppressed", "classes", "cdm",
    "cavg", "height", "prec", "loss" };
#define NMETRIC (sizeof(metric) / sizeof(metric[0]))

static void
node_file(struct node *nd, const char *path)
{
	kn_reader r;
	char *hdr, **name, **val;
	size_t nh, nv, i, sup;

	kn_reader_open(&r, path);
	if (!kn_getline(&r))
		kn_die("%s: empty node file: expected a header line and a "
		    "node, as lattice-search writes them", path);
	hdr = kn_strndup(r.line, r.len);
	name = regions_tabsplit(hdr, &nh);
	/* The attributes are the columns before the metrics lattice-search
	 * writes last (an attribute may be named like a metric). */
	for (i = 0; i < NMETRIC; i++)
		if (nh < NMETRIC || strcmp(name[nh - NMETRIC + i],
		    metric[i]) != 0)
			kn_die("%s:1: expected the header of lattice-search "
			    "output, ending in suppressed, classes, cdm, cavg, "
			    "height, prec, loss", path);
	sup = nh - NMETRIC;
	if (sup == 0)
		kn_die("%s:1: no attribute columns before 'suppressed'", path);
	if (!kn_getline(&r))
		kn_die("%s: no node: expected a data row after the header",
		    path);
	val = regions_tabsplit(kn_strndup(r.line, r.len), &nv);
	if (nv != nh)
		kn_die("%s:2: expected %zu fields, found %zu", path, nh, nv);
	kn_reader_close(&r);
	nd->n = sup;
	nd->a = kn_alloc(sup * sizeof(struct nattr));
	for (i = 0; i < sup; i++) {
		nd->a[i].name = name[i];
		nd->a[i].level = val[i];
	}
	nd->where = kn_alloc(strlen(path) + 8);
	snprintf(nd->where, strlen(path) + 8, "%s:2", path);
	free(name);
}

/* Reads the node of -n: a file if one has that name, else a list
 * attr=level,... */
static struct node *
node_read(const char *arg)
{
	struct node *nd = kn_zalloc(sizeof(*nd));
	struct stat st;
	char *s, *item, *eq, *save = NULL;
	size_t cap = 0;

	if (stat(arg, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			kn_die("-n %s: is a directory", arg);
		node_file(nd, arg);
		return nd;
	}
	if (strchr(arg, '=') == NULL)
		kn_die("-n '%s': no such node file, nor a list "
		    "attr=level,...", arg);
	s = kn_strdup(arg);
	if (*s == '\0' || *s == ',' || s[strlen(s) - 1] == ',' ||
	    strstr(s, ",,") != NULL)
		kn_die("-n %s: empty item: expected attr=level,...", arg);
	for (item = strtok_r(s, ",", &save); item != NULL;
	    item = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(item, '=')) == NULL || eq == item)
			kn_die("-n %s: '%s': expected attr=level", arg, item);
		*eq = '\0';
		nd->a = kn_grow(nd->a, &cap, nd->n, sizeof(struct nattr), 8);
		nd->a[nd->n].name = item;
		nd->a[nd->n++].level = eq + 1;
	}
	nd->where = kn_alloc(strlen(arg) + 4);
	snprintf(nd->where, strlen(arg) + 4, "-n %s", arg);
	return nd;
}

/* Checks the node against table t and loads its hierarchies. */
static void
node_resolve(struct recoding *rc, struct node *nd, const kn_table *t,
    const kn_hopts *ho)
{
	const char *tname = t->headerless ? "--columns" : t->r.name;
	char **names;
	size_t i, j, c;

	rc->what = "node attribute";
	rc->cls = -1;
	rc->nq = nd->n;
	rc->qcol = kn_alloc((nd->n + 1) * sizeof(size_t));
	nd->h = kn_zalloc((nd->n + 1) * sizeof(kn_hier *));
	nd->lv = kn_zalloc((nd->n + 1) * sizeof(int));
	names = kn_alloc((nd->n + 1) * sizeof(char *));
	for (i = 0; i < nd->n; i++) {
		const char *a = nd->a[i].name, *l = nd->a[i].level, *p;

		for (c = 0; c < t->ncols && strcmp(t->names[c], a) != 0; c++)
			;
		for (p = a; *p >= '0' && *p <= '9'; p++)
			;
		if (c == t->ncols && *p == '\0')
			c = kn_table_col(t, a);	/* a column number */
		if (c == t->ncols)
			kn_die("%s: attribute '%s' is not a column of %s",
			    nd->where, a, tname);
		for (j = 0; j < i; j++)
			if (rc->qcol[j] == c)
				kn_die("%s: attribute '%s' is named twice",
				    nd->where, a);
		rc->qcol[i] = c;
		names[i] = t->names[c];
		for (p = l; *p >= '0' && *p <= '9'; p++)
			;
		if (p == l || *p != '\0')
			kn_die("%s: attribute '%s': level '%s' is not a "
			    "number", nd->where, a, l);
	}
	/* -H for an attribute outside the node is most likely a typo. */
	kn_hopts_check(ho, names, nd->n);
	for (i = 0; i < nd->n; i++) {
		const char *a = names[i];
		long lv = strtol(nd->a[i].level, NULL, 10);

		if ((nd->h[i] = kn_hopts_get(ho, a)) == NULL)
			kn_die("%s: attribute '%s' has no hierarchy (give one "
			    "with -H)", nd->where, a);
		if (lv >= nd->h[i]->nlevels)
			kn_die("%s: attribute '%s': level %s is out of range: "
			    "its hierarchy (%s) has %d levels, 0 to %d",
			    nd->where, a, nd->a[i].level, nd->h[i]->src,
			    nd->h[i]->nlevels, nd->h[i]->nlevels - 1);
		nd->lv[i] = (int)lv;
	}
	free(names);
	rc->priv = nd;
}

/* A thread's own hierarchies of a node (-j), and its share of the room
 * the generated ones may take. */
struct nthread {
	kn_hier **h;
	size_t room;
};

static void
node_tfree(struct recoding *rc, void *ts)
{
	struct nthread *th = ts;
	size_t i;

	for (i = 0; i < rc->nq; i++)
		kn_hier_free(th->h[i]);
	free(th->h);
	free(th);
}

static void *
node_tnew(struct recoding *rc, int nt)
{
	struct node *nd = rc->priv;
	struct nthread *th = kn_alloc(sizeof(*th));
	size_t i;

	th->h = kn_zalloc((rc->nq + 1) * sizeof(kn_hier *));
	th->room = o.budget / (4 * rc->nq * (size_t)nt);
	for (i = 0; i < rc->nq; i++)
		if ((th->h[i] = kn_hier_clone(nd->h[i])) == NULL) {
			node_tfree(rc, th);
			return NULL;
		}
	return th;
}

/* node_label on a thread: -1 at a value that is not a leaf, which the
 * main thread reports. */
static int
node_tlabel(struct recoding *rc, void *ts, const kn_str *f, kn_str *lab,
    rowpar_buf *rec)
{
	struct nthread *th = ts;
	struct node *nd = rc->priv;
	const char *err;
	int64_t id;
	size_t i;

	(void)rec;
	for (i = 0; i < rc->nq; i++) {
		kn_hier *h = th->h[i];
		kn_str v = f[rc->qcol[i]];

		regions_hier_bound(h, th->room);
		if ((id = kn_hier_leaf(h, v.p, v.n, &err)) < 0)
			return -1;
		lab[i] = kn_dict_get(&h->lab[nd->lv[i]],
		    kn_hier_lift(h, (uint32_t)id, 0, nd->lv[i]));
	}
	return 0;
}

static void node_label(struct recoding *, kn_table *, kn_str *);

/* The first pass of a node on the threads of -j (kn_countspec's tkey):
 * each row's key is its labels, then its sensitive values. */
struct nkey {
	struct recoding *rc;
	const size_t *scol;
	size_t ns;
};

static void *
nkey_tnew(void *ctx, int nt)
{
	return node_tnew(((struct nkey *)ctx)->rc, nt);
}

static void
nkey_tfree(void *ctx, void *ts)
{
	node_tfree(((struct nkey *)ctx)->rc, ts);
}

static int
nkey_key(void *ctx, void *ts, const kn_str *f, kn_str *key)
{
	struct nkey *nk = ctx;
	size_t j;

	if (node_tlabel(nk->rc, ts, f, key, NULL) < 0)
		return -1;
	for (j = 0; j < nk->ns; j++)
		key[nk->rc->nq + j] = f[nk->scol[j]];
	return 0;
}

/* A row nkey_key refused, reported as one thread reports it. */
static void
nkey_fail(void *ctx, kn_table *t)
{
	struct nkey *nk = ctx;
	kn_str *lab = kn_alloc((nk->rc->nq + nk->rc->nx + 1) *
	    sizeof(kn_str));

	node_label(nk->rc, t, lab);
	free(lab);
}

/* The frequency set of t at the node's levels, keyed on t's columns
 * qcol (one per attribute of the node) and last on the ns columns scol,
 * each line weighed by the count column *cnt of a frequency set if not
 * NULL: Incognito's counting. */
static void
node_freq(struct recoding *rc, kn_table *t, const size_t *qcol,
    const size_t *scol, size_t ns, const size_t *cnt, kn_fsout out,
    kn_freqstats *st)
{
	struct node *nd = rc->priv;
	size_t d = rc->nq + ns, c;
	size_t *key = kn_alloc((d + 1) * sizeof(size_t));
	kn_hier **h = kn_zalloc((d + 1) * sizeof(kn_hier *));
	int *lv = kn_zalloc((d + 1) * sizeof(int));
	kn_dict *dict = kn_alloc((d + 1) * sizeof(kn_dict));
	kn_countspec cs;
	struct nkey nk = { rc, scol, ns };

	for (c = 0; c < d; c++) {
		kn_dict_init(&dict[c]);
		if (c < rc->nq) {
			key[c] = qcol[c];
			h[c] = nd->h[c];
			lv[c] = nd->lv[c];
		} else
			key[c] = scol[c - rc->nq];
	}
	memset(&cs, 0, sizeof(cs));
	cs.d = d;
	cs.key = key;
	cs.dict = dict;
	cs.hier = h;
	if (cnt != NULL) {
		cs.hascount = 1;
		cs.cntcol = *cnt;
	} else {
		/* The table's rows: labelled on the threads of -j. */
		cs.jobs = o.jobs;
		cs.tnew = nkey_tnew;
		cs.tfree = nkey_tfree;
		cs.tkey = nkey_key;
		cs.tfail = nkey_fail;
		cs.tctx = &nk;
	}
	/* Half of -S: the classes to suppress, the regions and the
	 * hierarchies share the rest. */
	kn_freq(t, &cs, lv, o.budget / 2, o.tmpdir, out, NULL, st);
	for (c = 0; c < d; c++)
		kn_dict_free(&dict[c]);
	free(dict);
	free(lv);
	free(h);
	free(key);
}

/* The first pass of a node: the frequency set of the table. */
static void
node_count(struct recoding *rc, kn_table *t, const size_t *scol,
    size_t ns, kn_fsout out, kn_freqstats *st)
{
	node_freq(rc, t, rc->qcol, scol, ns, NULL, out, st);
}

/* The labels of the row's attributes at the node's levels; every value
 * must be a leaf, also at level 0. */
static void
node_label(struct recoding *rc, kn_table *t, kn_str *lab)
{
	struct node *nd = rc->priv;
	const char *err;
	int64_t id;
	size_t i;

	for (i = 0; i < rc->nq; i++) {
		kn_hier *h = nd->h[i];
		kn_str v = t->f[rc->qcol[i]];

		regions_hier_bound(h, o.budget / (4 * rc->nq));
		id = kn_hier_leaf(h, v.p, v.n, &err);
		if (id < 0)
			kn_table_fail(t, rc->qcol[i], "'%.*s': %s (%s)",
			    (int)v.n, v.p, err, h->src);
		lab[i] = kn_dict_get(&h->lab[nd->lv[i]],
		    kn_hier_lift(h, (uint32_t)id, 0, nd->lv[i]));
	}
}

/* ---- the classes -------------------------------------------------- */

/* The counts of the first pass and the class being read: groups arrive
 * in order of (QI labels..., S label), so a class is a run of groups
 * with equal QI labels.  With --classes every class is kept, not only
 * the failing ones. */
static struct {
	size_t nq;
	int skey;
	size_t ns;		/* sensitive columns */
	uint64_t rows, classes, supp, suppcls;
	kn_dict fail;		/* the failing classes' joined labels */
	int failspill;		/* they outgrew memory: failset holds them */
	keyset failset;
	int have;
	char *key;
	size_t keylen, keycap;
	uint64_t n;
	uint64_t *vals;		/* a class's sensitive counts */
	size_t valcap;
	/* --classes */
	const char *path;	/* the frequency set, for messages */
	int known;		/* keep every class */
	kn_dict all;		/* class id -> joined labels */
	char *bad;		/* bad[id]: the class is suppressed */
	size_t badcap;
	kn_dict *qlab;		/* per attribute, the labels of the classes */
	kn_dict pairs;		/* (class id, S label) with -l */
	uint64_t *cnt, *seen;	/* per class: its count, the rows read */
	uint64_t *pcnt, *pseen;	/* per pair: the same */
	size_t pcap;
	int part;		/* --part: the input is a part of the table */
	const char *iname;	/* the input, for messages */
	uint32_t id;		/* the class being read */
	uint64_t starred;	/* rows of the kept classes labelled '*' in
				 * every attribute, as suppressed rows are */
	int idlast;		/* a class's last label is its id (-r),
				 * which is not written (no --keep-class) */
	/* Each sensitive column's values in the classes (sv[j]), measured
	 * for --closeness through tc[j] once the whole table is read; the
	 * classes that meet -k and -l, to be measured, are in the spool
	 * kept (nkept of them): each its rows, and its id with --classes,
	 * else its joined labels */
	kn_sclass sv[KN_MAXSENS];
	tcd_ctx tc[KN_MAXSENS];
	/* sorted[j]: column j's values of a class brought into order
	 * through cv[j] (cvals.c): the columns after the first, whose
	 * values of a class the groups do not bring together */
	int sorted[KN_MAXSENS];
	cvals_ctx cv[KN_MAXSENS];
	tcd_spool kept;
	uint64_t nkept;
	kn_hier *sh[KN_MAXSENS];	/* the hierarchical distance's trees */
} cl;

static int all_stars(const char *key, size_t len);
static void kept_put(void);

/*
 * Adds a failing class's joined labels to the classes to suppress: in
 * memory up to an eighth of -S, then all of them on disk (keyset.c),
 * sorted once the first pass ends, so that memory is bounded whatever
 * the number of classes suppressed.  The rows suppressed are the same.
 */
static void
fail_add(const char *key, size_t len)
{
	kn_str k;
	uint32_t i;

	if (cl.failspill) {
		keyset_add(&cl.failset, key, len);
		return;
	}
	kn_dict_intern(&cl.fail, key, len);
	if (kn_dict_bytes(&cl.fail) <= o.budget / 8)
		return;
	keyset_init(&cl.failset, 0, o.budget / 8, o.tmpdir);
	for (i = 0; i < cl.fail.n; i++) {
		k = kn_dict_get(&cl.fail, i);
		keyset_add(&cl.failset, k.p, k.n);
	}
	kn_dict_free(&cl.fail);
	kn_dict_init(&cl.fail);
	cl.failspill = 1;
}

/* Whether the class of joined labels key is to be suppressed. */
static int
fail_has(const char *key, size_t len)
{
	const char *line;
	size_t n;

	if (cl.failspill)
		return keyset_find(&cl.failset, key, len, &line, &n) >= 0;
	return cl.fail.n > 0 && kn_dict_find(&cl.fail, key, len) >= 0;
}

/* Decides the class just read: suppressed if smaller than k or not
 * l-diverse. */
static void
class_end(void)
{
	size_t j, m;
	long double he;
	int bad;

	if (!cl.have)
		return;
	cl.have = 0;
	cl.rows += cl.n;
	cl.classes++;
	bad = o.req.k > 0 && cl.n < (uint64_t)o.req.k;
	for (j = 0; cl.skey && j < cl.ns; j++) {
		kn_sclass *sv = &cl.sv[j];

		if (cl.sorted[j])
			cvals_end_sclass(&cl.cv[j], sv);
		kn_sclass_end(sv);
		if (bad || !o.req.ld.on)
			continue;
		bad = !kn_sclass_ldiv(sv, &o.req.ld, cl.n, &cl.vals,
		    &cl.valcap, &m, &he);
	}
	if (cl.known)
		cl.cnt[cl.id] = cl.n;
	if (o.req.hast) {
		/* Within t?  Known once the whole table is read. */
		for (j = 0; j < cl.ns; j++)
			tcd_class(&cl.tc[j], cl.n, !bad);
		if (!bad)
			kept_put();
	}
	if (bad) {
		if (cl.known)
			cl.bad[cl.id] = 1;
		else
			fail_add(cl.key, cl.keylen);
		cl.supp += cl.n;
		cl.suppcls++;
	} else if (all_stars(cl.key, cl.keylen))
		cl.starred += cl.n;
}

/* Whether the labels of a class, joined by tabs, are all '*', as its
 * rows are written: with -r, but the class id that is not. */
static int
all_stars(const char *key, size_t len)
{
	size_t i;

	if (cl.idlast) {
		while (len > 0 && key[len - 1] != '\t')
			len--;
		if (len > 0)
			len--;
	}

	/* "*", "*\t*", ...: an odd length ("*\t" is '*' and an empty
	 * label). */
	for (i = 0; i < len; i += 2)
		if (key[i] != '*' || (i + 1 < len && key[i + 1] != '\t'))
			return 0;
	return len % 2 == 1;
}

/* Writes the class just ended to the classes to measure. */
static void
kept_put(void)
{
	uint64_t w[2];

	w[0] = cl.n;
	w[1] = cl.known ? cl.id : cl.keylen;
	tcd_spool_put(&cl.kept, w, sizeof(w));
	if (!cl.known)
		tcd_spool_put(&cl.kept, cl.key, cl.keylen);
	cl.nkept++;
}

/* --closeness: suppresses each class kept so far unless it is within t
 * of the whole table's distribution in every sensitive column (that of
 * the input, all of its rows: kanon(7), T-CLOSENESS). */
static void
close_classes(void)
{
	uint64_t i, w[2];
	size_t j;
	long double d;
	char *k = NULL;
	size_t kcap = 0;
	int ok;

	for (j = 0; j < cl.ns; j++)
		tcd_finish(&cl.tc[j]);
	tcd_spool_read(&cl.kept);
	for (i = 0; i < cl.nkept; i++) {
		if (!tcd_spool_get(&cl.kept, w, sizeof(w)))
			kn_die("(the classes to measure): a class missing");
		if (!cl.known) {
			k = kn_grow(k, &kcap, (size_t)w[1], 1, 64);
			if (!tcd_spool_get(&cl.kept, k, (size_t)w[1]))
				kn_die("(the classes to measure): cut short");
		}
		for (ok = 1, j = 0; j < cl.ns; j++)
			if (!tcd_next(&cl.tc[j], &d))
				ok = 0;
		if (ok)
			continue;
		if (cl.known) {
			kn_str lab = kn_dict_get(&cl.all, (uint32_t)w[1]);

			cl.bad[w[1]] = 1;
			if (all_stars(lab.p, lab.n))
				cl.starred -= w[0];
		} else {
			fail_add(k, (size_t)w[1]);
			if (all_stars(k, (size_t)w[1]))
				cl.starred -= w[0];
		}
		cl.supp += w[0];
		cl.suppcls++;
	}
	free(k);
	for (j = 0; j < cl.ns; j++)
		tcd_free(&cl.tc[j]);
	tcd_spool_free(&cl.kept);
}

/* Decides the last class and checks --max-suppress: exits 1 if the
 * node suppresses too many rows. */
static void
class_last(void)
{
	uint64_t lim;

	class_end();
	if (o.req.hast)
		close_classes();
	if (cl.failspill)
		keyset_seal(&cl.failset, NULL, NULL);
	if (cl.starred > 0 && cl.supp > 0 && !o.drop)
		kn_die("the class labelled '*' in every attribute (%llu rows) "
		    "is kept, and %llu suppressed rows would look the same: "
		    "no one could tell them apart, and the class with them "
		    "may not meet -k or -l; use --suppress drop",
		    (unsigned long long)cl.starred,
		    (unsigned long long)cl.supp);
	if (o.haslim) {
		lim = kn_limit_rows(&o.lim, cl.rows);
		if (cl.supp > lim) {
			kn_warn("%llu rows would be suppressed, more than the "
			    "limit %llu", (unsigned long long)cl.supp,
			    (unsigned long long)lim);
			kn_exit(1);
		}
	}
	/* Starred, the suppressed rows are a class of their own to an
	 * outsider, who finds there anyone whose values no other class
	 * covers: it must hold k rows (a part of the table cannot tell,
	 * but from the whole table's counts, --classes: score --check on
	 * the whole release does), and show no sensitive value that -l or
	 * --closeness did not judge (l above 1, exactly: lceil). */
	if (!o.drop && cl.supp > 0 && cl.supp < o.req.k &&
	    (!cl.part || cl.known)) {
		kn_warn("%llu suppressed row%s, starred, would make a class "
		    "of fewer than %llu rows (-k), which singles out whoever "
		    "no other class covers: use --suppress drop",
		    (unsigned long long)cl.supp, cl.supp == 1 ? "" : "s",
		    (unsigned long long)o.req.k);
		kn_exit(1);
	}
	if (!o.drop && cl.supp > 0 && ((o.req.ld.on && o.req.ld.lceil > 1) ||
	    o.req.hast)) {
		kn_warn("%llu suppressed row%s, starred, would show %s "
		    "sensitive values outside every class that %s judge%s: "
		    "use --suppress drop",
		    (unsigned long long)cl.supp, cl.supp == 1 ? "" : "s",
		    cl.supp == 1 ? "its" : "their",
		    !o.req.hast ? "-l" : !o.req.ld.on ? "--closeness" :
		    "-l and --closeness", o.req.ld.on && o.req.hast ? "" : "s");
		kn_exit(1);
	}
}

/* Joins n labels with tabs into *buf; returns the length. */
static size_t
join(const kn_str *lab, size_t n, char **buf, size_t *cap)
{
	size_t i, len = 0;

	for (i = 0; i < n; i++)
		len += lab[i].n + 1;
	if (len + 1 > *cap) {
		*cap = 2 * len;
		*buf = kn_realloc(*buf, *cap);
	}
	for (len = 0, i = 0; i < n; i++) {
		if (i > 0)
			(*buf)[len++] = '\t';
		memcpy(*buf + len, lab[i].p, lab[i].n);
		len += lab[i].n;
	}
	return len;
}

/* The key of a class's sensitive values v[0..ns) in cl.pairs: its
 * class id, then the values joined by tabs; returns the length. */
static size_t
pairkey(uint32_t id, const kn_str *v, size_t ns, char **buf, size_t *cap)
{
	size_t n = sizeof(id) + 1, i;

	for (i = 0; i < ns; i++)
		n += v[i].n + 1;
	if (n > *cap) {
		*cap = 2 * n;
		*buf = kn_realloc(*buf, *cap);
	}
	memcpy(*buf, &id, sizeof(id));
	for (n = sizeof(id), i = 0; i < ns; i++) {
		if (i > 0)
			(*buf)[n++] = '\t';
		memcpy(*buf + n, v[i].p, v[i].n);
		n += v[i].n;
	}
	return n;
}

/* A group of the first pass's frequency set. */
static void
class_row(const kn_fsrow *r, void *ctx)
{
	static char *buf;
	static size_t cap;
	size_t len, c;
	char *t;

	(void)ctx;
	len = join(r->key, cl.nq, &buf, &cap);
	if (cl.have && (len != cl.keylen || memcmp(buf, cl.key, len) != 0))
		class_end();
	if (!cl.have) {
		/* A new class: keep its labels (swap the buffers). */
		t = cl.key;
		cl.key = buf;
		buf = t;
		c = cl.keycap;
		cl.keycap = cap;
		cap = c;
		cl.keylen = len;
		cl.have = 1;
		cl.n = 0;
		for (c = 0; c < cl.ns; c++)
			kn_sclass_begin(&cl.sv[c]);
		if (cl.known) {
			cl.id = kn_dict_intern(&cl.all, cl.key, len);
			if (cl.id >= cl.badcap) {
				cl.badcap = cl.badcap ? 2 * cl.badcap : 1024;
				cl.bad = kn_realloc(cl.bad, cl.badcap);
				cl.cnt = kn_realloc(cl.cnt, cl.badcap *
				    sizeof(uint64_t));
			}
			cl.bad[cl.id] = 0;
			for (c = 0; c < cl.nq; c++)
				kn_dict_intern(&cl.qlab[c], r->key[c].p,
				    r->key[c].n);
		}
	}
	if (__builtin_add_overflow(cl.n, r->cnt, &cl.n))
		kn_die("a class size overflows 64 bits");
	if (cl.known && cl.skey) {
		/* The key first: pairkey may move buf. */
		size_t plen = pairkey(cl.id, r->key + cl.nq, cl.ns, &buf, &cap);
		uint32_t pid = kn_dict_intern(&cl.pairs, buf, plen);

		if (pid >= cl.pcap) {
			c = cl.pcap;
			cl.pcap = cl.pcap ? 2 * cl.pcap : 1024;
			cl.pcnt = kn_realloc(cl.pcnt, cl.pcap *
			    sizeof(uint64_t));
			memset(cl.pcnt + c, 0, (cl.pcap - c) *
			    sizeof(uint64_t));
		}
		cl.pcnt[pid] += r->cnt;
	}
	for (c = 0; cl.skey && c < cl.ns; c++)
		if (!cl.sorted[c])
			kn_sclass_add(&cl.sv[c], r->key[cl.nq + c].p,
			    r->key[cl.nq + c].n, r->cnt);
		else if (r->cnt > 0)
			cvals_add(&cl.cv[c], r->key[cl.nq + c].p,
			    r->key[cl.nq + c].n, r->cnt);
}

/*
 * --classes: the first pass made from path, the frequency set of the
 * whole table as freqset writes it (merged across a cluster), so that
 * the rows need to be read only once.  Its key columns must hold every
 * attribute of the node (and the -s columns scol[0..cl.ns) of t, for
 * -l and --closeness) as leaves of their hierarchies; its other key
 * columns are summed over, and its sums ignored.  Every class is kept,
 * to tell a row that is not counted there.
 */
static void
classes_read(struct recoding *rc, const kn_table *t, const char *path,
    const size_t *scol, kn_freqstats *st)
{
	kn_table ft;
	char *paths[1];
	size_t ns = scol != NULL ? cl.ns : 0, d = rc->nq + ns, i, c, cnt,
	    *col;

	paths[0] = (char *)path;
	kn_table_open_tsv(&ft, paths, 1, NULL);
	cnt = kn_table_countcol(&ft, "--classes");
	col = kn_alloc((d + 1) * sizeof(size_t));
	for (i = 0; i < d; i++) {
		const char *a = t->names[i < rc->nq ? rc->qcol[i] :
		    scol[i - rc->nq]];

		for (c = 0; c < cnt && strcmp(ft.names[c], a) != 0; c++)
			;
		if (c == cnt)
			kn_die("%s:1: %s '%s' is not a key column (one before "
			    "'count'): this is not the frequency set to "
			    "recode by", ft.r.name, i < rc->nq ?
			    "node attribute" : "sensitive column", a);
		col[i] = c;
	}
	/* Its sensitive values by their identity, as pass 2 looks them
	 * up (class_find). */
	if (cl.skey)
		kn_table_canon_sens(&ft, col + rc->nq, ns, cl.sh);
	cl.path = ft.r.name;
	cl.known = 1;
	kn_dict_init(&cl.all);
	kn_dict_init(&cl.pairs);
	cl.qlab = kn_alloc((rc->nq + 1) * sizeof(kn_dict));
	for (i = 0; i < rc->nq; i++)
		kn_dict_init(&cl.qlab[i]);
	node_freq(rc, &ft, col, col + rc->nq, ns, &cnt, class_row, st);
	kn_table_free(&ft);
	free(col);
}

/* The class of a row, attr='label', ... (for messages; caller
 * frees). */
static char *
class_text(const struct recoding *rc, const kn_table *t, const kn_str *lab)
{
	size_t i, len = 1, n = 0;
	char *s;

	for (i = 0; i < rc->nq; i++)
		len += strlen(t->names[rc->qcol[i]]) + lab[i].n + 5;
	s = kn_alloc(len);
	for (i = 0; i < rc->nq; i++)
		n += (size_t)snprintf(s + n, len - n, "%s%s='%.*s'",
		    i > 0 ? ", " : "", t->names[rc->qcol[i]], (int)lab[i].n,
		    lab[i].p);
	return s;
}

/* The class of a joined key k, as class_text writes it; lab holds nq
 * labels. */
static char *
key_text(const struct recoding *rc, const kn_table *t, kn_str k, kn_str *lab)
{
	const char *p = k.p, *e = k.p + k.n, *tab;
	size_t i;

	for (i = 0; i < rc->nq; i++) {
		tab = memchr(p, '\t', (size_t)(e - p));
		lab[i].p = p;
		lab[i].n = (size_t)((tab != NULL ? tab : e) - p);
		p = tab != NULL ? tab + 1 : e;
	}
	return class_text(rc, t, lab);
}

/* The row's sensitive values, for messages: 'v', or with several
 * columns s1='v1', s2='v2' (caller frees). */
static char *
sens_text(const kn_table *t, const size_t *sidx)
{
	size_t i, len = 1, n = 0;
	char *s;

	for (i = 0; i < cl.ns; i++)
		len += strlen(t->names[sidx[i]]) + t->f[sidx[i]].n + 6;
	s = kn_alloc(len);
	if (cl.ns == 1)
		snprintf(s, len, "'%.*s'", (int)t->f[sidx[0]].n,
		    t->f[sidx[0]].p);
	for (i = 0; cl.ns > 1 && i < cl.ns; i++)
		n += (size_t)snprintf(s + n, len - n, "%s%s='%.*s'",
		    i > 0 ? ", " : "", t->names[sidx[i]],
		    (int)t->f[sidx[i]].n, t->f[sidx[i]].p);
	return s;
}

/*
 * --classes: whether the current row of t, whose labels are lab, is
 * suppressed.  Its class, and with -l or --closeness its sensitive
 * values (columns sidx[0..cl.ns)), must be counted in the frequency
 * set: else that is of another table, and the error names the row's
 * first attribute whose label no class has, or its last.
 */
static int
class_find(const struct recoding *rc, const kn_table *t, const kn_str *lab,
    const size_t *sidx)
{
	static char *buf;
	static size_t cap;
	const struct node *nd = rc->priv;
	size_t len = join(lab, rc->nq, &buf, &cap), i;
	int64_t id = kn_dict_find(&cl.all, buf, len), pid;
	kn_str v;

	if (id < 0) {
		for (i = 0; i + 1 < rc->nq; i++)
			if (kn_dict_find(&cl.qlab[i], lab[i].p, lab[i].n) < 0)
				break;
		v = t->f[rc->qcol[i]];
		if (kn_dict_find(&cl.qlab[i], lab[i].p, lab[i].n) >= 0)
			kn_table_fail(t, rc->qcol[i], "the class %s is not "
			    "counted in %s", class_text(rc, t, lab), cl.path);
		if (nd->lv[i] == 0)
			kn_table_fail(t, rc->qcol[i], "'%.*s' is in no class "
			    "of %s", (int)v.n, v.p, cl.path);
		kn_table_fail(t, rc->qcol[i], "'%.*s', at level %d '%.*s', "
		    "is in no class of %s", (int)v.n, v.p, nd->lv[i],
		    (int)lab[i].n, lab[i].p, cl.path);
	}
	/* More rows than counted: the frequency set is stale, whatever
	 * part of the table this is. */
	if (++cl.seen[id] > cl.cnt[id])
		kn_die("%s:%llu: the class %s has count %llu in %s, but %s "
		    "has more rows of it", t->r.name,
		    (unsigned long long)t->r.lineno, class_text(rc, t, lab),
		    (unsigned long long)cl.cnt[id], cl.path, cl.iname);
	if (cl.skey) {
		kn_str sv[KN_MAXSENS];
		char cbuf[KN_MAXSENS][KN_CANONBUF], *vt;

		for (i = 0; i < cl.ns; i++)
			sv[i] = kn_value_canon(t->f[sidx[i]],
			    kn_canon_mode(cl.sh[i]),
			    cbuf[i]);
		len = pairkey((uint32_t)id, sv, cl.ns, &buf, &cap);
		if ((pid = kn_dict_find(&cl.pairs, buf, len)) >= 0 &&
		    ++cl.pseen[pid] <= cl.pcnt[pid])
			return cl.bad[id];
		vt = sens_text(t, sidx);
		if (pid < 0)
			kn_table_fail(t, sidx[0], "%s %s not counted in %s "
			    "for the class %s", vt, cl.ns > 1 ? "are" : "is",
			    cl.path, class_text(rc, t, lab));
		kn_table_fail(t, sidx[0], "%s %s count %llu in %s for the "
		    "class %s, but %s has more rows of %s", vt,
		    cl.ns > 1 ? "have" : "has",
		    (unsigned long long)cl.pcnt[pid], cl.path,
		    class_text(rc, t, lab), cl.iname,
		    cl.ns > 1 ? "them" : "it");
	}
	return cl.bad[id];
}

/*
 * --classes, at the end of a whole table (not --part): every class must
 * have had as many rows as the frequency set counts.  A class counted
 * but never read, or read fewer times, shows a frequency set of another
 * table (yesterday's), by which a class smaller than -k could have been
 * kept.  The sensitive values of a class need no check of their own:
 * none has more rows than counted (class_find), so if the class has its
 * count, each has.
 */
static void
classes_check(const struct recoding *rc, const kn_table *t)
{
	kn_str *lab = kn_alloc((rc->nq + 1) * sizeof(kn_str)), k;
	size_t id;

	for (id = 0; id < cl.all.n; id++) {
		if (cl.seen[id] == cl.cnt[id])
			continue;
		k = kn_dict_get(&cl.all, (uint32_t)id);
		kn_die("%s: the class %s has count %llu, but %s has %llu "
		    "row%s of it", cl.path, key_text(rc, t, k, lab),
		    (unsigned long long)cl.cnt[id], cl.iname,
		    (unsigned long long)cl.seen[id],
		    cl.seen[id] == 1 ? "" : "s");
	}
	free(lab);
}

/* ---- output ------------------------------------------------------- */

/* Writes the header: the columns but those dropped, each followed by
 * the extra columns of the recoding that follow it. */
static void
header(kn_row *row, FILE *fp, const char *outname, const kn_table *t,
    const char *drop, const long *xat, const struct recoding *rc)
{
	size_t c;

	for (c = 0; c < t->ncols; c++) {
		if (drop[c])
			continue;
		kn_row_adds(row, t->names[c]);
		if (xat[c] >= 0)
			kn_row_adds(row, rc->xname[xat[c] - (long)rc->nq]);
	}
	kn_row_put(row, fp, outname);
}

/* What the second pass writes each row with. */
struct pass2 {
	struct recoding *rc;
	const char *drop;	/* per column: not written (-x, -r's class) */
	const long *qidx;	/* per column: its label, or -1 */
	const long *xat;	/* per column: the extra label after it, or -1 */
	size_t ncols;
	const size_t *sidx;	/* the sensitive columns */
	kn_str *lab;		/* the main thread's labels */
	char *key;
	size_t keycap;
	kn_row row;
	FILE *fp;
	const char *outname;
	pthread_mutex_t ksmu;	/* the failing classes on disk: one thread
				 * at a time looks them up */
};

/* A thread's own of the second pass (-j). */
struct p2thread {
	void *ts;		/* the recoding's */
	kn_str *lab;
	char *key;
	size_t keycap;
};

/* Adds the row of fields f, labelled lab or suppressed (sup), to row,
 * unless it is dropped; returns the rows added. */
static int
pass2_emit(const struct pass2 *p, kn_row *row, const kn_str *f,
    const kn_str *lab, int sup)
{
	const kn_str star = { "*", 1 };
	size_t c;

	if (sup && o.drop)
		return 0;
	for (c = 0; c < p->ncols; c++) {
		kn_str v = f[c];

		if (p->drop[c])
			continue;
		if (p->qidx[c] >= 0)
			v = sup ? star : lab[p->qidx[c]];
		kn_row_add(row, v.p, v.n);
		if (p->xat[c] >= 0) {
			v = sup ? star : lab[p->xat[c]];
			kn_row_add(row, v.p, v.n);
		}
	}
	return 1;
}

/* The current row of t generalized and written, as one thread does it;
 * returns the rows written. */
static int
pass2_serial(void *ctx, kn_table *t)
{
	struct pass2 *p = ctx;
	struct recoding *rc = p->rc;
	size_t kl;
	int sup = 0;

	rc->label(rc, t, p->lab);
	if (cl.known)
		sup = class_find(rc, t, p->lab, p->sidx);
	else if (cl.fail.n > 0 || cl.failspill) {
		kl = join(p->lab, rc->nq, &p->key, &p->keycap);
		sup = fail_has(p->key, kl);
	}
	if (!pass2_emit(p, &p->row, t->f, p->lab, sup))
		return 0;
	kn_row_put(&p->row, p->fp, p->outname);
	return 1;
}

static void *
pass2_tnew(void *ctx, int nt)
{
	struct pass2 *p = ctx;
	struct p2thread *th = kn_zalloc(sizeof(*th));

	if ((th->ts = p->rc->tnew(p->rc, nt)) == NULL) {
		free(th);
		return NULL;
	}
	th->lab = kn_alloc((p->rc->nq + p->rc->nx + 1) * sizeof(kn_str));
	return th;
}

static void
pass2_tfree(void *ctx, void *ts)
{
	struct pass2 *p = ctx;
	struct p2thread *th = ts;

	p->rc->tfree(p->rc, th->ts);
	free(th->lab);
	free(th->key);
	free(th);
}

/* Row f generalized on a thread into out (rowpar.c). */
static int
pass2_row(void *ctx, void *ts, uint64_t row, kn_str *f, kn_row *out,
    rowpar_buf *rec)
{
	struct pass2 *p = ctx;
	struct p2thread *th = ts;
	struct recoding *rc = p->rc;
	size_t kl;
	int sup = 0;

	(void)row;
	if (rc->tlabel(rc, th->ts, f, th->lab, rec) < 0)
		return -1;
	if (cl.fail.n > 0 || cl.failspill) {
		kl = join(th->lab, rc->nq, &th->key, &th->keycap);
		if (cl.failspill) {
			pthread_mutex_lock(&p->ksmu);
			sup = fail_has(th->key, kl);
			pthread_mutex_unlock(&p->ksmu);
		} else
			sup = fail_has(th->key, kl);
	}
	if (!pass2_emit(p, out, f, th->lab, sup))
		return 0;
	kn_row_end(out);
	return 1;
}

/* The recoding's check, in the order of the rows, of a row labelled on
 * a thread. */
static int
pass2_commit(void *ctx, const char **rec)
{
	struct pass2 *p = ctx;

	return p->rc->tcommit(p->rc, rec);
}

/*
 * The second pass: the rest of t generalized and written, on the
 * threads of -j when the recoding can label rows there (input read in
 * blocks, kn_table_blocks; not
 * --classes, whose counts every row checks); returns the rows written.
 */
static uint64_t
pass2_run(struct pass2 *p, kn_table *t, int jobs)
{
	struct rowpar_ops ops;
	uint64_t written = 0;
	int64_t n = -1;

	if (jobs > 1 && kn_table_blocks(t) && p->rc->tlabel != NULL &&
	    !cl.known) {
		memset(&ops, 0, sizeof(ops));
		ops.ctx = p;
		ops.tnew = pass2_tnew;
		ops.tfree = pass2_tfree;
		ops.row = pass2_row;
		ops.commit = p->rc->tcommit != NULL ? pass2_commit : NULL;
		ops.serial = pass2_serial;
		pthread_mutex_init(&p->ksmu, NULL);
		/* A quarter of -S: the first pass's half is free again. */
		n = rowpar_run(t, &ops, jobs, o.budget / 4, p->fp, p->outname);
		pthread_mutex_destroy(&p->ksmu);
	}
	if (n >= 0)
		return (uint64_t)n;
	while (kn_table_next(t)) {
		if ((t->rows & 0xffff) == 0)
			kn_progress(t->rows, t->r.bytes);
		written += pass2_serial(p, t);
	}
	return written;
}

/* Whether column c is one of the ns sensitive columns sidx. */
static int
is_sens(size_t c, const size_t *sidx, size_t ns)
{
	size_t i;

	for (i = 0; i < ns; i++)
		if (sidx[i] == c)
			return 1;
	return 0;
}

int
main(int argc, char *argv[])
{
	kn_opts opt = { 0 };
	kn_hopts hopts = { 0, NULL };
	struct recoding rc;
	struct node *nd = NULL;
	struct regions rg;
	kn_table t;
	kn_freqstats st;
	kn_input in;
	struct pass2 p2;
	const char *nodearg = NULL;
	const char *xlist = NULL, *regpath = NULL, *ccol = NULL;
	const char *classes = NULL;
	char *drop;
	const char *outname;
	size_t *sidx = NULL, c, i, *xcol, nx;
	kn_row row = { NULL, 0, 0, 0, 0, 0 };
	long *qidx, *xat;
	uint64_t pass1rows = 0, written = 0;
	int ch, suppress, twice, raw = 0, part = 0;
	int summary = -1, keep = 0;
	FILE *fp;

	kn_init(argv[0]);
	kn_req_init(&o.req);
	while ((ch = getopt_long(argc, argv, OPTSTRING,
	    longopts, NULL)) != -1) {
		switch (ch) {
		case 'H':
			kn_hopts_add(&hopts, optarg);
			break;
		case 'h':
			usage(0);
		case 'n':
			nodearg = optarg;
			break;
		case 'r':
			regpath = optarg;
			break;
		case 'x':
			xlist = optarg;
			break;
		case OPT_CLASSCOL:
			ccol = optarg;
			break;
		case OPT_CLASSES:
			classes = optarg;
			break;
		case OPT_KEEPCLASS:
			keep = 1;
			break;
		case OPT_MAXSUPP:
			o.haslim = 1;
			kn_limit_parse(&o.lim, optarg, "--max-suppress");
			break;
		case OPT_PART:
			part = 1;
			break;
		case OPT_RAW:
			raw = 1;
			break;
		case OPT_SUMMARY:
			if (strcmp(optarg, "range") == 0)
				summary = SUM_RANGE;
			else if (strcmp(optarg, "mean") == 0)
				summary = SUM_MEAN;
			else if (strcmp(optarg, "both") == 0)
				summary = SUM_BOTH;
			else
				kn_die("--summary: '%s' is not range, mean or "
				    "both", optarg);
			break;
		case OPT_SUPPRESS:
			if (strcmp(optarg, "star") == 0)
				o.drop = 0;
			else if (strcmp(optarg, "drop") == 0)
				o.drop = 1;
			else
				kn_die("--suppress: '%s' is not star or drop",
				    optarg);
			break;
		default:
			if (kn_req_opt(&o.req, ch, optarg) ||
			    kn_opts_take(&opt, ch, optarg))
				break;
			if (ch == '?')
				kn_opt_error(argv, OPTSTRING);
			usage(2);
		}
	}
	argc -= optind;
	argv += optind;
	o.budget = opt.budget;
	o.tmpdir = opt.tmpdir;
	if (argc > 1)
		kn_die("one table at a time (got %d files)", argc);
	if (nodearg != NULL && regpath != NULL)
		kn_die("-n and -r exclude each other: give one recoding");
	if (nodearg == NULL && regpath == NULL)
		kn_die("no recoding: give the node with -n or the regions "
		    "with -r");
	if (nodearg != NULL && o.req.k == 0)
		kn_die("no -k: give the least number of rows of a released "
		    "class, the k the node was found for (-k 1 releases "
		    "classes of any size); no requirement is implied");
	if (regpath == NULL && (summary >= 0 || keep || ccol != NULL))
		kn_die("--summary, --keep-class and --class-col apply to -r");
	if (regpath == NULL && opt.dates != NULL)
		kn_die("--date applies to -r (a node's dates are generalized by "
		    "a hierarchy, -H COL=date:LEVELS)");
	if (part && regpath == NULL && classes == NULL)
		kn_die("--part applies to -r and --classes");
	if (part && regpath != NULL && (o.req.k > 1 || o.req.ld.on))
		kn_die("--part: a part of the table cannot count its classes "
		    "for -k or -l (partition's classes meet them already)");
	if (regpath != NULL && classes != NULL)
		kn_die("--classes applies to -n: with -r the regions file "
		    "holds the classes and their counts");
	if (regpath != NULL && strcmp(regpath, "-") == 0 &&
	    (argc == 0 || strcmp(argv[0], "-") == 0))
		kn_die("-r -: the table is read from the standard input");
	if (classes != NULL && strcmp(classes, "-") == 0 &&
	    (argc == 0 || strcmp(argv[0], "-") == 0))
		kn_die("--classes -: the table is read from the standard "
		    "input");
	kn_req_check(&o.req, opt.scol != NULL);
	if (part && o.req.hast)
		kn_die("--part: a part of the table cannot measure "
		    "--closeness against the whole table");
	kn_progress_init(opt.progress);
	if (o.budget == 0)
		o.budget = kn_default_budget();
	o.tmpdir = kn_tmpdir(o.tmpdir);
	o.jobs = kn_jobs_within(kn_jobs(&opt), o.budget);
	suppress = o.req.k > 1 || o.req.ld.on || o.req.hast;
	if (o.req.hast && o.req.dist == KN_DIST_HIER) {
		/* The sensitive columns' trees, kept apart from the -H of
		 * the quasi-identifiers. */
		char *p = kn_strdup(opt.scol), *e;
		size_t n, j, w;

		for (cl.ns = 0; p != NULL && cl.ns < KN_MAXSENS; cl.ns++) {
			if ((e = strchr(p, ',')) != NULL)
				*e++ = '\0';
			if ((cl.sh[cl.ns] = kn_hopts_get(&hopts, p)) == NULL)
				kn_die("--distance hierarchical: the sensitive "
				    "column '%s' has no hierarchy (give one "
				    "with -H)", p);
			n = strlen(p);
			for (j = w = 0; j < hopts.n; j++)
				if (strncmp(hopts.arg[j], p, n) != 0 ||
				    hopts.arg[j][n] != '=')
					hopts.arg[w++] = hopts.arg[j];
			hopts.n = w;
			p = e;
		}
	}
	/* Without suppression one pass does, unless -v wants the classes
	 * counted; with --classes they are counted already. */
	twice = classes == NULL && (suppress || opt.verbose);

	/* The node is read before the input: it may come from a pipe. */
	if (nodearg != NULL)
		nd = node_read(nodearg);
	kn_note_later(regpath);
	kn_note_later(classes);
	fp = kn_open_out_inplace(opt.outpath, argv, (size_t)argc);
	kn_input_init(&in, argc > 0 ? argv[0] : NULL, twice, o.tmpdir);
	kn_input_open(&in, &t, opt.columns);

	memset(&rc, 0, sizeof(rc));
	if (nd != NULL) {
		rc.count = node_count;
		rc.label = node_label;
		rc.tnew = node_tnew;
		rc.tfree = node_tfree;
		rc.tlabel = node_tlabel;
		node_resolve(&rc, nd, &t, &hopts);
	} else {
		/* The regions are read only now, after the first line of
		 * the table: partition puts them in place before it writes
		 * that line, so a pipe from it needs no other wait. */
		if (t.headerless)
			regions_wait_input(t.r.fd);
		memset(&rg, 0, sizeof(rg));
		rg.path = regpath;
		rg.iname = in.name;
		rg.in = &in;
		rg.columns = opt.columns;
		rg.part = part;
		rg.dates = opt.dates;
		rg.budget = o.budget;
		rg.jobs = o.jobs;
		rg.tmpdir = o.tmpdir;
		rc.count = regions_count;
		rc.label = regions_label;
		rc.done = regions_done;
		rc.tnew = regions_tnew;
		rc.tfree = regions_tfree;
		rc.tlabel = regions_tlabel;
		rc.tcommit = regions_tcommit;
		rc.priv = &rg;
		regions_read(&rc, &rg, &t, summary < 0 ? SUM_RANGE : summary,
		    ccol != NULL ? ccol : "class", &hopts);
	}
	qidx = kn_alloc((t.ncols + 1) * sizeof(long));
	xat = kn_alloc((t.ncols + 1) * sizeof(long));
	for (c = 0; c < t.ncols; c++)
		qidx[c] = xat[c] = -1;
	for (i = 0; i < rc.nq; i++)
		qidx[rc.qcol[i]] = (long)i;
	for (i = 0; i < rc.nx; i++)
		xat[rc.xcol[i]] = (long)(rc.nq + i);
	if (opt.scol != NULL) {
		cl.ns = kn_table_cols(&t, opt.scol, &sidx);
		if (cl.ns > KN_MAXSENS)
			kn_die("-s: more than %d sensitive columns", KN_MAXSENS);
		for (i = 0; i < cl.ns; i++) {
			if (rc.cls >= 0 && sidx[i] == (size_t)rc.cls)
				kn_die("-s %s is the class column",
				    t.names[sidx[i]]);
			if (qidx[sidx[i]] >= 0)
				kn_die("-s %s is also a %s", t.names[sidx[i]],
				    rc.what);
		}
	}
	/* lattice-search weighs the rows of a table with a count column
	 * by it; recode would count each line once.  A frequency set is
	 * not a table to release, so refuse it unless told otherwise. */
	for (c = 0; c < t.ncols && !raw; c++)
		if (strcmp(t.names[c], "count") == 0 && qidx[c] < 0 &&
		    !is_sens(c, sidx, cl.ns))
			kn_die("%s: a 'count' column: this looks like a "
			    "frequency set, whose lines are not rows (give "
			    "--raw if 'count' is ordinary data)", t.r.name);
	rc.used = kn_alloc((rc.nq + cl.ns + 2) * sizeof(size_t));
	memcpy(rc.used, rc.qcol, rc.nq * sizeof(size_t));
	rc.nused = rc.nq;
	for (i = 0; i < cl.ns; i++)
		rc.used[rc.nused++] = sidx[i];
	if (rc.cls >= 0)
		rc.used[rc.nused++] = (size_t)rc.cls;
	kn_table_carry(&t, rc.used, rc.nused, 1);
	drop = kn_zalloc(t.ncols + 1);
	if (xlist != NULL) {
		nx = kn_table_cols(&t, xlist, &xcol);
		for (i = 0; i < nx; i++) {
			if (rc.cls >= 0 && xcol[i] == (size_t)rc.cls)
				kn_die("-x: '%s' is the class column (dropped "
				    "unless --keep-class)", t.names[xcol[i]]);
			if (qidx[xcol[i]] >= 0)
				kn_die("-x: '%s' is a %s",
				    t.names[xcol[i]], rc.what);
			if (is_sens(xcol[i], sidx, cl.ns))
				kn_die("-x: '%s' is the sensitive column (-s)",
				    t.names[xcol[i]]);
			drop[xcol[i]] = 1;
		}
		free(xcol);
	}
	if (rc.cls >= 0 && !keep)
		drop[rc.cls] = 1;
	/* -r: the class id, the last label, is written only with
	 * --keep-class. */
	cl.idlast = rc.cls >= 0 && drop[rc.cls];

	/* Pass 1: count the classes, keep those to suppress. */
	cl.nq = rc.nq;
	cl.skey = o.req.ld.on || o.req.hast;
	/* A class's rows of a value of the first sensitive column come
	 * together (the groups' order); the others' are sorted in an eighth
	 * of -S (cvals.c): no dictionary of their values; t-closeness
	 * spools each class's values and measures them at the end
	 * (tcdisk.c). */
	tcd_spool_init(&cl.kept, o.budget / 16, o.tmpdir);
	for (i = 0; i < cl.ns; i++) {
		kn_sclass_init(&cl.sv[i]);
		cl.sorted[i] = i > 0 && cl.skey;
		if (cl.sorted[i])
			cvals_init(&cl.cv[i], o.budget / 8 / (cl.ns - 1),
			    o.tmpdir);
		if (o.req.hast) {
			tcd_init(&cl.tc[i], &o.req, cl.sh[i], o.budget,
			    o.budget / 16 / cl.ns, o.tmpdir, o.jobs);
			cl.sv[i].tap = tcd_add;
			cl.sv[i].tapctx = &cl.tc[i];
		}
	}
	kn_dict_init(&cl.fail);
	memset(&st, 0, sizeof(st));
	if (classes != NULL) {
		kn_progress_phase("reading --classes", "lines", 0);
		classes_read(&rc, &t, classes, cl.skey ? sidx : NULL, &st);
		cl.part = part;
		class_last();
		cl.iname = in.name;
		cl.seen = kn_zalloc((cl.all.n + 1) * sizeof(uint64_t));
		cl.pseen = kn_zalloc((cl.pairs.n + 1) * sizeof(uint64_t));
	} else if (twice) {
		kn_progress_phase("pass 1, counting", "rows", 0);
		/* The sensitive values counted by their identity (kanon(7),
		 * Sensitive values); pass 2 writes them as they are. */
		if (cl.skey)
			kn_table_canon_sens(&t, sidx, cl.ns, cl.sh);
		rc.count(&rc, &t, sidx, cl.skey ? cl.ns : 0, class_row, &st);
		class_last();
		pass1rows = t.rows;
		kn_table_free(&t);
		kn_input_open(&in, &t, opt.columns);
		kn_table_carry(&t, rc.used, rc.nused, 1);
	} else if (regpath != NULL && rg.ooc &&
	    (in.again || kn_input_tee(&in, &t))) {
		/* Regions out of core: the input is read once more (a pipe
		 * from the copy made as it is read), to join its rows with
		 * them (regions.c). */
		kn_progress_phase("joining the regions", "rows", 0);
		regions_join(&rc, &t);
		kn_table_free(&t);
		kn_input_open(&in, &t, opt.columns);
		kn_table_carry(&t, rc.used, rc.nused, 1);
	}

	/* Pass 2: generalize and write. */
	kn_progress_phase(twice ? "pass 2, writing" : "writing", "rows",
	    twice ? pass1rows : 0);
	outname = opt.outpath != NULL ? opt.outpath : "standard output";
	if (!t.headerless)
		header(&row, fp, outname, &t, drop, xat, &rc);
	memset(&p2, 0, sizeof(p2));
	p2.rc = &rc;
	p2.drop = drop;
	p2.qidx = qidx;
	p2.xat = xat;
	p2.ncols = t.ncols;
	p2.sidx = sidx;
	p2.lab = kn_alloc((rc.nq + rc.nx + 1) * sizeof(kn_str));
	p2.fp = fp;
	p2.outname = outname;
	written = pass2_run(&p2, &t, o.jobs);
	kn_progress(t.rows, t.r.bytes);
	kn_progress_done();
	if (twice && t.rows != pass1rows)
		kn_die("%s: the input changed between the two passes",
		    in.name);
	if (rc.done != NULL)
		rc.done(&rc);
	if (cl.known && !cl.part)
		classes_check(&rc, &t);
	kn_input_end(&in);
	kn_close_out(fp);
	if (opt.verbose)
		fprintf(stderr, "%s: %llu rows, %llu classes, %llu rows "
		    "suppressed in %llu classes, %llu rows written, %llu "
		    "runs\n", kn_prog, (unsigned long long)cl.rows,
		    (unsigned long long)cl.classes,
		    (unsigned long long)cl.supp,
		    (unsigned long long)cl.suppcls,
		    (unsigned long long)written,
		    (unsigned long long)st.runs);
	if (cl.failspill)
		keyset_free(&cl.failset);
	kn_input_done(&in);
	kn_exit(0);
}
