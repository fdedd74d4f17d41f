#!/usr/bin/env python3
"""check_xlsx.py - checks the numbers of report.xlsx, as LibreOffice shows
them, against analysis.json.

    check_xlsx.py ANALYSIS CSV_DIR

CSV_DIR holds one CSV per sheet, written by LibreOffice with "save cell
contents as shown" (soffice --convert-to 'csv:...:...,true,...,-1'), so a
number is compared as a reader sees it: the only tolerance is half a unit
of the last digit shown. Checked: every row of the Recommendations sheet
(the decision, the recommended config, the config whose mean is shown with
its mean, CI, n and memory, the runs that would settle it, the margin, the
nearest other config with its verdict, ratio to the best, simultaneous CI
and p_adj), every cell of the stats table of each workload sheet with each
config's verdict columns, a paired workload's chart data (the best's mean
times each verdict's ratio and interval), and the pass/fail matrix of a categorical
workload. The expected values are computed here from
analysis.json alone (the recommendation and the pair tests as analyze
wrote them), not by the renderer. Exits 1 with a list of mismatches.
"""
import csv
import glob
import json
import math
import os
import re
import sys

errors = []
checked = 0


def shown_number(text):
    """(value, tolerance) of a displayed number, or None for an empty cell."""
    t = text.strip()
    if t == "":
        return None
    if t == "< 0.001":
        return ("<", 0.001)
    pct = t.endswith("%")
    t = t.rstrip("%").replace(",", "")
    if not re.fullmatch(r"-?\d+(\.\d+)?", t):
        raise ValueError("not a number: %r" % text)
    decimals = len(t.split(".")[1]) if "." in t else 0
    v, tol = float(t), 0.5 * 10 ** -decimals
    if pct:
        v, tol = v / 100, tol / 100
    return (v, tol)


def compare(where, text, expected):
    global checked
    checked += 1
    got = shown_number(text)
    if expected is None or (isinstance(expected, float) and not math.isfinite(expected)):
        if got is not None:
            errors.append("%s: expected an empty cell, got %r" % (where, text))
        return
    if got is None:
        errors.append("%s: expected %r, got an empty cell" % (where, expected))
        return
    v, tol = got
    if v == "<":
        if not expected < tol:
            errors.append("%s: shows '< %g' but the analysis has %r" % (where, tol, expected))
        return
    if abs(v - expected) > tol + 1e-9 * abs(expected):
        errors.append("%s: shows %r, the analysis has %r" % (where, text, expected))


def same(where, got, expected):
    global checked
    checked += 1
    if got != expected:
        errors.append("%s: expected %r, got %r" % (where, expected, got))


def shown_ci(v, end):
    """The interval the workbook shows beside a verdict's ratio: the
    verdict's own, or for a config the race eliminated (no such interval)
    the interval of its ratio on all its runs (eliminated_ci_*)."""
    own = num(v, "ratio_ci_" + end)
    if own is None and "eliminated_ci_low" in (v or {}):
        return num(v, "eliminated_ci_" + end)
    return own


def verdict_phrase(where, got, v, margin):
    """The workbook says a verdict in words (issue 26): `worse` as "slower"
    (or "worse") when the interval excludes no difference, "more than M %
    slower" only when beyond_margin is true, ", eliminated by the race"
    after it for a config the race eliminated (its row has
    eliminated_ci_low); `equivalent` as "equivalent within M %" with the
    workload's margin M; every other verdict as is."""
    global checked
    verdict = (v or {}).get("verdict") or ""
    if verdict == "equivalent" and margin is not None:
        checked += 1
        m = re.fullmatch(r"equivalent within ([0-9.]+) %", got or "")
        if not m or abs(float(m.group(1)) - 100 * margin) > 1e-9 * max(1, 100 * margin):
            errors.append("%s: expected 'equivalent within %g %%', got %r" % (where, 100 * margin, got))
        return
    if verdict != "worse":
        return same(where, got, verdict)
    checked += 1
    beyond = (v or {}).get("beyond_margin") is True
    pattern = r"more than [0-9.]+ % (slower|worse)" if beyond else r"(slower|worse)"
    if "eliminated_ci_low" in (v or {}):
        pattern += ", eliminated by the race"
    if not re.fullmatch(pattern, got or ""):
        errors.append("%s: expected %s (worse, beyond_margin %s), got %r"
                      % (where, pattern, beyond, got))


