/*
 * kanon.c: the bottom layer of the core (see kanon.h): errors and exit
 * with temp file cleanup, memory, option values, temp files, exact
 * decimals and big integers; the outputs and the registry of inputs are
 * outfile.c's, above it.  It uses nothing but the C library.
 */
/* madvise and MADV_HUGEPAGE (kn_huge_pages), beside POSIX. */
#define _DEFAULT_SOURCE 1

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kanon.h"

const char *kn_prog = "kanon";

/* ---- temp files and cleanup --------------------------------------- */

static char **tmp_path;			/* registered temp files */
static volatile sig_atomic_t tmp_n;
static size_t tmp_cap;
/* The arrays tmp_path outgrew: kept, since a signal handler on another
 * thread may still be reading one; freed only by the fuzzers' exit. */
static char **tmp_old[64];
static int tmp_nold;
/* Threads that spill (kn_freq with jobs) register files at once. */
static pthread_mutex_t tmp_mu = PTHREAD_MUTEX_INITIALIZER;
/* A signal's handler, which may not take tmp_mu, sets dying and waits
 * while a thread is creating a temp file (mktemp_in, tmp_mu held); a
 * thread that would create one once dying is set waits for the end. */
static int tmp_dying, tmp_creating;

/* A child process that ends with this one (kn_child_set). */
static volatile sig_atomic_t child_pid;

void
kn_child_set(pid_t pid)
{
	child_pid = (sig_atomic_t)pid;
}

/* Sends sig to the child, if any, and waits for it to end (removing
 * its own temp files, writing nothing more); safe in a signal
 * handler. */
static void
end_child(int sig)
{
	pid_t child = (pid_t)child_pid;
	int e = errno;

	if (child <= 0)
		return;
	child_pid = 0;
	kill(child, sig);
	while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
		;
	errno = e;
}

/* Removes every registered temp file, after the child has ended; safe
 * in a signal handler. */
static void
cleanup(void)
{
	sig_atomic_t i;

	end_child(SIGTERM);
	for (i = 0; i < tmp_n; i++)
		if (tmp_path[i] != NULL)
			unlink(tmp_path[i]);
}

static void
on_signal(int sig)
{
	__atomic_store_n(&tmp_dying, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&tmp_creating, __ATOMIC_SEQ_CST) > 0)
		;
	end_child(sig);
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The standard descriptors the caller closed, held on /dev/null. */
int kn_std_closed[3];

#ifdef MADV_HUGEPAGE
/* The end of the heap when it was last hinted onto huge pages; where
 * the heap began; whether a small budget turned the hints off (-1: no
 * budget set yet, no hints: kn_heap_budget). */
static uintptr_t heap_hinted, heap_start;
static int heap_small = -1;
#endif

/*
 * Hints the heap's new pages onto huge pages, as glibc's tunable
 * glibc.malloc.hugetlb=1 would: called after each allocation, it finds
 * the heap grown (malloc grows it M_TOP_PAD at a time: kn_init,
 * heap_pad) and hints the new part while malloc has touched only its
 * first pages; not before kn_heap_budget.  A small page's first touch
 * costs about 12 us on the machines of bench/README.md: Adult's 8 QIs
 * took 1,165 page faults and 33 ms, 470 to 720 faults and 25 ms with
 * this.  Resident memory grows by at most the rest of the huge page at
 * the heap's top.
 */
static void
heap_hint(void)
{
#ifdef MADV_HUGEPAGE
	uintptr_t b = (uintptr_t)sbrk(0), h, P;

	h = __atomic_load_n(&heap_hinted, __ATOMIC_RELAXED);
	if (b == h || b == (uintptr_t)-1 || heap_small != 0)
		return;
	__atomic_store_n(&heap_hinted, b, __ATOMIC_RELAXED);
	/* Shrunk (malloc's trim): what grows again is hinted again. */
	P = (uintptr_t)sysconf(_SC_PAGESIZE);
	h = (h + P - 1) & ~(P - 1);
	if (h != 0 && h < b)
		(void)madvise((void *)h, b - h, MADV_HUGEPAGE);
#endif
}

/* A quarter of physical memory, or 0 when it is not known. */
static size_t
phys_quarter(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	return pages > 0 && psz > 0 ? (size_t)pages / 4 * (size_t)psz : 0;
}

/* A quarter of physical memory (1G when not known), at most 4G
 * (kn_default_budget). */
static size_t
default_budget(void)
{
	size_t b = phys_quarter();

	if (b == 0)
		b = (size_t)1 << 30;
	if (b > ((size_t)4 << 30))
		b = (size_t)4 << 30;
	return b;
}

/* The least of what ulimit -d and -v allow, or SIZE_MAX. */
static size_t
heap_limit(void)
{
	static const int lim[] = { RLIMIT_AS, RLIMIT_DATA };
	size_t m = SIZE_MAX, i;
	struct rlimit rl;

	for (i = 0; i < sizeof(lim) / sizeof(lim[0]); i++)
		if (getrlimit(lim[i], &rl) == 0 &&
		    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < m)
			m = (size_t)rl.rlim_cur;
	return m;
}

/*
 * What the heap grows by, and keeps when it shrinks (M_TOP_PAD), for a
 * budget the user did not give: a thirty-second of it up to 32M, and
 * no more than a sixteenth of what ulimit -d and -v allow (a growth the
 * limit refuses is an allocation that fails), but at least 4M, what it
 * was before.  Each time the heap grows, malloc writes its headers on
 * the new part before heap_hint can hint it, and the 2 MiB page they
 * fall in stays on small pages: the fewer times it grows, the fewer
 * such pages (Adult's 8 QIs: about 500 page faults with 4M, 100 with
 * 32M; with 5%, 3,300 and 120).  What it keeps is memory the process
 * held before, beside what a budget counts: an -S keeps it to 4M, as
 * before (partition(1) measures 2 to 4 MB outside the budget).
 */
#define HEAP_PAD_MIN ((size_t)4 << 20)

static size_t
heap_pad(size_t budget)
{
	size_t pad = budget / 32, lim = heap_limit() / 16;

	if (pad > ((size_t)32 << 20))
		pad = (size_t)32 << 20;
	if (pad > lim)
		pad = lim;
	return pad < HEAP_PAD_MIN ? HEAP_PAD_MIN : pad;
}

