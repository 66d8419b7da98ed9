/*
 * rclose.c: t-closeness (Li, Li and Venkatasubramanian, ICDE 2007, §4;
 * kanon(7), T-CLOSENESS) under the equal and the ordered distance of
 * the parts of a partition out of core whose sensitive values are held
 * nowhere (tchash, mondrian.h): the whole table's distribution is a
 * temp file, written by mond_hash_check, in which a part's values are
 * looked up, and each part's distance is kn_tclose_ok's sum term for
 * term (req.c), so that a part passes here exactly when it passes in
 * memory.
 *
 * Equal distance: the values are keyed by hash; the file holds records
 * (hash, rows) in hash order.  A part of n rows whose value v has c_v
 * of them, C_v in the table's N, is at the distance S / (2 n N) with
 *
 *     S = sum over the part's values of |c_v N - C_v n|
 *         + (N - sum over the part's values of C_v) n,
 *
 * the values absent from the part adding C_v n, in any order.
 *
 * Ordered distance (§4.1): the values are keyed by their positions
 * 0 .. m-1 in the distance's order (kn_tclose_ranks's), which
 * rclose_reorder writes into the spool once the reading is done; the
 * file holds by position the value's rows, cum (the rows of the
 * positions up to it) and P (the sum of cum over the positions before
 * it).  S / ((m - 1) n N) with S the sum over the positions i of
 * |s_i N - cum_i n|, s_i the part's rows up to i: between two of the
 * part's values s is constant, and each such run is summed in closed
 * form (kn_tclose_run), split at the first position q where cum n
 * reaches s N.  q is one of the run's ends, known from the two values'
 * records, or found by a binary search in the file (pread, so that the
 * threads of a node in memory may share it).  The part's values come
 * in the order of their keys, that is of their positions.
 *
 * rsens.c adds the terms from its sorts of a node on disk (its parts'
 * values in the order of their keys, so the look-ups walk the file
 * forward), and a node in memory looks its values up once, in key
 * order, into a kn_tclose of its own (rclose_local).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kanon.h"
#include "mondrian.h"
#include "rothko.h"

#include "extsort.h"

typedef unsigned __int128 u128;

/* The records a look-up reads at once: 32 or 64 KiB. */
#define LOOK_BUF 2048

/* Reads want bytes at offset off of file fd (name), or dies. */
static void
pread_all(int fd, const char *name, void *buf, size_t want, off_t off)
{
	size_t got = 0;
	ssize_t w;

	while (got < want) {
		w = pread(fd, (char *)buf + got, want - got,
		    off + (off_t)got);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			kn_die_sys("%s: read error", name);
		if (w == 0)
			kn_die("%s: read error: the file is shorter than "
			    "written", name);
		got += (size_t)w;
	}
}

void
rclose_open(struct part *pt, size_t c, struct rclook *lk)
{
	off_t end;

	memset(lk, 0, sizeof(*lk));
	lk->name = pt->tcpath[c];
	lk->col = c;
	lk->w = pt->tcord ? sizeof(struct rcpos) / sizeof(uint64_t) : 2;
	if ((lk->f = kn_tmp_open(lk->name, "rb")) == NULL)
		kn_die_sys("%s", lk->name);
	lk->fd = fileno(lk->f);
	if ((end = lseek(lk->fd, 0, SEEK_END)) < 0)
		kn_die_sys("%s", lk->name);
	lk->n = (uint64_t)end / (lk->w * sizeof(uint64_t));
	lk->buf = kn_alloc(LOOK_BUF * lk->w * sizeof(uint64_t));
}

void
rclose_close(struct rclook *lk)
{
	if (lk->f != NULL)
		fclose(lk->f);
	free(lk->buf);
	memset(lk, 0, sizeof(*lk));
}

/* Records [at, at + n) of the file into buf. */
static void
look_read(struct rclook *lk, void *buf, uint64_t at, uint64_t n)
{
	size_t rs = lk->w * sizeof(uint64_t);

	pread_all(lk->fd, lk->name, buf, (size_t)n * rs, (off_t)(at * rs));
}

