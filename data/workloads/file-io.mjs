// file-io: write then read many small files in a fresh temporary directory,
// which is removed at the end (also on failure).
//
// Usage: {runtime} file-io.mjs [--api node|sync|native] [--files-1k N]
//        [--files-small N] [--small-bytes B] [--dir PARENT]
//   node    node:fs/promises, one file at a time (await in a loop)
//   sync    node:fs writeFileSync / readFileSync
//   native  Bun.write / Bun.file().text() on Bun, Deno.writeTextFile /
//           Deno.readTextFile on Deno (node:fs/promises on Node)
// Phase 1: N files of 1 KiB (study B: 1000); phase 2: N small files
// (study E: 10,000) of B bytes (default 100). Each read checks the size.
// Metrics: fileio_1k_write_ms, fileio_1k_read_ms, fileio_1k_total_ms,
// fileio_10k_write_ms, fileio_10k_read_ms, fileio_10k_total_ms.
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs, intOpt, choiceOpt, metric, info, userArgs } from "./lib/args.mjs";
import { runtimeName } from "./lib/runtime.mjs";

const opts = parseArgs(userArgs(), { api: "node", "files-1k": "1000", "files-small": "10000", "small-bytes": "100", dir: os.tmpdir() });
const api = choiceOpt(opts, "api", ["node", "sync", "native"]);
const n1k = intOpt(opts, "files-1k", 0);
const nSmall = intOpt(opts, "files-small", 0);
const smallBytes = intOpt(opts, "small-bytes", 1);
const rt = runtimeName();

function ops() {
  if (api === "sync") {
    return {
      write: async (p, s) => fs.writeFileSync(p, s),
      read: async (p) => fs.readFileSync(p, "utf8"),
    };
  }
  if (api === "native" && rt === "bun") {
    return { write: (p, s) => globalThis.Bun.write(p, s), read: (p) => globalThis.Bun.file(p).text() };
  }
  if (api === "native" && rt === "deno") {
    return { write: (p, s) => globalThis.Deno.writeTextFile(p, s), read: (p) => globalThis.Deno.readTextFile(p) };
  }
  return { write: (p, s) => fsp.writeFile(p, s), read: (p) => fsp.readFile(p, "utf8") };
}

async function phase(dir, name, count, bytes) {
  const { write, read } = ops();
  const sub = path.join(dir, name);
  fs.mkdirSync(sub);
  const body = "x".repeat(bytes - 1) + "\n";
  const files = Array.from({ length: count }, (_, k) => path.join(sub, `f${k}.txt`));
  let t0 = performance.now();
  for (const f of files) await write(f, body);
  const wms = performance.now() - t0;
  t0 = performance.now();
  let total = 0;
  for (const f of files) {
    const s = await read(f);
    if (s.length !== bytes) throw new Error(`${f}: read ${s.length} bytes, wrote ${bytes}`);
    total += s.length;
  }
  const rms = performance.now() - t0;
  metric(`fileio_${name}_write_ms`, wms);
  metric(`fileio_${name}_read_ms`, rms);
  metric(`fileio_${name}_total_ms`, wms + rms);
  return total;
}

const dir = fs.mkdtempSync(path.join(opts.dir, "rundown-fileio-"));
let code = 0;
try {
  let bytes = 0;
  if (n1k > 0) bytes += await phase(dir, "1k", n1k, 1024);
  if (nSmall > 0) bytes += await phase(dir, "10k", nSmall, smallBytes);
  info("fileio_config", `api=${api} runtime=${rt} files_1k=${n1k} files_small=${nSmall} small_bytes=${smallBytes} bytes_read=${bytes}`);
} catch (e) {
  console.error(`file-io: ${e.message}`);
  code = 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
