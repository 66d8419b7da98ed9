/*
 * kanon.c: the shared core of the kanon programs (see kanon.h).
 *
 * TSV reading and column selection (the conventions of kanon(7)),
 * dictionaries, generalization hierarchies with their validation, exact
 * decimal sums, and frequency sets with roll-up: the frequency set of a
 * more general node is computed from that of a more specific one
 * (Incognito's rollup property, paper 000 §3.1; paper 004 §2 calls the
 * per-attribute frequency sets AV groups).
 */
#include <sys/stat.h>

#include <dirent.h>
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
#include "extsort.h"

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

	if (argv0 != NULL && *argv0 != '\0') {
		p = strrchr(argv0, '/');
		kn_prog = p != NULL ? p + 1 : argv0;
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

/* Ends the program with status after an error, the temp files removed;
 * with kn_fuzz_exit set, calls it instead, the temp files forgotten. */
static void __attribute__((noreturn))
die_exit(int status)
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
kn_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
	va_end(ap);
	die_exit(2);
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
	die_exit(2);
}

void
kn_exit(int status)
{
	if (kn_fuzz_exit != NULL)
		die_exit(status);
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

/* ---- reading ------------------------------------------------------- */

/* The read buffer (small in the fuzz build, to exercise its growth). */
#ifndef RBUF
#define RBUF (1 << 20)
#endif

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

void
kn_reader_open(kn_reader *r, const char *path)
{
	kn_reader_open_size(r, path, RBUF);
}

void
kn_reader_open_size(kn_reader *r, const char *path, size_t bufsz)
{
	memset(r, 0, sizeof(*r));
	if (path == NULL || strcmp(path, "-") == 0) {
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
}

void
kn_reader_close(kn_reader *r)
{
	if (r->fd > 0)
		close(r->fd);
	free(r->buf);
	r->buf = NULL;
}

/* Reads more input after the data kept in buf[beg, end). */
static void
fill(kn_reader *r)
{
	ssize_t got;

	if (r->beg > 0) {
		memmove(r->buf, r->buf + r->beg, r->end - r->beg);
		r->end -= r->beg;
		r->beg = 0;
	}
	if (r->end == r->cap) {
		r->cap *= 2;
		r->buf = kn_realloc(r->buf, r->cap + 16);
	}
	do
		got = read(r->fd, r->buf + r->end, r->cap - r->end);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		kn_die_sys("%s: read error", r->name);
	if (got == 0)
		r->eof = 1;
	r->end += (size_t)got;
}

/* Reads the next line without looking for NUL bytes. */
static int
getline_raw(kn_reader *r)
{
	char *nl;
	size_t scanned = 0;

	for (;;) {
		nl = memchr(r->buf + r->beg + scanned, '\n',
		    r->end - r->beg - scanned);
		if (nl != NULL)
			break;
		if (r->eof) {
			if (r->end == r->beg)
				return 0;
			nl = r->buf + r->end;	/* last line, no newline */
			break;
		}
		scanned = r->end - r->beg;
		fill(r);
	}
	r->line = r->buf + r->beg;
	r->len = (size_t)(nl - r->line);
	r->bytes += r->len + (nl < r->buf + r->end);
	r->beg += r->len + (nl < r->buf + r->end);
	if (r->len > 0 && r->line[r->len - 1] == '\r' && !r->keepcr)
		r->len--;
	r->line[r->len] = '\0';
	r->lineno++;
	return 1;
}

/* Dies naming the field of the current line that holds a NUL. */
static void __attribute__((noreturn))
nul_error(const kn_reader *r)
{
	const char *p, *z = memchr(r->line, '\0', r->len);
	size_t col = 1;

	for (p = r->line; p < z; p++)
		col += *p == '\t';
	kn_die("%s:%llu: field %zu: NUL byte in input", r->name,
	    (unsigned long long)r->lineno, col);
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

/* Splits line into at most max fields; returns the number of fields. */
static size_t
split(char *line, size_t len, kn_str *f, size_t max)
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
#define HASZERO(v) (((v) - ONES) & ~(v) & HIGHS)

/* Like split, and also finds NUL bytes (*nul).  On little-endian
 * machines eight bytes at a time: the zero-byte test flags every tab or
 * NUL and possibly bytes after one, so each candidate is checked. */
static size_t
split_fast(char *line, size_t len, kn_str *f, size_t max, int *nul)
{
	size_t i = 0, start = 0, n = 0, pos;

	*nul = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; i + 8 <= len; i += 8) {
		uint64_t w, m;

		memcpy(&w, line + i, 8);
		m = HASZERO(w ^ (ONES * '\t')) | HASZERO(w);
		while (m != 0) {
			pos = i + (size_t)__builtin_ctzll(m) / 8;
			m &= m - 1;
			if (line[pos] == '\t') {
				if (n < max) {
					f[n].p = line + start;
					f[n].n = pos - start;
				}
				n++;
				start = pos + 1;
			} else if (line[pos] == '\0') {
				*nul = 1;
				return n + 1;
			}
		}
	}
#endif
	for (; i < len; i++) {
		if (line[i] == '\t') {
			if (n < max) {
				f[n].p = line + start;
				f[n].n = i - start;
			}
			n++;
			start = i + 1;
		} else if (line[i] == '\0') {
			*nul = 1;
			return n + 1;
		}
	}
	if (n < max) {
		f[n].p = line + start;
		f[n].n = len - start;
	}
	return n + 1;
}

/* Sets the column names from a comma list or a header line. */
static void
set_names(kn_table *t, const char *s, size_t len, int sep, const char *where)
{
	const char *p = s, *end = s + len, *q;
	size_t i, j, cap = 8;

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
	for (i = 0; i < t->ncols; i++) {
		if (t->names[i][0] == '\0')
			kn_die("%s: column %zu has an empty name", where, i + 1);
		for (j = 0; j < i; j++)
			if (strcmp(t->names[i], t->names[j]) == 0)
				kn_die("%s: column name '%s' appears twice "
				    "(columns %zu and %zu)", where,
				    t->names[i], j + 1, i + 1);
	}
	t->f = kn_alloc(t->ncols * sizeof(kn_str));
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

/* ---- two-pass input ------------------------------------------------ */

void
kn_table_free(kn_table *t)
{
	size_t c;

	for (c = 0; c < t->ncols; c++)
		free(t->names[c]);
	free(t->names);
	free(t->f);
	free(t->hdrline);
	t->names = NULL;
	t->f = NULL;
	t->hdrline = NULL;
}

/* Copies the input to the spool file. */
static void
input_spool(kn_input *in)
{
	char *buf = kn_alloc(1 << 16);
	ssize_t got;
	int fd = 0;

	if (in->path != NULL && (fd = open(in->path, O_RDONLY)) < 0)
		kn_die_sys("%s", in->path);
	in->sfd = kn_mktemp(in->tmpdir, &in->spool);
	for (;;) {
		got = read(fd, buf, 1 << 16);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			kn_die_sys("%s: read error", in->name);
		if (got == 0)
			break;
		if (kn_write_all(in->sfd, buf, (size_t)got) != 0)
			kn_die_sys("%s: write error", in->spool);
	}
	if (fd != 0)
		close(fd);
	free(buf);
}

void
kn_input_init(kn_input *in, const char *path, int twice,
    const char *columns, const char *tmpdir)
{
	struct stat st;

	memset(in, 0, sizeof(*in));
	in->path = path == NULL || strcmp(path, "-") == 0 ? NULL : path;
	in->name = in->path != NULL ? in->path : "stdin";
	in->tmpdir = tmpdir;
	in->sfd = -1;
	if (!twice)
		return;
	if (in->path == NULL || (stat(in->path, &st) == 0 &&
	    !S_ISREG(st.st_mode))) {
		input_spool(in);
		if (columns == NULL && lseek(in->sfd, 0, SEEK_END) == 0)
			kn_die("%s: empty input: expected a header line "
			    "naming the columns", in->name);
	}
}

void
kn_input_open(kn_input *in, kn_table *t, const char *columns)
{
	char *paths[1];
	struct stat st;

	if (in->spool != NULL) {
		/* Read the spool as standard input, named as the input. */
		if (lseek(in->sfd, 0, SEEK_SET) != 0 || dup2(in->sfd, 0) < 0)
			kn_die_sys("%s", in->spool);
		kn_table_open(t, NULL, 0, columns);
		t->r.name = in->name;
		in->opened++;
		return;
	}
	paths[0] = (char *)(in->path != NULL ? in->path : "-");
	kn_table_open(t, paths, 1, columns);
	if (in->path != NULL && fstat(t->r.fd, &st) == 0 &&
	    S_ISREG(st.st_mode)) {
		/* A file that changes between the passes would make the
		 * second disagree with what the first decided. */
		if (in->opened > 0 && ((uint64_t)st.st_size != in->size ||
		    (uint64_t)st.st_ino != in->ino ||
		    (uint64_t)st.st_dev != in->dev ||
		    (int64_t)st.st_mtim.tv_sec != in->msec ||
		    (int64_t)st.st_mtim.tv_nsec != in->mnsec))
			kn_die("%s: the file changed between the two passes",
			    in->name);
		in->size = (uint64_t)st.st_size;
		in->ino = (uint64_t)st.st_ino;
		in->dev = (uint64_t)st.st_dev;
		in->msec = (int64_t)st.st_mtim.tv_sec;
		in->mnsec = (int64_t)st.st_mtim.tv_nsec;
	}
	in->opened++;
}

void
kn_input_done(kn_input *in)
{
	if (in->spool != NULL) {
		close(in->sfd);
		kn_rmtemp(in->spool);
		in->spool = NULL;
	}
}

/* Opens file number t->cur and reads (and checks) its header. */
static int
open_next(kn_table *t)
{
	if (t->cur > 0)
		kn_reader_close(&t->r);
	if (t->cur >= t->npaths)
		return 0;
	kn_reader_open(&t->r, t->paths[t->cur]);
	t->cur++;
	if (t->headerless)
		return 1;
	if (!kn_getline(&t->r))
		kn_die("%s: empty input: expected a header line naming the "
		    "columns", t->r.name);
	if (t->names == NULL) {
		size_t n = strlen(t->r.name) + 3;
		char *w = kn_alloc(n);

		snprintf(w, n, "%s:1", t->r.name);
		set_names(t, t->r.line, t->r.len, '\t', w);
		free(w);
		t->hdrline = kn_strndup(t->r.line, t->r.len);
	} else if (strcmp(t->hdrline, t->r.line) != 0)
		kn_die("%s:1: header differs from that of %s", t->r.name,
		    t->paths[0]);
	return 1;
}

int kn_skip_header;

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
	}
	return 0;
}

void
kn_table_open(kn_table *t, char **paths, size_t npaths, const char *columns)
{
	static char *dash[] = { "-" };

	memset(t, 0, sizeof(*t));
	if (npaths == 0) {
		paths = dash;
		npaths = 1;
	}
	t->paths = paths;
	t->npaths = npaths;
	if (columns != NULL) {
		t->headerless = 1;
		set_names(t, columns, strlen(columns), ',', "--columns");
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
	open_next(t);
	if (t->hdrline != NULL)
		t->hdrlen = strlen(t->hdrline);
}

int
kn_table_next(kn_table *t)
{
	size_t n;

	int nul;

again:
	while (!getline_raw(&t->r))
		if (!open_next(t))
			return 0;
	if (t->skiphdr && t->r.len == t->hdrlen &&
	    memcmp(t->r.line, t->hdrline, t->r.len) == 0) {
		t->skipped++;
		goto again;
	}
	n = split_fast(t->r.line, t->r.len, t->f, t->ncols, &nul);
	if (nul)
		nul_error(&t->r);
	if (n != t->ncols)
		kn_die("%s:%llu: expected %zu fields, found %zu", t->r.name,
		    (unsigned long long)t->r.lineno, t->ncols, n);
	t->rows++;
	return 1;
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

	fflush(stdout);
	fprintf(stderr, "%s: %s:%llu: column '%s': ", kn_prog, t->r.name,
	    (unsigned long long)t->r.lineno, t->names[col]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	die_exit(2);
}

char *
kn_columns_file(const char *path)
{
	kn_reader r;
	char *out = NULL, *p;
	size_t n = 0;

	kn_reader_open(&r, path);
	while (kn_getline(&r)) {
		if (r.len == 0)
			continue;
		if (n == 0 && memchr(r.line, '\t', r.len) != NULL) {
			/* A header line: it alone names the columns. */
			out = kn_strndup(r.line, r.len);
			n = r.len;
			break;
		}
		out = kn_realloc(out, n + r.len + 2);
		if (n > 0)
			out[n++] = ',';
		memcpy(out + n, r.line, r.len);
		n += r.len;
	}
	kn_reader_close(&r);
	if (out == NULL)
		kn_die("%s: no column names", path);
	out[n] = '\0';
	for (p = out; *p != '\0'; p++)
		if (*p == '\t')
			*p = ',';
	return out;
}

/* ---- hashing and dictionaries ------------------------------------- */

#define M1 0x9e3779b97f4a7c15ULL
#define M2 0xbf58476d1ce4e5b9ULL

static inline uint64_t
mix(uint64_t h)
{
	h ^= h >> 31;
	h *= M2;
	h ^= h >> 29;
	return h;
}

uint64_t
kn_hash(const void *v, size_t n)
{
	const unsigned char *p = v;
	uint64_t h = M1 ^ (n * M2), w;

	while (n >= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * M1;
		h ^= h >> 32;
		p += 8;
		n -= 8;
	}
	if (n > 0) {
		w = 0;
		memcpy(&w, p, n);
		h = (h ^ w) * M1;
		h ^= h >> 32;
	}
	return mix(h);
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
		ce = &d->cache[((w * M1) >> 52 ^ n) & (DCACHE - 1)];
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

/* ---- hierarchies --------------------------------------------------- */

#define NOPARENT UINT32_MAX

static kn_hier *
hier_new(const char *attr, const char *src, int kind, int nlevels)
{
	kn_hier *h = kn_zalloc(sizeof(*h));
	int l;

	h->attr = kn_strdup(attr);
	h->src = kn_strdup(src);
	h->kind = kind;
	h->nlevels = nlevels;
	h->lab = kn_alloc((size_t)nlevels * sizeof(kn_dict));
	for (l = 0; l < nlevels; l++)
		kn_dict_init(&h->lab[l]);
	h->up = kn_zalloc((size_t)nlevels * sizeof(uint32_t *));
	h->upcap = kn_zalloc((size_t)nlevels * sizeof(size_t));
	return h;
}

void
kn_hier_free(kn_hier *h)
{
	int l;

	if (h == NULL)
		return;
	for (l = 0; l < h->nlevels; l++) {
		kn_dict_free(&h->lab[l]);
		free(h->up[l]);
	}
	free(h->lab);
	free(h->up);
	free(h->upcap);
	free(h->width);
	free(h->mask);
	free(h->attr);
	free(h->src);
	free(h);
}

/* Links id at level l to parent p at level l+1; returns the parent
 * already recorded, or NOPARENT when the link is new or the same. */
static uint32_t
hier_link(kn_hier *h, int l, uint32_t id, uint32_t p)
{
	size_t n;

	if (id >= h->upcap[l]) {
		n = h->upcap[l] ? h->upcap[l] : 64;
		while (n <= id)
			n *= 2;
		h->up[l] = kn_realloc(h->up[l], n * sizeof(uint32_t));
		memset(h->up[l] + h->upcap[l], 0xff,
		    (n - h->upcap[l]) * sizeof(uint32_t));
		h->upcap[l] = n;
	}
	if (h->up[l][id] == NOPARENT || h->up[l][id] == p) {
		h->up[l][id] = p;
		return NOPARENT;
	}
	return h->up[l][id];
}

/* Reads a whole file into memory. */
static char *
slurp(const char *path, size_t *len)
{
	kn_reader r;
	char *s;

	kn_reader_open(&r, path);
	while (!r.eof)
		fill(&r);
	s = r.buf;
	*len = r.end;
	s[r.end] = '\0';
	if (r.fd > 0)
		close(r.fd);
	return s;
}

/* Parses one record of ARX's ';' CSV (RFC 4180 quoting) at *pp into
 * fields (unquoted copies in out); returns the field count, or 0 at
 * the end of the text.  *line is advanced past the record's lines. */
static size_t
csv_record(const char *path, char **pp, const char *end, kn_str **fp,
    size_t *fcap, char *out, unsigned long *line)
{
	char *p = *pp;
	size_t n = 0;
	char *o = out;
	unsigned long start = *line;

	if (p >= end)
		return 0;
	for (;;) {
		char *f = o;

		if (n == *fcap) {
			*fcap = *fcap ? 2 * *fcap : 16;
			*fp = kn_realloc(*fp, *fcap * sizeof(kn_str));
		}
		if (p < end && *p == '"') {
			p++;
			for (;;) {
				if (p >= end)
					kn_die("%s:%lu: unterminated quoted "
					    "field", path, start);
				if (*p == '"') {
					if (p + 1 < end && p[1] == '"') {
						*o++ = '"';
						p += 2;
						continue;
					}
					p++;
					break;
				}
				if (*p == '\n')
					kn_die("%s:%lu: line break inside a "
					    "quoted label", path, start);
				*o++ = *p++;
			}
			if (p < end && *p != ';' && *p != '\n' &&
			    !(*p == '\r' && (p + 1 == end || p[1] == '\n')))
				kn_die("%s:%lu: field %zu: text after the "
				    "closing quote", path, start, n + 1);
		} else {
			while (p < end && *p != ';' && *p != '\n') {
				if (*p == '"')
					kn_die("%s:%lu: field %zu: quote inside "
					    "an unquoted field", path, start,
					    n + 1);
				*o++ = *p++;
			}
			if (o > f && o[-1] == '\r' && (p == end || *p == '\n'))
				o--;
		}
		if (p < end && *p == '\r')
			p++;
		(*fp)[n].p = f;
		(*fp)[n].n = (size_t)(o - f);
		n++;
		if (p >= end || *p == '\n') {
			if (p < end)
				p++;
			break;
		}
		p++;		/* ';' */
	}
	(*line)++;
	*pp = p;
	return n;
}

/* Loads a hierarchy file, TSV or (csv nonzero) ARX's ';' CSV. */
static kn_hier *
hier_file(const char *attr, const char *path, int csv)
{
	size_t len, nf, fcap = 0, want = 0, i;
	char *text = slurp(path, &len), *p = text, *end = text + len;
	char *tmp = kn_alloc(len + 1);
	kn_str *f = NULL;
	unsigned long line = 1, wantline = 0;
	uint32_t *id = NULL;
	kn_hier *h = NULL;
	int l;

	for (;;) {
		unsigned long here = line;

		if (csv) {
			nf = csv_record(path, &p, end, &f, &fcap, tmp, &line);
			if (nf == 0)
				break;
		} else {
			char *nl;
			size_t ll;

			if (p >= end)
				break;
			nl = memchr(p, '\n', (size_t)(end - p));
			ll = (size_t)((nl ? nl : end) - p);
			memcpy(tmp, p, ll);
			if (ll > 0 && tmp[ll - 1] == '\r')
				ll--;
			p = nl ? nl + 1 : end;
			line++;
			if (fcap < ll + 1) {
				fcap = ll + 1;
				f = kn_realloc(f, fcap * sizeof(kn_str));
			}
			nf = split(tmp, ll, f, fcap);
		}
		if (nf == 1 && f[0].n == 0)
			continue;	/* blank line */
		for (i = 0; i < nf; i++) {
			if (memchr(f[i].p, '\t', f[i].n) != NULL && csv)
				kn_die("%s:%lu: field %zu: tab inside a label",
				    path, here, i + 1);
			if (memchr(f[i].p, '\0', f[i].n) != NULL)
				kn_die("%s:%lu: field %zu: NUL byte", path,
				    here, i + 1);
		}
		if (h == NULL) {
			want = nf;
			wantline = here;
			h = hier_new(attr, path, KN_HFILE, (int)nf);
			id = kn_alloc(nf * sizeof(uint32_t));
		} else if (nf != want)
			kn_die("%s:%lu: expected %zu levels (as on line %lu), "
			    "found %zu", path, here, want, wantline, nf);
		for (l = 0; l < (int)nf; l++)
			id[l] = kn_dict_intern(&h->lab[l], f[l].p, f[l].n);
		for (l = 0; l + 1 < (int)nf; l++) {
			uint32_t old = hier_link(h, l, id[l], id[l + 1]);

			if (old != NOPARENT) {
				kn_str a = kn_dict_get(&h->lab[l + 1], old);
				kn_str b = kn_dict_get(&h->lab[l + 1], id[l + 1]);
				kn_str v = kn_dict_get(&h->lab[l], id[l]);

				kn_die("%s:%lu: not a hierarchy: '%.*s' at "
				    "level %d has two parents, '%.*s' and "
				    "'%.*s'", path, here, (int)v.n, v.p, l,
				    (int)a.n, a.p, (int)b.n, b.p);
			}
		}
	}
	if (h == NULL)
		kn_die("%s: empty hierarchy", path);
	free(text);
	free(tmp);
	free(f);
	free(id);
	return h;
}

/* Parses a comma list of positive decimals into widths scaled to a
 * common scale. */
static void
parse_widths(kn_hier *h, const char *list, int *n)
{
	kn_i128 m[64];
	int sc[64], k = 0, i, maxsc = 0;
	const char *p = list, *q;

	for (;;) {
		q = strchr(p, ',');
		if (q == NULL)
			q = p + strlen(p);
		if (k == 64)
			kn_die("-H %s: too many levels", h->attr);
		if (!kn_dec_parse(p, (size_t)(q - p), &m[k], &sc[k]) ||
		    m[k] <= 0 || sc[k] > 9 || m[k] > (kn_i128)1000000000000000LL)
			kn_die("-H %s=interval:%s: '%.*s' is not a positive "
			    "width", h->attr, list, (int)(q - p), p);
		if (sc[k] > maxsc)
			maxsc = sc[k];
		k++;
		if (*q == '\0')
			break;
		p = q + 1;
	}
	h->width = kn_alloc((size_t)k * sizeof(kn_i128));
	h->wscale = maxsc;
	for (i = 0; i < k; i++) {
		h->width[i] = m[i] * kn_pow10(maxsc - sc[i]);
		if (i > 0 && h->width[i] % h->width[i - 1] != 0)
			kn_die("-H %s=interval:%s: each width must be a "
			    "multiple of the one before", h->attr, list);
	}
	*n = k;
}

static void
parse_masks(kn_hier *h, const char *list, int *n)
{
	int k = 0, v;
	const char *p = list;
	char *q;

	h->mask = kn_alloc(64 * sizeof(int));
	for (;;) {
		errno = 0;
		v = (int)strtol(p, &q, 10);
		if (q == p || (*q != ',' && *q != '\0') || v <= 0 || v > 64 ||
		    (k > 0 && v <= h->mask[k - 1]) || k == 64)
			kn_die("-H %s=mask:%s: expected increasing digit counts",
			    h->attr, list);
		h->mask[k++] = v;
		if (*q == '\0')
			break;
		p = q + 1;
	}
	*n = k;
}

static int
has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

kn_hier *
kn_hier_load(const char *attr, const char *spec)
{
	kn_hier *h;
	int n;

	if (strncmp(spec, "interval:", 9) == 0) {
		h = hier_new(attr, spec, KN_HINTERVAL, 1);
		parse_widths(h, spec + 9, &n);
	} else if (strncmp(spec, "mask:", 5) == 0) {
		h = hier_new(attr, spec, KN_HMASK, 1);
		parse_masks(h, spec + 5, &n);
	} else {
		int csv = has_suffix(spec, ".csv");

		if (!csv && !has_suffix(spec, ".tsv")) {
			/* Sniff: a tab on the first line means TSV. */
			size_t len;
			char *t = slurp(spec, &len), *nl;

			nl = memchr(t, '\n', len);
			if (nl == NULL)
				nl = t + len;
			csv = memchr(t, '\t', (size_t)(nl - t)) == NULL &&
			    memchr(t, ';', (size_t)(nl - t)) != NULL;
			free(t);
		}
		return hier_file(attr, spec, csv);
	}
	/* Generated: leaves, n levels, then the root '*'. */
	{
		kn_dict *lab = kn_realloc(h->lab, (size_t)(n + 2) *
		    sizeof(kn_dict));
		int l;

		h->lab = lab;
		for (l = 1; l < n + 2; l++)
			kn_dict_init(&h->lab[l]);
		h->nlevels = n + 2;
		h->up = kn_realloc(h->up, (size_t)(n + 2) * sizeof(uint32_t *));
		h->upcap = kn_realloc(h->upcap, (size_t)(n + 2) *
		    sizeof(size_t));
		for (l = 1; l < n + 2; l++) {
			h->up[l] = NULL;
			h->upcap[l] = 0;
		}
		kn_dict_intern(&h->lab[n + 1], "*", 1);
	}
	return h;
}

/* Floor division of a by b > 0. */
static kn_i128
floordiv(kn_i128 a, kn_i128 b)
{
	kn_i128 q = a / b;

	return (a % b != 0 && a < 0) ? q - 1 : q;
}

int64_t
kn_hier_leaf(kn_hier *h, const char *s, size_t n, const char **err)
{
	int64_t found = kn_dict_find(&h->lab[0], s, n);
	uint32_t id[66];
	char buf[128];
	int l, top = h->nlevels - 1;

	*err = NULL;
	if (found >= 0 || h->kind == KN_HFILE) {
		if (found < 0)
			*err = "value is not a leaf of the hierarchy";
		return found;
	}
	if (h->kind == KN_HINTERVAL) {
		kn_i128 m, w, lo;
		int sc, S;
		size_t len;

		if (!kn_dec_parse(s, n, &m, &sc) || sc > 18 ||
		    m > ((kn_i128)1 << 100) || m < -((kn_i128)1 << 100)) {
			*err = "value is not a number";
			return -1;
		}
		S = sc > h->wscale ? sc : h->wscale;
		if (__builtin_mul_overflow(m, kn_pow10(S - sc), &m) ||
		    __builtin_mul_overflow(h->width[top - 2],
		    kn_pow10(S - h->wscale), &w) ||
		    m > ((kn_i128)1 << 120) || m < -((kn_i128)1 << 120) ||
		    w > ((kn_i128)1 << 120)) {
			*err = "value out of range for the interval widths";
			return -1;
		}
		id[0] = kn_dict_intern(&h->lab[0], s, n);
		for (l = 1; l < top; l++) {
			w = h->width[l - 1] * kn_pow10(S - h->wscale);
			lo = floordiv(m, w) * w;
			buf[0] = '[';
			len = 1 + kn_dec_format(lo, S, buf + 1);
			buf[len++] = ',';
			len += kn_dec_format(lo + w, S, buf + len);
			buf[len++] = ')';
			id[l] = kn_dict_intern(&h->lab[l], buf, len);
		}
	} else {
		size_t i;
		char *b;

		for (i = 0; i < n; i++)
			if (s[i] < '0' || s[i] > '9')
				break;
		if (n == 0 || i < n) {
			*err = "value is not a code of digits";
			return -1;
		}
		id[0] = kn_dict_intern(&h->lab[0], s, n);
		b = kn_alloc(n + 1);
		for (l = 1; l < top; l++) {
			size_t m = (size_t)h->mask[l - 1] < n ?
			    (size_t)h->mask[l - 1] : n;

			memcpy(b, s, n - m);
			memset(b + n - m, '*', m);
			id[l] = kn_dict_intern(&h->lab[l], b, n);
		}
		free(b);
	}
	id[top] = 0;
	for (l = 0; l < top; l++)
		hier_link(h, l, id[l], id[l + 1]);
	return id[0];
}

void
kn_hier_reset(kn_hier *h)
{
	int l, top = h->nlevels - 1;

	if (h->kind == KN_HFILE)
		return;
	for (l = 0; l < h->nlevels; l++) {
		kn_dict_free(&h->lab[l]);
		kn_dict_init(&h->lab[l]);
		free(h->up[l]);
		h->up[l] = NULL;
		h->upcap[l] = 0;
	}
	kn_dict_intern(&h->lab[top], "*", 1);
}

uint32_t
kn_hier_lift(const kn_hier *h, uint32_t id, int from, int lv)
{
	int l;

	for (l = from; l < lv; l++)
		id = h->up[l][id];
	return id;
}

uint32_t *
kn_hier_map(const kn_hier *h, int from, int to)
{
	size_t n = h->lab[from].n, i;
	uint32_t *m = kn_alloc((n + 1) * sizeof(uint32_t));

	for (i = 0; i < n; i++)
		m[i] = kn_hier_lift(h, (uint32_t)i, from, to);
	return m;
}

void
kn_hopts_add(kn_hopts *o, const char *arg)
{
	struct stat st;

	if (strchr(arg, '=') == NULL &&
	    (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode)))
		kn_die("-H '%s': expected ATTR=FILE, ATTR=interval:W,..., "
		    "ATTR=mask:N,... or a directory", arg);
	o->arg = kn_realloc(o->arg, (o->n + 1) * sizeof(char *));
	o->arg[o->n++] = kn_strdup(arg);
}

/* True if arg is an ATTR=SPEC option (not a directory). */
static int
is_pair(const char *arg)
{
	struct stat st;

	return strchr(arg, '=') != NULL &&
	    !(stat(arg, &st) == 0 && S_ISDIR(st.st_mode));
}

/* Finds the hierarchy file of attr in directory dir, or NULL. */
static char *
find_in_dir(const char *dir, const char *attr)
{
	static const char *ext[] = { ".tsv", ".csv" };
	char *path = NULL, *found = NULL, *suf;
	struct stat st;
	struct dirent *e;
	size_t n, i;
	DIR *d;

	n = strlen(dir) + strlen(attr) + 32;
	path = kn_alloc(n);
	for (i = 0; i < 2; i++) {
		snprintf(path, n, "%s/%s%s", dir, attr, ext[i]);
		if (stat(path, &st) == 0)
			return path;
	}
	free(path);
	n = strlen(attr) + 16;
	suf = kn_alloc(n);
	snprintf(suf, n, "_hierarchy_%s.csv", attr);
	if ((d = opendir(dir)) == NULL)
		kn_die_sys("-H %s", dir);
	while ((e = readdir(d)) != NULL) {
		if (!has_suffix(e->d_name, suf))
			continue;
		if (found != NULL)
			kn_die("-H %s: two hierarchy files for '%s': %s and %s",
			    dir, attr, found + strlen(dir) + 1, e->d_name);
		n = strlen(dir) + strlen(e->d_name) + 2;
		found = kn_alloc(n);
		snprintf(found, n, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	free(suf);
	return found;
}

kn_hier *
kn_hopts_get(const kn_hopts *o, const char *attr)
{
	size_t i, an = strlen(attr);
	char *path;
	kn_hier *h;

	for (i = o->n; i-- > 0;)
		if (is_pair(o->arg[i]) && strncmp(o->arg[i], attr, an) == 0 &&
		    o->arg[i][an] == '=')
			return kn_hier_load(attr, o->arg[i] + an + 1);
	for (i = o->n; i-- > 0;) {
		if (is_pair(o->arg[i]))
			continue;
		if ((path = find_in_dir(o->arg[i], attr)) != NULL) {
			h = kn_hier_load(attr, path);
			free(path);
			return h;
		}
	}
	return NULL;
}

void
kn_hopts_check(const kn_hopts *o, char *const *names, size_t n)
{
	size_t i, j, an;
	const char *eq;

	for (i = 0; i < o->n; i++) {
		if (!is_pair(o->arg[i]))
			continue;
		eq = strchr(o->arg[i], '=');
		an = (size_t)(eq - o->arg[i]);
		for (j = 0; j < n; j++)
			if (strlen(names[j]) == an &&
			    strncmp(names[j], o->arg[i], an) == 0)
				break;
		if (j == n)
			kn_die("-H %s: '%.*s' is not one of the grouped "
			    "columns", o->arg[i], (int)an, o->arg[i]);
	}
}

/* ---- frequency sets ------------------------------------------------ */

/* Makes room for cap entries. */
static void
fset_reserve(kn_fset *fs, size_t cap)
{
	if (cap <= fs->cap)
		return;
	fs->cap = cap;
	fs->key = kn_realloc(fs->key, cap * (fs->d ? fs->d : 1) *
	    sizeof(uint32_t));
	fs->cnt = kn_realloc(fs->cnt, cap * sizeof(uint64_t));
	if (fs->nsum > 0)
		fs->sum = kn_realloc(fs->sum, cap * fs->nsum * sizeof(kn_sum));
}

void
kn_fset_init(kn_fset *fs, size_t d, size_t nsum)
{
	memset(fs, 0, sizeof(*fs));
	fs->d = d;
	fs->nsum = nsum;
}

void
kn_fset_free(kn_fset *fs)
{
	free(fs->key);
	free(fs->cnt);
	free(fs->sum);
	free(fs->slot);
	memset(fs, 0, sizeof(*fs));
}

static inline uint64_t
key_hash(const uint32_t *k, size_t d)
{
	uint64_t h = M1;
	size_t i;

	for (i = 0; i < d; i++)
		h = (h ^ k[i]) * M2 + (h >> 29);
	return mix(h);
}

/* (Re)builds the hash index with room for twice the entries.  A slot
 * holds the upper hash bits and the entry number + 1 (0: empty). */
static void
fset_index(kn_fset *fs)
{
	size_t ns = 1024, i, j, mask;
	uint64_t *slot, h;

	while (ns < 2 * (fs->n + 1))
		ns *= 2;
	mask = ns - 1;
	slot = kn_zalloc(ns * sizeof(uint64_t));
	for (i = 0; i < fs->n; i++) {
		h = key_hash(fs->key + i * fs->d, fs->d);
		for (j = h & mask; slot[j] != 0; j = (j + 1) & mask)
			;
		slot[j] = (h & 0xffffffff00000000ULL) | (i + 1);
	}
	free(fs->slot);
	fs->slot = slot;
	fs->nslot = ns;
}

/* The table being counted with a count column, for messages. */
static const kn_table *cnt_table;
static size_t cnt_col;

/* Dies of a group's count past 64 bits, naming the row that took it
 * there when a table is being read. */
static void __attribute__((noreturn))
count_overflow(void)
{
	if (cnt_table != NULL)
		kn_table_fail(cnt_table, cnt_col, "'%.*s': the group's count "
		    "overflows 64 bits", (int)cnt_table->f[cnt_col].n,
		    cnt_table->f[cnt_col].p);
	kn_die("a count overflows 64 bits");
}

uint32_t
kn_fset_add(kn_fset *fs, const uint32_t *key, uint64_t cnt)
{
	size_t d = fs->d, mask, j, c;
	uint64_t h, sl, tag;
	uint32_t e;
	const uint32_t *k;

	if (fs->slot == NULL || 2 * (fs->n + 1) > fs->nslot)
		fset_index(fs);
	mask = fs->nslot - 1;
	h = key_hash(key, d);
	tag = h & 0xffffffff00000000ULL;
	for (j = h & mask; (sl = fs->slot[j]) != 0; j = (j + 1) & mask) {
		if ((sl & 0xffffffff00000000ULL) != tag)
			continue;
		e = (uint32_t)(sl & 0xffffffff) - 1;
		k = fs->key + (size_t)e * d;
		for (c = 0; c < d && k[c] == key[c]; c++)
			;
		if (c == d) {
			if (__builtin_add_overflow(fs->cnt[e], cnt,
			    &fs->cnt[e]))
				count_overflow();
			return e;
		}
	}
	if (fs->n >= UINT32_MAX - 1)
		kn_die("more than %u distinct keys", UINT32_MAX - 1);
	if (fs->n == fs->cap)
		fset_reserve(fs, fs->cap ? 2 * fs->cap : 256);
	e = (uint32_t)fs->n++;
	memcpy(fs->key + (size_t)e * d, key, d * sizeof(uint32_t));
	fs->cnt[e] = cnt;
	if (fs->nsum > 0)
		memset(fs->sum + (size_t)e * fs->nsum, 0,
		    fs->nsum * sizeof(kn_sum));
	fs->slot[j] = tag | ((uint64_t)e + 1);
	return e;
}

/* ---- packed counting ---------------------------------------------- */

static inline uint64_t
pk_hash(uint64_t pk)
{
	return mix(pk * M1 + M2);
}

int
kn_pcount_init(kn_pcount *pc, size_t d)
{
	size_t c;

	memset(pc, 0, sizeof(*pc));
	if (d > KN_PMAX)
		return 0;
	pc->d = d;
	for (c = 0; c < d; c++) {
		pc->bits[c] = (int)(KN_PMAX / d);
		pc->shift[c] = (int)(c * (KN_PMAX / d));
	}
	pc->nslot = 1024;
	pc->tab = kn_zalloc(2 * pc->nslot * sizeof(uint64_t));
	return 1;
}

/* Inserts packed key pk (+1 stored) with count cnt into tab. */
static inline void
pc_insert(uint64_t *tab, size_t mask, uint64_t pk, uint64_t cnt, size_t *n)
{
	size_t j;

	for (j = pk_hash(pk) & mask; tab[2 * j] != 0; j = (j + 1) & mask)
		if (tab[2 * j] == pk + 1) {
			if (__builtin_add_overflow(tab[2 * j + 1], cnt,
			    &tab[2 * j + 1]))
				count_overflow();
			return;
		}
	tab[2 * j] = pk + 1;
	tab[2 * j + 1] = cnt;
	(*n)++;
}

static void
pc_resize(kn_pcount *pc, size_t ns)
{
	uint64_t *tab = kn_zalloc(2 * ns * sizeof(uint64_t));
	size_t i, n = 0;

	for (i = 0; i < pc->nslot; i++)
		if (pc->tab[2 * i] != 0)
			pc_insert(tab, ns - 1, pc->tab[2 * i] - 1,
			    pc->tab[2 * i + 1], &n);
	free(pc->tab);
	pc->tab = tab;
	pc->nslot = ns;
}

static void
pc_flush(kn_pcount *pc)
{
	size_t i;

	if (10 * (pc->n + pc->nb) > 7 * pc->nslot) {
		if (pc->limit > 0 && 2 * pc->nslot * 16 > pc->limit &&
		    pc->n + pc->nb + 1 < pc->nslot)
			pc->full = 1;	/* the owner spills instead */
		else
			pc_resize(pc, 2 * pc->nslot);
	}
	for (i = 0; i < pc->nb; i++)
		pc_insert(pc->tab, pc->nslot - 1, pc->bk[i], pc->bc[i], &pc->n);
	pc->nb = 0;
}

static int
bitlen(uint64_t v)
{
	int b = 0;

	while (v != 0) {
		b++;
		v >>= 1;
	}
	return b;
}

/* Reassigns the bits so that key fits, and repacks the table. */
static int
pc_widen(kn_pcount *pc, const uint32_t *key)
{
	int need[KN_PMAX], bits[KN_PMAX], shift[KN_PMAX], tot = 0, c, sh;
	uint64_t *old = pc->tab, v, pk;
	size_t i, d = pc->d, n = 0;

	pc_flush(pc);
	for (c = 0; c < (int)d; c++)
		need[c] = bitlen(key[c]);
	for (i = 0; i < pc->nslot; i++) {
		if (old[2 * i] == 0)
			continue;
		pk = old[2 * i] - 1;
		for (c = 0; c < (int)d; c++) {
			v = (pk >> pc->shift[c]) & ((1ULL << pc->bits[c]) - 1);
			if (bitlen(v) > need[c])
				need[c] = bitlen(v);
		}
	}
	for (c = 0; c < (int)d; c++) {
		if (need[c] == 0)
			need[c] = 1;
		tot += need[c];
	}
	if (tot > KN_PMAX)
		return 0;
	/* Spread the spare bits as headroom, widest columns first. */
	for (c = 0; c < (int)d; c++)
		bits[c] = need[c];
	for (c = 0; tot < KN_PMAX; c = (c + 1) % (int)d, tot++)
		bits[c]++;
	for (sh = 0, c = 0; c < (int)d; c++) {
		shift[c] = sh;
		sh += bits[c];
	}
	pc->tab = kn_zalloc(2 * pc->nslot * sizeof(uint64_t));
	for (i = 0; i < pc->nslot; i++) {
		uint64_t np = 0;

		if (old[2 * i] == 0)
			continue;
		pk = old[2 * i] - 1;
		for (c = 0; c < (int)d; c++)
			np |= ((pk >> pc->shift[c]) &
			    ((1ULL << pc->bits[c]) - 1)) << shift[c];
		pc_insert(pc->tab, pc->nslot - 1, np, old[2 * i + 1], &n);
	}
	free(old);
	memcpy(pc->bits, bits, sizeof(bits));
	memcpy(pc->shift, shift, sizeof(shift));
	return 1;
}

int
kn_pcount_add(kn_pcount *pc, const uint32_t *key, uint64_t cnt)
{
	uint64_t pk = 0;
	size_t c, d = pc->d;

	for (c = 0; c < d; c++) {
		if ((uint64_t)key[c] >> pc->bits[c] != 0) {
			if (!pc_widen(pc, key))
				return 0;
			return kn_pcount_add(pc, key, cnt);
		}
		pk |= (uint64_t)key[c] << pc->shift[c];
	}
	__builtin_prefetch(pc->tab + 2 * (pk_hash(pk) & (pc->nslot - 1)), 1);
	pc->bk[pc->nb] = pk;
	pc->bc[pc->nb] = cnt;
	if (++pc->nb == KN_PBATCH)
		pc_flush(pc);
	return 1;
}

void
kn_pcount_fset(kn_pcount *pc, kn_fset *fs)
{
	size_t i, c, d = pc->d, e;
	uint64_t pk;
	int fresh = fs->n == 0;

	pc_flush(pc);
	fset_reserve(fs, fs->n + pc->n + 1);
	for (i = 0; i < pc->nslot; i++) {
		if (pc->tab[2 * i] == 0)
			continue;
		pk = pc->tab[2 * i] - 1;
		if (fresh) {
			/* Distinct keys: append; the index is built later. */
			e = fs->n++;
			for (c = 0; c < d; c++)
				fs->key[e * d + c] = (uint32_t)((pk >>
				    pc->shift[c]) & ((1ULL << pc->bits[c]) - 1));
			fs->cnt[e] = pc->tab[2 * i + 1];
		} else {
			uint32_t k[KN_PMAX];

			for (c = 0; c < d; c++)
				k[c] = (uint32_t)((pk >> pc->shift[c]) &
				    ((1ULL << pc->bits[c]) - 1));
			kn_fset_add(fs, k, pc->tab[2 * i + 1]);
		}
	}
	free(pc->tab);
	memset(pc, 0, sizeof(*pc));
}

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

/* LSD radix sort of n (key, value) pairs by key, 11-bit digits over
 * the low tot bits; skips digits where all keys agree. */
static void
radix_pairs(uint64_t *a, size_t n, int tot)
{
	uint64_t *t = kn_alloc((2 * n + 2) * sizeof(uint64_t));
	uint64_t *src = a, *dst = t, *x;
	uint32_t cnt[2048], sum, v;
	size_t i, b;
	int pass;

	for (pass = 0; pass * 11 < tot; pass++) {
		unsigned sh = 11 * (unsigned)pass;

		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[(src[2 * i] >> sh) & 2047]++;
		for (b = 0; b < 2048 && cnt[b] != n; b++)
			;
		if (b < 2048)
			continue;
		for (sum = 0, b = 0; b < 2048; b++) {
			v = cnt[b];
			cnt[b] = sum;
			sum += v;
		}
		for (i = 0; i < n; i++) {
			uint32_t to = cnt[(src[2 * i] >> sh) & 2047]++;

			dst[2 * to] = src[2 * i];
			dst[2 * to + 1] = src[2 * i + 1];
		}
		x = src;
		src = dst;
		dst = x;
	}
	if (src != a)
		memcpy(a, src, 2 * n * sizeof(uint64_t));
	free(t);
}

size_t
kn_pcount_sorted(kn_pcount *pc, const kn_dict *const *dict,
    uint64_t **pairs, int *shift, int *bits)
{
	size_t d = pc->d, c, i, n = 0;
	uint32_t *rank[KN_PMAX];
	uint64_t *a, pk, nk;
	int tot = 0, sh;

	pc_flush(pc);
	for (c = 0; c < d; c++) {
		if (dict[c]->lowbyte)
			return (size_t)-1;
		bits[c] = bitlen(dict[c]->n > 0 ? dict[c]->n - 1 : 0);
		tot += bits[c];
	}
	if (tot > KN_PMAX)
		return (size_t)-1;
	for (sh = tot, c = 0; c < d; c++) {
		sh -= bits[c];
		shift[c] = sh;
		rank[c] = kn_dict_ranks(dict[c]);
	}
	/* Compact the table in place, re-keying by the ranks. */
	a = pc->tab;
	for (i = 0; i < pc->nslot; i++) {
		if (a[2 * i] == 0)
			continue;
		pk = a[2 * i] - 1;
		nk = 0;
		for (c = 0; c < d; c++)
			nk |= (uint64_t)rank[c][(pk >> pc->shift[c]) &
			    ((1ULL << pc->bits[c]) - 1)] << shift[c];
		a[2 * n] = nk;
		a[2 * n + 1] = a[2 * i + 1];
		n++;
	}
	for (c = 0; c < d; c++)
		free(rank[c]);
	radix_pairs(a, n, tot);
	*pairs = a;
	memset(pc, 0, sizeof(*pc));
	return n;
}

/* Raises the scale of a sum to sc (the sum of squares to 2 sc); 0 on
 * overflow.  Each group keeps its own scale, so one value with many
 * decimals does not widen the sums of other groups. */
static int
sum_rescale(kn_sum *p, int sc)
{
	kn_i128 m1;

	if (sc <= p->sc)
		return 1;
	if (sc > 18)
		return 0;
	m1 = kn_pow10(sc - p->sc);
	if (__builtin_mul_overflow(p->s, m1, &p->s) ||
	    __builtin_mul_overflow(p->ss, m1 * m1, &p->ss))
		return 0;
	p->sc = sc;
	return 1;
}

int
kn_fset_addval(kn_fset *fs, size_t i, size_t j, kn_i128 mant, int scale)
{
	kn_sum *p = &fs->sum[i * fs->nsum + j];
	kn_i128 v, sq;

	if (!sum_rescale(p, scale))
		return 0;
	if (__builtin_mul_overflow(mant, kn_pow10(p->sc - scale), &v) ||
	    __builtin_mul_overflow(v, v, &sq) ||
	    __builtin_add_overflow(p->s, v, &p->s) ||
	    __builtin_add_overflow(p->ss, sq, &p->ss))
		return 0;
	return 1;
}

int
kn_fset_addsum(kn_fset *fs, size_t i, size_t j, kn_i128 s, int sc,
    kn_i128 ss, int ssc)
{
	kn_sum *p = &fs->sum[i * fs->nsum + j];
	int need = sc > (ssc + 1) / 2 ? sc : (ssc + 1) / 2;

	if (!sum_rescale(p, need))
		return 0;
	if (__builtin_mul_overflow(s, kn_pow10(p->sc - sc), &s) ||
	    __builtin_mul_overflow(ss, kn_pow10(2 * p->sc - ssc), &ss) ||
	    __builtin_add_overflow(p->s, s, &p->s) ||
	    __builtin_add_overflow(p->ss, ss, &p->ss))
		return 0;
	return 1;
}

void
kn_fset_rollup(const kn_fset *fs, kn_fset *out, const size_t *cols,
    size_t d, uint32_t *const *map)
{
	uint32_t *k = kn_alloc((d + 1) * sizeof(uint32_t)), e;
	size_t i, c, j;
	const uint32_t *src;
	const kn_sum *s;

	kn_fset_init(out, d, fs->nsum);
	for (i = 0; i < fs->n; i++) {
		src = fs->key + i * fs->d;
		for (c = 0; c < d; c++)
			k[c] = map != NULL && map[c] != NULL ?
			    map[c][src[cols[c]]] : src[cols[c]];
		e = kn_fset_add(out, k, fs->cnt[i]);
		for (j = 0; j < fs->nsum; j++) {
			s = &fs->sum[i * fs->nsum + j];
			if (!kn_fset_addsum(out, e, j, s->s, s->sc, s->ss,
			    2 * s->sc))
				kn_die("sum overflow in roll-up");
		}
	}
	free(k);
}

struct ordctx {
	const kn_fset *fs;
	const kn_dict *const *dict;
};

/* Compares two entries by their labels joined with tabs. */
static int
cmp_joined(uint32_t a, uint32_t b, const void *ctx)
{
	const struct ordctx *o = ctx;
	size_t d = o->fs->d, c;
	const uint32_t *ka = o->fs->key + (size_t)a * d;
	const uint32_t *kb = o->fs->key + (size_t)b * d;
	kn_str x, y;
	size_t i;

	for (c = 0; c < d; c++) {
		if (ka[c] == kb[c])
			continue;
		x = kn_dict_get(o->dict[c], ka[c]);
		y = kn_dict_get(o->dict[c], kb[c]);
		for (i = 0; i < x.n && i < y.n; i++)
			if (x.p[i] != y.p[i])
				return (unsigned char)x.p[i] <
				    (unsigned char)y.p[i] ? -1 : 1;
		/* One is a prefix of the other: the next byte of the line
		 * is a tab (a count or key follows every key) for one and a
		 * label byte, never a tab, for the other. */
		{
			int cx = i < x.n ? (unsigned char)x.p[i] : '\t';
			int cy = i < y.n ? (unsigned char)y.p[i] : '\t';

			return cx < cy ? -1 : 1;
		}
	}
	return 0;
}

/* Orders idx by the ranks packed into one 64-bit key per entry, first
 * column most significant, with an LSD radix sort of 11-bit digits.
 * Returns 0 if the ranks need more than 64 bits. */
static int
order_packed(const kn_fset *fs, const kn_dict *const *dict, uint32_t *idx)
{
	size_t n = fs->n, d = fs->d, c, i, b;
	int bits[KN_PMAX + 1], tot = 0, sh, pass;
	uint64_t *key, *ktmp;
	uint32_t *itmp, *rank, cnt[2048];

	if (d > KN_PMAX + 1)
		return 0;
	for (c = 0; c < d; c++) {
		bits[c] = bitlen(dict[c]->n > 0 ? dict[c]->n - 1 : 0);
		tot += bits[c];
	}
	if (tot > 64)
		return 0;
	key = kn_zalloc((n + 1) * sizeof(uint64_t));
	for (sh = tot, c = 0; c < d; c++) {
		sh -= bits[c];
		if (bits[c] == 0)
			continue;
		rank = kn_dict_ranks(dict[c]);
		for (i = 0; i < n; i++)
			key[i] |= (uint64_t)rank[fs->key[i * d + c]] << sh;
		free(rank);
	}
	ktmp = kn_alloc((n + 1) * sizeof(uint64_t));
	itmp = kn_alloc((n + 1) * sizeof(uint32_t));
	for (pass = 0; pass * 11 < tot; pass++) {
		unsigned s = 11 * (unsigned)pass;
		uint32_t sum = 0, x;
		uint64_t *kt;

		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[(key[i] >> s) & 2047]++;
		for (b = 0; b < 2048; b++)
			if (cnt[b] == n)
				break;
		if (b < 2048)
			continue;	/* one digit value: nothing moves */
		for (b = 0; b < 2048; b++) {
			x = cnt[b];
			cnt[b] = sum;
			sum += x;
		}
		for (i = 0; i < n; i++) {
			uint32_t to = cnt[(key[i] >> s) & 2047]++;

			ktmp[to] = key[i];
			itmp[to] = idx[i];
		}
		kt = key;
		key = ktmp;
		ktmp = kt;
		memcpy(idx, itmp, n * sizeof(uint32_t));
	}
	free(key);
	free(ktmp);
	free(itmp);
	return 1;
}

uint32_t *
kn_fset_order(const kn_fset *fs, const kn_dict *const *dict)
{
	size_t n = fs->n, d = fs->d, c, i, pass;
	uint32_t *idx = kn_alloc((n + 1) * sizeof(uint32_t));
	uint32_t *tmp, *rank, *cnt, *t;
	int low = 0;

	for (i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	for (c = 0; c < d; c++)
		low |= dict[c]->lowbyte;
	if (low) {
		struct ordctx o = { fs, dict };

		kn_sort_ids(idx, n, cmp_joined, &o);
		return idx;
	}
	if (order_packed(fs, dict, idx))
		return idx;
	/* LSD radix sort on the byte-order ranks, last column first. */
	tmp = kn_alloc((n + 1) * sizeof(uint32_t));
	cnt = kn_alloc(((size_t)1 << 16) * sizeof(uint32_t));
	for (c = d; c-- > 0;) {
		size_t sz = dict[c]->n;

		rank = kn_dict_ranks(dict[c]);
		for (pass = 0; pass < 2; pass++) {
			unsigned sh = 16 * (unsigned)pass;
			size_t nb = (size_t)1 << 16, sum = 0, b;

			if (pass == 1 && sz <= ((size_t)1 << 16))
				break;
			if (pass == 0 && sz < nb)
				nb = sz ? sz : 1;
			memset(cnt, 0, nb * sizeof(uint32_t));
			for (i = 0; i < n; i++)
				cnt[(rank[fs->key[(size_t)idx[i] * d + c]] >>
				    sh) & 0xffff]++;
			for (b = 0; b < nb; b++) {
				uint32_t x = cnt[b];

				cnt[b] = (uint32_t)sum;
				sum += x;
			}
			for (i = 0; i < n; i++) {
				uint32_t e = idx[i];

				tmp[cnt[(rank[fs->key[(size_t)e * d + c]] >>
				    sh) & 0xffff]++] = e;
			}
			t = idx;
			idx = tmp;
			tmp = t;
		}
		free(rank);
	}
	free(tmp);
	free(cnt);
	return idx;
}

/* ---- frequency streams: counting within a budget ------------------ */

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
	/* the run being written */
	FILE *rf;
	/* merge: the group being combined */
	kn_str *cf;		/* fields of a merged line */
	char *ckey;
	size_t cklen, ckcap;
	int have;
};

/* Bytes held by a dictionary (but its fixed-size cache). */
static size_t
dict_bytes(const kn_dict *d)
{
	return d->acap + d->cap * 12 + d->nslot * 8;
}

/* Bytes held by the set being counted and the plain dictionaries. */
static size_t
freq_bytes(const struct freq *fr)
{
	size_t b = 0, c;
	const kn_fset *fs = &fr->fs;

	if (fr->packed)
		b += fr->pc.nslot * 16;
	b += fs->cap * (fs->d * 4 + 8 + fs->nsum * sizeof(kn_sum)) +
	    fs->nslot * 8;
	for (c = 0; c < fr->cs->d; c++) {
		const kn_hier *h = fr->cs->hier != NULL ? fr->cs->hier[c] :
		    NULL;
		int l;

		if (h == NULL)
			b += dict_bytes(&fr->cs->dict[c]);
		else if (h->kind != KN_HFILE)
			for (l = 0; l < h->nlevels; l++)
				b += dict_bytes(&h->lab[l]) + h->upcap[l] * 4;
	}
	return b;
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
	size_t c, j;
	char buf[48];

	for (c = 0; c < fr->cs->d; c++) {
		fwrite(row->key[c].p, 1, row->key[c].n, fr->rf);
		putc('\t', fr->rf);
	}
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
		uint32_t *inv[KN_PMAX];
		uint64_t *pairs;

		n = kn_pcount_sorted(&fr->pc, od, &pairs, shift, bits);
		if (n != (size_t)-1) {
			for (c = 0; c < d; c++)
				inv[c] = kn_dict_order(od[c]);
			for (i = 0; i < n; i++) {
				for (c = 0; c < d; c++)
					fr->row.key[c] = kn_dict_get(od[c],
					    inv[c][(pairs[2 * i] >> shift[c]) &
					    ((1ULL << bits[c]) - 1)]);
				fr->row.cnt = pairs[2 * i + 1];
				sink(&fr->row, sctx);
			}
			for (c = 0; c < d; c++)
				free(inv[c]);
			free(pairs);
			kn_pcount_init(&fr->pc, d);
			fr->pc.limit = limit;
			free(od);
			return;
		}
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
		order = kn_fset_order(f, od);
		for (i = 0; i < f->n; i++) {
			e = order[i];
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
	char *path;
	size_t c;

	fd = kn_mktemp(fr->tmpdir, &path);
	fr->rf = fdopen(fd, "w");
	if (fr->rf == NULL)
		kn_die_sys("%s", path);
	setvbuf(fr->rf, NULL, _IOFBF, 1 << 16);
	freq_emit(fr, run_row, fr);
	if (fflush(fr->rf) == EOF || ferror(fr->rf))
		kn_die_sys("%s: write error", path);
	if (fr->st != NULL)
		fr->st->bytes_written += (uint64_t)ftello(fr->rf);
	if (fclose(fr->rf) == EOF)
		kn_die_sys("%s: write error", path);
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
		count_overflow();
	for (j = 0; j < fr->cs->nsum; j++) {
		kn_str a = f[d + 1 + 2 * j], b = f[d + 2 + 2 * j];

		if (!kn_dec_parse(a.p, a.n, &m, &sc))
			kn_die("(temp run): bad sum");
		kn_dec_add(&fr->row.s[j], &fr->row.sc[j], m, sc);
		if (!kn_dec_parse(b.p, b.n, &m, &sc))
			kn_die("(temp run): bad sum");
		kn_dec_add(&fr->row.ss[j], &fr->row.ssc[j], m, sc);
	}
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

	memset(&fr, 0, sizeof(fr));
	fr.cs = cs;
	fr.lv = lv;
	fr.tmpdir = tmpdir;
	fr.out = out;
	fr.ctx = ctx;
	fr.st = st;
	fr.row.key = kn_alloc((d + 1) * sizeof(kn_str));
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
		cnt_table = t;
		cnt_col = cs->cntcol;
	}
	while (kn_table_next(t)) {
		uint64_t cnt = 1;

		if ((t->rows & 0xffff) == 0)
			kn_progress(t->rows, t->r.bytes);
		if (budget > 0 && ((t->rows & 0x3ff) == 0 ||
		    t->r.bytes - checked > limit / 8)) {
			checked = t->r.bytes;
			if (freq_bytes(&fr) > limit)
				freq_spill(&fr);
		}
		for (c = 0; c < d; c++) {
			kn_str v = t->f[cs->key[c]];
			kn_hier *h = cs->hier != NULL ? cs->hier[c] : NULL;

			if (h == NULL)
				k[c] = kn_dict_intern_padded(&cs->dict[c], v.p,
				    v.n, 1);
			else {
				const char *err;
				int64_t id = kn_hier_leaf(h, v.p, v.n, &err);

				if (id < 0)
					kn_table_fail(t, cs->key[c], "'%.*s': %s "
					    "(%s)", (int)v.n, v.p, err, h->src);
				k[c] = (uint32_t)id;
			}
		}
		if (cs->hascount && !parse_count(t->f[cs->cntcol], &cnt))
			kn_table_fail(t, cs->cntcol, "'%.*s' is not a count",
			    (int)t->f[cs->cntcol].n, t->f[cs->cntcol].p);
		if (fr.packed) {
			if (kn_pcount_add(&fr.pc, k, cnt)) {
				if (fr.pc.full)
					freq_spill(&fr);
				continue;
			}
			kn_pcount_fset(&fr.pc, &fr.fs);
			fr.packed = 0;
		}
		e = kn_fset_add(&fr.fs, k, cnt);
		for (j = 0; j < cs->nsum; j++) {
			size_t col = cs->sumcol[j];
			kn_str v = t->f[col];
			kn_i128 m, m2;
			int sc, sc2;

			if (!kn_dec_parse(v.p, v.n, &m, &sc))
				kn_table_fail(t, col, "'%.*s' is not a number",
				    (int)v.n, v.p);
			if (cs->pairs) {
				kn_str w = t->f[col + 1];

				if (!kn_dec_parse(w.p, w.n, &m2, &sc2) || m2 < 0)
					kn_table_fail(t, col + 1, "'%.*s' is not "
					    "a sum of squares", (int)w.n, w.p);
				if (!kn_fset_addsum(&fr.fs, e, j, m, sc, m2, sc2))
					kn_table_fail(t, col, "sum overflows");
			} else if (!kn_fset_addval(&fr.fs, e, j, m, sc))
				kn_table_fail(t, col, "sum overflows (or more "
				    "than 18 decimals)");
		}
	}
	kn_progress_done();
	cnt_table = NULL;
	free(k);
	if (st != NULL)
		st->rows = t->rows;
	if (fr.nrun == 0) {
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
	free(fr.cf);
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

	row.key = kn_alloc((d + 1) * sizeof(kn_str));
	row.s = kn_zalloc((cs->nsum + 1) * sizeof(kn_i128));
	row.ss = kn_zalloc((cs->nsum + 1) * sizeof(kn_i128));
	row.sc = kn_zalloc((cs->nsum + 1) * sizeof(int));
	row.ssc = kn_zalloc((cs->nsum + 1) * sizeof(int));
	row.cnt = 0;
	keylen = 0;
	while (kn_table_next(t)) {
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

			if (!kn_dec_parse(a.p, a.n, &m, &sc))
				kn_table_fail(t, col, "'%.*s' is not a number",
				    (int)a.n, a.p);
			if (!kn_dec_parse(b.p, b.n, &m2, &sc2) || m2 < 0)
				kn_table_fail(t, col + 1, "'%.*s' is not a sum "
				    "of squares", (int)b.n, b.p);
			kn_dec_add(&row.s[j], &row.sc[j], m, sc);
			kn_dec_add(&row.ss[j], &row.ssc[j], m2, sc2);
		}
	}
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
