# The random cases of the full-domain tests (lattice-search.bats) and
# the property tests (property.bats and the others that load seeds.bash).

# fd_gencase SEED DIR MODE: writes a random case into DIR: the table DIR/t
# (columns: the quasi-identifiers q1..qD, s and x in a random order) and
# one hierarchy file DIR/h.qJ per quasi-identifier; prints one line,
# tab-separated: the -q list (a random order), k, the --max-suppress
# argument ("-" for none), the limit in rows, the diversity ("-" for
# none, "default" for -l without --diversity), l and c ("-" for none).
# MODE: any; kanon (no l-diversity); nonmono (entropy or recursive
# diversity with a suppression limit above 0).
fd_gencase() {
	awk -v seed="$1" -v dir="$2" -v mode="$3" '
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
		pools[1] = "a b c d e f g h"
		pools[2] = "0 00 1 01 10 2 -1 3.0"
		pools[3] = "x_y * a A \303\251 [1,2) - a-b"
		gpool = "* g1 g2 g3 g4 a b 0 1 00 x_y"
		d = 2 + int(rand() * (mode == "nonmono" ? 2 : 3))
		for (j = 1; j <= d; j++) {
			# Leaves: m distinct labels of a pool.
			m = mode == "nonmono" ? 4 + int(rand() * 5) : 2 + int(rand() * 7)
			np = split(pools[1 + int(rand() * 3)], leaf, " ")
			shuffle(leaf, np)
			nleaf[j] = m
			for (i = 1; i <= m; i++) {
				L[j, i] = leaf[i]
				cur[i] = leaf[i]
				chain[i] = leaf[i]
			}
			ncur = m
			nl = mode == "nonmono" ? 3 + int(rand() * 2) : \
			    rand() < 0.1 ? 1 : 2 + int(rand() * 3)
			# Each level maps the labels of the one below onto
			# fewer labels (sometimes as many), the top maybe "*".
			for (lv = 1; lv < nl; lv++) {
				ng = split(gpool, g, " ")
				shuffle(g, ng)
				if (lv == nl - 1 && rand() < 0.85)
					nc = 1
				else if (rand() < 0.15)
					nc = ncur
				else
					nc = 1 + int(rand() * (ncur > 1 ? ncur - 1 : 1))
				if (nc > ng)
					nc = ng
				if (nc == 1 && lv == nl - 1)
					g[1] = "*"
				shuffle(cur, ncur)
				split("", par)
				for (i = 1; i <= ncur; i++)
					par[cur[i]] = i <= nc ? g[i] : g[1 + int(rand() * nc)]
				for (i = 1; i <= m; i++) {
					up[i] = par[up0(i, lv)]
					chain[i] = chain[i] "\t" up[i]
				}
				ncur = 0
				split("", seen)
				for (i = 1; i <= m; i++)
					if (!(up[i] in seen)) {
						seen[up[i]] = 1
						cur[++ncur] = up[i]
					}
				for (i = 1; i <= m; i++)
					top[i] = up[i]
			}
			for (i = 1; i <= m; i++)
				ord[i] = chain[i]
			shuffle(ord, m)
			for (i = 1; i <= m; i++)
				print ord[i] > (dir "/h.q" j)
			close(dir "/h.q" j)
			skew[j] = 1 + int(rand() * 3)
		}
		# The table: skewed values, duplicated rows; or (always for
		# nonmono) blocks of rows sharing a tuple, most of them with
		# every sensitive value equally often, some with one value
		# only: merging the two kinds breaks entropy and recursive
		# diversity, so suppression is not monotone.
		ns = mode == "nonmono" ? 2 + int(rand() * 2) : \
		    rand() < 0.1 ? 1 : 2 + int(rand() * 4)
		sskew = 1 + int(rand() * 2)
		blocks = mode == "nonmono" || (mode == "any" && rand() < 0.3)
		for (j = 1; j <= d; j++)
			cols[j] = "q" j
		cols[d + 1] = "s"
		cols[d + 2] = "x"
		shuffle(cols, d + 2)
		n = 5 + int(rand() * 56)
		hdr = cols[1]
		for (c = 2; c <= d + 2; c++)
			hdr = hdr "\t" cols[c]
		print hdr > (dir "/t")
		# Pure blocks: mostly s0 (the whole table is not diverse), or
		# (cycle) each value in turn, as many rows each, so that the
		# whole table is diverse again above the failing merges.
		pure = npure = 0
		cycle = rand() < 0.5
		cnb = 1 + int(rand() * 3)
		for (r = 1; r <= n || (cycle && npure % ns); ) {
			for (j = 1; j <= d; j++)
				v["q" j] = L[j, 1 + int(nleaf[j] * \
				    rand() ^ (blocks ? 1 : skew[j]))]
			if (!blocks) {
				v["s"] = "s" int(ns * rand() ^ sskew)
				nb = 1
				while (rand() < 0.25)
					nb++
				for (i = 0; i < nb; i++)
					row[r++] = line_()
			} else if (r <= n && rand() < 0.65) {
				gsz = 1 + int(rand() * 2)
				for (i = 0; i < ns * gsz; i++) {
					v["s"] = "s" (i % ns)
					row[r++] = line_()
				}
			} else {
				if (cycle) {
					v["s"] = "s" (npure % ns)
					nb = cnb
				} else {
					v["s"] = rand() < 0.8 ? "s0" : "s" int(ns * rand())
					nb = 1 + int(rand() * 4)
				}
				for (i = 0; i < nb; i++)
					row[r++] = line_()
				pure += nb
				npure++
			}
		}
		n = r - 1
		shuffle(row, n)
		for (r = 1; r <= n; r++)
			print row[r] > (dir "/t")
		close(dir "/t")
		for (j = 1; j <= d; j++)
			qo[j] = "q" j
		shuffle(qo, d)
		q = qo[1]
		for (j = 2; j <= d; j++)
			q = q "," qo[j]
		k = 1 + int(rand() * (mode == "nonmono" ? 3 : 6))
		# The suppression limit.
		x = rand()
		if (mode == "nonmono" && x < 0.4)
			x += 0.4
		if (mode == "nonmono" && rand() < 0.7) {
			limn = pure + int(rand() * 5) - 1
			if (limn < 1)
				limn = 1
			lim = limn
		} else if (x < 0.2) {
			lim = "-"; limn = 0
		} else if (x < 0.4) {
			lim = "0"; limn = 0
		} else if (x < 0.7) {
			limn = 1 + int(rand() * (n / 3))
			lim = limn
		} else {
			lim = pick("1% 5% 10% 12.5% 20% 33.3% 50% 2.75% 100%")
			p = substr(lim, 1, length(lim) - 1)
			sc = 1
			if (index(p, ".")) {
				sc = 10 ^ (length(p) - index(p, "."))
				sub(/\./, "", p)
			}
			limn = int(n * p / (100 * sc))
			if (mode == "nonmono" && limn == 0) {
				lim = "50%"; limn = int(n / 2)
			}
		}
		# l-diversity.
		dv = "-"; l = "-"; c = "-"
		x = rand()
		if (mode == "nonmono")
			dv = rand() < 0.5 ? "entropy" : "recursive"
		else if (mode == "any" && x < 0.5)
			dv = pick("default distinct entropy recursive recursive")
		if (dv == "default" || dv == "distinct")
			l = 1 + int(rand() * (ns < 4 ? ns : 4))
		else if (mode == "nonmono" && dv == "entropy")
			l = pick(ns == 2 ? "2" : "3 3 2.5")
		else if (mode == "nonmono") {
			l = ns == 3 && rand() < 0.5 ? 3 : 2
			c = pick(ns == 2 ? "1.5 1.25" : l == 2 ? "1 1.5" : "1.5 2")
		} else if (dv == "entropy")
			l = pick("1 1.5 2 2 2.5 3 4")
		else if (dv == "recursive") {
			l = 1 + int(rand() * 3)
			c = pick("- 1 2 3 0.5 1.5 2.25")
		}
		print q, k, lim, limn, dv, l, c
	}
	# The row of the values in v, in the order of the columns.
	function line_(    c, t) {
		v["x"] = "r" r
		t = v[cols[1]]
		for (c = 2; c <= d + 2; c++)
			t = t "\t" v[cols[c]]
		return t
	}
	function up0(i, lv) {
		return lv == 1 ? L[j, i] : top[i]
	}'
}

