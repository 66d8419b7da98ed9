/*
 * partition: Mondrian multidimensional partitioning, in memory or out
 * of core (Rothko-T and Rothko-S), or as a cluster's jobs.  This file is
 * the program: options, their checks, and the dispatch to mondrian.c
 * (in memory, paper 003), rothko.c (out of core, paper 004 §2-3) and
 * cluster.c (the --job steps, 004 §2).
 *
 * Output: the input rows, unchanged and in order, with the class
 * appended; with -r, the regions: per class its count and per QI the
 * min, max and mean (numeric) or the hierarchy node (the lowest common
 * ancestor of its values).  The regions file is renamed into place
 * before the first byte of the table is written, so a reader of the
 * table may open it as soon as it has read the header.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cluster.h"
#include "kanon.h"
#include "mondrian.h"
#include "mpar.h"
#include "rothko.h"
#include "rowpar.h"

static const char synopsis[] =
    "usage: partition -q columns -k k [-s columns [-l l [--diversity kind] "
    "[-c c]]\n"
    "                 [--variance v] [--closeness t [--distance d]]] "
    "[-t column]\n"
    "                 [--split how] [--relaxed]\n"
    "                 [-H attr=spec|dir] [--numeric columns] [-r file] "
    "[-o file]\n"
    "                 [--class-col name] [-a algorithm] [-j n] [-S size] "
    "[-T dir]\n"
    "                 [--fit-rows n] [--fcache n] [--sample n] "
    "[--seed n]\n"
    "                 [--alpha a] [--naive] [-v] [--progress] "
    "[--skip-header]\n"
    "                 [--columns list | --columns-file file] [file]\n"
    "       partition --job step --tree file -q columns [the options "
    "above]\n";

static const char help[] =
    "Mondrian: the table divided into classes of at least k rows by "
    "greedy cuts.\n"
    "\n"
    "  -q COLUMNS           the quasi-identifiers, by name or number\n"
    "  --numeric COLUMNS    cut these at any threshold, even with a "
    "hierarchy\n"
    "  -r FILE              write the regions of the classes to FILE, "
    "for recode\n"
    "  --class-col NAME     the name of the class column (default "
    "class)\n"
    "  --split HOW          median (the default), infogain or "
    "regression\n"
    "  -t COLUMN            the target of --split infogain or "
    "regression\n"
    "  --relaxed            a cut may divide rows of equal values\n"
    "  -a ALGORITHM         mondrian (memory), rothko-t (with -S) or "
    "rothko-s\n"
    "  -S SIZE              memory budget (64M, 1G...): out of core "
    "beyond it\n"
    "  --fit-rows N         out of core: in memory only nodes of at most "
    "N rows\n"
    "  --fcache N           Rothko-T: count the groups of up to N nodes "
    "a scan\n"
    "  --sample N           Rothko-S: the largest sample, in rows\n"
    "  --seed N             Rothko-S: the seed of the samples (default "
    "1)\n"
    "  --alpha A            Rothko-S: the level of the tests (default "
    "0.05)\n"
    "  --naive              Rothko-S: cut on samples without the tests\n"
    "  --job STEP           a step of Rothko-T as a cluster job, with "
    "--tree FILE\n"
    "  -v                   print rows, classes, cuts and time on "
    "stderr\n";

/* The short options, for getopt_long and kn_opt_error. */
#define OPTSTRING "H:S:T:a:c:hj:k:l:o:q:r:s:t:v"

static void __attribute__((noreturn))
usage(int status)
{
	if (status == 0)
		kn_help(synopsis, help, KN_HELP_HIER | KN_HELP_REQ |
		    KN_HELP_VARIANCE | KN_HELP_TABLE | KN_HELP_OCSV |
		    KN_HELP_MISSING | KN_HELP_DATE | KN_HELP_TMP |
		    KN_HELP_JOBS | KN_HELP_PROGRESS);
	fputs(synopsis, stderr);
	exit(status);
}

enum {
	OPT_ALPHA = 256,
	OPT_CLASSCOL,
	OPT_FCACHE,
	OPT_FITROWS,
	OPT_JOB,
	OPT_NAIVE,
	OPT_TREE,
	OPT_NUMERIC,
	OPT_SAMPLE,
	OPT_SEED,
	OPT_RELAXED,
	OPT_SPLIT
};

