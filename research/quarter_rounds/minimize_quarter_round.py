#!/usr/bin/env python3
#===- research/quarter_rounds/minimize_quarter_round.py ---------------===#
#
# Offline only: drops moves from a table found by find_quarter_round.py
# while it stays valid (see that file).
#
#===----------------------------------------------------------------------===#
# Greedily drop moves from a SAT solution while it stays valid; print sizes.
import sys, ast
def route(a,b,S,torus):
    (x1,y1),(x2,y2)=a,b; out=[]
    def walk(c,t,fix,axis):
        while c!=t:
            if torus:
                d=(t-c)%S; st=1 if d<=S-d else -1
            else: st=1 if t>c else -1
            out.append((axis,fix,c,st)); c=(c+st)%S
    walk(x1,x2,y1,0); walk(y1,y2,x2,1); return out
mode=sys.argv[1]  # 'cells' or 's1'
lines=open(sys.argv[2]).read().splitlines()
steps=[ast.literal_eval(l.split(' ',2)[2]) for l in lines if l.startswith('step')]
if mode=='cells':
    cells=[(i,j) for j in range(4) for i in range(4)]
    slots=[(c,sl) for c in cells for sl in 'DA']
    def init(slot):
        (i,j),sl=slot
        if sl=='D' and i==j: return {i}
        if sl=='A' and j==3-i: return {4+i}
        return set()
    def mv(m): return ((m[0],m[1]),(m[2],m[3]))
    steps=[[mv(m) for m in st] for st in steps]
    def nodes(slot,t,s):
        (i,j),sl=slot; return (i*s+t, j*s+(t if sl=='D' else s-1-t))
    geoms=[(s,tor) for s in (2,4,8,16) for tor in ((False,True) if 'torus' in sys.argv else (False,))]
    def goal(h): return all(h[((c),'D')]|h[(c,'A')]==set(range(8)) and not h[(c,'D')]&h[(c,'A')] and len(h[(c,'D')])==4 for c in cells)
else:
    slots=[(i,j) for j in range(4) for i in range(4)]
    def init(c):
        i,j=c; s=set()
        if i==j: s.add(i)
        if j==3-i: s.add(4+i)
        return s
    def nodes(slot,t,s): return slot
    geoms=[(1,False),(1,True)]
    def goal(h): return all(h[c]==set(range(8)) for c in slots)
def check(steps):
    h={sl:init(sl) for sl in slots}; sizes=[]
    for st in steps:
        new={sl:set(v) for sl,v in h.items()}; mx=0
        got={}
        for a,b in st:
            send=h[a]-h[b]
            if got.get(b,set())&send: return None
            got[b]=got.get(b,set())|send
            mx=max(mx,len(send)); new[b]|=h[a]
        h=new; sizes.append(mx)
    if not goal(h): return None
    for s,tor in geoms:
        for st in steps:
            used=set()
            for a,b in st:
                for t in range(s):
                    for l in route(nodes(a,t,s),nodes(b,t,s),4*s,tor):
                        if l in used: return None
                        used.add(l)
    return sizes
print('initial', check(steps))
changed=True
while changed:
    changed=False
    for r in range(len(steps)):
        for m in list(steps[r]):
            trial=[list(x) for x in steps]; trial[r].remove(m)
            if check(trial) is not None:
                steps=trial; changed=True
sz=check(steps)
print('sizes',sz, 'moves',[len(s) for s in steps])
for r,st in enumerate(steps): print('step',r+1,sorted(st))
