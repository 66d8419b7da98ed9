/*
 * csv.c: fuzz target of the CSV reader (--icsv, --ifs; kanon(7), CSV):
 * kn_table_open and kn_table_next over RFC 4180 records, in both of
 * its ways (the spans of a line, csv_spans, and the general decoder,
 * csv_decode), checked against a plain model of the format.
 *
 * Input: a mode byte, then the data rows of a file whose header the
 * target writes: three columns a, b, c joined by the separator.  The
 * mode's low bits choose the separator (',', ';', '|', or ', ' of two
 * bytes), bit 2 --skip-header.  The reader must give exactly the
 * model's rows, or end with an error exactly when the model finds one,
 * after the rows before it.
 *
 * The model: physical lines end at LF; a record starts at a line that
 * is not empty and not a lone CR; a field that starts with '"' is
 * quoted, where '""' is a quote, the separator is text and a line end
 * (LF, with the CR before it) is text too; after its closing quote
 * comes the separator or the line's end (a CR before the LF is no
 * text).  A field unquoted ends at the separator or the line's end.
 * Errors: a NUL, a quote never closed, anything else after a closing
 * quote, a record of other than three fields, and a value of a or b
 * holding a tab, CR or LF (c is carried: kn_table_carry).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kanon.h"
#include "harness.h"

#define NCOLS 3
#define MAXROWS 4096

struct field {
	char *p;
	size_t n;
};

struct job {
	const char *path;
	int skip;
	/* what the reader gave, copied into arena (not allocated: the
	 * harness frees what a failed run allocated) */
	struct field got[MAXROWS][NCOLS];
	size_t ngot;
	char arena[1 << 18];
	size_t used;
};

static const char *const seps[] = { ",", ";", "|", ", " };

/* Appends byte c to the field f (of capacity *cap). */
static void
put(struct field *f, size_t *cap, char c)
{
	if (f->n + 1 >= *cap) {
		*cap = 2 * *cap + 16;
		f->p = realloc(f->p, *cap);
		if (f->p == NULL)
			abort();
	}
	f->p[f->n++] = c;
	f->p[f->n] = '\0';
}

/*
 * The model: the rows of text[0, n) (the header included) into rows,
 * returning their number; *bad is set when the reader must fail after
 * them.
 */
static size_t
model(const char *s, size_t n, const char *sep, int skip,
    struct field rows[][NCOLS], int *bad)
{
	size_t sl = strlen(sep), i = 0, nr = 0, nf, cap[NCOLS + 1];
	struct field rec[NCOLS + 1];
	const char *hdr = NULL;
	size_t hdrn = 0;

	*bad = 0;
	if (memchr(s, '\0', n) != NULL) {
		/* Rows before the NUL's record may come first: the target
		 * only asks for the error. */
		*bad = 2;
		return 0;
	}
	while (i < n) {
		size_t eol, eu, start = i;
		int quoted;

		/* Blank lines between records. */
		eol = i;
		while (eol < n && s[eol] != '\n')
			eol++;
		if (eol == i || (eol == i + 1 && s[i] == '\r')) {
			i = eol + 1;
			continue;
		}
		memset(rec, 0, sizeof(rec));
		memset(cap, 0, sizeof(cap));
		nf = 0;
		for (;;) {
			/* A field at i. */
			struct field *f = &rec[nf < NCOLS ? nf : NCOLS];
			size_t *fc = &cap[nf < NCOLS ? nf : NCOLS];

			f->n = 0;
			put(f, fc, 'x');
			f->n = 0;
			eol = i;
			while (eol < n && s[eol] != '\n')
				eol++;
			eu = eol > i && s[eol - 1] == '\r' ? eol - 1 : eol;
			quoted = i < n && s[i] == '"';
			if (quoted) {
				i++;
				for (;;) {
					if (i >= n) {
						*bad = 1;	/* never closed */
						goto out;
					}
					if (s[i] == '"' && i + 1 < n &&
					    s[i + 1] == '"') {
						put(f, fc, '"');
						i += 2;
					} else if (s[i] == '"') {
						i++;
						break;
					} else
						put(f, fc, s[i++]);
				}
				eol = i;
				while (eol < n && s[eol] != '\n')
					eol++;
				eu = eol > i && s[eol - 1] == '\r' ?
				    eol - 1 : eol;
				if (i == eu) {
					nf++;
					i = eol + 1;
					break;
				}
				if (eu - i >= sl && memcmp(s + i, sep, sl) ==
				    0) {
					nf++;
					i += sl;
					continue;
				}
				*bad = 1;	/* junk after the quote */
				goto out;
			}
			while (i < eu && !(eu - i >= sl &&
			    memcmp(s + i, sep, sl) == 0))
				put(f, fc, s[i++]);
			nf++;
			if (i == eu) {
				i = eol + 1;
				break;
			}
			i += sl;
		}
		(void)start;
		if (nf != NCOLS) {
			*bad = 1;
			goto out;
		}
		if (hdr == NULL) {
			/* The header the target wrote. */
			hdr = s;
			hdrn = 1;
			for (nf = 0; nf < NCOLS; nf++)
				free(rec[nf].p);
			continue;
		}
		/* --skip-header: the header again, its first field also
		 * after a byte-order mark (a file concatenated to the
		 * others), as it stands or in quotes. */
		if (skip && (strcmp(rec[0].p, "a") == 0 ||
		    strcmp(rec[0].p, "\xef\xbb\xbf" "a") == 0 ||
		    strcmp(rec[0].p, "\xef\xbb\xbf" "\"a\"") == 0) &&
		    strcmp(rec[1].p, "b") == 0 && strcmp(rec[2].p, "c") == 0 &&
		    rec[0].n == strlen(rec[0].p) && rec[1].n == 1 &&
		    rec[2].n == 1) {
			for (nf = 0; nf < NCOLS; nf++)
				free(rec[nf].p);
			continue;
		}
		/* Column c is carried (kn_table_carry), as a column
		 * passed through to CSV output. */
		for (nf = 0; nf < NCOLS - 1; nf++)
			if (strpbrk(rec[nf].p, "\t\r\n") != NULL)
				*bad = 1;
		if (*bad || nr == MAXROWS)
			goto out;
		for (nf = 0; nf < NCOLS; nf++)
			rows[nr][nf] = rec[nf];
		nr++;
		continue;
out:
		for (nf = 0; nf <= NCOLS; nf++)
			free(rec[nf].p);
		if (nr == MAXROWS)
			*bad = 2;	/* too many to compare */
		return nr;
	}
	(void)hdrn;
	return nr;
}

