/*
 * freqset: the frequency set of a table, GROUP BY the named columns with
 * a count, optionally generalized to hierarchy levels and with exact sums
 * and sums of squares of numeric columns.  --merge sums frequency sets,
 * so the program serves as map, combine and reduce step.
 *
 * Frequency sets and their roll-up: paper 000 §3 (Incognito); the
 * count/sum statistics are those Rothko needs (paper 004 §2-3).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kanon.h"

static const char synopsis[] =
    "usage: freqset [-v] [-H attr=spec|dir] [-L attr=level,...] "
    "[-o file]\n"
    "               [-j n] [-q columns] [-S size] [-T dir] [--sum column] "
    "[--merge\n"
    "               [--sorted]] [--no-header] [--progress]\n"
    "               [--columns list | --columns-file file] "
    "[--skip-header]\n"
    "               [file ...]\n";

static const char help[] =
    "Count the rows of a table by its key columns: a frequency set.\n"
    "\n"
    "  -q COLUMNS           the key columns, by name or number (default: "
    "all)\n"
    "  -L COL=LEVEL,...     count COL at LEVEL of its hierarchy (-H)\n"
    "  --sum COLUMN         add COLUMN_sum and COLUMN_sumsq, exact, to each "
    "group\n"
    "  --merge              sum frequency sets instead of counting a table\n"
    "  --sorted             with --merge: the input is in byte order, "
    "merged in\n"
    "                       constant memory\n"
    "  --no-header          do not write the header line\n"
    "  -S SIZE              memory budget (64M, 1G...); beyond it, sorted "
    "runs\n"
    "                       in temporary files\n"
    "  -v                   print rows, groups, runs and CPU time on "
    "stderr\n";

/* The short options, for getopt_long and kn_opt_error. */
#define OPTSTRING "H:L:S:T:hj:o:q:v"

static void __attribute__((noreturn))
usage(int status)
{
	if (status == 0)
		kn_help(synopsis, help, KN_HELP_HIER | KN_HELP_TABLE |
		    KN_HELP_OCSV | KN_HELP_MISSING | KN_HELP_TMP |
		    KN_HELP_JOBS | KN_HELP_PROGRESS);
	fputs(synopsis, stderr);
	exit(status);
}

enum { OPT_SUM = 256, OPT_MERGE, OPT_SORTED, OPT_NOHDR, OPT_PROGRESS };

static const struct option longopts[] = {
	KN_TABLE_OPTIONS,
	KN_OPT_MISSING_ENTRY,
	KN_OUT_OPTIONS,
	{ "help", no_argument, NULL, 'h' },
	KN_OPT_PROGRESS_ENTRY,
	{ "merge", no_argument, NULL, OPT_MERGE },
	{ "no-header", no_argument, NULL, OPT_NOHDR },
	{ "sorted", no_argument, NULL, OPT_SORTED },
	{ "sum", required_argument, NULL, OPT_SUM },
	KN_OPT_VERSION_ENTRY,
	{ NULL, 0, NULL, 0 }
};

/* Parses "attr=level,..." into levels[] of the key columns. */
static void
parse_levels(const char *arg, const kn_table *t, const size_t *key,
    size_t d, kn_hier **h, int *level)
{
	char *s = kn_strdup(arg), *item, *eq, *save = NULL;
	size_t c, col;

	for (item = strtok_r(s, ",", &save); item != NULL;
	    item = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(item, '=')) == NULL)
			kn_die("-L %s: expected attr=level", arg);
		*eq = '\0';
		col = kn_table_col(t, item);
		for (c = 0; c < d && key[c] != col; c++)
			;
		if (c == d)
			kn_die("-L %s: '%s' is not a grouped column", arg, item);
		if (h[c] == NULL)
			kn_die("-L %s: '%s' has no hierarchy (give one with -H)",
			    arg, item);
		level[c] = (int)kn_parse_int(eq + 1, 0, h[c]->nlevels - 1,
		    "-L level");
	}
	free(s);
}

struct wctx {
	FILE *fp;
	size_t d, nsum;
	uint64_t groups;
	int hdr;		/* the header is still to be written */
	const kn_table *t;
	const size_t *key;
	char **sumspec;
	kn_row row;
	const char *outname;	/* -o, for messages */
};

/* Writes the header line: key columns, count, sums. */
static void
header(struct wctx *w)
{
	char buf[512];
	size_t c, j;

	for (c = 0; c < w->d; c++)
		kn_row_adds(&w->row, w->t->names[w->key[c]]);
	kn_row_adds(&w->row, "count");
	for (j = 0; j < w->nsum; j++) {
		snprintf(buf, sizeof(buf), "%s_sum", w->sumspec[j]);
		kn_row_adds(&w->row, buf);
		snprintf(buf, sizeof(buf), "%s_sumsq", w->sumspec[j]);
		kn_row_adds(&w->row, buf);
	}
	kn_row_put(&w->row, w->fp, w->outname);
}

