# The random cases of the partition tests (partition.bats) and the
# property test (property.bats).

# gencase SEED DIR: writes a random case into DIR: the table DIR/t
# (columns q1..qD, s, y, z and an id x, in a random order) and a
# hierarchy DIR/h.qJ per hierarchical quasi-identifier (in -H DIR mode
# DIR/h/qJ.tsv, and then maybe a hierarchy for a numeric one too, which
# --numeric overrides).  Prints one line, tab-separated: the -q list
# (random order), the hierarchical QIs as the checker's hier=
# ("-": none), the -H mode (files or dir), the --numeric list ("-"), k,
# relaxed (0/1), the diversity ("-" none, "default" for -l alone), l, c
# ("-"), the variance ("-") and the split (median, infogain,
# regression).  With a third argument "big", the table is one of the
# larger ones (100 to 1,500 rows), the rest drawn as for the seed.
gencase() {
	awk -v seed="$1" -v dir="$2" -v forcebig="${3:-}" '
	function shuffle(a, n,    i, j, t) {
		for (i = n; i > 1; i--) {
			j = 1 + int(rand() * i)
			t = a[i]; a[i] = a[j]; a[j] = t
		}
	}
	function pick(list,    a, n) {
		n = split(list, a, " ")
		return a[1 + int(rand() * n)]
	}
	BEGIN {
		srand(seed)
		OFS = "\t"
		# Numeric values, with other spellings of the same value.
		nval = split("0 1 2 3 5 8 -1 -2 2.5 0.5 13 100", val, " ")
		alt["0"] = "-0 0.0 00"
		alt["1"] = "01 1.0 +1"
		alt["2"] = "2.00"
		alt["2.5"] = "2.50 +2.5"
		alt["0.5"] = ".5 0.50"
		alt["-1"] = "-1.0 -01"
		pools[1] = "a b c d e f g h"
		pools[2] = "x_y * A B \303\251 [1,2) - a-b"
		pools[3] = "0 00 1 01 10 2 -1 3.0"
		gpool = "* g1 g2 g3 g4 a b 0 1 x_y"
		d = 1 + int(rand() * 4)
		# Some larger tables, with numeric values from wide ranges
		# (other sorting paths in partition).
		big = rand() < 0.12 || forcebig == "big"
		hmode = rand() < 0.3 ? "dir" : "files"
		if (hmode == "dir")
			system("mkdir -p " dir "/h")
		hlist = numlist = ""
		for (j = 1; j <= d; j++) {
			ish[j] = rand() < 0.5
			if (!ish[j]) {
				# m values of the pool, skewed; or for a big table
				# up to 400 values of a wide range.
				m = 1 + int(rand() * 7)
				shuffle(val, nval)
				for (i = 1; i <= m; i++)
					L[j, i] = val[i]
				if (big) {
					m = 1 + int(rand() * 400)
					w = pick("100 1000 100000 10000000")
					for (i = 1; i <= m; i++)
						L[j, i] = int(rand() * w) - int(w / 4) \
						    (rand() < 0.1 ? ".25" : "")
				}
				nleaf[j] = m
				skew[j] = 1 + int(rand() * 3)
				# A hierarchy that --numeric overrides.
				if (hmode == "dir" && rand() < 0.3) {
					for (i = 1; i <= m; i++) {
						print L[j, i], "*" > (dir "/h/q" j ".tsv")
						n = L[j, i] in alt ? split(alt[L[j, i]], sp, " ") : 0
						for (t = 1; t <= n; t++)
							print sp[t], "*" > (dir "/h/q" j ".tsv")
					}
					close(dir "/h/q" j ".tsv")
					numlist = numlist (numlist == "" ? "" : ",") "q" j
				}
				continue
			}
			# A random hierarchy: leaves of a pool, then levels that
			# map the labels below onto fewer (or as many) labels;
			# the top is "*", or several labels (an implicit root).
			m = 2 + int(rand() * 7)
			np = split(pools[1 + int(rand() * 3)], leaf, " ")
			shuffle(leaf, np)
			nleaf[j] = m
			for (i = 1; i <= m; i++) {
				L[j, i] = leaf[i]
				cur[i] = leaf[i]
				chain[i] = leaf[i]
				up[i] = leaf[i]
			}
			ncur = m
			nl = rand() < 0.15 ? 1 : 2 + int(rand() * 3)
			for (lv = 1; lv < nl; lv++) {
				ng = split(gpool, g, " ")
				shuffle(g, ng)
				if (lv == nl - 1 && rand() < 0.7)
					nc = 1
				else if (rand() < 0.15)
					nc = ncur
				else
					nc = 1 + int(rand() * (ncur > 1 ? ncur - 1 : 1))
				if (nc > ng)
					nc = ng
				if (nc == 1 && lv == nl - 1 && rand() < 0.8)
					g[1] = "*"
				shuffle(cur, ncur)
				split("", par)
				for (i = 1; i <= ncur; i++)
					par[cur[i]] = i <= nc ? g[i] : g[1 + int(rand() * nc)]
				for (i = 1; i <= m; i++) {
					up[i] = par[up[i]]
					chain[i] = chain[i] "\t" up[i]
				}
				ncur = 0
				split("", seen)
				for (i = 1; i <= m; i++)
					if (!(up[i] in seen)) {
						seen[up[i]] = 1
						cur[++ncur] = up[i]
					}
			}
			for (i = 1; i <= m; i++)
				ord[i] = chain[i]
			shuffle(ord, m)
			f = hmode == "dir" ? dir "/h/q" j ".tsv" : dir "/h.q" j
			for (i = 1; i <= m; i++)
				print ord[i] > f
			close(f)
			hlist = hlist (hlist == "" ? "" : ",") "q" j "=" f
			skew[j] = 1 + int(rand() * 3)
		}
		# The table: skewed values, duplicated rows.
		for (j = 1; j <= d; j++)
			cols[j] = "q" j
		cols[d + 1] = "s"
		cols[d + 2] = "y"
		cols[d + 3] = "z"
		cols[d + 4] = "x"
		shuffle(cols, d + 4)
		hdr = cols[1]
		for (i = 2; i <= d + 4; i++)
			hdr = hdr "\t" cols[i]
		print hdr > (dir "/t")
		n = rand() < 0.1 ? 1 + int(rand() * 4) : 5 + int(rand() * 56)
		if (big)
			n = 100 + int(rand() * 1400)
		ns = rand() < 0.03 ? 1 : 2 + int(rand() * 5)
		sskew = rand() < 0.6 ? 1 : 2
		sdec = rand() < 0.2
		for (r = 1; r <= n; ) {
			for (j = 1; j <= d; j++) {
				x = L[j, 1 + int(nleaf[j] * rand() ^ skew[j])]
				if (!ish[j] && (x in alt) && rand() < 0.3)
					x = pick(alt[x])
				v["q" j] = x
			}
			v["s"] = int(ns * rand() ^ sskew) (sdec && rand() < 0.3 ? ".5" : "")
			v["y"] = pick("yes no no maybe")
			v["z"] = pick("0 1 2 3 10 -4 2.5")
			nb = 1
			while (rand() < 0.3)
				nb++
			for (i = 0; i < nb && r <= n; i++) {
				v["x"] = "r" r
				line = v[cols[1]]
				for (c = 2; c <= d + 4; c++)
					line = line "\t" v[cols[c]]
				print line > (dir "/t")
				r++
			}
		}
		close(dir "/t")
		for (j = 1; j <= d; j++)
			qo[j] = "q" j
		shuffle(qo, d)
		q = qo[1]
		for (j = 2; j <= d; j++)
			q = q "," qo[j]
		k = 1 + int(rand() * (rand() < 0.3 ? 10 : 4))
		if (k > n && rand() < 0.8)
			k = 1 + int(rand() * n)
		relaxed = rand() < 0.35
		dv = l = c = vr = "-"
		x = rand()
		if (x < 0.55) {
			dv = pick("default distinct entropy entropy recursive recursive")
			if (dv == "default" || dv == "distinct")
				l = 1 + int(rand() * 3)
			else if (dv == "entropy")
				l = pick("1 1.5 2 2 2.5 3")
			else {
				l = 1 + int(rand() * 3)
				c = pick("- 1 2 3 0.5 1.5 2.25")
			}
		}
		if (rand() < 0.3)
			vr = pick("0 0.05 0.1 0.2 0.25 0.5 1")
		split_ = pick("median median infogain regression")
		print q, hlist == "" ? "-" : hlist, hmode, \
		    numlist == "" ? "-" : numlist, k, relaxed, dv, l, c, vr, split_
	}'
}

