/*
 * block.c: blocks of whole rows for the threads of -j.  One thread at a
 * time reads the next block of a table (kn_table_block, under its
 * caller's lock): the reader's filled buffer handed over whole when it
 * can be (block_swap), else whole lines copied from it (block_bulk),
 * else a line at a time through tsv.c's reader.  Any thread then takes
 * the block's rows (kn_block_row) and the earliest bad one is reported
 * as kn_table_next would report it (kn_block_fail).  Above tsv.c.
 */
#include <stdlib.h>
#include <string.h>

#include "kanon.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* Block b begins with line line0 of file name. */
static void
block_start(kn_block *b, const char *name, uint64_t line0)
{
	free(b->name);
	b->name = kn_strdup(name);
	b->line0 = line0;
}

/* Room in b for n bytes more and a newline, with 16 bytes of slack (the
 * dictionaries read words).  A line longer than a block gets just its
 * room, and gives it back when the block is used again. */
static void
block_room(kn_block *b, size_t n, size_t want)
{
	if (b->len + n + 17 > b->cap) {
		b->cap = b->len + n + 17;
		if (b->cap < want + 4096)
			b->cap = want + 4096;
		b->buf = kn_realloc(b->buf, b->cap);
	}
}

/* The newlines among the eight bytes at p. */
static inline int
newlines8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	w ^= ONES * '\n';
	/* Exactly the zero bytes' high bits: no carry leaves a byte.
	 * Counted by a multiply, which gathers the eight bits in the top
	 * byte (__builtin_popcountll is a call without -mpopcnt). */
	return (int)(((~(((w & ~HIGHS) + ~HIGHS) | w | ~HIGHS) >> 7) *
	    ONES) >> 56);
}

/* Sixteen bytes as one vector (GCC's and Clang's vector extension: one
 * SSE2 register on x86-64, plain words elsewhere). */
typedef unsigned char kn_v16 __attribute__((vector_size(16)));

/* The newlines in p[0..n), sixteen bytes at a time: each lane of acc
 * counts its newlines, up to 255 steps, then the lanes are added; *cr
 * is set if a CR is among the bytes, found in the same pass. */
static uint64_t
count_lines(const char *p, size_t n, int *cr)
{
	const uint64_t LO = 0x00ff00ff00ff00ffULL;
	uint64_t lines = 0, a, b;
	size_t i = 0, lim;
	kn_v16 crs = { 0 };

	*cr = 0;
	while (n - i >= 16) {
		kn_v16 acc = { 0 }, v;

		lim = n - i >= 16 * 255 ? i + 16 * 255 : n - (n - i) % 16;
		for (; i < lim; i += 16) {
			memcpy(&v, p + i, 16);
			acc -= (kn_v16)(v == '\n');
			crs |= (kn_v16)(v == '\r');
		}
		memcpy(&a, &acc, 8);
		memcpy(&b, (char *)&acc + 8, 8);
		a = (a & LO) + ((a >> 8) & LO) + (b & LO) + ((b >> 8) & LO);
		lines += (a * 0x0001000100010001ULL) >> 48;
	}
	memcpy(&a, &crs, 8);
	memcpy(&b, (char *)&crs + 8, 8);
	*cr = (a | b) != 0;
	for (; i < n; i++) {
		lines += p[i] == '\n';
		*cr |= p[i] == '\r';
	}
	return lines;
}

/* The bytes of p[0..n) up to its k-th newline, which it holds (k > 0),
 * found eight bytes at a time. */
static size_t
line_ends(const char *p, size_t n, uint64_t k)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		int c = newlines8(p + i);

		if ((uint64_t)c >= k)
			break;
		k -= (uint64_t)c;
	}
	for (; i < n; i++)
		if (p[i] == '\n' && --k == 0)
			return i + 1;
	return n;
}

