/*
 * mload.c: coding the table's rows for partition, the first pass every
 * mode shares (paper 003 §4's records, paper 004 §2's spool): each
 * row's quasi-identifiers become codes whose order is the dimension's
 * (mondrian.h, struct dim), the numbers ranked once all are read
 * (mrank.c), the
 * hierarchies' leaves ordered depth-first; the sensitive values and the
 * targets are numbered in a dictionary each.  In memory the rows are
 * records in pt->rec; out of core they are spooled as binary records
 * of these codes for rothko.c, the numbers as keys (numkey.c).  Below
 * mondrian.c, which prepares the codes (mond_prepare) and cuts them.
 *
 * With -j (TSV, or CSV that kn_table_blocks allows), block.c's blocks
 * of whole rows are coded on threads
 * (mload_par): each thread parses its block's rows into their records,
 * in place in memory, out of core into the block's own (its size then
 * bounded by the budget) that the main thread copies to the spool's
 * chunks in order, and gives the values of the dictionaries (the
 * hierarchies' leaves, the sensitive values, the targets) ids of the
 * block's own,
 * first seen first; the main thread takes the blocks back in order and
 * adds their values to the run's dictionaries in that order, which is
 * the order one thread sees them in, so the codes are the same.  A row
 * a thread cannot code, and the rest of its block, or the whole block
 * when one of its values is refused, is coded again on the main thread
 * as one thread codes it, which reports the first bad row.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extsort.h"
#include "kanon.h"
#include "mondrian.h"
#include "tcdisk.h"

/* Why mond_parse_num refused s, in words for a message. */
const char *
mond_num_error(const char *s, size_t n)
{
	kn_i128 mant;
	int sc;

	int64_t day;

	if (kn_date_parse(s, n, &day) != KN_DATE_NONE)
		return "is a date, not a number: name its column with --date "
		    "to cut it as a time, or give it a hierarchy -H "
		    "COL=date:LEVELS";
	if (!kn_dec_parse(s, n, &mant, &sc))
		return kn_dec_why(s, n, "is not a decimal number");
	if (sc > 18)
		return "has more than 18 decimal places (kanon(7), Numbers)";
	return "does not fit a signed 64-bit integer (kanon(7), Numbers)";
}

/* Parses a decimal number into m / 10^sc with m in 64 bits (signed)
 * and no trailing fractional zeros; 0 if s is not one. */
