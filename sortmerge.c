/*
 * sortmerge.c: the merge of the external sort (paper 004 §4): sorted
 * sources (the lines held in memory, runs in temp files, tables sorted
 * already for -m) merged through a heap, ties to the earlier source so
 * that the sort stays stable; and the last merge of the runs on the
 * sorter's threads (kn_sort_merge_parts).  extsort.c, above it, forms
 * the runs and chooses the merges.
 */
#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sortmem.h"

/* kn_sort_split_keys, dying on a short row (named name, or a temp run). */
void
kn_sort_locate(kn_sorter *s, const char *line, size_t len, uint32_t *k,
    const char *name, uint64_t lineno)
{
	if (!kn_sort_split_keys(s, line, len, k))
		kn_die("%s:%llu: expected %zu fields, found fewer",
		    name != NULL ? name : "(temp run)",
		    (unsigned long long)lineno, s->maxcol + 1);
}

/* Reads the next line of a source; 0 at its end. */
static int
src_next(kn_sorter *s, source *x)
{
	switch (x->kind) {
	case SRC_MEM:
		if (x->i >= s->n)
			return 0;
		x->line = s->arena + s->r[x->i].off;
		x->len = s->r[x->i].len;
		x->k = (uint32_t *)(void *)(s->arena + s->r[x->i].off -
		    8 * s->nkey);
		x->p = s->r[x->i].p;
		x->i++;
		return 1;
	case SRC_RUN:
		if ((x->left > 0 && x->r.bytes >= x->left) ||
		    !kn_getline(&x->r))
			return 0;
		x->line = x->r.line;
		x->len = x->r.len;
		kn_sort_locate(s, x->line, x->len, x->k, NULL, x->r.lineno);
		break;
	default:
		if (x->line != NULL) {
			/* Keep the line before to check the input order. */
			if (x->len + 1 > x->prevcap) {
				x->prevcap = 2 * (x->len + 1);
				x->prev = kn_realloc(x->prev, x->prevcap);
			}
			memcpy(x->prev, x->line, x->len);
			x->prevlen = x->len;
			memcpy(x->prevk, x->k, 8 * s->nkey);
		}
		if (!kn_table_next(x->t))
			return 0;
		s->st.rows++;
		kn_table_join(x->t);
		x->line = x->t->r.line;
		x->len = x->t->r.len;
		kn_sort_locate(s, x->line, x->len, x->k, x->t->r.name,
		    x->t->r.lineno);
		if (x->prev != NULL && keycmp(s, x->prev, x->prevlen,
		    x->prevk, x->line, x->len, x->k) > 0)
			kn_die("%s:%llu: input is not sorted by the keys (-m)",
			    x->t->r.name, (unsigned long long)x->t->r.lineno);
		break;
	}
	kn_sort_prefix(s, x->line, x->len, x->k, &x->p);
	s->st.bytes_read += x->kind == SRC_RUN ? x->len + 1 : 0;
	return 1;
}

/* Source order: keys, then source number (stability). */
static int
srccmp(const kn_sorter *s, const source *a, const source *b)
{
	int c;

	c = pfxcmp(s, &a->p, a->line, a->len, a->k, &b->p, b->line, b->len,
	    b->k);
	if (c != 0)
		return c;
	return a->run < b->run ? -1 : a->run > b->run;
}

static void
sift(const kn_sorter *s, source **h, size_t n, size_t i)
{
	source *x = h[i];
	size_t c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && srccmp(s, h[c + 1], h[c]) < 0)
			c++;
		if (srccmp(s, h[c], x) >= 0)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

/* Merges sources src[0..n) into out (a line callback); with unique,
 * only the first line of each run of equal keys. */
