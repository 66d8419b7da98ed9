# The random cases of the date tests (dates.bats).

# gendates SEED DIR: writes a random table DIR/t with a date column d
# (ISO dates, or in some cases date-times), a small numeric column q,
# a sensitive column s and an id x, in a random order, and the
# hierarchy DIR/h.q of q.  The dates come from a skewed pool of the
# edges (0001-01-01, 9999-12-31, either side of 1970-01-01, leap days)
# and of random days of a random span of years.  Prints one line,
# tab-separated: the form (day or time), k, the levels of a date
# hierarchy for d (date:LEVELS), and a suppression limit in rows.
gendates() {
	awk -v seed="$1" -v dir="$2" '
	function mdays(y, m) {
		if (m == 2)
			return (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28
		return (m == 4 || m == 6 || m == 9 || m == 11) ? 30 : 31
	}
	function rdate(lo, hi,    y, m) {
		y = lo + int(rand() * (hi - lo + 1))
		m = 1 + int(rand() * 12)
		return sprintf("%04d-%02d-%02d", y, m, 1 + int(rand() * mdays(y, m)))
	}
	function rtime() {
		return sprintf("T%02d:%02d:%02d", int(rand() * 24), int(rand() * 60),
		    int(rand() * 60))
	}
	BEGIN {
		srand(seed)
		OFS = "\t"
		time = rand() < 0.3
		n = 5 + int(rand() * 76)
		k = 1 + int(rand() * 4)
		# The pool: edges, and days of a span of 1 to 300 years.
		np = split("0001-01-01 9999-12-31 1969-12-31 1970-01-01 " \
		    "2000-02-29 2024-02-29 1900-03-01", pool, " ")
		if (rand() < 0.5)
			np = 0
		lo = 1 + int(rand() * 9000)
		hi = lo + int(rand() * 300)
		m = 2 + int(rand() * 20)
		for (i = 1; i <= m; i++)
			pool[++np] = rdate(lo, hi)
		for (i = 1; i <= np; i++)
			if (time)
				pool[i] = pool[i] (rand() < 0.2 ? "T00:00:00" : rtime())
		if (time)
			levels = rand() < 0.5 ? "hour,day,month,year" : \
			    "day,quarter,decade"
		else {
			split("month,quarter,year,decade|year,5y,decade|" \
			    "quarter,2y,10y,100y|month,year,4y,20y|decade", L, "|")
			levels = L[1 + int(rand() * 5)]
		}
		# The columns in a random order.
		split("x d q s", col, " ")
		for (i = 4; i > 1; i--) {
			j = 1 + int(rand() * i)
			t = col[i]; col[i] = col[j]; col[j] = t
		}
		t = dir "/t"
		print col[1], col[2], col[3], col[4] > t
		for (r = 1; r <= n; r++) {
			u = rand()
			v["x"] = "r" r
			v["d"] = pool[1 + int(np * u * u)]
			v["q"] = int(rand() * rand() * 6)
			v["s"] = substr("abcd", 1 + int(rand() * 4), 1)
			print v[col[1]], v[col[2]], v[col[3]], v[col[4]] > t
		}
		close(t)
		for (i = 0; i < 6; i++)
			print i, (i < 3 ? "low" : "high"), "*" > (dir "/h.q")
		close(dir "/h.q")
		print time ? "time" : "day", k, levels, int(rand() * n / 4)
	}'
}
