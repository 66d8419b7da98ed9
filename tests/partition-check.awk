# partition-check.awk: an independent checker for partition (Mondrian,
# paper 003 and paper 004 §1.2).  It reads the input table, partition's
# output and (optionally) its regions file, and decides from the rows
# and the definitions alone (no partition tree, no median):
#
#   (a) the output is the input, row for row and byte for byte, with a
#       class column (a positive integer) appended;
#   (b) every class meets every requirement: k, l-diversity of -s
#       (distinct, entropy, recursive (c,l)) and variance diversity,
#       decided exactly (integer arithmetic; entropy ties by prime
#       factorizations);
#   (c) strict (default): the partitioning is minimal: no class has an
#       allowable cut left on any quasi-identifier, that is a threshold
#       between two distinct values of a numeric QI (left <= t) or the
#       split of the lowest common ancestor (LCA) of a hierarchical QI's
#       values into its children; and it is strict: rows with the same
#       QI point share a class and the classes' boxes (numeric ranges,
#       LCA nodes) are pairwise disjoint (when there are at most
#       maxpairs classes);
#       relaxed: no class has an allowable cut between two distinct
#       values in the QI order (numeric order; depth-first leaf order of
#       a hierarchy, children in order of first appearance in the file),
#       a cut the relaxed algorithm must have considered whatever the
#       order of tied rows;
#   (d) with -k only: strict classes over numeric QIs only hold at most
#       2d(k-1)+m rows, m the most copies of one QI point in the class
#       (paper 003 Theorem 4); relaxed classes hold k to 2k-1 rows
#       (Theorem 5);
#   (e) the regions file: header, one row per class ascending, count,
#       per numeric QI min and max (the class's extremes, written
#       plainly as partition(1) says: no plus sign, no leading zeros, no
#       trailing zeros after the point; with spell=data as spelled in
#       the column, with spell=any any spelling of the value) and the mean (rounded half away from zero to the
#       column's most decimals plus 4, trailing zeros stripped), per
#       hierarchical QI the LCA label ("*" for the implicit root).
#
#   awk -f partition-check.awk -v qi=A,B,C [-v hier=B=FILE,C=FILE] \
#       [-v k=K] [-v scol=S [-v l=L [-v div=distinct|entropy|recursive] \
#       [-v c=C]] [-v var=V]] [-v relaxed=1] [-v classcol=NAME] \
#       [-v regions=FILE [-v spell=plain|data|any]] [-v maxpairs=N] \
#       [-v nomin=1 (no minimality or size bounds: (c) and (d))] \
#       -v input=FILE -v output=FILE
#
#   awk -f partition-check.awk -v whole=1 ... -v input=FILE
#       exits 0 when the whole table meets the requirements, 1 if not.
#
# QIs not named in hier are numeric.  Hierarchy files: one line per
# leaf, leaf, level 1, ..., top, separated by tabs (or ARX's ';').
# Prints one line per violation and exits 1 if there is any, 2 on a
# usage or data error.
function die(msg) {
	print "partition-check: " msg > "/dev/stderr"
	fatal = 1
	exit 2
}

function bad(msg) {
	nbad++
	if (nbad <= 20)
		print "partition-check: " msg
}

# Splits the decimal s into DM (integer mantissa) and DS (decimals,
# trailing zeros stripped); returns 0 if s is not a decimal.
function dec(s,    neg, i, ip, fp) {
	if (s !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)$/)
		return 0
	neg = substr(s, 1, 1) == "-"
	sub(/^[-+]/, "", s)
	i = index(s, ".")
	if (i > 0) {
		ip = substr(s, 1, i - 1)
		fp = substr(s, i + 1)
	} else {
		ip = s
		fp = ""
	}
	sub(/0+$/, "", fp)
	DS = length(fp)
	DM = (ip fp) + 0
	if (neg)
		DM = -DM
	return 1
}

# 10^e as an exact double (e small).
function p10(e,    v) {
	v = 1
	while (e-- > 0)
		v *= 10
	return v
}

# The canonical spelling of a decimal: equal values, equal strings.
function canon(s) {
	dec(s)
	return (DM == 0 ? 0 : DM) "e" DS
}

