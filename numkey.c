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

	for (i = 0; i < nb; i++)
		memcpy(out + i * pt->dwords, pt->rec + i * pt->rec_words,
		    pt->rec_words * sizeof(uint32_t));
	for (j = 0; j < pt->nkd; j++) {
		struct dim *dm = &pt->dims[j];
		int sc = dm->sc_now;

		if (dm->h != NULL)
			continue;
		for (i = 0; i < nb; i++)
			if (dm->rsc[i] > sc)
				sc = dm->rsc[i];
		if (sc > dm->sc_now)
			raise_scale(dm, sc, c);
		for (i = 0; i < nb; i++) {
			uint32_t *r = out + i * pt->dwords;
			uint64_t key = 0;
			int64_t v;

			if (dm->rsc[i] >= 0) {
				if (__builtin_mul_overflow(dm->raw[i],
				    (int64_t)kn_pow10(sc - dm->rsc[i]), &v)) {
					dm->sc_ovf = 1;
					v = 0;
				}
				if (!dm->has_num || v < dm->kmn)
					dm->kmn = v;
				if (!dm->has_num || v > dm->kmx)
					dm->kmx = v;
				dm->has_num = 1;
				key = (uint64_t)v ^ ((uint64_t)1 << 63);
			}
			numkey_put(r, dm->hword, dm->kword, key);
		}
	}
	if (fwrite(out, pt->dwords * sizeof(uint32_t), nb, pt->spool) != nb)
		kn_die_sys("%s: write error", pt->spool_path);
	free(out);
	pt->acct.bwritten += nb * pt->dwords * sizeof(uint32_t);
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
			key = (uint64_t)(numkey_value(key) * f) ^
			    ((uint64_t)1 << 63);
			numkey_put(r, dm->hword, dm->kword, key);
		}
	}
}
