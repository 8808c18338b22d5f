/**
 * A circuit breaker per tool: after repeated upstream failures the tool is paused for a while, then
 * one probe call decides whether it is healthy again.
 *
 * @module
 */

import { withRole } from "../chain.ts";
import { countsAsFailure, ToolError } from "../errors.ts";
import { isInputRequired } from "../input_required.ts";
import type { Middleware } from "../types.ts";
import { checkNumber, MIDDLEWARE_WORDING } from "./_options.ts";
import { checkOptionKeys } from "../../_util/option_keys.ts";

/** A circuit's state. */
export type CircuitState = "closed" | "open" | "half_open";

/** Options for {@linkcode circuitBreaker}. */
export interface CircuitBreakerOptions {
  /** Consecutive counting failures that open the circuit. @default 5 */
  failureThreshold?: number;
  /** Seconds an open circuit waits, from the last failure, before letting one probe through. @default 60 */
  recoveryTimeout?: number;
  /** Tool names never broken. @default [] */
  excludedTools?: Iterable<string>;
  /** Whether an error counts towards opening the circuit. @default countsAsFailure */
  isFailure?: (error: unknown) => boolean;
}

const CIRCUIT_BREAKER_KEYS = {
  failureThreshold: true,
  recoveryTimeout: true,
  excludedTools: true,
  isFailure: true,
} satisfies Record<keyof CircuitBreakerOptions, true>;

/** A circuit-breaker middleware with inspection and reset. */
export interface CircuitBreaker extends Middleware {
  /** The state of a tool's circuit (resources and prompts are keyed `<kind>:<name>`). */
  getState(tool: string): CircuitState;
  /** Closes one tool's circuit, or every circuit, and forgets its failures. */
  reset(tool?: string): void;
}

interface Circuit {
  open: boolean;
  failures: number;
  lastFailure: number;
  probing: boolean;
  // Bumped each time the circuit opens; results of calls admitted before then are ignored.
  generation: number;
}

/**
 * Opens a tool's circuit after `failureThreshold` consecutive counting failures and then refuses its
 * calls with a retryable `CIRCUIT_OPEN` until `recoveryTimeout` seconds after the last failure. Then
 * exactly one probe call passes (others are refused meanwhile): success closes the circuit, a counting
 * failure reopens it, and any other error leaves it half-open for the next probe. Errors that do not
 * count (caller-side refusals, non-retryable tool errors, client cancellation) leave the streak as is,
 * and so does a round that ends `input_required` (a 2026-07-28 call waiting for its client's answer): it
 * is neither a failure nor a success, and a probe that ends so leaves the circuit half-open for the next.
 * The server places its per-tool concurrency limiter just before the first breaker.
 *
 * @example
 * ```ts
 * import { circuitBreaker, createToolServer } from "@agentry/agentry/mcp";
 * const server = createToolServer({ name: "orders" });
 * const breaker = circuitBreaker({ failureThreshold: 3, recoveryTimeout: 30, excludedTools: ["health"] });
 * server.use(breaker);
 * breaker.getState("search"); // "closed"
 * ```
 */
export function circuitBreaker(options: CircuitBreakerOptions = {}): CircuitBreaker {
  const owner = "circuitBreaker";
  checkOptionKeys(options, { owner: owner, keys: CIRCUIT_BREAKER_KEYS, ...MIDDLEWARE_WORDING });
  const { failureThreshold = 5, recoveryTimeout = 60, isFailure = countsAsFailure } = options;
  checkNumber(owner, { name: "failureThreshold", value: failureThreshold, integer: true, min: 1 });
  checkNumber(owner, { name: "recoveryTimeout", value: recoveryTimeout });
  if (typeof isFailure !== "function") throw new TypeError(`${owner}: isFailure must be a function`);
  const excluded = new Set(options.excludedTools ?? []);
  const recoveryMs = recoveryTimeout * 1000;
  const circuits = new Map<string, Circuit>();

  const stateOf = (circuit: Circuit | undefined, now: number): CircuitState => {
    if (!circuit?.open) return "closed";
    return now - circuit.lastFailure >= recoveryMs ? "half_open" : "open";
  };

  // Not async: a closed circuit with no failures takes one `then` on the chain's promise.
  const middleware: Middleware = (ctx, next) => {
    const key = ctx.requestType === "tool" ? ctx.name : `${ctx.requestType}:${ctx.name}`;
    if (excluded.has(key)) return next();
    let circuit = circuits.get(key);
    if (!circuit) {
      circuit = { open: false, failures: 0, lastFailure: 0, probing: false, generation: 0 };
      circuits.set(key, circuit);
    }
    const now = Date.now();
    const state = stateOf(circuit, now);
    if (state === "open") {
      const label = `${ctx.requestType} '${ctx.name}'`;
      return Promise.reject(circuitOpenError(label, key, (circuit.lastFailure + recoveryMs - now) / 1000));
    }
    const probe = state === "half_open";
    if (probe) {
      if (circuit.probing) {
        return Promise.reject(
          circuitOpenError(`${ctx.requestType} '${ctx.name}'`, key, Math.min(recoveryTimeout, 1)),
        );
      }
      circuit.probing = true;
    }
    const admitted = circuit;
    const generation = admitted.generation;
    let running: Promise<unknown>;
    try {
      running = next();
    } catch (error) {
      running = Promise.reject(error);
    }
    return running.then((result) => {
      if (probe) admitted.probing = false;
      if (admitted.generation === generation) {
        admitted.open = false;
        admitted.failures = 0;
      }
      return result;
    }, (error) => {
      if (probe) admitted.probing = false;
      // A round that ended asking the client for input neither failed nor succeeded.
      if (isInputRequired(error)) throw error;
      const cancelled = ctx.signal.aborted && !(error instanceof ToolError);
      if (admitted.generation === generation && !cancelled && isFailure(error)) {
        admitted.failures++;
        admitted.lastFailure = Date.now();
        if (probe || admitted.failures >= failureThreshold) {
          admitted.open = true;
          admitted.generation++;
        }
      }
      throw error;
    });
  };

  return Object.assign(withRole(middleware, "circuit_breaker"), {
    getState: (tool: string) => stateOf(circuits.get(tool), Date.now()),
    reset: (tool?: string) => tool === undefined ? circuits.clear() : void circuits.delete(tool),
  });
}

function circuitOpenError(label: string, key: string, retryAfterSeconds: number): ToolError {
  const retry = Math.max(0.1, Math.ceil(retryAfterSeconds * 10 - 1e-6) / 10);
  const wait = Math.max(1, Math.ceil(retry));
  return new ToolError("CIRCUIT_OPEN", `Circuit open for ${label}. Retry after ${retry.toFixed(1)}s.`, {
    retryable: true,
    suggestion: `Wait about ${wait} second${wait === 1 ? "" : "s"} or continue without this tool`,
    details: { tool: key, retry_after_seconds: retry },
  });
}
