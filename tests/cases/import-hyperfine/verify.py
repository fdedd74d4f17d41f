#!/usr/bin/env python3
"""Independent check of the hyperfine golden cases (not run by ctest).

For every case with an expected.out, re-reads the raw --export-json file with
Python's json module and recomputes each run record: wall_ms = times[j] x 1000
computed exactly in decimal (Decimal(repr(t)) * 1000, then rounded once to a
double), user_ms/sys_ms only from per-run arrays, max_rss_kib =
memory_usage_byte[j] / 1024 (0 = not measured, left out), status from
exit_codes (null = killed by a signal = failed), labels from parameters, plus
the label "command" when two results share a parameter set.
    python3 tests/cases/import-hyperfine/verify.py
"""
import json, os, shlex, sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..', '..'))

def ms(x):
    return float(Decimal(repr(float(x))) * 1000)

def expected(doc, cli_labels):
    res = doc['results']
    keys = [tuple(sorted((r.get('parameters') or r.get('parameter') or {}).items())) for r in res]
    out = []
    for i, r in enumerate(res):
        shared = keys.count(keys[i]) > 1
        for j, t in enumerate(r['times']):
            m = {'wall_ms': ms(t)}
            if isinstance(r.get('user'), list): m['user_ms'] = ms(r['user'][j])
            if isinstance(r.get('system'), list): m['sys_ms'] = ms(r['system'][j])
            mem = r.get('memory_usage_byte')
            if mem and mem[j] > 0: m['max_rss_kib'] = mem[j] / 1024
            cfg = dict(keys[i]); cfg.update(cli_labels)
            if shared: cfg['command'] = r['command']
            codes = r.get('exit_codes')
            st = 'ok' if codes is None or codes[j] == 0 else 'failed'
            out.append((m, cfg, st, r['command'], None if codes is None else codes[j]))
    return out

bad = 0
for case in sorted(os.listdir(HERE)):
    d = os.path.join(HERE, case)
    if not os.path.isfile(os.path.join(d, 'expected.out')): continue
    args = shlex.split(open(os.path.join(d, 'cmd')).read().split('&&')[-1])
    labels = dict(a.split('=', 1) for k, a in zip(args, args[1:]) if k == '-l')
    src = args[-1]
    path = os.path.join(ROOT, src) if src.startswith('data/') else os.path.join(d, src)
    want = expected(json.load(open(path, encoding='utf-8-sig')), labels)
    recs = [json.loads(l) for l in open(os.path.join(d, 'expected.out'))]
    if len(recs) != len(want):
        print(f'{case}: {len(recs)} records, expected {len(want)}'); bad += 1; continue
    for (m, cfg, st, cmd, code), r in zip(want, recs):
        if r['metrics'] != m: print(f'{case}: metrics {r["metrics"]} != {m}'); bad += 1
        if r['config'] != cfg: print(f'{case}: config {r["config"]} != {cfg}'); bad += 1
        if r['status'] != st: print(f'{case}: status {r["status"]} != {st}'); bad += 1
        if r['info'].get('command') != cmd: print(f'{case}: command'); bad += 1
        if code is not None and r.get('exit_code') != code: print(f'{case}: exit code'); bad += 1
    print(f'{case}: {len(recs)} record(s) checked')
sys.exit(1 if bad else 0)
