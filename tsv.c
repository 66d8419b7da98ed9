/*
 * tsv.c: reading TSV as kanon(7) describes it: the line reader (CRLF,
 * no final newline, a byte-order mark skipped; NUL bytes, CR line ends,
 * compressed data and lines past the limit refused), tables (the header or
 * --columns, several files as one, --skip-header, column selection,
 * data errors naming file, line and column), and what a reader
 * copies of what it reads (kn_tee, for input.c).  Above kanon.c.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kanon.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* ---- reading ------------------------------------------------------- */

/* The read buffer (small in the fuzz build, to exercise its growth):
 * below 1M, so that it is the heap's (kn_init's M_MMAP_THRESHOLD), on
 * its huge pages, not 256 small pages of a mapping of its own. */
#ifndef RBUF
#define RBUF ((1 << 20) - (64 << 10))
#endif

size_t kn_line_max = KN_LINE_MAX;
size_t kn_line_longest;

/* The UTF-8 byte-order mark, which Excel writes at the start of a file. */
#define BOM "\xef\xbb\xbf"

/* The signatures of compressed data and of zip archives (spreadsheets),
 * which are not text, with the command that decompresses each; '?'
 * stands for a digit 1 to 9 (bzip2's block size). */
static const struct magic {
	const char *sig;
	size_t n;
	const char *what, *cat;
} magics[] = {
	{ "\x1f\x8b", 2, "gzip", "zcat" },
	{ "\x1f\x9d", 2, "compress", "zcat" },
	{ "BZh?1AY&SY", 10, "bzip2", "bzcat" },
	{ "BZh?\x17\x72\x45\x38\x50\x90", 10, "bzip2", "bzcat" },
	{ "\xfd" "7zXZ\0", 6, "xz", "xzcat" },
	{ "\x28\xb5\x2f\xfd", 4, "zstd", "zstdcat" },
	{ "PK\x03\x04", 4, "zip", NULL },
};

/* The signature that p[0..n) starts with, or NULL; *more is set when
 * p is too short to tell (it is a proper prefix of a signature). */
static const struct magic *
magic_of(const char *p, size_t n, int *more)
{
	size_t i, k;

	*more = 0;
	for (i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
		const struct magic *m = &magics[i];

		for (k = 0; k < m->n && k < n; k++)
			if (m->sig[k] == '?' ? p[k] < '1' || p[k] > '9' :
			    p[k] != m->sig[k])
				break;
		if (k == m->n)
			return m;
		if (k == n)
			*more = 1;
	}
	return NULL;
}

/* Dies for compressed data or a zip archive, saying how to read it. */
static void __attribute__((noreturn))
magic_die(const char *name, const struct magic *m)
{
	const char *f = strcmp(name, "stdin") == 0 ? "FILE" : name;

	if (m->cat == NULL)
		kn_die("%s: a zip archive, not text (a spreadsheet such as "
		    ".xlsx or .ods?): save the sheet as tab-separated text",
		    name);
	kn_die("%s: looks compressed (%s): decompress it first, as in "
	    "'%s %s | %s ...', or give <(%s %s) in its place", name, m->what,
	    m->cat, f, kn_prog, m->cat, f);
}

/* Dies unless the standard input can be read.  Closed by the caller
 * (prog <&-), it holds /dev/null opened for writing only (kn_init). */
void
kn_stdin_check(void)
{
	int fl = fcntl(0, F_GETFL);

	if (fl < 0 || (fl & O_ACCMODE) == O_WRONLY)
		kn_die("stdin: the standard input is closed (or open for "
		    "writing only): give the input as a file, or redirect it "
		    "(< FILE)");
}

void
kn_reader_open(kn_reader *r, const char *path)
{
	kn_reader_open_size(r, path, RBUF);
	kn_note_input(r->fd, r->fd == 0 ? NULL : path);
}

void
kn_reader_open_size(kn_reader *r, const char *path, size_t bufsz)
{
	memset(r, 0, sizeof(*r));
	if (path == NULL || strcmp(path, "-") == 0) {
		kn_stdin_check();
		r->fd = 0;
		r->name = "stdin";
	} else {
		r->fd = open(path, O_RDONLY);
		if (r->fd < 0)
			kn_die_sys("%s", path);
		r->name = path;
	}
	r->cap = bufsz < 4096 ? 4096 : bufsz;
	r->buf = kn_alloc(r->cap + 16);	/* 8-byte loads may pass the end */
	r->maxline = kn_line_max;
	r->fsep = '\t';
}

void
kn_reader_close(kn_reader *r)
{
	if (r->fd > 0)
		close(r->fd);
	free(r->buf);
	r->buf = NULL;
}

/* Formats a size as -S takes it: 64M, 3G, 100K or 12345 (bytes). */
static void
size_fmt(char *buf, size_t bufsz, size_t v)
{
	if (v % ((size_t)1 << 30) == 0)
		snprintf(buf, bufsz, "%zuG", v >> 30);
	else if (v % ((size_t)1 << 20) == 0)
		snprintf(buf, bufsz, "%zuM", v >> 20);
	else if (v % 1024 == 0)
		snprintf(buf, bufsz, "%zuK", v >> 10);
	else
		snprintf(buf, bufsz, "%zu", v);
}

/* Dies for a line longer than the limit (the line being read). */
static void __attribute__((noreturn))
long_line(const kn_reader *r)
{
	char lim[32], dflt[32];

	size_fmt(lim, sizeof(lim), r->maxline);
	size_fmt(dflt, sizeof(dflt), KN_LINE_MAX);
	kn_die("%s:%llu: line longer than %s bytes, the limit%s: not a "
	    "table? (a line may hold %s bytes, or as many as -S if that is "
	    "more: raise -S for longer lines)", r->name,
	    (unsigned long long)r->lineno + 1, lim,
	    memchr(r->buf + r->beg, '\0', r->end - r->beg) != NULL ?
	    ", and holding a NUL byte" : "", dflt);
}

/* Moves the data kept in buf[beg, end) to the buffer's start. */
void
kn_reader_shift(kn_reader *r)
{
	if (r->beg > 0) {
		memmove(r->buf, r->buf + r->beg, r->end - r->beg);
		r->shifted = 1;
		r->end -= r->beg;
		r->beg = 0;
	}
}

/* Reads more input after the data kept in buf[beg, end). */
void
kn_reader_fill(kn_reader *r)
{
	ssize_t got;

	kn_reader_shift(r);
	if (r->end == r->cap) {
		/* The buffer holds one partial line: it grows up to the
		 * limit and one byte more, to see a line pass it. */
		size_t cap = r->cap * 2;

		if (!r->temp) {
			if (r->cap > r->maxline)
				long_line(r);
			if (cap > r->maxline + 1)
				cap = r->maxline + 1;
		}
		r->cap = cap;
		r->buf = kn_realloc(r->buf, r->cap + 16);
		kn_line_seen(cap);
	}
	do
		got = read(r->fd, r->buf + r->end, r->cap - r->end);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		kn_die_sys("%s: read error", r->name);
	if (got == 0)
		r->eof = 1;
	if (r->tee != NULL) {
		if (kn_write_all(r->tee->fd, r->buf + r->end,
		    (size_t)got) != 0)
			kn_die_sys("%s: write error", r->tee->name);
		r->tee->eof |= got == 0;
	}
	r->end += (size_t)got;
}

