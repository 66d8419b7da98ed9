/*
 * lattice-search's main: the options and their checks, the table
 * opened and its columns resolved (the quasi-identifiers, the sensitive
 * columns, a frequency set's count) with their hierarchies; the search,
 * the output and the statistics of -v are lattice.c's (lat_search).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kanon.h"
#include "lattice.h"

/* The names -a takes (kn_name_eq): each algorithm's own, and those of
 * the README and the papers. */
static const struct {
	const char *name;
	int algo;
} algalias[] = {
	{ "incognito", A_INCOGNITO },
	{ "basic", A_INCOGNITO },
	{ "basic-incognito", A_INCOGNITO },
	{ "super-roots", A_SUPERROOTS },
	{ "superroots", A_SUPERROOTS },
	{ "super-roots-incognito", A_SUPERROOTS },
	{ "cube", A_CUBE },
	{ "cube-incognito", A_CUBE },
	{ "samarati", A_SAMARATI },
	{ "binary", A_SAMARATI },
	{ "binary-search", A_SAMARATI },
	{ "bfs", A_BFS },
	{ "breadth-first", A_BFS },
	{ "breadth-first-search", A_BFS },
	{ "bfs-scan", A_BFSSCAN },
	{ "flash", A_FLASH },
	{ "predictive-tagging", A_FLASH },
};

static const char *const metname[] = { "cdm", "cavg", "height", "prec",
    "loss" };

static const char synopsis[] =
    "usage: lattice-search [-v] [-a algorithm] [-H attr=spec|dir] "
    "[-j threads]\n"
    "                      [-k k] [-o file] [-q columns] [-S size] "
    "[-T dir]\n"
    "                      [--max-suppress n|p%] [-s columns [-l l "
    "[--diversity\n"
    "                      distinct|entropy|recursive] [-c c]] "
    "[--closeness t\n"
    "                      [--distance equal|ordered|hierarchical]]] "
    "[--metric name]\n"
    "                      [--all | --best] [--raw] [--columns list | "
    "--columns-file\n"
    "                      file] [--skip-header] [--progress] [file]\n";

static const char help[] =
    "The k-minimal full-domain generalizations (lattice nodes) of a "
    "table or of\n"
    "its frequency set, best first.\n"
    "\n"
    "  -q COLUMNS           the quasi-identifiers (default: the keys of "
    "a\n"
    "                       frequency set)\n"
    "  -a ALGORITHM         incognito (or basic), super-roots, cube, "
    "samarati\n"
    "                       (or binary), bfs (or breadth-first), "
    "bfs-scan, flash\n"
    "  --max-suppress N|P%  a node may suppress up to N rows, or P% of "
    "them\n"
    "  --best               only the best qualifying node by --metric\n"
    "  --all                every qualifying node, not only the minimal "
    "ones\n"
    "  --metric NAME        the order: cdm (the default), cavg, height, "
    "prec, loss\n"
    "  --raw                a column named count is data, not a count\n"
    "  -j THREADS           search on THREADS threads (default: one per "
    "CPU)\n"
    "  -S SIZE              memory budget (64M, 1G...) for the input and "
    "the\n"
    "                       frequency sets kept for roll-ups\n"
    "  -v                   print the statistics of the search on "
    "stderr\n";

/* The short options, for getopt_long and kn_opt_error. */
#define OPTSTRING "H:S:T:a:c:hj:k:l:o:q:s:v"

static void __attribute__((noreturn))
usage(int status)
{
	if (status == 0)
		kn_help(synopsis, help, KN_HELP_HIER | KN_HELP_REQ |
		    KN_HELP_TABLE | KN_HELP_MISSING | KN_HELP_TMP |
		    KN_HELP_PROGRESS);
	fputs(synopsis, stderr);
	exit(status);
}

enum { OPT_ALL = 256, OPT_BEST, OPT_MAXSUPP, OPT_METRIC, OPT_RAW };

static const struct option longopts[] = {
	{ "all", no_argument, NULL, OPT_ALL },
	{ "best", no_argument, NULL, OPT_BEST },
	KN_TABLE_OPTIONS,
	KN_OPT_MISSING_ENTRY,
	KN_OPT_CLOSENESS_ENTRIES,
	KN_OPT_DIVERSITY_ENTRY,
	{ "help", no_argument, NULL, 'h' },
	{ "max-suppress", required_argument, NULL, OPT_MAXSUPP },
	{ "metric", required_argument, NULL, OPT_METRIC },
	KN_OPT_PROGRESS_ENTRY,
	{ "raw", no_argument, NULL, OPT_RAW },
	KN_OPT_VERSION_ENTRY,
	{ NULL, 0, NULL, 0 }
};