/* The quotes (*q) and newlines (*nl) of p[0, k), k <= 16, a bit each. */
static inline void
csv_bits(const char *p, size_t k, unsigned *q, unsigned *nl)
{
	size_t i;

#ifdef __SSE2__
	if (k == 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);

		*q = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v,
		    _mm_set1_epi8('"')));
		*nl = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v,
		    _mm_set1_epi8('\n')));
		return;
	}
#endif
	*q = *nl = 0;
	for (i = 0; i < k; i++) {
		*q |= (unsigned)(p[i] == '"') << i;
		*nl |= (unsigned)(p[i] == '\n') << i;
	}
}

/* What csv_cut has found: the bytes of whole records (cut, where the
 * record being read starts), their line ends and records; the line ends
 * and records so far, and whether the scan's place is in quotes, or
 * after the first quote of two (skip). */
struct cutstate {
	size_t cut;
	uint64_t lines, recs, nls, rs;
	int inq, skip;
};

#ifdef __SSE2__
/* The quotes, line ends, separators s0 and CRs of p[0, 64), a bit each:
 * four loads, each compared four times. */
static inline void
bits64(const char *p, char s0, uint64_t *q, uint64_t *nl, uint64_t *sp,
    uint64_t *cr)
{
	const __m128i vq = _mm_set1_epi8('"'), vn = _mm_set1_epi8('\n');
	const __m128i vs = _mm_set1_epi8(s0), vr = _mm_set1_epi8('\r');
	__m128i v[4];
	int k;

	for (k = 0; k < 4; k++)
		v[k] = _mm_loadu_si128((const __m128i *)(const void *)(p +
		    16 * k));
#define MASK64(c) ((uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[0], \
	(c))) | (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[1], \
	(c))) << 16 | (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8( \
	v[2], (c))) << 32 | (uint64_t)(unsigned)_mm_movemask_epi8( \
	_mm_cmpeq_epi8(v[3], (c))) << 48)
	*q = MASK64(vq);
	*nl = MASK64(vn);
	*sp = MASK64(vs);
	*cr = MASK64(vr);
#undef MASK64
}

/* The bits set in m (a call without -mpopcnt, spared). */
static inline uint64_t
pop64(uint64_t m)
{
	m -= (m >> 1) & 0x5555555555555555ULL;
	m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
	m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (m * ONES) >> 56;
}

/*
 * csv_cut 64 bytes at a time while the quotes are those of well-formed
 * CSV: the bytes in quotes are those after an odd number of quotes
 * (their prefix XOR), which is what csv_decode does as long as each
 * quote that opens (by that count) is at a field's start, after the
 * separator or a line end, or is the second of two.  Stops before the
 * first 64 bytes that hold another (a quote in the text of a field,
 * which does not open one), and before the last 64 or fewer, for the
 * scan of csv_cut to go on from there; returns where.  The carries
 * from one 64 bytes to the next: in quotes, a field starts, the last
 * byte a quote that left the quotes, a record starts, a CR starts one.
 */
static size_t
cut64(const char *p, size_t n, unsigned char s0, struct cutstate *st)
{
	uint64_t q, nl, sp, cr, x, re, rsm, blank, allowed, pn, pr;
	uint64_t inq = 0, cfs = 1, cq = 0, crs = 1, ccr = 0;
	size_t i;

	for (i = 0; i + 64 <= n; i += 64) {
		bits64(p + i, (char)s0, &q, &nl, &sp, &cr);
		x = q;
		x ^= x << 1;
		x ^= x << 2;
		x ^= x << 4;
		x ^= x << 8;
		x ^= x << 16;
		x ^= x << 32;
		x ^= inq;
		allowed = ((sp | nl) << 1 | cfs) | ((q & ~x) << 1 | cq);
		if ((q & x & ~allowed) != 0)
			break;
		re = nl & ~x;
		rsm = re << 1 | crs;
		blank = re & (rsm | ((cr & rsm) << 1 | ccr));
		/* Most often every line end ends a record, and none a line
		 * of no byte. */
		pn = pop64(nl);
		pr = re == nl ? pn : pop64(re);
		if (blank != 0)
			pr -= pop64(blank);
		if (re != 0) {
			int last = 63 - __builtin_clzll(re);

			st->cut = i + (size_t)last + 1;
			st->lines = st->nls + (re == nl ? pn : pop64(last ==
			    63 ? nl : nl & (((uint64_t)2 << last) - 1)));
			st->recs = st->rs + pr;
		}
		st->nls += pn;
		st->rs += pr;
		inq = (uint64_t)0 - (x >> 63);
		cfs = ((sp | nl) >> 63) & 1;
		cq = ((q & ~x) >> 63) & 1;
		crs = re >> 63;
		ccr = ((cr & rsm) >> 63) & 1;
	}
	st->inq = inq != 0;
	/* Between the two quotes of a doubled one: in quotes, the second
	 * skipped. */
	if (!st->inq && cq && i < n && p[i] == '"')
		st->inq = st->skip = 1;
	return i;
}
#endif