/* Looks at the start of the file before its first line: compressed
 * data is an error, and a byte-order mark is skipped.  Reads no more
 * than it needs to tell, never past a line end: a pipe whose writer
 * waits after its first line is not waited on. */
static void
reader_start(kn_reader *r)
{
	const struct magic *m;
	size_t n;
	int more, bom = 0;

	r->started = 1;
	if (r->temp)
		return;
	for (;;) {
		n = r->end - r->beg;
		if ((m = magic_of(r->buf + r->beg, n, &more)) != NULL)
			magic_die(r->name, m);
		if (!bom && n < 3 && memcmp(r->buf + r->beg, BOM, n) == 0)
			more = 1;
		if (more && !r->eof)
			kn_reader_fill(r);
		else if (!bom && n >= 3 &&
		    memcmp(r->buf + r->beg, BOM, 3) == 0) {
			/* One mark; what follows it is looked at too. */
			r->beg += 3;
			r->bytes += 3;
			bom = 1;
		} else
			break;
	}
}

/* Dies naming the field of line number lineno, at p, whose byte z is a
 * NUL. */
static void __attribute__((noreturn))
nul_die(const kn_reader *r, const char *p, const char *z, uint64_t lineno)
{
	size_t col = 1;

	for (; p < z; p++)
		col += *p == r->fsep;
	kn_die("%s:%llu: field %zu: NUL byte in input", r->name,
	    (unsigned long long)lineno, col);
}

/* Dies for a CR inside the first line: a file whose lines end in CR
 * alone would be one line, its header. */
static void __attribute__((noreturn))
cr_die(const kn_reader *r)
{
	kn_die("%s:1: a carriage return (CR) inside the line: are the "
	    "lines ended by CR alone (classic Mac OS, some Excel exports)? "
	    "Convert them first, as in tr '\\r' '\\n' < %s", r->name,
	    strcmp(r->name, "stdin") == 0 ? "FILE" : r->name);
}

/* Looks at the part of a line read so far, from byte from on, before
 * more is read: a NUL byte is an error at once (a file of NUL bytes has
 * no line end; in CSV the decoder's, its field told by the quotes, and
 * such a file a line too long), and so is a CR followed by anything but
 * LF in the first line. */
static void
partial_check(const kn_reader *r, size_t from)
{
	const char *p = r->buf + r->beg, *z;
	size_t n = r->end - r->beg, cr = from > 0 ? from - 1 : 0;

	if (!r->quoted && (z = memchr(p + from, '\0', n - from)) != NULL)
		nul_die(r, p, z, r->lineno + 1);
	if (r->lineno == 0 && !r->crrow && n > cr + 1 &&
	    memchr(p + cr, '\r', n - 1 - cr) != NULL)
		cr_die(r);
}

/* The end of a line that the buffer did not hold whole, all of which
 * was looked at: reads more, looking at each part read before the next
 * (partial_check); returns the line's newline, or the end of the data
 * at the end of the input, or NULL if no byte is left. */
static char * __attribute__((noinline))
line_more(kn_reader *r)
{
	size_t from = 0, scanned;
	char *nl;

	for (;;) {
		if (r->eof)
			return r->end == r->beg ? NULL : r->buf + r->end;
		if (!r->temp)
			partial_check(r, from);
		scanned = r->end - r->beg;
		kn_reader_fill(r);
		nl = memchr(r->buf + r->beg + scanned, '\n',
		    r->end - r->beg - scanned);
		if (nl != NULL)
			return nl;
		from = scanned;
	}
}

/* Makes the line that ends at nl (its newline, or the end of the data)
 * the current line. */
static inline void
line_set(kn_reader *r, char *nl)
{
	r->line = r->buf + r->beg;
	r->len = (size_t)(nl - r->line);
	r->bytes += r->len + (nl < r->buf + r->end);
	r->beg += r->len + (nl < r->buf + r->end);
	if (r->len > 0 && r->line[r->len - 1] == '\r' && !r->keepcr)
		r->len--;
	r->line[r->len] = '\0';
	r->lineno++;
	if (r->len > KN_LINE_SHORT)
		kn_line_seen(r->len);
}

/* getline_raw for the first line of the file: its start is looked at
 * first, and a CR inside it is an error (with crrow, only in a line
 * that ends the file without a newline). */
static int __attribute__((noinline))
getline_first(kn_reader *r)
{
	char *nl;
	int lf;

	if (!r->started)
		reader_start(r);
	nl = memchr(r->buf + r->beg, '\n', r->end - r->beg);
	if (nl == NULL && (nl = line_more(r)) == NULL)
		return 0;
	lf = nl < r->buf + r->end;
	line_set(r, nl);
	if (!r->temp && !(r->crrow && lf) && memchr(r->line, '\r', r->len -
	    (r->keepcr && r->len > 0 && r->line[r->len - 1] == '\r')) != NULL)
		cr_die(r);
	return 1;
}

/* Reads the next line without looking for NUL bytes in it, unless it
 * is longer than what the buffer held. */
static inline int
getline_raw(kn_reader *r)
{
	char *nl;

	if (r->lineno == 0)
		return getline_first(r);
	nl = memchr(r->buf + r->beg, '\n', r->end - r->beg);
	if (nl == NULL && (nl = line_more(r)) == NULL)
		return 0;
	line_set(r, nl);
	return 1;
}

int
kn_getline_raw(kn_reader *r)
{
	return getline_raw(r);
}

/* Dies naming the field of the current line that holds a NUL. */
static void __attribute__((noreturn))
nul_error(const kn_reader *r)
{
	nul_die(r, r->line, memchr(r->line, '\0', r->len), r->lineno);
}

int
kn_getline(kn_reader *r)
{
	if (!getline_raw(r))
		return 0;
	if (memchr(r->line, '\0', r->len) != NULL)
		nul_error(r);
	return 1;
}

/* ---- tables -------------------------------------------------------- */

size_t
kn_split(char *line, size_t len, kn_str *f, size_t max)
{
	char *p = line, *end = line + len, *t;
	size_t n = 0;

	for (;;) {
		t = memchr(p, '\t', (size_t)(end - p));
		if (n < max) {
			f[n].p = p;
			f[n].n = (size_t)((t ? t : end) - p);
		}
		n++;
		if (t == NULL)
			return n;
		p = t + 1;
	}
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL
#define LOWS 0x7f7f7f7f7f7f7f7fULL
#define HASZERO(v) (((v) - ONES) & ~(v) & HIGHS)
/* The high bit of each zero byte of v, and of no other: no borrow
 * crosses a byte. */
#define ZEROS(v) (~((((v) & LOWS) + LOWS) | (v) | LOWS))

/* The field of line from *start to the tab at pos, the n-th (kept if
 * there is room for it). */
static inline void
split_put(kn_str *f, size_t max, size_t *n, size_t *start, char *line,
    size_t pos)
{
	if (*n < max) {
		f[*n].p = line + *start;
		f[*n].n = pos - *start;
	}
	(*n)++;
	*start = pos + 1;
}

/* Like kn_split, and also finds NUL bytes (*nul) and whether the line
 * holds a CR (*cr).  With SSE2 sixteen bytes at a time, a bit per byte
 * for the tabs and for the NULs and CRs; on little-endian machines then
 * eight bytes at a time, each tab flagged exactly; both until a block
 * holds a NUL or a CR (HASZERO tells whether a word has a zero byte,
 * not always which): the rest of the line is looked at byte by byte. */
size_t
kn_split_fast(char *line, size_t len, kn_str *f, size_t max, int *nul,
    int *cr)
{
	size_t i = 0, start = 0, n = 0;

	*nul = *cr = 0;
#ifdef __SSE2__
	{
		const __m128i tabs = _mm_set1_epi8('\t');
		const __m128i crs = _mm_set1_epi8('\r');
		const __m128i nuls = _mm_setzero_si128();

		for (; i + 16 <= len; i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const
			    void *)(line + i));
			unsigned m;

			if (_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v,
			    nuls), _mm_cmpeq_epi8(v, crs))) != 0)
				break;
			m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v,
			    tabs));
			for (; m != 0; m &= m - 1)
				split_put(f, max, &n, &start, line,
				    i + (size_t)__builtin_ctz(m));
		}
	}
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; i + 8 <= len; i += 8) {
		uint64_t w, m;

		memcpy(&w, line + i, 8);
		if ((HASZERO(w) | HASZERO(w ^ (ONES * '\r'))) != 0)
			break;
		m = ZEROS(w ^ (ONES * '\t'));
		for (; m != 0; m &= m - 1)
			split_put(f, max, &n, &start, line,
			    i + (size_t)__builtin_ctzll(m) / 8);
	}
