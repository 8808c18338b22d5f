/**
 * The health detectors as pure functions over what a run or a process has done so far. No model calls.
 *
 * - **stuck**: the last `stuck_threshold` tool calls of one run are the same call (same tool, same
 *   arguments; arguments compared as JSON with sorted keys).
 * - **loop**: among the last `loop_window` tool calls of one run, a block of `L >= 2` calls (not all the
 *   same call: that is stuck) ends the sequence and is immediately preceded by equal blocks, so that the
 *   block occurs `loop_min_repeats` times or more back to back. Calls compare by tool and arguments, so
 *   `search(a) read(1) search(b) read(2)` is work, not a loop. The shortest such block is reported.
 * - **empty_response**: the final replies of the last `empty_threshold` successful runs were all empty
 *   (at most `empty_max_chars` characters after trimming). Tool results never count; failed runs neither
 *   count nor break the streak.
 * - **high_error_rate**: among the last `error_window` finished runs (each attempt of a retried event is a
 *   run; runs blocked by guardrails do not count), the share that failed is `error_rate_threshold` or
 *   more. It is checked only once `error_window` runs have finished.
 *
 * @module
 */

/** One tool call as the detectors see it. */
export interface ObservedCall {
  /** Tool name. */
  tool: string;
  /** Tool name and arguments as canonical JSON (sorted keys): equal keys are the same call. */
  key: string;
}

/** The four anomaly types. */
export type AnomalyType = "stuck" | "loop" | "empty_response" | "high_error_rate";

/** The anomaly types, in the order they are checked. */
export const ANOMALY_TYPES: readonly AnomalyType[] = ["stuck", "loop", "empty_response", "high_error_rate"];

/** A detector's finding: its description and facts. */
export interface Finding {
  /** Anomaly type. */
  type: AnomalyType;
  /** One sentence for operators. */
  description: string;
  /** Facts (tool names, counts); never tool arguments or replies. */
  details: Record<string, unknown>;
}

/** The call as the detectors compare it: tool name plus canonical JSON of the arguments. */
export function observeCall(tool: string, args: Record<string, unknown>): ObservedCall {
  return { tool, key: `${tool}\u0000${canonicalJson(args)}` };
}

/** JSON with object keys sorted at every depth. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return inner;
    const record = inner as Record<string, unknown>;
    return Object.fromEntries(Object.keys(record).sort().map((key) => [key, record[key]]));
  }) ?? "null";
}

/** Stuck: the last `threshold` calls are the same call. */
export function detectStuck(calls: readonly ObservedCall[], threshold: number): Finding | undefined {
  if (calls.length < threshold) return undefined;
  const last = calls[calls.length - 1];
  for (let i = calls.length - threshold; i < calls.length; i++) {
    if (calls[i].key !== last.key) return undefined;
  }
  return {
    type: "stuck",
    description: `the tool ${last.tool} was called ${threshold} times in a row with the same arguments`,
    details: { tool: last.tool, repeats: threshold },
  };
}

/** Loop: a block of calls repeated `minRepeats` times back to back at the end of the last `window` calls. */
export function detectLoop(
  calls: readonly ObservedCall[],
  options: { window: number; minRepeats: number },
): Finding | undefined {
  const recent = calls.slice(-options.window);
  const n = recent.length;
  if (n < 4) return undefined;
  for (let length = 2; length <= Math.floor(n / options.minRepeats); length++) {
    const block = recent.slice(n - length);
    if (block.every((call) => call.key === block[0].key)) continue; // one call repeated: stuck's business
    let repeats = 1;
    while (n - (repeats + 1) * length >= 0 && sameBlock(recent, n - (repeats + 1) * length, block)) repeats++;
    if (repeats >= options.minRepeats) {
      const pattern = block.map((call) => call.tool);
      return {
        type: "loop",
        description: `the tool calls ${pattern.join(" → ")} repeated ${repeats} times in a row`,
        details: { pattern, pattern_length: length, repeats },
      };
    }
  }
  return undefined;
}

function sameBlock(calls: readonly ObservedCall[], start: number, block: readonly ObservedCall[]): boolean {
  return block.every((call, i) => calls[start + i].key === call.key);
}

/** Whether a final reply counts as empty: at most `maxChars` characters after trimming. */
export function isEmptyReply(reply: string | null | undefined, maxChars: number): boolean {
  return (reply ?? "").trim().length <= maxChars;
}

/** Empty response: `streak` empty final replies in a row reached `threshold`. */
export function detectEmpty(streak: number, threshold: number): Finding | undefined {
  if (streak < threshold) return undefined;
  return {
    type: "empty_response",
    description: `the last ${streak} runs ended with an empty reply`,
    details: { empty_replies: streak },
  };
}

/** High error rate: over the last `window` outcomes (true = failed), once `window` runs are known. */
export function detectErrorRate(
  outcomes: readonly boolean[],
  options: { window: number; threshold: number },
): Finding | undefined {
  if (outcomes.length < options.window) return undefined;
  const recent = outcomes.slice(-options.window);
  const failed = recent.filter(Boolean).length;
  const rate = failed / recent.length;
  if (rate < options.threshold) return undefined;
  return {
    type: "high_error_rate",
    description: `${failed} of the last ${recent.length} runs failed`,
    details: { failed_runs: failed, window: recent.length, rate },
  };
}
