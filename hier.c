/*
 * hier.c: generalization hierarchies and the -H options.  A hierarchy
 * comes from a file (our TSV format, one leaf-to-root path a line, or
 * ARX's ';' CSV), checked to be a tree, or is generated: intervals of
 * fixed widths, digit masks or the months, quarters and years of dates
 * (date.c), grown as values are met.  Above tsv.c
 * (files are read once, line by line, with the line reader).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kanon.h"

/* ---- hierarchies --------------------------------------------------- */

#define NOPARENT UINT32_MAX

static kn_hier *
hier_new(const char *attr, const char *src, int kind, int nlevels)
{
	kn_hier *h = kn_zalloc(sizeof(*h));
	int l;

	h->attr = kn_strdup(attr);
	h->src = kn_strdup(src);
	h->kind = kind;
	h->nlevels = nlevels;
	h->lab = kn_alloc((size_t)nlevels * sizeof(kn_dict));
	for (l = 0; l < nlevels; l++)
		kn_dict_init(&h->lab[l]);
	h->up = kn_zalloc((size_t)nlevels * sizeof(uint32_t *));
	h->upcap = kn_zalloc((size_t)nlevels * sizeof(size_t));
	return h;
}

void
kn_hier_free(kn_hier *h)
{
	int l;

	if (h == NULL)
		return;
	for (l = 0; l < h->nlevels; l++) {
		kn_dict_free(&h->lab[l]);
		free(h->up[l]);
	}
	free(h->lab);
	free(h->up);
	free(h->upcap);
	free(h->width);
	free(h->mask);
	free(h->dlevel);
	free(h->icache);
	free(h->attr);
	free(h->src);
	free(h);
}

/* Frees the labels' text and index and the links, keeping the number
 * of labels of each level (lab[l].n): for a caller done with the values
 * once it has built its level maps and losses (lattice-search, whose
 * budget -S they would take for nothing during the search). */
void
kn_hier_shed(kn_hier *h)
{
	size_t n;
	int l;

	free(h->icache);
	h->icache = NULL;
	for (l = 0; l < h->nlevels; l++) {
		n = h->lab[l].n;
		kn_dict_free(&h->lab[l]);
		h->lab[l].n = n;
		free(h->up[l]);
		h->up[l] = NULL;
		h->upcap[l] = 0;
	}
}

/* Links id at level l to parent p at level l+1; returns the parent
 * already recorded, or NOPARENT when the link is new or the same. */
static uint32_t
hier_link(kn_hier *h, int l, uint32_t id, uint32_t p)
{
	size_t n;

	if (id >= h->upcap[l]) {
		n = h->upcap[l] ? h->upcap[l] : 64;
		while (n <= id)
			n *= 2;
		h->up[l] = kn_realloc(h->up[l], n * sizeof(uint32_t));
		memset(h->up[l] + h->upcap[l], 0xff,
		    (n - h->upcap[l]) * sizeof(uint32_t));
		h->upcap[l] = n;
	}
	if (h->up[l][id] == NOPARENT || h->up[l][id] == p) {
		h->up[l][id] = p;
		return NOPARENT;
	}
	return h->up[l][id];
}

/* Parses the current line of r, a record of ARX's ';' CSV (RFC 4180
 * quoting; a quoted label may not span lines), into fields, their
 * unquoted copies in out; returns the field count. */
static size_t
csv_line(const kn_reader *r, kn_str **fp, size_t *fcap, char *out)
{
	const char *p = r->line, *end = r->line + r->len;
	unsigned long long ln = (unsigned long long)r->lineno;
	size_t n = 0;
	char *o = out;

	for (;;) {
		char *f = o;

		*fp = kn_grow(*fp, fcap, n, sizeof(kn_str), 16);
		if (p < end && *p == '"') {
			for (p++;;) {
				if (p >= end)
					kn_die("%s:%llu: field %zu: unterminated "
					    "quoted label (a label may not span "
					    "lines)", r->name, ln, n + 1);
				if (*p == '"') {
					if (p + 1 < end && p[1] == '"') {
						*o++ = '"';
						p += 2;
						continue;
					}
					p++;
					break;
				}
				*o++ = *p++;
			}
			if (p < end && *p != ';')
				kn_die("%s:%llu: field %zu: text after the "
				    "closing quote", r->name, ln, n + 1);
		} else {
			while (p < end && *p != ';') {
				if (*p == '"')
					kn_die("%s:%llu: field %zu: quote inside "
					    "an unquoted field", r->name, ln,
					    n + 1);
				*o++ = *p++;
			}
		}
		(*fp)[n].p = f;
		(*fp)[n].n = (size_t)(o - f);
		n++;
		if (p >= end)
			return n;
		p++;		/* ';' */
	}
}

