/*
 * mpar.c: partition's in-memory Mondrian on the threads of -j (issue
 * 18).  Once a node is cut its parts are independent (paper 003,
 * Figure 7), so the tree is grown a few levels, the nodes of each level
 * cut side by side, until its parts are small enough to share out; then
 * each thread partitions whole parts to the end.  Each part keeps its
 * own classes, numbered from 1, and regions; once all are done they are
 * numbered as the serial run numbers them (its stack takes the parts
 * left to right, which is the order of their rows), so that the output
 * is the same bytes for every -j.
 *
 * A thread works on a copy of the run (struct part) with scratch of its
 * own for the node's counts, extents and stack; the scratch indexed by
 * a node's rows (key, perm, grp, cnt, rec_tmp) is shared, each part
 * using the slice at its own rows, one slot apart (rec_tmp is indexed
 * by the row, as the records are, i slots on for the i-th part, so that
 * a part's rows may stay in it: mondrian.h, pingpong).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kanon.h"
#include "mondrian.h"
#include "mpar.h"

/* A part of the rows: the segment [b,e) of the records and its
 * extents; once partitioned, its classes (numbered from 1) and their
 * regions' lines. */
struct mpar_task {
	uint64_t b, e;
	uint32_t *ext;		/* min[nqi], max[nqi] */
	int done;		/* partitioned to the end */
	uint32_t nclass;
	char *reg;		/* the regions' lines, ids from 1 */
	size_t nreg;
	/* out of core: those lines in the temp file of worker rw (-1:
	 * none), roff of its bytes on, rlen of them */
	int rw;
	off_t roff, rlen;
	/* cut once by a round of growth: its parts, in the serial order,
	 * as pairs b, e and their extents */
	size_t nkid;
	uint64_t *kid;
	uint32_t *kext;
};

enum { MPAR_GROW, MPAR_RUN, MPAR_NUMBER };

/* The work shared by the threads: the parts, and which is next. */
struct mpar {
	struct part *pt;
	int mode;		/* MPAR_* */
	struct mpar_task *task;
	size_t ntask;
	size_t *order;		/* the parts to take, largest first */
	size_t norder, next;
	uint64_t target;	/* parts above this many rows are cut first */
	uint32_t *first;	/* MPAR_NUMBER: a part's first class less 1 */
	pthread_mutex_t mu;
};

/* One thread: its copy of the run and its scratch; out of core with
 * regions, the temp file where the regions of its parts wait, one
 * after another (a file a thread, not a part: a node may have
 * thousands of parts). */
struct mpar_worker {
	struct mpar *mp;
	int id;
	struct part tp;
	uint32_t *ord;
	pthread_t th;
	char *regpath;
	FILE *regf;
};

/* A copy of the run for one thread, with scratch of its own. */
static void
worker_init(struct mpar_worker *w, struct mpar *mp)
{
	struct part *pt = mp->pt, *tp = &w->tp;
	size_t q = pt->nqi + 1;

	w->mp = mp;
	*tp = *pt;
	tp->hs_tot = kn_zalloc((pt->sens_dict.n + 1) * sizeof(uint64_t));
	tp->hs_side = kn_zalloc((pt->sens_dict.n + 1) * sizeof(uint64_t));
	tp->hs_side2 = kn_zalloc((pt->sens_dict.n + 1) * sizeof(uint64_t));
	tp->gath = kn_zalloc((pt->sens_dict.n + 1) * sizeof(uint64_t));
	tp->stouch = kn_alloc((pt->sens_dict.n + 1) * sizeof(uint32_t));
	tp->hl_tot = kn_zalloc((pt->targ_dict.n + 1) * sizeof(uint64_t));
	tp->hl_side = kn_zalloc((pt->targ_dict.n + 1) * sizeof(uint64_t));
	tp->ltouch = kn_alloc((pt->targ_dict.n + 1) * sizeof(uint32_t));
	tp->node.mn = kn_alloc(q * sizeof(uint32_t));
	tp->node.mx = kn_alloc(q * sizeof(uint32_t));
	tp->node.lv = kn_alloc(q * sizeof(int));
	tp->node.node = kn_alloc(q * sizeof(uint32_t));
	tp->node.width = kn_alloc(q * sizeof(long double));
	tp->node.can = kn_alloc(q * sizeof(int));
	tp->sums = kn_alloc(q * sizeof(kn_i128));
	tp->nmiss = kn_zalloc(q * sizeof(uint64_t));
	tp->mnp = kn_zalloc(q * sizeof(uint32_t));
	tp->stack = NULL;
	tp->stack_ext = NULL;
	tp->nstack = tp->stack_cap = 0;
	tp->region_line = NULL;
	tp->region_len = tp->region_cap = 0;
	tp->tv = tp->tv2 = NULL;
	tp->tvcap = tp->tv2cap = 0;
	memset(&tp->tsc, 0, sizeof(tp->tsc));
	memset(&tp->acct, 0, sizeof(tp->acct));
	tp->ncuts = 0;
	tp->max_class = 0;
	w->ord = kn_alloc((2 * pt->nqi + 1) * sizeof(uint32_t));
	w->regpath = NULL;
	w->regf = NULL;
	if (pt->regions_fp != NULL && pt->ooc) {
		w->regpath = kn_tmp_new(pt->tmpdir);
		if ((w->regf = kn_tmp_open(w->regpath, "wb")) == NULL)
			kn_die_sys("%s", w->regpath);
	}
}

