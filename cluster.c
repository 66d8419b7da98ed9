/*
 * cluster.c: partition on a cluster (--job): Rothko-T (paper 004 §2) as
 * the map and reduce steps of Hadoop Streaming or Spark's pipe(), around
 * a tree file; see partition(1) and the mapred script.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster.h"
#include "extsort.h"
#include "kanon.h"
#include "mondrian.h"
#include "rothko.h"

/* ---- on a cluster: Rothko-T as map and reduce jobs (004 §2) ------- */

/*
 * The jobs share a tree file, which reducers' outputs are appended to.
 * One record a line, tab-separated:
 *
 *	sig	OPTS		the options, columns and hierarchies the
 *				tree is grown with
 *	digest	H		of the domain, scale and sdist lines
 *				(root_head), which follow the sig
 *	domain	Q MIN MAX S	numeric QI Q: the table's range and scale
 *	scale	s|t F		the scale of the sensitive value, the target
 *	sdist	N V ...		with --closeness: N rows of the table have
 *				the sensitive value V (with several columns,
 *				one field each)
 *	size	ID N		node ID holds N rows
 *	cut	ID Q V		rows with Q <= V go to ID.0, the others ID.1
 *	hcut	ID Q LV A ...	rows under A (a node at level LV-1 of Q's
 *				hierarchy) go to ID.0, under the next ID.1 ...
 *	region	ID N ...	node ID is a class: its region
 *
 * The groups lines are "ID, QI number, value, sensitive value, target,
 * count", and "ID, n, H, , , rows" for the node's rows, H the digest of
 * the options (sigh), which the cuts job checks.  With several
 * sensitive columns the sensitive value is their values in one field,
 * each backslash doubled, joined by a backslash and a 't' (sens_field).
 *
 * The root is r.  A node without a cut or a region is open while it
 * holds more than --fit-rows rows: a level job (groups, then cuts)
 * counts its frequency groups and cuts it as mond_partition() would.  Then
 * the rows of each node that fits go to one reducer (rows, then solve),
 * which partitions it in memory and writes its subtree; classes routes
 * every row to its class, numbered depth-first as in memory, and
 * regions writes the regions file.  Every choice is made on exact
 * counts with the same rules, so the output is the one partition makes
 * on one machine.
 */

const char *const cluster_job_names[] = { "", "groups", "cuts", "rows",
    "solve", "classes", "regions", "open", NULL };

/* Whether a node of n rows is partitioned in memory by a solve job. */
static int
fits_cluster(struct part *pt, uint64_t n)
{
	return n <= (pt->rk->fit_rows ? pt->rk->fit_rows : 1000000);
}

/* The node with id s (n bytes), added if new. */
static uint32_t
cnode_id(struct part *pt, const char *s, size_t n)
{
	uint32_t id = kn_dict_intern(&pt->cl->tree.ids, s, n);

	if (id >= pt->cl->tree.cap) {
		size_t nc = pt->cl->tree.cap ? 2 * pt->cl->tree.cap : 64;

		pt->cl->tree.v =
		    kn_realloc(pt->cl->tree.v, nc * sizeof(struct cnode));
		memset(pt->cl->tree.v + pt->cl->tree.cap, 0,
		    (nc - pt->cl->tree.cap) * sizeof(struct cnode));
		pt->cl->tree.cap = nc;
	}
	return id;
}

/* Whether node c waits for a level job (one that fits waits for the
 * solve job). */
static int
cnode_open(struct part *pt, const struct cnode *c)
{
	return c->kind == CN_OPEN && !(c->hasn && fits_cluster(pt, c->n));
}

/* The QI named s, or die naming the tree line. */
static size_t
tree_dim(struct part *pt, const kn_str *f, const kn_reader *r)
{
	size_t j;

	for (j = 0; j < pt->nqi; j++)
		if (strlen(pt->dims[j].name) == f->n &&
		    memcmp(pt->dims[j].name, f->p, f->n) == 0)
			return j;
	kn_die("%s:%llu: '%.*s' is not a quasi-identifier", r->name,
	    (unsigned long long)r->lineno, (int)f->n, f->p);
}

/* A node defined by a tree line, which must not be defined already. */
static struct cnode *
tree_define(struct part *pt, const kn_str *f, const kn_reader *r, int kind)
{
	uint32_t id = cnode_id(pt, f->p, f->n);
	struct cnode *c = &pt->cl->tree.v[id];

	if (c->kind != CN_OPEN)
		kn_die("%s:%llu: node %.*s is defined twice (a level "
		    "appended twice?)", r->name, (unsigned long long)r->lineno,
		    (int)f->n, f->p);
	c->kind = kind;
	return c;
}

/* Whether the fields f[0..nf) after a region line's count n are a
 * region of the columns: a hierarchy's label, or a range min, max and
 * mean (numbers, dates with --date; empty when all n are missing) and
 * with missing values their count.  A tree edited by hand, or cut
 * short, must not make a regions file recode cannot read.  With rb,
 * the bounds of each column (struct rbound) go there. */
static int
tree_region_ok(struct part *pt, const kn_str *f, size_t nf, uint64_t n,
    struct rbound *rb)
{
	size_t j, k = 0, i;
	int l, sc[3];
	kn_i128 m[3];
	int64_t d;
	uint64_t miss;

	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j];

		if (dm->h != NULL) {
			/* A node at some level, its id at each; '*' is the
			 * implicit root, whatever else it is. */
			int star, node = 0;
			int32_t at[KN_HIER_MAXLEVELS];
			size_t an = (size_t)dm->h->nlevels * sizeof(int32_t);

			if (k >= nf)
				return 0;
			star = f[k].n == 1 && f[k].p[0] == '*';
			for (l = 0; l < dm->h->nlevels; l++)
				node |= (at[l] = (int32_t)kn_dict_find(
				    &dm->h->lab[l], f[k].p, f[k].n)) >= 0;
			if (!node && !star)
				return 0;
			if (rb != NULL && !star)
				memcpy(rb[j].at = kn_alloc(an), at, an);
			k++;
			continue;
		}
		if (k + 3 + (dm->miss != 0) > nf)
			return 0;
		miss = 0;
		if (dm->miss && (f[k + 3].n == 0 || f[k + 3].n > 19 ||
		    f[k + 3].p[strspn(f[k + 3].p, "0123456789")] != '\0' ||
		    (miss = strtoull(f[k + 3].p, NULL, 10)) > n))
			return 0;
		if (f[k].n == 0 || miss == n) {
			/* All missing: the range is empty, and only then. */
			if (f[k].n != 0 || f[k + 1].n != 0 || f[k + 2].n != 0 ||
			    miss != n)
				return 0;
		} else {
			for (i = 0; i < 3; i++) {
				sc[i] = 0;
				if (dm->isdate) {
					if (kn_date_parse(f[k + i].p, f[k + i].n,
					    &d) == KN_DATE_NONE)
						return 0;
					m[i] = d;
				} else if (!kn_dec_parse(f[k + i].p, f[k + i].n,
				    &m[i], &sc[i]))
					return 0;
			}
			if (kn_dec_cmp(m[0], sc[0], m[2], sc[2]) > 0 ||
			    kn_dec_cmp(m[2], sc[2], m[1], sc[1]) > 0)
				return 0;
			if (rb != NULL) {
				rb[j].lo = m[0];
				rb[j].slo = sc[0];
				rb[j].hi = m[1];
				rb[j].shi = sc[1];
			}
		}
		k += 3 + (dm->miss != 0);
	}
	return k == nf;
}