# Sorts A[1..n] by key K[A[i]] (numbers), ties by A[i]: heap sort.
function sortby(A, n, K,    i, t, end) {
	for (i = int(n / 2); i >= 1; i--)
		sift(A, i, n, K)
	for (end = n; end > 1; end--) {
		t = A[1]; A[1] = A[end]; A[end] = t
		sift(A, 1, end - 1, K)
	}
}

function less(a, b, K) {
	return K[a] < K[b] || (K[a] == K[b] && a < b)
}

function sift(A, i, n, K,    c, t) {
	for (;;) {
		c = 2 * i
		if (c > n)
			return
		if (c < n && less(A[c], A[c + 1], K))
			c++
		if (!less(A[i], A[c], K))
			return
		t = A[i]; A[i] = A[c]; A[c] = t
		i = c
	}
}

# Adds the prime factorization of x (a positive integer) times e to FAC.
function factor(x, e,    p) {
	for (p = 2; p * p <= x; p++)
		while (x % p == 0) {
			FAC[p] += e
			x /= p
		}
	if (x > 1)
		FAC[x] += e
}

# Entropy l-diversity of the counts CN[1..m] of n rows: -sum p ln p >=
# ln l, i.e. n^n lb^n >= la^n prod c^c (l = la/lb).  Far from a tie the
# logarithms decide; near one, equality is decided on the prime
# factorizations (a near tie that is no tie is reported).
function entropy_ok(m, n,    i, h, p, tie) {
	h = n * log(n)
	for (i = 1; i <= m; i++)
		h -= CN[i] * log(CN[i])
	h -= n * log(la / lb)
	if (h > 1e-9 * n || h < -1e-9 * n)
		return h > 0
	split("", FAC)
	factor(n, n)
	if (lb > 1)
		factor(lb, n)
	if (la > 1)
		factor(la, -n)
	for (i = 1; i <= m; i++)
		if (CN[i] > 1)
			factor(CN[i], -CN[i])
	tie = 1
	for (p in FAC)
		if (FAC[p] != 0)
			tie = 0
	if (!tie)
		bad("entropy within 1e-9 of log l but not equal: undecided " \
		    "(avoid such test data)")
	return tie || h > 0
}

# Why the rows P[1..n] fail the requirements ("" if they meet them).
function why(P, n,    i, m, v, x, s, ss, t, tail) {
	if (n < k)
		return n " rows < k " k
	if (scol == "")
		return ""
	if (hasvar) {
		s = ss = 0
		for (i = 1; i <= n; i++) {
			x = SV[P[i]]
			s += x
			ss += x * x
		}
		# Var >= vm/10^vs with the values scaled by 10^F.
		if ((n * ss - s * s) * p10(vs) < vm * n * n * p10(2 * F))
			return sprintf("variance %.6g < %s", (n * ss - s * s) / \
			    (n * n) / p10(2 * F), var)
	}
	if (l == "")
		return ""
	split("", CNT)
	m = 0
	for (i = 1; i <= n; i++)
		if (CNT[S[P[i]]]++ == 0)
			m++
	if (div == "distinct")
		return m >= l + 0 ? "" : m " distinct values < l " l
	i = 0
	for (v in CNT)
		CN[++i] = CNT[v]
	# Descending.
	for (i = 2; i <= m; i++) {
		x = CN[i]
		for (t = i - 1; t >= 1 && CN[t] < x; t--)
			CN[t + 1] = CN[t]
		CN[t + 1] = x
	}
	if (div == "entropy")
		return entropy_ok(m, n) ? "" : "entropy < log " l
	if (l + 0 <= 1)
		return ""
	if (m < l + 0)
		return m " distinct values < l " l " (recursive)"
	tail = 0
	for (i = l + 0; i <= m; i++)
		tail += CN[i]
	return CN[1] * cscale < cm * tail ? "" : \
	    "not recursive (" c "," l ")-diverse: r1 " CN[1] ", tail " tail
}

# The level of the LCA of the values of QI j on rows P[1..n] (NL[j]: the
# implicit root).
function lca(j, P, n,    lv, i, a) {
	for (lv = 0; lv < NL[j]; lv++) {
		a = ANC[j, Q[P[1], j], lv] ""
		for (i = 2; i <= n; i++)
			if (ANC[j, Q[P[i], j], lv] "" != a)
				break
		if (i > n)
			return lv
	}
	return NL[j]
}

