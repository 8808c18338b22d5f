/**
 * Seeded inputs for the control API and webhook fuzzer: a small PRNG, hostile JSON values, mutated bodies
 * and headers.
 *
 * @module
 */

/** A seeded pseudo-random source (mulberry32). */
export class Rng {
  #state: number;

  /** A source seeded with `seed`. */
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.#state += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** One item of `items`. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const STRINGS = [
  "",
  " ",
  "a",
  "5",
  "true",
  "null",
  "${HOME}",
  "${FUZZ_SECRET}",
  "../../etc/passwd",
  "/etc/passwd",
  "~/x",
  "\u0000",
  "\ud800",
  "é∑😀",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "__proto__",
  "constructor",
  "x".repeat(70),
  "y".repeat(5_000),
  "openai:gpt-5-mini",
  "nope:model",
  "*/5 * * * *",
  "a..b",
  "reports.*",
];

const KEYS = [
  "name",
  "config",
  "start",
  "state",
  "instructions",
  "model",
  "budget",
  "health",
  "mission",
  "enabled",
  "max_tool_calls",
  "escalation",
  "tool_costs",
  "content",
  "message_type",
  "priority",
  "ttl",
  "timeout",
  "sender_id",
  "metadata",
  "value",
  "target_entry_id",
  "mode",
  "actor",
  "reason",
  "type",
  "webhook_port",
  "triggers",
  "journal",
  "context",
  "initial_state",
  "writable_keys",
  "__proto__",
  "constructor",
  "prototype",
  "event_ids",
  "objective",
];

/** A random JSON value up to `depth` levels deep. */
export function jsonValue(rng: Rng, depth = 3): unknown {
  const kind = rng.int(depth > 0 ? 9 : 6);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick([0, -1, 1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 86400, 3601, 10001]);
    case 3:
    case 4:
      return rng.pick(STRINGS);
    case 5:
      return rng.int(1000);
    case 6:
      return Array.from({ length: rng.int(4) }, () => jsonValue(rng, depth - 1));
    default:
      return jsonObject(rng, depth - 1);
  }
}

/** A random JSON object with keys from the API's vocabulary. */
export function jsonObject(rng: Rng, depth = 2): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = rng.int(5); i > 0; i--) {
    Object.defineProperty(out, rng.pick(KEYS), {
      value: jsonValue(rng, depth),
      enumerable: true,
      configurable: true,
      writable: true,
    });
  }
  return out;
}

/** A request body: mostly JSON objects, sometimes broken JSON, scalars, deep nesting or huge text. */
export function body(rng: Rng): string | undefined {
  switch (rng.int(12)) {
    case 0:
      return undefined;
    case 1:
      return "{";
    case 2:
      return rng.pick(["[]", "1", '"x"', "null", "true", "{}", "  "]);
    case 3:
      return "[".repeat(5_000) + "]".repeat(5_000);
    case 4:
      return '{"a":' + '{"a":'.repeat(rng.pick([70, 3_000])) + "1" + "}".repeat(rng.pick([71, 3_001]));
    case 5:
      return JSON.stringify({
        name: rng.pick(STRINGS),
        config: jsonObject(rng, 3),
        start: jsonValue(rng, 0),
      });
    case 6:
      return "\xff\xfe{";
    default:
      return JSON.stringify(jsonObject(rng, 3));
  }
}

/** Headers for a request: a content type (sometimes wrong) and sometimes odd extras. */
export function headers(rng: Rng, token: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  const type = rng.pick([
    "application/json",
    "application/json",
    "text/plain",
    "",
    "application/x-www-form-urlencoded",
  ]);
  if (type) out["content-type"] = type;
  if (token !== null && !rng.chance(0.03)) out.authorization = `Bearer ${token}`;
  else if (rng.chance(0.5)) out.authorization = rng.pick(["Bearer wrong", "Basic eDp5", "Bearer", ""]);
  if (rng.chance(0.05)) out.origin = rng.pick(["http://evil.example", "null", "http://127.0.0.1:1"]);
  if (rng.chance(0.05)) out["x-webhook-signature"] = rng.pick(["sha256=00", "sha256=", "md5=1", "x"]);
  return out;
}
