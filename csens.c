/*
 * csens.c: a cluster's cuts job (cluster.c) with no dictionary of the
 * node's sensitive values or targets (issue 17), as Rothko-T out of core
 * takes them (paper 004 §2; mondrian.h):
 *
 * - under -l, keyed by 64-bit hashes of their bytes (sens_hashed): the
 *   node's (key, value) pairs of each column sorted on disk, so that two
 *   values with one key stop the job (struct csens_check); the values
 *   held until they cost too much, then switched from the dictionary to
 *   their keys (csens_to_sorted), and the node decided from sorts of
 *   its rows (rsens.c), which its groups give (cstream.c);
 * - so too the variance with -l or of several columns, each column's
 *   number carried beside its hash as written (sens_sorted, nsvd);
 * - under --variance alone on one column, and for --split regression's
 *   target, as numbers (sens_keyed, targ_keyed): each group carries its
 *   number as written, and its sums are the node's (cstream_gsum).
 *
 * The numbers' sums of their absolute values and squares over the node
 * are added up by the scale each is written at (struct csens_num), then
 * checked within 2^127 at the column's largest scale, known at the end,
 * as with the values held: a part's sums are then exact.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "extsort.h"
#include "kanon.h"
#include "mondrian.h"
#include "rothko.h"

/* ---- hashes: l-diversity ------------------------------------------ */

static void
check_add(struct csens_check *hc, uint64_t key, kn_str v)
{
	hc->buf = kn_grow(hc->buf, &hc->cap, 16 + v.n, 1, 64);
	mond_hex_put(hc->buf, key, 16);
	memcpy(hc->buf + 16, v.p, v.n);
	kn_sort_add(hc->so, hc->buf, 16 + v.n);
}

/* A line of the sort, each (key, value) once. */
static void
check_line(const char *line, size_t len, void *ctx)
{
	struct csens_check *hc = ctx;

	(void)len;
	if (hc->any && memcmp(line, hc->prev, 16) == 0)
		kn_die("node %s: two %s '%s' share the 64-bit hash %016llx, "
		    "by which a cuts job tells them apart: partition the "
		    "table on one machine", hc->id, hc->label ?
		    "labels of the column" : "values of the sensitive column",
		    hc->name,
		    (unsigned long long)numkey_value(mond_hex_get(line, 16)));
	memcpy(hc->prev, line, 16);
	hc->any = 1;
	if (hc->tab != NULL) {
		kn_str v = { line + 16, len - 16 };

		if (!rclose_seek(hc->tab, hc->tk, &hc->thave,
		    mond_hex_get(line, 16)))
			cdist_missing(hc->pt, hc->id, v);
	}
}

static void
check_end(struct part *pt, struct csens_check *hc)
{
	kn_sort_finish(hc->so, 1, check_line, hc);
	mond_sort_done(pt, hc->so);
	hc->so = NULL;
	if (hc->tab != NULL)
		fclose(hc->tab);
	hc->tab = NULL;
	free(hc->buf);
	hc->buf = NULL;
}

void
csens_tables(struct part *pt, struct csens *cs)
{
	size_t c;
	const char *f;

	for (c = 0; c < pt->nshd && cs->hc[c].so != NULL; c++) {
		f = pt->tcord ? pt->tcmap[c] : pt->tcpath[c];
		if ((cs->hc[c].tab = kn_tmp_open(f, "rb")) == NULL)
			kn_die_sys("%s", f);
		cs->hc[c].pt = pt;
	}
}

/* ---- numbers: their sums by scale ---------------------------------- */

/* v as a keyed number: 1, 0 if it is none, -1 if it does not fit 64
 * bits with at most 18 decimals. */
static int
num_parse(kn_str v, int64_t *m, int *sc)
{
	kn_i128 x;

	if (!kn_dec_parse(v.p, v.n, &x, sc))
		return 0;
	if (*sc > 18 || x > INT64_MAX || x < INT64_MIN)
		return -1;
	*m = (int64_t)x;
	return 1;
}

/* Value m / 10^sc, written v, seen; with sum, cnt rows of it summed
 * (the first QI's groups, which have every row once: every QI's values
 * are seen, so that each is known to fit at the column's scale). */