void
kn_heap_budget(size_t budget, int given)
{
#ifdef M_TOP_PAD
	mallopt(M_TOP_PAD, (int)(given ? HEAP_PAD_MIN : heap_pad(budget)));
#endif
#ifdef MADV_HUGEPAGE
	const uintptr_t P = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (heap_start + P - 1) & ~(P - 1), b = (uintptr_t)sbrk(0);

	heap_small = budget < KN_HEAP_HUGE;
	/* What an -S before this one hinted, unhinted; or the heap so far
	 * hinted (its pages not yet touched). */
	if (heap_small && a != 0 && a < b && b != (uintptr_t)-1)
		(void)madvise((void *)a, b - a, MADV_NOHUGEPAGE);
	heap_hint();
#else
	(void)budget;
#endif
}

/*
 * Begins the heap 64K below a 2 MiB boundary, while malloc has taken
 * none of it.  The blocks the options take go there, on small pages,
 * before kn_heap_budget knows whether the heap is to be hinted (a huge
 * page taken then would count against an -S of a few megabytes), and
 * the 2 MiB pages above are whole and untouched when it is.  The heap
 * began where the system put it, in a 2 MiB page that stayed on small
 * pages to its end (0 to 512 of them: Adult's 8 QIs took 480 to 820
 * page faults; about 100 with this and heap_pad).  The pages skipped are
 * never touched.
 */
static void
heap_begin(void)
{
#if defined(MADV_HUGEPAGE) && defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	const uintptr_t H = (uintptr_t)2 << 20, E = (uintptr_t)64 << 10;
	const uintptr_t P = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t b = (uintptr_t)sbrk(0), a;

	/* Not under a ulimit -d or -v of less than 512M: the pages
	 * skipped, up to 2M, count against it. */
	if (b == (uintptr_t)-1 || (b & (P - 1)) != 0 ||
	    mallinfo2().arena != 0 || heap_limit() < ((size_t)512 << 20))
		return;
	a = ((b + E + H - 1) & ~(H - 1)) - E;
	if (sbrk((intptr_t)(a - b)) == (void *)-1)
		return;
	heap_hinted = heap_start = a;
#endif
}

void
kn_init(const char *argv0)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE };
	struct sigaction sa;
	const char *p;
	size_t i;

	if (argv0 != NULL && *argv0 != '\0') {
		p = strrchr(argv0, '/');
		kn_prog = p != NULL ? p + 1 : argv0;
	}
	/* getopt's messages are kn_opt_error's: the program's name, the
	 * option's bytes escaped. */
	opterr = 0;
#ifdef M_ARENA_MAX
	/* The threads of -j share the one heap: an arena of its own for
	 * each would reserve 64M of address space, which a ulimit -v of
	 * a few hundred megabytes does not hold; the threads allocate
	 * seldom, so there is little to contend for. */
	mallopt(M_ARENA_MAX, 1);
#endif
#ifdef M_MMAP_THRESHOLD
	/* Blocks of 1M and more are the system's, given back when freed:
	 * without a fixed threshold glibc raises it past the large blocks
	 * freed, whose memory then stays in the heap beside the next ones
	 * (Rothko-T at 50M rows and -S 256M peaked at 348 MB; 200 MB
	 * with this), and the budget -S would not bound what the process
	 * holds.  kn_malloc_keep lifts it for a while. */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
#ifdef M_TOP_PAD
	/* The heap grows 4M or more at a time and keeps as much when it
	 * shrinks: the blocks below 1M that a small run allocates and
	 * frees, and those of 1M and more that fit, are not asked of the
	 * system again and faulted in again (Adult, 8 QIs: 2,042 page
	 * faults, 1,186 with 4M).  What the default budget's heap_pad
	 * gives; an -S sets it again (kn_heap_budget), before the heap has
	 * held much. */
	mallopt(M_TOP_PAD, (int)heap_pad(default_budget()));
#endif
#ifdef MADV_HUGEPAGE
	heap_hinted = heap_start = (uintptr_t)sbrk(0);
#endif
	heap_begin();
	/* A standard descriptor that the caller closed (>&-) would go to
	 * the next file opened, which would then get the messages or the
	 * output.  Each is held on /dev/null, opened so that using it fails
	 * as using a closed one would: stdin and stderr write-only, stdout
	 * read-only (an unused stdout is no error, a written one is). */
	for (i = 0; i < 3; i++)
		if (fcntl((int)i, F_GETFD) == -1 && errno == EBADF) {
			if (open("/dev/null", i == 1 ? O_RDONLY : O_WRONLY) !=
			    (int)i)
				_exit(2);
			kn_std_closed[i] = 1;
		}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		/* A signal ignored by our caller (nohup, a background job)
		 * stays ignored. */
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
	/* A file grown past ulimit -f: the write fails with EFBIG, which
	 * is reported, and the temp files are removed, instead of a kill
	 * that would leave them. */
	signal(SIGXFSZ, SIG_IGN);
}

/* For the fuzz targets only (fuzz/harness.c); see kanon.h. */
void (*kn_fuzz_exit)(int status);
void (*kn_before_message)(void);

/* Ends the program with status after an error, the temp files removed;
 * with kn_fuzz_exit set, calls it instead, the temp files forgotten. */
void
kn_die_exit(int status)
{
	sig_atomic_t i;

	/* Held to the end: a thread between creating a temp file and
	 * registering it finishes first, and none starts after. */
	pthread_mutex_lock(&tmp_mu);
	cleanup();
	if (kn_fuzz_exit != NULL) {
		for (i = 0; i < tmp_n; i++)
			free(tmp_path[i]);
		free(tmp_path);
		while (tmp_nold > 0)
			free(tmp_old[--tmp_nold]);
		tmp_path = NULL;
		tmp_n = 0;
		tmp_cap = 0;
		pthread_mutex_unlock(&tmp_mu);
		kn_fuzz_exit(status);
	}
	_exit(status);
}

/* The bytes that msg_put writes for byte c: itself, \n or \r, \xNN. */
static size_t
msg_width(unsigned char c)
{
	return (c >= 0x20 && c != 0x7f) || c == '\t' ? 1 :
	    c == '\n' || c == '\r' ? 2 : 4;
}

