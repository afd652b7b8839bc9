#!/usr/bin/env python3
"""Builds the "stress" glyph jobs: other DejaVu styles, tiny and large sizes, shear, anisotropic scale,
y-flip, a 73 degree rotation, radii 1-8 px, and their curve-exact answers (reference.py).

Usage (from the package root; needs fonttools uharfbuzz numpy):
    python3 scripts/curve_exact/make_stress_jobs.py --out Tests/InkJobsTests/Fixtures
writes stress-jobs.jsonl and stress-expected.jsonl. Deterministic (seeds: crc32 of each job id + 7).
Shaping and point sampling are make_jobs.py's.
"""
import argparse, sys, json, math, zlib, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_jobs as M, reference
DV='/usr/share/fonts/truetype/dejavu/'
SBI=DV+'DejaVuSerif-BoldItalic.ttf'; SCO=DV+'DejaVuSansCondensed-Oblique.ttf'; MB=DV+'DejaVuSansMono-Bold.ttf'
XL=DV+'DejaVuSans-ExtraLight.ttf'; SANS=M.SANS; DROID=M.DROID; SERIF=M.SERIF
for p in [SBI,SCO,MB,XL]: assert os.path.exists(p), p
out=[]
def add(jid, fonts, size, g, r=0.0, T=None, n=600):
    out.append((M.base_job(jid, fonts, size, g, radius=r, transform=T), n))
g=M.paragraph(SBI, ['Jiggly qualms, fjord & waffle: @%$', 'Ångström ǅ Ŋ ŧ ﬃ — “quoted” ¿¡'], 22, 5, 5)
add('sbi22-shear', [SBI], 22, g, 0.0, [1,0,0.35,1,3,2])
add('sbi22-shear-r1', [SBI], 22, g, 1.0, [1,0,0.35,1,3,2])
g=M.paragraph(SCO, ['Tiny condensed oblique text, 7 px: mmm www iii', 'AVAWAY To Ta Ty; 1234567890'], 7, 2, 2)
add('sco7', [SCO], 7, g, 0.0)
add('sco7-r3.5', [SCO], 7, g, 3.5)
g=M.paragraph(MB, ['{[(mono bold)]} => 0xFF;', '#!/bin/sh ~ | ` ^'], 14, 4, 4)
add('mb14-aniso', [MB], 14, g, 0.0, [3.0,0,0,0.7,1,1])
add('mb14-aniso-r2', [MB], 14, g, 2.0, [3.0,0,0,0.7,1,1])
a=math.radians(73)
g=M.paragraph(XL, ['extra light hairlines: ellipse', 'Õ ő ů ẞ ₤ ∮ ≈ √'], 48, 0, 0)
add('xl48-rot73', [XL], 48, g, 0.0, [math.cos(a),math.sin(a),-math.sin(a),math.cos(a),300,20])
add('xl48-rot73-r8', [XL], 48, g, 8.0, [math.cos(a),math.sin(a),-math.sin(a),math.cos(a),300,20])
g=M.paragraph(DROID, ['當たり判定の測定、龘靐齉。', 'カタカナ ひらがな 한글 테스트'], 30, 0, 0)
add('droid30-yflip', [DROID], 30, g, 0.0, [1,0,0,-1,0,200])
add('droid30-scale0.4-rot-r3.5', [DROID], 30, g, 3.5, [0.4,0.1,-0.1,0.4,10,90])
g=[{'font':0,'id':M.glyph_id(SERIF,'&'),'x':10,'y':10+M.ascent(SERIF,150),'cluster':0},
   {'font':1,'id':M.glyph_id(SANS,'Q'),'x':40,'y':10+M.ascent(SERIF,150),'cluster':1,'size':130}]
add('amp-q-overlap150', [SERIF,SANS], 150, g, 0.0, n=800)
add('amp-q-overlap150-r5', [SERIF,SANS], 150, g, 5.0, n=800)
ap=argparse.ArgumentParser(); ap.add_argument('--out', required=True); args=ap.parse_args()
jp=os.path.join(args.out,'stress-jobs.jsonl'); ep=os.path.join(args.out,'stress-expected.jsonl')
with open(jp,'w') as f:
    for job,n in out:
        job['points']=M.make_points(job,n,zlib.crc32(job['id'].encode())+7)
        f.write(json.dumps(job,separators=(',',':'),ensure_ascii=False)+'\n')
with open(jp) as f, open(ep,'w') as g:
    for line in f:
        for rec in reference.answer_job(json.loads(line)): g.write(json.dumps(rec)+'\n')
print('ok')
