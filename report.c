/*
 * report.c: score's figures, written as name<TAB>value lines and kept
 * for the release report: one self-contained XHTML page with inline SVG
 * (--report: no script, no style sheet or font from elsewhere) that a
 * privacy officer can read and archive, or one JSON object (--json)
 * carrying the same facts.  Every string that comes from the data or
 * the command line is escaped here, in the one place, for XML and for
 * JSON.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "sha256.h"

int
report_opt(report_opts *o, int ch, const char *arg)
{
	kn_i128 m;
	int sc;

	switch (ch) {
	case REPORT_OPT_CMD:
		o->cmd = kn_realloc(o->cmd, (o->ncmd + 1) * sizeof(*o->cmd));
		o->cmd[o->ncmd++] = arg;
		return 1;
	case REPORT_OPT_JSON:
		o->json = 1;
		return 1;
	case REPORT_OPT_POP:
		o->pop = arg;
		o->risk = 1;
		return 1;
	case REPORT_OPT_REPORT:
		o->path = arg;
		return 1;
	case REPORT_OPT_RISK:
		o->risk = 1;
		return 1;
	case REPORT_OPT_FRAC:
		/* A decimal as kanon(7) Numbers has them: no space, no
		 * exponent (strtod took ' 0.5' and 5e-1). */
		if (!kn_dec_parse(arg, strlen(arg), &m, &sc))
			kn_die("--sampling-fraction: '%s' %s", arg,
			    kn_dec_why(arg, strlen(arg), "is not a number in "
			    "(0, 1]: the share of the population that the "
			    "table holds"));
		if (m <= 0 || kn_dec_cmp(m, sc, 1, 0) > 0)
			kn_die("--sampling-fraction: '%s' is not a number in "
			    "(0, 1]: the share of the population that the "
			    "table holds", arg);
		o->pi = strtod(arg, NULL);
		o->risk = 1;
		return 1;
	}
	return 0;
}

void
report_opts_check(const report_opts *o)
{
	if (o->ncmd > 0 && !REPORT_ON(o))
		kn_die("--command: the command lines go into the report "
		    "(--report or --json)");
	if (o->path != NULL && strcmp(o->path, "-") == 0)
		kn_die("--report: give a file (--json writes to the standard "
		    "output)");
}

void
report_columns(report *rp, const kn_table *t, const size_t *qi,
    size_t nq, const size_t *s, size_t ns, size_t tc, size_t lim)
{
	size_t c, j;

	rp->ncol = t->ncols;
	rp->colname = t->names;
	rp->role = kn_alloc(t->ncols + 1);
	for (c = 0; c < t->ncols; c++)
		rp->role[c] = c >= lim ? REPORT_NONE : c == tc ?
		    REPORT_TARGET : REPORT_OTHER;
	for (j = 0; j < ns; j++)
		if (s[j] < lim)
			rp->role[s[j]] = REPORT_SENS;
	for (c = 0; c < nq; c++)
		rp->role[qi[c]] = REPORT_QI;
}

void
report_init(report *rp, FILE *text)
{
	memset(rp, 0, sizeof(*rp));
	rp->text = text;
}

void
report_vput(report *rp, const char *name, const char *fmt, va_list ap)
{
	char buf[128];
	int n;

	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < 0 || (size_t)n >= sizeof(buf))
		kn_die("internal error: the figure %s is too long", name);
	if (rp->text != NULL)
		fprintf(rp->text, "%s\t%s\n", name, buf);
	if (rp->nfig == rp->figcap) {
		rp->figcap = rp->figcap ? 2 * rp->figcap : 64;
		rp->fig = kn_realloc(rp->fig, rp->figcap * sizeof(report_fig));
	}
	rp->fig[rp->nfig].name = kn_strndup(name, strlen(name));
	rp->fig[rp->nfig++].value = kn_strndup(buf, (size_t)n);
}

void
report_put(report *rp, const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_vput(rp, name, fmt, ap);
	va_end(ap);
}