/* The key of record i. */
static uint64_t
look_key(struct rclook *lk, uint64_t i)
{
	uint64_t r[2];

	look_read(lk, r, i, 1);
	return r[0];
}

/* The ordered distance: the record r of position p into *v. */
static void
pos_val(const struct rcpos *r, uint64_t p, size_t c, struct rcval *v)
{
	v->key = p;
	v->C = r->C;
	v->cum = r->cum;
	v->P = rcpos_P(r);
	v->col = c;
}

struct rcval
rclose_rows(struct rclook *lk, const struct part *pt, uint64_t h)
{
	uint64_t lo, hi, step, *b0 = lk->buf;
	size_t a, b, w = lk->w;
	struct rcval v;

	memset(&v, 0, sizeof(v));
	if (pt->tcord) {
		/* By position: the record at h, a buffer from it on. */
		if (h >= lk->n)
			kn_die("internal error: %s: position %llu of %llu",
			    lk->name, (unsigned long long)h,
			    (unsigned long long)lk->n);
		if (lk->bn == 0 || h < lk->b0 || h >= lk->b0 + lk->bn) {
			lk->b0 = h;
			lk->bn = lk->n - h < LOOK_BUF ? lk->n - h : LOOK_BUF;
			look_read(lk, lk->buf, lk->b0, lk->bn);
		}
		pos_val((const struct rcpos *)(lk->buf + (h - lk->b0) * w), h,
		    lk->col, &v);
		return v;
	}
	/* Not in the buffer: from its end when h is past it (forward,
	 * by steps that double), else from the start of the file. */
	if (lk->bn == 0 || h < b0[0] || h > b0[(lk->bn - 1) * w]) {
		lo = lk->bn > 0 && h > b0[(lk->bn - 1) * w] ?
		    lk->b0 + lk->bn : 0;
		for (hi = lo, step = 1; hi < lk->n && look_key(lk, hi) < h;
		    step *= 2) {
			lo = hi + 1;
			hi = lo + step;
		}
		if (hi > lk->n)
			hi = lk->n;
		/* The first record of hash h or more is in [lo, hi]. */
		while (hi - lo > LOOK_BUF / 2) {
			uint64_t mid = lo + (hi - lo) / 2;

			if (look_key(lk, mid) < h)
				lo = mid + 1;
			else
				hi = mid;
		}
		lk->b0 = lo;
		lk->bn = lk->n - lo < LOOK_BUF ? lk->n - lo : LOOK_BUF;
		if (lk->bn > 0)
			look_read(lk, lk->buf, lk->b0, lk->bn);
	}
	for (a = 0, b = (size_t)lk->bn; a < b;) {
		size_t mid = a + (b - a) / 2;

		if (b0[mid * w] < h)
			a = mid + 1;
		else
			b = mid;
	}
	if (a == lk->bn || b0[a * w] != h)
		kn_die("internal error: %s: a sensitive value's hash %016llx "
		    "is not among the table's", lk->name,
		    (unsigned long long)h);
	v.key = h;
	v.C = b0[a * w + 1];
	v.col = lk->col;
	return v;
}

/* ---- the ordered distance's runs ------------------------------------ */

/* Position p's record in column c's file, read at once (pread: the
 * threads of a node in memory share the file). */
static void
pos_at(const struct part *pt, size_t c, uint64_t p, struct rcval *v)
{
	struct rcpos r;

	pread_all(fileno(pt->tcf[c]), pt->tcpath[c], &r, sizeof(r),
	    (off_t)(p * sizeof(r)));
	pos_val(&r, p, c, v);
}

/* The first position q of [lo, hi) where cum n >= sN, known to be
 * there (at hi - 1 at the latest), and P at q in *Pq. */
static uint64_t
pos_find(const struct part *pt, size_t c, u128 sN, uint64_t n, uint64_t lo,
    uint64_t hi, u128 *Pq)
{
	struct rcval v;

	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo - 1) / 2;

		pos_at(pt, c, mid, &v);
		if ((u128)v.cum * n >= sN)
			hi = mid + 1;
		else
			lo = mid + 1;
	}
	pos_at(pt, c, lo, &v);
	*Pq = v.P;
	return lo;
}