#endif
	for (; i < len; i++) {
		if (line[i] == '\t')
			split_put(f, max, &n, &start, line, i);
		else if (line[i] == '\0') {
			*nul = 1;
			return n + 1;
		} else if (line[i] == '\r')
			*cr = 1;
	}
	if (n < max) {
		f[n].p = line + start;
		f[n].n = len - start;
	}
	return n + 1;
}

/* ---- CSV ----------------------------------------------------------- */

struct kn_csvfmt kn_csv = { 0, 0, ",", ",", 1, 1 };

/* Makes room for need bytes of the decoded record, a NUL and 16 bytes
 * more (a field may be read a word at a time past its end: freq.c's
 * leaf_cached, kn_dict_intern_padded); a record longer than a line may
 * be is an error, most likely a quote that was never closed. */
static void
rec_room(kn_table *t, size_t need, uint64_t start)
{
	if (need + 17 <= t->reccap && need <= t->r.maxline)
		return;
	if (need > t->r.maxline) {
		kn_csvfault e = { KN_CSV_LONG, 0, 0, start };

		kn_csv_die(t, t->r.name, &e);
	}
	t->reccap = 2 * need + 64;
	t->rec = kn_realloc(t->rec, t->reccap);
}

/* The bytes of p[0, k) (k <= 8) at or below '"' (a quote, tab, CR,
 * NUL, and others that are checked again) and those equal to the
 * separator's first byte (sm: repeated), as the high bits of a mask; on
 * little-endian machines a test on eight bytes at once (a reader's
 * buffer may be read 8 bytes past its end), which flags every such byte
 * and maybe some after one. */
#define HASBELOW(v, c) (((v) - ONES * (c)) & ~(v) & HIGHS)
static inline uint64_t
csv_mask(const char *p, size_t k, uint64_t sm)
{
	uint64_t m;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t w;

	memcpy(&w, p, 8);
	m = HASBELOW(w, '"' + 1) | HASZERO(w ^ sm);
	return k == 8 ? m : m & (((uint64_t)1 << (8 * k)) - 1);
#else
	size_t b;

	for (m = 0, b = 0; b < k; b++)
		if ((unsigned char)p[b] <= '"' ||
		    (unsigned char)p[b] == (unsigned char)sm)
			m |= (uint64_t)0x80 << (8 * b);
	return m;
#endif
}

void
kn_csv_die(const kn_table *t, const char *name, const kn_csvfault *e)
{
	static const char *const held[] = { "a tab", "a line end",
	    "a carriage return" };
	unsigned long long line = (unsigned long long)e->line;

	switch (e->kind) {
	case KN_CSV_NUL:
		kn_die("%s:%llu: field %zu: NUL byte in input", name, line,
		    e->n + 1);
	case KN_CSV_JUNK:
		kn_die("%s:%llu: field %zu: '%c' after the closing quote: "
		    "expected the separator or the end of the line (a quote "
		    "inside a quoted field is written twice: \"\")", name,
		    line, e->n + 1, e->c);
	case KN_CSV_LONG:
		kn_die("%s:%llu: a record of more than %zu bytes: is a quote "
		    "of this line never closed? (raise -S for longer "
		    "records)", name, line, t->r.maxline);
	case KN_CSV_OPEN:
		kn_die("%s:%llu: field %zu: the quote that opens it is never "
		    "closed (the file ends inside it)", name, line, e->n + 1);
	case KN_CSV_FIELDS:
		kn_die("%s:%llu: expected %zu fields, found %zu", name, line,
		    t->ncols, e->n);
	}
	kn_die("%s:%llu: column '%s': the value holds %s, which kanon "
	    "carries only in a column that a program passes through to CSV "
	    "output (--ocsv) without reading it; remove it first (as with "
	    "tr) or cut the column out", name, line, t->names[e->n],
	    held[e->c]);
}

/* Decodes the physical line src[0, len) of a CSV record (its CR before
 * the newline included; a reader's line, read eight bytes at a time,
 * past its end) into dst at *dp: the fields joined by tabs,
 * their offsets in t->foff (up to t->ncols of them).  *np fields are
 * done, and *inq says that the line starts inside a quoted field.  dst
 * may be src: what is written never passes what was read.  A separator
 * of one byte becomes a tab where it is, and the text between two quotes
 * (or separators of several bytes) moves in one piece, so a line with
 * neither moves nothing.  Returns 1 when the record ends with the line,
 * 0 when a quoted field goes on to the next; sets *odd when a field
 * holds a tab or a CR.  One pass over the line, eight bytes at a time,
 * stopping only at the bytes that csv_mask flags; a separator of one
 * byte outside quotes, the common stop, is dealt with first. */
