/*
 * utility.c: how much information a release lost, beyond C_DM and
 * C_AVG (score.c), as the literature defines it (score(1), UTILITY):
 *
 * NCP, the normalized certainty penalty (Xu, Wang, Pei, Wang, Shi, Fu,
 * "Utility-based anonymization using local recoding", KDD 2006, §2):
 * a released range [lo, hi] of a numeric quasi-identifier costs
 * (hi - lo) / (max - min) of the column in the original table, a label
 * of a hierarchy the share of the hierarchy's leaves under it (0 for a
 * single leaf), a suppressed value 1; the table's NCP is the mean cost
 * over its rows and quasi-identifiers, each weighing the same.
 *
 * Precision (Sweeney, "Achieving k-anonymity privacy protection using
 * generalization and suppression", IJUFKS 10(5), 2002, §4): 1 less the
 * mean over the rows and quasi-identifiers of h / |DGH|, h the level of
 * the released label in its hierarchy and |DGH| the hierarchy's height;
 * defined for quasi-identifiers with a hierarchy only.
 */
#include <stdlib.h>
#include <string.h>

#include "utility.h"

/* Notes why a measure is not taken (the first reason is kept). */
static void
why(char **w, const char *fmt, const char *name, const char *v, size_t n)
{
	size_t len;

	if (*w != NULL)
		return;
	len = strlen(fmt) + strlen(name) + (v != NULL ? n : 0) + 16;
	*w = kn_alloc(len);
	if (v != NULL)
		snprintf(*w, len, fmt, name, (int)n, v);
	else
		snprintf(*w, len, fmt, name);
}

void
util_init(util *u, const kn_table *t, const size_t *qi, size_t nq,
    const size_t *dcol, size_t ndate, char *const *sname, size_t ns,
    const kn_hopts *ho, const char *mark)
{
	size_t i, j;
	char **hn = kn_alloc((nq + ns + 1) * sizeof(char *));

	/* -H names a quasi-identifier, or a sensitive column for the
	 * hierarchical distance. */
	for (i = 0; i < nq; i++)
		hn[i] = t->names[qi[i]];
	for (i = 0; i < ns; i++)
		hn[nq + i] = sname[i];
	kn_hopts_check(ho, hn, nq + ns);
	free(hn);

	memset(u, 0, sizeof(*u));
	u->nq = nq;
	u->mark = mark;
	u->col = kn_zalloc((nq + 1) * sizeof(struct util_col));
	u->lab = kn_alloc((nq + 1) * sizeof(kn_str));
	if (nq == 0) {
		why(&u->ncpwhy, "no quasi-identifier%s", "", NULL, 0);
		why(&u->precwhy, "no quasi-identifier%s", "", NULL, 0);
	}
	for (i = 0; i < nq; i++) {
		struct util_col *c = &u->col[i];

		c->name = t->names[qi[i]];
		for (j = 0; j < ndate; j++)
			c->date |= dcol[j] == qi[i];
		c->h = kn_hopts_get(ho, c->name);
		if (c->h == NULL)
			why(&u->precwhy, "'%s' has no hierarchy (-H): "
			    "precision is defined for generalization by "
			    "hierarchies", c->name, NULL, 0);
	}
}

/* The leaves under each node of column c's hierarchy. */
static void
count_leaves(struct util_col *c)
{
	kn_hier *h = c->h;
	uint32_t id;
	size_t i;
	int l;

	c->leaves = kn_alloc((size_t)h->nlevels * sizeof(uint32_t *));
	for (l = 0; l < h->nlevels; l++)
		c->leaves[l] = kn_zalloc((h->lab[l].n + 1) * sizeof(uint32_t));
	for (i = 0; i < h->lab[0].n; i++)
		for (id = (uint32_t)i, l = 0; l < h->nlevels; l++) {
			c->leaves[l][id]++;
			if (l + 1 < h->nlevels)
				id = h->up[l][id];
		}
}

