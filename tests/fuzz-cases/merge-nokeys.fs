count	x_sum	x_sumsq
3	1	1
4	2.5	6.25
0	0	0
