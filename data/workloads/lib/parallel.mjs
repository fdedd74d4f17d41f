// Run jobs on the study's parallelism mechanisms. A job is a message
// ({from, to} for heavyCalc) handled by calc-worker.mjs, which runs either as
// a worker thread or as a forked child process and answers {sum, ms}.
//
//   sequential  every job in this thread, one after the other
//   worker      W node:worker_threads Workers; jobs handed out as they free up
//   process     W node:child_process fork()ed children, the same way
//
// Worker/process start-up is part of the measured time: it is part of what a
// program pays for the mechanism (the published study did the same).
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { heavyCalcRange } from "./heavycalc.mjs";

const WORKER_URL = new URL("../calc-worker.mjs", import.meta.url);

// Resolves to the list of results, in job order. With the process
// mechanism, results.childMaxRssKib is the sum over the child processes of
// each one's peak RSS (KiB): added to the parent's own peak it bounds the
// peak of the whole process tree from above.
export async function runJobs(mechanism, workers, jobs) {
  if (mechanism === "sequential") return Object.assign(jobs.map(runLocal), { childMaxRssKib: 0 });
  const pool = mechanism === "worker" ? threadPool(workers) : processPool(workers);
  try {
    const results = new Array(jobs.length);
    const peak = new Array(pool.members.length).fill(0);
    let next = 0;
    await Promise.all(pool.members.map(async (m, w) => {
      while (next < jobs.length) {
        const k = next++;
        results[k] = await m.run(jobs[k]);
        peak[w] = Math.max(peak[w], results[k].maxrss_kib || 0);
      }
    }));
    results.childMaxRssKib = peak.reduce((a, b) => a + b, 0);
    return results;
  } finally {
    await pool.close();
  }
}

// This process's peak RSS in KiB (the same unit on node, deno and bun).
export function ownMaxRssKib() {
  return process.resourceUsage().maxRSS;
}

function runLocal(job) {
  const t0 = performance.now();
  const sum = heavyCalcRange(job.from, job.to);
  return { sum, ms: performance.now() - t0 };
}

function member(send, onMessage, onFail) {
  let pending = null;
  onMessage((msg) => { const p = pending; pending = null; if (p) p.resolve(msg); });
  onFail((err) => { const p = pending; pending = null; if (p) p.reject(err); });
  return {
    run: (job) => new Promise((resolve, reject) => { pending = { resolve, reject }; send(job); }),
  };
}

function threadPool(n) {
  const ws = [];
  const members = [];
  for (let k = 0; k < n; k++) {
    const w = new Worker(WORKER_URL);
    ws.push(w);
    members.push(member((j) => w.postMessage(j), (f) => w.on("message", f), (f) => {
      w.on("error", f);
      w.on("exit", (c) => f(new Error(`worker thread exited with ${c}`)));
    }));
  }
  return { members, close: async () => { await Promise.all(ws.map((w) => w.terminate())); } };
}

function processPool(n) {
  const cs = [];
  const members = [];
  const script = fileURLToPath(WORKER_URL);
  for (let k = 0; k < n; k++) {
    const c = fork(script, ["--role", "child"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    cs.push(c);
    members.push(member((j) => c.send(j), (f) => c.on("message", f), (f) => {
      c.on("error", f);
      c.on("exit", (code) => f(new Error(`child process exited with ${code}`)));
    }));
  }
  return {
    members,
    close: async () => {
      await Promise.all(cs.map((c) => new Promise((r) => {
        if (c.exitCode !== null || c.signalCode !== null) return r();
        c.removeAllListeners("exit");
        c.once("exit", r);
        c.disconnect();
      })));
    },
  };
}
