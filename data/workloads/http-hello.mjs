// http-hello: the JSON hello server {"message":"Hello, World!"} on the
// runtime's native HTTP API, in one of four mechanisms:
//
//   sequential  one listener in the main thread
//   worker      W worker threads (node:worker_threads), each listening on the
//               same port with reusePort (SO_REUSEPORT: the kernel spreads
//               connections); the main thread only supervises
//   process     W child processes (node:child_process fork), each listening
//               on the same port with reusePort
//   cluster     node:cluster, W workers (the primary hands out connections)
//
// Usage: {runtime} http-hello.mjs [--mechanism M] [--workers W] [--port P]
//        [--host H] [--api native|node]
// The port defaults to $PORT, else 8080. Prints `rundown:info ready ...`
// once every listener accepts connections; runs until SIGTERM/SIGINT.
// Deno needs `run -A`, plus `--unstable-net` for reusePort (worker, process).
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, workerData, Worker } from "node:worker_threads";
import { parseArgs, intOpt, choiceOpt, userArgs } from "./lib/args.mjs";
import { serve } from "./lib/serve.mjs";
import { runtimeName } from "./lib/runtime.mjs";

const DEFAULTS = { mechanism: "sequential", workers: "4", port: process.env.PORT || "8080", host: "127.0.0.1", api: "native", role: "main" };

async function listener(o) {
  return serve({ port: o.port, host: o.host, reusePort: o.reusePort, api: o.api });
}

async function main() {
  if (!isMainThread) {
    // A listener thread of the worker mechanism.
    await listener(workerData);
    parentPort.postMessage("ready");
    return;
  }
  const opts = parseArgs(userArgs(), DEFAULTS);
  const mechanism = choiceOpt(opts, "mechanism", ["sequential", "worker", "process", "cluster"]);
  const workers = intOpt(opts, "workers", 1);
  const port = intOpt(opts, "port", 0);
  const api = choiceOpt(opts, "api", ["native", "node"]);
  const conf = { port, host: opts.host, api };

  if (opts.role === "listener") {
    // A child process of the process mechanism; it goes when its parent goes.
    await listener({ ...conf, reusePort: true });
    process.send("ready");
    process.on("disconnect", () => process.exit(0));
    return;
  }

  const stops = [];
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // close() waits for open connections: give each step a second at most.
    const second = () => new Promise((r) => setTimeout(r, 1000).unref?.());
    for (const f of stops) { try { await Promise.race([f(), second()]); } catch { /* already gone */ } }
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  const lost = (what, code) => {
    if (stopping) return;
    console.error(`http-hello: a listener ${what} exited (${code})`);
    process.exit(1);
  };
  if (mechanism === "sequential") {
    const s = await listener({ ...conf, reusePort: false });
    stops.push(() => s.close());
  } else if (mechanism === "worker") {
    const ws = [];
    for (let k = 0; k < workers; k++) {
      const w = new Worker(new URL(import.meta.url), { workerData: { ...conf, reusePort: true } });
      ws.push(w);
      stops.push(() => w.terminate());
    }
    await Promise.all(ws.map((w) => new Promise((resolve, reject) => {
      w.once("message", resolve);
      w.once("error", reject);
      w.once("exit", (c) => reject(new Error(`listener thread exited with ${c}`)));
    })));
    for (const w of ws) {
      w.removeAllListeners("exit");
      w.on("exit", (c) => lost("thread", c));
    }
  } else if (mechanism === "process") {
    const script = fileURLToPath(import.meta.url);
    const args = ["--role", "listener", "--port", String(port), "--host", opts.host, "--api", api];
    const cs = [];
    for (let k = 0; k < workers; k++) {
      const c = fork(script, args, { stdio: ["ignore", "inherit", "inherit", "ipc"] });
      cs.push(c);
      stops.push(() => c.kill("SIGTERM"));
    }
    await Promise.all(cs.map((c) => new Promise((resolve, reject) => {
      c.once("message", resolve);
      c.once("error", reject);
      c.once("exit", (code) => reject(new Error(`listener process exited with ${code}`)));
    })));
    for (const c of cs) {
      c.removeAllListeners("exit");
      // The process group's SIGTERM may reach a child before this process.
      c.on("exit", (code, sig) => (sig === "SIGTERM" || sig === "SIGINT" ? stop() : lost("process", code)));
    }
  } else {
    await clusterPrimary(conf, workers, stops);
  }
  console.log(`rundown:info ready url=http://${opts.host}:${port}/ runtime=${runtimeName()} mechanism=${mechanism} workers=${mechanism === "sequential" ? 1 : workers} api=${api} pid=${process.pid}`);
}

async function clusterPrimary(conf, workers, stops) {
  const cluster = (await import("node:cluster")).default;
  if (!cluster.isPrimary) return;
  const ws = [];
  for (let k = 0; k < workers; k++) {
    const w = cluster.fork({ RUNDOWN_CLUSTER_CONF: JSON.stringify(conf) });
    ws.push(w);
    stops.push(() => w.kill("SIGTERM"));
  }
  await Promise.all(ws.map((w) => new Promise((resolve, reject) => {
    w.once("message", resolve);
    w.once("exit", (code) => reject(new Error(`cluster worker exited with ${code}`)));
  })));
}

if (process.env.RUNDOWN_CLUSTER_CONF) {
  // A node:cluster worker. On Node the primary shares the port; Deno's and
  // Bun's node:cluster do not, so there the workers use reusePort instead.
  const conf = JSON.parse(process.env.RUNDOWN_CLUSTER_CONF);
  listener({ ...conf, reusePort: runtimeName() !== "node" })
    .then(() => process.send("ready"))
    .catch((e) => { console.error(`http-hello: ${e.message}`); process.exit(1); });
} else {
  main().catch((e) => { console.error(`http-hello: ${e.stack || e.message}`); process.exit(1); });
}