static inline __attribute__((always_inline)) int
csv_decode_sep(size_t ncols, size_t *foff, char *src, size_t len, char *dst,
    size_t *dp, size_t *np, int *inq, int *odd, size_t seplen,
    kn_csvfault *e)
{
	const char *sep = kn_csv.ifs;
	const unsigned char s0 = (unsigned char)sep[0];
	const uint64_t sm = ONES * s0;
	size_t d = *dp, n = *np;
	/* src[seg, ...) goes to dst + d; what lies before nxt was dealt
	 * with; fs: where the current field starts */
	size_t eu, i, pos, seg = 0, nxt = 0, fs = 0;
	int quoted = *inq;
	unsigned char c;
	uint64_t m;

/* Writes the text src[seg, e) at dst + d; seg becomes e. */
#define FLUSH(e) do { \
		size_t e_ = (e); \
		if (dst + d != src + seg) \
			memmove(dst + d, src + seg, e_ - seg); \
		d += e_ - seg; \
		seg = e_; \
	} while (0)

	/* Outside quotes, a CR before the newline ends the line. */
	eu = len > 0 && src[len - 1] == '\r' ? len - 1 : len;
	if (!quoted && n < ncols)
		foff[n] = d;
	i = 0;
	if (seplen == 1 && !quoted) {
		/* The fields up to the first byte that is not a separator,
		 * in a loop of their own: in most lines, all of them. */
		for (; i < len; i += 8) {
			m = csv_mask(src + i, len - i < 8 ? len - i : 8, sm);
			for (; m != 0; m &= m - 1) {
				pos = i + (size_t)__builtin_ctzll(m) / 8;
				if ((unsigned char)src[pos] != s0)
					goto resume;
				src[pos] = '\t';
				fs = pos + 1;
				if (++n < ncols)
					foff[n] = d + fs;
			}
		}
	}
	for (; i < len; i += 8) {
		m = csv_mask(src + i, len - i < 8 ? len - i : 8, sm);
resume:
		for (; m != 0; m &= m - 1) {
			pos = i + (size_t)__builtin_ctzll(m) / 8;
			c = (unsigned char)src[pos];
			if (seplen == 1 && c == s0 && !quoted) {
				/* A separator: a tab where it is. */
				src[pos] = '\t';
				fs = pos + 1;
				if (++n < ncols)
					foff[n] = d + fs - seg;
				continue;
			}
			if (pos < nxt)
				continue;
			if (c == '\0') {
				e->kind = KN_CSV_NUL;
				e->n = n;
				return -1;
			}
			if (!quoted) {
				if (c == '"' && pos == fs) {
					/* An opening quote. */
					FLUSH(pos);
					seg = pos + 1;
					quoted = 1;
				} else if (c == s0 && (size_t)(eu - pos) >=
				    seplen && memcmp(src + pos, sep, seplen) ==
				    0) {
					/* A separator of several bytes. */
					FLUSH(pos);
					dst[d++] = '\t';
					seg = nxt = fs = pos + seplen;
					if (++n < ncols)
						foff[n] = d;
				} else if ((c == '\t' || c == '\r') && pos < eu)
					*odd = 1;
				continue;
			}
			/* In quotes. */
			if (c == '\t' || c == '\r')
				*odd = 1;
			if (c != '"')
				continue;
			if (pos + 1 < len && src[pos + 1] == '"') {
				/* Doubled: one is text. */
				FLUSH(pos + 1);
				seg = nxt = pos + 2;
				continue;
			}
			/* The closing quote: the separator must follow. */
			FLUSH(pos);
			seg = pos + 1;
			quoted = 0;
			if (seg < eu && ((unsigned char)src[seg] != s0 ||
			    (seplen > 1 && ((size_t)(eu - seg) < seplen ||
			    memcmp(src + seg, sep, seplen) != 0)))) {
				e->kind = KN_CSV_JUNK;
				e->n = n;
				e->c = (unsigned char)src[seg];
				return -1;
			}
		}
	}
	if (quoted) {
		/* The field goes on over the next line. */
		FLUSH(len);
		*dp = d;
		*np = n;
		*inq = 1;
		return 0;
	}
	FLUSH(eu);
	*dp = d;
	*np = n + 1;
	*inq = 0;
	return 1;
#undef FLUSH
}

int
kn_csv_decode(size_t ncols, size_t *foff, char *src, size_t len, char *dst,
    size_t *dp, size_t *np, int *inq, int *odd, kn_csvfault *e)
{
	if (kn_csv.ifslen == 1)
		return csv_decode_sep(ncols, foff, src, len, dst, dp, np, inq,
		    odd, 1, e);
	return csv_decode_sep(ncols, foff, src, len, dst, dp, np, inq, odd,
	    kn_csv.ifslen, e);
}

/* kn_csv_decode for the current line of t, into t->foff: dies at a
 * fault, naming the line. */
static int
csv_decode(kn_table *t, char *src, size_t len, char *dst, size_t *dp,
    size_t *np, int *inq, int *odd)
{
	kn_csvfault e;
	int got = kn_csv_decode(t->ncols, t->foff, src, len, dst, dp, np, inq,
	    odd, &e);

	if (got < 0) {
		e.line = t->r.lineno;
		kn_csv_die(t, t->r.name, &e);
	}
	return got;
}

/*
 * The common record, read without moving a byte: a line of one physical
 * line with a separator of one byte, whose quoted fields hold no doubled
 * quote.  Scans src[0, len) (the line, its CR included, read eight bytes
 * at a time past its end) and sets the spans of the fields in t->foff
 * and t->fend (up to t->ncols of them), then writes a tab after each
 * field and a NUL after the last (over a separator or a closing quote),
 * so that a field ends as in TSV.  Returns the number of fields, or 0,
 * having written nothing, for any other line: one with a doubled quote,
 * a NUL, junk after a closing quote, or a quote that goes on over the
 * next line, which csv_decode reads (and names the faults of).  Sets
 * *odd when a field holds a tab or a CR.
 */
size_t
kn_csv_spans(size_t ncols, size_t *foff, size_t *fend, char *src, size_t len,
    int *odd)
{
	const unsigned char s0 = (unsigned char)kn_csv.ifs[0];
	const uint64_t sm = ONES * s0;
	size_t n = 0, i, pos, eu, fs = 0, cs = 0, ce = 0;
	int quoted = 0, wasq = 0;
	unsigned char c;
	uint64_t m;

	eu = len > 0 && src[len - 1] == '\r' ? len - 1 : len;
	for (i = 0; i < len; i += 8) {
		m = csv_mask(src + i, len - i < 8 ? len - i : 8, sm);
		for (; m != 0; m &= m - 1) {
			pos = i + (size_t)__builtin_ctzll(m) / 8;
			c = (unsigned char)src[pos];
			if (quoted) {
				if (c == '"') {
					/* Closing, to be followed by the
					 * separator or the line's end. */
					if (pos + 1 != eu && (pos + 1 >= len ||
					    (unsigned char)src[pos + 1] != s0))
						return 0;
					quoted = 0;
					ce = pos;
				} else if (c == '\t' || c == '\r')
					*odd = 1;
				else if (c == '\0')
					return 0;
				continue;
			}
			if (c == s0) {
				if (n < ncols) {
					foff[n] = cs;
					fend[n] = wasq ? ce : pos;
				}
				n++;
				fs = cs = pos + 1;
				wasq = 0;
			} else if (c == '"' && pos == fs) {
				quoted = wasq = 1;
				cs = pos + 1;
			} else if (c == '\0')
				return 0;
			else if ((c == '\t' || c == '\r') && pos < eu)
				*odd = 1;
		}
	}
	if (quoted)
		return 0;
	if (n < ncols) {
		foff[n] = cs;
		fend[n] = wasq ? ce : eu;
	}
	n++;
	for (i = 0; i < n && i < ncols; i++)
		src[fend[i]] = i + 1 < n ? '\t' : '\0';
	return n;
}

/* Reads the next CSV record (RFC 4180: fields in double quotes may hold
 * the separator, doubled quotes and line ends; a line with no byte at
 * all is skipped): the fields joined by tabs become the current line,
 * their offsets in t->foff (up to t->ncols of them).  A record of one
 * line is decoded in place, in the reader's buffer; one of several is
 * built in t->rec.  Returns the number of fields, 0 at the end of the
 * file; *odd is set when some field may hold a tab, CR or LF.  Messages
 * name the line where the record starts, or where the fault is.  Each
 * line read, as read, is handed to put first when that is not NULL
 * (kn_csv_take). */
