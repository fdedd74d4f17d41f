// cpu-heavycalc: heavyCalc(N) of study A, called C times (default 4) per run,
// the calls spread over the mechanism's W workers.
//
// Usage: {runtime} cpu-heavycalc.mjs [--mechanism sequential|worker|process]
//        [--workers W] [--iterations N] [--calls C]
// Metrics: heavycalc_total_ms (all calls, including starting and stopping the
// workers), heavycalc_per_call_ms (total / C, the paper's figure),
// heavycalc_call_mean_ms (mean time of one call measured inside its worker),
// tree_max_rss_kib (this process's peak RSS plus each child process's peak:
// an upper bound of the process tree's peak; worker threads are inside this
// process's RSS already).
// The checksum is printed as rundown:info and checked for the known N.
import { parseArgs, intOpt, choiceOpt, metric, info, userArgs } from "./lib/args.mjs";
import { runJobs, ownMaxRssKib } from "./lib/parallel.mjs";
import { checkSum } from "./lib/checksum.mjs";

const opts = parseArgs(userArgs(), { mechanism: "sequential", workers: "4", iterations: "10000000", calls: "4" });
const mechanism = choiceOpt(opts, "mechanism", ["sequential", "worker", "process"]);
const workers = intOpt(opts, "workers", 1);
const n = intOpt(opts, "iterations", 1);
const calls = intOpt(opts, "calls", 1);

const jobs = Array.from({ length: calls }, () => ({ from: 0, to: n }));
const t0 = performance.now();
let results;
try {
  results = await runJobs(mechanism, workers, jobs);
} catch (e) {
  console.error(`cpu-heavycalc: ${e.message}`);
  process.exit(1);
}
const total = performance.now() - t0;

metric("heavycalc_total_ms", total);
metric("heavycalc_per_call_ms", total / calls);
metric("heavycalc_call_mean_ms", results.reduce((a, r) => a + r.ms, 0) / calls);
metric("tree_max_rss_kib", ownMaxRssKib() + results.childMaxRssKib);
const sum = results[0].sum;
info("heavycalc_checksum", sum.toPrecision(17));
info("heavycalc_config", `mechanism=${mechanism} workers=${mechanism === "sequential" ? 1 : workers} iterations=${n} calls=${calls}`);
for (const r of results) {
  if (!checkSum(n, r.sum)) {
    console.error(`cpu-heavycalc: checksum ${r.sum} for N=${n} is not the expected value`);
    process.exit(1);
  }
}
