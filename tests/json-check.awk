# json-check.awk: a small checker that a file is one JSON value (RFC
# 8259), for tests/report.bats: the card allows no test dependency
# beyond bats and POSIX tools.  Run with LC_ALL=C.  Prints every scalar
# as "PATH<TAB>VALUE", the path the keys and array indices joined by
# '.', a string's value with the escapes \" \\ \/ \b \f \n \r \t kept
# as written and a number as written; or the first fault with its
# offset, and exits 1.
function fail(msg) {
	printf "json-check: offset %d: %s\n", pos, msg
	bad = 1
	exit 1
}
function ws() {
	while (pos <= len && index(" \t\r\n", substr(doc, pos, 1)) > 0)
		pos++
}
function peek() {
	return substr(doc, pos, 1)
}
# Reads a string at pos; returns its text between the quotes.
function str(    start, ch) {
	if (peek() != "\"")
		fail("a string expected")
	start = ++pos
	for (;;) {
		if (pos > len)
			fail("a string without its end")
		ch = substr(doc, pos, 1)
		if (ch == "\"")
			break
		if (ch ~ /[\001-\037]/)
			fail("a control byte in a string")
		if (ch == "\\") {
			ch = substr(doc, pos + 1, 1)
			if (ch == "u") {
				if (substr(doc, pos + 2, 4) !~ /^[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]$/)
					fail("a bad \\u escape")
				pos += 6
				continue
			}
			if (index("\"\\/bfnrt", ch) == 0 || ch == "")
				fail("a bad escape \\" ch)
			pos += 2
			continue
		}
		pos++
	}
	pos++
	return substr(doc, start, pos - start - 1)
}
function value(path,    ch, n, k, t) {
	ws()
	ch = peek()
	if (ch == "{") {
		pos++
		ws()
		if (peek() == "}") {
			pos++
			return
		}
		for (;;) {
			ws()
			k = str()
			if ((path SUBSEP k) in keys)
				fail("key \"" k "\" twice in an object")
			keys[path SUBSEP k] = 1
			ws()
			if (peek() != ":")
				fail("':' expected")
			pos++
			value(path == "" ? k : path "." k)
			ws()
			ch = peek()
			pos++
			if (ch == "}")
				return
			if (ch != ",")
				fail("',' or '}' expected")
		}
	}
	if (ch == "[") {
		pos++
		ws()
		if (peek() == "]") {
			pos++
			return
		}
		for (n = 0; ; n++) {
			value(path "." n)
			ws()
			ch = peek()
			pos++
			if (ch == "]")
				return
			if (ch != ",")
				fail("',' or ']' expected")
		}
	}
	if (ch == "\"") {
		t = str()
		print path "\t" t
		return
	}
	t = substr(doc, pos)
	if (match(t, /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/) ||
	    match(t, /^(true|false|null)/)) {
		print path "\t" substr(t, 1, RLENGTH)
		pos += RLENGTH
		if (peek() ~ /[A-Za-z0-9.]/)
			fail("a bad literal")
		return
	}
	fail("a value expected")
}
{ doc = doc $0 "\n" }
END {
	if (bad)
		exit 1
	len = length(doc)
	pos = 1
	value("")
	ws()
	if (pos <= len)
		fail("text after the value")
}