int
mond_parse_num(const char *s, size_t n, int64_t *m, int *sc)
{
	size_t i = 0, nd = 0;
	uint64_t v = 0;
	int neg = 0, frac = -1;

	/* Most often: an integer of at most 18 digits, which fits. */
	if (n > 0 && n <= 18) {
		for (; i < n && (unsigned char)(s[i] - '0') < 10; i++)
			v = v * 10 + (uint64_t)(s[i] - '0');
		if (i == n) {
			*m = (int64_t)v;
			*sc = 0;
			return 1;
		}
		i = 0;
		v = 0;
	}
	if (memchr(s, '.', n) != NULL)
		while (n > 0 && s[n - 1] == '0')
			n--;
	if (n > 0 && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		i++;
	}
	for (; i < n; i++) {
		if (s[i] == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (s[i] < '0' || s[i] > '9')
			return 0;
		if (v > (UINT64_MAX - 9) / 10 || v * 10 + (uint64_t)(s[i] -
		    '0') > (uint64_t)INT64_MAX + (uint64_t)neg)
			return 0;
		v = v * 10 + (uint64_t)(s[i] - '0');
		nd++;
		if (frac >= 0)
			frac++;
	}
	if (nd == 0)
		return 0;
	if (frac < 0)
		frac = 0;
	while (frac > 0 && v % 10 == 0) {
		v /= 10;
		frac--;
	}
	if (frac > 18)
		return 0;
	/* -2^63 included, without an overflow. */
	*m = neg ? -(int64_t)(v - 1) - 1 : (int64_t)v;
	*sc = frac;
	return 1;
}

const char *
mond_parse_value(struct dim *dm, const char *s, size_t n, int64_t *m,
    int *sc, char *buf, size_t size)
{
	const char *err;

	if (dm->isdate) {
		*sc = 0;
		return kn_date_value(&dm->dform, s, n, m, buf, size);
	}
	if (mond_parse_num(s, n, m, sc))
		return NULL;
	err = mond_num_error(s, n);
	if (dm->h == NULL && strncmp(err, "is a date", 9) != 0) {
		snprintf(buf, size, "%s (a column with a hierarchy (-H) need "
		    "not be one)", err);
		return buf;
	}
	return err;
}

/* Orders leaves depth-first: by their ancestors from the top down. */
static int
cmp_dfs(uint32_t a, uint32_t b, const void *ctx)
{
	const struct dim *dm = ctx;
	int l;

	for (l = dm->nl - 1; l >= 1; l--)
		if (dm->anc[l][a] != dm->anc[l][b])
			return dm->anc[l][a] < dm->anc[l][b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Whether leaf i of h is a missing value's that h's file does not
 * list. */
static int
hier_missing_leaf(const kn_hier *h, uint32_t i)
{
	kn_str v;

	if (h->kind == KN_HFILE && i < h->nfile)
		return 0;
	v = kn_dict_get(&h->lab[0], i);
	return kn_missing(v.p, v.n);
}

/* Builds the ancestors, leaf counts and depth-first codes of a
 * hierarchy once all values are known. */
void
mond_prepare_hier(struct dim *dm)
{
	kn_hier *h = dm->h;
	size_t nleaves = h->lab[0].n, i;
	int l;

	dm->nl = h->nlevels;
	dm->anc = kn_alloc(((size_t)dm->nl + 1) * sizeof(uint32_t *));
	dm->nleaf = kn_alloc(((size_t)dm->nl + 1) * sizeof(uint32_t *));
	dm->anc[0] = kn_alloc((nleaves + 1) * sizeof(uint32_t));
	for (i = 0; i < nleaves; i++)
		dm->anc[0][i] = (uint32_t)i;
	for (l = 1; l < dm->nl; l++)
		dm->anc[l] = kn_hier_map(h, 0, l);
	/* A node's width counts the leaves under its label, but not
	 * those of missing values that a file does not list (kn_hier_
	 * missing adds them whether rows hold them or not): a table's
	 * widths are those of its file, as every --job step has them. */
	for (l = 0; l < dm->nl; l++)
		dm->nleaf[l] = kn_zalloc((h->lab[l].n + 1) *
		    sizeof(uint32_t));
	dm->wleaves = 0;
	for (i = 0; i < nleaves; i++) {
		if (hier_missing_leaf(h, (uint32_t)i))
			continue;
		dm->wleaves++;
		for (l = 0; l < dm->nl; l++)
			dm->nleaf[l][dm->anc[l][i]]++;
	}
	dm->dfsleaf = kn_alloc((nleaves + 1) * sizeof(uint32_t));
	dm->dfsrank = kn_alloc((nleaves + 1) * sizeof(uint32_t));
	for (i = 0; i < nleaves; i++)
		dm->dfsleaf[i] = (uint32_t)i;
	kn_sort_ids(dm->dfsleaf, nleaves, cmp_dfs, dm);
	for (i = 0; i < nleaves; i++)
		dm->dfsrank[dm->dfsleaf[i]] = (uint32_t)i;
	dm->ncode = (uint32_t)nleaves;
}

/* The id of the number m / 10^sc (canonical: no trailing fractional
 * zeros) in a dictionary of distinct numbers, added if new. */
uint32_t
mond_numdict_id(struct numdict *v, int64_t m, int sc)
{
	uint64_t h;
	size_t i, k;

	if (2 * (v->n + 1) > v->nslot) {
		size_t ns = v->nslot ? 2 * v->nslot : 1024;

		free(v->slot);
		v->slot = kn_zalloc(ns * sizeof(uint32_t));
		v->nslot = ns;
		for (k = 0; k < v->n; k++) {
			h = ((uint64_t)v->m[k] * 0x9e3779b97f4a7c15ULL ^
			    (uint64_t)v->sc[k]) >> 17;
			while (v->slot[h & (ns - 1)] != 0)
				h++;
			v->slot[h & (ns - 1)] = (uint32_t)k + 1;
		}
	}
	h = ((uint64_t)m * 0x9e3779b97f4a7c15ULL ^ (uint64_t)sc) >> 17;
	for (;; h++) {
		i = v->slot[h & (v->nslot - 1)];
		if (i == 0)
			break;
		if (v->m[i - 1] == m && v->sc[i - 1] == sc)
			return (uint32_t)(i - 1);
	}
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 1024;
		v->m = kn_realloc(v->m, v->cap * sizeof(int64_t));
		v->sc = kn_realloc(v->sc, v->cap);
	}
	v->m[v->n] = m;
	v->sc[v->n] = (int8_t)sc;
	v->slot[h & (v->nslot - 1)] = (uint32_t)++v->n;
	return (uint32_t)(v->n - 1);
}

/* Out of core, what the reading keeps for the blocks of -j (mload_par),
 * counted whatever -j is, so that a budget is refused at the same row
 * for every -j: an eighth. */
static size_t
ooc_reserve(const struct part *pt)
{
	return pt->budget / 8;
}

static void dicts_check(struct part *pt);

void
mond_targ_drop(struct part *pt)
{
	pt->targ_hashed = 1;
	kn_dict_free(&pt->targ_dict);
	kn_dict_init(&pt->targ_dict);
	free(pt->label_rank);
	pt->label_rank = NULL;
}

void
mond_targ_check(struct part *pt, const char *tmpdir, int jobs)
{
	const struct dim *dm = &pt->dims[pt->nkd - 1];

	mond_hash_check(pt, pt->input, pt->incols, dm->col, dm->name, 1,
	    pt->targ_canon, tmpdir, jobs, -1);
}

/* What the sensitive values take out of core with --closeness: their
 * dictionary, and by value its rows and the distribution's copy and
 * position (msens_prepare). */
static size_t
sens_bytes(struct part *pt)
{
	return kn_dict_bytes_ahead(&pt->sens_dict) +
	    pt->sens_dict.n * (2 * sizeof(uint64_t) + sizeof(uint32_t));
}

void
mond_sens_hashed(struct part *pt, const char *tmpdir, int jobs)
{
	size_t c;

	if (!pt->tchash)
		mond_sens_drop(pt);
	pt->sens_keyed = pt->sens_hashed = pt->sens_sorted = 1;
	pt->nshd = pt->nsens;
	for (c = 0; pt->nsens > 1 && c < pt->nsens; c++) {
		kn_dict_free(&pt->sdicts[c]);
		kn_dict_init(&pt->sdicts[c]);
	}
	for (c = 0; c < pt->nshd; c++)
		mond_hash_check(pt, pt->input, pt->incols,
		    pt->dims[pt->nqi + c].col, pt->dims[pt->nqi + c].name, 0,
		    KN_CANON_ALL, tmpdir, jobs, (long)c);
}

void
mond_sens_drop(struct part *pt)
{
	pt->tchash = 1;
	kn_dict_free(&pt->sens_dict);
	kn_dict_init(&pt->sens_dict);
	free(pt->scount);
	pt->scount = NULL;
	pt->nscount = pt->scap = 0;
}

/* What the labels or the target's values take: their dictionary, and
 * by label its rank, counts and place in a list (mond_prepare). */
size_t
mond_targ_bytes(struct part *pt)
{
	return kn_dict_bytes_ahead(&pt->targ_dict) +
	    pt->targ_dict.n * (3 * sizeof(uint64_t) + sizeof(uint32_t));
}

/* Writes the rows in the buffer to the spool, the numbers as keys
 * (numkey.c); what stays in memory is the dictionaries of the other
 * values, which must fit. */
static void
flush_chunk(struct part *pt, size_t nb)
{
	numkey_flush(pt, nb);
	dicts_check(pt);
}

/* Out of core, the dictionaries (with the blocks of -j and two chunks)
 * must fit the budget: checked at each chunk, and as soon as long new
 * values have taken a sixteenth of it since (value_id). */
static void
dicts_check(struct part *pt)
{
	size_t d, c = 2 * (size_t)MOND_CHUNK * pt->dwords * sizeof(uint32_t);
	char ds[32], rs[32], cs[32], why[512] = "";

	pt->dgrown = 0;
	/* So are the sensitive values (sens_hkey). */
	if (pt->sens_hkey && !pt->tchash && sens_bytes(pt) > pt->budget / 8)
		mond_sens_drop(pt);
	/* The labels, each record's hash beside its id (targ_hkey), held
	 * while they take an eighth of -S at most: past that the run
	 * knows them by their hashes alone (targ_hashed), whatever -j. */
	if (pt->targ_hkey && !pt->targ_hashed &&
	    mond_targ_bytes(pt) > pt->budget / 8)
		mond_targ_drop(pt);
	d = mond_dicts_bytes(pt);
	if (d + ooc_reserve(pt) + c <= pt->budget)
		return;
	/* Past the budget, what hashes can stand for is dropped before
	 * the rest is refused. */
	if ((pt->sens_hkey && !pt->tchash) ||
	    (pt->targ_hkey && !pt->targ_hashed)) {
		if (pt->sens_hkey && !pt->tchash)
			mond_sens_drop(pt);
		if (pt->targ_hkey && !pt->targ_hashed)
			mond_targ_drop(pt);
		d = mond_dicts_bytes(pt);
		if (d + ooc_reserve(pt) + c <= pt->budget)
			return;
	}
	/* Each part named, as a refusal with no sensitive column, target
	 * or hierarchy must not blame their dictionaries. */
	mond_size(ds, sizeof(ds), d);
	mond_size(rs, sizeof(rs), ooc_reserve(pt));
	mond_size(cs, sizeof(cs), c);
	/* What holds the values, when the user can choose otherwise
	 * (partition(1), -S): by the options, so that the message is the
	 * same for any -j, whose blocks join the dictionaries in turn. */
	if (pt->has_sens && !pt->sens_keyed && !pt->tchash)
		snprintf(why, sizeof(why), ", the sensitive values among "
		    "them, which --closeness holds in memory under --job, "
		    "and under --distance hierarchical (otherwise none of "
		    "them does)%s",
		    pt->has_targ && !pt->targ_keyed && !pt->targ_hkey ?
		    ", and the labels of -t" : "");
	else if (pt->has_targ && !pt->targ_keyed && !pt->targ_hkey)
		snprintf(why, sizeof(why), ", the labels of -t among them");
	/* No row is named: with -j, the blocks' values join the
	 * dictionaries a block at a time, so the row would depend on it. */
	mond_too_small(pt, "the reading holds more than it: the "
	    "dictionaries of the sensitive values, the targets and the "
	    "hierarchies' labels (%s%s), the blocks of -j (an eighth of -S: "
	    "%s) and two chunks of %d rows (%s)",
	    ds, why, rs, MOND_CHUNK, cs);
}

/* The id of value v in dc, added if new; with num, its number goes to
 * (*val)[id] / 10^(*scl)[id] and *F is the largest scale.  0 if num
 * and v is not a number. */
static int
value_id(struct part *pt, kn_dict *dc, kn_str v, int num, kn_i128 **val,
    int **scl, int *F, uint32_t *id)
{
	size_t n0 = dc->n;
	kn_i128 m;
	int sc;

	*id = kn_dict_intern(dc, v.p, v.n);
	if (dc->n != n0 && pt->ooc && pt->budget > 0 &&
	    (pt->dgrown += v.n) > pt->budget / 16)
		dicts_check(pt);
	if (!num || dc->n == n0)
		return 1;
	if (!kn_dec_parse(v.p, v.n, &m, &sc))
		return 0;
	/* Room for twice the values each time their number reaches a
	 * power of two (dc->n grows by one). */
	if ((dc->n & (dc->n - 1)) == 0) {
		*val = kn_realloc(*val, 2 * dc->n * sizeof(kn_i128));
		*scl = kn_realloc(*scl, 2 * dc->n * sizeof(int));
	}
	(*val)[*id] = m;
	(*scl)[*id] = sc;
	if (sc > *F)
		*F = sc;
	return 1;
}

/* A keyed column's number v (mondrian.h), as a numeric QI's is kept
 * while it is read: 0 if it is none, or does not fit 64 bits with at
 * most 18 decimals. */
static int
keyed_num(kn_str v, int64_t *m, int8_t *sc)
{
	kn_i128 x;
	int s;

	if (!kn_dec_parse(v.p, v.n, &x, &s) || s > 18 || x > INT64_MAX ||
	    x < INT64_MIN)
		return 0;
	*m = (int64_t)x;
	*sc = (int8_t)s;
	return 1;
}

/* The hash that keys a sensitive value (sens_hashed).  The tests build
 * a partition whose hashes keep MOND_HASH_BITS bits only, to see two
 * values share one (tests/partition-h8). */
#ifndef MOND_HASH_BITS
#define MOND_HASH_BITS 64
#endif
static uint64_t
sens_hash(kn_str v)
{
	return kn_hash(v.p, v.n) >> (64 - MOND_HASH_BITS);
}

uint64_t
mond_sens_key(kn_str v)
{
	return numkey_of((int64_t)sens_hash(v));
}

/* The key of keyed column j's value v (dims[nqi..nkd)): its number
 * (keyed_num), or a sensitive column's hash of its bytes when they
 * are keyed by hash (sens_hashed), any value taken. */
static int
keyed_value(const struct part *pt, size_t j, kn_str v, int64_t *m,
    int8_t *sc)
{
	if ((j >= pt->nqi && j < pt->nqi + pt->nshd) ||
	    (pt->sens_hkey && j >= pt->nqi && j < pt->nqi + pt->nskd) ||
	    (pt->targ_hkey && j == pt->nkd - 1)) {
		*m = (int64_t)sens_hash(v);
		*sc = 0;
		return 1;
	}
	return keyed_num(v, m, sc);
}

/* Dies of value v of column col of t's current row, refused as the
 * sensitive column's (sens) number for --variance or the target's for
 * --split regression: a missing value, not a number, or out of core
 * (keyed) one that keyed_num cannot take. */
static void __attribute__((noreturn))
num_fail(kn_table *t, size_t col, int sens)
{
	kn_str v = t->f[col];
	kn_i128 x;
	int s;
	const char *opt = sens ? "--variance" : "--split regression";

	if (kn_missing(v.p, v.n))
		kn_table_fail(t, col, "'%.*s' is a missing value, which %s: "
		    "drop the row or give it a value (%s)", (int)v.n, v.p,
		    sens ? "has no variance" : "a regression cannot fit", opt);
	if (!kn_dec_parse(v.p, v.n, &x, &s))
		kn_table_fail(t, col, "'%.*s' %s (%s)", (int)v.n, v.p,
		    kn_dec_why(v.p, v.n, "is not a number"), opt);
	kn_table_fail(t, col, "'%.*s' does not fit 64 bits with at most "
	    "18 decimals, as %s takes a number out of core (-S): run in "
	    "memory (-a memory), or round it", (int)v.n, v.p, opt);
}

/* Adds c rows to the count of sensitive value id (--closeness). */
static void
sens_count(struct part *pt, uint32_t id, uint64_t c)
{
	if (pt->tchash)
		return;		/* dropped (mond_sens_drop) */
	while (pt->nscount <= id) {
		pt->scount = kn_grow(pt->scount, &pt->scap, pt->nscount,
		    sizeof(uint64_t), 64);
		pt->scount[pt->nscount++] = 0;
	}
	pt->scount[id] += c;
}

/* The id of a sensitive value; of a target. */
int
mond_sens_id(struct part *pt, kn_str v, uint32_t *id)
{
	/* Past an eighth of -S, the values by their hashes alone. */
	if (pt->tchash) {
		*id = 0;
		return 1;
	}
	if (!value_id(pt, &pt->sens_dict, v, pt->req.hasv, &pt->sens_val,
	    &pt->sens_scale, &pt->sens_F, id))
		return 0;
	if (pt->req.hast)
		sens_count(pt, *id, 1);
	return 1;
}

int
mond_targ_id(struct part *pt, kn_str v, uint32_t *id)
{
	/* Past an eighth of -S, the labels by their hashes alone. */
	if (pt->targ_hashed) {
		*id = 0;
		return 1;
	}
	return value_id(pt, &pt->targ_dict, v, pt->split == SPLIT_REGRESSION,
	    &pt->targ_val, &pt->targ_scale, &pt->targ_F, id);
}

/* Several sensitive columns: the row's values f[...] joined by tabs in
 * *buf, the row's sensitive value (msens.c). */
static kn_str
sens_join(struct part *pt, const kn_str *f, char **buf, size_t *cap)
{
	kn_str v;
	size_t j, n = 0;

	for (j = 0; j < pt->nsens; j++)
		n += f[pt->scols[j]].n + 1;
	*buf = kn_grow(*buf, cap, n, 1, 64);
	for (n = 0, j = 0; j < pt->nsens; j++) {
		if (j > 0)
			(*buf)[n++] = '\t';
		memcpy(*buf + n, f[pt->scols[j]].p, f[pt->scols[j]].n);
		n += f[pt->scols[j]].n;
	}
	v.p = *buf;
	v.n = n;
	return v;
}

/* Codes the current row of t as row number row, into record b of
 * pt->rec and entry b of the numbers read (dm->raw, dm->rsc); dies at
 * its first bad value. */
static void
load_row(struct part *pt, kn_table *t, size_t b, uint64_t row, size_t scol,
    size_t tcol)
{
	uint32_t *r;
	const char *err;
	size_t j;

	if (row >= UINT32_MAX - 1)
		kn_die("%s: more than %u rows are not supported",
		    t->r.name, UINT32_MAX - 2);
	r = pt->rec + b * pt->rec_words;
	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j];
		kn_str v = t->f[dm->col];

		if (dm->h != NULL) {
			int64_t id = kn_hier_leaf(dm->h, v.p, v.n, &err);

			if (id < 0)
				kn_table_fail(t, dm->col, "'%.*s': %s",
				    (int)v.n, v.p, err);
			r[j] = (uint32_t)id;
		} else {
			int64_t m;
			int sc;
			char why[192];

			if (kn_missing(v.p, v.n)) {
				/* Apart from every number (rank 0). */
				dm->raw[b] = 0;
				dm->rsc[b] = -1;
				dm->miss = 1;
				r[j] = 0;
				continue;
			}
			if ((err = mond_parse_value(dm, v.p, v.n, &m, &sc, why,
			    sizeof(why))) != NULL)
				kn_table_fail(t, dm->col, "'%.*s' %s",
				    (int)v.n, v.p, err);
			dm->raw[b] = m;
			dm->rsc[b] = (int8_t)sc;
			r[j] = 0;
		}
	}
	r[pt->word_row] = (uint32_t)row;
	if (pt->msvar)
		msens_check_row(pt, t);
	/* The sensitive values, then the target, keyed (dims[nqi..nkd))
	 * or in their dictionaries. */
	for (j = pt->nqi; j < pt->nqi + pt->nskd; j++)
		if (!keyed_value(pt, j, t->f[pt->dims[j].col],
		    &pt->dims[j].raw[b], &pt->dims[j].rsc[b]))
			num_fail(t, pt->dims[j].col, 1);
	if (!pt->sens_keyed && pt->has_sens && !mond_sens_id(pt,
	    pt->nsens > 1 ? sens_join(pt, t->f, &pt->sjoin, &pt->sjcap) :
	    t->f[scol], &r[pt->word_sens]))
		num_fail(t, scol, 1);
	if (pt->targ_keyed ? !keyed_num(t->f[tcol],
	    &pt->dims[pt->nkd - 1].raw[b], &pt->dims[pt->nkd - 1].rsc[b]) :
	    pt->has_targ && !mond_targ_id(pt, t->f[tcol], &r[pt->word_targ]))
		num_fail(t, tcol, 0);
	if (pt->targ_hkey)
		keyed_value(pt, pt->nkd - 1, t->f[tcol],
		    &pt->dims[pt->nkd - 1].raw[b],
		    &pt->dims[pt->nkd - 1].rsc[b]);
}

