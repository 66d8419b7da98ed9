# xml-check.awk: a small checker that a file is well-formed XML (XML
# 1.0 §2-3, as far as a release report uses it), for tests/report.bats:
# the card allows no test dependency beyond bats and POSIX tools.  Run
# with LC_ALL=C.  Checks: an optional XML declaration and doctype, one
# root element, every tag closed in order, attribute values quoted and
# not repeated within a tag, '&' only in &amp; &lt; &gt; &quot; &apos;
# or a character reference, no '<' in text or values, no control byte
# but tab, CR and LF.  (UTF-8 validity is left to iconv.)  With -v
# root=NAME, the root element must be NAME; with -v need=NAME, at least
# one element must be NAME.  Prints "ok ELEMENTS elements" and each
# element name with its count, or the first fault with its line, and
# exits 1.
function fail(msg) {
	printf "xml-check: line %d: %s\n", line, msg
	bad = 1
	exit 1
}
# Checks the references of text or an attribute value s.
function refs(s,    i, r) {
	while ((i = index(s, "&")) > 0) {
		s = substr(s, i)
		if (!match(s, /^&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/))
			fail("'&' that starts no reference: " substr(s, 1, 12))
		s = substr(s, RLENGTH + 1)
	}
}
# Counts the line ends in s.
function lines(s) {
	return gsub(/\n/, "\n", s)
}
{ doc = doc $0 "\n" }
END {
	if (bad)
		exit 1
	line = 1
	if (doc ~ /[\001-\010\013\014\016-\037\177]/)
		fail("a control byte")
	s = doc
	if (substr(s, 1, 5) == "<?xml") {
		if ((i = index(s, "?>")) == 0)
			fail("an XML declaration without its end")
		s = substr(s, i + 2)
	}
	depth = 0
	nroot = 0
	while (s != "") {
		i = index(s, "<")
		if (i == 0) {
			text = s
			s = ""
		} else {
			text = substr(s, 1, i - 1)
			s = substr(s, i)
		}
		refs(text)
		if (depth == 0 && text !~ /^[ \t\r\n]*$/)
			fail("text outside the root element")
		line += lines(text)
		if (s == "")
			break
		if (substr(s, 1, 4) == "<!--") {
			if ((i = index(substr(s, 5), "-->")) == 0)
				fail("a comment without its end")
			c = substr(s, 5, i - 1)
			if (index(c, "--") > 0)
				fail("'--' in a comment")
			line += lines(c)
			s = substr(s, i + 7)
			continue
		}
		if (substr(s, 1, 9) == "<!DOCTYPE") {
			if (depth > 0 || nroot > 0)
				fail("a doctype after the root element began")
			if ((i = index(s, ">")) == 0)
				fail("a doctype without its end")
			s = substr(s, i + 1)
			continue
		}
		if (substr(s, 1, 2) == "<?" || substr(s, 1, 2) == "<!")
			fail("markup this checker does not take: " substr(s, 1, 12))
		# A tag: up to the first '>' outside quotes.
		q = ""
		for (j = 2; j <= length(s); j++) {
			ch = substr(s, j, 1)
			if (q != "") {
				if (ch == q)
					q = ""
				else if (ch == "<")
					fail("'<' in an attribute value")
			} else if (ch == "\"" || ch == "'")
				q = ch
			else if (ch == ">")
				break
			else if (ch == "<")
				fail("'<' inside a tag")
		}
		if (j > length(s))
			fail("a tag without its end")
		tag = substr(s, 2, j - 2)
		s = substr(s, j + 1)
		nl = lines(tag)
		if (substr(tag, 1, 1) == "/") {
			name = substr(tag, 2)
			sub(/[ \t\r\n]+$/, "", name)
			if (depth == 0)
				fail("</" name "> closes nothing")
			if (stack[depth] != name)
				fail("</" name "> closes <" stack[depth] ">")
			depth--
			line += nl
			continue
		}
		empty = sub(/\/$/, "", tag)
		if (!match(tag, /^[A-Za-z_:][-A-Za-z0-9_.:]*/))
			fail("a tag without a name: <" tag ">")
		name = substr(tag, 1, RLENGTH)
		rest = substr(tag, RLENGTH + 1)
		split("", seen)
		while (rest !~ /^[ \t\r\n]*$/) {
			if (!match(rest, /^[ \t\r\n]+[A-Za-z_:][-A-Za-z0-9_.:]*[ \t\r\n]*=[ \t\r\n]*("[^"]*"|'[^']*')/))
				fail("a bad attribute in <" name ">: " substr(rest, 1, 30))
			a = substr(rest, 1, RLENGTH)
			rest = substr(rest, RLENGTH + 1)
			an = a
			sub(/^[ \t\r\n]+/, "", an)
			sub(/[ \t\r\n]*=.*/, "", an)
			if (an in seen)
				fail("attribute " an " twice in <" name ">")
			seen[an] = 1
			v = a
			sub(/^[^=]*=[ \t\r\n]*/, "", v)
			refs(substr(v, 2, length(v) - 2))
		}
		if (depth == 0) {
			if (nroot++ > 0)
				fail("a second root element <" name ">")
			if (root != "" && name != root)
				fail("the root element is <" name ">, not <" root ">")
		}
		count[name]++
		nel++
		if (!empty)
			stack[++depth] = name
		line += nl
	}
	if (depth > 0)
		fail("<" stack[depth] "> is not closed")
	if (nroot == 0)
		fail("no root element")
	if (need != "" && !(need in count))
		fail("no element <" need ">")
	printf "ok %d elements\n", nel
	for (n in count)
		printf "%s %d\n", n, count[n]
}
