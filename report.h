/*
 * report.h: the figures of score, as name<TAB>value lines and as the
 * release report of --report (one XHTML page with inline SVG) and
 * --json (one JSON object): report.c.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdarg.h>
#include <stdio.h>

#include "kanon.h"

/* A figure as score writes it. */
typedef struct {
	char *name, *value;
} report_fig;

/* A class size and how many classes have it (a frequency of
 * frequencies), for the histograms. */
typedef struct {
	uint64_t size, classes;
} report_fof;

/* A table the report names: the release, or the original. */
typedef struct {
	const char *name;	/* NULL: not given */
	uint64_t lines;		/* its data lines */
	int hashed;		/* sha256 holds its digest */
	char sha256[65];
} report_file;

/* The column roles of report_columns. */
enum { REPORT_QI = 'q', REPORT_SENS = 's', REPORT_TARGET = 't',
	REPORT_OTHER = '-', REPORT_NONE = 'x' };

typedef struct {
	FILE *text;		/* the lines; NULL: kept for JSON only */
	report_fig *fig;
	size_t nfig, figcap;
	report_file rel, orig;
	int argc;		/* score's command line */
	char **argv;
	const char **cmd;	/* --command: the lines that made the release */
	size_t ncmd;
	const kn_req *req;
	const char *scol;
	char **colname;		/* the release's columns and their roles */
	char *role;
	size_t ncol;
	const report_fof *fof;	/* the class sizes, by size */
	size_t nf;
	char *svg;		/* --plot's picture, if any */
	size_t nsvg;
	const char *svgwhy;	/* why there is none */
	const char *ncpwhy;	/* why NCP, precision are not measured */
	const char *precwhy;
} report;

/* The options of the risk models and the report, for getopt_long. */
enum { REPORT_OPT_CMD = 1400, REPORT_OPT_JSON, REPORT_OPT_POP,
	REPORT_OPT_REPORT, REPORT_OPT_RISK, REPORT_OPT_FRAC };
#define REPORT_OPTIONS \
	{ "command", required_argument, NULL, REPORT_OPT_CMD }, \
	{ "json", no_argument, NULL, REPORT_OPT_JSON }, \
	{ "population", required_argument, NULL, REPORT_OPT_POP }, \
	{ "report", required_argument, NULL, REPORT_OPT_REPORT }, \
	{ "risk", no_argument, NULL, REPORT_OPT_RISK }, \
	{ "sampling-fraction", required_argument, NULL, REPORT_OPT_FRAC }
typedef struct {
	int risk;		/* --risk, or implied */
	int json;		/* --json */
	const char *pop;	/* --population */
	const char *path;	/* --report */
	double pi;		/* --sampling-fraction; 0: not given */
	const char **cmd;	/* --command */
	size_t ncmd;
} report_opts;
/* Takes option ch into o if it is one of REPORT_OPTIONS; 0 if not. */
int report_opt(report_opts *o, int ch, const char *arg);
/* Dies on a combination of them that means nothing. */
void report_opts_check(const report_opts *o);
/* Whether a report (--report or --json) is asked for. */
#define REPORT_ON(o) ((o)->path != NULL || (o)->json)

void report_init(report *rp, FILE *text);
/* The roles of the columns of t: the QIs qi[0..nq), the sensitive
 * columns s[0..ns), the target column tc (SIZE_MAX if none), the
 * columns from lim on (a frequency set's count and sums) not columns of
 * the release. */
void report_columns(report *rp, const kn_table *t, const size_t *qi,
    size_t nq, const size_t *s, size_t ns, size_t tc, size_t lim);
/* Writes and keeps a figure. */
void report_put(report *rp, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void report_vput(report *rp, const char *name, const char *fmt,
    va_list ap) __attribute__((format(printf, 3, 0)));
/* The digest of the file at path (NULL or "-": stdin) when it is a
 * regular file, read without moving its offset; 0 when it is not (a
 * pipe cannot be read twice). */
int report_hash(const char *path, char *hex);
/* Notes what a report says of the run: score's command line, the
 * command lines of --command, the requirements and the sensitive
 * column. */
void report_run(report *rp, int argc, char **argv, const report_opts *o,
    const kn_req *req, const char *scol);
/* Describes the table at path (NULL or "-": stdin) of lines data
 * lines, with its digest when it is a regular file. */
void report_file_set(report_file *t, const char *path, uint64_t lines);
/* The data lines of the table at path (columns: --columns), read
 * through. */
uint64_t report_lines(const char *path, const char *columns);
/* Writes s[0..n) as XML text: the markup characters as entities, a
 * tab as ", " with REPORT_XML_TABS, other control bytes and bytes that
 * are not UTF-8 as U+FFFD, so that no value breaks the document; with
 * REPORT_XML_BYTES, & < > " only, the other bytes as they are (--plot
 * alone writes values as they are). */
enum { REPORT_XML_TABS = 1, REPORT_XML_BYTES = 2 };
void report_xml(FILE *f, const char *s, size_t n, int flags);
/* Writes the report as one XHTML page, or as one JSON object. */
void report_html(const report *rp, FILE *f);
void report_json(const report *rp, FILE *f);
void report_free(report *rp);

#endif
