/*
 * freq.c: counting a table into frequency sets (fset.c), the counts
 * (and sums) of its rows grouped by its quasi-identifiers.  Packed
 * counting (pcount.c) builds them fast; the frequency streams count a
 * table within a memory budget, spilling sorted runs that the external
 * sort merges, on one thread or on the threads of -j.  Above hier.c,
 * extsort.c and fset.c.
 */
#include <sys/stat.h>

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kanon.h"
#include "extsort.h"

/* ---- frequency streams: counting within a budget ------------------ */

/* Parses a count: decimal digits, no sign, fits 64 bits. */
static int
parse_count(kn_str v, uint64_t *cnt)
{
	uint64_t x = 0;
	size_t i;

	if (v.n == 0)
		return 0;
	for (i = 0; i < v.n; i++) {
		if (v.p[i] < '0' || v.p[i] > '9' ||
		    x > (UINT64_MAX - (uint64_t)(v.p[i] - '0')) / 10)
			return 0;
		x = x * 10 + (uint64_t)(v.p[i] - '0');
	}
	*cnt = x;
	return 1;
}

struct freq {
	const kn_countspec *cs;
	const int *lv;
	const char *tmpdir;
	kn_fset fs;
	kn_pcount pc;
	int packed;
	char **run;
	size_t nrun;
	kn_fsout out;
	void *ctx;
	kn_freqstats *st;
	/* a row being emitted */
	kn_fsrow row;
	/* the leaves of the labels last seen, by column (leaf_cached) */
	struct hcache *hc;
	/* the run being written */
	FILE *rf;
	/* merge: the group being combined */
	kn_str *cf;		/* fields of a merged line */
	char *ckey;
	size_t cklen, ckcap;
	int have;
	/* progress: the last emission counts its groups, the merge the
	 * lines of the runs */
	int prog;
	uint64_t runlines, merged;
};

/* Bytes held by the set being counted and the plain dictionaries. */
static size_t
freq_bytes(const struct freq *fr)
{
	size_t b = 0, c;
	const kn_fset *fs = &fr->fs;

	if (fr->packed)
		b += kn_pcount_bytes(&fr->pc);
	b += fs->cap * (fs->d * 4 + 8 + fs->nsum * sizeof(kn_sum)) +
	    fs->nslot * 8;
	for (c = 0; c < fr->cs->d; c++) {
		const kn_hier *h = fr->cs->hier != NULL ? fr->cs->hier[c] :
		    NULL;
		int l;

		if (h == NULL)
			b += kn_dict_bytes(&fr->cs->dict[c]);
		else if (h->kind != KN_HFILE)
			for (l = 0; l < h->nlevels; l++)
				b += kn_dict_bytes(&h->lab[l]) + h->upcap[l] * 4;
	}
	return b;
}

/*
 * A direct-mapped cache of a column's labels of at most 16 bytes and
 * their leaves in its hierarchy, for the rows counted on the reading
 * thread: a column repeats few values, and a look-up in the hierarchy
 * hashes the label and compares it.  Emptied with the leaves when the
 * counting spills (freq_spill, kn_hier_reset).
 */
#define HCACHE 256
struct hcache {
	uint64_t w[2];
	uint32_t len, id1;
};

static inline int64_t
leaf_cached(struct hcache *hc, kn_hier *h, kn_str v, const char **err)
{
	uint64_t w[2];
	struct hcache *e;
	int64_t id;

	if (v.n > 16)
		return kn_hier_leaf(h, v.p, v.n, err);
	/* A reader's field may be read 8 bytes at a time past its end. */
	e = &hc[kn_short_key(v.p, v.n, 1, w) & (HCACHE - 1)];
	if (e->id1 != 0 && e->len == v.n && e->w[0] == w[0] &&
	    e->w[1] == w[1])
		return e->id1 - 1;
	id = kn_hier_leaf(h, v.p, v.n, err);
	if (id >= 0 && id < UINT32_MAX) {
		e->w[0] = w[0];
		e->w[1] = w[1];
		e->len = (uint32_t)v.n;
		e->id1 = (uint32_t)id + 1;
	}
	return id;
}

/* The labels of column c at its output level. */
static const kn_dict *
out_dict(const struct freq *fr, size_t c)
{
	const kn_hier *h = fr->cs->hier != NULL ? fr->cs->hier[c] : NULL;

	if (h == NULL)
		return &fr->cs->dict[c];
	return &h->lab[fr->lv != NULL ? fr->lv[c] : 0];
}

/* Writes a row to the run being written. */
static void
run_row(const kn_fsrow *row, void *ctx)
{
	struct freq *fr = ctx;
	size_t c, j, len;
	char buf[48];

	fr->runlines++;
	for (len = 0, c = 0; c < fr->cs->d; c++) {
		fwrite(row->key[c].p, 1, row->key[c].n, fr->rf);
		putc('\t', fr->rf);
		len += row->key[c].n + 1;
	}
	/* The count and sums take at most 100 bytes each. */
	len += 100 * (1 + 2 * fr->cs->nsum);
	if (len > KN_LINE_SHORT)
		kn_line_seen(len);
	kn_put_u64(fr->rf, row->cnt);
	for (j = 0; j < fr->cs->nsum; j++) {
		putc('\t', fr->rf);
		fwrite(buf, 1, kn_dec_format(row->s[j], row->sc[j], buf),
		    fr->rf);
		putc('\t', fr->rf);
		fwrite(buf, 1, kn_dec_format(row->ss[j], row->ssc[j], buf),
		    fr->rf);
	}
	putc('\n', fr->rf);
}

/* How many groups ahead of the one emitted freq_emit fetches the ids'
 * offsets and lengths, and half as many their bytes: the ids come in
 * the order of the values, and a column of many values misses the
 * caches at each. */
#define EMIT_AHEAD 16
/* Fewer groups than this have few enough labels to stay in the caches:
 * no fetching ahead. */
#define EMIT_FETCH_MIN 65536

/* The id of column c of group i of the sorted pairs. */
static inline uint32_t
emit_id(uint32_t *const *inv, const uint64_t *pairs, size_t i,
    const int *shift, const int *bits, size_t c)
{
	return inv[c][(pairs[2 * i] >> shift[c]) & ((1ULL << bits[c]) - 1)];
}

/* Emits the set in memory, in order, to sink; then empties it. */
static void
freq_emit(struct freq *fr, void (*sink)(const kn_fsrow *, void *), void *sctx)
{
	const kn_countspec *cs = fr->cs;
	size_t d = cs->d, c, i, j, n;
	const kn_dict **od = kn_zalloc((d + 1) * sizeof(kn_dict *));
	int rolls = 0;
	size_t limit = fr->pc.limit;

	for (c = 0; c < d; c++) {
		od[c] = out_dict(fr, c);
		if (fr->lv != NULL && fr->lv[c] > 0)
			rolls = 1;
	}
	if (fr->packed && !rolls) {
		int shift[KN_PMAX], bits[KN_PMAX];
		uint32_t *inv[KN_PMAX], *ids = kn_alloc((d + 1) * sizeof(*ids));
		uint64_t *pairs;

		if (fr->prog) {
			kn_pcount_flush(&fr->pc);
			kn_progress_phase("sorting", "groups", fr->pc.n);
		}
		n = kn_pcount_sorted(&fr->pc, od, &pairs, shift, bits, inv);
		if (n != (size_t)-1) {
			size_t fetch = n < EMIT_FETCH_MIN ? 0 : n;

			fr->row.id = ids;
			for (i = 0; i < n; i++) {
				if (fr->prog && (i & 0xffff) == 0)
					kn_progress(i, 0);
				for (c = 0; i + EMIT_AHEAD < fetch && c < d; c++) {
					uint32_t a = emit_id(inv, pairs, i +
					    EMIT_AHEAD, shift, bits, c);
					uint32_t b = emit_id(inv, pairs, i +
					    EMIT_AHEAD / 2, shift, bits, c);

					__builtin_prefetch(&od[c]->off[a]);
					__builtin_prefetch(&od[c]->lens[a]);
					__builtin_prefetch(od[c]->arena +
					    od[c]->off[b]);
				}
				for (c = 0; c < d; c++) {
					ids[c] = emit_id(inv, pairs, i, shift,
					    bits, c);
					fr->row.key[c] = kn_dict_get(od[c],
					    ids[c]);
				}
				fr->row.cnt = pairs[2 * i + 1];
				sink(&fr->row, sctx);
			}
			fr->row.id = NULL;
			free(ids);
			if (fr->prog)
				kn_progress(n, 0);
			for (c = 0; c < d; c++)
				free(inv[c]);
			free(pairs);
			kn_pcount_init(&fr->pc, d);
			fr->pc.limit = limit;
			free(od);
			return;
		}
		free(ids);
	}
	if (fr->packed) {
		kn_pcount_fset(&fr->pc, &fr->fs);
		kn_pcount_init(&fr->pc, d);
		fr->pc.limit = limit;
	}
	{
		kn_fset rolled, *f = &fr->fs;
		uint32_t *order, e;

		if (rolls) {
			uint32_t **map = kn_zalloc((d + 1) * sizeof(uint32_t *));
			size_t *id = kn_zalloc((d + 1) * sizeof(size_t));

			for (c = 0; c < d; c++) {
				id[c] = c;
				if (fr->lv[c] > 0)
					map[c] = kn_hier_map(cs->hier[c], 0,
					    fr->lv[c]);
			}
			kn_fset_rollup(&fr->fs, &rolled, id, d, map);
			for (c = 0; c < d; c++)
				free(map[c]);
			free(map);
			free(id);
			f = &rolled;
		}
		if (fr->prog)
			kn_progress_phase("sorting", "groups", f->n);
		order = kn_fset_order(f, od);
		for (i = 0; i < f->n; i++) {
			if (fr->prog && (i & 0xffff) == 0)
				kn_progress(i, 0);
			e = order[i];
			fr->row.id = &f->key[(size_t)e * d];
			for (c = 0; c < d; c++)
				fr->row.key[c] = kn_dict_get(od[c],
				    f->key[(size_t)e * d + c]);
			fr->row.cnt = f->cnt[e];
			for (j = 0; j < cs->nsum; j++) {
				const kn_sum *sm = &f->sum[(size_t)e * cs->nsum +
				    j];

				fr->row.s[j] = sm->s;
				fr->row.ss[j] = sm->ss;
				fr->row.sc[j] = sm->sc;
				fr->row.ssc[j] = 2 * sm->sc;
			}
			sink(&fr->row, sctx);
		}
		fr->row.id = NULL;
		if (fr->prog)
			kn_progress(f->n, 0);
		free(order);
		if (rolls)
			kn_fset_free(&rolled);
		kn_fset_free(&fr->fs);
		kn_fset_init(&fr->fs, d, cs->nsum);
	}
	free(od);
}