static void
num_add(struct csens_num *cn, int64_t m, int sc, uint64_t cnt, kn_str v,
    int sum)
{
	uint64_t a = m < 0 ? (uint64_t)-(m + 1) + 1 : (uint64_t)m;
	kn_i128 w;

	if (!cn->seen[sc] || a > cn->top[sc]) {
		cn->top[sc] = a;
		free(cn->topv[sc]);
		cn->topv[sc] = kn_alloc(v.n + 1);
		memcpy(cn->topv[sc], v.p, v.n);
		cn->topv[sc][v.n] = '\0';
	}
	cn->seen[sc] = 1;
	if (!sum)
		return;
	/* |m| and m^2 below 2^64 and 2^127, cnt below 2^64. */
	if (__builtin_mul_overflow((kn_i128)a, (kn_i128)cnt, &w) ||
	    __builtin_add_overflow(cn->a[sc], w, &cn->a[sc]) ||
	    (cn->sq && (__builtin_mul_overflow((kn_i128)a * (kn_i128)a,
	    (kn_i128)cnt, &w) || __builtin_add_overflow(cn->q[sc], w,
	    &cn->q[sc]))))
		cn->over[sc] = 1;
}

/* The column's scale: *F raised to the numbers' largest; dies unless
 * each fits 64 bits at it and the node's sums (of rows rows) fit 2^127,
 * naming option -s (sens) or -t and column name. */
static void
num_end(struct csens_num *cn, int sens, const char *name,
    uint64_t rows, int *F)
{
	int S = *F, i, big = -1;
	kn_i128 w, top = -1, A = 0, Q = 0;
	int over = 0;

	for (i = 0; i <= 18; i++)
		if (cn->seen[i] && i > S)
			S = i;
	/* Each value at the column's scale fits 64 bits, as a streamed
	 * group's key takes it (numkey.c). */
	for (i = 0; i <= 18; i++) {
		if (!cn->seen[i])
			continue;
		/* (2^63 only as -2^63 itself: its scale is the column's) */
		if (__builtin_mul_overflow((kn_i128)cn->top[i],
		    kn_pow10(S - i), &w) || w > (kn_i128)INT64_MAX + 1)
			kn_die("-%c %s: '%s' does not fit 64 bits with the "
			    "column's most decimals, %d, as a cuts job takes "
			    "a number (%s): round the column, or partition on "
			    "one machine in memory (-a memory)",
			    sens ? 's' : 't', name, cn->topv[i], S,
			    sens ? "--variance" : "--split regression");
		if (w > top) {
			top = w;
			big = i;
		}
		if (cn->over[i] || __builtin_mul_overflow(cn->a[i],
		    kn_pow10(S - i), &w) || __builtin_add_overflow(A, w, &A) ||
		    (cn->sq && (__builtin_mul_overflow(cn->q[i],
		    kn_pow10(2 * (S - i)), &w) ||
		    __builtin_add_overflow(Q, w, &Q))))
			over = 1;
	}
	if (over) {
		kn_str v = { cn->topv[big], strlen(cn->topv[big]) };

		msens_node_sums_die(sens, name, v, rows, S);
	}
	for (i = 0; i <= 18; i++)
		free(cn->topv[i]);
	memset(cn->topv, 0, sizeof(cn->topv));
	*F = S;
}

/* ---- the cuts job's values --------------------------------------- */

void
csens_begin(struct part *pt, struct csens *cs, const char *id, size_t budget)
{
	size_t c;

	(void)pt;
	memset(cs, 0, sizeof(*cs));
	cs->id = id;
	cs->budget = budget;
	for (c = 0; c < KN_MAXSENS; c++)
		cs->num[c].sq = 1;
}

void
csens_check_begin(struct part *pt, struct csens *cs)
{
	size_t i, nc = pt->sens_sorted ? pt->nshd : 1;

	for (i = 0; i < nc; i++) {
		cs->hc[i].so = kn_sort_new(NULL, 0, 1,
		    cs->budget / 16 / (nc + 1), pt->rk->tmpdir);
		cs->hc[i].id = cs->id;
		cs->hc[i].name = pt->nsens > 1 ? pt->cl->tree.snames[i] :
		    pt->cl->tree.sname;
	}
}

