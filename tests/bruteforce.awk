# bruteforce.awk: an independent checker for lattice-search.  It visits
# EVERY node of the generalization lattice, groups the rows of the table
# into the node's equivalence classes by generalizing each row with the
# hierarchy files, and decides qualification, the metrics and minimality
# from those classes alone (no roll-up, no pruning, no monotonicity).
#
#   awk -f bruteforce.awk -v qi=A,B,... -v k=K -v limit=N \
#       [-v scol=S -v l=L -v div=distinct|entropy|recursive -v c=C] \
#       [-v cnt=count] hierA hierB ... table
#
# The hierarchy files come first, one per quasi-identifier in the order
# of qi; the table (TSV with a header) comes last.  With cnt, that column
# weights each row (a frequency set).  limit is the suppression limit in
# rows (already resolved from a percentage by the caller).
#
# Output, one line per node, tab-separated:
#   A  levels...  suppressed  classes  cdm  height  cavg   (qualifying)
#   M  levels...  suppressed  classes  cdm  height  cavg   (also minimal)
#   N  levels...  suppressed  classes  cdm  height  cavg   (not qualifying)
# and at the end "B<TAB>mincdm" ("B<TAB>none" when no node qualifies).
BEGIN {
	FS = OFS = "\t"
	nq = split(qi, qname, ",")
	if (c == "")
		c = "1"
	if (div == "")
		div = "distinct"
	# -c as an exact decimal: cm / 10^cs.
	cs = 0
	cm = c
	if (index(c, ".") > 0) {
		cs = length(c) - index(c, ".")
		cm = c
		sub(/\./, "", cm)
	}
	cm += 0
	cscale = 1
	for (i = 0; i < cs; i++)
		cscale *= 10
	# -l as a fraction la / lb (for the exact entropy tie test).
	lb = 1
	la = l
	if (index(l, ".") > 0) {
		for (i = length(l) - index(l, "."); i > 0; i--)
			lb *= 10
		la = l
		sub(/\./, "", la)
	}
	la += 0
	file = 0
	nrows = 0
}

FNR == 1 {
	file++
}

# A hierarchy file: leaf, level 1, ..., top.
file <= nq {
	if ($0 == "")
		next
	nlev[file] = NF
	for (i = 1; i <= NF; i++)
		gen[file, i - 1, $1] = $i
	next
}

# The table header: find the columns by name.
FNR == 1 {
	for (i = 1; i <= NF; i++)
		col[$i] = i
	for (j = 1; j <= nq; j++) {
		if (!(qname[j] in col)) {
			print "bruteforce: no column " qname[j] > "/dev/stderr"
			err = 1
			exit 2
		}
		qcol[j] = col[qname[j]]
	}
	if (scol != "")
		scoln = col[scol]
	if (cnt != "")
		cntn = col[cnt]
	next
}

{
	nrows++
	for (j = 1; j <= nq; j++) {
		v = $(qcol[j])
		if (!((j, 0, v) in gen)) {
			print "bruteforce: '" v "' is not a leaf of " qname[j] \
			    > "/dev/stderr"
			err = 1
			exit 2
		}
		val[nrows, j] = v
	}
	if (scol != "")
		sv[nrows] = $scoln
	w[nrows] = cnt != "" ? $cntn + 0 : 1
	N += w[nrows]
}

# Adds the prime factorization of x (a positive integer) times e to fac.
function factor(x, e,    p) {
	for (p = 2; p * p <= x; p++)
		while (x % p == 0) {
			fac[p] += e
			x /= p
		}
	if (x > 1)
		fac[x] += e
}