/*
 * The CSV records whole in p[0, n), which starts a record: the bytes up
 * to the end of the last (0: none), with their line ends in *lines and
 * their records in *recs (a line of no byte, or of a CR alone, where a
 * record would start is none: csv_record skips it).  The quotes are
 * followed as csv_decode does: one opens a quoted field at the start of
 * a line or after the separator s0 (which is not in quotes: it would be
 * after a quote), and is text elsewhere; in quotes, two are one quote
 * and one closes the field (a byte after it that is not the separator
 * is the fault of the row, which kn_block_row finds).  A quote in
 * quotes at the end of p may be the first of two: the record it is in
 * is left to the next call.  With SSE2, 64 bytes at a time while the
 * quotes are well-formed (cut64); then sixteen bytes at a time, a stop
 * at each quote and line end.
 */
static size_t
csv_cut(const char *p, size_t n, unsigned char s0, uint64_t *lines,
    uint64_t *recs)
{
	struct cutstate st = { 0, 0, 0, 0, 0, 0, 0 };
	size_t i = 0, pos;
	unsigned q, nl, m;

#ifdef __SSE2__
	i = cut64(p, n, s0, &st);
#endif
	for (; i < n; i += 16) {
		csv_bits(p + i, n - i < 16 ? n - i : 16, &q, &nl);
		m = (q | nl) & ~(unsigned)st.skip;
		st.skip = 0;
		for (; m != 0; m &= m - 1) {
			pos = i + (size_t)__builtin_ctz(m);
			if (p[pos] == '\n') {
				st.nls++;
				if (st.inq)
					continue;
				if (pos != st.cut && (pos != st.cut + 1 ||
				    p[st.cut] != '\r'))
					st.rs++;
				st.cut = pos + 1;
				st.lines = st.nls;
				st.recs = st.rs;
			} else if (st.inq) {
				if (pos + 1 >= n)
					goto out;
				if (p[pos + 1] != '"')
					st.inq = 0;
				else if (pos + 1 - i < 16)
					m &= ~(1u << (pos + 1 - i));
				else
					st.skip = 1;
			} else if (pos == st.cut || p[pos - 1] == (char)s0)
				st.inq = 1;
		}
	}
out:
	*lines = st.lines;
	*recs = st.recs;
	return st.cut;
}

/* Counts recs records more read into t's rows, showing the progress
 * when they pass a multiple of 65536. */
static void
csv_rows(kn_table *t, uint64_t recs)
{
	uint64_t was = t->rows;

	t->rows += recs;
	if (was >> 16 != t->rows >> 16)
		kn_progress(t->rows, t->r.bytes);
}

/* Copies the reader's next n bytes, lines whole lines, to block b. */
static void
bulk_take(kn_table *t, kn_block *b, size_t n, uint64_t lines, size_t want)
{
	kn_reader *r = &t->r;

	if (b->len == 0)
		block_start(b, r->name, r->lineno + 1);
	block_room(b, n, want);
	memcpy(b->buf + b->len, r->buf + r->beg, n);
	b->len += n;
	r->beg += n;
	r->bytes += n;
	r->lineno += lines;
}

