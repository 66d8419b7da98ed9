/*
 * cvals.c: the values of one class of a frequency set's groups, as
 * score and recode read them, brought into byte order within a memory
 * budget so that equal values meet and no dictionary of the whole
 * column is kept.  A column right after the quasi-identifiers in the
 * groups' order needs none of this: a class's rows of each of its values
 * come together.  Any other (score's target after a sensitive column,
 * the sensitive columns after the first) has its values held in an
 * arena and sorted at the class's end, or, past their share of the
 * budget, spilled as lines "value<TAB>count" to the external sort and
 * merged back in the same order.  A class's figures then depend only on
 * its values in that order: the same for any -S.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvals.h"

void
cvals_init(cvals_ctx *v, size_t budget, const char *tmpdir)
{
	memset(v, 0, sizeof(*v));
	v->budget = budget / 2;
	v->limit = budget / 2;
	if (v->limit < (1 << 15))
		v->limit = 1 << 15;
	v->tmpdir = tmpdir;
}

/* Moves the values held to the sort, as lines "value<TAB>count". */
static void
spill(cvals_ctx *v)
{
	char *line = NULL;
	size_t i, cap = 0, n;
	int k;

	if (v->so == NULL)
		v->so = kn_sort_new(NULL, 0, 1, v->budget, v->tmpdir);
	for (i = 0; i < v->nent; i++) {
		const cvals_ent *e = &v->ent[i];

		if (e->len + 32 > cap) {
			cap = 2 * e->len + 32;
			line = kn_realloc(line, cap);
		}
		memcpy(line, v->arena + e->off, e->len);
		n = e->len;
		k = snprintf(line + n, cap - n, "\t%llu",
		    (unsigned long long)e->cnt);
		kn_sort_add(v->so, line, n + (size_t)k);
	}
	free(line);
	v->nent = 0;
	v->alen = 0;
}

void
cvals_add(cvals_ctx *v, const char *p, size_t len, uint64_t cnt)
{
	/* Made at the first value, even an empty one: memcpy wants an
	 * arena. */
	if (v->arena == NULL || v->alen + len > v->acap) {
		v->acap = 2 * (v->alen + len) + 64;
		v->arena = kn_realloc(v->arena, v->acap);
	}
	memcpy(v->arena + v->alen, p, len);
	v->ent = kn_grow(v->ent, &v->entcap, v->nent, sizeof(cvals_ent), 64);
	v->ent[v->nent].off = v->alen;
	v->ent[v->nent].len = len;
	v->ent[v->nent++].cnt = cnt;
	v->alen += len;
	if (v->alen + v->nent * sizeof(cvals_ent) > v->limit)
		spill(v);
}

/* Orders two values as the lines "value<TAB>..." of the sort do. */
static int
ent_cmp(const cvals_ent *a, const cvals_ent *b, const char *arena)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(arena + a->off, arena + b->off, n);

	if (c != 0 || a->len == b->len)
		return c;
	if (a->len < b->len)
		return (unsigned char)'\t' < (unsigned char)arena[b->off + n] ?
		    -1 : 1;
	return (unsigned char)arena[a->off + n] < (unsigned char)'\t' ?
	    -1 : 1;
}

/* Sorts the values held (a merge sort: qsort has no context argument
 * in C11). */
static void
ent_sort(cvals_ent *e, cvals_ent *tmp, size_t n, const char *arena)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	ent_sort(e, tmp, h, arena);
	ent_sort(e + h, tmp, n - h, arena);
	while (i < h && j < n)
		tmp[k++] = ent_cmp(&e[j], &e[i], arena) < 0 ? e[j++] : e[i++];
	while (i < h)
		tmp[k++] = e[i++];
	while (j < n)
		tmp[k++] = e[j++];
	memcpy(e, tmp, n * sizeof(cvals_ent));
}

/* Where cvals_end hands its values, and the sum of equal ones. */
struct emit {
	cvals_ctx *v;
	cvals_fn fn;
	void *ctx;
};

/* The next value in order: a run of equal values becomes one. */
static void
emit(struct emit *em, const char *p, size_t len, uint64_t cnt)
{
	cvals_ctx *v = em->v;

	if (v->haverun && len == v->runlen && memcmp(p, v->run, len) == 0) {
		if (__builtin_add_overflow(v->runcnt, cnt, &v->runcnt))
			kn_rows_overflow();
		return;
	}
	if (v->haverun)
		em->fn(v->run, v->runlen, v->runcnt, em->ctx);
	v->run = kn_grow(v->run, &v->runcap, len, 1, 64);
	memcpy(v->run, p, len);
	v->runlen = len;
	v->runcnt = cnt;
	v->haverun = 1;
}

/* A line of the sort: a value and a count. */
static void
sorted_line(const char *line, size_t len, void *ctx)
{
	const char *tab = memchr(line, '\t', len);
	uint64_t c = 0;
	size_t i;

	if (tab == NULL)
		kn_die("(temp run): a value's line without its count");
	for (i = (size_t)(tab - line) + 1; i < len; i++)
		c = c * 10 + (uint64_t)(line[i] - '0');
	emit(ctx, line, (size_t)(tab - line), c);
}

void
cvals_end(cvals_ctx *v, cvals_fn fn, void *ctx)
{
	struct emit em = { v, fn, ctx };
	size_t i;

	if (v->so != NULL) {
		spill(v);
		kn_sort_finish(v->so, 0, sorted_line, &em);
		kn_sort_free(v->so);
		v->so = NULL;
	} else if (v->nent > 0) {
		cvals_ent *tmp = kn_alloc(v->nent * sizeof(cvals_ent));

		ent_sort(v->ent, tmp, v->nent, v->arena);
		free(tmp);
		for (i = 0; i < v->nent; i++)
			emit(&em, v->arena + v->ent[i].off, v->ent[i].len,
			    v->ent[i].cnt);
	}
	if (v->haverun)
		fn(v->run, v->runlen, v->runcnt, ctx);
	v->haverun = 0;
	v->nent = 0;
	v->alen = 0;
}

/* A value of cvals_end_sclass's class. */
static void
to_sclass(const char *p, size_t len, uint64_t cnt, void *sc)
{
	kn_sclass_add(sc, p, len, cnt);
}

void
cvals_end_sclass(cvals_ctx *v, kn_sclass *sc)
{
	cvals_end(v, to_sclass, sc);
}

void
cvals_free(cvals_ctx *v)
{
	free(v->arena);
	free(v->ent);
	free(v->run);
	if (v->so != NULL)
		kn_sort_free(v->so);
	memset(v, 0, sizeof(*v));
}
