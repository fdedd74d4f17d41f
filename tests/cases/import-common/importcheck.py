"""Shared by the independent checks of the import golden cases
(tests/cases/import-<tool>/verify.py, run by tests/sh/import_verify.sh).

Each verify.py recomputes the records of its cases from the raw tool output
with Python alone and hands them to check_cases(), which walks the cases and
compares them with expected.out; load_verdict() states the rule of
docs/formats.md ("Rules shared by every load-tool importer") once - status,
the words the records use, error_rate - and load_record() makes the
expectation of a load run from it.
"""
import json, os, shlex, sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../..'))


def num(n):
    """A count as the records print it: 1153210, not 1.15321e+06."""
    return str(int(n)) if float(n).is_integer() else repr(float(n))


def load_verdict(requests=None, ok_2xx=None, connect=0, read=0, write=0, timeout=0,
                 other=0, non_2xx=0, failed=(), responses=(), reasons=(), stopped=None,
                 attempted=None, inside=(), errors_unknown=False):
    """(status, words, error_rate, note) of a load run, by the rule of
    docs/formats.md ("Rules shared by every load-tool importer"), written
    again here from the documentation.

    requests / ok_2xx: the completed requests and 2xx responses, None when
    the tool does not count them. failed: the tool's own failed requests
    that got no response, responses: its failed requests that are
    responses (among the completed ones), each as (words, count) or (words,
    count, count as printed). reasons: findings as (words, count or as
    printed), or a string: a fact that leaves no measurement. attempted:
    the tool's own count of attempts; inside: the socket error kinds its
    completed requests already hold ('timeout' for wrk).

    status is 'failed' only when no measurement came out (the tool stopped,
    a fact, no completed request); words are then its failure, else the
    ok run's load_errors (None when nothing went wrong). error_rate =
    failed requests / attempted, at most 1; None when unknown. note is the
    error_rate_note of rounded counts, or None."""
    terms = [(t[0], t[1], t[2] if len(t) > 2 else None) for t in list(failed) + list(responses)]
    parts = []
    kinds = [('connect', connect), ('read', read), ('write', write), ('timeout', timeout),
             ('other', other)]
    shown = [(k, v) for k, v in kinds if v > 0]
    if shown:
        parts.append('socket errors: ' + ', '.join(f'{k} {num(v)}' for k, v in shown))
    if non_2xx > 0:
        parts.append(f'non-2xx responses: {num(non_2xx)}')
    for what, n, printed in terms:
        if n > 0:
            parts.append(f'{what}: {printed if printed else num(n)}')
    for r in reasons:
        if not isinstance(r, str) and (isinstance(r[1], str) or r[1] > 0):
            parts.append(f'{r[0]}: {r[1] if isinstance(r[1], str) else num(r[1])}')
    facts = [r for r in reasons if isinstance(r, str)]
    parts += facts
    none = requests is not None and not requests > 0
    if none:
        parts.append('no completed requests')
    elif ok_2xx is not None and not ok_2xx > 0:
        parts.append('no 2xx responses')
    status = 'failed' if stopped is not None or facts or none else 'ok'
    if stopped is not None:
        words = stopped or 'the load tool stopped without a report'
    else:
        words = '; '.join(parts) if parts else None
    bad = sum(v for _, v in kinds) + non_2xx + sum(n for _, n, _ in terms)
    if errors_unknown:
        rate = None
    else:
        if attempted is None and requests is not None:
            attempted = (requests + sum(v for k, v in kinds if k not in inside)
                         + sum(t[1] for t in failed))
        if attempted is None:
            rate = 0 if bad == 0 and status == 'ok' else None
        elif not attempted > 0:
            rate = None
        else:
            rate = min(1, bad / attempted)
    rounded = [f'{what} {printed}' for what, n, printed in terms if printed and n > 0]
    note = 'approximate: the tool rounded ' + ', '.join(rounded) if rounded and rate is not None else None
    return status, words, rate, note


def load_record(metrics, info=None, **verdict):
    """The expectation of a load run for compare(): metrics with error_rate
    added, status, and info failure / load_errors / error_rate_note (the
    keys that must be absent given as None)."""
    status, words, rate, note = load_verdict(**verdict)
    m = dict(metrics)
    m['error_rate'] = rate
    inf = dict(info or {})
    inf['failure'] = words if status == 'failed' else None
    inf['load_errors'] = words if status == 'ok' else None
    inf['error_rate_note'] = note
    return {'metrics': m, 'info': inf, 'status': status}


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
