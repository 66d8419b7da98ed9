/*
 * cdist.c: the lines of a cluster's tree file (cluster.c) that describe
 * the whole table, and with --closeness its distribution of the
 * sensitive values (the sdist lines), against which every node is
 * measured (Li, Li and Venkatasubramanian, ICDE 2007, §4).
 *
 * The root's cuts job counts the distribution from its first
 * quasi-identifier's groups, which hold each row once, through a sort
 * (cdist_root_*): it writes the values in their byte order, each once
 * with its rows, whatever -S.  The later cuts and solve jobs read those
 * lines again from the tree (no task holds them while it reads the
 * tree): held, as the node's values are (cdist_set), or, once the
 * node's values are known by their hashes (sens_sorted), into the files
 * rclose.c looks them up in (cdist_files), as Rothko-T out of core
 * keeps the table's distribution (paper 004 §2): a sort of each
 * column's values by hash, and under the ordered distance by the
 * distance's order, each node's values then checked against them and
 * its spooled groups keyed by position (cdist_positions).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "extsort.h"
#include "kanon.h"
#include "mondrian.h"
#include "rothko.h"

/* ---- tree lines ---------------------------------------------------- */

size_t
cdist_split(char *line, size_t len, kn_str **f, size_t *cap)
{
	size_t n = 0, i, start = 0;

	for (i = 0; i <= len; i++) {
		if (i < len && line[i] != '\t')
			continue;
		*f = kn_grow(*f, cap, n, sizeof(kn_str), 16);
		(*f)[n].p = line + start;
		(*f)[n].n = i - start;
		if (i < len)
			line[i] = '\0';
		n++;
		start = i + 1;
	}
	return n;
}

uint64_t
cdist_u64(const kn_str *f, const kn_reader *r, const char *what)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (f->p[i] < '0' || f->p[i] > '9' || v > (UINT64_MAX - 9) / 10)
			kn_die("%s:%llu: '%.*s' is not %s", r->name,
			    (unsigned long long)r->lineno, (int)f->n, f->p,
			    what);
		v = v * 10 + (uint64_t)(f->p[i] - '0');
	}
	if (f->n == 0)
		kn_die("%s:%llu: an empty field, not %s", r->name,
		    (unsigned long long)r->lineno, what);
	return v;
}

uint64_t
cdist_digest_line(uint64_t x, const char *p, size_t n)
{
	return (x ^ kn_hash(p, n)) * 0x9e3779b97f4a7c15ULL;
}

uint64_t
cdist_digest_end(uint64_t x)
{
	return kn_hash_mix(x);
}

int
cdist_table_line(const char *p, size_t n)
{
	return (n > 7 && memcmp(p, "domain\t", 7) == 0) ||
	    (n > 6 && memcmp(p, "scale\t", 6) == 0) ||
	    (n > 6 && memcmp(p, "sdist\t", 6) == 0);
}

uint64_t
cdist_sdist(const struct part *pt, kn_str *f, size_t nf, const kn_reader *r,
    kn_str *v)
{
	size_t ns = pt->nsens > 0 ? pt->nsens : 1, i;
	uint64_t c;

	if (!pt->req.hast || nf != 2 + ns ||
	    (c = cdist_u64(&f[1], r, "a count")) == 0)
		kn_die("%s:%llu: a bad sdist line", r->name,
		    (unsigned long long)r->lineno);
	for (i = 3; i < nf; i++)	/* the tabs back */
		((char *)f[i - 1].p)[f[i - 1].n] = '\t';
	v->p = f[2].p;
	v->n = (size_t)(f[nf - 1].p + f[nf - 1].n - f[2].p);
	return c;
}

/* Calls fn(ctx, value, rows, reader) for each sdist line: of the tree,
 * to its line hend, the count of lines and the digest of the table's
 * lines to *n and *dig; or with dr of the root's temp file. */