/* Writes the set in memory as a sorted run and starts afresh, with
 * empty dictionaries: a run holds labels, not ids. */
static void
freq_spill(struct freq *fr)
{
	int fd;
	char *path, *vb;
	size_t c;

	fd = kn_mktemp(fr->tmpdir, &path);
	fr->rf = fdopen(fd, "w");
	if (fr->rf == NULL)
		kn_die_sys("%s", path);
	vb = kn_vbuf(fr->rf);
	freq_emit(fr, run_row, fr);
	if (fflush(fr->rf) == EOF || ferror(fr->rf))
		kn_die_sys("%s: write error", path);
	if (fr->st != NULL)
		fr->st->bytes_written += (uint64_t)ftello(fr->rf);
	if (fclose(fr->rf) == EOF)
		kn_die_sys("%s: write error", path);
	free(vb);
	fr->run = kn_realloc(fr->run, (fr->nrun + 1) * sizeof(char *));
	fr->run[fr->nrun++] = path;
	for (c = 0; c < fr->cs->d; c++) {
		kn_hier *h = fr->cs->hier != NULL ? fr->cs->hier[c] : NULL;

		if (h == NULL) {
			kn_dict_free(&fr->cs->dict[c]);
			kn_dict_init(&fr->cs->dict[c]);
		} else
			kn_hier_reset(h);
	}
	if (fr->hc != NULL)
		memset(fr->hc, 0, fr->cs->d * HCACHE * sizeof(*fr->hc));
	if (fr->st != NULL)
		fr->st->runs++;
}

/* Emits the group being combined. */
static void
comb_flush(struct freq *fr)
{
	if (fr->have)
		fr->out(&fr->row, fr->ctx);
	fr->have = 0;
}

/* A group whose sums of summed column j pass 2^127 once its runs are
 * merged: named by its labels, as no row took it there alone. */
static void
run_sum_over(const struct freq *fr, size_t j)
{
	size_t n = fr->cklen;

	if (n > 0 && fr->ckey[n - 1] == '\t')
		n--;
	kn_die("--sum: column %zu of the list, group '%.*s': the sum of its "
	    "values or of their squares passes the limit of exact sums of "
	    "2^127 (kanon(7), Numbers), its rows' sums merged from the runs "
	    "that -S spilled", j + 1, (int)n, fr->ckey);
}

/* A merged run line: combine lines of equal keys (they are adjacent),
 * then emit each group. */
static void
comb_line(const char *line, size_t len, void *ctx)
{
	struct freq *fr = ctx;
	size_t d = fr->cs->d, nf = d + 1 + 2 * fr->cs->nsum, i, k = 0;
	size_t start = 0, keylen = 0, j;
	kn_str *f = fr->cf;
	uint64_t cnt;
	kn_i128 m;
	int sc;

	for (i = 0; i <= len; i++)
		if (i == len || line[i] == '\t') {
			if (k < nf) {
				f[k].p = line + start;
				f[k].n = i - start;
			}
			if (++k == d)
				keylen = i + 1;
			start = i + 1;
		}
	if (k != nf)
		kn_die("(temp run): expected %zu fields, found %zu", nf, k);
	if (d == 0)
		keylen = 0;
	if (fr->have && (keylen != fr->cklen ||
	    memcmp(line, fr->ckey, keylen) != 0)) {
		/* The row still points into the previous line's copy. */
		comb_flush(fr);
	}
	if ((++fr->merged & 0xffff) == 0)
		kn_progress(fr->merged, 0);
	if (!parse_count(f[d], &cnt))
		kn_die("(temp run): bad count");
	if (!fr->have) {
		if (len + 1 > fr->ckcap) {
			fr->ckcap = 2 * (len + 1);
			fr->ckey = kn_realloc(fr->ckey, fr->ckcap);
		}
		memcpy(fr->ckey, line, len);
		fr->cklen = keylen;
		/* The row's labels point into the copy. */
		for (i = 0; i < d; i++) {
			fr->row.key[i].p = fr->ckey + (f[i].p - line);
			fr->row.key[i].n = f[i].n;
		}
		fr->row.cnt = 0;
		for (j = 0; j < fr->cs->nsum; j++) {
			fr->row.s[j] = fr->row.ss[j] = 0;
			fr->row.sc[j] = fr->row.ssc[j] = 0;
		}
		fr->have = 1;
	}
	if (__builtin_add_overflow(fr->row.cnt, cnt, &fr->row.cnt))
		kn_count_overflow();
	for (j = 0; j < fr->cs->nsum; j++) {
		kn_str a = f[d + 1 + 2 * j], b = f[d + 2 + 2 * j];

		if (!kn_sum_parse(a.p, a.n, &m, &sc))
			kn_die("(temp run): bad sum");
		if (!kn_dec_add_ok(&fr->row.s[j], &fr->row.sc[j], m, sc))
			run_sum_over(fr, j);
		if (!kn_sum_parse(b.p, b.n, &m, &sc))
			kn_die("(temp run): bad sum");
		if (!kn_dec_add_ok(&fr->row.ss[j], &fr->row.ssc[j], m, sc))
			run_sum_over(fr, j);
	}
}

/* Adds cnt rows of key k to the set being counted, spilling a packed
 * set that is full.  Returns the group's index in fr->fs, for its sums,
 * or UINT32_MAX when the packed set took it. */
static uint32_t
freq_add(struct freq *fr, const uint32_t *k, uint64_t cnt)
{
	if (fr->packed) {
		if (kn_pcount_add(&fr->pc, k, cnt)) {
			if (fr->pc.full)
				freq_spill(fr);
			return UINT32_MAX;
		}
		kn_pcount_fset(&fr->pc, &fr->fs);
		fr->packed = 0;
	}
	return kn_fset_add(&fr->fs, k, cnt);
}

/* ---- counting on threads (-j) -------------------------------------- */

/* One thread's share of the counting: the blocks it takes are counted
 * with its own dictionaries, into its own set and runs. */
struct fwork {
	struct freq fr;
	kn_countspec cs;
	kn_dict *dict;
	kn_str *f;
	kn_str *key;		/* the key of cs.tkey */
	void *ts;		/* the thread's state of cs.tkey */
	kn_hier *const *hier;	/* each new label checked against (par_hier) */
	uint32_t *k;
	size_t limit;
	uint64_t rows;		/* counted (for the share's checks) */
	kn_freqstats st;
	struct fpar *p;
	kn_block blk;		/* the block it reads into */
	/* its set sorted (par_sort): pairs (key, count), the key of the
	 * ranks among all threads' labels (grank[c]: the rank of each id)
	 * or, when those do not fit 64 bits, of its own labels' ranks (in
	 * bits[c] at shift[c]; inv[c]: the ids by rank) */
	const struct fglob *g;
	struct femit *emit;	/* par_rows */
	uint64_t *pairs;
	size_t npairs;
	uint32_t *grank[KN_PMAX], *inv[KN_PMAX];
	int shift[KN_PMAX], bits[KN_PMAX];
};

/* The labels of all threads together (par_union): each column's in
 * byte order, the bits of their ranks and the ranks' places in a
 * pair's key. */
