/*
 * merge.c: fuzz target of the frequency-set merge, what freqset --merge
 * does: kn_freq over a frequency set (its count column and X_sum,
 * X_sumsq pairs), in memory and spilled to sorted runs within a small
 * budget (merged by extsort), and kn_freq_sorted (--merge --sorted).
 * The ways that succeed must write the same bytes; the groups come in
 * strictly increasing byte order and their counts add up to the input's.
 *
 * With F_HIER the first key column has a generated hierarchy (-H) and
 * is counted at one of its levels (-L): the set is rolled up.  With
 * F_PLAIN the input is a table counted as freqset counts one (every row
 * 1, the packed counting hash).  Without sums, the output must also be
 * what a plain model makes: the keys sorted as bytes, counts added.
 *
 * Input: a flags byte, a byte for the budget, the -q columns and the
 * hierarchy, then the table (with F_HEADERLESS, a first line of
 * comma-separated names).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../kanon.h"
#include "harness.h"

enum {
	F_SORTED = 1,		/* also kn_freq_sorted */
	F_SPILL = 2,		/* also within a small budget */
	F_HEADERLESS = 4,	/* --columns from the first line */
	F_SUBSET = 8,		/* -q a subset of the key columns */
	F_HIER = 16,		/* -H and -L on the first key column */
	F_PLAIN = 32		/* a table, counted as freqset without --merge */
};

struct out {
	char *buf;
	size_t len, cap;
	size_t nsum;
	uint64_t groups;
	unsigned __int128 total;	/* of the counts */
	char *last;			/* the last key line, for the order */
	size_t lastlen;
	const size_t *key;
	size_t d;
};

struct job {
	int flags, how;		/* how: 0 memory, 1 spill, 2 sorted */
	int sub;
	char *path;
	char *columns;
	size_t budget;
	struct out o;
	unsigned __int128 intotal;
};

