/*
 * latinput.c: lattice-search's input (issue 17): the frequency set at
 * the leaves read from kn_freq, as ids packed into 64-bit words in
 * memory while it, its labels and the level maps fit -S, else on disk
 * (latdisk.c), the groups read so far written out when it stops
 * fitting; the layout of the packed keys, the level maps and the leaves
 * under each label (Iyengar's loss); what they hold of the budget
 * (latbudget.c).  Below lattice.c, whose state (struct lat_state) it
 * fills.
 */
#include <stdlib.h>
#include <string.h>

#include "kanon.h"
#include "latinput.h"

/*
 * Counts what the input holds against -S (latbudget.c), and returns
 * whether it passes the budget by more than LBUD_SLACK (the small fixed
 * part of every run: past it, the set goes to disk).  While it is read,
 * the groups read and the labels, against the three quarters of the
 * budget that the counting leaves; as the packed set is built, the
 * groups read, the labels, the level maps and the packed keys; for the
 * search (the labels shed), the packed set, the level maps and the
 * roll-ups' work space.  With the set on disk, the labels above the
 * ranked leaves, the maps from them and with t-closeness the sensitive
 * values only, against the budget itself (lbud_check allows the slack).
 */
int
latin_check(struct lat_state *L, int phase)
{
	struct lat_in *in = &L->in;
	/* The groups read, their ids and counts. */
	size_t c, grp = in->cap * (in->w * sizeof(uint32_t) +
	    sizeof(uint64_t));

	L->bud.groups = L->disk != NULL ? ldisk_groups(L->disk) : in->n;
	L->bud.labels = L->bud.maps = L->bud.work = L->bud.input = 0;
	for (c = 0; phase != PH_SEARCH && c < L->d; c++)
		L->bud.labels += lbud_hier_bytes(L->a[c].h);
	for (c = 0; c < L->ns; c++)
		L->bud.labels += kn_dict_bytes(&in->sdict[c]) +
		    in->scap[c] * sizeof(uint64_t);
	/* Before the next check the dictionaries may grow, each array
	 * doubled beside the old one, and the groups by half, beside the
	 * old ones too: counted as if it were done. */
	if (phase == PH_READ)
		return L->disk == NULL && lbud_fixed(&L->bud) +
		    L->bud.labels + grp / 2 * 5 >
		    L->bud.budget / 4 * 3 + LBUD_SLACK;
	for (c = 0; c < L->d; c++)
		L->bud.maps += lbud_maps_bytes(L->a[c].h, L->disk == NULL ||
		    !ldisk_ranked(L->disk, c));
	if (L->disk != NULL)
		return lbud_fixed(&L->bud) > L->bud.budget;
	L->bud.input = grp;
	if (phase == PH_BUILD) {
		L->bud.input += (in->n + 1) * (size_t)L->W * sizeof(uint64_t);
		return lbud_fixed(&L->bud) > L->bud.budget + LBUD_SLACK;
	}
	L->bud.input = (in->n + 1) * (size_t)L->W * sizeof(uint64_t) +
	    in->cap * sizeof(uint64_t);
	/* Incognito's threads roll up each on its own, from a copy of the
	 * input's set generalized to the candidates' lowest levels; flash's
	 * from the sets they share (while the input is read, the search
	 * not yet known, one). */
	L->bud.work = lbud_work_bytes(in->n, L->W, (L->algo <= A_CUBE ||
	    L->algo == A_FLASH) && L->monotone ? L->threads : 1, L->hass);
	if (L->algo <= A_CUBE && L->monotone)
		L->bud.work += (in->n + 1) * (size_t)(L->W + 1) *
		    sizeof(uint64_t);
	return lbud_fixed(&L->bud) > L->bud.budget + LBUD_SLACK;
}

/* Puts the input's frequency set on disk (latdisk.c): the groups read
 * so far are written out and freed, the next go there as they come. */