/* Appends s[0..n) to o (of room for 4 bytes a byte) with its control
 * bytes but the tab escaped (\n, \r, \xNN): a value quoted in a
 * message reaches a terminal or a cron mail as text, never as a
 * terminal's command.  Returns the bytes appended. */
static size_t
msg_put(char *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (msg_width(c)) {
		case 1:
			o[k++] = (char)c;
			break;
		case 2:
			o[k++] = '\\';
			o[k++] = c == '\n' ? 'n' : 'r';
			break;
		default:
			o[k++] = '\\';
			o[k++] = 'x';
			o[k++] = hex[c >> 4];
			o[k++] = hex[c & 15];
		}
	}
	return k;
}

/* A message is shown whole while its text, escaped, takes MSG_MOST
 * bytes at most; a longer one (a value of megabytes quoted) loses its
 * middle, cut between characters, so that its start (where) and its
 * end (what to do) are kept.  It is written at once, in less than
 * PIPE_BUF (4096) bytes, so that the processes of a job, which write
 * to one stderr, never interleave their messages. */
#define MSG_MOST 3584

/* The prefixes of the working files' names made so far (mktemp_in:
 * "DIR/kanon"), by which a message knows one of them: its name is gone
 * by the time a write to it fails. */
#define TMP_PREFIXES 8
static char *tmp_prefix[TMP_PREFIXES];
static size_t tmp_nprefix;
static pthread_mutex_t prefix_mu = PTHREAD_MUTEX_INITIALIZER;
/* A working file could not be made (tmp_fail): the message is about
 * one. */
static volatile sig_atomic_t tmp_failed;

/* Whether message m names a working file ("DIR/kanon." or the unnamed
 * "DIR/kanon ("). */
static int
msg_working(const char *m)
{
	size_t i, n = __atomic_load_n(&tmp_nprefix, __ATOMIC_ACQUIRE), k;
	const char *p;

	for (i = 0; i < n; i++)
		for (k = strlen(tmp_prefix[i]), p = m;
		    (p = strstr(p, tmp_prefix[i])) != NULL; p++)
			if (p[k] == '.' || p[k] == ' ')
				return 1;
	return 0;
}

static void
vmsg(const char *fmt, va_list ap, int err)
{
	char small[512], *m = small, *o;
	size_t n, a, b, k, i, w;
	va_list aq;
	int len;

	fflush(stdout);
	if (kn_before_message != NULL)
		kn_before_message();
	va_copy(aq, ap);
	len = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	n = len < 0 ? 0 : (size_t)len;
	if (n >= sizeof(small) && (m = malloc(n + 1)) != NULL)
		vsnprintf(m, n + 1, fmt, ap);
	else if (m == NULL) {
		m = small;
		n = sizeof(small) - 1;
	}
	for (i = w = 0; i < n; i++)
		w += msg_width((unsigned char)m[i]);
	a = b = n;
	if (w > MSG_MOST) {
		/* Half the room before the cut, a quarter after, each end
		 * moved to a character's first byte (3 bytes at most:
		 * bytes that are not UTF-8 are cut where they are). */
		for (a = w = 0; a < n && w + msg_width((unsigned char)m[a]) <=
		    MSG_MOST / 2; a++)
			w += msg_width((unsigned char)m[a]);
		for (i = 0; i < 3 && a > 0 &&
		    ((unsigned char)m[a] & 0xc0) == 0x80; i++)
			a--;
		for (b = n, w = 0; b > a && w +
		    msg_width((unsigned char)m[b - 1]) <= MSG_MOST / 4; b--)
			w += msg_width((unsigned char)m[b - 1]);
		for (i = 0; i < 3 && b < n &&
		    ((unsigned char)m[b] & 0xc0) == 0x80; i++)
			b++;
	}
	o = malloc(strlen(kn_prog) + 4 * (a + n - b) + 256 + (err != 0 ?
	    strlen(strerror(err)) : 0));
	if (o == NULL) {
		fprintf(stderr, "%s: %.*s\n", kn_prog, (int)a, m);
		if (m != small)
			free(m);
		return;
	}
	k = (size_t)sprintf(o, "%s: ", kn_prog);
	k += msg_put(o + k, m, a);
	if (b > a)
		k += (size_t)sprintf(o + k, " [... %zu bytes ...] ", b - a);
	k += msg_put(o + k, m + b, n - b);
	if (err != 0)
		k += (size_t)sprintf(o + k, ": %s", strerror(err));
	/* A working file out of room: say where the room is wanted,
	 * since the file named is gone by now. */
	if ((err == ENOSPC || err == EDQUOT || err == EFBIG) &&
	    msg_working(m))
		k += (size_t)sprintf(o + k, " (a working file: give -T, or "
		    "TMPDIR, a directory with more room; kanon(7), TMPDIR)");
	/* Out of descriptors: what the user can change; -S only for the
	 * working files, fewer with a larger budget. */
	if (err == EMFILE)
		k += (size_t)sprintf(o + k, " (raise ulimit -n%s)",
		    msg_working(m) || tmp_failed ? ", or give a larger -S" :
		    "");
	o[k++] = '\n';
	fwrite(o, 1, k, stderr);
	free(o);
	if (m != small)
		free(m);
}

void
kn_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
	va_end(ap);
}

/* The one thread that ends the process with a message: another that
 * fails at the same time (the threads of -j) waits until exit ends it,
 * so that one whole message is written. */
static pthread_mutex_t die_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_t die_owner;
static int die_owned;

/* The calling thread's hook of kn_die_defer. */
static _Thread_local void (*die_hook)(void *);
static _Thread_local void *die_hook_ctx;

void
kn_die_defer(void (*fn)(void *), void *ctx)
{
	die_hook = fn;
	die_hook_ctx = ctx;
}

void
kn_die_lock(void)
{
	void (*fn)(void *) = die_hook;

	if (fn != NULL) {
		die_hook = NULL;
		fn(die_hook_ctx);
	}
	if (die_owned && pthread_equal(die_owner, pthread_self()))
		return;
	pthread_mutex_lock(&die_mu);
	die_owner = pthread_self();
	die_owned = 1;
}

void
kn_thread_nosignals(void)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
}

