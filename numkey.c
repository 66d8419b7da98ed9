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
		dm->sc_now = 0;
	}
}

/* Raises the scale of dimension dm to sc from chunk c on: its extremes
 * so far follow, and one that overflows is noted. */
static void
raise_scale(struct dim *dm, int sc, uint64_t c)
{
	int64_t f = (int64_t)kn_pow10(sc - dm->sc_now);

	if (dm->has_num && (__builtin_mul_overflow(dm->kmn, f, &dm->kmn) ||
	    __builtin_mul_overflow(dm->kmx, f, &dm->kmx)))
		dm->sc_ovf = 1;
	dm->sc_now = sc;
	dm->sc_chunk[sc] = c;
}

/* Writes the nb rows loaded in pt->rec, their numbers in dm->raw and
 * dm->rsc, to the spool as records of keys. */
void
numkey_flush(struct part *pt, size_t nb)
{
	uint32_t *out = kn_alloc((nb + 1) * pt->dwords * sizeof(uint32_t));
	uint64_t c = pt->spooled / MOND_CHUNK;
	size_t i, j;

	for (i = 0; i < nb; i++) {
		uint32_t *r = out + i * pt->dwords;

		memcpy(r, pt->rec + i * pt->rec_words,
		    pt->rec_words * sizeof(uint32_t));
		/* A dictionary dropped for the hashes (mond_sens_drop,
		 * mond_targ_drop): its ids 0 from then on, as one thread
		 * codes them, whatever ids the threads of -j gave the rows
		 * of a block coded before (the bytes on disk the same). */
		if (pt->sens_hkey && pt->tchash)
			r[pt->word_sens] = 0;
		if (pt->targ_hkey && pt->targ_hashed)
			r[pt->word_targ] = 0;
	}
	for (j = 0; j < pt->nkd; j++) {
		struct dim *dm = &pt->dims[j];
		/* In locals, which the records written do not alias. */
		const int64_t *raw = dm->raw;
		const int8_t *rsc = dm->rsc;
		size_t hw = dm->hword, kw = dm->kword, dw = pt->dwords;
		int64_t mn, mx;
		int sc = dm->sc_now, has, ovf = 0;

		if (dm->h != NULL)
			continue;
		for (i = 0; i < nb; i++)
			if (rsc[i] > sc)
				sc = rsc[i];
		if (sc > dm->sc_now)
			raise_scale(dm, sc, c);
		mn = dm->kmn;
		mx = dm->kmx;
		has = dm->has_num;
		for (i = 0; i < nb; i++) {
			uint32_t *r = out + i * dw;
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
			numkey_put(r, hw, kw, key);
		}
		dm->kmn = mn;
		dm->kmx = mx;
		dm->has_num = has;
		if (ovf)
			dm->sc_ovf = 1;
	}
	pt->acct.bwritten += numkey_write(pt, pt->spool, pt->spool_path, out,
	    nb, pt->spooled);
	free(out);
	pt->spooled += nb;
}

/* Once the rows are spooled: each numeric QI's scale and extremes, or
 * the error of a number that does not fit 64 bits at that scale. */
void
numkey_finish(struct part *pt, struct dim *dm)
{
	if (dm->sc_now < dm->fS)
		raise_scale(dm, dm->fS, pt->spooled / MOND_CHUNK + 1);
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

/* Writes the n records at recs as one block, through buf
 * (numkey_group_bytes). */
static size_t
write_block(const struct part *pt, FILE *f, const char *path,
    const uint32_t *recs, size_t n, unsigned char *buf)
{
	size_t dw = pt->dwords, w, i, g, h = 4 + 5 * dw, total;
	unsigned char *hdr = buf;
	uint32_t *base = kn_alloc(2 * dw * sizeof(uint32_t));
	uint32_t *top = base + dw;

	put_u32(hdr, (uint32_t)n);
	/* Each word's least and largest, the records taken in their order
	 * (a word at a time would stride the whole block once a word). */
	memcpy(base, recs, dw * sizeof(uint32_t));
	memcpy(top, recs, dw * sizeof(uint32_t));
	for (i = 1; i < n; i++) {
		const uint32_t *r = recs + i * dw;

		for (w = 0; w < dw; w++) {
			base[w] = r[w] < base[w] ? r[w] : base[w];
			top[w] = r[w] > top[w] ? r[w] : top[w];
		}
	}
	for (w = 0; w < dw; w++) {
		put_u32(hdr + 4 + 4 * w, base[w]);
		hdr[4 + 4 * dw + w] = (unsigned char)width_of(top[w] - base[w]);
	}
	if (fwrite(hdr, 1, h, f) != h)
		kn_die_sys("%s: write error", path);
	total = h;
	for (g = 0; g < n; g += NK_GROUP) {
		size_t m = n - g < NK_GROUP ? n - g : NK_GROUP;
		unsigned char *p = buf + h;

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
		if (fwrite(buf + h, 1, (size_t)(p - (buf + h)), f) !=
		    (size_t)(p - (buf + h)))
			kn_die_sys("%s: write error", path);
		total += (size_t)(p - (buf + h));
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
		total += write_block(pt, f, path, recs, m, buf);
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
