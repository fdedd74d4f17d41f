#!/usr/bin/env python3
"""Independent check of the k6 golden cases (run by tests/sh/import_verify.sh).

Recomputes each record from the raw JSON with Python, per shape (A legacy
--summary-export, B handleSummary data, C new machine-readable summary):
trend avg/med/min/max/p(N) -> <prefix>_mean/p50/min/max/pN_ms
(http_req_duration -> latency_*), http_reqs -> requests + rps (shape C:
rps = count / config.duration, e.g. 8796 / 30.012), http_req_failed passes
(= failed requests, inverted) -> requests_failed, checks -> checks_passed /
_failed / _ratio, data_received -> bytes_total + transfer_bytes_per_s,
vus max -> vus_peak, vus_max value -> vus_max, testRunDurationMs / 1000 ->
duration_s (decimal shift: 30012.4581 ms = 30.0124581 s); thresholds: shape A
true = failed, shape B ok = passed.
    python3 tests/cases/import-k6/verify.py
"""
import json, os, re, sys
from decimal import Decimal
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'import-common'))
from importcheck import check_cases, load_record
def stat(k):
    return {'avg': 'mean', 'med': 'p50', 'count': 'samples'}.get(k) or re.sub(r'^p\((.*)\)$', lambda m: 'p' + m.group(1).replace('.', '_'), k)
def expect(o):
    m = {}; failed_th = 0; shape = 'C' if 'results' in o and 'root_group' not in o else ('B' if any('values' in v for v in o['metrics'].values()) else 'A')
    dur = None
    if shape == 'C':
        dur = o['config']['duration']; m['duration_s'] = dur
        mets = [(x['name'], x['type'], x['values'], None) for x in o['results']['metrics']]
    elif shape == 'B':
        if 'state' in o: dur = float(Decimal(repr(o['state']['testRunDurationMs'])) / 1000); m['duration_s'] = dur
        mets = [(n, x['type'], x['values'], x.get('thresholds')) for n, x in o['metrics'].items()]
    else:
        def typ(v):
            if 'passes' in v: return 'rate'
            if 'count' in v and 'rate' in v: return 'counter'
            if 'value' in v: return 'gauge'
            return 'trend'
        mets = [(n, typ(x), {k: v for k, v in x.items() if k != 'thresholds'}, x.get('thresholds')) for n, x in o['metrics'].items()]
    freq = fchk = 0; nreq = None; th_names = []
    for name, t, v, th in mets:
        for expr, res in (th or {}).items():
            if (res is True) if shape == 'A' else (not res['ok']): failed_th += 1; th_names.append(f'{name}: {expr}')
        if '{' in name: continue
        if t == 'trend':
            pre = 'latency' if name == 'http_req_duration' else name
            for k, x in v.items(): m[f'{pre}_{stat(k)}' + ('' if k == 'count' else '_ms')] = x
        elif t == 'counter':
            rate = v.get('rate', v['count'] / dur if dur else None)
            n1, n2 = {'http_reqs': ('requests', 'rps'), 'data_received': ('bytes_total', 'transfer_bytes_per_s'),
                      'data_sent': ('bytes_sent', 'bytes_sent_per_s')}.get(name, (name, name + '_per_s'))
            m[n1] = v['count']; m[n2] = rate
            if name == 'http_reqs': nreq = v['count']
        elif t == 'rate':
            passes = v.get('passes', v.get('matches')); fails = v.get('fails', v.get('total', 0) - v.get('matches', 0))
            ratio = v.get('value', v.get('rate'))
            if name == 'http_req_failed':
                m['requests_failed'] = passes; m['requests_failed_ratio'] = ratio; freq = passes
            else:
                m[name + '_passed'] = passes; m[name + '_failed'] = fails; m[name + '_ratio'] = ratio
                if name == 'checks': fchk = fails
        elif t == 'gauge':
            if name == 'vus': m['vus_peak'] = v['max']
            elif name == 'vus_max': m['vus_max'] = v['value']
    m['thresholds_failed'] = failed_th
    # http_reqs are the attempts; the completed ones those k6 did not fail.
    return [load_record(m, requests=None if nreq is None else nreq - freq,
                        attempted=nreq, failed=[('failed requests', freq)],
                        reasons=[('failed checks', fchk),
                                 ('thresholds failed', '; '.join(th_names) if failed_th else 0)])]
check_cases(HERE, lambda path, args: expect(json.load(open(path))))
