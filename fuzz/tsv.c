/*
 * tsv.c: fuzz target of the table reader (kn_reader, kn_getline,
 * kn_table_open, kn_table_next, kn_table_cols, kn_columns_file), checked
 * against a plain model of the rules of kanon(7): lines end at LF, one
 * CR before it is dropped, the last may lack it, a byte-order mark at
 * the start of a file is skipped (and --skip-header drops the header
 * after one too); a NUL byte, a ragged row, an empty
 * file, a bad header, compressed data or a CR inside a file's first
 * line is an error.
 *
 * Input: a flags byte, a byte placing the split between two files, then
 * with F_META a line "columns<space>column-list", then the text.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../kanon.h"
#include "harness.h"

enum {
	F_HEADERLESS = 1,	/* --columns from the meta line */
	F_SKIP = 2,		/* --skip-header */
	F_TWO = 4,		/* two files */
	F_KEEPCR = 8,		/* the raw reader keeps CRs */
	F_META = 16,		/* a meta line */
	F_COLS = 32,		/* kn_table_cols on the meta's list */
	F_COLFILE = 64		/* kn_columns_file on the text */
};

struct line {
	const char *p;
	size_t n;
};

/* Splits text into lines as kanon(7) says. */
static size_t
lines_of(const char *s, size_t n, int keepcr, struct line *out)
{
	size_t k = 0, i = 0, j;

	while (i < n) {
		for (j = i; j < n && s[j] != '\n'; j++)
			;
		out[k].p = s + i;
		out[k].n = j - i;
		if (!keepcr && out[k].n > 0 && out[k].p[out[k].n - 1] == '\r')
			out[k].n--;
		k++;
		i = j + 1;
	}
	return k;
}

static int
has_nul(struct line l)
{
	return memchr(l.p, '\0', l.n) != NULL;
}

static int
same(struct line a, const char *p, size_t n)
{
	return a.n == n && memcmp(a.p, p, n) == 0;
}

/* Splits s[0..n) at sep; returns 0 if a name is empty or repeated. */
static int
names_ok(const char *s, size_t n, int sep, size_t *count)
{
	struct line *f = malloc((n + 1) * sizeof(*f));
	size_t k = 0, i, j, start = 0;
	int ok = 1;

	for (i = 0; i <= n; i++)
		if (i == n || s[i] == sep) {
			f[k].p = s + start;
			f[k++].n = i - start;
			start = i + 1;
		}
	for (i = 0; i < k && ok; i++) {
		if (f[i].n == 0)
			ok = 0;
		for (j = 0; j < i && ok; j++)
			if (same(f[j], f[i].p, f[i].n))
				ok = 0;
	}
	free(f);
	*count = k;
	return ok;
}

struct job {
	int flags;
	char *paths[2];
	size_t npaths;
	const char *columns, *spec;
	/* the model */
	struct line *row;	/* expected rows */
	size_t nrow;
	int ok;			/* the model reads it all */
	int incols;		/* in kn_table_cols, which may refuse */
	/* what was read */
	size_t got;
	struct line *lines;	/* lines for the raw reader */
	size_t nlines;
	int rawok;
	size_t rawgot;
	const char *text;
	size_t textlen;
	const char *colfile;
};

