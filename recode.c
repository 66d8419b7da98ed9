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
 * l-diversity as in paper 004 §1.1.
 *
 * Suppressing takes two passes: the first counts the classes (within
 * -S) and keeps only the set of failing ones, the second writes the
 * rows.  Input that cannot be read twice is spooled to a temp file.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kanon.h"

static void __attribute__((noreturn))
usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: recode -n node [-v] [-H attr=spec|dir] [-k k] "
	    "[--max-suppress n|p%%]\n"
	    "              [-s column [-l l [--diversity "
	    "distinct|entropy|recursive] [-c c]]]\n"
	    "              [--suppress star|drop] [-x columns] [-o file] "
	    "[-S size] [-T dir]\n"
	    "              [--columns list | --columns-file file] "
	    "[--progress] [--raw] [file]\n");
	exit(status);
}

enum { OPT_COLUMNS = 256, OPT_COLFILE, OPT_DIV, OPT_MAXSUPP, OPT_PROGRESS,
    OPT_RAW, OPT_SUPPRESS, OPT_VERSION };

static const struct option longopts[] = {
	{ "columns", required_argument, NULL, OPT_COLUMNS },
	{ "columns-file", required_argument, NULL, OPT_COLFILE },
	{ "diversity", required_argument, NULL, OPT_DIV },
	{ "help", no_argument, NULL, 'h' },
	{ "max-suppress", required_argument, NULL, OPT_MAXSUPP },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "raw", no_argument, NULL, OPT_RAW },
	{ "suppress", required_argument, NULL, OPT_SUPPRESS },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* A generated hierarchy forgets its values past this many in the
 * writing pass, so memory stays bounded. */
#define GEN_RESET (1 << 18)

/* The options. */
static struct {
	long long k;
	kn_ldiv ld;
	int drop;		/* --suppress drop */
	int haslim;		/* --max-suppress given */
	kn_limit lim;
	size_t budget;
	const char *tmpdir;
} o;

/*
 * A recoding: which columns are quasi-identifiers, how the first pass
 * counts the classes and how a row's QI labels are found.  A lattice
 * node is the only kind so far; partition's output will be another,
 * filling in the same hooks.
 */
struct recoding {
	size_t nq;
	size_t *qcol;		/* the QI columns of the table */
	/* Counts the classes of the rest of t (keyed last on column *scol
	 * if not NULL), calling out for each group in order. */
	void (*count)(struct recoding *, kn_table *, const size_t *scol,
	    kn_fsout out, kn_freqstats *st);
	/* Sets lab[0..nq) to the labels of the current row of t. */
	void (*label)(struct recoding *, kn_table *, kn_str *lab);
	void *priv;
};

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

/* Splits s at tabs in place; returns the fields (n of them). */
static char **
tabsplit(char *s, size_t *n)
{
	char **f = NULL, *p = s, *t;
	size_t cap = 0;

	*n = 0;
	for (;;) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			f = kn_realloc(f, cap * sizeof(char *));
		}
		f[(*n)++] = p;
		if ((t = strchr(p, '\t')) == NULL)
			return f;
		*t = '\0';
		p = t + 1;
	}
}

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
	name = tabsplit(hdr, &nh);
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
	val = tabsplit(kn_strndup(r.line, r.len), &nv);
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
		if (nd->n == cap) {
			cap = cap ? 2 * cap : 8;
			nd->a = kn_realloc(nd->a, cap * sizeof(struct nattr));
		}
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

