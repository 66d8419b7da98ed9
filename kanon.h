/*
 * kanon.h: the shared core of the kanon programs, built into libkanon.a.
 *
 * One part per file, in the order of the layers: a file uses only the
 * parts above its own (make layers checks the objects with nm).
 *
 *   kanon.c  errors and exit, memory, option values, temp files and
 *            atomic output, exact decimals, big integers;
 *   dict.c   hashing, and dictionaries of values as ids, in byte order;
 *   date.c   ISO 8601 dates and date-times as days and seconds, and the
 *            labels of generated date hierarchies;
 *   help.c   --help: the lines of the options the programs share;
 *   progress.c  progress on the standard error, by phases;
 *   tsv.c    the TSV reader, tables and their options, two-pass input;
 *   hier.c   hierarchies (our TSV format, ARX's ';' CSV, generated
 *            intervals and digit masks) and the -H options;
 *   req.c    the requirements: their options, suppression limits,
 *            l-diversity, variance diversity and t-closeness;
 *   freq.c   frequency sets with roll-up (Incognito's rollup property,
 *            paper 000 §3), packed counting, and frequency streams,
 *            which spill through the external sort (extsort.h, between
 *            hier.c and freq.c).
 */
#ifndef KANON_H
#define KANON_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define KN_VERSION "0.1.0"

/* Exact decimal arithmetic works on 128-bit integers (gcc and clang). */
typedef __int128 kn_i128;

/* ==== kanon.c ====================================================== */

/* ---- errors, exit, memory ---------------------------------------- */

extern const char *kn_prog;

/* Sets the program name and installs the cleanup signal handlers. */
void kn_init(const char *argv0);
/* Names the child process (0: none) that a signal ending this process
 * is sent to and waited for first: partition's cluster workers. */
void kn_child_set(pid_t pid);
/* Prints "prog: msg" and exits 2 after removing temp files. */
/* Taken first by every message that ends the process: one thread's
 * message is written whole, the others wait for the exit. */
void kn_die_lock(void);
/* Sets the calling thread's hook, run once by kn_die_lock before all
 * else (no lock taken yet), when that thread is about to end the
 * process with a message; fn NULL clears it.  A thread of -j that dies
 * reading a block waits there for the blocks read before, one of which
 * may hold an earlier bad row (freq.c). */
void kn_die_defer(void (*fn)(void *), void *ctx);
/* Called first by a worker thread: it blocks every signal, so that the
 * signals (and the cleanup of their handler) go to the thread that
 * started it. */
void kn_thread_nosignals(void);
void kn_die(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));
/* Like kn_die, with ": strerror(errno)" appended. */
void kn_die_sys(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));
/* Prints "prog: msg" on stderr: a warning, or the reason for exit
 * status 1. */
void kn_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Flushes and checks stdout, removes temp files, exits. */
void kn_exit(int status) __attribute__((noreturn));
/* Ends the program with status after an error whose message the
 * caller printed (as kn_die does after its own): removes the temp
 * files, or calls kn_fuzz_exit when it is set. */
void kn_die_exit(int status) __attribute__((noreturn));
/* For the fuzz targets only (fuzz/harness.c), never set by the
 * programs: when set, kn_die, kn_die_sys, kn_table_fail and kn_exit
 * call it with the exit status instead of exiting (after the message,
 * with the temp files removed and forgotten).  It must not return: the
 * targets longjmp back to the fuzzer. */
extern void (*kn_fuzz_exit)(int status);
/* When set, called before a warning or error is printed on stderr:
 * progress.c sets it to end a progress line left on the terminal. */
extern void (*kn_before_message)(void);
/* Prints the version line and exits 0. */
void kn_version(void) __attribute__((noreturn));

void *kn_alloc(size_t n);
/* A hint that p[0..n), a large table or buffer, be on huge pages where
 * its 2 MiB pages are whole (Linux's MADV_HUGEPAGE on its pages;
 * nothing elsewhere, or under 2 MiB). */
void kn_huge_pages(void *p, size_t n);
/* The heap is hinted onto huge pages as it grows (kanon.c's heap_hint)
 * once kn_heap_budget has been told the budget, unless it is below
 * KN_HEAP_HUGE: a huge page partly used at its top would then be a
 * large share of it.  given: the user's -S (kn_opts_take), which keeps
 * the heap's spare top to 4M; else a default (kn_default_budget, a
 * program's own: partition's jobs take 64M), for which it may grow by
 * more (kanon.c's heap_pad).  gendata, which has no budget, is not
 * hinted. */
#define KN_HEAP_HUGE ((size_t)64 << 20)
void kn_heap_budget(size_t budget, int given);
/* Up to n bytes of the memory freed kept by the C library for what is
 * allocated next, not given back to the system and faulted in again
 * (glibc: M_TRIM_THRESHOLD, and blocks up to 32M taken from the heap,
 * not mapped apart, as kn_init has them from 1M; nothing elsewhere); 0
 * gives back what is kept and maps blocks of 1M apart again. */
void kn_malloc_keep(size_t n);
void *kn_zalloc(size_t n);
void *kn_realloc(void *p, size_t n);
/* Block p made one of n bytes, its contents kept as realloc keeps them
 * when used (the bytes of it in use) is not 0, else p freed first, its
 * pages given back before the new ones are taken; from KN_HUGE bytes
 * on, on huge pages (kn_huge_pages).  A large buffer filled once (rows
 * loaded, lines to sort) is made so: a small page's first touch costs
 * a fault, which a virtual machine takes by the ten thousand for 256
 * MiB (a quarter of a sort's time). */
void *kn_rebuf(void *p, size_t used, size_t n);
/* kn_alloc of a large buffer: kn_rebuf(NULL, 0, n). */
void *kn_alloc_large(size_t n);
/* kn_alloc of a block on huge pages from its first byte: from 2 MiB,
 * aligned on 2 MiB and hinted (kn_huge_pages), so that none of its
 * pages is a small one, where a block mapped at any page would have
 * up to 2 MiB of small ones at its ends (a hash table made anew as it
 * doubles: pcount.c).  Freed, never given to realloc to grow: the
 * hint splits the C library's mapping of it, which mremap could then
 * not resize, so realloc would copy it (kn_move_huge copies too, and
 * says so); realloc shrinks it in place. */
void *kn_alloc_huge(size_t n);
/* kn_alloc_huge of n zero bytes. */
void *kn_zalloc_huge(size_t n);
/* Block p, of which used bytes are in use, moved to one of n bytes
 * taken as kn_alloc_huge takes it (a buffer grown to its ceiling at
 * once: kn_huge_ahead), p freed; NULL, p kept, when the system refuses
 * that much (a strict overcommit, vm.overcommit_memory=2): the caller
 * then grows it as before. */
void *kn_move_huge(void *p, size_t used, size_t n);
/* Whether n bytes may be taken ahead of their use by kn_alloc_huge, a
 * buffer's whole ceiling at once, so that it is never moved as it fills
 * (a block moved to a place not aligned on 2 MiB loses its huge pages
 * at its ends, and each growth of extsort's buffers by doubling left
 * about 500 small pages: 16,000 page faults on 10M rows).  Only where
 * the heap is hinted (a budget of KN_HEAP_HUGE or more) and n is at
 * most a quarter of physical memory and of what ulimit -d and -v
 * allow: the pages not touched are address space, not memory held. */
int kn_huge_ahead(size_t n);
/* Block p of n bytes kept for its first used bytes: the whole pages
 * after them given back to the system (Linux's MADV_DONTNEED), p kept
 * in place, its huge pages with it; elsewhere realloc.  Returns the
 * block. */
void *kn_shrink(void *p, size_t used, size_t n);
#define KN_HUGE ((size_t)8 << 20)
/* Makes room for element i of the array p of *cap elements of elem
 * bytes: the capacity doubles, from first; returns the array. */
void *kn_grow_slow(void *p, size_t *cap, size_t i, size_t elem,
    size_t first);
static inline void *
kn_grow(void *p, size_t *cap, size_t i, size_t elem, size_t first)
{
	return i < *cap ? p : kn_grow_slow(p, cap, i, elem, first);
}
char *kn_strndup(const char *s, size_t n);
char *kn_strdup(const char *s);

/* Progress on stderr (progress.c), when stderr is a terminal or force
 * is set (--progress): "prog: phase: done unit[ of total][, N MB
 * read]", redrawn at most once a second.  A run begins in the phase
 * "reading" (rows); kn_progress_phase begins another (total 0: not
 * known), ending the one before; kn_progress updates the count of the
 * current phase (or of "reading", between phases); kn_progress_done
 * ends the phase.  A phase that was shown or lasted a second ends with
 * its final count on a line of its own.  Not for several threads at
 * once. */
void kn_progress_init(int force);
/* Whether progress is shown (a figure costly to know may be skipped). */
int kn_progress_on(void);
void kn_progress_phase(const char *phase, const char *unit, uint64_t total);
void kn_progress(uint64_t done, uint64_t bytes);
/* Adds n to the count of the current phase, from any thread (0: draws
 * the count as it is, from one thread). */
void kn_progress_add(uint64_t n);
void kn_progress_done(void);

/* --help (help.c): prints usage (the synopsis), a blank line, own (what
 * the program does and its own options) and the lines of the shared
 * options that the program takes, named by mask, to the standard
 * output; exits 0.  -o, -h and --version are always described. */
enum {
	KN_HELP_HIER = 1 << 0,		/* -H */
	KN_HELP_REQ = 1 << 1,		/* -k -s -l --diversity -c
					 * --closeness --distance */
	KN_HELP_VARIANCE = 1 << 2,	/* --variance */
	KN_HELP_TABLE = 1 << 3,		/* --columns(-file), --skip-header,
					 * --icsv, --ifs */
	KN_HELP_OCSV = 1 << 4,		/* --ocsv, --csv */
	KN_HELP_MISSING = 1 << 5,	/* --missing */
	KN_HELP_DATE = 1 << 6,		/* --date */
	KN_HELP_TMP = 1 << 7,		/* -T */
	KN_HELP_PROGRESS = 1 << 8,	/* --progress */
	KN_HELP_JOBS = 1 << 9		/* -j */
};
/* For getopt_long's '?' (help.c): says which option of argv was not
 * known or lacks its value (optstring: the program's short options),
 * as a message of the program's own, escaped (getopt's own are off,
 * kn_init); the caller then shows its synopsis and exits 2. */
void kn_opt_error(char *const *argv, const char *optstring);
void kn_help(const char *usage, const char *own, unsigned mask)
    __attribute__((noreturn));

