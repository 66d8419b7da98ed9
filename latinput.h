/*
 * latinput.h: lattice-search's input (latinput.c): the state of a run
 * (lattice.c's L), its frequency set read, packed in memory or kept on
 * disk (latdisk.c), the layout of its packed keys, the level maps and
 * the leaves under each label, and what they hold of -S.
 */
#ifndef LATINPUT_H
#define LATINPUT_H

#include "kanon.h"
#include "latbudget.h"
#include "latdisk.h"
#include "lattice.h"

/* A frequency set: n groups, keys of W words, counts (kanon.h); with
 * no keys, the set of a node on disk (latdisk.c). */
typedef kn_pset fset;

/* A quasi-identifier: its hierarchy, level maps and packed field. */
struct attr {
	const char *name;
	kn_hier *h;
	int nlev;
	uint32_t **map;		/* map[from * nlev + to]: ids at from -> to */
	uint32_t **cover;	/* cover[l][id], l > 0: the leaves under
				 * label id (Iyengar's loss) */
	int word, shift;
	uint64_t fm;		/* field mask (unshifted) */
};

/* The input as it is read. */
struct lat_in {
	uint32_t *ids;		/* rows of d (+1) ids */
	uint64_t *cnt;
	size_t n, cap, w;
	kn_dict sdict[KN_MAXSENS];
	uint64_t *scnt[KN_MAXSENS];	/* the rows of each sensitive id */
	size_t scap[KN_MAXSENS];
	size_t vbytes;		/* of the values read since the last
				 * check of the budget */
};

/* The state of a run (lattice.c's L). */
struct lat_state {
	struct lat_in in;	/* the input as it is read */
	size_t d;
	struct attr a[MAXQ];
	int W;
	int hass;		/* some requirement on -s */
	size_t ns;		/* sensitive columns (-s a,b,...) */
	int sword[KN_MAXSENS], sshift[KN_MAXSENS];
	uint64_t sfm[KN_MAXSENS];
	uint64_t smask[8];	/* the sensitive fields of each key word */
	uint32_t *spos[KN_MAXSENS];	/* id -> t-closeness position */
	kn_tclose tc[KN_MAXSENS];
	kn_req req;		/* -k, l-diversity and t-closeness */
	/* t-closeness with the set on disk, under the equal or ordered
	 * distance: the sensitive values numbered on disk (ranked in the
	 * distance's order for the ordered one), their ids the positions
	 * of the distribution (svdisk); the distribution built from the
	 * records while it fits its share of -S, else none, each node's
	 * classes measured out of core (tdisk: lateval.c, through
	 * tcdisk.c) */
	int svdisk, tdisk;
	size_t tdhold;		/* with tdisk, the bytes its spools hold */
	uint64_t limit, N;
	int monotone;
	int algo;
	fset base;
	uint64_t full;		/* mask of all quasi-identifiers */
	size_t budget;		/* bytes of sets kept for roll-ups */
	struct lbud bud;	/* what -S holds whatever the search does */
	struct ldisk *disk;	/* the input's set on disk, or NULL */
	size_t most, sortbud;	/* with it, the groups of a set made in
				 * memory, and the bytes of a sort */
	kn_hier **hier;
	const char *tmpdir;
	int threads;
	kn_pfield pf[MAXQ];	/* the packed fields of the attributes */
	kn_playout lay;
};

/* Whether t-closeness holds the sensitive values as they are read,
 * with their rows (not svdisk). */
static inline int
latin_sheld(const struct lat_state *L)
{
	return L->req.hast && !L->svdisk;
}

/* The phases of a run whose memory latin_check counts. */
enum { PH_READ, PH_BUILD, PH_SEARCH };

/* Counts what the input holds against -S; whether it passes it. */
int latin_check(struct lat_state *L, int phase);
/* kn_freq's sink: a group of the input's set at the leaves (ctx: L). */
void latin_group(const kn_fsrow *r, void *ctx);
/* Puts the input's set on disk, the groups read so far with it. */
void latin_go_disk(struct lat_state *L);
/* The set on disk made (latdisk.c), the base a set without keys. */
void latin_disk(struct lat_state *L);
/* The layout of the keys, the level maps and the leaves under each
 * label; latin_unlayout undoes it. */
void latin_layout(struct lat_state *L);
void latin_unlayout(struct lat_state *L);
/* Packs the input into the base set in memory. */
void latin_base(struct lat_state *L);
/* The budget of the search with the set on disk. */
void latin_disk_budget(struct lat_state *L);
/* The whole table's distribution of sensitive column s for
 * t-closeness, h its hierarchy. */
void latin_tclose(struct lat_state *L, size_t s, kn_hier *h);
/* With the sensitive values numbered on disk (svdisk), the
 * distributions built from the records (a pass a column) while they
 * fit a quarter of what the budget leaves, or half a MiB, else
 * tdisk. */
void latin_disk_tclose(struct lat_state *L);

#endif
