#!/usr/bin/env python3
"""Independent check of source.digest in the import golden cases: for each
record of each case, SHA-256 (Python's hashlib) of the input file as the
importer reads it (a UTF-8 BOM dropped, CRLF as LF), then a NUL byte and
"#k" for the k-th record taken from that file (docs/run-record.md).
    python3 tests/cases/import-common/verify_digest.py
"""
import hashlib, json, os, shlex, sys
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '../../..'))


def digest(raw, k):
    if raw.startswith(b'\xef\xbb\xbf'):
        raw = raw[3:]
    raw = raw.replace(b'\r\n', b'\n')
    return 'sha256:' + hashlib.sha256(raw + b'\x00#%d' % k).hexdigest()


bad = checked = 0
for group in sorted(d for d in os.listdir(os.path.dirname(HERE)) if d.startswith('import-')):
    gdir = os.path.join(os.path.dirname(HERE), group)
    for case in sorted(os.listdir(gdir)):
        d = os.path.join(gdir, case)
        out = os.path.join(d, 'expected.out')
        if not os.path.isfile(out):
            continue
        args = shlex.split(open(os.path.join(d, 'cmd')).read().split('&&')[-1].split('|')[0])
        files = [a for a in args[2:] if not a.startswith('-') and (os.path.isfile(os.path.join(ROOT, a)) or os.path.isfile(os.path.join(d, a)))]
        seen = {}
        for line in open(out):
            if not line.strip():
                continue
            rec = json.loads(line)
            src = rec['source']['file']
            path = os.path.join(ROOT, src) if os.path.isfile(os.path.join(ROOT, src)) else os.path.join(d, src)
            if src == '<stdin>':
                path = os.path.join(ROOT, files[-1]) if files else None
                if path and not os.path.isfile(path):
                    path = os.path.join(d, files[-1])
            k = seen.get(src, 0)
            seen[src] = k + 1
            want = digest(open(path, 'rb').read(), k)
            if rec['source'].get('digest') != want:
                print(f'{group}/{case}: {src} #{k}: expected {want}, record has {rec["source"].get("digest")}')
                bad += 1
            checked += 1
print(f'verify_digest: {checked} digests checked, {bad} wrong')
sys.exit(1 if bad else 0)