/* Reads the tree file (none yet: an empty tree, the root open). */
static void
tree_load(struct part *pt, const char *path)
{
	kn_reader r;
	kn_str *f = NULL;
	size_t cap = 0, nf, i, k;
	uint32_t id, n;
	/* The digest of the root's lines of the table, and the one read. */
	int hassig = 0, hasdig = 0, any = 0;
	uint64_t dig = 0, hx = CDIST_DIGEST0;
	struct stat st;
	char last;

	kn_dict_init(&pt->cl->tree.ids);
	pt->cl->tree.path = path;
	cnode_id(pt, "r", 1);
	kn_reader_open(&r, path);
	while (kn_getline(&r)) {
		struct cnode *c = NULL;
		const char *ty, *tab;
		char *rest = NULL;

		if (pt->cl->tree.regions && r.len > 7 &&
		    memcmp(r.line, "region\t", 7) == 0 &&
		    (tab = memchr(r.line + 7, '\t', r.len - 7)) != NULL)
			rest = kn_strdup(tab + 1);
		if (cdist_table_line(r.line, r.len)) {
			hx = cdist_digest_line(hx, r.line, r.len);
			pt->cl->tree.hend = r.lineno;
		}
		any = 1;
		nf = cdist_split(r.line, r.len, &f, &cap);
		ty = f[0].p;
		if (nf == 2 && strcmp(ty, "sig") == 0) {
			if (strcmp(f[1].p, pt->cl->tree.sig) != 0)
				kn_die("%s:%llu: the tree was grown with other "
				    "options (%s) than these (%s)", r.name,
				    (unsigned long long)r.lineno, f[1].p,
				    pt->cl->tree.sig);
			if (hassig++)
				kn_die("%s:%llu: a second sig line (the root's "
				    "level appended twice?)", r.name,
				    (unsigned long long)r.lineno);
		} else if (nf == 2 && strcmp(ty, "digest") == 0) {
			char *e;

			errno = 0;
			dig = strtoull(f[1].p, &e, 16);
			if (hasdig++)
				kn_die("%s:%llu: a second digest line (the "
				    "root's level appended twice?)", r.name,
				    (unsigned long long)r.lineno);
			if (f[1].n != 16 || *e != '\0' || errno)
				kn_die("%s:%llu: a bad digest line", r.name,
				    (unsigned long long)r.lineno);
		} else if (nf == 5 && strcmp(ty, "domain") == 0) {
			struct dim *dm = &pt->dims[tree_dim(pt, &f[1], &r)];
			int64_t a, b;
			uint64_t S = cdist_u64(&f[4], &r, "a scale");
			int sa, sb;

			if (dm->h != NULL || S > 18 ||
			    !mond_parse_num(f[2].p, f[2].n, &a, &sa) ||
			    !mond_parse_num(f[3].p, f[3].n, &b, &sb) ||
			    sa > (int)S || sb > (int)S ||
			    kn_dec_cmp(a, sa, b, sb) > 0 ||
			    __builtin_mul_overflow(
				a, (int64_t)kn_pow10(S - sa), &dm->gmn) ||
			    __builtin_mul_overflow(
				b, (int64_t)kn_pow10(S - sb), &dm->gmx))
				kn_die("%s:%llu: a bad domain line", r.name,
				    (unsigned long long)r.lineno);
			dm->fS = (int)S;
			dm->hasg = 1;
		} else if (nf == 3 && strcmp(ty, "scale") == 0) {
			uint64_t F = cdist_u64(&f[2], &r, "a scale");

			if (F > 38 || (strcmp(f[1].p, "s") != 0 &&
			    strcmp(f[1].p, "t") != 0))
				kn_die("%s:%llu: a bad scale line", r.name,
				    (unsigned long long)r.lineno);
			if (strcmp(f[1].p, "s") == 0)
				pt->sens_F = (int)F;
			else
				pt->targ_F = (int)F;
		} else if (nf >= 3 && strcmp(ty, "sdist") == 0) {
			/* Checked and counted: only the cuts and solve jobs
			 * read the values, again (cdist.c). */
			kn_str v;
			uint64_t c = cdist_sdist(pt, f, nf, &r, &v);

			if (__builtin_add_overflow(pt->cl->tree.srows, c,
			    &pt->cl->tree.srows))
				kn_rows_overflow();
			pt->cl->tree.sbytes += v.n;
			pt->cl->tree.nsdist++;
		} else if (nf == 3 && strcmp(ty, "size") == 0) {
			uint64_t v = cdist_u64(&f[2], &r, "a row count");

			id = cnode_id(pt, f[1].p, f[1].n);
			c = &pt->cl->tree.v[id];
			if (c->hasn && c->n != v)
				kn_die("%s:%llu: node %s: %llu rows, but %llu "
				    "before (a level appended twice, or the "
				    "tree edited?)", r.name,
				    (unsigned long long)r.lineno, f[1].p,
				    (unsigned long long)v,
				    (unsigned long long)c->n);
			c->n = v;
			c->hasn = 1;
		} else if (nf == 4 && strcmp(ty, "cut") == 0) {
			size_t j = tree_dim(pt, &f[2], &r);
			int64_t m;
			int sc;

			/* Within the table's range, below its largest. */
			if (pt->dims[j].h != NULL ||
			    !mond_parse_num(f[3].p, f[3].n, &m, &sc) ||
			    (pt->dims[j].hasg && (kn_dec_cmp(m, sc,
			    pt->dims[j].gmn, pt->dims[j].fS) < 0 ||
			    kn_dec_cmp(m, sc, pt->dims[j].gmx,
			    pt->dims[j].fS) >= 0)))
				kn_die("%s:%llu: a bad cut", r.name,
				    (unsigned long long)r.lineno);
			c = tree_define(pt, &f[1], &r, CN_CUT);
			c->dim = j;
			c->tm = m;
			c->tsc = sc;
			c->nk = 2;
		} else if (nf >= 6 && strcmp(ty, "hcut") == 0) {
			size_t j = tree_dim(pt, &f[2], &r);
			kn_hier *h = pt->dims[j].h;
			uint64_t lv = cdist_u64(&f[3], &r, "a level");

			if (h == NULL || lv < 1 || lv > (uint64_t)h->nlevels)
				kn_die("%s:%llu: a bad hierarchy cut", r.name,
				    (unsigned long long)r.lineno);
			c = tree_define(pt, &f[1], &r, CN_HCUT);
			c->dim = j;
			c->lv = (int)lv;
			c->nk = nf - 4;
			c->clab = kn_alloc(c->nk * sizeof(uint32_t));
			for (k = 0; k < c->nk; k++) {
				int64_t x = kn_dict_find(&h->lab[lv - 1],
				    f[4 + k].p, f[4 + k].n);

				if (x < 0)
					kn_die(
					    "%s:%llu: '%.*s' is not at level "
					    "%d of the hierarchy of %s",
					    r.name,
					    (unsigned long long)r.lineno,
					    (int)f[4 + k].n, f[4 + k].p,
					    (int)lv - 1, pt->dims[j].name);
				c->clab[k] = (uint32_t)x;
			}
		} else if (nf >= 3 && strcmp(ty, "region") == 0) {
			uint64_t v = cdist_u64(&f[2], &r, "a row count");

			c = tree_define(pt, &f[1], &r, CN_CLASS);
			/* A class of its node's rows, at least k. */
			if ((c->hasn && c->n != v) || v < pt->req.k)
				kn_die("%s:%llu: node %s: a region of %llu rows, "
				    "but %s %llu", r.name,
				    (unsigned long long)r.lineno, f[1].p,
				    (unsigned long long)v, v < pt->req.k ?
				    "a class holds at least -k," : "the node "
				    "holds", (unsigned long long)(v <
				    pt->req.k ? pt->req.k : c->n));
			c->n = v;
			if (pt->cl->tree.classes)
				c->rb = kn_zalloc(pt->nqi *
				    sizeof(struct rbound));
			if ((pt->cl->tree.regions || pt->cl->tree.classes) &&
			    !tree_region_ok(pt, f + 3, nf - 3, c->n, c->rb))
				kn_die("%s:%llu: a bad region line: not the "
				    "range or node of each quasi-identifier",
				    r.name, (unsigned long long)r.lineno);
			c->hasn = 1;
			c->region = rest;
			rest = NULL;
		} else
			kn_die("%s:%llu: not a line of a partition tree",
			    r.name, (unsigned long long)r.lineno);
		free(rest);
		if (c != NULL && c->nk > 0 && c->kid == NULL) {
			c->kid = kn_alloc(c->nk * sizeof(uint32_t));
			for (k = 0; k < c->nk; k++)
				c->kid[k] = UINT32_MAX;
		}
	}
	/* Every job's output ends its lines: a last line without its
	 * newline was cut short. */
	if (fstat(r.fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (pread(r.fd, &last, 1, st.st_size - 1) != 1 || last != '\n'))
		kn_die("%s: the last line has no newline: the tree was cut "
		    "short (a job's output lost in part?)", path);
	kn_reader_close(&r);
	free(f);
	/* The root's cuts job wrote the sig, the table's lines and their
	 * digest first: without them, or with those lines changed, the
	 * tree is not one it grew. */
	if (any && (!hassig || !hasdig))
		kn_die("%s: no %s line: the tree must begin with the root's "
		    "cuts job's output (a tree edited, or grown by another "
		    "version of partition?)", path, hassig ? "digest" : "sig");
	if (hasdig && cdist_digest_end(hx) != dig)
		kn_die("%s: the domain, scale and sdist lines are not those "
		    "the root's cuts job wrote (their digest differs): the "
		    "tree was edited", path);
	pt->cl->tree.dig = dig;
	/* Each node but the root is kid i of the node its id extends. */
	n = (uint32_t)pt->cl->tree.ids.n;
	for (id = 1; id < n; id++) {
		kn_str s = kn_dict_get(&pt->cl->tree.ids, id);
		const char *dot = NULL;
		int64_t p = -1;
		uint64_t x = 0;

		for (i = s.n; i-- > 0;)
			if (s.p[i] == '.') {
				dot = s.p + i;
				break;
			}
		if (dot != NULL)
			p = kn_dict_find(
			    &pt->cl->tree.ids, s.p, (size_t)(dot - s.p));
		for (i = dot != NULL ? (size_t)(dot - s.p) + 1 : s.n; i < s.n;
		    i++)
			x = s.p[i] >= '0' && s.p[i] <= '9' && x < 1u << 30 ?
			    x * 10 + (uint64_t)(s.p[i] - '0') : UINT64_MAX;
		/* Kid numbers are written without leading zeros. */
		if (p < 0 || dot + 1 == s.p + s.n ||
		    x >= pt->cl->tree.v[p].nk ||
		    (dot[1] == '0' && dot + 2 != s.p + s.n) ||
		    pt->cl->tree.v[p].kid[x] != UINT32_MAX)
			kn_die("%s: node %.*s lies under no cut of the tree",
			    path, (int)s.n, s.p);
		pt->cl->tree.v[p].kid[x] = id;
		pt->cl->tree.v[id].parent = (uint32_t)p;
	}
}

/* Parses the QIs of the current row of t into rv. */
static void
parse_row(struct part *pt, kn_table *t)
{
	const char *err;
	size_t j;

	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j];
		kn_str v = t->f[dm->col];

		if (dm->h != NULL) {
			int64_t id = kn_hier_leaf(dm->h, v.p, v.n, &err);

			if (id < 0)
				kn_table_fail(t, dm->col, "'%.*s': %s",
				    (int)v.n, v.p, err);
			pt->cl->rowval[j].leaf = (uint32_t)id;
		} else if (kn_missing(v.p, v.n))
			kn_table_fail(t, dm->col, "'%.*s' is a missing value, "
			    "which the --job steps do not take in a numeric "
			    "quasi-identifier: run partition on one machine, "
			    "or give the column a hierarchy (kanon(7), MISSING "
			    "VALUES)", (int)v.n, v.p);
		else if (!mond_parse_num(v.p, v.n, &pt->cl->rowval[j].m,
			       &pt->cl->rowval[j].sc))
			kn_table_fail(t, dm->col, "'%.*s' %s", (int)v.n, v.p,
			    mond_num_error(v.p, v.n));
	}
}

