#!/usr/bin/env python3
"""Independent check of the autocannon golden cases (run by tests/sh/import_verify.sh).

Recomputes every metric of each expected.out from the raw tool output with
Python's json module and a separate regex reader of the text tables, using
the mapping in docs/formats-json.md, and compares value by value. Run:
    python3 tests/cases/import-autocannon/verify.py
Conversions done by hand here: pretty-bytes SI units (2.29 MB = 2.29e6 B),
toLocaleString grouping ('25,131.2' = 25131.2, '25.131,2' = 25131.2),
footer counts '251k' are rounded by autocannon and kept as info strings only.
"""
import json, os, re, sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'import-common'))
from importcheck import check_cases, load_record
PCT = ['p0_001', 'p0_01', 'p0_1', 'p1', 'p2_5', 'p10', 'p25', 'p50', 'p75', 'p90',
       'p97_5', 'p99', 'p99_9', 'p99_99', 'p99_999']
RPCT = ['p1', 'p2_5', 'p50', 'p97_5']

def from_json(o):
    m, info = {}, {}
    per = 1000 / o.get('sampleInt', 1000)
    for k, n in [('connections', 'connections'), ('pipelining', 'pipelining'),
                 ('duration', 'duration_s'), ('samples', 'samples'), ('errors', 'errors'),
                 ('timeouts', 'errors_timeout'), ('mismatches', 'mismatches'),
                 ('non2xx', 'non_2xx'), ('resets', 'resets')]:
        if k in o: m[n] = o[k]
    if 'errors' in o and 'timeouts' in o: m['errors_connect'] = o['errors'] - o['timeouts']
    if o.get('workers'): m['workers'] = o['workers']
    for k in range(1, 6):
        if f'{k}xx' in o: m[f'status_{k}xx'] = o[f'{k}xx']
    for code, c in o.get('statusCodeStats', {}).items(): m['status_' + code] = int(c['count'])
    L = o['latency']
    m['latency_mean_ms'] = L['mean']; m['latency_stdev_ms'] = L['stddev']
    m['latency_min_ms'] = L['min']; m['latency_max_ms'] = L['max']
    for p in PCT: m[f'latency_{p}_ms'] = L[p]
    m['latency_samples'] = L['totalCount']
    for key, pre, suf in [('requests', 'rps', ''), ('throughput', 'transfer', '_bytes_per_s')]:
        R = o[key]
        m[pre + suf] = R['mean'] * per
        for s, n in [('stddev', 'stdev'), ('min', 'min'), ('max', 'max')]:
            m[f'{pre}_{n}{suf}'] = R[s] * per
        for p in RPCT: m[f'{pre}_{p}{suf}'] = R[p] * per
    m['requests'] = o['requests']['total']; m['requests_sent'] = o['requests']['sent']
    m['bytes_total'] = o['throughput']['total']
    info['url'] = o['url']
    # errors are connect errors plus timeouts
    return load_record(m, info, requests=o['requests'].get('total'), ok_2xx=o.get('2xx'),
                       connect=max(o['errors'] - o['timeouts'], 0), timeout=o['timeouts'],
                       non_2xx=o['non2xx'], responses=[('mismatched responses', o['mismatches'])])

SI = {'B': 1, 'kB': 1e3, 'MB': 1e6, 'GB': 1e9}

def locale_num(s):
    s = s.replace('\u202f', '').replace('\xa0', '')
    m = re.fullmatch(r'(\d+|\d{1,3}(?:([,.])\d{3})+)(?:([,.])(\d{1,2}))?', s)
    assert m, s
    ip = re.sub(r'[,.]', '', m.group(1))
    return float(ip + ('.' + m.group(4) if m.group(4) else ''))