void
kn_sort_merge_src(kn_sorter *s, source *src, size_t n, int unique,
    void (*out)(const char *, size_t, void *), void *ctx)
{
	source **h = kn_alloc((n + 1) * sizeof(source *));
	size_t nh = 0, i;
	char *prev = NULL;
	size_t prevlen = 0, prevcap = 0;
	uint32_t *prevk = kn_alloc(8 * s->nkey + 8);
	int have = 0;

	for (i = 0; i < n; i++) {
		src[i].k = src[i].kbuf = kn_alloc(8 * s->nkey + 8);
		src[i].prevk = kn_alloc(8 * s->nkey + 8);
		if (src_next(s, &src[i]))
			h[nh++] = &src[i];
	}
	for (i = nh / 2; i-- > 0;)
		sift(s, h, nh, i);
	while (nh > 0) {
		source *x = h[0];

		if (!unique || !have || keycmp(s, prev, prevlen, prevk,
		    x->line, x->len, x->k) != 0) {
			out(x->line, x->len, ctx);
			if (unique) {
				if (x->len + 1 > prevcap) {
					prevcap = 2 * (x->len + 1);
					prev = kn_realloc(prev, prevcap);
				}
				memcpy(prev, x->line, x->len);
				prevlen = x->len;
				kn_sort_locate(s, prev, prevlen, prevk, NULL,
				    0);
				have = 1;
			}
		}
		if (!src_next(s, x))
			h[0] = h[--nh];
		sift(s, h, nh, 0);
	}
	for (i = 0; i < n; i++) {
		free(src[i].kbuf);
		free(src[i].prevk);
		free(src[i].prev);
	}
	free(h);
	free(prev);
	free(prevk);
}

void
kn_sort_open_run(source *x, const char *path, size_t run, size_t bufsz)
{
	memset(x, 0, sizeof(*x));
	x->kind = SRC_RUN;
	x->run = run;
	kn_reader_open_size(&x->r, path, bufsz);
	x->r.keepcr = 1;	/* lines are as they were added */
	x->r.temp = 1;
}

/*
 * The last merge on several threads.  Splitters are keys taken from the
 * largest run at even steps; part p holds, of every run, the lines whose
 * keys pass splitter p - 1 and not splitter p.  Equal keys fall in one
 * part, so a part's merge (ties to the earlier run) is a stretch of the
 * one merge's output, and the parts one after the other are all of it.
 * The threads take the parts in order and merge each into chunks, which
 * the caller's thread hands to out in the parts' order.  A run is cut
 * by a binary search over its bytes (run_upper), a line read where each
 * probe lands.
 */
#define MPARTS 32

/* The first line of the run at fd (size bytes) that starts at or after
 * off: its start in *at (size: none), the line in *buf (grown), its
 * length returned. */
static size_t
line_after(int fd, uint64_t size, uint64_t off, char **buf, size_t *cap,
    uint64_t *at)
{
	uint64_t pos = off > 0 ? off - 1 : 0;
	size_t n = 0, got, from;
	int start = off == 0;
	char *nl;

	for (;;) {
		if (n + 4096 > *cap) {
			*cap = 2 * (n + 4096);
			*buf = kn_realloc(*buf, *cap);
		}
		got = 0;
		if (pos < size) {
			/* What the buffer holds: a long line is read in
			 * reads that grow with it. */
			ssize_t r = pread(fd, *buf + n, *cap - n, (off_t)pos);

			if (r < 0)
				kn_die_sys("(temp run): read error");
			got = (size_t)r;
		}
		if (got == 0) {
			/* The end: a run's last line ends in a newline. */
			*at = size;
			return 0;
		}
		pos += got;
		if (!start) {
			nl = memchr(*buf, '\n', got);
			if (nl == NULL)
				continue;
			/* The line starts after the newline. */
			start = 1;
			*at = pos - got + (uint64_t)(nl - *buf) + 1;
			n = got - (size_t)(nl - *buf) - 1;
			memmove(*buf, nl + 1, n);
			from = 0;
		} else {
			if (n == 0 && off == 0)
				*at = 0;
			from = n;
			n += got;
		}
		/* Only the bytes new since the last read: a line of L
		 * bytes is looked at once, not L / 4096 times. */
		if ((nl = memchr(*buf + from, '\n', n - from)) != NULL)
			return (size_t)(nl - *buf);
		if (*at >= size)
			return 0;
	}
}

/* The start of the first line of the run at fd whose key passes the
 * splitter (sp, its keys spk), or size. */