static size_t
csv_record(kn_table *t, int *odd, int spans,
    void (*put)(void *, const char *, size_t), void *arg)
{
	kn_reader *r = &t->r;
	size_t d = 0, n = 0;
	uint64_t start;
	int inq = 0;

	r->lineno += t->recmore;
	t->recmore = 0;
	do {
		if (!getline_raw(r))
			return 0;
		if (put != NULL)
			put(arg, r->line, r->len);
	} while (r->len == 0 || (r->len == 1 && r->line[0] == '\r'));
	*odd = 0;
	t->spans = 0;
	if (spans && kn_csv.ifslen == 1 &&
	    (n = kn_csv_spans(t->ncols, t->foff, t->fend, r->line, r->len,
	    odd)) != 0) {
		t->spans = 1;
		return n;
	}
	*odd = 0;
	if (csv_decode(t, r->line, r->len, r->line, &d, &n, &inq, odd)) {
		r->len = d;
		r->line[d] = '\0';
		return n;
	}
	/* A quoted field goes on over the next lines. */
	start = r->lineno;
	rec_room(t, d + 1, start);
	memcpy(t->rec, r->line, d);
	do {
		t->rec[d++] = '\n';
		*odd = 1;
		if (!getline_raw(r)) {
			kn_csvfault e = { KN_CSV_OPEN, n, 0, start };

			kn_csv_die(t, r->name, &e);
		}
		if (put != NULL)
			put(arg, r->line, r->len);
		rec_room(t, d + r->len + 2, start);
	} while (!csv_decode(t, r->line, r->len, t->rec, &d, &n, &inq, odd));
	t->rec[d] = '\0';
	t->recmore = r->lineno - start;
	r->lineno = start;
	r->line = t->rec;
	r->len = d;
	return n;
}

int
kn_csv_take(kn_table *t, void (*put)(void *, const char *, size_t),
    void *arg)
{
	int odd;
	size_t n = csv_record(t, &odd, 0, put, arg);

	t->r.lineno += t->recmore;
	t->recmore = 0;
	return n != 0;
}

/* Makes room for the offsets and ends of the fields. */
static void
csv_offsets(kn_table *t)
{
	t->foff = kn_alloc(2 * (t->ncols + 1) * sizeof(size_t));
	t->fend = t->foff + t->ncols + 1;
}

/* Points t->f at the fields of the record just read. */
static void
csv_fields(kn_table *t, size_t n)
{
	size_t c, *foff = t->foff;
	const char *line = t->r.line;

	if (t->spans) {
		for (c = 0; c < n; c++) {
			t->f[c].p = line + foff[c];
			t->f[c].n = t->fend[c] - foff[c];
		}
		return;
	}
	/* n is t->ncols (csv_next checked): foff has room for one more. */
	foff[n] = t->r.len + 1;
	for (c = 0; c < n; c++) {
		t->f[c].p = line + foff[c];
		t->f[c].n = foff[c + 1] - 1 - foff[c];
	}
}

void
kn_table_join(kn_table *t)
{
	char *line = t->r.line;
	size_t c, d = 0;

	if (!t->csv || !t->spans)
		return;
	/* Each field moves down, or stays: the one after it starts past
	 * its end and the tab. */
	for (c = 0; c < t->ncols; c++) {
		memmove(line + d, t->f[c].p, t->f[c].n);
		t->f[c].p = line + d;
		d += t->f[c].n;
		line[d++] = '\t';
	}
	line[--d] = '\0';
	t->r.len = d;
	t->spans = 0;
}

int
kn_csv_odd(const kn_table *t, const kn_str *f, kn_csvfault *e)
{
	size_t c;

	for (c = 0; c < t->ncols; c++) {
		const kn_str *v = &f[c];
		int what = memchr(v->p, '\t', v->n) ? 0 :
		    memchr(v->p, '\n', v->n) ? 1 :
		    memchr(v->p, '\r', v->n) ? 2 : -1;

		if (what < 0 || (t->carry != NULL && t->carry[c]))
			continue;
		e->kind = KN_CSV_ODD;
		e->n = c;
		e->c = (unsigned char)what;
		return 1;
	}
	return 0;
}

/* Dies if a field of the record holds a tab, CR or LF where its column
 * may not (kn_table_carry). */
static void
csv_odd(const kn_table *t)
{
	kn_csvfault e;

	if (kn_csv_odd(t, t->f, &e)) {
		e.line = t->r.lineno;
		kn_csv_die(t, t->r.name, &e);
	}
}

void
kn_table_carry(kn_table *t, const size_t *used, size_t nused, int passthru)
{
	unsigned char *m;
	size_t i;

	free((void *)t->carry);
	t->carry = NULL;
	free(t->crcols);
	t->crcols = NULL;
	t->ncrcols = 0;
	if (!t->csv) {
		/* A CR is a value's byte, but one that ends a value
		 * written at the end of a line would be read back as a
		 * CRLF line end: none at the end of a value read. */
		t->crcols = kn_alloc((nused + 1) * sizeof(size_t));
		for (i = 0; i < nused; i++)
			if (used[i] < t->ncols)
				t->crcols[t->ncrcols++] = used[i];
		return;
	}
	if (passthru && !kn_csv.out)
		return;
	m = kn_alloc(t->ncols);
	memset(m, 1, t->ncols);
	for (i = 0; i < nused; i++)
		m[used[i]] = 0;
	t->carry = m;
}

/* Adds a separator, or the n bytes at p quoted for CSV. */
void
kn_row_add(kn_row *w, const char *p, size_t n)
{
	size_t i;
	int quote = 0;

	if (w->len + 2 * n + kn_csv.ofslen + 4 > w->cap) {
		w->cap = 2 * (w->len + 2 * n + kn_csv.ofslen + 4);
		w->buf = kn_realloc(w->buf, w->cap);
	}
	if (w->nf++ > 0) {
		if (kn_csv.out) {
			memcpy(w->buf + w->len, kn_csv.ofs, kn_csv.ofslen);
			w->len += kn_csv.ofslen;
		} else
			w->buf[w->len++] = '\t';
	}
	w->empty1 = w->nf == 1 && n == 0;
	if (!kn_csv.out) {
		memcpy(w->buf + w->len, p, n);
		w->len += n;
		return;
	}
	for (i = 0; i < n; i++) {
		if (p[i] == '"' || p[i] == '\n' || p[i] == '\r' ||
		    (p[i] == kn_csv.ofs[0] && n - i >= kn_csv.ofslen &&
		    memcmp(p + i, kn_csv.ofs, kn_csv.ofslen) == 0))
			quote = 1;
	}
	/* A separator that overlaps itself ('::') would be found too
	 * early after a value ending in its start ('x:' '::'). */
	for (i = 1; !quote && i < kn_csv.ofslen && i <= n; i++)
		if (memcmp(p + n - i, kn_csv.ofs, i) == 0 &&
		    memcmp(kn_csv.ofs + i, kn_csv.ofs, kn_csv.ofslen - i) == 0)
			quote = 1;
	if (!quote) {
		memcpy(w->buf + w->len, p, n);
		w->len += n;
		return;
	}
	w->buf[w->len++] = '"';
	for (i = 0; i < n; i++) {
		if (p[i] == '"')
			w->buf[w->len++] = '"';
		w->buf[w->len++] = p[i];
	}
	w->buf[w->len++] = '"';
}

