/*
 * regions.c: recode -r, the release by partition's regions (paper 003
 * Figure 3, §5 and Figure 8): the regions file read and checked against
 * the table (Q_min, Q_max, Q_mean, Q_missing per numeric or date
 * quasi-identifier, the node of a categorical one), each row's class
 * labels, the first pass's count of the classes, and the checks that
 * the rows are the regions' (counts, extents, missing values).  Regions
 * past a quarter of -S are kept on disk (keyset.c), and the rows are
 * joined with them by sorts (regions_join), with the same checks and
 * messages.
 */
#include <sys/stat.h>

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recode.h"

/* Splits s at tabs in place; returns the fields (n of them). */
char **
regions_tabsplit(char *s, size_t *n)
{
	char **f = NULL, *p = s, *t;
	size_t cap = 0;

	*n = 0;
	for (;;) {
		f = kn_grow(f, &cap, *n, sizeof(char *), 16);
		f[(*n)++] = p;
		if ((t = strchr(p, '\t')) == NULL)
			return f;
		*t = '\0';
		p = t + 1;
	}
}

/* Forgets the leaves of generated hierarchy h once it holds GEN_RESET
 * of them or more than room bytes (checked every 1,024 leaves): its
 * labels are made again as values come, the same, so that memory stays
 * bounded by -S. */
void
regions_hier_bound(kn_hier *h, size_t room)
{
	size_t b = 0;
	int l;

	if (h->kind == KN_HFILE)
		return;
	if (h->lab[0].n <= GEN_RESET) {
		if ((h->lab[0].n & 0x3ff) != 0)
			return;
		for (l = 0; l < h->nlevels; l++)
			b += kn_dict_bytes(&h->lab[l]) + h->upcap[l] * 4;
		if (b <= room)
			return;
	}
	kn_hier_reset(h);
}

/* How a value stands to its class's region (region_fit). */
enum { FIT, NOT_NUMBER, NOT_DATE, NOT_LEAF, OUTSIDE, NO_HIER, MISSING };

/* Whether s is a positive integer as written by partition (no sign, no
 * leading zero, at most 19 digits); sets *v. */
static int
posint(const char *s, uint64_t *v)
{
	const char *p;

	if (*s < '1' || *s > '9')
		return 0;
	for (p = s; *p >= '0' && *p <= '9'; p++)
		;
	if (*p != '\0' || p - s > 19)
		return 0;
	*v = strtoull(s, NULL, 10);
	return 1;
}

/* Waits until fd has input or is at its end, without reading it. */
void
regions_wait_input(int fd)
{
	struct pollfd p;

	p.fd = fd;
	p.events = POLLIN;
	while (poll(&p, 1, -1) < 0)
		if (errno != EINTR)
			kn_die_sys("poll");
}

/* Memory for the labels of a region, freed with the window's when the
 * regions are out of core. */
static void *
region_alloc(struct regions *rg, size_t n)
{
	void *p = kn_alloc(n);

	rg->walloc = kn_grow(rg->walloc, &rg->wacap, rg->nwalloc,
	    sizeof(void *), 16);
	rg->walloc[rg->nwalloc++] = p;
	return p;
}

/* Frees what region_alloc gave. */
static void
region_free_window(struct regions *rg)
{
	size_t i;

	for (i = 0; i < rg->nwalloc; i++)
		free(rg->walloc[i]);
	rg->nwalloc = 0;
}

/* A release of a class holding numbers and missing values: the
 * numbers' summary s, '|' and the missing token. */
static kn_str
or_missing(struct regions *rg, kn_str s)
{
	const char *tok = kn_missing_token();
	size_t n = s.n + 1 + strlen(tok);
	char *b = region_alloc(rg, n + 1);
	kn_str r;

	snprintf(b, n + 1, "%.*s|%s", (int)s.n, s.p, tok);
	r.p = b;
	r.n = n;
	return r;
}

/* Reads the Q_missing field v[3] of a class of cnt rows into B; the
 * extents v[0..3) must be empty when every value is missing, and then
 * returns 0. */
static int
region_missing(char **f, char **v, struct bound *B, uint64_t cnt,
    const char *col, const char *path, unsigned long long ln)
{
	uint64_t miss = 0;

	if (strcmp(v[3], "0") != 0 && !posint(v[3], &miss))
		kn_die("%s:%llu: column '%s': '%s' is not a count", path, ln,
		    col, v[3]);
	if (miss > cnt)
		kn_die("%s:%llu: class %s: %s %s is above its count %llu",
		    path, ln, f[0], col, v[3], (unsigned long long)cnt);
	B->miss = miss;
	B->nonum = miss == cnt;
	if (B->nonum != (*v[0] == '\0') || B->nonum != (*v[1] == '\0') ||
	    B->nonum != (*v[2] == '\0'))
		kn_die("%s:%llu: class %s: the least, greatest and mean values "
		    "must be empty exactly when all %llu values are missing "
		    "(%s %s)", path, ln, f[0], (unsigned long long)cnt, col,
		    v[3]);
	return !B->nonum;
}

/* Reads value s of date QI i of the regions (path:ln, column col) as
 * its day or second into *m (scale 0): a date of the form of the first
 * line's. */
static void
region_date(struct regions *rg, size_t i, const char *s, kn_i128 *m, int *sc,
    const char *path, unsigned long long ln, const char *col)
{
	int64_t v;
	int f = kn_date_parse(s, strlen(s), &v);

	if (f == KN_DATE_NONE)
		kn_die("%s:%llu: column '%s': '%s' %s", path, ln, col, s,
		    kn_date_why(s, strlen(s), rg->why, sizeof(rg->why)));
	if (rg->dform[i] < 0)
		rg->dform[i] = f;
	else if (f != rg->dform[i])
		kn_die("%s:%llu: column '%s': '%s' is a %s, but the regions "
		    "before it hold %ss", path, ln, col, s, f == KN_DATE_DAY ?
		    "date" : "date-time", f == KN_DATE_DAY ? "date-time" :
		    "date");
	*m = v;
	*sc = 0;
}

/*
 * Reads the fields f of the region of line ln into slot x: its labels
 * (made once, as they are written) and the ranges of its numeric
 * quasi-identifiers, checked: min <= mean <= max, dates of one form,
 * missing values within the count.
 */
static void
region_parse(struct recoding *rc, struct regions *rg, char **f,
    unsigned long long ln, size_t x)
{
	const char *path = rg->path;
	char **name = rg->hname;
	size_t *fld = rg->fld, i, j, len, k = 0;
	kn_str *L = rg->lab + x * rg->nl;
	struct bound *B;
	uint64_t cnt;
	kn_i128 m[3];
	int sc[3], summary = rg->summary;
	int64_t day;

	(void)posint(f[1], &cnt);
	for (i = 0; i < rg->nqi; i++) {
		char **v = f + fld[i], *range;

		if (!rg->num[i]) {
			L[i].p = v[0];
			L[i].n = strlen(v[0]);
			continue;
		}
		B = &rg->bd[x * rg->nqi + i];
		B->miss = B->mseen = 0;
		B->nonum = 0;
		if (rg->num[i] == 2 && !region_missing(f, v, B, cnt,
		    name[fld[i] + 3], path, ln)) {
			/* All missing: the token is the release. */
			L[i].p = kn_missing_token();
			L[i].n = strlen(L[i].p);
			if (summary == SUM_BOTH)
				L[rc->nq + k++] = L[i];
			continue;
		}
		for (j = 0; j < 3; j++)
			if (rg->dform[i] != KN_DATE_NONE)
				region_date(rg, i, v[j], &m[j], &sc[j], path, ln,
				    name[fld[i] + j]);
			else if (!kn_dec_parse(v[j], strlen(v[j]), &m[j],
			    &sc[j]))
				kn_die("%s:%llu: column '%s': '%s' is not a "
				    "number%s", path, ln, name[fld[i] + j], v[j],
				    kn_date_parse(v[j], strlen(v[j]), &day) !=
				    KN_DATE_NONE ? " (a date: name the column "
				    "with --date)" : "");
		/* min <= mean <= max, or it is no region. */
		if (kn_dec_cmp(m[0], sc[0], m[1], sc[1]) > 0)
			kn_die("%s:%llu: class %s: %s '%s' is above %s '%s'",
			    path, ln, f[0], name[fld[i]], v[0],
			    name[fld[i] + 1], v[1]);
		if (kn_dec_cmp(m[2], sc[2], m[0], sc[0]) < 0 ||
		    kn_dec_cmp(m[2], sc[2], m[1], sc[1]) > 0)
			kn_die("%s:%llu: class %s: %s '%s' is not from %s to "
			    "%s", path, ln, f[0], name[fld[i] + 2], v[2], v[0],
			    v[1]);
		B->lo = m[0];
		B->slo = sc[0];
		B->los = v[0];
		B->means = v[2];
		B->sum = 0;
		B->ssc = B->over = B->hit = 0;
		B->hi = m[1];
		B->shi = sc[1];
		B->his = v[1];
		if (strcmp(v[0], v[1]) == 0)
			range = v[0];
		else {
			len = strlen(v[0]) + strlen(v[1]) + 4;
			range = region_alloc(rg, len);
			/* Dates: ISO 8601's interval (kanon(7), DATES). */
			snprintf(range, len, rg->dform[i] != KN_DATE_NONE ?
			    "%s/%s" : "[%s-%s]", v[0], v[1]);
		}
		L[i].p = summary == SUM_MEAN ? v[2] : range;
		L[i].n = strlen(L[i].p);
		if (summary == SUM_BOTH) {
			L[rc->nq + k].p = v[2];
			L[rc->nq + k++].n = strlen(v[2]);
		}
		if (B->miss > 0) {
			/* Numbers and missing values: both said. */
			L[i] = or_missing(rg, L[i]);
			if (summary == SUM_BOTH)
				L[rc->nq + k - 1] = or_missing(rg,
				    L[rc->nq + k - 1]);
		}
	}
	L[rg->nqi].p = f[0];
	L[rg->nqi].n = strlen(f[0]);
}