/* Sensitive value v split into its columns' values x[0..nsens), as
 * msens_prepare splits a tuple. */
static void
split_cols(const struct part *pt, kn_str v, kn_str *x)
{
	const char *p = v.p, *e = v.p + v.n, *tab;
	size_t c, nc = pt->nsens > 1 ? pt->nsens : 1;

	for (c = 0; c < nc; c++) {
		tab = nc > 1 ? memchr(p, '\t', (size_t)(e - p)) : NULL;
		x[c].p = p;
		x[c].n = (size_t)((tab != NULL ? tab : e) - p);
		p = tab != NULL ? tab + 1 : e;
	}
}

/* The name of sensitive column c. */
static const char *
col_name(const struct part *pt, size_t c)
{
	return pt->nsens > 1 ? pt->cl->tree.snames[c] : pt->cl->tree.sname;
}

void
csens_not_number(const kn_reader *r, const char *id, int o, const char *name,
    kn_str v, const char *opt)
{
	char at[64] = "";

	if (r != NULL)
		snprintf(at, sizeof(at), "%s:%llu: ", r->name,
		    (unsigned long long)r->lineno);
	if (kn_missing(v.p, v.n))
		kn_die("%snode %s: -%c %s: '%.*s' is a missing value, which "
		    "%s: drop its rows or give them a value (%s)", at, id, o,
		    name, (int)v.n, v.p, o == 's' ? "has no variance" :
		    "a regression cannot fit", opt);
	kn_die("%snode %s: -%c %s: '%.*s' %s (%s)", at, id, o, name, (int)v.n,
	    v.p, kn_dec_why(v.p, v.n, "is not a number"), opt);
}

/* The keys of the columns' values x, to keys and scs (by sorts under the
 * variance, the numbers after the hashes): 1, or 0 if a number does not
 * fit 64 bits with at most 18 decimals (its column in *bad); dies if
 * one is none. */
static int
col_keys(const struct part *pt, const char *id, const kn_str *x,
    uint64_t *keys, int32_t *scs, size_t *bad)
{
	size_t c, nc = pt->sens_sorted ? pt->nshd : 1;
	int64_t m;
	int sc, k;

	for (c = 0; c < nc; c++)
		keys[c] = mond_sens_key(x[c]);
	for (c = 0; c < pt->nsvd; c++) {
		if ((k = num_parse(x[c], &m, &sc)) == 0)
			csens_not_number(NULL, id, 's', col_name(pt, c), x[c],
			    "--variance");
		if (k < 0) {
			*bad = c;
			return 0;
		}
		keys[nc + c] = (uint64_t)m;
		scs[c] = sc;
	}
	return 1;
}

void
csens_line(struct part *pt, struct csens *cs, kn_str v, uint64_t cnt,
    int first)
{
	kn_str x[KN_MAXSENS];
	size_t c, bad, nc = pt->sens_sorted ? pt->nshd : 1;

	split_cols(pt, v, x);
	if (!col_keys(pt, cs->id, x, cs->keys, cs->scs, &bad))
		kn_die("node %s: -s %s: '%.*s' does not fit 64 bits with at "
		    "most 18 decimals, as a cuts job takes the values of "
		    "--variance with -l or on several columns past what it "
		    "holds: round the column, or partition on one machine in "
		    "memory (-a memory)", cs->id, col_name(pt, bad),
		    (int)x[bad].n, x[bad].p);
	for (c = 0; c < pt->nsvd; c++)
		num_add(&cs->num[c], (int64_t)cs->keys[nc + c],
		    cs->scs[c], cnt, x[c], first);
	for (c = 0; c < nc && first; c++)
		check_add(&cs->hc[c], cs->keys[c], x[c]);
}