/* Adds a thread's counts to the run's and frees its scratch. */
static void
worker_free(struct mpar_worker *w)
{
	struct part *pt = w->mp->pt, *tp = &w->tp;

	pt->ncuts += tp->ncuts;
	pt->acct.classed += tp->acct.classed;
	if (tp->max_class > pt->max_class)
		pt->max_class = tp->max_class;
	free(tp->hs_tot);
	free(tp->hs_side);
	free(tp->hs_side2);
	free(tp->gath);
	free(tp->stouch);
	free(tp->hl_tot);
	free(tp->hl_side);
	free(tp->ltouch);
	free(tp->node.mn);
	free(tp->node.mx);
	free(tp->node.lv);
	free(tp->node.node);
	free(tp->node.width);
	free(tp->node.can);
	free(tp->sums);
	free(tp->nmiss);
	free(tp->mnp);
	free(tp->stack);
	free(tp->stack_ext);
	free(tp->region_line);
	free(tp->tv);
	free(tp->tv2);
	free(tp->tsc.p);
	free(w->ord);
	if (w->regf != NULL) {
		fclose(w->regf);
		kn_tmp_close(w->regpath);
	}
}

/* Points the thread's scratch indexed by rows at the slice of part i
 * (the i-th in the order of the rows) and its output at the part's
 * own. */
static void
worker_slice(struct mpar_worker *w, size_t i)
{
	struct part *pt = w->mp->pt, *tp = &w->tp;
	uint64_t s = w->mp->task[i].b + i;

	tp->key = pt->key + s;
	tp->perm = pt->perm + s;
	tp->perm_tmp = pt->perm_tmp + s;
	tp->grp = pt->grp + s;
	tp->rec_tmp = pt->rec_tmp + i * pt->rec_words;
	tp->cnt = pt->cnt + 2 * s;
	tp->nclasses = 0;
	tp->nstack = 0;
	tp->regions_fp = NULL;
}

/* Cuts part i once (MPAR_GROW), noting its parts, or partitions it to
 * the end (MPAR_RUN). */