/* ---- regions out of core ------------------------------------------ */

/*
 * When the regions outgrow a quarter of -S, every region goes to a
 * keyset (keyset.c) as a line "ID<TAB>LINE<TAB>the line as written",
 * the id and line number in 20 digits so that the lines sort by id,
 * and the rows read of each class to a file of counts, one record per
 * region in that order.  Memory holds one region, the window, in slot
 * 0: a row's class is looked up, its region parsed again from its line
 * (with the same checks) and its counts read; so every message is the
 * one the regions in memory give.
 */

/* Bytes of a region's record of counts: the rows read, and per
 * quasi-identifier its missing values read. */
static size_t
region_rec(const struct regions *rg)
{
	return (1 + rg->nqi + (rg->sums ? 4 * rg->nqi : 0)) *
	    sizeof(uint64_t);
}

/* The words of a record that hold the sums (region_rec): per QI, the
 * sum's low and high halves, its scale, and over | hit << 1. */
static size_t
sums_at(const struct regions *rg)
{
	return 1 + rg->nqi;
}

/* Adds a region's line, after its key kb, to the keyset. */
static void
region_add(struct regions *rg, const char *kb, const char *line, size_t n)
{
	size_t kl = strlen(kb);

	rg->wline = kn_grow(rg->wline, &rg->wcap, kl + n + 1, 1, 256);
	memcpy(rg->wline, kb, kl);
	memcpy(rg->wline + kl, line, n);
	keyset_add(&rg->ks, rg->wline, kl + n);
}

/* A class id as written, padded with spaces to 20 bytes into kb (of
 * n bytes, at least 21): the key of its region on disk and of its
 * rows in the join, in the byte order of the ids (as the first pass's
 * groups are); returns its length, 20. */
static size_t
id_key(char *kb, size_t n, const char *id, size_t idlen)
{
	return (size_t)snprintf(kb, n, "%-20.*s", (int)idlen, id);
}

/* Whether v is a class id as partition writes it (as posint). */
static int
class_id(kn_str v)
{
	size_t i;

	if (v.n == 0 || v.n > 19 || v.p[0] < '1' || v.p[0] > '9')
		return 0;
	for (i = 1; i < v.n; i++)
		if (v.p[i] < '0' || v.p[i] > '9')
			return 0;
	return 1;
}

/* The key of a region on disk, before its line: its id (id_key), then
 * its line number. */
static void
region_kb(char *kb, size_t n, const char *id, size_t idlen, uint64_t ln)
{
	size_t k = id_key(kb, n, id, idlen);

	snprintf(kb + k, n - k, "\t%020llu\t", (unsigned long long)ln);
}

/* The regions read so far go to disk, and the window takes slot 0. */
static void
regions_spill(struct regions *rg)
{
	char kb[48];
	size_t i, j;

	keyset_init(&rg->ks, 20, rg->budget / 4, rg->tmpdir);
	for (i = 0; i < rg->n; i++) {
		/* The line as read: its fields were split at tabs. */
		for (j = 0; j < rg->txtlen[i]; j++)
			if (rg->txt[i][j] == '\0')
				rg->txt[i][j] = '\t';
		region_kb(kb, sizeof(kb), rg->txt[i],
		    strcspn(rg->txt[i], "\t"), rg->line[i]);
		region_add(rg, kb, rg->txt[i], rg->txtlen[i]);
		free(rg->txt[i]);
	}
	region_free_window(rg);
	free(rg->txt);
	free(rg->txtlen);
	rg->txt = NULL;
	rg->txtlen = NULL;
	kn_dict_free(&rg->ids);
	rg->nall = rg->n;
	rg->n = 1;
	rg->ooc = 1;
}

/* A region's line as the keyset holds it: its id and line number and
 * the line as written, whose fields (split in place) go to *f. */
static void
region_split(char *s, uint64_t *id, unsigned long long *ln, char ***f)
{
	size_t nf;

	*id = strtoull(s, NULL, 10);
	*ln = strtoull(s + 21, NULL, 10);
	*f = regions_tabsplit(s + 42, &nf);
}

/* The first class named twice, as the regions in memory would find it:
 * that of the least second line. */
static void
region_sealed(const char *line, size_t n, uint64_t rank, void *ctx)
{
	struct regions *rg = ctx;
	unsigned long long ln = strtoull(line + 21, NULL, 10);

	(void)n;
	if (rank > 0 && memcmp(line, rg->prev, 20) == 0 &&
	    (rg->dupline == 0 || ln < rg->dupline)) {
		rg->dupline = ln;
		rg->dupfirst = rg->prevline;
		rg->dupid = strtoull(line, NULL, 10);
	}
	if (rank == 0 || memcmp(line, rg->prev, 20) != 0) {
		memcpy(rg->prev, line, 20);
		rg->prevline = ln;
	}
}

/* Sorts the regions on disk, checks that no class is named twice, and
 * makes the file of counts. */
static void
regions_seal(struct regions *rg)
{
	rg->n = 1;
	keyset_seal(&rg->ks, region_sealed, rg);
	if (rg->dupline > 0)
		kn_die("%s:%llu: class %llu appears twice (first on line %llu)",
		    rg->path, rg->dupline, (unsigned long long)rg->dupid,
		    rg->dupfirst);
	rg->crec = kn_zalloc(region_rec(rg));
	/* The counts in memory if they fit in an eighth of -S, each as
	 * wide as the largest count and one more: a row past its class's
	 * count is an error at once, but the first pass adds up groups, so
	 * a wider sum (window_store) is an error kept aside. */
	rg->cw = rg->maxcnt < 254 ? 1 : rg->maxcnt < 65534 ? 2 :
	    rg->maxcnt < 4294967294U ? 4 : 8;
	if (rg->nall * ((1 + rg->nqi) * rg->cw + (rg->sums ? 32 * rg->nqi :
	    0)) <= rg->budget / 8) {
		rg->cmem = kn_zalloc(rg->nall * (1 + rg->nqi) * rg->cw + 1);
		if (rg->sums)
			rg->smem = kn_zalloc(rg->nall * 32 * rg->nqi + 1);
		return;
	}
	rg->cfd = kn_mktemp(rg->tmpdir, &rg->cpath);
	if (ftruncate(rg->cfd, (off_t)(rg->nall * region_rec(rg))) < 0)
		kn_die_sys("%s", rg->cpath);
	/* A bit per region, if it fits: whether its counts are on disk
	 * (none are zero), so that a first visit reads nothing. */
	if (rg->nall / 8 < rg->budget / 16)
		rg->cset = kn_zalloc(rg->nall / 8 + 1);
}

/* Whether the counts of region r may be other than zero on disk. */
static int
counts_on_disk(const struct regions *rg, uint64_t r)
{
	return rg->cmem != NULL || rg->cset == NULL ||
	    (rg->cset[r / 8] & 1 << r % 8);
}

/* Reads or writes record rank of the counts. */
static void
counts_io(struct regions *rg, uint64_t rank, int wr)
{
	size_t n = region_rec(rg), i, w = rg->cw;
	off_t at = (off_t)(rank * n);
	ssize_t r;
	unsigned char *p;
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;

	if (rg->jcf != NULL && wr && rank >= rg->jcnext) {
		/* Joining, the classes come in order: the records before
		 * this one that no row wrote are zeros. */
		for (; rg->jcnext <= rank; rg->jcnext++)
			if (fwrite(rg->jcnext < rank ? rg->jzero : rg->crec, n,
			    1, rg->jcf) != 1)
				kn_die_sys("%s: write error", rg->cpath);
		return;
	}
	if (rg->jcf != NULL && fflush(rg->jcf) == EOF)
		kn_die_sys("%s: write error", rg->cpath);
	if (rg->cmem != NULL) {
		p = rg->cmem + rank * (1 + rg->nqi) * w;
		for (i = 0; i <= rg->nqi; i++, p += w) {
			uint64_t *c = &rg->crec[i];

			if (w == 1 && wr)
				v8 = (uint8_t)*c, memcpy(p, &v8, 1);
			else if (w == 1)
				memcpy(&v8, p, 1), *c = v8;
			else if (w == 2 && wr)
				v16 = (uint16_t)*c, memcpy(p, &v16, 2);
			else if (w == 2)
				memcpy(&v16, p, 2), *c = v16;
			else if (w == 4 && wr)
				v32 = (uint32_t)*c, memcpy(p, &v32, 4);
			else if (w == 4)
				memcpy(&v32, p, 4), *c = v32;
			else if (wr)
				memcpy(p, c, 8);
			else
				memcpy(c, p, 8);
		}
		if (rg->sums && wr)
			memcpy(rg->smem + rank * 4 * rg->nqi, rg->crec +
			    sums_at(rg), 32 * rg->nqi);
		else if (rg->sums)
			memcpy(rg->crec + sums_at(rg), rg->smem + rank * 4 *
			    rg->nqi, 32 * rg->nqi);
		return;
	}
	r = wr ? pwrite(rg->cfd, rg->crec, n, at) :
	    pread(rg->cfd, rg->crec, n, at);

	if (r < 0)
		kn_die_sys("%s: %s error", rg->cpath, wr ? "write" : "read");
	if ((size_t)r != n)
		kn_die("%s: temp file cut short", rg->cpath);
}

