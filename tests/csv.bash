# An independent CSV writer and reader for the tests (csv.bats,
# csv-adult.bats), in awk: not the programs' own code.

# csvwrite SEED SEP EOL: the escaped TSV table on stdin as CSV with
# separator SEP and line end EOL (LF or CRLF): a field is quoted when it
# holds SEP, a quote, CR or LF, and otherwise at random; quotes doubled.
csvwrite() {
	awk -v seed="$1" -v sep="$2" -v eol="$3" '
	function unesc(s,    out, i, c) {
		out = ""
		while ((i = index(s, "\\")) > 0) {
			c = substr(s, i + 1, 1)
			out = out substr(s, 1, i - 1) (c == "n" ? "\n" : \
			    c == "r" ? "\r" : c == "t" ? "\t" : c)
			s = substr(s, i + 2)
		}
		return out s
	}
	BEGIN {
		srand(seed * 31 + 7)
		FS = "\t"
		eol = eol == "CRLF" ? "\r\n" : "\n"
	}
	{
		for (i = 1; i <= NF; i++) {
			v = unesc($i)
			if (index(v, sep) || index(v, "\"") || index(v, "\r") ||
			    index(v, "\n") || rand() < 0.25) {
				gsub(/"/, "\"\"", v)
				v = "\"" v "\""
			}
			printf "%s%s", (i > 1 ? sep : ""), v
		}
		printf "%s", eol
	}'
}

# csvread SEP [FILE]: CSV (RFC 4180, separator SEP) to the escaped TSV
# form of csvgen: one line per record, each field with its backslashes,
# tabs, CRs and LFs escaped; a CR ending a line outside quotes is the
# line end's; blank lines outside a record are skipped.
csvread() {
	awk -v sep="$1" '
	function esc(s,    out, i) {
		out = ""
		while ((i = index(s, "\\")) > 0) {
			out = out substr(s, 1, i - 1) "\\\\"
			s = substr(s, i + 1)
		}
		s = out s
		gsub(/\t/, "\\t", s)
		gsub(/\r/, "\\r", s)
		gsub(/\n/, "\\n", s)
		return s
	}
	function field() {
		rec = rec (nf++ ? "\t" : "") esc(fld)
		fld = ""
		start = 1
	}
	BEGIN { ls = length(sep); start = 1 }
	{
		line = $0
		n = length(line)
		if (!inq && (n == 0 || line == "\r"))
			next
		if (inq)
			fld = fld "\n"
		i = 1
		while (i <= n) {
			if (inq) {
				j = index(substr(line, i), "\"")
				if (j == 0) {
					fld = fld substr(line, i)
					break
				}
				fld = fld substr(line, i, j - 1)
				i += j
				if (substr(line, i, 1) == "\"") {
					fld = fld "\""
					i++
				} else
					inq = 0
				continue
			}
			if (start && substr(line, i, 1) == "\"") {
				inq = 1
				start = 0
				i++
			} else if (substr(line, i, ls) == sep) {
				field()
				i += ls
			} else if (i == n && substr(line, i, 1) == "\r") {
				i++
			} else {
				fld = fld substr(line, i, 1)
				start = 0
				i++
			}
		}
		if (!inq) {
			field()
			print rec
			rec = ""
			nf = 0
		}
	}' "${2:--}"
}
