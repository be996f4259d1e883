# independent encoding (one-hot levels) of the n=5 depth-5 question, solved with picosat
import itertools, subprocess
n=5; L=5
def dist(x,y): return min(x,n-x)+min(y,n-y)
DX=[(1,0),(0,1),(-1,0),(0,-1)]
nv=0; cl=[]
def new():
    global nv; nv+=1; return nv
V=[(x,y) for y in range(n) for x in range(n) if (x,y)!=(0,0)]
P={(k,v,d):new() for k in range(4) for v in V for d in range(4)}
LV={(k,v,l):new() for k in range(4) for v in V for l in range(1,L+1)}
def exactly_one(vs):
    cl.append(vs)
    for a,b in itertools.combinations(vs,2): cl.append([-a,-b])
for v in V:
    for k in range(4): exactly_one([P[k,v,d] for d in range(4)]); exactly_one([LV[k,v,l] for l in range(1,L+1)])
    for d in range(4): exactly_one([P[k,v,d] for k in range(4)])
for k in range(4):
    for v in V:
        for d in range(4):
            u=((v[0]+DX[d][0])%n,(v[1]+DX[d][1])%n)
            for l in range(1,L+1):
                if u==(0,0):
                    if l!=1: cl.append([-P[k,v,d],-LV[k,v,l]])
                else:
                    if l==1: cl.append([-P[k,v,d],-LV[k,v,l]])
                    else: cl.append([-P[k,v,d],-LV[k,v,l],LV[k,u,l-1]])
open('/tmp/t4_indep5.cnf','w').write('p cnf %d %d\n'%(nv,len(cl))+''.join(' '.join(map(str,c))+' 0\n' for c in cl))
out=subprocess.run(['nice','-n','19','picosat','/tmp/t4_indep5.cnf'],capture_output=True,text=True).stdout
print('n=5 depth<=5, independent encoding, picosat:', out.splitlines()[0])