/* Lays the tree out for route_tree(). */
static void
route_build(struct part *pt)
{
	uint32_t *st, n = 1, i;
	size_t ns = 0, k, ne = 1;

	/* An entry per node and per missing kid. */
	for (i = 0; i < pt->cl->tree.ids.n; i++)
		ne += pt->cl->tree.v[i].nk;
	pt->cl->rnodes = kn_zalloc((ne + 1) * sizeof(struct rnode));
	st = kn_alloc((ne + 1) * sizeof(uint32_t));
	pt->cl->rnodes[0].id = 0;
	st[ns++] = 0;
	while (ns > 0) {
		uint32_t e = st[--ns];
		const struct cnode *c = &pt->cl->tree.v[pt->cl->rnodes[e].id];

		pt->cl->rnodes[e].kind = (uint8_t)c->kind;
		if (c->kind != CN_CUT && c->kind != CN_HCUT)
			continue;
		pt->cl->rnodes[e].dim = (uint16_t)c->dim;
		pt->cl->rnodes[e].tm = c->tm;
		pt->cl->rnodes[e].tsc = (int8_t)c->tsc;
		pt->cl->rnodes[e].nk = (uint32_t)c->nk;
		pt->cl->rnodes[e].clab = c->clab;
		pt->cl->rnodes[e].kid0 = n;
		for (k = 0; k < c->nk; k++) {
			if (c->kid[k] == UINT32_MAX) {
				/* Reached only by a row of a level cut
				 * short. */
				pt->cl->rnodes[n].kind = CN_CUT + 8;
				pt->cl->rnodes[n].id = pt->cl->rnodes[e].id;
				pt->cl->rnodes[n].nk = (uint32_t)k;
			} else
				pt->cl->rnodes[n].id = c->kid[k];
			n++;
		}
		for (k = c->nk; k-- > 0;)
			if (c->kid[k] != UINT32_MAX)
				st[ns++] = pt->cl->rnodes[e].kid0 + (uint32_t)k;
	}
	free(st);
}

/* The node of the tree the row parsed into rv lies in. */
static uint32_t
route_tree(struct part *pt, kn_table *t)
{
	const struct rnode *r = pt->cl->rnodes;
	size_t k;
	kn_str s;

	for (;;) {
		const struct rowval *v = &pt->cl->rowval[r->dim];

		if (r->kind == CN_CUT)
			k = (v->sc == r->tsc ? (v->m <= r->tm ? -1 : 1)
					     : kn_dec_cmp(v->m, v->sc, r->tm,
						   r->tsc)) <= 0
			    ? 0
			    : 1;
		else if (r->kind == CN_HCUT) {
			uint32_t a = kn_hier_lift(pt->dims[r->dim].h, v->leaf,
			    0, pt->cl->tree.v[r->id].lv - 1);

			for (k = 0; k < r->nk && r->clab[k] != a; k++)
				;
			if (k == r->nk) {
				size_t col = pt->dims[r->dim].col;

				s = kn_dict_get(&pt->cl->tree.ids, r->id);
				kn_table_fail(t, col, "'%.*s' lies under no "
				    "child of the cut of node %.*s in %s (was "
				    "the tree grown from this table?)",
				    (int)t->f[col].n, t->f[col].p, (int)s.n,
				    s.p, pt->cl->tree.path);
			}
		} else if (r->kind == CN_CUT + 8) {
			s = kn_dict_get(&pt->cl->tree.ids, r->id);
			kn_die("%s: node %.*s.%u is missing (a level cut "
			    "short?)", pt->cl->tree.path, (int)s.n, s.p, r->nk);
		} else
			return r->id;
		r = pt->cl->rnodes + r->kid0 + k;
	}
}

/* Numbers the classes depth-first, as mond_partition() does in memory; dies
 * if a node is still to be partitioned.  Then each node with a row count
 * must hold that many rows in the classes below it, else a line of the
 * tree was lost, doubled or edited: the rows added up from the last
 * node numbered to the first, each to its parent's (no recursion, for
 * no depth of tree takes the stack). */
static void
tree_number(struct part *pt)
{
	size_t n = pt->cl->tree.ids.n, ns = 0, no = 0, k;
	uint32_t *st = kn_alloc((n + 1) * sizeof(uint32_t));
	uint32_t *ord = kn_alloc((n + 1) * sizeof(uint32_t)), i;
	uint64_t *sum = kn_zalloc((n + 1) * sizeof(uint64_t));

	st[ns++] = 0;
	pt->cl->tree.nclass = 0;
	while (ns > 0) {
		struct cnode *c = &pt->cl->tree.v[st[--ns]];

		ord[no++] = st[ns];
		if (c->kind == CN_CLASS) {
			c->cls = ++pt->cl->tree.nclass;
			continue;
		}
		if (c->kind == CN_OPEN) {
			kn_str s = kn_dict_get(&pt->cl->tree.ids, st[ns]);

			if (c->hasn && c->n == 0 && c == pt->cl->tree.v)
				continue;	/* an empty table */
			kn_die("%s: node %.*s is not partitioned yet (%s)",
			    pt->cl->tree.path, (int)s.n, s.p,
			    cnode_open(pt, c) ? "run the groups and cuts jobs"
					      : "run the rows and solve jobs");
		}
		for (k = c->nk; k-- > 0;)
			if (c->kid[k] != UINT32_MAX)
				st[ns++] = c->kid[k];
	}
	while (no-- > 0) {
		const struct cnode *c = &pt->cl->tree.v[i = ord[no]];

		if (c->kind == CN_CLASS)
			sum[i] = c->n;
		else if (c->hasn && c->kind != CN_OPEN && sum[i] != c->n) {
			kn_str s = kn_dict_get(&pt->cl->tree.ids, i);

			kn_die("%s: node %.*s holds %llu rows, but the regions "
			    "under it %llu: a line of the tree was lost or "
			    "edited (a job's output lost?)", pt->cl->tree.path,
			    (int)s.n, s.p, (unsigned long long)c->n,
			    (unsigned long long)sum[i]);
		}
		if (i > 0 && __builtin_add_overflow(sum[c->parent], sum[i],
		    &sum[c->parent]))
			kn_die("%s: the rows of a node pass 2^64: the tree was "
			    "edited", pt->cl->tree.path);
	}
	free(st);
	free(ord);
	free(sum);
}

/* The row's sensitive value as one field of a groups line: with several
 * columns their values, each backslash doubled, joined by "\\t". */
static kn_str
sens_field(struct part *pt, const kn_table *t, char **buf, size_t *cap)
{
	kn_str v;
	size_t j, i, n = 0;

	if (pt->nsens <= 1)
		return t->f[pt->cl->tree.scol];
	for (j = 0; j < pt->nsens; j++)
		n += 2 * t->f[pt->scols[j]].n + 2;
	*buf = kn_grow(*buf, cap, n, 1, 64);
	for (n = 0, j = 0; j < pt->nsens; j++) {
		v = t->f[pt->scols[j]];
		if (j > 0) {
			(*buf)[n++] = '\\';
			(*buf)[n++] = 't';
		}
		for (i = 0; i < v.n; i++) {
			if (v.p[i] == '\\')
				(*buf)[n++] = '\\';
			(*buf)[n++] = v.p[i];
		}
	}
	v.p = *buf;
	v.n = n;
	return v;
}

/* A groups line's sensitive field f back to the row's sensitive value:
 * with several columns, their values joined by tabs; NULL if f is not
 * one. */
static const char *
sens_unfield(struct part *pt, kn_str *f, char **buf, size_t *cap)
{
	size_t i, n = 0, nt = 0;

	if (pt->nsens <= 1)
		return "";
	*buf = kn_grow(*buf, cap, f->n, 1, 64);
	for (i = 0; i < f->n; i++) {
		if (f->p[i] != '\\') {
			(*buf)[n++] = f->p[i];
			continue;
		}
		if (++i == f->n || (f->p[i] != '\\' && f->p[i] != 't'))
			return NULL;
		(*buf)[n++] = f->p[i] == 't' ? '\t' : '\\';
		nt += f->p[i] == 't';
	}
	if (nt + 1 != pt->nsens)
		return NULL;
	f->p = *buf;
	f->n = n;
	return "";
}

