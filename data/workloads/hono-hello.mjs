// hono-hello: study C's Hono app on each runtime — one route, GET / answering
// the JSON hello {"message":"Hello, World!"} through Hono's router and
// c.json(), served by the runtime's own server: @hono/node-server on Node
// (Hono's adapter over node:http), Deno.serve on Deno and Bun.serve on Bun
// (both take Hono's fetch handler directly). Hono and @hono/node-server come
// from npm, pinned in package.json.
//
// Usage: {runtime} hono-hello.mjs [--port P] [--host H]
// The port defaults to $PORT, else 3000 (the seed's). Prints
// `rundown:info ready ...` once it accepts connections; runs until
// SIGTERM/SIGINT.
import { Hono } from "hono";
import { parseArgs, intOpt, userArgs } from "./lib/args.mjs";
import { runtimeName } from "./lib/runtime.mjs";

const opts = parseArgs(userArgs(), { port: process.env.PORT || "3000", host: "127.0.0.1" });
const port = intOpt(opts, "port", 0);
const host = opts.host;
const rt = runtimeName();

const app = new Hono();
app.get("/", (c) => c.json({ message: "Hello, World!" }));

async function listen() {
  if (rt === "deno") {
    let ready;
    const listening = new Promise((r) => (ready = r));
    const server = globalThis.Deno.serve({ port, hostname: host, onListen: () => ready() }, app.fetch);
    await listening;
    return () => server.shutdown();
  }
  if (rt === "bun") {
    const server = globalThis.Bun.serve({ port, hostname: host, fetch: app.fetch });
    return async () => server.stop(true);
  }
  const { serve } = await import("@hono/node-server");
  const server = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(s));
    s.once("error", reject);
  });
  return () => new Promise((r) => server.close(() => r()));
}

try {
  const close = await listen();
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // close() waits for open connections: give it a second at most.
    await Promise.race([close(), new Promise((r) => setTimeout(r, 1000))]).catch(() => {});
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  console.log(`rundown:info ready url=http://${host}:${port}/ runtime=${rt} framework=hono pid=${process.pid}`);
} catch (e) {
  console.error(`hono-hello: ${e.stack || e.message}`);
  process.exit(1);
}