/* splitmix64 (Steele, Lea, Flood 2014): the next 64 random bits of the
 * stream whose state is *state; the programs' one generator (gendata
 * seeds its xoshiro256** with it, Rothko-S samples with it). */
uint64_t kn_splitmix64(uint64_t *state);
/* A uniform integer in [0, n), n > 0, from kn_splitmix64 by rejection. */
uint64_t kn_rand_below(uint64_t *state, uint64_t n);

/* ---- option values ------------------------------------------------ */

/* Appends item to a comma list (for repeated options); list may be
 * NULL.  Returns the new list. */
char *kn_listadd(char *list, const char *item);
/* Whether the option value arg names name (lower case, words joined by
 * '-'): the case of arg aside, and '_' or ' ' in it taken for '-', so
 * that "Rothko-T", "rothko_t" and "breadth-first search" are names. */
int kn_name_eq(const char *arg, const char *name);
/* Integer in [lo, hi]; dies quoting the text otherwise. */
long long kn_parse_int(const char *s, long long lo, long long hi,
    const char *what);
/* Finite double in [lo, hi]. */
double kn_parse_double(const char *s, double lo, double hi,
    const char *what);
/* A memory size like sort(1): number with optional b/K/M/G/T suffix
 * (default K). */
size_t kn_parse_size(const char *s, const char *what);

/* ---- temp files and output ---------------------------------------- */

/* The default memory budget (-S): a quarter of physical memory, at
 * most 4G; the heap is set for it (kn_heap_budget). */
size_t kn_default_budget(void);

/* The temp directory: opt if set, then $TMPDIR, then /tmp. */
const char *kn_tmpdir(const char *opt);
/* Creates a registered temp file (mode 0600) in dir; returns its fd. */
int kn_mktemp(const char *dir, char **path);
/* Unlinks a registered temp file and forgets it (freeing path). */
void kn_rmtemp(const char *path);
/* A temp file in dir that no exit, not even SIGKILL, leaves behind:
 * created, unlinked at once and known by its descriptor until
 * kn_tmp_close.  Returns its name, for messages and kn_tmp_open. */
char *kn_tmp_new(const char *dir);
/* A stream over temp file name: "rb" from its start, "wb" or "ab" at
 * its end; NULL with errno set on error.  Closing the stream leaves the
 * file. */
FILE *kn_tmp_open(const char *name, const char *mode);
/* Closes temp file name for good and frees name. */
void kn_tmp_close(char *name);
/* Gives stream f, before its first read or write, a buffer of
 * KN_VBUF bytes, returned to be freed once f is closed: glibc's
 * setvbuf given no buffer keeps its default (the file's block, 4 KiB:
 * a system call each) whatever the size asked. */
#define KN_VBUF ((size_t)1 << 16)
char *kn_vbuf(FILE *f);
/* Registers path (taken) to be removed on an error or a signal, as a
 * temp file is; and forgets it, once renamed or removed (outfile.c's
 * outputs). */
void kn_tmp_register(char *path);
void kn_tmp_forget(const char *path);
/* The standard descriptors the caller closed, which kn_init holds on
 * /dev/null. */
extern int kn_std_closed[3];

/* Opens the output (outfile.c): stdout for NULL or "-", else a temp
 * file beside path that kn_close_out renames into place, keeping the
 * mode of the file it replaces (kanon(7), OUTPUT FILES).  Another
 * user's symbolic link is not followed.  The output may not replace,
 * nor be, a file the run reads (kn_note_input): that is an error as
 * soon as both are known. */
FILE *kn_open_out(const char *path);
/* The same for the output of the table read from the operands
 * ops[0..n) (none: stdin), which may replace one of them, as sort -o
 * does: it is renamed into place after the whole table is read. */
FILE *kn_open_out_inplace(const char *path, char *const *ops, size_t n);
/* Records that the run reads the file open at fd, named name in
 * messages (NULL: stdin); kn_reader_open calls it for every input. */
void kn_note_input(int fd, const char *name);
/* Records that the run will read path, named by an option, after its
 * outputs are opened: an output that is the same FIFO is refused when
 * it is opened, where opening it would wait for a reader that is the
 * run itself (a path that is no FIFO, or none, is ignored). */
void kn_note_later(const char *path);
/* Gives back the disk and page cache of bytes [off, off + len) of a
 * temp file that will not be read there again (Linux's fallocate
 * punches a hole), so that they are freed by the thread that read them,
 * not all at once when the file is removed; elsewhere, nothing. */
void kn_tmp_drop(int fd, uint64_t off, uint64_t len);
/* What reads the next input, for kn_note_input's message when a pipe
 * is read twice (NULL: the input's name). */
extern const char *kn_input_role;
/* Forgets the inputs noted so far, for a process that runs the core
 * again and again (the fuzz targets, after each run). */
void kn_forget_inputs(void);
/* Whether paths a and b name the same file (existing or not). */
int kn_same_file(const char *a, const char *b);
/* Flushes and checks f, then renames it into place; dies on error. */
void kn_close_out(FILE *f);
/* Whether f writes a temp file of this process that kn_close_out renames
 * into place: no other process has it open or reads it half written. */
int kn_out_private(FILE *f);
void kn_put_u64(FILE *f, uint64_t v);
/* Formats v in decimal into buf (24 bytes); returns the length. */
size_t kn_fmt_u64(char *buf, uint64_t v);
/* The same for 128 bits (up to 40 digits and a NUL: 48 bytes will do),
 * such as a C_DM past 2^127, beyond kn_dec_format. */
size_t kn_fmt_u128(char *buf, unsigned __int128 v);
/* A size as -S takes it, into buf (32 bytes will do): 16M, 1G, 512K,
 * or bytes ("100b"). */
void kn_fmt_size(char *buf, size_t n, size_t v);
/* Writes all of buf to fd; 0 on success, -1 with errno set. */
int kn_write_all(int fd, const void *buf, size_t n);
/* Writes all of buf to fd at offset off (pwrite); 0 on success, -1 with
 * errno set. */
int kn_pwrite_all(int fd, const void *buf, size_t n, uint64_t off);

/* ---- exact decimal numbers ---------------------------------------- */

/* Parses a decimal number ("-12", "3.25"; "1e3" is refused) into
 * mant / 10^scale with trailing zeros dropped; returns 0 if s is not
 * such a number or has more than 36 significant digits. */
int kn_dec_parse(const char *s, size_t n, kn_i128 *mant, int *scale);
/* kn_dec_parse for a sum or a sum of squares that a frequency set
 * holds: any number of digits whose value fits 127 bits. */
int kn_sum_parse(const char *s, size_t n, kn_i128 *mant, int *scale);
/* Why kn_dec_parse refused s, for a message after the quoted value:
 * notnum ("is not a number"), or the number's digits or decimals
 * passing 36. */
const char *kn_dec_why(const char *s, size_t n, const char *notnum);
/* Dies: the rows counted (a class's, a table's) pass 2^64 - 1, which
 * only a frequency set's count column can make. */
void kn_rows_overflow(void) __attribute__((noreturn));
/* Formats v / 10^scale canonically (no trailing zeros) into buf
 * (at least 48 bytes); returns the length. */
size_t kn_dec_format(kn_i128 v, int scale, char *buf);
/* Adds a/10^as to the sum v/10^vs exactly, raising vs as needed; dies
 * on overflow.  kn_dec_add_ok: 0 on overflow, with v and vs unchanged. */
void kn_dec_add(kn_i128 *v, int *vs, kn_i128 a, int as);
int kn_dec_add_ok(kn_i128 *v, int *vs, kn_i128 a, int as);
/* The mean of n > 0 numbers summing to sum / 10^ssc, rounded half away
 * from zero to D decimals, as its mantissa *q at scale D; 0 if that
 * passes 127 bits. */
int kn_dec_mean(kn_i128 sum, int ssc, uint64_t n, int D, kn_i128 *q);
/* 10^e as i128 (e <= 38). */
kn_i128 kn_pow10(int e);
/* Compares a/10^as with b/10^bs exactly: -1, 0 or 1. */
int kn_dec_cmp(kn_i128 a, int as, kn_i128 b, int bs);

/* Per summed column: exact sum s/10^sc and sum of squares ss/10^2sc. */
typedef struct {
	kn_i128 s, ss;
	int sc;
} kn_sum;

/* Unsigned integers of up to 1024 bits, for exact comparisons whose
 * products outgrow 128 bits (variance and recursive diversity). */
typedef struct {
	uint32_t d[32];		/* little-endian limbs */
} kn_big;

void kn_big_set(kn_big *x, unsigned __int128 v);
/* x *= y; dies if the product needs more than 1024 bits. */
void kn_big_mul(kn_big *x, const kn_big *y);
/* x *= 10^e. */
void kn_big_pow10(kn_big *x, int e);
/* x -= y (x >= y). */
void kn_big_sub(kn_big *x, const kn_big *y);
int kn_big_cmp(const kn_big *x, const kn_big *y);
long double kn_big_ld(const kn_big *x);

/* ==== dict.c ======================================================= */

/* A string that is not NUL-terminated: a field, a label. */
typedef struct {
	const char *p;
	size_t n;
} kn_str;

typedef struct {
	char *arena;
	size_t alen, acap;
	uint64_t *off;		/* id -> offset of the value in arena */
	uint32_t *lens;		/* id -> length */
	size_t n, cap;
	uint64_t *slot;		/* hash index: the hash's low 32 bits
				 * << 32 | id+1, 0 empty */
	size_t nslot;
	int lowbyte;		/* some value holds a byte below TAB */
	struct kn_dcache {	/* direct-mapped cache of values of at
				 * most 16 bytes */
		uint64_t w[2];
		uint32_t id1, len;
	} *cache;
	size_t ncache;		/* its entries, a power of 2 */
	size_t nlook;		/* short look-ups before the cache */
} kn_dict;

/* The readings of a regions file's header f[0..n) (the fields after
 * class and count) against the columns cols[0..nc) of a table (rhead.c):
 * 0, 1, or 2 for two or more.  With one and kind not NULL, *nq is the
 * quasi-identifiers read and kind[k] (room for n) is 0 for a
 * hierarchy's column, 1 for a range (Q_min, Q_max, Q_mean), 2 for a
 * range with Q_missing. */
int kn_rhead_read(char *const *f, size_t n, char *const *cols, size_t nc,
    int *kind, size_t *nq);
/* Whether name is the first n bytes of stem, then suffix (a range's
 * field: Q_min, Q_max, Q_mean, Q_missing). */
int kn_rhead_stemmed(const char *name, const char *stem, size_t n,
    const char *suffix);