/* Writes the window's counts back. */
static void
window_store(struct regions *rg)
{
	size_t q;
	uint64_t r = (uint64_t)rg->wrank, any, wmax;
	kn_str id;

	if (rg->wrank < 0)
		return;
	any = rg->crec[0] = rg->seen[0];
	for (q = 0; q < rg->nqi; q++)
		any |= rg->crec[1 + q] = rg->num[q] ? rg->bd[q].mseen : 0;
	any |= rstats_io(rg, rg->crec + sums_at(rg), 1);
	wmax = rg->cw < 8 ? ((uint64_t)1 << 8 * rg->cw) - 1 : UINT64_MAX;
	if (rg->cmem != NULL && rg->crec[0] >= wmax) {
		/* Past the count, and too wide: the error of the least
		 * line is kept apart, the count marked. */
		if (rg->ovline == 0 || rg->line[0] < rg->ovline) {
			id = rg->lab[rg->nqi];
			rg->ovline = rg->line[0];
			rg->ovcnt = rg->count[0];
			rg->ovseen = rg->crec[0];
			free(rg->ovid);
			rg->ovid = kn_strndup(id.p, id.n);
		}
		rg->crec[0] = wmax;
	}
	/* Counts of zero need no writing while none are on disk. */
	if (any == 0 && !counts_on_disk(rg, r))
		return;
	counts_io(rg, r, 1);
	if (rg->cset != NULL)
		rg->cset[r / 8] |= (unsigned char)(1 << r % 8);
}

/* Forgets the rows read of every class. */
static void
counts_zero(struct regions *rg)
{
	size_t q;

	if (!rg->ooc) {
		memset(rg->seen, 0, rg->n * sizeof(uint64_t));
		return;
	}
	rg->ovline = 0;
	if (rg->smem != NULL)
		memset(rg->smem, 0, rg->nall * 32 * rg->nqi);
	if (rg->cmem != NULL)
		memset(rg->cmem, 0, rg->nall * (1 + rg->nqi) * rg->cw);
	else if (rg->cset != NULL)
		memset(rg->cset, 0, rg->nall / 8 + 1);
	else if (ftruncate(rg->cfd, 0) < 0 || ftruncate(rg->cfd,
	    (off_t)(rg->nall * region_rec(rg))) < 0)
		kn_die_sys("%s", rg->cpath);
	rg->seen[0] = 0;
	for (q = 0; q < rg->nqi; q++) {
		rg->bd[q].mseen = 0;
		rg->bd[q].sum = 0;
		rg->bd[q].ssc = rg->bd[q].over = rg->bd[q].hit = 0;
	}
}

/* Joining: reads the regions on to the one of key kb (the class id
 * padded, 20 bytes), which is no earlier than the last found; its rank,
 * its line in rg->jl (without the newline), or -1 if there is none. */
static int64_t
join_next(struct regions *rg, const char *kb)
{
	ssize_t len;
	int c;

	for (;;) {
		if (!rg->jhave) {
			if ((len = getline(&rg->jl, &rg->jlcap, rg->jks)) < 0) {
				if (ferror(rg->jks))
					kn_die_sys("%s: read error",
					    rg->ks.path);
				return -1;
			}
			if (len > 0 && rg->jl[len - 1] == '\n')
				rg->jl[len - 1] = '\0';
			rg->jhave = 1;
		}
		if ((c = memcmp(rg->jl, kb, 20)) > 0)
			return -1;
		if (c == 0)
			break;
		rg->jhave = 0;
		rg->jrank++;
	}
	rg->jhave = 0;
	return (int64_t)rg->jrank++;
}

/* The index of the region of class v, or -1: out of core, the window
 * is loaded with it. */
static int64_t
region_find(struct recoding *rc, struct regions *rg, kn_str v)
{
	char kb[24], *s, **f;
	const char *line;
	size_t n, q;
	uint64_t id;
	unsigned long long ln;
	int64_t rank;

	if (!rg->ooc)
		return kn_dict_find(&rg->ids, v.p, v.n);
	if (rg->wrank >= 0 && rg->lab[rg->nqi].n == v.n &&
	    memcmp(rg->lab[rg->nqi].p, v.p, v.n) == 0)
		return 0;
	if (!class_id(v))
		return -1;
	id_key(kb, sizeof(kb), v.p, v.n);
	if (rg->jks != NULL) {
		/* Joining, the classes come in the regions' order: the
		 * regions are read on, and none had rows before. */
		if ((rank = join_next(rg, kb)) < 0)
			return -1;
		line = rg->jl;
		n = strlen(rg->jl);
	} else if ((rank = keyset_find(&rg->ks, kb, 20, &line, &n)) < 0)
		return -1;
	window_store(rg);
	region_free_window(rg);
	s = region_alloc(rg, n + 1);
	memcpy(s, line, n);
	s[n] = '\0';
	region_split(s, &id, &ln, &f);
	rg->line[0] = ln;
	(void)posint(f[1], &rg->count[0]);
	region_parse(rc, rg, f, ln, 0);
	free(f);
	if (rg->jks == NULL && counts_on_disk(rg, (uint64_t)rank))
		counts_io(rg, (uint64_t)rank, 0);
	else
		memset(rg->crec, 0, region_rec(rg));
	rg->seen[0] = rg->crec[0];
	for (q = 0; q < rg->nqi; q++)
		if (rg->num[q])
			rg->bd[q].mseen = rg->crec[1 + q];
	(void)rstats_io(rg, rg->crec + sums_at(rg), 0);
	rg->wrank = rank;
	return 0;
}

/*
 * Out of core, at the end of a pass: the class of the least line whose
 * rows do not match its count, as regions_check finds it, and (if
 * missing) that whose missing values do not, as regions_done does.
 */
static void
regions_check_ooc(struct regions *rg, int missing)
{
	FILE *kf, *cf;
	char *s = NULL, **f, *cid = NULL;
	size_t cap = 0, q, bq = 0, j;
	ssize_t len;
	uint64_t id, cnt, miss, bcnt = 0, bseen = 0, bmiss = 0, bmseen = 0;
	uint64_t rank = 0, xcnt = 0;
	unsigned long long ln, bln = 0, mln = 0, xln = 0;
	struct bound b, xb;
	char *xid = NULL, *xs[3] = { NULL, NULL, NULL };
	size_t xq = 0;
	int bad, xbad = 0;

	window_store(rg);
	if ((kf = fdopen(dup(fileno(rg->ks.fp)), "r")) == NULL ||
	    fseeko(kf, 0, SEEK_SET) < 0)
		kn_die_sys("%s", rg->ks.path);
	if (rg->cmem != NULL)
		cf = NULL;
	else if ((cf = fdopen(dup(rg->cfd), "r")) == NULL ||
	    fseeko(cf, 0, SEEK_SET) < 0)
		kn_die_sys("%s", rg->cpath);
	while ((len = getline(&s, &cap, kf)) > 0) {
		if (s[len - 1] == '\n')
			s[len - 1] = '\0';
		if (cf == NULL)
			counts_io(rg, rank, 0);
		else if (fread(rg->crec, region_rec(rg), 1, cf) != 1)
			kn_die("%s: temp file cut short", rg->cpath);
		if (!counts_on_disk(rg, rank))
			memset(rg->crec, 0, region_rec(rg));
		rank++;
		region_split(s, &id, &ln, &f);
		(void)posint(f[1], &cnt);
		if ((rg->part ? rg->crec[0] > cnt : rg->crec[0] != cnt) &&
		    (bln == 0 || ln < bln) && (cf != NULL || rg->cw == 8 ||
		    rg->crec[0] != ((uint64_t)1 << 8 * rg->cw) - 1)) {
			bln = ln;
			bcnt = cnt;
			bseen = rg->crec[0];
			free(cid);
			cid = kn_strdup(f[0]);
		}
		for (q = 0; missing && !rg->part && q < rg->nqi; q++) {
			miss = 0;
			if (rg->num[q] == 2 && strcmp(f[rg->fld[q] + 3], "0") != 0)
				(void)posint(f[rg->fld[q] + 3], &miss);
			if (!rg->num[q] || rg->crec[1 + q] == miss ||
			    (mln != 0 && ln >= mln))
				continue;
			mln = ln;
			bq = q;
			bmiss = miss;
			bmseen = rg->crec[1 + q];
			if (bln == 0) {
				free(cid);
				cid = kn_strdup(f[0]);
			}
		}
		/* The least and greatest values, and the mean, of the
		 * first class of least line that has them wrong. */
		for (q = 0; missing && rg->sums && q < rg->nqi &&
		    (xln == 0 || ln < xln); q++) {
			if (!rg->num[q])
				continue;
			rstats_bound(rg, q, f, rg->crec + sums_at(rg) +
			    4 * q, &b);
			if ((bad = rstats_class(rg, &b, q, cnt)) == 0)
				continue;
			xln = ln;
			xq = q;
			xbad = bad;
			xcnt = cnt;
			xb = b;
			free(xid);
			xid = kn_strdup(f[0]);
			for (j = 0; j < 3; j++) {
				free(xs[j]);
				xs[j] = kn_strdup(f[rg->fld[q] + j]);
			}
			xb.los = xs[0];
			xb.his = xs[1];
			xb.means = xs[2];
		}
		free(f);
	}
	if (ferror(kf))
		kn_die_sys("%s: read error", rg->ks.path);
	fclose(kf);
	if (cf != NULL)
		fclose(cf);
	free(s);
	if (rg->ovline > 0 && (bln == 0 || rg->ovline < bln)) {
		bln = rg->ovline;
		bcnt = rg->ovcnt;
		bseen = rg->ovseen;
		cid = rg->ovid;
	}
	if (bln > 0)
		kn_die("%s:%llu: class %s has count %llu, but %s has %llu row%s "
		    "of it", rg->path, bln, cid, (unsigned long long)bcnt,
		    rg->iname, (unsigned long long)bseen, bseen == 1 ? "" : "s");
	if (mln > 0)
		kn_die("%s:%llu: class %s has %llu missing value%s of '%s', "
		    "but %s has %llu", rg->path, mln, cid,
		    (unsigned long long)bmiss, bmiss == 1 ? "" : "s",
		    rg->qname[bq], rg->iname, (unsigned long long)bmseen);
	if (xln > 0)
		rstats_class_die(rg, &xb, xq, xcnt, xid, xln, xbad);
}