/* Adds the fields of one group to row: labels, count, sums (w is only
 * read: the threads of -j format their groups with it). */
static void
fields(const kn_fsrow *r, kn_row *row, const struct wctx *w)
{
	char num[64];
	size_t c, j;

	for (c = 0; c < w->d; c++)
		kn_row_add(row, r->key[c].p, r->key[c].n);
	kn_row_add(row, num, kn_fmt_u64(num, r->cnt));
	for (j = 0; j < w->nsum; j++) {
		kn_row_add(row, num, kn_dec_format(r->s[j], r->sc[j], num));
		kn_row_add(row, num, kn_dec_format(r->ss[j], r->ssc[j], num));
	}
}

/* The header, written with the first group: an error in the input then
 * leaves nothing on the output. */
static void
first_group(struct wctx *w)
{
	if (w->hdr) {
		header(w);
		w->hdr = 0;
	}
}

/* Writes one group.  A write error ends the run at once, not after the
 * rest of the input (--merge --sorted streams): a reader gone with
 * SIGPIPE ignored, a full disk. */
static void
write_row(const kn_fsrow *r, void *ctx)
{
	struct wctx *w = ctx;

	first_group(w);
	fields(r, &w->row, w);
	kn_row_put(&w->row, w->fp, w->outname);
	w->groups++;
}

/* A group formatted on a thread of -j. */
static void
format_row(const kn_fsrow *r, kn_row *row, void *ctx)
{
	fields(r, row, ctx);
	kn_row_end(row);
}

/* Writes the rows of n groups formatted on the threads, in order. */
static void
write_rows(const char *p, size_t len, uint64_t n, void *ctx)
{
	struct wctx *w = ctx;

	first_group(w);
	kn_row_flush(&w->row, w->fp, w->outname);
	if (fwrite(p, 1, len, w->fp) != len)
		kn_die_sys("%s: write error", w->outname != NULL ?
		    w->outname : "standard output");
	w->groups += n;
}

