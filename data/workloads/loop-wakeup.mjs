// loop-wakeup: study D's event-loop wake-up microbenchmark — N tasks are
// started together, each waits for one event-loop tick and resolves; the
// time is from starting the first task until the last has resumed. The
// seed's table (libuv against tokio's sleep(0) / yield_now / no-op, N =
// 10,000, 50,000, 100,000) changes sign with N, so the study runs N as a
// numeric matrix label and the report draws the scaling chart.
//
// Usage: {runtime} loop-wakeup.mjs [--tasks N] [--wake timer|immediate|microtask]
//        [--rounds R]
//   timer      each task awaits setTimeout(0) (the timer queue; tokio sleep(0))
//   immediate  each task awaits setImmediate (the next loop turn; yield_now)
//   microtask  each task awaits a resolved promise (no loop turn; no-op)
// One unmeasured round of N tasks first (JIT, allocation), then R measured
// rounds. Metrics: loop_wakeup_ms (mean time of a round of N tasks, start of
// the first to resumption of the last),
// loop_wakeup_task_ns (that / N, the seed's ns/op: the study's primary metric,
// since totals of different N are not comparable), loop_wakeup_min_ms.
import { parseArgs, intOpt, choiceOpt, metric, info, userArgs } from "./lib/args.mjs";
import { runtimeName } from "./lib/runtime.mjs";

const opts = parseArgs(userArgs(), { tasks: "10000", wake: "timer", rounds: "5" });
const n = intOpt(opts, "tasks", 1);
const wake = choiceOpt(opts, "wake", ["timer", "immediate", "microtask"]);
const rounds = intOpt(opts, "rounds", 1);

const tick = {
  timer: () => new Promise((r) => setTimeout(r, 0)),
  immediate: () => new Promise((r) => setImmediate(r)),
  microtask: () => Promise.resolve(),
}[wake];

async function task(done) {
  await tick();
  done.count++;
}

async function round() {
  const done = { count: 0 };
  const t0 = performance.now();
  const all = new Array(n);
  for (let k = 0; k < n; k++) all[k] = task(done);
  await Promise.all(all);
  const ms = performance.now() - t0;
  if (done.count !== n) throw new Error(`${done.count} of ${n} tasks resumed`);
  return ms;
}

try {
  await round();
  let sum = 0;
  let min = Infinity;
  for (let r = 0; r < rounds; r++) {
    const ms = await round();
    sum += ms;
    min = Math.min(min, ms);
  }
  const mean = sum / rounds;
  metric("loop_wakeup_ms", mean);
  metric("loop_wakeup_task_ns", (mean * 1e6) / n);
  metric("loop_wakeup_min_ms", min);
  info("loop_wakeup_config", `runtime=${runtimeName()} tasks=${n} wake=${wake} rounds=${rounds}`);
} catch (e) {
  console.error(`loop-wakeup: ${e.message}`);
  process.exit(1);
}
