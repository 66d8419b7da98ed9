# examples.awk: the examples of a man page's EXAMPLES section, for
# tests/examples.bats.  Every literal block (.Bd -literal ... .Ed) whose
# first line starts with "$ " is an example: "$ " begins a command,
# which goes on over the lines that follow a line ending in "\", "|",
# "&&" or "||" and over the lines that start with "> " (the shell's
# second prompt); the other lines, up to the next command, are what the
# command prints.  A comment just before the block may say more:
#
#   .\" example: not run: REASON      the block is not run (REASON says why)
#   .\" example: file NAME            the block (no "$ " in it) is the
#                                     content of the file NAME, its runs of
#                                     two or more blanks being tabs
#
# Prints one record a line, a letter and a tab before the text: B (a
# block begins, the text is its line number), X (not run, the reason),
# F (a file) and D (a line of it), C (a command's first line) and c (a
# line more of it), O (a line it prints).  mdoc's escapes are turned
# into the characters they print.

function unescape(s) {
	gsub(/\\&/, "", s)
	gsub(/\\\(dq/, "\"", s)
	gsub(/\\\(aq/, "'", s)
	gsub(/\\-/, "-", s)
	gsub(/\\e/, "\\", s)
	return s
}

/^\.Sh / { inex = $2 == "EXAMPLES"; next }
!inex { next }
/^\.\\" example: / {
	m = $0
	sub(/^\.\\" example: /, "", m)
	if (m ~ /^not run: /) {
		sub(/^not run: /, "", m)
		notrun = m
	} else if (m ~ /^file /) {
		sub(/^file /, "", m)
		file = m
	} else {
		printf "examples.awk: %s:%d: unknown mark '%s'\n", FILENAME, FNR,
		    m > "/dev/stderr"
		exit 2
	}
	next
}
/^\.Bd -literal/ { inblock = 1; first = 1; cont = 0; next }
/^\.Ed/ && inblock {
	inblock = 0
	if (file != "" && !started)
		printf "examples.awk: %s: the file %s is empty\n", FILENAME,
		    file > "/dev/stderr"
	notrun = file = ""
	started = 0
	next
}
!inblock { next }
{
	line = unescape($0)
	if (first) {
		first = 0
		if (file != "") {
			printf "B\t%d\nF\t%s\n", FNR, file
			started = 1
		} else if (line ~ /^\$ /) {
			printf "B\t%d\n", FNR
			if (notrun != "") {
				printf "X\t%s\n", notrun
				skip = 1
			} else
				skip = 0
			started = 1
		} else {
			started = 0
			skip = 1
		}
		if (!started)
			next
	}
	if (file != "") {
		gsub(/  +/, "\t", line)
		printf "D\t%s\n", line
		next
	}
	if (skip)
		next
	if (line ~ /^\$ /) {
		printf "C\t%s\n", substr(line, 3)
	} else if (cont || line ~ /^> /) {
		if (line ~ /^> /)
			line = substr(line, 3)
		printf "c\t%s\n", line
	} else {
		printf "O\t%s\n", line
		cont = 0
		next
	}
	cont = line ~ /(\\|\||&&|\|\|)[ \t]*$/
}
