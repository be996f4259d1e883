import json
from sat import *
out={}
L='ENWS'
for n in [3,4,6,7,8,9]:
    e=Enc(n,2*(n//2)+1,'rot'); e.build(); res,el=e.solve()
    # tree0 label string
    s=''
    for v in range(n*n):
        if v==0: s+='.'; continue
        x,y=v%n,v//n; u=res[0][v]; ux,uy=u%n,u//n
        d={((x+1)%n,y):0,(x,(y+1)%n):1,((x-1)%n,y):2,(x,(y-1)%n):3}[(ux,uy)]
        s+=L[d]
    out[n]={'sym':'rot','tree0':s,'time':el}
    print(n,s,[max(depth_of(n,p)) for p in res],'%.2fs'%el)
n=5
e=Enc(5,5,'none'); e.build(maxdepth={2:6,3:6}); res,el=e.solve()
ss=[]
for k in range(4):
    s=''
    for v in range(n*n):
        if v==0: s+='.'; continue
        x,y=v%n,v//n; u=res[k][v]; ux,uy=u%n,u//n
        d={((x+1)%n,y):0,(x,(y+1)%n):1,((x-1)%n,y):2,(x,(y-1)%n):3}[(ux,uy)]
        s+=L[d]
    ss.append(s)
out[5]={'sym':'none','trees':ss,'time':el}
print(5,ss,[max(depth_of(n,p)) for p in res])
json.dump(out,open('small.json','w'),indent=1)