/*
 * kn_table_block's lines that need no look of their own, taken at once:
 * the whole lines in the reader's buffer, up to the room left in b,
 * when they hold no CR (whose line end the reader drops) and no header
 * is to be skipped between them.  Returns whether it took any.
 */
static int
block_bulk(kn_table *t, kn_block *b, size_t want)
{
	kn_reader *r = &t->r;
	char *p = r->buf + r->beg, *q;
	size_t n = r->end - r->beg;
	uint64_t lines;
	int cr;

	if (t->held || t->skiphdr || r->lineno == 0)
		return 0;
	if (n > want - b->len)
		n = want - b->len;
	if (t->csv) {
		uint64_t recs;

		if ((n = csv_cut(p, n, (unsigned char)kn_csv.ifs[0], &lines,
		    &recs)) == 0)
			return 0;
		bulk_take(t, b, n, lines, want);
		csv_rows(t, recs);
		return 1;
	}
	/* Up to the first CR first: in a file of CR LF lines each call
	 * takes a line, and must not read the buffer's rest. */
	if ((q = memchr(p, '\r', n)) != NULL)
		n = (size_t)(q - p);
	while (n > 0 && p[n - 1] != '\n')
		n--;
	if (n == 0)
		return 0;
	lines = count_lines(p, n, &cr);
	/* Progress is shown at every 65536th row, as line by line. */
	if ((t->rows & 0xffff) + lines >= 0x10000) {
		lines = 0x10000 - (t->rows & 0xffff);
		n = line_ends(p, n, lines);
	}
	bulk_take(t, b, n, lines, want);
	t->rows += lines;
	if ((t->rows & 0xffff) == 0)
		kn_progress(t->rows, r->bytes);
	return 1;
}

/*
 * kn_table_block's way without a copy, for a block as large as the
 * reader's buffer: the buffer, filled, is given to the empty block b
 * with its whole lines, and b's old buffer (or a new one) to the reader
 * with the part of a line after them.  Only where block_bulk would take
 * the lines, and until a CR is met among them; returns whether it did.
 */
static int
block_swap(kn_table *t, kn_block *b, size_t want)
{
	kn_reader *r = &t->r;
	size_t n, off, cap = r->cap;
	uint64_t lines, recs = 0;
	char *nb;
	int cr;

	if (t->held || t->skiphdr || (t->crmet && !t->csv) || r->lineno == 0 ||
	    b->len > 0 || cap > want + 4096)
		return 0;
	while (!r->eof && (r->beg > 0 || r->end < cap)) {
		/* Whole lines in hand are taken before a read, which may
		 * fail: a bad row among them is named first, as line by
		 * line (the block is then short of the buffer's size). */
		if (memchr(r->buf + r->beg, '\n', r->end - r->beg) != NULL) {
			kn_reader_shift(r);
			break;
		}
		kn_reader_fill(r);
	}
	if (r->beg > 0)
		return 0;	/* at the end of the input: as it is */
	n = r->end;
	if (t->csv)
		n = csv_cut(r->buf, n, (unsigned char)kn_csv.ifs[0], &lines,
		    &recs);
	while (n > 0 && r->buf[n - 1] != '\n')
		n--;
	if (n == 0)
		return 0;
	/* A CR's line is the reader's to end: from then on blocks are
	 * taken as block_bulk takes them, each line with a CR alone (in
	 * CSV a CR before the line end is the decoder's to drop). */
	if (!t->csv && (lines = count_lines(r->buf, n, &cr), cr)) {
		t->crmet = 1;
		return 0;
	}
	if (b->borrowed || b->buf == NULL || b->cap < cap + 16) {
		if (!b->borrowed)
			free(b->buf);
		nb = kn_alloc(cap + 16);
	} else
		nb = b->buf;
	memcpy(nb, r->buf + n, r->end - n);
	block_start(b, r->name, r->lineno + 1);
	b->buf = r->buf;
	b->len = n;
	b->cap = cap + 16;	/* what the reader allocated */
	b->borrowed = 0;
	r->buf = nb;
	r->end -= n;
	r->shifted = 1;
	r->line = NULL;
	r->len = 0;
	r->lineno += lines;
	if (t->csv) {
		r->bytes += n;
		csv_rows(t, recs);
		return 1;
	}
	/* Progress is shown at every 65536th row, as line by line. */
	for (off = 0; kn_progress_on() &&
	    (t->rows & 0xffff) + lines >= 0x10000; ) {
		uint64_t k = 0x10000 - (t->rows & 0xffff);

		off += line_ends(b->buf + off, n - off, k);
		lines -= k;
		t->rows += k;
		kn_progress(t->rows, r->bytes + off);
	}
	t->rows += lines;
	r->bytes += n;
	return 1;
}

