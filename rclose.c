/*
 * rclose.c: t-closeness under the equal distance (Li, Li and
 * Venkatasubramanian, ICDE 2007, §4; kanon(7), T-CLOSENESS) of the
 * parts of a partition out of core whose sensitive values are keyed by
 * hash and held nowhere (tchash, mondrian.h): the whole table's
 * distribution is a temp file of records (hash, rows) in hash order,
 * written by mond_hash_check, in which a part's values are looked up.
 *
 * A part of n rows whose value v has c_v of them, C_v in the table's N,
 * is at the distance S / (2 n N) with
 *
 *     S = sum over the part's values of |c_v N - C_v n|
 *         + (N - sum over the part's values of C_v) n,
 *
 * the values absent from the part adding C_v n: kn_tclose_ok's sum,
 * term for term (req.c), so that a part passes here exactly when it
 * passes in memory.  The terms need n first, then each of the part's
 * values with its count, in any order: rsens.c adds them from its sorts
 * of a node on disk (its parts' values come in hash order, so the
 * look-ups walk the file forward), and a node in memory looks its
 * values up once, in hash order, into a kn_tclose of its own
 * (rclose_local).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kanon.h"
#include "mondrian.h"
#include "rothko.h"

/* The records a look-up reads at once: 32 KiB. */
#define LOOK_BUF 2048

void
rclose_open(struct part *pt, size_t c, struct rclook *lk)
{
	off_t end;

	memset(lk, 0, sizeof(*lk));
	lk->name = pt->tcpath[c];
	if ((lk->f = kn_tmp_open(lk->name, "rb")) == NULL)
		kn_die_sys("%s", lk->name);
	lk->fd = fileno(lk->f);
	if ((end = lseek(lk->fd, 0, SEEK_END)) < 0)
		kn_die_sys("%s", lk->name);
	lk->n = (uint64_t)end / sizeof(lk->buf[0]);
	lk->buf = kn_alloc(LOOK_BUF * sizeof(lk->buf[0]));
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
	size_t want = (size_t)n * sizeof(lk->buf[0]), got = 0;
	ssize_t w;

	while (got < want) {
		w = pread(lk->fd, (char *)buf + got, want - got,
		    (off_t)(at * sizeof(lk->buf[0]) + got));
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			kn_die_sys("%s: read error", lk->name);
		if (w == 0)
			kn_die("%s: read error: the file is shorter than "
			    "written", lk->name);
		got += (size_t)w;
	}
}

/* The hash of record i. */
static uint64_t
look_hash(struct rclook *lk, uint64_t i)
{
	uint64_t r[2];

	look_read(lk, r, i, 1);
	return r[0];
}

uint64_t
rclose_rows(struct rclook *lk, uint64_t h)
{
	uint64_t lo, hi, step;
	size_t a, b;

	/* Not in the buffer: from its end when h is past it (forward,
	 * by steps that double), else from the start of the file. */
	if (lk->bn == 0 || h < lk->buf[0][0] || h > lk->buf[lk->bn - 1][0]) {
		lo = lk->bn > 0 && h > lk->buf[lk->bn - 1][0] ?
		    lk->b0 + lk->bn : 0;
		for (hi = lo, step = 1; hi < lk->n && look_hash(lk, hi) < h;
		    step *= 2) {
			lo = hi + 1;
			hi = lo + step;
		}
		if (hi > lk->n)
			hi = lk->n;
		/* The first record of hash h or more is in [lo, hi]. */
		while (hi - lo > LOOK_BUF / 2) {
			uint64_t mid = lo + (hi - lo) / 2;

			if (look_hash(lk, mid) < h)
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

		if (lk->buf[mid][0] < h)
			a = mid + 1;
		else
			b = mid;
	}
	if (a == lk->bn || lk->buf[a][0] != h)
		kn_die("internal error: %s: a sensitive value's hash %016llx "
		    "is not among the table's", lk->name,
		    (unsigned long long)h);
	return lk->buf[a][1];
}

void
rclose_add(const struct part *pt, struct rcsum *s, uint64_t c, uint64_t C,
    uint64_t n)
{
	kn_tclose_equal_val(&s->S, c, C, pt->tcn, n);
	s->in += C;
}

int
rclose_ok(const struct part *pt, struct rcsum *s, uint64_t n, long double *d)
{
	kn_tclose tc;

	memset(&tc, 0, sizeof(tc));
	tc.dist = KN_DIST_EQUAL;
	tc.tm = pt->req.tm;
	tc.ts = pt->req.ts;
	tc.N = pt->tcn;
	tc.norm = 2;
	if (s->in > pt->tcn)
		kn_die("internal error: a part's values have more rows in the "
		    "table than it");
	kn_tclose_equal_rest(&s->S, s->in, pt->tcn, n);
	return kn_tclose_judge(&tc, s->S, n, d);
}

/* ---- a node in memory ---------------------------------------------- */

static int
cmp_key_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void
rclose_local(struct part *pt)
{
	struct rclook lk;
	uint64_t *pr, *C;
	size_t c, i, m;

	if (!pt->tchash)
		return;
	for (c = 0; c < pt->nshd; c++) {
		m = (size_t)pt->rk->nlkey[c];
		pr = kn_alloc((m + 1) * 2 * sizeof(uint64_t));
		C = kn_alloc((m + 1) * sizeof(uint64_t));
		for (i = 0; i < m; i++) {
			pr[2 * i] = pt->rk->lkey[c][i];
			pr[2 * i + 1] = i;
		}
		qsort(pr, m, 2 * sizeof(uint64_t), cmp_key_id);
		rclose_open(pt, c, &lk);
		for (i = 0; i < m; i++)
			C[pr[2 * i + 1]] = rclose_rows(&lk, pr[2 * i]);
		rclose_close(&lk);
		free(pr);
		kn_tclose_free(&pt->tc[c]);
		kn_tclose_init(&pt->tc[c], &pt->req, C, m, NULL);
		/* The distance is to the whole table's rows, not the
		 * node's. */
		pt->tc[c].N = pt->tcn;
		free(C);
		free(pt->tpos[c]);
		pt->tpos[c] = kn_alloc((m + 1) * sizeof(uint32_t));
		for (i = 0; i < m; i++)
			pt->tpos[c][i] = (uint32_t)i;
	}
}

void
rclose_local_free(struct part *pt)
{
	size_t c;

	if (!pt->tchash)
		return;
	for (c = 0; c < pt->nshd; c++) {
		kn_tclose_free(&pt->tc[c]);
		free(pt->tpos[c]);
		pt->tpos[c] = NULL;
	}
}

size_t
rclose_row_bytes(const struct part *pt)
{
	/* The pairs sorted, the counts, the kn_tclose's copy, tpos. */
	return pt->tchash ? pt->nshd * (2 * sizeof(uint64_t) +
	    2 * sizeof(uint64_t) + sizeof(uint32_t)) : 0;
}
