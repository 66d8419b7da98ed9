/*
 * hier.c: fuzz target of the hierarchies (kn_hier_load, kn_hier_leaf,
 * kn_hier_lift, kn_hier_map, kn_hier_reset): files in our TSV format and
 * in ARX's ';' CSV, chosen by the name's ending or sniffed, and the
 * generated interval:, mask: and date: hierarchies.
 *
 * Input: a mode byte, then
 *   0 (.tsv), 1 (.csv), 2 (no ending: sniffed): the file;
 *   3, 4, 5: an interval:, mask: or date: list, a newline, values one
 *   per line.
 * A TSV file is checked against a model of the format (kanon(7)); a
 * hierarchy that loads is written out again, as TSV and as quoted CSV,
 * and must load to the same; the labels of generated hierarchies are
 * checked against the widths and masks, and those of dates against the
 * date's own fields.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kanon.h"
#include "harness.h"

struct job {
	const char *spec;
	kn_hier *h;
	const char *text;
	size_t len;
	int mode;
	int ok;			/* the TSV model loads it */
	int known;		/* the model has decided (small files) */
	/* a TSV model: lines of fields */
	char ***lf;
	size_t nl, nf;
};

struct span {
	const char *p;
	size_t n;
};

/* The TSV model: the start of the file is text (a byte-order mark
 * skipped), every non-blank line has nf fields (at most 100; one with a
 * ';' is ARX's format misnamed), none holds a NUL or ends in a CR, and
 * no label has two parents.  Fills j->lf with the lines' fields. */
static void
tsv_model(struct job *j)
{
	const char *s = j->text, *end = s + j->len, *e;
	size_t n, i, k, a, b, cap = 16;
	int bad;

	j->ok = 1;
	j->nl = j->nf = 0;
	j->lf = malloc(cap * sizeof(char **));
	s += fz_text_start(j->text, j->len, 0, &bad);
	if (bad)
		j->ok = 0;
	while (s < end) {
		char *line, **f;

		e = memchr(s, '\n', (size_t)(end - s));
		if (e == NULL)
			e = end;
		n = (size_t)(e - s);
		if (n > 0 && s[n - 1] == '\r')
			n--;
		line = malloc(n + 1);
		memcpy(line, s, n);
		line[n] = '\0';
		s = e < end ? e + 1 : end;
		if (n == 0) {
			free(line);
			continue;
		}
		if (memchr(line, '\0', n) != NULL)
			j->ok = 0;
		for (k = 1, i = 0; i < n; i++)
			k += line[i] == '\t';
		if (j->nl == 0) {
			j->nf = k;
			if (k > 100 || (k == 1 && memchr(line, ';', n) != NULL))
				j->ok = 0;
		} else if (k != j->nf)
			j->ok = 0;
		f = malloc((k + 1) * sizeof(char *));
		f[0] = line;
		for (k = 1, i = 0; i < n; i++)
			if (line[i] == '\t') {
				line[i] = '\0';
				f[k++] = line + i + 1;
			}
		f[k] = NULL;
		/* A label ending in a CR (after the CR of a CRLF). */
		for (i = 0; i < k; i++)
			if (*f[i] != '\0' && f[i][strlen(f[i]) - 1] == '\r')
				j->ok = 0;
		if (j->nl == cap) {
			cap *= 2;
			j->lf = realloc(j->lf, cap * sizeof(char **));
		}
		j->lf[j->nl++] = f;
	}
	if (j->nl == 0)
		j->ok = 0;
	j->known = j->nl <= 256 || !j->ok;
	/* One parent per label (fields after a NUL are cut short: the
	 * model only says no then). */
	for (a = 0; a < j->nl && j->ok && j->known; a++)
		for (b = 0; b < a && j->ok; b++)
			for (k = 0; k + 1 < j->nf; k++)
				if (strcmp(j->lf[a][k], j->lf[b][k]) == 0 &&
				    strcmp(j->lf[a][k + 1], j->lf[b][k + 1]) != 0)
					j->ok = 0;
}

static void
tsv_model_free(struct job *j)
{
	size_t i;

	for (i = 0; i < j->nl; i++) {
		free(j->lf[i][0]);
		free(j->lf[i]);
	}
	free(j->lf);
}

