# release-check.awk: checks a release against the table it came from,
# from the rows alone, written apart from score(1) (which it does not
# call): the privacy requirements on the classes an adversary sees, the
# suppression, and that nothing but the quasi-identifiers changed.
#
#   awk -f release-check.awk -v qi=Q1,Q2 -v k=K -v id=COL
#       [-v scol=S [-v l=L [-v div=distinct|entropy|recursive [-v c=C]]]
#       [-v var=V] [-v t=T [-v dist=equal|ordered|hierarchical
#       [-v shier=FILE,...]]]] [-v maxsupp=N] [-v drop=1] [-v mark='*']
#       [-v hier=Q1=FILE,...] [-v gen=Q1,...] [-v masks=Q1,...]
#       [-v ranges=1] [-v means=1] [-v extra=COL] [-v missing=TOK,...]
#       [-v dates=Q1,...] [-v datehier=Q1,...]
#       ORIGINAL RELEASE
#
# ORIGINAL and RELEASE are tab-separated with a header line.  id names a
# column whose values are unique in ORIGINAL: it pairs the rows.  The
# checks:
#  - RELEASE has the columns of ORIGINAL in its order, plus Q_mean
#    columns after a QI (recode --summary both) and the column extra;
#  - its rows are ORIGINAL's in their order: all of them, or with
#    drop=1 those left after suppression;
#  - every column but the QIs (and their Q_mean) is unchanged;
#  - a row is suppressed when it is missing (drop=1), at most maxsupp
#    of them (default 0); or, without drop, when each of its QIs is mark
#    ('*'): they are one class to an outsider, which must meet the
#    requirements as any other (a node may generalize every QI to '*'
#    too);
#  - each QI of a row kept is true to the original value: the value
#    itself, '*', an ancestor in its hierarchy file (hier), an interval
#    [a,b) that holds it (gen: a generated interval: hierarchy), the
#    value with its last digits masked by '*' (masks: mask:), or with
#    ranges=1 a range [a-b] that holds it (with means=1 any number: a
#    class's mean); a Q_mean column is a number;
#  - missing values (kanon(7), MISSING VALUES: the empty field and the
#    tokens of missing): one that its hierarchy file does not list is
#    released as itself, or as the top level's label when the file's
#    top level has one; with ranges=1 or means=1 a class's summary may
#    end in '|' and the first token (a class of numbers and missing
#    values, true to both), or be that token alone (a class of missing
#    values only, true to them alone), in a QI without a hierarchy; a
#    Q_mean column likewise;
#  - a QI of dates holds ISO dates YYYY-MM-DD or date-times
#    YYYY-MM-DDThh:mm:ss, compared as strings (the order of time): with
#    ranges=1 an interval a/b holds the original date when a <= it <= b,
#    and with means=1 any date of its form is a class's mean; a QI of
#    datehier has a generated date hierarchy, whose labels are worked
#    out here from the original date: its hour 2023-05-01T13, day,
#    month 2023-05, quarter 2023-Q2, year 2023, band of N years aligned
#    on a multiple of N 2020/2024, or decade 2020s;
#  - the rows kept, grouped by all their QI and Q_mean values (the
#    classes an adversary sees), form classes of at least k rows, with
#    l-diverse values of scol (distinct, entropy or recursive (c,l)),
#    a population variance of scol of at least var, and a distribution
#    of scol within t of ORIGINAL's whole column (t-closeness, kanon(7):
#    the Earth Mover's Distance dist, equal by default; the ordered one
#    over the values in numeric order when all are numbers, else byte
#    order; the hierarchical one over the tree of the hierarchy file in
#    shier, leaf first, with a root above a top level of several
#    labels), decided in integers exact below 2^53; the values taken by
#    their identity (ident).  scol may be a
#    comma list: every requirement holds for each column, shier then
#    lists one file per column.
# Exit 0 when every check passes, else 1 with the first failures on the
# standard output.