static void
task_work(struct mpar_worker *w, size_t i, int grow)
{
	struct mpar *mp = w->mp;
	struct mpar_task *tk = &mp->task[i];
	struct part *tp = &w->tp;
	uint64_t classed = tp->acct.classed;
	size_t q, nq = 2 * tp->nqi;

	worker_slice(w, i);
	tk->rw = -1;
	if (w->regf != NULL) {
		/* Out of core the regions wait on disk, not in the
		 * budget. */
		tk->rw = w->id;
		tk->roff = ftello(w->regf);
		tp->regions_fp = w->regf;
	} else if (mp->pt->regions_fp != NULL &&
	    (tp->regions_fp = open_memstream(&tk->reg, &tk->nreg)) == NULL)
		kn_die_sys("regions in memory");
	mond_stack_push(tp, tk->b, tk->e, tk->ext);
	/* Parts cut once are taken up by other threads, in the
	 * records. */
	tp->pingpong = !grow && !tp->grow.on;
	do
		mond_step(tp, w->ord);
	while (!grow && tp->nstack > 0);
	if (tp->rec_swapped)
		kn_die("internal error: a part's rows left in the scratch");
	tp->pingpong = 0;
	if (w->regf != NULL) {
		if (fflush(w->regf) != 0 || ferror(w->regf) ||
		    (tk->rlen = ftello(w->regf) - tk->roff) < 0)
			kn_die_sys("%s: write error", w->regpath);
	} else if (tp->regions_fp != NULL && (fflush(tp->regions_fp) != 0 ||
	    ferror(tp->regions_fp) || fclose(tp->regions_fp) != 0))
		kn_die_sys("regions in memory");
	tk->nclass = tp->nclasses;
	tk->done = tp->nstack == 0;
	if (!tk->done) {
		/* The parts, the leftmost on top of the stack. */
		tk->nkid = tp->nstack / 2;
		tk->kid = kn_alloc(tk->nkid * 2 * sizeof(uint64_t));
		tk->kext = kn_alloc(tk->nkid * nq * sizeof(uint32_t));
		for (q = 0; q < tk->nkid; q++) {
			size_t s = tk->nkid - 1 - q;

			tk->kid[2 * q] = tp->stack[2 * s];
			tk->kid[2 * q + 1] = tp->stack[2 * s + 1];
			memcpy(tk->kext + q * nq, tp->stack_ext + s * nq,
			    nq * sizeof(uint32_t));
		}
	}
	kn_progress_add(tp->acct.classed - classed);
}

/* Adds the number of the classes before part i to its rows' classes. */
static void
task_number(struct mpar_worker *w, size_t i)
{
	const struct part *pt = w->mp->pt;
	const struct mpar_task *tk = &w->mp->task[i];
	uint32_t first = w->mp->first[i];
	uint64_t r;

	if (first == 0)
		return;
	for (r = tk->b; r < tk->e; r++)
		pt->row_class[pt->rec[r * pt->rec_words + pt->word_row]] +=
		    first;
}

/* A thread: takes the parts one at a time until none is left. */
static void *
worker_run(void *arg)
{
	struct mpar_worker *w = arg;
	struct mpar *mp = w->mp;

	for (;;) {
		size_t i;

		pthread_mutex_lock(&mp->mu);
		i = mp->next < mp->norder ? mp->order[mp->next++] : SIZE_MAX;
		pthread_mutex_unlock(&mp->mu);
		if (i == SIZE_MAX)
			return NULL;
		if (mp->mode == MPAR_NUMBER)
			task_number(w, i);
		else
			task_work(w, i, mp->mode == MPAR_GROW);
	}
}

/* Runs the parts in mp->order on the n threads of w, this one among
 * them. */
static void
run_threads(struct mpar *mp, struct mpar_worker *w, int n)
{
	int k, started;

	mp->next = 0;
	for (started = 1; started < n; started++)
		if (pthread_create(&w[started].th, NULL, worker_run,
		    &w[started]) != 0)
			break;
	worker_run(&w[0]);
	for (k = 1; k < started; k++)
		pthread_join(w[k].th, NULL);
}

/* Puts the parts not done in mp->order, the largest first (ties: the
 * leftmost), those above mp->target rows only if grow. */
static void
order_tasks(struct mpar *mp, int grow)
{
	size_t i, j;

	mp->norder = 0;
	for (i = 0; i < mp->ntask; i++) {
		const struct mpar_task *tk = &mp->task[i];
		uint64_t n = tk->e - tk->b;

		if (tk->done || (grow && n <= mp->target))
			continue;
		for (j = mp->norder++; j > 0; j--) {
			const struct mpar_task *o = &mp->task[mp->order[j - 1]];

			if (o->e - o->b >= n)
				break;
			mp->order[j] = mp->order[j - 1];
		}
		mp->order[j] = i;
	}
}

/* Replaces each part cut by the last round by its parts, in place, so
 * that the parts stay in the order of their rows; the others stay. */
