a	b	count
		1
a	x	2
a		1
a		1
a		1
		4
