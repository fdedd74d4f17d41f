#!/usr/bin/env python3
"""Independent check of the oha golden cases (run by tests/sh/import_verify.sh).

Recomputes each record from the raw JSON with Python: seconds -> ms exactly
in decimal (Decimal(repr(s)) * 1000, rounded once), null -> null, status
codes summed into status_2xx / non_2xx, "aborted due to deadline" kept apart
from errors, requests = responses + all errors (= requestsPerSec x total,
e.g. 2477.4998696151088 x 10.003229588 = 24783.0 = 24680 + 53 + 50).
    python3 tests/cases/import-oha/verify.py
"""
import json, os, sys
from decimal import Decimal
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'import-common'))
from importcheck import check_cases, load_record
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
    # The judge's completed requests are the responses; deadline cut-offs
    # are neither failures nor attempts.
    return [load_record(m, requests=ok + non, ok_2xx=ok, connect=m['errors_connect'],
                        timeout=m['errors_timeout'],
                        other=m['errors'] - m['errors_connect'] - m['errors_timeout'],
                        non_2xx=non)]
check_cases(HERE, lambda path, args: expect(json.load(open(path, encoding='utf-8-sig'))))