void
csens_number(struct part *pt, struct csens *cs, kn_str v, const kn_reader *r,
    int sens, uint64_t cnt, int first, int64_t *m, int8_t *sc)
{
	int s, k = num_parse(v, m, &s);
	const char *opt = sens ? "--variance" : "--split regression";

	if (k == 0)
		csens_not_number(r, cs->id, sens ? 's' : 't', sens ?
		    pt->cl->tree.sname : pt->cl->tree.tname, v, opt);
	if (k < 0)
		kn_die("%s:%llu: node %s: -%c %s: '%.*s' does not fit 64 bits "
		    "with at most 18 decimals, as a cuts job takes a number "
		    "(%s): round the column, or partition on one machine in "
		    "memory (-a memory)", r->name,
		    (unsigned long long)r->lineno, cs->id, sens ? 's' : 't',
		    sens ? pt->cl->tree.sname : pt->cl->tree.tname, (int)v.n,
		    v.p, opt);
	*sc = (int8_t)s;
	num_add(sens ? &cs->num[0] : &cs->tnum, *m, s, cnt, v, first);
}

/* The groups held, gl[0..n), and those spooled to sp, spooled to sp
 * anew with nk keys and nv scales, each as fix makes it (from the
 * keys it had, if spooled). */
static void
respool(struct part *pt, struct cspool *sp, const struct cgroup *gl,
    size_t n, size_t nk, size_t nv, void (*fix)(struct cgroup *,
    uint64_t *, int32_t *, void *), void *ctx)
{
	struct cspool old = *sp;
	struct cgroup g;
	uint64_t keys[2 * KN_MAXSENS];
	int32_t scs[KN_MAXSENS];
	size_t i;

	cstream_begin(pt, sp, nk, nv);
	for (i = 0; i < n; i++) {
		g = gl[i];
		fix(&g, keys, scs, ctx);
		cstream_put(sp, &g, keys, scs);
	}
	if (old.f != NULL) {
		cstream_rewind(&old);
		while (cstream_next(&old, &g)) {
			memcpy(keys, old.keys, old.nk * sizeof(uint64_t));
			memcpy(scs, old.scs, old.nv * sizeof(int32_t));
			fix(&g, keys, scs, ctx);
			cstream_put(sp, &g, keys, scs);
		}
		cstream_end(pt, &old);
	}
}

/* The keys of each value of the dictionary, nk a value, and the scales
 * of its numbers, nv. */
struct vkeys {
	const uint64_t *sk;
	const int32_t *ss;
	size_t nk, nv;
};

/* respool's fix: a group's value's keys in place of its id. */
static void
sens_keys(struct cgroup *g, uint64_t *keys, int32_t *scs, void *ctx)
{
	const struct vkeys *ks = ctx;

	memcpy(keys, ks->sk + (size_t)g->s * ks->nk,
	    ks->nk * sizeof(uint64_t));
	memcpy(scs, ks->ss + (size_t)g->s * ks->nv, ks->nv * sizeof(int32_t));
	g->s = 0;
}

int
csens_to_sorted(struct part *pt, struct csens *cs, struct cspool *sp,
    struct cgroup **gl, size_t *n, struct cgroup *e, const uint64_t *cnt0,
    size_t nc0)
{
	struct vkeys ks;
	size_t i, c, bad, nd = pt->sens_dict.n;
	size_t nh = pt->nsens, nv = pt->req.hasv || pt->msvar ? pt->nsens : 0;
	size_t nk = nh + nv, nshd = pt->nshd, nsvd = pt->nsvd;
	int sorted = pt->sens_sorted;
	uint64_t *sk;
	int32_t *ss;
	kn_str x[KN_MAXSENS];

	/* Each value's keys, as the run will key them, or none changed. */
	pt->sens_sorted = 1;
	pt->nshd = nh;
	pt->nsvd = nv;
	sk = kn_alloc((nd + 1) * nk * sizeof(uint64_t));
	ss = kn_alloc((nd + 1) * (nv + 1) * sizeof(int32_t));
	for (i = 0; i < nd; i++) {
		split_cols(pt, kn_dict_get(&pt->sens_dict, (uint32_t)i), x);
		if (!col_keys(pt, cs->id, x, sk + i * nk, ss + i * nv,
		    &bad)) {
			pt->sens_sorted = sorted;
			pt->nshd = nshd;
			pt->nsvd = nsvd;
			free(sk);
			free(ss);
			return 0;
		}
	}
	pt->sens_hashed = pt->sens_keyed = 1;
	pt->nskd = nk;
	csens_check_begin(pt, cs);
	for (i = 0; i < nd; i++) {
		split_cols(pt, kn_dict_get(&pt->sens_dict, (uint32_t)i), x);
		for (c = 0; c < nh; c++)
			check_add(&cs->hc[c], sk[i * nk + c], x[c]);
		for (c = 0; c < nv; c++)
			num_add(&cs->num[c], (int64_t)sk[i * nk + nh + c],
			    ss[i * nv + c], i < nc0 ? cnt0[i] : 0, x[c],
			    i < nc0 && cnt0[i] > 0);
	}
	ks.sk = sk;
	ks.ss = ss;
	ks.nk = nk;
	ks.nv = nv;
	respool(pt, sp, *gl, *n, nk, nv, sens_keys, &ks);
	if (e != NULL) {
		memcpy(cs->keys, sk + (size_t)e->s * nk, nk * sizeof(uint64_t));
		memcpy(cs->scs, ss + (size_t)e->s * nv, nv * sizeof(int32_t));
		e->s = 0;
		e->sk = cs->keys[0];
	}
	free(sk);
	free(ss);
	free(*gl);
	*gl = NULL;
	*n = 0;
	kn_dict_free(&pt->sens_dict);
	kn_dict_init(&pt->sens_dict);
	return 1;
}