/* The bytes a row takes in pt->rec and the numbers read. */
static size_t
load_row_bytes(const struct part *pt)
{
	size_t j, w = pt->rec_words * sizeof(uint32_t);

	for (j = 0; j < pt->nkd; j++)
		if (pt->dims[j].h == NULL)
			w += sizeof(int64_t) + 1;
	return w;
}

/* Block p (used bytes in use) made one of n: on huge pages from its
 * first byte, copied, when pt->rec_huge (and the system gives that
 * much), else kn_rebuf. */
static void *
load_move(const struct part *pt, void *p, size_t used, size_t n)
{
	void *q;

	if (pt->rec_huge && (q = kn_move_huge(p, used, n)) != NULL)
		return q;
	return kn_rebuf(p, used, n);
}

/* Makes room for cap rows in pt->rec and the numbers read, the first
 * n rows kept: with ahead (load_cap), and from then on, on huge pages
 * from their first byte, copied (kn_move_huge: such a block is not
 * given to realloc); else kn_rebuf (realloc, on huge pages when
 * large). */
static void
load_room(struct part *pt, size_t n, size_t cap, int ahead)
{
	size_t j, w = pt->rec_words * sizeof(uint32_t);

	if (ahead)
		pt->rec_huge = 1;
	pt->rec = load_move(pt, pt->rec, n * w, cap * w);
	for (j = 0; j < pt->nkd; j++) {
		if (pt->dims[j].h != NULL)
			continue;
		pt->dims[j].raw = load_move(pt, pt->dims[j].raw,
		    n * sizeof(int64_t), cap * sizeof(int64_t));
		pt->dims[j].rsc = load_move(pt, pt->dims[j].rsc, n, cap);
	}
}