struct fglob {
	kn_str *lab[KN_PMAX];
	size_t nlab[KN_PMAX];
	/* with a hierarchy, the leaf of each label (par_leaves), the
	 * row's id; leafed when they are made */
	uint32_t *leaf[KN_PMAX];
	int leafed;
	int bits[KN_PMAX], shift[KN_PMAX];
	int ranked;		/* the ranks fit a key of 64 bits */
	size_t rowmax;		/* the bytes of the longest row written */
	/* the threads' direct tables added (par_sum): a count for each
	 * combination of ranks, at the sum of rank times stride[c] */
	uint64_t *sum;
	size_t nsum, stride[KN_PMAX];
	uint64_t groups;	/* the counts not 0 in sum */
	uint32_t *bgroups;	/* and in each SUM_BLK slots, for par_rows */
};

#define SUM_BLK 1024

/* What the counting threads share: the table, which each reads a block
 * of in turn, under mu (kn_table_block), the blocks' numbers, and the
 * earliest bad block. */
struct fpar {
	kn_table *t;
	const kn_countspec *cs;
	size_t want;		/* a block's bytes */
	pthread_mutex_t mu;
	pthread_cond_t idle;	/* busy fell to 0 */
	uint64_t seq;		/* blocks read */
	size_t busy;		/* blocks being counted */
	int end;		/* the table is read, or no more is to be */
	kn_block *bad;
};

static void par_fail(const kn_countspec *cs, kn_table *t, kn_block *b)
    __attribute__((noreturn));

/* Counts the rows of block b into w's set; returns whether b holds a
 * bad row (b->bad). */
static int
par_block(struct fwork *w, kn_block *b)
{
	const kn_countspec *cs = &w->cs;
	size_t c, seen = 0;

	for (;;) {
		size_t at = b->pos;

		if (!kn_block_row(w->p->t, b, w->f))
			break;
		if (cs->tkey != NULL && cs->tkey(cs->tctx, w->ts, w->f,
		    w->key) < 0) {
			/* A row for the main thread to report. */
			b->bad = 2;
			b->bad_off = at;
			break;
		}
		for (c = 0; c < cs->d; c++) {
			kn_str v = cs->tkey != NULL ? w->key[c] :
			    w->f[cs->key[c]];
			size_t n0 = w->dict[c].n;
			const char *err;

			w->k[c] = kn_dict_intern_padded(&w->dict[c], v.p, v.n,
			    cs->tkey == NULL);
			/* A label new to this thread, that the leaves
			 * made after the counting must take. */
			if (w->hier != NULL && w->hier[c] != NULL &&
			    w->dict[c].n != n0 &&
			    kn_hier_check(w->hier[c], v.p, v.n, &err) < 0)
				break;
		}
		if (c < cs->d) {
			b->bad = 2;
			b->bad_off = at;
			break;
		}
		freq_add(&w->fr, w->k, 1);
		/* As one thread: every 1024 rows, or after an eighth of the
		 * share read. */
		if (w->limit > 0 && ((++w->rows & 0x3ff) == 0 ||
		    b->pos - seen > w->limit / 8)) {
			seen = b->pos;
			if (freq_bytes(&w->fr) > w->limit)
				freq_spill(&w->fr);
		}
	}
	if (w->limit > 0 && freq_bytes(&w->fr) > w->limit)
		freq_spill(&w->fr);
	return b->bad != 0;
}

/*
 * The hook of a thread that dies reading a block (kn_die_defer), which
 * holds the lock: an error of the reader (a header that differs, a
 * line too long, a NUL byte in a line the buffer did not hold) comes
 * after the rows of the blocks read before and of the lines already in
 * this one, which are counted first, so that the earliest bad row among
 * them is reported instead, as one thread would.
 */
static void
par_dying(void *arg)
{
	struct fwork *w = arg;
	struct fpar *p = w->p;

	p->end = 1;
	while (p->busy > 0)
		pthread_cond_wait(&p->idle, &p->mu);
	if (p->bad != NULL)
		par_fail(p->cs, p->t, p->bad);
	/* Then the whole lines read into this thread's block. */
	if (w->blk.len > 0 && par_block(w, &w->blk))
		par_fail(p->cs, p->t, &w->blk);
}

/*
 * A counting thread: reads the next block of the table itself, under
 * the shared lock, and counts it without the lock; no thread reads for
 * the others, so none waits on another but for that lock.  A line
 * longer than a block is the reader's own buffer (kn_table_block
 * returns 2): it is counted before the lock is let go, since the next
 * read would overwrite it.  A bad block stops the reading; it is the
 * shared one if it is the earliest, and stays in its thread's blk
 * until the end.
 */
