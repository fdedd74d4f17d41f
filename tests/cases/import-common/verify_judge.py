#!/usr/bin/env python3
"""Independent check of the judge's verdict and error rate in the golden
cases of the importers whose counts are the record's common metrics (wrk,
wrk2, hey, ab); the other importers' verify.py recompute whole records.

For each case the counts are read from expected.out (their parsing is
checked by the cases themselves, by hand in the NOTES) and the status, the
words (info failure / load_errors) and error_rate are recomputed with
importcheck.load_verdict, the rule of docs/formats.md written in Python.
What the completed requests of each tool include (docs/formats.md): wrk's
count holds the responses that came after its timeout; ab's holds the
connections closed by a receive or write error; hey's is its status
counts. A tool that stopped without a report keeps its own message.
    python3 tests/cases/import-common/verify_judge.py [wrk wrk2 hey ab]
"""
import json, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from importcheck import compare, load_record

INSIDE = {'wrk': ('timeout',), 'wrk2': ('timeout',), 'ab': ('read', 'write'), 'hey': ()}
STOPPED = ('ab stopped without a report', 'unable to connect')


def expect(tool, rec):
    m = rec['metrics']
    info = rec.get('info', {})
    failure = info.get('failure') or ''
    count = lambda k: m.get(k) if isinstance(m.get(k), (int, float)) and m.get(k) > 0 else 0
    requests = m.get('requests')
    verdict = dict(requests=requests if isinstance(requests, (int, float)) else 0,
                   connect=count('errors_connect'), read=count('errors_read'),
                   write=count('errors_write'), timeout=count('errors_timeout'),
                   other=count('errors_other'), non_2xx=count('non_2xx'),
                   inside=INSIDE[tool],
                   errors_unknown='errors are unknown' in info.get('note', ''))
    if failure.startswith(STOPPED):
        verdict['stopped'] = failure
    return load_record(m, **verdict)


def main(tools):
    bad = 0
    root = os.path.dirname(HERE)
    for tool in tools:
        group = os.path.join(root, f'import-{tool}')
        for case in sorted(os.listdir(group)):
            out = os.path.join(group, case, 'expected.out')
            if not os.path.isfile(out):
                continue
            recs = [json.loads(l) for l in open(out) if l.strip()]
            for rec in recs:
                bad += compare(f'{tool}/{case}', expect(rec.get('tool', tool), rec), rec)
            print(f'{tool}/{case}: {len(recs)} record(s) checked '
                  f'({", ".join(r["status"] + " " + str(r["metrics"].get("error_rate")) for r in recs)})')
    sys.exit(1 if bad else 0)


main(sys.argv[1:] or ['wrk', 'wrk2', 'hey', 'ab'])