# caseopts: sets opt (partition's options) and chk (the checker's) for
# the case read by checkcase or ooccase (dynamic scope: their locals).
caseopts() {
	opt=(-q "$q" -k "$k")
	chk=(-v qi="$q" -v k="$k")
	if [ "$hm" = dir ]; then
		[ ! -d "$dir/h" ] || opt+=(-H "$dir/h")
	else
		[ "$hl" = - ] || for a in ${hl//,/ }; do opt+=(-H "$a"); done
	fi
	[ "$hl" = - ] || chk+=(-v hier="$hl")
	[ "$nl" = - ] || opt+=(--numeric "$nl")
	[ "$rel" = 0 ] || { opt+=(--relaxed); chk+=(-v relaxed=1); }
	if [ "$dv" != - ] || [ "$vr" != - ]; then
		opt+=(-s s)
		chk+=(-v scol=s)
	fi
	if [ "$dv" != - ]; then
		opt+=(-l "$l")
		chk+=(-v l="$l")
		[ "$dv" = default ] || { opt+=(--diversity "$dv"); chk+=(-v div="$dv"); }
		[ "$c" = - ] || { opt+=(-c "$c"); chk+=(-v c="$c"); }
	fi
	[ "$vr" = - ] || { opt+=(--variance "$vr"); chk+=(-v var="$vr"); }
	case $sp in
	infogain) opt+=(-t y --split infogain) ;;
	regression) opt+=(-t z --split regression) ;;
	esac
}
