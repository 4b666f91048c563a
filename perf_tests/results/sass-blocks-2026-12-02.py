# Sums ncu's per-SASS-instruction executed counts (ncu --import x.ncu-rep --page source --print-source sass > f.txt)
# into basic blocks (runs of instructions with one executed count), largest first: python3 sass-blocks-2026-12-02.py f.txt ...
import sys,re,collections
def parse(f):
    ins=[]
    for line in open(f):
        if not line.startswith('0x'): continue
        addr=line[:19].strip(); src=line[19:80].strip(); rest=line[80:].split()
        try: samples=int(rest[0]); execd=int(rest[3])
        except: continue
        ins.append((int(addr,16),src,samples,execd))
    return ins
for f in sys.argv[1:]:
    ins=parse(f); base=ins[0][0]
    tot=sum(i[3] for i in ins); ts=sum(i[2] for i in ins)
    blocks=[]; cur=None
    for a,s,sm,e in ins:
        if cur and cur['e']==e: cur['n']+=1; cur['s']+=sm; cur['ops'].append(s)
        else:
            cur={'a':a-base,'e':e,'n':1,'s':sm,'ops':[s]}; blocks.append(cur)
    print(f"## {f}: {len(ins)} SASS instructions, {tot:,} warp instructions executed, {ts} samples")
    blocks.sort(key=lambda b:-b['e']*b['n'])
    for b in blocks[:22]:
        mix=collections.Counter(re.sub(r'^@!?U?P\w+\s+','',o).split()[0].split('.')[0] for o in b['ops'])
        print(f"  0x{b['a']:04x}+{b['n']:3d} x {b['e']:>11,} = {b['e']*b['n']:>12,} ({100*b['e']*b['n']/tot:4.1f}%) samples {b['s']:5d} {dict(mix.most_common(7))}")
