/*
 * numkey.c: partition's numbers out of core, without a dictionary.
 *
 * The spool (paper 004 §2, Rothko-T's and Rothko-S's one copy of the
 * rows) holds each number of a numeric quasi-identifier as a 64-bit key:
 * its value as an integer at the column's scale, the sign bit flipped,
 * so that keys compare as the numbers do; its high half in the record's
 * word of the dimension (which holds a rank only in memory), its low
 * half in a word added to the record.  The column's scale (its
 * largest number of decimals) is known only at the end, so a chunk of
 * rows is written at the scale seen so far and brought to the final
 * one when it is read back (numkey_rescale): the scale only grows, at
 * most 19 times, and each chunk's is found from the first chunk of
 * each scale.  Memory does not grow with the distinct values; ranks
 * are given only to the values of a node in memory (rothko.c).  A
 * sensitive column asked for its variance alone, and a regression's
 * target, are keyed the same way, as dimensions after the QIs
 * (mondrian.h), their high halves in their own words of the record.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kanon.h"
#include "mondrian.h"

/* Sets the words of the spool's records: the in-memory record, then
 * a word for the low half of each key (of a numeric QI, or a keyed
 * column's: mondrian.h). */
void
numkey_layout(struct part *pt)
{
	size_t j;
	int s;

	pt->keyed = 1;
	pt->dwords = pt->rec_words;
	for (j = 0; j < pt->nkd; j++) {
		struct dim *dm = &pt->dims[j];

		if (dm->h != NULL)
			continue;
		if (j < pt->nqi)
			dm->hword = j;
		/* The labels' hashes (targ_hkey): both halves past the
		 * record a node holds in memory, which numbers its labels
		 * itself when they are hashed (rothko.c). */
		if (pt->targ_hkey && j == pt->nkd - 1)
			dm->hword = pt->dwords++;
		/* So are the sensitive values' (sens_hkey). */
		if (pt->sens_hkey && j >= pt->nqi && j < pt->nqi + pt->nskd)
			dm->hword = pt->dwords++;
		dm->kword = pt->dwords;
		pt->dwords += 1;
		dm->sc_chunk[0] = 0;
		for (s = 1; s < NUMKEY_SCALES; s++)
			dm->sc_chunk[s] = UINT64_MAX;
		dm->sc_now = dm->sc_ext = 0;
	}
}

/* Raises the scale of dimension dm to sc from chunk c on (its extremes
 * follow as the chunks are written: ext_merge). */
static void
raise_scale(struct dim *dm, int sc, uint64_t c)
{
	dm->sc_now = sc;
	dm->sc_chunk[sc] = c;
}

/* Adds the extremes of a chunk at scale sc (has: it has a number, ovf:
 * one overflowed) to dm's, which are brought to that scale first: the
 * chunks in the order of the spool, as they were raised. */
static void
ext_merge(struct dim *dm, int sc, int64_t mn, int64_t mx, int has, int ovf)
{
	if (sc > dm->sc_ext) {
		int64_t f = (int64_t)kn_pow10(sc - dm->sc_ext);

		if (dm->has_num && (__builtin_mul_overflow(dm->kmn, f,
		    &dm->kmn) || __builtin_mul_overflow(dm->kmx, f, &dm->kmx)))
			dm->sc_ovf = 1;
		dm->sc_ext = sc;
	}
	if (ovf)
		dm->sc_ovf = 1;
	if (!has)
		return;
	if (!dm->has_num || mn < dm->kmn)
		dm->kmn = mn;
	if (!dm->has_num || mx > dm->kmx)
		dm->kmx = mx;
	dm->has_num = 1;
}

/*
 * A chunk of rows on its way to the spool, in three steps: its scales
 * decided (chunk_decide, in the order of the chunks, on the thread that
 * reads), its records made and packed (chunk_pack, on any thread), then
 * its extremes taken and its bytes written (chunk_commit, in order).
 */