void
kn_row_put(kn_row *w, FILE *fp, const char *name)
{
	kn_row_end(w);
	if (!w->batch || w->len >= ((size_t)64 << 10))
		kn_row_flush(w, fp, name);
}

void
kn_row_end(kn_row *w)
{
	if (w->len + 4 > w->cap) {
		w->cap = w->len + 64;
		w->buf = kn_realloc(w->buf, w->cap);
	}
	/* A row of one empty field is an empty line, which CSV skips. */
	if (kn_csv.out && w->nf == 1 && w->empty1) {
		w->buf[w->len++] = '"';
		w->buf[w->len++] = '"';
	}
	w->buf[w->len++] = '\n';
	w->nf = 0;
}

/* Writes the rows gathered; a failed write is seen at once, a failed
 * flush of the stream's buffer by kn_close_out. */
void
kn_row_flush(kn_row *w, FILE *fp, const char *name)
{
	if (w->len > 0 && fwrite(w->buf, 1, w->len, fp) != w->len)
		kn_die_sys("%s: write error", name != NULL ? name :
		    "standard output");
	w->len = 0;
}

/* The separator of --ifs or --ofs: a string, or a name (comma,
 * semicolon, tab, pipe, space). */
static const char *
sep_opt(const char *arg, const char *opt, size_t *len)
{
	static const char *const names[][2] = {
		{ "comma", "," }, { "semicolon", ";" }, { "tab", "\t" },
		{ "pipe", "|" }, { "space", " " },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(arg, names[i][0]) == 0)
			arg = names[i][1];
	if (*arg == '\0' || strpbrk(arg, "\"\r\n") != NULL)
		kn_die("%s '%s': the separator must be one or more "
		    "characters other than a quote or a line end", opt, arg);
	*len = strlen(arg);
	return arg;
}

/* Sets the column names from a comma list or a header line. */
static void
set_names(kn_table *t, const char *s, size_t len, int sep, const char *where)
{
	const char *p = s, *end = s + len, *q;
	size_t i, j, n, cap = 8;
	kn_dict seen;

	t->names = kn_alloc(cap * sizeof(char *));
	t->ncols = 0;
	for (;;) {
		q = memchr(p, sep, (size_t)(end - p));
		if (q == NULL)
			q = end;
		if (t->ncols == cap) {
			cap *= 2;
			t->names = kn_realloc(t->names, cap * sizeof(char *));
		}
		t->names[t->ncols++] = kn_strndup(p, (size_t)(q - p));
		if (q == end)
			break;
		p = q + 1;
	}
	/* Each name once: a header of a million columns is checked in
	 * linear time. */
	kn_dict_init(&seen);
	for (i = 0; i < t->ncols; i++) {
		if (t->names[i][0] == '\0')
			kn_die("%s: column %zu has an empty name", where, i + 1);
		n = strlen(t->names[i]);
		if ((j = (size_t)kn_dict_intern(&seen, t->names[i], n)) != i)
			kn_die("%s: column name '%s' appears twice "
			    "(columns %zu and %zu)", where,
			    t->names[i], j + 1, i + 1);
	}
	kn_dict_free(&seen);
	t->f = kn_alloc(t->ncols * sizeof(kn_str));
}

/* Opens file number t->cur and reads (and checks) its header. */
int
kn_table_open_next(kn_table *t)
{
	size_t nf, tabs, i;

	if (t->cur > 0)
		kn_reader_close(&t->r);
	if (t->cur >= t->npaths)
		return 0;
	kn_reader_open(&t->r, t->paths[t->cur]);
	if (t->stdname != NULL && t->r.fd == 0)
		t->r.name = t->stdname;
	t->r.tee = t->tee;
	t->cur++;
	/* Headerless, the first line may be any row of a larger table (a
	 * split), and a row may hold a CR. */
	t->r.crrow = t->headerless;
	if (t->csv) {
		t->r.keepcr = 1;	/* a CR in a quoted field is a value's */
		t->r.quoted = 1;
		t->recmore = 0;
	}
	if (t->headerless)
		return 1;
	if (t->csv) {
		int odd;

		if ((nf = csv_record(t, &odd, 0, NULL, NULL)) == 0)
			kn_die("%s: empty input: expected a header line naming "
			    "the columns", t->r.name);
		if (odd && (memchr(t->r.line, '\n', t->r.len) != NULL ||
		    memchr(t->r.line, '\r', t->r.len) != NULL))
			kn_die("%s:%llu: a column name holds a line end",
			    t->r.name, (unsigned long long)t->r.lineno);
		/* The fields are joined by tabs: one more tab is a name's. */
		for (tabs = 0, i = 0; odd && i < t->r.len; i++)
			tabs += t->r.line[i] == '\t';
		if (odd && tabs != nf - 1)
			kn_die("%s:%llu: a column name holds a tab",
			    t->r.name, (unsigned long long)t->r.lineno);
	} else if (!kn_getline(&t->r))
		kn_die("%s: empty input: expected a header line naming the "
		    "columns", t->r.name);
	if (t->names == NULL) {
		size_t n = strlen(t->r.name) + 24;
		char *w = kn_alloc(n);

		snprintf(w, n, "%s:%llu", t->r.name,
		    (unsigned long long)t->r.lineno);
		set_names(t, t->r.line, t->r.len, '\t', w);
		if (t->csv)
			csv_offsets(t);
		free(w);
		t->hdrline = kn_strndup(t->r.line, t->r.len);
	} else if (strcmp(t->hdrline, t->r.line) != 0)
		kn_die("%s:%llu: header differs from that of %s", t->r.name,
		    (unsigned long long)t->r.lineno, t->paths[0]);
	return 1;
}

int kn_skip_header;

/* The names kn_columns_file read, joined by tabs (a name may hold a
 * comma, not a tab), and the comma list it returned for them, which
 * kn_table_open_as knows by its address. */
static char *colfile_tabs, *colfile_list;

int
kn_table_opt(int ch, char *arg, char **columns)
{
	static int given;	/* the option that gave the columns */

	switch (ch) {
	case KN_OPT_COLUMNS:
	case KN_OPT_COLFILE:
		if (given != 0 && given != ch)
			kn_die("--columns and --columns-file exclude each "
			    "other: name the columns once");
		given = ch;
		*columns = ch == KN_OPT_COLUMNS ? arg : kn_columns_file(arg);
		return 1;
	case KN_OPT_SKIPHDR:
		kn_skip_header = 1;
		return 1;
	case KN_OPT_IFS:
		kn_csv.ifs = sep_opt(arg, "--ifs", &kn_csv.ifslen);
		/* FALLTHROUGH */
	case KN_OPT_ICSV:
		kn_csv.in = 1;
		return 1;
	case KN_OPT_OFS:
		kn_csv.ofs = sep_opt(arg, "--ofs", &kn_csv.ofslen);
		/* FALLTHROUGH */
	case KN_OPT_OCSV:
		kn_csv.out = 1;
		return 1;
	case KN_OPT_CSV:
		kn_csv.in = kn_csv.out = 1;
		return 1;
	case KN_OPT_MISSING:
		kn_missing_opt(arg);
		return 1;
	}
	return 0;
}