void
latin_go_disk(struct lat_state *L)
{
	struct lat_in *in = &L->in;
	kn_str *k = kn_alloc((L->d + L->ns + 1) * sizeof(kn_str));
	size_t i, c;
	int svals;

	/* t-closeness under the hierarchical distance keeps its
	 * distribution over the hierarchy's leaves, which are in memory
	 * anyway; under the others the values are numbered on disk, and
	 * the distributions built from the set while they fit, else
	 * measured out of core (latin_disk_tclose). */
	L->svdisk = L->req.hast && L->req.dist != KN_DIST_HIER;
	L->bud.svalues = latin_sheld(L);
	svals = !latin_sheld(L);
	L->disk = ldisk_new(L->d, L->hier, L->ns, svals, L->tmpdir);
	for (c = 0; L->svdisk && L->req.dist == KN_DIST_ORDERED && c < L->ns;
	    c++)
		ldisk_order(L->disk, c);
	for (i = 0; i < in->n; i++) {
		for (c = 0; c < L->d; c++)
			k[c] = kn_dict_get(&L->a[c].h->lab[0],
			    in->ids[i * in->w + c]);
		for (c = 0; svals && c < L->ns; c++)
			k[L->d + c] = kn_dict_get(&in->sdict[c],
			    in->ids[i * in->w + L->d + c]);
		ldisk_group(L->disk, k, in->ids + i * in->w + L->d, in->cnt[i]);
	}
	free(k);
	/* Unless t-closeness holds them, the sensitive values are
	 * numbered on disk (latdisk.c), as they come. */
	for (c = 0; svals && c < L->ns; c++) {
		kn_dict_free(&in->sdict[c]);
		kn_dict_init(&in->sdict[c]);
		free(in->scnt[c]);
		in->scnt[c] = NULL;
		in->scap[c] = 0;
	}
	free(in->ids);
	free(in->cnt);
	in->ids = NULL;
	in->cnt = NULL;
	in->n = in->cap = 0;
}

/* A group of the input's frequency set at the leaves. */
void
latin_group(const kn_fsrow *r, void *ctx)
{
	uint32_t sid[KN_MAXSENS];
	size_t c, o;
	int64_t id;

	struct lat_state *L = ctx;
	struct lat_in *in = &L->in;

	if (r->cnt == 0)
		return;
	if (__builtin_add_overflow(L->N, r->cnt, &L->N))
		kn_rows_overflow();
	for (c = 0; c < L->d + L->ns; c++)
		in->vbytes += r->key[c].n;
	for (c = 0; c < L->ns && (L->disk == NULL || latin_sheld(L)); c++) {
		sid[c] = kn_dict_intern(&in->sdict[c], r->key[L->d + c].p,
		    r->key[L->d + c].n);
		if (sid[c] >= in->scap[c]) {
			o = in->scap[c];
			in->scnt[c] = kn_grow(in->scnt[c], &in->scap[c], sid[c],
			    sizeof(uint64_t), 64);
			memset(in->scnt[c] + o, 0, (in->scap[c] - o) *
			    sizeof(uint64_t));
		}
		in->scnt[c][sid[c]] += r->cnt;
	}
	if (L->disk != NULL) {
		ldisk_group(L->disk, r->key, sid, r->cnt);
		return;
	}
	if (in->n == in->cap) {
		/* By half: the slack counts against -S. */
		in->cap = in->cap ? in->cap + in->cap / 2 : 1024;
		in->ids = kn_realloc(in->ids, in->cap * in->w *
		    sizeof(uint32_t));
		in->cnt = kn_realloc(in->cnt, in->cap * sizeof(uint64_t));
	}
	for (c = 0; c < L->d; c++) {
		const char *err;

		/* The leaf kn_freq found or made for the label, when it
		 * gives one (kn_fsrow); else through kn_hier_leaf: a
		 * generated hierarchy forgets its leaves when the counting
		 * spills, and grows them again. */
		if (r->id != NULL) {
			in->ids[in->n * in->w + c] = r->id[c];
			continue;
		}
		id = kn_hier_leaf(L->a[c].h, r->key[c].p, r->key[c].n, &err);
		if (id < 0)
			kn_die("%s: '%.*s': %s", L->a[c].name,
			    (int)r->key[c].n, r->key[c].p, err);
		in->ids[in->n * in->w + c] = (uint32_t)id;
	}
	for (c = 0; c < L->ns; c++)
		in->ids[in->n * in->w + L->d + c] = sid[c];
	in->cnt[in->n] = r->cnt;
	/* Every 4096 groups, or sooner when their values are long (the
	 * labels and the sensitive values grow with them). */
	if ((++in->n & 0xfff) == 0 || in->vbytes > L->bud.budget / 32) {
		in->vbytes = 0;
		if (latin_check(L, PH_READ))
			latin_go_disk(L);
	}
}

static int
bits_for(uint64_t n)
{
	int b = 1;

	while (b < 64 && ((uint64_t)1 << b) < n)
		b++;
	return b;
}