int
main(int argc, char *argv[])
{
	kn_opts opt = { 0 };
	kn_hopts hopts = { 0, NULL };
	kn_table t;
	kn_hier **h;
	kn_dict *dict;
	kn_freqstats st = { 0, 0, 0, 0, 0 };
	char *levels = NULL, **sumspec = NULL;
	size_t *key, *sumcol, d, nsum = 0, c, j, i, cntcol = 0;
	uint64_t groups;
	int ch, merge = 0, sorted = 0, nohdr = 0, *level;
	clock_t t0 = clock();
	FILE *fp;

	kn_init(argv[0]);
	while ((ch = getopt_long(argc, argv, OPTSTRING, longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'H':
			kn_hopts_add(&hopts, optarg);
			break;
		case 'L':
			levels = kn_listadd(levels, optarg);
			break;
		case 'h':
			usage(0);
		case OPT_MERGE:
			merge = 1;
			break;
		case OPT_NOHDR:
			nohdr = 1;
			break;
		case OPT_SORTED:
			sorted = 1;
			break;
		case OPT_SUM:
			sumspec = kn_realloc(sumspec, (nsum + 1) *
			    sizeof(char *));
			sumspec[nsum++] = optarg;
			break;
		default:
			if (kn_opts_take(&opt, ch, optarg))
				break;
			if (ch == '?')
				kn_opt_error(argv, OPTSTRING);
			usage(2);
		}
	}
	argc -= optind;
	argv += optind;
	kn_progress_init(opt.progress);
	if (opt.budget == 0)
		opt.budget = kn_default_budget();
	if (merge && nsum > 0)
		kn_die("--sum does not apply to --merge: the sums of the "
		    "input are carried over");

	if (sorted && !merge)
		kn_die("--sorted applies to --merge only");
	if (sorted && (levels != NULL || hopts.n > 0))
		kn_die("--sorted merges groups as they are: -H and -L do not "
		    "apply");
	kn_table_open(&t, argv, (size_t)argc, opt.columns);
	/* Open the output first: a bad path fails before the work. */
	fp = kn_open_out_inplace(opt.outpath, argv, (size_t)argc);

	/* The key columns, and in merge mode the count and sum columns. */
	if (merge) {
		cntcol = kn_table_countcol(&t, "--merge");
		if ((t.ncols - cntcol - 1) % 2 != 0)
			kn_die("%s: after 'count' a frequency set has pairs of "
			    "X_sum, X_sumsq columns", t.r.name);
		nsum = (t.ncols - cntcol - 1) / 2;
		sumspec = kn_alloc((nsum + 1) * sizeof(char *));
		for (j = 0; j < nsum; j++) {
			const char *a = t.names[cntcol + 1 + 2 * j];
			const char *b = t.names[cntcol + 2 + 2 * j];
			size_t al = strlen(a);

			if (al < 5 || strcmp(a + al - 4, "_sum") != 0 ||
			    strlen(b) != al + 2 || strncmp(a, b, al) != 0 ||
			    strcmp(b + al, "sq") != 0)
				kn_die("%s: columns '%s', '%s': expected a pair "
				    "X_sum, X_sumsq", t.r.name, a, b);
			sumspec[j] = kn_strndup(a, al - 4);
		}
	}
	if (opt.qlist != NULL) {
		d = kn_table_cols(&t, opt.qlist, &key);
		for (c = 0; sorted && c < d; c++)
			if (key[c] != c || d != cntcol)
				kn_die("--sorted: -q must name the key columns "
				    "(those before 'count'), in order");
		for (c = 0; merge && c < d; c++)
			if (key[c] >= cntcol)
				kn_die("-q: '%s' is not a key column of the "
				    "frequency set", t.names[key[c]]);
	} else {
		d = merge ? cntcol : t.ncols;
		key = kn_alloc((d + 1) * sizeof(size_t));
		for (c = 0; c < d; c++)
			key[c] = c;
	}
	for (c = 0; !merge && c < d; c++)
		if (strcmp(t.names[key[c]], "count") == 0)
			kn_die("%s%s column 'count' clashes with the count "
			    "column of the output", t.headerless ? "--columns" :
			    t.r.name, t.headerless ? ":" : ":1:");
	sumcol = kn_alloc((nsum + 1) * sizeof(size_t));
	for (j = 0; j < nsum; j++) {
		sumcol[j] = merge ? cntcol + 1 + 2 * j :
		    kn_table_col(&t, sumspec[j]);
		for (i = 0; !merge && i < j; i++)
			if (sumcol[i] == sumcol[j])
				kn_die("--sum %s: column summed twice",
				    sumspec[j]);
	}

	/* Hierarchies and levels. */
	{
		char **kn = kn_alloc((d + 1) * sizeof(char *));

		for (c = 0; c < d; c++)
			kn[c] = t.names[key[c]];
		kn_hopts_check(&hopts, kn, d);
		free(kn);
	}
	h = kn_zalloc((d + 1) * sizeof(kn_hier *));
	level = kn_zalloc((d + 1) * sizeof(int));
	dict = kn_alloc((d + 1) * sizeof(kn_dict));
	for (c = 0; c < d; c++) {
		h[c] = kn_hopts_get(&hopts, t.names[key[c]]);
		kn_dict_init(&dict[c]);
	}
	if (levels != NULL)
		parse_levels(levels, &t, key, d, h, level);

	/* Count, and write the groups in order. */
	{
		kn_countspec cs;
		struct wctx w = { fp, d, nsum, 0, !nohdr, &t, key, sumspec,
			{ NULL, 0, 0, 0, 0, 0 }, opt.outpath };
		size_t *used = kn_alloc((d + nsum + 1) * sizeof(size_t));

		memcpy(used, key, d * sizeof(size_t));
		if (nsum > 0)
			memcpy(used + d, sumcol, nsum * sizeof(size_t));
		used[d + nsum] = cntcol;
		kn_table_carry(&t, used, d + nsum + (merge != 0), 0);
		free(used);

		memset(&cs, 0, sizeof(cs));
		cs.d = d;
		cs.key = key;
		cs.dict = dict;
		cs.hier = h;
		cs.hascount = merge;
		cs.cntcol = cntcol;
		cs.nsum = nsum;
		cs.sumcol = sumcol;
		cs.pairs = merge;
		cs.jobs = kn_jobs(&opt);
		/* --sorted writes each group as it ends (a reducer streams);
		 * the others, once the table is read, in batches. */
		w.row.batch = !sorted;
		cs.fmt = format_row;
		cs.blk = write_rows;
		if (sorted)
			kn_freq_sorted(&t, &cs, write_row, &w, &st);
		else
			kn_freq(&t, &cs, level, opt.budget, kn_tmpdir(opt.tmpdir),
			    write_row, &w, &st);
		groups = w.groups;
		if (w.hdr)
			header(&w);
		kn_row_flush(&w.row, fp, opt.outpath);
		free(w.row.buf);
	}
	kn_close_out(fp);
	if (opt.verbose)
		fprintf(stderr, "%s: %llu rows, %llu groups, %llu runs, "
		    "%llu merge passes, %llu bytes written to temp files, "
		    "%.2f s CPU\n", kn_prog, (unsigned long long)st.rows,
		    (unsigned long long)groups, (unsigned long long)st.runs,
		    (unsigned long long)st.merge_passes,
		    (unsigned long long)st.bytes_written,
		    (double)(clock() - t0) / CLOCKS_PER_SEC);
	kn_exit(0);
}
