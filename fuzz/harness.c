/*
 * harness.c: the fuzz targets' shared harness (see harness.h).
 *
 * Allocations are tracked with the sanitizer allocator's malloc and
 * free hooks while a run is under way: a table of the live blocks the
 * run allocated, cleared by bumping a generation number.  After an
 * error the blocks still live are freed.  Descriptors are compared with
 * those open before the first run and the new ones closed.
 */
#define _GNU_SOURCE
#if defined(__has_include)
#if __has_include(<sanitizer/allocator_interface.h>)
#include <sanitizer/allocator_interface.h>
#define HAVE_ALLOCATOR_INTERFACE 1
#endif
#endif
#ifndef HAVE_ALLOCATOR_INTERFACE
#include <stddef.h>
/* The hooks of the sanitizers' allocator, which gcc's runtime has too,
 * without the header clang ships (make fuzz-replay under gcc). */
int __sanitizer_install_malloc_and_free_hooks(
    void (*malloc_hook)(const volatile void *, size_t),
    void (*free_hook)(const volatile void *));
#endif

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kanon.h"
#include "harness.h"

/* ---- allocation tracking ------------------------------------------- */

#define TBITS 20
#define TSIZE (1u << TBITS)
#define LOGMAX (1u << 18)
#define TOMB ((uintptr_t)1)

static struct slot {
	uintptr_t p;
	uint32_t gen;
} tab[TSIZE];
static uintptr_t logv[LOGMAX];	/* blocks allocated in this run */
static size_t nlog, nused;
static uint32_t gen = 1;
static __thread int tracking;	/* this thread's run is under way */
static __thread int cleaning;	/* freeing a failed run's blocks */

static size_t
phash(uintptr_t p)
{
	uint64_t h = (uint64_t)p * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> (64 - TBITS));
}

static void
on_malloc(const volatile void *vp, size_t n)
{
	uintptr_t p = (uintptr_t)vp;
	size_t j;

	(void)n;
	if (!tracking || cleaning || p == 0)
		return;
	if (nlog == LOGMAX || nused >= TSIZE / 2)
		return;		/* too many: the rest leak */
	for (j = phash(p); tab[j].gen == gen && tab[j].p != TOMB;
	    j = (j + 1) & (TSIZE - 1))
		;
	if (tab[j].gen != gen)
		nused++;
	tab[j].p = p;
	tab[j].gen = gen;
	logv[nlog++] = p;
}

/* Finds the slot of live block p, or -1. */
static long
find(uintptr_t p)
{
	size_t j;

	for (j = phash(p); tab[j].gen == gen; j = (j + 1) & (TSIZE - 1))
		if (tab[j].p == p)
			return (long)j;
	return -1;
}

static void
on_free(const volatile void *vp)
{
	long j;

	if (!tracking || vp == NULL)
		return;
	if ((j = find((uintptr_t)vp)) >= 0)
		tab[j].p = TOMB;
}

/* ---- descriptors ----------------------------------------------------- */

#define MAXFD 1024
static unsigned char fdopen0[MAXFD];	/* open before the run */
static int fdlow0 = -1, fdmax0, fdscan;

static int
lowest_free(void)
{
	int fd = dup(0);

	if (fd >= 0)
		close(fd);
	return fd;
}

/* Notes the descriptors open before a run: again whenever the lowest
 * free one has changed (libFuzzer opens some of its own). */
static void
fd_baseline(void)
{
	int fd, low = lowest_free();

	if (low == fdlow0)
		return;
	for (fd = 0; fd < MAXFD; fd++)
		if ((fdopen0[fd] = fcntl(fd, F_GETFD) != -1))
			fdmax0 = fd;
	fdlow0 = low;
}

/* Closes the descriptors a failed run left open: the new ones take the
 * lowest free numbers, so a scan is needed only when that has changed
 * (and now and then, for a leak that was followed by a close), and only
 * up to a little past the highest one open before. */
static void
fd_reset(void)
{
	int fd, top = fdmax0 + 64 < MAXFD ? fdmax0 + 64 : MAXFD;

	if (lowest_free() == fdlow0 && ++fdscan % 4096 != 0)
		return;
	for (fd = fdlow0; fd < top; fd++)
		if (!fdopen0[fd] && fcntl(fd, F_GETFD) != -1)
			close(fd);
}

/* ---- runs -------------------------------------------------------------- */

static const char *fzname = "fuzz";
static char *tmpdir;
static jmp_buf *env;
static int status;

static void
on_exit_hook(int st)
{
	if (env == NULL) {
		fprintf(stderr, "%s: the core exited outside a run\n", fzname);
		abort();
	}
	status = st;
	longjmp(*env, 1);
}