/* q of the positions [a, b) where cum is below the threshold s N / n
 * at a - 1 or a is the run's start (cuma, the cumulative count at a,
 * Pa its P) and reaches it by b at the latest (cumb1 at b - 1, Pb at
 * b): a, b, or between them, found in the file. */
static uint64_t
find_q(const struct part *pt, size_t c, u128 sN, uint64_t n, uint64_t a,
    uint64_t cuma, u128 Pa, uint64_t b, uint64_t cumb1, u128 Pb, u128 *Pq)
{
	if ((u128)cuma * n >= sN) {
		*Pq = Pa;
		return a;
	}
	if ((u128)cumb1 * n < sN) {
		*Pq = Pb;
		return b;
	}
	return pos_find(pt, c, sN, n, a + 1, b, Pq);
}

/* The ordered distance's term of the run [a, b) of column c, from its
 * ends' records: cuma, Pa at a; cumb1 at b - 1 and Pb at b. */
static kn_tsum
run_term(const struct part *pt, size_t c, u128 sN, uint64_t n, uint64_t a,
    uint64_t cuma, u128 Pa, uint64_t b, uint64_t cumb1, u128 Pb)
{
	u128 Pq;
	uint64_t q = find_q(pt, c, sN, n, a, cuma, Pa, b, cumb1, Pb, &Pq);

	return kn_tclose_run(sN, n, a, b, q, Pa, Pb, Pq);
}

void
rclose_add(const struct part *pt, struct rcsum *s, uint64_t c,
    const struct rcval *v, uint64_t n)
{
	if (!pt->tcord) {
		kn_tclose_equal_val(&s->S, c, v->C, pt->tcn, n);
		s->in += v->C;
		return;
	}
	if (!s->any) {
		/* From the first position, with none of the part's rows:
		 * q is 0. */
		s->col = v->col;
		kn_tsum_add(&s->S, kn_tclose_run(0, n, 0, v->key, 0, 0, v->P,
		    0));
	} else {
		if (v->key <= s->at || v->col != s->col)
			kn_die("internal error: a part's values out of order");
		kn_tsum_add(&s->S, run_term(pt, s->col, (u128)s->s * pt->tcn,
		    n, s->at, s->cum, s->P, v->key, v->cum - v->C, v->P));
	}
	s->s += c;
	s->at = v->key;
	s->cum = v->cum;
	s->P = v->P;
	s->any = 1;
}

int
rclose_ok(const struct part *pt, struct rcsum *s, uint64_t n, long double *d)
{
	kn_tclose tc;
	size_t c = s->col;

	kn_tclose_params(&tc, &pt->req, pt->tcn, pt->tcord ? pt->tcm[c] : 0);
	if (!pt->tcord) {
		if (s->in > pt->tcn)
			kn_die("internal error: a part's values have more "
			    "rows in the table than it");
		kn_tclose_equal_rest(&s->S, s->in, pt->tcn, n);
	} else if (!s->any || s->s != n)
		kn_die("internal error: a part of %llu rows with %llu",
		    (unsigned long long)n, (unsigned long long)s->s);
	else
		/* To the last position, with all of the part's rows. */
		kn_tsum_add(&s->S, run_term(pt, c, (u128)n * pt->tcn, n,
		    s->at, s->cum, s->P, pt->tcm[c], pt->tcn, pt->tcP[c]));
	return kn_tclose_judge(&tc, s->S, n, d);
}

/* ---- a node in memory ---------------------------------------------- */

static int
cmp_key_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Under the ordered distance, a node's own kn_tclose: its d values in
 * the order of their positions pos[0..d), with their records in the
 * kn_tclose's C, cum and P; a run between two of them may cross the
 * positions of the table's other values, and is summed over all. */
struct local {
	const struct part *pt;
	size_t col, d;
	uint64_t *pos;
	const kn_tclose *tc;
};

/* kn_tclose's run (kanon.h): the term of the positions between the
 * node's values a and b (KN_TEND for the table's ends). */