static const struct option longopts[] = {
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "class-col", required_argument, NULL, OPT_CLASSCOL },
	KN_TABLE_OPTIONS,
	KN_OPT_MISSING_ENTRY,
	KN_OUT_OPTIONS,
	KN_OPT_DATE_ENTRY,
	KN_OPT_CLOSENESS_ENTRIES,
	KN_OPT_DIVERSITY_ENTRY,
	{ "fcache", required_argument, NULL, OPT_FCACHE },
	{ "fit-rows", required_argument, NULL, OPT_FITROWS },
	{ "help", no_argument, NULL, 'h' },
	{ "job", required_argument, NULL, OPT_JOB },
	{ "naive", no_argument, NULL, OPT_NAIVE },
	{ "numeric", required_argument, NULL, OPT_NUMERIC },
	KN_OPT_PROGRESS_ENTRY,
	{ "relaxed", no_argument, NULL, OPT_RELAXED },
	{ "sample", required_argument, NULL, OPT_SAMPLE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "split", required_argument, NULL, OPT_SPLIT },
	{ "tree", required_argument, NULL, OPT_TREE },
	KN_OPT_VARIANCE_ENTRY,
	KN_OPT_VERSION_ENTRY,
	{ NULL, 0, NULL, 0 }
};

/* The second pass on the threads of -j (rowpar.c), with the classes of
 * all rows in one array: each line copied with its class (TSV in and
 * out), or its fields written in the output's format. */
struct wtab {
	struct part *pt;
	const uint32_t *cls;	/* the rows' classes (rothko_classes) */
	size_t ncols;
	const char *inname;
	int copy;
};

static void *
wt_tnew(void *ctx, int nt)
{
	(void)nt;
	return ctx;
}

static void
wt_tfree(void *ctx, void *ts)
{
	(void)ctx;
	(void)ts;
}

/* Line f (its fields, whole in their block) and its class; past the
 * rows of the first pass, the main thread's (wt_serial). */
static int
wt_row(void *ctx, void *ts, uint64_t row, kn_str *f, kn_row *out,
    rowpar_buf *rec)
{
	const struct wtab *w = ctx;
	const kn_str *e = &f[w->ncols - 1];
	char num[24];
	size_t c;

	(void)ts;
	(void)rec;
	if (row >= w->pt->nrows)
		return -1;
	if (w->copy)
		kn_row_add(out, f[0].p, (size_t)(e->p + e->n - f[0].p));
	else
		for (c = 0; c < w->ncols; c++)
			kn_row_add(out, f[c].p, f[c].n);
	kn_row_add(out, num, kn_fmt_u64(num, w->cls[row]));
	kn_row_end(out);
	return 1;
}

/* A row past those of the first pass: the input changed. */
static int
wt_serial(void *ctx, kn_table *t)
{
	const struct wtab *w = ctx;

	(void)t;
	kn_die("%s: the input changed between the two passes", w->inname);
}

/* Writes the table with its classes: the second pass over the input.
 * TSV in and out copies each line, else the fields are written in the
 * output's format; with jobs > 1 on threads (rowpar.c) when the input
 * is read in blocks (kn_table_blocks) and the classes of all rows are
 * in one array (in memory, or out of core when they fit one bucket:
 * rothko_classes). */
static void
write_table(struct part *pt, kn_input *in, const char *columns,
    const char *classcol, FILE *fp, const char *outname, int jobs)
{
	kn_table t;
	kn_row row = { NULL, 0, 0, 0, 0, 0 };
	size_t c;
	char num[24];
	int copy = !kn_csv.in && !kn_csv.out;
	struct wtab w;
	struct rowpar_ops ops = { &w, wt_tnew, wt_tfree, wt_row, NULL,
	    wt_serial };

	kn_input_open(in, &t, columns);
	kn_table_carry(&t, pt->used, pt->nused, 1);
	if (!t.headerless) {
		for (c = 0; c < t.ncols; c++)
			kn_row_adds(&row, t.names[c]);
		kn_row_adds(&row, classcol);
		kn_row_put(&row, fp, outname);
	}
	w.pt = pt;
	w.cls = jobs > 1 && kn_table_blocks(&t) ? rothko_classes(pt) : NULL;
	w.ncols = t.ncols;
	w.inname = in->name;
	w.copy = copy;
	/* Out of core the blocks within the share the first pass's had
	 * (an eighth of -S). */
	if (!(w.cls != NULL && rowpar_run(&t, &ops, jobs,
	    pt->ooc ? pt->budget / 8 : SIZE_MAX, fp, outname) >= 0))
		while (kn_table_next(&t)) {
			size_t nn;

			if (t.rows > pt->nrows)
				break;
			if ((t.rows & 0xffff) == 0)
				kn_progress(t.rows, t.r.bytes);
			nn = kn_fmt_u64(num, rothko_class_of(pt, t.rows - 1));
			if (!copy) {
				for (c = 0; c < t.ncols; c++)
					kn_row_add(&row, t.f[c].p, t.f[c].n);
				kn_row_add(&row, num, nn);
				kn_row_put(&row, fp, outname);
				continue;
			}
			num[nn++] = '\n';
			if (fwrite(t.r.line, 1, t.r.len, fp) != t.r.len ||
			    putc('\t', fp) == EOF ||
			    fwrite(num, 1, nn, fp) != nn)
				kn_die_sys("%s: write error", outname);
		}
	if (t.rows != pt->nrows)
		kn_die("%s: the input changed between the two passes",
		    in->name);
	kn_progress(t.rows, t.r.bytes);
	free(row.buf);
	kn_table_free(&t);
}