static void *
par_work(void *arg)
{
	struct fwork *w = arg;
	struct fpar *p = w->p;
	kn_block *b = &w->blk;
	int got, bad = 0, counted = 0;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		if (counted) {
			/* The block counted last. */
			if (bad && (p->bad == NULL || b->seq < p->bad->seq))
				p->bad = b;
			p->end |= bad;
			if (--p->busy == 0)
				pthread_cond_broadcast(&p->idle);
			counted = 0;
			if (bad)
				break;
		}
		if (p->end)
			break;
		kn_die_defer(par_dying, w);
		got = kn_table_block(p->t, b, p->want);
		kn_die_defer(NULL, NULL);
		if (got == 0) {
			p->end = 1;
			break;
		}
		b->seq = p->seq++;
		p->busy++;
		if (got != 2)
			pthread_mutex_unlock(&p->mu);
		bad = par_block(w, b);
		if (got != 2)
			pthread_mutex_lock(&p->mu);
		counted = 1;
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static void *
par_thread(void *arg)
{
	kn_thread_nosignals();
	return par_work(arg);
}

/* Whether a thread's set can be sorted into pairs (kn_pcount_sorted):
 * it did not spill, it is packed, no label holds a byte below TAB and
 * the ranks fit the key. */
static int
par_sortable(const struct fwork *w)
{
	const kn_dict *od[KN_PMAX] = { NULL };
	size_t c;

	if (w->fr.nrun > 0 || !w->fr.packed)
		return 0;
	for (c = 0; c < w->cs.d; c++)
		od[c] = &w->dict[c];
	return kn_pcount_sortable(w->cs.d, od);
}

/* A thread's dictionary of a column put in order (kn_dict_order), on a
 * thread of its own for par_union. */
struct pord {
	const kn_dict *d;
	uint32_t *ord;
};

static void *
pord_run(void *arg)
{
	struct pord *p = arg;

	p->ord = kn_dict_order(p->d);
	return NULL;
}

/*
 * Ranks the labels of column c of the nt threads of w together, in byte
 * order: g->lab[c] gets them (pointing into the threads' dictionaries),
 * each thread's grank[c] the rank of each of its ids.  Each thread's
 * labels are put in order on a thread of their own, then merged.
 * Returns the bits of the ranks.
 */
static int
par_union(struct fwork *w, int nt, size_t c, struct fglob *g)
{
	size_t pos[64], n = 0, tot = 0, longest = 0;
	struct pord po[64];
	kn_str m, v;
	int k, lo;

	for (k = 0; k < nt; k++)
		po[k].d = &w[k].dict[c];
	kn_sort_par_run(pord_run, po, sizeof(po[0]), nt);
	for (k = 0; k < nt; k++) {
		pos[k] = 0;
		w[k].grank[c] = kn_alloc((w[k].dict[c].n + 1) *
		    sizeof(uint32_t));
		tot += w[k].dict[c].n;
	}
	g->lab[c] = kn_alloc((tot + 1) * sizeof(kn_str));
	for (;;) {
		for (lo = -1, k = 0; k < nt; k++) {
			if (pos[k] == w[k].dict[c].n)
				continue;
			v = kn_dict_get(&w[k].dict[c], po[k].ord[pos[k]]);
			if (lo < 0 || kn_bytes_cmp(v.p, v.n, m.p, m.n) < 0) {
				lo = k;
				m = v;
			}
		}
		if (lo < 0)
			break;
		for (k = 0; k < nt; k++) {
			if (pos[k] == w[k].dict[c].n)
				continue;
			v = kn_dict_get(&w[k].dict[c], po[k].ord[pos[k]]);
			if (kn_bytes_cmp(v.p, v.n, m.p, m.n) == 0)
				w[k].grank[c][po[k].ord[pos[k]++]] = (uint32_t)n;
		}
		g->lab[c][n++] = m;
		if (m.n > longest)
			longest = m.n;
	}
	for (k = 0; k < nt; k++)
		free(po[k].ord);
	/* A label written as CSV may double its bytes and gain quotes. */
	g->rowmax += 2 * longest + 3 + 8;
	g->nlab[c] = n;
	return kn_pcount_bits(n);
}

/* Ranks every column's labels of the nt threads of w together into g,
 * which says whether the ranks fit a key of 64 bits. */
static void
par_rank(struct fwork *w, int nt, struct fglob *g)
{
	size_t d = w[0].cs.d, c;
	int tot = 0, k, sh;

	for (c = 0; c < d; c++)
		tot += g->bits[c] = par_union(w, nt, c, g);
	for (sh = tot, c = 0; c < d; c++)
		g->shift[c] = sh -= g->bits[c];
	for (k = 0; k < nt; k++)
		w[k].g = g;
	g->ranked = tot <= KN_PMAX;
}

/* A thread's set sorted into pairs on its own thread: by the ranks of
 * par_rank, or by its own labels' ranks when those do not fit. */
static void *
par_sort(void *arg)
{
	struct fwork *w = arg;
	const kn_dict *od[KN_PMAX] = { NULL };
	int shift[KN_PMAX];	/* those of par_rank */
	size_t c;

	if (w->g->ranked)
		w->npairs = kn_pcount_pairs(&w->fr.pc, w->grank, w->g->bits,
		    shift, &w->pairs);
	else {
		for (c = 0; c < w->cs.d; c++)
			od[c] = &w->dict[c];
		w->npairs = kn_pcount_sorted(&w->fr.pc, od, &w->pairs,
		    w->shift, w->bits, w->inv);
		if (w->npairs == (size_t)-1)
			for (c = 0; c < w->cs.d; c++)
				w->inv[c] = kn_dict_order(&w->dict[c]);
	}
	w->fr.packed = 0;
	return NULL;
}

/*
 * When every thread counted into a direct table (pcount.c) and the
 * ranks of all threads' labels fit a key, the tables are added into
 * g->sum, which read in order is the merged set in byte order: no pairs
 * to sort, merge or hand between threads.  Each thread zeroes and fills
 * the part of g->sum of its share of the first column's ranks, reading
 * every table.  Only where g->sum takes no more than the pairs it
 * stands for, 16 bytes a group of each thread, which the threads'
 * limits counted (kn_pcount_bytes).
 */
struct fadd {
	struct fwork *w;
	int nt;
	uint32_t lo, hi;	/* ranks of the first column */
};

static void *
sum_part(void *arg)
{
	struct fadd *a = arg;
	const struct fglob *g = a->w[0].g;
	size_t from = a->lo * g->stride[0], to = a->hi * g->stride[0];
	int k;

	memset(g->sum + from, 0, (to - from) * sizeof(uint64_t));
	for (k = 0; k < a->nt; k++)
		kn_pcount_addto(&a->w[k].fr.pc, a->w[k].grank, g->stride,
		    a->lo, a->hi, g->sum);
	return NULL;
}

/* Adds the nt threads' sets of w into g->sum if it can (above);
 * returns whether it did, their tables freed. */
static int
par_sum(struct fwork *w, int nt, struct fglob *g)
{
	size_t d = w[0].cs.d, c, n = 1, room = 0, i;
	struct fadd a[64];
	int k;

	if (!g->ranked)
		return 0;
	for (k = 0; k < nt; k++) {
		kn_pcount_flush(&w[k].fr.pc);
		if (!w[k].fr.pc.direct)
			return 0;
		room += w[k].fr.pc.n * 2 * sizeof(uint64_t);
	}
	for (c = d; c-- > 0;) {
		g->stride[c] = n;
		if (g->nlab[c] == 0 || g->nlab[c] > room / sizeof(uint64_t) / n)
			return 0;
		n *= g->nlab[c];
	}
	g->nsum = n;
	g->sum = kn_alloc_huge(n * sizeof(uint64_t));
	for (k = 0; k < nt; k++) {
		a[k].w = w;
		a[k].nt = nt;
		a[k].lo = (uint32_t)(g->nlab[0] * (size_t)k / (size_t)nt);
		a[k].hi = (uint32_t)(g->nlab[0] * (size_t)(k + 1) / (size_t)nt);
	}
	kn_sort_par_run(sum_part, a, sizeof(a[0]), nt);
	g->bgroups = kn_zalloc((n / SUM_BLK + 1) * sizeof(uint32_t));
	for (i = 0; i < n; i++)
		g->bgroups[i / SUM_BLK] += g->sum[i] != 0;
	for (g->groups = 0, i = 0; i <= n / SUM_BLK; i++)
		g->groups += g->bgroups[i];
	for (k = 0; k < nt; k++) {
		free(w[k].fr.pc.tab);
		memset(&w[k].fr.pc, 0, sizeof(w[k].fr.pc));
		w[k].fr.packed = 0;
	}
	return 1;
}

/* Hands the groups of g->sum's slots [lo, hi) to out with ctx (NULL:
 * only counted) in row, progress shown with progress set; returns
 * their number. */
static uint64_t
sum_emit(const struct fglob *g, size_t d, size_t lo, size_t hi,
    kn_fsrow *row, kn_fsout out, void *ctx, int progress)
{
	uint32_t r[KN_PMAX], ids[KN_PMAX];
	uint64_t groups = 0;
	size_t i, c, x = lo;

	for (c = d; c-- > 0; x /= g->nlab[c])
		r[c] = (uint32_t)(x % g->nlab[c]);
	row->id = g->leafed ? ids : NULL;
	for (i = lo; i < hi; i++) {
		if (g->sum[i] != 0) {
			groups++;
			for (c = 0; out != NULL && c < d; c++) {
				row->key[c] = g->lab[c][r[c]];
				ids[c] = g->leaf[c] != NULL ?
				    g->leaf[c][r[c]] : r[c];
			}
			row->cnt = g->sum[i];
			if (out != NULL)
				out(row, ctx);
			if (progress && (groups & 0xffff) == 0)
				kn_progress(groups, 0);
		}
		for (c = d; c-- > 0 && ++r[c] == g->nlab[c];)
			r[c] = 0;
	}
	row->id = NULL;
	return groups;
}

/* Label c of the pair at i of w. */
static kn_str
par_label(const struct fwork *w, size_t i, size_t c)
{
	const struct fglob *g = w->g;
	uint64_t k = w->pairs[2 * i];

	if (g->ranked)
		return g->lab[c][(k >> g->shift[c]) &
		    ((1ULL << g->bits[c]) - 1)];
	return kn_dict_get(&w->dict[c], w->inv[c][(k >> w->shift[c]) &
	    ((1ULL << w->bits[c]) - 1)]);
}

/* The rank of label c of the pair at i of w among all threads' labels. */
static uint32_t
par_grank(const struct fwork *w, size_t i, size_t c)
{
	const struct fglob *g = w->g;
	uint64_t k = w->pairs[2 * i];

	if (g->ranked)
		return (uint32_t)((k >> g->shift[c]) &
		    ((1ULL << g->bits[c]) - 1));
	return w->grank[c][w->inv[c][(k >> w->shift[c]) &
	    ((1ULL << w->bits[c]) - 1)]];
}

/* Compares the pair at i of x and at j of y: by their keys when the
 * ranks are all threads', else label by label, each column in byte
 * order (no label holds a byte below TAB: kn_pcount_sorted). */
static int
par_cmp(const struct fwork *x, size_t i, const struct fwork *y, size_t j)
{
	uint64_t a = x->pairs[2 * i], b = y->pairs[2 * j];
	size_t c;
	int r;

	if (x->g->ranked)
		return a < b ? -1 : a > b;
	for (c = 0; c < x->cs.d; c++) {
		kn_str u = par_label(x, i, c), v = par_label(y, j, c);

		if ((r = kn_bytes_cmp(u.p, u.n, v.p, v.n)) != 0)
			return r;
	}
	return 0;
}

/* Merges the pairs [at[k], hi[k]) of the sorted sets of the nt threads
 * of w, at[] advancing: each group, a group met in several once with
 * its counts added, is put in row and handed to out with ctx (NULL:
 * only counted), progress shown with progress set; returns the number
 * of groups. */
static uint64_t
par_merge(struct fwork *w, int nt, size_t *at, const size_t *hi,
    kn_fsrow *row, kn_fsout out, void *ctx, int progress)
{
	size_t d = w[0].cs.d, c;
	uint64_t groups = 0;
	uint32_t ids[KN_PMAX];
	const struct fglob *g = w[0].g;
	int k, m, same[64];

	row->id = g->leafed ? ids : NULL;
	for (;;) {
		for (m = -1, k = 0; k < nt; k++)
			if (at[k] < hi[k] && (m < 0 ||
			    par_cmp(&w[k], at[k], &w[m], at[m]) < 0))
				m = k;
		if (m < 0)
			break;
		/* A label by its rank among all threads' (par_rank). */
		for (c = 0; out != NULL && c < d; c++) {
			uint32_t r = par_grank(&w[m], at[m], c);

			row->key[c] = g->lab[c][r];
			ids[c] = g->leaf[c] != NULL ? g->leaf[c][r] : r;
		}
		row->cnt = 0;
		for (k = 0; k < nt; k++)
			same[k] = at[k] < hi[k] &&
			    (k == m || par_cmp(&w[k], at[k], &w[m], at[m]) == 0);
		for (k = 0; k < nt; k++)
			if (same[k]) {
				if (__builtin_add_overflow(row->cnt,
				    w[k].pairs[2 * at[k] + 1], &row->cnt))
					kn_count_overflow();
				at[k]++;
			}
		groups++;
		if (out == NULL)
			continue;
		out(row, ctx);
		if (progress && (groups & 0xffff) == 0)
			kn_progress(groups, 0);
	}
	row->id = NULL;
	return groups;
}

/*
 * The groups merged on a thread of their own and handed to the caller's
 * out on the caller's thread, in order, batch by batch: the merge (its
 * comparisons and labels) goes on beside what out does with each
 * group.  A ring of PIPE_NB batches of rows groups (at most 1024, and
 * 256 KiB), their labels (pointing into the threads' dictionaries) and
 * counts.
 */
#define PIPE_NB 4

struct fpipe {
	struct fwork *w;
	int nt;
	size_t d;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	kn_str *key[PIPE_NB];
	uint32_t *id[PIPE_NB];	/* with the leaves (fglob's leafed) */
	uint64_t *cnt[PIPE_NB];
	size_t n[PIPE_NB];
	size_t rows;		/* a batch's room */
	int full[PIPE_NB];
	size_t put, get;	/* batches filled, taken */
	int end;
};

/* The merging thread's own: the batch it fills (b, n groups so far),
 * apart from what the two threads share, which it touches once a
 * batch. */
struct fprod {
	struct fpipe *p;
	size_t b, n;
	kn_str *key;
	uint32_t *id;
	uint64_t *cnt;
};

/* Hands the batch being filled on, with end the last, and takes the
 * next once it is free. */
static void
pipe_hand(struct fprod *q, int end)
{
	struct fpipe *p = q->p;

	pthread_mutex_lock(&p->mu);
	p->n[q->b] = q->n;
	p->full[q->b] = 1;
	p->put++;
	p->end = end;
	pthread_cond_broadcast(&p->cv);
	q->b = p->put % PIPE_NB;
	while (!end && p->full[q->b])
		pthread_cond_wait(&p->cv, &p->mu);
	q->key = p->key[q->b];
	q->id = p->id[q->b];
	q->cnt = p->cnt[q->b];
	pthread_mutex_unlock(&p->mu);
	q->n = 0;
}

/* A merged group into the batch being filled, handed on when full. */
static void
pipe_put(const kn_fsrow *row, void *ctx)
{
	struct fprod *q = ctx;
	size_t d = q->p->d;

	memcpy(q->key + q->n * d, row->key, d * sizeof(kn_str));
	if (row->id != NULL)
		memcpy(q->id + q->n * d, row->id, d * sizeof(uint32_t));
	q->cnt[q->n] = row->cnt;
	if (++q->n == q->p->rows)
		pipe_hand(q, 0);
}

static void *
pipe_merge(void *arg)
{
	struct fpipe *p = arg;
	size_t at[64] = { 0 }, hi[64];
	kn_str key[KN_PMAX + 1];
	kn_fsrow row;
	struct fprod q;
	int k;

	kn_thread_nosignals();
	memset(&row, 0, sizeof(row));
	row.key = key;
	q.p = p;
	q.b = q.n = 0;
	q.key = p->key[0];
	q.id = p->id[0];
	q.cnt = p->cnt[0];
	for (k = 0; k < p->nt; k++)
		hi[k] = p->w[k].npairs;
	par_merge(p->w, p->nt, at, hi, &row, pipe_put, &q, 0);
	pipe_hand(&q, 1);
	return NULL;
}

/* All the groups of the nt threads of w merged, as par_merge: with out,
 * on a thread of their own (struct fpipe) if one starts. */
static uint64_t
par_merge_all(struct freq *fr, struct fwork *w, int nt, kn_fsout out)
{
	size_t at[64] = { 0 }, hi[64], i, b, n;
	struct fpipe p;
	pthread_t th;
	uint64_t groups = 0;
	kn_str *key = fr->row.key, *bk;
	int k, last = 0;

	if (w[0].g->sum != NULL)
		return out == NULL ? w[0].g->groups : sum_emit(w[0].g,
		    w[0].cs.d, 0, w[0].g->nsum, &fr->row, out, fr->ctx, 1);
	for (k = 0; k < nt; k++)
		hi[k] = w[k].npairs;
	memset(&p, 0, sizeof(p));
	p.w = w;
	p.nt = nt;
	p.d = w[0].cs.d;
	if (out == NULL || p.d > KN_PMAX)
		return par_merge(w, nt, at, hi, &fr->row, out, fr->ctx, 1);
	p.rows = ((size_t)256 << 10) / (p.d * sizeof(kn_str) + 8);
	p.rows = p.rows > 1024 ? 1024 : p.rows;
	for (b = 0; b < PIPE_NB; b++) {
		p.key[b] = kn_alloc(p.rows * p.d * sizeof(kn_str));
		p.id[b] = w[0].g->leafed ? kn_alloc(p.rows * p.d *
		    sizeof(uint32_t)) : NULL;
		p.cnt[b] = kn_alloc(p.rows * sizeof(uint64_t));
	}
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	if (pthread_create(&th, NULL, pipe_merge, &p) != 0)
		groups = par_merge(w, nt, at, hi, &fr->row, out, fr->ctx, 1);
	else {
		while (!last) {
			b = p.get % PIPE_NB;
			pthread_mutex_lock(&p.mu);
			while (!p.full[b])
				pthread_cond_wait(&p.cv, &p.mu);
			last = p.end && p.get + 1 == p.put;
			n = p.n[b];
			bk = p.key[b];
			pthread_mutex_unlock(&p.mu);
			for (i = 0; i < n; i++) {
				fr->row.key = bk + i * p.d;
				fr->row.id = p.id[b] != NULL ? p.id[b] + i * p.d :
				    NULL;
				fr->row.cnt = p.cnt[b][i];
				out(&fr->row, fr->ctx);
				if ((++groups & 0xffff) == 0)
					kn_progress(groups, 0);
			}
			pthread_mutex_lock(&p.mu);
			p.full[b] = 0;
			p.get++;
			pthread_cond_broadcast(&p.cv);
			pthread_mutex_unlock(&p.mu);
		}
		pthread_join(th, NULL);
	}
	fr->row.key = key;
	fr->row.id = NULL;
	for (b = 0; b < PIPE_NB; b++) {
		free(p.key[b]);
		free(p.id[b]);
		free(p.cnt[b]);
	}
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	return groups;
}

/*
 * The rows of the merged sets, formatted on the threads (cs->fmt) and
 * written in order by the caller (cs->blk), when the keys are the ranks
 * of all threads' labels: the groups are cut into stretches, each of
 * at most as many pairs of every thread as make 256 KiB of rows
 * between them, all the pairs of a key in one stretch (from g->sum,
 * whole blocks of its slots, of as many groups at most or one block); a
 * thread takes the next stretch, merges and formats it into its row
 * buffer, and the caller's thread hands the buffers on in order.
 */
struct fchunk {
	size_t lo[64], hi[64];	/* each thread's pairs [lo, hi) */
	struct femit *e;
	kn_row row;
	uint64_t groups;
	int state;		/* 0 free, 1 to format, 2 formatted */
};

struct femit {
	struct freq *fr;
	struct fwork *w;
	int nt;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct fchunk *ch;
	size_t nch, made, taken;	/* the ring; stretches cut, taken */
	size_t span;		/* the groups of a stretch from g->sum */
	int end;
};

/* A group of stretch c, formatted into its rows. */
static void
chunk_put(const kn_fsrow *row, void *ctx)
{
	struct fchunk *c = ctx;

	c->e->fr->cs->fmt(row, &c->row, c->e->fr->ctx);
}

/* Merges and formats stretch c on the thread of work wk. */
static void
chunk_format(struct femit *e, struct fchunk *c, struct fwork *wk)
{
	size_t at[64];

	if (e->w[0].g->sum != NULL) {
		c->groups = sum_emit(e->w[0].g, e->w[0].cs.d, c->lo[0],
		    c->hi[0], &wk->fr.row, chunk_put, c, 0);
		return;
	}
	memcpy(at, c->lo, (size_t)e->nt * sizeof(size_t));
	c->groups = par_merge(e->w, e->nt, at, c->hi, &wk->fr.row, chunk_put,
	    c, 0);
}

static void *
chunk_work(void *arg)
{
	struct fwork *wk = arg;
	struct femit *e = wk->emit;
	struct fchunk *c;

	kn_thread_nosignals();
	pthread_mutex_lock(&e->mu);
	for (;;) {
		while (e->taken == e->made && !e->end)
			pthread_cond_wait(&e->cv, &e->mu);
		if (e->taken == e->made)
			break;
		c = &e->ch[e->taken++ % e->nch];
		pthread_mutex_unlock(&e->mu);
		chunk_format(e, c, wk);
		pthread_mutex_lock(&e->mu);
		c->state = 2;
		pthread_cond_broadcast(&e->cv);
	}
	pthread_mutex_unlock(&e->mu);
	return NULL;
}

/* Cuts the next stretch from the positions pos into c; 0 when every
 * pair is taken. */
static int
chunk_cut(struct femit *e, size_t *pos, size_t most, struct fchunk *c)
{
	uint64_t bound = 0;
	int k, bounded = 0;
	size_t lo, hi, mid;

	if (e->w[0].g->sum != NULL) {
		const struct fglob *g = e->w[0].g;
		size_t b = pos[0] / SUM_BLK, got = 0;

		/* Whole blocks of slots, up to e->span groups or one. */
		if (pos[0] >= g->nsum)
			return 0;
		c->lo[0] = pos[0];
		do
			got += g->bgroups[b++];
		while (b * SUM_BLK < g->nsum && got + g->bgroups[b] <= e->span);
		pos[0] = b * SUM_BLK < g->nsum ? b * SUM_BLK : g->nsum;
		c->hi[0] = pos[0];
		return 1;
	}
	for (k = 0; k < e->nt; k++)
		if (pos[k] < e->w[k].npairs)
			break;
	if (k == e->nt)
		return 0;
	/* The least key that ends a thread's share. */
	for (k = 0; k < e->nt; k++)
		if (pos[k] + most < e->w[k].npairs && (!bounded ||
		    e->w[k].pairs[2 * (pos[k] + most)] < bound)) {
			bound = e->w[k].pairs[2 * (pos[k] + most)];
			bounded = 1;
		}
	for (k = 0; k < e->nt; k++) {
		lo = bounded ? pos[k] : e->w[k].npairs;
		hi = e->w[k].npairs;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (e->w[k].pairs[2 * mid] < bound)
				lo = mid + 1;
			else
				hi = mid;
		}
		c->lo[k] = pos[k];
		c->hi[k] = pos[k] = lo;
	}
	return 1;
}