int
util_original_needs(util *u, const char *path)
{
	size_t i;
	int need = 0;

	for (i = 0; i < u->nq; i++)
		need |= u->col[i].h == NULL || u->col[i].h->kind != KN_HFILE;
	if (need && path == NULL) {
		for (i = 0; i < u->nq; i++)
			if (u->col[i].h == NULL)
				why(&u->ncpwhy, "'%s' has no hierarchy (-H), "
				    "and the range of its values needs the "
				    "original table (--original)", u->col[i].name,
				    NULL, 0);
			else if (u->col[i].h->kind != KN_HFILE)
				why(&u->ncpwhy, "the generated hierarchy of "
				    "'%s' has the leaves of the original table "
				    "(--original)", u->col[i].name, NULL, 0);
		if (u->precwhy == NULL)
			u->precwhy = kn_strdup(u->ncpwhy);
		need = 0;
	}
	if (need && strcmp(path, "-") == 0) {
		why(&u->ncpwhy, "the original table%s is the standard input, "
		    "which cannot be read again", "", NULL, 0);
		if (u->precwhy == NULL)
			u->precwhy = kn_strdup(u->ncpwhy);
		need = 0;
	}
	return need;
}

void
util_original_begin(util *u, const kn_table *ot)
{
	size_t i;

	u->oc = kn_alloc((u->nq + 1) * sizeof(size_t));
	u->have = kn_zalloc((u->nq + 1) * sizeof(int));
	for (i = 0; i < u->nq; i++) {
		u->oc[i] = kn_table_col(ot, u->col[i].name);
		u->col[i].numeric = u->col[i].h == NULL;
	}
}

void
util_original_row(util *u, const kn_table *ot)
{
	size_t i;
	val_num x;
	const char *err;

	for (i = 0; i < u->nq; i++) {
		struct util_col *c = &u->col[i];
		kn_str v = ot->f[u->oc[i]];

		if (c->h != NULL) {
			if (c->h->kind != KN_HFILE &&
			    kn_hier_leaf(c->h, v.p, v.n, &err) < 0)
				kn_table_fail(ot, u->oc[i], "'%.*s': %s",
				    (int)v.n, v.p, err);
			continue;
		}
		if (!c->numeric || kn_missing(v.p, v.n))
			continue;
		if (!val_parse(c->date, v.p, v.n, &x) ||
		    (u->have[i] && x.df != c->min.df)) {
			c->numeric = 0;
			why(&u->ncpwhy, "'%s' has no hierarchy (-H), and the "
			    "original holds '%.*s', which is not a number",
			    c->name, v.p, v.n);
			continue;
		}
		if (!u->have[i] || val_cmp(&x, &c->min) < 0)
			c->min = x;
		if (!u->have[i] || val_cmp(&x, &c->max) > 0)
			c->max = x;
		u->have[i] = 1;
	}
}

void
util_original_end(util *u)
{
	size_t i;

	for (i = 0; u->oc != NULL && i < u->nq; i++)
		if (u->col[i].h == NULL && !u->have[i])
			why(&u->ncpwhy, "'%s' has no hierarchy (-H), and the "
			    "original holds no number in it", u->col[i].name,
			    NULL, 0);
	free(u->oc);
	free(u->have);
	u->oc = NULL;
	u->have = NULL;
	for (i = 0; i < u->nq; i++)
		if (u->col[i].h != NULL)
			count_leaves(&u->col[i]);
}

uint64_t
util_original(util *u, const char *path)
{
	kn_table ot;
	char *paths[1];
	uint64_t rows = 0;

	{
		paths[0] = (char *)path;
		kn_table_open(&ot, paths, 1, NULL);
		util_original_begin(u, &ot);
		while (kn_table_next(&ot))
			util_original_row(u, &ot);
		rows = ot.rows;
		kn_table_free(&ot);
	}
	util_original_end(u);
	return rows;
}