function fail(msg) {
	if (++nfail <= 10)
		print "release-check: " msg
}

# Whether s is a decimal number.
function isnum(s) {
	return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)$/
}

# Whether s has the shape of an ISO date or date-time.
function isdate(s) {
	return s ~ /^[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]$/ ||
	    s ~ /^[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]$/
}

# Whether r is a label of the original date o in a generated date
# hierarchy: the hour, day, month, quarter, year, band of years or
# decade that holds it.
function datelabel(r, o,    y, m, lo, hi) {
	y = substr(o, 1, 4) + 0
	m = substr(o, 6, 2) + 0
	if (length(o) == 19 && (r == substr(o, 1, 13) || r == substr(o, 1, 10)))
		return 1
	if (r == substr(o, 1, 7) || r == substr(o, 1, 4) "-Q" int((m + 2) / 3) ||
	    r == substr(o, 1, 4))
		return 1
	if (r ~ /^[0-9][0-9][0-9]0s$/)
		return y - y % 10 == substr(r, 1, 4) + 0
	if (r ~ /^[0-9][0-9][0-9][0-9]\/[0-9][0-9][0-9][0-9]+$/) {
		lo = substr(r, 1, 4) + 0
		hi = substr(r, 6) + 0
		return lo <= y && y <= hi && hi > lo && lo % (hi - lo + 1) == 0
	}
	return 0
}

# Whether release value r of QI q is true to the original value o.
function truthful(q, r, o,    m, a, b) {
	if (r == o || r == "*")
		return 1
	if ((q SUBSEP o) in anc && (q SUBSEP o SUBSEP r) in anc)
		return 1
	if (ismiss(o))
		return truemiss(q, r, o)
	if ((ranges || means) && !(q in hq))
		r = unmiss(r)
	if (q in isdh && isdate(o) && datelabel(r, o))
		return 1
	if (q in isdq) {
		if (!isdate(o))
			return 0
		if (means && isdate(r) && length(r) == length(o))
			return 1	# a class's mean: not checked
		if (ranges && index(r, "/") > 0) {
			a = substr(r, 1, index(r, "/") - 1)
			b = substr(r, index(r, "/") + 1)
			return isdate(a) && isdate(b) && length(a) == length(o) &&
			    length(b) == length(o) && a <= o && o <= b
		}
		return 0
	}
	if ((q in isgen) && match(r, /^\[[-+]?[0-9.]+,[-+]?[0-9.]+\)$/)) {
		m = substr(r, 2, length(r) - 2)
		a = substr(m, 1, index(m, ",") - 1)
		b = substr(m, index(m, ",") + 1)
		return isnum(o) && a + 0 <= o + 0 && o + 0 < b + 0
	}
	if ((q in ismask) && masked(r, o))
		return 1
	if (means && isnum(r) && isnum(o))
		return 1	# a class's mean: not checked
	if (ranges && match(r, /^\[[-+]?[0-9.]+-[-+]?[0-9.]+\]$/)) {
		m = substr(r, 2, length(r) - 2)
		# The separator is the first '-' after the first character.
		a = substr(m, 1, index(substr(m, 2), "-"))
		b = substr(m, length(a) + 2)
		return isnum(o) && isnum(a) && isnum(b) && a + 0 <= o + 0 &&
		    o + 0 <= b + 0
	}
	if (ranges && isnum(r) && isnum(o))
		return r + 0 == o + 0
	return 0
}

# Whether s is a missing value.
function ismiss(s) {
	return s == "" || (s in mtok)
}

# The identity of sensitive value s (kanon(7), Terms, sensitive
# values): every missing value one, a token that is a number by its
# value too (-9.0 of -9); a number its value (050000, 50000.00 and
# +50000 are 50000), but under the hierarchical distance, whose file's
# leaves are the values as written; other text its bytes.
function ident(s) {
	if (ismiss(s) || (isnum(s) && sprintf("%.17g", s + 0) in mnum))
		return ""
	if (dist != "hierarchical" && isnum(s))
		return sprintf("%.17g", s + 0)
	return s
}