void
kn_die(const char *fmt, ...)
{
	va_list ap;

	kn_die_lock();

	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
	va_end(ap);
	kn_die_exit(2);
}

void
kn_die_sys(const char *fmt, ...)
{
	va_list ap;
	int err = errno;

	kn_die_lock();

	if (err == EPIPE) {
		/* The reader went away (SIGPIPE was ignored): end as
		 * quietly as the default SIGPIPE would. */
		pthread_mutex_lock(&tmp_mu);
		cleanup();
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
		_exit(2);
	}

	va_start(ap, fmt);
	vmsg(fmt, ap, err != 0 ? err : EIO);
	va_end(ap);
	kn_die_exit(2);
}

void
kn_exit(int status)
{
	if (kn_fuzz_exit != NULL)
		kn_die_exit(status);
	if (fflush(stdout) == EOF || ferror(stdout))
		kn_die_sys("standard output: write error");
	if (fclose(stdout) == EOF)
		kn_die_sys("standard output: write error");
	cleanup();
	exit(status);
}

void
kn_version(void)
{
	printf("%s (kanon) %s\n", kn_prog, KN_VERSION);
	kn_exit(0);
}

/* ---- memory -------------------------------------------------------- */

void
kn_huge_pages(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	/* Its whole pages: a block of 1M or more is a mapping of its own
	 * (kn_init; 32M while kn_malloc_keep holds), which a hint on part
	 * of it would split in three, and realloc could then only copy
	 * (mremap resizes one mapping).  A block in the heap shares its
	 * first and last pages with its neighbours, which the hint, a
	 * flag and no more, may then cover too. */
	const uintptr_t P = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)p & ~(P - 1);
	uintptr_t e = ((uintptr_t)p + n + P - 1) & ~(P - 1);

	if (n >= ((size_t)2 << 20))
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

void
kn_malloc_keep(size_t n)
{
#if defined(M_TRIM_THRESHOLD) && defined(M_MMAP_THRESHOLD) && \
    defined(__GLIBC__)
	static size_t kept;

	if (n > INT_MAX)
		n = INT_MAX;
	if (n == kept)
		return;
	kept = n;
	/* What is freed stays in the heap up to n bytes (128K is glibc's
	 * default), and the heap grows by what is asked, no more: the
	 * address space is what the memory held has been. */
	(void)mallopt(M_TRIM_THRESHOLD, n > 0 ? (int)n : 128 << 10);
	(void)mallopt(M_MMAP_THRESHOLD, n > 0 ? 32 << 20 : 1 << 20);
	if (n == 0)
		(void)malloc_trim(0);
#else
	(void)n;
#endif
}

void *
kn_alloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		kn_die("out of memory (%zu bytes)", n);
	heap_hint();
	return p;
}

void *
kn_rebuf(void *p, size_t used, size_t n)
{
	void *q;

	if (used == 0) {
		/* Not kn_alloc_huge: the block may be grown by realloc,
		 * which mremap does in place only on a mapping the hint
		 * did not split. */
		free(p);
		q = kn_alloc(n);
	} else
		q = kn_realloc(p, n);
	if (n >= KN_HUGE)
		kn_huge_pages(q, n);
	return q;
}

/* kn_alloc_huge's block, or NULL when the system refuses it. */
static void *
alloc_huge(size_t n)
{
	const size_t H = (size_t)2 << 20;
	void *p;

	if (n < H)
		return kn_alloc(n);
	/* The C library maps the block with room to align it; the room
	 * before it is never touched. */
	if (posix_memalign(&p, H, n) != 0)
		return NULL;
	heap_hint();
	kn_huge_pages(p, n);
	return p;
}

void *
kn_alloc_huge(size_t n)
{
	void *p = alloc_huge(n);

	if (p == NULL)
		kn_die("out of memory (%zu bytes)", n);
	return p;
}

void *
kn_zalloc_huge(size_t n)
{
	return memset(kn_alloc_huge(n), 0, n);
}

void *
kn_move_huge(void *p, size_t used, size_t n)
{
	void *q = alloc_huge(n);

	if (q == NULL)
		return NULL;
	if (used > 0)
		memcpy(q, p, used);
	free(p);
	return q;
}

int
kn_huge_ahead(size_t n)
{
#ifdef MADV_HUGEPAGE
	return heap_small == 0 && n <= phys_quarter() &&
	    n <= heap_limit() / 4;
#else
	(void)n;
	return 0;
#endif
}

void *
kn_shrink(void *p, size_t used, size_t n)
{
#if defined(MADV_DONTNEED) && defined(__linux__)
	const uintptr_t P = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)p + used + P - 1) & ~(P - 1);
	uintptr_t e = ((uintptr_t)p + n) & ~(P - 1);

	if (a < e)
		(void)madvise((void *)a, e - a, MADV_DONTNEED);
	return p;
#else
	(void)n;
	return kn_realloc(p, used);
#endif
}

void *
kn_alloc_large(size_t n)
{
	return kn_rebuf(NULL, 0, n);
}

void *
kn_zalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (p == NULL)
		kn_die("out of memory (%zu bytes)", n);
	heap_hint();
	return p;
}

void *
kn_realloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		kn_die("out of memory (%zu bytes)", n);
	heap_hint();
	return p;
}

void *
kn_grow_slow(void *p, size_t *cap, size_t i, size_t elem, size_t first)
{
	size_t c;

	for (c = *cap ? 2 * *cap : first; c <= i; c *= 2)
		;
	*cap = c;
	return kn_realloc(p, c * elem);
}

