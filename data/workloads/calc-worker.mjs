// The job side of lib/parallel.mjs: as a worker thread (parentPort) or as a
// forked child process (process.send), compute heavyCalc over [from, to) for
// each message and answer {sum, ms}; a child process also answers its peak
// RSS (maxrss_kib), so the parent can report the whole tree's memory. A
// child leaves when its parent disconnects.
import { isMainThread, parentPort } from "node:worker_threads";
import { heavyCalcRange } from "./lib/heavycalc.mjs";

function handle(job) {
  const t0 = performance.now();
  const sum = heavyCalcRange(job.from, job.to);
  return { sum, ms: performance.now() - t0 };
}

if (!isMainThread) {
  parentPort.on("message", (job) => parentPort.postMessage(handle(job)));
} else if (typeof process.send === "function") {
  process.on("message", (job) => {
    const r = handle(job);
    r.maxrss_kib = process.resourceUsage().maxRSS;
    process.send(r);
  });
  process.on("disconnect", () => process.exit(0));
} else {
  console.error("calc-worker.mjs: run by cpu-heavycalc.mjs or mixed.mjs, not directly");
  process.exit(2);
}