/*
 * The rows to make room for in memory when more rows of t come: twice
 * cap, or, from a file of known size, as many rows as its bytes hold at
 * the rate read so far, an eighth more, when those may be taken ahead
 * (kn_huge_ahead), and then *ahead is set.  The records then grow once
 * where doubling moved them each time (on 10M rows, 30,000 page faults,
 * a third of the loading), by a copy of the first rows only.  Where
 * the first rows are longer than the rest, doubling takes over, each
 * time a copy (kn_move_huge), as realloc would copy those blocks.
 */
static size_t
load_cap(const struct part *pt, const kn_table *t, size_t cap, int *ahead)
{
	uint64_t size = t->npaths == 1 ? kn_table_size(t) : 0;
	uint64_t read = t->r.bytes;
	size_t w = load_row_bytes(pt);
	double est;

	/* One file: its reader's bytes and the table's rows. */
	if (size > 0 && read > 0 && t->rows > 0 && read < size) {
		est = (double)size / (double)read * (double)t->rows * 1.125;
		if (est > 2.0 * (double)cap && est < (double)SIZE_MAX /
		    (double)w && kn_huge_ahead((size_t)est * w)) {
			*ahead = 1;
			return (size_t)est;
		}
	}
	*ahead = 0;
	return 2 * cap;
}

/* Out of core: codes the current row of t as the next, into the chunk
 * of rows in pt->rec, which goes to the spool each time it fills. */
static void
chunk_row(struct part *pt, kn_table *t, size_t scol, size_t tcol)
{
	size_t b = pt->nrows - pt->spooled;

	if (b == MOND_CHUNK) {
		flush_chunk(pt, b);
		b = 0;
	}
	load_row(pt, t, b, pt->nrows, scol, tcol);
	pt->nrows++;
}

/* ---- the rows on the threads of -j ------------------------------- */

/* The dictionaries a block's rows are coded with before the run's: one
 * per hierarchy's QI (at its index), then the sensitive values and the
 * targets. */
#define LD_SENS(pt) ((pt)->nqi)
#define LD_TARG(pt) ((pt)->nqi + 1)

/* A block of lines and what a thread made of them: its rows' records
 * and numbers (in memory written in place, pt->rec and dm->raw at rows
 * row0 on; out of core in the block's own, for the chunks of the
 * spool), the values of dictionaries as ids of the block's own, first
 * seen first. */
struct mljob {
	kn_block b;
	uint64_t row0;		/* the number of its first row */
	uint32_t *rec;		/* the records of its rows */
	int64_t **raw;		/* per numeric QI, their numbers */
	int8_t **rsc;
	size_t cap;		/* out of core: the rows its own hold */
	uint64_t done;		/* the rows coded */
	int stop;		/* the thread stopped at a row: the main
				 * thread does it and the rest */
	size_t stop_in;		/* its offset in b */
	size_t good;		/* the lines taken end here (kn_block_row
				 * ended each by a NUL) */
	kn_dict *ld;		/* the block's values (LD_*) */
	uint64_t *lcount;	/* --closeness: rows of each sensitive value */
	size_t nlcount, lccap;
	int *lform;		/* per QI with --date: its dates' form */
	int *lmiss;		/* per numeric QI: a value is missing */
	int ready;
};

/* The blocks between the main thread and the others. */
struct mlpar {
	struct part *pt;
	const kn_table *t;
	size_t scol, tcol;
	int coded;		/* some word of a record is a dictionary's */
	pthread_mutex_t mu;
	pthread_cond_t more, done;
	struct mljob **q;	/* a ring of the blocks to do */
	size_t nb, qh, nq;
	int end;
};

struct mlworker {
	struct mlpar *mp;
	kn_str *f;
	char *sjoin;
	size_t sjcap;
};

/* Out of core: the bytes of a block of lines which, with its rows'
 * records, nb blocks at a time, keeps within ooc_reserve less other
 * bytes (a row of ncols fields has ncols bytes at least, so a block of
 * w bytes has w / ncols rows at most), or 0 when blocks worth the
 * threads do not. */
static size_t
ooc_block(const struct part *pt, const kn_table *t, size_t nb, size_t other)
{
	size_t rowb = pt->rec_words * sizeof(uint32_t), j, want;
	size_t minrow = t->ncols > 0 ? t->ncols : 1;

	for (j = 0; j < pt->nkd; j++)
		if (pt->dims[j].h == NULL)
			rowb += sizeof(int64_t) + 1;
	if (other >= ooc_reserve(pt))
		return 0;
	/* A CSV block's bytes as read are kept beside it (b->keep). */
	if (t->csv)
		minrow *= 2;
	want = (ooc_reserve(pt) - other) / nb / (minrow + rowb) * minrow;
	if (t->csv)
		want /= 2;
	if (want < 4096)
		return 0;
	return want < MLOAD_BLOCK ? want : MLOAD_BLOCK;
}

/* In memory: the block's rows are coded in place, from row0 on. */
static void
job_in_place(struct part *pt, struct mljob *jb)
{
	size_t j;

	jb->rec = pt->rec + jb->row0 * pt->rec_words;
	for (j = 0; j < pt->nkd; j++)
		if (pt->dims[j].h == NULL) {
			jb->raw[j] = pt->dims[j].raw + jb->row0;
			jb->rsc[j] = pt->dims[j].rsc + jb->row0;
		}
}

/* Out of core: room for n rows in the block's own records and
 * numbers. */
static void
job_room(struct part *pt, struct mljob *jb, size_t n)
{
	size_t j;

	if (n <= jb->cap)
		return;
	jb->cap = n;
	jb->rec = kn_realloc(jb->rec, n * pt->rec_words * sizeof(uint32_t));
	for (j = 0; j < pt->nkd; j++)
		if (pt->dims[j].h == NULL) {
			jb->raw[j] = kn_realloc(jb->raw[j], n * sizeof(int64_t));
			jb->rsc[j] = kn_realloc(jb->rsc[j], n);
		}
}

/* Out of core: appends rows [i, n) of jb, coded, to the chunk of rows
 * in pt->rec, which goes to the spool each time it fills. */
static void
chunk_append(struct part *pt, const struct mljob *jb, uint64_t i, uint64_t n)
{
	size_t rw = pt->rec_words, b, m, j;

	while (i < n) {
		b = pt->nrows - pt->spooled;
		if (b == MOND_CHUNK) {
			flush_chunk(pt, b);
			b = 0;
		}
		m = MOND_CHUNK - b;
		if (m > n - i)
			m = (size_t)(n - i);
		memcpy(pt->rec + b * rw, jb->rec + i * rw,
		    m * rw * sizeof(uint32_t));
		for (j = 0; j < pt->nkd; j++) {
			struct dim *dm = &pt->dims[j];

			if (dm->h != NULL)
				continue;
			memcpy(dm->raw + b, jb->raw[j] + i, m * sizeof(int64_t));
			memcpy(dm->rsc + b, jb->rsc[j] + i, m);
		}
		pt->nrows += m;
		i += m;
	}
}

/* Codes row f, number row, on a thread: 0 if it has a value the thread
 * cannot take (the main thread reports it). */