int
main(int argc, char *argv[])
{
	kn_opts opt = { 0 };
	kn_hopts hopts = { 0, NULL };
	kn_table t;
	struct lat_run r;
	kn_hier **hier;
	size_t *qi, *sidx = NULL, nq, ns = 0, c, cntcol = 0, j;
	uint64_t lattice = 1;
	int ch, raw = 0, freq = 0;

	kn_init(argv[0]);
	memset(&r, 0, sizeof(r));
	kn_req_init(&r.req);
	r.req.k = 2;
	r.algo = -1;
	while ((ch = getopt_long(argc, argv, OPTSTRING,
	    longopts, NULL)) != -1) {
		switch (ch) {
		case 'H':
			kn_hopts_add(&hopts, optarg);
			break;
		case 'a':
			for (j = 0; j < sizeof(algalias) / sizeof(algalias[0]) &&
			    !kn_name_eq(optarg, algalias[j].name); j++)
				;
			if (j == sizeof(algalias) / sizeof(algalias[0]))
				kn_die("-a: '%s' is not an algorithm: incognito "
				    "(or basic), super-roots, cube, samarati (or "
				    "binary), bfs (or breadth-first), bfs-scan or "
				    "flash, in any case", optarg);
			r.algo = algalias[j].algo;
			break;
		case 'h':
			usage(0);
		case 'j':
			r.threads = (int)kn_parse_int(optarg, 1, 64, "-j");
			break;
		case OPT_ALL:
			r.all = 1;
			break;
		case OPT_BEST:
			r.best = 1;
			break;
		case OPT_MAXSUPP:
			kn_limit_parse(&r.lim, optarg, "--max-suppress");
			break;
		case OPT_METRIC:
			for (r.metric = 0; r.metric <= M_LOSS &&
			    strcmp(optarg, metname[r.metric]) != 0; r.metric++)
				;
			if (r.metric > M_LOSS)
				kn_die("--metric: '%s' is not cdm, cavg, height, "
				    "prec or loss", optarg);
			break;
		case OPT_RAW:
			raw = 1;
			break;
		default:
			if (kn_req_opt(&r.req, ch, optarg) ||
			    kn_opts_take(&opt, ch, optarg))
				break;
			if (ch == '?')
				kn_opt_error(argv, OPTSTRING);
			usage(2);
		}
	}
	argc -= optind;
	argv += optind;
	kn_progress_init(opt.progress);
	if (argc > 1)
		kn_die("one table at a time (got %d files)", argc);
	if (r.all && r.best)
		kn_die("--all and --best exclude each other");
	kn_req_check(&r.req, opt.scol != NULL);
	if (opt.scol != NULL && !r.req.ld.on && !r.req.hast)
		kn_die("-s: give the requirement on it with -l or "
		    "--closeness");
	if (opt.budget == 0)
		opt.budget = kn_default_budget();
	opt.tmpdir = kn_tmpdir(opt.tmpdir);
	if (r.threads == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		r.threads = n < 1 ? 1 : n > 64 ? 64 : (int)n;
	}

	kn_table_open(&t, argv, (size_t)argc, opt.columns);
	r.out = kn_open_out_inplace(opt.outpath, argv, (size_t)argc);
	if (r.req.ld.on || r.req.hast) {
		ns = kn_table_cols(&t, opt.scol, &sidx);
		if (ns > KN_MAXSENS)
			kn_die("-s: more than %d sensitive columns", KN_MAXSENS);
	}
	/* A column named count that is neither a quasi-identifier nor a
	 * sensitive column makes the input a frequency set (unless --raw). */
	if (!raw) {
		for (c = 0; c < t.ncols && strcmp(t.names[c], "count") != 0;
		    c++)
			;
		for (j = 0; j < ns && c < t.ncols; j++)
			if (sidx[j] == c)
				c = t.ncols;
		if (c < t.ncols) {
			freq = 1;
			cntcol = c;
		}
	}
	if (opt.qlist != NULL)
		nq = kn_table_cols(&t, opt.qlist, &qi);
	else if (freq) {
		qi = kn_alloc((t.ncols + 1) * sizeof(size_t));
		for (nq = 0, c = 0; c < cntcol; c++) {
			for (j = 0; j < ns && sidx[j] != c; j++)
				;
			if (j == ns)
				qi[nq++] = c;
		}
	} else
		kn_die("-q: name the quasi-identifiers (a frequency set "
		    "with a count column needs none)");
	if (nq == 0)
		kn_die("-q: no quasi-identifiers");
	if (nq > MAXQ)
		kn_die("-q: more than %d quasi-identifiers", MAXQ);
	for (c = 0; c < nq; c++)
		if (freq && qi[c] == cntcol) {
			/* The count column is a quasi-identifier: a table. */
			freq = 0;
			break;
		}
	kn_hopts_check(&hopts, t.names, t.ncols);
	hier = kn_zalloc((nq + ns + 2) * sizeof(kn_hier *));
	for (c = 0; c < nq; c++) {
		hier[c] = kn_hopts_get(&hopts, t.names[qi[c]]);
		if (hier[c] == NULL)
			kn_die("'%s' has no hierarchy (give one with -H)",
			    t.names[qi[c]]);
		if (lattice > MAXLAT / (uint64_t)hier[c]->nlevels)
			kn_die("the lattice has more than %llu nodes",
			    (unsigned long long)MAXLAT);
		lattice *= (uint64_t)hier[c]->nlevels;
	}
	for (j = 0; j < ns; j++) {
		for (c = 0; c < nq; c++)
			if (qi[c] == sidx[j])
				kn_die("-s %s is also a quasi-identifier",
				    t.names[sidx[j]]);
		if (freq && sidx[j] > cntcol)
			kn_die("-s: '%s' must be a key column of the frequency "
			    "set", t.names[sidx[j]]);
		if (r.req.hast && r.req.dist == KN_DIST_HIER &&
		    (r.shier[j] = kn_hopts_get(&hopts, t.names[sidx[j]])) ==
		    NULL)
			kn_die("--distance hierarchical: the sensitive column "
			    "'%s' has no hierarchy (give one with -H)",
			    t.names[sidx[j]]);
	}
	/* The sensitive values counted by their identity (kanon(7),
	 * Sensitive values). */
	kn_table_canon_sens(&t, sidx, ns, r.shier);
	r.verbose = opt.verbose;
	r.budget = opt.budget;
	r.tmpdir = opt.tmpdir;
	r.t = &t;
	r.nq = nq;
	r.qi = qi;
	r.ns = ns;
	r.sidx = sidx;
	r.freq = freq;
	r.cntcol = cntcol;
	r.hier = hier;
	r.lattice = lattice;
	kn_exit(lat_search(&r));
}