/* Dies: node id, not the root, fails the requirements, which every
 * part of an allowable cut meets. */
static void __attribute__((noreturn))
node_unmet(const struct part *pt, const char *id)
{
	kn_die("node %s does not meet the requirements, as every part a cut "
	    "makes does: the table is not the one '%s' was grown from, the "
	    "steps were given other options, or the tree was edited", id,
	    pt->cl->tree.path);
}

/* Groups job (map): per row in an open node, per QI, the group
 * "node, QI, value, sensitive value, target" with a count, summed in
 * memory up to the budget. */
static void
job_groups(struct part *pt, kn_table *t, FILE *fp)
{
	kn_dict g;
	uint64_t *gc = NULL;
	size_t gcap = 0, len, cap = 256, j, i;
	char *key = kn_alloc(cap), num[64], *sbuf = NULL;
	size_t lim = pt->budget ? pt->budget : (size_t)64 << 20, scap = 0;

	kn_dict_init(&g);
	if (cnode_open(pt, &pt->cl->tree.v[0]) && !pt->cl->tree.v[0].hasn) {
		/* The root's rows are counted even when there is none. */
		snprintf(num, sizeof(num), "r\tn\t%s\t\t", pt->cl->tree.sigh);
		kn_dict_intern(&g, num, strlen(num));
		gc = kn_zalloc(1024 * sizeof(uint64_t));
		gcap = 1024;
	}
	for (;;) {
		int more = kn_table_next(t);

		if (!more || g.alen + g.n * 48 > lim) {
			/* Write the groups counted so far. */
			for (i = 0; i < g.n; i++) {
				kn_str k = kn_dict_get(&g, (uint32_t)i);

				fwrite(k.p, 1, k.n, fp);
				fprintf(fp, "\t%llu\n",
				    (unsigned long long)gc[i]);
			}
			kn_dict_free(&g);
			kn_dict_init(&g);
		}
		if (!more)
			break;
		parse_row(pt, t);
		{
			uint32_t id = route_tree(pt, t);
			kn_str ns = kn_dict_get(&pt->cl->tree.ids, id);
			kn_str sv = { "", 0 }, yv = { "", 0 };

			if (!cnode_open(pt, &pt->cl->tree.v[id]))
				continue;
			if (pt->has_sens)
				sv = sens_field(pt, t, &sbuf, &scap);
			if (pt->has_targ && pt->split != SPLIT_MEDIAN)
				yv = t->f[pt->cl->tree.tcol];
			for (j = 0; j <= pt->nqi; j++) {
				kn_str v;
				uint32_t k;

				if (j == pt->nqi) {
					/* The node's row count, with the
					 * digest of the options (sigh). */
					v.p = pt->cl->tree.sigh;
					v.n = strlen(v.p);
				} else if (pt->dims[j].h != NULL)
					v = kn_dict_get(&pt->dims[j].h->lab[0],
					    pt->cl->rowval[j].leaf);
				else {
					v.n = kn_dec_format(
					    (kn_i128)pt->cl->rowval[j].m,
					    pt->cl->rowval[j].sc, num);
					v.p = num;
				}
				len = ns.n + v.n + sv.n + yv.n + 32;
				if (len > cap) {
					cap = 2 * len;
					key = kn_realloc(key, cap);
				}
				memcpy(key, ns.p, ns.n);
				len = ns.n;
				key[len++] = '\t';
				if (j == pt->nqi)
					key[len++] = 'n';
				else
					len += kn_fmt_u64(key + len, j);
				key[len++] = '\t';
				memcpy(key + len, v.p, v.n);
				len += v.n;
				key[len++] = '\t';
				if (j < pt->nqi) {
					memcpy(key + len, sv.p, sv.n);
					len += sv.n;
				}
				key[len++] = '\t';
				if (j < pt->nqi) {
					memcpy(key + len, yv.p, yv.n);
					len += yv.n;
				}
				i = g.n;
				k = kn_dict_intern(&g, key, len);
				gc = kn_grow(
				    gc, &gcap, k, sizeof(uint64_t), 1024);
				if (g.n > i)
					gc[k] = 0;
				gc[k]++;
			}
		}
	}
	free(key);
	free(gc);
	free(sbuf);
}

/* The node a reducer's worker is given, which must be open (a cuts
 * job) or fit (a solve job): else the tree and the input disagree. */
static struct cnode *
open_node(struct part *pt, const char *id, int fit)
{
	int64_t x = kn_dict_find(&pt->cl->tree.ids, id, strlen(id));
	struct cnode *c = x < 0 ? NULL : &pt->cl->tree.v[x];

	if (c == NULL || (fit ? c->kind != CN_OPEN || !c->hasn ||
	    !fits_cluster(pt, c->n) : !cnode_open(pt, c)))
		kn_die("node %s is not %s in %s (a job run twice, on "
		    "another tree, or with another --fit-rows than the "
		    "open job's?)", id, c == NULL ? "a node" : fit ?
		    "to be solved" : "open", pt->cl->tree.path);
	return c;
}

/* Waits for the worker; exits as it did if it failed. */
static void
worker_end(struct part *pt)
{
	int st;

	if (pt->cl->worker.to == NULL)
		return;
	fclose(pt->cl->worker.to); /* a worker that died early: EPIPE */
	pt->cl->worker.to = NULL;
	while (waitpid(pt->cl->worker.pid, &st, 0) < 0)
		if (errno != EINTR)
			kn_die_sys("waitpid");
	kn_child_set(0);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return;
	if (WIFSIGNALED(st))
		kn_warn("node %s: the worker died of signal %d",
		    pt->cl->worker.id, WTERMSIG(st));
	kn_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 2);
}

static void
per_node(
    struct part *pt, void (*worker)(struct part *, const char *id), FILE *fp)
{
	kn_reader r;
	kn_dict seen;
	char *cur = NULL;
	size_t curlen = 0;

	kn_dict_init(&seen);
	signal(SIGPIPE, SIG_IGN);
	kn_reader_open(&r, "-");
	while (kn_getline(&r)) {
		const char *tab = memchr(r.line, '\t', r.len);
		size_t idn = tab != NULL ? (size_t)(tab - r.line) : 0;

		if (tab == NULL || idn == 0)
			kn_die("%s:%llu: expected a node id and a tab",
			    r.name, (unsigned long long)r.lineno);
		if (cur == NULL || idn != curlen ||
		    memcmp(cur, r.line, idn) != 0) {
			size_t n0 = seen.n;
			int fd[2];

			worker_end(pt);
			kn_dict_intern(&seen, r.line, idn);
			if (seen.n == n0)
				kn_die(
				    "%s:%llu: the lines of node %.*s are not "
				    "together (the input must be sorted)",
				    r.name, (unsigned long long)r.lineno,
				    (int)idn, r.line);
			free(cur);
			cur = kn_strndup(r.line, idn);
			curlen = idn;
			pt->cl->worker.id = cur;
			pt->cl->worker.line0 = r.lineno;
			if (fflush(fp) != 0 || pipe(fd) != 0)
				kn_die_sys("pipe");
			if ((pt->cl->worker.pid = fork()) < 0)
				kn_die_sys("fork");
			if (pt->cl->worker.pid == 0) {
				close(fd[1]);
				if (dup2(fd[0], 0) < 0)
					kn_die_sys("dup2");
				close(fd[0]);
				signal(SIGPIPE, SIG_DFL);
				worker(pt, cur);
				kn_exit(0);
			}
			/* A signal or an error that ends this process ends
			 * the worker first (kanon.c's end_child). */
			kn_child_set(pt->cl->worker.pid);
			close(fd[0]);
			if ((pt->cl->worker.to = fdopen(fd[1], "w")) == NULL)
				kn_die_sys("fdopen");
		}
		fwrite(tab + 1, 1, r.len - idn - 1, pt->cl->worker.to);
		putc('\n', pt->cl->worker.to);
		if (ferror(pt->cl->worker.to))
			worker_end(pt);	/* it failed: exit as it did */
	}
	worker_end(pt);
	kn_reader_close(&r);
	free(cur);
	kn_dict_free(&seen);
}

/* Writes v / 10^S of a numeric QI after a tab. */
static void
put_val(FILE *fp, int64_t v, int S)
{
	char b[64];

	b[0] = '\t';
	fwrite(b, 1, 1 + kn_dec_format((kn_i128)v, S, b + 1), fp);
}

/* Writes the root's first lines: the sig, the lines of the table
 * (hb[0..hn): domain and scale; with --closeness dr's sdist lines) and
 * their digest. */
static void
root_head(const struct part *pt, const char *hb, size_t hn,
    struct cdist_root *dr)
{
	uint64_t x = CDIST_DIGEST0;
	const char *nl;
	size_t i;

	printf("sig\t%s\n", pt->cl->tree.sig);
	fwrite(hb, 1, hn, stdout);
	for (i = 0; i < hn; i = (size_t)(nl - hb) + 1) {
		nl = memchr(hb + i, '\n', hn - i);
		x = cdist_digest_line(x, hb + i, (size_t)(nl - hb) - i);
	}
	if (dr != NULL)
		x = cdist_root_write(dr, stdout, x);
	printf("digest\t%016llx\n", (unsigned long long)cdist_digest_end(x));
}

