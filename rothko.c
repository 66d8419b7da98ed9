/*
 * rothko.c: partition out of core (-S, -a rothko-t|rothko-s).
 *
 * The rows are spooled once (mload.c) as binary records of codes and
 * 64-bit numbers, packed in blocks (numkey.c); a node's numbers are ranked
 * among themselves when its groups are counted or it is partitioned in
 * memory, and a node whose numbers' groups do not fit has them streamed:
 * its cuts are found from its rows sorted on disk (extsort.c).
 * Rothko-T (paper 004 §2) grows the tree level by level from frequency
 * groups counted in scans (--fcache nodes per scan), repartitions the
 * rows across its leaves, and partitions a node in memory once it fits:
 * the same output as in memory.  Rothko-S (004
 * §3) grows a tree on a sample, making a cut when the hypothesis tests
 * of hypo.c (004 §3.1) reject "not allowable", repartitions while
 * counting population statistics, and merges back any subtree with a
 * part that fails a requirement: every class meets every requirement
 * whatever the sample.  The frequency groups are counted in rgroups.c,
 * and a node's cut is chosen from them in rcut.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "extsort.h"
#include "hypo.h"
#include "kanon.h"
#include "mondrian.h"
#include "mpar.h"
#include "rothko.h"

/* side_ok on a sample part: the tests of 004 §3.1.  Distinct
 * l-diversity holds in the population part if it holds in the sample
 * part; entropy l-diversity has no test (§3.1.2, note 7) and is checked
 * on the sample as a rule of thumb.  A wrong guess is pruned later. */
static int
sample_ok(
    struct part *pt, const struct side *sd, const uint64_t *hist, int compl )
{
	size_t i, m = 0;
	uint64_t xl = 0;

	if (pt->sample.n >= pt->sample.N || pt->sample.naive) {
		/* The sample is the node: the requirements themselves.
		 * Or 004 §3.1's naive check, the requirement on the sample
		 * with k scaled by n/N. */
		int on = pt->sample.on, ok;
		uint64_t k = pt->req.k;

		if ((long double)sd->n * pt->sample.N <
		    (long double)pt->sample.k * pt->sample.n)
			return 0;
		pt->sample.on = 0;
		pt->req.k = 1;
		ok = mond_side_ok(pt, sd, hist, compl);
		pt->req.k = k;
		pt->sample.on = on;
		return ok;
	}
	if (!hypo_k(sd->n, pt->sample.n, pt->sample.N, pt->sample.k,
		pt->sample.alpha, pt->sample.m))
		return 0;
	if (pt->req.hasv) {
		long double s = (long double)sd->s, ss = (long double)sd->ss;
		long double n = (long double)sd->n, sv;

		if (sd->n < 2)
			return 0;
		sv =
		    (n * ss - s * s) / (n * (n - 1)) / powl(10, 2 * pt->sens_F);
		if (!hypo_variance((double)sv, sd->n,
			(double)pt->req.vm / pow(10, pt->req.vs),
			pt->sample.alpha, pt->sample.m))
			return 0;
	}
	if (!pt->req.ld.on || pt->req.ld.kind != KN_DIV_RECURSIVE ||
	    pt->nsens > 1) {
		int on = pt->sample.on, ok;

		pt->sample.on = 0;
		ok = mond_side_ok(pt, sd, hist, compl);
		pt->sample.on = on;
		return ok;
	}
	for (i = 0; i < pt->nstouch; i++) {
		uint32_t x = pt->stouch[i];
		uint64_t c = compl ? pt->hs_tot[x] - hist[x] : hist[x];

		if (c > 0)
			pt->gath[m++] = c;
	}
	kn_counts_desc(pt->gath, m);
	for (i = (size_t)pt->req.ld.l - 1; i < m; i++)
		xl += pt->gath[i];
	return hypo_recursive(m > 0 ? pt->gath[0] : 0, xl, sd->n,
	    (double)pt->req.ld.cm / pow(10, pt->req.ld.cs), pt->sample.n,
	    pt->sample.N, pt->sample.alpha, pt->sample.m);
}

/* The numeric dimensions. */
static size_t
numbers(const struct part *pt)
{
	size_t j, n = 0;

	for (j = 0; j < pt->nqi; j++)
		n += pt->dims[j].h == NULL;
	return n;
}

/* The bytes a row of a node in memory takes for a keyed sensitive value
 * and target (mondrian.h): each row has ids of its own there, its
 * values in sens_val and targ_val, and the sensitive ids the counts the
 * in-memory algorithm keeps by id (hs_tot, hs_side, hs_side2, gath,
 * stouch); keyed by hash, a value's id is its key's (local_put), kept
 * with an index of at most four slots a row, and with several columns
 * a tuple's ids in each (tmap, and under --variance sval), with an
 * index, and msens.c's scratch of two pairs a tuple (tv, tv2); labels
 * by hash, a label's key, its index's slots and its counts by id
 * (hl_tot, hl_side, ltouch). */
static size_t
local_row_bytes(const struct part *pt)
{
	size_t c = pt->nshd > 1 ? pt->nshd : 0;

	return (pt->sens_keyed ? sizeof(kn_i128) + 4 * sizeof(uint64_t) +
	    sizeof(uint32_t) : 0) + (pt->targ_keyed ? sizeof(kn_i128) : 0) +
	    (pt->sens_hashed ? pt->nshd * (sizeof(uint64_t) +
	    4 * sizeof(uint32_t)) + c * sizeof(uint32_t) +
	    (c > 0 ? 4 * sizeof(uint32_t) : 0) : 0) +
	    (c > 0 && pt->msvar ? c * sizeof(kn_i128) : 0) +
	    (c > 0 ? 2 * sizeof(kn_tval) : 0) +
	    (pt->targ_hashed ? 3 * sizeof(uint64_t) + 5 * sizeof(uint32_t) :
	    0) + rclose_row_bytes(pt);
}

/* Frees what local_alloc took. */
static void
local_free(struct part *pt)
{
	size_t c;

	rclose_local_free(pt);
	if (pt->sens_keyed) {
		free(pt->sens_val);
		free(pt->hs_tot);
		free(pt->hs_side);
		free(pt->hs_side2);
		free(pt->gath);
		free(pt->stouch);
		pt->sens_val = NULL;
		pt->hs_tot = pt->hs_side = pt->hs_side2 = pt->gath = NULL;
		pt->stouch = NULL;
		pt->nstouch = 0;
		for (c = 0; c < pt->nshd; c++) {
			free(pt->rk->lkey[c]);
			free(pt->rk->lslot[c]);
			pt->rk->lkey[c] = NULL;
			pt->rk->lslot[c] = NULL;
			if (pt->nshd > 1) {
				free(pt->tmap[c]);
				pt->tmap[c] = NULL;
			}
			if (pt->nshd > 1 && pt->msvar) {
				free(pt->sval[c]);
				pt->sval[c] = NULL;
			}
		}
		free(pt->rk->tslot);
		pt->rk->tslot = NULL;
	}
	if (pt->targ_keyed) {
		free(pt->targ_val);
		pt->targ_val = NULL;
	}
	if (pt->targ_hashed) {
		free(pt->hl_tot);
		free(pt->hl_side);
		free(pt->ltouch);
		free(pt->rk->lkey[ROTHKO_LABELS]);
		free(pt->rk->lslot[ROTHKO_LABELS]);
		pt->hl_tot = pt->hl_side = NULL;
		pt->ltouch = NULL;
		pt->nltouch = 0;
		pt->rk->lkey[ROTHKO_LABELS] = NULL;
		pt->rk->lslot[ROTHKO_LABELS] = NULL;
	}
}

