# closeness-brute.awk: an independent brute force of lattice-search
# with t-closeness (Li, Li, Venkatasubramanian, ICDE 2007).  It visits
# EVERY node of the generalization lattice, groups the rows into the
# node's classes by generalizing each row with the hierarchy files, and
# measures each class's distribution of the sensitive column against the
# whole table's with the three distances straight from their
# definitions (kanon(7), T-CLOSENESS): no roll-up, no pruning, no
# monotonicity, no sparse sums.
#
#   awk -f closeness-brute.awk -v qi=A,B,... -v scol=S \
#       -v configs='K:T:DIST:LIMIT ...' hierA hierB ... hierS table
#
# Hierarchy files are TSV (leaf, level 1, ..., top), one per
# quasi-identifier in the order of qi, then the sensitive column's (used
# by the hierarchical distance); the table (TSV with a header) comes
# last.  Each config is k, t (a decimal), a distance (equal, ordered,
# hierarchical) and a suppression limit in rows.  A class qualifies when
# it has at least k rows and its distance is at most t; a node when the
# rows of the classes that do not qualify are at most the limit.  The
# distances are decided exactly: the sums below are integers (a class
# of n rows, value counts c_i, the table's N rows and C_i), all well
# below 2^53 for tables the size of Adult.
#
# Output, per config, tab-separated:
#   C  config  anonymous-count  minimal-count  best-cdm
#   M  config  levels...        (each minimal node)
BEGIN {
	FS = OFS = "\t"
	nq = split(qi, qname, ",")
	ncf = split(configs, cf, " ")
	file = 0
}

FNR == 1 {
	file++
}

file <= nq + 1 {
	if ($0 == "")
		next
	nlev[file] = NF
	for (i = 1; i <= NF; i++)
		gen[file, i - 1, $1] = $i
	if (file == nq + 1) {
		leaf[++nleaf] = $1
		for (i = 1; i <= NF; i++)
			anc[$1, i - 1] = $i
	}
	next
}

FNR == 1 {
	for (i = 1; i <= NF; i++)
		col[$i] = i
	for (j = 1; j <= nq; j++)
		qcol[j] = col[qname[j]]
	scoln = col[scol]
	next
}

{
	key = ""
	for (j = 1; j <= nq; j++)
		key = key "\t" $(qcol[j])
	key = key "\t" $scoln
	if (!(key in grp)) {
		grp[key] = ++ng
		for (j = 1; j <= nq; j++)
			gv[ng, j] = $(qcol[j])
		gs[ng] = $scoln
	}
	gw[grp[key]]++
	N++
	if (!($scoln in C)) {
		sval[++m] = $scoln
		C[$scoln] = 0
	}
	C[$scoln]++
}

function isnum(s) {
	return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)$/
}

# The values in the order of the ordered distance: numeric when every
# value is a number, byte order otherwise (LC_ALL=C), by insertion.
function order_values(    i, j, x, num) {
	num = 1
	for (i = 1; i <= m; i++)
		if (!isnum(sval[i]))
			num = 0
	for (i = 1; i <= m; i++)
		ord[i] = sval[i]
	for (i = 2; i <= m; i++) {
		x = ord[i]
		for (j = i - 1; j >= 1 && (num ? (ord[j] + 0 > x + 0 || \
		    (ord[j] + 0 == x + 0 && ord[j] > x)) : ord[j] > x); j--)
			ord[j + 1] = ord[j]
		ord[j + 1] = x
	}
}

# The tree of the sensitive column: nodes named by level and label,
# with a root above the top level when it has several labels.
function build_tree(    i, l, top, lab, nt) {
	top = nlev[nq + 1] - 1
	split("", seen)
	nt = 0
	for (i = 1; i <= nleaf; i++)
		if (!((top, anc[leaf[i], top]) in seen)) {
			seen[top, anc[leaf[i], top]] = 1
			nt++
		}
	H = top + (nt > 1)
	for (i = 1; i <= nleaf; i++)
		if (H > top)
			anc[leaf[i], H] = "(root)"
}

# Sum of |c_i N - C_i n| (equal), of |cumulative| (ordered), or of
# height * min(pos, neg) over the tree's nodes (hierarchical), for the
# class whose counts are cc[value] (n rows).
function sum_equal(n,    i, v, s, d) {
	s = 0
	for (i = 1; i <= m; i++) {
		v = sval[i]
		d = (v in cc ? cc[v] : 0) * N - C[v] * n
		s += d < 0 ? -d : d
	}
	return s
}

function sum_ordered(n,    i, v, s, a) {
	s = 0
	a = 0
	for (i = 1; i <= m; i++) {
		v = ord[i]
		a += (v in cc ? cc[v] : 0) * N - C[v] * n
		s += a < 0 ? -a : a
	}
	return s
}

function sum_hier(n,    i, l, v, e, node, par, s, p, q) {
	split("", ex)
	for (i = 1; i <= nleaf; i++) {
		v = leaf[i]
		ex[0, v] = (v in cc ? cc[v] : 0) * N - (v in C ? C[v] : 0) * n
	}
	s = 0
	for (l = 1; l <= H; l++) {
		split("", pos)
		split("", neg)
		split("", nodes)
		for (i = 1; i <= nleaf; i++) {
			node = anc[leaf[i], l - 1]
			par = anc[leaf[i], l]
			nodes[par] = 1
			if ((l - 1, node) in done)
				continue
			done[l - 1, node] = 1
			e = ex[l - 1, node]
			if (e > 0)
				pos[par] += e
			else
				neg[par] -= e
			ex[l, par] += e
		}
		for (par in nodes) {
			p = pos[par] + 0
			q = neg[par] + 0
			s += l * (p < q ? p : q)
		}
	}
	split("", done)
	return s
}