def read_sheets(d):
    sheets = {}
    for path in sorted(glob.glob(os.path.join(d, "*.csv"))):
        with open(path, newline="", encoding="utf-8") as f:
            sheets[path] = list(csv.reader(f))
    return sheets


def stats(config, metric):
    s = (config.get("metrics") or {}).get(metric)
    return s if isinstance(s, dict) else {}


def num(obj, key):
    v = obj.get(key) if isinstance(obj, dict) else None
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def rss_mib(config):
    # The report's memory column: mean max_rss_kib, else mean server peak.
    for key in ("max_rss_kib", "server_rss_peak_kib"):
        m = num(stats(config, key), "mean")
        if m is not None:
            return m / 1024
    return None


def better(higher, a, b):
    if a is None:
        return False
    if b is None:
        return True
    return a > b if higher else a < b


def verdict_of(w, cid):
    for v in ((w.get("recommendation") or {}).get("verdicts") or []):
        if v.get("config") == cid:
            return v
    return None


def categorical(w):
    # Pass/fail: a bool primary metric, or a count over bool metrics
    # (compat_ok_count over compat_<pkg>_ok), by the units analyze wrote.
    primary = w.get("primary") or {}
    unit = primary.get("unit")
    if unit == "bool":
        return True
    if unit != "count":
        return False
    return any(isinstance(m, dict) and m.get("unit") == "bool"
               for c in (w.get("configs") or []) for m in (c.get("metrics") or {}).values())


def check_recommendations(a, rows):
    head = rows[0]
    col = {h: i for i, h in enumerate(head)}
    body = [r for r in rows[1:] if any(c.strip() for c in r)]
    same("Recommendations: rows", len(body), len(a["workloads"]))
    for w, row in zip(a["workloads"], body):
        name = w["name"]
        cell = lambda h: row[col[h]]
        where = "Recommendations[%s]" % name
        same(where + " workload", cell("workload"), name)
        metric = (w.get("primary") or {}).get("metric")
        configs = w.get("configs") or []
        rec = w.get("recommendation") or {}
        if categorical(w):
            same(where + " decision", cell("decision"), "pass/fail")
            continue
        same(where + " decision", cell("decision"), rec.get("decision") or "")
        ids = [c["id"] for c in configs]
        if rec.get("recommended") in ids:
            labels = configs[ids.index(rec["recommended"])].get("labels") or {}
            for v in labels.values():
                if v not in cell("recommended"):
                    errors.append("%s recommended: %r lacks label %r" % (where, cell("recommended"), v))
        else:
            same(where + " recommended", cell("recommended"), "")
        # The figure shown: the recommended config's, else the best mean's.
        shown = rec.get("recommended") if rec.get("recommended") in ids else rec.get("best")
        if shown not in ids:
            same(where + " best mean config", cell("best mean config"), "")
            continue
        rc = configs[ids.index(shown)]
        rs = stats(rc, metric)
        for v in (rc.get("labels") or {}).values():
            if v not in cell("best mean config"):
                errors.append("%s best mean config: %r lacks label %r" % (where, cell("best mean config"), v))
        compare(where + " mean", cell("mean"), num(rs, "mean"))
        compare(where + " CI low", cell("CI low"), num(rs, "ci_low"))
        compare(where + " CI high", cell("CI high"), num(rs, "ci_high"))
        compare(where + " n", cell("n"), num(rs, "n"))
        compare(where + " max RSS", cell("max RSS (MiB)"), rss_mib(rc))
        compare(where + " runs needed", cell("runs needed"), num(rec, "runs_needed"))
        compare(where + " margin", cell("margin"), num(rec, "margin"))
        # The nearest other config: the eligible one whose ratio to the
        # best is nearest 1 on the log scale.
        near = None
        for v in (rec.get("verdicts") or []):
            r = num(v, "ratio")
            if v.get("verdict") in ("best", "disqualified") or r is None or r <= 0:
                continue
            if near is None or abs(math.log(r)) < abs(math.log(num(near, "ratio"))):
                near = v
        if near is None:
            same(where + " nearest other config", cell("nearest other config"), "")
            continue
        nc = configs[ids.index(near["config"])]
        for v in (nc.get("labels") or {}).values():
            if v not in cell("nearest other config"):
                errors.append("%s nearest: %r lacks label %r" % (where, cell("nearest other config"), v))
        verdict_phrase(where + " its verdict", cell("its verdict"), near, num(rec, "margin"))
        compare(where + " ratio", cell("ratio to best"), num(near, "ratio"))
        compare(where + " ratio CI low", cell("ratio CI low"), shown_ci(near, "low"))
        compare(where + " ratio CI high", cell("ratio CI high"), shown_ci(near, "high"))
        compare(where + " p_adj", cell("p_adj"), num(near, "p_adj"))