static void
read_all(void *arg)
{
	static const size_t used[2] = { 0, 1 };
	struct job *j = arg;
	char *paths[1];
	kn_table t;
	size_t c;

	paths[0] = (char *)j->path;
	kn_skip_header = j->skip;
	kn_table_open(&t, paths, 1, NULL);
	FZ_ASSERT(t.ncols == NCOLS, "the header's three columns");
	kn_table_carry(&t, used, 2, 0);
	while (kn_table_next(&t)) {
		FZ_ASSERT(j->ngot < MAXROWS, "no more rows than the model");
		for (c = 0; c < NCOLS; c++) {
			FZ_ASSERT(j->used + t.f[c].n <= sizeof(j->arena),
			    "no more bytes than the input");
			j->got[j->ngot][c].p = j->arena + j->used;
			j->got[j->ngot][c].n = t.f[c].n;
			memcpy(j->arena + j->used, t.f[c].p, t.f[c].n);
			j->used += t.f[c].n;
		}
		/* Every few rows, the line as extsort takes it. */
		if (j->ngot % 3 == 0) {
			kn_table_join(&t);
			FZ_ASSERT(t.r.len == t.f[0].n + t.f[1].n + t.f[2].n + 2,
			    "the joined line is the fields and two tabs");
			FZ_ASSERT(memcmp(t.r.line, j->got[j->ngot][0].p,
			    t.f[0].n) == 0, "the joined line starts with a");
		}
		j->ngot++;
	}
	kn_table_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct field want[MAXROWS][NCOLS];
	static struct job j;
	const char *sep;
	char *text;
	size_t n, nw, r, c, hl;
	int bad, st;

	fz_init("fuzz-csv");
	if (size < 1 || size > 1 << 16)
		return 0;
	sep = seps[data[0] & 3];
	memset(&j, 0, sizeof(j));
	j.skip = (data[0] & 4) != 0;
	data++;
	size--;
	/* The header, then the data. */
	text = malloc(size + 16);
	if (text == NULL)
		abort();
	hl = (size_t)sprintf(text, "a%sb%sc\n", sep, sep);
	memcpy(text + hl, data, size);
	n = hl + size;
	nw = model(text, n, sep, j.skip, want, &bad);
	if (bad == 2) {
		for (r = 0; r < nw; r++)
			for (c = 0; c < NCOLS; c++)
				free(want[r][c].p);
		nw = 0;
	}
	j.path = fz_file(0, "t.csv", text, n);
	free(text);
	kn_csv.in = 1;
	kn_csv.ifs = sep;
	kn_csv.ifslen = strlen(sep);
	st = fz_run(read_all, &j);
	if (bad == 0)
		FZ_ASSERT(st == -1, "a good file is read");
	else
		FZ_ASSERT(st == 2, "a bad file is an error");
	if (bad != 2) {
		FZ_ASSERT(j.ngot == nw, "as many rows as the model");
		for (r = 0; r < nw; r++)
			for (c = 0; c < NCOLS; c++)
				FZ_ASSERT(j.got[r][c].n == want[r][c].n &&
				    memcmp(j.got[r][c].p, want[r][c].p,
				    want[r][c].n) == 0, "the model's fields");
	}
	for (r = 0; r < nw; r++)
		for (c = 0; c < NCOLS; c++)
			free(want[r][c].p);
	return 0;
}
