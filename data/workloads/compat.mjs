// compat: import and basic use of popular npm packages (study E): express,
// lodash, axios, date-fns, zod; sharp, whose native addon comes prebuilt in
// an npm optional dependency (@img/sharp-<platform>); and the built-ins a
// migration needs: node:worker_threads, node:child_process, node:cluster,
// node:sqlite. Each check runs on its own; one that fails to import or to
// work is reported as 0 — a result, not a crash.
// The network is never used: express and axios talk to servers on
// 127.0.0.1 that this program starts on a free port.
//
// Usage: {runtime} compat.mjs [--only PKG[,PKG...]]
// Metrics: compat_<pkg>_ok (1 or 0) for each check (the key is the name with
// every character outside [a-z0-9] as "_": compat_node_sqlite_ok), compat_ok_count,
// compat_<pkg>_ms (time to import and exercise it). The reason for a 0 goes
// to stderr and as rundown:info compat_<pkg>_error.
// Exit status 0 even when packages fail; 1 only if this program itself breaks.
import * as http from "node:http";
import { fileURLToPath } from "node:url";
import { parseArgs, metric, info, userArgs } from "./lib/args.mjs";

const opts = parseArgs(userArgs(), { only: "" });

function assert(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
}

// A server on 127.0.0.1 with a kernel-chosen port; resolves to {port, close}.
function listen(server) {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve({
      port: server.address().port,
      close: () => new Promise((r) => server.close(() => r())),
    }));
  });
}

// The peer of the worker, child-process and cluster checks (lib/compat-peer.mjs).
const PEER = new URL("./lib/compat-peer.mjs", import.meta.url);

// Sends {n: 12} to a peer and checks that the answer comes from it.
function exchange(peer, send, pidOf) {
  return new Promise((resolve, reject) => {
    peer.once("message", (m) => {
      try {
        assert(m && m.square === 144, "the peer answers 12 squared");
        assert(pidOf(m), "the answer comes from the expected process");
        resolve();
      } catch (e) {
        reject(e);
      }
    });
    peer.once("error", reject);
    peer.once("exit", (code) => reject(new Error(`the peer exited (${code}) before answering`)));
    send({ n: 12 });
  });
}