/* Every label below the top has a parent at the next level, and the
 * maps agree with the links (in time linear in levels and labels). */
static void
check_links(const kn_hier *h)
{
	int l, top = h->nlevels - 1;
	size_t i;
	uint32_t *up, *down, *acc, *topid;

	FZ_ASSERT(h->nlevels >= 1, "a level at least");
	for (l = 0; l < top; l++)
		for (i = 0; i < h->lab[l].n; i++) {
			FZ_ASSERT(i < h->upcap[l], "a parent slot");
			FZ_ASSERT(h->up[l][i] < h->lab[l + 1].n,
			    "every label has a parent");
		}
	/* map(0, l) step by step, and map(l, top) against it. */
	acc = malloc((h->lab[0].n + 1) * sizeof(uint32_t));
	topid = malloc((h->lab[0].n + 1) * sizeof(uint32_t));
	for (i = 0; i < h->lab[0].n; i++) {
		acc[i] = (uint32_t)i;
		topid[i] = kn_hier_lift(h, (uint32_t)i, 0, top);
	}
	for (l = 0; l <= top; l++) {
		down = kn_hier_map(h, 0, l);
		up = kn_hier_map(h, l, top);
		for (i = 0; i < h->lab[0].n; i++) {
			FZ_ASSERT(down[i] == acc[i], "map(0, l) follows the links");
			FZ_ASSERT(acc[i] < h->lab[l].n, "map in range");
			FZ_ASSERT(up[acc[i]] == topid[i],
			    "map(l, top) agrees with lift");
			if (l < top)
				acc[i] = h->up[l][acc[i]];
		}
		free(down);
		free(up);
	}
	free(acc);
	free(topid);
}

/* The labels of leaf id at every level, into lab[]. */
static void
labels(const kn_hier *h, uint32_t id, kn_str *lab)
{
	int l;

	for (l = 0; l < h->nlevels; l++) {
		lab[l] = kn_dict_get(&h->lab[l], id);
		if (l + 1 < h->nlevels)
			id = h->up[l][id];
	}
}

/* The label of leaf id at level l. */
static kn_str
label(const kn_hier *h, uint32_t id, int l)
{
	return kn_dict_get(&h->lab[l], kn_hier_lift(h, id, 0, l));
}

static void
load(void *arg)
{
	struct job *j = arg;

	j->h = kn_hier_load("x", j->spec);
	check_links(j->h);
}

/* Writes h's leaves with their labels, as TSV or quoted CSV; returns
 * 0 if a label cannot be written so. */
static int
dump(const kn_hier *h, int csv, char **out, size_t *outlen)
{
	FILE *f = open_memstream(out, outlen);
	kn_str *lab = malloc((size_t)h->nlevels * sizeof(kn_str));
	size_t i, k;
	int l, ok = 1, bad;

	for (i = 0; i < h->lab[0].n; i++) {
		labels(h, (uint32_t)i, lab);
		for (l = 0; l < h->nlevels; l++) {
			kn_str s = lab[l];

			if (memchr(s.p, '\n', s.n) != NULL ||
			    memchr(s.p, '\r', s.n) != NULL ||
			    memchr(s.p, '\t', s.n) != NULL)
				ok = 0;
			if (l > 0)
				putc(csv ? ';' : '\t', f);
			if (csv) {
				putc('"', f);
				for (k = 0; k < s.n; k++) {
					if (s.p[k] == '"')
						putc('"', f);
					putc(s.p[k], f);
				}
				putc('"', f);
			} else
				fwrite(s.p, 1, s.n, f);
		}
		putc('\n', f);
	}
	fclose(f);
	free(lab);
	/* A first leaf that the reader would take for a byte-order mark
	 * or compressed data (after a blank first line in the original);
	 * one level holding a ';', which .tsv refuses as ARX's. */
	if (fz_text_start(*out, *outlen, 0, &bad) != 0 || bad)
		ok = 0;
	if (!csv && h->nlevels == 1 && memchr(*out, ';', *outlen) != NULL)
		ok = 0;
	return ok;
}