/* The options that shape the tree, as one string. */
static char *
make_sig(struct part *pt, const char *q, const char *s, const char *t,
    const char *num)
{
	char c[64] = "-", v[64] = "-", *b;
	size_t n;

	if (pt->req.ld.hasc)
		c[kn_dec_format(pt->req.ld.cm, pt->req.ld.cs, c)] = '\0';
	if (pt->req.hasv)
		v[kn_dec_format(pt->req.vm, pt->req.vs, v)] = '\0';
	n = strlen(q) + (s ? strlen(s) : 1) + (t ? strlen(t) : 1) +
	    (num ? strlen(num) : 1) +
	    (pt->req.ld.lstr ? strlen(pt->req.ld.lstr) : 1) + 256;
	b = kn_alloc(n);
	n += pt->req.hast ? strlen(pt->req.tstr) : 0;
	b = kn_realloc(b, n);
	snprintf(b, n,
	    "q=%s k=%llu s=%s l=%s div=%d c=%s var=%s t=%s "
	    "split=%d num=%s",
	    q, (unsigned long long)pt->req.k, s ? s : "-",
	    pt->req.ld.on ? pt->req.ld.lstr : "-", pt->req.ld.kind, c, v,
	    t ? t : "-", pt->split, num ? num : "-");
	/* Added only when given: the trees grown before stay valid. */
	if (pt->req.hast)
		snprintf(b + strlen(b), n - strlen(b), " close=%s dist=%d",
		    pt->req.tstr, pt->req.dist);
	return b;
}

/* Out of core: the numbers of column col (a sensitive column asked for
 * its variance alone, or a regression's target) keyed with no
 * dictionary, as the next dimension after the QIs (mondrian.h). */
static void
keyed_dim(struct part *pt, size_t col, const char *name, size_t word)
{
	struct dim *dm = &pt->dims[pt->nkd++];

	dm->col = col;
	dm->name = kn_strdup(name);
	dm->hword = word;
}

