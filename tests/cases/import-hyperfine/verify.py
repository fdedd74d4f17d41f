#!/usr/bin/env python3
"""Independent check of the hyperfine golden cases (run by tests/sh/import_verify.sh).

For every case with an expected.out, re-reads the raw --export-json file with
Python's json module and recomputes each run record: wall_ms = times[j] x 1000
computed exactly in decimal (Decimal(repr(t)) * 1000, then rounded once to a
double), user_ms/sys_ms only from per-run arrays, max_rss_kib =
memory_usage_byte[j] / 1024 (0 = not measured, left out), status from
exit_codes (null = killed by a signal = failed), labels from parameters, plus
the label "command" when two results share a parameter set.
    python3 tests/cases/import-hyperfine/verify.py
"""
import json, os, sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'import-common'))
from importcheck import check_cases

def ms(x):
    return float(Decimal(repr(float(x))) * 1000)

def expected(doc, cli_labels):
    res = doc['results']
    keys = [tuple(sorted((r.get('parameters') or r.get('parameter') or {}).items())) for r in res]
    out = []
    for i, r in enumerate(res):
        shared = keys.count(keys[i]) > 1 or not keys[i]  # no parameters: labelled by command (issue 29)
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
            out.append({'metrics': m, 'config': cfg, 'status': st, 'info': {'command': r['command']},
                        'exit_code': None if codes is None else codes[j]})
    return out

def expect(path, args):
    labels = dict(a.split('=', 1) for k, a in zip(args, args[1:]) if k == '-l')
    return expected(json.load(open(path, encoding='utf-8-sig')), labels)

check_cases(HERE, expect)