int
report_hash(const char *path, char *hex)
{
	unsigned char buf[1 << 16];
	struct stat st;
	sha256_ctx c;
	off_t off = 0;
	ssize_t got;
	int fd;

	if (path == NULL || strcmp(path, "-") == 0)
		fd = 0;
	else if ((fd = open(path, O_RDONLY)) < 0)
		kn_die_sys("%s", path);
	if (fstat(fd, &st) != 0)
		kn_die_sys("%s", path ? path : "stdin");
	if (!S_ISREG(st.st_mode)) {
		if (fd != 0)
			close(fd);
		return 0;
	}
	sha256_init(&c);
	for (;;) {
		got = pread(fd, buf, sizeof(buf), off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			kn_die_sys("%s: read error", path ? path : "stdin");
		if (got == 0)
			break;
		sha256_update(&c, buf, (size_t)got);
		off += got;
	}
	if (fd != 0)
		close(fd);
	sha256_hex(&c, hex);
	return 1;
}

void
report_run(report *rp, int argc, char **argv, const report_opts *o,
    const kn_req *req, const char *scol)
{
	rp->argc = argc;
	rp->argv = argv;
	rp->cmd = o->cmd;
	rp->ncmd = o->ncmd;
	rp->req = req;
	rp->scol = scol;
}

void
report_file_set(report_file *t, const char *path, uint64_t lines)
{
	if (path != NULL && strcmp(path, "-") == 0)
		path = NULL;
	t->name = path != NULL ? path : "standard input";
	t->lines = lines;
	t->hashed = report_hash(path, t->sha256);
}

uint64_t
report_lines(const char *path, const char *columns)
{
	kn_table t;
	char *paths[1];
	uint64_t n;

	paths[0] = (char *)path;
	kn_table_open(&t, paths, 1, columns);
	while (kn_table_next(&t))
		;
	n = t.rows;
	kn_table_free(&t);
	return n;
}

/* The length of the UTF-8 sequence at s[0..n), or 0 if it is none
 * (overlong forms, surrogates and code points past U+10FFFF are
 * none). */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    cp == 0xfffe || cp == 0xffff)
		return 0;
	return len;
}

void
report_xml(FILE *f, const char *s, size_t n, int flags)
{
	int tabs = flags & REPORT_XML_TABS, bytes = flags & REPORT_XML_BYTES;
	const unsigned char *p = (const unsigned char *)s;
	size_t i, m;

	for (i = 0; i < n; i += m) {
		m = 1;
		switch (p[i]) {
		case '&':
			fputs("&amp;", f);
			continue;
		case '<':
			fputs("&lt;", f);
			continue;
		case '>':
			fputs("&gt;", f);
			continue;
		case '"':
			fputs("&quot;", f);
			continue;
		case '\'':
			fputs(bytes ? "'" : "&#39;", f);
			continue;
		case '\t':
			fputs(tabs ? ", " : "&#9;", f);
			continue;
		}
		if (bytes) {
			fputc(p[i], f);
			continue;
		}
		if (p[i] < 0x20 || p[i] == 0x7f || (m = utf8_len(p + i,
		    n - i)) == 0) {
			fputs("\xef\xbf\xbd", f);	/* U+FFFD */
			m = 1;
			continue;
		}
		fwrite(p + i, 1, m, f);
	}
}

/* Writes s as XML text. */
static void
xs(FILE *f, const char *s)
{
	report_xml(f, s, strlen(s), 0);
}

/* Writes s as XML text, quoted for the shell when it holds more than
 * letters, digits and , . _ - + = / : @ %, so that the command line
 * reads as it was typed. */
static void
shell_word(FILE *f, const char *s)
{
	const char *p;

	if (*s != '\0' && strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,._-+=/:@%") == strlen(s)) {
		xs(f, s);
		return;
	}
	fputc('\'', f);
	while ((p = strchr(s, '\'')) != NULL) {
		report_xml(f, s, (size_t)(p - s), 0);
		fputs("'\\''", f);
		s = p + 1;
	}
	xs(f, s);
	fputc('\'', f);
}