# The summary r without its '|' and missing token; r itself if it has
# none.
function unmiss(r) {
	if (length(r) > length(mfirst) &&
	    substr(r, length(r) - length(mfirst)) == "|" mfirst)
		return substr(r, 1, length(r) - length(mfirst) - 1)
	return r
}

# Whether release value r of QI q is true to a missing value o.
function truemiss(q, r, o) {
	if ((q SUBSEP o) in anc)
		return 0	# listed: its hierarchy file rules
	if (ntop[q] == 1 && (q SUBSEP r) in istop)
		return 1	# the one label of the top level
	return (ranges || means) && !(q in hq) &&
	    (r == mfirst || unmiss(r) != r)
}

# Whether r is o with some of its last characters masked by '*'.
function masked(r, o,    i) {
	if (length(r) != length(o))
		return 0
	for (i = 1; i <= length(r); i++)
		if (substr(r, i, 1) != substr(o, i, 1))
			break
	return substr(r, i) ~ /^\**$/
}

function loadhier(spec,    n, i, p, q, f, line, a, na, j) {
	n = split(spec, p, ",")
	for (i = 1; i <= n; i++) {
		q = substr(p[i], 1, index(p[i], "=") - 1)
		f = substr(p[i], index(p[i], "=") + 1)
		hq[q] = 1
		while ((getline line < f) > 0) {
			sub(/\r$/, "", line)
			na = split(line, a, line ~ /\t/ ? "\t" : ";")
			anc[q, a[1]] = 1
			for (j = 2; j <= na; j++)
				anc[q, a[1], a[j]] = 1
			if (!((q SUBSEP a[na]) in istop)) {
				istop[q, a[na]] = 1
				ntop[q]++
			}
		}
		close(f)
	}
}

BEGIN {
	FS = "\t"
	if (mark == "")
		mark = "*"
	if (k == "")
		k = 1
	maxsupp += 0
	nq = split(qi, Q, ",")
	for (i = 1; i <= nq; i++)
		isqi[Q[i]] = 1
	n = split(dates, D, ",")
	for (i = 1; i <= n; i++)
		isdq[D[i]] = 1
	n = split(datehier, D, ",")
	for (i = 1; i <= n; i++)
		isdh[D[i]] = 1
	if (hier != "")
		loadhier(hier)
	for (i = split(gen, lst, ","); i >= 1; i--)
		isgen[lst[i]] = 1
	for (i = split(masks, lst, ","); i >= 1; i--)
		ismask[lst[i]] = 1
	for (i = split(missing, lst, ","); i >= 1; i--) {
		mtok[lst[i]] = 1
		if (isnum(lst[i]))
			mnum[sprintf("%.17g", lst[i] + 0)] = 1
	}
	mfirst = missing == "" ? "" : lst[1]
	if (div == "")
		div = "distinct"
	if (c == "")
		c = 1
	nsc = split(scol, SC, ",")
	if (dist == "")
		dist = "equal"
	if (t != "")
		for (j = split(shier, lst, ","); j >= 1; j--)
			loadshier(j, lst[j])
}

# The tree of sensitive column j from a hierarchy file (TSV or ';').
function loadshier(j, file,    line, f, nf, i, top) {
	while ((getline line < file) > 0) {
		if (line == "")
			continue
		nf = split(line, f, line ~ /\t/ ? "\t" : ";")
		sleaf[j, ++nsleaf[j]] = f[1]
		for (i = 1; i <= nf; i++)
			sanc[j, f[1], i - 1] = f[i]
		if (!((j, nf - 1, f[nf]) in stop))
			ntop[j]++
		stop[j, nf - 1, f[nf]] = 1
		top = nf - 1
	}
	close(file)
	sH[j] = top + (ntop[j] > 1)
	for (i = 1; i <= nsleaf[j]; i++)
		if (sH[j] > top)
			sanc[j, sleaf[j, i], sH[j]] = "(root)"
}