/* Loads a hierarchy file, read once line by line: our TSV (csv 0), ARX's
 * ';' CSV (csv 1), or (csv -1) the one the first line says: with a ';'
 * and no tab it is ARX's. */
static kn_hier *
hier_file(const char *attr, const char *path, int csv)
{
	kn_reader r;
	size_t nf, fcap = 0, tcap = 0, want = 0, i;
	char *tmp = NULL;
	kn_str *f = NULL;
	unsigned long long here, wantline = 0;
	uint32_t *id = NULL;
	kn_hier *h = NULL;
	int l, bycsv = csv == 1;

	/* Said as the option that names it, before the reader's own
	 * "PATH: No such file or directory". */
	if (strcmp(path, "-") != 0 && access(path, F_OK) != 0)
		kn_die_sys("-H %s=%s: the hierarchy file", attr, path);
	kn_reader_open(&r, path);
	if (csv == 1)
		r.fsep = ';';
	while (kn_getline(&r)) {
		here = (unsigned long long)r.lineno;
		if (csv < 0) {
			csv = memchr(r.line, '\t', r.len) == NULL &&
			    memchr(r.line, ';', r.len) != NULL;
			r.fsep = csv ? ';' : '\t';
		}
		if (csv) {
			tmp = kn_grow(tmp, &tcap, r.len, 1, 256);
			nf = csv_line(&r, &f, &fcap, tmp);
			for (i = 0; i < nf; i++)
				if (memchr(f[i].p, '\t', f[i].n) != NULL)
					kn_die("%s:%llu: field %zu: tab inside a "
					    "label%s", path, here, i + 1, bycsv ?
					    " (a tab-separated hierarchy is "
					    "named .tsv, not .csv)" : "");
		} else if ((nf = kn_split(r.line, r.len, f, fcap)) > fcap) {
			f = kn_grow(f, &fcap, nf - 1, sizeof(kn_str), 16);
			kn_split(r.line, r.len, f, fcap);
		}
		if (nf == 1 && f[0].n == 0)
			continue;	/* blank line */
		for (i = 0; i < nf; i++)
			if (f[i].n > 0 && f[i].p[f[i].n - 1] == '\r')
				kn_die("%s:%llu: field %zu: a label that ends "
				    "in a carriage return (a reader of the "
				    "release would take it, ending a line, for a "
				    "CRLF line end); remove it (tr -d '\\r')",
				    path, here, i + 1);
		if (h == NULL) {
			if (nf == 1 && !csv && memchr(f[0].p, ';', f[0].n))
				kn_die("%s:%llu: no tab but a ';': this looks "
				    "like ARX's ';' CSV; to read it so, name "
				    "the file .csv (or give it no ending)", path,
				    here);
			if (nf > KN_HIER_MAXLEVELS)
				kn_die("%s:%llu: %zu levels: a hierarchy has at "
				    "most %d (kanon(7), INPUT LIMITS); is this "
				    "a hierarchy file?", path, here, nf,
				    KN_HIER_MAXLEVELS);
			want = nf;
			wantline = here;
			h = hier_new(attr, path, KN_HFILE, (int)nf);
			id = kn_alloc(nf * sizeof(uint32_t));
		} else if (nf != want)
			kn_die("%s:%llu: expected %zu levels (as on line %llu), "
			    "found %zu", path, here, want, wantline, nf);
		for (l = 0; l < (int)nf; l++)
			id[l] = kn_dict_intern(&h->lab[l], f[l].p, f[l].n);
		for (l = 0; l + 1 < (int)nf; l++) {
			uint32_t old = hier_link(h, l, id[l], id[l + 1]);

			if (old != NOPARENT) {
				kn_str a = kn_dict_get(&h->lab[l + 1], old);
				kn_str b = kn_dict_get(&h->lab[l + 1], id[l + 1]);
				kn_str v = kn_dict_get(&h->lab[l], id[l]);

				kn_die("%s:%llu: not a hierarchy: '%.*s' at "
				    "level %d has two parents, '%.*s' and "
				    "'%.*s'", path, here, (int)v.n, v.p, l,
				    (int)a.n, a.p, (int)b.n, b.p);
			}
		}
	}
	kn_reader_close(&r);
	if (h == NULL)
		kn_die("%s: empty hierarchy", path);
	h->nfile = (uint32_t)h->lab[0].n;
	free(tmp);
	free(f);
	free(id);
	return h;
}