/* Writes s as a JSON string, quotes included. */
static void
js(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i, n = strlen(s), m;

	fputc('"', f);
	for (i = 0; i < n; i += m) {
		m = 1;
		if (p[i] == '"' || p[i] == '\\')
			fprintf(f, "\\%c", p[i]);
		else if (p[i] == '\n')
			fputs("\\n", f);
		else if (p[i] == '\t')
			fputs("\\t", f);
		else if (p[i] < 0x20 || p[i] == 0x7f)
			fprintf(f, "\\u%04x", p[i]);
		else if ((m = utf8_len(p + i, n - i)) == 0) {
			fputs("\\ufffd", f);
			m = 1;
		} else
			fwrite(p + i, 1, m, f);
	}
	fputc('"', f);
}

/* Whether s is a number as JSON writes it (RFC 8259 §6). */
static int
json_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return 0;
	if (*s == '.') {
		if (*++s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		if (*++s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}

/* The sensitive columns, for a check's parameter: "column S", or "each
 * of columns A,B". */
static const char *
scols(const report *rp)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s%s", rp->scol != NULL &&
	    strchr(rp->scol, ',') != NULL ? "each of columns " : "column ",
	    rp->scol != NULL ? rp->scol : "");
	return buf;
}

/* What a check is, and its parameter, into par (of size np). */
static const char *
req_name(const report *rp, const char *check, char *par, size_t np)
{
	const kn_req *q = rp->req;
	char dec[48];

	par[0] = '\0';
	if (strcmp(check, "check_k") == 0) {
		if (q != NULL)
			snprintf(par, np, "k = %llu", (unsigned long long)q->k);
		return "k-anonymity: every class has at least k rows";
	}
	if (strncmp(check, "check_l_", 8) == 0) {
		if (q != NULL && q->ld.lstr != NULL) {
			if (q->ld.kind == KN_DIV_RECURSIVE) {
				kn_dec_format(q->ld.cm, q->ld.cs, dec);
				snprintf(par, np, "l = %s, c = %s in %s",
				    q->ld.lstr, dec, scols(rp));
			} else
				snprintf(par, np, "l = %s in %s",
				    q->ld.lstr, scols(rp));
		}
		return strcmp(check, "check_l_distinct") == 0 ?
		    "distinct l-diversity: at least l sensitive values in "
		    "every class" : strcmp(check, "check_l_entropy") == 0 ?
		    "entropy l-diversity: the entropy of the sensitive values "
		    "of every class is at least ln l" :
		    "recursive (c,l)-diversity: r1 < c (rl + ... + rm) in "
		    "every class";
	}
	if (strcmp(check, "check_variance") == 0) {
		if (q != NULL) {
			kn_dec_format(q->vm, q->vs, dec);
			snprintf(par, np, "v = %s in %s", dec, scols(rp));
		}
		return "variance diversity: the variance of the sensitive "
		    "column in every class is at least v";
	}
	if (strcmp(check, "check_closeness") == 0) {
		if (q != NULL && q->tstr != NULL)
			snprintf(par, np, "t = %s, %s distance, in %s",
			    q->tstr, q->dist == KN_DIST_EQUAL ? "equal" :
			    q->dist == KN_DIST_ORDERED ? "ordered" :
			    "hierarchical", scols(rp));
		return "t-closeness: in every class the distribution of the "
		    "sensitive column is within t (Earth Mover's Distance) "
		    "of the whole table's";
	}
	return check;
}

/* The bins of the histograms: class sizes lo..hi. */
static const struct {
	uint64_t lo, hi;
	const char *label;
} bins[] = {
	{ 1, 1, "1" }, { 2, 2, "2" }, { 3, 4, "3-4" }, { 5, 9, "5-9" },
	{ 10, 19, "10-19" }, { 20, 49, "20-49" }, { 50, 99, "50-99" },
	{ 100, 999, "100-999" }, { 1000, UINT64_MAX, "1000+" }
};
#define NBINS (sizeof(bins) / sizeof(bins[0]))

/* The classes (rows 0) or rows (rows 1) in each bin. */
static void
binned(const report *rp, int rows, long double *v)
{
	size_t i, b;

	memset(v, 0, NBINS * sizeof(long double));
	for (i = 0; i < rp->nf; i++)
		for (b = 0; b < NBINS; b++)
			if (rp->fof[i].size >= bins[b].lo &&
			    rp->fof[i].size <= bins[b].hi)
				v[b] += (long double)rp->fof[i].classes *
				    (rows ? (long double)rp->fof[i].size : 1.0L);
}