int
kn_table_blocks(const kn_table *t)
{
	/* Headerless, the lines of no byte before the first record would
	 * all be copied to the first block. */
	return !t->csv || (kn_csv.ifslen == 1 && !t->skiphdr &&
	    !t->headerless);
}

/* Where csv_put puts the lines of a record read by kn_csv_take: after
 * the whole ones in b, which has them once the record is whole. */
struct csvput {
	kn_table *t;
	kn_block *b;
	size_t len, want;
};

/* Puts the line p[0, n) and a newline into block a->b, after a->len. */
static void
csv_put(void *arg, const char *p, size_t n)
{
	struct csvput *a = arg;
	kn_block *b = a->b;

	if (a->len == 0)
		block_start(b, a->t->r.name, a->t->r.lineno);
	if (a->len + n + 17 > b->cap) {
		b->cap = 2 * b->cap > a->len + n + 17 ? 2 * b->cap :
		    a->len + n + 17;
		if (b->cap < a->want + 4096)
			b->cap = a->want + 4096;
		b->buf = kn_realloc(b->buf, b->cap);
	}
	memcpy(b->buf + a->len, p, n);
	a->len += n;
	b->buf[a->len++] = '\n';
}

/*
 * kn_table_block for CSV: the reader's buffer handed over, or its whole
 * records copied, as for TSV, else the next record read as the table's
 * reader reads it (kn_csv_take, which dies at its faults as that
 * reader does), its lines copied as they are; none is lent, a record
 * longer than want is copied to a block as long.
 */
static int
csv_block(kn_table *t, kn_block *b, size_t want)
{
	struct csvput a;
	int got;

	if (block_swap(t, b, want))
		return 1;
	for (;;) {
		if (block_bulk(t, b, want)) {
			if (b->len >= want)
				return 1;
			continue;
		}
		a.t = t;
		a.b = b;
		a.len = b->len;
		a.want = want;
		got = kn_csv_take(t, csv_put, &a);
		/* Lines of no byte at the end of a file are taken too. */
		b->len = a.len;
		if (got)
			csv_rows(t, 1);
		else if (b->len > 0)
			return 1;
		else if (!kn_table_open_next(t))
			return 0;
		if (b->len >= want)
			return 1;
	}
}

