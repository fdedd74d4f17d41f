// fib-sort: study B's CPU pair: recursive Fibonacci(35), and sorting an array
// of numbers 100 times (a fresh copy of the same seeded array each time,
// numeric comparator).
//
// Usage: {runtime} fib-sort.mjs [--fib N] [--sorts K] [--size M]
// Metrics: fib_ms, sort_ms (all K sorts), fib_sort_total_ms.
import { parseArgs, intOpt, metric, info, userArgs } from "./lib/args.mjs";

const opts = parseArgs(userArgs(), { fib: "35", sorts: "100", size: "10000" });
const fibN = intOpt(opts, "fib", 0);
const sorts = intOpt(opts, "sorts", 0);
const size = intOpt(opts, "size", 1);

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

let t0 = performance.now();
const f = fib(fibN);
const fibMs = performance.now() - t0;

let seed = 12345;
const data = Array.from({ length: size }, () => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 4294967296;
});
let sorted = null;
t0 = performance.now();
for (let k = 0; k < sorts; k++) {
  sorted = data.slice().sort((a, b) => a - b);
}
const sortMs = performance.now() - t0;
if (sorted) {
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i - 1] > sorted[i]) { console.error("fib-sort: not sorted"); process.exit(1); }
  }
}
metric("fib_ms", fibMs);
metric("sort_ms", sortMs);
metric("fib_sort_total_ms", fibMs + sortMs);
info("fib_sort_config", `fib=${fibN} fib_value=${f} sorts=${sorts} size=${size}`);