/* Parses a comma list of positive decimals into widths scaled to a
 * common scale. */
static void
parse_widths(kn_hier *h, const char *list, int *n)
{
	kn_i128 m[64];
	int sc[64], k = 0, i, maxsc = 0;
	const char *p = list, *q;

	for (;;) {
		q = strchr(p, ',');
		if (q == NULL)
			q = p + strlen(p);
		if (k == 64)
			kn_die("-H %s: too many levels", h->attr);
		if (!kn_dec_parse(p, (size_t)(q - p), &m[k], &sc[k]) ||
		    m[k] <= 0 || sc[k] > 9 || m[k] > (kn_i128)1000000000000000LL)
			kn_die("-H %s=interval:%s: '%.*s' is not a positive "
			    "width (a number above 0, at most 10^15, with at "
			    "most 9 digits after the point)", h->attr, list,
			    (int)(q - p), p);
		if (sc[k] > maxsc)
			maxsc = sc[k];
		k++;
		if (*q == '\0')
			break;
		p = q + 1;
	}
	h->width = kn_alloc((size_t)k * sizeof(kn_i128));
	h->wscale = maxsc;
	for (i = 0; i < k; i++) {
		h->width[i] = m[i] * kn_pow10(maxsc - sc[i]);
		if (i > 0 && h->width[i] % h->width[i - 1] != 0)
			kn_die("-H %s=interval:%s: each width must be a "
			    "multiple of the one before", h->attr, list);
	}
	*n = k;
}

static void
parse_masks(kn_hier *h, const char *list, int *n)
{
	int k = 0, v;
	const char *p = list, *q;

	h->mask = kn_alloc(64 * sizeof(int));
	for (;;) {
		/* Digits alone: no sign or space, no wrap past an int. */
		for (v = 0, q = p; *q >= '0' && *q <= '9' && v <= 64; q++)
			v = 10 * v + (*q - '0');
		while (*q >= '0' && *q <= '9')
			q++;
		if (q == p || (*q != ',' && *q != '\0') || v < 1 || v > 64)
			kn_die("-H %s=mask:%s: '%.*s' is not a count of digits "
			    "to mask, from 1 to 64", h->attr, list,
			    (int)strcspn(p, ","), p);
		if (k > 0 && v <= h->mask[k - 1])
			kn_die("-H %s=mask:%s: %d after %d: each level masks "
			    "more digits than the one before", h->attr, list,
			    v, h->mask[k - 1]);
		h->mask[k++] = v;
		if (*q == '\0')
			break;
		p = q + 1;
	}
	*n = k;
}

/* Parses a comma list of date levels (date.c), each coarser than the
 * one before and made of its labels. */