/* Room for the keyed values of a node of n rows in memory. */
static void
local_alloc(struct part *pt, uint64_t n)
{
	/* An index of keys (local_id): at least twice as many slots. */
	size_t ns = 2, c;

	while (ns < 2 * (n + 1))
		ns *= 2;
	local_free(pt);
	pt->rk->lmask = ns - 1;
	if (pt->sens_keyed) {
		pt->sens_val = kn_alloc((n + 1) * sizeof(kn_i128));
		pt->hs_tot = kn_zalloc((n + 1) * sizeof(uint64_t));
		pt->hs_side = kn_zalloc((n + 1) * sizeof(uint64_t));
		pt->hs_side2 = kn_zalloc((n + 1) * sizeof(uint64_t));
		pt->gath = kn_zalloc((n + 1) * sizeof(uint64_t));
		pt->stouch = kn_alloc((n + 1) * sizeof(uint32_t));
	}
	if (pt->sens_hashed) {
		for (c = 0; c < pt->nshd; c++) {
			pt->rk->lkey[c] = kn_alloc((n + 1) * sizeof(uint64_t));
			pt->rk->lslot[c] = kn_zalloc(ns * sizeof(uint32_t));
			pt->rk->nlkey[c] = 0;
			if (pt->nshd > 1)
				pt->tmap[c] = kn_alloc((n + 1) *
				    sizeof(uint32_t));
			if (pt->nshd > 1 && pt->msvar)
				pt->sval[c] = kn_alloc((n + 1) *
				    sizeof(kn_i128));
		}
		if (pt->nshd > 1)
			pt->rk->tslot = kn_zalloc(ns * sizeof(uint32_t));
		pt->rk->ntup = 0;
	}
	if (pt->targ_keyed)
		pt->targ_val = kn_alloc((n + 1) * sizeof(kn_i128));
	if (pt->targ_hashed) {
		pt->hl_tot = kn_zalloc((n + 1) * sizeof(uint64_t));
		pt->hl_side = kn_zalloc((n + 1) * sizeof(uint64_t));
		pt->ltouch = kn_alloc((n + 1) * sizeof(uint32_t));
		pt->rk->lkey[ROTHKO_LABELS] =
		    kn_alloc((n + 1) * sizeof(uint64_t));
		pt->rk->lslot[ROTHKO_LABELS] = kn_zalloc(ns * sizeof(uint32_t));
		pt->rk->nlkey[ROTHKO_LABELS] = 0;
	}
}

/* The node's own id of key k in keyed sensitive column c, first seen
 * first. */
static uint32_t
local_id(struct part *pt, size_t c, uint64_t k)
{
	struct rothko *rk = pt->rk;
	size_t h = kn_hash_mix(k) & rk->lmask;
	uint32_t id;

	while ((id = rk->lslot[c][h]) != 0 && rk->lkey[c][id - 1] != k)
		h = (h + 1) & rk->lmask;
	if (id == 0) {
		rk->lkey[c][rk->nlkey[c]] = k;
		id = rk->lslot[c][h] = (uint32_t)++rk->nlkey[c];
	}
	return id - 1;
}

/* With several columns, the node's own id of the tuple of the ids
 * v[0..nshd) of a row's values, first seen first; pt->tmap[c][id] is
 * its value's id in column c (msens.c). */
static uint32_t
tuple_id(struct part *pt, const uint32_t *v)
{
	struct rothko *rk = pt->rk;
	uint64_t x = 0;
	size_t h, c;
	uint32_t id;

	for (c = 0; c < pt->nshd; c++)
		x = kn_hash_mix(x ^ v[c]);
	for (h = x & rk->lmask; (id = rk->tslot[h]) != 0;
	    h = (h + 1) & rk->lmask) {
		for (c = 0; c < pt->nshd && pt->tmap[c][id - 1] == v[c]; c++)
			;
		if (c == pt->nshd)
			return id - 1;
	}
	for (c = 0; c < pt->nshd; c++)
		pt->tmap[c][rk->ntup] = v[c];
	rk->tslot[h] = (uint32_t)++rk->ntup;
	return (uint32_t)(rk->ntup - 1);
}

/* Row i of a node in memory, whose record on disk is d: its keyed
 * values, with i for their ids in its record in memory, m (keyed by
 * hash, the ids of its value's key, or of its tuple of them). */
static void
local_put(struct part *pt, uint32_t *m, const uint32_t *d, uint64_t i)
{
	if (pt->sens_hashed) {
		uint32_t v[KN_MAXSENS] = { 0 }, id;
		size_t c;

		/* With --variance, a value's number by its id (the same
		 * bytes, the same number). */
		for (c = 0; c < pt->nshd; c++) {
			v[c] = local_id(pt, c, mond_sens_col(pt, d, c));
			if (pt->nshd > 1 && pt->nsvd > 0)
				pt->sval[c][v[c]] = mond_snum_col(pt, d, c);
		}
		id = pt->nshd > 1 ? tuple_id(pt, v) : v[0];
		pt->sens_val[id] = pt->nsvd > 0 && pt->nshd == 1 ?
		    mond_snum_col(pt, d, 0) : 0;
		m[pt->word_sens] = id;
	} else if (pt->sens_keyed) {
		pt->sens_val[i] = mond_sval(pt, mond_sens_of(pt, d));
		m[pt->word_sens] = (uint32_t)i;
	}
	if (pt->targ_keyed) {
		pt->targ_val[i] = mond_tval(pt, mond_targ_of(pt, d));
		m[pt->word_targ] = (uint32_t)i;
	}
	if (pt->targ_hashed)
		m[pt->word_targ] = local_id(pt, ROTHKO_LABELS,
		    mond_targ_of(pt, d));
}

/*
 * The bytes a row takes in a node partitioned in memory: its record
 * and the scratch's copy (4 bytes a word each), four ids and two counts
 * (mond_scratch_alloc), and for each number its value and scale (9)
 * and its rank's value and key (16: as many ranks as rows when the
 * numbers are distinct).  Past what the records and numbers take while
 * they are ranked, the ranking takes 24 bytes a row on each thread
 * (rank_dims), at least one in the copy's room.  Keyed values take
 * local_row_bytes more.  A sample (sample_node) takes its records as
 * read (4 bytes a word of the records on disk, one more for each
 * number and keyed value) beside their copies, which this and the 40
 * bytes a row of the sample's tree hold.
 */
static size_t
mem_row_bytes(const struct part *pt)
{
	return 8 * pt->rec_words + 24 + 25 * numbers(pt) +
	    local_row_bytes(pt);
}

/* Whether a node of n rows can be partitioned in memory. */
static int
fits_in_memory(struct part *pt, uint64_t n)
{
	return n * mem_row_bytes(pt) <= pt->rk->avail &&
	    (pt->rk->fit_rows == 0 || n <= pt->rk->fit_rows);
}

/* Room for the keys of n rows of numeric dimension dm, for ranking
 * (rank_numeric: out of core the keys are at the column's scale, which
 * numkey_finish made at least fS). */
static void
key_room(struct dim *dm, uint64_t n)
{
	rothko_local_free(dm);
	dm->raw = kn_alloc((n + 1) * sizeof(int64_t));
	dm->rsc = NULL;
	dm->rmn = UINT64_MAX;
	dm->rmx = dm->rnum = 0;
}

/* Sets row i's key of numeric dimension dm, with the least, the largest
 * and the count of the numbers (a key of 0 is a missing value's, or
 * -2^63's in a column with none missing). */
static void
key_put(struct dim *dm, size_t i, uint64_t key)
{
	dm->raw[i] = (int64_t)key;
	if (key == 0 && dm->miss)
		return;
	dm->rmn = key < dm->rmn ? key : dm->rmn;
	dm->rmx = key > dm->rmx ? key : dm->rmx;
	dm->rnum++;
}

/* The numeric dimensions being ranked on a thread each: the next to
 * take. */
struct rank_pool {
	struct part *pt;
	pthread_mutex_t mu;
	size_t next;
};

/* Ranks numeric dimensions of the pool's node until none is left. */
static void *
rank_run(void *arg)
{
	struct rank_pool *rp = arg;
	struct part *pt = rp->pt;
	size_t j;

	while ((j = mond_rank_next(pt, &rp->mu, &rp->next)) < pt->nqi) {
		struct dim *dm = &pt->dims[j];
		int S = dm->S;

		mond_rank_numeric(pt, dm, j);
		dm->S = S;
	}
	return NULL;
}

/* rank_run on a thread of its own, which leaves the signals to the
 * main thread (kanon.c's cleanup). */
static void *
rank_thread(void *arg)
{
	kn_thread_nosignals();
	return rank_run(arg);
}

/* Ranks each numeric dimension's numbers (mond_rank_numeric), the
 * dimensions side by side on up to jobs threads as far as their scratch
 * (24 bytes a row each) fits in what mem_row_bytes counts for a row and
 * is not yet used (the record, and 25 bytes a row and number: the value
 * and scale, the rank's value and key): each ranks only its own, so the
 * ranks are those of one thread. */
static void
rank_dims(struct part *pt, int jobs)
{
	struct rank_pool rp;
	pthread_t th[64];
	size_t nnum = numbers(pt), spare;
	int k, nt, started;

	spare = mem_row_bytes(pt) - 4 * pt->rec_words - 25 * nnum -
	    local_row_bytes(pt);
	nt = jobs < 64 ? jobs : 64;
	if ((size_t)nt > nnum)
		nt = (int)nnum;
	if ((size_t)nt > spare / 24)
		nt = (int)(spare / 24);
	memset(&rp, 0, sizeof(rp));
	rp.pt = pt;
	pthread_mutex_init(&rp.mu, NULL);
	for (started = 1; started < nt; started++)
		if (pthread_create(&th[started], NULL, rank_thread, &rp) != 0)
			break;
	rank_run(&rp);
	for (k = 1; k < started; k++)
		pthread_join(th[k], NULL);
	pthread_mutex_destroy(&rp.mu);
}

