// mixed: the hello server under load while heavyCalc runs in the same
// mechanism (study A's mixed scenario).
//
// Server: {runtime} mixed.mjs [--mechanism sequential|worker|process]
//         [--workers W] [--iterations N] [--port P] [--host H]
//         [--calc-after-ms D]
//   The main thread serves the JSON hello on the runtime's native API (as
//   http-hello's sequential mechanism). heavyCalc(N) — one call of N
//   iterations, split into W equal ranges — runs
//     sequential  in the main thread, between requests (the server stalls)
//     worker      in W worker threads (the event loop stays free)
//     process     in W forked child processes
//   A calculation starts on GET /heavycalc (answered when it ends with
//   {"heavycalc_total_ms":...,"checksum":...}) or, with --calc-after-ms D,
//   D ms after the server is ready. Each finished calculation also prints
//   rundown:metric heavycalc_total_ms=... on the server's stdout.
//   N defaults to 20,000,000: study A used 100,000,000, which takes 10–60 s
//   per run on this 2-core machine; 20M keeps each mixed run to a few seconds.
//
// Trigger: {runtime} mixed.mjs --trigger URL
//   GET URL (the server's /heavycalc), print rundown:metric
//   heavycalc_total_ms and heavycalc_trigger_wall_ms; exit 1 on failure. This
//   is the background command that runs beside the load tool.
import { parseArgs, intOpt, choiceOpt, metric, info, userArgs } from "./lib/args.mjs";
import { runJobs } from "./lib/parallel.mjs";
import { splitRange } from "./lib/heavycalc.mjs";
import { checkSum } from "./lib/checksum.mjs";
import { serve } from "./lib/serve.mjs";
import { runtimeName } from "./lib/runtime.mjs";

const opts = parseArgs(userArgs(), {
  mechanism: "sequential", workers: "4", iterations: "20000000",
  port: process.env.PORT || "8080", host: "127.0.0.1", "calc-after-ms": "-1", trigger: "",
});

if (opts.trigger) {
  const t0 = performance.now();
  try {
    const res = await fetch(opts.trigger);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = await res.json();
    if (typeof body.heavycalc_total_ms !== "number") throw new Error(`unexpected answer ${JSON.stringify(body)}`);
    metric("heavycalc_total_ms", body.heavycalc_total_ms);
    metric("heavycalc_trigger_wall_ms", performance.now() - t0);
    info("heavycalc_checksum", body.checksum);
    process.exit(body.ok ? 0 : 1);
  } catch (e) {
    console.error(`mixed: trigger ${opts.trigger}: ${e.message}`);
    process.exit(1);
  }
}

const mechanism = choiceOpt(opts, "mechanism", ["sequential", "worker", "process"]);
const workers = mechanism === "sequential" ? 1 : intOpt(opts, "workers", 1);
const n = intOpt(opts, "iterations", 1);
const port = intOpt(opts, "port", 0);
const after = Number(opts["calc-after-ms"]);

let running = null;
async function calc() {
  // One calculation at a time; a second trigger waits for the first.
  while (running) await running;
  const jobs = splitRange(n, workers).map(([from, to]) => ({ from, to }));
  const t0 = performance.now();
  running = runJobs(mechanism, workers, jobs);
  let results;
  try {
    results = await running;
  } finally {
    running = null;
  }
  const ms = performance.now() - t0;
  const sum = results.reduce((a, r) => a + r.sum, 0);
  const ok = checkSum(n, sum);
  metric("heavycalc_total_ms", ms);
  info("heavycalc_checksum", sum.toPrecision(17));
  if (!ok) console.error(`mixed: checksum ${sum} for N=${n} is not the expected value`);
  return { heavycalc_total_ms: Number(ms.toFixed(3)), checksum: sum.toPrecision(17), ok, iterations: n, mechanism, workers };
}

const server = await serve({ port, host: opts.host, extra: { "/heavycalc": calc } });
console.log(`rundown:info ready url=http://${opts.host}:${port}/ runtime=${runtimeName()} mechanism=${mechanism} workers=${workers} iterations=${n} pid=${process.pid}`);
const stop = async () => {
  // close() waits for open connections: a second at most.
  try { await Promise.race([server.close(), new Promise((r) => setTimeout(r, 1000))]); } catch { /* gone */ }
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
if (after >= 0) setTimeout(() => calc().catch((e) => console.error(`mixed: ${e.message}`)), after);
