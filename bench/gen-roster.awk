# gen-roster.awk -v n=N: a CSV roster of N characters with all nine
# primary stats, the same on every run (a fixed linear congruential
# sequence, so that both sides of a benchmark read the same file).
BEGIN {
	print "name,player,ENE,STR,INT,CUN,AGI,CON,CHA,LUC,LEVEL"
	x = 12345
	for (i = 1; i <= n; i++) {
		line = sprintf("Character %07d,Player %d", i, i % 997)
		for (k = 0; k < 9; k++) {
			x = (x * 1103515245 + 12345) % 2147483648
			v = k == 8 ? int(x / 65536) % 21 : int(x / 65536) % 101
			line = line "," v
		}
		print line
	}
}