static void
sdist_each(struct part *pt, struct cdist_root *dr,
    void (*fn)(void *, kn_str, uint64_t, const kn_reader *), void *ctx,
    uint64_t *n, uint64_t *dig)
{
	const struct cluster_tree *tr = &pt->cl->tree;
	kn_reader r;
	kn_str *f = NULL, v;
	size_t cap = 0, nf, lcap = 0;
	uint64_t hx = CDIST_DIGEST0, c;
	char *line = NULL;
	ssize_t len;

	*n = 0;
	if (dr != NULL) {
		memset(&r, 0, sizeof(r));
		r.name = "the root's distribution (a temp file)";
		if (fflush(dr->f) != 0 || fseeko(dr->f, 0, SEEK_SET) != 0)
			kn_die_sys("%s", dr->path);
	} else
		kn_reader_open(&r, tr->path);
	for (;;) {
		if (dr != NULL) {
			if ((len = getline(&line, &lcap, dr->f)) <= 0)
				break;
			r.line = line;
			r.len = (size_t)len - 1;
			r.lineno++;
		} else if (r.lineno >= tr->hend || !kn_getline(&r))
			break;
		if (!cdist_table_line(r.line, r.len))
			continue;
		hx = cdist_digest_line(hx, r.line, r.len);
		if (!(r.len > 6 && memcmp(r.line, "sdist\t", 6) == 0))
			continue;
		nf = cdist_split(r.line, r.len, &f, &cap);
		c = cdist_sdist(pt, f, nf, &r, &v);
		fn(ctx, v, c, &r);
		(*n)++;
	}
	if (dr != NULL && ferror(dr->f))
		kn_die_sys("%s: read error", dr->path);
	if (dr == NULL)
		kn_reader_close(&r);
	free(line);
	free(f);
	*dig = cdist_digest_end(hx);
}

/* Dies unless the tree's sdist lines read again were those read first. */
static void
sdist_same(const struct part *pt, uint64_t n, uint64_t dig)
{
	if (n != pt->cl->tree.nsdist || dig != pt->cl->tree.dig)
		kn_die("%s: the domain, scale and sdist lines differ from "
		    "those read first: the tree changed while the job ran",
		    pt->cl->tree.path);
}

/* ---- held ---------------------------------------------------------- */

struct held {
	struct part *pt;
	const char *job;
	size_t budget;
	uint64_t got;
};

static void
held_value(void *ctx, kn_str v, uint64_t c, const kn_reader *r)
{
	struct held *h = ctx;
	struct part *pt = h->pt;
	uint32_t x;

	if (!mond_sens_id(pt, v, &x))
		kn_die("%s:%llu: sdist: '%.*s' is not a number (--variance)",
		    r->name, (unsigned long long)r->lineno, (int)v.n, v.p);
	/* Counted once by mond_sens_id: twice, an earlier line's. */
	if (pt->scount[x] != 1)
		kn_die("%s:%llu: the sensitive value is twice in the "
		    "distribution", r->name, (unsigned long long)r->lineno);
	pt->scount[x] = c;
	if ((++h->got & 4095) == 0 || h->got == pt->cl->tree.nsdist) {
		size_t b = mond_sens_dict_bytes(pt);

		if (b > h->budget / 2) {
			char bs[32];

			mond_size(bs, sizeof(bs), b);
			pt->budget = h->budget;	/* its default */
			mond_too_small(pt, "a %s job holds the table's "
			    "distribution of the sensitive values "
			    "(--closeness: the %llu sdist lines of %s), with "
			    "its node's, which take %s, more than half of it",
			    h->job, (unsigned long long)pt->cl->tree.nsdist,
			    pt->cl->tree.path, bs);
		}
	}
}