/* Ranks the numbers of the nrows rows in rec among themselves, as in
 * memory: each numeric dimension's keys, taken from the records
 * on disk wide[i] in memory (freed here, before the ranking's
 * scratch is taken), or without wide already in its raw (key_put),
 * become ranks in the records' word j, with the node's vals and lkey.
 * The in-memory algorithm sees only the order of the codes and the
 * values of vals, whose rank 0 stands for a missing value with the
 * table's least number, as in memory. */
static void
rank_in_memory(struct part *pt, uint32_t *wide, int jobs)
{
	size_t j, i, n = pt->nrows;
	uint32_t r0;

	for (j = 0; j < pt->nqi && wide != NULL; j++) {
		struct dim *dm = &pt->dims[j];

		if (dm->h != NULL)
			continue;
		key_room(dm, n);
		for (i = 0; i < n; i++)
			key_put(dm, i, numkey_get(wide + i * pt->dwords, j,
			    dm->kword));
	}
	free(wide);
	rank_dims(pt, jobs);
	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j];

		if (dm->h != NULL)
			continue;
		dm->lcap = (size_t)dm->nrank + 2;
		dm->lkey = kn_alloc(dm->lcap * sizeof(uint64_t));
		for (r0 = 0; r0 < dm->nrank; r0++)
			dm->lkey[r0] = (uint64_t)dm->vals[r0] ^
			    ((uint64_t)1 << 63);
		if (dm->miss) {
			dm->lkey[0] = 0;
			dm->vals[0] = dm->gmn;
		}
	}
}

void
rothko_sens_reserve(struct part *pt)
{
	/* Recursive l's largest counts, out of the nodes' share, whatever
	 * the groups take (rsens.c). */
	size_t r = rsens_reserve(pt);

	if (r > pt->rk->avail / 8)
		mond_too_small(pt, "recursive l-diversity keeps the l - 1 "
		    "largest counts of a part on disk%s (%zu KiB), more than an "
		    "eighth of the %zu KiB the nodes have", pt->nsens > 1 ?
		    ", in each sensitive column" : "", (r >> 10) + 1,
		    pt->rk->avail >> 10);
	pt->rk->avail -= r;
}

/* The values held for --closeness known by their hashes amid the run
 * (mondrian.h, sens_hkey). */
static void
rothko_sens_hashed(struct part *pt)
{
	if (pt->tcord)
		rclose_switch(pt);
	else
		mond_sens_hashed(pt, pt->rk->tmpdir, pt->rk->jobs);
}

/*
 * The next node loaded ahead (issue 18).  With -j above 1, while a node
 * is partitioned in memory a thread reads and ranks the next node on the
 * stack (load_node) when that one is to be partitioned in memory too and
 * both fit the budget together.  It works on a copy of the run with
 * dimensions of its own, whose records and ranks the next solve takes
 * over: only when the work is done changes, not what it does, so the
 * output is the same bytes.  Not with values keyed in a node (local_put:
 * their tables are the run's own), nor for the spool.  The node file is
 * opened by the caller (the temp files' list is not for threads) and
 * the reader draws no progress.
 */
struct preload {
	struct part hp;		/* the copy of the run */
	struct onode on;	/* the node */
	struct oread rd;
	pthread_t th;
};

/* The threads of -j that partition a node of n rows in memory
 * (mpar.c): as many as what is left of the budget past the node's rows
 * holds the scratch of each beyond the first (worker_init: its counts
 * by sensitive value and label, closeness's values, its node and
 * stack), and one for a node whose classes go to the pairs file. */
static int
threads_for(struct part *pt, uint64_t n)
{
	size_t used = n * mem_row_bytes(pt), each;
	int k, jobs = pt->rk->jobs;

	/* A node loaded meanwhile takes its room and a thread. */
	if (pt->rk->pre != NULL) {
		used += pt->rk->pre->on.n * mem_row_bytes(pt);
		jobs--;
	}
	if (pt->row_class == NULL || used >= pt->rk->avail)
		return 1;
	each = (pt->sens_dict.n + 1) * (4 * sizeof(uint64_t) +
	    sizeof(uint32_t) + 2 * sizeof(kn_tval)) +
	    (pt->targ_dict.n + 1) * (2 * sizeof(uint64_t) + sizeof(uint32_t)) +
	    ((size_t)64 << 10);
	for (k = 1; k < jobs && used + each <= pt->rk->avail; k++)
		used += each;
	return k;
}

/*
 * The classes of a node's rows in memory go to an array of the node's
 * own, each record's row word its place in the node, so that the
 * threads of -j can partition it (mpar.c numbers its classes as one
 * thread would); then to the pairs file, in the node's order.  Its two
 * words a row take 8 of the 9 bytes a row and number that the ranking
 * frees (rank_in_memory; mem_row_bytes), so a node with no number
 * writes its pairs as it goes, on one thread.
 */
static void
node_classes(struct part *pt, uint64_t n)
{
	uint64_t i;

	pt->node_row = kn_alloc((n + 1) * sizeof(uint32_t));
	pt->row_class = kn_alloc((n + 1) * sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		uint32_t *r = pt->rec + i * pt->rec_words;

		pt->node_row[i] = r[pt->word_row];
		r[pt->word_row] = (uint32_t)i;
	}
}

/* Writes the pairs of the node's classes (node_classes). */
static void
node_pairs(struct part *pt, uint64_t n)
{
	uint32_t pr[2 * 1024];
	uint64_t i;
	size_t m = 0;

	for (i = 0; i <= n; i++) {
		if (m == 1024 || (i == n && m > 0)) {
			if (fwrite(pr, 2 * sizeof(uint32_t), m, pt->pairs) !=
			    m)
				kn_die_sys("%s: write error", pt->pairs_path);
			pt->acct.bwritten += m * 2 * sizeof(uint32_t);
			m = 0;
		}
		if (i == n)
			break;
		pr[2 * m] = pt->node_row[i];
		pr[2 * m + 1] = pt->row_class[i];
		m++;
	}
	free(pt->node_row);
	free(pt->row_class);
	pt->node_row = NULL;
	pt->row_class = NULL;
}

/* Reads a node's n records (opened in rd) into pt->rec, each number's
 * key taken in the same scan (key_put: 8 bytes a row and number, within
 * what mem_row_bytes counts), and ranks the numbers among the node's
 * (rank_in_memory). */
static void
load_node(struct part *pt, struct oread *rd, uint64_t n)
{
	uint32_t *r;
	uint64_t i = 0;
	size_t j;

	for (j = 0; j < pt->nqi; j++)
		if (pt->dims[j].h == NULL)
			key_room(&pt->dims[j], n);
	pt->rec = kn_alloc((n + 1) * pt->rec_words * sizeof(uint32_t));
	while ((r = rothko_read_next(pt, rd)) != NULL) {
		for (j = 0; j < pt->nqi; j++)
			if (pt->dims[j].h == NULL)
				key_put(&pt->dims[j], i, numkey_get(r, j,
				    pt->dims[j].kword));
		memcpy(pt->rec + i * pt->rec_words, r,
		    pt->rec_words * sizeof(uint32_t));
		local_put(pt, pt->rec + i * pt->rec_words, r, i);
		i++;
	}
	rothko_read_close(rd);
	rclose_local(pt);
	pt->nrows = n;
	rank_in_memory(pt, NULL, rd->solo ? 1 : pt->rk->jobs);
}

static void *
preload_run(void *arg)
{
	struct preload *pl = arg;

	kn_thread_nosignals();
	load_node(&pl->hp, &pl->rd, pl->on.n);
	return NULL;
}

/* Starts loading node nx, next after a node of n rows, if it may be. */
static void
preload_start(struct part *pt, uint64_t n, const struct onode *nx)
{
	struct preload *pl;
	size_t j;

	if (nx == NULL || pt->rk->jobs < 2 || nx->raw ||
	    local_row_bytes(pt) != 0 || !fits_in_memory(pt, n + nx->n))
		return;
	pl = kn_zalloc(sizeof(*pl));
	pl->hp = *pt;
	/* Every dimension, the keyed columns' after the QIs too. */
	pl->hp.dims = kn_alloc(pt->nkd * sizeof(struct dim));
	memcpy(pl->hp.dims, pt->dims, pt->nkd * sizeof(struct dim));
	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pl->hp.dims[j];

		if (dm->h != NULL)
			continue;
		dm->raw = NULL;
		dm->rsc = NULL;
		dm->vals = NULL;
		dm->lkey = NULL;
		dm->lcap = 0;
		dm->nrank = 0;
	}
	pl->hp.rec = NULL;
	memset(&pl->hp.acct, 0, sizeof(pl->hp.acct));
	pl->on = *nx;
	rothko_read_open(&pl->hp, &pl->rd, &pl->on);
	pl->rd.solo = 1;
	if (pthread_create(&pl->th, NULL, preload_run, pl) != 0) {
		rothko_read_close(&pl->rd);
		free(pl->hp.dims);
		free(pl);
		return;
	}
	pt->rk->pre = pl;
}