FNR == 1 && NR == 1 {
	for (i = 1; i <= NF; i++) {
		ocol[$i] = i
		oname[i] = $i
	}
	onf = NF
	if (!(id in ocol)) {
		fail("no column " id " in the original")
		exit 1
	}
	next
}
NR == FNR {
	if ($ocol[id] in orow) {
		fail("id " $ocol[id] " twice in the original")
		exit 1
	}
	orow[$ocol[id]] = ++on
	oline[on] = $0
	for (j = 1; j <= nsc; j++) {
		v = ident($ocol[SC[j]])
		if (!((j, v) in TC))
			tval[j, ++tm[j]] = v
		TC[j, v]++
	}
	next
}
FNR == 1 {
	# The release's columns: the original's, in order, plus Q_mean and
	# extra.
	j = 1
	for (i = 1; i <= NF; i++) {
		rcol[$i] = i
		rname[i] = $i
		if ($i == extra)
			continue
		if ($i ~ /_mean$/ && (substr($i, 1, length($i) - 5) in isqi) &&
		    !($i in ocol)) {
			meancol[i] = 1
			continue
		}
		if (j > onf || oname[j] != $i)
			fail("release column " i " is '" $i "', expected '" \
			    (j > onf ? "(none)" : oname[j]) "'")
		j++
	}
	if (j != onf + 1)
		fail("the release lacks columns of the original")
	rnf = NF
	next
}
{
	rn++
	if (NF != rnf) {
		fail("release row " rn ": " NF " fields, header has " rnf)
		next
	}
	if (!($rcol[id] in orow)) {
		fail("release row " rn ": id " $rcol[id] " is not in the original")
		next
	}
	at = orow[$rcol[id]]
	if (at <= last) {
		fail("release row " rn ": id " $rcol[id] " out of order or twice")
		next
	}
	if (!drop && at != last + 1)
		fail("release row " rn ": original row " last + 1 " is missing")
	last = at
	split(oline[at], o, "\t")
	# Unchanged columns; suppression; truth of the QIs.
	sup = 1
	for (i = 1; i <= onf; i++) {
		v = $rcol[oname[i]]
		if (oname[i] in isqi) {
			if (v != mark)
				sup = 0
			continue
		}
		if (v != o[i])
			fail("release row " rn ", column " oname[i] ": '" v \
			    "', original '" o[i] "'")
	}
	if (sup && !drop)
		nstar++
	key = ""
	for (i = 1; i <= nq; i++) {
		v = $rcol[Q[i]]
		if (!truthful(Q[i], v, o[ocol[Q[i]]]))
			fail("release row " rn ", " Q[i] ": '" v "' is not true " \
			    "to '" o[ocol[Q[i]]] "'")
		key = key SUBSEP v
	}
	for (i in meancol) {
		if (!isnum(unmiss($i)) && $i != mfirst && !(sup && $i == mark) &&
		    !(substr(rname[i], 1, length(rname[i]) - 5) in isdq &&
		    isdate(unmiss($i))))
			fail("release row " rn ", column " i ": '" $i "' is not a mean")
		key = key SUBSEP $i
	}
	size[key]++
	for (j = 1; j <= nsc; j++) {
		s = ident(o[ocol[SC[j]]])
		if (cnt[j, key, s]++ == 0) {
			dvi[j, key, ++nd[j, key]] = s
		}
		vals[j, key] = vals[j, key] SUBSEP s
	}
}