void
cdist_set(struct part *pt, const char *id, const char *job)
{
	struct cluster_tree *tr = &pt->cl->tree;
	size_t i, n0 = pt->sens_dict.n;
	uint64_t n, dig;
	struct held h;

	if (tr->nsdist == 0)
		cdist_none(pt);
	if (pt->nscount > 0)
		memset(pt->scount, 0, pt->nscount * sizeof(uint64_t));
	h.pt = pt;
	h.job = job;
	h.budget = pt->budget ? pt->budget : (size_t)64 << 20;
	h.got = 0;
	sdist_each(pt, NULL, held_value, &h, &n, &dig);
	sdist_same(pt, n, dig);
	for (i = 0; i < n0; i++)
		if (pt->scount[i] == 0) {
			kn_str v = kn_dict_get(&pt->sens_dict, (uint32_t)i);

			cdist_missing(pt, id, v);
		}
}

void
cdist_none(const struct part *pt)
{
	kn_die("%s: no sdist lines: the table's distribution of the "
	    "sensitive values, which the root's cuts job writes with "
	    "--closeness", pt->cl->tree.path);
}

void
cdist_missing(const struct part *pt, const char *id, kn_str v)
{
	kn_die("node %s: the sensitive value '%.*s' is not in the table's "
	    "distribution in %s (was the tree grown from this table?)", id,
	    (int)v.n, v.p, pt->cl->tree.path);
}

/* ---- the root's ---------------------------------------------------- */

void
cdist_root_begin(struct part *pt, struct cdist_root *dr, size_t budget)
{
	memset(dr, 0, sizeof(*dr));
	dr->so = kn_sort_new(NULL, 0, 1, budget / 8, pt->rk->tmpdir);
}

void
cdist_root_add(struct cdist_root *dr, kn_str v, uint64_t cnt)
{
	dr->buf = kn_grow(dr->buf, &dr->cap, v.n + 17, 1, 64);
	memcpy(dr->buf, v.p, v.n);
	dr->buf[v.n] = '\t';
	mond_hex_put(dr->buf + v.n + 1, cnt, 16);
	kn_sort_add(dr->so, dr->buf, v.n + 17);
}

/* ---- (value, rows) summed by value --------------------------------- */

/* Lines "value TAB rows in 16 hex digits" sorted, each value's rows
 * added up and handed on once, in the values' byte order. */
struct vsum {
	char *prev;
	size_t pn, pcap;
	uint64_t rows;
	int any;
	void (*fn)(void *, kn_str, uint64_t);
	void *ctx;
};

static void
vsum_flush(struct vsum *vs)
{
	kn_str v;

	if (!vs->any)
		return;
	v.p = vs->prev;
	v.n = vs->pn;
	vs->fn(vs->ctx, v, vs->rows);
	vs->any = 0;
}

static void
vsum_line(const char *line, size_t len, void *ctx)
{
	struct vsum *vs = ctx;
	size_t n = len - 17;
	uint64_t c = mond_hex_get(line + n + 1, 16);

	if (vs->any && (n != vs->pn || memcmp(line, vs->prev, n) != 0))
		vsum_flush(vs);
	if (!vs->any) {
		vs->prev = kn_grow(vs->prev, &vs->pcap, n + 1, 1, 64);
		memcpy(vs->prev, line, n);
		vs->pn = n;
		vs->rows = 0;
		vs->any = 1;
	}
	if (__builtin_add_overflow(vs->rows, c, &vs->rows))
		kn_rows_overflow();
}

/* Sorts so's lines, handing each value on once to fn(ctx, v, rows). */
static void
vsum_finish(struct part *pt, kn_sorter *so,
    void (*fn)(void *, kn_str, uint64_t), void *ctx)
{
	struct vsum vs;

	memset(&vs, 0, sizeof(vs));
	vs.fn = fn;
	vs.ctx = ctx;
	kn_sort_finish(so, 0, vsum_line, &vs);
	vsum_flush(&vs);
	mond_sort_done(pt, so);
	free(vs.prev);
}