static int
code_row(struct mlworker *w, struct mljob *jb, const kn_str *f,
    uint64_t row)
{
	struct part *pt = w->mp->pt;
	size_t i = (size_t)(row - jb->row0), j;
	uint32_t *r = jb->rec + i * pt->rec_words;

	if (row >= UINT32_MAX - 1)
		return 0;
	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j];
		kn_str v = f[dm->col];
		int64_t m;
		int sc;
		char why[192];

		if (dm->h != NULL) {
			r[j] = kn_dict_intern_padded(&jb->ld[j], v.p, v.n, 1);
			continue;
		}
		r[j] = 0;
		if (kn_missing(v.p, v.n)) {
			jb->raw[j][i] = 0;
			jb->rsc[j][i] = -1;
			jb->lmiss[j] = 1;
			continue;
		}
		if (dm->isdate) {
			if (kn_date_value(&jb->lform[j], v.p, v.n, &m, why,
			    sizeof(why)) != NULL)
				return 0;
			sc = 0;
		} else if (!mond_parse_num(v.p, v.n, &m, &sc))
			return 0;
		jb->raw[j][i] = m;
		jb->rsc[j][i] = (int8_t)sc;
	}
	r[pt->word_row] = (uint32_t)row;
	for (j = pt->nqi; j < pt->nkd; j++)
		if (!keyed_value(pt, j, f[pt->dims[j].col], &jb->raw[j][i],
		    &jb->rsc[j][i]))
			return 0;
	for (j = 0; pt->msvar && j < pt->nsens; j++) {
		kn_i128 m;
		int sc;

		if (!kn_dec_parse(f[pt->scols[j]].p, f[pt->scols[j]].n, &m,
		    &sc))
			return 0;
	}
	if (pt->has_sens && !pt->sens_keyed) {
		kn_str v = pt->nsens > 1 ? sens_join(pt, f, &w->sjoin,
		    &w->sjcap) : f[w->mp->scol];
		uint32_t id = kn_dict_intern_padded(&jb->ld[LD_SENS(pt)], v.p,
		    v.n, pt->nsens == 1);

		r[pt->word_sens] = id;
		if (pt->req.hast) {
			while (jb->nlcount <= id) {
				jb->lcount = kn_grow(jb->lcount, &jb->lccap,
				    jb->nlcount, sizeof(uint64_t), 64);
				jb->lcount[jb->nlcount++] = 0;
			}
			jb->lcount[id]++;
		}
	}
	if (pt->has_targ && !pt->targ_keyed)
		r[pt->word_targ] = kn_dict_intern_padded(&jb->ld[LD_TARG(pt)],
		    f[w->mp->tcol].p, f[w->mp->tcol].n, 1);
	return 1;
}

/* Codes the rows of jb until its end or a row the main thread must do;
 * the block, its dictionaries and its rows are the thread's alone while
 * it works. */
static void
code_block(struct mlworker *w, struct mljob *jb)
{
	struct part *pt = w->mp->pt;
	kn_block *b = &jb->b;
	size_t in, j;

	for (j = 0; j < pt->nqi + 2; j++) {
		kn_dict_free(&jb->ld[j]);
		kn_dict_init(&jb->ld[j]);
		if (j < pt->nqi) {
			jb->lform[j] = KN_DATE_NONE;
			jb->lmiss[j] = 0;
		}
	}
	jb->nlcount = 0;
	jb->stop = 0;
	for (;;) {
		in = b->pos;
		if (!kn_block_row(w->mp->t, b, w->f)) {
			jb->good = in;
			if (b->bad) {
				jb->stop = 1;
				jb->stop_in = in;
			}
			break;
		}
		if (!code_row(w, jb, w->f, jb->row0 + b->at - 1)) {
			jb->good = b->pos;
			jb->stop = 1;
			jb->stop_in = in;
			break;
		}
	}
	jb->done = b->at - jb->stop;
}

static void *
mload_work(void *arg)
{
	struct mlworker *w = arg;
	struct mlpar *mp = w->mp;
	struct mljob *jb;

	kn_thread_nosignals();
	for (;;) {
		pthread_mutex_lock(&mp->mu);
		/* The spool's chunks first, which the main thread writes in
		 * order (numkey.c's ring). */
		for (;;) {
			if (numkey_ring_work(mp->pt))
				continue;
			if (mp->nq > 0 || mp->end)
				break;
			pthread_cond_wait(&mp->more, &mp->mu);
		}
		if (mp->nq == 0) {
			pthread_mutex_unlock(&mp->mu);
			return NULL;
		}
		jb = mp->q[mp->qh];
		mp->qh = (mp->qh + 1) % mp->nb;
		mp->nq--;
		pthread_mutex_unlock(&mp->mu);
		code_block(w, jb);
		pthread_mutex_lock(&mp->mu);
		jb->ready = 1;
		pthread_cond_broadcast(&mp->done);
		pthread_mutex_unlock(&mp->mu);
	}
}

/* Whether v is in dc already or a number. */
static int
is_number(const kn_dict *dc, kn_str v)
{
	kn_i128 m;
	int sc;

	return kn_dict_find(dc, v.p, v.n) >= 0 ||
	    kn_dec_parse(v.p, v.n, &m, &sc);
}

/* The run's ids of the block's values of dictionary x, in map (in the
 * order the block saw them first, so that the run's are numbered as one
 * thread numbers them); 0 if one is refused. */
static int
merge_dict(struct part *pt, struct mljob *jb, size_t x, uint32_t *map,
    uint32_t from, uint32_t to)
{
	kn_dict *ld = &jb->ld[x];
	const char *err;
	uint32_t i;

	for (i = from; i < to; i++) {
		kn_str v = kn_dict_get(ld, i);
		int64_t id;

		if (x < pt->nqi) {
			if ((id = kn_hier_leaf(pt->dims[x].h, v.p, v.n,
			    &err)) < 0)
				return 0;
			map[i] = (uint32_t)id;
		} else if (x == LD_SENS(pt)) {
			/* Refused before it is added, as one thread, which
			 * stops there, would not find it again. */
			if (pt->req.hasv && !is_number(&pt->sens_dict, v))
				return 0;
			/* Dropped (mond_sens_drop): not held. */
			if (pt->tchash)
				map[i] = 0;
			else if (!value_id(pt, &pt->sens_dict, v,
			    pt->req.hasv, &pt->sens_val, &pt->sens_scale,
			    &pt->sens_F, &map[i]))
				return 0;
		} else if ((pt->split == SPLIT_REGRESSION &&
		    !is_number(&pt->targ_dict, v)) ||
		    !mond_targ_id(pt, v, &map[i]))
			return 0;
	}
	return 1;
}

/* Record r's ids of a block's own dictionaries made the run's, through
 * map (merge_dict). */
static void
map_codes(const struct part *pt, uint32_t *r, uint32_t *const *map)
{
	size_t j;

	for (j = 0; j < pt->nqi; j++)
		if (pt->dims[j].h != NULL)
			r[j] = map[j][r[j]];
	if (pt->has_sens && !pt->sens_keyed)
		r[pt->word_sens] = map[LD_SENS(pt)][r[pt->word_sens]];
	if (pt->has_targ && !pt->targ_keyed)
		r[pt->word_targ] = map[LD_TARG(pt)][r[pt->word_targ]];
}

/*
 * Out of core, the rows of jb up to the first it could not do, put in
 * the chunks as one thread puts them: a chunk's rows at a time, the
 * values first seen in them given the run's ids just before (a block's
 * ids are in the order it saw them first, so the largest of a stretch
 * of rows tells how many), so that each chunk, when it fills, is
 * checked against the budget (flush_chunk) with the dictionaries of
 * its rows and those before only, for every -j.  0 when a value is
 * refused, *skip then the rows put in the chunks.
 */
static int
finish_ooc(struct mlpar *mp, struct mljob *jb, uint32_t **map,
    uint64_t *skip)
{
	struct part *pt = mp->pt;
	size_t rw = pt->rec_words, nx = pt->nqi + 2, x, j;
	uint32_t *merged = kn_zalloc(nx * sizeof(uint32_t));
	uint32_t *upto = kn_zalloc(nx * sizeof(uint32_t));
	uint64_t k0 = 0, k1, k;
	int ok = 1;

	while (k0 < jb->done && ok) {
		size_t b = pt->nrows - pt->spooled;

		if (b == MOND_CHUNK) {
			flush_chunk(pt, b);
			b = 0;
		}
		k1 = k0 + (MOND_CHUNK - b);
		if (k1 > jb->done)
			k1 = jb->done;
		for (k = k0; k < k1 && mp->coded; k++) {
			const uint32_t *r = jb->rec + k * rw;

			for (j = 0; j < pt->nqi; j++)
				if (pt->dims[j].h != NULL && r[j] >= upto[j])
					upto[j] = r[j] + 1;
			if (pt->has_sens && !pt->sens_keyed &&
			    r[pt->word_sens] >= upto[LD_SENS(pt)])
				upto[LD_SENS(pt)] = r[pt->word_sens] + 1;
			if (pt->has_targ && !pt->targ_keyed &&
			    r[pt->word_targ] >= upto[LD_TARG(pt)])
				upto[LD_TARG(pt)] = r[pt->word_targ] + 1;
		}
		for (x = 0; x < nx && ok; x++)
			if (upto[x] > merged[x]) {
				ok = merge_dict(pt, jb, x, map[x], merged[x],
				    upto[x]);
				merged[x] = upto[x];
			}
		if (!ok)
			break;
		for (k = k0; k < k1 && mp->coded; k++) {
			uint32_t *r = jb->rec + k * rw;

			map_codes(pt, r, map);
			if (pt->has_sens && pt->req.hast &&
			    !pt->sens_keyed)
				sens_count(pt, r[pt->word_sens], 1);
		}
		chunk_append(pt, jb, k0, k1);
		k0 = k1;
	}
	*skip = ok ? 0 : k0;
	free(merged);
	free(upto);
	return ok;
}

