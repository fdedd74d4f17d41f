// One HTTP listener on the runtime's own server API (node:http on Node,
// Deno.serve on Deno, Bun.serve on Bun), or on node:http everywhere with
// api = "node" (study B: Deno through node:http is a different result).
//
// Every path answers the JSON hello, except the paths in `extra`
// ({"/path": async () => object}), which answer the object as JSON.
import { runtimeName } from "./runtime.mjs";

export const HELLO = JSON.stringify({ message: "Hello, World!" });
const JSON_TYPE = "application/json";

// Resolves once the listener accepts connections; the value has close().
export async function serve({ port, host = "127.0.0.1", reusePort = false, api = "native", extra = null }) {
  const rt = runtimeName();
  if (api === "native" && rt === "deno") return serveDeno(port, host, reusePort, extra);
  if (api === "native" && rt === "bun") return serveBun(port, host, reusePort, extra);
  return serveNode(port, host, reusePort, extra);
}

function pathOf(url) {
  // Deno and Bun give an absolute URL, node:http the path.
  const q = url.indexOf("?");
  const s = q >= 0 ? url.slice(0, q) : url;
  if (s.startsWith("/")) return s;
  const i = s.indexOf("/", s.indexOf("//") + 2);
  return i >= 0 ? s.slice(i) : "/";
}

async function serveNode(port, host, reusePort, extra) {
  const http = await import("node:http");
  const server = http.createServer((req, res) => {
    if (extra) {
      const f = extra[pathOf(req.url)];
      if (f) {
        Promise.resolve(f()).then((obj) => {
          res.writeHead(200, { "content-type": JSON_TYPE });
          res.end(JSON.stringify(obj));
        }, (err) => {
          res.writeHead(500, { "content-type": JSON_TYPE });
          res.end(JSON.stringify({ error: String(err) }));
        });
        return;
      }
    }
    res.writeHead(200, { "content-type": JSON_TYPE });
    res.end(HELLO);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    const o = { port, host };
    if (reusePort) o.reusePort = true;
    server.listen(o, resolve);
  });
  return { close: () => new Promise((r) => server.close(() => r())) };
}

function fetchHandler(extra) {
  const headers = { "content-type": JSON_TYPE };
  if (!extra) return () => new Response(HELLO, { headers });
  return async (req) => {
    const f = extra[pathOf(req.url)];
    if (f) {
      try {
        return new Response(JSON.stringify(await f()), { headers });
      } catch (err) {
        return new Response(JSON.stringify({ error: String(err) }), { status: 500, headers });
      }
    }
    return new Response(HELLO, { headers });
  };
}

async function serveDeno(port, host, reusePort, extra) {
  let ready;
  const listening = new Promise((r) => (ready = r));
  const o = { port, hostname: host, onListen: () => ready() };
  if (reusePort) o.reusePort = true; // needs --unstable-net
  const server = globalThis.Deno.serve(o, fetchHandler(extra));
  await listening;
  return { close: () => server.shutdown() };
}

async function serveBun(port, host, reusePort, extra) {
  const o = { port, hostname: host, fetch: fetchHandler(extra) };
  if (reusePort) o.reusePort = true;
  const server = globalThis.Bun.serve(o);
  return { close: async () => server.stop(true) };
}