/* Lays out the packed keys, builds the level maps (with the set on
 * disk, none from the leaves ranked there) and the leaves under each
 * label; the hierarchies' labels are then shed. */
void
latin_layout(struct lat_state *L)
{
	struct lat_in *in = &L->in;
	int word = 0, used = 0, b, from, to;
	size_t c;

	for (c = 0; c < L->d + L->ns; c++) {
		if (c < L->d)
			b = bits_for(L->a[c].h->lab[0].n);
		else if (L->disk != NULL && !latin_sheld(L))
			b = bits_for(ldisk_nsid(L->disk, c - L->d));
		else
			b = bits_for(in->sdict[c - L->d].n);
		if (used + b > 64) {
			word++;
			used = 0;
		}
		if (c < L->d) {
			L->a[c].word = word;
			L->a[c].shift = used;
			L->a[c].fm = b == 64 ? ~(uint64_t)0 :
			    ((uint64_t)1 << b) - 1;
		} else {
			L->sword[c - L->d] = word;
			L->sshift[c - L->d] = used;
			L->sfm[c - L->d] = ((uint64_t)1 << b) - 1;
		}
		used += b;
	}
	L->W = word + 1;
	if (L->W > 8)
		kn_die("the quasi-identifiers need more than 512 key bits");
	for (c = 0; c < L->d; c++) {
		struct attr *a = &L->a[c];
		kn_hier *h = a->h;
		int ranked = L->disk != NULL && ldisk_ranked(L->disk, c);

		a->nlev = h->nlevels;
		a->map = kn_zalloc((size_t)a->nlev * a->nlev *
		    sizeof(uint32_t *));
		for (from = ranked; from < a->nlev; from++)
			for (to = from + 1; to < a->nlev; to++)
				a->map[from * a->nlev + to] =
				    kn_hier_map(h, from, to);
		a->cover = ranked ? ldisk_cover(L->disk, c) : kn_hier_cover(h);
		L->pf[c] = (kn_pfield){ a->word, a->shift, a->fm, h, a->nlev,
		    a->map };
	}
	L->lay = (kn_playout){ L->d, L->W, L->pf, 0 };
	for (c = 0; L->hass && c < L->ns; c++) {
		/* The sensitive fields' values together, for the size of a
		 * roll-up's output (saturated: only a bound). */
		uint64_t m = L->sfm[c] + 1, p = c == 0 ? 1 : L->lay.sprod;

		L->lay.sprod = m == 0 || p > UINT64_MAX / m ? UINT64_MAX :
		    p * m;
	}
	for (c = 0; c < L->ns; c++)
		L->smask[L->sword[c]] |= L->sfm[c] << L->sshift[c];
}

/* Undoes build_layout, for build_disk. */
void
latin_unlayout(struct lat_state *L)
{
	size_t c;
	int l;

	for (c = 0; c < L->d; c++) {
		for (l = 0; l < L->a[c].nlev * L->a[c].nlev; l++)
			free(L->a[c].map[l]);
		free(L->a[c].map);
		for (l = 0; l < L->a[c].nlev; l++)
			free(L->a[c].cover[l]);
		free(L->a[c].cover);
	}
	memset(L->smask, 0, sizeof(L->smask));
}

/*
 * The budget with the input's set on disk: of what the labels, maps and
 * sensitive values leave, a third for the sets made in memory (L->most
 * groups at most, with the roll-ups' work space), a third for the
 * buffers of the parts larger ones are split into, the rest for the
 * sets kept (lbud_kept).
 */
void
latin_disk_budget(struct lat_state *L)
{
	size_t f = lbud_fixed(&L->bud), rest, most;

	rest = f < L->bud.budget ? L->bud.budget - f : 0;
	/* t-closeness measured on disk: its spools' share (lateval.c). */
	L->tdhold = L->tdisk ? rest / 16 : 0;
	rest = (rest - L->tdhold) / 3;
	/* At most 2^30: the hash's slots hold 32-bit indexes. */
	for (most = 1024; most < ((size_t)1 << 30) &&
	    lbud_work_bytes(2 * most, L->W, 1, L->hass) <= rest; most *= 2)
		;
	L->most = most;
	L->sortbud = rest > ((size_t)256 << 10) ? rest : (size_t)256 << 10;
	L->bud.work = lbud_work_bytes(most, L->W, 1, L->hass) + L->sortbud +
	    L->tdhold;
	L->bud.disk = 1;
}