STATS = ["n", "mean", "sd", "se", "ci_low", "ci_high", "median", "min", "max",
         "q1", "q3", "p90", "p95", "p99", "mad", "cv", "geomean"]


def check_workload(w, rows):
    metric = (w.get("primary") or {}).get("metric")
    configs = w.get("configs") or []
    top = next((i for i, r in enumerate(rows) if r and r[0] == "config"), None)
    if top is None:
        errors.append("sheet %s: no stats table" % w["name"])
        return
    head = rows[top]
    n_index = head.index("n")
    keys = head[1:n_index]
    body = []
    for r in rows[top + 1:]:
        if not r or not r[0].strip():
            break
        body.append(r)
    same("sheet %s: stats rows" % w["name"], len(body), len(configs))
    for r in body:
        labels = {k: r[1 + i] for i, k in enumerate(keys) if r[1 + i] != ""}
        match = [c for c in configs if (c.get("labels") or {}) == labels]
        if len(match) != 1:
            errors.append("sheet %s: row %r matches %d configs" % (w["name"], r[0], len(match)))
            continue
        c = match[0]
        s = stats(c, metric)
        for k in STATS:
            compare("sheet %s, %s, %s" % (w["name"], c["id"], k), r[head.index(k)], num(s, k))
        compare("sheet %s, %s, max RSS" % (w["name"], c["id"]), r[head.index("max RSS (MiB)")], rss_mib(c))
        compare("sheet %s, %s, failed runs" % (w["name"], c["id"]), r[head.index("failed runs")],
                num(c, "failed_runs"))
        v = verdict_of(w, c["id"]) or {}
        verdict_phrase("sheet %s, %s, verdict" % (w["name"], c["id"]), r[head.index("verdict")], v,
                       num(w.get("recommendation") or {}, "margin"))
        for k, key in (("ratio to best", "ratio"), ("p_adj", "p_adj"),
                       ("runs needed", "runs_needed")):
            compare("sheet %s, %s, %s" % (w["name"], c["id"], k), r[head.index(k)], num(v, key))
        for end in ("low", "high"):
            compare("sheet %s, %s, ratio CI %s" % (w["name"], c["id"], end),
                    r[head.index("ratio CI " + end)], shown_ci(v, end))