# fd_releases SEED DIR Q NODES STAR HOOK: recodes the table DIR/t to each
# node numbered in NODES (the rows of DIR/nodes, lattice-search --all's
# output of the -q list Q, 1 the first) by recode -n "${opt[@]}"
# "${ropt[@]}" (the caller's arrays), the suppressed rows starred when
# SEED plus the node's number is STAR modulo 2 and dropped otherwise, or
# when recode refuses to star them; checks each release DIR/rel with
# release-check.awk "${chk[@]}", then, unless HOOK is -, with HOOK NODE
# SUPPRESS, the caller's own check.  Fails at the first failure, saying
# what failed.
fd_releases() {
	local seed=$1 dir=$2 q=$3 nodes=$4 star=$5 hook=$6 i node a drop
	for i in $nodes; do
		node=$(awk -F '\t' -v i="$i" -v d="$(echo "$q" | tr , '\n' | wc -l)" '
		    NR == 1 { for (j = 1; j <= d; j++) h[j] = $j; next }
		    NR == i + 1 { for (j = 1; j <= d; j++)
			printf "%s%s=%s", (j > 1 ? "," : ""), h[j], $j; print "" }' \
		    "$dir/nodes")
		a=drop
		[ $(((seed + i) % 2)) -ne "$star" ] || a=star
		if ! recode -n "$node" "${opt[@]}" "${ropt[@]+"${ropt[@]}"}" \
		    --suppress "$a" "$dir/t" > "$dir/rel" 2> "$dir/err"; then
			# Suppressed rows starred like a class: refused.
			if [ "$a" = star ] &&
			    grep -q -e "labelled '\*' in every attribute" \
				-e "suppressed rows\{0,1\}, starred, would" \
				"$dir/err"; then
				a=drop
				recode -n "$node" "${opt[@]}" \
				    "${ropt[@]+"${ropt[@]}"}" --suppress drop \
				    "$dir/t" > "$dir/rel" 2> "$dir/err"
			else
				false
			fi || {
				echo "seed $seed: recode -n $node ${opt[*]} --suppress $a: $(cat "$dir/err")"
				return 1
			}
		fi
		drop=0
		[ "$a" = star ] || drop=1
		if ! awk -f "$BATS_TEST_DIRNAME/release-check.awk" "${chk[@]}" \
		    -v drop="$drop" "$dir/t" "$dir/rel" > "$dir/chk"; then
			echo "seed $seed: recode -n $node ${opt[*]} --suppress $a"
			cat "$dir/chk"
			return 1
		fi
		[ "$hook" = - ] || "$hook" "$node" "$a" || return 1
	done
}