int
kn_jobs(const kn_opts *o)
{
	long n;

	if (o->jobs > 0)
		return o->jobs;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

int
kn_jobs_within(int jobs, size_t budget)
{
	if ((size_t)jobs <= budget / ((size_t)2 << 20))
		return jobs;
	return budget < ((size_t)4 << 20) ? 1 :
	    (int)(budget / ((size_t)2 << 20));
}

int
kn_opts_take(kn_opts *o, int ch, char *arg)
{
	switch (ch) {
	case 'S':
		o->budget = kn_parse_size(arg, "-S");
		kn_heap_budget(o->budget, 1);
		kn_line_max = o->budget > KN_LINE_MAX ? o->budget : KN_LINE_MAX;
		break;
	case 'T':
		o->tmpdir = arg;
		break;
	case 'o':
		o->outpath = arg;
		break;
	case 'q':
		o->qlist = arg;
		break;
	case 's':
		o->scol = arg;
		break;
	case 't':
		o->tcol = arg;
		break;
	case 'v':
		o->verbose = 1;
		break;
	case 'j':
		o->jobs = (int)kn_parse_int(arg, 1, 64, "-j");
		break;
	case KN_OPT_PROGRESS:
		o->progress = 1;
		break;
	case KN_OPT_VERSION:
		kn_version();
	case KN_OPT_DATE:
		o->dates = kn_listadd(o->dates, arg);
		break;
	default:
		return kn_table_opt(ch, arg, &o->columns);
	}
	return 1;
}

void
kn_table_open_as(kn_table *t, char **paths, size_t npaths,
    const char *columns, const char *stdname, int csv, kn_tee *tee)
{
	static char *dash[] = { "-" };

	memset(t, 0, sizeof(*t));
	t->stdname = stdname;
	t->tee = tee;
	t->csv = csv;
	if (npaths == 0) {
		paths = dash;
		npaths = 1;
	}
	t->paths = paths;
	t->npaths = npaths;
	if (columns != NULL) {
		t->headerless = 1;
		if ((t->colfile = columns == colfile_list))
			set_names(t, colfile_tabs, strlen(colfile_tabs), '\t',
			    "--columns-file");
		else
			set_names(t, columns, strlen(columns), ',',
			    "--columns");
		if (csv)
			csv_offsets(t);
	}
	t->skiphdr = kn_skip_header;
	if (t->headerless && t->skiphdr) {
		size_t i, n = 0;

		for (i = 0; i < t->ncols; i++)
			n += strlen(t->names[i]) + 1;
		t->hdrline = kn_alloc(n + 1);
		for (n = 0, i = 0; i < t->ncols; i++) {
			if (i > 0)
				t->hdrline[n++] = '\t';
			memcpy(t->hdrline + n, t->names[i],
			    strlen(t->names[i]));
			n += strlen(t->names[i]);
		}
		t->hdrline[n] = '\0';
	}
	kn_table_open_next(t);
	if (t->hdrline != NULL)
		t->hdrlen = strlen(t->hdrline);
}

uint64_t
kn_table_size(const kn_table *t)
{
	struct stat st;
	uint64_t sum = 0;
	size_t i;

	/* One file: the one open (its name may be gone: kn_input_open). */
	if (t->npaths == 1)
		return t->r.fd >= 0 && fstat(t->r.fd, &st) == 0 &&
		    S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	for (i = 0; i < t->npaths; i++) {
		if (strcmp(t->paths[i], "-") == 0 ||
		    stat(t->paths[i], &st) != 0 || !S_ISREG(st.st_mode))
			return 0;
		sum += (uint64_t)st.st_size;
	}
	return sum;
}

void
kn_table_open(kn_table *t, char **paths, size_t npaths, const char *columns)
{
	kn_table_open_as(t, paths, npaths, columns, NULL, kn_csv.in, NULL);
}

void
kn_table_open_tsv(kn_table *t, char **paths, size_t npaths,
    const char *columns)
{
	kn_table_open_as(t, paths, npaths, columns, NULL, 0, NULL);
}

/* Whether the first field of a record, f, is the column name name: as
 * it is, or after a byte-order mark, where the field is read as it
 * stands (a quote after the mark does not start a quoted field), so
 * that "name" in quotes there is name too. */
static int
csv_first_name(const char *name, kn_str f)
{
	size_t n = strlen(name), i, j;

	if (f.n == n && memcmp(f.p, name, n) == 0)
		return 1;
	if (f.n < 3 || memcmp(f.p, BOM, 3) != 0)
		return 0;
	f.p += 3;
	f.n -= 3;
	if (f.n == n && memcmp(f.p, name, n) == 0)
		return 1;
	if (f.n < 2 || f.p[0] != '"' || f.p[f.n - 1] != '"')
		return 0;
	for (i = 1, j = 0; i < f.n - 1; i++, j++) {
		if (j == n || f.p[i] != name[j])
			return 0;
		if (f.p[i] == '"' && (i + 1 == f.n - 1 || f.p[++i] != '"'))
			return 0;
	}
	return j == n;
}

/* kn_table_next for CSV. */
static int
csv_next(kn_table *t)
{
	size_t n;
	int odd;

again:
	while ((n = csv_record(t, &odd, 1, NULL, NULL)) == 0)
		if (!kn_table_open_next(t))
			return 0;
	if (n != t->ncols) {
		kn_csvfault e = { KN_CSV_FIELDS, n, 0, t->r.lineno };

		kn_csv_die(t, t->r.name, &e);
	}
	csv_fields(t, n);
	if (t->skiphdr) {
		/* A record whose fields are the column names, field by
		 * field (its fields joined may not tell: one may hold a
		 * tab), the first after a byte-order mark or not (a file
		 * concatenated to the others: cat a.csv b.csv). */
		size_t c;

		for (c = 0; c < n; c++)
			if (c == 0 ? !csv_first_name(t->names[0], t->f[0]) :
			    strlen(t->names[c]) != t->f[c].n ||
			    memcmp(t->names[c], t->f[c].p, t->f[c].n) != 0)
				break;
		if (c == n) {
			t->skipped++;
			goto again;
		}
	}
	if (odd)
		csv_odd(t);
	t->rows++;
	return 1;
}

static int table_next(kn_table *);

/* The first column of TSV row f read (kn_table_carry's crcols) whose
 * value ends in a CR (split_fast saw one in the line): written at the
 * end of a line, it would be read back as a CRLF line end; t->ncols if
 * there is none. */
size_t
kn_table_crcol(const kn_table *t, const kn_str *f)
{
	size_t i, c;

	for (i = 0; i < t->ncrcols; i++) {
		c = t->crcols[i];
		if (f[c].n > 0 && f[c].p[f[c].n - 1] == '\r')
			return c;
	}
	return t->ncols;
}

/* Dies for line lineno of file name, line[0..len) of t, which holds a
 * NUL byte, not t->ncols fields, or a CR in a column read. */
void
kn_table_row_die(const kn_table *t, const char *name, uint64_t lineno,
    char *line, size_t len)
{
	kn_str *f = kn_alloc((t->ncols + 1) * sizeof(kn_str));
	const char *z;
	size_t n, col = 1, c;
	int nul, cr;

	n = kn_split_fast(line, len, f, t->ncols, &nul, &cr);
	if (!nul && n == t->ncols && (c = kn_table_crcol(t, f)) < t->ncols)
		kn_die("%s:%llu: column '%s': the value ends in a carriage "
		    "return, which kanon carries only in a column it passes "
		    "through without reading it (a reader of the release "
		    "would take it, ending a line, for a CRLF line end); "
		    "remove it first (tr -d '\\r') or cut the column out", name,
		    (unsigned long long)lineno, t->names[c]);
	if (nul) {
		z = memchr(line, '\0', len);
		for (; line < z; line++)
			col += *line == t->r.fsep;
		kn_die("%s:%llu: field %zu: NUL byte in input", name,
		    (unsigned long long)lineno, col);
	}
	for (c = 0; t->colfile && c < t->ncols; c++)
		if (strchr(t->names[c], ',') != NULL)
			break;
	kn_die("%s:%llu: expected %zu fields, found %zu%s", name,
	    (unsigned long long)lineno, t->ncols, n,
	    memchr(line, '\r', len) != NULL ?
	    " (the line holds a carriage return: are some lines "
	    "ended by CR alone?)" : t->colfile && c < t->ncols ?
	    " (--columns-file names a column with a comma: a file names "
	    "one column a line, or all on one line separated by tabs)" :
	    "");
}

int
kn_table_next(kn_table *t)
{
	if (!table_next(t))
		return 0;
	if (t->ncanon > 0)
		kn_canon_fields(t, t->f, t->canonbuf);
	return 1;
}

static int
table_next(kn_table *t)
{
	size_t n;
	int nul, cr;

	if (t->csv)
		return csv_next(t);
again:
	while (!getline_raw(&t->r))
		if (!kn_table_open_next(t))
			return 0;
	if (kn_table_header_again(t, t->r.line, t->r.len)) {
		t->skipped++;
		goto again;
	}
	n = kn_split_fast(t->r.line, t->r.len, t->f, t->ncols, &nul, &cr);
	if (nul || n != t->ncols || (cr && kn_table_crcol(t, t->f) < t->ncols))
		kn_table_row_die(t, t->r.name, t->r.lineno, t->r.line, t->r.len);
	t->rows++;
	return 1;
}

/* Whether line[0..len), read from t, is a header that --skip-header
 * drops: the header, or the header after a byte-order mark (the start
 * of a file concatenated to the others: cat a.tsv b.tsv). */
int
kn_table_header_again(const kn_table *t, const char *line, size_t len)
{
	return t->skiphdr && (len == t->hdrlen ||
	    (len == t->hdrlen + 3 && memcmp(line, BOM, 3) == 0)) &&
	    memcmp(line + (len - t->hdrlen), t->hdrline, t->hdrlen) == 0;
}


size_t
kn_table_col(const kn_table *t, const char *spec)
{
	size_t i;
	const char *p;

	for (i = 0; i < t->ncols; i++)
		if (strcmp(t->names[i], spec) == 0)
			return i;
	for (p = spec; *p >= '0' && *p <= '9'; p++)
		;
	if (p != spec && *p == '\0' && spec[0] != '0') {
		unsigned long v = strtoul(spec, NULL, 10);

		if (v >= 1 && v <= t->ncols)
			return v - 1;
		kn_die("%s: no column %s (the table has %zu)",
		    t->headerless ? "--columns" : t->r.name, spec, t->ncols);
	}
	if (!t->headerless && t->ncols == 1 &&
	    strpbrk(t->names[0], ",;|") != NULL) {
		const char *sep = strchr(t->names[0], ';') ? ";" :
		    strchr(t->names[0], ',') ? "," : "|";

		kn_die("%s: no column named '%s': the header is one column, "
		    "'%s', which holds '%s': is the file CSV? Read it with "
		    "--icsv%s%s%s", t->r.name, spec, t->names[0], sep,
		    *sep == ',' ? "" : " --ifs '", *sep == ',' ? "" : sep,
		    *sep == ',' ? "" : "'");
	}
	kn_die("%s: no column named '%s'",
	    t->headerless ? "--columns" : t->r.name, spec);
}

size_t
kn_table_cols(const kn_table *t, const char *list, size_t **idx)
{
	size_t n = 0, cap = 8, i;
	const char *p = list, *q;
	char *name;

	*idx = kn_alloc(cap * sizeof(size_t));
	for (;;) {
		q = strchr(p, ',');
		if (q == NULL)
			q = p + strlen(p);
		if (q == p)
			kn_die("empty column name in list '%s'", list);
		name = kn_strndup(p, (size_t)(q - p));
		if (n == cap) {
			cap *= 2;
			*idx = kn_realloc(*idx, cap * sizeof(size_t));
		}
		(*idx)[n] = kn_table_col(t, name);
		for (i = 0; i < n; i++)
			if ((*idx)[i] == (*idx)[n])
				kn_die("column '%s' named twice in '%s'",
				    t->names[(*idx)[n]], list);
		n++;
		free(name);
		if (*q == '\0')
			break;
		p = q + 1;
	}
	return n;
}

size_t
kn_table_countcol(const kn_table *t, const char *opt)
{
	size_t c;

	for (c = 0; c < t->ncols; c++)
		if (strcmp(t->names[c], "count") == 0)
			return c;
	kn_die("%s: no 'count' column: %s reads frequency sets", t->r.name,
	    opt);
}

void
kn_table_fail(const kn_table *t, size_t col, const char *fmt, ...)
{
	va_list ap;
	char *m;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	m = kn_alloc(n > 0 ? (size_t)n + 1 : 1);
	va_start(ap, fmt);
	vsnprintf(m, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
	va_end(ap);
	kn_die("%s:%llu: column '%s': %s", t->r.name,
	    (unsigned long long)t->r.lineno, t->names[col], m);
}

char *
kn_columns_file(const char *path)
{
	kn_reader r;
	char *out = NULL, *p;
	size_t n = 0;
	int header = 0;

	kn_input_role = "--columns-file";
	kn_reader_open(&r, path);
	kn_input_role = NULL;
	while (kn_getline(&r)) {
		if (r.len == 0)
			continue;
		if (header || (n > 0 && memchr(r.line, '\t', r.len) != NULL))
			kn_die("%s:%llu: %s: give one name a line, or the "
			    "names on one line separated by tabs", r.name,
			    (unsigned long long)r.lineno, header ?
			    "a line after the names of the header line" :
			    "a tab in a column name");
		/* A header line names the columns alone. */
		header = memchr(r.line, '\t', r.len) != NULL;
		out = kn_realloc(out, n + r.len + 2);
		if (n > 0)
			out[n++] = '\t';
		memcpy(out + n, r.line, r.len);
		n += r.len;
	}
	kn_reader_close(&r);
	if (out == NULL)
		kn_die("%s: no column names", r.name);
	out[n] = '\0';
	/* One file a run; the fuzz target reads many. */
	free(colfile_tabs);
	colfile_tabs = out;
	colfile_list = kn_strdup(out);
	for (p = colfile_list; *p != '\0'; p++)
		if (*p == '\t')
			*p = ',';
	return colfile_list;
}

void
kn_table_free(kn_table *t)
{
	size_t c;

	for (c = 0; c < t->ncols; c++)
		free(t->names[c]);
	free(t->names);
	free(t->f);
	free(t->hdrline);
	free(t->rec);
	free(t->foff);
	free((void *)t->carry);
	free(t->crcols);
	t->crcols = NULL;
	t->ncrcols = 0;
	t->rec = NULL;
	t->foff = t->fend = NULL;
	t->carry = NULL;
	t->names = NULL;
	t->f = NULL;
	t->hdrline = NULL;
}
