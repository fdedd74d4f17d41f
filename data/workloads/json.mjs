// json: JSON.stringify then JSON.parse of an array of user objects
// (study B), repeated; the data is generated from a fixed seed, so every
// runtime handles the same bytes.
//
// Usage: {runtime} json.mjs [--users N] [--iterations K]
// Metrics: json_stringify_ms, json_parse_ms (sums over the K iterations),
// json_total_ms; json_bytes (size of one serialization).
import { parseArgs, intOpt, metric, info, userArgs } from "./lib/args.mjs";

const opts = parseArgs(userArgs(), { users: "100000", iterations: "3" });
const nUsers = intOpt(opts, "users", 1);
const iterations = intOpt(opts, "iterations", 1);

// mulberry32: a small seeded PRNG, the same sequence on every runtime.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = rng(42);
const NAMES = ["Ada", "Grace", "Linus", "Ken", "Barbara", "Edsger", "Donald", "Margaret", "Dennis", "Frances"];
const TAGS = ["admin", "beta", "staff", "trial", "vip", "eu", "us", "apac"];
const users = Array.from({ length: nUsers }, (_, id) => ({
  id,
  name: `${NAMES[id % NAMES.length]} ${Math.floor(rand() * 1e6).toString(36)}`,
  email: `user${id}@example.test`,
  age: 18 + Math.floor(rand() * 60),
  active: rand() < 0.7,
  score: Math.round(rand() * 1e6) / 100,
  tags: TAGS.filter(() => rand() < 0.25),
  address: { street: `${Math.floor(rand() * 999)} Main St`, city: "Springfield", zip: String(10000 + Math.floor(rand() * 89999)) },
  createdAt: new Date(1700000000000 + Math.floor(rand() * 3e10)).toISOString(),
}));

let sMs = 0;
let pMs = 0;
let bytes = 0;
let check = 0;
for (let k = 0; k < iterations; k++) {
  let t0 = performance.now();
  const s = JSON.stringify(users);
  sMs += performance.now() - t0;
  bytes = s.length;
  t0 = performance.now();
  const back = JSON.parse(s);
  pMs += performance.now() - t0;
  check += back.length + back[back.length - 1].id;
}
if (check !== iterations * (2 * nUsers - 1)) {
  console.error("json: parsed data does not match");
  process.exit(1);
}
metric("json_stringify_ms", sMs);
metric("json_parse_ms", pMs);
metric("json_total_ms", sMs + pMs);
metric("json_bytes", bytes);
info("json_config", `users=${nUsers} iterations=${iterations}`);
