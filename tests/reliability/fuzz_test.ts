/**
 * A seeded fuzzer over the control API and a webhook trigger of the real binary (issue 14): every route of
 * the served OpenAPI document, with hostile bodies, wrong types, unknown and prototype keys, broken JSON,
 * deep nesting, wrong methods, content types and tokens; and the webhook with random bodies and signatures.
 *
 * It asserts: no 5xx other than the documented ones (500 START_FAILED, STOP_FAILED, RESTART_FAILED with their
 * fixed messages; webhook 503 with `Retry-After`), never the API token, a secret value or the HMAC secret in an
 * answer, and a runtime still healthy at the end. Replay with `FUZZ_SEED=<seed>`; `FUZZ_REQUESTS` changes the
 * count (default 3,000).
 *
 * @module
 */

import assert from "node:assert/strict";
import { startModelServer } from "../../src/models/testing/mod.ts";
import { freePort } from "../_ports.ts";
import { startRuntime } from "../_agent_harness.ts";
import { tempDir } from "../_cli_harness.ts";
import { body, headers, jsonValue, Rng } from "./_fuzz_inputs.ts";

const SECRET = `fuzz-secret-${crypto.randomUUID()}`;
const DOCUMENTED_500 = new Set(["START_FAILED", "STOP_FAILED", "RESTART_FAILED"]);
const EXCLUDED = new Set(["POST /api/v1/runtime/shutdown", "DELETE /api/v1/processes/{name}"]);
const METHODS = ["GET", "POST", "PATCH", "PUT", "DELETE"];

interface Route {
  method: string;
  path: string;
}

