/*
 * extsort: sort TSV rows by key columns within a memory budget, like
 * sort(1) but column-aware and header-aware.  The sorting itself is in
 * extsort.c (external merge sort; paper 004 §2 and §4).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extsort.h"

static const char synopsis[] =
    "usage: extsort [-muv] [-k key[:nr],...] [-o file] [-S size] "
    "[-T dir] [-j n]\n"
    "               [--columns list | --columns-file file] "
    "[--skip-header]\n"
    "               [--no-header] [file ...]\n";

static const char help[] =
    "Sort the rows of tables by key columns, within a memory budget; "
    "the order\n"
    "of LC_ALL=C sort -s.\n"
    "\n"
    "  -k KEY[:nr],...      the keys, most significant first: a column, "
    "by name\n"
    "                       or number, with n (numeric) and r (reverse)\n"
    "  -m                   merge tables already sorted by the keys\n"
    "  -u                   only the first row of each run of equal "
    "keys\n"
    "  --no-header          do not write the header line\n"
    "  -S SIZE              memory budget (64M, 1G...); beyond it, sorted "
    "runs\n"
    "                       in temporary files\n"
    "  -v                   print rows, runs, merge passes and temporary "
    "bytes\n";

/* The short options, for getopt_long and kn_opt_error. */
#define OPTSTRING "S:T:hj:k:mo:uv"

static void __attribute__((noreturn))
usage(int status)
{
	if (status == 0)
		kn_help(synopsis, help, KN_HELP_TABLE | KN_HELP_TMP |
		    KN_HELP_JOBS);
	fputs(synopsis, stderr);
	exit(status);
}

enum { OPT_NOHDR = 256 };

static const struct option longopts[] = {
	KN_TABLE_OPTIONS,
	{ "help", no_argument, NULL, 'h' },
	{ "no-header", no_argument, NULL, OPT_NOHDR },
	KN_OPT_VERSION_ENTRY,
	{ NULL, 0, NULL, 0 }
};

/* Writes a sorted line.  A write error ends the run at once, not after
 * the rest of the input: a reader gone with SIGPIPE ignored, a full
 * disk.  When the whole input is sorted before the first line goes
 * out, lines gather in batch (64 KiB) first; -m writes each line as it
 * comes. */
static struct {
	const char *hdr;	/* the header, still to be written */
	const char *name;	/* -o's, for a write error */
	kn_row batch;
} out;

/* Writes p[0..n), dying of a write error. */
static void
put(FILE *f, const char *p, size_t n)
{
	if (fwrite(p, 1, n, f) != n || ferror(f)) {
		kn_close_out(f);	/* reports the error and exits */
		kn_die("write error");
	}
}

static void
flush_lines(FILE *f)
{
	if (out.batch.len > 0)
		put(f, out.batch.buf, out.batch.len);
	out.batch.len = 0;
}

static void
put_line(const char *line, size_t len, void *ctx)
{
	FILE *f = ctx;
	kn_row *b = &out.batch;

	if (out.hdr != NULL) {
		/* With the first row: an error before it leaves nothing on
		 * the output. */
		fprintf(f, "%s\n", out.hdr);
		out.hdr = NULL;
	}
	if (!b->batch || len >= ((size_t)64 << 10)) {
		/* Written as it is, not copied. */
		flush_lines(f);
		put(f, line, len);
		put(f, "\n", 1);
		return;
	}
	if (b->len + len + 1 > b->cap) {
		flush_lines(f);
		if (b->cap == 0) {
			b->cap = (size_t)64 << 10;
			b->buf = kn_alloc(b->cap);
		}
	}
	memcpy(b->buf + b->len, line, len);
	b->buf[b->len + len] = '\n';
	b->len += len + 1;
}

/* Writes lines already ended by their newlines, as put_line would one
 * by one. */
static void
put_lines(const char *p, size_t n, void *ctx)
{
	FILE *f = ctx;

	if (out.hdr != NULL) {
		fprintf(f, "%s\n", out.hdr);
		out.hdr = NULL;
	}
	flush_lines(f);
	put(f, p, n);
}

