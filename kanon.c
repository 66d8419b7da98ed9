/*
 * kanon.c: the bottom layer of the core (see kanon.h): errors and exit
 * with temp file cleanup, memory, option values, temp files and atomic
 * output, exact decimals and big integers.  It uses nothing but the C
 * library.
 */
/* madvise and MADV_HUGEPAGE (kn_huge_pages), beside POSIX. */
#define _DEFAULT_SOURCE 1

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>

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

/* Removes every registered temp file; safe in a signal handler. */
static void
cleanup(void)
{
	sig_atomic_t i;

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
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The standard descriptors the caller closed, held on /dev/null. */
static int std_closed[3];

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
	 * holds. */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
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
			std_closed[i] = 1;
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

void
kn_die_lock(void)
{
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
	const uintptr_t H = (uintptr_t)2 << 20;
	uintptr_t a = ((uintptr_t)p + H - 1) & ~(H - 1);
	uintptr_t e = ((uintptr_t)p + n) & ~(H - 1);

	if (e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

void *
kn_alloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		kn_die("out of memory (%zu bytes)", n);
	return p;
}

void *
kn_zalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (p == NULL)
		kn_die("out of memory (%zu bytes)", n);
	return p;
}

void *
kn_realloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		kn_die("out of memory (%zu bytes)", n);
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
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	size_t b = (size_t)1 << 30;

	if (pages > 0 && psz > 0)
		b = (size_t)pages / 4 * (size_t)psz;
	if (b > ((size_t)4 << 30))
		b = (size_t)4 << 30;
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

static void
tmp_register(char *path)
{
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_mutex_lock(&tmp_mu);
	tmp_add(path);
	pthread_mutex_unlock(&tmp_mu);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Forgets a registered path (it was renamed or removed). */
static void
tmp_forget(const char *path)
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

int
kn_mktemp(const char *dir, char **path)
{
	int fd;

	tmp_nofile();
	fd = mktemp_in(dir, "kanon", path, 0);

	if (fd < 0)
		kn_die_sys("cannot create a temp file in %s", dir);
	return fd;
}

void
kn_rmtemp(const char *path)
{
	unlink(path);
	tmp_forget(path);
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
	if (fd < 0 && errno == EMFILE)
		kn_die("cannot create a temp file in %s: too many files open "
		    "(raise ulimit -n, or give a larger -S)", dir);
	if (fd < 0)
		kn_die_sys("cannot create a temp file in %s", dir);
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

void
kn_tmp_close(char *name)
{
	size_t i = unlinked_tmp_find(name);

	close(unlinked_tmps[i].fd);
	unlinked_tmps[i] = unlinked_tmps[--unlinked_tmp_n];
	free(name);
}

/* ---- output files (kanon(7), OUTPUT FILES) ------------------------ */

/* A file, as the system knows it: what a link or a second name of it
 * leads to as well. */
struct fileid {
	dev_t dev;
	ino_t ino;
};

/* The regular files the run reads (kn_note_input), which no output may
 * replace: their names for messages (NULL: the standard input). */
static struct infile {
	struct fileid id;
	char *name;
} *in_files;
static size_t in_n, in_cap;

/* An open output: a temp file that kn_close_out renames over base in
 * the directory dirfd, or a file written directly (tmp NULL): the
 * standard output, a descriptor named /dev/fd/N, a device, a FIFO. */
struct outfile {
	FILE *f;
	char *dst;		/* the name the user gave, for messages */
	char *tmp;		/* the temp file's path, registered */
	const char *tmpname;	/* its last name, in tmp */
	char *base;		/* the target's name in dirfd */
	int dirfd;
	int isreg;		/* the target is the regular file id */
	struct fileid id;
	struct fileid dirid;	/* dirfd's */
	struct fileid *allow;	/* inputs it may replace: the table's */
	size_t nallow;
	/* written directly (standard output, /dev/fd/N, a FIFO): the
	 * file, FIFO or socket its bytes go to, which no other output's
	 * may (a terminal or /dev/null may take several) */
	int direct;
	struct fileid wid;
	struct outfile *next;
};
static struct outfile *outs;

static int
same_id(const struct fileid *a, const struct fileid *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}

/* Dies if the output o is the input in (written while it is read), or
 * would replace it (unless it is the table that o may replace). */
static void
out_clash(const struct outfile *o, const struct infile *in)
{
	const char *iname = in->name != NULL ? in->name : "stdin";
	size_t i;

	if (!o->isreg || !same_id(&o->id, &in->id))
		return;
	if (o->tmp == NULL) {
		/* What the output holds may not be flushed into the input
		 * on the way out: it goes to /dev/null. */
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0)
			dup2(fd, fileno(o->f));
		kn_die("%s: input file is output file (%s)", iname, o->dst);
	}
	for (i = 0; i < o->nallow; i++)
		if (same_id(&o->allow[i], &in->id))
			return;
	kn_die("%s: output file is input file (%s)", o->dst, iname);
}

/* The pipes the run reads (kn_note_input), each with what read it: a
 * pipe read a second time would give nothing, its data taken by the
 * first reading (--columns-file - with the table on stdin). */
static struct pipein {
	struct fileid id;
	char *name;
} *pipes;
static size_t pipe_n, pipe_cap;
static char *stdin_by;		/* what read descriptor 0 */

const char *kn_input_role;

/* Dies for the pipe name read and written as the output shown: the run
 * would wait for its own bytes. */
static void __attribute__((noreturn))
pipe_clash(const char *name, const char *shown)
{
	kn_die("%s: output file is input file (%s): a pipe the run both "
	    "reads and writes would wait on itself", shown, name);
}

/* Dies if id, an output written directly, is a pipe read so far. */
static void
pipe_out(const struct fileid *id, const char *shown)
{
	size_t i;

	for (i = 0; i < pipe_n; i++)
		if (same_id(&pipes[i].id, id))
			pipe_clash(pipes[i].name, shown);
}

void
kn_note_input(int fd, const char *name)
{
	struct outfile *o;
	struct infile in;
	struct stat st;
	size_t i;

	if (fstat(fd, &st) != 0)
		return;
	/* Descriptor 0 is read from where the last reading left it, a
	 * file's end too: a second reading of it found nothing (a spool
	 * put there for a second pass starts at 0, a pipe is below). */
	if (fd == 0 && stdin_by != NULL && S_ISREG(st.st_mode) &&
	    lseek(0, 0, SEEK_CUR) > 0)
		kn_die("stdin: read already (as %s): give one of them a file "
		    "of its own", stdin_by);
	if (fd == 0 && stdin_by == NULL)
		stdin_by = kn_strdup(kn_input_role != NULL ? kn_input_role :
		    "stdin");
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		struct fileid id = { st.st_dev, st.st_ino };
		const char *nm = name != NULL ? name : "stdin";

		for (i = 0; i < pipe_n; i++)
			if (same_id(&pipes[i].id, &id))
				kn_die("%s: a pipe read already (as %s), "
				    "which gives its data once: give one of "
				    "them a file of its own", nm,
				    pipes[i].name);
		for (o = outs; o != NULL; o = o->next)
			if (o->direct && same_id(&o->wid, &id))
				pipe_clash(nm, o->dst);
		pipes = kn_grow(pipes, &pipe_cap, pipe_n, sizeof(*pipes), 4);
		pipes[pipe_n].id = id;
		pipes[pipe_n++].name = kn_input_role != NULL ?
		    kn_strdup(kn_input_role) : kn_strdup(nm);
		return;
	}
	if (!S_ISREG(st.st_mode))
		return;
	in.id.dev = st.st_dev;
	in.id.ino = st.st_ino;
	for (i = 0; i < in_n; i++)
		if (same_id(&in_files[i].id, &in.id))
			return;	/* read before (the second pass) */
	in.name = name != NULL ? kn_strdup(name) : NULL;
	for (o = outs; o != NULL; o = o->next)
		out_clash(o, &in);
	in_files = kn_grow(in_files, &in_cap, in_n, sizeof(*in_files), 8);
	in_files[in_n++] = in;
}

void
kn_forget_inputs(void)
{
	size_t i;

	for (i = 0; i < in_n; i++)
		free(in_files[i].name);
	free(in_files);
	in_files = NULL;
	in_n = in_cap = 0;
	for (i = 0; i < pipe_n; i++)
		free(pipes[i].name);
	free(pipes);
	pipes = NULL;
	pipe_n = pipe_cap = 0;
	free(stdin_by);
	stdin_by = NULL;
}

/* Takes o, open on f, as an output; dies if it clashes with an input
 * read so far. */
static FILE *
out_add(struct outfile *o, FILE *f)
{
	size_t i;

	o->f = f;
	for (i = 0; i < in_n; i++)
		out_clash(o, &in_files[i]);
	setvbuf(f, NULL, _IOFBF, 1 << 16);
	o->next = outs;
	outs = o;
	return f;
}

/* Dies if an output opened before writes the file id directly or, with
 * renamed, through a temp file renamed over it (score --report
 * /dev/stdout, its table on the standard output): their bytes would
 * mix, or one replace the other.  Output shown is the one opened. */
static void
out_shared(const struct fileid *id, int renamed, const char *shown)
{
	const struct outfile *q;

	for (q = outs; q != NULL; q = q->next)
		if ((q->direct && same_id(&q->wid, id)) || (renamed &&
		    q->isreg && q->tmp != NULL && same_id(&q->id, id)))
			kn_die("%s: the file of another output too (%s): "
			    "their bytes would mix, or one replace the "
			    "other", shown, q->dst);
}

/* Sets o's id from the descriptor fd when it is a regular file, and
 * what it writes to directly, which no other output may write
 * (out_shared). */
static void
out_id(struct outfile *o, int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return;
	if (S_ISREG(st.st_mode)) {
		o->isreg = 1;
		o->id.dev = st.st_dev;
		o->id.ino = st.st_ino;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) &&
	    !S_ISSOCK(st.st_mode))
		return;
	o->direct = 1;
	o->wid.dev = st.st_dev;
	o->wid.ino = st.st_ino;
	out_shared(&o->wid, 1, o->dst);
	pipe_out(&o->wid, o->dst);
}

