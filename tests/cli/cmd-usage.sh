# Options, usage errors, exit codes and lost output.
run crs-stats --version
run crs-stats
run crs-stats --bogus list
run crs-stats -x list
run crs-stats --db
run crs-stats frobnicate
run crs-stats list extra
run crs-stats rm
run crs-stats show a b
run crs-stats --replace list
run crs-stats --format json list
run crs-stats item
run crs-stats item polish Sword
run crs-stats --format yaml export
crs-stats --help >"$T/help" && echo "--help exits 0 with $(wc -l <"$T/help" | tr -d ' ') lines on stdout"
crs-stats add Fred STR=10 AGI=10
run_full crs-stats list
run_full crs-stats show Fred
run_full crs-stats export
run_full crs-stats calc STR=1 AGI=1