struct nkslot {
	uint32_t *rec;		/* MOND_CHUNK records of rec_words */
	int64_t **raw;		/* per dimension, the numbers */
	int8_t **rsc;		/* and their scales */
	size_t nb;		/* rows */
	int zs, zt;		/* the sensitive ids, the labels', set to 0 */
	int *sc;		/* per dimension, the chunk's scale */
	int64_t *mn, *mx;	/* per dimension, its extremes */
	char *has, *ovf;
	uint32_t *out;		/* the records on disk */
	unsigned char *bytes;	/* packed, or a group's room */
	size_t nbytes;
	int written;		/* to the spool as packed */
	int state;
};

enum { NK_FREE, NK_FILL, NK_QUEUED, NK_PACKING, NK_PACKED };

/* The ring of chunks of -j: one filled by the reading, the others
 * waiting for a thread, packed, or written. */
struct nkring {
	struct nkslot *s;
	size_t n, fill, head;	/* slots; the one filled; the oldest */
	pthread_mutex_t *mu;
	pthread_cond_t *more, *done;
};

static size_t pack_block(const struct part *pt, FILE *f, const char *path,
    const uint32_t *recs, size_t n, unsigned char *buf, unsigned char *mem);

/* The scratch of a chunk (with own, its rows' arrays too). */
static void
slot_alloc(const struct part *pt, struct nkslot *sl, int own)
{
	size_t j, nkd = pt->nkd;

	memset(sl, 0, sizeof(*sl));
	sl->raw = kn_zalloc((nkd + 1) * sizeof(int64_t *));
	sl->rsc = kn_zalloc((nkd + 1) * sizeof(int8_t *));
	sl->sc = kn_zalloc((nkd + 1) * sizeof(int));
	sl->mn = kn_zalloc((nkd + 1) * sizeof(int64_t));
	sl->mx = kn_zalloc((nkd + 1) * sizeof(int64_t));
	sl->has = kn_zalloc(nkd + 1);
	sl->ovf = kn_zalloc(nkd + 1);
	sl->out = kn_alloc(MOND_CHUNK * pt->dwords * sizeof(uint32_t));
	/* Packed whole for the ring, else written a group at a time. */
	sl->bytes = kn_alloc(numkey_group_bytes(pt) + (own ?
	    MOND_CHUNK * pt->dwords * sizeof(uint32_t) : 0));
	if (!own)
		return;
	sl->rec = kn_alloc(MOND_CHUNK * pt->rec_words * sizeof(uint32_t));
	for (j = 0; j < nkd; j++)
		if (pt->dims[j].h == NULL) {
			sl->raw[j] = kn_alloc(MOND_CHUNK * sizeof(int64_t));
			sl->rsc[j] = kn_alloc(MOND_CHUNK);
		}
}

/* Frees a chunk's scratch (with own, its rows' arrays too). */
static void
slot_free(const struct part *pt, struct nkslot *sl, int own)
{
	size_t j;

	for (j = 0; own && j < pt->nkd; j++) {
		free(sl->raw[j]);
		free(sl->rsc[j]);
	}
	if (own)
		free(sl->rec);
	free(sl->raw);
	free(sl->rsc);
	free(sl->sc);
	free(sl->mn);
	free(sl->mx);
	free(sl->has);
	free(sl->ovf);
	free(sl->out);
	free(sl->bytes);
}

/* The chunk of the nb rows spooled next: each number's scale, the
 * largest so far (raise_scale), and which ids are dropped. */