/* A bar chart of v over the bins, as inline SVG. */
static void
svg_bars(FILE *f, const char *title, const char *xlab, const char *ylab,
    const long double *v, const char **labels, int share)
{
	const int W = 640, H = 280, L = 70, T = 30, PW = 540, PH = 190;
	long double max = 0;
	size_t b;
	double bw = (double)PW / NBINS, h;

	for (b = 0; b < NBINS; b++)
		if (v[b] > max)
			max = v[b];
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
	    "font-size=\"12\" role=\"img\">\n<title>", W, H, W, H);
	xs(f, title);
	fputs("</title>\n", f);
	for (b = 0; b < NBINS; b++) {
		h = max > 0 ? (double)(v[b] / max) * PH : 0;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		    "height=\"%.1f\" fill=\"#1f4e9c\"><title>", L + b * bw + 4,
		    T + PH - h, bw - 8, h);
		xs(f, labels[b]);
		if (share)
			fprintf(f, ": %.4Lg</title></rect>\n", v[b]);
		else
			fprintf(f, ": %.0Lf</title></rect>\n", v[b]);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
		    L + b * bw + bw / 2, T + PH + 16);
		xs(f, labels[b]);
		fprintf(f, "</text>\n<text x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"middle\" font-size=\"10\">",
		    L + b * bw + bw / 2, T + PH - h - 4);
		if (share)
			fprintf(f, "%.3Lg", v[b]);
		else
			fprintf(f, "%.0Lf", v[b]);
		fputs("</text>\n", f);
	}
	fprintf(f, "<path d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"black\"/>"
	    "\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", L, T, T + PH,
	    L + PW, L + PW / 2, T + PH + 40);
	xs(f, xlab);
	fprintf(f, "</text>\n<text x=\"16\" y=\"%d\" text-anchor=\"middle\" "
	    "transform=\"rotate(-90 16 %d)\">", T + PH / 2, T + PH / 2);
	xs(f, ylab);
	fputs("</text>\n</svg>\n", f);
}

/* Whether figure name is one of names: a name that ends in '_' is a
 * prefix, any other the whole name. */
static int
fig_among(const char *name, const char *const *names)
{
	size_t j, n;

	for (j = 0; names[j] != NULL; j++) {
		n = strlen(names[j]);
		if (names[j][n - 1] == '_' ? strncmp(name, names[j], n) == 0 :
		    strcmp(name, names[j]) == 0)
			return 1;
	}
	return 0;
}