/* Waits for the node loaded ahead, if any, and takes it over: it is
 * node on, the next on the stack when it was started.  Returns whether
 * there was one. */
static int
preload_take(struct part *pt, const struct onode *on)
{
	struct preload *pl = pt->rk->pre;
	size_t j;

	if (pl == NULL)
		return 0;
	pthread_join(pl->th, NULL);
	if (on->path != pl->on.path)
		kn_die("%s: internal error: another node loaded ahead",
		    on->path);
	pt->rk->pre = NULL;
	pt->acct.scans += pl->hp.acct.scans;
	pt->acct.bread += pl->hp.acct.bread;
	for (j = 0; j < pt->nqi; j++) {
		struct dim *dm = &pt->dims[j], *lm = &pl->hp.dims[j];

		if (dm->h != NULL)
			continue;
		rothko_local_free(dm);
		dm->vals = lm->vals;
		dm->lkey = lm->lkey;
		dm->lcap = lm->lcap;
		dm->nrank = lm->nrank;
	}
	pt->rec = pl->hp.rec;
	pt->nrows = pl->hp.nrows;
	free(pl->hp.dims);
	free(pl);
	return 1;
}

/* Partitions a node in memory (load_node, or the node loaded ahead),
 * and runs the stack of mond_partition() over it, class ids continuing;
 * meanwhile the next node nx (or NULL) may be loaded (preload_start). */
static void
solve_in_memory(struct part *pt, const struct onode *on,
    const struct onode *nx, const char *checkname)
{
	struct oread rd;
	size_t i;

	local_alloc(pt, on->n);
	if (!preload_take(pt, on)) {
		rothko_read_open(pt, &rd, on);
		load_node(pt, &rd, on->n);
	}
	preload_start(pt, on->n, nx);
	mond_scratch_alloc(pt, 1);
	if (checkname != NULL)
		rothko_root_check(pt, checkname);
	if (numbers(pt) > 0)
		node_classes(pt, on->n);
	mpar_partition(pt, threads_for(pt, on->n));
	if (pt->row_class != NULL)
		node_pairs(pt, on->n);
	mond_scratch_alloc(pt, 0);
	for (i = 0; i < pt->nqi; i++)
		rothko_local_free(&pt->dims[i]);
	local_free(pt);
	pt->acct.inmem++;
}

/* Makes a node on disk one class. */
static void
big_leaf(struct part *pt, const struct onode *on)
{
	struct oread rd;
	uint32_t *r, id = ++pt->nclasses;
	size_t j, i;

	if (on->n > pt->max_class)
		pt->max_class = on->n;
	pt->acct.bigleaf++;
	rothko_read_open(pt, &rd, on);
	while ((r = rothko_read_next(pt, &rd)) != NULL)
		mond_class_assign(pt, r[pt->word_row], id);
	rothko_read_close(&rd);
	if (pt->regions_fp == NULL) {
		pt->rk->streaming = 0;
		return;
	}
	mond_region_clear(pt);
	for (j = 0; j < pt->nqi; j++)
		if (rothko_streamed(pt, j)) {
			pt->sums[j] = pt->rk->sst[j].sum;
			pt->nmiss[j] = pt->rk->sst[j].nmiss;
			pt->mnp[j] = 1;
		} else if (pt->dims[j].h == NULL)
			for (i = 0; i < pt->rk->gtab[j].n; i++)
				mond_region_add(pt, j,
				    pt->rk->gtab[j].e[i].code,
				    pt->rk->gtab[j].e[i].cnt);
	mond_region(pt, id, on->n, pt->sums);
	pt->rk->streaming = 0;
}

/* ---- out of core: Rothko-S (paper 004 §3) ------------------------- */

static void pstat_add(struct part *pt, struct pstat *p, const uint32_t *r);

/* Reads a simple random sample of ns of the node's records into rec, in
 * file order: selection sampling (Knuth, TAOCP vol. 2, 3.4.2, algorithm
 * S), record i of the node's n taken with the chance (ns - taken) / (n -
 * i), in one pass with no sort. */
static void
sample_node(
    struct part *pt, const struct onode *on, uint64_t ns, struct pstat *all)
{
	struct oread rd;
	uint32_t *r, *wide, *cp;
	uint64_t i = 0, q = 0;

	wide = kn_alloc((ns + 1) * pt->dwords * sizeof(uint32_t));
	rothko_read_open(pt, &rd, on);
	while ((r = rothko_read_next(pt, &rd)) != NULL) {
		if (all != NULL)
			pstat_add(pt, all, r);
		if (q < ns && i < on->n &&
		    kn_rand_below(&pt->rk->seed, on->n - i) < ns - q) {
			memcpy(wide + q * pt->dwords, r,
			    pt->dwords * sizeof(uint32_t));
			q++;
		}
		i++;
	}
	rothko_read_close(&rd);
	if (i != on->n || q != ns)
		kn_die("%s: internal error: %llu records of %llu, %llu sampled "
		    "of %llu", on->path, (unsigned long long)i,
		    (unsigned long long)on->n, (unsigned long long)q,
		    (unsigned long long)ns);
	cp = kn_alloc((ns + 1) * pt->rec_words * sizeof(uint32_t));
	local_alloc(pt, ns);
	for (q = 0; q < ns; q++) {
		memcpy(cp + q * pt->rec_words, wide + q * pt->dwords,
		    pt->rec_words * sizeof(uint32_t));
		local_put(pt, cp + q * pt->rec_words, wide + q * pt->dwords,
		    q);
	}
	rclose_local(pt);
	pt->rec = cp;
	pt->nrows = ns;
	rank_in_memory(pt, wide, pt->rk->jobs);
}

/* Counts record r into p. */
static void
pstat_add(struct part *pt, struct pstat *p, const uint32_t *r)
{
	p->n++;
	if (!pt->has_sens)
		return;
	/* Keyed by hash, the counts are not needed: a set of ceil(l)
	 * values tells whether there are l. */
	if (pt->sens_sorted)
		;	/* judged from sorts (rsens_tree_ok) */
	else if (pt->sens_hashed) {
		if (p->ls == NULL)
			p->ls = kn_zalloc((rothko_lcap(pt) + 1) *
			    sizeof(uint64_t));
		rothko_lset_put(p->ls, rothko_lcap(pt), mond_sens_of(pt, r));
	} else if (pt->req.ld.on || pt->req.hast || pt->nsens > 1)
		rothko_gtab_add(pt, &p->h, r[pt->word_sens], 0, 0, 1, 0, NULL);
	if (pt->req.hasv && !pt->sens_sorted) {
		kn_i128 v = mond_sval(pt, mond_sens_of(pt, r));

		p->s += v;
		p->ss += v * v;
	}
}

/* Frees p's counts of the sensitive values. */
static void
pstat_free(struct pstat *p)
{
	free(p->h.e);
	free(p->h.slot);
	free(p->ls);
	memset(&p->h, 0, sizeof(p->h));
	p->ls = NULL;
}

/* Whether population statistics meet every requirement, exactly. */
static int
pstat_ok(struct part *pt, const struct pstat *p)
{
	size_t i;

	if (pt->sens_sorted)
		return p->n >= pt->req.k && p->lok;
	if (!mond_k_var_ok(pt, p->n, p->s, p->ss))
		return 0;
	if (pt->sens_hashed)
		return p->ls != NULL && p->ls[0] >= pt->req.ld.lceil;
	if (pt->req.ld.on && pt->nsens <= 1) {
		for (i = 0; i < p->h.n; i++)
			pt->gath[i] = p->h.e[i].cnt;
		if (!mond_gath_ok(pt, p->h.n, p->n))
			return 0;
	}
	if (!pt->req.hast && pt->nsens <= 1)
		return 1;
	/* t-closeness and several columns, exactly, against the whole
	 * table. */
	pt->tv = kn_grow(pt->tv, &pt->tvcap, p->h.n, sizeof(kn_tval), 64);
	for (i = 0; i < p->h.n; i++) {
		pt->tv[i].pos = p->h.e[i].code;
		pt->tv[i].cnt = p->h.e[i].cnt;
	}
	return msens_pairs_ok(pt, pt->tv, p->h.n, p->n);
}