static uint64_t
run_upper(kn_sorter *s, int fd, uint64_t size, const char *sp, size_t spn,
    const uint32_t *spk, char **buf, size_t *cap, uint32_t *k)
{
	uint64_t lo = 0, hi = size, mid, at;
	size_t n;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		n = line_after(fd, size, mid, buf, cap, &at);
		if (at < size)
			kn_sort_locate(s, *buf, n, k, NULL, 0);
		if (at >= size || keycmp(s, *buf, n, k, sp, spn, spk) > 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	line_after(fd, size, lo, buf, cap, &at);
	return at;
}

/* A part's output: chunks of its lines, each ended by a newline. */
struct mchunk {
	struct mchunk *next;
	size_t len, cap;
	int pooled;		/* cut from the sorter's buffers: not freed */
	char buf[];
};

/* What the parts' threads share with the one that writes: the part
 * written now, and the bytes of the chunks waiting, within limit. */
struct mshare {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t cur;
	size_t bytes, limit, chunk;
	struct mpart *m;	/* the parts, taken in order (next) */
	size_t np, next;
	const uint64_t *cut;	/* where each part starts in each run */
	const int *fd;		/* each run, to drop what a part has read */
	size_t bufsz;
	struct mchunk *free;	/* chunks written, to be filled again (their
				 * pages kept) */
	int out;		/* writing directly: the output, or -1 */
	const char *outname;
	uint64_t *off;		/* writing directly: where each part goes */
};

/* A part merged by a thread into chunks, handed on in order. */
struct mpart {
	kn_sorter view;		/* the sorter's copy: its own counts */
	source *src;
	size_t n, id;
	int unique;
	struct mshare *sh;
	struct mchunk *head, *tail, *fill;
	size_t queued;
	uint64_t written;	/* writing directly: the part's bytes so far */
	int done;
};

/* Hands on m's chunk.  The part written now waits only while 8 of its
 * chunks wait; the others while the chunks waiting pass the limit. */
static void
mpart_put(struct mpart *m)
{
	struct mshare *sh = m->sh;
	struct mchunk *c = m->fill;

	m->fill = NULL;
	pthread_mutex_lock(&sh->mu);
	c->next = NULL;
	if (m->tail != NULL)
		m->tail->next = c;
	else
		m->head = c;
	m->tail = c;
	m->queued++;
	sh->bytes += c->cap;
	pthread_cond_broadcast(&sh->cv);
	while (m->id == sh->cur ? m->queued > 8 : sh->bytes > sh->limit)
		pthread_cond_wait(&sh->cv, &sh->mu);
	pthread_mutex_unlock(&sh->mu);
}

/* Writing directly: m's chunk written at its place in the output, and
 * kept for the next lines, or with last given back. */
static void
mpart_write(struct mpart *m, int last)
{
	struct mshare *sh = m->sh;
	struct mchunk *c = m->fill;
	uint64_t at = sh->off[m->id] + m->written;

	if (kn_pwrite_all(sh->out, c->buf, c->len, at) != 0)
		kn_die_sys("%s: write error", sh->outname);
	m->written += c->len;
	c->len = 0;
	if (!last && c->cap == sh->chunk)
		return;
	m->fill = NULL;
	if (c->cap != sh->chunk) {
		free(c);
		return;
	}
	pthread_mutex_lock(&sh->mu);
	c->next = sh->free;
	sh->free = c;
	pthread_mutex_unlock(&sh->mu);
}

static void
mpart_line(const char *line, size_t len, void *ctx)
{
	struct mpart *m = ctx;
	struct mchunk *c = m->fill;

	if (c != NULL && c->len + len + 1 > c->cap) {
		if (m->sh->out >= 0)
			mpart_write(m, len + 1 > c->cap);
		else
			mpart_put(m);
		c = m->fill;
	}
	if (c == NULL && len + 1 <= m->sh->chunk) {
		pthread_mutex_lock(&m->sh->mu);
		if ((c = m->sh->free) != NULL)
			m->sh->free = c->next;
		pthread_mutex_unlock(&m->sh->mu);
	}
	if (c == NULL) {
		size_t cap = len + 1 > m->sh->chunk ? len + 1 : m->sh->chunk;

		c = kn_alloc(sizeof(*c) + cap);
		c->cap = cap;
		c->pooled = 0;
	}
	if (m->fill == NULL) {
		m->fill = c;
		c->len = 0;
	}
	memcpy(c->buf + c->len, line, len);
	c->buf[c->len + len] = '\n';
	c->len += len + 1;
}

/* Opens the runs of part m where it starts, with a read buffer of
 * bufsz bytes each. */
static void
mpart_open(struct mpart *m, const uint64_t *cut, size_t np, size_t bufsz)
{
	const kn_sorter *s = &m->view;
	size_t j, i = m->id;

	m->src = kn_alloc(s->nrun * sizeof(source));
	for (j = 0; j < s->nrun; j++) {
		source *x = &m->src[j];

		kn_sort_open_run(x, s->run[j], j, bufsz);
		if (lseek(x->r.fd, (off_t)cut[j * (np + 1) + i], SEEK_SET) < 0)
			kn_die_sys("%s", s->run[j]);
		x->left = cut[j * (np + 1) + i + 1] - cut[j * (np + 1) + i];
		if (x->left == 0)
			x->r.eof = 1;
	}
}

static void
mpart_close(struct mpart *m)
{
	size_t j;

	for (j = 0; j < m->n; j++)
		kn_reader_close(&m->src[j].r);
	free(m->src);
	m->src = NULL;
}

/* The work of a thread of the last merge: the parts in order, each
 * merged into chunks. */
static void
mpart_work(struct mshare *sh)
{
	struct mpart *m;
	size_t i, j;

	for (;;) {
		pthread_mutex_lock(&sh->mu);
		i = sh->next < sh->np ? sh->next++ : sh->np;
		pthread_mutex_unlock(&sh->mu);
		if (i == sh->np)
			break;
		m = &sh->m[i];
		mpart_open(m, sh->cut, sh->np, sh->bufsz);
		kn_sort_merge_src(&m->view, m->src, m->n, m->unique,
		    mpart_line, m);
		for (j = 0; j < m->n; j++)
			kn_tmp_drop(sh->fd[j], sh->cut[j * (sh->np + 1) + i],
			    sh->cut[j * (sh->np + 1) + i + 1] -
			    sh->cut[j * (sh->np + 1) + i]);
		mpart_close(m);
		if (m->fill != NULL && sh->out >= 0)
			mpart_write(m, 1);
		else if (m->fill != NULL)
			mpart_put(m);
		if (sh->out >= 0 && m->written != sh->off[i + 1] - sh->off[i])
			kn_die("internal error: a part of the merge wrote %llu "
			    "bytes of %llu", (unsigned long long)m->written,
			    (unsigned long long)(sh->off[i + 1] - sh->off[i]));
		pthread_mutex_lock(&sh->mu);
		m->done = 1;
		pthread_cond_broadcast(&sh->cv);
		pthread_mutex_unlock(&sh->mu);
	}
}

/* A thread of the last merge. */
static void *
mpart_run(void *arg)
{
	kn_thread_nosignals();
	mpart_work(arg);
	return NULL;
}

/* The chunks' first memory: the sorter's arena and records, which
 * the last lines left (their pages still mapped, where fresh memory
 * would be faulted in again), cut into chunks within the limit, the
 * rest given back.  kn_sort_finish frees them after the merge. */
static void
mchunk_pool(kn_sorter *s, struct mshare *sh)
{
	size_t slot = (sizeof(struct mchunk) + sh->chunk + 15) & ~(size_t)15;
	size_t left = sh->limit, k, use, off;
	char *base[2];
	size_t size[2], hw[2] = { s->ahw, s->rhw };

	base[0] = s->arena;
	size[0] = s->arena != NULL ? s->acap : 0;
	base[1] = (char *)s->r;
	size[1] = s->r != NULL ? s->rcap * sizeof(rec) : 0;
	for (k = 0; k < 2; k++) {
		/* Taken ahead, a block is larger than what the rows
		 * touched (its high-water mark): only that is cut into
		 * chunks, whose headers would touch the rest. */
		use = s->ahead && hw[k] < size[k] ? hw[k] : size[k];
		use = use < left ? use : left;
		use -= use % slot;
		if (use == 0) {
			free(base[k]);
			base[k] = NULL;
		} else if (s->ahead)
			base[k] = kn_shrink(base[k], use, size[k]);
		else if (use < size[k])
			base[k] = kn_realloc(base[k], use);
		left -= use;
		for (off = 0; off < use; off += slot) {
			struct mchunk *c = (struct mchunk *)(void *)
			    (base[k] + off);

			c->cap = sh->chunk;
			c->pooled = 1;
			c->next = sh->free;
			sh->free = c;
		}
	}
	s->arena = base[0];
	s->r = (rec *)(void *)base[1];
	s->acap = s->rcap = 0;
}

/* Hands the lines of chunk c to out, or all at once to s->bulk. */
static void
mchunk_out(const kn_sorter *s, struct mchunk *c,
    void (*out)(const char *, size_t, void *), void *ctx)
{
	char *p = c->buf, *e = p + c->len, *nl;

	if (s->bulk != NULL) {
		s->bulk(p, c->len, ctx);
		return;
	}
	for (; p < e; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(e - p));
		*nl = '\0';
		out(p, (size_t)(nl - p), ctx);
	}
}

