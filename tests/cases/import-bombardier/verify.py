#!/usr/bin/env python3
"""Independent check of the bombardier golden cases (run by tests/sh/import_verify.sh).

JSON: latency microseconds -> ms by a decimal shift (212518.7 us =
212.5187 ms; 1.1670304331027067e+06 us = 1167.0304331027067 ms), rps as
printed, transfer_bytes_per_s = (bytesRead + bytesWritten) / timeTakenSeconds
(bombardier's own Throughput formula). Text: durations us/ms/s/m/h
(721.44us = 0.72144 ms, 1.17s = 1170 ms), Throughput 1024-based
(19.57MB/s = 19.57 x 1048576 = 20520632.32 B/s; no unit below 870 B).
Both: requests = all classes + others, non_2xx = 1xx+3xx+4xx+5xx, errors
classified by message (timeout / connect / read / write).
    python3 tests/cases/import-bombardier/verify.py
"""
import json, os, re, sys
from decimal import Decimal
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'import-common'))
from importcheck import check_cases, load_record
def shift(x, k): return float(Decimal(repr(float(x))).scaleb(k))
def dur(t):
    n, u = re.fullmatch(r'([0-9.]+)(us|ms|s|m|h)', t).groups()
    return {'us': shift(n, -3), 'ms': float(n), 's': shift(n, 3), 'm': shift(n, 3) * 60, 'h': shift(n, 3) * 3600}[u]
def errs(m, pairs):
    m['errors'] = sum(c for _, c in pairs)
    m['errors_timeout'] = sum(c for d, c in pairs if 'timeout' in d)
    m['errors_connect'] = sum(c for d, c in pairs if 'timeout' not in d and ('connect:' in d or 'dial ' in d))
    m['errors_read'] = m['errors_write'] = 0
def common(m, have_stats):
    c = [m[f'status_{k}xx'] for k in range(1, 6)]
    m['requests'] = sum(c) + m['others']; m['non_2xx'] = c[0] + c[2] + c[3] + c[4]
    # Errors of no known kind, and others beyond the errors listed, are "other".
    other = m['errors'] - m['errors_timeout'] - m['errors_connect'] + max(m['others'] - m['errors'], 0)
    # The judge's completed requests have a status; the others failed.
    return dict(requests=sum(c), ok_2xx=c[1], connect=m['errors_connect'],
                        timeout=m['errors_timeout'], other=other, non_2xx=m['non_2xx'],
                        reasons=[] if have_stats else ['no latency or request rate statistics'])
def from_json(o):
    s, r = o['spec'], o['result']; m = {'connections': s['numberOfConnections']}
    m['bytes_total'] = r['bytesRead']; m['bytes_sent'] = r['bytesWritten']; m['duration_s'] = r['timeTakenSeconds']
    for k in range(1, 6): m[f'status_{k}xx'] = r[f'req{k}xx']
    m['others'] = r['others']
    m['transfer_bytes_per_s'] = (r['bytesRead'] + r['bytesWritten']) / r['timeTakenSeconds']
    L = r.get('latency')
    if L:
        m['latency_mean_ms'] = shift(L['mean'], -3); m['latency_stdev_ms'] = shift(L['stddev'], -3); m['latency_max_ms'] = shift(L['max'], -3)
        for p, v in L.get('percentiles', {}).items(): m[f'latency_p{p}_ms'] = shift(v, -3)
    R = r.get('rps')
    if R:
        m['rps'] = R['mean']; m['rps_stdev'] = R['stddev']; m['rps_max'] = R['max']
        for p, v in R.get('percentiles', {}).items(): m[f'rps_p{p}'] = v
    errs(m, [(e['description'], e['count']) for e in r.get('errors', [])])
    return m, common(m, bool(L and R))
def from_text(t):
    m = {}; pairs = []; in_err = False; have = 0
    for ln in t.split('\n'):
        a = ln.split()
        if not a: continue
        if a[0] == 'Bombarding': m['connections'] = int(a[-2])
        elif a[0] == 'Reqs/sec': m['rps'], m['rps_stdev'], m['rps_max'] = map(float, a[1:]); have += 1
        elif a[0] == 'Latency' and len(a) == 4: m['latency_mean_ms'], m['latency_stdev_ms'], m['latency_max_ms'] = map(dur, a[1:]); have += 1
        elif re.fullmatch(r'\d+%', a[0]) and len(a) == 2: m[f'latency_p{a[0][:-1]}_ms'] = dur(a[1])
        elif a[0] == '1xx':
            for k, v in re.findall(r'(\dxx) - (\d+)', ln): m['status_' + k] = int(v)
        elif a[0] == 'others': m['others'] = int(a[2])
        elif a[0] == 'Errors:': in_err = True
        elif a[0] == 'Throughput:':
            in_err = False; v, u = re.fullmatch(r'([0-9.]+)([KMGTP]?B?)/s', a[1]).groups()
            m['transfer_bytes_per_s'] = float(v) * {'': 1, 'KB': 1024, 'MB': 1024**2, 'GB': 1024**3}[u]
        elif in_err:
            d, c = ln.strip().rsplit(' - ', 1); pairs.append((d, int(c)))
    errs(m, pairs)
    return m, common(m, have == 2)
def expect(path, args):
    raw = open(path, encoding='utf-8-sig').read().replace('\r\n', '\n')
    js = [l for l in raw.split('\n') if l.startswith('{')]
    m, verdict = from_json(json.loads(js[0])) if js else from_text(raw)
    return [load_record(m, **verdict)]
check_cases(HERE, expect)