/* Adds b's statistics to a's, and with files b's records too. */
static void
pstat_merge(struct part *pt, struct pstat *a, struct pstat *b, int files)
{
	size_t i;

	a->n += b->n;
	a->s += b->s;
	a->ss += b->ss;
	for (i = 0; i < b->h.n; i++)
		rothko_gtab_add(pt, &a->h, b->h.e[i].code, 0, 0, b->h.e[i].cnt,
		    0, NULL);
	if (b->ls != NULL && a->ls == NULL) {
		a->ls = b->ls;
		b->ls = NULL;
	} else if (b->ls != NULL)
		rothko_lset_union(a->ls, b->ls, rothko_lcap(pt));
	if (!files)
		return;
	if (b->path != NULL) {
		if (a->path == NULL) {
			a->path = b->path;
			b->path = NULL;
		} else {
			/* Append b's records to a's file. */
			FILE *in = kn_tmp_open(b->path, "rb"), *out;
			char buf[65536];
			size_t got;

			if (in == NULL ||
			    (out = kn_tmp_open(a->path, "ab")) == NULL)
				kn_die_sys("%s", in == NULL ? b->path :
				    a->path);
			while ((got = fread(buf, 1, sizeof(buf), in)) > 0) {
				pt->acct.bread += got;
				pt->acct.bwritten += got;
				if (fwrite(buf, 1, got, out) != got)
					kn_die_sys("%s: write error", a->path);
			}
			if (ferror(in) || fclose(out) != 0)
				kn_die_sys("%s", a->path);
			fclose(in);
			kn_tmp_close(b->path);
			b->path = NULL;
		}
	}
	pstat_free(b);
}

/* Moves the records of the leaves under t (t included) into p. */
static void
merge_down(struct part *pt, size_t t, struct pstat *ps, struct pstat *p)
{
	size_t k;

	if (pt->grow.t[t].leaf) {
		struct pstat tmp = ps[t];

		/* Only the records: p has the statistics already, or gets
		 * them from the kids' sums below. */
		memset(&tmp.h, 0, sizeof(tmp.h));
		tmp.ls = NULL;
		tmp.n = 0;
		tmp.s = tmp.ss = 0;
		pstat_merge(pt, p, &tmp, 1);
		ps[t].path = NULL;
		return;
	}
	for (k = 0; k < pt->grow.t[t].nkid; k++)
		merge_down(pt, pt->grow.t[t].kid0 + k, ps, p);
}

/* The number of nodes under t (t excluded). */
static uint64_t
subtree_size(struct part *pt, size_t t)
{
	uint64_t n = 0;
	size_t k;

	if (pt->grow.t[t].leaf)
		return 0;
	for (k = 0; k < pt->grow.t[t].nkid; k++)
		n += 1 + subtree_size(pt, pt->grow.t[t].kid0 + k);
	return n;
}

/* The cuts left in the subtree of t. */
static uint64_t
count_cuts(struct part *pt, size_t t)
{
	uint64_t n = 0;
	size_t k;

	if (pt->grow.t[t].leaf)
		return 0;
	for (k = 0; k < pt->grow.t[t].nkid; k++)
		n += count_cuts(pt, pt->grow.t[t].kid0 + k);
	return n + 1;
}

/* Collects the final leaves under t, in order, into st (pushed in
 * reverse later). */
static void
tree_collect(struct part *pt, size_t t, struct pstat *ps, struct onode *out,
    size_t *nout)
{
	size_t k;

	if (pt->grow.t[t].leaf) {
		if (ps[t].n == 0) {
			if (ps[t].path != NULL)
				kn_tmp_close(ps[t].path);
			ps[t].path = NULL;
			return;
		}
		out[*nout].path = ps[t].path;
		out[*nout].n = ps[t].n;
		out[*nout].raw = 0;
		out[*nout].big = pt->grow.t[t].big;
		out[*nout].spec = pt->grow.t[t].spec;
		ps[t].path = NULL;
		(*nout)++;
		return;
	}
	for (k = 0; k < pt->grow.t[t].nkid; k++)
		tree_collect(pt, pt->grow.t[t].kid0 + k, ps, out, nout);
}

/*
 * The writing of route_rows: each leaf's records are gathered in a
 * buffer of its own and written a buffer at a time (numkey_write).
 * With -j above 1 a thread of its own packs and writes the full
 * buffers, in the order they filled, while the rows are routed into
 * each leaf's other buffer.
 */