/*
 * Reads the regions file and checks it against table t, whose header
 * (the first line of partition's output) has been read: partition
 * renames its regions into place before it writes that line.  The
 * header is class, count, then per QI either Q_min, Q_max, Q_mean
 * (numeric) or Q (categorical).
 */
void
regions_read(struct recoding *rc, struct regions *rg, const kn_table *t,
    int summary, const char *ccol, const kn_hopts *ho)
{
	const char *tname = t->headerless ? "--columns" : t->r.name;
	const char *path = rg->path, *p;
	kn_reader r;
	char **name, **f, *line, **hn;
	size_t nh, nf, i, j, c, len, *fld;
	int *num, reading;

	/* The class column of the table. */
	for (c = 0; c < t->ncols && strcmp(t->names[c], ccol) != 0; c++)
		;
	for (p = ccol; *p >= '0' && *p <= '9'; p++)
		;
	if (c == t->ncols && p != ccol && *p == '\0')
		c = kn_table_col(t, ccol);
	if (c == t->ncols)
		kn_die("%s: no class column '%s' (partition appends one; "
		    "--class-col names it)", tname, ccol);
	rg->classcol = c;
	rc->cls = (long)c;

	kn_reader_open(&r, path);
	if (!kn_getline(&r))
		kn_die("%s: empty regions file: expected a header line "
		    "beginning with class and count, as partition -r writes it",
		    path);
	name = regions_tabsplit(kn_strndup(r.line, r.len), &nh);
	if (nh < 2 || (strcmp(name[0], "class") != 0 &&
	    strcmp(name[0], t->names[c]) != 0) ||
	    strcmp(name[1], "count") != 0)
		kn_die("%s:1: expected a header beginning with class and "
		    "count, as partition -r writes it", path);
	if (nh == 2)
		kn_die("%s:1: no quasi-identifier columns after class and "
		    "count", path);

	/* The quasi-identifiers: fld[i] is the first field of QI i.  A
	 * header that reads two ways is refused (the table's columns but
	 * the class column); one that reads one way is read that way; one
	 * that reads none gets the message of the first field read
	 * wrong, as below. */
	fld = kn_alloc(nh * sizeof(size_t));
	num = kn_alloc(nh * sizeof(int));
	{
		char **cols = kn_alloc((t->ncols + 1) * sizeof(char *));
		size_t nc = 0, nq = 0;

		for (c = 0; c < t->ncols; c++)
			if (c != rg->classcol)
				cols[nc++] = t->names[c];
		reading = kn_rhead_read(name + 2, nh - 2, cols, nc, num, &nq);
		free(cols);
		if (reading > 1)
			kn_die("%s:1: the header reads two ways against the "
			    "columns of %s: a column's name is also that of "
			    "a range's field (Q_min, Q_max, Q_mean, "
			    "Q_missing) of a column Q; rename the column and "
			    "partition again", path, tname);
	}
	rc->qcol = kn_alloc(nh * sizeof(size_t));
	rc->xcol = kn_alloc(nh * sizeof(size_t));
	rc->xname = kn_alloc(nh * sizeof(char *));
	for (i = 2; i < nh; rg->nqi++) {
		const char *q = name[i];
		size_t k = rg->nqi;

		len = strlen(q);
		fld[k] = i;
		if (reading == 0)
			num[k] = len > 4 && strcmp(q + len - 4, "_min") == 0 &&
			    i + 2 < nh &&
			    kn_rhead_stemmed(name[i + 1], q, len - 4, "_max") &&
			    kn_rhead_stemmed(name[i + 2], q, len - 4, "_mean");
		if (num[k]) {
			q = kn_strndup(q, len - 4);
			i += 3;
			/* Q_missing: the class's missing values (kanon(7),
			 * MISSING VALUES). */
			if (reading == 0 && i < nh &&
			    kn_rhead_stemmed(name[i], q, len - 4, "_missing"))
				num[k] = 2;
			i += num[k] == 2;
		} else
			i++;
		for (c = 0; c < t->ncols && strcmp(t->names[c], q) != 0; c++)
			;
		if (c == t->ncols)
			kn_die("%s:1: quasi-identifier '%s' is not a column of "
			    "%s", path, q, tname);
		if (c == rg->classcol)
			kn_die("%s:1: quasi-identifier '%s' is the class column",
			    path, q);
		for (j = 0; j < k; j++)
			if (rc->qcol[j] == c)
				kn_die("%s:1: quasi-identifier '%s' is named "
				    "twice", path, q);
		rc->qcol[k] = c;
		if (num[k] && summary == SUM_BOTH) {
			char *x = kn_alloc(strlen(q) + 6);

			snprintf(x, strlen(q) + 6, "%s_mean", q);
			for (c = 0; c < t->ncols; c++)
				if (strcmp(t->names[c], x) == 0)
					kn_die("--summary both: %s already has a "
					    "column '%s'", tname, x);
			rc->xcol[rc->nx] = rc->qcol[k];
			rc->xname[rc->nx++] = x;
		}
	}
	rc->what = "quasi-identifier";
	rc->nq = rg->nqi + 1;
	rc->qcol[rg->nqi] = rg->classcol;
	rg->nl = rc->nq + rc->nx;

	/* The dates (--date): numeric QIs whose values are dates. */
	rg->dform = kn_zalloc((rg->nqi + 1) * sizeof(int));
	if (rg->dates != NULL) {
		size_t *dc, nd = kn_table_cols(t, rg->dates, &dc);

		for (j = 0; j < nd; j++) {
			for (i = 0; i < rg->nqi && rc->qcol[i] != dc[j]; i++)
				;
			if (i == rg->nqi || !num[i])
				kn_die("--date: '%s' is not a quasi-identifier of "
				    "%s with a range (%s_min, %s_max, %s_mean)",
				    t->names[dc[j]], path, t->names[dc[j]],
				    t->names[dc[j]], t->names[dc[j]]);
			rg->dform[i] = -1;	/* known from the first line */
		}
		free(dc);
	}

	/* The hierarchies of the nodes: -H attr=spec must name one. */
	rg->num = num;
	rg->h = kn_zalloc((rg->nqi + 1) * sizeof(kn_hier *));
	rg->qname = kn_alloc((rg->nqi + 1) * sizeof(char *));
	for (i = 0; i < rg->nqi; i++)
		rg->qname[i] = kn_strdup(t->names[rc->qcol[i]]);
	hn = kn_alloc((rg->nqi + 1) * sizeof(char *));
	for (i = 0, j = 0; i < rg->nqi; i++)
		if (!num[i])
			hn[j++] = t->names[rc->qcol[i]];
	kn_hopts_check(ho, hn, j);
	for (i = 0; i < rg->nqi; i++)
		if (!num[i])
			rg->h[i] = kn_hopts_get(ho, t->names[rc->qcol[i]]);
	free(hn);

	/* Not a part of the table: each class's numbers added up. */
	for (i = 0; i < rg->nqi && !rg->part; i++)
		rg->sums |= num[i] != 0;
	rg->qsc = kn_zalloc((rg->nqi + 1) * sizeof(int));

	/* The classes. */
	rg->fld = fld;
	rg->hname = name;
	rg->nh = nh;
	rg->summary = summary;
	rg->wrank = -1;
	kn_dict_init(&rg->ids);
	while (kn_getline(&r)) {
		unsigned long long ln = r.lineno;
		uint64_t cnt, id;
		int64_t dup;
		char kb[48];

		line = kn_strndup(r.line, r.len);
		f = regions_tabsplit(line, &nf);
		if (nf != nh)
			kn_die("%s:%llu: expected %zu fields, found %zu", path,
			    ln, nh, nf);
		if (!posint(f[0], &id))
			kn_die("%s:%llu: class '%s' is not a positive integer",
			    path, ln, f[0]);
		if (!rg->ooc && (dup = kn_dict_find(&rg->ids, f[0],
		    strlen(f[0]))) >= 0)
			kn_die("%s:%llu: class %s appears twice (first on line "
			    "%llu)", path, ln, f[0],
			    (unsigned long long)rg->line[dup]);
		if (!posint(f[1], &cnt))
			kn_die("%s:%llu: class %s: count '%s' is not a positive "
			    "integer", path, ln, f[0], f[1]);
		if (cnt > rg->maxcnt)
			rg->maxcnt = cnt;
		if (rg->ooc) {
			/* Checked as in memory, then kept on disk only. */
			region_free_window(rg);
			region_parse(rc, rg, f, ln, 0);
			region_kb(kb, sizeof(kb), f[0], strlen(f[0]), ln);
			free(f);
			free(line);
			region_add(rg, kb, r.line, r.len);
			rg->nall++;
			continue;
		}
		if (rg->n == rg->cap) {
			rg->cap = rg->cap ? 2 * rg->cap : 64;
			rg->count = kn_realloc(rg->count, rg->cap *
			    sizeof(uint64_t));
			rg->line = kn_realloc(rg->line, rg->cap *
			    sizeof(uint64_t));
			rg->lab = kn_realloc(rg->lab, rg->cap * rg->nl *
			    sizeof(kn_str));
			rg->bd = kn_realloc(rg->bd, rg->cap * rg->nqi *
			    sizeof(struct bound));
			rg->txt = kn_realloc(rg->txt, rg->cap * sizeof(char *));
			rg->txtlen = kn_realloc(rg->txtlen, rg->cap *
			    sizeof(size_t));
		}
		kn_dict_intern(&rg->ids, f[0], strlen(f[0]));
		rg->count[rg->n] = cnt;
		rg->line[rg->n] = ln;
		rg->txt[rg->n] = line;
		rg->txtlen[rg->n] = r.len;
		region_parse(rc, rg, f, ln, rg->n);
		rg->n++;
		free(f);
		rg->mem += 2 * r.len + rg->nl * sizeof(kn_str) + rg->nqi *
		    sizeof(struct bound) + 96;
		if (rg->mem > rg->budget / 4)
			regions_spill(rg);
	}
	kn_reader_close(&r);
	if (rg->ooc)
		regions_seal(rg);
	rg->seen = kn_zalloc((rg->n + 1) * sizeof(uint64_t));
}

