/**
 * The crash test (issue 13): `agentry runtime start` is SIGKILLed under load at `CRASH_CYCLES` (default 20)
 * random moments and restarted each time on the same data directory. The load, from four concurrent
 * workers, is deploys (some started with a webhook trigger, most with an inbox), webhook events (each payload
 * a unique token), inbox messages (unique contents), context PATCHes (unique keys and values) and at most
 * one removal per cycle. An operation counts as acknowledged when its 2xx answer was received before the
 * kill. The model is `openai-compatible:echo` on an in-test model server that records every prompt.
 *
 * After each restart (the runtime announces itself once the stored deployments are restored) it verifies:
 * - every acknowledged deploy exists, every acknowledged removal stays removed;
 * - every acknowledged context value is there;
 * - every acknowledged webhook event ran (the model saw its token as a run's trigger message) or is in the
 *   process's dead letters (`interrupted` when its run was in flight), once queued events drained;
 * - every acknowledged inbox message is still in the inbox or was shown to the model by a run;
 * - across all cycles, no webhook token was run twice.
 *
 * Broken promises are collected (each once) and reported together at the end, with the seed.
 * The seed is printed; replay one with `CRASH_SEED=<seed>` (it fixes the workers' choices and the kill
 * moments; the interleaving with the runtime still varies), e.g.
 * `CRASH_SEED=1234 CRASH_CYCLES=5 deno test --allow-all tests/crash/crash_test.ts`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { startModelServer } from "../../src/models/testing/mod.ts";
import { tempDir } from "../../src/_util/temp_dir.ts";
import { type Ledger, newLedger, runLoad, seededRandom } from "./_load.ts";
import { type KillableRuntime, startKillable } from "./_runtime.ts";
import { checkEvents, checkInbox, checkRunOnce, checkState, ModelIndex } from "./_verify.ts";

const SEED = Number(Deno.env.get("CRASH_SEED") ?? Math.floor(Math.random() * 2 ** 31));
const CYCLES = Number(Deno.env.get("CRASH_CYCLES") ?? 20);
/** Budget of one cycle: restart, checks, load until the kill. */
const CYCLE_MS = 20_000;
/** The kill comes this long after the load began, plus up to KILL_SPREAD_MS more (seeded). */
const KILL_MIN_MS = 100;
const KILL_SPREAD_MS = 900;
const WORKERS = 4;

interface Run {
  data: string;
  env: Record<string, string>;
  ledger: Ledger;
  model: ModelIndex;
  failures: string[];
  reported: Set<string>;
  /** Reasons of the dead letters that hold acknowledged events. */
  reasons: Map<string, number>;
  current?: KillableRuntime;
}

/** Restarts the runtime, checks what the previous kill left, then loads it and kills it after `killAfter`. */
async function cycle(run: Run, number: number, killAfter: number | undefined): Promise<void> {
  const began = Date.now();
  await using runtime = await startKillable(run.data, { env: run.env });
  run.current = runtime;
  const restarted = Date.now() - began;
  const { client } = runtime;
  if (number > 1) {
    const found = [
      ...await checkState(client, run.ledger),
      ...await checkEvents({
        ledger: run.ledger,
        model: run.model,
        deadLetters: runtime.deadLetters,
        reasons: run.reasons,
        ms: 6_000,
      }),
      ...await checkInbox(client, { ledger: run.ledger, model: run.model }),
      ...checkRunOnce(run.ledger, run.model, run.reported),
    ];
    run.failures.push(...found.map((failure) => `after kill ${number - 1}: ${failure}`));
  }
  if (killAfter === undefined) return;
  const http = Deno.createHttpClient({});
  try {
    const stop = new AbortController();
    const load = runLoad({
      client,
      fetch: (input, init) => fetch(input, { ...init, client: http }),
      ledger: run.ledger,
      cycle: number,
      seed: SEED,
      signal: stop.signal,
    }, WORKERS);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // A call failing before the kill ends the load early: the cycle fails with it.
      await Promise.race([load, new Promise((resolve) => timer = setTimeout(resolve, killAfter))]);
    } finally {
      clearTimeout(timer);
      stop.abort();
      await runtime.kill();
    }
    const counts = await load;
    console.log(
      `kill ${number}: restart ${restarted} ms, load ${killAfter} ms, acknowledged ${JSON.stringify(counts)}`,
    );
  } finally {
    http.close();
  }
}

/** Runs one cycle within CYCLE_MS: past it, the runtime is killed and the cycle fails. */
async function bounded(run: Run, number: number, killAfter: number | undefined): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let late = false;
  const watchdog = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      late = true;
      run.current?.kill().finally(resolve);
    }, CYCLE_MS);
  });
  const work = cycle(run, number, killAfter);
  try {
    await Promise.race([work, watchdog.then(() => work.catch(() => undefined))]);
  } catch (error) {
    if (!late) throw error; // past the budget, calls fail because the watchdog killed the runtime
  } finally {
    clearTimeout(timer);
  }
  if (late) throw new Error(`seed ${SEED}: cycle ${number} took more than ${CYCLE_MS} ms`);
}

/** Counts of failures by broken promise, e.g. `{"context lost": 12, "event lost": 3}`. */
function summary(failures: string[]): string {
  const counts: Record<string, number> = {};
  for (const failure of failures) {
    const kind = failure.split(": ")[1];
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return JSON.stringify(counts);
}

Deno.test({
  name: "SIGKILL under load, restart on the same data dir: nothing acknowledged is lost, no event runs twice",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  console.log(`crash test: seed ${SEED} (replay: CRASH_SEED=${SEED}), ${CYCLES} kills`);
  await using dir = await tempDir();
  await using model = startModelServer({ delayMs: 20 });
  const run: Run = {
    data: join(dir.path, "state"),
    env: { OPENAI_COMPATIBLE_BASE_URL: model.url },
    ledger: newLedger(),
    model: new ModelIndex(model.requests),
    failures: [],
    reported: new Set(),
    reasons: new Map(),
  };
  const random = seededRandom(SEED);
  try {
    for (let number = 1; number <= CYCLES + 1; number++) {
      const killAfter = number <= CYCLES ? KILL_MIN_MS + Math.floor(random() * KILL_SPREAD_MS) : undefined;
      await bounded(run, number, killAfter);
    }
  } finally {
    await run.current?.kill();
  }
  const acknowledged = [...run.ledger.live.values()];
  console.log(
    `crash test: ${run.ledger.live.size} processes, ${run.ledger.tokens.size} events, ` +
      `${acknowledged.reduce((n, p) => n + p.context.size, 0)} context values, ` +
      `${model.requests.length} model requests, dead letters ${
        JSON.stringify(Object.fromEntries(run.reasons))
      }`,
  );
  // After a crash an acknowledged event is dead-lettered only because its run was in flight (a removal takes
  // its letters with it); any other reason would mean the runtime gave up an event it should have run.
  assert.deepEqual([...run.reasons.keys()].filter((reason) => reason !== "interrupted"), []);
  assert.deepEqual(
    run.failures,
    [],
    `seed ${SEED}: ${run.failures.length} broken promises ${summary(run.failures)}`,
  );
  assert.ok(run.ledger.tokens.size > 0, "the load fired webhook events");
});