/* An output written directly to the descriptor fd. */
static FILE *
out_direct(const char *shown, int fd)
{
	struct outfile *o = kn_zalloc(sizeof(*o));
	FILE *f;

	o->dst = kn_strdup(shown);
	o->dirfd = -1;
	out_id(o, fd);
	if ((f = fdopen(fd, "w")) == NULL)
		kn_die_sys("%s", shown);
	return out_add(o, f);
}

/* The descriptor that path names (/dev/stdin, /dev/stdout, /dev/stderr,
 * /dev/fd/N, /proc/self/fd/N), or -1.  Such an output is written
 * through a copy of the descriptor, as the shell writes it: opening the
 * name again would truncate a file opened for appending, or an input. */
static int
fd_name(const char *path)
{
	static const char *const std[] = {
		"/dev/stdin", "/dev/stdout", "/dev/stderr"
	};
	char self[48];
	const char *p = NULL;
	int i, n = 0;

	for (i = 0; i < 3; i++)
		if (strcmp(path, std[i]) == 0)
			return i;
	snprintf(self, sizeof(self), "/proc/%ld/fd/", (long)getpid());
	if (strncmp(path, "/dev/fd/", 8) == 0)
		p = path + 8;
	else if (strncmp(path, "/proc/self/fd/", 14) == 0)
		p = path + 14;
	else if (strncmp(path, self, strlen(self)) == 0)
		p = path + strlen(self);
	if (p == NULL || *p == '\0')
		return -1;
	for (; *p >= '0' && *p <= '9' && n < 1000000; p++)
		n = n * 10 + (*p - '0');
	return *p == '\0' ? n : -1;
}