/*
 * On the main thread, in the order of the blocks: waits for jb, gives
 * its values the run's ids as one thread would, in turn, and puts them
 * in its records; from the first row the thread could not do, or from
 * its first row if a value of the block is refused, the rows are done
 * as one thread does them, which reports the first bad one.
 */
static void
mload_finish(struct mlpar *mp, struct mljob *jb, kn_str *f,
    uint32_t **map, size_t *mapcap)
{
	struct part *pt = mp->pt;
	kn_block *b = &jb->b;
	size_t x, j, i, in;
	uint64_t at, k, skip = 0;
	int redo, ok = 1;
	kn_table tc;

	pthread_mutex_lock(&mp->mu);
	while (!jb->ready)
		pthread_cond_wait(&mp->done, &mp->mu);
	pthread_mutex_unlock(&mp->mu);
	in = jb->stop_in;
	at = jb->done;
	redo = jb->stop;
	for (j = 0; j < pt->nqi && ok; j++) {
		struct dim *dm = &pt->dims[j];

		if (dm->h != NULL || jb->lform[j] == KN_DATE_NONE)
			continue;
		if (dm->dform == KN_DATE_NONE)
			dm->dform = jb->lform[j];
		else if (dm->dform != jb->lform[j])
			ok = 0;
	}
	for (x = 0; x < pt->nqi + 2 && ok; x++) {
		if (jb->ld[x].n == 0)
			continue;
		if (jb->ld[x].n > mapcap[x]) {
			mapcap[x] = jb->ld[x].n;
			map[x] = kn_realloc(map[x], mapcap[x] * sizeof(uint32_t));
		}
		if (!pt->ooc)
			ok = merge_dict(pt, jb, x, map[x], 0, jb->ld[x].n);
	}
	for (j = 0; j < pt->nqi && ok; j++)
		if (pt->dims[j].h == NULL && jb->lmiss[j])
			pt->dims[j].miss = 1;
	if (ok && pt->ooc && !finish_ooc(mp, jb, map, &skip))
		ok = 0;
	if (!ok) {
		/* One thread reports the value refused, or a row before it;
		 * out of core the rows up to skip are in the chunks. */
		redo = 1;
		in = 0;
		at = 0;
	} else if (!pt->ooc) {
		for (k = 0; k < jb->done && mp->coded; k++)
			map_codes(pt, jb->rec + k * pt->rec_words, map);
		for (i = 0; i < jb->nlcount; i++)
			if (jb->lcount[i] > 0)
				sens_count(pt, map[LD_SENS(pt)][i],
				    jb->lcount[i]);
	}
	if (!redo)
		return;
	/* The rows taken from in on are as read again. */
	kn_block_rewind(mp->t, b, in, at, jb->good);
	tc = *mp->t;
	tc.f = f;
	tc.r.name = b->name;
	while (kn_block_row(mp->t, b, f)) {
		if (skip > 0) {
			skip--;
			continue;
		}
		tc.r.lineno = b->lineno;
		if (pt->ooc)
			chunk_row(pt, &tc, mp->scol, mp->tcol);
		else
			load_row(pt, &tc, jb->row0 + b->at - 1, jb->row0 +
			    b->at - 1, mp->scol, mp->tcol);
	}
	if (b->bad)
		kn_block_fail(mp->t, b);
}

/* mload_par's reading: the blocks in hand (jobs[wh..wh+nin), in the
 * order of the rows), the rows' room in the records (cap) and the rows
 * given out so far. */
struct mlread {
	struct mlpar *mp;
	struct part *pt;
	kn_table *t;
	struct mljob *jobs;
	size_t wh, nin, cap;
	uint64_t row;
	uint64_t before;	/* the table's rows before the block being
				 * read */
	kn_str *f;
	uint32_t **map;
	size_t *mapcap;
};

/* The earliest block in hand, finished (mload_finish). */
static void
ml_finish(struct mlread *rd)
{
	mload_finish(rd->mp, &rd->jobs[rd->wh], rd->f, rd->map, rd->mapcap);
	rd->wh = (rd->wh + 1) % rd->mp->nb;
	rd->nin--;
}

/* Block jb, just read, of nr rows, given to the threads. */
static void
ml_give(struct mlread *rd, struct mljob *jb, size_t nr)
{
	struct part *pt = rd->pt;
	struct mlpar *mp = rd->mp;
	int ahead;

	if (pt->ooc)
		job_room(pt, jb, nr);
	else if (rd->row + nr > rd->cap) {
		/* More room: once the blocks in hand are done. */
		while (rd->nin > 0)
			ml_finish(rd);
		rd->cap = load_cap(pt, rd->t, rd->cap, &ahead);
		while (rd->row + nr > rd->cap)
			rd->cap *= 2;
		load_room(pt, rd->row, rd->cap, ahead);
	}
	jb->row0 = rd->row;
	if (!pt->ooc)
		job_in_place(pt, jb);
	rd->row += nr;
	jb->ready = 0;
	rd->nin++;
	pthread_mutex_lock(&mp->mu);
	mp->q[(mp->qh + mp->nq++) % mp->nb] = jb;
	pthread_cond_signal(&mp->more);
	pthread_mutex_unlock(&mp->mu);
}

/* When the reading dies (kn_die_defer), in the middle of the block at
 * jobs[wh + nin]: the blocks in hand finished in order, then the whole
 * lines read into that one, so that a bad row among them comes before
 * the reader's error, as with one thread. */
static void
ml_dying(void *arg)
{
	struct mlread *rd = arg;
	struct mljob *jb = &rd->jobs[(rd->wh + rd->nin) % rd->mp->nb];

	while (rd->nin > 0)
		ml_finish(rd);
	if (jb->b.len == 0)
		return;
	ml_give(rd, jb, (size_t)(rd->t->rows - rd->before));
	ml_finish(rd);
}

/*
 * Reads table t into records on nt threads: the main thread reads
 * blocks of whole rows (block.c's kn_table_block), the threads
 * code their rows in place, and the main thread takes the blocks back
 * in order to number their values.  The records grow as one thread
 * grows them, once the blocks in hand are done.  0 if the threads could
 * not start (nothing of t was read then).
 */
