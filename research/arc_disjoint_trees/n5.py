from sat import *
n=5
for md in [{0:6},{0:6,1:6},{0:6,2:6},{0:6,1:6,2:6}]:
    e=Enc(n,5,'none'); e.build(maxdepth=md)
    res,el=e.solve()
    print(md, 'UNSAT' if res is None else ('SAT' if isinstance(res,list) else res), '%.2fs'%el)
