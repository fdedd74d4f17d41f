#!/usr/bin/env python3
"""cycles.py - call cycles between source files, from `nm` of the static
libraries (issue 27: one direction of calls; no call cycles between files).

    scripts/cycles.py [--write] ALLOWED LIB.a...

Each object file of the libraries is a node; a file that uses a symbol
another defines has an edge to it. Files in one strongly connected
component (more than one file) call each other round. ALLOWED lists the
components known today, one per line (files sorted, space-separated): a
component that is not inside one of them is a new cycle, and the check
fails naming it. --write rewrites ALLOWED from the libraries (only when a
cycle was removed: a list that shrinks is progress).
"""
import subprocess
import sys


def node(lib, obj):
    """"render/derive.c" for derive.c.o of build/render/librd_render.a."""
    name = lib.rsplit("/", 1)[-1]
    name = name[len("librd_"):] if name.startswith("librd_") else name
    return name[:-2] + "/" + obj[:-2] if name.endswith(".a") else name + "/" + obj


def graph(libs):
    defined, used = {}, {}
    for lib in libs:
        out = subprocess.run(["nm", "-A", "--defined-only", lib], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) < 3 or parts[-2] not in "TDBRCGSV":
                continue
            obj = node(lib, parts[0].split(":")[1])
            defined.setdefault(parts[-1], obj)
        out = subprocess.run(["nm", "-A", "--undefined-only", lib], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            obj = node(lib, parts[0].split(":")[1])
            used.setdefault(obj, set()).add(parts[-1])
    edges = {}
    for obj, syms in used.items():
        for s in syms:
            to = defined.get(s)
            if to and to != obj:
                edges.setdefault(obj, set()).add(to)
    return edges


def components(edges):
    """Tarjan's strongly connected components (iterative)."""
    index, low, on, stack, out, n = {}, {}, set(), [], [], [0]
    nodes = set(edges) | {t for ts in edges.values() for t in ts}
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = n[0]; n[0] += 1
        stack.append(root); on.add(root)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = n[0]; n[0] += 1
                    stack.append(nxt); on.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def main(argv):
    write = argv[:1] == ["--write"]
    if write:
        argv = argv[1:]
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    allowed_path, libs = argv[0], argv[1:]
    comps = components(graph(libs))
    if write:
        with open(allowed_path, "w") as f:
            f.write("# Call cycles between files known today (scripts/cycles.py): remove a\n"
                    "# line when its cycle is broken; never add one.\n")
            for c in comps:
                f.write(" ".join(c) + "\n")
        return 0
    allowed = [set(l.split()) for l in open(allowed_path)
               if l.strip() and not l.startswith("#")]
    new = [c for c in comps if not any(set(c) <= a for a in allowed)]
    for c in new:
        print("cycles: a new call cycle between files: " + " <-> ".join(c))
    if not new:
        print(f"cycles: {len(comps)} known cycle(s), no new one")
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