/*
 * Whether value v of quasi-identifier i lies in the region of class x:
 * a number from its min to its max, exactly; for a node, a leaf of the
 * hierarchy (-H) under it.  '*' holds any value, and a node equal to
 * the value holds it; any other node needs the hierarchy to tell.
 * *err gets the hierarchy's reason for NOT_LEAF.
 */
static int
region_fit(struct regions *rg, size_t x, size_t i, kn_str v,
    const char **err)
{
	struct bound *b;
	kn_hier *h = rg->h[i];
	kn_str lab, a;
	kn_i128 m;
	int64_t id = 0;
	int sc, l;

	if (rg->num[i]) {
		b = &rg->bd[x * rg->nqi + i];
		rg->fitsc = -1;		/* no number: missing */
		if (kn_missing(v.p, v.n))
			return b->miss > 0 ? FIT : MISSING;
		if (b->nonum)
			return OUTSIDE;
	}
	if (rg->num[i] && rg->dform[i] != KN_DATE_NONE) {
		int64_t d;
		int f = kn_date_parse(v.p, v.n, &d);

		b = &rg->bd[x * rg->nqi + i];
		if (f == KN_DATE_NONE) {
			*err = kn_date_why(v.p, v.n, rg->why, sizeof(rg->why));
			return NOT_DATE;
		}
		if (f != rg->dform[i]) {
			snprintf(rg->why, sizeof(rg->why), "is a %s, but the "
			    "regions hold %ss", f == KN_DATE_DAY ? "date" :
			    "date-time", f == KN_DATE_DAY ? "date-time" : "date");
			*err = rg->why;
			return NOT_DATE;
		}
		rg->fitm = d;
		rg->fitsc = 0;
		return d < b->lo || d > b->hi ? OUTSIDE : FIT;
	}
	if (rg->num[i]) {
		b = &rg->bd[x * rg->nqi + i];
		*err = NULL;
		if (!kn_dec_parse(v.p, v.n, &m, &sc))
			return NOT_NUMBER;
		rg->fitm = m;
		rg->fitsc = sc;
		return kn_dec_cmp(m, sc, b->lo, b->slo) < 0 ||
		    kn_dec_cmp(m, sc, b->hi, b->shi) > 0 ? OUTSIDE : FIT;
	}
	lab = rg->lab[x * rg->nl + i];
	if (h != NULL) {
		regions_hier_bound(h, rg->budget / (4 * rg->nqi));
		if ((id = kn_hier_leaf(h, v.p, v.n, err)) < 0)
			return NOT_LEAF;
	}
	if ((lab.n == 1 && lab.p[0] == '*') ||
	    (lab.n == v.n && memcmp(lab.p, v.p, v.n) == 0))
		return FIT;
	if (h == NULL)
		return NO_HIER;
	for (l = 1; l < h->nlevels; l++) {
		a = kn_dict_get(&h->lab[l], kn_hier_lift(h, (uint32_t)id, 0,
		    l));
		if (a.n == lab.n && memcmp(a.p, lab.p, a.n) == 0)
			return FIT;
	}
	return OUTSIDE;
}

/* Dies naming the row of t, the column of quasi-identifier i, its value
 * v and the region of class x, for the answer why of region_fit. */
static void __attribute__((noreturn))
region_fail(const struct recoding *rc, const kn_table *t, struct regions *rg,
    size_t x, size_t i, int why, const char *err)
{
	size_t col = rc->qcol[i];
	kn_str v = t->f[col], id = rg->lab[x * rg->nl + rg->nqi];
	kn_str lab = rg->lab[x * rg->nl + i];
	const struct bound *b = &rg->bd[x * rg->nqi + i];
	unsigned long long ln = (unsigned long long)rg->line[x];

	if (why == NOT_LEAF)
		kn_table_fail(t, col, "'%.*s': %s (%s)", (int)v.n, v.p, err,
		    rg->h[i]->src);
	if (why == NOT_DATE)
		kn_table_fail(t, col, "'%.*s' %s", (int)v.n, v.p, err);
	if (why == NOT_NUMBER)
		kn_table_fail(t, col, "'%.*s' is not a number, so not in the "
		    "region of class %.*s, from %s to %s (%s:%llu)", (int)v.n,
		    v.p, (int)id.n, id.p, b->los, b->his, rg->path, ln);
	if (why == MISSING && b->miss > 0)
		kn_table_fail(t, col, "'%.*s' is a missing value, and the "
		    "region of class %.*s holds only %llu (%s:%llu)", (int)v.n,
		    v.p, (int)id.n, id.p, (unsigned long long)b->miss,
		    rg->path, ln);
	if (why == MISSING)
		kn_table_fail(t, col, "'%.*s' is a missing value, and the "
		    "region of class %.*s holds none (%s:%llu)", (int)v.n,
		    v.p, (int)id.n, id.p, rg->path, ln);
	if (why == OUTSIDE && rg->num[i] && b->nonum)
		kn_table_fail(t, col, "'%.*s' lies outside the region of "
		    "class %.*s, whose values are all missing (%s:%llu; "
		    "give recode the --missing that partition had)",
		    (int)v.n, v.p, (int)id.n, id.p, rg->path, ln);
	if (why == OUTSIDE && rg->num[i])
		kn_table_fail(t, col, "'%.*s' lies outside the region of "
		    "class %.*s, from %s to %s (%s:%llu)", (int)v.n, v.p,
		    (int)id.n, id.p, b->los, b->his, rg->path, ln);
	if (why == OUTSIDE)
		kn_table_fail(t, col, "'%.*s' lies outside the region of "
		    "class %.*s, the node '%.*s' of %s (%s:%llu)", (int)v.n,
		    v.p, (int)id.n, id.p, (int)lab.n, lab.p, rg->h[i]->src,
		    rg->path, ln);
	kn_table_fail(t, col, "'%.*s' is not the node '%.*s' of the region of "
	    "class %.*s (%s:%llu), and whether it lies under it takes the "
	    "hierarchy of '%s' (-H)", (int)v.n, v.p, (int)lab.n, lab.p,
	    (int)id.n, id.p, rg->path, ln, t->names[col]);
}

static void join_close(struct regions *rg);
static void join_changed(const struct regions *rg)
    __attribute__((noreturn));
static void join_label(struct recoding *rc, kn_table *t, kn_str *lab);

/* Checks the rows read of each class against the regions' counts. */
static void
regions_check(struct recoding *rc)
{
	struct regions *rg = rc->priv;
	size_t i;

	if (rg->ooc) {
		regions_check_ooc(rg, 0);
		return;
	}
	for (i = 0; i < rg->n; i++)
		if (rg->part ? rg->seen[i] > rg->count[i] :
		    rg->seen[i] != rg->count[i]) {
			kn_str id = rg->lab[i * rg->nl + rg->nqi];

			kn_die("%s:%llu: class %.*s has count %llu, but %s has "
			    "%llu row%s of it", rg->path,
			    (unsigned long long)rg->line[i], (int)id.n, id.p,
			    (unsigned long long)rg->count[i], rg->iname,
			    (unsigned long long)rg->seen[i],
			    rg->seen[i] == 1 ? "" : "s");
		}
}

/* At the end of the pass that labels the rows: regions_check, and the
 * missing values of each class against its Q_missing. */
