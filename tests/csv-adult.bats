#!/usr/bin/env bats
# Real microdata read directly as CSV (issue 16, "Done when"): adult-full's
# adult_full.csv (';', ARX's hierarchies beside it, '?' values that they
# list) and UCI's adult.data (no header, ', ' between fields, '?' values
# that no hierarchy lists: --missing '?', and a blank last line) through
# freqset | lattice-search --best | recode -n and partition -r | recode -r,
# each writing a CSV release that score --icsv --check passes, with every
# row accounted for and release-check.awk content with each row.
#
# The data sets are not part of the repository: the tests on them skip
# when ../shared/data is not there.  The same pipelines always run on
# small synthetic tables shaped like them (adultgen), so that CI runs
# them too.  adult-full's age hierarchy gives an age two parents, so age
# gets a generated hierarchy there (-H age=interval:5,10,20 before -H
# DIR) and partition cuts it as a number (--numeric age).

load common
load csv

COLS=age,workclass,fnlwgt,education,education-num,marital-status,occupation,relationship,race,sex,capital-gain,capital-loss,hours-per-week,native-country,salary-class
Q=sex,age,race,marital-status,education,native-country,workclass,occupation
DATA=${KANON_DATA:-$ROOT/../shared/data}

setup() {
	T=$BATS_TEST_TMPDIR
}

# adultgen DIR SHAPE N: N rows shaped like adult-full's adult_full.csv
# (SHAPE full: a header, ';', hierarchies adult_full_hierarchy_*.csv in
# DIR that list '?', an age hierarchy with quoted labels that gives an
# age two parents) or UCI's adult.data (SHAPE uci: no header, ', ', a
# blank last line, hierarchies adult_hierarchy_*.csv in DIR/h without
# '?').  The table is DIR/adult_full.csv or DIR/adult.data.
adultgen() {
	awk -v dir="$1" -v shape="$2" -v n="$3" -v cols="$COLS" '
	function hier(attr, text,    f, a, m, i) {
		f = shape == "full" ? dir "/adult_full_hierarchy_" attr ".csv" : \
		    dir "/h/adult_hierarchy_" attr ".csv"
		m = split(text, a, "|")
		for (i = 1; i <= m; i++)
			if (shape == "full" || a[i] !~ /^\?;/)
				print a[i] > f
		close(f)
	}
	function pick(list,    a, m) {
		m = split(list, a, "|")
		return a[1 + int(m * rand() ^ 2)]
	}
	BEGIN {
		srand(16)
		if (shape == "uci")
			system("mkdir -p " dir "/h")
		hier("sex", "Male;*|Female;*")
		hier("race", "White;*|Black;*|Asian-Pac-Islander;*|Other;*")
		hier("marital-status", "Married-civ-spouse;spouse present;*|" \
		    "Never-married;spouse not present;*|" \
		    "Divorced;spouse not present;*|Widowed;spouse not present;*")
		hier("education", "HS-grad;High School;Secondary education;*|" \
		    "Bachelors;Undergraduate;Higher education;*|" \
		    "Some-college;Undergraduate;Higher education;*|" \
		    "Masters;Graduate;Higher education;*|" \
		    "11th;High School;Secondary education;*")
		hier("native-country", "United-States;North America;*|" \
		    "Mexico;North America;*|Canada;North America;*|" \
		    "England;Europe;*|India;Asia;*|?;Other;*")
		hier("workclass", "Private;Non-Government;*|" \
		    "Self-emp-inc;Non-Government;*|Local-gov;Government;*|" \
		    "Federal-gov;Government;*|?;Unemployed;*")
		hier("occupation", "Sales;Nontechnical;*|" \
		    "Exec-managerial;Nontechnical;*|Tech-support;Technical;*|" \
		    "Craft-repair;Technical;*|Other-service;Other;*|?;Other;*")
		# Ages as ARX writes them: quoted labels holding the separator,
		# and (full) one age with two parents, as in adult-full.
		f = shape == "full" ? dir "/adult_full_hierarchy_age.csv" : \
		    dir "/h/adult_hierarchy_age.csv"
		for (a = 17; a <= 90; a++) {
			b5 = a - (a - 17) % 5
			b10 = a - (a - 17) % 10
			printf "%d;\"[%d;%d]\";\"[%d;%d]\";\"[17;99]\"\n", a, b5,
			    b5 + 4, b10, b10 + 9 > f
			if (shape == "full" && a == 72)
				printf "72;\"[71;75]\";\"[67;76]\";\"[17;99]\"\n" > f
		}
		close(f)
		OFS = shape == "full" ? ";" : ", "
		out = shape == "full" ? dir "/adult_full.csv" : dir "/adult.data"
		if (shape == "full") {
			gsub(/,/, ";", cols)
			print cols > out
		}
		for (r = 1; r <= n; r++) {
			print 17 + int(73 * rand() ^ 1.5), \
			    pick("Private|Self-emp-inc|Local-gov|?|Federal-gov"), \
			    10000 + int(rand() * 300000), \
			    pick("HS-grad|Bachelors|Some-college|Masters|11th"), \
			    1 + int(rand() * 16), \
			    pick("Married-civ-spouse|Never-married|Divorced|Widowed"), \
			    pick("Sales|Exec-managerial|?|Tech-support|Craft-repair|Other-service"), \
			    pick("Husband|Not-in-family|Own-child|Wife"), \
			    pick("White|Black|Asian-Pac-Islander|Other"), \
			    pick("Male|Female"), \
			    rand() < 0.9 ? 0 : int(rand() * 20000), \
			    rand() < 0.95 ? 0 : int(rand() * 2000), \
			    pick("40|50|20|45|60|35"), \
			    pick("United-States|Mexico|?|Canada|England|India"), \
			    pick("<=50K|>50K") > out
		}
		if (shape == "uci")
			print "" > out
		close(out)
	}'
}