static void
parse_dates(kn_hier *h, const char *list, int *n)
{
	const char *p = list, *q, *prev = NULL;
	int k = 0, lv;

	h->dlevel = kn_alloc(64 * sizeof(int));
	for (;;) {
		if ((q = strchr(p, ',')) == NULL)
			q = p + strlen(p);
		if ((lv = kn_date_level(p, (size_t)(q - p))) == 0 || k == 64)
			kn_die("-H %s=date:%s: '%.*s' is not a level: expected "
			    "hour, day, month, quarter, year, Ny (N years, 2 to "
			    "10000) or decade", h->attr, list, (int)(q - p), p);
		if (k > 0 && !kn_date_nests(h->dlevel[k - 1], lv))
			kn_die("-H %s=date:%s: '%.*s' after '%.*s': the levels "
			    "go from fine to coarse, each made of whole labels "
			    "of the one before (N years of a multiple of the "
			    "years before)", h->attr, list, (int)(q - p), p,
			    (int)(p - 1 - prev), prev);
		h->dlevel[k++] = lv;
		if (*q == '\0')
			break;
		prev = p;
		p = q + 1;
	}
	*n = k;
}

static int
has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

kn_hier *
kn_hier_load(const char *attr, const char *spec)
{
	kn_hier *h;
	int n;

	if (strncmp(spec, "interval:", 9) == 0) {
		h = hier_new(attr, spec, KN_HINTERVAL, 1);
		parse_widths(h, spec + 9, &n);
	} else if (strncmp(spec, "mask:", 5) == 0) {
		h = hier_new(attr, spec, KN_HMASK, 1);
		parse_masks(h, spec + 5, &n);
	} else if (strncmp(spec, "date:", 5) == 0) {
		h = hier_new(attr, spec, KN_HDATE, 1);
		parse_dates(h, spec + 5, &n);
	} else
		return hier_file(attr, spec, has_suffix(spec, ".csv") ? 1 :
		    has_suffix(spec, ".tsv") ? 0 : -1);
	/* Generated: leaves, n levels, then the root '*'. */
	{
		kn_dict *lab = kn_realloc(h->lab, (size_t)(n + 2) *
		    sizeof(kn_dict));
		int l;

		h->lab = lab;
		for (l = 1; l < n + 2; l++)
			kn_dict_init(&h->lab[l]);
		h->nlevels = n + 2;
		h->up = kn_realloc(h->up, (size_t)(n + 2) * sizeof(uint32_t *));
		h->upcap = kn_realloc(h->upcap, (size_t)(n + 2) *
		    sizeof(size_t));
		for (l = 1; l < n + 2; l++) {
			h->up[l] = NULL;
			h->upcap[l] = 0;
		}
		kn_dict_intern(&h->lab[n + 1], "*", 1);
	}
	return h;
}