/* h and g have the same leaves with the same labels. */
static void
same_hier(const kn_hier *h, const kn_hier *g)
{
	size_t i;
	int l;
	kn_str *a, *b;

	FZ_ASSERT(h->nlevels == g->nlevels, "round trip: levels");
	FZ_ASSERT(h->lab[0].n == g->lab[0].n, "round trip: leaves");
	a = malloc((size_t)h->nlevels * sizeof(kn_str));
	b = malloc((size_t)h->nlevels * sizeof(kn_str));
	for (i = 0; i < h->lab[0].n; i++) {
		kn_str s = kn_dict_get(&h->lab[0], (uint32_t)i);
		int64_t id = kn_dict_find(&g->lab[0], s.p, s.n);

		FZ_ASSERT(id >= 0, "round trip: the leaf is there");
		labels(h, (uint32_t)i, a);
		labels(g, (uint32_t)id, b);
		for (l = 1; l < h->nlevels; l++)
			FZ_ASSERT(a[l].n == b[l].n &&
			    memcmp(a[l].p, b[l].p, a[l].n) == 0,
			    "round trip: the same labels");
	}
	free(a);
	free(b);
}

/* The file modes. */
static void
file_mode(struct job *j)
{
	static const char *name[] = { "h.tsv", "h.csv", "h" };
	struct job k;
	char *out;
	size_t outlen, i;
	int st, l, c;

	j->spec = fz_file(0, name[j->mode], j->text, j->len);
	st = fz_run(load, j);
	FZ_ASSERT(st == -1 || st == 2, "load ends well");
	if (j->mode == 0) {
		kn_str *lab = NULL;

		tsv_model(j);
		if (st == -1)
			lab = malloc((size_t)j->h->nlevels * sizeof(kn_str));
		if (j->known)
			FZ_ASSERT((st == -1) == j->ok, "the TSV model agrees");
		for (i = 0; st == -1 && i < j->nl; i++) {
			const char *err;
			int64_t id = kn_hier_leaf(j->h, j->lf[i][0],
			    strlen(j->lf[i][0]), &err);

			FZ_ASSERT(id >= 0 && err == NULL, "a line's leaf");
			labels(j->h, (uint32_t)id, lab);
			for (l = 0; l < j->h->nlevels; l++)
				FZ_ASSERT(lab[l].n == strlen(j->lf[i][l]) &&
				    memcmp(lab[l].p, j->lf[i][l], lab[l].n) == 0,
				    "a line's labels");
		}
		free(lab);
		tsv_model_free(j);
	}
	if (j->mode == 2) {
		/* Sniffed: the same as the file named for its format. */
		const char *nl = memchr(j->text, '\n', j->len);
		size_t n1 = nl ? (size_t)(nl - j->text) : j->len;
		int csv = memchr(j->text, '\t', n1) == NULL &&
		    memchr(j->text, ';', n1) != NULL;

		memset(&k, 0, sizeof(k));
		k.spec = fz_file(1, csv ? "s.csv" : "s.tsv", j->text, j->len);
		c = fz_run(load, &k);
		FZ_ASSERT(c == st, "sniffed: the same outcome");
		if (c == -1) {
			same_hier(j->h, k.h);
			kn_hier_free(k.h);
		}
	}
	if (st != -1)
		return;
	/* Written out again as TSV and CSV, it loads the same (before
	 * the pieces below, whose empty one, a missing value, adds the
	 * leaf of missing values, which no line of a file makes). */
	for (c = 0; c < 2; c++) {
		int ok = dump(j->h, c, &out, &outlen);

		memset(&k, 0, sizeof(k));
		k.spec = fz_file(1, c ? "r.csv" : "r.tsv", out, outlen);
		st = fz_run(load, &k);
		if (ok) {
			FZ_ASSERT(st == -1, "round trip: it loads");
			same_hier(j->h, k.h);
			kn_hier_free(k.h);
		} else if (st == -1)
			kn_hier_free(k.h);
		free(out);
	}
	/* Pieces of the text between separators: leaves or not. */
	{
		const char *p = j->text, *end = j->text + j->len, *q;
		const char *err;
		int64_t id;

		while (p <= end) {
			for (q = p; q < end && *q != '\n' && *q != ';' &&
			    *q != '\t'; q++)
				;
			id = kn_hier_leaf(j->h, p, (size_t)(q - p), &err);
			FZ_ASSERT((id >= 0) == (err == NULL),
			    "a leaf, or a reason");
			FZ_ASSERT(id < 0 || ((size_t)id < j->h->lab[0].n &&
			    kn_dict_get(&j->h->lab[0], (uint32_t)id).n ==
			    (size_t)(q - p)), "the leaf is the value");
			p = q + 1;
		}
	}
	kn_hier_free(j->h);
}