/* The figures among names (NULL: all), as rows of a table. */
static void
html_figs(const report *rp, FILE *f, const char *const *names)
{
	size_t i;

	fputs("<table>\n<tr><th>figure</th><th>value</th></tr>\n", f);
	for (i = 0; i < rp->nfig; i++) {
		if (names != NULL && !fig_among(rp->fig[i].name, names))
			continue;
		fputs("<tr><td>", f);
		xs(f, rp->fig[i].name);
		fputs("</td><td>", f);
		xs(f, rp->fig[i].value);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The description of a table of the report. */
static void
html_file(FILE *f, const char *what, const report_file *t)
{
	fputs("<tr><th>", f);
	xs(f, what);
	fputs("</th><td>", f);
	xs(f, t->name);
	fprintf(f, "</td><td>%llu</td><td><code>", (unsigned long long)
	    t->lines);
	xs(f, t->hashed ? t->sha256 : "not computed: read from a pipe");
	fputs("</code></td></tr>\n", f);
}

/* The columns of one role, as a list. */
static void
html_cols(const report *rp, FILE *f, int role)
{
	size_t i, n = 0;

	for (i = 0; i < rp->ncol; i++)
		if (rp->role[i] == role) {
			fputs(n++ ? ", <code>" : "<code>", f);
			xs(f, rp->colname[i]);
			fputs("</code>", f);
		}
	if (n == 0)
		fputs("none", f);
}

/* Says why a measure is not in the report, if it is not. */
static void
html_why(FILE *f, const char *what, const char *why)
{
	if (why == NULL)
		return;
	fprintf(f, "<p>%s is not measured: ", what);
	xs(f, why);
	fputs(".</p>\n", f);
}

void
report_html(const report *rp, FILE *f)
{
	static const char *const risk[] = { "risk_max", "risk_mean",
	    "threshold", "rows_below_threshold", "share_below_threshold",
	    "sample_", "population_", "journalist_", "marketer_", "sampling_",
	    "zayatz_", "pitman_", NULL };
	static const char *const util[] = { "rows", "suppressed", "classes",
	    "class_size_", "cdm", "cavg", "ncp", "precision", "l_",
	    "variance_min", "label_", "target_", "workload_", NULL };
	const char *labels[NBINS];
	long double v[NBINS];
	char par[512];
	size_t i, b, nreq = 0, nun = 0;
	int fail = 0;

	for (b = 0; b < NBINS; b++)
		labels[b] = bins[b].label;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" "
	    "lang=\"en\" xml:lang=\"en\">\n<head>\n<meta charset=\"UTF-8\"/>\n"
	    "<title>Release report: ", f);
	xs(f, rp->rel.name);
	fputs("</title>\n<style>\nbody { font-family: sans-serif; max-width: "
	    "60em; margin: 2em auto; }\ntable { border-collapse: collapse; "
	    "margin: 0.5em 0; }\nth, td { border: 1px solid #999; padding: "
	    "0.2em 0.6em; text-align: left; }\n.fail { color: #b22222; "
	    "font-weight: bold; }\n.pass { color: #1a7f37; }\n.warn { "
	    "background: #fff3cd; padding: 0.5em; }\n</style>\n</head>\n"
	    "<body>\n<h1>Release report</h1>\n", f);
	fputs("<p>Written by <code>score</code> of kanon ", f);
	xs(f, KN_VERSION);
	fputs(" from the release named below.  It holds every figure that "
	    "<code>score</code> printed for it.</p>\n", f);

	fputs("<h2 id=\"tables\">Tables</h2>\n<table>\n<tr><th>table</th>"
	    "<th>name</th><th>data lines</th><th>SHA-256</th></tr>\n", f);
	html_file(f, "release", &rp->rel);
	if (rp->orig.name != NULL)
		html_file(f, "original", &rp->orig);
	fputs("</table>\n", f);

	fputs("<h2 id=\"programs\">Programs</h2>\n<p>kanon ", f);
	xs(f, KN_VERSION);
	fputs(".  The command lines that made the release", f);
	if (rp->ncmd == 0)
		fputs(" were not given (<code>--command</code>).</p>\n", f);
	else {
		fputs(":</p>\n<pre>", f);
		for (i = 0; i < rp->ncmd; i++) {
			xs(f, rp->cmd[i]);
			fputc('\n', f);
		}
		fputs("</pre>\n", f);
	}
	fputs("<p>This report:</p>\n<pre>", f);
	for (i = 0; i < (size_t)rp->argc; i++) {
		if (i > 0)
			fputc(' ', f);
		shell_word(f, rp->argv[i]);
	}
	fputs("</pre>\n", f);

	fputs("<h2 id=\"requirements\">Requirements</h2>\n", f);
	for (i = 0; i < rp->nfig; i++)
		if (strncmp(rp->fig[i].name, "check_", 6) == 0) {
			const char *d = req_name(rp, rp->fig[i].name, par,
			    sizeof(par));

			if (nreq++ == 0)
				fputs("<table>\n<tr><th>requirement</th><th>"
				    "parameter</th><th>verdict</th></tr>\n", f);
			fputs("<tr><td>", f);
			xs(f, d);
			fputs("</td><td>", f);
			xs(f, par);
			fail |= strcmp(rp->fig[i].value, "pass") != 0;
			fprintf(f, "</td><td class=\"%s\">",
			    strcmp(rp->fig[i].value, "pass") == 0 ? "pass" :
			    "fail");
			xs(f, rp->fig[i].value);
			fputs("</td></tr>\n", f);
		}
	if (nreq == 0)
		fputs("<p class=\"warn\">No requirement was checked: give "
		    "<code>-k</code>, <code>-l</code> or "
		    "<code>--variance</code>.</p>\n", f);
	else
		fprintf(f, "</table>\n<p class=\"%s\">%s</p>\n", fail ? "fail" :
		    "pass", fail ? "At least one requirement fails." :
		    "Every requirement holds.");

	fputs("<h2 id=\"columns\">Columns</h2>\n<table>\n"
	    "<tr><th>quasi-identifiers</th><td>", f);
	html_cols(rp, f, REPORT_QI);
	fputs("</td></tr>\n<tr><th>sensitive</th><td>", f);
	html_cols(rp, f, REPORT_SENS);
	fputs("</td></tr>\n<tr><th>target</th><td>", f);
	html_cols(rp, f, REPORT_TARGET);
	fputs("</td></tr>\n<tr><th>released unchanged</th><td>", f);
	html_cols(rp, f, REPORT_OTHER);
	fputs("</td></tr>\n</table>\n", f);
	for (i = 0; i < rp->ncol; i++)
		nun += rp->role[i] == REPORT_OTHER;
	if (nun > 0)
		fprintf(f, "<p class=\"warn\">%zu column%s %s released as %s "
		    "in the source, neither generalized nor checked: make "
		    "sure that none of them is a quasi-identifier.</p>\n",
		    nun, nun == 1 ? "" : "s", nun == 1 ? "is" : "are",
		    nun == 1 ? "it is" : "they are");

	fputs("<h2 id=\"classes\">Class sizes</h2>\n", f);
	binned(rp, 0, v);
	svg_bars(f, "The number of classes of each size", "class size",
	    "classes", v, labels, 0);

	fputs("<h2 id=\"risk\">Re-identification risk</h2>\n"
	    "<p>The prosecutor risk of a row is one over the size of its "
	    "class: the share of the rows at each risk, by class size "
	    "(risk 1 for size 1, 1/2 for size 2, ...).</p>\n", f);
	binned(rp, 1, v);
	{
		long double tot = 0;

		for (b = 0; b < NBINS; b++)
			tot += v[b];
		for (b = 0; b < NBINS && tot > 0; b++)
			v[b] /= tot;
	}
	svg_bars(f, "The share of the rows in classes of each size",
	    "class size (risk = 1 / size)", "share of the rows", v, labels, 1);
	html_figs(rp, f, risk);

	fputs("<h2 id=\"utility\">Utility</h2>\n<p>What the release is "
	    "still good for, as <code>score</code> measures it: the classes "
	    "and their sizes, the discernibility metric C_DM, C_AVG, the "
	    "normalized certainty penalty NCP (Xu et al., KDD 2006: 0 for "
	    "the original values, 1 when every value is suppressed) and "
	    "Sweeney's precision (1 for the original values, 0 when every "
	    "value is at the top of its hierarchy), each a mean over the "
	    "rows and quasi-identifiers, and with the options that ask for "
	    "them the diversity left, the label entropy and target error, "
	    "and the error of a workload of COUNT queries.</p>\n", f);
	html_why(f, "NCP", rp->ncpwhy);
	html_why(f, "Precision", rp->precwhy);
	html_figs(rp, f, util);

	fputs("<h2 id=\"plot\">Partition</h2>\n", f);
	if (rp->svg != NULL) {
		/* The picture without its XML declaration. */
		const char *p = rp->svg, *e = rp->svg + rp->nsvg;

		if (strncmp(p, "<?xml", 5) == 0 && (p = memchr(p, '\n',
		    rp->nsvg)) != NULL)
			p++;
		else
			p = rp->svg;
		fwrite(p, 1, (size_t)(e - p), f);
	}
	else {
		fputs("<p>No picture: ", f);
		xs(f, rp->svgwhy ? rp->svgwhy : "not asked for");
		fputs(".</p>\n", f);
	}

	fputs("<h2 id=\"figures\">Every figure</h2>\n", f);
	html_figs(rp, f, NULL);
	fputs("</body>\n</html>\n", f);
}

/* The columns of one role, as a JSON array. */
static void
json_cols(const report *rp, FILE *f, int role)
{
	size_t i, n = 0;

	fputc('[', f);
	for (i = 0; i < rp->ncol; i++)
		if (rp->role[i] == role) {
			if (n++)
				fputs(", ", f);
			js(f, rp->colname[i]);
		}
	fputc(']', f);
}

/* A table of the report, as a JSON object. */
static void
json_file(FILE *f, const report_file *t)
{
	fputs("{\"name\": ", f);
	js(f, t->name);
	fprintf(f, ", \"lines\": %llu, \"sha256\": ",
	    (unsigned long long)t->lines);
	if (t->hashed)
		js(f, t->sha256);
	else
		fputs("null", f);
	fputc('}', f);
}

void
report_json(const report *rp, FILE *f)
{
	char par[512];
	const char *d;
	size_t i, n;

	fputs("{\n\"program\": \"score\",\n\"version\": ", f);
	js(f, KN_VERSION);
	fputs(",\n\"command\": [", f);
	for (i = 0; i < (size_t)rp->argc; i++) {
		fputs(i ? ", " : "", f);
		js(f, rp->argv[i]);
	}
	fputs("],\n\"commands\": [", f);
	for (i = 0; i < rp->ncmd; i++) {
		fputs(i ? ", " : "", f);
		js(f, rp->cmd[i]);
	}
	fputs("],\n\"release\": ", f);
	json_file(f, &rp->rel);
	fputs(",\n\"original\": ", f);
	if (rp->orig.name != NULL)
		json_file(f, &rp->orig);
	else
		fputs("null", f);
	fputs(",\n\"quasi_identifiers\": ", f);
	json_cols(rp, f, REPORT_QI);
	fputs(",\n\"sensitive\": ", f);
	json_cols(rp, f, REPORT_SENS);
	fputs(",\n\"target\": ", f);
	json_cols(rp, f, REPORT_TARGET);
	fputs(",\n\"unchanged_columns\": ", f);
	json_cols(rp, f, REPORT_OTHER);
	fputs(",\n\"requirements\": [", f);
	for (n = 0, i = 0; i < rp->nfig; i++)
		if (strncmp(rp->fig[i].name, "check_", 6) == 0) {
			d = req_name(rp, rp->fig[i].name, par, sizeof(par));
			fputs(n++ ? ",\n  {\"check\": " : "\n  {\"check\": ", f);
			js(f, rp->fig[i].name);
			fputs(", \"name\": ", f);
			js(f, d);
			fputs(", \"parameter\": ", f);
			js(f, par);
			fputs(", \"verdict\": ", f);
			js(f, rp->fig[i].value);
			fputc('}', f);
		}
	fputs("],\n\"class_sizes\": [", f);
	for (i = 0; i < rp->nf; i++)
		fprintf(f, "%s{\"size\": %llu, \"classes\": %llu}",
		    i ? ", " : "", (unsigned long long)rp->fof[i].size,
		    (unsigned long long)rp->fof[i].classes);
	/* Why a measure is not among the figures; null: it is. */
	fputs("],\n\"not_measured\": {\"ncp\": ", f);
	if (rp->ncpwhy != NULL)
		js(f, rp->ncpwhy);
	else
		fputs("null", f);
	fputs(", \"precision\": ", f);
	if (rp->precwhy != NULL)
		js(f, rp->precwhy);
	else
		fputs("null", f);
	fputs("},\n\"figures\": {", f);
	for (i = 0; i < rp->nfig; i++) {
		fputs(i ? ",\n  " : "\n  ", f);
		js(f, rp->fig[i].name);
		fputs(": ", f);
		if (json_number(rp->fig[i].value))
			fputs(rp->fig[i].value, f);
		else
			js(f, rp->fig[i].value);
	}
	fputs("\n}\n}\n", f);
}

void
report_free(report *rp)
{
	size_t i;

	for (i = 0; i < rp->nfig; i++) {
		free(rp->fig[i].name);
		free(rp->fig[i].value);
	}
	free(rp->fig);
	free(rp->svg);
	free(rp->role);
}