/* The root's value with its rows: an sdist line. */
static void
root_line(void *ctx, kn_str v, uint64_t rows)
{
	struct cdist_root *dr = ctx;

	if (fprintf(dr->f, "sdist\t%llu\t%.*s\n", (unsigned long long)rows,
	    (int)v.n, v.p) < 0)
		kn_die_sys("%s: write error", dr->path);
	dr->rows += rows;
}

void
cdist_root_end(struct part *pt, struct cdist_root *dr)
{
	dr->path = kn_tmp_new(pt->rk->tmpdir);
	if ((dr->f = kn_tmp_open(dr->path, "w+b")) == NULL)
		kn_die_sys("%s", dr->path);
	vsum_finish(pt, dr->so, root_line, dr);
	dr->so = NULL;
	if (fflush(dr->f) != 0 || ferror(dr->f))
		kn_die_sys("%s: write error", dr->path);
	free(dr->buf);
	dr->buf = NULL;
}

uint64_t
cdist_root_write(struct cdist_root *dr, FILE *fp, uint64_t x)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	if (dr->f == NULL)
		return x;
	if (fflush(dr->f) != 0 || fseeko(dr->f, 0, SEEK_SET) != 0)
		kn_die_sys("%s", dr->path);
	/* The lines as root_line wrote them, each ended by a newline. */
	while ((len = getline(&line, &cap, dr->f)) > 0) {
		x = cdist_digest_line(x, line, (size_t)len - 1);
		fwrite(line, 1, (size_t)len, fp);
	}
	if (ferror(dr->f))
		kn_die_sys("%s: read error", dr->path);
	free(line);
	return x;
}

void
cdist_root_free(struct cdist_root *dr)
{
	if (dr->so != NULL)
		kn_sort_free(dr->so);
	if (dr->f != NULL) {
		fclose(dr->f);
		kn_tmp_close(dr->path);
	}
	free(dr->buf);
	memset(dr, 0, sizeof(*dr));
}

/* ---- by hash: rclose.c's files ------------------------------------- */

/* Column c's values of a distribution's lines into its check (one
 * column: each value once), or into a sort that sums them (several). */
struct colfeed {
	size_t c;
	struct mond_hcheck *hc;
	kn_sorter *so;
	char *buf;
	size_t cap;
};

static void
col_value(void *ctx, kn_str v, uint64_t rows, const kn_reader *r)
{
	struct colfeed *cf = ctx;
	const char *p = v.p, *e = v.p + v.n, *tab;
	size_t c;

	(void)r;
	if (cf->so == NULL) {
		mond_hcheck_add(cf->hc, v, rows);
		return;
	}
	for (c = 0;; c++) {
		tab = memchr(p, '\t', (size_t)(e - p));
		if (c == cf->c)
			break;
		p = tab + 1;
	}
	v.p = p;
	v.n = (size_t)((tab != NULL ? tab : e) - p);
	cf->buf = kn_grow(cf->buf, &cf->cap, v.n + 17, 1, 64);
	memcpy(cf->buf, v.p, v.n);
	cf->buf[v.n] = '\t';
	mond_hex_put(cf->buf + v.n + 1, rows, 16);
	kn_sort_add(cf->so, cf->buf, v.n + 17);
}

static void
col_summed(void *ctx, kn_str v, uint64_t rows)
{
	struct colfeed *cf = ctx;

	mond_hcheck_add(cf->hc, v, rows);
}