static kn_tsum
local_run(const void *ext, u128 sN, uint64_t n, size_t a, size_t b)
{
	const struct local *lo = ext;
	const kn_tclose *tc = lo->tc;
	const struct part *pt = lo->pt;
	size_t c = lo->col, e = b == KN_TEND ? lo->d : b, l, h, mid;
	uint64_t gb, cumb1, q;
	u128 Pb, Pq;
	kn_tsum zero = { 0, 0 };

	gb = b == KN_TEND ? pt->tcm[c] : lo->pos[b];
	cumb1 = b == KN_TEND ? pt->tcn : tc->cum[b] - tc->C[b];
	Pb = b == KN_TEND ? pt->tcP[c] : tc->P[b];
	if (a == KN_TEND)
		return gb == 0 ? zero : kn_tclose_run(0, n, 0, gb, 0, 0, Pb,
		    0);
	/* q is a, or past the node's last value below the threshold
	 * before b: the first value l of (a, e) that reaches it. */
	if ((u128)tc->cum[a] * n >= sN)
		return kn_tclose_run(sN, n, lo->pos[a], gb, lo->pos[a],
		    tc->P[a], Pb, tc->P[a]);
	for (l = a + 1, h = e; l < h;) {
		mid = l + (h - l) / 2;
		if ((u128)tc->cum[mid] * n >= sN)
			h = mid;
		else
			l = mid + 1;
	}
	if (l < e)
		q = find_q(pt, c, sN, n, lo->pos[l - 1], tc->cum[l - 1],
		    tc->P[l - 1], lo->pos[l], tc->cum[l] - tc->C[l], tc->P[l],
		    &Pq);
	else
		q = find_q(pt, c, sN, n, lo->pos[e - 1], tc->cum[e - 1],
		    tc->P[e - 1], gb, cumb1, Pb, &Pq);
	return kn_tclose_run(sN, n, lo->pos[a], gb, q, tc->P[a], Pb, Pq);
}

static void rclose_local_free_col(struct part *pt, size_t c);

/* Column c's kn_tclose of the node's m values, ids id[0..m) in the
 * order of their positions v[0..m). */
static void
local_ordered(struct part *pt, size_t c, const struct rcval *v, size_t m)
{
	kn_tclose *tc = &pt->tc[c];
	struct local *lo = kn_zalloc(sizeof(*lo));
	size_t i;

	kn_tclose_params(tc, &pt->req, pt->tcn, pt->tcm[c]);
	tc->m = m;
	tc->C = kn_alloc((m + 1) * sizeof(uint64_t));
	tc->cum = kn_alloc((m + 1) * sizeof(uint64_t));
	tc->P = kn_alloc((m + 1) * sizeof(u128));
	lo->pos = kn_alloc((m + 1) * sizeof(uint64_t));
	for (i = 0; i < m; i++) {
		tc->C[i] = v[i].C;
		tc->cum[i] = v[i].cum;
		tc->P[i] = v[i].P;
		lo->pos[i] = v[i].key;
	}
	lo->pt = pt;
	lo->col = c;
	lo->d = m;
	lo->tc = tc;
	tc->run = local_run;
	tc->ext = lo;
}

void
rclose_local(struct part *pt)
{
	struct rclook lk;
	struct rcval *v;
	uint64_t *pr, *C;
	size_t c, i, m;

	if (!pt->tchash)
		return;
	for (c = 0; c < pt->nshd; c++) {
		m = (size_t)pt->rk->nlkey[c];
		pr = kn_alloc((m + 1) * 2 * sizeof(uint64_t));
		v = kn_alloc((m + 1) * sizeof(*v));
		for (i = 0; i < m; i++) {
			pr[2 * i] = pt->rk->lkey[c][i];
			pr[2 * i + 1] = i;
		}
		qsort(pr, m, 2 * sizeof(uint64_t), cmp_key_id);
		rclose_open(pt, c, &lk);
		for (i = 0; i < m; i++)
			v[i] = rclose_rows(&lk, pt, pr[2 * i]);
		rclose_close(&lk);
		rclose_local_free_col(pt, c);
		pt->tpos[c] = kn_alloc((m + 1) * sizeof(uint32_t));
		if (pt->tcord) {
			/* Positions in the order of the keys. */
			for (i = 0; i < m; i++)
				pt->tpos[c][pr[2 * i + 1]] = (uint32_t)i;
			local_ordered(pt, c, v, m);
		} else {
			C = kn_alloc((m + 1) * sizeof(uint64_t));
			for (i = 0; i < m; i++)
				C[pr[2 * i + 1]] = v[i].C;
			kn_tclose_init(&pt->tc[c], &pt->req, C, m, NULL);
			/* The distance is to the whole table's rows, not
			 * the node's. */
			pt->tc[c].N = pt->tcn;
			free(C);
			for (i = 0; i < m; i++)
				pt->tpos[c][i] = (uint32_t)i;
		}
		free(pr);
		free(v);
	}
}