static void
chunk_decide(struct part *pt, struct nkslot *sl, size_t nb)
{
	uint64_t c = pt->spooled / MOND_CHUNK;
	size_t i, j;

	/* One block of the spool, within one of its chunks. */
	if (nb > MOND_CHUNK || (nb > 0 && pt->spooled % MOND_CHUNK != 0))
		kn_die("%s: internal error: %zu rows spooled after %llu",
		    pt->spool_path, nb, (unsigned long long)pt->spooled);
	sl->nb = nb;
	/* A dictionary dropped for the hashes (mond_sens_drop,
	 * mond_targ_drop): its ids 0 from then on, as one thread codes
	 * them, whatever ids the threads of -j gave the rows of a block
	 * coded before (the bytes on disk the same). */
	sl->zs = pt->sens_hkey && pt->tchash;
	sl->zt = pt->targ_hkey && pt->targ_hashed;
	for (j = 0; j < pt->nkd; j++) {
		struct dim *dm = &pt->dims[j];
		const int8_t *rsc = sl->rsc[j];
		int sc = dm->sc_now;

		if (dm->h != NULL)
			continue;
		for (i = 0; i < nb; i++)
			if (rsc[i] > sc)
				sc = rsc[i];
		if (sc > dm->sc_now)
			raise_scale(dm, sc, c);
		sl->sc[j] = sc;
	}
}

/* Makes a chunk's records on disk, the numbers keys at its scales,
 * with their extremes, and packs them (with f, writes them to f, the
 * spool): on any thread, reading only what the reading does not
 * change. */
static void
chunk_pack(const struct part *pt, struct nkslot *sl, FILE *f)
{
	size_t i, j, nb = sl->nb, dw = pt->dwords;

	for (i = 0; i < nb; i++) {
		uint32_t *r = sl->out + i * dw;

		memcpy(r, sl->rec + i * pt->rec_words,
		    pt->rec_words * sizeof(uint32_t));
		if (sl->zs)
			r[pt->word_sens] = 0;
		if (sl->zt)
			r[pt->word_targ] = 0;
	}
	for (j = 0; j < pt->nkd; j++) {
		const struct dim *dm = &pt->dims[j];
		/* In locals, which the records written do not alias. */
		const int64_t *raw = sl->raw[j];
		const int8_t *rsc = sl->rsc[j];
		size_t hw = dm->hword, kw = dm->kword;
		int64_t mn = 0, mx = 0;
		int sc = sl->sc[j], has = 0, ovf = 0;

		if (dm->h != NULL)
			continue;
		for (i = 0; i < nb; i++) {
			uint64_t key = 0;
			int64_t v = raw[i];

			if (rsc[i] >= 0) {
				if (rsc[i] != sc && __builtin_mul_overflow(v,
				    (int64_t)kn_pow10(sc - rsc[i]), &v)) {
					ovf = 1;
					v = 0;
				}
				if (!has || v < mn)
					mn = v;
				if (!has || v > mx)
					mx = v;
				has = 1;
				key = numkey_of(v);
			}
			numkey_put(sl->out + i * dw, hw, kw, key);
		}
		sl->mn[j] = mn;
		sl->mx[j] = mx;
		sl->has[j] = (char)has;
		sl->ovf[j] = (char)ovf;
	}
	sl->nbytes = nb == 0 ? 0 : f != NULL ? pack_block(pt, f,
	    pt->spool_path, sl->out, nb, sl->bytes, NULL) :
	    pack_block(pt, NULL, NULL, sl->out, nb, NULL, sl->bytes);
	sl->written = f != NULL;
}

/* A chunk's extremes taken and its bytes written to the spool, in the
 * order of the chunks. */
static void
chunk_commit(struct part *pt, struct nkslot *sl)
{
	size_t j;

	for (j = 0; j < pt->nkd; j++)
		if (pt->dims[j].h == NULL)
			ext_merge(&pt->dims[j], sl->sc[j], sl->mn[j], sl->mx[j],
			    sl->has[j], sl->ovf[j]);
	if (!sl->written && sl->nbytes > 0 &&
	    fwrite(sl->bytes, 1, sl->nbytes, pt->spool) != sl->nbytes)
		kn_die_sys("%s: write error", pt->spool_path);
	pt->acct.bwritten += sl->nbytes;
}

/* The rows' arrays of pt (pt->rec, dm->raw, dm->rsc) those of chunk
 * sl, or sl's those of pt. */