void kn_dict_init(kn_dict *d);
void kn_dict_free(kn_dict *d);
/* Returns the id of s, adding it if new. */
uint32_t kn_dict_intern(kn_dict *d, const char *s, size_t n);
/* The same; with padded, s may be read 8 bytes at a time past its end
 * (as in a reader's buffer). */
uint32_t kn_dict_intern_padded(kn_dict *d, const char *s, size_t n,
    int padded);
/* Returns the id of s or -1. */
int64_t kn_dict_find(const kn_dict *d, const char *s, size_t n);
/* kn_dict_find, which also notes in *at where s goes; kn_dict_put_at
 * then adds s (not found) there, with no second look-up, if d is
 * unchanged since (else it looks s up again), and returns its id. */
typedef struct {
	uint64_t h;
	size_t j, n;
} kn_dict_at;
int64_t kn_dict_find_at(const kn_dict *d, const char *s, size_t n,
    kn_dict_at *at);
uint32_t kn_dict_put_at(kn_dict *d, const char *s, size_t n,
    const kn_dict_at *at);
kn_str kn_dict_get(const kn_dict *d, uint32_t id);
/* The bytes a dictionary holds, about. */
size_t kn_dict_bytes(const kn_dict *d);
/* The same with its cache of short values at the size it has, or will
 * have once made (at the DCACHE_AFTER-th look-up): what a budget counts
 * that must not depend on how many look-ups a dictionary has had. */
size_t kn_dict_bytes_ahead(const kn_dict *d);
/* rank[id] in byte-wise order of the values; caller frees. */
uint32_t *kn_dict_ranks(const kn_dict *d);
/* The ids in byte-wise order of their values; caller frees. */
uint32_t *kn_dict_order(const kn_dict *d);

/* A 64-bit hash of p[0..n). */
uint64_t kn_hash(const void *p, size_t n);
/* Its multipliers and final mix, for hashes of other keys (the
 * frequency sets' keys of ids, packed counts). */
#define KN_HASH_M1 0x9e3779b97f4a7c15ULL
#define KN_HASH_M2 0xbf58476d1ce4e5b9ULL
static inline uint64_t
kn_hash_mix(uint64_t h)
{
	h ^= h >> 31;
	h *= KN_HASH_M2;
	h ^= h >> 29;
	return h;
}

/* A value s of n <= 16 bytes as two words w (zero past its end), and
 * the hash of a direct-mapped cache's slot for it (keep its low bits):
 * the caches of short values (the dictionaries', freq.c's leaves').
 * With padded, s is read a word at a time, up to 8 bytes past its end
 * (as a reader's buffers allow). */
static inline uint64_t
kn_short_key(const char *s, size_t n, int padded, uint64_t *w)
{
	w[0] = w[1] = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (padded) {
		memcpy(&w[0], s, 8);
		if (n < 8)
			w[0] &= (1ULL << (8 * n)) - 1;
		else if (n > 8) {
			memcpy(&w[1], s + 8, 8);
			if (n < 16)
				w[1] &= (1ULL << (8 * (n - 8))) - 1;
		}
	} else
#endif
	{
		memcpy(&w[0], s, n < 8 ? n : 8);
		if (n > 8)
			memcpy(&w[1], s + 8, n - 8);
	}
	return ((w[0] ^ w[1] * KN_HASH_M2) * KN_HASH_M1) >> 52 ^ n;
}

/* Byte-wise order of a[0..an) and b[0..bn) (LC_ALL=C), a prefix
 * first: -1, 0 or 1. */
int kn_bytes_cmp(const char *a, size_t an, const char *b, size_t bn);
/* Stable sort of n ids by cmp(a, b, ctx). */
void kn_sort_ids(uint32_t *a, size_t n,
    int (*cmp)(uint32_t, uint32_t, const void *), const void *ctx);

/* ==== date.c ======================================================= */

/* ---- dates and times (kanon(7), DATES) ---------------------------- */

/* The two forms of a date column: ISO 8601 dates YYYY-MM-DD, held as
 * days since 1970-01-01, and date-times YYYY-MM-DDThh:mm:ss, held as
 * seconds since 1970-01-01T00:00:00; proleptic Gregorian, years 0001 to
 * 9999, no time zones.  A column holds one form. */
enum { KN_DATE_NONE, KN_DATE_DAY, KN_DATE_TIME };
/* The room kn_date_format and kn_date_label need. */
#define KN_DATE_BUF 32

/* The form of s[0..n) (KN_DATE_NONE: not a valid date or date-time),
 * and its day or second in *v. */
int kn_date_parse(const char *s, size_t n, int64_t *v);
/* Why s[0..n) is not a date, for a message after the quoted value
 * ("is not a date: February 2023 has 28 days"), written to buf. */
const char *kn_date_why(const char *s, size_t n, char *buf, size_t size);
/* Parses a value of a date column whose form so far is *form (set by
 * the first value): NULL, or why it is refused (not a date, or of the
 * other form), written to buf. */
const char *kn_date_value(int *form, const char *s, size_t n, int64_t *v,
    char *buf, size_t size);
/* Writes day or second v in form, as parsed; returns the length. */
size_t kn_date_format(int64_t v, int form, char *buf);
/* The mean sum / n (n > 0) rounded half away from zero to a whole day
 * or second. */
int64_t kn_date_mean(kn_i128 sum, uint64_t n);

/* The levels of a generated date hierarchy (-H COL=date:LEVELS): a unit
 * below the year, or N > 0 for bands of N years (1: the year). */
enum { KN_DL_DECADE = -5, KN_DL_HOUR, KN_DL_DAY, KN_DL_MONTH,
    KN_DL_QUARTER };
/* The level named s[0..n) (hour, day, month, quarter, year, Ny for N
 * from 2 to 10000, decade); 0 if it is none. */
int kn_date_level(const char *s, size_t n);
/* The years of a level's bands; 0 below the year. */
int kn_date_years(int level);
/* Whether level b is coarser than a and each of its labels holds whole
 * labels of a. */
int kn_date_nests(int a, int b);
/* The label of day or second v (of form) at level: 2023-05-01T13,
 * 2023-05-01, 2023-05, 2023-Q2, 2023, 2020/2024 (bands of N years
 * aligned on multiples of N), 2020s; returns the length. */
size_t kn_date_label(int64_t v, int form, int level, char *buf);

/* ==== tsv.c ======================================================== */

/* ---- reading TSV -------------------------------------------------- */

/* The longest line a reader takes unless -S is larger: a longer one is
 * an error (kanon(7), INPUT LIMITS). */
#define KN_LINE_MAX ((size_t)64 << 20)
/* The longest line of the readers opened from now on: the larger of
 * KN_LINE_MAX and -S (kn_opts_take sets it). */
extern size_t kn_line_max;
/* The longest line read, or written to a sorted run, so far (a bound:
 * a reader's buffer grown for one counts): the external sort's merge
 * gives each run that much, so that -S holds however long the lines
 * (read and set atomically: readers run on threads). */
extern size_t kn_line_longest;
/* Lines up to this long need not be counted (the merge's least buffer
 * per run). */