void
regions_done(struct recoding *rc)
{
	struct regions *rg = rc->priv;
	size_t i, q;

	if (rg->ooc) {
		regions_check_ooc(rg, 1);
		if (rg->joined && kn_getline(&rg->jr))
			join_changed(rg);
		join_close(rg);
		return;
	}
	regions_check(rc);
	for (i = 0; i < rg->n && !rg->part; i++)
		for (q = 0; q < rg->nqi; q++) {
			const struct bound *b = &rg->bd[i * rg->nqi + q];
			kn_str id = rg->lab[i * rg->nl + rg->nqi];

			if (!rg->num[q] || b->mseen == b->miss)
				continue;
			kn_die("%s:%llu: class %.*s has %llu missing value%s "
			    "of '%s', but %s has %llu", rg->path,
			    (unsigned long long)rg->line[i], (int)id.n, id.p,
			    (unsigned long long)b->miss, b->miss == 1 ? "" :
			    "s", rg->qname[q], rg->iname,
			    (unsigned long long)b->mseen);
		}
	for (i = 0; i < rg->n && rg->sums; i++)
		for (q = 0; q < rg->nqi; q++) {
			const struct bound *b = &rg->bd[i * rg->nqi + q];
			kn_str id = rg->lab[i * rg->nl + rg->nqi];
			char *cid;
			int bad = rstats_class(rg, b, q, rg->count[i]);

			if (bad == 0)
				continue;
			cid = kn_strndup(id.p, id.n);
			rstats_class_die(rg, b, q, rg->count[i], cid,
			    (unsigned long long)rg->line[i], bad);
		}
}

/* The labels of the row's class; the row must lie in its class's
 * region, and the class may not have more rows than its count. */
void
regions_label(struct recoding *rc, kn_table *t, kn_str *lab)
{
	struct regions *rg = rc->priv;
	kn_str v = t->f[rg->classcol];
	int64_t id;
	const char *err = NULL;
	size_t i;
	int why;

	if (rg->joined) {
		join_label(rc, t, lab);
		return;
	}
	id = region_find(rc, rg, v);

	if (id < 0)
		kn_table_fail(t, rg->classcol, "'%.*s' is not a class of %s",
		    (int)v.n, v.p, rg->path);
	for (i = 0; i < rg->nqi; i++) {
		kn_str q = t->f[rc->qcol[i]];
		struct bound *b = &rg->bd[id * rg->nqi + i];

		if ((why = region_fit(rg, (size_t)id, i, q, &err)) != FIT)
			region_fail(rc, t, rg, (size_t)id, i, why, err);
		if (!rg->num[i])
			continue;
		if (rg->fitsc >= 0) {
			if (rg->sums)
				rstats_take(b, rg->fitm, rg->fitsc,
				    &rg->qsc[i]);
		} else if (!rg->part && ++b->mseen > b->miss)
			region_fail(rc, t, rg, (size_t)id, i, MISSING, err);
	}
	/* More rows than the count: the regions are of another table,
	 * whatever part of this one is read. */
	if (++rg->seen[id] > rg->count[id])
		kn_table_fail(t, rg->classcol, "class %.*s has count %llu "
		    "(%s:%llu), but %s has more rows of it", (int)v.n, v.p,
		    (unsigned long long)rg->count[id], rg->path,
		    (unsigned long long)rg->line[id], rg->iname);
	memcpy(lab, rg->lab + (size_t)id * rg->nl, rg->nl * sizeof(kn_str));
}

/* Passes on the pending group of the first pass, a class and with -l
 * one of its sensitive values, keyed by the class's labels. */
static void
region_flush(struct recoding *rc)
{
	struct regions *rg = rc->priv;
	kn_fsrow g;

	if (!rg->have)
		return;
	rg->have = 0;
	memcpy(rg->key, rg->lab + rg->gx * rg->nl, rc->nq * sizeof(kn_str));
	if (rg->skey) {
		/* The sensitive values, joined by tabs in gs. */
		const char *p = rg->gs, *e = rg->gs + rg->gsn, *tab;
		int j;

		for (j = 0; j < rg->skey; j++) {
			tab = memchr(p, '\t', (size_t)(e - p));
			rg->key[rc->nq + j].p = p;
			rg->key[rc->nq + j].n = (size_t)((tab != NULL ? tab :
			    e) - p);
			p = tab != NULL ? tab + 1 : e;
		}
	}
	memset(&g, 0, sizeof(g));
	g.key = rg->key;
	g.cnt = rg->gcnt;
	rg->out(&g, NULL);
}

/*
 * A group (class id, sensitive value, quasi-identifiers) of the first
 * pass: its values are checked against the class's region, and the
 * groups of one class and sensitive value, which arrive together, are
 * added up and passed on as one.
 */
static void
region_group(const kn_fsrow *r, void *ctx)
{
	struct recoding *rc = ctx;
	struct regions *rg = rc->priv;
	kn_str s = rg->skey ? r->key[1] : r->key[0], c;
	int64_t id;
	int j;

	/* Several sensitive columns: their values joined by tabs. */
	if (rg->skey > 1) {
		size_t len = 0;

		for (j = 1; j <= rg->skey; j++)
			len += r->key[j].n + 1;
		rg->sj = kn_grow(rg->sj, &rg->sjcap, len, 1, 64);
		for (len = 0, j = 1; j <= rg->skey; j++) {
			memcpy(rg->sj + len, r->key[j].p, r->key[j].n);
			len += r->key[j].n;
			rg->sj[len++] = '\t';
		}
		s.p = rg->sj;
		s.n = len - 1;
	}

	/* Another class or value: the pending group is passed on first
	 * (out of core, the window holds its class until it is). */
	if (rg->have) {
		c = rg->lab[rg->gx * rg->nl + rg->nqi];
		if (c.n != r->key[0].n || memcmp(c.p, r->key[0].p, c.n) != 0 ||
		    (rg->skey && (s.n != rg->gsn || memcmp(s.p, rg->gs,
		    s.n) != 0)))
			region_flush(rc);
	}
	if ((id = region_find(rc, rg, r->key[0])) < 0) {
		rg->unknown = 1;
		return;
	}
	rg->seen[id] += r->cnt;
	if (!rg->have) {
		rg->have = 1;
		rg->gx = (size_t)id;
		rg->gcnt = 0;
		if (rg->skey) {
			if (s.n + 1 > rg->gscap) {
				rg->gscap = 2 * (s.n + 1);
				rg->gs = kn_realloc(rg->gs, rg->gscap);
			}
			memcpy(rg->gs, s.p, s.n);
			rg->gsn = s.n;
		}
	}
	rg->gcnt += r->cnt;
}

/* A row of the first pass: its values against its class's region (the
 * first row that fails is named by a second reading, below). */
static void
region_row(const kn_table *t, void *ctx)
{
	struct recoding *rc = ctx;
	struct regions *rg = rc->priv;
	kn_str v = t->f[rg->classcol];
	int64_t id = region_find(rc, rg, v);
	const char *err;
	size_t i;

	if (id < 0) {
		rg->unknown = 1;
		return;
	}
	for (i = 0; i < rg->nqi; i++)
		if (region_fit(rg, (size_t)id, i, t->f[rc->qcol[i]], &err) !=
		    FIT)
			rg->outside = 1;
}

/* The first pass on the threads of -j (kn_countspec's tkey): a row's
 * key, its class and sensitive values, made on a thread, and its values
 * checked there against its class's region as region_row does, the
 * thread's findings added up when it ends. */
struct rkey {
	struct recoding *rc;
	const size_t *scol;
	size_t ns;
};

static void *
rkey_tnew(void *ctx, int nt)
{
	return regions_tnew(((struct rkey *)ctx)->rc, nt);
}

static void
rkey_tfree(void *ctx, void *ts)
{
	struct recoding *rc = ((struct rkey *)ctx)->rc;
	struct regions *rg = rc->priv, *c = ts;

	rg->unknown |= c->unknown;
	rg->outside |= c->outside;
	regions_tfree(rc, ts);
}

static int
rkey_key(void *ctx, void *ts, const kn_str *f, kn_str *key)
{
	struct rkey *rk = ctx;
	struct regions *c = ts;
	kn_str v = f[c->classcol];
	int64_t id = kn_dict_find(&c->ids, v.p, v.n);
	const char *err;
	size_t i;

	if (id < 0)
		c->unknown = 1;
	for (i = 0; id >= 0 && i < c->nqi; i++)
		if (region_fit(c, (size_t)id, i, f[rk->rc->qcol[i]], &err) !=
		    FIT)
			c->outside = 1;
	key[0] = v;
	for (i = 0; i < rk->ns; i++)
		key[1 + i] = f[rk->scol[i]];
	return 0;
}

/* rkey_key refuses no row. */
static void
rkey_fail(void *ctx, kn_table *t)
{
	(void)ctx;
	(void)t;
}

/* ---- out of core: the rows joined with the regions --------------- */

/*
 * Out of core, looking a row's region up on disk reads a segment of the
 * index, a block of regions and the class's counts, and writes the
 * counts back, in the order of the rows, which is no order of the
 * regions.  So the rows are sorted instead: by class, in the order of
 * the regions on disk (the bytes of their ids, which is also the order
 * of the first pass's groups), then by row; and read beside the regions
 * in one pass, which checks each row against its region, counts each
 * class's rows and missing values, passes on the first pass's groups,
 * and sorts each row's labels back into the order of the rows for the
 * pass that writes them.  A row that does not match the regions is
 * named by looking the rows up one by one from the first, as in memory,
 * so that the message is the same.
 */

