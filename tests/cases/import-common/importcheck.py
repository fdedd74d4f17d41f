"""Shared by the independent checks of the import golden cases
(tests/cases/import-<tool>/verify.py, not run by ctest).

Each verify.py recomputes the records of its cases from the raw tool output
with Python alone and hands them to check_cases(), which walks the cases and
compares them with expected.out; load_verdict() states the failure rule of
docs/formats.md ("Rules shared by every load-tool importer") once, in the
words the records use.
"""
import json, os, shlex, sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../..'))


def num(n):
    """A count as the records print it: 1153210, not 1.15321e+06."""
    return str(int(n)) if float(n).is_integer() else repr(float(n))


def load_verdict(requests=None, ok_2xx=None, connect=0, read=0, write=0, timeout=0,
                 other=0, non_2xx=0, failed=(), reasons=(), stopped=None):
    """(status, failure) of a load run. requests / ok_2xx: the completed
    requests and 2xx responses, None when the tool does not count them;
    failed: the tool's own counts of failed requests and reasons: counts that
    fail the run whatever else, both as (words, count or the count as
    printed); a reason given as a string is a fact."""
    if stopped is not None:
        return 'failed', stopped
    parts = []
    kinds = [(k, v) for k, v in [('connect', connect), ('read', read), ('write', write),
                                 ('timeout', timeout), ('other', other)] if v > 0]
    if kinds:
        parts.append('socket errors: ' + ', '.join(f'{k} {num(v)}' for k, v in kinds))
    if non_2xx > 0:
        parts.append(f'non-2xx responses: {num(non_2xx)}')
    for what, n in list(failed) + [r for r in reasons if not isinstance(r, str)]:
        if isinstance(n, str) or n > 0:
            parts.append(f'{what}: {n if isinstance(n, str) else num(n)}')
    parts += [r for r in reasons if isinstance(r, str)]
    if requests is not None and not requests > 0:
        parts.append('no completed requests')
    elif ok_2xx is not None and not ok_2xx > 0:
        parts.append('no 2xx responses')
    return ('failed', '; '.join(parts)) if parts else ('ok', None)


def cases(here):
    """(case name, folder, command-line arguments, input path) of each case
    of the group in 'here' that has an expected.out."""
    for case in sorted(os.listdir(here)):
        d = os.path.join(here, case)
        if not os.path.isfile(os.path.join(d, 'expected.out')):
            continue
        args = shlex.split(open(os.path.join(d, 'cmd')).read().split('&&')[-1])
        src = args[-1]
        yield case, d, args, os.path.join(ROOT, src) if src.startswith('data/') else os.path.join(d, src)


def compare(case, want, rec):
    """Prints each difference between the recomputed record 'want' (a dict
    with metrics and status, and optionally info (the keys given), failure,
    config, exit_code) and the stored one; returns their number."""
    bad = 0
    m, got = want['metrics'], rec['metrics']
    for k in sorted(set(m) | set(got)):
        if m.get(k, 'absent') != got.get(k, 'absent'):
            print(f'{case}: {k}: expected {m.get(k, "absent")}, record has {got.get(k, "absent")}')
            bad += 1
    expected_info = dict(want.get('info', {}))
    if 'failure' in want:
        expected_info['failure'] = want['failure']
    for k, v in expected_info.items():
        if rec.get('info', {}).get(k) != v:
            print(f'{case}: info {k}: expected {v!r}, record has {rec.get("info", {}).get(k)!r}')
            bad += 1
    for k in ('status', 'config', 'exit_code'):
        if k in want and want[k] is not None and rec.get(k) != want[k]:
            print(f'{case}: {k}: expected {want[k]}, record has {rec.get(k)}')
            bad += 1
    return bad


def check_cases(here, expect):
    """Compares expect(input path, arguments) - the list of recomputed
    records of a case - with each case's expected.out; exits 1 on any
    difference."""
    bad = 0
    for case, d, args, path in cases(here):
        recs = [json.loads(l) for l in open(os.path.join(d, 'expected.out'))]
        want = expect(path, args)
        if len(want) != len(recs):
            print(f'{case}: {len(recs)} records, expected {len(want)}')
            bad += 1
            continue
        for w, r in zip(want, recs):
            bad += compare(case, w, r)
        print(f'{case}: {len(recs)} record(s) checked ({", ".join(r["status"] for r in recs)})')
    sys.exit(1 if bad else 0)