Deno.test("fuzzing the control API and a webhook: no undocumented 5xx, no secret echoed, still healthy", async () => {
  const seed = Number(Deno.env.get("FUZZ_SEED") ?? Math.floor(Math.random() * 2 ** 31));
  const total = Number(Deno.env.get("FUZZ_REQUESTS") ?? 3_000);
  console.log(`fuzz seed ${seed} (replay with FUZZ_SEED=${seed}), ${total} requests`);
  const rng = new Rng(seed);
  await using dir = await tempDir();
  await using model = await startModelServer();
  await using runtime = await startRuntime(["--data-dir", dir.path, "--allow-env-var", "FUZZ_SECRET"], {
    FUZZ_SECRET: SECRET,
    OPENAI_COMPATIBLE_BASE_URL: model.url,
  });
  const { url, token } = await runtime.cli.listening();
  const webhookPort = freePort();
  await runtime.client.deploy("target", {
    model: "openai-compatible:echo",
    instructions: "Fuzz target.",
    secrets: { enabled: true, secrets: { K: "${FUZZ_SECRET}" } },
    inbox: { enabled: true },
    triggers: [{
      type: "webhook",
      webhook_port: webhookPort,
      webhook_path: "/hook",
      hmac_secret: "${FUZZ_SECRET}",
    }],
  }, { start: true });
  const spec = await (await fetch(`${url}/api/v1/openapi.json`, {
    headers: { authorization: `Bearer ${token}` },
  })).json() as { paths: Record<string, Record<string, unknown>> };
  const routes: Route[] = Object.entries(spec.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path }))
  ).filter((r) => !EXCLUDED.has(`${r.method} ${r.path}`));
  assert.ok(
    routes.length > 30,
    `expected the whole API in the OpenAPI document, got ${routes.length} routes`,
  );

  // The webhook restarts whenever the fuzzer stops its process: a new connection per request, so a pooled
  // connection cut by a stop is not mistaken for an unanswered request.
  using fresh = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  const forbidden = [SECRET, token].filter((s): s is string => typeof s === "string" && s.length > 0);
  /** One request; true when it went to the webhook and got an answer. */
  async function one(i: number): Promise<boolean> {
    const webhook = rng.chance(0.25);
    const method = webhook ? rng.pick(["POST", "POST", "POST", "GET", "PUT"]) : undefined;
    const route = rng.pick(routes);
    const target = webhook
      ? `http://127.0.0.1:${webhookPort}${rng.pick(["/hook", "/hook", "/health", "/other"])}`
      : `${url}${fill(route.path, rng)}${rng.chance(0.1) ? `?limit=${fill("{limit}", rng)}` : ""}`;
    const picked = method ?? (rng.chance(0.85) ? route.method : rng.pick(METHODS));
    // A random method on a route's path may land on an excluded one (DELETE of the target): keep the target.
    const verb = webhook || !EXCLUDED.has(`${picked} ${route.path}`) ? picked : route.method;
    const text = verb === "GET" ? undefined : body(rng);
    // A question waits for its answer (a long poll): give it two seconds, then move on.
    const longPoll = !webhook && route.path.endsWith("/ask");
    let answer: Response;
    let answerText: string;
    try {
      const sent = headers(rng, webhook ? null : token);
      if (webhook && text !== undefined && rng.chance(0.4)) sent["x-webhook-signature"] = await sign(text);
      answer = await fetch(target, {
        method: verb,
        headers: sent,
        body: text,
        signal: AbortSignal.timeout(longPoll ? 2_000 : 20_000),
        client: webhook ? fresh : undefined,
      });
      if (answer.headers.get("content-type")?.includes("event-stream")) {
        await answer.body?.cancel();
        answerText = "";
      } else answerText = await answer.text();
    } catch (error) {
      if (longPoll && error instanceof DOMException && error.name === "TimeoutError") return false;
      // The fuzzer also stops, suspends and fails the target: its webhook is then closed (refused), as it should be.
      if (webhook && error instanceof TypeError) {
        await revive();
        return false;
      }
      problems.push(`#${i} ${verb} ${target}: no answer (${error})`);
      return false;
    }
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    for (const secret of forbidden) {
      if (answerText.includes(secret)) problems.push(`#${i} ${verb} ${target}: answer echoes a secret`);
    }
    if (answer.status < 500) return webhook;
    if (webhook && answer.status === 503 && answer.headers.has("retry-after")) return true;
    let code = "";
    try {
      code = JSON.parse(answerText).error?.code ?? "";
    } catch {
      // not JSON: reported below
    }
    if (!DOCUMENTED_500.has(code)) {
      problems.push(
        `#${i} ${verb} ${target} body ${text?.slice(0, 120)}: ${answer.status} ${answerText.slice(0, 200)}`,
      );
    }
    return webhook;
  }

  const started = Date.now();
  let next = 0;
  let reviving: Promise<unknown> | undefined;
  /** Brings the target back (one at a time), so the webhook keeps being fuzzed. */
  function revive(): Promise<unknown> {
    return reviving ??= runtime.client.resumeProcess("target")
      .catch(() => runtime.client.startProcess("target"))
      .catch(() => undefined)
      .finally(() => reviving = undefined);
  }
  let webhookAnswers = 0;
  await Promise.all(Array.from({ length: 6 }, async () => {
    while (next < total) {
      const i = next++;
      // Every 100 requests bring the target back (the fuzzer stops and suspends it too) so the webhook is fuzzed.
      if (i % 100 === 0) await revive();
      if (await one(i)) webhookAnswers++;
    }
  }));
  assert.ok(webhookAnswers > total / 20, `the webhook answered only ${webhookAnswers} requests`);
  const health = await fetch(`${url}/api/v1/health`);
  assert.equal(health.status, 200, await health.text());
  console.log(
    `fuzz: ${total} requests in ${
      ((Date.now() - started) / 1000).toFixed(1)
    } s, ${problems.length} problems;`,
    `statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
  );
  assert.deepEqual(problems.slice(0, 20), [], `seed ${seed}: ${problems.length} problems`);
  assert.ok(
    !runtime.cli.stderr.some((line) => /uncaught|panicked/i.test(line)),
    "the runtime logged a crash",
  );
});

/** `path` with its `{param}`s filled: mostly the target's real name, sometimes hostile strings. */
function fill(path: string, rng: Rng): string {
  return path.replaceAll(/\{(\w+)\}/g, (_, param: string) => {
    if (param === "name" && rng.chance(0.7)) return "target";
    const value = rng.chance(0.5)
      ? String(jsonValue(rng, 0))
      : rng.pick(["ghost", "K", "webhook-x", "..", "%2e%2e"]);
    if (value.startsWith("%")) return value;
    try {
      return encodeURIComponent(value);
    } catch {
      return "%ED%A0%80"; // a lone surrogate, percent-encoded as its (invalid) UTF-8 bytes
    }
  });
}

/** `sha256=<hex>` of `text` with the webhook's secret, so some fuzzed bodies are accepted and queued. */
async function sign(text: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(SECRET),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text)));
  return `sha256=${Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