/* x (mant m, scale sc) lies in the label "[lo,hi)" of width w / 10^ws. */
static void
check_interval(kn_str lab, kn_i128 m, int sc, kn_i128 w, int ws)
{
	const char *comma;
	kn_i128 lo, hi, a, b, x, wd;
	int los, his, S = 38;

	FZ_ASSERT(lab.n >= 5 && lab.p[0] == '[' && lab.p[lab.n - 1] == ')',
	    "interval label [lo,hi)");
	comma = memchr(lab.p, ',', lab.n);
	FZ_ASSERT(comma != NULL, "interval label has a comma");
	/* kn_dec_parse takes up to 36 digits: longer bounds (a large
	 * value with a narrow width) are not checked. */
	if (!kn_dec_parse(lab.p + 1, (size_t)(comma - lab.p - 1), &lo,
	    &los)) {
		FZ_ASSERT(comma - lab.p - 1 > 36, "interval lo is a number");
		return;
	}
	if (!kn_dec_parse(comma + 1, (size_t)(lab.p + lab.n - comma - 2),
	    &hi, &his)) {
		FZ_ASSERT(lab.p + lab.n - comma - 2 > 36,
		    "interval hi is a number");
		return;
	}
	/* Compare at a common scale, when it fits. */
	S = sc;
	if (los > S)
		S = los;
	if (his > S)
		S = his;
	if (ws > S)
		S = ws;
	if (S > 38 ||
	    __builtin_mul_overflow(lo, kn_pow10(S - los), &a) ||
	    __builtin_mul_overflow(hi, kn_pow10(S - his), &b) ||
	    __builtin_mul_overflow(m, kn_pow10(S - sc), &x) ||
	    __builtin_mul_overflow(w, kn_pow10(S - ws), &wd))
		return;
	FZ_ASSERT(a <= x && x < b, "the value lies in its interval");
	FZ_ASSERT(b - a == wd, "the interval has the width");
	FZ_ASSERT(a % wd == 0, "the interval starts at a multiple");
}

/* Checks the label lab of the date s (n bytes, valid) at date level
 * lv: its hour, day, month, quarter, year, band of years or decade. */
static void
check_date(kn_str lab, const char *s, size_t n, int lv)
{
	int y = atoi(s), m = atoi(s + 5), ny = kn_date_years(lv), lo, hi;
	char b[32];

	FZ_ASSERT(kn_date_parse(s, n, &(int64_t){ 0 }) != KN_DATE_NONE,
	    "a date leaf is a date");
	switch (lv) {
	case KN_DL_HOUR:
	case KN_DL_DAY:
	case KN_DL_MONTH:
		n = lv == KN_DL_HOUR ? 13 : lv == KN_DL_DAY ? 10 : 7;
		FZ_ASSERT(lab.n == n && memcmp(lab.p, s, n) == 0,
		    "an hour, day or month is the head of the date");
		return;
	case KN_DL_QUARTER:
		snprintf(b, sizeof(b), "%.4s-Q%d", s, (m + 2) / 3);
		break;
	case 1:
		snprintf(b, sizeof(b), "%.4s", s);
		break;
	default:
		FZ_ASSERT(lab.n >= 5, "a band of years has two years");
		lo = atoi(lab.p);
		hi = lv == KN_DL_DECADE ? lo + 9 : atoi(lab.p + 5);
		FZ_ASSERT(lo <= y && y <= hi && hi - lo + 1 == ny &&
		    lo % ny == 0, "the band holds the year, from a multiple");
		snprintf(b, sizeof(b), lv == KN_DL_DECADE ? "%04ds" :
		    "%04d/%04d", lo, hi);
	}
	FZ_ASSERT(lab.n == strlen(b) && memcmp(lab.p, b, lab.n) == 0,
	    "a quarter, year or band is spelled as kanon(7) says");
}

