// Which runtime runs this program, and its version, without relying on
// process.versions alone (Deno and Bun both emulate node's `process`).
export function runtimeName() {
  if (typeof globalThis.Bun !== "undefined") return "bun";
  if (typeof globalThis.Deno !== "undefined") return "deno";
  return "node";
}

export function runtimeVersion() {
  switch (runtimeName()) {
    case "bun": return globalThis.Bun.version;
    case "deno": return globalThis.Deno.version.deno;
    default: return process.versions.node;
  }
}