static void
slot_arrays(struct part *pt, struct nkslot *sl, int to_pt)
{
	size_t j;

	if (to_pt)
		pt->rec = sl->rec;
	else
		sl->rec = pt->rec;
	for (j = 0; j < pt->nkd; j++) {
		struct dim *dm = &pt->dims[j];

		if (dm->h != NULL)
			continue;
		if (to_pt) {
			dm->raw = sl->raw[j];
			dm->rsc = sl->rsc[j];
		} else {
			sl->raw[j] = dm->raw;
			sl->rsc[j] = dm->rsc;
		}
	}
}

/* Writes the ring's oldest chunk once it is packed (by this thread if
 * none has taken it); 0 if it is the one being filled. */
static int
ring_commit(struct part *pt, struct nkring *r)
{
	struct nkslot *h = &r->s[r->head];
	int st;

	pthread_mutex_lock(r->mu);
	if (h->state == NK_QUEUED) {
		h->state = NK_PACKING;
		pthread_mutex_unlock(r->mu);
		chunk_pack(pt, h, NULL);
		pthread_mutex_lock(r->mu);
		h->state = NK_PACKED;
	}
	while (h->state == NK_PACKING)
		pthread_cond_wait(r->done, r->mu);
	st = h->state;
	pthread_mutex_unlock(r->mu);
	if (st != NK_PACKED)
		return 0;
	chunk_commit(pt, h);
	pthread_mutex_lock(r->mu);
	h->state = NK_FREE;
	r->head = (r->head + 1) % r->n;
	pthread_mutex_unlock(r->mu);
	return 1;
}

void
numkey_flush(struct part *pt, size_t nb)
{
	struct nkring *r = pt->nkr;
	struct nkslot sl, *f;
	int packed, free_now;

	if (r == NULL) {
		slot_alloc(pt, &sl, 0);
		slot_arrays(pt, &sl, 0);
		chunk_decide(pt, &sl, nb);
		chunk_pack(pt, &sl, pt->spool);
		chunk_commit(pt, &sl);
		slot_free(pt, &sl, 0);
		pt->spooled += nb;
		return;
	}
	f = &r->s[r->fill];
	chunk_decide(pt, f, nb);
	pt->spooled += nb;
	pthread_mutex_lock(r->mu);
	f->state = NK_QUEUED;
	pthread_cond_broadcast(r->more);
	pthread_mutex_unlock(r->mu);
	/* The next chunk's arrays, once written; those packed meanwhile
	 * written as they come. */
	r->fill = (r->fill + 1) % r->n;
	for (;;) {
		/* Read under the mutex: a thread may be packing it. */
		pthread_mutex_lock(r->mu);
		free_now = r->s[r->fill].state == NK_FREE;
		pthread_mutex_unlock(r->mu);
		if (free_now)
			break;
		(void)ring_commit(pt, r);
	}
	do {
		pthread_mutex_lock(r->mu);
		packed = r->head != r->fill &&
		    r->s[r->head].state == NK_PACKED;
		pthread_mutex_unlock(r->mu);
	} while (packed && ring_commit(pt, r));
	pthread_mutex_lock(r->mu);
	r->s[r->fill].state = NK_FILL;
	pthread_mutex_unlock(r->mu);
	slot_arrays(pt, &r->s[r->fill], 1);
}

size_t
numkey_ring_bytes(const struct part *pt, size_t nslots)
{
	size_t j, row = pt->rec_words * sizeof(uint32_t) +
	    2 * pt->dwords * sizeof(uint32_t);

	for (j = 0; j < pt->nkd; j++)
		if (pt->dims[j].h == NULL)
			row += sizeof(int64_t) + 1;
	/* The rows, then the chunk's arrays by dimension (slot_alloc). */
	return sizeof(struct nkring) + nslots * (MOND_CHUNK * row +
	    numkey_group_bytes(pt) + (pt->nkd + 1) * (3 * sizeof(int64_t) +
	    sizeof(int8_t *) + sizeof(int) + 2) + sizeof(struct nkslot));
}