struct gen {
	struct job *j;
	const char *vals;
	size_t vlen;
	int pass;
};

static void
gen_values(void *arg)
{
	struct gen *g = arg;
	kn_hier *h = g->j->h;
	const char *s = g->vals, *end = s + g->vlen, *e;
	int top = h->nlevels - 1, l;

	while (s < end) {
		const char *err;
		int64_t id, id2;
		size_t n;

		e = memchr(s, '\n', (size_t)(end - s));
		if (e == NULL)
			e = end;
		n = (size_t)(e - s);
		id = kn_hier_leaf(h, s, n, &err);
		if (id < 0) {
			FZ_ASSERT(err != NULL, "a refused value has a reason");
		} else {
			id2 = kn_hier_leaf(h, s, n, &err);
			FZ_ASSERT(id2 == id && err == NULL, "a value's leaf is "
			    "stable");
			FZ_ASSERT(label(h, (uint32_t)id, top).n == 1 &&
			    label(h, (uint32_t)id, top).p[0] == '*',
			    "the top is *");
			for (l = 1; l < top; l++) {
				kn_str lab = label(h, (uint32_t)id, l);	/* <= 65 */

				/* A missing value generalizes to itself
				 * (kanon(7), MISSING VALUES). */
				if (kn_missing(s, n)) {
					FZ_ASSERT(lab.n == n &&
					    memcmp(lab.p, s, n) == 0,
					    "a missing value is its labels");
					continue;
				}
				if (h->kind == KN_HMASK) {
					size_t k = (size_t)h->mask[l - 1], i;

					if (k > n)
						k = n;
					FZ_ASSERT(lab.n == n && memcmp(lab.p, s,
					    n - k) == 0, "mask keeps the head");
					for (i = n - k; i < n; i++)
						FZ_ASSERT(lab.p[i] == '*',
						    "mask stars the tail");
				} else if (h->kind == KN_HDATE) {
					check_date(lab, s, n, h->dlevel[l - 1]);
				} else {
					kn_i128 m;
					int sc;

					FZ_ASSERT(kn_dec_parse(s, n, &m, &sc),
					    "an interval leaf is a number");
					check_interval(lab, m, sc,
					    h->width[l - 1], h->wscale);
				}
			}
		}
		s = e < end ? e + 1 : end;
	}
	check_links(h);
}

static void
gen_mode(struct job *j)
{
	const char *nl = memchr(j->text, '\n', j->len);
	size_t n = nl ? (size_t)(nl - j->text) : j->len;
	const char *pre = j->mode == 3 ? "interval:" : j->mode == 4 ?
	    "mask:" : "date:";
	char *spec = malloc(strlen(pre) + n + 1);
	struct gen g;
	int st;

	memcpy(spec, pre, strlen(pre));
	memcpy(spec + strlen(pre), j->text, n);
	spec[strlen(pre) + n] = '\0';
	j->spec = spec;
	st = fz_run(load, j);
	FZ_ASSERT(st == -1 || st == 2, "load ends well");
	if (st == -1) {
		g.j = j;
		g.vals = nl ? nl + 1 : j->text + j->len;
		g.vlen = (size_t)(j->text + j->len - g.vals);
		for (g.pass = 0; g.pass < 2; g.pass++) {
			st = fz_run(gen_values, &g);
			FZ_ASSERT(st == -1, "values never end the program");
			kn_hier_reset(j->h);
			FZ_ASSERT(j->h->lab[0].n == 0, "reset forgets");
		}
		kn_hier_free(j->h);
	}
	free(spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job j;

	fz_init("fuzz-hier");
	if (size < 1)
		return 0;
	memset(&j, 0, sizeof(j));
	j.mode = data[0] % 6;
	j.text = (const char *)data + 1;
	j.len = size - 1;
	if (j.mode < 3)
		file_mode(&j);
	else
		gen_mode(&j);
	return 0;
}
