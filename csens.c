/*
 * csens.c: a cluster's cuts job (cluster.c) with no dictionary of the
 * node's sensitive values or targets (issue 17), as Rothko-T out of core
 * takes them (paper 004 §2; mondrian.h):
 *
 * - under -l, keyed by 64-bit hashes of their bytes (sens_hashed): the
 *   node's (key, value) pairs of each column sorted on disk, so that two
 *   values with one key stop the job (struct csens_check); l's values
 *   switched from the dictionary to their keys amid the reading
 *   (csens_to_sorted);
 * - under --variance alone on one column, and for --split regression's
 *   target, as numbers (sens_keyed, targ_keyed): each group carries its
 *   number as written, and the node's sums of the absolute values and
 *   squares are added up by the scale each is written at
 *   (struct csens_num), then checked within 2^127 at the column's
 *   largest scale, known at the end, as with the values held.
 */
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
		kn_die("node %s: two values of the sensitive column '%s' "
		    "share the 64-bit hash %016llx, by which a cuts job "
		    "counts distinct values: partition the table on one "
		    "machine", hc->id, hc->name, (unsigned long long)
		    numkey_value(mond_hex_get(line, 16)));
	memcpy(hc->prev, line, 16);
	hc->any = 1;
}

void
csens_check_end(struct part *pt, struct csens_check *hc)
{
	kn_sort_finish(hc->so, 1, check_line, hc);
	mond_sort_done(pt, hc->so);
	hc->so = NULL;
	free(hc->buf);
	hc->buf = NULL;
}

/* The checks of the keys of each column keyed by hash. */
void
csens_check_begin(struct part *pt, struct csens_check *hc, const char *id,
    size_t budget)
{
	size_t i, nc = pt->sens_sorted ? pt->nshd : 1;

	for (i = 0; i < nc; i++) {
		hc[i].so = kn_sort_new(NULL, 0, 1, budget / 16 / (nc + 1),
		    pt->rk->tmpdir);
		hc[i].id = id;
		hc[i].name = pt->nsens > 1 ? pt->cl->tree.snames[i] :
		    pt->cl->tree.sname;
	}
}

/* Keyed by hash, the keys of sensitive value v (with several columns,
 * their values joined by tabs) in each column keyed, to keys; with hc,
 * each checked. */
void
csens_keys(const struct part *pt, kn_str v, uint64_t *keys,
    struct csens_check *hc)
{
	size_t c, nc = pt->sens_sorted ? pt->nshd : 1;
	const char *p = v.p, *e = v.p + v.n, *tab;
	kn_str x;

	/* As msens_prepare splits a tuple into its columns' values. */
	for (c = 0; c < nc; c++) {
		tab = pt->nsens > 1 ? memchr(p, '\t', (size_t)(e - p)) : NULL;
		x.p = p;
		x.n = (size_t)((tab != NULL ? tab : e) - p);
		p = tab != NULL ? tab + 1 : e;
		keys[c] = mond_sens_key(x);
		if (hc != NULL)
			check_add(&hc[c], keys[c], x);
	}
}

/* l (not distinct l's sets) whose values outgrow an eighth of -S, or
 * are too many to judge each cut by them: from here on known by their
 * hashes and the node decided from sorts of its rows (struct rothko's
 * rows, cstream.c).  The groups so far, held (*gl, *n) or spooled with
 * their values' ids, are spooled again with their keys, the dictionary
 * dropped, and *e, being read (if not NULL), takes its keys. */
void
csens_to_sorted(struct part *pt, struct cspool *sp, struct cgroup **gl,
    size_t *n, struct cgroup *e, uint64_t *keys, struct csens_check *hc,
    const char *id, size_t budget)
{
	struct cspool old = *sp;
	struct cgroup g;
	size_t i, nc, nd = pt->sens_dict.n;
	uint64_t *sk;

	pt->sens_sorted = pt->sens_hashed = pt->sens_keyed = 1;
	pt->nshd = pt->nskd = nc = pt->nsens;
	csens_check_begin(pt, hc, id, budget);
	sk = kn_alloc((nd + 1) * nc * sizeof(uint64_t));
	for (i = 0; i < nd; i++)
		csens_keys(pt, kn_dict_get(&pt->sens_dict, (uint32_t)i),
		    sk + i * nc, hc);
	cstream_begin(pt, sp, nc);
	for (i = 0; i < *n; i++) {
		g = (*gl)[i];
		g.s = 0;
		cstream_put(sp, &g, sk + (size_t)(*gl)[i].s * nc);
	}
	if (old.f != NULL) {
		cstream_rewind(&old);
		while (cstream_next(&old, &g)) {
			uint32_t s = g.s;

			g.s = 0;
			cstream_put(sp, &g, sk + (size_t)s * nc);
		}
		cstream_end(pt, &old);
	}
	if (e != NULL) {
		memcpy(keys, sk + (size_t)e->s * nc, nc * sizeof(uint64_t));
		e->s = 0;
		e->sk = keys[0];
	}
	free(sk);
	free(*gl);
	*gl = NULL;
	*n = 0;
	kn_dict_free(&pt->sens_dict);
	kn_dict_init(&pt->sens_dict);
}

/* ---- numbers: --variance alone, --split regression ----------------- */

int
csens_num_parse(kn_str v, int64_t *m, int *sc)
{
	kn_i128 x;

	if (!kn_dec_parse(v.p, v.n, &x, sc))
		return 0;
	if (*sc > 18 || x > INT64_MAX || x < INT64_MIN)
		return -1;
	*m = (int64_t)x;
	return 1;
}

void
csens_num_add(struct csens_num *cn, int64_t m, int sc, uint64_t cnt, kn_str v)
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
	/* |m| and m^2 below 2^64 and 2^127, cnt below 2^64. */
	if (__builtin_mul_overflow((kn_i128)a, (kn_i128)cnt, &w) ||
	    __builtin_add_overflow(cn->a[sc], w, &cn->a[sc]) ||
	    (cn->sq && (__builtin_mul_overflow((kn_i128)a * (kn_i128)a,
	    (kn_i128)cnt, &w) || __builtin_add_overflow(cn->q[sc], w,
	    &cn->q[sc]))))
		cn->over[sc] = 1;
}

void
csens_num_end(struct csens_num *cn, int sens, const char *name,
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
		if (__builtin_mul_overflow((kn_i128)cn->top[i],
		    kn_pow10(S - i), &w) || w > INT64_MAX)
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