#define KN_LINE_SHORT ((size_t)1 << 14)
static inline void
kn_line_seen(size_t len)
{
	size_t seen = __atomic_load_n(&kn_line_longest, __ATOMIC_RELAXED);

	while (len > seen && !__atomic_compare_exchange_n(&kn_line_longest,
	    &seen, len, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/* Where a reader copies what it reads (kn_input's first pass of a
 * pipe): the spool file, named for messages; eof is set once the
 * reader has read to the end. */
typedef struct {
	int fd;
	const char *name;
	int eof;
} kn_tee;

typedef struct {
	int fd;
	const char *name;	/* for messages */
	char *buf;
	size_t cap, beg, end;
	int eof;
	uint64_t lineno;	/* line number of the current line */
	char *line;		/* current line, NUL-terminated, no EOL */
	size_t len;
	uint64_t bytes;		/* bytes consumed so far */
	int keepcr;		/* keep a CR before LF */
	int temp;		/* one of the program's own temp files: read
				 * as written (no byte-order mark, compressed
				 * data, CR line ends or line limit looked
				 * for); set it before the first line */
	int crrow;		/* the first line is a row, which may hold a
				 * CR: an error only if no newline ends it
				 * (headerless input, a split of a table) */
	int started;		/* the start of the file was looked at */
	int shifted;		/* buf no longer begins at the file's
				 * first byte */
	size_t maxline;		/* kn_line_max when opened */
	char fsep;		/* the field separator, for naming the field
				 * of a NUL byte ('\t'; ';' in ARX's files) */
	int quoted;		/* CSV: a NUL byte is the decoder's to name,
				 * at the field the quotes tell, wherever
				 * the buffer's end falls */
	kn_tee *tee;		/* NULL, or where each read is copied */
} kn_reader;

/* Opens path ("-" or NULL: stdin); dies if it cannot, or if stdin is
 * closed.  The file is read once, from its start to its end, so that a
 * pipe or a FIFO will do; a UTF-8 byte-order mark at its start is
 * skipped, and compressed data, CR line ends (classic Mac OS), a NUL
 * byte and a line longer than maxline are errors as soon as they are
 * read. */
void kn_reader_open(kn_reader *r, const char *path);
/* The same with a read buffer of bufsz bytes (it grows for long lines). */
void kn_reader_open_size(kn_reader *r, const char *path, size_t bufsz);
void kn_reader_close(kn_reader *r);
/* Reads the next line (CRLF and LF stripped); 0 at end of input. */
int kn_getline(kn_reader *r);
/* Splits line[0..len) at tabs into at most max fields of f; returns
 * the number of fields in the line. */
size_t kn_split(char *line, size_t len, kn_str *f, size_t max);

/* kn_getline without the look for NUL bytes (the table's readers find
 * them as they split). */
int kn_getline_raw(kn_reader *r);
/* Moves the data kept in r's buffer to its start; reads more after it
 * (the buffer grows up to the line limit). */
void kn_reader_shift(kn_reader *r);
void kn_reader_fill(kn_reader *r);
/* Like kn_split, and also finds NUL bytes (*nul) and whether the line
 * holds a CR (*cr). */
size_t kn_split_fast(char *line, size_t len, kn_str *f, size_t max,
    int *nul, int *cr);

/* The columns a table reads by the identity of their values
 * (kn_table_canon), at most, and the room of one value's identity with
 * the 16 bytes a dictionary may read past it. */
#define KN_CANONMAX 16
#define KN_CANONBUF 64
/* What a column's identity is (kn_table_canon): its bytes, the missing
 * values made one, or those and the numbers by value. */
enum { KN_CANON_BYTES, KN_CANON_MISSING, KN_CANON_ALL };

/* A table: a reader plus column names.  Several files are read as one
 * table; each must carry the same header (or none, with --columns). */
typedef struct {
	kn_reader r;
	char **paths;
	size_t npaths, cur;
	int headerless;		/* columns given with --columns */
	int colfile;		/* the names are --columns-file's */
	size_t ncols;
	char **names;
	char *hdrline;		/* header as read, for comparison */
	kn_str *f;		/* fields of the current row */
	uint64_t rows;		/* data rows read */
	int skiphdr;		/* skip lines equal to the header */
	size_t hdrlen;
	uint64_t skipped;	/* header lines skipped */
	const char *stdname;	/* stdin's name in messages (a spool's) */
	kn_tee *tee;		/* the reader's (kn_input's first pass) */
	/* CSV (kn_csv.in when opened; never a program's own files) */
	int csv;
	char *rec;		/* the decoded record: fields joined by tabs */
	size_t reccap;
	size_t *foff;		/* offsets of the fields in rec */
	size_t *fend;		/* and their ends, in the block of foff */
	int spans;		/* the line is the record as read, its fields
				 * spans of it: kn_table_join makes it the
				 * fields joined by tabs */
	uint64_t recmore;	/* lines of the last record after its first */
	/* carry[c]: column c may hold a value with a tab, CR or LF (read
	 * from CSV), which the program passes through to CSV output
	 * unread; NULL: no column may (kn_table_carry) */
	const unsigned char *carry;
	/* TSV: the columns read, whose values may not end in a CR
	 * (kn_table_carry) */
	size_t *crcols, ncrcols;
	int held;		/* the current line is the next row
				 * (kn_table_block) */
	int crmet;		/* a CR met in a block's lines: no buffer
				 * is handed over whole again (block_swap) */
	/* the columns read by identity (kn_table_canon), and the
	 * current row's identities that are not its bytes */
	size_t canon[KN_CANONMAX], ncanon;
	int canonmode[KN_CANONMAX];
	char canonbuf[KN_CANONMAX][KN_CANONBUF];
} kn_table;

/* The formats of the tables read and written (kanon(7), CSV): CSV in
 * with --icsv or --ifs (RFC 4180, separator ifs), CSV out with --ocsv
 * or --ofs (separator ofs); --csv is both.  TSV otherwise. */
struct kn_csvfmt {
	int in, out;
	const char *ifs, *ofs;
	size_t ifslen, ofslen;
};
extern struct kn_csvfmt kn_csv;

/* A row of the output table being built: fields are added in order,
 * each as TSV or CSV (kn_csv.out), then the row is written; with batch
 * set, rows gather up to 64 KiB before they are written, and
 * kn_row_flush writes the last ones. */
typedef struct {
	char *buf;
	size_t len, cap, nf;
	int empty1;		/* the only field so far is empty */
	int batch;
} kn_row;
/* Adds field p[0..n) to the row. */
void kn_row_add(kn_row *w, const char *p, size_t n);
static inline void
kn_row_adds(kn_row *w, const char *s)
{
	kn_row_add(w, s, strlen(s));
}
/* Ends the row with its newline in w->buf, which keeps it: the next
 * row's fields follow it (rows built on several threads, written in
 * order). */
void kn_row_end(kn_row *w);
/* Ends the row and writes it to fp (dying with a write error naming
 * name), or with batch set, once the rows gathered pass 64 KiB. */
void kn_row_put(kn_row *w, FILE *fp, const char *name);
/* Writes the rows gathered and empties w. */
void kn_row_flush(kn_row *w, FILE *fp, const char *name);

/* Whether p[0..n) is a missing value: empty, or one of the tokens of
 * --missing (kanon(7), MISSING VALUES). */
int kn_missing(const char *p, size_t n);
/* The token a release writes for a missing value: the first of
 * --missing, or the empty string. */
const char *kn_missing_token(void);
/* The tokens of --missing beside the empty value (NULL: none). */
const kn_dict *kn_missing_tokens(void);
/* Takes the comma list of --missing (kn_opts_take). */
void kn_missing_opt(const char *arg);

/* --skip-header: every kn_table opened afterwards skips the lines that
 * equal its header (the column names joined by tabs), alone or after a
 * UTF-8 byte-order mark, as met in a split of a headerless table or in
 * files concatenated with cat. */
extern int kn_skip_header;
/* The options of every program that reads a table, for getopt_long:
 * --columns, --columns-file and --skip-header. */
enum { KN_OPT_COLUMNS = 1000, KN_OPT_COLFILE, KN_OPT_SKIPHDR,
	KN_OPT_ICSV, KN_OPT_IFS, KN_OPT_OCSV, KN_OPT_OFS, KN_OPT_CSV,
	KN_OPT_MISSING };
#define KN_TABLE_OPTIONS \
	{ "columns", required_argument, NULL, KN_OPT_COLUMNS }, \
	{ "columns-file", required_argument, NULL, KN_OPT_COLFILE }, \
	{ "icsv", no_argument, NULL, KN_OPT_ICSV }, \
	{ "ifs", required_argument, NULL, KN_OPT_IFS }, \
	{ "skip-header", no_argument, NULL, KN_OPT_SKIPHDR }
/* --ocsv, --ofs and --csv, in the programs that write a table. */
#define KN_OUT_OPTIONS \
	{ "csv", no_argument, NULL, KN_OPT_CSV }, \
	{ "ocsv", no_argument, NULL, KN_OPT_OCSV }, \
	{ "ofs", required_argument, NULL, KN_OPT_OFS }
/* --missing, in the programs that read values. */
#define KN_OPT_MISSING_ENTRY \
	{ "missing", required_argument, NULL, KN_OPT_MISSING }
/* Takes option ch if it is one of KN_TABLE_OPTIONS (the column list to
 * *columns); 0 if it is not. */
int kn_table_opt(int ch, char *arg, char **columns);

/* The options every program spells the same way, for those that take
 * them: -S, -T, -o, -q, -s, -t, -v, --progress, --version, --date and the
 * table options (KN_TABLE_OPTIONS). */
typedef struct {
	size_t budget;		/* -S; 0: not given */
	const char *tmpdir;	/* -T */
	const char *outpath;	/* -o */
	const char *qlist;	/* -q */
	const char *scol;	/* -s */
	const char *tcol;	/* -t */
	int verbose;		/* -v */
	int progress;		/* --progress */
	char *columns;		/* --columns, --columns-file */
	char *dates;		/* --date, a comma list (kanon(7), DATES) */
	int jobs;		/* -j; 0: not given (kn_jobs) */
} kn_opts;
enum { KN_OPT_PROGRESS = 1200, KN_OPT_VERSION };
#define KN_OPT_PROGRESS_ENTRY \
	{ "progress", no_argument, NULL, KN_OPT_PROGRESS }
#define KN_OPT_VERSION_ENTRY \
	{ "version", no_argument, NULL, KN_OPT_VERSION }
/* --date COLUMNS, in the programs that cut or check dates (partition,
 * recode, score); repeated, the lists add up. */
enum { KN_OPT_DATE = 1300 };
#define KN_OPT_DATE_ENTRY \
	{ "date", required_argument, NULL, KN_OPT_DATE }
/* The threads of -j: o->jobs when given, else the online CPUs (at
 * most 64). */
int kn_jobs(const kn_opts *o);
/* At most jobs threads, one per 2 MB of the budget (one below 4 MB):
 * a thread's own sets, dictionaries and blocks take about a megabyte
 * whatever its share (recode(1), freqset(1)). */
int kn_jobs_within(int jobs, size_t budget);
/* Takes option ch into o if it is one of kn_opts's; 0 if it is not. */
int kn_opts_take(kn_opts *o, int ch, char *arg);

/* Opens the table over paths (none: stdin).  columns, if not NULL, is
 * a comma list naming the fields of headerless input. */
void kn_table_open(kn_table *t, char **paths, size_t npaths,
    const char *columns);
/* The bytes of t's files, or 0 when they are not known (a pipe): of
 * one, the file open (standard input too, when it is a file); of
 * several, the paths given to kn_table_open, which must still be
 * there. */
uint64_t kn_table_size(const kn_table *t);
/* Reads and splits the next row; 0 at end of all input.  The fields
 * are t->f; the line t->r.line, the fields joined by tabs, only after
 * kn_table_join (a CSV record may be read as spans of its text). */
int kn_table_next(kn_table *t);
/* From the next row on, the n columns cols[] (n at most KN_CANONMAX;
 * 0: none) are read by the identity of their values, as l-diversity
 * and t-closeness count a sensitive column's (kanon(7), Terms,
 * sensitive values): under modes[i] (NULL: KN_CANON_ALL) a number by
 * its value, written canonically (50000.00, 050000 and +50000 are
 * 50000), every missing value as the empty one, other values as their
 * bytes.  For the passes that count, never for those that write the
 * rows (a field rewritten is no longer a span of the line, which
 * kn_table_join and kn_sort_table take it for). */
void kn_table_canon(kn_table *t, const size_t *cols, const int *modes,
    size_t n);
/* The identity of value v under mode (as kn_table_canon reads it): v
 * itself, the empty value, or its number written in buf (KN_CANONBUF
 * bytes). */
kn_str kn_value_canon(kn_str v, int mode, char *buf);
/* The fields of t->canon in f (a row of t) made their values'
 * identities, those that are not their bytes written in buf (the
 * table's or a block's own: kn_table_next, kn_block_row). */
void kn_canon_fields(const kn_table *t, kn_str *f,
    char (*buf)[KN_CANONBUF]);
/* A fault of a CSV record (kn_csv_die): a NUL byte in field n (from
 * 0), the byte c after a closing quote in field n, a record longer than
 * a line may be, a quote of field n never closed, n fields where the
 * table has t->ncols, a value of column n that holds a tab, line end or
 * CR (c: 0, 1, 2) where its column may not; at line line. */
enum { KN_CSV_NUL = 1, KN_CSV_JUNK, KN_CSV_LONG, KN_CSV_OPEN, KN_CSV_FIELDS,
	KN_CSV_ODD };
typedef struct {
	int kind;
	size_t n;
	unsigned char c;
	uint64_t line;
} kn_csvfault;
/* Blocks of rows, for threads that split and count them (kn_freq
 * with jobs): one thread at a time reads whole lines into a block
 * (kn_table_block), any thread takes its rows (kn_block_row), and the
 * first bad line of the earliest block is reported by the caller's
 * thread as kn_table_next would (kn_block_fail).  TSV, and CSV with a
 * separator of one byte and no --skip-header (kn_table_blocks). */
typedef struct {
	char *buf;		/* the lines, each ended by a newline */
	size_t len, cap, pos;
	char *name;		/* the file's name, for messages */
	uint64_t line0;		/* the line number of the first line */
	uint64_t seq;		/* the block's number in the input (caller's) */
	uint64_t at;		/* lines taken (kn_block_row) */
	int bad;		/* a bad line at bad_off, of bad_len bytes */
	size_t bad_off, bad_len;
	int borrowed;		/* buf is the reader's: one line longer
				 * than a block, not copied */
	/* the identities of the row taken last (kn_table_canon) */
	char canonbuf[KN_CANONMAX][KN_CANONBUF];
	/* CSV: the lines taken (a record may span several, and lines of
	 * no byte are none), the line where the row taken last starts,
	 * the fields' offsets and ends (kn_csv_spans), the bad record's
	 * fault */
	uint64_t ln, lineno;
	size_t *foff, nfoff;
	kn_csvfault fault;
	size_t maxline;		/* the reader's bound of a record */
	/* set by the caller: its rows may be taken again
	 * (kn_block_rewind), for which CSV keeps raw, the block's bytes
	 * as read (raw is then as large as buf) */
	int keep;
	char *raw;
	size_t rawcap;
} kn_block;

/* Dies for fault e of a record of t in file name, as kn_table_next. */
void kn_csv_die(const kn_table *t, const char *name, const kn_csvfault *e)
    __attribute__((noreturn));
/* Decodes the physical line src[0, len) of a CSV record into dst at
 * *dp (which may be src), the offsets of its fields in foff (up to
 * ncols of them), *np fields done, *inq: it starts in quotes; returns 1
 * at the record's end, 0 if it goes on over the next line, -1 at a
 * fault (e, but for its line).  Reads up to 8 bytes past the line. */
int kn_csv_decode(size_t ncols, size_t *foff, char *src, size_t len,
    char *dst, size_t *dp, size_t *np, int *inq, int *odd, kn_csvfault *e);
/* The common record, a line with a separator of one byte and no doubled
 * quote, its fields' spans set in foff and fend without a byte moved
 * (each field then ends in a tab or, the last, a NUL): the number of
 * fields, or 0 for any other line, untouched. */
size_t kn_csv_spans(size_t ncols, size_t *foff, size_t *fend, char *src,
    size_t len, int *odd);
/* Whether a field of row f holds a tab, CR or LF where its column may
 * not (kn_table_carry): the fault in e, but for its line. */
int kn_csv_odd(const kn_table *t, const kn_str *f, kn_csvfault *e);
/* Reads the next CSV record of t as the table's reader does, lines of
 * no byte before it skipped, with its faults but for the number of
 * fields and the values held, and hands each line read (with its CR)
 * to put; the lines are then counted in t->r.lineno.  Returns 0 at the
 * end of the file. */
int kn_csv_take(kn_table *t, void (*put)(void *, const char *, size_t),
    void *arg);

/* The parts of a table's reading that block.c shares: the next file
 * opened and its header read (0: none left); whether a line is a
 * header --skip-header drops; the first column read whose value in
 * row f ends in a CR (t->ncols: none); the death of a bad TSV line. */
int kn_table_open_next(kn_table *t);
int kn_table_header_again(const kn_table *t, const char *line, size_t len);
size_t kn_table_crcol(const kn_table *t, const kn_str *f);
void kn_table_row_die(const kn_table *t, const char *name, uint64_t lineno,
    char *line, size_t len) __attribute__((noreturn));
/* Whether t can be read in blocks. */
int kn_table_blocks(const kn_table *t);
/* Reads rows of t into b until it holds want bytes, the end of a file
 * or a header skipped (--skip-header); 0 at the end of all input.  A
 * line longer than want is a block of its own, lent from the reader's
 * buffer (returns 2): the caller reads no more until b is done with. */
int kn_table_block(kn_table *t, kn_block *b, size_t want);
/* The next row of b split into f (t->ncols fields); 0 at its end, or at
 * a bad line (b->bad set).  Touches only b and f: a thread of its own
 * may call it. */
int kn_block_row(const kn_table *t, kn_block *b, kn_str *f);
/* Makes the rows of b from byte in on (the at-th row's, at rows before
 * it) to be taken again by kn_block_row: those taken up to byte good,
 * and the bad one if b is bad, as they were read (b->keep must be set
 * for CSV, whose records are decoded in place). */
void kn_block_rewind(const kn_table *t, kn_block *b, size_t in,
    uint64_t at, size_t good);
/* Dies at b's bad line with the message of kn_table_next. */
void kn_block_fail(const kn_table *t, const kn_block *b)
    __attribute__((noreturn));
void kn_block_free(kn_block *b);
/* Makes t->r.line and t->r.len the current row's fields joined by
 * tabs (as TSV has them), for a program that uses the whole line. */
void kn_table_join(kn_table *t);
/* Column index of a name or 1-based number; dies if unknown. */
size_t kn_table_col(const kn_table *t, const char *spec);
/* Parses a comma list of columns; returns the count, indices in *idx.
 * Dies on an unknown or repeated column. */
size_t kn_table_cols(const kn_table *t, const char *list, size_t **idx);
/* The count column of a frequency set; dies naming opt if there is
 * none. */
size_t kn_table_countcol(const kn_table *t, const char *opt);
/* Dies with "prog: file:line: column 'c': msg". */
void kn_table_fail(const kn_table *t, size_t col, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
/* Reads a --columns-file: a TSV header line (alone) or one name per
 * line; returns a comma list, which kn_table_open_as reads as the
 * names read (one may hold a comma). */
char *kn_columns_file(const char *path);

/* kn_table_open for a file of the programs' own (a frequency set of
 * --classes, a workload): TSV whatever --icsv says. */
void kn_table_open_tsv(kn_table *t, char **paths, size_t npaths,
    const char *columns);
/* Dies if the standard input is closed (or open for writing only). */
void kn_stdin_check(void);
/* kn_table_open, CSV or not by csv, with stdin called stdname in
 * messages when that is not NULL, and what the reader reads copied to
 * tee when that is not NULL (input.c). */
void kn_table_open_as(kn_table *t, char **paths, size_t npaths,
    const char *columns, const char *stdname, int csv, kn_tee *tee);
/* Sets which columns of t may carry a tab, CR or LF (kn_table's carry):
 * every column not among used[0..nused) that the program does not
 * read, unless passthru says that it writes them to its output table
 * and that is TSV.  Call it after each open. */
void kn_table_carry(kn_table *t, const size_t *used, size_t nused,
    int passthru);

/* Frees what kn_table_open allocated (the reader closes itself at the
 * end of the input). */
void kn_table_free(kn_table *t);

/* An input read once or twice (two-pass programs).  Input that cannot
 * be read again (a pipe, a FIFO, a terminal) is copied to a spool file
 * in tmpdir by the first pass's reader as it reads, and the second pass
 * reads the spool; a regular file that changes between the passes is
 * an error. */
typedef struct {
	const char *path;	/* NULL: stdin */
	const char *name;	/* for messages */
	const char *tmpdir;
	char *spool;
	int sfd;
	kn_tee tee;		/* the first pass's copy to the spool */
	int again;		/* a regular file: it may be read again */
	int kfd;		/* the file the second pass read, kept open
				 * for kn_input_end, or -1 */
	int opened;
	uint64_t size, ino, dev;	/* of a regular file, as first read */
	int64_t msec, mnsec, csec, cnsec;
} kn_input;

/* Prepares the input path (NULL or "-": stdin); twice says whether it
 * is read twice. */
void kn_input_init(kn_input *in, const char *path, int twice,
    const char *tmpdir);
/* Opens the table for the next pass. */
void kn_input_open(kn_input *in, kn_table *t, const char *columns);
/* Dies if a regular file read twice changed since the first pass
 * opened it, the file the second pass read (which a rename over its
 * name does not change) (call it when the last pass has read it,
 * before its output is put in place); an edit in place keeps the
 * number of rows. */
void kn_input_end(const kn_input *in);
/* Input read once so far that cannot be read again (a pipe), its
 * reader still holding all it read from its start: copies that to the
 * spool, and what the reader reads from now on, so that the input can
 * be opened again; 0 (nothing done) otherwise. */
int kn_input_tee(kn_input *in, kn_table *t);
/* Removes the spool file, if any. */
void kn_input_done(kn_input *in);

/* ==== hier.c ======================================================= */

/* ---- hierarchies -------------------------------------------------- */

enum { KN_HFILE, KN_HINTERVAL, KN_HMASK, KN_HDATE };

/* The most levels a hierarchy may have, the leaves included: real ones
 * have fewer than 20, the generated at most 66; a taller one is most
 * likely not a hierarchy, and would cost lattice-search time and memory
 * quadratic in its height (kanon(7), INPUT LIMITS). */
#define KN_HIER_MAXLEVELS 100

typedef struct {
	char *attr;
	char *src;		/* file or spec, for messages */
	int kind;
	int nlevels;		/* levels including the leaves (level 0) */
	kn_dict *lab;		/* lab[l]: the labels of level l */
	uint32_t nfile;		/* a file's: the leaves it lists (those
				 * after are missing values', hier.c's
				 * missing_leaf) */
	uint32_t **up;		/* up[l][id at l] = id at l+1 */
	size_t *upcap;
	/* generated hierarchies */
	kn_i128 *width;		/* interval widths, scaled by 10^wscale */
	int wscale;
	int *mask;		/* characters masked per level */
	int *dlevel;		/* date: the level of each label (date.c) */
	int dform;		/* date: the column's form, once known */
	/* interval: the ids of labels lately made, by their interval's
	 * number (hier.c's ilabel), made at the first value */
	struct kn_hicache *icache;
	char why[192];		/* the reason a value was refused */
} kn_hier;

/* The identity of a sensitive column's values with hierarchy h for the
 * hierarchical distance (NULL: none): a file's leaves are its values,
 * as bytes; a generated hierarchy of numbers (interval:) takes them by
 * value; one of text (mask:, date:) has its missing values made one. */
int kn_canon_mode(const kn_hier *h);
/* kn_table_canon of the ns sensitive columns sidx[], each under
 * kn_canon_mode of its hierarchy shier[i] (shier may be NULL). */
void kn_table_canon_sens(kn_table *t, const size_t *sidx, size_t ns,
    kn_hier *const *shier);

/* Loads a hierarchy for attr from spec: "interval:W1,W2,..." (fixed
 * widths, each a multiple of the last), "mask:N1,N2,..." (last Ni
 * digits replaced by '*'), "date:L1,L2,..." (dates at the levels of
 * date.c, each coarser than the last), or a file (TSV, or ARX ';' CSV), read once
 * with the line reader (a pipe or a FIFO will do). */
kn_hier *kn_hier_load(const char *attr, const char *spec);
void kn_hier_free(kn_hier *h);
/* Leaf id of a value, or -1 when a file hierarchy lacks it (generated
 * hierarchies grow; *err is set to a message when the value does not
 * fit, e.g. is not a number). */
int64_t kn_hier_leaf(kn_hier *h, const char *s, size_t n,
    const char **err);
/* Whether kn_hier_check answers for h as kn_hier_leaf would, in any
 * order of the values: not for a date hierarchy (it learns its form
 * from the first value), nor for a generated one while a missing token
 * holds '*' or '[' (such a token may equal a label made later). */
int kn_hier_checkable(const kn_hier *h);
/* Whether kn_hier_leaf would take value s (0) or refuse it (-1, *err
 * its message), adding nothing to h: several threads may check at once
 * while none adds.  For a hierarchy kn_hier_checkable takes. */
int kn_hier_check(const kn_hier *h, const char *s, size_t n,
    const char **err);
/* Adds the leaves of the missing values (the empty value and those of
 * --missing) that file hierarchy h does not list, in that order, as a
 * value met would (kanon(7), MISSING VALUES); one that cannot be a leaf
 * is left to be refused where a row holds it.  So every process of the
 * --job steps numbers them alike. */
void kn_hier_missing(kn_hier *h);
/* The ids of a value's labels at levels 1 to the top of a generated
 * hierarchy, in ids[1..nlevels), interned and linked as kn_hier_leaf
 * does, but not its leaf (lattice-search's leaves out of core: a leaf
 * for each distinct value would outgrow -S).  Returns -1 with *err as
 * kn_hier_leaf. */
int kn_hier_above(kn_hier *h, const char *s, size_t n, uint32_t *ids,
    const char **err);
/* A copy of h of its own, for another thread to look values up in (a
 * lookup may add to a hierarchy): a file hierarchy copied, a generated
 * one made again from its spec with the date form it has learned.  NULL
 * when a date hierarchy has not learned its form yet: a copy could
 * learn another one from another row. */
kn_hier *kn_hier_clone(const kn_hier *h);
/* Forgets the values a generated hierarchy has seen (file hierarchies
 * are left as they are). */
void kn_hier_reset(kn_hier *h);
/* Frees the labels and links, keeping only the count of labels of each
 * level (lab[l].n) and nlevels: nothing else may be asked of it. */
void kn_hier_shed(kn_hier *h);
/* The id at level lv of the node id at level from. */
uint32_t kn_hier_lift(const kn_hier *h, uint32_t id, int from, int lv);
/* map[id at level from] = id at level to, for all ids; caller frees. */
uint32_t *kn_hier_map(const kn_hier *h, int from, int to);
/* The leaves under each label above the leaves (cover[l][id], l > 0),
 * for Iyengar's loss: (leaves under it - 1) / (leaves - 1); caller
 * frees. */
uint32_t **kn_hier_cover(const kn_hier *h);

/* The -H options of a program: ATTR=SPEC pairs and directories. */
typedef struct {
	size_t n;
	char **arg;
} kn_hopts;

void kn_hopts_add(kn_hopts *o, const char *arg);
/* Loads the hierarchy for attr, or returns NULL when none is given. */
kn_hier *kn_hopts_get(const kn_hopts *o, const char *attr);
/* Dies if an ATTR=SPEC names an attribute not in names[0..n). */
void kn_hopts_check(const kn_hopts *o, char *const *names, size_t n);

/* ==== req.c ======================================================== */

/* ---- suppression limits ------------------------------------------ */

/* A limit on suppressed rows: a number, or a percentage pm / 10^ps of
 * the rows. */
typedef struct {
	int pct;
	uint64_t n;
	kn_i128 pm;
	int ps;
} kn_limit;

/* Parses N or P% (0 to 100) given to option opt. */
void kn_limit_parse(kn_limit *l, const char *arg, const char *opt);
/* The limit for a table of rows rows: N, or floor(P/100 x rows)
 * computed exactly. */
uint64_t kn_limit_rows(const kn_limit *l, uint64_t rows);

/* ---- l-diversity (paper 004 §1.1) ---------------------------------- */

enum { KN_DIV_DISTINCT, KN_DIV_ENTROPY, KN_DIV_RECURSIVE };

/* An l-diversity requirement on the sensitive values of each class:
 * distinct (at least l values), entropy (H >= log l) or recursive
 * (c,l): r1 < c (r_l + ... + r_m), with c = cm / 10^cs. */
typedef struct {
	int on;			/* -l given */
	int kind;
	double l;
	/* l exactly: the least integer at least l (the values a class
	 * needs when all are equally frequent), whether l is one, and log l
	 * of l as a long double, computed once for every class */
	uint64_t lceil;
	int lint;
	long double lnl;
	kn_i128 cm;
	int cs;
	const char *lstr;	/* option texts, for messages */
	int hasdiv, hasc;
	/* Entropy: kn_xlx62(c) for c below nx62 (kn_ldiv_table), else
	 * NULL. */
	kn_i128 *x62;
	size_t nx62;
} kn_ldiv;

/* Defaults: off, distinct, c = 1. */
void kn_ldiv_init(kn_ldiv *ld);
/* Takes the value of -l ('l'), -c ('c') or --diversity ('d'). */
void kn_ldiv_opt(kn_ldiv *ld, int opt, const char *arg);
/* Dies on conflicting options; hass says whether -s was given. */
void kn_ldiv_check(const kn_ldiv *ld, int hass);
/* The requirements of a program that releases or checks data: -k,
 * l-diversity (-l, -c, --diversity), variance diversity (--variance:
 * Var >= vm / 10^vs) and t-closeness (--closeness, --distance). */
typedef struct {
	uint64_t k;		/* 0: -k not given */
	kn_ldiv ld;
	int hasv;		/* --variance given */
	kn_i128 vm;
	int vs;
	int hast;		/* --closeness given: t = tm / 10^ts */
	kn_i128 tm;
	int ts;
	const char *tstr;
	int dist;		/* --distance: KN_DIST_* */
	int hasdist;
} kn_req;

/* The long options kn_req_opt takes, for getopt_long: --diversity in
 * every program with -l, --variance in those with variance. */
enum { KN_OPT_DIVERSITY = 1100, KN_OPT_VARIANCE, KN_OPT_CLOSENESS,
	KN_OPT_DISTANCE };
#define KN_OPT_DIVERSITY_ENTRY \
	{ "diversity", required_argument, NULL, KN_OPT_DIVERSITY }
#define KN_OPT_VARIANCE_ENTRY \
	{ "variance", required_argument, NULL, KN_OPT_VARIANCE }
/* --closeness and --distance, in every program with -l. */
#define KN_OPT_CLOSENESS_ENTRIES \
	{ "closeness", required_argument, NULL, KN_OPT_CLOSENESS }, \
	{ "distance", required_argument, NULL, KN_OPT_DISTANCE }

/* No requirement: k 0, l-diversity off, no variance. */
void kn_req_init(kn_req *r);
/* Takes option ch if it is -k, -l, -c, --diversity, --variance,
 * --closeness or --distance (the value arg); 0 if it is not one of
 * them. */
int kn_req_opt(kn_req *r, int ch, const char *arg);
/* Dies (exit 2) on conflicting requirement options: those of
 * kn_ldiv_check, --closeness without -s, --distance without
 * --closeness; hass says whether -s was given. */
void kn_req_check(const kn_req *r, int hass);
/* The sensitive columns of -s a,b,...: every requirement holds for each
 * of them separately (kanon(7), REQUIREMENTS). */
#define KN_MAXSENS 16

/* Sorts counts descending. */
void kn_counts_desc(uint64_t *v, size_t m);

/* Widens the extents e (least[nq], largest[nq]) by the first nq words of
 * the n records at r, w words apart. */
void kn_ext_rows(uint32_t *e, const uint32_t *r, size_t n, size_t w,
    size_t nq);

/* Entropy (nats) of the counts v[0..m) summing to n. */
long double kn_entropy(const uint64_t *v, size_t m, uint64_t n);
/* Whether a class whose sensitive values have the counts v[0..m)
 * (descending, none zero) summing to n meets ld. */
int kn_ldiv_ok(const kn_ldiv *ld, const uint64_t *v, size_t m,
    uint64_t n);
/* The same verdict from the counts given one by one, in descending
 * order (kn_ldiv_add), for a class too large to hold them: n is their
 * sum, known before. */
typedef struct {
	const kn_ldiv *ld;
	uint64_t n, first, last;
	size_t m;
	long double h;			/* the entropy, as kn_entropy */
	unsigned __int128 tail;		/* the sum of the l-th count on */
	uint64_t prod[4];		/* prod c^c modulo large primes */
} kn_ldiv_acc;
void kn_ldiv_begin(kn_ldiv_acc *a, const kn_ldiv *ld, uint64_t n);
void kn_ldiv_add(kn_ldiv_acc *a, uint64_t c);
int kn_ldiv_end(const kn_ldiv_acc *a);
/* Recursive (c,l)-diversity of a part of m values from its largest
 * count r1 and the sum of its l-th count on, tail: kn_ldiv_ok's
 * verdict. */
int kn_ldiv_recursive_ok(const kn_ldiv *ld, uint64_t r1,
    unsigned __int128 tail, size_t m);
/* Entropy l-diversity of a part of n rows and m values, known by a =
 * n ln n and s = sum c ln c over its counts c, each term in units of
 * 2^-62 rounded from long double: 1 when kn_ldiv_ok surely passes the
 * part, -1 when it surely fails it, 0 when only the counts can tell. */
int kn_ldiv_entropy_sure(const kn_ldiv *ld, kn_i128 a, kn_i128 s, uint64_t n,
    uint64_t m);
/* c ln c in units of 2^-62, rounded from long double: the terms of
 * kn_ldiv_entropy_sure, whose error is then the terms' relative error,
 * not their rounding to integers (which in mond_x_log_x's 2^-32 would
 * leave parts of a few rows unsure within 1e-10 of the threshold).  0
 * for c < 2 and from 2^58 on (where kn_ldiv_entropy_sure is never
 * sure). */
kn_i128 kn_xlx62(uint64_t c);
/* Under entropy l-diversity, the table of kn_xlx62 for the counts of
 * a table of rows rows, within room bytes and 64 KiB: kn_ldiv_x62 and
 * kn_ldiv_ok_any then take small counts from it, and the sweeps and
 * kn_ldiv_ok_any judge by the sums.  A speed-up only (the verdicts are
 * the same without it): with room for fewer than three counts there is
 * none, x62 stays NULL. */
void kn_ldiv_table(kn_ldiv *ld, uint64_t rows, size_t room);
/* The table's size in bytes. */
size_t kn_ldiv_table_bytes(const kn_ldiv *ld);
static inline kn_i128
kn_ldiv_x62(const kn_ldiv *ld, uint64_t c)
{
	return c < ld->nx62 ? ld->x62[c] : kn_xlx62(c);
}
/* kn_ldiv_ok on m counts of n rows in any order, none of them zero,
 * which it may reorder: recursive (c,l) from its l - 1 largest, entropy
 * from the sums of kn_ldiv_entropy_sure where they are sure (with
 * kn_ldiv_table's table), else sorted. */
int kn_ldiv_ok_any(const kn_ldiv *ld, uint64_t *v, size_t m, uint64_t n);

/* ---- variance diversity (paper 004 §1.1) ------------------------- */

/* Variance diversity (paper 004 §1.1): whether Var(E,S) >= vm/10^vs for
 * a class of n rows whose values of S sum to sm->s (scale F) with
 * squares summing to sm->ss (scale 2F); decided exactly.  Sets *var to
 * the variance. */
int kn_variance_ok(uint64_t n, const kn_sum *sm, int F, kn_i128 vm,
    int vs, long double *var);

/* ---- t-closeness (Li, Li, Venkatasubramanian, ICDE 2007) -------- */

/* The distances of --distance (kanon(7), T-CLOSENESS). */
enum { KN_DIST_EQUAL, KN_DIST_ORDERED, KN_DIST_HIER };
extern const char *const kn_dist_name[];

/* A sum of kn_tclose_ok's terms in 256 bits (kn_tclose_run). */
typedef struct {
	unsigned __int128 hi, lo;
} kn_tsum;
#define KN_TEND ((size_t)-1)
typedef kn_tsum (*kn_tsum_fn)(const void *ext, unsigned __int128 sN,
    uint64_t n, size_t a, size_t b);

/* The whole table's distribution of a sensitive column, against which
 * each class is measured: positions 0..m-1 hold C[pos] rows of N.  For
 * the equal and ordered distances the positions are the table's values
 * (each C > 0), in the order of kn_tclose_ranks for the ordered one;
 * for the hierarchical distance they are the leaf ids of the column's
 * hierarchy (C may be 0). */
typedef struct {
	int dist;
	kn_i128 tm;		/* t = tm / 10^ts */
	int ts;
	size_t m;
	uint64_t N;
	uint64_t *C;
	uint64_t norm;		/* the distance's divisor: 2, m - 1 or H */
	unsigned __int128 *P;	/* ordered: P[i] = cum(0) + ... + cum(i-1) */
	uint64_t *cum;		/* ordered: cum[i] = C[0] + ... + C[i] */
	int nlev;		/* hierarchical: levels, with a virtual root */
	uint32_t **up;		/* up[l][node at l] = its parent */
	uint64_t **tot;		/* tot[l][node]: the table's rows under it */
	size_t *nnode;		/* nodes per level */
	/* ordered, over some of the table's values only (rclose.c): the
	 * term of the run between the class's values at positions a and b
	 * (KN_TEND for the table's ends), s N its rows up to a times N;
	 * ext is run's, and cum and P are not used */
	kn_tsum_fn run;
	const void *ext;
} kn_tclose;

/* A sensitive value's rows in a class: its position and count. */
typedef struct {
	uint32_t pos;
	uint64_t cnt;
} kn_tval;

/* Sorts v[0..n) by position (equal positions in no set order): by
 * radix on the positions' bits past a few dozen, no comparisons; in
 * one pass when they are in order. */
void kn_tval_sort(kn_tval *v, size_t n);

/* Prepares tc for the requirement r (r->hast set) over the counts
 * C[0..m) (copied); h is the column's hierarchy for the hierarchical
 * distance (NULL otherwise), whose leaf ids are the positions. */
void kn_tclose_init(kn_tclose *tc, const kn_req *r, const uint64_t *C,
    size_t m, const kn_hier *h);
void kn_tclose_free(kn_tclose *tc);
/* Scratch space of kn_tclose_ok, one per thread; zero it first and
 * free its p at the end. */
typedef struct {
	void *p;
	size_t cap;
} kn_tscratch;
/* Whether a class whose values are v[0..nv) (positions ascending and
 * distinct, counts > 0, summing to n > 0) is within t of the table,
 * decided in exact integers; *d, if not NULL, gets the distance. */
int kn_tclose_ok(const kn_tclose *tc, const kn_tval *v, size_t nv,
    uint64_t n, kn_tscratch *sc, long double *d);
/* Prepares tc over the values of dictionary d, of which the whole
 * table holds cnt[id] rows: the positions of the distance (the ranks
 * of kn_tclose_ranks for the ordered one, the leaf ids of h for the
 * hierarchical one, the ids otherwise) go to *pos (caller frees).
 * Dies when a value is not a leaf of h. */
void kn_tclose_dict(kn_tclose *tc, const kn_req *r, const kn_dict *d,
    const uint64_t *cnt, kn_hier *h, uint32_t **pos);
/* kn_tclose_ok for a class given as nv pairs (value id, count) in any
 * order, an id possibly in several: v is mapped through pos, sorted and
 * merged in place. */
int kn_tclose_ids(const kn_tclose *tc, const uint32_t *pos, kn_tval *v,
    size_t nv, uint64_t n, kn_tscratch *sc, long double *d);
/* The parts of kn_tclose_ok, for a class measured piece by piece (as
 * tcdisk.c does out of core), in the same exact integers.  S, the
 * distance times norm n N, is a sum of terms in 256 bits. */
void kn_tsum_add(kn_tsum *S, kn_tsum x);
/* The equal distance: a value of c of the class's n rows and C of the
 * table's N adds |c N - C n|; then, once, the table's rows of the
 * values the class lacks, N - in, add (N - in) n. */
void kn_tclose_equal_val(kn_tsum *S, uint64_t c, uint64_t C, uint64_t N,
    uint64_t n);
void kn_tclose_equal_rest(kn_tsum *S, uint64_t in, uint64_t N, uint64_t n);
/* The ordered distance: the term of the positions [a, b) between two of
 * the class's values, s N being its rows up to a times N, q the first
 * position of [a, b) where cum n >= s N (b if none), P the prefix sums
 * of the cumulative counts there. */
kn_tsum kn_tclose_run(unsigned __int128 sN, uint64_t n, uint64_t a,
    uint64_t b, uint64_t q, unsigned __int128 Pa, unsigned __int128 Pb,
    unsigned __int128 Pq);
/* The same term from tc's cumulative counts and their prefix sums
 * (tc->cum, tc->P), q found among them. */
kn_tsum kn_tclose_run_at(const kn_tclose *tc, unsigned __int128 sN,
    uint64_t n, size_t a, size_t b);
/* Whether S (of a class of n rows) is within t, *d its distance. */
int kn_tclose_judge(const kn_tclose *tc, kn_tsum S, uint64_t n,
    long double *d);
/* tc for kn_tclose_judge alone, over a table of N rows and m distinct
 * values, with the equal or the ordered distance: no arrays. */
void kn_tclose_params(kn_tclose *tc, const kn_req *r, uint64_t N,
    uint64_t m);
/* The classes of a release as they arrive, for the requirements on one
 * sensitive column, with no dictionary: a class's rows of a value
 * arrive together, as a frequency set brings the first column after
 * the key's (cvals.c brings the others so); nothing is kept per value,
 * only the value being read (last) and how many values have each count
 * (a class of n rows has at most sqrt(2n) counts), in hc, hm and their
 * index.  tap, if set, is called with each value of a class and its
 * rows once they are all read (t-closeness's measure, tcdisk.c). */
typedef struct {
	char *last;
	size_t lastlen, lastcap;
	uint64_t run;		/* its rows so far, 0 before the first */
	uint64_t *hc, *hm;	/* a count, and how many values have it */
	uint32_t *hslot;
	size_t nh, hcap, hmask;
	void (*tap)(const char *p, size_t len, uint64_t cnt, void *ctx);
	void *tapctx;
} kn_sclass;

void kn_sclass_init(kn_sclass *sc);
/* Begins a class. */
void kn_sclass_begin(kn_sclass *sc);
/* Adds cnt rows of value p[0..len) to the current class: a value's
 * rows together, after those of the value before. */
void kn_sclass_add(kn_sclass *sc, const char *p, size_t len,
    uint64_t cnt);
/* Ends the current class. */
void kn_sclass_end(kn_sclass *sc);
/* The class just ended, of n rows: its distinct values, *m, the
 * exponent of its values' entropy (m when their counts are equal),
 * *he, and whether it meets ld (kn_ldiv_ok), from its counts in
 * descending order.  v is scratch of *vcap counts (kn_grow). */
int kn_sclass_ldiv(kn_sclass *sc, const kn_ldiv *ld, uint64_t n,
    uint64_t **v, size_t *vcap, size_t *m, long double *he);
/* The order of the ordered distance over the values of d: rank[id].
 * Numeric when every value that is not missing is a decimal number
 * (missing values last, equal numbers in byte order), byte order
 * otherwise.  Caller frees. */
uint32_t *kn_tclose_ranks(const kn_dict *d);

/* ==== freq.c ======================================================= */

/* ---- frequency sets ----------------------------------------------- */

typedef struct {
	size_t d;		/* key columns */
	size_t nsum;		/* summed columns */
	size_t n, cap;		/* entries */
	uint32_t *key;		/* n * d ids */
	uint64_t *cnt;
	kn_sum *sum;		/* n * nsum */
	uint64_t *slot;		/* hash index, built when first needed */
	size_t nslot;
} kn_fset;

void kn_fset_init(kn_fset *fs, size_t d, size_t nsum);
void kn_fset_free(kn_fset *fs);
/* Adds cnt to the entry of key (created if new); returns its index. */
uint32_t kn_fset_add(kn_fset *fs, const uint32_t *key, uint64_t cnt);
/* Dies of a group's count past 64 bits (exit 2), naming the row that
 * took it there when kn_fset_count_context gave the table being read
 * and its count column (NULL: none). */
void kn_count_overflow(void) __attribute__((noreturn));
void kn_fset_count_context(const kn_table *t, size_t col);
/* Adds mant/10^scale (and its square) to sum column j of entry i;
 * returns 0 on overflow. */
int kn_fset_addval(kn_fset *fs, size_t i, size_t j, kn_i128 mant,
    int scale);
/* Adds an already summed pair: s / 10^sc and ss / 10^ssc; 0 on
 * overflow. */
int kn_fset_addsum(kn_fset *fs, size_t i, size_t j, kn_i128 s, int sc,
    kn_i128 ss, int ssc);
/* Roll-up: a new set keyed by cols[0..d) of fs, each id mapped through
 * map[c] (NULL: unchanged); counts and sums are added. */
void kn_fset_rollup(const kn_fset *fs, kn_fset *out, const size_t *cols,
    size_t d, uint32_t *const *map);
/* Packed frequency sets (lattice-search): n groups, each a key of W
 * 64-bit words holding the ids of the attributes' labels, and a count. */
typedef struct {
	size_t n;
	uint64_t *key;
	uint64_t *cnt;
} kn_pset;
/* The most attributes of a packed key. */
#define KN_PMAXQ 64
/* Where an attribute's id is in a packed key (word, shift, mask fm),
 * its hierarchy and its level maps (map[from * nlev + to]). */
typedef struct {
	int word, shift;
	uint64_t fm;
	const kn_hier *h;
	int nlev;
	uint32_t **map;
} kn_pfield;
/* The layout of packed keys: d attributes, W words (the attributes'
 * fields in the order of their bits within a word: pset_join's runs),
 * and how many values the sensitive fields (which roll-ups keep, bits
 * outside every attribute's) can take together, at most: the product of
 * their id ranges, UINT64_MAX if it overflows (0: no sensitive field). */
typedef struct {
	size_t d;
	int W;
	const kn_pfield *f;
	uint64_t sprod;
} kn_playout;
/* A roll-up's hash table, reused: slots of an older generation are
 * empty. */
typedef struct {
	uint64_t key;
	uint32_t idx, gen;
} kn_pslot;
typedef struct {
	kn_pslot *tab;
	size_t nslot;
	uint32_t gen;
} kn_pscratch;
/* Readies s's hash table for at most most groups, emptied by a new
 * generation (grown if need be); returns the slots to use, a power of 2
 * at least twice most (s->nslot may be more). */
size_t kn_pscratch_begin(kn_pscratch *s, size_t most);
kn_pset *kn_pset_rollup(const kn_playout *ly, kn_pscratch *s,
    const kn_pset *src, uint64_t amask, const int *alev, uint64_t bmask,
    const int *blev);
void kn_pset_free(kn_pset *f);

/* The entries in byte-wise order of their labels joined by tabs and
 * followed by a tab (LC_ALL=C sort order of output lines that carry
 * more fields after the keys); caller frees. */
uint32_t *kn_fset_order(const kn_fset *fs, const kn_dict *const *dict);

/* A counting hash for keys whose ids pack into 63 bits: one cache line
 * per row, with prefetching over a batch of rows.  Used to build a
 * frequency set fast; ids that outgrow the bits are repacked, and a key
 * that cannot be packed makes kn_pcount_add return 0.  Its slots are
 * narrow (8 bytes) while the keys fit 31 bits and the counts 32, wide
 * (16) after, or direct (a count of 4 bytes for every key the ids can
 * make, while that is no more than a narrow table): read them with
 * kn_pcount_slot. */
#define KN_PMAX 63
#define KN_PBATCH 32
typedef struct {
	size_t d;
	int bits[KN_PMAX], shift[KN_PMAX];
	uint64_t *tab;		/* slots: packed key + 1 (0 empty), count */
	int wide;		/* slots of two words, else of one */
	int direct;		/* a count of 32 bits a key, by key */
	uint32_t seen[KN_PMAX];	/* each column's largest id added */
	size_t nslot, n;
	uint64_t bk[KN_PBATCH], bc[KN_PBATCH];	/* pending adds */
	size_t nb;
	size_t limit;		/* table bytes not to grow past (0: none) */
	int full;		/* the table reached the limit */
} kn_pcount;

/* 0 if d is 0 or too large to pack. */
int kn_pcount_init(kn_pcount *pc, size_t d);
/* Adds cnt to key; 0 (nothing added) if the key cannot be packed. */
int kn_pcount_add(kn_pcount *pc, const uint32_t *key, uint64_t cnt);
/* Moves the counts into fs (initialized with nsum 0); frees pc. */
void kn_pcount_fset(kn_pcount *pc, kn_fset *fs);
/* Sorts the counts in byte-wise order of the labels dict[c] of the ids
 * (as kn_fset_order) and returns n pairs (key, count) in *pairs, the key
 * holding the rank of column c's label at shift[c] in bits[c] bits;
 * with inv, inv[c] is the ids of column c in that order (as
 * kn_dict_order gives them).  Returns (size_t)-1, leaving pc as it was,
 * if the ranks need more than 63 bits or some label holds a byte below
 * TAB.  Frees pc otherwise. */
size_t kn_pcount_sorted(kn_pcount *pc, const kn_dict *const *dict,
    uint64_t **pairs, int *shift, int *bits, uint32_t **inv);
/* Counts the batched keys. */
void kn_pcount_flush(kn_pcount *pc);
/* The bytes pc's table is counted as in a budget. */
size_t kn_pcount_bytes(const kn_pcount *pc);
/* Field c (column c's id) of the packed key pk. */
static inline uint32_t
kn_pcount_field(const kn_pcount *pc, uint64_t pk, size_t c)
{
	return (uint32_t)(pk >> pc->shift[c] & ((1ULL << pc->bits[c]) - 1));
}
/* Slot i of pc's table: 0 if empty, else 1 with its packed key in *pk
 * and count in *cnt. */
int kn_pcount_slot(const kn_pcount *pc, size_t i, uint64_t *pk,
    uint64_t *cnt);
/* The bits of the ranks of n values (0 for one value). */
int kn_pcount_bits(size_t n);
/* Whether counts over the labels dict[0..d) can be sorted by their
 * ranks: no label holds a byte below TAB, and the ranks fit a key. */
int kn_pcount_sortable(size_t d, const kn_dict *const *dict);
/* Compacts pc into pairs (key of the ranks rank[c] of column c's ids in
 * bits[c] bits, the first column highest, at shift[c], which it sets;
 * count) sorted by key; returns their number and leaves pc empty. */
size_t kn_pcount_pairs(kn_pcount *pc, uint32_t *const *rank,
    const int *bits, int *shift, uint64_t **pairs);

/* Adds the counts of pc, direct and flushed, whose first column's rank
 * is in [lo, hi) into sum, at the sum over c of rank[c][id] times
 * stride[c]. */
void kn_pcount_addto(const kn_pcount *pc, uint32_t *const *rank,
    const size_t *stride, uint32_t lo, uint32_t hi, uint64_t *sum);

/* A group of a frequency set: its labels, count, and per summed column
 * the sum s/10^sc and the sum of squares ss/10^ssc.  id, when not NULL,
 * holds each label's id: a column with a hierarchy, in its labels at
 * the level of the set, h->lab[l]; a column without, in dict[c] when
 * counted on one thread, else its rank among the labels of all the
 * threads.  A set merged from runs has none, nor one counted on
 * threads whose leaves were not made (too many to hold beside the
 * sets) or whose rows were formatted there (fmt). */
typedef struct {
	kn_str *key;
	const uint32_t *id;
	uint64_t cnt;
	kn_i128 *s, *ss;
	int *sc, *ssc;
} kn_fsrow;

/* What kn_freq reads from each row: d key columns (each through the
 * leaves of hier[c], or dict[c] where hier is NULL), an optional count
 * column (a frequency set's weights), and nsum summed columns: single
 * values, or with pairs the X_sum, X_sumsq columns of a frequency set. */
typedef struct {
	size_t d;
	const size_t *key;
	kn_dict *dict;
	kn_hier **hier;
	int hascount;
	size_t cntcol;
	int skipzero;		/* a row of count 0 skipped before its key */
	size_t nsum;
	const size_t *sumcol;
	int pairs;
	/* if set, called with each row before it is counted (a check of
	 * the row that needs no group of its own) */
	void (*row)(const kn_table *t, void *rowctx);
	void *rowctx;
	/* threads to count on (-j): more than 1 splits and counts TSV
	 * rows on that many when no count column, sum or row check is
	 * asked for, and no hierarchy, or tkey, or hierarchies counted
	 * at their leaves that kn_hier_checkable takes, in a file of 32
	 * MiB or more left or an input of unknown size; the groups and
	 * their order are the same */
	int jobs;
	/* if set, the groups counted on threads are not handed to out but
	 * formatted on the threads, each into a row of w (fmt, which may
	 * only read ctx), and the rows handed to blk on the caller's
	 * thread, in order, as bytes holding the number of groups given */
	void (*fmt)(const kn_fsrow *row, kn_row *w, void *ctx);
	void (*blk)(const char *p, size_t n, uint64_t groups, void *ctx);
	/* With jobs, if tkey is set: the d values of a row's key made on
	 * the threads by tkey (into key, from the row's fields f, valid
	 * until its next call; hier is then not used, and row is tkey's to
	 * do if it is set), with state of each
	 * thread's own (tnew, NULL when none can be made: no threads;
	 * tfree).  -1 at a row that tfail then reports on the caller's
	 * thread (and dies), as the first bad row. */
	void *(*tnew)(void *tctx, int nt);
	void (*tfree)(void *tctx, void *ts);
	int (*tkey)(void *tctx, void *ts, const kn_str *f, kn_str *key);
	void (*tfail)(void *tctx, kn_table *t);
	void *tctx;
} kn_countspec;

typedef void (*kn_fsout)(const kn_fsrow *row, void *ctx);

typedef struct {
	uint64_t rows, runs, merge_passes, bytes_written, bytes_read;
} kn_freqstats;

/* Counts the rest of table t, with column c at hierarchy level lv[c]
 * (lv NULL: the values as they are), and calls out for each group in
 * byte-wise order of its labels joined by tabs.  With budget nonzero,
 * a set that outgrows it is written to tmpdir in sorted runs, which are
 * merged at the end: the same groups, in the same order.  Data errors
 * die naming the row and column.  st, if not NULL, gets statistics. */
void kn_freq(kn_table *t, const kn_countspec *cs, const int *lv,
    size_t budget, const char *tmpdir, kn_fsout out, void *ctx,
    kn_freqstats *st);

/* Merges the rest of table t, a frequency set whose lines are in
 * byte-wise order (LC_ALL=C sort) and whose key columns are the first
 * cs->d, holding only the current group: lines of equal keys are
 * added, each group goes to out in order.  A line out of order dies
 * naming it. */
void kn_freq_sorted(kn_table *t, const kn_countspec *cs, kn_fsout out,
    void *ctx, kn_freqstats *st);

#endif