END {
	if (nfail > 0 && rn == 0)
		exit 1
	if (!drop && last != on)
		fail("the release has " rn " rows, the original " on)
	if (drop && on - rn > maxsupp)
		fail(on - rn " rows suppressed, at most " maxsupp " allowed")
	if (t != "")
		tprepare()
	for (key in size) {
		kk = key
		gsub(SUBSEP, "|", kk)
		# The rows all of whose QIs are the mark, suppressed or
		# not, are one class to an outsider, like any other.
		if (size[key] < k)
			fail("class " kk ": " size[key] " rows, k = " k)
		for (j = 1; j <= nsc; j++) {
			ns = split(substr(vals[j, key], 2), sv, SUBSEP)
			if (l != "" && !ldiverse(j, key, ns))
				fail("class " kk ": not " div " " l "-diverse in " \
				    SC[j])
			if (var != "" && variance(ns) < var * (1 - 1e-12) - 1e-12)
				fail("class " kk ": variance " variance(ns) \
				    " < " var " in " SC[j])
			if (t != "" && !tclose(j, key, size[key]))
				fail("class " kk ": " SC[j] " not within " t \
				    " (" dist ")")
		}
	}
	exit nfail > 0
}

# Whether value y comes before x in the ordered distance's order:
# with num, numbers in numeric order (equal ones by their bytes),
# missing values last; else bytes.
function tbefore(y, x, num) {
	if (!num)
		return y < x
	if (ismiss(y) != ismiss(x))
		return ismiss(x)
	if (ismiss(x))
		return y < x
	return y + 0 < x + 0 || (y + 0 == x + 0 && y < x)
}

# Whether x may stay before y in msort's order: by tbefore (num 0 or
# 1, as it says), or as plain numbers (num 2: places).
function sle(x, y, num) {
	return num == 2 ? x <= y : !tbefore(y, x, num)
}

# Sorts x[1..m] by sle: a merge sort, bottom up (an insertion sort took
# minutes at 40,000 values).
function msort(x, m, num,    w, lo, mid, hi, a, b, o, tmp) {
	for (w = 1; w < m; w *= 2)
		for (lo = 1; lo + w <= m; lo += 2 * w) {
			mid = lo + w - 1
			hi = lo + 2 * w - 1 > m ? m : lo + 2 * w - 1
			a = lo
			b = mid + 1
			for (o = lo; o <= hi; o++)
				tmp[o] = b > hi || (a <= mid && \
				    sle(x[a], x[b], num)) ? x[a++] : x[b++]
			for (o = lo; o <= hi; o++)
				x[o] = tmp[o]
		}
}

# The sum of |X - n tP[i]| over places s to e of column j: X - n tP[i]
# up to the last place m where it is not negative, then its opposite.
function trun(j, s, e, X, n,    lo, hi, mid, m) {
	if (s > e)
		return 0
	lo = s
	hi = e
	m = s - 1
	while (lo <= hi) {
		mid = int((lo + hi) / 2)
		if (n * tP[j, mid] <= X) {
			m = mid
			lo = mid + 1
		} else
			hi = mid - 1
	}
	return (m - s + 1) * X - n * (tQ[j, m] - tQ[j, s - 1]) + \
	    n * (tQ[j, e] - tQ[j, m]) - (e - m) * X
}

# t as tnum / tden; the order of the ordered distance; the norms.
function tprepare(    j, i, num, ord) {
	tnum = t
	tden = 1
	if (index(t, ".") > 0) {
		for (i = length(t) - index(t, "."); i > 0; i--)
			tden *= 10
		sub(/\./, "", tnum)
	}
	tnum += 0
	for (j = 1; j <= nsc; j++) {
		if (dist == "ordered") {
			num = 1
			for (i = 1; i <= tm[j]; i++)
				if (!isnum(tval[j, i]) && !ismiss(tval[j, i]))
					num = 0
			for (i = 1; i <= tm[j]; i++)
				ord[i] = tval[j, i]
			msort(ord, tm[j], num)
			# Each value's place in the order; tP the prefix
			# sums of the whole column's counts in that order,
			# tQ those of tP.
			tP[j, 0] = tQ[j, 0] = 0
			for (i = 1; i <= tm[j]; i++) {
				tord[j, i] = ord[i]
				tpos[j, ord[i]] = i
				tP[j, i] = tP[j, i - 1] + TC[j, tord[j, i]]
				tQ[j, i] = tQ[j, i - 1] + tP[j, i]
			}
		}
		tnorm[j] = dist == "equal" ? 2 : dist == "ordered" ? \
		    (tm[j] > 1 ? tm[j] - 1 : 1) : sH[j]
	}
}

