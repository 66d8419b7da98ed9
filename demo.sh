#!/bin/sh
# make demo: anonymize the bundled Adult data end to end and print the
# scores of the releases side by side.
#
# The full-domain pipeline (paper 000): freqset counts the table,
# lattice-search finds the node with the least C_DM among the
# k-anonymous ones, recode generalizes the table to it and suppresses
# the rows of classes below k, and score --check verifies the release.
# Two releases: k=2 without suppression, and k=10 with at most 2% of
# the rows suppressed.
#
# The Mondrian pipeline (paper 003): partition cuts the table into
# classes of at least k rows (age cut at thresholds, the other columns
# by their hierarchies) and writes the regions; recode -r replaces each
# value by its class's range or hierarchy node; score --check verifies.
# Two releases, k=2 and k=10, nothing suppressed.
#
# Then score --report writes the release report of FD k=10, with its
# risk, NCP and precision (-H), as demo-report.html beside the release,
# demo-release.tsv, at the top of the tree or in the directory
# $KANON_DEMO_OUT.
set -eu
cd "$(dirname "$0")"
PATH=$(pwd):$PATH
export PATH LC_ALL=C
data=data/adult/adult.tsv
Q=sex,age,race,marital-status,education,native-country,workclass,occupation
out=${KANON_DEMO_OUT:-$(pwd)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kanon-demo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM HUP

# release K LIMIT NAME: the full-domain pipeline for k=K.
release() {
	freqset -q "$Q" "$data" |
	    lattice-search -H data/adult -k "$1" --max-suppress "$2" --best \
	    > "$tmp/$3.node"
	recode -n "$tmp/$3.node" -H data/adult -k "$1" --max-suppress "$2" \
	    "$data" > "$tmp/$3.tsv"
	score --check -q "$Q" -s salary-class -k "$1" "$tmp/$3.tsv" \
	    > "$tmp/$3.score"
}

# mondrian K NAME: the Mondrian pipeline for k=K.
mondrian() {
	partition -q "$Q" -H data/adult --numeric age -k "$1" \
	    -r "$tmp/$2.regions" "$data" |
	    recode -r "$tmp/$2.regions" -H data/adult > "$tmp/$2.tsv"
	score --check -q "$Q" -s salary-class -k "$1" "$tmp/$2.tsv" \
	    > "$tmp/$2.score"
}

echo "Adult: $(($(wc -l < "$data") - 1)) rows; quasi-identifiers $Q;"
echo "sensitive column salary-class.  Full-domain (FD) releases: freqset |"
echo "lattice-search --best (least C_DM), recode -n to that node.  Mondrian"
echo "releases: partition -r regions | recode -r regions.  Then score --check."
echo
score -q "$Q" -s salary-class -k 2 "$data" > "$tmp/orig.score"
release 2 0 k2
release 10 2% k10
mondrian 2 m2
mondrian 10 m10

node() {
	awk -F'\t' -v q="$Q" 'NR == 1 { n = split(q, x, ","); next }
	    NR == 2 { s = $1; for (i = 2; i <= n; i++) s = s "," $i; print s }' "$1"
}
row='%-19s %12s %16s %16s %12s %12s\n'
printf "$row" metric original "FD k=2" "FD k=10, 2%" "Mondrian 2" "Mondrian 10"
printf "$row" "node" "" "$(node "$tmp/k2.node")" "$(node "$tmp/k10.node")" \
    "" ""
awk -F'\t' -v row="$row" '
	FILENAME ~ /\/orig\.score$/ { o[$1] = $2; order[++n] = $1 }
	FILENAME ~ /\/k2\.score$/ { a[$1] = $2 }
	FILENAME ~ /\/k10\.score$/ { b[$1] = $2 }
	FILENAME ~ /\/m2\.score$/ { c[$1] = $2 }
	FILENAME ~ /\/m10\.score$/ { e[$1] = $2 }
	END {
		for (i = 1; i <= n; i++) {
			m = order[i]
			if (m == "threshold" || m == "cavg" || m == "check_k")
				continue
			printf row, m, o[m], a[m], b[m], c[m], e[m]
		}
	}' "$tmp/orig.score" "$tmp/k2.score" "$tmp/k10.score" "$tmp/m2.score" \
    "$tmp/m10.score"
# The release report of FD k=10 (score --report), beside a copy of the
# release it describes, at the top of the tree.
cp "$tmp/k10.tsv" "$out/demo-release.tsv"
score -q "$Q" -s salary-class -k 10 --risk --original "$data" -H data/adult \
    --command "freqset -q $Q $data | lattice-search -H data/adult -k 10 --max-suppress 2% --best > node.tsv" \
    --command "recode -n node.tsv -H data/adult -k 10 --max-suppress 2% $data > demo-release.tsv" \
    --report "$out/demo-report.html" "$out/demo-release.tsv" > /dev/null
check() {
	echo "$(awk -F'\t' '$1 == "check_k" {print $2}' "$tmp/$1.score") (k=$2)"
}
printf "$row" "check_k" "$(check orig 2)" "$(check k2 2)" "$(check k10 10)" \
    "$(check m2 2)" "$(check m10 10)"
echo
echo "The release report of FD k=10 (score --report): $out/demo-report.html"
echo "(the release it describes: $out/demo-release.tsv)"