static void
task_expand(struct mpar *mp)
{
	size_t i, q, n = 0, nq = 2 * mp->pt->nqi;
	struct mpar_task *nt;

	for (i = 0; i < mp->ntask; i++)
		n += mp->task[i].nkid == 0 ? 1 : mp->task[i].nkid;
	nt = kn_zalloc((n + 1) * sizeof(*nt));
	for (i = 0, n = 0; i < mp->ntask; i++) {
		struct mpar_task *tk = &mp->task[i];

		if (tk->nkid == 0) {	/* not cut: a class, or small */
			nt[n++] = *tk;
			continue;
		}
		for (q = 0; q < tk->nkid; q++, n++) {
			nt[n].rw = -1;
			nt[n].b = tk->kid[2 * q];
			nt[n].e = tk->kid[2 * q + 1];
			nt[n].ext = kn_alloc(nq * sizeof(uint32_t));
			memcpy(nt[n].ext, tk->kext + q * nq,
			    nq * sizeof(uint32_t));
		}
		free(tk->ext);
		free(tk->kid);
		free(tk->kext);
		free(tk->reg);
	}
	free(mp->task);
	free(mp->order);
	mp->task = nt;
	mp->ntask = n;
	mp->order = kn_alloc((n + 1) * sizeof(size_t));
}

/* Writes part i's regions with their classes numbered from first + 1:
 * from memory, or out of core from its worker's temp file, read through
 * f (NULL in memory). */
static void
task_regions(struct part *pt, const struct mpar_task *tk, uint32_t first,
    FILE *f, const char *path)
{
	/* No regions in memory: reg NULL, which takes no offset. */
	const char *p = tk->reg, *end = p != NULL ? p + tk->nreg : NULL;
	char num[24], *line = NULL;
	size_t cap = 0;
	off_t left = tk->rw >= 0 ? tk->rlen : 0;

	if (tk->rw >= 0 && fseeko(f, tk->roff, SEEK_SET) != 0)
		kn_die_sys("%s", path);
	for (;;) {
		const char *tab, *nl;
		uint64_t id = 0;
		size_t len;

		if (tk->rw >= 0) {
			ssize_t got;

			if (left == 0)
				break;
			if ((got = getline(&line, &cap, f)) <= 0 ||
			    got > left) {
				if (ferror(f))
					kn_die_sys("%s: read error", path);
				kn_die("%s: internal error: a part's regions "
				    "cut short", path);
			}
			left -= got;
			p = line;
			end = line + got;
		} else if (p >= end)
			break;
		tab = memchr(p, '\t', (size_t)(end - p));
		nl = memchr(p, '\n', (size_t)(end - p));
		if (tab == NULL || nl == NULL)
			kn_die("internal error: a region without its class");
		for (; p < tab; p++)
			id = id * 10 + (uint64_t)(*p - '0');
		len = kn_fmt_u64(num, id + first);
		if (fwrite(num, 1, len, pt->regions_fp) != len ||
		    fwrite(tab, 1, (size_t)(nl + 1 - tab), pt->regions_fp) !=
		    (size_t)(nl + 1 - tab))
			kn_die_sys("%s: write error", pt->regions_name);
		p = nl + 1;
	}
	free(line);
}

/* Grows the scratch indexed by rows by a slot per part, of which there
 * are at most n.  Its contents are not kept: allocated afresh rather
 * than copied, its pages are touched only as the parts use them, as
 * one thread's would be. */
static void
grow_scratch(struct part *pt, size_t n)
{
	free(pt->key);
	free(pt->perm);
	free(pt->perm_tmp);
	free(pt->grp);
	free(pt->rec_tmp);
	free(pt->cnt);
	mond_scratch_rows(pt, pt->nrows + n + 1);
}