const CHECKS = {
  async express() {
    const express = (await import("express")).default;
    const app = express();
    app.use(express.json());
    app.get("/hello/:name", (req, res) => res.json({ hello: req.params.name }));
    app.post("/echo", (req, res) => res.json({ got: req.body }));
    const srv = await listen(http.createServer(app));
    try {
      const a = await (await fetch(`http://127.0.0.1:${srv.port}/hello/rundown`)).json();
      assert(a.hello === "rundown", "GET /hello/:name");
      const b = await (await fetch(`http://127.0.0.1:${srv.port}/echo`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ x: 1 }),
      })).json();
      assert(b.got && b.got.x === 1, "POST /echo with express.json()");
    } finally {
      await srv.close();
    }
  },
  async lodash() {
    const _ = (await import("lodash")).default;
    assert(JSON.stringify(_.chunk([1, 2, 3, 4, 5], 2)) === "[[1,2],[3,4],[5]]", "chunk");
    const g = _.groupBy(["one", "two", "three"], "length");
    assert(g[3].length === 2 && g[5][0] === "three", "groupBy");
    assert(_.get({ a: { b: [{ c: 7 }] } }, "a.b[0].c") === 7, "get");
    const d = _.debounce(() => {}, 10);
    assert(typeof d.cancel === "function", "debounce");
    assert(_.isEqual(_.cloneDeep({ a: [1, { b: 2 }] }), { a: [1, { b: 2 }] }), "cloneDeep/isEqual");
  },
  async axios() {
    const axios = (await import("axios")).default;
    const srv = await listen(http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ method: req.method, url: req.url, body: body ? JSON.parse(body) : null }));
      });
    }));
    try {
      const base = `http://127.0.0.1:${srv.port}`;
      const g = await axios.get(`${base}/items`, { params: { q: "x" }, timeout: 5000 });
      assert(g.status === 200 && g.data.method === "GET" && g.data.url === "/items?q=x", "get with params");
      const p = await axios.post(`${base}/items`, { n: 2 }, { timeout: 5000 });
      assert(p.data.method === "POST" && p.data.body.n === 2, "post JSON");
    } finally {
      await srv.close();
    }
  },
  async "date-fns"() {
    const { format, addDays, differenceInCalendarDays, parseISO } = await import("date-fns");
    const d = parseISO("2026-11-30T12:00:00");
    assert(format(addDays(d, 3), "yyyy-MM-dd") === "2026-12-03", "addDays/format");
    assert(differenceInCalendarDays(parseISO("2027-01-01"), d) === 32, "differenceInCalendarDays");
  },
  async zod() {
    const { z } = await import("zod");
    const User = z.object({ name: z.string().min(1), age: z.number().int().nonnegative(), email: z.string().email().optional() });
    const ok = User.safeParse({ name: "Ada", age: 36 });
    assert(ok.success && ok.data.name === "Ada", "valid object parses");
    const bad = User.safeParse({ name: "", age: -1 });
    assert(!bad.success && bad.error.issues.length === 2, "invalid object gives two issues");
  },
  async sharp() {
    const sharp = (await import("sharp")).default;
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .png().toBuffer();
    const small = await sharp(png).resize(16, 12).jpeg().toBuffer();
    const meta = await sharp(small).metadata();
    assert(meta.format === "jpeg" && meta.width === 16 && meta.height === 12, "PNG -> resize -> JPEG");
    const { data } = await sharp(small).raw().toBuffer({ resolveWithObject: true });
    assert(data.length === 16 * 12 * 3 && data[0] > 150 && data[1] < 100, "decoded pixels keep the colour");
  },
  async "node:worker_threads"() {
    const { Worker } = await import("node:worker_threads");
    const w = new Worker(PEER);
    try {
      await exchange(w, (m) => w.postMessage(m), (m) => m.pid === process.pid);
    } finally {
      await w.terminate();
    }
  },
  async "node:child_process"() {
    const { fork, execFileSync } = await import("node:child_process");
    const c = fork(fileURLToPath(PEER), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    try {
      await exchange(c, (m) => c.send(m), (m) => m.pid === c.pid && m.pid !== process.pid);
    } finally {
      c.kill();
    }
    const out = execFileSync("sh", ["-c", "echo rundown"], { encoding: "utf8" });
    assert(out === "rundown\n", "execFileSync output");
  },
  async "node:cluster"() {
    const cluster = (await import("node:cluster")).default;
    assert(cluster.isPrimary, "this process is the primary");
    cluster.setupPrimary({ exec: fileURLToPath(PEER), args: [], silent: false });
    const w = cluster.fork();
    try {
      await exchange(w, (m) => w.send(m), (m) => m.pid === w.process.pid && m.pid !== process.pid);
    } finally {
      w.kill();
    }
  },
  async "node:sqlite"() {
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(":memory:");
    try {
      db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
      const insert = db.prepare("INSERT INTO t (name) VALUES (?)");
      for (const name of ["node", "deno", "bun"]) insert.run(name);
      const rows = db.prepare("SELECT id, name FROM t WHERE name > ? ORDER BY id").all("c");
      assert(rows.length === 2 && rows[0].name === "node" && rows[1].name === "deno" && rows[1].id === 2, "insert and select");
    } finally {
      db.close();
    }
  },
};

const names = opts.only ? opts.only.split(",") : Object.keys(CHECKS);
let okCount = 0;
for (const name of names) {
  const check = CHECKS[name];
  if (!check) {
    console.error(`compat: unknown package '${name}' (known: ${Object.keys(CHECKS).join(", ")})`);
    process.exit(2);
  }
  const key = name.replace(/[^a-z0-9]/g, "_");
  const t0 = performance.now();
  let ok = 0;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => setTimeout(() => reject(new Error("timed out after 10 s")), 10000).unref?.()),
    ]);
    ok = 1;
  } catch (e) {
    const msg = String(e && e.message ? e.message : e).split("\n")[0];
    console.error(`compat: ${name}: ${msg}`);
    info(`compat_${key}_error`, JSON.stringify(msg));
  }
  okCount += ok;
  metric(`compat_${key}_ok`, ok);
  metric(`compat_${key}_ms`, performance.now() - t0);
}
metric("compat_ok_count", okCount);
process.exit(0);