void
cdist_files(struct part *pt, struct cdist_root *dr, uint64_t rows)
{
	size_t c, nc = pt->nsens > 1 ? pt->nsens : 1;
	const char *tmp = pt->rk->tmpdir;
	struct colfeed cf;
	uint64_t n, dig, got;

	if (dr == NULL && pt->cl->tree.nsdist == 0)
		cdist_none(pt);
	pt->tchash = 1;
	pt->tcord = pt->req.dist == KN_DIST_ORDERED;
	pt->tcn = rows;
	for (c = 0; c < nc; c++) {
		memset(&cf, 0, sizeof(cf));
		cf.c = c;
		cf.hc = mond_hcheck_new(pt, nc > 1 ? pt->cl->tree.snames[c] :
		    pt->cl->tree.sname, 0, (long)c, tmp);
		if (nc > 1)
			cf.so = kn_sort_new(NULL, 0, 1, pt->budget / 8, tmp);
		sdist_each(pt, dr, col_value, &cf, &n, &dig);
		if (dr == NULL)
			sdist_same(pt, n, dig);
		if (cf.so != NULL)
			vsum_finish(pt, cf.so, col_summed, &cf);
		free(cf.buf);
		got = mond_hcheck_end(pt, cf.hc, (long)c, tmp);
		if (got != rows)
			kn_die("%s: the sdist lines count %llu rows, the "
			    "table %llu: the tree changed while the job ran",
			    pt->cl->tree.path, (unsigned long long)got,
			    (unsigned long long)rows);
	}
}

/* ---- by position: the ordered distance ----------------------------- */

/* The join of a column's spooled keys (sorted, with each group's place)
 * with tcmap's pairs (hash, position), then the spool written again in
 * the groups' order with the positions. */
struct pjoin {
	const struct part *pt;
	const char *id;
	size_t c;
	FILE *map;
	uint64_t mr[2];
	int mhave;
	kn_sorter *s2;
	struct cspool *old, *nsp;
	uint64_t next;
};

static void
pjoin_key(const char *line, size_t len, void *ctx)
{
	struct pjoin *pj = ctx;
	uint64_t k = mond_hex_get(line, 16);
	char out[32];

	(void)len;
	/* csens.c's check found each value first, by name. */
	if (!rclose_seek(pj->map, pj->mr, &pj->mhave, k))
		kn_die("internal error: node %s: a value of %s is not in the "
		    "table's distribution", pj->id, pj->pt->nsens > 1 ?
		    pj->pt->cl->tree.snames[pj->c] : pj->pt->cl->tree.sname);
	memcpy(out, line + 16, 16);
	mond_hex_put(out + 16, pj->mr[1], 16);
	kn_sort_add(pj->s2, out, sizeof(out));
}

static void
pjoin_place(const char *line, size_t len, void *ctx)
{
	struct pjoin *pj = ctx;
	struct cgroup g;

	(void)len;
	if (mond_hex_get(line, 16) != pj->next++ ||
	    !cstream_next(pj->old, &g))
		kn_die("internal error: %s: a group missing", pj->old->path);
	pj->old->keys[pj->c] = mond_hex_get(line + 16, 16);
	if (pj->c == 0)
		g.sk = pj->old->keys[0];
	cstream_put(pj->nsp, &g, pj->old->keys, pj->old->scs);
}

void
cdist_positions(struct part *pt, struct cspool *sp, const char *id)
{
	size_t c, b = pt->budget / 4;
	const char *tmp = pt->rk->tmpdir;
	struct cgroup g;
	struct pjoin pj;
	struct cspool nsp;
	kn_sorter *s1;
	uint64_t at;
	char line[32];

	for (c = 0; c < pt->nshd; c++) {
		s1 = kn_sort_new(NULL, 0, 1, b, tmp);
		cstream_rewind(sp);
		for (at = 0; cstream_next(sp, &g); at++) {
			mond_hex_put(line, sp->keys[c], 16);
			mond_hex_put(line + 16, at, 16);
			kn_sort_add(s1, line, sizeof(line));
		}
		memset(&pj, 0, sizeof(pj));
		pj.pt = pt;
		pj.id = id;
		pj.c = c;
		if ((pj.map = kn_tmp_open(pt->tcmap[c], "rb")) == NULL)
			kn_die_sys("%s", pt->tcmap[c]);
		pj.s2 = kn_sort_new(NULL, 0, 1, b, tmp);
		kn_sort_finish(s1, 0, pjoin_key, &pj);
		mond_sort_done(pt, s1);
		fclose(pj.map);
		cstream_begin(pt, &nsp, sp->nk, sp->nv);
		cstream_rewind(sp);
		pj.old = sp;
		pj.nsp = &nsp;
		kn_sort_finish(pj.s2, 0, pjoin_place, &pj);
		mond_sort_done(pt, pj.s2);
		if (pj.next != sp->n)
			kn_die("internal error: %s: %llu groups of %llu",
			    sp->path, (unsigned long long)pj.next,
			    (unsigned long long)sp->n);
		cstream_end(pt, sp);
		*sp = nsp;
	}
	for (c = 0; c < pt->nshd; c++) {
		kn_tmp_close(pt->tcmap[c]);
		pt->tcmap[c] = NULL;
		if ((pt->tcf[c] = kn_tmp_open(pt->tcpath[c], "rb")) == NULL)
			kn_die_sys("%s", pt->tcpath[c]);
	}
}