/* Dies unless the dictionaries a cuts job holds fit half of -S. */
static void
dicts_fit(struct part *pt)
{
	size_t b = mond_dicts_bytes(pt);

	if (b > pt->budget / 2)
		cstream_too_small(pt, "the dictionaries of the sensitive "
		    "values, the labels and the hierarchies", b);
}

/* The values (sortable: -l, the variance of several columns) and
 * infogain's labels held past an eighth of -S known by their hashes
 * from here on, as out of core, the groups held so far (*gl, *n, *cap)
 * or spooled to sp spooled with their keys and *e (if not NULL) given
 * its keys; then the dictionaries checked against -S. */
static void
to_hashes(struct part *pt, struct csens *cs, struct cspool *sp,
    struct cgroup **gl, size_t *n, size_t *cap, struct cgroup *e,
    const uint64_t *cnt0, size_t nc0, int *sortable)
{
	size_t b = pt->budget;

	/* With --closeness, a node below the root holds the table's
	 * distribution (cdist_set) unless its values go by hash. */
	if (*sortable && (mond_dicts_bytes(pt) - mond_targ_bytes(pt) > b / 8 ||
	    (pt->req.hast && cdist_big(pt, b)))) {
		if (csens_to_sorted(pt, cs, sp, gl, n, e, cnt0, nc0))
			*cap = 0;
		*sortable = 0;
	}
	if (pt->split == SPLIT_INFOGAIN && !pt->targ_hashed &&
	    mond_targ_bytes(pt) > b / 8) {
		csens_labels_hashed(pt, cs, sp, gl, n, e);
		*cap = 0;
	}
	dicts_fit(pt);
}

/* Cuts job (reduce), one node: its groups "QI, value, sensitive value,
 * target, count" (the same group on several lines is added), then the
 * cut mond_partition() would make, or the node's region if there is none:
 * with the groups in memory, or past a quarter of -S spooled to sp. */