/* respool's fix: a group's label's key in place of its id. */
static void
label_key(struct cgroup *g, uint64_t *keys, int32_t *scs, void *ctx)
{
	const uint64_t *lk = ctx;

	(void)keys;
	(void)scs;
	g->yk = lk[g->y];
	g->y = 0;
}

uint64_t
csens_label(struct csens *cs, kn_str v, int first)
{
	uint64_t k = mond_sens_key(v);

	if (first)
		check_add(&cs->lc, k, v);
	return k;
}

void
csens_labels_hashed(struct part *pt, struct csens *cs, struct cspool *sp,
    struct cgroup **gl, size_t *n, struct cgroup *e)
{
	size_t i, nd = pt->targ_dict.n;
	uint64_t *lk = kn_alloc((nd + 1) * sizeof(uint64_t));

	cs->lc.so = kn_sort_new(NULL, 0, 1, cs->budget / 32, pt->rk->tmpdir);
	cs->lc.id = cs->id;
	cs->lc.name = pt->cl->tree.tname;
	cs->lc.label = 1;
	for (i = 0; i < nd; i++) {
		kn_str v = kn_dict_get(&pt->targ_dict, (uint32_t)i);

		lk[i] = mond_sens_key(v);
		check_add(&cs->lc, lk[i], v);
	}
	/* Every dimension is streamed from the rows: all spooled. */
	respool(pt, sp, *gl, *n, sp->nk, sp->nv, label_key, lk);
	if (e != NULL)
		label_key(e, NULL, NULL, lk);
	free(lk);
	free(*gl);
	*gl = NULL;
	*n = 0;
	mond_targ_drop(pt);
}

void
csens_end(struct part *pt, struct csens *cs, uint64_t rows)
{
	size_t c;
	int F;

	for (c = 0; c < KN_MAXSENS && cs->hc[c].so != NULL; c++)
		check_end(pt, &cs->hc[c]);
	if (cs->lc.so != NULL)
		check_end(pt, &cs->lc);
	if (pt->has_sens && pt->sens_keyed && !pt->sens_hashed)
		num_end(&cs->num[0], 1, pt->cl->tree.sname, rows,
		    &pt->sens_F);
	/* By sorts, each column's scale its own under msvar (msens.c's),
	 * else the table's (the tree's) or more. */
	for (c = 0; pt->sens_sorted && c < pt->nsvd; c++) {
		F = pt->msvar ? 0 : pt->sens_F;
		num_end(&cs->num[c], 1, col_name(pt, c), rows, &F);
		if (pt->msvar)
			pt->svF[c] = F;
		else
			pt->sens_F = F;
		pt->dims[pt->nqi + pt->nshd + c].S = F;
	}
	if (pt->targ_keyed)
		num_end(&cs->tnum, 0, pt->cl->tree.tname, rows,
		    &pt->targ_F);
}
