#!/usr/bin/env python3
"""Independent check of the oha golden cases (not run by ctest).

Recomputes each record from the raw JSON with Python: seconds -> ms exactly
in decimal (Decimal(repr(s)) * 1000, rounded once), null -> null, status
codes summed into status_2xx / non_2xx, "aborted due to deadline" kept apart
from errors, requests = responses + all errors (= requestsPerSec x total,
e.g. 2477.4998696151088 x 10.003229588 = 24783.0 = 24680 + 53 + 50).
    python3 tests/cases/import-oha/verify.py
"""
import json, os, shlex, sys
from decimal import Decimal
HERE = os.path.dirname(os.path.abspath(__file__)); ROOT = os.path.abspath(os.path.join(HERE, '../../..'))
def ms(x): return None if x is None else float(Decimal(repr(float(x))) * 1000)
def frag(k): return k.replace('.', '_')
def expect(o):
    S = o['summary']; m = {}
    m['rps'] = S['requestsPerSec']; m['duration_s'] = S['total']; m['success_ratio'] = S['successRate']
    m['latency_mean_ms'] = ms(S['average']); m['latency_min_ms'] = ms(S['fastest']); m['latency_max_ms'] = ms(S['slowest'])
    for k, v in o.get('latencyPercentiles', {}).items(): m[f'latency_{frag(k)}_ms'] = ms(v)
    m['bytes_total'] = S['totalData']; m['bytes_per_request'] = S['sizePerRequest']; m['transfer_bytes_per_s'] = S['sizePerSec']
    for k, v in o.get('firstBytePercentiles', {}).items(): m[f'first_byte_{frag(k)}_ms'] = ms(v)
    for part, pre in [('DNSDialup', 'dns_dialup'), ('DNSLookup', 'dns_lookup'), ('firstByte', 'first_byte')]:
        d = o.get('details', {}).get(part)
        if d:
            for k, st in [('average', 'mean'), ('fastest', 'min'), ('slowest', 'max')]: m[f'{pre}_{st}_ms'] = ms(d[k])
    R = o.get('rps', {})
    for k in ['mean', 'stddev', 'min', 'max']:
        if k in R: m['rps_' + {'stddev': 'stdev'}.get(k, k)] = R[k]
    for k, v in R.get('percentiles', {}).items(): m['rps_' + frag(k)] = v
    ok = non = 0
    for c, n in o['statusCodeDistribution'].items():
        m['status_' + c] = n
        if 200 <= int(c) < 300: ok += n
        else: non += n
    m['status_2xx'] = ok; m['non_2xx'] = non
    errs = {k: v for k, v in o['errorDistribution'].items() if k != 'aborted due to deadline'}
    ab = o['errorDistribution'].get('aborted due to deadline', 0)
    m['requests'] = ok + non + sum(errs.values()) + ab; m['errors'] = sum(errs.values())
    m['errors_timeout'] = sum(v for k, v in errs.items() if 'timeout' in k)
    m['errors_connect'] = sum(v for k, v in errs.items() if 'refused' in k or 'onnect' in k)
    m['aborted_deadline'] = ab
    return m, 'failed' if (m['errors'] or non or ok == 0) else 'ok'
bad = 0
for case in sorted(os.listdir(HERE)):
    d = os.path.join(HERE, case)
    if not os.path.isfile(os.path.join(d, 'expected.out')): continue
    src = shlex.split(open(os.path.join(d, 'cmd')).read())[-1]
    p = os.path.join(ROOT, src) if src.startswith('data/') else os.path.join(d, src)
    m, st = expect(json.load(open(p)))
    r = json.loads(open(os.path.join(d, 'expected.out')).read())
    if r['metrics'] != m:
        for k in set(m) | set(r['metrics']):
            if m.get(k, 'absent') != r['metrics'].get(k, 'absent'): print(case, k, m.get(k, 'absent'), r['metrics'].get(k, 'absent'))
        bad += 1
    if r['status'] != st: print(case, 'status', r['status']); bad += 1
    print(f'{case}: checked')
sys.exit(1 if bad else 0)