# The count of value v of column j in class key.
function cc(j, key, v) {
	return (j, key, v) in cnt ? cnt[j, key, v] : 0
}

# Whether class key (n rows) is within t in column j: the distance's
# sum S over norm n N, S <= t norm n N.
function tclose(j, key, n,    S, i, v, d, a, l, node, par, pos, neg, \
    ex, nodes, done, e, p, q, pl, C) {
	S = 0
	if (dist == "equal") {
		# A value of the original that the class lacks adds its
		# T n, and the T's sum to on: n on, each of the class's
		# own values then adding |c on - T n| in place of T n.
		S = n * on
		for (i = 1; i <= nd[j, key]; i++) {
			v = dvi[j, key, i]
			d = cnt[j, key, v] * on - TC[j, v] * n
			S += (d < 0 ? -d : d) - TC[j, v] * n
		}
	} else if (dist == "ordered") {
		# The running sum at place i is C on - n tP[i], C the
		# class's rows up to i: between two of the class's own
		# values C stays and the sum falls (trun).
		for (i = 1; i <= nd[j, key]; i++)
			pl[i] = tpos[j, dvi[j, key, i]]
		msort(pl, nd[j, key], 2)
		a = C = 0
		for (i = 1; i <= nd[j, key]; i++) {
			S += trun(j, a + 1, pl[i] - 1, C * on, n)
			a = pl[i]
			C += cnt[j, key, tord[j, a]]
			d = C * on - tP[j, a] * n
			S += d < 0 ? -d : d
		}
		S += trun(j, a + 1, tm[j], C * on, n)
	} else {
		for (i = 1; i <= nsleaf[j]; i++) {
			v = sleaf[j, i]
			ex[0, v] = cc(j, key, v) * on - \
			    ((j, v) in TC ? TC[j, v] : 0) * n
		}
		for (l = 1; l <= sH[j]; l++) {
			split("", pos)
			split("", neg)
			split("", nodes)
			for (i = 1; i <= nsleaf[j]; i++) {
				node = sanc[j, sleaf[j, i], l - 1]
				par = sanc[j, sleaf[j, i], l]
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
				S += l * (p < q ? p : q)
			}
		}
	}
	return S * tden <= tnum * tnorm[j] * n * on
}

# Whether class key (n rows, values of sensitive column j in sv) is
# l-diverse.
function ldiverse(j, key, n,    i, m, x, h, p, r, t, tail) {
	if (div == "distinct")
		return nd[j, key] >= l
	if (div == "recursive" && l <= 1)
		return 1	# (c,1)-diversity always holds
	m = 0
	split("", seen)
	for (i = 1; i <= n; i++)
		if (!(sv[i] in seen)) {
			seen[sv[i]] = 1
			r[++m] = cnt[j, key, sv[i]]
		}
	if (div == "entropy") {
		h = 0
		for (i = 1; i <= m; i++) {
			p = r[i] / n
			h -= p * log(p)
		}
		return h >= log(l) - 1e-9
	}
	# recursive (c,l): r1 < c (r_l + ... + r_m), counts descending.
	for (i = 2; i <= m; i++) {
		x = r[i]
		for (t = i - 1; t >= 1 && r[t] < x; t--)
			r[t + 1] = r[t]
		r[t + 1] = x
	}
	if (m < l)
		return 0
	tail = 0
	for (i = l; i <= m; i++)
		tail += r[i]
	return r[1] < c * tail
}

function variance(n,    i, s, q) {
	s = 0
	for (i = 1; i <= n; i++)
		s += sv[i]
	q = 0
	for (i = 1; i <= n; i++)
		q += (sv[i] - s / n) ^ 2
	return q / n
}
