/*
 * kanon.c: the bottom layer of the core (see kanon.h): errors and exit
 * with temp file cleanup, memory, option values, temp files and atomic
 * output, progress, hashing and dictionaries, exact decimals and big
 * integers, and the privacy requirements every algorithm checks:
 * suppression limits, l-diversity and variance diversity (paper 004
 * §1.1).  It uses nothing but the C library.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

void
kn_init(const char *argv0)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE };
	struct sigaction sa;
	const char *p;
	size_t i;
	int fd;

	if (argv0 != NULL && *argv0 != '\0') {
		p = strrchr(argv0, '/');
		kn_prog = p != NULL ? p + 1 : argv0;
	}
	/* A standard descriptor that the caller closed (prog <&-) would be
	 * taken by the next file opened, and stdin would read that file,
	 * stdout write into it: /dev/null holds its place, opened the other
	 * way, so that reading or writing it fails as on a closed one (and
	 * the reader of stdin tells; see tsv.c). */
	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY) != fd)
			break;
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

/* Ends the program with status after an error, the temp files removed;
 * with kn_fuzz_exit set, calls it instead, the temp files forgotten. */
void
kn_die_exit(int status)
{
	sig_atomic_t i;

	cleanup();
	if (kn_fuzz_exit != NULL) {
		for (i = 0; i < tmp_n; i++)
			free(tmp_path[i]);
		free(tmp_path);
		tmp_path = NULL;
		tmp_n = 0;
		tmp_cap = 0;
		kn_fuzz_exit(status);
	}
	_exit(status);
}

static void
vmsg(const char *fmt, va_list ap, int err)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", kn_prog);
	vfprintf(stderr, fmt, ap);
	if (err != 0)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
}

void
kn_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
	va_end(ap);
}