# totsv SEP FILE [HEADER]: the CSV FILE as TSV with a first column row
# numbering the records (release-check.awk pairs the rows by it); HEADER
# (a comma list) for a file without one.
totsv() {
	{
		[ -z "${3:-}" ] || echo "$3" | tr , '\t'
		csvread "$1" "$2"
	} | awk 'BEGIN { FS = OFS = "\t" }
	    { print (NR == 1 ? "row" : NR - 1), $0 }'
}

# figure NAME FILE: the value of score's line NAME in FILE.
figure() {
	awk -F '\t' -v n="$1" '$1 == n { print $2 }' "$2"
}

# adultcheck TABLE SEP HDIR N MISS: both pipelines on TABLE (CSV with
# separator SEP, N rows; a header unless SEP is ', ', UCI's) with the
# hierarchies of directory HDIR and --missing MISS ("-" for none); the
# CSV releases checked by score --icsv --check (k = 10, N rows, the
# suppressed rows that lattice-search reported) and release-check.awk.
adultcheck() {
	local table=$1 sep=$2 hdir=$3 n=$4 a supp hs=
	local -a cols=() rcols=() miss=() chk hl=(-H age=interval:5,10,20 -H "$3")
	if [ "$sep" = ', ' ]; then
		cols=(--columns "$COLS")
		rcols=(--columns "$COLS,class")
	fi
	[ "$5" = - ] || miss=(--missing "$5")
	for a in ${Q//,/ }; do
		[ "$a" = age ] || hs+=${hs:+,}$a=$(echo "$hdir"/*_hierarchy_"$a".csv)
	done
	chk=(-v qi="$Q" -v k=10 -v id=row -v hier="$hs")
	[ "$5" = - ] || chk+=(-v missing="$5")
	totsv "$sep" "$table" "${cols[1]:-}" > "$T/orig.tsv"
	[ "$(($(wc -l < "$T/orig.tsv") - 1))" -eq "$n" ]

	# Full-domain, within 2% suppressed.
	freqset --icsv --ifs "$sep" "${cols[@]}" "${miss[@]}" -q "$Q" "$table" |
	    lattice-search "${hl[@]}" -k 10 --max-suppress 2% "${miss[@]}" \
	    --best -o "$T/node"
	supp=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++)
	    if ($i == "suppressed") c = i } NR == 2 { print $c }' "$T/node")
	recode -n "$T/node" --icsv --ifs "$sep" "${cols[@]}" --ocsv "${hl[@]}" \
	    -k 10 --max-suppress 2% "${miss[@]}" "$table" > "$T/rel.csv"
	score --icsv "${cols[@]}" "${miss[@]}" --check -k 10 -q "$Q" \
	    "$T/rel.csv" > "$T/score"
	[ "$(figure check_k "$T/score")" = pass ]
	[ "$(figure rows "$T/score")" -eq "$n" ]
	[ "$(figure suppressed "$T/score")" -eq "$supp" ]
	totsv , "$T/rel.csv" "${cols[1]:-}" > "$T/rel.tsv"
	awk -f "$BATS_TEST_DIRNAME/release-check.awk" "${chk[@]}" -v gen=age \
	    -v maxsupp=$((n * 2 / 100)) "$T/orig.tsv" "$T/rel.tsv"

	# Mondrian, ages cut as numbers.
	partition --icsv --ifs "$sep" "${cols[@]}" "${miss[@]}" -q "$Q" \
	    -H "$hdir" --numeric age -k 10 -r "$T/regions" "$table" |
	    recode -r "$T/regions" "${rcols[@]}" -H "$hdir" "${miss[@]}" \
	    --ocsv > "$T/mrel.csv"
	score --icsv "${cols[@]}" "${miss[@]}" --check -k 10 -q "$Q" \
	    "$T/mrel.csv" > "$T/score"
	[ "$(figure check_k "$T/score")" = pass ]
	[ "$(figure rows "$T/score")" -eq "$n" ]
	[ "$(figure suppressed "$T/score")" -eq 0 ]
	totsv , "$T/mrel.csv" "${cols[1]:-}" > "$T/mrel.tsv"
	awk -f "$BATS_TEST_DIRNAME/release-check.awk" "${chk[@]}" -v ranges=1 \
	    "$T/orig.tsv" "$T/mrel.tsv"
}

@test "a table shaped like adult-full's adult_full.csv (';', ARX's hierarchies listing '?', an age with two parents) through both pipelines as CSV" {
	adultgen "$T" full 3000
	adultcheck "$T/adult_full.csv" ';' "$T" 3000 -
	# adult-full's hierarchy of ages is not a tree, hence the interval:.
	run -2 freqset --icsv --ifs ';' -q age -H "$T" -L age=1 "$T/adult_full.csv"
	[[ $output == *"'72' at level 0 has two parents"* ]]
}

@test "a table shaped like UCI's adult.data (no header, ', ', '?' unlisted: --missing '?', a blank last line) through both pipelines as CSV" {
	adultgen "$T" uci 3000
	adultcheck "$T/adult.data" ', ' "$T/h" 3000 '?'
	# Without --missing, '?' is not a leaf of the hierarchies.
	run -2 freqset --ifs ', ' --columns "$COLS" -q workclass -H "$T/h" \
	    -L workclass=1 "$T/adult.data"
	[[ $output == *"adult.data:2: column 'workclass': '?': value is not a leaf of the hierarchy"* ]]
}

@test "adult-full's adult_full.csv as it is: both pipelines, 32,561 rows accounted for" {
	[ -f "$DATA/adult-full/adult_full.csv" ] ||
	    skip "no $DATA/adult-full (the benchmark data is not part of the repository)"
	adultcheck "$DATA/adult-full/adult_full.csv" ';' "$DATA/adult-full" 32561 -
}

@test "UCI's adult.data as it is, with --missing '?': both pipelines, 32,561 rows accounted for" {
	[ -f "$DATA/uci-adult/adult.data" ] ||
	    skip "no $DATA/uci-adult (the benchmark data is not part of the repository)"
	adultcheck "$DATA/uci-adult/adult.data" ', ' "$AH" 32561 '?'
}