static void
put(struct out *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		o->cap = 2 * (o->len + n + 1);
		o->buf = realloc(o->buf, o->cap);
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

/* Writes a group as freqset does, and checks the order of the keys. */
static void
out_row(const kn_fsrow *r, void *ctx)
{
	struct out *o = ctx;
	size_t c, j, start = o->len, kl, n;
	char b[64];
	int cmp;

	put(o, "", 0);		/* buf is allocated */
	for (c = 0; c < o->d; c++) {
		put(o, r->key[c].p, r->key[c].n);
		put(o, "\t", 1);
	}
	kl = o->len - start;
	/* The key with its tab compares as the line does. */
	if (o->groups > 0) {
		n = kl < o->lastlen ? kl : o->lastlen;
		cmp = memcmp(o->last, o->buf + start, n);
		if (cmp == 0)
			cmp = o->lastlen < kl ? -1 : o->lastlen > kl;
		FZ_ASSERT(cmp < 0 || o->d == 0,
		    "groups in strictly increasing order");
	}
	FZ_ASSERT(o->d > 0 || o->groups == 0, "one group without keys");
	free(o->last);
	o->last = malloc(kl + 1);
	memcpy(o->last, o->buf + start, kl);
	o->lastlen = kl;
	put(o, b, kn_fmt_u64(b, r->cnt));
	o->total += r->cnt;
	for (j = 0; j < o->nsum; j++) {
		put(o, "\t", 1);
		put(o, b, kn_dec_format(r->s[j], r->sc[j], b));
		put(o, "\t", 1);
		put(o, b, kn_dec_format(r->ss[j], r->ssc[j], b));
	}
	put(o, "\n", 1);
	o->groups++;
}

/* Parses a count as the model: digits, fitting 64 bits. */
static int
count_of(kn_str v, uint64_t *x)
{
	size_t i;

	*x = 0;
	if (v.n == 0)
		return 0;
	for (i = 0; i < v.n; i++)
		if (v.p[i] < '0' || v.p[i] > '9' ||
		    __builtin_mul_overflow(*x, 10, x) ||
		    __builtin_add_overflow(*x, (uint64_t)(v.p[i] - '0'), x))
			return 0;
	return 1;
}

/* A row of the model: its key labels joined, each followed by a tab. */
struct mrow {
	char *key;
	size_t n;
	uint64_t cnt;
};

static int
cmp_mrow(const void *a, const void *b)
{
	const struct mrow *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int c = memcmp(x->key, y->key, n);

	return c != 0 ? c : x->n < y->n ? -1 : x->n > y->n;
}

/* The frequency set of the rows as the model makes it (without sums):
 * the keys sorted as bytes, equal ones added.  Returns 0 if a count
 * overflows. */
static int
model(struct mrow *m, size_t n, struct out *o)
{
	size_t i, k;
	char b[32];

	if (n > 0)
		qsort(m, n, sizeof(*m), cmp_mrow);
	for (i = 0; i < n; i = k) {
		uint64_t cnt = 0;

		for (k = i; k < n && cmp_mrow(&m[i], &m[k]) == 0; k++)
			if (__builtin_add_overflow(cnt, m[k].cnt, &cnt))
				return 0;
		put(o, m[i].key, m[i].n);
		put(o, b, kn_fmt_u64(b, cnt));
		put(o, "\n", 1);
	}
	return 1;
}

static void
merge(void *arg)
{
	struct job *jb = arg;
	kn_table t;
	kn_countspec cs;
	kn_dict *dict;
	kn_hier **hier;
	struct mrow *mr = NULL;
	struct out want;
	int *lv, plain = (jb->flags & F_PLAIN) != 0;
	size_t cntcol, nsum, d, c, j, *key, *sumcol, nm = 0, cap = 0;
	uint64_t x;

	kn_skip_header = 0;
	kn_table_open(&t, &jb->path, 1, jb->columns);
	if (plain) {
		/* freqset without --merge: every row counts 1. */
		cntcol = t.ncols;
		nsum = 0;
	} else {
		/* As freqset's main checks a frequency set. */
		cntcol = kn_table_countcol(&t, "--merge");
		if ((t.ncols - cntcol - 1) % 2 != 0)
			kn_die("%s: after 'count' a frequency set has pairs "
			    "of X_sum, X_sumsq columns", t.r.name);
		nsum = (t.ncols - cntcol - 1) / 2;
	}
	for (j = 0; j < nsum; j++) {
		const char *a = t.names[cntcol + 1 + 2 * j];
		const char *b = t.names[cntcol + 2 + 2 * j];
		size_t al = strlen(a);

		if (al < 5 || strcmp(a + al - 4, "_sum") != 0 ||
		    strlen(b) != al + 2 || strncmp(a, b, al) != 0 ||
		    strcmp(b + al, "sq") != 0)
			kn_die("%s: columns '%s', '%s': expected a pair "
			    "X_sum, X_sumsq", t.r.name, a, b);
	}
	key = malloc((cntcol + 1) * sizeof(size_t));
	for (d = 0, c = 0; c < cntcol; c++)
		if (!(jb->flags & F_SUBSET) || c >= 8 || (jb->sub >> c & 1))
			key[d++] = c;
	sumcol = malloc((nsum + 1) * sizeof(size_t));
	for (j = 0; j < nsum; j++)
		sumcol[j] = cntcol + 1 + 2 * j;
	dict = malloc((d + 1) * sizeof(kn_dict));
	for (c = 0; c < d; c++)
		kn_dict_init(&dict[c]);
	hier = calloc(d + 1, sizeof(kn_hier *));
	lv = calloc(d + 1, sizeof(int));
	if ((jb->flags & F_HIER) && d > 0) {
		static const char *spec[] = { "interval:5,10,100",
		    "interval:0.5,1", "mask:1,3", "mask:2" };

		hier[0] = kn_hier_load(t.names[key[0]], spec[jb->sub >> 3 & 3]);
		lv[0] = (jb->sub >> 5) % hier[0]->nlevels;
	}
	memset(&cs, 0, sizeof(cs));
	cs.d = d;
	cs.key = key;
	cs.dict = dict;
	cs.hier = hier;
	cs.hascount = !plain;
	cs.cntcol = cntcol;
	cs.nsum = nsum;
	cs.sumcol = sumcol;
	cs.pairs = 1;
	jb->o.nsum = nsum;
	jb->o.d = d;
	if (jb->how == 2)
		kn_freq_sorted(&t, &cs, out_row, &jb->o, NULL);
	else
		kn_freq(&t, &cs, lv, jb->how == 1 ? jb->budget : 0,
		    fz_tmpdir(), out_row, &jb->o, NULL);
	kn_table_free(&t);

	/* The input read again: its total count, and the model. */
	kn_table_open(&t, &jb->path, 1, jb->columns);
	while (kn_table_next(&t)) {
		size_t len = 0;

		x = 1;
		if (!plain)
			FZ_ASSERT(count_of(t.f[cntcol], &x),
			    "counts were checked");
		jb->intotal += x;
		if (nm == cap) {
			cap = cap ? 2 * cap : 64;
			mr = realloc(mr, cap * sizeof(*mr));
		}
		for (c = 0; c < d; c++)
			len += t.f[key[c]].n + 1;
		mr[nm].key = malloc(len + 1);
		mr[nm].n = 0;
		mr[nm].cnt = x;
		for (c = 0; c < d; c++) {
			kn_str v = t.f[key[c]];

			if (hier[c] != NULL) {
				/* Generalized: the label of the leaf. */
				const char *err;
				int64_t id = kn_hier_leaf(hier[c], v.p, v.n,
				    &err);

				FZ_ASSERT(id >= 0, "values were checked");
				v = kn_dict_get(&hier[c]->lab[lv[c]],
				    kn_hier_lift(hier[c], (uint32_t)id, 0,
				    lv[c]));
				mr[nm].key = realloc(mr[nm].key, mr[nm].n +
				    v.n + len + 2);
			}
			memcpy(mr[nm].key + mr[nm].n, v.p, v.n);
			mr[nm].n += v.n;
			mr[nm].key[mr[nm].n++] = '\t';
		}
		nm++;
	}
	kn_table_free(&t);
	if (nsum == 0) {
		memset(&want, 0, sizeof(want));
		if (model(mr, nm, &want))
			FZ_ASSERT(want.len == jb->o.len && (want.len == 0 ||
			    memcmp(want.buf, jb->o.buf, want.len) == 0),
			    "the frequency set the model makes");
		free(want.buf);
	}
	for (j = 0; j < nm; j++)
		free(mr[j].key);
	free(mr);
	for (c = 0; c < d; c++)
		kn_dict_free(&dict[c]);
	free(dict);
	kn_hier_free(hier[0]);
	free(hier);
	free(lv);
	free(key);
	free(sumcol);
}

/* Whether the header (the first line) may name sum columns. */
static int
has_sums(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);

	return memmem(data, nl ? (size_t)(nl - data) : size, "_sum", 4) !=
	    NULL || (data[0] & F_HEADERLESS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job jb[3];
	int st[3], flags, h, ref = -1;
	char *columns = NULL;
	const char *path;

	fz_init("fuzz-merge");
	if (size < 2)
		return 0;
	flags = data[0];
	if (flags & F_HEADERLESS) {
		const uint8_t *nl = memchr(data + 2, '\n', size - 2);
		size_t n = nl ? (size_t)(nl - data - 2) : size - 2;

		columns = fz_str(data + 2, n);
		path = fz_file(0, "fs.tsv", data + 2 + n + (nl != NULL),
		    size - 2 - n - (nl != NULL));
	} else
		path = fz_file(0, "fs.tsv", data + 2, size - 2);
	for (h = 0; h < 3; h++) {
		memset(&jb[h], 0, sizeof(jb[h]));
		jb[h].flags = flags;
		jb[h].how = h;
		jb[h].sub = data[1];
		jb[h].path = (char *)path;
		jb[h].columns = columns;
		jb[h].budget = (size_t)3 * 1024 << (data[1] >> 5);
		st[h] = 0;
		/* --sorted takes neither -q nor -H.  A run of a spill is
		 * open while a roll-up adds sums: an error there (an
		 * overflow) would leave its FILE to the harness, so
		 * hierarchies with sums are counted in memory only. */
		if ((h == 1 && !(flags & F_SPILL)) ||
		    (h == 1 && (flags & F_HIER) && has_sums(data, size)) ||
		    (h == 2 && (!(flags & F_SORTED) ||
		    (flags & (F_SUBSET | F_HIER | F_PLAIN)))))
			continue;
		st[h] = fz_run(merge, &jb[h]);
		FZ_ASSERT(st[h] == -1 || st[h] == 2, "an error exits 2");
		if (st[h] != -1)
			continue;
		FZ_ASSERT(jb[h].o.total == jb[h].intotal,
		    "the counts add up");
		if (ref < 0)
			ref = h;
		else
			FZ_ASSERT(jb[h].o.len == jb[ref].o.len &&
			    (jb[h].o.len == 0 || memcmp(jb[h].o.buf,
			    jb[ref].o.buf, jb[h].o.len) == 0),
			    "memory, spilled and sorted merges agree");
	}
	for (h = 0; h < 3; h++) {
		if (st[h] == -1) {
			free(jb[h].o.buf);
			free(jb[h].o.last);
		}
	}
	free(columns);
	return 0;
}
