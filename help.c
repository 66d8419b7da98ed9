/*
 * help.c: --help.  A program prints its synopsis, one line about what
 * it does and its own options; the options that several programs spell
 * the same way (kn_opts_take, kn_req_opt, -H, the table options) are
 * described here once, so that they read the same in every program.
 * The man pages are the reference: these are reminders that fit on a
 * screen.
 */
#include <string.h>
#include <unistd.h>

#include "kanon.h"

/* The shared options' lines, each printed when the program takes all
 * of mask and none of unless.  The descriptions start in column 24, as
 * in the programs' own lines. */
static const struct {
	unsigned mask, unless;
	const char *text;
} shared[] = {
	{ KN_HELP_HIER, 0,
"  -H COL=SPEC|DIR      COL's hierarchy: a file, interval:W,..., mask:N,...\n"
"                       or date:LEVELS; or a DIR of files named by column\n" },
	{ KN_HELP_REQ, 0,
"  -k K                 every class has at least K rows\n" },
	{ KN_HELP_REQ | KN_HELP_VARIANCE, 0,
"  -s COLUMN            the sensitive column, for -l, --variance, --closeness\n" },
	{ KN_HELP_REQ, KN_HELP_VARIANCE,
"  -s COLUMN            the sensitive column, for -l or --closeness\n" },
	{ KN_HELP_REQ, 0,
"  -l L                 every class is L-diverse in -s\n"
"  --diversity KIND     distinct (default), entropy, or recursive with -c C\n"
"  --closeness T        every class's -s is within T (0 to 1) of the table's\n"
"  --distance D         equal (default), ordered, or hierarchical (-H of -s)\n" },
	{ KN_HELP_VARIANCE, 0,
"  --variance V         the variance of -s in every class is at least V\n" },
	{ KN_HELP_TABLE, 0,
"  --columns LIST       the input has no header line: LIST names its fields\n"
"  --columns-file FILE  the same, the names read from FILE\n"
"  --skip-header        drop every input line that equals the header\n"
"  --icsv               read CSV (RFC 4180) instead of TSV\n"
"  --ifs SEP            the CSV field separator (implies --icsv; ';' for ARX\n"
"                       files, ', ' for UCI adult.data)\n" },
	{ KN_HELP_OCSV, 0,
"  --ocsv               write the output table as CSV\n"
"  --ofs SEP            the CSV separator of the output (implies --ocsv)\n"
"  --csv                both --icsv and --ocsv\n" },
	{ KN_HELP_MISSING, 0,
"  --missing TOKENS     comma list of the tokens that mean a missing value\n"
"                       (the empty field is always missing)\n" },
	{ KN_HELP_DATE, 0,
"  --date COLUMNS       columns holding ISO 8601 dates or date-times\n"
"                       (YYYY-MM-DD, YYYY-MM-DDThh:mm:ss)\n" },
	{ 0, 0,
"  -o FILE              write to FILE, replaced only once complete\n" },
	{ KN_HELP_TMP, 0,
"  -T DIR               temporary files in DIR (default $TMPDIR or /tmp)\n" },
	{ KN_HELP_JOBS, 0,
"  -j N                 threads (default: the online CPUs); the output is\n"
"                       the same for every N\n" },
	{ KN_HELP_PROGRESS, 0,
"  --progress           show progress on stderr even when not a terminal\n" },
	{ 0, 0,
"  -h, --help           print this help and exit\n"
"      --version        print the version and exit\n" },
};

void
kn_help(const char *usage, const char *own, unsigned mask)
{
	size_t i;

	fputs(usage, stdout);
	putchar('\n');
	fputs(own, stdout);
	for (i = 0; i < sizeof(shared) / sizeof(shared[0]); i++)
		if ((shared[i].mask & mask) == shared[i].mask &&
		    (shared[i].unless & mask) == 0)
			fputs(shared[i].text, stdout);
	printf("\nSee %s(1), and kanon(7) for what the programs share.\n",
	    kn_prog);
	kn_exit(0);
}

void
kn_opt_error(char *const *argv, const char *optstring)
{
	const char *tok = optind > 0 ? argv[optind - 1] : NULL;
	const char *os = optstring + (*optstring == '+' || *optstring == '-');
	/* glibc keeps a byte past 0x7f as a negative char. */
	int c = optopt >= 256 ? optopt : (unsigned char)optopt;
	int lng = tok != NULL && strncmp(tok, "--", 2) == 0;
	int known = c >= 256 || (c > 0 && c != ':' && strchr(os, c) != NULL);
	size_t n = lng ? strcspn(tok, "=") : 0;

	/* getopt_long (opterr 0, kn_init) left in optopt the option whose
	 * value is missing (or, for a long one, that takes none), a short
	 * option it does not know, or 0 for a long one it does not. */
	if (!known && c >= 0x80)
		kn_warn("-\\x%02x: unknown option", c);	/* a byte of UTF-8 */
	else if (!known && c > 0)
		kn_warn("-%c: unknown option", c);
	else if (lng)
		kn_warn("%.*s: %s", (int)n, tok, !known ?
		    "unknown option, or short for more than one" :
		    tok[n] == '=' ? "takes no value" : "needs a value");
	else if (known)
		kn_warn("-%c: needs a value", c);
	else
		kn_warn("%s: unknown option", tok != NULL ? tok : "?");
}