/* The rows the table should yield, and whether it is all valid. */
static void
model(struct job *j, const char **text, const size_t *len)
{
	struct line *l, hdr0 = { NULL, 0 }, hl = { NULL, 0 };
	size_t f, n, i, ncols = 0, cap = 0;
	char *joined = NULL;

	j->ok = 1;
	j->nrow = 0;
	for (f = 0; f < j->npaths; f++)
		cap += len[f] + 1;
	j->row = malloc((cap + 1) * sizeof(struct line));
	if (j->flags & F_HEADERLESS) {
		if (!names_ok(j->columns, strlen(j->columns), ',', &ncols)) {
			j->ok = 0;
			return;
		}
		joined = strdup(j->columns);
		for (i = 0; joined[i] != '\0'; i++)
			if (joined[i] == ',')
				joined[i] = '\t';
		hl.p = joined;
		hl.n = strlen(joined);
	}
	for (f = 0; f < j->npaths && j->ok; f++) {
		int bad;
		size_t skip = fz_text_start(text[f], len[f],
		    (j->flags & F_HEADERLESS) != 0, &bad);

		if (bad) {
			j->ok = 0;
			break;
		}
		l = malloc((len[f] + 1) * sizeof(*l));
		n = lines_of(text[f] + skip, len[f] - skip, 0, l);
		i = 0;
		if (!(j->flags & F_HEADERLESS)) {
			if (n == 0 || has_nul(l[0])) {
				j->ok = 0;
				free(l);
				break;
			}
			if (f == 0) {
				hdr0 = l[0];
				hl = hdr0;
				if (!names_ok(l[0].p, l[0].n, '\t', &ncols))
					j->ok = 0;
			} else if (!same(hdr0, l[0].p, l[0].n))
				j->ok = 0;
			i = 1;
		}
		for (; i < n && j->ok; i++) {
			size_t k, nf = 1;

			if (has_nul(l[i])) {
				j->ok = 0;
				break;
			}
			if ((j->flags & F_SKIP) && (same(hl, l[i].p, l[i].n) ||
			    (l[i].n >= 3 && memcmp(l[i].p, "\xef\xbb\xbf", 3) == 0 &&
			    same(hl, l[i].p + 3, l[i].n - 3))))
				continue;	/* the header, after a mark too */
			for (k = 0; k < l[i].n; k++)
				nf += l[i].p[k] == '\t';
			if (nf != ncols) {
				j->ok = 0;
				break;
			}
			j->row[j->nrow++] = l[i];
		}
		free(l);
	}
	free(joined);
}

static void
read_table(void *arg)
{
	struct job *j = arg;
	kn_table t;
	size_t *idx, n, i;

	kn_skip_header = (j->flags & F_SKIP) != 0;
	kn_table_open(&t, j->paths, j->npaths,
	    (j->flags & F_HEADERLESS) ? j->columns : NULL);
	if (j->flags & F_COLS) {
		j->incols = 1;
		n = kn_table_cols(&t, j->spec, &idx);
		j->incols = 0;
		for (i = 0; i < n; i++)
			FZ_ASSERT(idx[i] < t.ncols, "column index in range");
		free(idx);
	}
	while (kn_table_next(&t)) {
		const char *line = t.r.line;
		size_t len = t.r.len;

		FZ_ASSERT(j->got < j->nrow, "no more rows than the model");
		FZ_ASSERT(same(j->row[j->got], line, len),
		    "the row the model reads");
		FZ_ASSERT(line[len] == '\0', "the line is terminated");
		/* The fields tile the line, separated by tabs. */
		FZ_ASSERT(t.f[0].p == line, "the first field starts the line");
		for (i = 0; i < t.ncols; i++) {
			FZ_ASSERT(memchr(t.f[i].p, '\t', t.f[i].n) == NULL,
			    "no tab in a field");
			if (i + 1 < t.ncols)
				FZ_ASSERT(t.f[i + 1].p == t.f[i].p + t.f[i].n + 1 &&
				    t.f[i].p[t.f[i].n] == '\t',
				    "fields separated by one tab");
		}
		FZ_ASSERT(t.f[t.ncols - 1].p + t.f[t.ncols - 1].n == line + len,
		    "the last field ends the line");
		j->got++;
	}
	FZ_ASSERT(t.rows == j->got, "row count");
	kn_table_free(&t);
}

