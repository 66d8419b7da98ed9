k	count
b	1
a	1