void
mpar_partition(struct part *pt, int jobs)
{
	struct mpar mp;
	struct mpar_worker *w;
	FILE **rf;
	size_t i, maxtask;
	uint32_t nclass;
	int k;

	/* Small tables, and the growth of Rothko-S's and a cluster's
	 * trees, on one thread; out of core, a node whose classes go
	 * straight to the pairs file, or whose keyed values or hashed
	 * labels have ids of its own (worker_init sizes the counts by the
	 * dictionaries). */
	if (jobs <= 1 || pt->grow.on || pt->region_tag != NULL ||
	    (pt->ooc && (pt->row_class == NULL || pt->sens_keyed ||
	    pt->targ_keyed || pt->targ_hashed)) ||
	    pt->nrows < 2 * MPAR_MIN_ROWS) {
		mond_partition(pt);
		return;
	}
	nclass = pt->nclasses;
	memset(&mp, 0, sizeof(mp));
	mp.pt = pt;
	/* Parts of at most an eighth of a thread's share, so that the
	 * largest taken last does not keep the others waiting long. */
	mp.target = pt->nrows / (8 * (uint64_t)jobs);
	if (mp.target < MPAR_MIN_ROWS)
		mp.target = MPAR_MIN_ROWS;
	maxtask = 64;
	grow_scratch(pt, maxtask);
	pthread_mutex_init(&mp.mu, NULL);
	mp.task = kn_zalloc(sizeof(*mp.task));
	mp.order = kn_alloc(2 * sizeof(size_t));
	mp.ntask = 1;
	mp.task[0].b = 0;
	mp.task[0].e = pt->nrows;
	mp.task[0].rw = -1;
	mp.task[0].ext = kn_alloc(2 * pt->nqi * sizeof(uint32_t));
	mond_extents(pt, 0, pt->nrows, mp.task[0].ext, jobs);
	mond_node_totals(pt, 0, pt->nrows, mp.task[0].ext);
	mond_node_clear_totals(pt);

	w = kn_zalloc((size_t)jobs * sizeof(*w));
	for (k = 0; k < jobs; k++) {
		w[k].id = k;
		worker_init(&w[k], &mp);
	}
	/* Grow the tree, a level a round, until the parts are small. */
	for (;;) {
		order_tasks(&mp, 1);
		if (mp.norder == 0)
			break;
		mp.mode = MPAR_GROW;
		/* Fewer parts than threads: each cut on threads of its
		 * own (mondrian.c, cut_par), the root's on all. */
		for (k = 0; k < jobs; k++)
			w[k].tp.cut_jobs = mp.norder < (size_t)jobs ?
			    jobs / (int)mp.norder : 1;
		run_threads(&mp, w, jobs < (int)mp.norder ? jobs :
		    (int)mp.norder);
		task_expand(&mp);
		if (mp.ntask > maxtask) {
			maxtask = 2 * mp.ntask;
			grow_scratch(pt, maxtask);
		}
	}
	order_tasks(&mp, 0);
	for (k = 0; k < jobs; k++)
		w[k].tp.cut_jobs = 1;
	mp.mode = MPAR_RUN;
	run_threads(&mp, w, jobs);

	/* The classes as the serial run numbers them, after those of the
	 * nodes before out of core. */
	mp.first = kn_alloc((mp.ntask + 1) * sizeof(uint32_t));
	rf = kn_zalloc((size_t)jobs * sizeof(FILE *));
	for (k = 0; k < jobs; k++)
		if (w[k].regf != NULL &&
		    (rf[k] = kn_tmp_open(w[k].regpath, "rb")) == NULL)
			kn_die_sys("%s", w[k].regpath);
	for (i = 0; i < mp.ntask; i++) {
		const struct mpar_task *tk = &mp.task[i];

		mp.first[i] = nclass;
		if (pt->regions_fp != NULL)
			task_regions(pt, tk, nclass, tk->rw >= 0 ?
			    rf[tk->rw] : NULL, tk->rw >= 0 ?
			    w[tk->rw].regpath : NULL);
		nclass += tk->nclass;
	}
	for (k = 0; k < jobs; k++)
		if (rf[k] != NULL)
			fclose(rf[k]);
	free(rf);
	pt->nclasses = nclass;
	for (i = 0; i < mp.ntask; i++)
		mp.order[i] = i;
	mp.norder = mp.ntask;
	mp.mode = MPAR_NUMBER;
	run_threads(&mp, w, jobs);

	for (k = 0; k < jobs; k++)
		worker_free(&w[k]);
	free(w);
	for (i = 0; i < mp.ntask; i++) {
		free(mp.task[i].ext);
		free(mp.task[i].reg);
	}
	free(mp.task);
	free(mp.order);
	free(mp.first);
	pthread_mutex_destroy(&mp.mu);
}