static void
rm_tmpdir(void)
{
	DIR *d;
	struct dirent *e;
	char p[4096];

	if (tmpdir == NULL || (d = opendir(tmpdir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s", tmpdir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(tmpdir);
}

void
fz_init(const char *name)
{
	const char *base = getenv("FUZZ_TMPDIR");
	char *t;
	size_t n;

	if (tmpdir != NULL)
		return;
	fzname = name;
	kn_prog = name;
	kn_fuzz_exit = on_exit_hook;
	if ((base == NULL || *base == '\0') && access("/dev/shm", W_OK) == 0)
		base = "/dev/shm";	/* files in memory: faster */
	if (base == NULL || *base == '\0')
		base = getenv("TMPDIR");
	if (base == NULL || *base == '\0')
		base = "/tmp";
	n = strlen(base) + strlen(name) + 32;
	t = malloc(n);
	snprintf(t, n, "%s/kanon-%s.XXXXXX", base, name);
	if (mkdtemp(t) == NULL) {
		fprintf(stderr, "%s: %s: %s\n", name, t, strerror(errno));
		abort();
	}
	tmpdir = t;
	atexit(rm_tmpdir);
	/* Allocations libc makes once, done before any run tracks them. */
	fprintf(stderr, "%s", "");
	(void)strerror(EIO);
	if (!__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free)) {
		fprintf(stderr, "%s: cannot install the malloc hooks\n", name);
		abort();
	}
}

const char *
fz_tmpdir(void)
{
	return tmpdir;
}

/* Frees the blocks the run left live. */
static void
free_live(void)
{
	size_t i;

	cleaning = 1;
	for (i = 0; i < nlog; i++)
		if (find(logv[i]) >= 0)
			free((void *)logv[i]);	/* on_free forgets it */
	cleaning = 0;
}

static int
run(void (*fn)(void *), void *arg, int all)
{
	jmp_buf here;

	fd_baseline();
	gen++;
	nlog = nused = 0;
	env = &here;
	status = 0;
	tracking = 1;
	if (setjmp(here) == 0) {
		fn(arg);
		env = NULL;
		if (all) {
			kn_forget_inputs();
			free_live();
		}
		tracking = 0;
		return -1;
	}
	/* The core gave up: free what the run left live, the registry
	 * of inputs first (kanon.c keeps it between runs). */
	env = NULL;
	kn_forget_inputs();
	free_live();
	tracking = 0;
	fd_reset();
	return status;
}

int
fz_run(void (*fn)(void *), void *arg)
{
	return run(fn, arg, 0);
}

int
fz_run_all(void (*fn)(void *), void *arg)
{
	return run(fn, arg, 1);
}

const char *
fz_file(int slot, const char *name, const void *data, size_t n)
{
	static char path[8][4096];
	int fd;

	snprintf(path[slot], sizeof(path[slot]), "%s/%s", tmpdir, name);
	fd = open(path[slot], O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || (n > 0 && kn_write_all(fd, data, n) != 0) ||
	    close(fd) != 0) {
		fprintf(stderr, "%s: %s: %s\n", fzname, path[slot],
		    strerror(errno));
		abort();
	}
	return path[slot];
}

char *
fz_str(const uint8_t *data, size_t n)
{
	char *s = malloc(n + 1);

	memcpy(s, data, n);
	s[n] = '\0';
	return s;
}

void
fz_fail(const char *file, int line, const char *msg)
{
	fprintf(stderr, "%s: %s:%d: check failed: %s\n", fzname, file, line,
	    msg);
	abort();
}

/* The signatures that the reader refuses ('?': a digit 1 to 9). */
static const struct {
	const char *sig;
	size_t n;
} fz_sigs[] = {
	{ "\x1f\x8b", 2 }, { "\x1f\x9d", 2 }, { "BZh?1AY&SY", 10 },
	{ "BZh?\x17\x72\x45\x38\x50\x90", 10 }, { "\xfd" "7zXZ\0", 6 },
	{ "\x28\xb5\x2f\xfd", 4 }, { "PK\x03\x04", 4 },
};

size_t
fz_text_start(const char *p, size_t n, int crrow, int *bad)
{
	size_t skip = n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	size_t i, k, e;

	p += skip;
	n -= skip;
	*bad = 0;
	for (i = 0; i < sizeof(fz_sigs) / sizeof(fz_sigs[0]); i++) {
		for (k = 0; k < fz_sigs[i].n && k < n; k++)
			if (fz_sigs[i].sig[k] == '?' ? p[k] < '1' || p[k] > '9' :
			    p[k] != fz_sigs[i].sig[k])
				break;
		if (k == fz_sigs[i].n)
			*bad = 1;
	}
	for (e = 0; e < n && p[e] != '\n'; e++)
		;
	if (crrow && e < n)
		return skip;	/* a row ended by a newline may hold a CR */
	if (e > 0 && p[e - 1] == '\r')
		e--;
	if (memchr(p, '\r', e) != NULL)
		*bad = 1;
	return skip;
}
