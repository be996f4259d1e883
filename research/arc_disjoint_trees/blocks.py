import json,sys
from collections import defaultdict
J=json.load(open(sys.argv[1]))
tab={eval(k):v for k,v in J['lab']}; F={eval(k):v for k,v in J['F']}
L='ENWS'
blocks=defaultdict(dict)
for (xa,ya,c,t,p),d in tab.items():
    e=blocks[(xa,ya,p)].setdefault(c,[['?']*4,['?']*4])
    e[0][t]=L[d]; e[1][t]=str(F[(xa,ya,c,t,p)])
def f(a): return (0,a) if isinstance(a,int) else ((1,0) if a=='mid' else (2,-a[1]))
for b in sorted(blocks,key=lambda b:(f(b[0]),f(b[1]),-1 if b[2] is None else b[2])):
    print(b, ' '.join('%d:%s/%s'%(c,''.join(v[0]),''.join(v[1])) for c,v in sorted(blocks[b].items())))
print(len(blocks),'blocks', sum(len(v) for v in blocks.values()),'entries')