/* Splits the n fields after p, each after a tab, up to e into f;
 * where the last ends, or NULL if there are fewer. */
static const char *
join_fields(const char *p, const char *e, kn_str *f, size_t n)
{
	const char *tab;
	size_t k;

	for (k = 0; k < n; k++) {
		if (p >= e)
			return NULL;
		p++;
		tab = memchr(p, '\t', (size_t)(e - p));
		f[k].p = p;
		f[k].n = (size_t)((tab != NULL ? tab : e) - p);
		p += f[k].n;
	}
	return p;
}

/* Appends p[0..n) to the join's line of *len bytes, after a tab if
 * tab. */
static void
join_put(struct regions *rg, size_t *len, const char *p, size_t n, int tab)
{
	rg->jbuf = kn_grow(rg->jbuf, &rg->jcap, *len + n + 2, 1, 256);
	if (tab)
		rg->jbuf[(*len)++] = '\t';
	memcpy(rg->jbuf + *len, p, n);
	*len += n;
}

/* The rows left in t, each as its class (padded as on disk), its
 * values of the rg->skey sensitive columns scol, its number and its
 * quasi-identifiers' values, sorted within a quarter of -S.  Every row
 * is read, whatever is wrong with one: a pipe is copied as it is read. */
static kn_sorter *
join_rows(struct recoding *rc, kn_table *t, const size_t *scol)
{
	struct regions *rg = rc->priv;
	kn_sorter *so = kn_sort_new(NULL, 0, 1, rg->budget / 4, rg->tmpdir);
	char num[24];
	size_t len, i;

	while (kn_table_next(t)) {
		kn_str v = t->f[rg->classcol];

		if ((t->rows & 0xffff) == 0)
			kn_progress(t->rows, t->r.bytes);
		if (!class_id(v)) {
			rg->unknown = 1;
			continue;
		}
		rg->jbuf = kn_grow(rg->jbuf, &rg->jcap, 24, 1, 256);
		len = id_key(rg->jbuf, rg->jcap, v.p, v.n);
		for (i = 0; i < (size_t)rg->skey; i++)
			join_put(rg, &len, t->f[scol[i]].p, t->f[scol[i]].n, 1);
		/* The row's number, as the pass that labels counts it. */
		snprintf(num, sizeof(num), "%020llu",
		    (unsigned long long)t->rows);
		join_put(rg, &len, num, 20, 1);
		for (i = 0; i < rg->nqi; i++)
			join_put(rg, &len, t->f[rc->qcol[i]].p,
			    t->f[rc->qcol[i]].n, 1);
		kn_sort_add(so, rg->jbuf, len);
	}
	return so;
}

/* A row of the join, in the order of the classes: checked against its
 * region (the window), counted, passed on as a group of the first pass
 * (jgroups), and its labels added to the sort by row.  After a row
 * that does not match, nothing more is done. */
static void
join_line(const char *line, size_t len, void *ctx)
{
	struct recoding *rc = ctx;
	struct regions *rg = rc->priv;
	size_t nf = (size_t)rg->skey + 1 + rg->nqi, i, k;
	kn_str *f = rg->jf, c, key[1 + KN_MAXSENS];
	const char *err;
	kn_fsrow r;

	if (rg->unknown || rg->outside)
		return;
	for (c.p = line, c.n = 20; c.n > 0 && line[c.n - 1] == ' '; c.n--)
		;
	if (join_fields(line + 20, line + len, f, nf) == NULL)
		kn_die("(temp run): expected %zu fields", nf + 1);
	if (rg->jgroups) {
		/* region_group passes on the pending group, then loads
		 * this row's class, and counts the row. */
		memset(&r, 0, sizeof(r));
		key[0] = c;
		for (k = 0; k < (size_t)rg->skey; k++)
			key[1 + k] = f[k];
		r.key = key;
		r.cnt = 1;
		region_group(&r, rc);
		if (rg->unknown)
			return;
	} else if (region_find(rc, rg, c) < 0) {
		rg->unknown = 1;
		return;
	} else
		rg->seen[0]++;
	if (rg->seen[0] > rg->count[0])
		rg->jover = 1;
	for (i = 0; i < rg->nqi; i++) {
		kn_str q = f[rg->skey + 1 + i];

		if (region_fit(rg, 0, i, q, &err) != FIT) {
			rg->outside = 1;
			return;
		}
		if (!rg->num[i])
			continue;
		if (rg->fitsc >= 0) {
			if (rg->sums)
				rstats_take(&rg->bd[i], rg->fitm, rg->fitsc,
				    &rg->qsc[i]);
		} else if (!rg->part && ++rg->bd[i].mseen > rg->bd[i].miss)
			rg->jmiss = 1;
	}
	/* The row's number, then its class's labels. */
	len = 0;
	join_put(rg, &len, f[rg->skey].p, f[rg->skey].n, 0);
	for (k = 0; k < rg->nl; k++)
		join_put(rg, &len, rg->lab[k].p, rg->lab[k].n, 1);
	kn_sort_add(rg->jlab, rg->jbuf, len);
}

/* The regions and their counts read and written in order while the
 * rows are joined (the counts are all zero before). */
static void
join_open(struct regions *rg)
{
	if ((rg->jks = fdopen(dup(fileno(rg->ks.fp)), "r")) == NULL ||
	    fseeko(rg->jks, 0, SEEK_SET) < 0)
		kn_die_sys("%s", rg->ks.path);
	rg->jhave = 0;
	rg->jrank = 0;
	rg->jcnext = 0;
	rg->jzero = kn_zalloc(region_rec(rg));
	if (rg->cmem == NULL && ((rg->jcf = fdopen(dup(rg->cfd), "w")) ==
	    NULL || fseeko(rg->jcf, 0, SEEK_SET) < 0))
		kn_die_sys("%s", rg->cpath);
}

/* The group pending is passed on, the last class's counts written
 * (and every record after it, zeros), and the regions looked up again
 * as rows come. */
static void
join_end(struct recoding *rc)
{
	struct regions *rg = rc->priv;

	if (rg->jgroups)
		region_flush(rc);
	rg->jgroups = 0;
	window_store(rg);
	if (rg->jcf != NULL) {
		memset(rg->crec, 0, region_rec(rg));
		if (rg->jcnext < rg->nall)
			counts_io(rg, rg->nall - 1, 1);
		if (fclose(rg->jcf) == EOF)
			kn_die_sys("%s: write error", rg->cpath);
		rg->jcf = NULL;
	}
	fclose(rg->jks);
	rg->jks = NULL;
	free(rg->jl);
	rg->jl = NULL;
	rg->jlcap = 0;
	free(rg->jzero);
	rg->jzero = NULL;
}

/* Writes a line of labels, in the rows' order, to the file jpath. */
static void
join_store(const char *line, size_t len, void *ctx)
{
	struct regions *rg = ctx;
	FILE *fp = rg->jctx;

	if (fwrite(line, 1, len, fp) != len || putc('\n', fp) == EOF)
		kn_die_sys("%s: write error", rg->jpath);
}

/* Joins the rows sorted in so with the regions; unless a row does not
 * match them, the labels are then read in the rows' order (joined). */
static void
join_run(struct recoding *rc, kn_sorter *so, kn_freqstats *st)
{
	struct regions *rg = rc->priv;
	int fd;

	rg->jf = kn_alloc(((size_t)rg->skey + 2 + rg->nqi) * sizeof(kn_str));
	rg->jlab = kn_sort_new(NULL, 0, 1, rg->budget / 8, rg->tmpdir);
	join_open(rg);
	kn_sort_finish(so, 0, join_line, rc);
	join_end(rc);
	if (st != NULL)
		st->runs += kn_sort_stats(so)->runs;
	kn_sort_free(so);
	free(rg->jf);
	free(rg->jbuf);
	rg->jf = NULL;
	rg->jbuf = NULL;
	rg->jcap = 0;
	if (rg->unknown || rg->outside) {
		kn_sort_free(rg->jlab);
		rg->jlab = NULL;
		return;
	}
	fd = kn_mktemp(rg->tmpdir, &rg->jpath);
	if ((rg->jctx = fdopen(fd, "w")) == NULL)
		kn_die_sys("%s", rg->jpath);
	kn_sort_finish(rg->jlab, 0, join_store, rg);
	kn_sort_free(rg->jlab);
	rg->jlab = NULL;
	if (fflush(rg->jctx) == EOF || ferror(rg->jctx) ||
	    fclose(rg->jctx) == EOF)
		kn_die_sys("%s: write error", rg->jpath);
	rg->jctx = NULL;
	kn_reader_open_size(&rg->jr, rg->jpath, (size_t)1 << 16);
	rg->jr.temp = 1;
	rg->joined = 1;
}

/* The labels are looked up again (or the run is over): their file
 * goes. */
static void
join_close(struct regions *rg)
{
	if (!rg->joined)
		return;
	kn_reader_close(&rg->jr);
	kn_rmtemp(rg->jpath);	/* and frees it */
	rg->jpath = NULL;
	rg->joined = 0;
}

/* Dies: the table read again is not the one joined. */
static void
join_changed(const struct regions *rg)
{
	kn_die("%s: the input changed between the two passes", rg->iname);
}