/* The frequency set at the node's levels: Incognito's counting. */
static void
node_count(struct recoding *rc, kn_table *t, const size_t *scol,
    kn_fsout out, kn_freqstats *st)
{
	struct node *nd = rc->priv;
	size_t d = rc->nq + (scol != NULL), c;
	size_t *key = kn_alloc((d + 1) * sizeof(size_t));
	kn_hier **h = kn_zalloc((d + 1) * sizeof(kn_hier *));
	int *lv = kn_zalloc((d + 1) * sizeof(int));
	kn_dict *dict = kn_alloc((d + 1) * sizeof(kn_dict));
	kn_countspec cs;

	for (c = 0; c < d; c++) {
		kn_dict_init(&dict[c]);
		if (c < rc->nq) {
			key[c] = rc->qcol[c];
			h[c] = nd->h[c];
			lv[c] = nd->lv[c];
		} else
			key[c] = *scol;
	}
	memset(&cs, 0, sizeof(cs));
	cs.d = d;
	cs.key = key;
	cs.dict = dict;
	cs.hier = h;
	kn_freq(t, &cs, lv, o.budget, o.tmpdir, out, NULL, st);
	for (c = 0; c < d; c++)
		kn_dict_free(&dict[c]);
	free(dict);
	free(lv);
	free(h);
	free(key);
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

		if (h->kind != KN_HFILE && h->lab[0].n > GEN_RESET)
			kn_hier_reset(h);
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
 * with equal QI labels. */
static struct {
	size_t nq;
	int skey;
	uint64_t rows, classes, supp, suppcls;
	kn_dict fail;		/* the failing classes' joined labels */
	int have;
	char *key;
	size_t keylen, keycap;
	uint64_t n;
	uint64_t *vals;		/* the class's sensitive counts */
	size_t nval, valcap;
} cl;

/* Decides the class just read: suppressed if smaller than k or not
 * l-diverse. */
static void
class_end(void)
{
	int bad;

	if (!cl.have)
		return;
	cl.have = 0;
	cl.rows += cl.n;
	cl.classes++;
	bad = o.k > 0 && cl.n < (uint64_t)o.k;
	if (!bad && o.ld.on) {
		kn_counts_desc(cl.vals, cl.nval);
		bad = !kn_ldiv_ok(&o.ld, cl.vals, cl.nval, cl.n);
	}
	if (bad) {
		kn_dict_intern(&cl.fail, cl.key, cl.keylen);
		cl.supp += cl.n;
		cl.suppcls++;
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
		cl.nval = 0;
	}
	if (__builtin_add_overflow(cl.n, r->cnt, &cl.n))
		kn_die("a class size overflows 64 bits");
	if (cl.skey) {
		if (cl.nval == cl.valcap) {
			cl.valcap = cl.valcap ? 2 * cl.valcap : 64;
			cl.vals = kn_realloc(cl.vals, cl.valcap *
			    sizeof(uint64_t));
		}
		cl.vals[cl.nval++] = r->cnt;
	}
}

/* ---- output ------------------------------------------------------- */

/* Writes the header: the columns but those dropped with -x. */
static void
header(FILE *fp, const kn_table *t, const char *drop)
{
	size_t c;
	int first = 1;

	for (c = 0; c < t->ncols; c++) {
		if (drop[c])
			continue;
		if (!first)
			putc('\t', fp);
		fputs(t->names[c], fp);
		first = 0;
	}
	putc('\n', fp);
}

int
main(int argc, char *argv[])
{
	struct recoding rc;
	struct node *nd;
	kn_table t;
	kn_hopts hopts = { 0, NULL };
	kn_freqstats st;
	kn_input in;
	kn_str *lab;
	const char *nodearg = NULL, *outpath = NULL, *scol = NULL;
	const char *xlist = NULL;
	char *columns = NULL, *drop, *key = NULL, *line = NULL;
	size_t sidx = 0, c, i, keycap = 0, linecap = 0, *xcol, nx;
	long *qidx;
	uint64_t pass1rows = 0, written = 0;
	int ch, verbose = 0, progress = 0, suppress, twice, raw = 0;
	FILE *fp;

	kn_init(argv[0]);
	kn_ldiv_init(&o.ld);
	while ((ch = getopt_long(argc, argv, "H:S:T:c:hk:l:n:o:s:vx:",
	    longopts, NULL)) != -1) {
		switch (ch) {
		case 'H':
			kn_hopts_add(&hopts, optarg);
			break;
		case 'S':
			o.budget = kn_parse_size(optarg, "-S");
			break;
		case 'T':
			o.tmpdir = optarg;
			break;
		case 'c':
			kn_ldiv_opt(&o.ld, 'c', optarg);
			break;
		case 'h':
			usage(0);
		case 'k':
			o.k = kn_parse_int(optarg, 1, INT64_MAX, "-k");
			break;
		case 'l':
			kn_ldiv_opt(&o.ld, 'l', optarg);
			break;
		case 'n':
			nodearg = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 's':
			scol = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'x':
			xlist = optarg;
			break;
		case OPT_COLFILE:
			columns = kn_columns_file(optarg);
			break;
		case OPT_COLUMNS:
			columns = optarg;
			break;
		case OPT_DIV:
			kn_ldiv_opt(&o.ld, 'd', optarg);
			break;
		case OPT_MAXSUPP:
			o.haslim = 1;
			kn_limit_parse(&o.lim, optarg, "--max-suppress");
			break;
		case OPT_RAW:
			raw = 1;
			break;
		case OPT_PROGRESS:
			progress = 1;
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
		case OPT_VERSION:
			kn_version();
		default:
			usage(2);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		kn_die("one table at a time (got %d files)", argc);
	if (nodearg == NULL)
		kn_die("no recoding: give the node with -n");
	kn_ldiv_check(&o.ld, scol != NULL);
	kn_progress_init(progress);
	if (o.budget == 0)
		o.budget = kn_default_budget();
	o.tmpdir = kn_tmpdir(o.tmpdir);
	suppress = o.k > 1 || o.ld.on;
	/* Without suppression one pass does, unless -v wants the classes
	 * counted. */
	twice = suppress || verbose;

	/* The node is read before the input: it may come from a pipe. */
	nd = node_read(nodearg);
	fp = kn_open_out(outpath);
	kn_input_init(&in, argc > 0 ? argv[0] : NULL, twice, columns,
	    o.tmpdir);
	kn_input_open(&in, &t, columns);

	memset(&rc, 0, sizeof(rc));
	rc.count = node_count;
	rc.label = node_label;
	node_resolve(&rc, nd, &t, &hopts);
	qidx = kn_alloc((t.ncols + 1) * sizeof(long));
	for (c = 0; c < t.ncols; c++)
		qidx[c] = -1;
	for (i = 0; i < rc.nq; i++)
		qidx[rc.qcol[i]] = (long)i;
	if (scol != NULL) {
		sidx = kn_table_col(&t, scol);
		if (qidx[sidx] >= 0)
			kn_die("-s %s is also a node attribute", scol);
	}
	/* lattice-search weighs the rows of a table with a count column
	 * by it; recode would count each line once.  A frequency set is
	 * not a table to release, so refuse it unless told otherwise. */
	for (c = 0; c < t.ncols && !raw; c++)
		if (strcmp(t.names[c], "count") == 0 && qidx[c] < 0 &&
		    (scol == NULL || c != sidx))
			kn_die("%s: a 'count' column: this looks like a "
			    "frequency set, whose lines are not rows (give "
			    "--raw if 'count' is ordinary data)", t.r.name);
	drop = kn_zalloc(t.ncols + 1);
	if (xlist != NULL) {
		nx = kn_table_cols(&t, xlist, &xcol);
		for (i = 0; i < nx; i++) {
			if (qidx[xcol[i]] >= 0)
				kn_die("-x: '%s' is a node attribute",
				    t.names[xcol[i]]);
			if (scol != NULL && xcol[i] == sidx)
				kn_die("-x: '%s' is the sensitive column (-s)",
				    t.names[xcol[i]]);
			drop[xcol[i]] = 1;
		}
		free(xcol);
	}

	/* Pass 1: count the classes, keep those to suppress. */
	cl.nq = rc.nq;
	cl.skey = o.ld.on;
	kn_dict_init(&cl.fail);
	memset(&st, 0, sizeof(st));
	if (twice) {
		rc.count(&rc, &t, cl.skey ? &sidx : NULL, class_row, &st);
		class_end();
		pass1rows = t.rows;
		if (o.haslim) {
			uint64_t lim = kn_limit_rows(&o.lim, pass1rows);

			if (cl.supp > lim) {
				fprintf(stderr, "%s: %llu rows would be "
				    "suppressed, more than the limit %llu\n",
				    kn_prog, (unsigned long long)cl.supp,
				    (unsigned long long)lim);
				kn_exit(1);
			}
		}
		kn_table_free(&t);
		kn_input_open(&in, &t, columns);
	}

	/* Pass 2: generalize and write. */
	lab = kn_alloc((rc.nq + 1) * sizeof(kn_str));
	if (!t.headerless)
		header(fp, &t, drop);
	while (kn_table_next(&t)) {
		int sup = 0, first = 1;
		size_t len = 0, need = 1;

		if ((t.rows & 0xffff) == 0)
			kn_progress(t.rows, t.r.bytes);
		rc.label(&rc, &t, lab);
		if (cl.fail.n > 0) {
			size_t kl = join(lab, rc.nq, &key, &keycap);

			sup = kn_dict_find(&cl.fail, key, kl) >= 0;
			if (sup && o.drop)
				continue;
		}
		for (c = 0; c < t.ncols; c++)
			need += (qidx[c] >= 0 ? lab[qidx[c]].n + 1 :
			    t.f[c].n) + 1;
		if (need > linecap) {
			linecap = 2 * need;
			line = kn_realloc(line, linecap);
		}
		for (c = 0; c < t.ncols; c++) {
			kn_str v = t.f[c];

			if (drop[c])
				continue;
			if (qidx[c] >= 0) {
				if (sup) {
					v.p = "*";
					v.n = 1;
				} else
					v = lab[qidx[c]];
			}
			if (!first)
				line[len++] = '\t';
			first = 0;
			memcpy(line + len, v.p, v.n);
			len += v.n;
		}
		line[len++] = '\n';
		if (fwrite(line, 1, len, fp) != len)
			kn_die_sys("%s: write error", outpath != NULL ?
			    outpath : "standard output");
		written++;
	}
	kn_progress_done();
	if (twice && t.rows != pass1rows)
		kn_die("%s: the input changed between the two passes",
		    in.name);
	kn_close_out(fp);
	if (verbose)
		fprintf(stderr, "%s: %llu rows, %llu classes, %llu rows "
		    "suppressed in %llu classes, %llu rows written, %llu "
		    "runs\n", kn_prog, (unsigned long long)cl.rows,
		    (unsigned long long)cl.classes,
		    (unsigned long long)cl.supp,
		    (unsigned long long)cl.suppcls,
		    (unsigned long long)written,
		    (unsigned long long)st.runs);
	kn_input_done(&in);
	kn_exit(0);
}
