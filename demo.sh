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
set -eu
cd "$(dirname "$0")"
PATH=$(pwd):$PATH
export PATH LC_ALL=C
data=data/adult/adult.tsv
Q=sex,age,race,marital-status,education,native-country,workclass,occupation
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

echo "Adult: $(($(wc -l < "$data") - 1)) rows; quasi-identifiers $Q;"
echo "sensitive column salary-class.  Each release: freqset | lattice-search"
echo "--best (least C_DM), recode -n to that node, score --check."
echo
score -q "$Q" -s salary-class -k 2 "$data" > "$tmp/orig.score"
release 2 0 k2
release 10 2% k10

node() {
	awk -F'\t' -v q="$Q" 'NR == 1 { n = split(q, x, ","); next }
	    NR == 2 { s = $1; for (i = 2; i <= n; i++) s = s "," $i; print s }' "$1"
}
printf '%-22s %14s %16s %16s\n' metric original "k=2" "k=10, 2% supp"
printf '%-22s %14s %16s %16s\n' "node" "" "$(node "$tmp/k2.node")" \
    "$(node "$tmp/k10.node")"
awk -F'\t' '
	FILENAME ~ /orig/ { o[$1] = $2; order[++n] = $1 }
	FILENAME ~ /k2/ { a[$1] = $2 }
	FILENAME ~ /k10/ { b[$1] = $2 }
	END {
		for (i = 1; i <= n; i++) {
			m = order[i]
			if (m == "threshold" || m == "cavg" || m == "check_k")
				continue
			printf "%-22s %14s %16s %16s\n", m, o[m], a[m], b[m]
		}
	}' "$tmp/orig.score" "$tmp/k2.score" "$tmp/k10.score"
printf '%-22s %14s %16s %16s\n' "check_k" \
    "$(awk -F'\t' '$1 == "check_k" {print $2}' "$tmp/orig.score") (k=2)" \
    "$(awk -F'\t' '$1 == "check_k" {print $2}' "$tmp/k2.score") (k=2)" \
    "$(awk -F'\t' '$1 == "check_k" {print $2}' "$tmp/k10.score") (k=10)"