# Labels are compared as strings ("01" is not "1").
# Whether node a at level la of QI j and node b at level lb overlap
# (one is an ancestor of the other).
function overlap(j, a, la_, b, lb_,    t) {
	if (la_ < lb_) {
		t = a; a = b; b = t
		t = la_; la_ = lb_; lb_ = t
	}
	if (la_ >= NL[j])
		return 1
	while (lb_ < la_) {
		b = UP[j, lb_, b]
		lb_++
	}
	return a "" == b ""
}

# Checks the ordered cuts of QI j over the rows CR[1..n] of class cl,
# ordered by key K: every cut between two distinct keys must fail.
function ordered_cuts(cl, j, n, K,    i, t, L, R, nr) {
	for (i = 1; i <= n; i++)
		O[i] = CR[i]
	sortby(O, n, K)
	for (i = k; i <= n - k; i++) {
		if (i < 1 || K[O[i]] == K[O[i + 1]])
			continue
		if (scol == "") {
			# k alone: both sides have k rows.
			bad("class " cl " (" n " rows) is not minimal: cut " \
			    qn[j] " between " Q[O[i], j] " and " Q[O[i + 1], j] \
			    " (" i " + " n - i " rows) is allowable")
			return
		}
		split("", L)
		split("", R)
		for (t = 1; t <= i; t++)
			L[t] = O[t]
		nr = 0
		for (t = i + 1; t <= n; t++)
			R[++nr] = O[t]
		if (why(L, i) == "" && why(R, nr) == "") {
			bad("class " cl " (" n " rows) is not minimal: cut " \
			    qn[j] " between " Q[O[i], j] " and " Q[O[i + 1], j] \
			    " (" i " + " nr " rows) is allowable")
			return
		}
	}
}

