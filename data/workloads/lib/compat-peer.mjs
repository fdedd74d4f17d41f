// The other side of compat.mjs's built-in checks: started as a worker thread
// (node:worker_threads), a child process (node:child_process fork) or a
// node:cluster worker, it answers one message {n} with {n, square, pid} and
// exits, so each check proves that messages go both ways.
import { isMainThread, parentPort } from "node:worker_threads";

const reply = (m) => ({ n: m.n, square: m.n * m.n, pid: process.pid });

if (!isMainThread) {
  parentPort.once("message", (m) => parentPort.postMessage(reply(m)));
} else if (typeof process.send === "function") {
  process.once("message", (m) => process.send(reply(m), () => process.exit(0)));
} else {
  console.error("compat-peer: start me as a worker thread, a forked child or a cluster worker");
  process.exit(2);
}