def from_text(t):
    m, info = {}, {}
    errors_line = ('0', '0')
    lines = t.split('\n')
    head = None
    for ln in lines:
        if ln.startswith('│'):
            cells = [c.strip() for c in ln.split('│')[1:-1]]
            if cells[0] in ('Stat', 'Code', 'Percentile'): head = cells; continue
            if head[0] == 'Code': m['status_' + cells[0]] = int(cells[1]); continue
            if head[0] == 'Percentile':
                m['latency_p' + cells[0].replace('.', '_') + '_ms'] = float(cells[1]); continue
            for h, c in zip(head[1:], cells[1:]):
                stat = {'Avg': 'mean', 'Stdev': 'stdev', 'Max': 'max', 'Min': 'min'}.get(h) or 'p' + h[:-1].replace('.', '_')
                if cells[0] == 'Latency':
                    assert c.endswith(' ms'); m[f'latency_{stat}_ms'] = float(c[:-3])
                elif cells[0] == 'Req/Sec':
                    m['rps' if stat == 'mean' else 'rps_' + stat] = locale_num(c)
                else:
                    v, u = c.split(' ')
                    m['transfer_bytes_per_s' if stat == 'mean' else f'transfer_{stat}_bytes_per_s'] = float(v) * SI[u]
        elif re.match(r'\d+ connections', ln):
            m['connections'] = int(ln.split()[0])
            if 'pipelining' in ln: m['pipelining'] = int(ln.split()[3])
        elif ln.startswith('# of samples:'):
            m['samples'] = int(ln.split()[-1])
        elif ' requests in ' in ln:
            a = ln.split()
            if a[0].endswith('k'): info['requests_sent'] = a[0]
            else: m['requests_sent'] = int(a[0])
            m['duration_s'] = float(a[3][:-2]); m['bytes_total'] = float(a[4]) * SI[a[5]]
        elif ' 2xx responses, ' in ln:
            a = ln.split(); m['status_2xx'] = int(a[0]); m['non_2xx'] = int(a[3])
        elif ' errors (' in ln:
            a = ln.split()
            for tok, name in [(a[0], 'errors'), (a[2][1:], 'errors_timeout')]:
                if tok.endswith('k'): info[name] = tok
                else: m[name] = int(tok)
            errors_line = (a[0], a[2][1:])
        elif ln.startswith('Running '):
            info['url'] = ln.split(' @ ')[1]
        elif ln.startswith('Req/Bytes counts sampled every'):
            per = 1 / float(ln.split()[4])   # "every 0.1 seconds" -> x10
            for k in list(m):
                if k.startswith('rps') or k.startswith('transfer'):
                    m[k] = float(Decimal(repr(m[k])) * Decimal(repr(per)))
    # Rounded footer counts ("2k errors (1k timeouts)") are shown as printed.
    e, t = errors_line
    rounded = e.endswith('k') or t.endswith('k')
    # Completed requests: the exact "A 2xx responses, B non 2xx" line.
    done = m['status_2xx'] + m['non_2xx'] if 'status_2xx' in m else None
    if m['rps'] == 0:
        done = 0
    kilo = lambda tok: float(tok[:-1]) * 1000 if tok.endswith('k') else int(tok)
    # Without response counts the exact "N requests in" are the attempts.
    sent = m.get('requests_sent') if 'status_2xx' not in m else None
    return load_record(m, info, requests=done, ok_2xx=m.get('status_2xx'), attempted=sent,
                       non_2xx=m.get('non_2xx', 0),
                       connect=0 if rounded else int(e) - int(t), timeout=0 if rounded else int(t),
                       failed=[('socket errors', kilo(e), f'{e} ({t} timeouts)')] if rounded else [])

def expect(path, args):
    raw = open(path, encoding='utf-8-sig').read().replace('\r\n', '\n')
    if raw.lstrip().startswith('{') or '\n{"' in raw:
        return [from_json(json.loads(l)) for l in raw.split('\n') if l.startswith('{')]
    raw = re.sub(r'\x1b\[[0-9;]*m', '', raw)
    # One run per "Running" banner; a -W warmup prints no tables.
    chunks = re.split(r'\n(?=Running )', raw)
    return [from_text(ch) for ch in chunks if '│ Latency' in ch]

check_cases(HERE, expect)
