/*
 * latbudget.c: lattice-search's memory budget (-S, issue 17).  The
 * search holds the input's frequency set at the leaves (its groups as
 * read, then their keys packed), the hierarchies' labels (a generated
 * hierarchy has a leaf for each distinct value of its column) until the
 * level maps and the leaves under each label are built from them, and
 * the work space of a roll-up from the input's set (its hash table, the
 * set it makes and the one it reads when that is not kept, the class
 * order of -l).  These are counted here against -S, phase by phase
 * (latinput.c's latin_check); when they pass it by more than
 * LBUD_SLACK, the set goes to disk (latdisk.c) and what is still held is
 * counted: the labels above the ranked leaves, the level maps from them,
 * the sensitive values with t-closeness (without, latdisk.c numbers
 * them).  Two thirds of what is left go to the sets kept
 * for roll-ups (lattice.c's keep_set, tagging.c's hubs).  A run on disk whose held part passes
 * the budget by more than LBUD_SLACK is refused, with what takes the
 * memory.  The lattice's own bookkeeping (a state byte per node, the
 * order by height, --all's metrics) grows with the lattice, not the
 * input, and is not counted: lattice-search(1), -S.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kanon.h"
#include "latbudget.h"

/* A hierarchy's labels of every level and their links upward. */
size_t
lbud_hier_bytes(const kn_hier *h)
{
	size_t b = 0;
	int l;

	for (l = 0; l < h->nlevels; l++) {
		b += kn_dict_bytes(&h->lab[l]);
		if (h->upcap != NULL)
			b += h->upcap[l] * sizeof(uint32_t);
	}
	return b;
}

/* What build_layout (lattice.c) makes of a hierarchy: kn_hier_map
 * from every level (but the leaves, unless leaves) to every higher one,
 * and the leaves under each label above them (kn_hier_cover). */
size_t
lbud_maps_bytes(const kn_hier *h, int leaves)
{
	size_t b = 0;
	int from, to;

	for (from = !leaves; from < h->nlevels; from++) {
		for (to = from + 1; to < h->nlevels; to++)
			b += (h->lab[from].n + 1) * sizeof(uint32_t);
		if (from > 0)
			b += (h->lab[from].n + 1) * sizeof(uint32_t);
	}
	return b + (size_t)h->nlevels * h->nlevels * sizeof(uint32_t *);
}

/* kn_pset_rollup's hash table and output, and the set it reads, for
 * each thread. */
size_t
lbud_work_bytes(size_t groups, int W, int threads, int ord)
{
	size_t nslot, set = (groups + 1) * (size_t)(W + 1) * sizeof(uint64_t);

	/* kn_pset_rollup's table: a power of two, at least twice the
	 * groups, of 16-byte slots. */
	for (nslot = 16; nslot < 2 * groups; nslot *= 2)
		;
	return (size_t)threads * (nslot * 16 + 2 * set +
	    (ord ? (groups + 1) * sizeof(uint32_t) : 0));
}

/* The parts of the phase counted. */
size_t
lbud_fixed(const struct lbud *b)
{
	return b->input + b->labels + b->maps + b->work + b->dist;
}

/* The bytes resident now, where the system says (Linux's
 * /proc/self/statm), else 0. */
static size_t
resident(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long long size, res = 0;
	long psz = sysconf(_SC_PAGESIZE);

	if (f == NULL)
		return 0;
	if (fscanf(f, "%llu %llu", &size, &res) != 2)
		res = 0;
	fclose(f);
	return psz > 0 ? (size_t)res * (size_t)psz : 0;
}

/*
 * What is left for the sets kept: the budget less what is held and the
 * work space, less a third.  What the reading and the labels freed need not have left
 * the process (a heap does not shrink in its middle), and the sets kept
 * may come on top of it: what is resident, when more, counts as held.
 */
size_t
lbud_kept(const struct lbud *b)
{
	size_t held = b->input + b->labels + b->maps, r = resident(), f;

	/* With the set on disk, what the reading left is not held: the
	 * sets kept come in its holes. */
	if (r > held && !b->disk)
		held = r;
	f = held + b->work;
	/* A third of what is left for the heap's holes: sets of every
	 * size are kept, dropped and made in turn, and the holes they
	 * leave are not all filled again (3 million groups at -S 800M
	 * passed it by 42 MiB with all of it, by 35 with seven eighths). */
	return f < b->budget ? (b->budget - f) / 3 * 2 : 0;
}

/* MiB, rounded up. */
static unsigned long long
mib(size_t b)
{
	return ((unsigned long long)b + (1 << 20) - 1) >> 20;
}

/*
 * The run is refused when what it holds whatever it does passes the
 * budget and its slack, with the frequency set on disk: the message
 * names each part, the hierarchy with the most labels above its leaves,
 * and the budget that would do, which is what is held less the slack:
 * while the leaves are still ranked, a budget that surely fails (in
 * whole MiB, rounded down); once all are, one that passes, with a
 * quarter more.
 */
void
lbud_check(const struct lbud *b, size_t share)
{
	char s[32], need[32], parts[512];
	size_t f = lbud_fixed(b);

	if (f <= share || f - share <= LBUD_SLACK)
		return;
	kn_fmt_size(s, sizeof(s), b->budget);
	snprintf(parts, sizeof(parts), "the labels of the hierarchies above "
	    "their leaves%s take %llu MiB", b->svalues ? ", and the "
	    "sensitive values (t-closeness holds their distribution)," : "",
	    mib(b->labels));
	if (b->maps > 0)
		snprintf(parts + strlen(parts), sizeof(parts) - strlen(parts),
		    ", their level maps %llu MiB", mib(b->maps));
	if (b->making)
		kn_fmt_size(need, sizeof(need),
		    (f - LBUD_SLACK) >> 20 << 20);
	else
		kn_fmt_size(need, sizeof(need), (size_t)(mib(f - LBUD_SLACK +
		    (f - LBUD_SLACK) / 4) << 20));
	if (b->making)
		kn_die("-S %s: too small for this input: with its frequency "
		    "set of %zu groups on disk, %s already, with more to come "
		    "as the leaves are ranked, held in memory whatever the "
		    "budget (lattice-search(1), -S): give -S more than %s", s,
		    b->groups, parts, need);
	kn_die("-S %s: too small for this input: with its frequency set of "
	    "%zu groups on disk, %s, %llu MiB in all, held in memory whatever "
	    "the budget (lattice-search(1), -S): give -S %s or more", s,
	    b->groups, parts, mib(f), need);
}