char *
kn_strndup(const char *s, size_t n)
{
	char *p = kn_alloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
kn_strdup(const char *s)
{
	return kn_strndup(s, strlen(s));
}

/* ---- random numbers ------------------------------------------------ */

uint64_t
kn_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t
kn_rand_below(uint64_t *state, uint64_t n)
{
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, x;

	while ((x = kn_splitmix64(state)) >= lim)
		;
	return x % n;
}

/* ---- option values ------------------------------------------------ */

int
kn_name_eq(const char *arg, const char *name)
{
	unsigned char a, b;

	for (;; arg++, name++) {
		a = (unsigned char)*arg;
		b = (unsigned char)*name;
		if (a == '_' || a == ' ')
			a = '-';
		if (a >= 'A' && a <= 'Z')
			a += 'a' - 'A';
		if (a != b)
			return 0;
		if (a == '\0')
			return 1;
	}
}

char *
kn_listadd(char *list, const char *item)
{
	size_t n;
	char *l;

	if (list == NULL)
		return kn_strdup(item);
	n = strlen(list) + strlen(item) + 2;
	l = kn_alloc(n);
	snprintf(l, n, "%s,%s", list, item);
	free(list);
	return l;
}

long long
kn_parse_int(const char *s, long long lo, long long hi, const char *what)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	/* strtoll skips leading space, which kanon(7) Numbers does not
	 * take ('-k " 3"' is a mistake to show, not a 3). */
	if (*s == '\0' || *end != '\0' || isspace((unsigned char)*s))
		kn_die("%s: '%s' is not an integer", what, s);
	if (errno == ERANGE || v < lo || v > hi)
		kn_die("%s: '%s' is out of range [%lld, %lld]", what, s, lo,
		    hi);
	return v;
}

double
kn_parse_double(const char *s, double lo, double hi, const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || isnan(v) ||
	    isspace((unsigned char)*s))
		kn_die("%s: '%s' is not a number", what, s);
	if (isinf(v) && errno != ERANGE)
		kn_die("%s: '%s' is not a finite number", what, s);
	/* strtod's range: a value below DBL_MIN is not read exactly, one
	 * past DBL_MAX not at all. */
	if (errno == ERANGE && !isinf(v) && lo <= 0 && hi >= 0)
		kn_die("%s: '%s' is too close to 0 to be read (below about "
		    "2.2e-308)", what, s);
	if (errno == ERANGE && isinf(v) && isinf(v > 0 ? hi : lo))
		kn_die("%s: '%s' is too large to be read", what, s);
	if (errno == ERANGE || v < lo || v > hi)
		kn_die("%s: '%s' is out of range [%g, %g]", what, s, lo, hi);
	return v;
}

size_t
kn_parse_size(const char *s, const char *what)
{
	char *end;
	unsigned long long v, mul = 1024;

	errno = 0;
	if (*s < '0' || *s > '9')
		kn_die("%s: '%s' is not a size", what, s);
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		kn_die("%s: '%s' is too large", what, s);
	if (*end != '\0') {
		switch (*end) {
		case 'b': mul = 1; break;
		case 'k': case 'K': mul = 1ULL << 10; break;
		case 'm': case 'M': mul = 1ULL << 20; break;
		case 'g': case 'G': mul = 1ULL << 30; break;
		case 't': case 'T': mul = 1ULL << 40; break;
		default:
			kn_die("%s: '%s' is not a size (use b, K, M, G or T)",
			    what, s);
		}
		if (end[1] != '\0' && !(end[1] == 'B' && end[2] == '\0'))
			kn_die("%s: '%s' is not a size", what, s);
	}
	if (v > SIZE_MAX / mul)
		kn_die("%s: '%s' is too large", what, s);
	if (v == 0)
		kn_die("%s: '%s': a memory budget must be more than 0 (leave "
		    "out %s for the default)", what, s, what);
	return (size_t)(v * mul);
}

/* ---- temp files and output ---------------------------------------- */

size_t
kn_default_budget(void)
{
	size_t b = default_budget();

	kn_heap_budget(b, 0);
	return b;
}

/* Dies unless directory p (st) on the path of d, what the user gave
 * as how (-T, TMPDIR), is safe for the working files: one that others
 * may write to must be sticky, and it must belong to the user or to
 * root.  last: p is d itself. */
static void
tmpdir_check(const char *how, const char *d, const char *p,
    const struct stat *st, int last)
{
	int shared = (st->st_mode & (S_IWGRP | S_IWOTH)) != 0 &&
	    (st->st_mode & S_ISVTX) == 0;
	const char *who = shared ? "not sticky, and other users may write "
	    "to it: they" : "the directory of another user, who";

	if (!shared && (st->st_uid == geteuid() || st->st_uid == 0))
		return;
	if (last)
		kn_die("%s %s: %s could replace the working files in it "
		    "(kanon(7), TMPDIR): give a directory of your own, or a "
		    "sticky one such as /tmp", how, d, who);
	kn_die("%s %s: %s is %s could replace the directories below it, "
	    "and the working files in them (kanon(7), TMPDIR): give a "
	    "directory of your own, on a path of your own or root's", how,
	    d, p, who);
}

/*
 * The temp files' directory: -T, else TMPDIR, else /tmp.  Some temp
 * files are closed and opened again by name (sorted runs, spilled
 * sets), so no other user may be able to replace them.  The directory
 * is taken by its path with the links resolved (realpath), so that no
 * link changed later leads elsewhere, and every directory on that path
 * is checked from the root down (tmpdir_check): once one is safe, only
 * the user or root can change what is in it, so the next one checked
 * stays the one checked, and so does the last.
 */
const char *
kn_tmpdir(const char *opt)
{
	const char *d = opt, *how = "-T";
	struct stat st;
	char *real;
	size_t i, n;

	if (d != NULL && *d == '\0')
		kn_die("-T: an empty directory name (leave -T out for TMPDIR, "
		    "then /tmp)");
	if (d == NULL) {
		d = getenv("TMPDIR");
		how = "TMPDIR";
		if (d == NULL || *d == '\0')
			return "/tmp";
	}
	if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode))
		return d;	/* refused when a temp file is made there */
	if ((real = realpath(d, NULL)) == NULL)
		kn_die_sys("%s %s: its path cannot be resolved to be checked "
		    "(kanon(7), TMPDIR)", how, d);
	n = strlen(real);
	for (i = 0; i <= n; i++) {
		size_t e = i == 0 ? 1 : i;	/* "/", then each prefix */
		char c = real[e];

		if (i < n && real[i] != '/')
			continue;
		real[e] = '\0';
		if (lstat(real, &st) != 0 || !S_ISDIR(st.st_mode))
			kn_die("%s %s: %s changed while it was checked "
			    "(kanon(7), TMPDIR)", how, d, real);
		tmpdir_check(how, d, real, &st, i == n);
		real[e] = c;
	}
	return real;
}

