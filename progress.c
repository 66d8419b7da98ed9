/*
 * progress.c: progress on the standard error, when it is a terminal or
 * --progress asks for it.  A run is a sequence of phases (reading,
 * sorting, search, partitioning, writing...), each counting its units,
 * out of a total when it is known; the line shows the current phase
 * and is redrawn at most once a second.  A phase that was shown, or
 * that lasted a second, ends with a line of its own holding its final
 * count, so what the screen shows is never the count of a phase gone
 * by.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kanon.h"

/* The progress line of the run: whether it is on, the current phase
 * (none between phases) and its counts, when the phase began and the
 * line was last drawn, and how wide the line was. */
static struct {
	int on;
	long interval_ms;	/* between redraws; 1000 */
	char phase[64];		/* "": no phase */
	const char *unit;
	uint64_t total;		/* 0: not known */
	uint64_t done, bytes;
	int shown;		/* the phase's line is on the screen */
	int current;		/* with the counts as they are */
	struct timespec start, last;
	size_t width;
} progress = { 0, 1000, "", "rows", 0, 0, 0, 0, 0, { 0, 0 }, { 0, 0 },
    0 };

/* The count of the current phase that kn_progress_add adds to from
 * any thread; the thread that holds mu draws the line (kn_progress is
 * not for several threads at once). */
static struct {
	uint64_t done;
	pthread_mutex_t mu;
} shared_count = { 0, PTHREAD_MUTEX_INITIALIZER };

static long
ms_since(const struct timespec *t, const struct timespec *now)
{
	return (long)(now->tv_sec - t->tv_sec) * 1000 +
	    (now->tv_nsec - t->tv_nsec) / 1000000;
}

/* Draws the line over the last one, padding out what is left of it. */
static void
draw(void)
{
	char line[160];
	int n;

	if (progress.total > 0)
		n = snprintf(line, sizeof(line), "%s: %s: %llu %s of %llu",
		    kn_prog, progress.phase, (unsigned long long)progress.done,
		    progress.unit, (unsigned long long)progress.total);
	else
		n = snprintf(line, sizeof(line), "%s: %s: %llu %s", kn_prog,
		    progress.phase, (unsigned long long)progress.done,
		    progress.unit);
	if (n > 0 && progress.bytes > 0 && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n,
		    ", %llu MB read",
		    (unsigned long long)(progress.bytes >> 20));
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	fprintf(stderr, "\r%s%*s", line,
	    progress.width > (size_t)n ? (int)(progress.width - (size_t)n) : 0,
	    "");
	progress.width = (size_t)n;
	progress.shown = progress.current = 1;
}

/* Ends the current phase: its final count on a line of its own, if it
 * was shown or lasted the interval. */
static void
phase_end(void)
{
	struct timespec now;

	if (!progress.on || progress.phase[0] == '\0')
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (progress.shown || ms_since(&progress.start, &now) >=
	    progress.interval_ms) {
		if (!progress.shown || !progress.current)
			draw();
		fputc('\n', stderr);
	}
	progress.shown = 0;
	progress.width = 0;
	progress.phase[0] = '\0';
	progress.start = now;
}

/* Ends the line on the screen, for a message to follow on its own. */
static void
break_line(void)
{
	if (progress.shown)
		fputc('\n', stderr);
	progress.shown = 0;
	progress.width = 0;
}

void
kn_progress_init(int force)
{
	/* For the tests only (tests/progress.bats): a redraw at every
	 * update, and a line for every phase. */
	const char *every = getenv("KANON_PROGRESS_EVERY_UPDATE");

	if (every != NULL && *every != '\0')
		progress.interval_ms = 0;
	progress.on = force || isatty(2);
	clock_gettime(CLOCK_MONOTONIC, &progress.start);
	if (progress.on)
		kn_before_message = break_line;
}

int
kn_progress_on(void)
{
	return progress.on;
}

void
kn_progress_phase(const char *phase, const char *unit, uint64_t total)
{
	phase_end();
	snprintf(progress.phase, sizeof(progress.phase), "%s", phase);
	progress.unit = unit;
	progress.total = total;
	progress.done = progress.bytes = 0;
	shared_count.done = 0;
	progress.current = 0;
	clock_gettime(CLOCK_MONOTONIC, &progress.start);
	progress.last = progress.start;
}

void
kn_progress_add(uint64_t n)
{
	__atomic_add_fetch(&shared_count.done, n, __ATOMIC_RELAXED);
	if (pthread_mutex_trylock(&shared_count.mu) == 0) {
		kn_progress(__atomic_load_n(&shared_count.done,
		    __ATOMIC_RELAXED), 0);
		pthread_mutex_unlock(&shared_count.mu);
	}
}

void
kn_progress(uint64_t done, uint64_t bytes)
{
	struct timespec now;

	if (!progress.on)
		return;
	if (progress.phase[0] == '\0') {
		/* Reading, since the last phase ended (or the run began). */
		strcpy(progress.phase, "reading");
		progress.unit = "rows";
		progress.total = 0;
		progress.done = progress.bytes = 0;
		progress.current = 0;
		progress.last = progress.start;
	}
	if (done != progress.done || bytes != progress.bytes)
		progress.current = 0;
	progress.done = done;
	progress.bytes = bytes;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (ms_since(&progress.last, &now) < progress.interval_ms)
		return;
	progress.last = now;
	draw();
}

void
kn_progress_done(void)
{
	phase_end();
}