def check_chart_data(w, rows):
    """A workload paired within rounds: its chart's cells hold what the
    report's means chart draws, the best's mean times each config's
    verdict ratio (the best: its own mean), and that ratio's interval
    times the best's mean (none for the best, a disqualified config or
    one without an interval, whose header cell, its legend entry, says
    why), a config a column, in the analysis's order."""
    rec = w.get("recommendation") or {}
    verdicts = rec.get("verdicts") or []
    if rec.get("blocks") != "round" or not verdicts:
        return
    metric = w["primary"]["metric"]
    configs = w["configs"]
    top = next((i for i, r in enumerate(rows)
                if r and r[0].startswith("Chart data: compared within rounds")), None)
    if top is None:
        if len(configs) <= 50:
            errors.append("sheet %s: no paired chart data" % w["name"])
        return
    best = rec.get("best")
    bm = next((num(stats(c, metric), "mean") for c in configs if c["id"] == best), None)
    k = len(configs)
    low, high = rows[top + 2 + k], rows[top + 3 + k]
    same("sheet %s: chart data rows" % w["name"], (low[0], high[0]),
         ("interval low", "interval high"))
    for i, c in enumerate(configs):
        v = verdict_of(w, c["id"]) or {}
        mean = num(stats(c, metric), "mean")
        dot, lo, hi = mean, None, None
        if mean is not None and c["id"] != best and v.get("verdict") not in (None, "best", "disqualified"):
            r, a, b = num(v, "ratio"), shown_ci(v, "low"), shown_ci(v, "high")
            if bm is not None and r is not None:
                dot = bm * r
            if bm is not None and a is not None and b is not None:
                lo, hi = sorted((bm * a, bm * b))
        where = "sheet %s, chart data, %s" % (w["name"], c["id"])
        # A config drawn without a bar (the best aside) says why in the
        # header cell that names its series in the legend.
        head = rows[top + 1][1 + i] if 1 + i < len(rows[top + 1]) else ""
        noted = head.endswith(("(interval not estimable)", "(disqualified: no interval)",
                               "(no mean)"))
        if noted != (c["id"] != best and lo is None):
            errors.append("%s: header %r %s why it has no bar" %
                          (where, head, "says" if noted else "does not say"))
        compare(where + ", dot", rows[top + 2 + i][1 + i], dot)
        compare(where + ", interval low", low[1 + i] if 1 + i < len(low) else "", lo)
        compare(where + ", interval high", high[1 + i] if 1 + i < len(high) else "", hi)


def check_matrix(w, rows):
    # checks x configs: a check is passed by a config when every value of
    # its bool metric is 1; "✗ k/n" when k of n are.
    configs = w.get("configs") or []
    top = next((i for i, r in enumerate(rows) if r and r[0] == "check"), None)
    if top is None:
        errors.append("sheet %s: no matrix" % w["name"])
        return
    head = rows[top]
    for r in rows[top + 1:]:
        if not r or not r[0].strip():
            break
        metric = [m for m in (configs[0].get("metrics") or {})
                  if m.endswith("_" + r[0] + "_ok") or m == r[0] + "_ok" or m == r[0]]
        if len(metric) != 1:
            errors.append("sheet %s: check %r names %d metrics" % (w["name"], r[0], len(metric)))
            continue
        for ci, c in enumerate(configs):
            vals = stats(c, metric[0]).get("values") or []
            ok = sum(1 for x in vals if x > 0)
            want = "" if not vals else "\u2713" if ok == len(vals) else "\u2717" if ok == 0 \
                else "\u2717 %d/%d" % (ok, len(vals))
            same("sheet %s, %s, %s" % (w["name"], r[0], c["id"]), r[1 + ci] if 1 + ci < len(r) else "",
                 want if want else "\u2014")


def main():
    analysis, csv_dir = sys.argv[1:3]
    a = json.load(open(analysis, encoding="utf-8"))
    sheets = read_sheets(csv_dir)
    recs = [rows for path, rows in sheets.items() if rows and rows[0][:1] == ["workload"]
            and "nearest other config" in rows[0]]
    if len(recs) != 1:
        sys.exit("check_xlsx: expected one Recommendations sheet in %s, found %d" % (csv_dir, len(recs)))
    check_recommendations(a, recs[0])
    for w in a["workloads"]:
        if not (w.get("primary") or {}).get("metric") or not w.get("configs"):
            continue
        # A workload sheet starts with the workload's name in A1 and holds
        # the "config" table; the sheet name itself may be shortened.
        first = "check" if categorical(w) else "config"
        found = [rows for rows in sheets.values()
                 if rows and rows[0][:1] == [w["name"]] and any(r[:1] == [first] for r in rows)]
        if len(found) != 1:
            errors.append("workload %s: expected one sheet, found %d" % (w["name"], len(found)))
            continue
        if categorical(w):
            check_matrix(w, found[0])
        else:
            check_workload(w, found[0])
            check_chart_data(w, found[0])
    for e in errors:
        print("check_xlsx: " + e, file=sys.stderr)
    print("check_xlsx: %d cells checked, %d mismatches" % (checked, len(errors)))
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