/* Registers path, tmp_mu held. */
static void
tmp_add(char *path)
{
	if ((size_t)tmp_n == tmp_cap) {
		size_t cap = tmp_cap ? 2 * tmp_cap : 16;
		char **p = malloc(cap * sizeof(*tmp_path));

		if (p == NULL || tmp_nold == 64) {
			unlink(path);
			pthread_mutex_unlock(&tmp_mu);
			kn_die("out of memory");
		}
		if (tmp_cap > 0)
			memcpy(p, tmp_path, tmp_cap * sizeof(*tmp_path));
		if (tmp_path != NULL)
			tmp_old[tmp_nold++] = tmp_path;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		tmp_path = p;
		tmp_cap = cap;
	}
	tmp_path[tmp_n] = path;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	tmp_n++;
}

void
kn_tmp_register(char *path)
{
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_mutex_lock(&tmp_mu);
	tmp_add(path);
	pthread_mutex_unlock(&tmp_mu);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void
kn_tmp_forget(const char *path)
{
	sigset_t all, old;
	sig_atomic_t i;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_mutex_lock(&tmp_mu);
	for (i = 0; i < tmp_n; i++)
		if (tmp_path[i] != NULL && strcmp(tmp_path[i], path) == 0) {
			char *p = tmp_path[i];

			tmp_path[i] = NULL;
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
			free(p);
			break;
		}
	pthread_mutex_unlock(&tmp_mu);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Notes the first n bytes of a working file's name p ("DIR/kanon") as
 * a prefix of the working files' names (msg_working). */
static void
tmp_note_prefix(const char *p, size_t n)
{
	size_t i;

	pthread_mutex_lock(&prefix_mu);
	for (i = 0; i < tmp_nprefix; i++)
		if (strlen(tmp_prefix[i]) == n &&
		    memcmp(tmp_prefix[i], p, n) == 0)
			break;
	if (i == tmp_nprefix && i < TMP_PREFIXES) {
		tmp_prefix[i] = kn_strndup(p, n);
		__atomic_store_n(&tmp_nprefix, i + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&prefix_mu);
}

static int
mktemp_in(const char *dir, const char *base, char **path, int unlinked)
{
	size_t n = strlen(dir) + strlen(base) + 32;
	char *p = kn_alloc(n);
	sigset_t all, old;
	int fd;

	snprintf(p, n, "%s/%s.XXXXXX", dir, base);
	tmp_note_prefix(p, strlen(dir) + 1 + strlen(base));
	/* No signal may strike between creating and registering, or
	 * unlinking at once (unlinked: no registry is needed, and a
	 * SIGKILL, which nothing holds off, finds the name gone but for
	 * the two calls, or with O_TMPFILE never made). */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	/* Nor may another thread, dying, clean up between the two
	 * (kn_die_exit holds tmp_mu). */
	pthread_mutex_lock(&tmp_mu);
	__atomic_add_fetch(&tmp_creating, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&tmp_dying, __ATOMIC_SEQ_CST)) {
		/* A handler on another thread is removing the files and
		 * ending the process: no file more, and no return. */
		__atomic_sub_fetch(&tmp_creating, 1, __ATOMIC_SEQ_CST);
		for (;;)
			pause();
	}
	fd = -1;
#if defined(__linux__) && defined(__O_TMPFILE)
	/* A file without a name, where the system makes them (Linux's
	 * O_TMPFILE): not even a SIGKILL between two calls leaves it. */
	if (unlinked && (fd = open(dir, __O_TMPFILE | O_RDWR, 0600)) >= 0)
		snprintf(p, n, "%s/%s (unnamed)", dir, base);
#endif
	if (fd < 0) {
		fd = mkstemp(p);
		if (fd >= 0 && unlinked)
			unlink(p);
		else if (fd >= 0)
			tmp_add(p);
	}
	__atomic_sub_fetch(&tmp_creating, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&tmp_mu);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		int e = errno;

		free(p);
		errno = e;
		return -1;
	}
	*path = p;
	return fd;
}

/* Takes the descriptors the hard limit allows, once: the sorts' merges
 * and Rothko's nodes hold a file each, and a low soft limit (ulimit
 * -Sn) would end them where the hard one lets them run. */
static void
tmp_nofile(void)
{
	static int done;
	struct rlimit rl;

	if (__atomic_exchange_n(&done, 1, __ATOMIC_SEQ_CST))
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* Dies for a working file not made in dir: out of descriptors, vmsg
 * says to raise ulimit -n or give a larger -S (fewer files at once). */
static void __attribute__((noreturn))
tmp_fail(const char *dir)
{
	tmp_failed = 1;
	kn_die_sys("cannot create a temp file in %s", dir);
}

int
kn_mktemp(const char *dir, char **path)
{
	int fd;

	tmp_nofile();
	fd = mktemp_in(dir, "kanon", path, 0);

	if (fd < 0)
		tmp_fail(dir);
	return fd;
}

void
kn_rmtemp(const char *path)
{
	unlink(path);
	kn_tmp_forget(path);
}

/* The temp files known by descriptor (kn_tmp_new): each name and its
 * descriptor, most recent last. */
static struct unlinked_tmp {
	char *name;
	int fd;
} *unlinked_tmps;
static size_t unlinked_tmp_n, unlinked_tmp_cap;

char *
kn_tmp_new(const char *dir)
{
	char *path, *name;
	int fd;

	tmp_nofile();
	fd = mktemp_in(dir, "kanon", &path, 1);
	if (fd < 0)
		tmp_fail(dir);
	name = path;
	unlinked_tmps = kn_grow(unlinked_tmps, &unlinked_tmp_cap,
	    unlinked_tmp_n, sizeof(*unlinked_tmps), 64);
	unlinked_tmps[unlinked_tmp_n].name = name;
	unlinked_tmps[unlinked_tmp_n++].fd = fd;
	return name;
}

/* The index of temp file name; dies if there is none. */
static size_t
unlinked_tmp_find(const char *name)
{
	size_t i;

	for (i = unlinked_tmp_n; i-- > 0;)
		if (unlinked_tmps[i].name == name)
			return i;
	kn_die("internal error: no temp file %s", name);
}

FILE *
kn_tmp_open(const char *name, const char *mode)
{
	int fd = dup(unlinked_tmps[unlinked_tmp_find(name)].fd);
	FILE *f;

	if (fd < 0)
		return NULL;
	if (lseek(fd, 0, mode[0] == 'r' ? SEEK_SET : SEEK_END) < 0 ||
	    (f = fdopen(fd, mode)) == NULL) {
		int e = errno;

		close(fd);
		errno = e;
		return NULL;
	}
	return f;
}

char *
kn_vbuf(FILE *f)
{
	char *b = kn_alloc(KN_VBUF);

	if (setvbuf(f, b, _IOFBF, KN_VBUF) != 0)
		kn_die("internal error: setvbuf");
	return b;
}

void
kn_tmp_close(char *name)
{
	size_t i = unlinked_tmp_find(name);

	close(unlinked_tmps[i].fd);
	unlinked_tmps[i] = unlinked_tmps[--unlinked_tmp_n];
	free(name);
}

/* ---- numbers written, and bytes to a descriptor ------------------ */

size_t
kn_fmt_u128(char *buf, unsigned __int128 v)
{
	size_t n;

	if (v < 10)
		return kn_dec_format((kn_i128)v, 0, buf);
	/* The tens, then the last digit: v / 10 is below 2^127. */
	n = kn_dec_format((kn_i128)(v / 10), 0, buf);
	buf[n] = (char)('0' + (int)(v % 10));
	buf[n + 1] = '\0';
	return n + 1;
}

void
kn_fmt_size(char *buf, size_t n, size_t v)
{
	if (v != 0 && v % ((size_t)1 << 30) == 0)
		snprintf(buf, n, "%lluG", (unsigned long long)(v >> 30));
	else if (v != 0 && v % ((size_t)1 << 20) == 0)
		snprintf(buf, n, "%lluM", (unsigned long long)(v >> 20));
	else if (v != 0 && v % 1024 == 0)
		snprintf(buf, n, "%lluK", (unsigned long long)(v >> 10));
	else
		snprintf(buf, n, "%llub", (unsigned long long)v);
}

size_t
kn_fmt_u64(char *buf, uint64_t v)
{
	char b[24], *p = b + sizeof(b);
	size_t n;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	n = (size_t)(b + sizeof(b) - p);
	memcpy(buf, p, n);
	return n;
}

void
kn_put_u64(FILE *f, uint64_t v)
{
	char b[24];

	fwrite(b, 1, kn_fmt_u64(b, v), f);
}

int
kn_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	ssize_t w;

	while (n > 0) {
		w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int
kn_pwrite_all(int fd, const void *buf, size_t n, uint64_t off)
{
	const char *p = buf;
	ssize_t w;

	while (n > 0) {
		w = pwrite(fd, p, n, (off_t)off);
		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			if (w == 0)
				errno = EIO;
			return -1;
		}
		p += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

/* ---- exact decimals ------------------------------------------------ */

kn_i128
kn_pow10(int e)
{
	kn_i128 v = 1;

	if (e > 38)
		kn_die("internal error: 10^%d does not fit 128 bits", e);
	while (e-- > 0)
		v *= 10;
	return v;
}

int
kn_dec_cmp(kn_i128 a, int as, kn_i128 b, int bs)
{
	kn_i128 t;

	if (as < bs)
		return -kn_dec_cmp(b, bs, a, as);
	/* b at the scale of a; past 128 bits it is beyond any a. */
	if (as - bs > 38 || __builtin_mul_overflow(b, kn_pow10(as - bs), &t))
		return b < 0 ? 1 : -1;
	return a < t ? -1 : a > t;
}

/* kn_dec_parse, or with wide (kn_sum_parse) any number of significant
 * digits whose value fits 127 bits: a sum of squares of numbers of 18
 * digits takes up to 39, which a frequency set writes and reads. */
static int
dec_parse(const char *s, size_t n, kn_i128 *mant, int *scale, int wide)
{
	const char *p = s, *end = s + n;
	kn_i128 v = 0;
	int neg = 0, sc = 0, digits = 0, sig = 0, dot = 0;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < end; p++) {
		if (*p == '.' && !dot) {
			dot = 1;
			continue;
		}
		if (*p < '0' || *p > '9')
			return 0;
		digits++;
		if (v == 0 && *p == '0') {
			if (dot)
				sc++;
			continue;
		}
		if (++sig > 36 && !wide)
			return 0;
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (kn_i128)(*p - '0'), &v))
			return 0;
		if (dot)
			sc++;
	}
	if (digits == 0)
		return 0;
	while (sc > 0 && v % 10 == 0) {
		v /= 10;
		sc--;
	}
	if (v == 0)
		sc = 0;
	if (sc > 36)
		return 0;	/* more than 36 decimals */
	*mant = neg ? -v : v;
	*scale = sc;
	return 1;
}

int
kn_dec_parse(const char *s, size_t n, kn_i128 *mant, int *scale)
{
	return dec_parse(s, n, mant, scale, 0);
}

int
kn_sum_parse(const char *s, size_t n, kn_i128 *mant, int *scale)
{
	return dec_parse(s, n, mant, scale, 1);
}

void
kn_rows_overflow(void)
{
	kn_die("the row count overflows 64 bits: the counts add up to more "
	    "than 18446744073709551615 rows (a frequency set's count "
	    "column?)");
}

const char *
kn_dec_why(const char *s, size_t n, const char *notnum)
{
	const char *p = s, *end = s + n;
	int digits = 0, sig = 0, dot = 0;

	if (p < end && (*p == '-' || *p == '+'))
		p++;
	for (; p < end; p++) {
		if (*p == '.' && !dot)
			dot = 1;
		else if (*p < '0' || *p > '9')
			return notnum;
		else {
			digits++;
			sig += sig > 0 || *p != '0';
		}
	}
	if (digits == 0)
		return notnum;
	if (sig > 36)
		return "has more than 36 significant digits, the most a "
		    "number may have (kanon(7), Numbers)";
	return "has more than 36 decimal places, the most a number may "
	    "have (kanon(7), Numbers)";
}

size_t
kn_dec_format(kn_i128 v, int scale, char *buf)
{
	char d[48], *p = d + sizeof(d);
	unsigned __int128 u;
	size_t nd, len = 0, i;

	while (scale > 0 && v % 10 == 0) {
		v /= 10;
		scale--;
	}
	if (v < 0) {
		buf[len++] = '-';
		u = (unsigned __int128)0 - (unsigned __int128)v;
	} else
		u = (unsigned __int128)v;
	do {
		uint64_t lo;

		if (u >> 64 == 0) {
			lo = (uint64_t)u;
			do {
				*--p = (char)('0' + lo % 10);
				lo /= 10;
			} while (lo != 0);
			break;
		}
		*--p = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u != 0);
	nd = (size_t)(d + sizeof(d) - p);
	if ((size_t)scale >= nd) {
		buf[len++] = '0';
		buf[len++] = '.';
		for (i = nd; i < (size_t)scale; i++)
			buf[len++] = '0';
		memcpy(buf + len, p, nd);
		len += nd;
	} else {
		memcpy(buf + len, p, nd - (size_t)scale);
		len += nd - (size_t)scale;
		if (scale > 0) {
			buf[len++] = '.';
			memcpy(buf + len, p + nd - scale, (size_t)scale);
			len += (size_t)scale;
		}
	}
	buf[len] = '\0';
	return len;
}

int
kn_dec_add_ok(kn_i128 *v, int *vs, kn_i128 a, int as)
{
	kn_i128 w = *v;
	int ws = *vs;

	if (as > ws) {
		if (as > 38 || __builtin_mul_overflow(w, kn_pow10(as - ws), &w))
			return 0;
		ws = as;
	}
	if (__builtin_mul_overflow(a, kn_pow10(ws - as), &a) ||
	    __builtin_add_overflow(w, a, &w))
		return 0;
	*v = w;
	*vs = ws;
	return 1;
}

int
kn_dec_mean(kn_i128 sum, int ssc, uint64_t n, int D, kn_i128 *q)
{
	kn_i128 t, den = (kn_i128)n;

	if (D >= ssc) {
		if (D - ssc > 38 ||
		    __builtin_mul_overflow(sum, kn_pow10(D - ssc), &t) ||
		    __builtin_mul_overflow(t, (kn_i128)2, &t))
			return 0;
	} else if (ssc - D > 38 ||
	    __builtin_mul_overflow(sum, (kn_i128)2, &t) ||
	    __builtin_mul_overflow(den, kn_pow10(ssc - D), &den))
		return 0;
	/* Twice the mean, cut toward zero, then halved away from it. */
	t /= den;
	*q = t >= 0 ? (t + 1) / 2 : (t - 1) / 2;
	return 1;
}

void
kn_dec_add(kn_i128 *v, int *vs, kn_i128 a, int as)
{
	if (!kn_dec_add_ok(v, vs, a, as))
		kn_die("a sum overflows 128 bits");
}

/* ---- big unsigned integers ------------------------------------------ */

#define NLIMB 32

void
kn_big_set(kn_big *x, unsigned __int128 v)
{
	int i;

	memset(x, 0, sizeof(*x));
	for (i = 0; i < 4; i++) {
		x->d[i] = (uint32_t)v;
		v >>= 32;
	}
}

void
kn_big_mul(kn_big *x, const kn_big *y)
{
	uint64_t r[2 * NLIMB] = { 0 }, carry;
	int i, j;

	for (i = 0; i < NLIMB; i++) {
		if (x->d[i] == 0)
			continue;
		carry = 0;
		for (j = 0; j < NLIMB; j++) {
			uint64_t t = (uint64_t)x->d[i] * y->d[j] +
			    (r[i + j] & 0xffffffff) + carry;

			r[i + j] = t & 0xffffffff;
			carry = t >> 32;
		}
		for (j = i + NLIMB; carry != 0; j++) {
			uint64_t t = r[j] + carry;

			r[j] = t & 0xffffffff;
			carry = t >> 32;
		}
	}
	for (i = NLIMB; i < 2 * NLIMB; i++)
		if (r[i] != 0)
			kn_die("number too large for exact arithmetic");
	for (i = 0; i < NLIMB; i++)
		x->d[i] = (uint32_t)r[i];
}

void
kn_big_pow10(kn_big *x, int e)
{
	kn_big ten;

	kn_big_set(&ten, 10);
	while (e-- > 0)
		kn_big_mul(x, &ten);
}

void
kn_big_sub(kn_big *x, const kn_big *y)
{
	int64_t borrow = 0;
	int i;

	for (i = 0; i < NLIMB; i++) {
		int64_t t = (int64_t)x->d[i] - y->d[i] - borrow;

		borrow = t < 0;
		x->d[i] = (uint32_t)(t + (borrow ? ((int64_t)1 << 32) : 0));
	}
}

int
kn_big_cmp(const kn_big *x, const kn_big *y)
{
	int i;

	for (i = NLIMB; i-- > 0;)
		if (x->d[i] != y->d[i])
			return x->d[i] < y->d[i] ? -1 : 1;
	return 0;
}

long double
kn_big_ld(const kn_big *x)
{
	long double v = 0;
	int i;

	for (i = NLIMB; i-- > 0;)
		v = v * 4294967296.0L + x->d[i];
	return v;
}

/* Four rows to a store of each extent: one store a row would have the
 * next row's compares wait on it. */
void
kn_ext_rows(uint32_t *e, const uint32_t *r, size_t n, size_t w, size_t nq)
{
	size_t i, q;

	for (i = 0; i + 4 <= n; i += 4, r += 4 * w)
		for (q = 0; q < nq; q++) {
			uint32_t a = r[q], b = r[w + q], c = r[2 * w + q],
			    d = r[3 * w + q], lo, hi, t;

			lo = a < b ? a : b;
			hi = a < b ? b : a;
			t = c < d ? c : d;
			lo = t < lo ? t : lo;
			t = c < d ? d : c;
			hi = t > hi ? t : hi;
			e[q] = lo < e[q] ? lo : e[q];
			e[nq + q] = hi > e[nq + q] ? hi : e[nq + q];
		}
	for (; i < n; i++, r += w)
		for (q = 0; q < nq; q++) {
			e[q] = r[q] < e[q] ? r[q] : e[q];
			e[nq + q] = r[q] > e[nq + q] ? r[q] : e[nq + q];
		}
}