static void
cut_node(struct part *pt, const char *id, struct cspool *sp)
{
	struct cgroup *gl = NULL, e;
	size_t n = 0, cap = 0, nf, fcap = 0, i, j, budget;
	size_t ns0, nt0, hn = 0;
	char *hb = NULL;
	/* The rows of each sensitive value and target in the first QI's
	 * groups: the node's, by value (sums, the table's distribution). */
	uint64_t *cnt[2] = { NULL, NULL };
	size_t ncnt[2] = { 0, 0 }, ccap[2] = { 0, 0 };
	kn_str *f = NULL;
	kn_reader r;
	uint64_t tot = 0, *dt = kn_zalloc((pt->nqi + 1) * sizeof(uint64_t));
	int root = strcmp(id, "r") == 0;
	const char *err;
	struct cut best;
	struct cnode *c = open_node(pt, id, 0);
	uint64_t qn;
	char *sbuf = NULL;
	size_t scap = 0, gsz = sizeof(e), hg = 0;
	int sortable, snum, tnum;
	struct csens cs;
	struct gsum gs;
	struct cdist_root dr;

	pt->inname = "the groups";
	if (pt->budget == 0)
		pt->budget = (size_t)64 << 20;	/* partition(1), -S */
	budget = pt->budget;
	memset(&dr, 0, sizeof(dr));
	if (root && pt->req.hast)
		cdist_root_begin(pt, &dr, budget);
	csens_begin(pt, &cs, id, budget);
	/* Distinct l alone on one column: the values known by their 64-bit
	 * hashes, each group with a set of at most ceil(l) of them, as out
	 * of core (mondrian.h's sens_hashed), while 1,024 groups' sets take
	 * at most an eighth of -S (each group's set is counted whole, and
	 * costs up to l steps a group); the node's hashes checked one to
	 * one. */
	if (pt->has_sens && rothko_by_sets(pt, budget)) {
		pt->sens_hashed = pt->sens_keyed = 1;
		gsz += (size_t)(ceil(pt->req.ld.l) + 1) * sizeof(uint64_t);
		csens_check_begin(pt, &cs);
	}
	/* Any other l, on one column or several, and the variance with l
	 * or of several columns: the values held while they take an eighth
	 * of -S, then by their hashes too, each column's (and its number),
	 * and the node decided from sorts of its rows (rsens.c), which the
	 * groups give with their labels or targets (csens_to_sorted). */
	sortable = !pt->sens_hashed && pt->has_sens &&
	    (pt->req.ld.on || pt->msvar || pt->req.hast) &&
	    !(pt->req.hast && pt->req.dist == KN_DIST_HIER);
	/* The variance of one column alone, and a regression's target: as
	 * numbers, no dictionary (as out of core: sens_keyed, targ_keyed),
	 * the groups carrying their sums; the node's sums checked by scale
	 * (csens.c). */
	snum = pt->has_sens && pt->req.hasv && pt->nsens == 1 &&
	    !pt->req.ld.on && !pt->req.hast;
	tnum = pt->has_targ && pt->split == SPLIT_REGRESSION;
	pt->sens_keyed |= snum;
	pt->targ_keyed = tnum;
	kn_reader_open(&r, "-");
	/* Lines numbered as in the reducer's input. */
	r.name = "stdin";
	r.lineno = pt->cl->worker.line0 - 1;
	while (kn_getline(&r)) {
		kn_str cf;

		nf = cdist_split(r.line, r.len, &f, &fcap);
		if (nf != 5)
			kn_die("%s:%llu: node %s: expected 5 fields "
			    "after the node (QI, value, sensitive value, "
			    "target, count), found %zu", r.name,
			    (unsigned long long)r.lineno, id, nf);
		if (strcmp(f[0].p, "n") == 0) {
			/* The node's rows in a split, counted with these
			 * options (the root's groups job has no tree to
			 * check them against). */
			uint64_t c = cdist_u64(&f[4], &r, "a count");

			if (strcmp(f[1].p, pt->cl->tree.sigh) != 0)
				kn_die("%s:%llu: node %s: the groups were "
				    "counted with other options than these "
				    "(their digest is '%s', these options' "
				    "%s): give every step the same options",
				    r.name, (unsigned long long)r.lineno, id,
				    f[1].p, pt->cl->tree.sigh);

			if (__builtin_add_overflow(tot, c, &tot))
				kn_die(
				    "node %s: a count overflows 64 bits", id);
			continue;
		}
		cf = f[0];
		qn = cdist_u64(&cf, &r, "a QI number");
		if (qn >= pt->nqi)
			kn_die("%s:%llu: node %s: no QI %llu", r.name,
			    (unsigned long long)r.lineno, id,
			    (unsigned long long)qn);
		e.j = (uint32_t)qn;
		if (pt->dims[e.j].h != NULL) {
			int64_t x =
			    kn_hier_leaf(pt->dims[e.j].h, f[1].p, f[1].n, &err);

			if (x < 0)
				kn_die("%s:%llu: node %s: '%s': %s", r.name,
			    (unsigned long long)r.lineno, id, f[1].p, err);
			e.m = x;
			e.sc = 0;
		} else {
			int sc;

			/* The --job steps take no missing number. */
			if (!mond_parse_num(f[1].p, f[1].n, &e.m, &sc) ||
			    sc < 0)
				kn_die("%s:%llu: node %s: '%s' is not a "
				    "number", r.name,
			    (unsigned long long)r.lineno, id,
				    f[1].p);
			e.sc = sc;
		}
		e.cnt = cdist_u64(&f[4], &r, "a count");
		if (e.cnt == 0)
			kn_die("%s:%llu: node %s: a count of 0", r.name,
			    (unsigned long long)r.lineno, id);
		if (__builtin_add_overflow(dt[e.j], e.cnt, &dt[e.j]))
			kn_die("node %s: a count overflows 64 bits", id);
		e.s = e.y = 0;
		e.sk = 0;
		e.ym = 0;
		e.ssc = e.ysc = 0;
		if (pt->has_sens && sens_unfield(pt, &f[2], &sbuf, &scap) ==
		    NULL)
			kn_die("%s:%llu: node %s: '%s' is not the values of %zu "
			    "sensitive columns", r.name,
			    (unsigned long long)r.lineno, id, f[2].p,
			    pt->nsens);
		/* The root's first QI's groups: the table's distribution. */
		if (root && pt->req.hast && e.j == 0)
			cdist_root_add(&dr, f[2], e.cnt);
		ns0 = pt->sens_dict.n;
		nt0 = pt->targ_dict.n;
		if (pt->sens_hashed) {
			/* Each column's key; every row's values are in the
			 * first QI's groups. */
			csens_line(pt, &cs, f[2], e.cnt, e.j == 0);
			e.sk = cs.keys[0];
		} else if (snum)
			csens_number(pt, &cs, f[2], &r, 1, e.cnt, e.j == 0,
			    &e.sm, &e.ssc);
		else if (pt->has_sens && !mond_sens_id(pt, f[2], &e.s))
			csens_not_number(&r, id, 's', pt->cl->tree.sname, f[2],
			    "--variance");
		if (tnum)
			csens_number(pt, &cs, f[3], &r, 0, e.cnt, e.j == 0,
			    &e.ym, &e.ysc);
		else if (pt->targ_hashed)
			e.yk = csens_label(&cs, f[3], e.j == 0);
		else if (pt->has_targ && pt->split == SPLIT_INFOGAIN)
			/* A label held: its id (a label is never refused). */
			(void)mond_targ_id(pt, f[3], &e.y);
		/* By id, the rows of each value held (keyed: csens.c). */
		for (j = 0; j < 2 && e.j == 0; j++) {
			uint32_t x = j == 0 ? e.s : e.y;

			if (j == 0 ? pt->sens_keyed :
			    pt->targ_keyed || pt->targ_hashed)
				continue;
			for (; ncnt[j] <= x; ncnt[j]++) {
				cnt[j] = kn_grow(cnt[j], &ccap[j], ncnt[j],
				    sizeof(uint64_t), 64);
				cnt[j][ncnt[j]] = 0;
			}
			cnt[j][x] += e.cnt;	/* at most dt[0] */
		}
		/* The dictionaries, held in either case, checked against -S
		 * as they grow, and at the end. */
		if (pt->sens_dict.n != ns0 || pt->targ_dict.n != nt0)
			to_hashes(pt, &cs, sp, &gl, &n, &cap, &e, cnt[0],
			    ncnt[0], &sortable);
		hg += pt->dims[e.j].h != NULL;
		/* Held while they take a quarter of -S (the ranks and groups
		 * made of them take about twice as much again), else
		 * spooled and streamed (cstream.c). */
		if (sp->f == NULL && (n + 1) * gsz > budget / 4) {
			cstream_begin(pt, sp, 0, 0);
			for (i = 0; i < n; i++)
				cstream_put(sp, &gl[i], NULL, NULL);
			free(gl);
			gl = NULL;
			n = cap = 0;
		}
		if (sp->f != NULL) {
			cstream_put(sp, &e, cs.keys, cs.scs);
			continue;
		}
		gl = kn_grow(gl, &cap, n, sizeof(e), 1024);
		gl[n++] = e;
	}
	kn_reader_close(&r);
	free(sbuf);
	to_hashes(pt, &cs, sp, &gl, &n, &cap, NULL, cnt[0], ncnt[0],
	    &sortable);
	/* Held, l looks at the values for each cut of each group (but
	 * distinct l on one column, which keeps its count as it goes, as
	 * the variance of one column its sums), and so do the variance of
	 * several columns (their pairs) and t-closeness (the table's
	 * values, for each cut: 49 s held, 0.3 s by sorts, on 60,000
	 * values under the ordered distance), the sorts take each row a
	 * few times a dimension: the cheaper.  And with the groups
	 * spooled, those of the hierarchies are still held by value
	 * (cstream_groups), by hash only by leaf: the values past them
	 * taking a quarter of -S (at most 64 bytes a group, a value's in
	 * the node's totals). */
	if (sortable && ((((pt->req.ld.on && (pt->nsens > 1 ||
	    pt->req.ld.kind != KN_DIV_DISTINCT)) || pt->msvar ||
	    pt->req.hast) &&
	    (double)(sp->f != NULL ? sp->n : n) * (double)pt->sens_dict.n >
	    64.0 * (double)tot * (double)pt->nqi * (double)pt->nsens) ||
	    (sp->f != NULL && (hg + pt->sens_dict.n) * 64 > budget / 4)))
		(void)csens_to_sorted(pt, &cs, sp, &gl, &n, NULL, cnt[0],
		    ncnt[0]);
	dicts_fit(pt);
	/* A number's m now its id in the column's dictionary. */
	for (i = 0; i < n; i++)
		if (pt->dims[gl[i].j].h == NULL)
			gl[i].m = mond_numdict_id(&pt->dims[gl[i].j].vd,
			    gl[i].m, gl[i].sc);
	for (j = 0; j < pt->nqi; j++)
		if (dt[j] != tot)
			kn_die("node %s: %llu rows, but the groups of %s count "
			    "%llu (a job's output lost or doubled, or the "
			    "reducer's input not sorted?)", id,
			    (unsigned long long)tot, pt->dims[j].name,
			    (unsigned long long)dt[j]);
	if (c != NULL && c->hasn && c->n != tot)
		kn_die("node %s: %llu rows, but %s says %llu (the table "
		    "changed since, or a job's output was lost or doubled)",
		    id, (unsigned long long)tot, pt->cl->tree.path,
		    (unsigned long long)c->n);
	/* The table's distribution: the root's, sorted (written to the
	 * tree); by hash, rclose.c's files of it, which the node's values
	 * are checked against and, under the ordered distance, keyed by
	 * position in. */
	if (root && pt->req.hast) {
		cdist_root_end(pt, &dr);
		if (dr.rows != tot)
			kn_die("internal error: node r: %llu rows, %llu in the "
			    "distribution", (unsigned long long)tot,
			    (unsigned long long)dr.rows);
	}
	if (pt->req.hast && pt->sens_sorted) {
		cdist_files(pt, root ? &dr : NULL, root ? tot :
		    pt->cl->tree.srows);
		csens_tables(pt, &cs);
	}
	csens_end(pt, &cs, tot);
	if (pt->tchash && pt->tcord)
		cdist_positions(pt, sp, id);
	if (tot == 0) {
		/* An empty table: no row, no class. */
		root_head(pt, "", 0, &dr);
		cdist_root_free(&dr);
		printf("size\tr\t0\n");
		return;
	}
	/* Codes as out of core: ranks of the values, depth-first leaves. */
	pt->ooc = 1;
	pt->rk->gdense = 0;
	/* A node's groups are held, as in Rothko-T, or streamed within
	 * -S. */
	pt->rk->avail = sp->f != NULL ? budget : SIZE_MAX;
	pt->nrows = tot;
	pt->exact_sums = 1;
	if (pt->req.hast && root && !pt->tchash) {
		/* The table's distribution: the root's groups of a QI. */
		for (i = 0; i < pt->nscount; i++)
			pt->scount[i] = i < ncnt[0] ? cnt[0][i] : 0;
	} else if (pt->req.hast && !pt->tchash) {
		cdist_set(pt, id, "cuts");
		dicts_fit(pt);
	}
	mond_prepare(pt, pt->cl->tree.sname, pt->cl->tree.tname);
	/* The table of c ln c (kn_ldiv_table), a speed-up only, in an
	 * eighth of what the dictionaries leave of their half of -S. */
	if (mond_dicts_bytes(pt) < budget / 2)
		kn_ldiv_table(&pt->req.ld, tot,
		    (budget / 2 - mond_dicts_bytes(pt)) / 8);
	rothko_groups_alloc(pt);
	if (pt->has_sens)
		msens_prepare(pt, pt->cl->tree.shier, pt->cl->tree.snames);
	/* The sums as in memory: exact over the node's rows; past 2^127
	 * the message names the largest value, as no row is known. */
	for (j = 0; j < 2; j++) {
		kn_i128 a = 0, b = 0, v, w, top = -1;
		size_t big = 0;
		int over = 0;

		if (j == 0 ? !pt->req.hasv || pt->sens_keyed :
		    pt->split != SPLIT_REGRESSION || pt->targ_keyed)
			continue;	/* keyed: csens_end */
		for (i = 0; i < ncnt[j]; i++) {
			if (cnt[j][i] == 0)
				continue;
			v = j == 0 ? pt->sens_val[i] : pt->targ_val[i];
			v = v < 0 ? -v : v;
			if (v > top) {
				top = v;
				big = i;
			}
			if (!over && (__builtin_mul_overflow(v,
			    (kn_i128)cnt[j][i], &w) ||
			    __builtin_add_overflow(a, w, &a) ||
			    (j == 0 && (__builtin_mul_overflow(w, v, &w) ||
			    __builtin_add_overflow(b, w, &b)))))
				over = 1;
		}
		if (over)
			msens_node_sums_die(j == 0, j == 0 ?
			    pt->cl->tree.sname : pt->cl->tree.tname,
			    kn_dict_get(j == 0 ? &pt->sens_dict : &pt->targ_dict,
			    (uint32_t)big), tot, j == 0 ? pt->sens_F :
			    pt->targ_F);
	}
	if (pt->msvar && !pt->sens_sorted) {
		struct msums ms;

		memset(&ms, 0, sizeof(ms));
		for (i = 0; i < ncnt[0]; i++)
			if (cnt[0][i] > 0)
				msens_sums_add(pt, &ms, (uint32_t)i, cnt[0][i]);
		msens_sums_check(pt, &ms, pt->cl->tree.snames, tot);
	}
	for (i = 0; i < n; i++) {
		struct cgroup *e = &gl[i];
		struct dim *dm = &pt->dims[e->j];
		uint32_t code = dm->h != NULL ? dm->dfsrank[e->m] :
		    dm->rankof[e->m];

		cstream_gsum(pt, e, &gs);
		if (e->cnt > 0)
			rothko_gtab_add(pt, &pt->rk->gtab[e->j], code, e->s,
			    pt->split == SPLIT_INFOGAIN ? pt->label_rank[e->y]
							: e->y,
			    e->cnt, e->sk, &gs);
	}
	free(gl);
	free(cnt[0]);
	free(cnt[1]);
	if (sp->f != NULL)
		cstream_groups(pt, sp);
	rothko_groups_finish(pt, tot);
	/* The root, the whole table, may fail; any other node was made by
	 * an allowable cut, unless the table or the tree is not the
	 * other's. */
	if (tot > 0 && !(pt->sens_sorted ? rsens_node_ok(pt) :
	    mond_side_ok(pt, &pt->node.tot, pt->hs_side, 1))) {
		if (root)
			mond_no_solution(NULL, tot);
		node_unmet(pt, id);
	}
	if (root) {
		FILE *hf = open_memstream(&hb, &hn);

		if (hf == NULL)
			kn_die_sys("open_memstream");
		for (j = 0; j < pt->nqi; j++) {
			struct dim *dm = &pt->dims[j];

			if (dm->h != NULL)
				continue;
			fprintf(hf, "domain\t%s", dm->name);
			put_val(hf, dm->vals[0], dm->S);
			put_val(hf, dm->vals[dm->nrank - 1], dm->S);
			fprintf(hf, "\t%d\n", dm->S);
		}
		if (pt->req.hasv)
			fprintf(hf, "scale\ts\t%d\n", pt->sens_F);
		if (pt->split == SPLIT_REGRESSION)
			fprintf(hf, "scale\tt\t%d\n", pt->targ_F);
		if (fclose(hf) != 0)
			kn_die_sys("open_memstream");
		if (fits_cluster(pt, tot)) {
			root_head(pt, hb, hn, &dr);
			free(hb);
			cdist_root_free(&dr);
			printf("size\tr\t%llu\n", (unsigned long long)tot);
			return;
		}
	}
	if (pt->sens_sorted)
		rsens_choose_cut(pt, &best);
	else
		rothko_choose_cut_on_disk(pt, &best);
	/* Written once the cut is chosen, which may fail (a full -T):
	 * nothing before. */
	if (root) {
		root_head(pt, hb, hn, &dr);
		free(hb);
		cdist_root_free(&dr);
	}
	if (!best.found) {
		/* A class: its region from the groups. */
		for (j = 0; j < pt->nqi; j++) {
			pt->sums[j] = rothko_streamed(pt, j) ?
			    pt->rk->sst[j].sum : 0;
			if (pt->dims[j].h == NULL && !rothko_streamed(pt, j))
				for (i = 0; i < pt->rk->gtab[j].n; i++) {
					const struct gent *g =
					    &pt->rk->gtab[j].e[i];

					pt->sums[j] += (kn_i128)g->cnt *
					    pt->dims[j].vals[g->code];
				}
		}
		pt->region_tag = id;
		pt->regions_fp = stdout;
		pt->regions_name = "standard output";
		mond_region(pt, 0, tot, pt->sums);
		return;
	}
	j = best.dim;
	if (!mond_is_hier(pt, j)) {
		printf("cut\t%s\t%s", id, pt->dims[j].name);
		put_val(stdout, rothko_streamed(pt, j) ?
		    numkey_value(best.med) : pt->dims[j].vals[best.med],
		    pt->dims[j].S);
		printf("\nsize\t%s.0\t%llu\nsize\t%s.1\t%llu\n", id,
		    (unsigned long long)best.L, id,
		    (unsigned long long)(tot - best.L));
	} else {
		/* The children present, in depth-first order, with their
		 * rows. */
		const struct gtab *g = &pt->rk->gtab[j];
		kn_hier *h = pt->dims[j].h;
		int lv = pt->node.lv[j];
		uint32_t *cid = kn_alloc((g->n + 1) * sizeof(uint32_t));
		uint64_t *cc = kn_zalloc((g->n + 1) * sizeof(uint64_t));
		size_t m = 0;

		for (i = 0; i < g->n; i++) {
			uint32_t c =
			    mond_child_of(pt, j, g->e[i].code - pt->node.mn[j]);

			if (m == 0 || cid[m - 1] != c)
				cid[m++] = c;
			cc[m - 1] += g->e[i].cnt;
		}
		printf("hcut\t%s\t%s\t%d", id, pt->dims[j].name, lv);
		for (i = 0; i < m; i++) {
			kn_str s = kn_dict_get(&h->lab[lv - 1], cid[i]);

			printf("\t%.*s", (int)s.n, s.p);
		}
		putchar('\n');
		for (i = 0; i < m; i++)
			printf("size\t%s.%zu\t%llu\n", id, i,
			    (unsigned long long)cc[i]);
	}
}