void
kn_die(const char *fmt, ...)
{
	va_list ap;

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

	if (err == EPIPE) {
		/* The reader went away (SIGPIPE was ignored): end as
		 * quietly as the default SIGPIPE would. */
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
		kn_die_sys("write error on standard output");
	if (fclose(stdout) == EOF)
		kn_die_sys("write error on standard output");
	cleanup();
	exit(status);
}

void
kn_version(void)
{
	printf("%s (kanon) %s\n", kn_prog, KN_VERSION);
	kn_exit(0);
}

static int prog_on, prog_shown;
static struct timespec prog_last;

void
kn_progress_init(int force)
{
	prog_on = force || isatty(2);
	clock_gettime(CLOCK_MONOTONIC, &prog_last);
}

void
kn_progress(uint64_t rows, uint64_t bytes)
{
	struct timespec now;

	if (!prog_on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec - prog_last.tv_sec < 1)
		return;
	prog_last = now;
	prog_shown = 1;
	fprintf(stderr, "\r%s: %llu rows, %llu MB read", kn_prog,
	    (unsigned long long)rows, (unsigned long long)(bytes >> 20));
}

void
kn_progress_done(void)
{
	if (prog_shown)
		fputc('\n', stderr);
	prog_shown = 0;
}

/* ---- memory -------------------------------------------------------- */

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
	if (*s == '\0' || *end != '\0' || errno == ERANGE)
		kn_die("%s: '%s' is not an integer", what, s);
	if (v < lo || v > hi)
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
	if (*s == '\0' || *end != '\0' || errno == ERANGE || !isfinite(v))
		kn_die("%s: '%s' is not a number", what, s);
	if (v < lo || v > hi)
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

const char *
kn_tmpdir(const char *opt)
{
	const char *d;

	if (opt != NULL && *opt != '\0')
		return opt;
	d = getenv("TMPDIR");
	return d != NULL && *d != '\0' ? d : "/tmp";
}

static void
tmp_register(char *path)
{
	sigset_t all, old;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if ((size_t)tmp_n == tmp_cap) {
		tmp_cap = tmp_cap ? 2 * tmp_cap : 16;
		tmp_path = realloc(tmp_path, tmp_cap * sizeof(*tmp_path));
		if (tmp_path == NULL) {
			unlink(path);
			kn_die("out of memory");
		}
	}
	tmp_path[tmp_n] = path;
	tmp_n++;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Forgets a registered path (it was renamed or removed). */
static void
tmp_forget(const char *path)
{
	sigset_t all, old;
	sig_atomic_t i;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < tmp_n; i++)
		if (tmp_path[i] != NULL && strcmp(tmp_path[i], path) == 0) {
			free(tmp_path[i]);
			tmp_path[i] = NULL;
			break;
		}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static int
mktemp_in(const char *dir, const char *base, char **path)
{
	size_t n = strlen(dir) + strlen(base) + 32;
	char *p = kn_alloc(n);
	sigset_t all, old;
	int fd;

	snprintf(p, n, "%s/%s.XXXXXX", dir, base);
	/* No signal may strike between creating and registering. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	fd = mkstemp(p);
	if (fd >= 0)
		tmp_register(p);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		int e = errno;

		free(p);
		errno = e;
		return -1;
	}
	*path = p;
	return fd;
}

int
kn_mktemp(const char *dir, char **path)
{
	int fd = mktemp_in(dir, "kanon", path);

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

struct outfile {
	FILE *f;
	char *tmp, *dst;
	struct outfile *next;
};
static struct outfile *outs;

/* The file that the symlink path leads to, followed link by link, so
 * that a link to a file not yet there names it too; caller frees. */
static char *
link_target(const char *path)
{
	char *p = kn_strdup(path), buf[4096], *q, *slash;
	struct stat st;
	ssize_t n;
	int hops;

	for (hops = 0; hops < 40 && lstat(p, &st) == 0 &&
	    S_ISLNK(st.st_mode); hops++) {
		if ((n = readlink(p, buf, sizeof(buf) - 1)) < 0)
			kn_die_sys("%s", p);
		buf[n] = '\0';
		slash = strrchr(p, '/');
		if (buf[0] == '/' || slash == NULL)
			q = kn_strdup(buf);
		else {
			q = kn_alloc((size_t)(slash - p) + (size_t)n + 2);
			memcpy(q, p, (size_t)(slash - p) + 1);
			strcpy(q + (slash - p) + 1, buf);
		}
		free(p);
		p = q;
	}
	if (hops == 40)
		kn_die("%s: too many levels of symbolic links", path);
	return p;
}

FILE *
kn_open_out(const char *path)
{
	struct outfile *o;
	char *dir, *slash;
	const char *base;
	int fd;

	struct stat st;
	char *real = NULL;

	if (path == NULL || strcmp(path, "-") == 0) {
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
		return stdout;
	}
	if ((stat(path, &st) == 0 && !S_ISREG(st.st_mode)) ||
	    strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0) {
		/* A device or FIFO (/dev/null, a named pipe), or a name
		 * for an open file (/dev/stdout): write to it directly;
		 * there is nothing to replace atomically. */
		FILE *f = fopen(path, "w");

		if (f == NULL)
			kn_die_sys("%s", path);
		o = kn_zalloc(sizeof(*o));
		o->f = f;
		o->dst = kn_strdup(path);
		o->next = outs;
		outs = o;
		setvbuf(f, NULL, _IOFBF, 1 << 16);
		return f;
	}
	/* Through a symlink: replace the file it points to, even one
	 * that does not exist yet. */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		path = real = link_target(path);
	slash = strrchr(path, '/');
	if (slash == NULL) {
		dir = kn_strdup(".");
		base = path;
	} else {
		dir = kn_strndup(path, slash == path ? 1 :
		    (size_t)(slash - path));
		base = slash + 1;
	}
	o = kn_zalloc(sizeof(*o));
	{
		size_t n = strlen(base) + 2;
		char *b = kn_alloc(n);

		snprintf(b, n, ".%s", base);
		fd = mktemp_in(dir, b, &o->tmp);
		free(b);
	}
	if (fd < 0)
		kn_die_sys("%s: cannot create output", path);
	free(dir);
	o->f = fdopen(fd, "w");
	if (o->f == NULL)
		kn_die_sys("%s", path);
	setvbuf(o->f, NULL, _IOFBF, 1 << 16);
	o->dst = kn_strdup(path);
	free(real);
	o->next = outs;
	outs = o;
	return o->f;
}

void
kn_close_out(FILE *f)
{
	struct outfile **pp, *o;
	mode_t um;

	if (f == stdout) {
		if (fflush(stdout) == EOF || ferror(stdout))
			kn_die_sys("write error on standard output");
		return;
	}
	for (pp = &outs; *pp != NULL && (*pp)->f != f; pp = &(*pp)->next)
		;
	if ((o = *pp) == NULL)
		kn_die("internal error: unknown output stream");
	if (o->tmp == NULL) {
		if (fflush(f) == EOF || ferror(f) || fclose(f) == EOF)
			kn_die_sys("%s: write error", o->dst);
		*pp = o->next;
		free(o->dst);
		free(o);
		return;
	}
	if (fflush(f) == EOF || ferror(f))
		kn_die_sys("%s: write error", o->dst);
	um = umask(0);
	umask(um);
	if (fchmod(fileno(f), 0666 & ~um) != 0)
		kn_die_sys("%s", o->dst);
	if (fsync(fileno(f)) != 0 && errno != EINVAL)
		kn_die_sys("%s: write error", o->dst);
	if (fclose(f) != 0)
		kn_die_sys("%s: write error", o->dst);
	if (rename(o->tmp, o->dst) != 0)
		kn_die_sys("%s: cannot rename into place", o->dst);
	tmp_forget(o->tmp);
	*pp = o->next;
	free(o->dst);
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

/* ---- hashing and dictionaries ------------------------------------- */

uint64_t
kn_hash(const void *v, size_t n)
{
	const unsigned char *p = v;
	uint64_t h = KN_HASH_M1 ^ (n * KN_HASH_M2), w;

	while (n >= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * KN_HASH_M1;
		h ^= h >> 32;
		p += 8;
		n -= 8;
	}
	if (n > 0) {
		w = 0;
		memcpy(&w, p, n);
		h = (h ^ w) * KN_HASH_M1;
		h ^= h >> 32;
	}
	return kn_hash_mix(h);
}

void
kn_dict_init(kn_dict *d)
{
	memset(d, 0, sizeof(*d));
	d->nslot = 16;
	d->slot = kn_zalloc(d->nslot * sizeof(uint32_t));
	d->tag = kn_zalloc(d->nslot * sizeof(uint32_t));
}

void
kn_dict_free(kn_dict *d)
{
	free(d->arena);
	free(d->off);
	free(d->lens);
	free(d->slot);
	free(d->tag);
	free(d->cache);
	memset(d, 0, sizeof(*d));
}

static void
dict_grow(kn_dict *d)
{
	size_t ns = d->nslot * 2, i, j;
	uint32_t *slot = kn_zalloc(ns * sizeof(uint32_t));
	uint32_t *tag = kn_zalloc(ns * sizeof(uint32_t));
	uint64_t h;

	for (i = 0; i < d->n; i++) {
		h = kn_hash(d->arena + d->off[i], d->lens[i]);
		for (j = h & (ns - 1); slot[j] != 0; j = (j + 1) & (ns - 1))
			;
		slot[j] = (uint32_t)i + 1;
		tag[j] = (uint32_t)(h >> 32);
	}
	free(d->slot);
	free(d->tag);
	d->slot = slot;
	d->tag = tag;
	d->nslot = ns;
}

int64_t
kn_dict_find(const kn_dict *d, const char *s, size_t n)
{
	uint64_t h = kn_hash(s, n);
	uint32_t tg = (uint32_t)(h >> 32), id;
	size_t j, mask = d->nslot - 1;

	for (j = h & mask; (id = d->slot[j]) != 0; j = (j + 1) & mask) {
		id--;
		if (d->tag[j] == tg && d->lens[id] == n &&
		    memcmp(d->arena + d->off[id], s, n) == 0)
			return id;
	}
	return -1;
}

#define DCACHE 4096

static uint32_t dict_intern(kn_dict *, const char *, size_t);

/* Interns s; values of at most 8 bytes go through a small cache first,
 * since most columns repeat a few short values. */
uint32_t
kn_dict_intern(kn_dict *d, const char *s, size_t n)
{
	return kn_dict_intern_padded(d, s, n, 0);
}

uint32_t
kn_dict_intern_padded(kn_dict *d, const char *s, size_t n, int padded)
{
	struct kn_dcache *ce = NULL;
	uint32_t id;

	if (n <= 8) {
		uint64_t w = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (padded) {
			memcpy(&w, s, 8);
			if (n < 8)
				w &= (1ULL << (8 * n)) - 1;
		} else
#endif
			memcpy(&w, s, n);
		if (d->cache == NULL)
			d->cache = kn_zalloc(DCACHE * sizeof(*d->cache));
		ce = &d->cache[((w * KN_HASH_M1) >> 52 ^ n) & (DCACHE - 1)];
		if (ce->id1 != 0 && ce->w == w && ce->len == n)
			return ce->id1 - 1;
		id = dict_intern(d, s, n);
		ce->w = w;
		ce->len = (uint32_t)n;
		ce->id1 = id + 1;
		return id;
	}
	return dict_intern(d, s, n);
}

static uint32_t
dict_intern(kn_dict *d, const char *s, size_t n)
{
	uint64_t h = kn_hash(s, n);
	uint32_t tg = (uint32_t)(h >> 32), id;
	size_t j, mask = d->nslot - 1, k;

	for (j = h & mask; (id = d->slot[j]) != 0; j = (j + 1) & mask) {
		id--;
		if (d->tag[j] == tg && d->lens[id] == n &&
		    memcmp(d->arena + d->off[id], s, n) == 0)
			return id;
	}
	if (d->n >= UINT32_MAX - 1)
		kn_die("more than %u distinct values", UINT32_MAX - 1);
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 64;
		d->off = kn_realloc(d->off, d->cap * sizeof(*d->off));
		d->lens = kn_realloc(d->lens, d->cap * sizeof(*d->lens));
	}
	if (d->alen + n + 1 > d->acap) {
		while (d->alen + n + 1 > d->acap)
			d->acap = d->acap ? 2 * d->acap : 4096;
		d->arena = kn_realloc(d->arena, d->acap);
	}
	memcpy(d->arena + d->alen, s, n);
	d->arena[d->alen + n] = '\0';
	for (k = 0; k < n; k++)
		if ((unsigned char)s[k] < '\t')
			d->lowbyte = 1;
	id = (uint32_t)d->n;
	d->off[id] = d->alen;
	d->lens[id] = (uint32_t)n;
	d->alen += n + 1;
	d->n++;
	d->slot[j] = id + 1;
	d->tag[j] = tg;
	if (2 * d->n > d->nslot)
		dict_grow(d);
	return id;
}

kn_str
kn_dict_get(const kn_dict *d, uint32_t id)
{
	kn_str s;

	s.p = d->arena + d->off[id];
	s.n = d->lens[id];
	return s;
}

static int
cmp_str(const char *a, size_t an, const char *b, size_t bn)
{
	int c = memcmp(a, b, an < bn ? an : bn);

	if (c != 0)
		return c;
	return an < bn ? -1 : an > bn;
}

static int
cmp_dictval(uint32_t a, uint32_t b, const void *ctx)
{
	const kn_dict *d = ctx;

	return cmp_str(d->arena + d->off[a], d->lens[a],
	    d->arena + d->off[b], d->lens[b]);
}

uint32_t *
kn_dict_order(const kn_dict *d)
{
	uint32_t *ids = kn_alloc((d->n + 1) * sizeof(uint32_t));
	size_t i;

	for (i = 0; i < d->n; i++)
		ids[i] = (uint32_t)i;
	kn_sort_ids(ids, d->n, cmp_dictval, d);
	return ids;
}

uint32_t *
kn_dict_ranks(const kn_dict *d)
{
	uint32_t *ids = kn_dict_order(d);
	uint32_t *rank = kn_alloc((d->n + 1) * sizeof(uint32_t));
	size_t i;

	for (i = 0; i < d->n; i++)
		rank[ids[i]] = (uint32_t)i;
	free(ids);
	return rank;
}

/* Merge sort of a[0..n) using tmp. */
static void
msort(uint32_t *a, uint32_t *tmp, size_t n,
    int (*cmp)(uint32_t, uint32_t, const void *), const void *ctx)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	msort(a, tmp, h, cmp, ctx);
	msort(a + h, tmp, n - h, cmp, ctx);
	if (cmp(a[h - 1], a[h], ctx) <= 0)
		return;
	while (i < h && j < n)
		tmp[k++] = cmp(a[j], a[i], ctx) < 0 ? a[j++] : a[i++];
	while (i < h)
		tmp[k++] = a[i++];
	memcpy(a, tmp, k * sizeof(uint32_t));
}

void
kn_sort_ids(uint32_t *a, size_t n,
    int (*cmp)(uint32_t, uint32_t, const void *), const void *ctx)
{
	uint32_t *tmp = kn_alloc((n + 1) * sizeof(uint32_t));

	msort(a, tmp, n, cmp, ctx);
	free(tmp);
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

int
kn_dec_parse(const char *s, size_t n, kn_i128 *mant, int *scale)
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
		if (++sig > 36)
			return 0;
		v = v * 10 + (*p - '0');
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

void
kn_dec_add(kn_i128 *v, int *vs, kn_i128 a, int as)
{
	if (as > *vs) {
		if (as > 38 || __builtin_mul_overflow(*v, kn_pow10(as - *vs), v))
			kn_die("a sum overflows 128 bits");
		*vs = as;
	}
	if (__builtin_mul_overflow(a, kn_pow10(*vs - as), &a) ||
	    __builtin_add_overflow(*v, a, v))
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

/* ---- l-diversity ---------------------------------------------------- */

void
kn_ldiv_init(kn_ldiv *ld)
{
	memset(ld, 0, sizeof(*ld));
	ld->kind = KN_DIV_DISTINCT;
	ld->cm = 1;
}

void
kn_ldiv_opt(kn_ldiv *ld, int opt, const char *arg)
{
	switch (opt) {
	case 'l':
		ld->on = 1;
		ld->lstr = arg;
		ld->l = kn_parse_double(arg, 1, 1e9, "-l");
		break;
	case 'c':
		ld->hasc = 1;
		if (!kn_dec_parse(arg, strlen(arg), &ld->cm, &ld->cs) ||
		    ld->cm <= 0)
			kn_die("-c: '%s' is not a positive number", arg);
		break;
	default:
		ld->hasdiv = 1;
		if (strcmp(arg, "distinct") == 0)
			ld->kind = KN_DIV_DISTINCT;
		else if (strcmp(arg, "entropy") == 0)
			ld->kind = KN_DIV_ENTROPY;
		else if (strcmp(arg, "recursive") == 0)
			ld->kind = KN_DIV_RECURSIVE;
		else
			kn_die("--diversity: '%s' is not distinct, entropy or "
			    "recursive", arg);
	}
}

void
kn_ldiv_check(const kn_ldiv *ld, int hass)
{
	if (ld->on && !hass)
		kn_die("-l needs the sensitive column (-s)");
	if ((ld->hasdiv || ld->hasc) && !ld->on)
		kn_die("--diversity and -c apply to -l");
	if (ld->hasc && ld->kind != KN_DIV_RECURSIVE)
		kn_die("-c applies to --diversity recursive");
	if (ld->on && ld->kind != KN_DIV_ENTROPY && ld->l != floor(ld->l))
		kn_die("-l: '%s': distinct and recursive diversity need an "
		    "integer", ld->lstr);
}

void
kn_req_init(kn_req *r)
{
	memset(r, 0, sizeof(*r));
	kn_ldiv_init(&r->ld);
}

int
kn_req_opt(kn_req *r, int ch, const char *arg)
{
	switch (ch) {
	case 'k':
		r->k = (uint64_t)kn_parse_int(arg, 1, INT64_MAX, "-k");
		return 1;
	case 'l':
	case 'c':
		kn_ldiv_opt(&r->ld, ch, arg);
		return 1;
	case KN_OPT_DIVERSITY:
		kn_ldiv_opt(&r->ld, 'd', arg);
		return 1;
	case KN_OPT_VARIANCE:
		if (!kn_dec_parse(arg, strlen(arg), &r->vm, &r->vs) ||
		    r->vm < 0)
			kn_die("--variance: '%s' is not a number >= 0", arg);
		r->hasv = 1;
		return 1;
	}
	return 0;
}

static int
cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

void
kn_counts_desc(uint64_t *v, size_t m)
{
	qsort(v, m, sizeof(uint64_t), cmp_desc);
}

long double
kn_entropy(const uint64_t *v, size_t m, uint64_t n)
{
	long double h = 0, p;
	size_t i;

	for (i = 0; i < m; i++) {
		p = (long double)v[i] / (long double)n;
		h -= p * logl(p);
	}
	return h;
}

static uint64_t
mulmod(uint64_t a, uint64_t b, uint64_t p)
{
	return (uint64_t)((unsigned __int128)a * b % p);
}

static uint64_t
powmod(uint64_t b, uint64_t e, uint64_t p)
{
	uint64_t r = 1 % p;

	for (b %= p; e > 0; e >>= 1) {
		if (e & 1)
			r = mulmod(r, b, p);
		b = mulmod(b, b, p);
	}
	return r;
}

/*
 * Whether H = log l exactly, l = lm / 10^ls: H = log l holds iff
 * n^n 10^(ls n) = lm^n prod c_i^c_i.  Both sides are compared modulo
 * four large primes, which tells equal integers from unequal ones but
 * for a vanishing chance.
 */
static int
entropy_equal(const uint64_t *v, size_t m, uint64_t n, kn_i128 lm, int ls)
{
	static const uint64_t prime[] = { 0xFFFFFFFFFFFFFFC5ULL,
	    0x7FFFFFFFFFFFFFE7ULL, 0x3FFFFFFFFFFFFFC7ULL,
	    0x1FFFFFFFFFFFFFFFULL };
	uint64_t p, a, b;
	size_t i, j;

	for (j = 0; j < sizeof(prime) / sizeof(prime[0]); j++) {
		p = prime[j];
		a = mulmod(powmod(n, n, p), powmod(powmod(10, (uint64_t)ls, p),
		    n, p), p);
		b = powmod((uint64_t)((unsigned __int128)lm % p), n, p);
		for (i = 0; i < m; i++)
			b = mulmod(b, powmod(v[i], v[i], p), p);
		if (a != b)
			return 0;
	}
	return 1;
}

/* Entropy l-diversity: H >= log l.  Computed in long double; when H is
 * within rounding of log l, equality is decided exactly (counts such as
 * 4,1,1,1,1 have H = log 4 exactly). */
static int
entropy_ok(const kn_ldiv *ld, const uint64_t *v, size_t m, uint64_t n)
{
	long double h, t;
	kn_i128 lm;
	int ls;

	if (m == 0)
		return 0;
	if (v[0] == v[m - 1])
		return (double)m >= ld->l;
	h = kn_entropy(v, m, n);
	t = logl((long double)ld->l);
	if (fabsl(h - t) > 1e-12L * (1 + t))
		return h >= t;
	if (ld->lstr != NULL &&
	    kn_dec_parse(ld->lstr, strlen(ld->lstr), &lm, &ls) && lm > 0 &&
	    entropy_equal(v, m, n, lm, ls))
		return 1;
	return h >= t;
}

/* Recursive (c,l)-diversity, decided exactly:
 * r1 10^cs < cm (r_l + ... + r_m). */
static int
recursive_ok(const uint64_t *v, size_t m, long l, kn_i128 cm, int cs)
{
	unsigned __int128 tail = 0;
	kn_i128 lhs, rhs;
	kn_big bl, br, t;
	size_t i;

	if (l <= 1)
		return 1;
	if (m < (size_t)l)
		return 0;
	for (i = (size_t)l - 1; i < m; i++)
		tail += v[i];
	if (tail <= (unsigned __int128)INT64_MAX &&
	    !__builtin_mul_overflow((kn_i128)v[0], kn_pow10(cs), &lhs) &&
	    !__builtin_mul_overflow(cm, (kn_i128)tail, &rhs))
		return lhs < rhs;
	kn_big_set(&bl, v[0]);
	kn_big_pow10(&bl, cs);
	kn_big_set(&br, (unsigned __int128)cm);
	kn_big_set(&t, tail);
	kn_big_mul(&br, &t);
	return kn_big_cmp(&bl, &br) < 0;
}

int
kn_ldiv_ok(const kn_ldiv *ld, const uint64_t *v, size_t m, uint64_t n)
{
	if (!ld->on)
		return 1;
	switch (ld->kind) {
	case KN_DIV_DISTINCT:
		return (double)m >= ld->l;
	case KN_DIV_ENTROPY:
		return entropy_ok(ld, v, m, n);
	default:
		return recursive_ok(v, m, (long)ld->l, ld->cm, ld->cs);
	}
}

/* ---- suppression limits -------------------------------------------- */

void
kn_limit_parse(kn_limit *l, const char *arg, const char *opt)
{
	size_t n = strlen(arg);

	memset(l, 0, sizeof(*l));
	l->pct = n > 0 && arg[n - 1] == '%';
	if (!l->pct)
		l->n = (uint64_t)kn_parse_int(arg, 0, INT64_MAX, opt);
	else if (!kn_dec_parse(arg, n - 1, &l->pm, &l->ps) || l->pm < 0 ||
	    l->pm > 100 * kn_pow10(l->ps))
		kn_die("%s: '%s' is not a percentage from 0%% to 100%%", opt,
		    arg);
}

/* The largest m with m * 100 * 10^ps <= pm * rows, by bisection in
 * 1024-bit integers: exact whatever the digits of the percentage. */
uint64_t
kn_limit_rows(const kn_limit *l, uint64_t rows)
{
	kn_big want, den, x;
	uint64_t lo = 0, hi = rows, mid;

	if (!l->pct)
		return l->n;
	kn_big_set(&want, (unsigned __int128)l->pm);
	kn_big_set(&x, rows);
	kn_big_mul(&want, &x);
	kn_big_set(&den, 100);
	kn_big_pow10(&den, l->ps);
	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		kn_big_set(&x, mid);
		kn_big_mul(&x, &den);
		if (kn_big_cmp(&x, &want) <= 0)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* ---- variance diversity (paper 004 §1.1) ------------------------- */

/* Var(E,S) >= v for a class of n rows with sums s (scale F) and ss
 * (scale 2F); v = vm/10^vs.  Decided exactly:
 * (n ss - s^2) 10^vs >= vm n^2 10^2F.  Sets *var to the variance. */
int
kn_variance_ok(uint64_t n, const kn_sum *sm, int F, kn_i128 vm, int vs,
    long double *var)
{
	kn_i128 num, a, b, lhs, rhs, n2;
	kn_big bn, bs, bt, bl, br;
	unsigned __int128 as;

	*var = 0;
	if (n == 0)
		return 1;
	n2 = (kn_i128)n * (kn_i128)n;
	if (n2 > 0 && vs <= 38 && 2 * F <= 38 &&
	    !__builtin_mul_overflow((kn_i128)n, sm->ss, &a) &&
	    !__builtin_mul_overflow(sm->s, sm->s, &b) &&
	    !__builtin_sub_overflow(a, b, &num) &&
	    !__builtin_mul_overflow(num, kn_pow10(vs), &lhs) &&
	    !__builtin_mul_overflow(vm, n2, &rhs) &&
	    !__builtin_mul_overflow(rhs, kn_pow10(2 * F), &rhs)) {
		*var = (long double)num / powl(10, 2 * F) /
		    ((long double)n * n);
		return lhs >= rhs;
	}
	/* The same in 1024-bit integers. */
	kn_big_set(&bn, n);
	kn_big_set(&bl, (unsigned __int128)sm->ss);
	kn_big_mul(&bl, &bn);			/* n ss */
	as = sm->s < 0 ? (unsigned __int128)0 - (unsigned __int128)sm->s :
	    (unsigned __int128)sm->s;
	kn_big_set(&bs, as);
	kn_big_set(&bt, as);
	kn_big_mul(&bs, &bt);			/* s^2 */
	kn_big_sub(&bl, &bs);			/* n ss - s^2 >= 0 */
	*var = kn_big_ld(&bl) / powl(10, 2 * F) / ((long double)n * n);
	kn_big_pow10(&bl, vs);
	kn_big_set(&br, (unsigned __int128)vm);
	kn_big_mul(&br, &bn);
	kn_big_mul(&br, &bn);
	kn_big_pow10(&br, 2 * F);
	return kn_big_cmp(&bl, &br) >= 0;
}