/* Floor division of a by b > 0. */
static kn_i128
floordiv(kn_i128 a, kn_i128 b)
{
	kn_i128 q = a / b;

	return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* Why value s does not fit interval hierarchy h, or NULL: its value
 * scaled by 10^*S (its scale or the widths', the greater) into *m. */
static const char *
interval_value(const kn_hier *h, const char *s, size_t n, kn_i128 *m,
    int *S)
{
	kn_i128 w;
	int sc, top = h->nlevels - 1;

	if (!kn_dec_parse(s, n, m, &sc))
		return kn_dec_why(s, n, "value is not a number");
	if (sc > 18)
		return "value has more than 18 decimal places, the most an "
		    "interval hierarchy takes (kanon(7), Numbers)";
	if (*m > ((kn_i128)1 << 100) || *m < -((kn_i128)1 << 100))
		return "value has too many digits for an interval hierarchy: "
		    "without its point, they may make at most 2^100 (about "
		    "31 digits; kanon(7), Numbers)";
	*S = sc > h->wscale ? sc : h->wscale;
	if (__builtin_mul_overflow(*m, kn_pow10(*S - sc), m) ||
	    __builtin_mul_overflow(h->width[top - 2],
	    kn_pow10(*S - h->wscale), &w) ||
	    *m > ((kn_i128)1 << 120) || *m < -((kn_i128)1 << 120) ||
	    w > ((kn_i128)1 << 120))
		return "value out of range for the interval widths";
	return NULL;
}

/* Why value s is not a code a mask hierarchy takes, or NULL. */
static const char *
code_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			break;
	return n == 0 || i < n ? "value is not a code of digits" : NULL;
}

/* Why missing value s cannot be a leaf of h, or NULL (missing_leaf). */
static const char *
missing_why(const kn_hier *h, const char *s, size_t n)
{
	int l, top = h->nlevels - 1;

	for (l = 1; l < h->nlevels; l++)
		if (kn_dict_find(&h->lab[l], s, n) >= 0 &&
		    (l < top || h->lab[top].n > 1))
			return "a missing value that is a label of the "
			    "hierarchy but not a leaf: list it as a leaf";
	return NULL;
}

/* A missing value that the hierarchy does not list (kanon(7), MISSING
 * VALUES): a leaf that generalizes to itself at every level but the
 * top, and there to the top's one label (to itself if the top level
 * has several). */
static int64_t
missing_leaf(kn_hier *h, const char *s, size_t n, const char **err,
    uint32_t *above)
{
	uint32_t id = 0, p;
	int l, top = h->nlevels - 1;

	if ((*err = missing_why(h, s, n)) != NULL)
		return -1;
	if (above == NULL)
		id = kn_dict_intern(&h->lab[0], s, n);
	for (l = 0; l < top; l++) {
		p = l + 1 == top && h->lab[top].n == 1 ? 0 :
		    kn_dict_intern(&h->lab[l + 1], s, n);
		if (above != NULL)
			above[l + 1] = p;
		if (l > 0 || above == NULL)
			hier_link(h, l, l == 0 ? id :
			    (uint32_t)kn_dict_find(&h->lab[l], s, n), p);
	}
	return id;
}

/* The ids of the interval labels lately made, by level, scale and the
 * interval's number (its low end over its width): a value's labels are
 * made once per interval met again, not formatted and looked up per
 * value (a column with a distinct value in each row makes a leaf per
 * row).  Direct-mapped, ICACHE entries a level (8 KB), not counted
 * against -S: a fixed room a level, like the leaf caches of freq.c. */
#define ICACHE 256
struct kn_hicache {
	kn_i128 q;
	int32_t S;
	uint32_t id1;		/* the label's id + 1, 0 for none */
};

/* The id of the label of interval number q of width w (scaled by
 * 10^S) at level l: "[q w,(q + 1) w)" at scale S. */
static uint32_t
ilabel(kn_hier *h, int l, int S, kn_i128 q, kn_i128 w)
{
	struct kn_hicache *e;
	uint64_t x = (uint64_t)q ^ (uint64_t)(q >> 64) * KN_HASH_M2 ^
	    (uint64_t)S << 56;
	char buf[192];
	size_t len;
	kn_i128 lo;

	if (h->icache == NULL)
		h->icache = kn_zalloc((size_t)(h->nlevels - 1) * ICACHE *
		    sizeof(*h->icache));
	e = &h->icache[(size_t)(l - 1) * ICACHE +
	    (size_t)(x * KN_HASH_M1 >> 56 & (ICACHE - 1))];
	if (e->id1 != 0 && e->q == q && e->S == S)
		return e->id1 - 1;
	lo = q * w;
	buf[0] = '[';
	len = 1 + kn_dec_format(lo, S, buf + 1);
	buf[len++] = ',';
	len += kn_dec_format(lo + w, S, buf + len);
	buf[len++] = ')';
	e->q = q;
	e->S = S;
	e->id1 = kn_dict_intern(&h->lab[l], buf, len) + 1;
	return e->id1 - 1;
}

/* kn_hier_leaf, and kn_hier_above when above is not NULL: the labels
 * of a generated hierarchy above the leaf, its leaf not kept. */
static int64_t
hier_leaf(kn_hier *h, const char *s, size_t n, const char **err,
    uint32_t *above)
{
	kn_dict_at at;
	int64_t found = above != NULL ? -1 :
	    kn_dict_find_at(&h->lab[0], s, n, &at);
	uint32_t id[66];
	char buf[192];
	int l, top = h->nlevels - 1;

	*err = NULL;
	if (found < 0 && kn_missing(s, n))
		return missing_leaf(h, s, n, err, above);
	if (found >= 0 || h->kind == KN_HFILE) {
		if (found < 0)
			*err = "value is not a leaf of the hierarchy";
		return found;
	}
	if (h->kind == KN_HINTERVAL) {
		kn_i128 m, w, q;
		int S;

		if ((*err = interval_value(h, s, n, &m, &S)) != NULL)
			return -1;
		id[0] = above != NULL ? 0 :
		    kn_dict_put_at(&h->lab[0], s, n, &at);
		for (l = 1; l < top; l++) {
			w = h->width[l - 1] * kn_pow10(S - h->wscale);
			q = floordiv(m, w);
			id[l] = ilabel(h, l, S, q, w);
		}
	} else if (h->kind == KN_HDATE) {
		int64_t v;
		size_t len;

		if ((*err = kn_date_value(&h->dform, s, n, &v, buf,
		    sizeof(buf))) != NULL) {
			snprintf(h->why, sizeof(h->why), "value %s", *err);
			*err = h->why;
			return -1;
		}
		if (h->dform == KN_DATE_DAY && (h->dlevel[0] == KN_DL_HOUR ||
		    h->dlevel[0] == KN_DL_DAY)) {
			*err = "value is a date: the levels hour and day are for "
			    "date-times (YYYY-MM-DDThh:mm:ss)";
			return -1;
		}
		id[0] = above != NULL ? 0 :
		    kn_dict_put_at(&h->lab[0], s, n, &at);
		for (l = 1; l < top; l++) {
			len = kn_date_label(v, h->dform, h->dlevel[l - 1], buf);
			id[l] = kn_dict_intern(&h->lab[l], buf, len);
		}
	} else {
		char *b;

		if ((*err = code_digits(s, n)) != NULL)
			return -1;
		id[0] = above != NULL ? 0 :
		    kn_dict_put_at(&h->lab[0], s, n, &at);
		b = kn_alloc(n + 1);
		for (l = 1; l < top; l++) {
			size_t m = (size_t)h->mask[l - 1] < n ?
			    (size_t)h->mask[l - 1] : n;

			memcpy(b, s, n - m);
			memset(b + n - m, '*', m);
			id[l] = kn_dict_intern(&h->lab[l], b, n);
		}
		free(b);
	}
	id[top] = 0;
	for (l = above != NULL; l < top; l++)
		hier_link(h, l, id[l], id[l + 1]);
	if (above != NULL)
		memcpy(above + 1, id + 1, (size_t)top * sizeof(uint32_t));
	return id[0];
}

int64_t
kn_hier_leaf(kn_hier *h, const char *s, size_t n, const char **err)
{
	return hier_leaf(h, s, n, err, NULL);
}

int
kn_hier_checkable(const kn_hier *h)
{
	const kn_dict *tok = kn_missing_tokens();
	uint32_t i;
	size_t j;

	if (h->kind == KN_HFILE)
		return 1;
	if (h->kind == KN_HDATE)
		return 0;
	/* A missing value met before or after the generated label it
	 * equals is a leaf or refused: only the order of the rows tells. */
	for (i = 0; tok != NULL && i < tok->n; i++) {
		kn_str v = kn_dict_get(tok, i);

		for (j = 0; j < v.n; j++)
			if (v.p[j] == '*' || v.p[j] == '[')
				return 0;
	}
	return 1;
}

int
kn_hier_check(const kn_hier *h, const char *s, size_t n, const char **err)
{
	kn_i128 m;
	int S;

	*err = NULL;
	if (kn_dict_find(&h->lab[0], s, n) >= 0)
		return 0;
	if (kn_missing(s, n))
		*err = missing_why(h, s, n);
	else if (h->kind == KN_HFILE)
		*err = "value is not a leaf of the hierarchy";
	else if (h->kind == KN_HINTERVAL)
		*err = interval_value(h, s, n, &m, &S);
	else
		*err = code_digits(s, n);
	return *err != NULL ? -1 : 0;
}

void
kn_hier_missing(kn_hier *h)
{
	const kn_dict *tok = kn_missing_tokens();
	const char *err;
	uint32_t i;

	(void)kn_hier_leaf(h, "", 0, &err);
	for (i = 0; tok != NULL && i < tok->n; i++) {
		kn_str v = kn_dict_get(tok, i);

		(void)kn_hier_leaf(h, v.p, v.n, &err);
	}
}

int
kn_hier_above(kn_hier *h, const char *s, size_t n, uint32_t *ids,
    const char **err)
{
	return hier_leaf(h, s, n, err, ids) < 0 ? -1 : 0;
}

kn_hier *
kn_hier_clone(const kn_hier *h)
{
	kn_hier *c;
	kn_str s;
	uint32_t i;
	int l;

	if (h->kind == KN_HDATE && h->dform == KN_DATE_NONE)
		return NULL;
	if (h->kind != KN_HFILE) {
		c = kn_hier_load(h->attr, h->src);
		c->dform = h->dform;
		return c;
	}
	c = hier_new(h->attr, h->src, KN_HFILE, h->nlevels);
	c->nfile = h->nfile;
	for (l = 0; l < h->nlevels; l++) {
		/* Interned in order, each label keeps its id. */
		for (i = 0; i < h->lab[l].n; i++) {
			s = kn_dict_get(&h->lab[l], i);
			kn_dict_intern(&c->lab[l], s.p, s.n);
		}
		if (h->upcap[l] > 0) {
			c->up[l] = kn_alloc(h->upcap[l] * sizeof(uint32_t));
			memcpy(c->up[l], h->up[l], h->upcap[l] *
			    sizeof(uint32_t));
			c->upcap[l] = h->upcap[l];
		}
	}
	return c;
}

void
kn_hier_reset(kn_hier *h)
{
	int l, top = h->nlevels - 1;

	if (h->kind == KN_HFILE)
		return;
	free(h->icache);
	h->icache = NULL;
	for (l = 0; l < h->nlevels; l++) {
		kn_dict_free(&h->lab[l]);
		kn_dict_init(&h->lab[l]);
		free(h->up[l]);
		h->up[l] = NULL;
		h->upcap[l] = 0;
	}
	kn_dict_intern(&h->lab[top], "*", 1);
}

uint32_t
kn_hier_lift(const kn_hier *h, uint32_t id, int from, int lv)
{
	int l;

	for (l = from; l < lv; l++)
		id = h->up[l][id];
	return id;
}

uint32_t *
kn_hier_map(const kn_hier *h, int from, int to)
{
	size_t n = h->lab[from].n, i;
	uint32_t *m = kn_alloc((n + 1) * sizeof(uint32_t));

	for (i = 0; i < n; i++)
		m[i] = kn_hier_lift(h, (uint32_t)i, from, to);
	return m;
}

/* ---- -H options --------------------------------------------------- */

void
kn_hopts_add(kn_hopts *o, const char *arg)
{
	struct stat st;

	if (strchr(arg, '=') == NULL &&
	    (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode)))
		kn_die("-H '%s': expected ATTR=FILE, ATTR=interval:W,..., "
		    "ATTR=mask:N,..., ATTR=date:LEVEL,... or a directory", arg);
	o->arg = kn_realloc(o->arg, (o->n + 1) * sizeof(char *));
	o->arg[o->n++] = kn_strdup(arg);
	/* A file read after the outputs are opened. */
	if (strchr(arg, '=') != NULL)
		kn_note_later(strchr(arg, '=') + 1);
}