static void
worker_cuts(struct part *pt, const char *id)
{
	struct cspool sp;

	memset(&sp, 0, sizeof(sp));
	cut_node(pt, id, &sp);
	cstream_end(pt, &sp);
}

/* Solve job (reduce), one node that fits: its rows in memory, cut as
 * mond_partition() cuts them, written as the node's subtree: the cuts, and
 * a region per class. */
static void
worker_solve(struct part *pt, const char *id)
{
	kn_table t;
	char *rbuf = NULL, **line;
	size_t rsz = 0, i, ns = 0, nl = 0;
	struct frame {
		size_t tn;
		char *path;
	} *st;

	struct cnode *c = open_node(pt, id, 1);

	kn_table_open(&t, NULL, 0, pt->cl->tree.columns);
	if (pt->req.ld.on || pt->req.hast)
		kn_table_canon_sens(&t, pt->scols, pt->nsens,
		    pt->cl->tree.shier);
	t.r.name = "stdin";
	t.r.lineno = pt->cl->worker.line0 - 1;
	pt->inname = "the rows";
	pt->ooc = 0;
	pt->nrows = 0;
	mond_load(pt, &t, pt->cl->tree.scol, pt->cl->tree.tcol);
	if (pt->nrows != c->n)
		kn_die("node %s: %llu rows, but %s says %llu (the table "
		    "changed since, or a job's output was lost or doubled)",
		    id, (unsigned long long)pt->nrows, pt->cl->tree.path,
		    (unsigned long long)c->n);
	/* The table's distribution held, or past an eighth of -S (as a
	 * cuts job) by hash, in sorted files (not the hierarchical
	 * distance's, a hierarchy's leaves). */
	if (pt->req.hast && pt->req.dist != KN_DIST_HIER &&
	    cdist_big(pt, pt->budget ? pt->budget : (size_t)64 << 20))
		pt->tchash = 1;
	else if (pt->req.hast)
		cdist_set(pt, id, "solve");
	mond_prepare(pt, pt->cl->tree.sname, pt->cl->tree.tname);
	if (pt->has_sens)
		msens_prepare(pt, pt->cl->tree.shier, pt->cl->tree.snames);
	if (pt->tchash)
		cdist_local(pt, id);
	/* As the cuts job's nodes: only the root may fail. */
	if (!rothko_rows_ok(pt)) {
		if (strcmp(id, "r") == 0)
			mond_no_solution("the table", pt->nrows);
		node_unmet(pt, id);
	}
	if ((pt->regions_fp = open_memstream(&rbuf, &rsz)) == NULL)
		kn_die_sys("open_memstream");
	pt->grow.on = 1;
	pt->grow.full = 1;
	pt->grow.maxdepth = pt->grow.maxleaves = UINT64_MAX;
	mond_partition(pt);
	if (fflush(pt->regions_fp) != 0)
		kn_die_sys("open_memstream");
	/* The regions, one line per class in class order. */
	line = kn_alloc((pt->nclasses + 1) * sizeof(char *));
	for (i = 0; i < rsz && nl < pt->nclasses; i++) {
		line[nl++] = rbuf + i;
		while (i < rsz && rbuf[i] != '\n')
			i++;
		rbuf[i] = '\0';
	}
	if (pt->nrows == 0)
		return;
	st = kn_alloc((pt->grow.n + 1) * sizeof(struct frame));
	st[ns].tn = 0;
	st[ns++].path = kn_strdup(id);
	while (ns > 0) {
		struct frame fr = st[--ns];
		const struct tnode *tn = &pt->grow.t[fr.tn];
		size_t k, nk;

		if (tn->leaf) {
			if (pt->grow.tcls[fr.tn] != 0) {
				const char *l = line[pt->grow.tcls[fr.tn] - 1];

				/* Less the class number of this run. */
				printf("region\t%s\t%s\n", fr.path,
				    strchr(l, '\t') + 1);
			}
			free(fr.path);
			continue;
		}
		if (tn->hier) {
			kn_hier *h = pt->dims[tn->dim].h;

			printf("hcut\t%s\t%s\t%d", fr.path,
			    pt->dims[tn->dim].name, tn->lv);
			/* The last kid is the empty "other". */
			nk = tn->nkid - 1;
			for (k = 0; k < nk; k++) {
				kn_str s = kn_dict_get(&h->lab[tn->lv - 1],
				    tn->cid[k]);

				printf("\t%.*s", (int)s.n, s.p);
			}
			putchar('\n');
		} else {
			printf("cut\t%s\t%s", fr.path, pt->dims[tn->dim].name);
			put_val(stdout, pt->dims[tn->dim].vals[tn->thr],
			    pt->dims[tn->dim].S);
			putchar('\n');
			nk = 2;
		}
		for (k = nk; k-- > 0;) {
			size_t pl = strlen(fr.path) + 24;

			st[ns].tn = tn->kid0 + k;
			st[ns].path = kn_alloc(pl);
			snprintf(st[ns].path, pl, "%s.%zu", fr.path, k);
			ns++;
		}
		free(fr.path);
	}
	free(st);
}