/* Writes the merged sets of the nt threads of w through cs->fmt and
 * cs->blk (see struct fchunk); returns the number of groups. */
static uint64_t
par_rows(struct freq *fr, struct fwork *w, int nt)
{
	struct femit e;
	pthread_t th[64];
	size_t pos[64] = { 0 }, most, i, out = 0;
	uint64_t groups = 0;
	int k, started, more = 1;

	memset(&e, 0, sizeof(e));
	e.fr = fr;
	e.w = w;
	e.nt = nt;
	e.nch = 2 * (size_t)nt + 1;
	e.ch = kn_zalloc(e.nch * sizeof(*e.ch));
	for (i = 0; i < e.nch; i++)
		e.ch[i].e = &e;
	/* A stretch of some 256 KiB of rows at most. */
	most = ((size_t)256 << 10) / (w[0].g->rowmax + 24) / (size_t)nt;
	most = most < 1 ? 1 : most > 4096 ? 4096 : most;
	/* From g->sum, that many groups of each thread. */
	e.span = most * (size_t)nt;
	pthread_mutex_init(&e.mu, NULL);
	pthread_cond_init(&e.cv, NULL);
	for (started = 0; started < nt; started++) {
		w[started].emit = &e;
		if (pthread_create(&th[started], NULL, chunk_work,
		    &w[started]) != 0)
			break;
	}
	pthread_mutex_lock(&e.mu);
	for (;;) {
		while (more && e.made - out < e.nch) {
			struct fchunk *c = &e.ch[e.made % e.nch];

			if (!(more = chunk_cut(&e, pos, most, c)))
				break;
			c->state = 1;
			e.made++;
			pthread_cond_broadcast(&e.cv);
		}
		if (out == e.made)
			break;
		if (started == 0) {
			/* No thread: this one formats. */
			struct fchunk *c = &e.ch[e.taken++ % e.nch];

			chunk_format(&e, c, &w[0]);
			c->state = 2;
		}
		while (e.ch[out % e.nch].state != 2)
			pthread_cond_wait(&e.cv, &e.mu);
		pthread_mutex_unlock(&e.mu);
		{
			struct fchunk *c = &e.ch[out % e.nch];

			fr->cs->blk(c->row.buf, c->row.len, c->groups,
			    fr->ctx);
			groups += c->groups;
			c->row.len = 0;
			kn_progress(groups, 0);
		}
		pthread_mutex_lock(&e.mu);
		e.ch[out++ % e.nch].state = 0;
	}
	e.end = 1;
	pthread_cond_broadcast(&e.cv);
	pthread_mutex_unlock(&e.mu);
	for (k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	for (i = 0; i < e.nch; i++)
		free(e.ch[i].row.buf);
	free(e.ch);
	pthread_mutex_destroy(&e.mu);
	pthread_cond_destroy(&e.cv);
	return groups;
}

/* Emits the sorted sets of the nt threads of w to fr's out, merged:
 * the phase "sorting" as one thread shows it, whose total, the groups
 * once merged, is counted first when progress is shown. */
static void
par_emit(struct freq *fr, struct fwork *w, int nt)
{
	uint64_t n;

	if (kn_progress_on())
		kn_progress_phase("sorting", "groups",
		    par_merge_all(fr, w, nt, NULL));
	n = fr->cs->fmt != NULL && w[0].g->ranked ? par_rows(fr, w, nt) :
	    par_merge_all(fr, w, nt, fr->out);
	kn_progress(n, 0);
}

/* Frees what w holds but its runs. */
static void
par_free(struct fwork *w)
{
	size_t c;

	for (c = 0; c < w->cs.d; c++) {
		free(w->grank[c]);
		free(w->inv[c]);
	}
	kn_block_free(&w->blk);
	free(w->pairs);
	if (w->fr.packed)
		free(w->fr.pc.tab);
	kn_fset_free(&w->fr.fs);
	for (c = 0; c < w->cs.d; c++)
		kn_dict_free(&w->dict[c]);
	free(w->dict);
	free(w->f);
	free(w->k);
	free(w->key);
	free(w->fr.row.key);
	if (w->ts != NULL)
		w->cs.tfree(w->cs.tctx, w->ts);
}

/* Reports the row of block b that cs->tkey refused, on this thread: its
 * fields as its thread left them (it stopped there, and b is every
 * thread's blk) handed to cs->tfail; or whose label a hierarchy refused
 * (par_block), as one thread reports it. */
static void
par_fail(const kn_countspec *cs, kn_table *t, kn_block *b)
{
	const struct fwork *w = (const struct fwork *)(const void *)((char *)b -
	    offsetof(struct fwork, blk));
	kn_str *f = w->f;
	kn_table tc;
	size_t c;

	if (b->bad != 2)
		kn_block_fail(t, b);
	tc = *t;
	tc.f = f;
	tc.r.name = b->name;
	tc.r.lineno = b->lineno;
	for (c = 0; cs->tkey == NULL && cs->hier != NULL && c < cs->d; c++) {
		kn_str v = f[cs->key[c]];
		const char *err;

		if (cs->hier[c] != NULL &&
		    kn_hier_check(cs->hier[c], v.p, v.n, &err) < 0)
			kn_table_fail(&tc, cs->key[c], "'%.*s': %s (%s)",
			    (int)v.n, v.p, err, cs->hier[c]->src);
	}
	if (cs->tkey != NULL)
		cs->tfail(cs->tctx, &tc);
	kn_die("%s:%llu: a row refused on a thread but not on this one",
	    b->name, (unsigned long long)tc.r.lineno);
}

/* The least bytes left of a file whose labels of hierarchies are
 * counted on threads: below, the threads' sets, their merge and the
 * leaves made after cost what they save (lattice-search on Agrawal
 * rows, five interval hierarchies: 0.14 s read at -j 1 and at -j 2 on
 * 11 MB, 0.47 against 0.36 s on 36 MB, 5.2 against 2.6 s on 361 MB). */
#define PAR_HIER_MIN ((off_t)32 << 20)

/* Whether the threads may count the labels of cs's hierarchies as they
 * read them, each new one checked (par_block), their leaves made once
 * the counting is done (par_leaves): for the sets at the leaves, with
 * no hierarchy that only the order of the rows can check, and a table
 * not known to be small. */
static int
par_hier(const kn_countspec *cs, const int *lv, const kn_table *t)
{
	struct stat st;
	size_t c;

	if (fstat(t->r.fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size - (off_t)t->r.bytes < PAR_HIER_MIN)
		return 0;
	for (c = 0; c < cs->d; c++)
		if (cs->hier[c] != NULL && ((lv != NULL && lv[c] != 0) ||
		    !kn_hier_checkable(cs->hier[c])))
			return 0;
	return 1;
}

/* The leaf of each label of the threads' hierarchies (g->leaf), made in
 * the labels' byte order, when the labels take at most room bytes: for
 * the rows handed to out (row->id) instead of a look-up a group; else
 * out is left to look them up. */
static void
par_leaves(const kn_countspec *cs, struct fglob *g, size_t room)
{
	size_t c, i, need = 0;
	const char *err;
	int64_t id;

	/* A leaf's bytes, its slots, its link up at each level and its
	 * entry of g->leaf (the labels above are fewer). */
	for (c = 0; c < cs->d; c++)
		for (i = 0; cs->hier[c] != NULL && i < g->nlab[c]; i++)
			need += g->lab[c][i].n + 48 +
			    4 * (size_t)cs->hier[c]->nlevels;
	if (need > room)
		return;
	for (c = 0; c < cs->d; c++) {
		if (cs->hier[c] == NULL)
			continue;
		g->leaf[c] = kn_alloc((g->nlab[c] + 1) * sizeof(uint32_t));
		for (i = 0; i < g->nlab[c]; i++) {
			id = kn_hier_leaf(cs->hier[c], g->lab[c][i].p,
			    g->lab[c][i].n, &err);
			if (id < 0)
				kn_die("'%.*s': %s (%s)", (int)g->lab[c][i].n,
				    g->lab[c][i].p, err, cs->hier[c]->src);
			g->leaf[c][i] = (uint32_t)id;
		}
	}
	g->leafed = 1;
}

/*
 * Counts the rest of table t on nt threads into fr (returns -1 when no
 * thread could start, and t is left unread; 1 when the groups went to
 * fr's out, 0 when they are in fr's runs): this thread and the others
 * read blocks of rows by turns (par_work) and split and count them
 * each into a set of its own, within an equal share of limit, and the
 * sets are merged into fr.  The groups are those of one thread, so
 * the output is the same for any number; a bad row is reported as one
 * thread would, at the first in the input.
 */
static int
par_count(struct freq *fr, kn_table *t, size_t limit, int bounded, int nt)
{
	const kn_countspec *cs = fr->cs;
	struct fwork *w;
	struct fpar p;
	struct fglob g;
	pthread_t th[64];
	size_t i;
	int started, k, runs, emitted = 0;

	if (nt > 64)
		nt = 64;
	memset(&p, 0, sizeof(p));
	memset(&g, 0, sizeof(g));
	p.t = t;
	p.cs = cs;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.idle, NULL);
	/* The blocks take a quarter of the share of the sets. */
	p.want = bounded ? limit / 4 / (size_t)nt : (size_t)1 << 20;
	if (p.want < ((size_t)16 << 10))
		p.want = (size_t)16 << 10;
	if (p.want > ((size_t)1 << 20))
		p.want = (size_t)1 << 20;
	w = kn_zalloc((size_t)nt * sizeof(*w));
	/* The threads' own state for cs->tkey, or no thread at all. */
	for (k = 0; cs->tkey != NULL && k < nt; k++)
		if ((w[k].ts = cs->tnew(cs->tctx, nt)) == NULL) {
			while (k-- > 0)
				cs->tfree(cs->tctx, w[k].ts);
			nt = 0;
			break;
		}
	/* w[0] is this thread's, the others' each a thread's. */
	for (started = 0; started < nt; started++) {
		struct fwork *x = &w[started];

		x->p = &p;
		x->cs = *cs;
		x->dict = kn_zalloc((cs->d + 1) * sizeof(kn_dict));
		for (i = 0; i < cs->d; i++)
			kn_dict_init(&x->dict[i]);
		x->cs.dict = x->dict;
		/* The keys are tkey's, or the labels read (par_hier). */
		x->hier = cs->tkey == NULL ? cs->hier : NULL;
		x->cs.hier = NULL;
		x->f = kn_alloc((t->ncols + 1) * sizeof(kn_str));
		x->k = kn_alloc((cs->d + 1) * sizeof(uint32_t));
		x->key = kn_alloc((cs->d + 1) * sizeof(kn_str));
		/* The sets share what the blocks leave. */
		x->limit = bounded && limit > (size_t)nt * p.want ?
		    (limit - (size_t)nt * p.want) / (size_t)nt : 0;
		if (bounded && x->limit == 0)
			x->limit = 1;
		x->fr.cs = &x->cs;
		x->fr.row.key = kn_alloc((cs->d + 1) * sizeof(kn_str));
		x->fr.tmpdir = fr->tmpdir;
		x->fr.st = &x->st;
		kn_fset_init(&x->fr.fs, cs->d, 0);
		x->fr.packed = kn_pcount_init(&x->fr.pc, cs->d);
		x->fr.pc.limit = x->limit;
		if (started > 0 && pthread_create(&th[started], NULL,
		    par_thread, x) != 0) {
			par_free(x);
			break;
		}
	}
	for (k = started + 1; k < nt && cs->tkey != NULL; k++)
		cs->tfree(cs->tctx, w[k].ts);
	if (started == 1) {
		par_free(&w[0]);
		started = 0;
	}
	if (started > 0) {
		par_work(&w[0]);
		for (k = 1; k < started; k++)
			pthread_join(th[k], NULL);
		if (p.bad != NULL)
			par_fail(cs, t, p.bad);
		/* Each thread's set sorted on its thread and merged here;
		 * if one spilled (or cannot be sorted so), all are written
		 * as runs, merged as one thread's would be. */
		for (k = 0, runs = 0; k < started; k++)
			runs |= !par_sortable(&w[k]);
		if (!runs) {
			par_rank(w, started, &g);
			if (cs->hier != NULL && cs->tkey == NULL &&
			    cs->fmt == NULL)
				par_leaves(cs, &g, bounded ? limit / 4 :
				    SIZE_MAX);
			if (!par_sum(w, started, &g))
				kn_sort_par_run(par_sort, w, sizeof(w[0]),
				    started);
			kn_progress(t->rows, t->r.bytes);
			kn_progress_done();
			par_emit(fr, w, started);
			emitted = 1;
		}
		for (k = 0; k < started; k++) {
			if (runs)
				freq_spill(&w[k].fr);
			if (w[k].fr.nrun > 0)
				fr->run = kn_realloc(fr->run, (fr->nrun +
				    w[k].fr.nrun + 1) * sizeof(char *));
			for (i = 0; i < w[k].fr.nrun; i++)
				fr->run[fr->nrun++] = w[k].fr.run[i];
			free(w[k].fr.run);
			fr->runlines += w[k].fr.runlines;
			if (fr->st != NULL) {
				fr->st->runs += w[k].st.runs;
				fr->st->bytes_written += w[k].st.bytes_written;
			}
			par_free(&w[k]);
		}
	}
	free(w);
	free(g.sum);
	free(g.bgroups);
	for (i = 0; i < cs->d && i < KN_PMAX; i++) {
		free(g.lab[i]);
		free(g.leaf[i]);
	}
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.idle);
	return started == 0 ? -1 : emitted;
}