# Entropy l-diversity of counts cnts[1..m] (n rows): -sum p ln p >= ln l,
# i.e. n^n >= l^n * prod c^c.  Ties are decided exactly by comparing the
# prime factorizations of both sides; otherwise the sign of the difference
# of the logarithms decides.
function entropy_ok(m, n,    i, h, d, p, tie) {
	if (m == 0)
		return 0
	h = n * log(n)
	for (i = 1; i <= m; i++)
		h -= cnts[i] * log(cnts[i])
	d = h - n * log(l)
	if (d > 1e-9 * n || d < -1e-9 * n)
		return d > 0
	split("", fac)
	factor(n, n)		# n^n * lb^n  vs  la^n * prod c^c
	if (lb > 1)
		factor(lb, n)
	if (la > 1)
		factor(la, -n)
	for (i = 1; i <= m; i++)
		if (cnts[i] > 1)
			factor(cnts[i], -cnts[i])
	tie = 1
	for (p in fac)
		if (fac[p] != 0)
			tie = 0
	return tie ? 1 : d > 0
}

# Recursive (c,l)-diversity: r1 < c (r_l + ... + r_m), cnts sorted
# descending.
function recursive_ok(m,    i, tail) {
	if (l + 0 <= 1)
		return 1
	if (m < l + 0)
		return 0
	tail = 0
	for (i = l + 0; i <= m; i++)
		tail += cnts[i]
	return cnts[1] * cscale < cm * tail
}

# Sorts cnts[1..m] descending (insertion sort: m is small).
function sortdesc(m,    i, j, x) {
	for (i = 2; i <= m; i++) {
		x = cnts[i]
		for (j = i - 1; j >= 1 && cnts[j] < x; j--)
			cnts[j + 1] = cnts[j]
		cnts[j + 1] = x
	}
}

# Whether class key (size n) is l-diverse.
function diverse(key, n,    m, i, list) {
	if (scol == "")
		return 1
	m = split(svals[key], list, "\035")
	for (i = 1; i <= m; i++)
		cnts[i] = scnt[key, list[i]]
	sortdesc(m)
	if (div == "distinct")
		return m >= l + 0
	if (div == "entropy")
		return entropy_ok(m, n)
	return recursive_ok(m)
}

END {
	if (err || file <= nq)
		exit 2
	# Every node: a mixed-radix counter over the levels.
	nnodes = 1
	for (j = 1; j <= nq; j++)
		nnodes *= nlev[j]
	for (x = 0; x < nnodes; x++) {
		y = x
		h = 0
		for (j = nq; j >= 1; j--) {
			lev[x, j] = y % nlev[j]
			y = int(y / nlev[j])
			h += lev[x, j]
		}
		split("", size)
		split("", scnt)
		split("", svals)
		for (r = 1; r <= nrows; r++) {
			key = ""
			for (j = 1; j <= nq; j++)
				key = key "\036" gen[j, lev[x, j], val[r, j]]
			size[key] += w[r]
			if (scol != "") {
				if (!((key, sv[r]) in scnt))
					svals[key] = (svals[key] == "" ? "" : \
					    svals[key] "\035") sv[r]
				scnt[key, sv[r]] += w[r]
			}
		}
		supp = 0
		ncl = 0
		sq = 0
		for (key in size) {
			if (size[key] < k + 0 || !diverse(key, size[key]))
				supp += size[key]
			else {
				ncl++
				sq += size[key] * size[key]
			}
		}
		ok[x] = supp <= limit + 0
		line = ""
		for (j = 1; j <= nq; j++)
			line = line lev[x, j] "\t"
		out[x] = line supp "\t" ncl "\t" (sq + supp * N) "\t" h "\t" \
		    sprintf("%.10g", ncl ? (N - supp) / ncl / k : 0)
		cdm[x] = sq + supp * N
	}
	best = "none"
	for (x = 0; x < nnodes; x++) {
		if (!ok[x]) {
			print "N", out[x]
			continue
		}
		print "A", out[x]
		if (best == "none" || cdm[x] < best)
			best = cdm[x]
		# Minimal: no qualifying node anywhere strictly below.
		minimal = 1
		for (y = 0; y < nnodes && minimal; y++) {
			if (y == x || !ok[y])
				continue
			below = 1
			for (j = 1; j <= nq; j++)
				if (lev[y, j] > lev[x, j])
					below = 0
			if (below)
				minimal = 0
		}
		if (minimal)
			print "M", out[x]
	}
	print "B", best
}