int
kn_table_block(kn_table *t, kn_block *b, size_t want)
{
	b->len = b->pos = 0;
	b->at = b->ln = 0;
	b->bad = 0;
	b->fault.kind = 0;
	b->maxline = t->r.maxline;
	if (b->borrowed || b->cap > 4 * (want + 4096)) {
		if (!b->borrowed)
			free(b->buf);
		b->buf = NULL;
		b->cap = 0;
		b->borrowed = 0;
	}
	if (b->rawcap > 4 * (want + 4096)) {
		free(b->raw);
		b->raw = NULL;
		b->rawcap = 0;
	}
	if (t->csv)
		return csv_block(t, b, want);
	if (block_swap(t, b, want))
		return 1;
	for (;;) {
		if (block_bulk(t, b, want)) {
			if (b->len >= want)
				return 1;
			continue;
		}
		if (t->held)
			t->held = 0;
		else if (!kn_getline_raw(&t->r)) {
			if (b->len > 0)
				return 1;
			if (!kn_table_open_next(t))
				return 0;
			continue;
		} else if (kn_table_header_again(t, t->r.line, t->r.len)) {
			t->skipped++;
			if (b->len > 0)
				return 1;
			continue;
		}
		if (t->r.len >= want && b->len > 0) {
			t->held = 1;
			return 1;
		}
		if (b->len == 0)
			block_start(b, t->r.name, t->r.lineno);
		if (t->r.len >= want) {
			/* The line ends in its NUL, inside the reader's
			 * buffer and its slack: a newline there makes it a
			 * block, which kn_block_row ends in a NUL again. */
			if (!b->borrowed)
				free(b->buf);
			b->buf = t->r.line;
			b->len = t->r.len;
			b->buf[b->len++] = '\n';
			b->cap = 0;
			b->borrowed = 1;
			if ((++t->rows & 0xffff) == 0)
				kn_progress(t->rows, t->r.bytes);
			return 2;
		}
		block_room(b, t->r.len, want);
		memcpy(b->buf + b->len, t->r.line, t->r.len);
		b->len += t->r.len;
		b->buf[b->len++] = '\n';
		if ((++t->rows & 0xffff) == 0)
			kn_progress(t->rows, t->r.bytes);
		if (b->len >= want)
			return 1;
	}
}

/* The next line of b, at *len bytes, taken (ended by a NUL or not). */
static inline char *
block_line(kn_block *b, size_t *len)
{
	char *line = b->buf + b->pos;

	*len = (size_t)((char *)memchr(line, '\n', b->len - b->pos) - line);
	b->pos += *len + 1;
	b->ln++;
	return line;
}

/* Marks the record of b at line bad for its fault: kind k with n, or
 * b->fault as set when k is 0, at line at; returns 0. */
static int
csv_bad(kn_block *b, const char *line, int k, uint64_t at, size_t n)
{
	if (k != 0) {
		b->fault.kind = k;
		b->fault.n = n;
	}
	b->fault.line = at;
	b->bad = 1;
	b->bad_off = (size_t)(line - b->buf);
	b->bad_len = 0;
	return 0;
}

/*
 * kn_block_row for CSV: the next record of b, decoded in place as the
 * table's reader decodes it (kn_csv_spans, else kn_csv_decode a line at
 * a time, the record's lines joined by newlines, within the bounds of
 * csv_record), lines of no byte skipped.  Its faults and those of
 * csv_next (the number of fields, a value held where its column may not
 * hold it) make it bad, named as csv_next names them.
 */