void
numkey_ring_new(struct part *pt, size_t nslots, pthread_mutex_t *mu,
    pthread_cond_t *more, pthread_cond_t *done)
{
	struct nkring *r = kn_zalloc(sizeof(*r));
	size_t i, j;

	r->s = kn_zalloc(nslots * sizeof(struct nkslot));
	r->n = nslots;
	r->mu = mu;
	r->more = more;
	r->done = done;
	for (i = 0; i < nslots; i++)
		slot_alloc(pt, &r->s[i], 1);
	/* The arrays of the chunk so far given up for the ring's. */
	free(pt->rec);
	for (j = 0; j < pt->nkd; j++) {
		free(pt->dims[j].raw);
		free(pt->dims[j].rsc);
		pt->dims[j].raw = NULL;
		pt->dims[j].rsc = NULL;
	}
	r->s[0].state = NK_FILL;
	slot_arrays(pt, &r->s[0], 1);
	pthread_mutex_lock(mu);
	pt->nkr = r;
	pthread_mutex_unlock(mu);
}

int
numkey_ring_work(struct part *pt)
{
	struct nkring *r = pt->nkr;
	size_t i;

	if (r == NULL)
		return 0;
	for (i = 0; i < r->n; i++) {
		struct nkslot *sl = &r->s[(r->head + i) % r->n];

		if (sl->state != NK_QUEUED)
			continue;
		sl->state = NK_PACKING;
		pthread_mutex_unlock(r->mu);
		chunk_pack(pt, sl, NULL);
		pthread_mutex_lock(r->mu);
		sl->state = NK_PACKED;
		pthread_cond_broadcast(r->done);
		return 1;
	}
	return 0;
}

void
numkey_ring_end(struct part *pt)
{
	struct nkring *r = pt->nkr;
	size_t i;

	if (r == NULL)
		return;
	while (ring_commit(pt, r))
		;
	/* The chunk being filled (empty) keeps its arrays for pt. */
	pthread_mutex_lock(r->mu);
	pt->nkr = NULL;
	pthread_mutex_unlock(r->mu);
	for (i = 0; i < r->n; i++)
		slot_free(pt, &r->s[i], i != r->fill);
	free(r->s);
	free(r);
}

/* Once the rows are spooled: each numeric QI's scale and extremes, or
 * the error of a number that does not fit 64 bits at that scale. */
void
numkey_finish(struct part *pt, struct dim *dm)
{
	if (dm->sc_now < dm->fS)
		raise_scale(dm, dm->fS, pt->spooled / MOND_CHUNK + 1);
	ext_merge(dm, dm->sc_now, 0, 0, 0, 0);
	dm->S = dm->sc_now;
	if (dm->sc_ovf)
		kn_die("%s: column '%s': the values do not fit 64 bits with %d "
		    "decimals each", pt->inname, dm->name, dm->S);
	if (dm->miss && dm->has_num && dm->kmn == INT64_MIN)
		kn_die("%s: column '%s': %lld and a missing value: out of core "
		    "(-S) a column cannot hold both (drop the row, or run "
		    "in memory)", pt->inname, dm->name, (long long)INT64_MIN);
	dm->hasg = 1;
	dm->gmn = dm->has_num ? dm->kmn : 0;
	dm->gmx = dm->has_num ? dm->kmx : 0;
	dm->nrank = 0;
}

/* Brings the keys of records buf[0..n) of the spool's chunk c to the
 * column's scale. */
void
numkey_rescale(struct part *pt, uint32_t *buf, size_t n, uint64_t c)
{
	size_t i, j;

	for (j = 0; j < pt->nkd; j++) {
		struct dim *dm = &pt->dims[j];
		int s = 0, t;
		int64_t f;

		if (dm->h != NULL)
			continue;
		for (t = 0; t < NUMKEY_SCALES; t++)
			if (dm->sc_chunk[t] <= c)
				s = t;
		if (s == dm->S)
			continue;
		f = (int64_t)kn_pow10(dm->S - s);
		for (i = 0; i < n; i++) {
			uint32_t *r = buf + i * pt->dwords;
			uint64_t key = numkey_get(r, dm->hword, dm->kword);

			/* A missing value's key is 0; no number's is, below
			 * the final scale (-2^63 is no multiple of 10). */
			if (key == 0)
				continue;
			key = numkey_of(numkey_value(key) * f);
			numkey_put(r, dm->hword, dm->kword, key);
		}
	}
}

