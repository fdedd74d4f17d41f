// Command-line parsing shared by the workloads: `--name value` or
// `--name=value`; `--help` prints the options with their defaults. Values stay strings
// until the workload asks for a number, so a bad number is reported by name.

export function parseArgs(argv, defaults) {
  const opts = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) fail(`unexpected argument '${a}'`);
    let name = a.slice(2);
    let value;
    const eq = name.indexOf("=");
    if (eq >= 0) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    } else if (name === "help") {
      const script = String(process.argv[1] || "workload").split(/[\\/]/).pop();
      const list = Object.entries(defaults).map(([k, v]) => `[--${k} ${v === "" ? "VALUE" : v}]`);
      console.log(`usage: ${script} ${list.join(" ")}\n(defaults shown; see docs/workloads.md)`);
      process.exit(0);
    } else {
      if (i + 1 >= argv.length) fail(`option '--${name}' needs a value`);
      value = argv[++i];
    }
    if (!(name in defaults)) fail(`unknown option '--${name}' (known: ${Object.keys(defaults).map((k) => "--" + k).join(" ")})`);
    opts[name] = value;
  }
  return opts;
}

export function intOpt(opts, name, min = 0) {
  const s = String(opts[name]).replace(/_/g, "");
  const v = Number(s);
  if (!Number.isInteger(v) || v < min) fail(`--${name}: expected an integer >= ${min}, got '${opts[name]}'`);
  return v;
}

export function choiceOpt(opts, name, choices) {
  const v = String(opts[name]);
  if (!choices.includes(v)) fail(`--${name}: expected one of ${choices.join(", ")}, got '${v}'`);
  return v;
}

export function fail(msg) {
  const script = String(process.argv[1] || "workload").split(/[\\/]/).pop();
  console.error(`${script}: ${msg}`);
  process.exit(2);
}

// The rundown protocol: the runner stores `rundown:metric` lines as metrics
// of the run; `rundown:info` lines are kept in the log only.
export function metric(name, value) {
  const v = typeof value === "number" ? (Number.isInteger(value) ? String(value) : value.toFixed(3)) : String(value);
  console.log(`rundown:metric ${name}=${v}`);
}

export function info(name, value) {
  console.log(`rundown:info ${name}=${value}`);
}

// argv after the script name, the same on node, deno and bun (all three fill
// process.argv like node: [runtime, script, ...args]).
export function userArgs() {
  return process.argv.slice(2);
}