/* regions_label of a joined row: its labels, the next line's. */
static void
join_label(struct recoding *rc, kn_table *t, kn_str *lab)
{
	struct regions *rg = rc->priv;
	kn_str v = t->f[rg->classcol];
	const char *e;

	if (!kn_getline(&rg->jr) || rg->jr.len < 20 ||
	    strtoull(rg->jr.line, NULL, 10) != t->rows)
		join_changed(rg);
	e = rg->jr.line + rg->jr.len;
	if (join_fields(rg->jr.line + 20, e, lab, rg->nl) != e ||
	    lab[rg->nqi].n != v.n ||
	    memcmp(lab[rg->nqi].p, v.p, v.n) != 0)
		join_changed(rg);
}

void
regions_join(struct recoding *rc, kn_table *t)
{
	struct regions *rg = rc->priv;

	rg->skey = 0;
	rg->jgroups = 0;
	join_run(rc, join_rows(rc, t, NULL), NULL);
	/* Anything wrong: the pass that labels looks the rows up, from the
	 * first, and names the first row that does not match. */
	if (rg->jover || rg->jmiss)
		join_close(rg);
	if (!rg->joined) {
		rg->unknown = rg->outside = 0;
		counts_zero(rg);
	}
}

/*
 * The first pass: counts the rows of each class (and sensitive value)
 * within -S, and checks each row against its class's region.  The
 * groups of a class arrive together.  The regions are checked here,
 * before anything is written: a row outside its region, or a count
 * that the table does not match.
 */
void
regions_count(struct recoding *rc, kn_table *t, const size_t *scol,
    size_t ns, kn_fsout out, kn_freqstats *st)
{
	struct regions *rg = rc->priv;
	size_t d = 1 + ns, c;
	size_t *key = kn_alloc(d * sizeof(size_t));
	kn_dict *dict = kn_alloc(d * sizeof(kn_dict));
	kn_countspec cs;
	kn_str *lab;
	struct rkey rk = { rc, scol, ns };

	rg->skey = (int)ns;
	key[0] = rg->classcol;
	for (c = 0; c < ns; c++)
		key[1 + c] = scol[c];
	for (c = 0; c < d; c++)
		kn_dict_init(&dict[c]);
	memset(&cs, 0, sizeof(cs));
	cs.d = d;
	cs.key = key;
	cs.dict = dict;
	cs.row = region_row;
	cs.rowctx = rc;
	cs.jobs = rg->jobs;
	cs.tnew = rkey_tnew;
	cs.tfree = rkey_tfree;
	cs.tkey = rkey_key;
	cs.tfail = rkey_fail;
	cs.tctx = &rk;
	rg->out = out;
	rg->key = kn_alloc((rc->nq + ns + 1) * sizeof(kn_str));
	/* Half of -S: the regions and the classes to suppress share the
	 * rest.  Out of core, the join's sorts take it. */
	if (rg->ooc) {
		rg->jgroups = 1;
		join_run(rc, join_rows(rc, t, scol), st);
	} else
		kn_freq(t, &cs, NULL, rg->budget / 2, rg->tmpdir,
		    region_group, rc, st);
	region_flush(rc);
	for (c = 0; c < d; c++)
		kn_dict_free(&dict[c]);
	free(dict);
	free(key);
	free(rg->key);
	free(rg->gs);
	rg->gs = NULL;
	if (rg->unknown || rg->outside) {
		/* Read the input again to name the first such row. */
		counts_zero(rg);
		kn_table_free(t);
		kn_input_open(rg->in, t, rg->columns);
		kn_table_carry(t, rc->used, rc->nused, 1);
		lab = kn_alloc((rg->nl + 1) * sizeof(kn_str));
		while (kn_table_next(t))
			regions_label(rc, t, lab);
		kn_die("%s: the input changed between the two passes",
		    rg->iname);
	}
	regions_check(rc);
	/* Joined, the rows' labels and counts are known: the second pass
	 * reads the labels, unless a class holds more missing values than
	 * its region, which it names by looking the rows up. */
	if (rg->joined && !rg->jmiss)
		return;
	join_close(rg);
	counts_zero(rg);
}


/* ---- the threads of -j ------------------------------------------- */

/*
 * A thread's own regions: those in memory shared, read only, with
 * hierarchies of its own (a lookup may add to one), its share of the
 * room they may take, and its own buffer for a reason.
 */
void *
regions_tnew(struct recoding *rc, int nt)
{
	struct regions *rg = rc->priv, *c;
	size_t i;

	if (rg->ooc)
		return NULL;
	c = kn_alloc(sizeof(*c));
	*c = *rg;
	c->budget = rg->budget / (size_t)nt;
	c->tvm = kn_alloc((rg->nqi + 1) * sizeof(kn_i128));
	c->tvs = kn_alloc((rg->nqi + 1) * sizeof(int));
	c->h = kn_zalloc((rg->nqi + 1) * sizeof(kn_hier *));
	for (i = 0; i < rg->nqi; i++)
		if (rg->h[i] != NULL &&
		    (c->h[i] = kn_hier_clone(rg->h[i])) == NULL) {
			regions_tfree(rc, c);
			return NULL;
		}
	return c;
}

void
regions_tfree(struct recoding *rc, void *ts)
{
	struct regions *c = ts;
	size_t i;

	(void)rc;
	for (i = 0; i < c->nqi; i++)
		kn_hier_free(c->h[i]);
	free(c->h);
	free(c->tvm);
	free(c->tvs);
	free(c);
}

/*
 * regions_label on a thread: the labels of row f, whose values must
 * lie in its class's region (-1 otherwise, for the main thread to
 * report).  The class's rows and missing values are counted by
 * regions_tcommit, from the record: the class, then the missing values'
 * quasi-identifiers, their number first.
 */
int
regions_tlabel(struct recoding *rc, void *ts, const kn_str *f, kn_str *lab,
    rowpar_buf *rec)
{
	struct regions *rg = ts;
	kn_str v = f[rg->classcol];
	int64_t id = kn_dict_find(&rg->ids, v.p, v.n);
	const char *err = NULL;
	uint32_t nm = 0, i;
	uint64_t x;

	if (id < 0)
		return -1;
	for (i = 0; i < rg->nqi; i++) {
		if (region_fit(rg, (size_t)id, i, f[rc->qcol[i]], &err) != FIT)
			return -1;
		rg->tvm[i] = rg->fitm;
		rg->tvs[i] = rg->fitsc;
	}
	x = (uint64_t)id;
	rowpar_put(rec, &x, sizeof(x));
	/* A numeric QI's scale is -1 when its value is missing. */
	for (i = 0; i < rg->nqi && !rg->part; i++)
		nm += rg->num[i] && rg->tvs[i] < 0;
	rowpar_put(rec, &nm, sizeof(nm));
	for (i = 0; nm > 0 && i < rg->nqi; i++)
		if (rg->num[i] && rg->tvs[i] < 0)
			rowpar_put(rec, &i, sizeof(i));
	/* Then each number, for rstats_take in the rows' order. */
	for (i = 0; rg->sums && i < rg->nqi; i++)
		if (rg->num[i] && rg->tvs[i] >= 0) {
			rowpar_put(rec, &rg->tvm[i], sizeof(kn_i128));
			rowpar_put(rec, &rg->tvs[i], sizeof(int));
		}
	memcpy(lab, rg->lab + (size_t)id * rg->nl, rg->nl * sizeof(kn_str));
	return 0;
}

/* Counts a row labelled by regions_tlabel, in the order of the rows:
 * 0, counting nothing, when its class or one of its missing values
 * would pass its count (regions_label reports it). */
int
regions_tcommit(struct recoding *rc, const char **rec)
{
	struct regions *rg = rc->priv;
	const char *p = *rec, *v;
	uint64_t x;
	uint32_t nm, i, q, k, nv = 0;
	kn_i128 m;
	int sc;

	memcpy(&x, p, sizeof(x));
	memcpy(&nm, p + sizeof(x), sizeof(nm));
	p += sizeof(x) + sizeof(nm);
	/* The numbers follow the missing values' list. */
	for (i = 0; rg->sums && i < rg->nqi; i++)
		nv += rg->num[i] != 0;
	v = p + nm * sizeof(q);
	*rec = v + (nv - (rg->sums ? nm : 0)) * (sizeof(m) + sizeof(sc));
	for (i = 0; i < nm; i++) {
		memcpy(&q, p + i * sizeof(q), sizeof(q));
		if (rg->bd[x * rg->nqi + q].mseen >=
		    rg->bd[x * rg->nqi + q].miss)
			return 0;
	}
	if (rg->seen[x] >= rg->count[x])
		return 0;
	for (i = 0; i < nm; i++) {
		memcpy(&q, p + i * sizeof(q), sizeof(q));
		rg->bd[x * rg->nqi + q].mseen++;
	}
	for (i = 0, k = 0; rg->sums && i < rg->nqi; i++) {
		if (k < nm && (memcpy(&q, p + k * sizeof(q), sizeof(q)),
		    q == i)) {
			k++;
			continue;
		}
		if (!rg->num[i])
			continue;
		memcpy(&m, v, sizeof(m));
		memcpy(&sc, v + sizeof(m), sizeof(sc));
		v += sizeof(m) + sizeof(sc);
		rstats_take(&rg->bd[x * rg->nqi + i], m, sc, &rg->qsc[i]);
	}
	rg->seen[x]++;
	return 1;
}