/*
 * Node files (the spool, and the parts a repartition writes) hold their
 * records in blocks of at most MOND_CHUNK, none across a chunk of the
 * spool (numkey_rescale works a chunk at a time).  A block is its count
 * (4 bytes), then for each word of a record the least value the block
 * has there (4 bytes) and the bytes, 0 to 4, that the differences from
 * it take (1 byte), then its records by groups of NK_GROUP: in a group,
 * each word's differences in turn, a record after another, the least
 * significant byte first.  A key's high half is mostly one value, and
 * the rest few bytes: Agrawal's nine numbers take 19 bytes a row
 * against the 76 of the records.  A group is packed and unpacked
 * through a buffer of its own (numkey_group_bytes), the records staying
 * in the first cache while each word is.
 */

#define NK_GROUP 64

static unsigned
width_of(uint32_t d)
{
	return d == 0 ? 0 : d <= 0xff ? 1 : d <= 0xffff ? 2 :
	    d <= 0xffffff ? 3 : 4;
}

static void
put_u32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static uint32_t
get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

size_t
numkey_group_bytes(const struct part *pt)
{
	return 4 + 5 * pt->dwords + NK_GROUP * pt->dwords * 4;
}

/* Writes the n records at recs as one block to f through buf
 * (numkey_group_bytes), or without f packs it into mem (room for the
 * group's bytes and n records); returns its bytes. */
static size_t
pack_block(const struct part *pt, FILE *f, const char *path,
    const uint32_t *recs, size_t n, unsigned char *buf, unsigned char *mem)
{
	size_t dw = pt->dwords, w, i, g, h = 4 + 5 * dw, total;
	unsigned char *hdr = f != NULL ? buf : mem;
	uint32_t *base = kn_alloc(2 * dw * sizeof(uint32_t));
	uint32_t *top = base + dw;

	put_u32(hdr, (uint32_t)n);
	/* Each word's least and largest, the records taken in their order
	 * (a word at a time would stride the whole block once a word). */
	memcpy(base, recs, dw * sizeof(uint32_t));
	memcpy(top, recs, dw * sizeof(uint32_t));
	kn_ext_rows(base, recs + dw, n - 1, dw, dw);
	for (w = 0; w < dw; w++) {
		put_u32(hdr + 4 + 4 * w, base[w]);
		hdr[4 + 4 * dw + w] = (unsigned char)width_of(top[w] - base[w]);
	}
	if (f != NULL && fwrite(hdr, 1, h, f) != h)
		kn_die_sys("%s: write error", path);
	total = h;
	for (g = 0; g < n; g += NK_GROUP) {
		size_t m = n - g < NK_GROUP ? n - g : NK_GROUP;
		unsigned char *p0 = f != NULL ? buf + h : mem + total, *p = p0;

		for (w = 0; w < dw; w++) {
			const uint32_t *q = recs + g * dw + w;
			uint32_t bw = base[w];

			switch (hdr[4 + 4 * dw + w]) {
			case 0:
				break;
			case 1:
				for (i = 0; i < m; i++)
					*p++ = (unsigned char)(q[i * dw] - bw);
				break;
			case 2:
				for (i = 0; i < m; i++, p += 2) {
					uint32_t d = q[i * dw] - bw;

					p[0] = (unsigned char)d;
					p[1] = (unsigned char)(d >> 8);
				}
				break;
			case 3:
				for (i = 0; i < m; i++, p += 3) {
					uint32_t d = q[i * dw] - bw;

					p[0] = (unsigned char)d;
					p[1] = (unsigned char)(d >> 8);
					p[2] = (unsigned char)(d >> 16);
				}
				break;
			default:
				for (i = 0; i < m; i++, p += 4)
					put_u32(p, q[i * dw] - bw);
			}
		}
		if (f != NULL && fwrite(p0, 1, (size_t)(p - p0), f) !=
		    (size_t)(p - p0))
			kn_die_sys("%s: write error", path);
		total += (size_t)(p - p0);
	}
	free(base);
	return total;
}

