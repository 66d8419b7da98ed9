#!/bin/sh
# make demo: anonymize the bundled Adult data end to end with the
# programs that exist so far, and print the scores side by side.
#
# The two releases are full-domain generalizations of Adult (ARX's
# hierarchies in data/adult) to the nodes that lattice-search will find
# optimal for C_DM: k=2 without suppression, and k=10 with at most 2%
# of the rows suppressed.  freqset computes the released table's
# frequency set at the node's levels; rows of classes below k are
# suppressed ('*' in every QI); score checks the result.
set -eu
cd "$(dirname "$0")"
PATH=$(pwd):$PATH
export PATH LC_ALL=C
data=data/adult/adult.tsv
Q=sex,age,race,marital-status,education,native-country,workclass,occupation
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kanon-demo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM HUP

# release K LEVELS NAME: generalize, suppress classes below K, score.
release() {
	freqset -q "$Q,salary-class" -H data/adult -L "$2" "$data" |
	    freqset --merge -q "$Q" > "$tmp/$3.classes"
	freqset -q "$Q,salary-class" -H data/adult -L "$2" "$data" |
	    awk -F'\t' -v OFS='\t' -v k="$1" -v cls="$tmp/$3.classes" '
		BEGIN { while ((getline l < cls) > 0) {
			n = split(l, f, "\t"); key = f[1]
			for (i = 2; i < n; i++) key = key "\t" f[i]
			size[key] = f[n] } }
		NR == 1 { print; next }
		{ key = $1; for (i = 2; i <= 8; i++) key = key "\t" $i
		  if (size[key] < k) for (i = 1; i <= 8; i++) $i = "*"
		  print }' |
	    score --freqset --check -q "$Q" -s salary-class -k "$1" \
	    > "$tmp/$3.score"
}

echo "Adult: $(($(wc -l < "$data") - 1)) rows; quasi-identifiers $Q;"
echo "sensitive column salary-class.  Releases are frequency sets of the"
echo "generalized table (freqset -L), checked by score --check."
echo
score -q "$Q" -s salary-class -k 2 "$data" > "$tmp/orig.score"
release 2 sex=1,age=1,race=1,marital-status=1,education=3,native-country=2,workclass=2,occupation=1 k2
release 10 sex=1,age=0,race=1,marital-status=2,education=3,native-country=2,workclass=2,occupation=1 k10

printf '%-22s %14s %14s %14s\n' metric original "k=2 node" "k=10, 2% supp"
printf '%-22s %14s %14s %14s\n' "" "" "1,1,1,1,3,2,2,1" "1,0,1,2,3,2,2,1"
awk -F'\t' '
	FILENAME ~ /orig/ { o[$1] = $2; order[++n] = $1 }
	FILENAME ~ /k2/ { a[$1] = $2 }
	FILENAME ~ /k10/ { b[$1] = $2 }
	END {
		for (i = 1; i <= n; i++) {
			m = order[i]
			if (m == "threshold" || m == "cavg" || m == "check_k")
				continue
			printf "%-22s %14s %14s %14s\n", m, o[m], a[m], b[m]
		}
	}' "$tmp/orig.score" "$tmp/k2.score" "$tmp/k10.score"
printf '%-22s %14s %14s %14s\n' "check_k" \
    "$(awk -F'\t' '$1 == "check_k" {print $2}' "$tmp/orig.score") (k=2)" \
    "$(awk -F'\t' '$1 == "check_k" {print $2}' "$tmp/k2.score") (k=2)" \
    "$(awk -F'\t' '$1 == "check_k" {print $2}' "$tmp/k10.score") (k=10)"