BEGIN {
	FS = "\t"
	if (k == "")
		k = 1
	k += 0
	if (classcol == "")
		classcol = "class"
	if (div == "")
		div = "distinct"
	if (c == "")
		c = "1"
	if (maxpairs == "")
		maxpairs = 1000
	if (spell == "")
		spell = "plain"
	if (spell !~ /^(plain|data|any)$/)
		die("spell: '" spell "' is not plain, data or any")
	if (input == "")
		die("no -v input=FILE")
	if (!whole && output == "")
		die("no -v output=FILE")
	if (!dec(c))
		die("c: '" c "' is not a number")
	cm = DM
	cscale = p10(DS)
	la = l
	lb = 1
	if (l != "") {
		if (!dec(l))
			die("l: '" l "' is not a number")
		la = DM
		lb = p10(DS)
	}
	hasvar = var != ""
	if (hasvar) {
		if (!dec(var))
			die("var: '" var "' is not a number")
		vm = DM
		vs = DS
	}
	if ((l != "" || hasvar) && scol == "")
		die("l and var need scol")
	nq = split(qi, qn, ",")
	nh = split(hier, hs, ",")
	for (i = 1; i <= nh; i++) {
		e = index(hs[i], "=")
		hfile[substr(hs[i], 1, e - 1)] = substr(hs[i], e + 1)
	}

	# The hierarchies.
	for (j = 1; j <= nq; j++) {
		ISH[j] = qn[j] in hfile
		if (!ISH[j])
			continue
		f = hfile[qn[j]]
		nleaf = 0
		while ((st = (getline line < f)) > 0) {
			sub(/\r$/, "", line)
			if (line == "")
				continue
			n = split(line, a, index(line, "\t") ? "\t" : ";")
			NL[j] = n
			nleaf++
			LEAF[j, nleaf] = a[1]
			ISLEAF[j, a[1]] = 1
			for (lv = 0; lv < n; lv++) {
				ANC[j, a[1], lv] = a[lv + 1]
				if (lv + 1 < n)
					UP[j, lv, a[lv + 1]] = a[lv + 2]
				if (!((j, lv, a[lv + 1]) in FIRST))
					FIRST[j, lv, a[lv + 1]] = ++nfirst[j, lv]
			}
		}
		if (st < 0)
			die("cannot read " f)
		close(f)
		if (nleaf == 0)
			die(f ": empty hierarchy")
		# Depth-first leaf order: by the ancestors from the top down,
		# children in order of first appearance.
		split("", LK)
		split("", LI)
		for (i = 1; i <= nleaf; i++) {
			key = ""
			for (lv = NL[j] - 1; lv >= 0; lv--)
				key = key sprintf("%09d", FIRST[j, lv, ANC[j, LEAF[j, i], lv]])
			LK[i] = key
			LI[i] = i
		}
		# Insertion sort on the string keys.
		for (i = 2; i <= nleaf; i++) {
			x = LI[i]
			for (t = i - 1; t >= 1 && LK[LI[t]] > LK[x]; t--)
				LI[t + 1] = LI[t]
			LI[t + 1] = x
		}
		for (i = 1; i <= nleaf; i++)
			DFS[j, LEAF[j, LI[i]]] = i
	}

	# The input.
	if ((getline hdr < input) <= 0)
		die("cannot read " input " (or it is empty)")
	ncol = split(hdr, names, "\t")
	for (i = 1; i <= ncol; i++)
		col[names[i]] = i
	for (j = 1; j <= nq; j++) {
		if (!(qn[j] in col))
			die("no column " qn[j])
		qc[j] = col[qn[j]]
	}
	if (scol != "") {
		if (!(scol in col))
			die("no column " scol)
		sc = col[scol]
	}
	N = 0
	F = 0
	while ((getline line < input) > 0) {
		IN[++N] = line
		n = split(line, a, "\t")
		for (j = 1; j <= nq; j++) {
			v = a[qc[j]]
			Q[N, j] = v
			if (ISH[j]) {
				if (!((j, v) in ISLEAF))
					die(input ":" N + 1 ": '" v "' is not a leaf of " qn[j])
			} else if (!((j, v) in SPELL)) {
				if (!dec(v))
					die(input ":" N + 1 ": " qn[j] " '" v "' is not a number")
				SPELL[j, v] = (DM == 0 ? 0 : DM) "e" DS
				if (DS > QS[j])
					QS[j] = DS
			}
		}
		if (scol != "") {
			S[N] = a[sc]
			if (hasvar) {
				if (!dec(a[sc]))
					die(input ":" N + 1 ": " scol " '" a[sc] "' is not a number")
				SM[N] = DM
				SS[N] = DS
				if (DS > F)
					F = DS
			}
		}
	}
	close(input)
	if (hasvar)
		for (i = 1; i <= N; i++)
			SV[i] = SM[i] * p10(F - SS[i])

	if (whole) {
		for (i = 1; i <= N; i++)
			ALL[i] = i
		r = why(ALL, N)
		if (N > 0 && r != "") {
			print "partition-check: the whole table fails: " r
			exit 1
		}
		exit 0
	}

	# (a) The output: the input with the class appended.
	if ((getline line < output) <= 0) {
		bad("the output is empty")
		exit 1
	}
	if (line != hdr "\t" classcol)
		bad("output header '" line "', want the input's plus '" classcol "'")
	no = 0
	while ((getline line < output) > 0) {
		no++
		if (no > N) {
			if (no == N + 1)
				bad("output has more rows than the input (" N ")")
			continue
		}
		e = length(IN[no])
		if (substr(line, 1, e + 1) != IN[no] "\t") {
			bad("output row " no " is not input row " no " plus a class: '" line "'")
			continue
		}
		v = substr(line, e + 2)
		if (v !~ /^[1-9][0-9]*$/) {
			bad("output row " no ": class '" v "' is not a positive integer")
			continue
		}
		CL[no] = v + 0
	}
	close(output)
	if (no < N)
		bad("output has " no " rows, the input " N)
	if (nbad)
		exit 1

	# The classes.
	ncl = 0
	for (i = 1; i <= N; i++) {
		x = CL[i]
		if (!(x in SIZE)) {
			ID[++ncl] = x
			SIZE[x] = 0
		}
		MEM[x, ++SIZE[x]] = i
	}
	# Ascending class ids.
	for (i = 1; i <= ncl; i++)
		IDK[ID[i]] = ID[i]
	sortby(ID, ncl, IDK)
	konly = scol == ""
	allnum = 1
	for (j = 1; j <= nq; j++)
		if (ISH[j])
			allnum = 0

	for (ci = 1; ci <= ncl; ci++) {
		cl = ID[ci]
		n = SIZE[cl]
		split("", CR)
		for (i = 1; i <= n; i++)
			CR[i] = MEM[cl, i]
		# (b) the requirements.
		r = why(CR, n)
		if (r != "")
			bad("class " cl " (" n " rows) fails: " r)
		# The box and the points.
		split("", PC)
		mpt = 0
		for (i = 1; i <= n; i++) {
			p = ""
			for (j = 1; j <= nq; j++)
				p = p "\034" (ISH[j] ? Q[CR[i], j] : SPELL[j, Q[CR[i], j]])
			if (++PC[p] > mpt)
				mpt = PC[p]
			if (!relaxed) {
				if ((p in PCL) && PCL[p] != cl)
					bad("point" p " is in classes " PCL[p] " and " cl \
					    " (not strict)")
				PCL[p] = cl
			}
		}
		for (j = 1; j <= nq; j++) {
			if (ISH[j]) {
				LV[cl, j] = lca(j, CR, n)
				LAB[cl, j] = LV[cl, j] >= NL[j] ? "*" : \
				    ANC[j, Q[CR[1], j], LV[cl, j]]
				continue
			}
			lo = hi = Q[CR[1], j] + 0
			sum = 0
			qsc = p10(QS[j])
			for (i = 1; i <= n; i++) {
				x = Q[CR[i], j] + 0
				if (x < lo)
					lo = x
				if (x > hi)
					hi = x
				# x 10^QS is within rounding of an integer.
				x *= qsc
				sum += x < 0 ? -int(-x + 0.5) : int(x + 0.5)
			}
			MIN[cl, j] = lo
			MAX[cl, j] = hi
			SUM[cl, j] = sum
		}
		# (d) the size bounds of k-anonymity alone (not with nomin=1:
		# Rothko-S need not be minimal when a sample fails it).
		if (konly && !hasvar && !nomin) {
			if (relaxed && n > 2 * k - 1)
				bad("class " cl ": " n " rows > 2k-1 = " 2 * k - 1 " (relaxed)")
			if (!relaxed && allnum && n > 2 * nq * (k - 1) + mpt)
				bad("class " cl ": " n " rows > 2d(k-1)+m = " \
				    2 * nq * (k - 1) + mpt " (strict, Theorem 4)")
		}
		# (c) minimality.
		if (n < 2 * k || nomin)
			continue
		for (j = 1; j <= nq; j++) {
			if (!ISH[j] || relaxed) {
				split("", KK)
				for (i = 1; i <= n; i++)
					KK[CR[i]] = ISH[j] ? DFS[j, Q[CR[i], j]] : Q[CR[i], j] + 0
				ordered_cuts(cl, j, n, KK)
				continue
			}
			lv = LV[cl, j]
			if (lv == 0)
				continue
			# The children of the LCA: ancestors one level down.
			split("", GN)
			split("", GR)
			ng = 0
			for (i = 1; i <= n; i++) {
				g = ANC[j, Q[CR[i], j], lv - 1]
				if (!(g in GN)) {
					GN[g] = ++ng
					GS[ng] = 0
					GL[ng] = g
				}
				GR[GN[g], ++GS[GN[g]]] = CR[i]
			}
			ok = 1
			for (g = 1; g <= ng && ok; g++) {
				split("", PP)
				for (i = 1; i <= GS[g]; i++)
					PP[i] = GR[g, i]
				if (why(PP, GS[g]) != "")
					ok = 0
			}
			if (ok) {
				t = ""
				for (g = 1; g <= ng; g++)
					t = t " " GL[g] ":" GS[g]
				bad("class " cl " (" n " rows) is not minimal: " qn[j] \
				    " " LAB[cl, j] " splits into children" t)
			}
		}
	}

	# (c) strict: the boxes of the classes are disjoint.
	if (!relaxed && ncl <= maxpairs)
		for (ci = 1; ci <= ncl; ci++)
			for (cj = ci + 1; cj <= ncl; cj++) {
				a1 = ID[ci]
				a2 = ID[cj]
				for (j = 1; j <= nq; j++) {
					if (ISH[j]) {
						if (!overlap(j, LAB[a1, j], LV[a1, j], \
						    LAB[a2, j], LV[a2, j]))
							break
					} else if (MAX[a1, j] < MIN[a2, j] || \
					    MAX[a2, j] < MIN[a1, j])
						break
				}
				if (j > nq)
					bad("classes " a1 " and " a2 " overlap (not strict)")
			}

	# (e) the regions.
	if (regions != "") {
		want = "class\tcount"
		for (j = 1; j <= nq; j++)
			want = want "\t" (ISH[j] ? qn[j] : \
			    qn[j] "_min\t" qn[j] "_max\t" qn[j] "_mean")
		if ((getline line < regions) <= 0)
			bad("regions: empty")
		else if (line != want)
			bad("regions: header '" line "', want '" want "'")
		nr = 0
		while ((getline line < regions) > 0) {
			nr++
			if (nr > ncl) {
				bad("regions: row " nr " for " ncl " classes")
				continue
			}
			cl = ID[nr]
			n = split(line, a, "\t")
			if (a[1] != cl "" || a[2] != SIZE[cl] "") {
				bad("regions row " nr ": '" a[1] "\t" a[2] "', want class " \
				    cl " count " SIZE[cl])
				continue
			}
			f = 3
			for (j = 1; j <= nq; j++) {
				if (ISH[j]) {
					if (a[f] "" != LAB[cl, j] "")
						bad("regions class " cl ": " qn[j] " '" a[f] \
						    "', want the LCA '" LAB[cl, j] "'")
					f++
					continue
				}
				if (!spelled(j, a[f]) || a[f] + 0 != MIN[cl, j])
					bad("regions class " cl ": " qn[j] "_min '" a[f] \
					    "', want " MIN[cl, j] " (" spell ")")
				if (!spelled(j, a[f + 1]) || a[f + 1] + 0 != MAX[cl, j])
					bad("regions class " cl ": " qn[j] "_max '" a[f + 1] \
					    "', want " MAX[cl, j] " (" spell ")")
				m = mean(SUM[cl, j], SIZE[cl], QS[j])
				if (a[f + 2] "" != m "")
					bad("regions class " cl ": " qn[j] "_mean '" a[f + 2] \
					    "', want '" m "'")
				f += 3
			}
			if (n != f - 1)
				bad("regions row " nr ": " n " fields, want " f - 1)
		}
		close(regions)
		if (nr < ncl)
			bad("regions: " nr " rows for " ncl " classes")
	}
	if (nbad > 20)
		print "partition-check: ... " nbad " violations in all"
	exit (nbad > 0 ? 1 : 0)
}

