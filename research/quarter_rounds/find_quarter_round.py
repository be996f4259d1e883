#!/usr/bin/env python3
#===- research/quarter_rounds/find_quarter_round.py --------------------===#
#
# Offline only (not built, not run by tests): how the first kQuarterRound
# (since replaced by find_balanced_quarter_round.py's tables, see RESULTS.md)
# and the last 4 x 4 node table of AllPortRecursion.cpp were found, standing
# in for Zhuang & Liberatore's Fig. 9 (missing from our copy of the paper). A
# SAT encoding of "16 sub-blocks in 3 steps" on the 4 x 4 cells: one segment
# move per (step, slot pair), no link shared on XY routes, no chunk
# delivered twice, messages of at most p, 2p, 4p. Needs a DIMACS solver on
# PATH (Debian package `cadical`). minimize_quarter_round.py then drops
# moves while the table stays valid. The C++ tests check the tables on every
# size and source; these scripts only record where they came from.
#
#===----------------------------------------------------------------------===#
import itertools, os, subprocess, sys, tempfile
R=3
cells=[(i,j) for j in range(4) for i in range(4)]
slots=[(c,sl) for c in cells for sl in 'DA']
NP=8
def init(slot):
    (i,j),sl=slot
    if sl=='D' and i==j: return {i}
    if sl=='A' and j==3-i: return {4+i}
    return set()
def node(slot,t,s,src):
    (i,j),sl=slot
    x=i*s+t; y=j*s+(t if sl=='D' else s-1-t)
    return (x^src[0], y^src[1])
def route(a,b,S,torus):
    (x1,y1),(x2,y2)=a,b; out=[]
    def walk(c,t,fix,axis):
        while c!=t:
            if torus:
                d=(t-c)%S; st=1 if d<=S-d else -1
            else: st=1 if t>c else -1
            out.append((axis,fix,c,st)); c=(c+st)%S
    walk(x1,x2,y1,0); walk(y1,y2,x2,1); return out
nv=0
def new():
    global nv; nv+=1; return nv
clauses=[]
moves=[(a,b) for a in slots for b in slots if a!=b and (a[0][0]==b[0][0] or a[0][1]==b[0][1])]
X={(r,m):new() for r in range(1,R+1) for m in moves}
H={}
for sl in slots:
    for p in range(NP):
        v=new(); H[(0,sl,p)]=v; clauses.append([v] if p in init(sl) else [-v])
for r in range(1,R+1):
    for sl in slots:
        for p in range(NP):
            H[(r,sl,p)]=new()
    for tau in slots:
        for p in range(NP):
            h=H[(r,tau,p)]; srcs=[H[(r-1,tau,p)]]
            for sig in slots:
                if (r,(sig,tau)) not in X: continue
                a=new(); x=X[(r,(sig,tau))]; hs=H[(r-1,sig,p)]
                clauses += [[-a,x],[-a,hs],[a,-x,-hs]]
                srcs.append(a)
            clauses.append([-h]+srcs)
            for a1,a2 in itertools.combinations(srcs[1:],2): clauses.append([-a1,-a2,srcs[0]])
            for s_ in srcs: clauses.append([h,-s_])
    # size bound: sender holds at most 2^(r-1) pieces
    lim=2**(r-1)
    for sig in slots:
        for comb in itertools.combinations(range(NP),lim+1):
            for tau in slots:
                if (r,(sig,tau)) not in X: continue
                clauses.append([-X[(r,(sig,tau))]]+[-H[(r-1,sig,p)] for p in comb])
    # no move from empty slot
    for sig in slots:
        for tau in slots:
            if (r,(sig,tau)) in X: clauses.append([-X[(r,(sig,tau))]]+[H[(r-1,sig,p)] for p in range(NP)])
# goal: every piece in exactly one slot of every cell
for c in cells:
    for p in range(NP):
        clauses.append([H[(R,(c,'D'),p)],H[(R,(c,'A'),p)]])
        clauses.append([-H[(R,(c,'D'),p)],-H[(R,(c,'A'),p)]])
    for sl in 'DA':
        for comb in itertools.combinations(range(NP),5):
            clauses.append([-H[(R,(c,sl),p)] for p in comb])
# contention
def amo(lits):
    if len(lits)<=1: return
    if len(lits)<=6:
        for a,b in itertools.combinations(lits,2): clauses.append([-a,-b])
        return
    s=[new() for _ in lits[:-1]]
    clauses.append([-lits[0],s[0]])
    for i in range(1,len(lits)-1):
        clauses.extend([[-lits[i],s[i]],[-s[i-1],s[i]],[-lits[i],-s[i-1]]])
    clauses.append([-lits[-1],-s[-1]])
geoms=[]
TAG=sys.argv[1]
for extra in sys.argv[2:]:
    s_,tor,sx,sy=extra.split(','); geoms.append((int(s_),tor=='t',(int(sx),int(sy))))
for s,torus,src in geoms:
    S=4*s
    for r in range(1,R+1):
        use={}
        for m in moves:
            for t in range(s):
                for l in route(node(m[0],t,s,src),node(m[1],t,s,src),S,torus):
                    use.setdefault(l,set()).add(X[(r,m)])
        for l,vs in use.items(): amo(sorted(vs))
with open(os.path.join(tempfile.gettempdir(), TAG+'.cnf'),'w') as f:
    f.write('p cnf %d %d\n'%(nv,len(clauses)))
    for c in clauses: f.write(' '.join(map(str,c))+' 0\n')
res=subprocess.run(['cadical','-q',os.path.join(tempfile.gettempdir(), TAG+'.cnf')],capture_output=True,text=True).stdout
val=set()
for line in res.splitlines():
    if line.startswith('v'): val.update(int(v) for v in line.split()[1:] if int(v)>0)
print(res.splitlines()[0] if res else 'noout')
for r in range(1,R+1):
    print('step',r,[ (m[0][0],m[0][1],m[1][0],m[1][1]) for m in moves if X[(r,m)] in val])