static void
rclose_local_free_col(struct part *pt, size_t c)
{
	if (pt->tc[c].run != NULL) {
		struct local *lo = (struct local *)pt->tc[c].ext;

		free(lo->pos);
		free(lo);
	}
	kn_tclose_free(&pt->tc[c]);
	free(pt->tpos[c]);
	pt->tpos[c] = NULL;
}

void
rclose_local_free(struct part *pt)
{
	size_t c;

	if (!pt->tchash)
		return;
	for (c = 0; c < pt->nshd; c++)
		rclose_local_free_col(pt, c);
}

size_t
rclose_row_bytes(const struct part *pt)
{
	/* The pairs sorted, the values looked up, the kn_tclose's copy
	 * (C; cum, P and the positions under the ordered distance), tpos. */
	if (!pt->tchash)
		return 0;
	return pt->nshd * (2 * sizeof(uint64_t) + sizeof(struct rcval) +
	    sizeof(uint64_t) + (pt->tcord ? 2 * sizeof(uint64_t) +
	    sizeof(u128) : 0) + sizeof(uint32_t));
}

int
rclose_seek(FILE *f, uint64_t r[2], int *have, uint64_t k)
{
	while (!*have || r[0] < k) {
		if (fread(r, sizeof(uint64_t), 2, f) != 2) {
			*have = 0;
			break;
		}
		*have = 1;
	}
	return *have && r[0] == k;
}

/* ---- the spool keyed by position ------------------------------------ */

/* The join of the spool's keys (in key order, with their records'
 * places) with the pairs (key, position) of tcmap. */
struct join {
	struct part *pt;
	FILE *map;
	const char *mname;
	uint64_t mr[2];		/* the pair read last */
	int mhave;
	kn_sorter *s2;
	FILE *out;		/* the positions in the records' order */
	const char *oname;
	uint64_t next;		/* the record expected next */
};

/* A line of the sort by key: 16 hex digits of the key, 16 of the
 * record's place; to the sort by place with the key's position. */
static void
join_key(const char *line, size_t len, void *ctx)
{
	struct join *jn = ctx;
	uint64_t k = mond_hex_get(line, 16);
	char out[32];

	(void)len;
	if (!rclose_seek(jn->map, jn->mr, &jn->mhave, k))
		kn_die("internal error: %s: a sensitive value's hash %016llx "
		    "is not among the table's", jn->mname,
		    (unsigned long long)k);
	memcpy(out, line + 16, 16);
	mond_hex_put(out + 16, jn->mr[1], 16);
	kn_sort_add(jn->s2, out, sizeof(out));
}

/* A line of the sort by place: the positions, in the records' order. */
static void
join_place(const char *line, size_t len, void *ctx)
{
	struct join *jn = ctx;
	uint64_t p = mond_hex_get(line + 16, 16);

	(void)len;
	if (mond_hex_get(line, 16) != jn->next++)
		kn_die("internal error: %s: a record missing", jn->oname);
	if (fwrite(&p, sizeof(p), 1, jn->out) != 1)
		kn_die_sys("%s: write error", jn->oname);
}