void
kn_freq(kn_table *t, const kn_countspec *cs, const int *lv, size_t budget,
    const char *tmpdir, kn_fsout out, void *ctx, kn_freqstats *st)
{
	struct freq fr;
	size_t d = cs->d, c, j;
	uint32_t *k = kn_alloc((d + 1) * sizeof(uint32_t)), e;
	size_t limit = budget / 3;
	uint64_t checked = 0;
	int emitted = 0, par = -1, jobs, hashier;

	memset(&fr, 0, sizeof(fr));
	fr.cs = cs;
	fr.lv = lv;
	fr.tmpdir = tmpdir;
	fr.out = out;
	fr.ctx = ctx;
	fr.st = st;
	fr.row.key = kn_alloc((d + 1) * sizeof(kn_str));
	for (c = 0; cs->hier != NULL && c < d && cs->hier[c] == NULL; c++)
		;
	hashier = cs->hier != NULL && c < d;
	/* A cache of leaves for each column, when one has a hierarchy
	 * (a table of many columns and no hierarchy takes none). */
	if (hashier)
		fr.hc = kn_zalloc(d * HCACHE * sizeof(*fr.hc));
	fr.cf = kn_alloc((d + 2 + 2 * cs->nsum) * sizeof(kn_str));
	fr.row.s = kn_zalloc((cs->nsum + 1) * sizeof(kn_i128));
	fr.row.ss = kn_zalloc((cs->nsum + 1) * sizeof(kn_i128));
	fr.row.sc = kn_zalloc((cs->nsum + 1) * sizeof(int));
	fr.row.ssc = kn_zalloc((cs->nsum + 1) * sizeof(int));
	kn_fset_init(&fr.fs, d, cs->nsum);
	/* Counts read from a count column go to the hash at once, so that
	 * one past 64 bits is met at its row. */
	fr.packed = cs->nsum == 0 && !cs->hascount &&
	    kn_pcount_init(&fr.pc, d);
	if (fr.packed && budget > 0)
		fr.pc.limit = limit;
	if (cs->hascount) {
		kn_fset_count_context(t, cs->cntcol);
	}
	jobs = budget > 0 ? kn_jobs_within(cs->jobs, budget) : cs->jobs;
	if (jobs > 1 && kn_table_blocks(t) && (!hashier || cs->tkey != NULL ||
	    par_hier(cs, lv, t)) &&
	    !cs->hascount && cs->nsum == 0 &&
	    (cs->row == NULL || cs->tkey != NULL) && fr.packed)
		par = par_count(&fr, t, limit, budget > 0, jobs);
	emitted = par == 1;
	/* The threads read it all (and closed the last file). */
	while (par < 0 && kn_table_next(t)) {
		uint64_t cnt = 1;

		if (cs->row != NULL)
			cs->row(t, cs->rowctx);
		if ((t->rows & 0xffff) == 0)
			kn_progress(t->rows, t->r.bytes);
		if (budget > 0 && ((t->rows & 0x3ff) == 0 ||
		    t->r.bytes - checked > limit / 8)) {
			checked = t->r.bytes;
			if (freq_bytes(&fr) > limit)
				freq_spill(&fr);
		}
		if (cs->hascount && !parse_count(t->f[cs->cntcol], &cnt))
			kn_table_fail(t, cs->cntcol, "'%.*s' is not a count",
			    (int)t->f[cs->cntcol].n, t->f[cs->cntcol].p);
		/* Ignored whole: its values make no leaf (skipzero). */
		if (cnt == 0 && cs->skipzero)
			continue;
		for (c = 0; c < d; c++) {
			kn_str v = t->f[cs->key[c]];
			kn_hier *h = cs->hier != NULL ? cs->hier[c] : NULL;

			if (h == NULL)
				k[c] = kn_dict_intern_padded(&cs->dict[c], v.p,
				    v.n, 1);
			else {
				const char *err;
				int64_t id = leaf_cached(fr.hc + c * HCACHE, h,
				    v, &err);

				if (id < 0)
					kn_table_fail(t, cs->key[c], "'%.*s': %s "
					    "(%s)", (int)v.n, v.p, err, h->src);
				k[c] = (uint32_t)id;
			}
		}
		if ((e = freq_add(&fr, k, cnt)) == UINT32_MAX)
			continue;
		for (j = 0; j < cs->nsum; j++) {
			size_t col = cs->sumcol[j];
			kn_str v = t->f[col];
			kn_i128 m, m2;
			int sc, sc2;

			/* A value, or a frequency set's sum (pairs), which
			 * may take up to 39 digits. */
			if (!(cs->pairs ? kn_sum_parse : kn_dec_parse)(v.p, v.n,
			    &m, &sc))
				kn_table_fail(t, col, "'%.*s' %s", (int)v.n,
				    v.p, kn_dec_why(v.p, v.n,
				    "is not a number"));
			if (sc > 18)
				kn_table_fail(t, col, "'%.*s' has more than 18 "
				    "decimal places (kanon(7), Numbers)",
				    (int)v.n, v.p);
			if (cs->pairs) {
				kn_str w = t->f[col + 1];

				if (!kn_sum_parse(w.p, w.n, &m2, &sc2) || m2 < 0)
					kn_table_fail(t, col + 1, "'%.*s' is not "
					    "a sum of squares", (int)w.n, w.p);
				if (!kn_fset_addsum(&fr.fs, e, j, m, sc, m2, sc2))
					kn_table_fail(t, col, "the group's sums "
					    "pass the limit of exact sums "
					    "(kanon(7), Numbers)");
			} else if (!kn_fset_addval(&fr.fs, e, j, m, sc))
				kn_table_fail(t, col, "the group's sum of the "
				    "values or of their squares passes the limit "
				    "of exact sums of 2^127 (kanon(7), Numbers)");
		}
	}
	if (!emitted) {
		kn_progress(t->rows, t->r.bytes);
		kn_progress_done();
	}
	kn_fset_count_context(NULL, 0);
	free(k);
	if (st != NULL)
		st->rows = t->rows;
	if (emitted) {
		free(fr.pc.tab);
		kn_fset_free(&fr.fs);
	} else if (fr.nrun == 0) {
		fr.prog = 1;
		freq_emit(&fr, out, ctx);
		if (fr.packed)
			free(fr.pc.tab);
		kn_fset_free(&fr.fs);
	} else {
		kn_sorter *so;
		size_t r;

		freq_spill(&fr);
		if (fr.packed)
			free(fr.pc.tab);
		kn_fset_free(&fr.fs);
		kn_progress_phase("merging", "lines", fr.runlines);
		so = kn_sort_new(NULL, 0, 1, budget, tmpdir);
		for (r = 0; r < fr.nrun; r++)
			kn_sort_addrun(so, fr.run[r]);
		kn_sort_finish(so, 0, comb_line, &fr);
		comb_flush(&fr);
		if (st != NULL) {
			st->merge_passes = kn_sort_stats(so)->merge_passes;
			st->bytes_read = kn_sort_stats(so)->bytes_read;
		}
		kn_sort_free(so);
		free(fr.run);
		free(fr.ckey);
	}
	if (fr.nrun > 0)
		kn_progress(fr.merged, 0);
	kn_progress_done();
	free(fr.cf);
	free(fr.hc);
	free(fr.row.key);
	free(fr.row.s);
	free(fr.row.ss);
	free(fr.row.sc);
	free(fr.row.ssc);
}