int
main(int argc, char *argv[])
{
	kn_opts opt = { 0 };
	kn_hopts hopts = { 0, NULL };
	struct rothko rothko_state = { .alpha = 0.05, .seed = 1,
	    .fcache = 0 };
	struct cluster cluster_state = { 0 };
	struct part run = { .regions_name = "regions",
	    .rk = &rothko_state, .cl = &cluster_state };
	struct part *pt = &run;
	kn_table t;
	kn_input in;
	const char *rpath = NULL, *classcol = "class";
	const char *numlist = NULL, *algo = NULL;
	size_t *qi, *numc = NULL, nnum = 0, sidx = 0, tidx = 0, j, i;
	size_t *scols = NULL;
	char *snames[KN_MAXSENS];
	kn_hier *sh[KN_MAXSENS] = { NULL };
	size_t *datec = NULL, ndate = 0;
	int ch, hasclasscol = 0;
	int seedset = 0, alphaset = 0, job = JOB_NONE, reads, tcdisk;
	uint64_t ntot;
	struct timespec t0, t1;
	FILE *fp = NULL;

	kn_init(argv[0]);
	kn_req_init(&pt->req);
	while ((ch = getopt_long(argc, argv, OPTSTRING,
	    longopts, NULL)) != -1) {
		switch (ch) {
		case 'H':
			kn_hopts_add(&hopts, optarg);
			break;
		case 'a':
			algo = optarg;
			break;
		case 'h':
			usage(0);
		case 'r':
			rpath = optarg;
			break;
		case OPT_CLASSCOL:
			classcol = optarg;
			hasclasscol = 1;
			break;
		case OPT_ALPHA:
			alphaset = 1;
			pt->rk->alpha = kn_parse_double(optarg, 1e-12, 0.5,
			    "--alpha");
			break;
		case OPT_SAMPLE:
			pt->rk->sample_max = (uint64_t)kn_parse_int(optarg, 2,
			    INT64_MAX, "--sample");
			break;
		case OPT_SEED:
			seedset = 1;
			pt->rk->seed = (uint64_t)kn_parse_int(
			    optarg, 0, INT64_MAX, "--seed");
			break;
		case OPT_FCACHE:
			pt->rk->fcache = (uint64_t)kn_parse_int(optarg, 1, 1024,
			    "--fcache");
			break;
		case OPT_NAIVE:
			pt->sample.naive = 1;
			break;
		case OPT_JOB:
			for (job = 1; cluster_job_names[job] != NULL &&
			    strcmp(cluster_job_names[job], optarg) != 0; job++)
				;
			if (cluster_job_names[job] == NULL)
				kn_die("--job: '%s' is not groups, cuts, rows, "
				    "solve, classes, regions or open", optarg);
			break;
		case OPT_TREE:
			pt->cl->tree.path = optarg;
			break;
		case OPT_FITROWS:
			pt->rk->fit_rows = (uint64_t)kn_parse_int(
			    optarg, 1, INT64_MAX, "--fit-rows");
			break;
		case OPT_NUMERIC:
			numlist = optarg;
			break;
		case OPT_RELAXED:
			pt->relaxed = 1;
			break;
		case OPT_SPLIT:
			if (strcmp(optarg, "median") == 0)
				pt->split = SPLIT_MEDIAN;
			else if (strcmp(optarg, "infogain") == 0)
				pt->split = SPLIT_INFOGAIN;
			else if (strcmp(optarg, "regression") == 0)
				pt->split = SPLIT_REGRESSION;
			else
				kn_die("--split: '%s' is not median, infogain "
				    "or regression", optarg);
			break;
		default:
			if (kn_req_opt(&pt->req, ch, optarg) ||
			    kn_opts_take(&opt, ch, optarg))
				break;
			if (ch == '?')
				kn_opt_error(argv, OPTSTRING);
			usage(2);
		}
	}
	argc -= optind;
	argv += optind;
	pt->budget = opt.budget;
	pt->rk->tmpdir = opt.tmpdir;
	if (argc > 1)
		kn_die("one table at a time (got %d files)", argc);
	if (opt.qlist == NULL)
		kn_die("no quasi-identifiers: name them with -q");
	if (pt->req.k == 0)
		kn_die("no -k: give the least number of rows of a class "
		    "(-k 1 makes classes of any size); no requirement is "
		    "implied");
	kn_req_check(&pt->req, opt.scol != NULL);
	if (pt->req.hasv && opt.scol == NULL)
		kn_die("--variance needs the sensitive column (-s)");
	if (pt->split != SPLIT_MEDIAN && opt.tcol == NULL)
		kn_die("--split %s needs the target column (-t)",
		    pt->split == SPLIT_INFOGAIN ? "infogain" : "regression");
	if (pt->split == SPLIT_MEDIAN && opt.tcol != NULL)
		kn_die("-t needs --split infogain or regression");
	if (*classcol == '\0' || strpbrk(classcol, "\t\n\r") != NULL)
		kn_die("--class-col: '%s' is not a column name", classcol);
	/* The regions are in place before the input is read again. */
	if (rpath != NULL && opt.outpath != NULL &&
	    strcmp(opt.outpath, "-") != 0 && kn_same_file(rpath, opt.outpath))
		kn_die("-r and -o name the same file");
	if (rpath != NULL && argc > 0 && strcmp(argv[0], "-") != 0 &&
	    kn_same_file(rpath, argv[0]))
		kn_die("-r %s: the input file too (%s): the regions would "
		    "replace the table before its second pass; give them "
		    "another file", rpath, argv[0]);
	pt->has_sens = opt.scol != NULL && (pt->req.ld.on || pt->req.hasv ||
	    pt->req.hast);
	if (opt.scol != NULL && !pt->has_sens)
		kn_die("-s needs a requirement on it (-l, --variance or "
		    "--closeness)");
	pt->has_targ = opt.tcol != NULL;
	pt->need_stats = pt->has_sens || pt->has_targ;
	pt->rk->gdense = !pt->has_sens && pt->split == SPLIT_MEDIAN;
	/* In memory unless told otherwise: -S bounds the memory, and the
	 * rows go to disk (Rothko-T) when they do not fit.  -a takes the
	 * names of the README and the papers too, in any case. */
	if (algo != NULL) {
		if (kn_name_eq(algo, "memory") || kn_name_eq(algo, "mondrian") ||
		    kn_name_eq(algo, "in-memory"))
			algo = "memory";
		else if (kn_name_eq(algo, "rothko-t"))
			algo = "rothko-t";
		else if (kn_name_eq(algo, "rothko-s"))
			algo = "rothko-s";
		else
			kn_die("-a: '%s' is not an algorithm: mondrian (or "
			    "memory), rothko-t or rothko-s, in any case", algo);
	}
	pt->rk->sampling = algo != NULL && strcmp(algo, "rothko-s") == 0;
	/* --fcache by default: 16 leaves a scan, and 8 in Rothko-S's exact
	 * steps, whose output depends on it (the parts a step makes are
	 * what is sampled next) and has been that of 8. */
	if (pt->rk->fcache == 0)
		pt->rk->fcache = pt->rk->sampling ? 8 : 16;
	pt->ooc = algo != NULL ? strcmp(algo, "memory") != 0 : pt->budget != 0;
	if (pt->ooc && pt->budget == 0)
		pt->budget = kn_default_budget();
	else if (pt->budget == 0 && job == JOB_NONE)
		(void)kn_default_budget();	/* the heap set for it */
	else if (pt->budget == 0)
		kn_heap_budget((size_t)64 << 20, 0);	/* cluster.c's */
	if (pt->rk->sampling && pt->relaxed)
		kn_die("--relaxed runs in memory or with -a rothko-t only");
	if (!pt->rk->sampling &&
	    (pt->rk->sample_max != 0 || pt->sample.naive || seedset ||
		alphaset))
		kn_die("--sample, --seed, --alpha and --naive are for -a "
		    "rothko-s");
	if (pt->ooc && pt->relaxed && pt->need_stats)
		kn_die("--relaxed with -s or a split other than median runs "
		    "in memory only");
	if (job != JOB_NONE) {
		if (pt->cl->tree.path == NULL)
			kn_die("--job %s needs the tree file (--tree)",
			    cluster_job_names[job]);
		if (algo != NULL || pt->relaxed || rpath != NULL)
			kn_die("--job runs Rothko-T's steps: -a, --relaxed and "
			    "-r do not apply (the regions job writes the "
			    "regions)");
		if ((job == JOB_CUTS || job == JOB_SOLVE) &&
		    opt.outpath != NULL)
			kn_die("--job %s writes to the standard output",
			    cluster_job_names[job]);
		/* A map task's split has no header (but the first). */
		if (opt.columns == NULL)
			kn_die("--job %s: name the table's columns with "
			    "--columns or --columns-file (a split has no "
			    "header line)", cluster_job_names[job]);
		if (job != JOB_GROUPS && job != JOB_ROWS &&
		    job != JOB_CLASSES) {
			if (argc > 0)
				kn_die("--job %s reads no table (%s)",
				    cluster_job_names[job],
				    job == JOB_REGIONS || job == JOB_OPEN
					? "only the tree"
					: "its input is the map step's output");
		}
		if (kn_csv.in || kn_csv.out)
			kn_die("--job %s reads and writes TSV, a row a line, as "
			    "the streaming frameworks split them: convert a "
			    "CSV table to TSV first (extsort --icsv does)",
			    cluster_job_names[job]);
		pt->ooc = 0;
		pt->cl->tree.columns = opt.columns;
		pt->cl->tree.sname = opt.scol;
		pt->cl->tree.tname = opt.tcol;
		pt->cl->tree.sig =
		    make_sig(pt, opt.qlist, opt.scol, opt.tcol, numlist);
	} else if (pt->cl->tree.path != NULL)
		kn_die("--tree goes with --job");
	kn_progress_init(opt.progress);
	pt->rk->tmpdir = kn_tmpdir(pt->rk->tmpdir);
	pt->tmpdir = pt->rk->tmpdir;

	/* The outputs first: a bad path fails before any work.  The
	 * output of a table may replace it (kanon(7), OUTPUT FILES). */
	reads = job == JOB_NONE || job == JOB_GROUPS || job == JOB_ROWS ||
	    job == JOB_CLASSES;
	fp = reads ? kn_open_out_inplace(opt.outpath, argv, (size_t)argc) :
	    kn_open_out(opt.outpath);
	if (rpath != NULL) {
		pt->regions_fp = kn_open_out(rpath);
		pt->regions_name = rpath;
	}
	if (reads)
		kn_input_init(&in, argc > 0 ? argv[0] : NULL,
		    job == JOB_NONE, pt->rk->tmpdir);
	else
		kn_input_init(&in, "/dev/null", 0, pt->rk->tmpdir);
	pt->inname = in.name;
	kn_input_open(&in, &t, opt.columns);
	pt->nqi = kn_table_cols(&t, opt.qlist, &qi);
	kn_hopts_check(&hopts, t.names, t.ncols);
	if (numlist != NULL)
		nnum = kn_table_cols(&t, numlist, &numc);
	if (opt.dates != NULL)
		ndate = kn_table_cols(&t, opt.dates, &datec);
	for (i = 0; i < t.ncols; i++)
		if (strcmp(t.names[i], classcol) == 0)
			kn_die("%s: the table has a column '%s' already%s",
			    t.r.name, classcol, hasclasscol ? "" :
			    " (name the class column with --class-col)");
	/* The QIs, then the keyed columns (mondrian.h): each sensitive
	 * column's hash and number, and the target. */
	pt->dims = kn_zalloc((pt->nqi + 2 * KN_MAXSENS + 2) *
	    sizeof(struct dim));
	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j];
		int numeric = 0;

		dm->col = qi[j];
		dm->name = kn_strdup(t.names[qi[j]]);
		for (i = 0; i < nnum; i++)
			numeric |= numc[i] == qi[j];
		for (i = 0; i < ndate; i++)
			dm->isdate |= datec[i] == qi[j];
		if (dm->isdate && numeric)
			kn_die("--date and --numeric both name '%s'",
			    dm->name);
		if (!numeric && !dm->isdate)
			dm->h = kn_hopts_get(&hopts, dm->name);
		/* The missing values' leaves before any row: in the order
		 * of their tokens, whichever rows hold them, as each --job
		 * step, which sees some rows, must have them. */
		if (dm->h != NULL && dm->h->kind == KN_HFILE)
			kn_hier_missing(dm->h);
	}
	/* The columns the regions' header is read against (recode -r
	 * reads the table partition writes: these and the class). */
	if (rpath != NULL || job == JOB_REGIONS) {
		pt->tcols = kn_alloc((t.ncols + 1) * sizeof(char *));
		for (i = 0; i < t.ncols; i++)
			pt->tcols[i] = kn_strdup(t.names[i]);
		pt->ntcols = t.ncols;
		pt->tname = kn_strdup(t.headerless ? "--columns" : t.r.name);
	}
	for (i = 0; i < nnum + ndate; i++) {
		size_t c = i < nnum ? numc[i] : datec[i - nnum];

		for (j = 0; j < pt->nqi && qi[j] != c; j++)
			;
		if (j == pt->nqi)
			kn_die("--%s: '%s' is not a quasi-identifier",
			    i < nnum ? "numeric" : "date", t.names[c]);
	}
	if (ndate > 0 && job != JOB_NONE)
		kn_die("--job: --date columns are not for the cluster jobs; "
		    "give the dates a hierarchy file instead");
	if (pt->has_sens) {
		pt->nsens = kn_table_cols(&t, opt.scol, &scols);
		if (pt->nsens > KN_MAXSENS)
			kn_die("-s: more than %d sensitive columns", KN_MAXSENS);
		pt->scols = scols;
		sidx = scols[0];
		for (i = 0; i < pt->nsens; i++)
			snames[i] = kn_strdup(t.names[scols[i]]);
		for (i = 0; i < pt->nsens; i++)
			for (j = 0; j < pt->nqi; j++)
				if (qi[j] == scols[i])
					kn_die("-s %s is also a quasi-identifier",
					    t.names[scols[i]]);
		/* Each column's variance is msens.c's: the sides' sums are
		 * of one column. */
		if (pt->nsens > 1 && pt->req.hasv) {
			pt->msvar = 1;
			pt->req.hasv = 0;
		}
	}
	for (i = 0; pt->req.hast && pt->req.dist == KN_DIST_HIER &&
	    i < pt->nsens; i++)
		if ((sh[i] = kn_hopts_get(&hopts, snames[i])) == NULL)
			kn_die("--distance hierarchical: the sensitive column "
			    "'%s' has no hierarchy (give one with -H)",
			    snames[i]);
	if (pt->has_targ) {
		tidx = kn_table_col(&t, opt.tcol);
		for (j = 0; j < pt->nqi; j++)
			if (qi[j] == tidx)
				kn_die("-t %s is also a quasi-identifier",
				    opt.tcol);
	}
	pt->used = kn_alloc((pt->nqi + pt->nsens + 2) * sizeof(size_t));
	memcpy(pt->used, qi, pt->nqi * sizeof(size_t));
	pt->nused = pt->nqi;
	for (i = 0; i < pt->nsens; i++)
		pt->used[pt->nused++] = scols[i];
	if (pt->has_targ)
		pt->used[pt->nused++] = tidx;
	kn_table_carry(&t, pt->used, pt->nused, 1);
	/* The sensitive values partitioned by their identity (kanon(7),
	 * Sensitive values), where the rows are read to be partitioned
	 * or counted, not where they are written. */
	if (job != JOB_ROWS && job != JOB_CLASSES &&
	    (pt->req.ld.on || pt->req.hast))
		kn_table_canon_sens(&t, scols, pt->nsens, sh);
	/* The labels as the rows give them: -t read by identity when it is
	 * one of those columns too. */
	pt->targ_canon = -1;
	for (i = 0; pt->has_targ && (pt->req.ld.on || pt->req.hast) &&
	    i < pt->nsens; i++)
		if (scols[i] == tidx)
			pt->targ_canon = kn_canon_mode(sh[i]);
	kn_dict_init(&pt->sens_dict);
	kn_dict_init(&pt->targ_dict);
	/* Distinct l alone by hashes, while a scan's first 1024 groups'
	 * sets of ceil(l) keys take at most an eighth of -S (partition(1)). */
	pt->sens_hashed = pt->ooc && job == JOB_NONE &&
	    rothko_by_sets(pt, pt->budget);
	/* Any other l-diversity, with or without --variance, and the
	 * variance of several columns, decided on disk by sorts (rsens.c):
	 * each column keyed by hash, and for its variance by its number. */
	/* t-closeness under the equal and the ordered distance too, its
	 * distribution in a temp file (rclose.c): with --variance from the
	 * start; else the values are held while they take at most an
	 * eighth of -S, each record's hashes spooled beside their id
	 * (sens_hkey), and past that the run switches to them (mload.c's
	 * mond_sens_drop). */
	tcdisk = pt->ooc && job == JOB_NONE && pt->req.hast &&
	    pt->req.dist != KN_DIST_HIER && !pt->relaxed;
	/* Under the ordered distance, once by hash, by position
	 * (rclose_reorder). */
	pt->tcord = tcdisk && pt->req.dist == KN_DIST_ORDERED;
	pt->sens_hkey = tcdisk && !pt->req.hasv && !pt->msvar;
	pt->tchash = tcdisk && !pt->sens_hkey;
	pt->sens_sorted = pt->ooc && job == JOB_NONE && !pt->sens_hashed &&
	    !pt->relaxed && (pt->tchash || (!pt->req.hast &&
	    (pt->req.ld.on || pt->msvar)));
	pt->sens_hashed |= pt->sens_sorted;
	pt->sens_keyed = (pt->ooc && pt->req.hasv && pt->nsens == 1 &&
	    !pt->req.ld.on && !pt->req.hast) || pt->sens_hashed;
	pt->targ_keyed = pt->ooc && pt->split == SPLIT_REGRESSION;
	pt->targ_hkey = pt->ooc && job == JOB_NONE &&
	    pt->split == SPLIT_INFOGAIN;
	pt->nshd = !pt->sens_hashed ? 0 : pt->sens_sorted ? pt->nsens : 1;
	pt->nsvd = pt->sens_sorted && (pt->req.hasv || pt->msvar) ?
	    pt->nsens : 0;
	pt->nskd = pt->sens_hashed ? pt->nshd + pt->nsvd :
	    pt->sens_hkey ? pt->nsens : (size_t)pt->sens_keyed;
	pt->word_row = pt->nqi;
	pt->rec_words = pt->nqi + 1;
	if (pt->has_sens) {
		pt->word_sens = pt->rec_words++;
		if (pt->nskd > 1 && !pt->sens_hkey)
			pt->rec_words += pt->nskd - 1;
	}
	if (pt->has_targ)
		pt->word_targ = pt->rec_words++;
	pt->nkd = pt->nqi;
	for (i = 0; i < pt->nskd; i++) {
		/* Each column's hash, then its number. */
		size_t c = i < pt->nshd ? i : i - pt->nshd;

		keyed_dim(pt, scols[c], snames[c], pt->word_sens + i);
	}
	if (pt->targ_keyed)
		keyed_dim(pt, tidx, t.names[tidx], pt->word_targ);
	/* Its two words on disk only (numkey_layout). */
	if (pt->targ_hkey)
		keyed_dim(pt, tidx, t.names[tidx], 0);
	if (job != JOB_NONE) {
		pt->cl->tree.scol = sidx;
		pt->cl->tree.tcol = tidx;
		pt->cl->tree.snames = snames;
		pt->cl->tree.shier = sh;
		cluster_run_job(pt, job, &t, fp, classcol);
	}

	/* Pass 1: read the rows (out of core: to the spool). */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (pt->ooc) {
		pt->spool_path = kn_tmp_new(pt->rk->tmpdir);
		if ((pt->spool = kn_tmp_open(pt->spool_path, "wb")) == NULL)
			kn_die_sys("%s", pt->spool_path);
	}
	/* The rows are read and coded on the threads of -j (mload.c);
	 * out of core the threads then count the groups (rgroups.c), read
	 * and write node files ahead, rank the numbers and partition the
	 * nodes in memory (rothko.c, mpar.c), as far as -S holds their
	 * scratch (pt->rk->jobs). */
	pt->jobs = kn_jobs(&opt);
	mond_load(pt, &t, sidx, tidx);
	if (pt->ooc)
		pt->jobs = 1;
	kn_table_free(&t);
	pt->tcn = pt->nrows;
	pt->input = &in;
	pt->incols = opt.columns;
	/* The labels known by their hashes are checked first, so that a
	 * column that is both -t and -s (read by identity) has its labels'
	 * hashes checked too, before its values'. */
	if (pt->targ_hashed)
		mond_targ_check(pt, pt->rk->tmpdir, kn_jobs(&opt));
	/* The values dropped: known by their hashes from now on. */
	if (pt->sens_hkey && pt->tchash)
		mond_sens_hashed(pt, pt->rk->tmpdir, kn_jobs(&opt));
	for (i = 0; !pt->sens_hkey && i < pt->nshd; i++)
		mond_hash_check(pt, &in, opt.columns, scols[i], snames[i],
		    0, KN_CANON_ALL, pt->rk->tmpdir, kn_jobs(&opt),
		    pt->tchash ? (long)i : -1);
	kn_progress_phase("partitioning", "rows in classes", pt->nrows);
	if (pt->ooc) {
		if (fflush(pt->spool) != 0 || ferror(pt->spool))
			kn_die_sys("%s: write error", pt->spool_path);
		fclose(pt->spool);
		free(pt->rec);
		pt->rec = NULL;
		for (j = 0; j < pt->nkd; j++) {
			free(pt->dims[j].raw);
			free(pt->dims[j].rsc);
		}
		if (pt->tchash)
			rclose_reorder(pt);
	}
	mond_prepare(pt, opt.scol, opt.tcol);
	if (pt->ooc)
		rothko_groups_alloc(pt);
	ntot = pt->nrows;

	if (pt->has_sens)
		msens_prepare(pt, sh, snames);
	/* The whole table must meet the requirements, or nothing can. */
	if (pt->nrows > 0 && !pt->ooc) {
		mond_node_totals(pt, 0, pt->nrows, NULL);
		if (!mond_side_ok(pt, &pt->node.tot, pt->hs_side, 1)) {
			mond_no_solution(in.name, pt->nrows);
		}
		mond_node_clear_totals(pt);
	}

	if (pt->regions_fp != NULL) {
		mond_regions_header(pt, pt->regions_fp);
	}
	if (pt->ooc) {
		struct onode root;
		size_t used = mond_dicts_bytes(pt) + rothko_scan_bytes(pt);

		/* What is left of the budget for the nodes, the groups and
		 * the buckets of the output pass. */
		if (used + 4096 >= pt->budget)
			mond_too_small(pt, "the dictionaries and the read "
			    "buffers alone take %zu MiB, held whatever the "
			    "budget", (used >> 20) + 1);
		/* The table of c ln c (kn_ldiv_table), a speed-up only, in
		 * an eighth of what is left: the least budget that runs is
		 * the same with it. */
		kn_ldiv_table(&pt->req.ld, pt->nrows,
		    (pt->budget - used - 4096) / 8);
		used += kn_ldiv_table_bytes(&pt->req.ld);
		pt->rk->avail = pt->budget - used;
		if (pt->sens_sorted)
			rothko_sens_reserve(pt);
		pt->pairs_path = kn_tmp_new(pt->rk->tmpdir);
		if ((pt->pairs = kn_tmp_open(pt->pairs_path, "wb")) == NULL)
			kn_die_sys("%s", pt->pairs_path);
		pt->acct.bspool = pt->acct.bwritten;
		root.path = pt->spool_path;
		root.n = pt->nrows;
		root.raw = 1;
		root.big = 0;
		root.spec = 0;
		pt->rk->jobs = kn_jobs(&opt);
		rothko_t(pt, &root, in.name);
		rclose_done(pt);
		pt->nrows = ntot;
		if (fflush(pt->pairs) != 0 || ferror(pt->pairs))
			kn_die_sys("%s: write error", pt->pairs_path);
		fclose(pt->pairs);
	} else
		mpar_partition(pt, kn_jobs(&opt));
	kn_progress(pt->acct.classed, pt->acct.bread);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* The regions are in place before the table's first byte. */
	if (pt->regions_fp != NULL)
		kn_close_out(pt->regions_fp);

	/* Pass 2: the rows with their classes. */
	kn_progress_phase("writing", "rows", ntot);
	write_table(pt, &in, opt.columns, classcol, fp,
	    opt.outpath != NULL ? opt.outpath : "standard output",
	    kn_jobs(&opt));
	kn_progress_done();
	kn_input_end(&in);
	kn_close_out(fp);
	kn_input_done(&in);
	if (pt->ooc)
		kn_tmp_close(pt->pairs_path);
	if (opt.verbose && pt->ooc)
		fprintf(stderr,
		    "%s: %s: -S %zu, %zu for nodes; %llu "
		    "scans of node files, %llu bytes written (%llu of them "
		    "the spool) and %llu read in temp files, %llu "
		    "repartitions, %llu nodes in memory, "
		    "%llu classes too large for memory, %llu nodes "
		    "pruned\n",
		    kn_prog, pt->rk->sampling ? "Rothko-S" : "Rothko-T",
		    pt->budget, pt->rk->avail,
		    (unsigned long long)pt->acct.scans,
		    (unsigned long long)pt->acct.bwritten,
		    (unsigned long long)pt->acct.bspool,
		    (unsigned long long)pt->acct.bread,
		    (unsigned long long)pt->acct.repart,
		    (unsigned long long)pt->acct.inmem,
		    (unsigned long long)pt->acct.bigleaf,
		    (unsigned long long)pt->pruned);
	if (opt.verbose && pt->tchash)
		fprintf(stderr, "%s: the sensitive values of -s by their hashes "
		    "(--closeness, its distribution on disk%s): %s\n", kn_prog,
		    pt->tcord ? ", the values by their positions in the "
		    "distance's order" : "",
		    pt->sens_hkey ? "held, their dictionary would take more "
		    "than an eighth of -S, or a node's groups with them more "
		    "than it leaves" : "with --variance, always");
	if (opt.verbose && pt->targ_hashed)
		fprintf(stderr, "%s: the labels of -t by their hashes: their "
		    "dictionary would take more than an eighth of -S\n",
		    kn_prog);
	if (opt.verbose)
		fprintf(stderr,
		    "%s: %llu rows, %u classes, %llu cuts, "
		    "largest class %llu, partitioning %.3f s\n",
		    kn_prog, (unsigned long long)pt->nrows, pt->nclasses,
		    (unsigned long long)pt->ncuts,
		    (unsigned long long)pt->max_class,
		    (double)(t1.tv_sec - t0.tv_sec) +
			(double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	kn_exit(0);
}