kn_hier *
util_hier(const util *u, const char *name)
{
	size_t i;

	for (i = 0; i < u->nq; i++)
		if (strcmp(u->col[i].name, name) == 0)
			return u->col[i].h;
	return NULL;
}

/* Adds n rows of the released value v to the sums of column c. */
static void
add_value(util *u, struct util_col *c, kn_str v, uint64_t n)
{
	val_num lo, hi;
	long double w;
	int64_t id = -1;
	int l;

	if (v.n == strlen(u->mark) && memcmp(v.p, u->mark, v.n) == 0) {
		c->supp += n;
		return;
	}
	if (c->h != NULL) {
		/* A label at several levels counts at the lowest. */
		for (l = 0; l < c->h->nlevels; l++)
			if ((id = kn_dict_find(&c->h->lab[l], v.p, v.n)) >= 0 &&
			    c->leaves[l][id] > 0)
				break;
		if (l == c->h->nlevels) {
			why(&u->ncpwhy, "'%s': the release holds '%.*s', which "
			    "is no label of its hierarchy (-H)", c->name, v.p,
			    v.n);
			if (u->precwhy == NULL)
				u->precwhy = kn_strdup(u->ncpwhy);
			return;
		}
		if (c->leaves[l][id] > 1)
			c->lsum += (unsigned __int128)n * c->leaves[l][id];
		c->hsum += (unsigned __int128)n * (unsigned)l;
		return;
	}
	if (!c->numeric || kn_missing(v.p, v.n))
		return;		/* a missing value is released as it is */
	if (!val_range_parse(c->date, v.p, v.n, &lo, &hi) ||
	    lo.df != c->min.df) {
		why(&u->ncpwhy, "'%s' has no hierarchy (-H), and the release "
		    "holds '%.*s', which is neither a number nor a range",
		    c->name, v.p, v.n);
		return;
	}
	if (val_cmp(&c->min, &c->max) == 0)
		return;
	w = (hi.v - lo.v) / (c->max.v - c->min.v);
	c->wsum += n * (w > 1 ? 1 : w);
}

void
util_class(util *u, const char *key, size_t keylen, uint64_t n)
{
	const char *p = key, *e = key + keylen, *tab;
	size_t i;

	u->rows += n;
	/* Neither figure can be measured: nothing to add up. */
	if (u->ncpwhy != NULL && u->precwhy != NULL)
		return;
	for (i = 0; i < u->nq; i++) {
		tab = memchr(p, '\t', (size_t)(e - p));
		u->lab[i].p = p;
		u->lab[i].n = (size_t)((tab != NULL ? tab : e) - p);
		p = tab != NULL ? tab + 1 : e;
		add_value(u, &u->col[i], u->lab[i], n);
	}
}

void
util_put(util *u, report *rp)
{
	long double ncp = 0, prec = 0, d;
	size_t i;

	if (u->rows == 0) {
		why(&u->ncpwhy, "the release has no row%s", "", NULL, 0);
		why(&u->precwhy, "the release has no row%s", "", NULL, 0);
	}
	d = (long double)u->rows * u->nq;
	for (i = 0; i < u->nq; i++) {
		struct util_col *c = &u->col[i];

		ncp += c->supp;
		if (c->h != NULL) {
			if (c->h->lab[0].n > 0)
				ncp += (long double)c->lsum / c->h->lab[0].n;
			if (c->h->nlevels > 1)
				prec += (long double)c->hsum /
				    (c->h->nlevels - 1);
			prec += c->supp;
		} else
			ncp += c->wsum;
	}
	if (u->ncpwhy == NULL)
		report_put(rp, "ncp", "%.10Lg", ncp / d);
	if (u->precwhy == NULL)
		report_put(rp, "precision", "%.10Lg", 1 - prec / d);
	rp->ncpwhy = u->ncpwhy;
	rp->precwhy = u->precwhy;
}