static int
mload_par(struct part *pt, kn_table *t, size_t scol, size_t tcol, int nt)
{
	struct mlpar mp;
	struct mlworker w[64];
	struct mljob *jobs;
	pthread_t th[64];
	uint32_t **map;
	size_t *mapcap, i, x, want, ring;
	kn_str *f;
	int started, k, got;
	struct mlread rd;

	if (nt > 64)
		nt = 64;
	memset(&mp, 0, sizeof(mp));
	mp.pt = pt;
	mp.t = t;
	mp.scol = scol;
	mp.tcol = tcol;
	mp.coded = (pt->has_sens && !pt->sens_keyed) ||
	    (pt->has_targ && !pt->targ_keyed);
	for (x = 0; x < pt->nqi; x++)
		mp.coded |= pt->dims[x].h != NULL;
	pthread_mutex_init(&mp.mu, NULL);
	pthread_cond_init(&mp.more, NULL);
	pthread_cond_init(&mp.done, NULL);
	mp.nb = 2 * (size_t)nt + 1;
	mp.q = kn_zalloc(mp.nb * sizeof(*mp.q));
	for (started = 0; started < nt; started++) {
		memset(&w[started], 0, sizeof(w[started]));
		w[started].mp = &mp;
		w[started].f = kn_alloc((t->ncols + 1) * sizeof(kn_str));
		if (pthread_create(&th[started], NULL, mload_work,
		    &w[started]) != 0) {
			free(w[started].f);
			break;
		}
	}
	jobs = kn_zalloc(mp.nb * sizeof(*jobs));
	for (i = 0; i < mp.nb; i++) {
		jobs[i].b.keep = 1;
		jobs[i].raw = kn_zalloc((pt->nkd + 1) * sizeof(int64_t *));
		jobs[i].rsc = kn_zalloc((pt->nkd + 1) * sizeof(int8_t *));
		jobs[i].ld = kn_zalloc((pt->nqi + 2) * sizeof(kn_dict));
		for (x = 0; x < pt->nqi + 2; x++)
			kn_dict_init(&jobs[i].ld[x]);
		jobs[i].lform = kn_zalloc((pt->nqi + 1) * sizeof(int));
		jobs[i].lmiss = kn_zalloc((pt->nqi + 1) * sizeof(int));
	}
	map = kn_zalloc((pt->nqi + 2) * sizeof(uint32_t *));
	mapcap = kn_zalloc((pt->nqi + 2) * sizeof(size_t));
	f = kn_alloc((t->ncols + 1) * sizeof(kn_str));
	rd = (struct mlread){ &mp, pt, t, jobs, 0, 0, 1 << 16, 0, 0, f, map,
	    mapcap };
	want = t->csv ? MLOAD_BLOCK / 2 : MLOAD_BLOCK;
	if (pt->ooc) {
		want = ooc_block(pt, t, mp.nb, 0);
		rd.cap = MOND_CHUNK;
	}
	if (started > 0) {
		if (pt->ooc)
			numkey_layout(pt);
		load_room(pt, 0, rd.cap, 0);
		/* The spool's chunks packed on the threads too, in a ring
		 * taken from the blocks' share while it leaves them most. */
		ring = numkey_ring_bytes(pt, (size_t)started + 2);
		if (pt->ooc && ring <= ooc_reserve(pt) / 4 &&
		    ooc_block(pt, t, mp.nb, ring) > 0) {
			want = ooc_block(pt, t, mp.nb, ring);
			numkey_ring_new(pt, (size_t)started + 2, &mp.mu,
			    &mp.more, &mp.done);
		}
	}
	if (started > 0)
		for (;;) {
			struct mljob *jb;

			if (rd.nin == mp.nb)
				ml_finish(&rd);
			jb = &jobs[(rd.wh + rd.nin) % mp.nb];
			rd.before = t->rows;
			kn_die_defer(ml_dying, &rd);
			got = kn_table_block(t, &jb->b, want);
			kn_die_defer(NULL, NULL);
			if (got == 0)
				break;
			ml_give(&rd, jb, (size_t)(t->rows - rd.before));
			/* A line lent by the reader: nothing is read until it
			 * is done. */
			while (got == 2 && rd.nin > 0)
				ml_finish(&rd);
		}
	while (rd.nin > 0)
		ml_finish(&rd);
	if (pt->nkr != NULL) {
		flush_chunk(pt, pt->nrows - pt->spooled);
		numkey_ring_end(pt);
	}
	pthread_mutex_lock(&mp.mu);
	mp.end = 1;
	pthread_cond_broadcast(&mp.more);
	pthread_mutex_unlock(&mp.mu);
	for (k = 0; k < started; k++) {
		pthread_join(th[k], NULL);
		free(w[k].f);
		free(w[k].sjoin);
	}
	for (i = 0; i < mp.nb; i++) {
		if (pt->ooc) {
			free(jobs[i].rec);
			for (x = 0; x < pt->nkd; x++) {
				free(jobs[i].raw[x]);
				free(jobs[i].rsc[x]);
			}
		}
		free(jobs[i].raw);
		free(jobs[i].rsc);
		kn_block_free(&jobs[i].b);
		for (x = 0; x < pt->nqi + 2; x++)
			kn_dict_free(&jobs[i].ld[x]);
		free(jobs[i].ld);
		free(jobs[i].lcount);
		free(jobs[i].lform);
		free(jobs[i].lmiss);
	}
	for (x = 0; x < pt->nqi + 2; x++)
		free(map[x]);
	free(map);
	free(mapcap);
	free(jobs);
	free(mp.q);
	free(f);
	pthread_mutex_destroy(&mp.mu);
	pthread_cond_destroy(&mp.more);
	pthread_cond_destroy(&mp.done);
	if (started == 0)
		return 0;
	if (!pt->ooc)
		pt->nrows = rd.row;
	kn_progress(t->rows, t->r.bytes);
	kn_progress_done();
	return 1;
}

/* Reads the table into records: on the threads of pt->jobs (TSV in
 * memory, mload_par), or here. */
void
mond_load(struct part *pt, kn_table *t, size_t scol, size_t tcol)
{
	size_t cap = 1 << 16;

	if (pt->jobs > 1 && kn_table_blocks(t) && (!pt->ooc ||
	    ooc_block(pt, t, 2 * (size_t)pt->jobs + 1, 0) > 0) &&
	    mload_par(pt, t, scol, tcol, pt->jobs)) {
		if (pt->ooc)
			flush_chunk(pt, pt->nrows - pt->spooled);
		return;
	}
	if (pt->ooc) {
		cap = MOND_CHUNK;
		numkey_layout(pt);
	}
	load_room(pt, 0, cap, 0);
	while (kn_table_next(t)) {
		size_t b = pt->nrows - pt->spooled;

		if ((t->rows & 0xffff) == 0)
			kn_progress(t->rows, t->r.bytes);
		if (pt->ooc && b == MOND_CHUNK) {
			flush_chunk(pt, b);
			b = 0;
		}
		if (b == cap) {
			int ahead;

			cap = load_cap(pt, t, cap, &ahead);
			load_room(pt, b, cap, ahead);
		}
		load_row(pt, t, b, pt->nrows, scol, tcol);
		pt->nrows++;
	}
	if (pt->ooc)
		flush_chunk(pt, pt->nrows - pt->spooled);
	kn_progress(t->rows, t->r.bytes);
	kn_progress_done();
}

size_t
mond_sens_dict_bytes(const struct part *pt)
{
	/* The numbers of the values (value_id): room for twice them. */
	return kn_dict_bytes_ahead(&pt->sens_dict) + pt->sens_dict.n *
	    (5 * sizeof(uint64_t) + sizeof(uint32_t) + (pt->req.hasv ?
	    2 * (sizeof(kn_i128) + sizeof(int)) : 0));
}

/* The memory the dictionaries and per-value arrays take: what -S must
 * hold besides the nodes.  A dictionary's cache is counted at the size
 * it has or will have (kn_dict_bytes_ahead): with -j the main thread's
 * dictionaries take other look-ups than one thread's, and the
 * accounting (-v) is the same for every -j. */
size_t
mond_dicts_bytes(struct part *pt)
{
	size_t b = 0, j;
	int l;

	for (j = 0; j < pt->nqi; j++) {
		const struct dim *dm = &pt->dims[j];

		if (dm->h == NULL) {
			b += dm->vd.cap * (sizeof(int64_t) + 1) +
			    dm->vd.nslot * sizeof(uint32_t) +
			    (size_t)dm->nrank * (sizeof(uint32_t) +
			    sizeof(int64_t));
			continue;
		}
		for (l = 0; l < dm->nl; l++)
			b += kn_dict_bytes_ahead(&dm->h->lab[l]) +
			    dm->h->lab[l].n * 2 * sizeof(uint32_t) +
			    dm->ncode * sizeof(uint32_t);
		b += dm->ncode * 2 * sizeof(uint32_t);
	}
	b += mond_sens_dict_bytes(pt) + mond_targ_bytes(pt);
	if (pt->split == SPLIT_REGRESSION)
		b += 2 * pt->targ_dict.n * (sizeof(kn_i128) + sizeof(int));
	return b + pt->xlx_n * sizeof(kn_i128) +
	    kn_ldiv_table_bytes(&pt->req.ld);
}

void
mond_size(char *buf, size_t n, size_t b)
{
	if (b >= ((size_t)1 << 20))
		snprintf(buf, n, "%zu MiB", b >> 20);
	else
		snprintf(buf, n, "%zu KiB", b >> 10);
}

void
mond_too_small(const struct part *pt, const char *fmt, ...)
{
	char size[32], what[512];
	va_list ap;

	kn_fmt_size(size, sizeof(size), pt->budget);
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	kn_die("-S %s: too small: %s (partition(1), -S): give a larger -S",
	    size, what);
}

/* ---- the hashes of the sensitive values (sens_hashed) ------------- */

struct mond_hcheck {
	kn_sorter *so;
	const char *col;
	int any, targ;
	char last[16];
	/* --closeness (tcpath): each value's hash and rows, in order */
	FILE *out;
	const char *oname;
	uint64_t rows;
	/* the ordered distance (tcord): the values by their keys in its
	 * order, as numbers (ord[0], while numeric) and as bytes (ord[1]);
	 * then each position's record to out and the pairs (hash,
	 * position) to map, and their sums */
	kn_sorter *ord[2], *map;
	int numeric;
	char *kb;
	size_t kcap;
	uint64_t pos, cum;
	unsigned __int128 P;
};