/* dir/name, or name when dir is empty (the current directory). */
static char *
path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = kn_alloc(n);

	snprintf(p, n, "%s%s%s", dir, *dir == '\0' ||
	    dir[strlen(dir) - 1] == '/' ? "" : "/", name);
	return p;
}

/* Where the output path leads: the last name, returned, in the
 * directory open on *dirfd, whose path is *dir.  Symbolic links are
 * followed as open(2) follows them, but not one in a sticky
 * world-writable directory (/tmp) owned by neither us nor the
 * directory's owner: the rule of Linux's fs.protected_symlinks, which
 * the kernel applies only where it is set.  The directories are opened
 * one by one without following links, so that none can turn into a
 * link after it is checked.  Returns NULL, with the rest of the path in
 * *proc, when a link leads into /proc, to a name of an open file. */
static char *
out_walk(const char *shown, const char *path, int *dirfd, char **dir,
    char **proc)
{
	char *rest = kn_strdup(path), *p = rest, *comp, *cur, *t, *name;
	char buf[4096];
	struct stat st, ds;
	int dfd, nfd, hops = 0;
	ssize_t n;

	cur = kn_strdup(*p == '/' ? "/" : "");
	if ((dfd = open(*p == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0)
		kn_die_sys("%s: cannot create output", shown);
	for (;;) {
		while (*p == '/')
			p++;
		if (*p == '\0') {
			name = kn_strdup(".");	/* a directory */
			break;
		}
		comp = p;
		p += strcspn(p, "/");
		if (*p == '\0') {
			/* The last name: the file, or a link to it. */
			if (fstatat(dfd, comp, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
			    !S_ISLNK(st.st_mode)) {
				name = kn_strdup(comp);
				break;
			}
		} else
			*p++ = '\0';
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") != 0 &&
		    fstatat(dfd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode)) {
			if (fstat(dfd, &ds) != 0)
				kn_die_sys("%s", shown);
			if ((ds.st_mode & (S_ISVTX | S_IWOTH)) ==
			    (S_ISVTX | S_IWOTH) && st.st_uid != geteuid() &&
			    st.st_uid != ds.st_uid) {
				t = path_join(cur, comp);
				kn_die("%s%s%s: a symbolic link in a sticky "
				    "world-writable directory, owned by "
				    "neither you nor the directory's owner: "
				    "not followed", strcmp(t, shown) == 0 ? "" :
				    shown, strcmp(t, shown) == 0 ? "" : ": ",
				    t);
			}
			/* Nor another user's anywhere: its owner may point
			 * it at any file (root's job writing through a
			 * user's link). */
			if (st.st_uid != geteuid() && st.st_uid != 0) {
				t = path_join(cur, comp);
				kn_die("%s%s%s: a symbolic link owned by another "
				    "user (uid %lu), neither you nor root: not "
				    "followed: give the path it leads to",
				    strcmp(t, shown) == 0 ? "" : shown,
				    strcmp(t, shown) == 0 ? "" : ": ", t,
				    (unsigned long)st.st_uid);
			}
			if (++hops > 40)
				kn_die("%s: too many levels of symbolic links",
				    shown);
			if ((n = readlinkat(dfd, comp, buf, sizeof(buf) - 1)) <
			    0)
				kn_die_sys("%s", shown);
			buf[n] = '\0';
			t = kn_alloc((size_t)n + strlen(p) + 2);
			sprintf(t, "%s%s%s", buf, *p != '\0' ? "/" : "", p);
			free(rest);
			rest = p = t;
			if (*p != '/')
				continue;
			close(dfd);
			free(cur);
			if (strncmp(p, "/proc/", 6) == 0) {
				*proc = rest;
				return NULL;
			}
			cur = kn_strdup("/");
			if ((dfd = open("/", O_RDONLY | O_DIRECTORY |
			    O_CLOEXEC)) < 0)
				kn_die_sys("%s: cannot create output", shown);
			continue;
		}
		if ((nfd = openat(dfd, comp, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC)) < 0)
			kn_die_sys("%s: cannot create output", shown);
		close(dfd);
		dfd = nfd;
		t = path_join(cur, comp);
		free(cur);
		cur = t;
	}
	free(rest);
	*dirfd = dfd;
	*dir = cur;
	return name;
}

/* Creates the temp file of o, .base.XXXXXX beside the target, with
 * O_EXCL and mode 0600 (so never through a link), and registers it. */
static int
out_mktemp(struct outfile *o, const char *dir)
{
	static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789";
	static uint64_t seed;
	char *p = path_join(dir, "");
	size_t dlen = strlen(p), len;
	sigset_t all, old;
	uint64_t x;
	int fd = -1, tries, i, e = EEXIST;

	o->tmp = kn_realloc(p, dlen + strlen(o->base) + 9);
	o->tmpname = o->tmp + dlen;
	if (seed == 0)
		seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32 ^
		    (uint64_t)(uintptr_t)o->tmp;
	for (tries = 0; tries < 100 && fd < 0 && e == EEXIST; tries++) {
		/* ".base.XXXXXX", the base cut so that it is a name the
		 * system takes (of 255 bytes at most, as the target). */
		len = dlen + (size_t)sprintf(o->tmp + dlen, ".%.*s.",
		    (int)(strlen(o->base) > 255 - 8 ? 255 - 8 :
		    strlen(o->base)), o->base);
		for (x = kn_splitmix64(&seed), i = 0; i < 6; i++, x /= 62)
			o->tmp[len++] = chars[x % 62];
		o->tmp[len] = '\0';
		/* No signal may strike between creating and registering. */
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, &old);
		fd = openat(o->dirfd, o->tmpname, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0600);
		e = errno;
		if (fd >= 0)
			tmp_register(o->tmp);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	errno = e;
	return fd;
}

/* Dies if o's target, base in dirfd, is the target of another output
 * of the run (say -o and -r through a link to one name): the second
 * rename would replace the first output. */
static void
out_twice(struct outfile *o, const struct stat *ds, const char *shown)
{
	const struct outfile *q;

	o->dirid.dev = ds->st_dev;
	o->dirid.ino = ds->st_ino;
	for (q = outs; q != NULL; q = q->next)
		if (q->base != NULL && same_id(&q->dirid, &o->dirid) &&
		    strcmp(q->base, o->base) == 0)
			kn_die("%s: the file of another output too (given as "
			    "%s): one would replace the other", shown, q->dst);
}

/* Dies if the existing target st is in a sticky directory ds that
 * others may write to (/tmp) and belongs to neither us nor the
 * directory's owner: another user's file or FIFO there would take the
 * output (a file keeps its owner and mode when replaced).  The rule of
 * Linux's fs.protected_regular and fs.protected_fifos, applied whether
 * the system sets them or not. */
static void
out_owner(const struct stat *ds, const struct stat *st, const char *shown)
{
	if ((ds->st_mode & S_ISVTX) != 0 &&
	    (ds->st_mode & (S_IWGRP | S_IWOTH)) != 0 &&
	    st->st_uid != geteuid() && st->st_uid != ds->st_uid &&
	    !S_ISDIR(st->st_mode))
		kn_die("%s: a file in a sticky directory that others may "
		    "write to, owned by neither you nor the directory's "
		    "owner: not written (kanon(7), OUTPUT FILES)", shown);
}

/* Opens the output path (named shown in messages), which may replace
 * the table read from ops[0..nops) (none: stdin) if inplace is set. */
static FILE *
open_out(const char *path, const char *shown, char *const *ops,
    size_t nops, int inplace)
{
	struct outfile *o;
	struct stat st, ds;
	char *dir, *proc = NULL;
	FILE *f;
	size_t i;
	int fd;

	if (*path == '\0')
		kn_die("an output named by an empty file name: give a file, "
		    "or - for the standard output");
	if ((fd = fd_name(path)) >= 0) {
		/* A name of an open descriptor: written as it is; not one
		 * the caller closed, held on /dev/null. */
		int fl;

		if (fd < 3 && std_closed[fd])
			kn_die("%s: the standard %s is closed: nothing written "
			    "there would be kept", shown, fd == 0 ? "input" :
			    fd == 1 ? "output" : "error");
		if ((fl = fcntl(fd, F_GETFL)) >= 0 &&
		    (fl & O_ACCMODE) == O_RDONLY)
			kn_die("%s: open for reading only, not an output",
			    shown);
		if ((fd = fcntl(fd, F_DUPFD_CLOEXEC, 3)) < 0)
			kn_die_sys("%s", shown);
		return out_direct(shown, fd);
	}
	if (strncmp(path, "/proc/", 6) == 0)
		/* /proc/self/cwd/x, /proc/self/root/x: links that the
		 * checks below could not follow safely. */
		kn_die("%s%s%s: a name under /proc, not a file to write: give "
		    "the file's own path (or /dev/fd/N for a descriptor)",
		    shown, strcmp(shown, path) == 0 ? "" : ": leads to ",
		    strcmp(shown, path) == 0 ? "" : path);
	o = kn_zalloc(sizeof(*o));
	if ((o->base = out_walk(shown, path, &o->dirfd, &dir, &proc)) ==
	    NULL) {
		free(o);
		f = open_out(proc, shown, ops, nops, inplace);
		free(proc);
		return f;
	}
	if (fstat(o->dirfd, &ds) != 0)
		kn_die_sys("%s", shown);
	out_twice(o, &ds, shown);
	if (fstatat(o->dirfd, o->base, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		struct fileid id = { st.st_dev, st.st_ino };

		out_owner(&ds, &st, shown);
		/* Named outputs are compared by their names (out_twice). */
		out_shared(&id, 0, shown);
		if (!S_ISREG(st.st_mode)) {
			/* A device or a FIFO (/dev/null, a named pipe):
			 * written directly, there is nothing to replace
			 * atomically.  Not a pipe the run reads: opening it
			 * would wait for a reader, or give one that waits
			 * on itself. */
			pipe_out(&id, shown);
			for (i = 0; S_ISFIFO(st.st_mode) && inplace &&
			    i < (nops > 0 ? nops : 1); i++) {
				struct stat is;
				int std = nops == 0 || strcmp(ops[i], "-") == 0;

				if ((std ? fstat(0, &is) : stat(ops[i], &is)) ==
				    0 && is.st_dev == st.st_dev &&
				    is.st_ino == st.st_ino)
					pipe_clash(std ? "stdin" : ops[i],
					    shown);
			}
			fd = openat(o->dirfd, o->base, O_WRONLY | O_NOFOLLOW |
			    O_NOCTTY | O_CLOEXEC);
			if (fd < 0)
				kn_die_sys("%s", shown);
			close(o->dirfd);
			free(o->base);
			free(o);
			free(dir);
			return out_direct(shown, fd);
		}
		/* Replaced only where it could be written, as sort -o
		 * writes it: a file made read-only, or another user's,
		 * is kept (root may write any). */
		if (faccessat(o->dirfd, o->base, W_OK, AT_EACCESS) != 0 &&
		    errno == EACCES)
			kn_die("%s: not writable by you: not replaced "
			    "(kanon(7), OUTPUT FILES)", shown);
		o->isreg = 1;
		o->id.dev = st.st_dev;
		o->id.ino = st.st_ino;
	}
	o->dst = kn_strdup(shown);
	if (inplace) {
		/* The table's files: its operands, or stdin. */
		o->allow = kn_alloc((nops + 1) * sizeof(*o->allow));
		for (i = 0; i < (nops > 0 ? nops : 1); i++)
			if ((nops == 0 || strcmp(ops[i], "-") == 0 ?
			    fstat(0, &st) : stat(ops[i], &st)) == 0 &&
			    S_ISREG(st.st_mode)) {
				o->allow[o->nallow].dev = st.st_dev;
				o->allow[o->nallow++].ino = st.st_ino;
			}
	}
	if ((fd = out_mktemp(o, dir)) < 0)
		kn_die_sys("%s: cannot create output", shown);
	free(dir);
	if ((f = fdopen(fd, "w")) == NULL)
		kn_die_sys("%s", shown);
	return out_add(o, f);
}

/* Opens path (NULL or "-": stdout), which may replace the files of
 * ops[0..nops) if inplace is set. */
static FILE *
out_open(const char *path, char *const *ops, size_t nops, int inplace)
{
	struct outfile *o;

	if (path != NULL && strcmp(path, "-") != 0)
		return open_out(path, path, ops, nops, inplace);
	for (o = outs; o != NULL; o = o->next)
		if (o->f == stdout)
			kn_die("-: the standard output of another output too: "
			    "their bytes would mix");
	o = kn_zalloc(sizeof(*o));
	o->dst = kn_strdup("standard output");
	o->dirfd = -1;
	out_id(o, 1);
	return out_add(o, stdout);
}

FILE *
kn_open_out(const char *path)
{
	return out_open(path, NULL, 0, 0);
}

FILE *
kn_open_out_inplace(const char *path, char *const *ops, size_t nops)
{
	return out_open(path, ops, nops, 1);
}

/* Gives the temp file fd of o the owner, group and mode of the file it
 * replaces, as far as we may (a set-user-ID or set-group-ID bit goes
 * with an owner or group we cannot give), or for a new file 0666 less
 * the umask; dies if the target is an input now. */
static void
out_keep(struct outfile *o, int fd)
{
	struct stat st;
	mode_t mode;
	size_t i;

	o->isreg = 0;
	if (fstatat(o->dirfd, o->base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode)) {
		o->isreg = 1;
		o->id.dev = st.st_dev;
		o->id.ino = st.st_ino;
		for (i = 0; i < in_n; i++)
			out_clash(o, &in_files[i]);
		mode = st.st_mode & 07777;
		if (fchown(fd, st.st_uid, st.st_gid) != 0) {
			if (st.st_uid != geteuid())
				mode &= ~(mode_t)S_ISUID;
			if (fchown(fd, (uid_t)-1, st.st_gid) != 0)
				mode &= ~(mode_t)S_ISGID;
		}
	} else {
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	}
	if (fchmod(fd, mode) != 0)
		kn_die_sys("%s", o->dst);
}

void
kn_close_out(FILE *f)
{
	struct outfile **pp, *o;

	if (f == stdout) {
		if (fflush(stdout) == EOF || ferror(stdout))
			kn_die_sys("standard output: write error");
		return;
	}
	for (pp = &outs; *pp != NULL && (*pp)->f != f; pp = &(*pp)->next)
		;
	if ((o = *pp) == NULL)
		kn_die("internal error: unknown output stream");
	if (o->tmp == NULL) {
		if (fflush(f) == EOF || ferror(f) || fclose(f) == EOF)
			kn_die_sys("%s: write error", o->dst);
	} else {
		if (fflush(f) == EOF || ferror(f))
			kn_die_sys("%s: write error", o->dst);
		out_keep(o, fileno(f));
		if (fsync(fileno(f)) != 0 && errno != EINVAL)
			kn_die_sys("%s: write error", o->dst);
		if (fclose(f) != 0)
			kn_die_sys("%s: write error", o->dst);
		if (renameat(o->dirfd, o->tmpname, o->dirfd, o->base) != 0)
			kn_die_sys("%s: cannot rename into place", o->dst);
		tmp_forget(o->tmp);
		close(o->dirfd);
	}
	*pp = o->next;
	free(o->dst);
	free(o->base);
	free(o->allow);
	free(o);
}

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

/* The canonical name of path: realpath(3) of the file, or of its
 * directory when the file does not exist yet; NULL if neither works. */
static char *
canon_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir, *rd, *p, *r;

	if ((r = realpath(path, NULL)) != NULL)
		return r;
	dir = slash == NULL ? kn_strdup(".") : slash == path ?
	    kn_strdup("/") : kn_strndup(path, (size_t)(slash - path));
	rd = realpath(dir, NULL);
	free(dir);
	if (rd == NULL)
		return NULL;
	p = kn_alloc(strlen(rd) + strlen(path) + 2);
	sprintf(p, "%s/%s", rd, slash == NULL ? path : slash + 1);
	free(rd);
	return p;
}

int
kn_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ca, *cb;
	int same;

	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	ca = canon_path(a);
	cb = canon_path(b);
	same = ca != NULL && cb != NULL ? strcmp(ca, cb) == 0 :
	    strcmp(a, b) == 0;
	free(ca);
	free(cb);
	return same;
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