/* Writing directly (kn_sort_direct): the output's descriptor from the
 * caller, its name and offset, if it is a regular file not open for
 * appending, where the threads' pwrite will land; else -1. */
static int
direct_out(kn_sorter *s, void *ctx, const char **name, uint64_t *at)
{
	struct stat st;
	off_t off;
	int fd, fl;

	if (s->direct == NULL || (fd = s->direct(ctx, name)) < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (fl = fcntl(fd, F_GETFL)) < 0 || (fl & O_APPEND) ||
	    (off = lseek(fd, 0, SEEK_CUR)) < 0)
		return -1;
	*at = (uint64_t)off;
	return fd;
}

/* The last merge of the runs, on the sorter's threads; 0 when the runs
 * give no splitter (one key throughout), and nothing was done. */
int
kn_sort_merge_parts(kn_sorter *s, int unique, size_t bufsz,
    void (*out)(const char *, size_t, void *), void *ctx)
{
	size_t nt = (size_t)s->threads, np, nsp = 0, i, j, big = 0, len;
	uint64_t *size = kn_alloc(s->nrun * sizeof(uint64_t));
	uint64_t *cut, at, pos = 0;
	int *fd = kn_alloc(s->nrun * sizeof(int));
	char *sp[MPARTS], *buf = NULL;
	size_t spn[MPARTS], cap = 0;
	struct mshare sh;
	uint32_t *spk[MPARTS], *k = kn_alloc(8 * s->nkey + 8);
	struct mpart *m;
	struct stat st;
	struct rlimit rl;
	pthread_t th[MPARTS];

	if (nt > MPARTS / 4)
		nt = MPARTS / 4;
	/* Each thread's part opens every run, and this one holds each
	 * open: within the limit on open files that the fan-in kept
	 * (fanin). */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (nt + 1) * s->nrun + 16 > rl.rlim_cur) {
		nt = rl.rlim_cur > 16 ? (size_t)(rl.rlim_cur - 16) / s->nrun :
		    0;
		nt = nt > 0 ? nt - 1 : 0;
	}
	/* Four parts a thread: while the threads merge the parts ahead,
	 * this one writes those done, and the last is short. */
	np = 4 * nt;
	if (nt < 1 || s->threads < 2) {
		free(size);
		free(fd);
		free(k);
		return 0;
	}
	for (j = 0; j < s->nrun; j++) {
		/* Writable, for kn_tmp_drop (a run is a temp file of
		 * this process). */
		fd[j] = open(s->run[j], O_RDWR);
		if (fd[j] < 0 || fstat(fd[j], &st) != 0)
			kn_die_sys("%s", s->run[j]);
		size[j] = (uint64_t)st.st_size;
		if (size[j] > size[big])
			big = j;
	}
	/* Splitters: the lines at even steps of the largest run, each
	 * kept only if its key passes the one before. */
	for (i = 1; i < np; i++) {
		len = line_after(fd[big], size[big], size[big] * i / np, &buf,
		    &cap, &at);
		if (at >= size[big])
			break;
		kn_sort_locate(s, buf, len, k, NULL, 0);
		if (nsp > 0 && keycmp(s, buf, len, k, sp[nsp - 1],
		    spn[nsp - 1], spk[nsp - 1]) <= 0)
			continue;
		sp[nsp] = kn_alloc(len + 1);
		memcpy(sp[nsp], buf, len);
		spn[nsp] = len;
		spk[nsp] = kn_alloc(8 * s->nkey + 8);
		memcpy(spk[nsp], k, 8 * s->nkey);
		nsp++;
	}
	if (nsp == 0) {
		for (j = 0; j < s->nrun; j++)
			close(fd[j]);
		free(fd);
		free(size);
		free(buf);
		free(k);
		return 0;
	}
	np = nsp + 1;
	/* cut[j * (np + 1) + p]: where part p starts in run j. */
	cut = kn_alloc(s->nrun * (np + 1) * sizeof(uint64_t));
	for (j = 0; j < s->nrun; j++) {
		cut[j * (np + 1)] = 0;
		for (i = 0; i < nsp; i++)
			cut[j * (np + 1) + i + 1] = run_upper(s, fd[j], size[j],
			    sp[i], spn[i], spk[i], &buf, &cap, k);
		cut[j * (np + 1) + np] = size[j];
	}
	free(buf);
	/* The parts merged in order by nt threads into chunks, which this
	 * thread writes in turn; those of the parts ahead wait within the
	 * budget that the read buffers leave.  Writing directly, each
	 * thread (this one too) has one chunk, written at its part's place
	 * as it fills. */
	memset(&sh, 0, sizeof(sh));
	pthread_mutex_init(&sh.mu, NULL);
	pthread_cond_init(&sh.cv, NULL);
	sh.limit = s->budget > s->nrun * bufsz ? s->budget - s->nrun * bufsz :
	    0;
	sh.out = unique ? -1 : direct_out(s, ctx, &sh.outname, &pos);
	sh.chunk = sh.limit / (sh.out >= 0 ? 2 * nt : 16 * np);
	if (sh.chunk > ((size_t)1 << 20))
		sh.chunk = (size_t)1 << 20;
	if (sh.chunk < ((size_t)4 << 10))
		sh.chunk = (size_t)4 << 10;
	if (sh.out >= 0) {
		sh.limit = nt * ((sizeof(struct mchunk) + sh.chunk + 15) &
		    ~(size_t)15);
		sh.off = kn_alloc((np + 1) * sizeof(uint64_t));
		for (i = 0; i <= np; i++) {
			sh.off[i] = pos;
			for (j = 0; i < np && j < s->nrun; j++)
				pos += cut[j * (np + 1) + i + 1] -
				    cut[j * (np + 1) + i];
		}
	}
	mchunk_pool(s, &sh);
	m = kn_zalloc(np * sizeof(*m));
	for (i = 0; i < np; i++) {
		m[i].view = *s;
		m[i].view.arena = NULL;
		m[i].view.r = NULL;
		m[i].view.st.bytes_read = m[i].view.st.bytes_written = 0;
		m[i].unique = unique;
		m[i].n = s->nrun;
		m[i].id = i;
		m[i].sh = &sh;
	}
	sh.m = m;
	sh.np = np;
	sh.cut = cut;
	sh.fd = fd;
	sh.bufsz = bufsz / nt;
	for (j = 0; j < nt - (sh.out >= 0); j++)
		if (pthread_create(&th[j], NULL, mpart_run, &sh) != 0)
			break;
	nt = j;
	if (sh.out >= 0) {
		/* This thread merges too; the output's offset is left after
		 * the lines. */
		mpart_work(&sh);
	} else if (nt == 0)
		sh.next = np;	/* no thread: each part merged here */
	for (i = 0; sh.out < 0 && i < np; i++) {
		struct mchunk *c;

		pthread_mutex_lock(&sh.mu);
		sh.cur = i;
		pthread_cond_broadcast(&sh.cv);
		while (nt > 0) {
			while (m[i].head == NULL && !m[i].done)
				pthread_cond_wait(&sh.cv, &sh.mu);
			if ((c = m[i].head) == NULL)
				break;
			if ((m[i].head = c->next) == NULL)
				m[i].tail = NULL;
			m[i].queued--;
			sh.bytes -= c->cap;
			pthread_cond_broadcast(&sh.cv);
			pthread_mutex_unlock(&sh.mu);
			mchunk_out(s, c, out, ctx);
			pthread_mutex_lock(&sh.mu);
			if (c->cap == sh.chunk) {
				c->next = sh.free;
				sh.free = c;
			} else
				free(c);
		}
		pthread_mutex_unlock(&sh.mu);
		if (nt == 0) {
			mpart_open(&m[i], cut, np, bufsz);
			kn_sort_merge_src(&m[i].view, m[i].src, s->nrun,
			    unique, out, ctx);
			mpart_close(&m[i]);
		}
	}
	for (j = 0; j < nt; j++)
		pthread_join(th[j], NULL);
	for (i = 0; i < sh.np; i++)
		s->st.bytes_read += m[i].view.st.bytes_read;
	if (sh.out >= 0 && lseek(sh.out, (off_t)sh.off[sh.np], SEEK_SET) < 0)
		kn_die_sys("%s", sh.outname);
	free(sh.off);
	while (sh.free != NULL) {
		struct mchunk *c = sh.free;

		sh.free = c->next;
		if (!c->pooled)
			free(c);
	}
	pthread_mutex_destroy(&sh.mu);
	pthread_cond_destroy(&sh.cv);
	for (i = 0; i < nsp; i++) {
		free(sp[i]);
		free(spk[i]);
	}
	free(m);
	free(cut);
	for (j = 0; j < s->nrun; j++)
		close(fd[j]);
	free(fd);
	free(size);
	free(k);
	return 1;
}
