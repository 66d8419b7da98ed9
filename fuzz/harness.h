/*
 * harness.h: what the fuzz targets share (fuzz/README).
 *
 * The core ends the program on bad input (kn_die, exit status 2).  A
 * target runs its work through fz_run: an error longjmps back through
 * kanon's kn_fuzz_exit hook, and the harness then frees what the
 * failed run allocated and closes the files it left open, so that
 * millions of failing inputs neither exhaust memory nor descriptors.
 */
#ifndef FUZZ_HARNESS_H
#define FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

/* Sets up the harness once: the hook, allocation tracking, a private
 * temp directory; name is the target's name for messages. */
void fz_init(const char *name);
/* Runs fn(arg); returns -1 if it returned, else the exit status the
 * core asked for (2 for an error), after freeing what fn allocated and
 * did not free and closing the descriptors it left open. */
int fz_run(void (*fn)(void *), void *arg);
/* The same, and what fn left allocated is freed also when it returns:
 * for code that leaks what a program would hold until its exit. */
int fz_run_all(void (*fn)(void *), void *arg);
/* The private temp directory (removed at exit). */
const char *fz_tmpdir(void);
/* Writes data to file name in the temp directory (replacing it);
 * returns its path (static storage, one per name slot 0..7). */
const char *fz_file(int slot, const char *name, const void *data,
    size_t n);
/* A NUL-terminated copy of data[0..n) (freed by the caller). */
char *fz_str(const uint8_t *data, size_t n);
/* The model of the start of a file (kanon(7), Tables): returns the
 * length of a UTF-8 byte-order mark at its start (0 or 3), and sets
 * *bad when what follows is compressed data or a zip archive, or when
 * the first line holds a CR before its end (CR line ends; with crrow,
 * headerless, only when no newline ends that line). */
size_t fz_text_start(const char *p, size_t n, int crrow, int *bad);
/* Aborts (a finding) with msg when cond is false. */
#define FZ_ASSERT(cond, msg) \
	((cond) ? (void)0 : fz_fail(__FILE__, __LINE__, (msg)))
void fz_fail(const char *file, int line, const char *msg)
    __attribute__((noreturn));

#endif