/* Column c's keys in the spool turned to positions. */
static void
reorder_col(struct part *pt, size_t c, uint32_t *recs, unsigned char *buf)
{
	const struct dim *dm = &pt->dims[pt->nqi + c];
	size_t dw = pt->dwords, n, i, budget = pt->budget / 4;
	uint64_t at, p;
	kn_sorter *s1;
	struct join jn;
	FILE *sp, *pf, *nf;
	char *pname, *nname, line[32];

	/* Each record's key and place, sorted by key. */
	s1 = kn_sort_new(NULL, 0, 1, budget, pt->rk->tmpdir);
	if ((sp = kn_tmp_open(pt->spool_path, "rb")) == NULL)
		kn_die_sys("%s", pt->spool_path);
	for (at = 0; (n = numkey_read(pt, sp, pt->spool_path, recs,
	    &pt->acct.bread, buf)) > 0; at += n)
		for (i = 0; i < n; i++) {
			mond_hex_put(line, numkey_get(recs + i * dw,
			    dm->hword, dm->kword), 16);
			mond_hex_put(line + 16, at + i, 16);
			kn_sort_add(s1, line, sizeof(line));
		}
	fclose(sp);
	/* Joined with the pairs (key, position): the positions by place. */
	memset(&jn, 0, sizeof(jn));
	jn.pt = pt;
	jn.mname = pt->tcmap[c];
	if ((jn.map = kn_tmp_open(jn.mname, "rb")) == NULL)
		kn_die_sys("%s", jn.mname);
	pname = kn_tmp_new(pt->rk->tmpdir);
	jn.oname = pname;
	if ((jn.out = kn_tmp_open(pname, "wb")) == NULL)
		kn_die_sys("%s", pname);
	jn.s2 = kn_sort_new(NULL, 0, 1, budget, pt->rk->tmpdir);
	kn_sort_finish(s1, 0, join_key, &jn);
	mond_sort_done(pt, s1);
	fclose(jn.map);
	kn_sort_finish(jn.s2, 0, join_place, &jn);
	mond_sort_done(pt, jn.s2);
	if (jn.next != at)
		kn_die("internal error: %s: %llu records of %llu", pname,
		    (unsigned long long)jn.next, (unsigned long long)at);
	if (fflush(jn.out) != 0 || ferror(jn.out))
		kn_die_sys("%s: write error", pname);
	fclose(jn.out);
	/* The spool again, each record with its position. */
	nname = kn_tmp_new(pt->rk->tmpdir);
	if ((sp = kn_tmp_open(pt->spool_path, "rb")) == NULL)
		kn_die_sys("%s", pt->spool_path);
	if ((pf = kn_tmp_open(pname, "rb")) == NULL)
		kn_die_sys("%s", pname);
	if ((nf = kn_tmp_open(nname, "wb")) == NULL)
		kn_die_sys("%s", nname);
	for (at = 0; (n = numkey_read(pt, sp, pt->spool_path, recs,
	    &pt->acct.bread, buf)) > 0; at += n) {
		for (i = 0; i < n; i++) {
			if (fread(&p, sizeof(p), 1, pf) != 1)
				kn_die("%s: read error: the file is shorter "
				    "than written", pname);
			numkey_put(recs + i * dw, dm->hword, dm->kword, p);
		}
		pt->acct.bwritten += numkey_write(pt, nf, nname, recs, n, at);
	}
	if (fflush(nf) != 0 || ferror(nf))
		kn_die_sys("%s: write error", nname);
	fclose(nf);
	fclose(pf);
	fclose(sp);
	kn_tmp_close(pname);
	kn_tmp_close(pt->spool_path);
	pt->spool_path = nname;
}

void
rclose_reorder(struct part *pt)
{
	uint32_t *recs;
	unsigned char *buf;
	size_t c;

	if (!pt->tcord)
		return;
	recs = kn_alloc((size_t)MOND_CHUNK * pt->dwords * sizeof(uint32_t));
	buf = kn_alloc(numkey_group_bytes(pt));
	for (c = 0; c < pt->nshd; c++) {
		reorder_col(pt, c, recs, buf);
		kn_tmp_close(pt->tcmap[c]);
		pt->tcmap[c] = NULL;
		if ((pt->tcf[c] = kn_tmp_open(pt->tcpath[c], "rb")) == NULL)
			kn_die_sys("%s", pt->tcpath[c]);
	}
	free(recs);
	free(buf);
}