size_t
numkey_write(const struct part *pt, FILE *f, const char *path,
    const uint32_t *recs, size_t n, uint64_t first)
{
	unsigned char *buf = kn_alloc(numkey_group_bytes(pt));
	size_t total = 0;

	while (n > 0) {
		size_t m = MOND_CHUNK - (size_t)(first % MOND_CHUNK);

		if (m > n)
			m = n;
		total += pack_block(pt, f, path, recs, m, buf, NULL);
		recs += m * pt->dwords;
		first += m;
		n -= m;
	}
	free(buf);
	return total;
}

/* Reads len bytes, or dies: a node file ends only between blocks. */
static void
read_all(FILE *f, const char *path, void *p, size_t len)
{
	if (fread(p, 1, len, f) == len)
		return;
	if (ferror(f))
		kn_die_sys("%s: read error", path);
	kn_die("%s: internal error: a temp file ends inside a block", path);
}

size_t
numkey_read(const struct part *pt, FILE *f, const char *path, uint32_t *out,
    uint64_t *bytes, unsigned char *buf)
{
	size_t dw = pt->dwords, w, i, g, n, h = 4 + 5 * dw, rec = 0;
	size_t got = fread(buf, 1, 4, f);
	const unsigned char *hdr = buf;
	uint32_t *tmpl;

	if (got == 0 && !ferror(f))
		return 0;
	if (got != 4)
		read_all(f, path, buf + got, 4 - got);
	n = get_u32(buf);
	if (n == 0 || n > MOND_CHUNK)
		kn_die("%s: internal error: a block of %zu records", path, n);
	read_all(f, path, buf + 4, h - 4);
	for (w = 0; w < dw; w++) {
		if (hdr[4 + 4 * dw + w] > 4)
			kn_die("%s: internal error: a word of %u bytes", path,
			    (unsigned)hdr[4 + 4 * dw + w]);
		rec += hdr[4 + 4 * dw + w];
	}
	*bytes += h + n * rec;
	tmpl = kn_alloc(dw * sizeof(uint32_t));
	for (w = 0; w < dw; w++)
		tmpl[w] = get_u32(hdr + 4 + 4 * w);
	/* A group: each word of its records in turn, the least value
	 * plus the difference. */
	for (g = 0; g < n; g += NK_GROUP) {
		size_t m = n - g < NK_GROUP ? n - g : NK_GROUP;
		const unsigned char *p = buf + h;

		read_all(f, path, buf + h, m * rec);
		for (w = 0; w < dw; w++) {
			uint32_t *q = out + g * dw + w, b = tmpl[w];

			switch (hdr[4 + 4 * dw + w]) {
			case 0:
				for (i = 0; i < m; i++)
					q[i * dw] = b;
				break;
			case 1:
				for (i = 0; i < m; i++)
					q[i * dw] = b + p[i];
				p += m;
				break;
			case 2:
				for (i = 0; i < m; i++, p += 2)
					q[i * dw] = b + ((uint32_t)p[0] |
					    (uint32_t)p[1] << 8);
				break;
			case 3:
				for (i = 0; i < m; i++, p += 3)
					q[i * dw] = b + ((uint32_t)p[0] |
					    (uint32_t)p[1] << 8 |
					    (uint32_t)p[2] << 16);
				break;
			default:
				for (i = 0; i < m; i++, p += 4)
					q[i * dw] = b + get_u32(p);
			}
		}
	}
	free(tmpl);
	return n;
}