struct rwrite {
	struct part *pt;
	struct pstat *ps;
	uint32_t *wb;		/* per leaf two buffers of per records */
	size_t per, *wn;	/* the records in the buffer being filled */
	int *cur;		/* which of a leaf's two is being filled */
	int *busy;		/* the other one waits to be written */
	/* The writer's queue of full buffers: leaf, buffer, records. */
	size_t *qt, *qn;
	int *qb;
	size_t qcap, qhead, qlen;
	int threaded, done;
	uint64_t written;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static uint32_t *
rw_buf(const struct rwrite *w, size_t t, int b)
{
	return w->wb + (2 * t + (size_t)b) * w->per * w->pt->dwords;
}

static void *
rw_run(void *arg)
{
	struct rwrite *w = arg;

	kn_thread_nosignals();
	pthread_mutex_lock(&w->mu);
	for (;;) {
		size_t t, n;
		int b;
		uint64_t bytes;

		while (w->qlen == 0 && !w->done)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->qlen == 0)
			break;
		t = w->qt[w->qhead];
		b = w->qb[w->qhead];
		n = w->qn[w->qhead];
		w->qhead = (w->qhead + 1) % w->qcap;
		w->qlen--;
		pthread_mutex_unlock(&w->mu);
		bytes = numkey_write(w->pt, w->ps[t].f, w->ps[t].path,
		    rw_buf(w, t, b), n, 0);
		pthread_mutex_lock(&w->mu);
		w->written += bytes;
		w->busy[t] = 0;
		pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* Hands leaf t's buffer being filled to the writer (or writes it), and
 * takes the other once it is written. */
static void
rw_flush(struct rwrite *w, size_t t)
{
	int b = w->cur[t];

	if (w->wn[t] == 0)
		return;
	if (!w->threaded) {
		w->written += numkey_write(w->pt, w->ps[t].f, w->ps[t].path,
		    rw_buf(w, t, b), w->wn[t], 0);
		w->wn[t] = 0;
		return;
	}
	pthread_mutex_lock(&w->mu);
	while (w->busy[t])
		pthread_cond_wait(&w->cv, &w->mu);
	w->busy[t] = 1;
	w->qt[(w->qhead + w->qlen) % w->qcap] = t;
	w->qb[(w->qhead + w->qlen) % w->qcap] = b;
	w->qn[(w->qhead + w->qlen) % w->qcap] = w->wn[t];
	w->qlen++;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	w->cur[t] = b ^ 1;
	w->wn[t] = 0;
}

/* Writes the records of a node to one file per leaf of the tree pt->grow
 * (ps[t].path), counting the leaves' rows in ps[t].n, or with stats all
 * of their population statistics.  Each leaf has two buffers (of up to
 * 64 KiB each, together an eighth of what the nodes may use): one
 * filled while the other is written. */
static void
route_rows(struct part *pt, const struct onode *on, struct pstat *ps, int stats)
{
	struct oread rd;
	struct rwrite w;
	uint32_t *r;
	size_t t, i, n, dw = pt->dwords, nt = pt->grow.n;

	for (t = 0; t < nt; t++) {
		pt->grow.t[t].left = pt->grow.t[t].eqleft;
		if (!pt->grow.t[t].leaf)
			continue;
		ps[t].path = kn_tmp_new(pt->rk->tmpdir);
		if ((ps[t].f = kn_tmp_open(ps[t].path, "wb")) == NULL)
			kn_die_sys("%s", ps[t].path);
	}
	memset(&w, 0, sizeof(w));
	w.pt = pt;
	w.ps = ps;
	w.per = pt->rk->avail / 16 / (nt + 1) / (dw * sizeof(uint32_t));
	if (w.per > 65536 / (dw * sizeof(uint32_t)))
		w.per = 65536 / (dw * sizeof(uint32_t));
	if (w.per < 1)
		w.per = 1;
	w.wb = kn_alloc(2 * nt * w.per * dw * sizeof(uint32_t));
	w.wn = kn_zalloc(nt * sizeof(size_t));
	w.cur = kn_zalloc(nt * sizeof(int));
	w.busy = kn_zalloc(nt * sizeof(int));
	w.qcap = nt + 1;
	w.qt = kn_alloc(w.qcap * sizeof(size_t));
	w.qn = kn_alloc(w.qcap * sizeof(size_t));
	w.qb = kn_alloc(w.qcap * sizeof(int));
	if (pt->rk->jobs > 1) {
		pthread_mutex_init(&w.mu, NULL);
		pthread_cond_init(&w.cv, NULL);
		w.threaded = pthread_create(&w.th, NULL, rw_run, &w) == 0;
		if (!w.threaded) {
			pthread_mutex_destroy(&w.mu);
			pthread_cond_destroy(&w.cv);
		}
	}
	rothko_read_open(pt, &rd, on);
	/* Its statistics over the budget (gover, counted softly): the
	 * caller makes the step again. */
	while (!pt->rk->gover &&
	    (r = rothko_read_chunk(pt, &rd, &n)) != NULL)
		for (i = 0; i < n; i++, r += dw) {
			size_t lt = rothko_tree_route(pt, r);
			struct pstat *p = &ps[lt];

			if (stats)
				pstat_add(pt, p, r);
			else
				p->n++;
			memcpy(rw_buf(&w, lt, w.cur[lt]) + w.wn[lt]++ * dw, r,
			    dw * sizeof(uint32_t));
			if (w.wn[lt] == w.per)
				rw_flush(&w, lt);
		}
	rothko_read_close(&rd);
	for (t = 0; t < nt; t++)
		if (ps[t].f != NULL)
			rw_flush(&w, t);
	if (w.threaded) {
		pthread_mutex_lock(&w.mu);
		w.done = 1;
		pthread_cond_broadcast(&w.cv);
		pthread_mutex_unlock(&w.mu);
		pthread_join(w.th, NULL);
		pthread_mutex_destroy(&w.mu);
		pthread_cond_destroy(&w.cv);
	}
	pt->acct.bwritten += w.written;
	for (t = 0; t < nt; t++) {
		if (ps[t].f == NULL)
			continue;
		if (fflush(ps[t].f) != 0 || ferror(ps[t].f))
			kn_die_sys("%s: write error", ps[t].path);
		fclose(ps[t].f);
		ps[t].f = NULL;
	}
	free(w.wb);
	free(w.wn);
	free(w.cur);
	free(w.busy);
	free(w.qt);
	free(w.qn);
	free(w.qb);
	pt->acct.repart++;
}

/* Frees a step's statistics ps, the files of its leaves not handed on,
 * and its tree. */
static void
step_free(struct part *pt, struct pstat *ps)
{
	size_t t;

	for (t = 0; t < pt->grow.n; t++) {
		pstat_free(&ps[t]);
		if (ps[t].path != NULL)
			kn_tmp_close(ps[t].path);
		free(pt->grow.t[t].cid);
	}
	free(ps);
	free(pt->grow.t);
	free(pt->grow.tcls);
	free(pt->grow.stnode);
	memset(&pt->grow, 0, sizeof(pt->grow));
}

/* One step of Rothko-S on a node too large for memory: grow a tree on
 * a sample with the tests of 004 §3.1, repartition the node across its
 * leaves counting their population statistics, merge back every
 * subtree with a part that fails a requirement, and hand the leaves
 * back (into kids, in order).  Returns the number of kids; 0 when the
 * sample made no progress. */
static size_t
rothko_s_step(struct part *pt, const struct onode *on, struct onode **kids,
    const char *checkname)
{
	uint64_t ns, kk, lo, hi;
	struct pstat *ps;
	size_t t, nk = 0;

again:
	/* The sample takes the room of a node in memory (mem_row_bytes),
	 * and 40 bytes a row for the tree grown on it. */
	ns = pt->rk->avail / (mem_row_bytes(pt) + 40);
	if (pt->rk->sample_max != 0 && ns > pt->rk->sample_max)
		ns = pt->rk->sample_max;
	if (pt->rk->fit_rows != 0 && ns > pt->rk->fit_rows)
		ns = pt->rk->fit_rows;
	if (ns > on->n)
		ns = on->n;
	if (ns < 2 && pt->rk->fit_rows == 1)
		kn_die("--fit-rows 1: a sample of Rothko-S takes at most "
		    "--fit-rows rows, and needs two: give --fit-rows 2 or "
		    "more");
	if (ns < 2)
		mond_too_small(pt, "a sample of two rows does not fit");
	pt->rk->gbytes = 0;
	if (checkname != NULL) {
		/* The whole table must meet the requirements. */
		struct pstat all;

		memset(&all, 0, sizeof(all));
		sample_node(pt, on, ns, &all);
		if (pt->sens_sorted) {
			pt->rk->snode = on;
			pt->rk->stn = -1;
			all.lok = rsens_node_ok(pt);
		}
		if (!pstat_ok(pt, &all)) {
			mond_no_solution(checkname, on->n);
		}
		pstat_free(&all);
	} else
		sample_node(pt, on, ns, NULL);
	/* Growth. */
	pt->nrows = ns;
	pt->sample.on = 1;
	pt->sample.test = sample_ok;
	pt->sample.n = ns;
	pt->sample.N = on->n;
	pt->sample.k = pt->req.k;
	pt->sample.alpha = pt->rk->alpha;
	pt->sample.m = 2;
	/* The least sample count that passes the k test of a binary cut
	 * stands for k in the sample. */
	for (lo = 1, hi = ns + 1; lo < hi;) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (pt->sample.naive
			? (long double)mid * on->n >=
			    (long double)pt->req.k * ns
			: hypo_k(mid, ns, on->n, pt->req.k, pt->rk->alpha, 2))
			hi = mid;
		else
			lo = mid + 1;
	}
	kk = pt->req.k;
	pt->req.k = lo;
	pt->grow.on = 1;
	pt->grow.n = 0;
	pt->grow.maxdepth = 8;
	pt->grow.maxleaves = 256;
	mond_scratch_alloc(pt, 1);
	mond_partition(pt);
	mond_scratch_alloc(pt, 0);
	for (t = 0; t < pt->nqi; t++)
		rothko_local_free(&pt->dims[t]);
	local_free(pt);
	pt->req.k = kk;
	pt->sample.on = 0;
	pt->grow.on = 0;
	if (pt->grow.t[0].leaf) {
		free(pt->grow.t);
		free(pt->grow.tcls);
		free(pt->grow.stnode);
		memset(&pt->grow, 0, sizeof(pt->grow));
		return 0;
	}
	/* Repartitioning, with the population statistics of the leaves.
	 * The values of --closeness held (sens_hkey) may outgrow the
	 * budget there: counted softly (gover), and known by their hashes
	 * then. */
	ps = kn_zalloc(pt->grow.n * sizeof(struct pstat));
	pt->rk->gbytes = 0;
	pt->rk->gover = 0;
	pt->rk->gsoft = pt->sens_hkey && !pt->sens_sorted;
	route_rows(pt, on, ps, 1);
	if (pt->sens_sorted) {
		int *ok = kn_alloc((pt->grow.n + 1) * sizeof(int));

		rsens_tree_ok(pt, on, ok);
		for (t = 0; t < pt->grow.n; t++)
			ps[t].lok = ok[t];
		free(ok);
	}
	/* Pruning, bottom up: kids come after their parents. */
	for (t = pt->grow.n; t-- > 0 && !pt->rk->gover;) {
		struct tnode *tn = &pt->grow.t[t];
		size_t k;
		int bad = 0;

		if (tn->leaf)
			continue;
		for (k = 0; k < tn->nkid; k++) {
			struct pstat *kp = &ps[tn->kid0 + k];

			bad |= kp->n > 0 && !pstat_ok(pt, kp);
		}
		/* Rows of a child the sample did not have, or outside the
		 * sample's node: the parts would not be disjoint regions of
		 * the hierarchy, so the cut is undone too. */
		if (tn->hier && ps[tn->kid0 + tn->nkid - 1].n > 0)
			bad = 1;
		for (k = 0; k < tn->nkid; k++)
			pstat_merge(pt, &ps[t], &ps[tn->kid0 + k], 0);
		if (bad) {
			/* Merge the subtree back into t. */
			pt->pruned += subtree_size(pt, t);
			for (k = 0; k < tn->nkid; k++)
				merge_down(pt, tn->kid0 + k, ps, &ps[t]);
			tn->leaf = 1;
		}
	}
	pt->rk->gsoft = 0;
	if (pt->rk->gover) {
		/* The step made again with the values by their hashes, as
		 * past an eighth of -S (mload.c). */
		step_free(pt, ps);
		pt->rk->gover = 0;
		rothko_sens_hashed(pt);
		rothko_sens_reserve(pt);
		goto again;
	}
	if (pt->grow.t[0].leaf) {
		/* Everything merged back: no progress. */
		if (ps[0].path != NULL)
			kn_tmp_close(ps[0].path);
		ps[0].path = NULL;
		nk = 0;
	} else {
		*kids = kn_alloc(pt->grow.n * sizeof(struct onode));
		tree_collect(pt, 0, ps, *kids, &nk);
		pt->ncuts += count_cuts(pt, 0);
	}
	step_free(pt, ps);
	return nk;
}

/* Repartitions a node across the leaves of the tree pt->grow; fills kids
 * with the nonempty leaves in order.  Returns their number. */
static size_t
repartition_tree(struct part *pt, const struct onode *on, struct onode **kids)
{
	struct pstat *ps = kn_zalloc(pt->grow.n * sizeof(struct pstat));
	size_t nk = 0;

	route_rows(pt, on, ps, 0);
	*kids = kn_alloc((pt->grow.n + 1) * sizeof(struct onode));
	tree_collect(pt, 0, ps, *kids, &nk);
	free(ps);
	return nk;
}

size_t
rothko_scan_bytes(const struct part *pt)
{
	return rothko_read_bytes(pt) + 2 * rothko_read_cap(pt) * sizeof(long);
}

/* The batch's slots of the n records at r (none when r is NULL), routed
 * in order through the tree. */
static void
route_chunk(struct part *pt, const uint32_t *r, size_t n, const long *slot,
    long *sl)
{
	size_t i;

	for (i = 0; r != NULL && i < n; i++)
		sl[i] = slot[rothko_tree_route(pt, r + i * pt->dwords)];
}

/* The rows of the n tree nodes at front. */
static uint64_t
front_rows(const struct part *pt, const size_t *front, size_t n)
{
	uint64_t rows = 0;

	while (n-- > 0)
		rows += pt->grow.t[front[n]].n;
	return rows;
}

/* One step of Rothko-T on a node too large for memory (004 §2): the
 * tree is grown breadth first, the frequency groups of up to fcache
 * nodes counted per scan by routing every row through it, each cut
 * chosen from them exactly as in memory; then the rows are
 * repartitioned across the leaves, which are handed back in order.
 * Returns 0 when the node itself has no allowable cut. */
static size_t
rothko_t_step(struct part *pt, const struct onode *on, struct onode **kids,
    const char *checkname)
{
	struct gtab *G, *gsave = pt->rk->gtab;
	size_t *front, nf = 0, fb = 0, nb, b, t, j, n, i;
	long *slot, *sl[2];
	struct oread rd;
	uint32_t *r;
	size_t nk;
	int stop = 0;

	sl[0] = kn_alloc(rothko_read_cap(pt) * sizeof(long));
	sl[1] = kn_alloc(rothko_read_cap(pt) * sizeof(long));
	pt->grow.n = 0;
	pt->grow.cap = 0;
	pt->grow.t = NULL;
	t = mond_tree_node_new(pt, 0);
	pt->grow.t[t].n = on->n;
	pt->grow.t[t].spec = on->raw ? rothko_table_spec(pt) : on->spec;
	front = kn_alloc(1024 * sizeof(size_t));
	front[nf++] = t;
	G = kn_zalloc(pt->rk->fcache * pt->nqi * sizeof(struct gtab));
	/* Level by level, a batch of up to FCACHE nodes a scan, while the
	 * nodes left to count fit in two batches: past that the rows are
	 * repartitioned, and each part's scans read only its rows.  Under
	 * Rothko-S, whose samples of the parts depend on which parts the
	 * step makes, in one batch, and a cut deferred past 512 tree nodes
	 * by the count of its groups, as Rothko-S's output has been. */
	while (fb < nf && nf - fb <= (pt->rk->sampling ? 1 : 2) *
	    pt->rk->fcache && pt->grow.n + 2 < 512 && !stop &&
	    (pt->rk->sampling || 4 * front_rows(pt, front + fb, nf - fb) >=
	    on->n)) {
		nb = nf - fb < pt->rk->fcache ? nf - fb : pt->rk->fcache;
		/* Labels by hash: every number streamed, their counts by
		 * label sorted (rcut.c). */
		pt->rk->streaming = pt->targ_hashed;
again:
		slot = kn_alloc(pt->grow.n * sizeof(long));
		for (t = 0; t < pt->grow.n; t++) {
			slot[t] = -1;
			pt->grow.t[t].left = pt->grow.t[t].eqleft;
		}
		pt->rk->gbytes = 0;
		for (b = 0; b < pt->rk->fcache; b++) {
			uint64_t spec = b < nb && !pt->rk->streaming ?
			    pt->grow.t[front[fb + b]].spec : 0;

			if (b < nb)
				slot[front[fb + b]] = (long)b;
			for (j = 0; j < pt->nqi; j++) {
				struct gtab *g = &G[b * pt->nqi + j];
				int ext = spec != 0 && !(spec >> j & 1);

				rothko_gclear(pt, g, b < nb &&
				    !rothko_streamed(pt, j) && !ext);
				g->rows = b < nb ?
				    pt->grow.t[front[fb + b]].n : 0;
				g->extent = ext;
			}
		}
		rothko_count_clear(pt);
		/* One scan counts the groups of the whole batch; if they
		 * outgrow the budget, half the batch is tried, and a node
		 * alone has its numbers streamed. */
		pt->rk->gsoft = 1;
		pt->rk->gover = 0;
		if (rothko_count_begin(pt, G, nb)) {
			/* The next chunk read and routed while the threads
			 * count one, when the reader can keep it. */
			int dbl;

			rothko_read_open(pt, &rd, on);
			dbl = rothko_read_double(&rd);
			r = rothko_read_chunk(pt, &rd, &n);
			route_chunk(pt, r, n, slot, sl[0]);
			for (i = 0; r != NULL && !pt->rk->gover; i ^= 1) {
				uint32_t *rn;
				size_t nn;

				rothko_count_start(pt, G, r, n, sl[i]);
				if (!dbl)
					rothko_count_wait(pt);
				rn = rothko_read_chunk(pt, &rd, &nn);
				route_chunk(pt, rn, nn, slot, sl[i ^ 1]);
				if (dbl)
					rothko_count_wait(pt);
				r = rn;
				n = nn;
			}
			rothko_read_close(&rd);
		}
		free(slot);
		pt->rk->gsoft = 0;
		if (pt->rk->gover && nb > 1) {
			nb /= 2;
			goto again;
		}
		if (pt->rk->gover && !pt->rk->streaming && pt->keyed) {
			pt->rk->streaming = 1;
			goto again;
		}
		/* Sensitive values held for --closeness, then labels,
		 * whose groups outgrow the budget: known by their hashes from
		 * here on, as past an eighth of -S (mload.c), so that a
		 * larger budget does not fail where a smaller one passes. */
		if (pt->rk->gover && pt->keyed &&
		    ((pt->sens_hkey && !pt->sens_sorted) ||
		    (pt->targ_hkey && !pt->targ_hashed))) {
			for (b = 0; b < pt->rk->fcache * pt->nqi; b++)
				rothko_gclear(pt, &G[b], 0);
			if (pt->sens_hkey && !pt->sens_sorted) {
				rothko_sens_hashed(pt);
				rothko_sens_reserve(pt);
			} else {
				mond_targ_drop(pt);
				mond_targ_check(pt, pt->rk->tmpdir,
				    pt->rk->jobs);
				pt->rk->streaming = 1;
			}
			goto again;
		}
		if (pt->rk->gover) {
			char left[32];

			mond_size(left, sizeof(left), pt->rk->avail);
			mond_too_small(pt, "the frequency groups of a node "
			    "need more than the %s left for them: those of "
			    "the hierarchies' leaves (-H) with the sensitive "
			    "values (-s) and labels (-t) must fit", left);
		}
		/* A node streamed is repartitioned at once: the next
		 * level's scans would read all of it again. */
		stop = pt->rk->streaming;
		for (b = 0; b < nb; b++) {
			size_t tn = front[fb + b], m = 2, k, i;
			struct cut best;
			uint64_t *kc, spec;

			if (b > 0)
				rothko_groups_drop(pt, &G[(b - 1) * pt->nqi]);
			pt->rk->gtab = &G[b * pt->nqi];
			pt->rk->snode = on;
			pt->rk->stn = (long)tn;
			rothko_groups_finish(pt, pt->grow.t[tn].n);
			if (tn == 0 && checkname != NULL &&
			    !(pt->sens_sorted ? rsens_node_ok(pt) :
			    mond_side_ok(pt, &pt->node.tot, pt->hs_side, 1))) {
				mond_no_solution(checkname, on->n);
			}
			if (pt->sens_sorted)
				rsens_choose_cut(pt, &best);
			else
				rothko_choose_cut_on_disk(pt, &best);
			if (pt->rk->unknown) {
				/* Its cut needs groups the scan did not
				 * count: the batch from this node is counted
				 * again, every dimension (its siblings were
				 * guessed alike). */
				pt->rk->unknown = 0;
				for (k = b; k < nb; k++)
					pt->grow.t[front[fb + k]].spec = 0;
				mond_node_clear_totals(pt);
				rothko_groups_drop(pt, &G[b * pt->nqi]);
				fb += b;
				nb -= b;
				goto again;
			}
			/* A node found final is one class; past 512 tree
			 * nodes (files to write at once) the rest wait for
			 * the next step (a number's cut makes two, a
			 * hierarchy's a kid for each group at most and
			 * "other"). */
			if (!best.found || (tn != 0 && pt->grow.n + 2 +
			    (best.fast && !pt->rk->sampling ? 0 :
			    pt->rk->gtab[best.dim].n) > 512)) {
				pt->grow.t[tn].big = !best.found;
				mond_node_clear_totals(pt);
				continue;
			}
			pt->ncuts++;
			kc = kn_zalloc((pt->rk->gtab[best.dim].n + 3) *
			    sizeof(uint64_t));
			if (!best.fast) {
				/* A hierarchy: the children present, in order,
				 * and an "other" kid that stays empty. */
				const struct gtab *gg = &pt->rk->gtab[best.dim];
				uint32_t *cid = kn_alloc((gg->n + 1) *
				    sizeof(uint32_t));

				m = 0;
				for (i = 0; i < gg->n; i++) {
					uint32_t c = mond_child_of(pt, best.dim,
					    gg->e[i].code -
						pt->node.mn[best.dim]);

					if (m == 0 || cid[m - 1] != c)
						cid[m++] = c;
					kc[m - 1] += gg->e[i].cnt;
				}
				pt->grow.t[tn].hier = 1;
				pt->grow.t[tn].lv = pt->node.lv[best.dim];
				pt->grow.t[tn].x = pt->node.node[best.dim];
				pt->grow.t[tn].cid = cid;
				m++;
			} else {
				kc[0] = best.L;
				kc[1] = pt->grow.t[tn].n - best.L;
				if (pt->relaxed) {
					pt->grow.t[tn].rel = 1;
					pt->grow.t[tn].med =
					    rothko_code_key(pt, best.dim,
						best.med);
					pt->grow.t[tn].eqleft = best.eqleft;
				} else
					pt->grow.t[tn].thr =
					    rothko_code_key(pt, best.dim,
						best.med);
			}
			pt->grow.t[tn].dim = best.dim;
			pt->grow.t[tn].nkid = m;
			pt->grow.t[tn].kid0 = pt->grow.n;
			pt->grow.t[tn].leaf = 0;
			spec = rothko_kid_spec(pt, best.dim);
			for (k = 0; k < m; k++) {
				size_t kt = mond_tree_node_new(
				    pt, pt->grow.t[tn].depth + 1);

				pt->grow.t[kt].n = kc[k];
				pt->grow.t[kt].spec = spec;
				if (kc[k] > 0 && !fits_in_memory(pt, kc[k])) {
					if (nf % 1024 == 0)
						front = kn_realloc(front, (nf +
						    1024) * sizeof(size_t));
					front[nf++] = kt;
				}
			}
			free(kc);
			mond_node_clear_totals(pt);
		}
		rothko_groups_drop(pt, &G[(nb - 1) * pt->nqi]);
		fb += nb;
	}
	pt->rk->gtab = gsave;
	pt->rk->streaming = 0;
	for (b = 0; b < pt->rk->fcache * pt->nqi; b++) {
		free(G[b].e);
		free(G[b].sum);
		free(G[b].lset);
		free(G[b].slot);
		free(G[b].arr);
	}
	free(G);
	free(front);
	free(sl[0]);
	free(sl[1]);
	if (pt->grow.t[0].leaf) {
		nk = 0;
		*kids = NULL;
		if (pt->grow.t[0].big == 0)
			pt->grow.t[0].big = 1;
	} else
		nk = repartition_tree(pt, on, kids);
	for (t = 0; t < pt->grow.n; t++)
		free(pt->grow.t[t].cid);
	free(pt->grow.t);
	free(pt->grow.tcls);
	free(pt->grow.stnode);
	memset(&pt->grow, 0, sizeof(pt->grow));
	return nk;
}


/* Rothko-T: nodes too large for memory are cut from their frequency
 * groups and repartitioned to disk, depth first; a node that fits is
 * partitioned in memory.  The classes are those of the in-memory
 * algorithm, numbered alike. */
void
rothko_t(struct part *pt, struct onode *root, const char *name)
{
	struct onode *st = NULL;
	size_t nst = 0, cap = 0;
	int isroot = 1;

	if (root->n == 0)
		return;
	st = kn_alloc(16 * sizeof(struct onode));
	cap = 16;
	st[nst++] = *root;
	while (nst > 0) {
		struct onode on = st[--nst];
		size_t g;
		int fits;

		kn_progress(pt->acct.classed, pt->acct.bread);
		fits = fits_in_memory(pt, on.n);
		/* Nodes partitioned in memory one after another reuse the
		 * memory freed by the one before, within the budget; the
		 * rest of the run gives it back. */
		kn_malloc_keep(fits ? pt->rk->avail : 0);
		if (fits) {
			solve_in_memory(pt, &on, nst > 0 ? &st[nst - 1] :
			    NULL, isroot ? name : NULL);
			kn_tmp_close(on.path);
			isroot = 0;
			continue;
		}
		if (on.big) {
			/* Known to have no allowable cut: one class. */
			rothko_node_groups(pt, &on);
			big_leaf(pt, &on);
			mond_node_clear_totals(pt);
			kn_tmp_close(on.path);
			continue;
		}
		if (pt->rk->sampling) {
			struct onode *sk = NULL;
			size_t nk = rothko_s_step(pt, &on, &sk, isroot ? name :
			    NULL);
			int tries;

			/* A sample whose splits were all undone: try two
			 * more before giving up on sampling this node. */
			for (tries = 1; nk == 0 && tries < 3; tries++) {
				free(sk);
				sk = NULL;
				nk = rothko_s_step(pt, &on, &sk, NULL);
			}
			isroot = 0;
			if (nk > 0) {
				kn_tmp_close(on.path);
				if (nst + nk > cap) {
					cap = 2 * (nst + nk);
					st = kn_realloc(st, cap *
					    sizeof(struct onode));
				}
				for (g = nk; g-- > 0;)
					st[nst++] = sk[g];
				free(sk);
				continue;
			}
			free(sk);
			/* No progress from the sample: the exact step of
			 * Rothko-T. */
		}
		{
			struct onode *tk = NULL;
			size_t nk = rothko_t_step(pt, &on, &tk, isroot ? name :
			    NULL);

			isroot = 0;
			if (nk == 0) {
				/* No allowable cut: one class. */
				free(tk);
				rothko_node_groups(pt, &on);
				big_leaf(pt, &on);
				mond_node_clear_totals(pt);
				kn_tmp_close(on.path);
				continue;
			}
			kn_tmp_close(on.path);
			if (nst + nk > cap) {
				cap = 2 * (nst + nk);
				st = kn_realloc(st, cap * sizeof(struct onode));
			}
			for (g = nk; g-- > 0;)
				st[nst++] = tk[g];
			free(tk);
		}
	}
	kn_malloc_keep(0);
	free(st);
	rothko_count_end(pt);
}

/* The rows of a bucket of rothko_class_of: half the budget (the
 * partitioning's memory is freed, but the C library may not give all
 * of it back to the system). */
static uint64_t
bucket_rows(const struct part *pt)
{
	uint64_t B = pt->rk->avail / 2 / sizeof(uint32_t);

	return B < 4096 ? 4096 : B;
}

const uint32_t *
rothko_classes(struct part *pt)
{
	if (!pt->ooc)
		return pt->row_class;
	if (pt->nrows == 0 || bucket_rows(pt) < pt->nrows)
		return NULL;
	(void)rothko_class_of(pt, 0);
	return pt->rk->bucket;
}

/* The class of a row.  Out of core the pairs file is read once per
 * bucket of rows that fits the budget. */
uint32_t
rothko_class_of(struct part *pt, uint64_t row)
{
	uint64_t B;
	uint32_t pr[2 * 4096];
	size_t got, i;
	FILE *f;

	if (!pt->ooc)
		return pt->row_class[row];
	if (row >= pt->rk->bucket_lo && row < pt->rk->bucket_hi)
		return pt->rk->bucket[row - pt->rk->bucket_lo];
	B = bucket_rows(pt);
	if (pt->rk->bucket == NULL)
		pt->rk->bucket = kn_alloc(
		    (pt->nrows < B ? pt->nrows : B) * sizeof(uint32_t) + 4);
	pt->rk->bucket_lo = row;
	pt->rk->bucket_hi = row + B < pt->nrows ? row + B : pt->nrows;
	if ((f = kn_tmp_open(pt->pairs_path, "rb")) == NULL)
		kn_die_sys("%s", pt->pairs_path);
	pt->acct.scans++;
	while ((got = fread(pr, 2 * sizeof(uint32_t), 4096, f)) > 0) {
		pt->acct.bread += got * 2 * sizeof(uint32_t);
		for (i = 0; i < got; i++)
			if (pr[2 * i] >= pt->rk->bucket_lo &&
			    pr[2 * i] < pt->rk->bucket_hi)
				pt->rk->bucket[pr[2 * i] - pt->rk->bucket_lo] =
				    pr[2 * i + 1];
	}
	if (ferror(f))
		kn_die_sys("%s: read error", pt->pairs_path);
	fclose(f);
	return pt->rk->bucket[row - pt->rk->bucket_lo];
}