/* The raw reader with a small buffer, which grows and slides. */
static void
read_raw(void *arg)
{
	struct job *j = arg;
	kn_reader r;

	kn_reader_open_size(&r, j->paths[0], 1);
	r.keepcr = (j->flags & F_KEEPCR) != 0;
	while (kn_getline(&r)) {
		FZ_ASSERT(j->rawgot < j->nlines, "no more lines than the model");
		FZ_ASSERT(!has_nul(j->lines[j->rawgot]), "a NUL is an error");
		FZ_ASSERT(same(j->lines[j->rawgot], r.line, r.len),
		    "the line the model reads");
		FZ_ASSERT(r.line[r.len] == '\0', "the line is terminated");
		FZ_ASSERT(r.lineno == j->rawgot + 1, "line number");
		j->rawgot++;
	}
	FZ_ASSERT(r.bytes == j->textlen, "all bytes consumed");
	kn_reader_close(&r);
}

static void
read_colfile(void *arg)
{
	struct job *j = arg;
	char *s = kn_columns_file(j->colfile);

	FZ_ASSERT(strchr(s, '\t') == NULL, "no tab in a column list");
	FZ_ASSERT(*s != '\0' || j->textlen > 0, "names from some text");
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job j;
	const char *text[2];
	size_t len[2], cut, i;
	char *meta = NULL, *sp;
	int st;

	fz_init("fuzz-tsv");
	if (size < 2)
		return 0;
	memset(&j, 0, sizeof(j));
	j.flags = data[0];
	cut = data[1];
	data += 2;
	size -= 2;
	if (j.flags & F_META) {
		const uint8_t *nl = memchr(data, '\n', size);
		size_t ml = nl != NULL ? (size_t)(nl - data) : size;

		meta = fz_str(data, ml);
		data += ml + (nl != NULL);
		size -= ml + (nl != NULL);
		sp = strchr(meta, ' ');
		j.columns = meta;
		j.spec = "1";
		if (sp != NULL) {
			*sp = '\0';
			j.spec = sp + 1;
		}
	} else
		j.flags &= ~(F_HEADERLESS | F_COLS);
	if (j.flags & F_TWO) {
		len[0] = size * cut / 256;
		len[1] = size - len[0];
		text[0] = (const char *)data;
		text[1] = (const char *)data + len[0];
		j.npaths = 2;
	} else {
		len[0] = size;
		text[0] = (const char *)data;
		j.npaths = 1;
	}
	for (i = 0; i < j.npaths; i++)
		j.paths[i] = (char *)fz_file((int)i, i ? "b.tsv" : "a.tsv",
		    text[i], len[i]);

	model(&j, text, len);
	st = fz_run(read_table, &j);
	if (j.ok && !j.incols)
		FZ_ASSERT(st == -1 && j.got == j.nrow,
		    "a valid table is read whole");
	else if (j.ok)
		FZ_ASSERT(st == 2, "a bad column list is an error");
	else
		FZ_ASSERT(st == 2, "an invalid table is an error");

	/* The raw reader over the first file. */
	{
		int bad;
		size_t skip = fz_text_start(text[0], len[0], 0, &bad);

		j.lines = malloc((len[0] + 1) * sizeof(struct line));
		j.nlines = lines_of(text[0] + skip, len[0] - skip,
		    (j.flags & F_KEEPCR) != 0, j.lines);
		j.textlen = len[0];
		st = fz_run(read_raw, &j);
		for (i = 0; !bad && i < j.nlines && !has_nul(j.lines[i]); i++)
			;
	}
	if (i == j.nlines)
		FZ_ASSERT(st == -1 && j.rawgot == j.nlines,
		    "the reader reads every line");
	else
		FZ_ASSERT(st == 2 && j.rawgot == i,
		    "the reader stops at the NUL");

	if (j.flags & F_COLFILE) {
		j.colfile = j.paths[0];
		st = fz_run(read_colfile, &j);
		FZ_ASSERT(st == -1 || st == 2, "columns file");
	}
	free(j.lines);
	free(j.row);
	free(meta);
	return 0;
}