/* Packs the input into the base frequency set, in memory. */
void
latin_base(struct lat_state *L)
{
	struct lat_in *in = &L->in;
	size_t c, i;

	/* The search asks the hierarchies only their numbers of labels. */
	for (c = 0; c < L->d; c++)
		kn_hier_shed(L->a[c].h);
	L->base.n = in->n;
	L->base.key = kn_zalloc((in->n + 1) * L->W * sizeof(uint64_t));
	L->base.cnt = in->cnt;
	for (i = 0; i < in->n; i++) {
		uint64_t *k = L->base.key + i * L->W;

		for (c = 0; c < L->d; c++)
			k[L->a[c].word] |= (uint64_t)in->ids[i * in->w + c] <<
			    L->a[c].shift;
		for (c = 0; c < L->ns; c++)
			k[L->sword[c]] |= (uint64_t)in->ids[i * in->w +
			    L->d + c] << L->sshift[c];
	}
	free(in->ids);
}

/* As the labels above the ranked leaves are made: the run is refused
 * as soon as they and the sensitive values pass what the budget allows
 * (lbud_check), not once all are made (review: 259 MB were held under
 * -S 1M before the refusal). */
static void
latin_grown(void *ctx)
{
	struct lat_state *L = ctx;

	if (!latin_check(L, PH_BUILD))
		return;
	L->bud.maps = 0;
	L->bud.making = 1;
	lbud_check(&L->bud, L->bud.budget);
	L->bud.making = 0;
}

/*
 * The input's set on disk (latdisk.c): the generated hierarchies forget
 * what the reading taught them, the leaves of those that would take
 * more than an eighth of the budget among them are ranked by sorts
 * within half of it; the base set is a set without keys.
 */
void
latin_disk(struct lat_state *L)
{
	size_t c, cols = L->d + (latin_sheld(L) ? 0 : L->ns);

	for (c = 0; c < L->d; c++)
		if (L->a[c].h->kind != KN_HFILE)
			kn_hier_reset(L->a[c].h);
	ldisk_on_grow(L->disk, latin_grown, L);
	ldisk_build(L->disk, L->bud.budget / 8 / (cols > 0 ? cols : 1),
	    L->bud.budget / 2);
	L->base.n = ldisk_groups(L->disk);
	L->base.key = L->base.cnt = NULL;
	L->threads = 1;
}

void
latin_disk_tclose(struct lat_state *L)
{
	size_t c, need = 0, f = lbud_fixed(&L->bud);
	uint64_t *C;

	/* Each distinct value's rows, as counted and in the distribution
	 * (with its cumulative count and their prefix sum under the
	 * ordered distance), and in the values of a class handed on alone
	 * (lateval.c's tally_value). */
	for (c = 0; c < L->ns; c++)
		need += ((size_t)ldisk_nsid(L->disk, c) + 1) *
		    (L->req.dist == KN_DIST_ORDERED ? 56 : 32);
	/* A quarter of what the budget leaves, or a small part of the
	 * slack that the fixed part of every run may take. */
	if (need > (f < L->bud.budget ? (L->bud.budget - f) / 4 : 0) +
	    LBUD_SLACK / 16) {
		L->tdisk = 1;
		return;
	}
	L->bud.dist = need;
	for (c = 0; c < L->ns; c++) {
		C = kn_zalloc(((size_t)ldisk_nsid(L->disk, c) + 1) *
		    sizeof(uint64_t));
		ldisk_scounts(L->disk, c, C);
		kn_tclose_init(&L->tc[c], &L->req, C, ldisk_nsid(L->disk, c),
		    NULL);
		free(C);
	}
}

/* The whole table's distribution of sensitive column s (that of the
 * input, whatever a node suppresses: kanon(7), T-CLOSENESS), and the
 * positions of its values; h is its hierarchy for the hierarchical
 * distance. */
void
latin_tclose(struct lat_state *L, size_t s, kn_hier *h)
{
	struct lat_in *in = &L->in;
	uint64_t *cnt = kn_zalloc((in->sdict[s].n + 1) * sizeof(uint64_t));

	if (in->sdict[s].n > 0)
		memcpy(cnt, in->scnt[s], in->sdict[s].n * sizeof(uint64_t));
	kn_tclose_dict(&L->tc[s], &L->req, &in->sdict[s], cnt, h, &L->spos[s]);
	free(cnt);
}