END {
	order_values()
	build_tree()
	norm["equal"] = 2
	norm["ordered"] = m > 1 ? m - 1 : 1
	norm["hierarchical"] = H
	# The configs: t = tm / 10^ts.
	for (c = 1; c <= ncf; c++) {
		split(cf[c], p, ":")
		ck[c] = p[1] + 0
		tm = p[2]
		ts = 0
		if (index(tm, ".") > 0) {
			ts = length(tm) - index(tm, ".")
			sub(/\./, "", tm)
		}
		ctm[c] = tm + 0
		cts[c] = 1
		for (i = 0; i < ts; i++)
			cts[c] *= 10
		cd[c] = p[3]
		cl[c] = p[4] + 0
		if (c == 1 || ck[c] < kmin)
			kmin = ck[c]
	}
	nnodes = 1
	for (j = 1; j <= nq; j++)
		nnodes *= nlev[j]
	# Each group's label at each level of each attribute as a number
	# from 1 (glab, indexed by (g * 10 + j) * 10 + l), and its
	# sensitive value's (gsi): a class is known by the number whose
	# digits in base nl[j] + 1 are its labels, numbered 1, 2... in the
	# node (ci), and a class's rows of a value by that number times
	# m + 1 plus the value's: whole numbers below 2^31 are the quickest
	# keys of awk's arrays (larger ones are made strings by CONVFMT).
	for (i = 1; i <= m; i++)
		sid[sval[i]] = i
	for (g = 1; g <= ng; g++) {
		gsi[g] = sid[gs[g]]
		for (j = 1; j <= nq; j++)
			for (l = 0; l < nlev[j]; l++) {
				lab = gen[j, l, gv[g, j]]
				if (!((j, lab) in labid))
					labid[j, lab] = ++nl[j]
				glab[(g * 10 + j) * 10 + l] = labid[j, lab]
			}
	}
	y = 1
	for (j = 1; j <= nq; j++)
		y *= nl[j] + 1
	if (y >= 2147483648) {
		print "closeness-brute.awk: too many labels" > "/dev/stderr"
		exit 2
	}
	for (x = 0; x < nnodes; x++) {
		y = x
		for (j = nq; j >= 1; j--) {
			lev[x, j] = y % nlev[j]
			y = int(y / nlev[j])
		}
		# pre[j * ng + g]: group g's class number over the first j
		# attributes, made again from the first attribute whose
		# level differs from the node before's.
		for (j = 1; x > 0 && j < nq && lev[x, j] == lev[x - 1, j]; j++)
			;
		for (; j <= nq; j++) {
			l = lev[x, j]
			for (g = 1; g <= ng; g++)
				pre[j * ng + g] = (j > 1 ? pre[(j - 1) * ng + g] * \
				    (nl[j] + 1) : 0) + glab[(g * 10 + j) * 10 + l]
		}
		split("", ci)
		split("", size)
		split("", scc)
		nc = 0
		for (g = 1; g <= ng; g++) {
			key = pre[nq * ng + g]
			if (!(key in ci)) {
				ci[key] = ++nc
				size[nc] = 0
			}
			key = ci[key]
			size[key] += gw[g]
			scc[key * (m + 1) + gsi[g]] += gw[g]
		}
		for (c = 1; c <= ncf; c++) {
			supp[c] = 0
			sq[c] = 0
		}
		for (key = 1; key <= nc; key++) {
			n = size[key]
			if (n < kmin) {
				# Below every k: suppressed whatever its
				# distance.
				for (c = 1; c <= ncf; c++)
					supp[c] += n
				continue
			}
			split("", cc)
			sig = ""
			for (i = 1; i <= m; i++)
				if ((key * (m + 1) + i) in scc) {
					cc[sval[i]] = scc[key * (m + 1) + i]
					sig = sig " " cc[sval[i]]
				} else
					sig = sig " 0"
			# The same counts give the same sums: kept by them.
			if (!(sig in memo))
				memo[sig] = sum_equal(n) " " sum_ordered(n) " " \
				    sum_hier(n)
			split(memo[sig], ms, " ")
			S["equal"] = ms[1]
			S["ordered"] = ms[2]
			S["hierarchical"] = ms[3]
			for (c = 1; c <= ncf; c++) {
				# S / (norm n N) <= tm / ts
				if (n < ck[c] || S[cd[c]] * cts[c] > \
				    ctm[c] * norm[cd[c]] * n * N)
					supp[c] += n
				else
					sq[c] += n * n
			}
		}
		for (c = 1; c <= ncf; c++) {
			ok[c, x] = supp[c] <= cl[c]
			cdm[c, x] = sq[c] + supp[c] * N
		}
	}
	for (c = 1; c <= ncf; c++) {
		na = nm = 0
		best = "none"
		for (x = 0; x < nnodes; x++)
			if (ok[c, x])
				qual[++na] = x
		for (a = 1; a <= na; a++) {
			x = qual[a]
			if (best == "none" || cdm[c, x] < best)
				best = cdm[c, x]
			minimal = 1
			for (b = 1; b <= na && minimal; b++) {
				y = qual[b]
				if (y == x)
					continue
				below = 1
				for (j = 1; j <= nq; j++)
					if (lev[y, j] > lev[x, j])
						below = 0
				if (below)
					minimal = 0
			}
			if (minimal) {
				nm++
				line = ""
				for (j = 1; j <= nq; j++)
					line = line (j > 1 ? "\t" : "") lev[x, j]
				print "M", cf[c], line
			}
		}
		print "C", cf[c], na, nm, best
	}
}