static int
csv_row(const kn_table *t, kn_block *b, kn_str *f)
{
	size_t ncols = t->ncols, len, slen, n = 0, d = 0, c, *foff, *fend;
	char *line, *src;
	uint64_t start;
	int odd = 0, inq = 0, got;

	if (b->nfoff < ncols + 1) {
		free(b->foff);
		b->foff = kn_alloc(2 * (ncols + 1) * sizeof(size_t));
		b->nfoff = ncols + 1;
	}
	foff = b->foff;
	fend = foff + b->nfoff;
	if (b->keep && b->pos == 0 && b->ln == 0 && b->len > 0) {
		/* The bytes as read, for kn_block_rewind. */
		if (b->rawcap < b->len) {
			free(b->raw);
			b->rawcap = b->cap > b->len ? b->cap : b->len;
			b->raw = kn_alloc(b->rawcap);
		}
		memcpy(b->raw, b->buf, b->len);
	}
	do {
		if (b->pos >= b->len || b->bad)
			return 0;
		line = block_line(b, &len);
	} while (len == 0 || (len == 1 && line[0] == '\r'));
	start = b->lineno = b->line0 + b->ln - 1;
	b->at++;
	if (kn_csv.ifslen == 1 &&
	    (n = kn_csv_spans(ncols, foff, fend, line, len, &odd)) != 0) {
		if (n != ncols)
			return csv_bad(b, line, KN_CSV_FIELDS, start, n);
		for (c = 0; c < n; c++) {
			f[c].p = line + foff[c];
			f[c].n = fend[c] - foff[c];
		}
	} else {
		got = kn_csv_decode(ncols, foff, line, len, line, &d, &n, &inq,
		    &odd, &b->fault);
		if (got == 0 && d + 1 > b->maxline)
			return csv_bad(b, line, KN_CSV_LONG, start, 0);
		while (got == 0) {
			/* The record goes on: the lines that
			 * kn_table_block took hold its end. */
			line[d++] = '\n';
			odd = 1;
			if (b->pos >= b->len) {
				return csv_bad(b, line, KN_CSV_OPEN, start,
				    n);
			}
			src = block_line(b, &slen);
			if (d + slen + 2 > b->maxline)
				return csv_bad(b, line, KN_CSV_LONG, start, 0);
			got = kn_csv_decode(ncols, foff, src, slen, line, &d,
			    &n, &inq, &odd, &b->fault);
		}
		if (got < 0)
			return csv_bad(b, line, 0, b->line0 + b->ln - 1, 0);
		if (n != ncols)
			return csv_bad(b, line, KN_CSV_FIELDS, start, n);
		line[d] = '\0';
		foff[n] = d + 1;
		for (c = 0; c < n; c++) {
			f[c].p = line + foff[c];
			f[c].n = foff[c + 1] - 1 - foff[c];
		}
	}
	if (odd && kn_csv_odd(t, f, &b->fault))
		return csv_bad(b, line, 0, start, 0);
	if (t->ncanon > 0)
		kn_canon_fields(t, f, b->canonbuf);
	return 1;
}

int
kn_block_row(const kn_table *t, kn_block *b, kn_str *f)
{
	char *line, *nl;
	size_t len, n;
	int nul, cr;

	if (t->csv)
		return csv_row(t, b, f);
	if (b->pos >= b->len || b->bad)
		return 0;
	line = b->buf + b->pos;
	nl = memchr(line, '\n', b->len - b->pos);
	len = (size_t)(nl - line);
	*nl = '\0';
	b->pos += len + 1;
	b->at++;
	b->lineno = b->line0 + b->at - 1;
	n = kn_split_fast(line, len, f, t->ncols, &nul, &cr);
	if (nul || n != t->ncols || (cr && kn_table_crcol(t, f) < t->ncols)) {
		b->bad = 1;
		b->bad_off = (size_t)(line - b->buf);
		b->bad_len = len;
		return 0;
	}
	if (t->ncanon > 0)
		kn_canon_fields(t, f, b->canonbuf);
	return 1;
}

void
kn_block_rewind(const kn_table *t, kn_block *b, size_t in, uint64_t at,
    size_t good)
{
	const char *p, *e, *nl;
	size_t i;

	if (t->csv) {
		if (!b->keep || b->raw == NULL)
			kn_die("internal error: a CSV block taken again without "
			    "its bytes kept");
		memcpy(b->buf + in, b->raw + in, b->pos - in);
		b->ln = 0;
		for (p = b->raw, e = p + in; (nl = memchr(p, '\n',
		    (size_t)(e - p))) != NULL; p = nl + 1)
			b->ln++;
	} else {
		for (i = in; i < good; i++)
			if (b->buf[i] == '\0')
				b->buf[i] = '\n';
		if (b->bad)
			b->buf[b->bad_off + b->bad_len] = '\n';
	}
	b->pos = in;
	b->at = at;
	b->bad = 0;
	b->fault.kind = 0;
}

void
kn_block_fail(const kn_table *t, const kn_block *b)
{
	if (t->csv)
		kn_csv_die(t, b->name, &b->fault);
	kn_table_row_die(t, b->name, b->line0 + b->at - 1, b->buf + b->bad_off,
	    b->bad_len);
}

void
kn_block_free(kn_block *b)
{
	if (!b->borrowed)
		free(b->buf);
	free(b->name);
	free(b->foff);
	free(b->raw);
	memset(b, 0, sizeof(*b));
}