/* True if arg is an ATTR=SPEC option (not a directory). */
static int
is_pair(const char *arg)
{
	struct stat st;

	return strchr(arg, '=') != NULL &&
	    !(stat(arg, &st) == 0 && S_ISDIR(st.st_mode));
}

/* Finds the hierarchy file of attr in directory dir, or NULL: a name
 * that dir lists, equal byte for byte to ATTR.tsv, else ATTR.csv, else
 * the one ending in _hierarchy_ATTR.csv.  No name in a directory holds
 * a '/', so a column named '../x' or 'a/b' finds nothing outside it; a
 * name found that leads nowhere (a dangling symbolic link) is an
 * error, not a column without a hierarchy. */
static char *
find_in_dir(const char *dir, const char *attr)
{
	char *name[3] = { NULL, NULL, NULL }, *suf, *path;
	size_t an = strlen(attr), n, k;
	struct stat st;
	struct dirent *e;
	DIR *d;

	n = an + 16;
	suf = kn_alloc(n);
	snprintf(suf, n, "_hierarchy_%s.csv", attr);
	if ((d = opendir(dir)) == NULL)
		kn_die_sys("-H %s", dir);
	while ((e = readdir(d)) != NULL) {
		if (strlen(e->d_name) == an + 4 &&
		    strncmp(e->d_name, attr, an) == 0 &&
		    (strcmp(e->d_name + an, ".tsv") == 0 ||
		    strcmp(e->d_name + an, ".csv") == 0))
			k = e->d_name[an + 1] == 't' ? 0 : 1;
		else if (has_suffix(e->d_name, suf))
			k = 2;
		else
			continue;
		if (name[k] != NULL)	/* only _hierarchy_ names repeat */
			kn_die("-H %s: two hierarchy files for '%s': %s and %s",
			    dir, attr, name[k], e->d_name);
		name[k] = kn_strdup(e->d_name);
	}
	closedir(d);
	free(suf);
	for (k = 0; k < 3 && name[k] == NULL; k++)
		;
	if (k == 3)
		return NULL;
	n = strlen(dir) + strlen(name[k]) + 2;
	path = kn_alloc(n);
	snprintf(path, n, "%s/%s", dir, name[k]);
	if (stat(path, &st) != 0 && errno == ENOENT &&
	    lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		kn_die("-H %s: %s, the hierarchy of '%s', is a symbolic link "
		    "to a file that does not exist", dir, path, attr);
	for (k = 0; k < 3; k++)
		free(name[k]);
	return path;
}

kn_hier *
kn_hopts_get(const kn_hopts *o, const char *attr)
{
	size_t i, an = strlen(attr);
	char *path;
	kn_hier *h;

	for (i = o->n; i-- > 0;)
		if (is_pair(o->arg[i]) && strncmp(o->arg[i], attr, an) == 0 &&
		    o->arg[i][an] == '=')
			return kn_hier_load(attr, o->arg[i] + an + 1);
	for (i = o->n; i-- > 0;) {
		if (is_pair(o->arg[i]))
			continue;
		if ((path = find_in_dir(o->arg[i], attr)) != NULL) {
			h = kn_hier_load(attr, path);
			free(path);
			return h;
		}
	}
	return NULL;
}

void
kn_hopts_check(const kn_hopts *o, char *const *names, size_t n)
{
	size_t i, j, an;
	const char *eq;

	for (i = 0; i < o->n; i++) {
		if (!is_pair(o->arg[i]))
			continue;
		eq = strchr(o->arg[i], '=');
		an = (size_t)(eq - o->arg[i]);
		for (j = 0; j < n; j++)
			if (strlen(names[j]) == an &&
			    strncmp(names[j], o->arg[i], an) == 0)
				break;
		if (j == n)
			kn_die("-H %s: '%.*s' is not one of the grouped "
			    "columns", o->arg[i], (int)an, o->arg[i]);
	}
}

/*
 * The leaves under each label of the levels above the leaves, for
 * Iyengar's loss ((leaves under it - 1) / (leaves - 1)): cover[l][id],
 * l > 0; cover[0] is NULL.  Caller frees each level and the array.
 */
uint32_t **
kn_hier_cover(const kn_hier *h)
{
	uint32_t **cover;
	size_t id;
	int l;

	cover = kn_zalloc((size_t)h->nlevels * sizeof(uint32_t *));
	for (l = 1; l < h->nlevels; l++)
		cover[l] = kn_zalloc((h->lab[l].n + 1) * sizeof(uint32_t));
	for (l = 0; l + 1 < h->nlevels; l++)
		for (id = 0; id < h->lab[l].n; id++)
			cover[l + 1][h->up[l][id]] += l == 0 ? 1 :
			    cover[l][id];
	return cover;
}