void
rclose_done(struct part *pt)
{
	size_t c;

	for (c = 0; pt->tchash && c < pt->nshd; c++) {
		if (pt->tcf[c] != NULL)
			fclose(pt->tcf[c]);
		pt->tcf[c] = NULL;
		kn_tmp_close(pt->tcpath[c]);
		pt->tcpath[c] = NULL;
		free(pt->tcpm[c].slot);
		pt->tcpm[c].slot = NULL;
	}
}

/* ---- the switch amid a run ------------------------------------------ */

void
rclose_switch(struct part *pt)
{
	size_t c, i, size, map = 0, before = mond_dicts_bytes(pt), after;
	kn_tclose *tc;
	const kn_dict *d;
	uint64_t k, *s;
	struct rcpos r;
	FILE *f;

	for (c = 0; c < pt->nsens; c++) {
		tc = &pt->tc[c];
		d = pt->nsens > 1 ? &pt->sdicts[c] : &pt->sens_dict;
		/* The distribution by position, as the one in memory. */
		pt->tcpath[c] = kn_tmp_new(pt->rk->tmpdir);
		if ((f = kn_tmp_open(pt->tcpath[c], "wb")) == NULL)
			kn_die_sys("%s", pt->tcpath[c]);
		for (i = 0; i < tc->m; i++) {
			r = rcpos_of(tc->C[i], tc->cum[i], tc->P[i]);
			if (fwrite(&r, sizeof(r), 1, f) != 1)
				kn_die_sys("writing temp file %s",
				    pt->tcpath[c]);
		}
		if (fflush(f) != 0 || ferror(f))
			kn_die_sys("writing temp file %s", pt->tcpath[c]);
		fclose(f);
		if ((pt->tcf[c] = kn_tmp_open(pt->tcpath[c], "rb")) == NULL)
			kn_die_sys("%s", pt->tcpath[c]);
		pt->tcm[c] = tc->m;
		pt->tcP[c] = tc->P[tc->m];
		kn_tclose_free(tc);
		/* Each value's hash to its position, in the room of the
		 * distribution's arrays. */
		for (size = 2; size < 2 * d->n; size *= 2)
			;
		s = kn_zalloc(2 * size * sizeof(uint64_t));
		pt->tcpm[c].slot = s;
		pt->tcpm[c].mask = size - 1;
		map += 2 * size * sizeof(uint64_t);
		for (i = 0; i < d->n; i++) {
			size_t at;

			k = mond_sens_key(kn_dict_get(d, (uint32_t)i));
			for (at = (size_t)k & (size - 1); s[2 * at + 1] != 0;
			    at = (at + 1) & (size - 1))
				if (s[2 * at] == k)
					mond_hash_dup(pt->dims[pt->nqi + c].name,
					    k ^ (uint64_t)1 << 63, 0);
			s[2 * at] = k;
			s[2 * at + 1] = (uint64_t)pt->tpos[c][i] + 1;
		}
		free(pt->tpos[c]);
		pt->tpos[c] = NULL;
	}
	/* Held nowhere else from here on, as mond_sens_hashed does. */
	mond_sens_drop(pt);
	for (c = 0; pt->nsens > 1 && c < pt->nsens; c++) {
		kn_dict_free(&pt->sdicts[c]);
		kn_dict_init(&pt->sdicts[c]);
	}
	pt->sens_keyed = pt->sens_hashed = pt->sens_sorted = 1;
	pt->nshd = pt->nsens;
	/* The maps in the room of the dictionaries, the rest from the
	 * nodes'. */
	after = mond_dicts_bytes(pt);
	if (map > before - after) {
		if (map - (before - after) >= pt->rk->avail / 2)
			mond_too_small(pt, "the sensitive values' positions "
			    "under --distance ordered take %zu KiB, more than "
			    "half the %zu KiB the nodes have", (map >> 10) + 1,
			    pt->rk->avail >> 10);
		pt->rk->avail -= map - (before - after);
	}
}
