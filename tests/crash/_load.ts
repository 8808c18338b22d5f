/**
 * The crash test's load: concurrent workers deploying processes, firing webhook events, sending inbox
 * messages, patching context and removing a process, each recording in a {@linkcode Ledger} only what was
 * acknowledged (a 2xx answer received).
 *
 * @module
 */

import type { ProcessConfigInput, RuntimeClient } from "../../src/api/client.ts";
import { freePort } from "../_ports.ts";

/** A seeded pseudo-random generator (mulberry32): floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the test knows of one process it deployed (the deploy was acknowledged). */
export interface Deployed {
  /** The webhook port, when it has a webhook trigger (then it was deployed started). */
  port?: number;
  /** Whether its inbox is enabled. */
  inbox: boolean;
  /** Acknowledged context writes: key -> value. */
  context: Map<string, string>;
  /** Contents of acknowledged inbox messages. */
  messages: Set<string>;
  /** Tokens of acknowledged webhook events. */
  events: Set<string>;
}

/** Every acknowledged operation, across cycles. */
export interface Ledger {
  /** Processes whose deploy was acknowledged and whose removal was never attempted. */
  live: Map<string, Deployed>;
  /** Processes whose removal was acknowledged (204). */
  removed: Set<string>;
  /** Every webhook token whose event was acknowledged (202), across all processes and cycles. */
  tokens: Set<string>;
}

/** An empty ledger. */
export function newLedger(): Ledger {
  return { live: new Map(), removed: new Set(), tokens: new Set() };
}

/** How each webhook event's token starts (the payload is `{"token": "<token>"}`). */
export const TOKEN_PREFIX = "tok-";
/** How each inbox message starts: its content is `[<prefix><seed> <tag>]`. */
export const NOTE_PREFIX = "note ";

/** The path every crash-test webhook trigger listens on. */
export const HOOK_PATH = "/hook";

/** The config of a crash-test process: the echo model, an inbox that holds plenty, maybe a webhook. */
function configOf(port: number | undefined, inbox: boolean): ProcessConfigInput {
  return {
    model: "openai-compatible:echo",
    instructions: "You are being crash tested.",
    inbox: inbox
      ? { enabled: true, max_messages: 1000, rate_limit_per_sender: 100_000, scan_with_guardrails: false }
      : { enabled: false },
    triggers: port === undefined
      ? []
      : [{ type: "webhook" as const, webhook_path: HOOK_PATH, webhook_port: port }],
  };
}

/** Where the load goes and how it is told to end. */
export interface LoadTarget {
  client: RuntimeClient;
  /** fetch for webhook posts (a client of its own, closed by the caller). */
  fetch: typeof fetch;
  ledger: Ledger;
  cycle: number;
  seed: number;
  /** Aborted at the kill: workers finish the call in flight (which fails) and stop. */
  signal: AbortSignal;
}

/** Counts of acknowledged operations by kind, for the log line of a cycle. */
export type LoadCounts = Record<"deploy" | "event" | "message" | "context" | "remove", number>;

/** Runs `workers` concurrent workers until `target.signal` aborts; resolves the acknowledged counts. */
export async function runLoad(target: LoadTarget, workers: number): Promise<LoadCounts> {
  const counts: LoadCounts = { deploy: 0, event: 0, message: 0, context: 0, remove: 0 };
  const state: { removing?: string } = {};
  await Promise.all(
    Array.from({ length: workers }, (_, worker) => work(target, { worker, counts, state })),
  );
  return counts;
}

async function work(
  target: LoadTarget,
  own: { worker: number; counts: LoadCounts; state: { removing?: string } },
): Promise<void> {
  const { ledger, cycle, signal } = target;
  const random = seededRandom(target.seed ^ (cycle * 7919 + own.worker * 104729));
  const pick = <T>(items: T[]): T | undefined => items[Math.floor(random() * items.length)];
  for (let n = 0; !signal.aborted; n++) {
    await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 20)));
    const live = [...ledger.live.entries()];
    const dice = random();
    const tag = `c${cycle}w${own.worker}n${n}`;
    let name: string | undefined;
    try {
      if (live.length < 3 || (dice < 0.06 && live.length < 40)) {
        name = `p${tag}`;
        const port = random() < 0.7 ? freePort() : undefined;
        const inbox = port !== undefined || random() < 0.5;
        await target.client.deploy(name, configOf(port, inbox), { start: port !== undefined });
        ledger.live.set(name, { port, inbox, context: new Map(), messages: new Set(), events: new Set() });
        own.counts.deploy++;
      } else if (dice < 0.5) {
        const [chosen, process] = pick(live.filter(([, p]) => p.port !== undefined)) ?? [];
        name = chosen;
        if (!name || !process?.port) continue;
        const token = `${TOKEN_PREFIX}${target.seed}-${tag}`;
        const answer = await target.fetch(`http://127.0.0.1:${process.port}${HOOK_PATH}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ token }),
        });
        await answer.body?.cancel();
        if (answer.status !== 202) continue;
        process.events.add(token);
        ledger.tokens.add(token);
        own.counts.event++;
      } else if (dice < 0.72) {
        const [chosen, process] = pick(live.filter(([, p]) => p.inbox)) ?? [];
        name = chosen;
        if (!name || !process) continue;
        const content = `[${NOTE_PREFIX}${target.seed} ${tag}]`;
        await target.client.sendMessage(name, content);
        process.messages.add(content);
        own.counts.message++;
      } else if (dice < 0.97 || own.state.removing !== undefined || live.length < 4) {
        const [chosen, process] = pick(live) ?? [];
        name = chosen;
        if (!name || !process) continue;
        const key = `k_${tag}`;
        const value = `v-${target.seed}-${tag}`;
        await target.client.updateContext(name, { [key]: value });
        process.context.set(key, value);
        own.counts.context++;
      } else {
        name = pick(live)?.[0];
        if (!name) continue;
        own.state.removing = name;
        ledger.live.delete(name); // an unacknowledged removal may or may not have happened
        await target.client.removeProcess(name);
        ledger.removed.add(name);
        own.counts.remove++;
      }
    } catch (error) {
      // Before the kill, only calls about the process being removed may fail (404 once it is gone).
      if (!signal.aborted && name !== own.state.removing) {
        throw new Error(`cycle ${cycle}: ${tag} failed before the kill`, { cause: error });
      }
    }
  }
}