/* ---- a node in memory (the solve job) ------------------------------ */

static int
cmp_pair(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) :
	    (x[1] < y[1] ? -1 : x[1] > y[1]);
}

int
cdist_big(const struct part *pt, size_t budget)
{
	const struct cluster_tree *tr = &pt->cl->tree;

	/* Four times the bytes of the values and of a dictionary's entry:
	 * its table, grown ahead, and what is made of each value (found by
	 * review: 85 values held at -S 128K took 46 KiB, then refused). */
	return (tr->sbytes + tr->nsdist * 64) * 4 > budget / 8;
}

void
cdist_local(struct part *pt, const char *id)
{
	size_t c, nc = pt->nsens > 1 ? pt->nsens : 1, i, m, b0;
	const kn_dict *d;
	uint64_t *pr, *key, r[2];
	const char *name;
	FILE *f;
	int have = 0;

	/* The sorts' share of the default -S, not extsort's least. */
	b0 = pt->budget;
	if (pt->budget == 0)
		pt->budget = (size_t)64 << 20;
	cdist_files(pt, NULL, pt->cl->tree.srows);
	pt->budget = b0;
	pt->nshd = nc;
	for (c = 0; c < nc; c++) {
		d = nc > 1 ? &pt->sdicts[c] : &pt->sens_dict;
		m = d->n;
		pr = kn_alloc((m + 1) * 2 * sizeof(uint64_t));
		key = kn_alloc((m + 1) * sizeof(uint64_t));
		for (i = 0; i < m; i++) {
			pr[2 * i] = mond_sens_key(kn_dict_get(d, (uint32_t)i));
			pr[2 * i + 1] = i;
		}
		qsort(pr, m, 2 * sizeof(uint64_t), cmp_pair);
		/* Each value among the table's: its hash, or its position
		 * (tcmap's pairs). */
		name = pt->tcord ? pt->tcmap[c] : pt->tcpath[c];
		if ((f = kn_tmp_open(name, "rb")) == NULL)
			kn_die_sys("%s", name);
		for (i = 0, have = 0; i < m; i++) {
			if (!rclose_seek(f, r, &have, pr[2 * i]))
				cdist_missing(pt, id,
				    kn_dict_get(d, (uint32_t)pr[2 * i + 1]));
			key[pr[2 * i + 1]] = pt->tcord ? r[1] : r[0];
		}
		fclose(f);
		free(pr);
		if (pt->tcord) {
			kn_tmp_close(pt->tcmap[c]);
			pt->tcmap[c] = NULL;
			if ((pt->tcf[c] = kn_tmp_open(pt->tcpath[c], "rb")) ==
			    NULL)
				kn_die_sys("%s", pt->tcpath[c]);
		}
		free(pt->rk->lkey[c]);
		pt->rk->lkey[c] = key;
		pt->rk->nlkey[c] = m;
	}
	rclose_local(pt);
}