# Whether v is a right spelling of a min or max of numeric QI j: plain
# (spell=plain, the default: no plus sign, no leading zeros, no trailing
# zeros after the point, "0" for zero), as in the column (spell=data)
# or any decimal (spell=any).
function spelled(j, v) {
	if (spell == "any")
		return dec(v)
	if (spell == "data")
		return (j, v) in SPELL
	return dec(v) && v == plain(DM, DS)
}

# The plain spelling of m / 10^s (m an integer, s >= 0).
function plain(m, s,    neg, str) {
	neg = m < 0
	str = sprintf("%.0f", neg ? -m : m)
	while (s > 0 && str ~ /0$/) {
		str = substr(str, 1, length(str) - 1)
		s--
	}
	while (length(str) <= s)
		str = "0" str
	if (s > 0)
		str = substr(str, 1, length(str) - s) "." substr(str, length(str) - s + 1)
	return (neg && str != "0" ? "-" : "") str
}

# The mean sum/10^s / n rounded half away from zero to s+4 decimals,
# trailing zeros stripped (sum an integer: exact below 2^53).
function mean(sum, n, s,    neg, a, q, r, str, d) {
	neg = sum < 0
	a = (neg ? -sum : sum) * 10000
	q = int(a / n)
	r = a - q * n
	while (r < 0) {
		q--
		r += n
	}
	while (r >= n) {
		q++
		r -= n
	}
	if (2 * r >= n)
		q++
	str = sprintf("%.0f", q)
	d = s + 4
	while (length(str) <= d)
		str = "0" str
	str = substr(str, 1, length(str) - d) "." substr(str, length(str) - d + 1)
	sub(/0+$/, "", str)
	sub(/\.$/, "", str)
	if (neg && str != "0")
		str = "-" str
	return str
}

END {
	if (fatal)
		exit 2
}