/* Rows job (map): each row of a node that fits, after its node id. */
static void
job_rows(struct part *pt, kn_table *t, FILE *fp)
{
	while (kn_table_next(t)) {
		uint32_t id;
		kn_str s;

		parse_row(pt, t);
		id = route_tree(pt, t);
		s = kn_dict_get(&pt->cl->tree.ids, id);
		if (pt->cl->tree.v[id].kind == CN_CLASS)
			continue;
		if (cnode_open(pt, &pt->cl->tree.v[id]))
			kn_die(
			    "%s: node %.*s is still open: run the groups and "
			    "cuts jobs until 'partition --job open' lists no "
			    "node",
			    pt->cl->tree.path, (int)s.n, s.p);
		fwrite(s.p, 1, s.n, fp);
		putc('\t', fp);
		fwrite(t->r.line, 1, t->r.len, fp);
		putc('\n', fp);
	}
}

/* Dies unless the row parsed (rowval) lies in the region of its class,
 * node id: else the tree's cuts were edited after its rows were
 * partitioned, or the table is another. */
static void
row_in_region(struct part *pt, kn_table *t, uint32_t id)
{
	const struct cnode *c = &pt->cl->tree.v[id];
	const struct rowval *rv = pt->cl->rowval;
	kn_str s;
	size_t j;
	int l;

	for (j = 0; c->kind == CN_CLASS && c->rb != NULL && j < pt->nqi; j++) {
		const struct rbound *b = &c->rb[j];
		const kn_hier *h = pt->dims[j].h;
		uint32_t x = rv[j].leaf;

		if (h != NULL) {
			for (l = 0; b->at != NULL && l < h->nlevels; l++) {
				if (b->at[l] == (int32_t)x)
					break;
				if (l + 1 < h->nlevels)
					x = h->up[l][x];
			}
			if (b->at == NULL || l < h->nlevels)
				continue;
		} else if (kn_dec_cmp(rv[j].m, rv[j].sc, b->lo, b->slo) >= 0 &&
		    kn_dec_cmp(rv[j].m, rv[j].sc, b->hi, b->shi) <= 0)
			continue;
		break;
	}
	if (c->kind == CN_CLASS && (c->rb == NULL || j == pt->nqi))
		return;
	s = kn_dict_get(&pt->cl->tree.ids, id);
	if (c->kind != CN_CLASS)
		kn_table_fail(t, pt->dims[0].col, "the row reaches node %.*s, "
		    "which %s says holds no rows: the table is not the one it "
		    "was grown from", (int)s.n, s.p, pt->cl->tree.path);
	kn_table_fail(t, pt->dims[j].col, "the row lies outside the region "
	    "of its class %u (node %.*s) in %s: the tree was edited after its "
	    "rows were partitioned, or the table is not the one it was grown "
	    "from", c->cls, (int)s.n, s.p, pt->cl->tree.path);
}

/* Classes job (map): each row with its class. */
static void
job_classes(struct part *pt, kn_table *t, FILE *fp, const char *classcol)
{
	size_t c;

	tree_number(pt);
	if (!t->headerless) {
		for (c = 0; c < t->ncols; c++)
			fprintf(fp, "%s\t", t->names[c]);
		fprintf(fp, "%s\n", classcol);
	}
	while (kn_table_next(t)) {
		uint32_t id;

		parse_row(pt, t);
		id = route_tree(pt, t);
		row_in_region(pt, t, id);
		fwrite(t->r.line, 1, t->r.len, fp);
		fprintf(fp, "\t%u\n", pt->cl->tree.v[id].cls);
	}
}

/* Regions job: the regions file, as partition -r writes it. */
static void
job_regions(struct part *pt, FILE *fp)
{
	uint32_t i,
	    *at = kn_zalloc((pt->cl->tree.ids.n + 1) * sizeof(uint32_t));

	tree_number(pt);
	mond_regions_header(pt, fp);
	for (i = 0; i < pt->cl->tree.ids.n; i++)
		if (pt->cl->tree.v[i].kind == CN_CLASS)
			at[pt->cl->tree.v[i].cls - 1] = i;
	for (i = 0; i < pt->cl->tree.nclass; i++)
		fprintf(fp, "%u\t%s\n", i + 1, pt->cl->tree.v[at[i]].region);
	free(at);
}

/* Open job: the nodes a level job is still to cut, one a line. */
static void
job_open(struct part *pt, FILE *fp)
{
	uint32_t i;

	for (i = 0; i < pt->cl->tree.ids.n; i++)
		if (cnode_open(pt, &pt->cl->tree.v[i])) {
			kn_str s = kn_dict_get(&pt->cl->tree.ids, i);

			fprintf(fp, "%.*s\n", (int)s.n, s.p);
		}
}

/* A digest of a hierarchy: its labels and how they nest. */
static uint64_t
hier_digest(const kn_hier *h)
{
	uint64_t x = (uint64_t)h->nlevels;
	size_t i;
	int l;

	for (l = 0; l < h->nlevels; l++)
		for (i = 0; i < h->lab[l].n; i++) {
			kn_str v = kn_dict_get(&h->lab[l], (uint32_t)i);

			x = (x ^ kn_hash(v.p, v.n)) * 0x9e3779b97f4a7c15ULL;
			if (l + 1 < h->nlevels)
				x = (x ^ h->up[l][i]) * 0xbf58476d1ce4e5b9ULL;
		}
	return x;
}

/* The tokens of --missing, whatever their order. */
static uint64_t
tokens_digest(void)
{
	const kn_dict *d = kn_missing_tokens();
	uint64_t x = 0;
	size_t i;

	for (i = 0; i < d->n; i++) {
		kn_str v = kn_dict_get(d, (uint32_t)i);

		x += kn_hash_mix(kn_hash(v.p, v.n) + 1);
	}
	return x;
}

/* Runs job on table t (or, for the reducers, the standard input),
 * writing to fp. */
void __attribute__((noreturn)) cluster_run_job(struct part *pt, int job,
    kn_table *t, FILE *fp, const char *classcol)
{
	size_t j;

	for (j = 0; j < pt->nqi; j++)
		if (pt->dims[j].h != NULL) {
			if (pt->dims[j].h->kind != KN_HFILE)
				kn_die(
				    "--job: %s: a generated hierarchy numbers "
				    "its nodes in the order of the rows; give "
				    "a "
				    "hierarchy file",
				    pt->dims[j].name);
			mond_prepare_hier(&pt->dims[j]);
		}
	/* The tree holds for these columns and hierarchies only. */
	{
		size_t n = strlen(pt->cl->tree.sig) +
		    strlen(pt->cl->tree.columns) + 32 + 40 * pt->nqi;
		char *sg = kn_alloc(n);
		int len = snprintf(sg, n, "%s cols=%s", pt->cl->tree.sig,
		    pt->cl->tree.columns);

		for (j = 0; j < pt->nqi; j++)
			if (pt->dims[j].h != NULL)
				len += snprintf(sg + len, n - (size_t)len,
				    " h%zu=%016llx", j, (unsigned long long)
				    hier_digest(pt->dims[j].h));
		/* Added only when given, as make_sig's: the sensitive
		 * columns' hierarchies (the hierarchical distance) and
		 * the tokens of --missing (the ordered distance's order,
		 * whether a value is missing). */
		sg = kn_realloc(sg, n += 24 * (KN_MAXSENS + 1));
		for (j = 0; pt->cl->tree.shier != NULL &&
		     j < (pt->nsens > 0 ? pt->nsens : 1); j++) {
			const kn_hier *h = pt->cl->tree.shier[j];

			/* A file by its labels; a generated one by its
			 * spec, as its labels come with the rows. */
			if (h != NULL && h->kind == KN_HFILE)
				len += snprintf(sg + len, n - (size_t)len,
				    " sh%zu=%016llx", j,
				    (unsigned long long)hier_digest(h));
			else if (h != NULL)
				len += snprintf(sg + len, n - (size_t)len,
				    " shg%zu=%016llx", j, (unsigned long long)
				    kn_hash(h->src, strlen(h->src)));
		}
		if (kn_missing_tokens() != NULL)
			len += snprintf(sg + len, n - (size_t)len,
			    " miss=%016llx",
			    (unsigned long long)tokens_digest());
		free(pt->cl->tree.sig);
		pt->cl->tree.sig = sg;
		snprintf(pt->cl->tree.sigh, sizeof(pt->cl->tree.sigh),
		    "%016llx", (unsigned long long)kn_hash(sg, strlen(sg)));
	}
	pt->cl->rowval = kn_alloc((pt->nqi + 1) * sizeof(struct rowval));
	pt->cl->tree.regions = job == JOB_REGIONS;
	pt->cl->tree.classes = job == JOB_CLASSES;
	tree_load(pt, pt->cl->tree.path);
	route_build(pt);
	switch (job) {
	case JOB_GROUPS:
		job_groups(pt, t, fp);
		break;
	case JOB_CUTS:
		per_node(pt, worker_cuts, fp);
		break;
	case JOB_ROWS:
		job_rows(pt, t, fp);
		break;
	case JOB_SOLVE:
		per_node(pt, worker_solve, fp);
		break;
	case JOB_CLASSES:
		job_classes(pt, t, fp, classcol);
		break;
	case JOB_REGIONS:
		job_regions(pt, fp);
		break;
	default:
		job_open(pt, fp);
		break;
	}
	kn_close_out(fp);
	kn_exit(0);
}