/* Compares two keys of equal field count as their lines compare in
 * byte order: where one key is a prefix of the other, the tab that
 * follows it in its line decides. */
static int
cmp_keyline(const char *a, size_t an, const char *b, size_t bn)
{
	size_t n = an < bn ? an : bn;
	int r = memcmp(a, b, n), ca, cb;

	if (r != 0 || an == bn)
		return r;
	ca = n < an ? (unsigned char)a[n] : '\t';
	cb = n < bn ? (unsigned char)b[n] : '\t';
	return ca < cb ? -1 : 1;
}

void
kn_freq_sorted(kn_table *t, const kn_countspec *cs, kn_fsout out,
    void *ctx, kn_freqstats *st)
{
	size_t d = cs->d, c, j, keylen, cap = 0;
	char *cur = NULL;
	int have = 0;
	kn_fsrow row;
	uint64_t cnt;
	kn_i128 m, m2;
	int sc, sc2;

	row.id = NULL;
	row.key = kn_alloc((d + 1) * sizeof(kn_str));
	row.s = kn_zalloc((cs->nsum + 1) * sizeof(kn_i128));
	row.ss = kn_zalloc((cs->nsum + 1) * sizeof(kn_i128));
	row.sc = kn_zalloc((cs->nsum + 1) * sizeof(int));
	row.ssc = kn_zalloc((cs->nsum + 1) * sizeof(int));
	row.cnt = 0;
	keylen = 0;
	while (kn_table_next(t) && (kn_table_join(t), 1)) {
		const char *line = t->r.line;
		size_t kl = d == 0 ? 0 : (size_t)(t->f[d - 1].p +
		    t->f[d - 1].n - line);
		int r = have ? cmp_keyline(cur, keylen, line, kl) : -1;

		if ((t->rows & 0xffff) == 0)
			kn_progress(t->rows, t->r.bytes);
		if (r > 0)
			kn_die("%s:%llu: the frequency set is not sorted: this "
			    "key comes before the line above's (sort it with "
			    "LC_ALL=C sort, or leave out --sorted)", t->r.name,
			    (unsigned long long)t->r.lineno);
		if (!parse_count(t->f[cs->cntcol], &cnt))
			kn_table_fail(t, cs->cntcol, "'%.*s' is not a count",
			    (int)t->f[cs->cntcol].n, t->f[cs->cntcol].p);
		if (r < 0) {
			if (have)
				out(&row, ctx);
			if (kl + 1 > cap) {
				cap = 2 * (kl + 1);
				cur = kn_realloc(cur, cap);
			}
			memcpy(cur, line, kl);
			keylen = kl;
			for (c = 0; c < d; c++) {
				row.key[c].p = cur + (t->f[c].p - line);
				row.key[c].n = t->f[c].n;
			}
			row.cnt = 0;
			for (j = 0; j < cs->nsum; j++) {
				row.s[j] = row.ss[j] = 0;
				row.sc[j] = row.ssc[j] = 0;
			}
			have = 1;
		}
		if (__builtin_add_overflow(row.cnt, cnt, &row.cnt))
			kn_table_fail(t, cs->cntcol, "the count overflows 64 "
			    "bits");
		for (j = 0; j < cs->nsum; j++) {
			size_t col = cs->sumcol[j];
			kn_str a = t->f[col], b = t->f[col + 1];

			if (!kn_sum_parse(a.p, a.n, &m, &sc))
				kn_table_fail(t, col, "'%.*s' %s", (int)a.n,
				    a.p, kn_dec_why(a.p, a.n,
				    "is not a number"));
			if (!kn_sum_parse(b.p, b.n, &m2, &sc2) || m2 < 0)
				kn_table_fail(t, col + 1, "'%.*s' is not a sum "
				    "of squares", (int)b.n, b.p);
			kn_dec_add(&row.s[j], &row.sc[j], m, sc);
			kn_dec_add(&row.ss[j], &row.ssc[j], m2, sc2);
		}
	}
	kn_progress(t->rows, t->r.bytes);
	kn_progress_done();
	if (have)
		out(&row, ctx);
	if (st != NULL)
		st->rows = t->rows;
	free(cur);
	free(row.key);
	free(row.s);
	free(row.ss);
	free(row.sc);
	free(row.ssc);
}