void
mond_hcheck_add(struct mond_hcheck *hc, kn_str v, uint64_t cnt)
{
	/* With out, the value's key on the records (keyed_value), whose
	 * order the file has. */
	uint64_t h = hc->out != NULL ? mond_sens_key(v) : sens_hash(v);
	char line[32];
	size_t i, n;

	for (i = 0; hc->ord[0] != NULL && i < 2; i++) {
		if (i == 0 && (!hc->numeric || !(hc->numeric =
		    tcd_numeric(v.p, v.n))))
			continue;
		n = tcd_order_key(v.p, v.n, i == 0, &hc->kb, &hc->kcap);
		hc->kb = kn_grow(hc->kb, &hc->kcap, n + 33, 1, 256);
		hc->kb[n] = '\t';
		mond_hex_put(hc->kb + n + 1, h, 16);
		mond_hex_put(hc->kb + n + 17, cnt, 16);
		kn_sort_add(hc->ord[i], hc->kb, n + 33);
	}
	mond_hex_put(line, h, 16);
	mond_hex_put(line + 16, cnt, 16);
	kn_sort_add(hc->so, line, hc->out != NULL ? 32 : 16);
}

/* A distinct sensitive value of the input, with its rows. */
static void
hcheck_value(const kn_fsrow *row, void *ctx)
{
	mond_hcheck_add(ctx, row->key[0], row->cnt);
}

void
mond_hash_dup(const char *col, uint64_t h, int targ)
{
	kn_die("two %s column '%s' share the 64-bit hash %016llx, which "
	    "stands for a value out of core (-S): run in memory (-a "
	    "memory)%s", targ ? "labels of the target" : "values of the "
	    "sensitive", col, (unsigned long long)h, targ ?
	    ", or with a budget that holds the labels" : "");
}

/* The hashes in order: two alike are two values with one key. */
static void
hcheck_hash(const char *line, size_t len, void *ctx)
{
	struct mond_hcheck *hc = ctx;

	if (len >= sizeof(hc->last) && hc->any &&
	    memcmp(line, hc->last, sizeof(hc->last)) == 0)
		mond_hash_dup(hc->col, mond_hex_get(line, 16) ^
		    (hc->out != NULL ? (uint64_t)1 << 63 : 0), hc->targ);
	memcpy(hc->last, line, sizeof(hc->last));
	hc->any = 1;
	if (hc->out != NULL && len == 32 && hc->ord[0] == NULL) {
		uint64_t r[2] = { mond_hex_get(line, 16),
			mond_hex_get(line + 16, 16) };

		if (fwrite(r, sizeof(r), 1, hc->out) != 1)
			kn_die_sys("writing temp file %s", hc->oname);
		hc->rows += r[1];
	}
}

/* The values in the ordered distance's order: each one's position,
 * its record (struct rcpos: rows, cum and P) to out, and the pair
 * (hash, position) to the sort by hash. */
static void
hcheck_order(const char *line, size_t len, void *ctx)
{
	struct mond_hcheck *hc = ctx;
	uint64_t h = mond_hex_get(line + len - 32, 16);
	uint64_t C = mond_hex_get(line + len - 16, 16);
	struct rcpos r;
	char out[32];

	if (__builtin_add_overflow(hc->cum, C, &hc->cum))
		kn_rows_overflow();
	r = rcpos_of(C, hc->cum, hc->P);
	hc->P += hc->cum;
	if (fwrite(&r, sizeof(r), 1, hc->out) != 1)
		kn_die_sys("writing temp file %s", hc->oname);
	mond_hex_put(out, h, 16);
	mond_hex_put(out + 16, hc->pos++, 16);
	kn_sort_add(hc->map, out, sizeof(out));
}

/* The pairs (hash, position) in hash order, to out. */
static void
hcheck_pair(const char *line, size_t len, void *ctx)
{
	struct mond_hcheck *hc = ctx;
	uint64_t r[2] = { mond_hex_get(line, 16), mond_hex_get(line + 16, 16) };

	(void)len;
	if (fwrite(r, sizeof(r), 1, hc->out) != 1)
		kn_die_sys("writing temp file %s", hc->oname);
}

void
mond_sort_done(struct part *pt, kn_sorter *so)
{
	pt->acct.bread += kn_sort_stats(so)->bytes_read;
	pt->acct.bwritten += kn_sort_stats(so)->bytes_written;
	kn_sort_free(so);
}

/* Under the ordered distance, the positions of column tcol's values:
 * its records to tcpath[tcol], the pairs to tcmap[tcol]. */
static void
hcheck_positions(struct part *pt, struct mond_hcheck *hc, long tcol,
    const char *tmpdir)
{
	int i = hc->numeric ? 0 : 1;

	kn_sort_free(hc->ord[1 - i]);
	hc->map = kn_sort_new(NULL, 0, 1, pt->budget / 8, tmpdir);
	kn_sort_finish(hc->ord[i], 0, hcheck_order, hc);
	mond_sort_done(pt, hc->ord[i]);
	hc->ord[0] = hc->ord[1] = NULL;
	if (fflush(hc->out) != 0 || ferror(hc->out))
		kn_die_sys("writing temp file %s", hc->oname);
	fclose(hc->out);
	pt->tcm[tcol] = hc->pos;
	pt->tcP[tcol] = hc->P;
	hc->rows = hc->cum;
	pt->tcmap[tcol] = kn_tmp_new(tmpdir);
	hc->oname = pt->tcmap[tcol];
	if ((hc->out = kn_tmp_open(hc->oname, "wb")) == NULL)
		kn_die_sys("%s", hc->oname);
	kn_sort_finish(hc->map, 0, hcheck_pair, hc);
	mond_sort_done(pt, hc->map);
	hc->map = NULL;
}

struct mond_hcheck *
mond_hcheck_new(struct part *pt, const char *name, int targ, long tcol,
    const char *tmpdir)
{
	struct mond_hcheck *hc = kn_zalloc(sizeof(*hc));

	hc->col = name;
	hc->targ = targ;
	if (tcol >= 0) {
		pt->tcpath[tcol] = kn_tmp_new(tmpdir);
		hc->oname = pt->tcpath[tcol];
		if ((hc->out = kn_tmp_open(hc->oname, "wb")) == NULL)
			kn_die_sys("%s", hc->oname);
	}
	hc->so = kn_sort_new(NULL, 0, 1, pt->budget / (tcol >= 0 &&
	    pt->tcord ? 8 : 4), tmpdir);
	if (tcol >= 0 && pt->tcord) {
		hc->numeric = 1;
		hc->ord[0] = kn_sort_new(NULL, 0, 1, pt->budget / 16, tmpdir);
		hc->ord[1] = kn_sort_new(NULL, 0, 1, pt->budget / 16, tmpdir);
	}
	return hc;
}

uint64_t
mond_hcheck_end(struct part *pt, struct mond_hcheck *hc, long tcol,
    const char *tmpdir)
{
	uint64_t rows;

	kn_sort_finish(hc->so, 0, hcheck_hash, hc);
	if (hc->ord[0] != NULL)
		hcheck_positions(pt, hc, tcol, tmpdir);
	free(hc->kb);
	if (hc->out != NULL) {
		if (fflush(hc->out) != 0 || ferror(hc->out))
			kn_die_sys("writing temp file %s", hc->oname);
		fclose(hc->out);
	}
	mond_sort_done(pt, hc->so);
	rows = hc->rows;
	free(hc);
	return rows;
}

void
mond_hash_check(struct part *pt, kn_input *in, const char *columns,
    size_t scol, const char *name, int targ, int canon, const char *tmpdir,
    int jobs, long tcol)
{
	kn_table t;
	kn_countspec cs;
	kn_dict dict;
	struct mond_hcheck *hc;
	uint64_t rows;

	kn_input_open(in, &t, columns);
	kn_table_carry(&t, &scol, 1, 1);
	/* As the rows were read: a sensitive value by its identity, a
	 * label by its bytes, or by its identity when -t is also -s. */
	if (canon >= 0)
		kn_table_canon(&t, &scol, &canon, 1);
	kn_dict_init(&dict);
	memset(&cs, 0, sizeof(cs));
	cs.d = 1;
	cs.key = &scol;
	cs.dict = &dict;
	cs.jobs = jobs;
	hc = mond_hcheck_new(pt, name, targ, tcol, tmpdir);
	kn_freq(&t, &cs, NULL, pt->budget / 2, tmpdir, hcheck_value,
	    hc, NULL);
	rows = mond_hcheck_end(pt, hc, tcol, tmpdir);
	/* The rows counted again are the rows read. */
	if (tcol >= 0 && rows != pt->tcn)
		kn_die("-s %s: %llu rows on the second reading of the "
		    "input, %llu on the first: the input changed while it "
		    "was read", name, (unsigned long long)rows,
		    (unsigned long long)pt->tcn);
	kn_dict_free(&dict);
	kn_table_free(&t);
}