/* kn_sort_direct's: for -o's temp file, which no other process holds or
 * reads (the threads' writes land out of order), the header written and
 * the stream flushed, so that the merge's threads write the lines after
 * them into its descriptor; else -1. */
static int
direct_fd(void *ctx, const char **name)
{
	FILE *f = ctx;

	if (!kn_out_private(f))
		return -1;
	if (out.hdr != NULL) {
		fprintf(f, "%s\n", out.hdr);
		out.hdr = NULL;
	}
	flush_lines(f);
	if (fflush(f) == EOF || ferror(f)) {
		kn_close_out(f);	/* reports the error and exits */
		kn_die("write error");
	}
	*name = out.name;
	return fileno(f);
}

int
main(int argc, char *argv[])
{
	kn_opts opt = { 0 };
	char *keyspec = NULL;
	size_t nkey = 0, i;
	int ch, merge = 0, unique = 0, nohdr = 0;
	kn_skey *key = NULL;
	kn_table t, *ts;
	kn_sorter *s;
	FILE *fp;

	kn_init(argv[0]);
	while ((ch = getopt_long(argc, argv, OPTSTRING, longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(0);
		case 'k':
			/* Repeated -k options add keys, as in sort(1). */
			keyspec = kn_listadd(keyspec, optarg);
			break;
		case 'm':
			merge = 1;
			break;
		case 'u':
			unique = 1;
			break;
		case OPT_NOHDR:
			nohdr = 1;
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
	if (opt.budget == 0)
		opt.budget = kn_default_budget();
	opt.tmpdir = kn_tmpdir(opt.tmpdir);

	if (merge) {
		size_t n = argc > 0 ? (size_t)argc : 1;

		ts = kn_alloc(n * sizeof(kn_table));
		for (i = 0; i < n; i++) {
			kn_table_open(&ts[i], argc > 0 ? argv + i : NULL,
			    argc > 0 ? 1 : 0, opt.columns);
			if (i > 0 && !ts[i].headerless &&
			    strcmp(ts[i].hdrline, ts[0].hdrline) != 0)
				kn_die("%s:1: header differs from that of %s",
				    ts[i].r.name, ts[0].r.name);
		}
		if (keyspec != NULL)
			nkey = kn_sort_keys(&ts[0], keyspec, &key);
		fp = kn_open_out_inplace(opt.outpath, argv, (size_t)argc);
		if (!ts[0].headerless && !nohdr)
			out.hdr = ts[0].hdrline;
		s = kn_sort_new(key, nkey, ts[0].ncols, opt.budget, opt.tmpdir);
		kn_sort_merge_tables(s, ts, n, unique, put_line, fp);
	} else {
		kn_table_open(&t, argv, (size_t)argc, opt.columns);
		if (keyspec != NULL)
			nkey = kn_sort_keys(&t, keyspec, &key);
		fp = kn_open_out_inplace(opt.outpath, argv, (size_t)argc);
		if (!t.headerless && !nohdr)
			out.hdr = t.hdrline;
		s = kn_sort_new(key, nkey, t.ncols, opt.budget, opt.tmpdir);
		kn_sort_threads(s, kn_jobs(&opt));
		kn_sort_bulk(s, put_lines);
		out.name = opt.outpath;
		kn_sort_direct(s, direct_fd);
		out.batch.batch = 1;
		kn_sort_table(s, &t);
		kn_sort_finish(s, unique, put_line, fp);
	}
	if (out.hdr != NULL)
		fprintf(fp, "%s\n", out.hdr);	/* no rows */
	flush_lines(fp);
	free(out.batch.buf);
	kn_close_out(fp);
	if (opt.verbose) {
		const kn_sortstats *st = kn_sort_stats(s);

		fprintf(stderr, "%s: %llu rows, %llu runs, %llu merge passes, "
		    "%llu bytes written to and %llu read from temp files\n",
		    kn_prog, (unsigned long long)st->rows,
		    (unsigned long long)st->runs,
		    (unsigned long long)st->merge_passes,
		    (unsigned long long)st->bytes_written,
		    (unsigned long long)st->bytes_read);
	}
	kn_sort_free(s);
	kn_exit(0);
}
