/**
 * Curation: a model designs a small tool surface for a parsed spec, code checks every rule and feeds
 * the violations back, up to `maxAttempts` fresh completions. On the last attempt sentences naming
 * tools the server will not have are removed rather than failing; any other violation left then is an
 * error. There is no silent fallback to the deterministic plan.
 *
 * @module
 */

import { McpcastError } from "../errors.ts";
import { jsonObjectIn } from "../model/mod.ts";
import type { McpcastPlan } from "../plan/mod.ts";
import type { ParsedSpec } from "../types.ts";
import { applyProposal } from "./apply.ts";
import { type CurationContext, curationContext } from "./context.ts";
import { type CurateOptions, type CurationResult, resolveCurateOptions } from "./options.ts";
import { phantomViolations, removePhantomSentences } from "./phantom.ts";
import { noJsonFeedback, systemPrompt, userPrompt, violationFeedback } from "./prompts.ts";
import { readProposal } from "./proposal.ts";
import { ruleViolations } from "./rules.ts";

/** Violations the final error lists; more are counted. */
const LISTED_VIOLATIONS = 10;

/** What one reply came to: a plan, or violations and the feedback for the next attempt. */
type Judgement =
  | { plan: McpcastPlan; renamed: Record<string, string[]>; removed: string[] }
  | { violations: string[]; feedback: string };

/** Judges one reply of the model (`last`: the last attempt, where phantom sentences are removed). */
function judge(reply: string, context: CurationContext, last: boolean): Judgement {
  const json = jsonObjectIn(reply);
  if (json === undefined) {
    return { violations: ["the reply contained no JSON object"], feedback: noJsonFeedback() };
  }
  const read = readProposal(json);
  if ("violations" in read) return { ...read, feedback: violationFeedback(read.violations, json) };
  let proposal = read.proposal;
  const rules = ruleViolations(proposal, context);
  let removed: string[] = [];
  if (last && rules.length === 0) ({ proposal, removed } = removePhantomSentences(proposal, context));
  const violations = [...rules, ...(last ? [] : phantomViolations(proposal, context))];
  if (violations.length > 0) return { violations, feedback: violationFeedback(violations, json) };
  const applied = applyProposal(proposal, context);
  if ("violations" in applied) return { ...applied, feedback: violationFeedback(applied.violations, json) };
  return { ...applied, removed };
}

/** `promise`, or a rejection with the signal's reason as soon as `signal` aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  const { promise: aborted, reject } = Promise.withResolvers<never>();
  const onAbort = () => reject(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}

function failure(attempts: number, violations: readonly string[]): McpcastError {
  const listed = violations.slice(0, LISTED_VIOLATIONS).join("; ");
  const more = violations.length > LISTED_VIOLATIONS
    ? ` (and ${violations.length - LISTED_VIOLATIONS} more)`
    : "";
  return new McpcastError(
    `curation failed after ${attempts} attempt(s): ${listed}${more}. Re-run with --no-curate for the ` +
      "deterministic plan, or try a stronger model or more attempts.",
  );
}

/**
 * The curated plan for `spec`: the model proposes a tool surface (merged routes, intent names,
 * descriptions for agents, a parameter diet) under a budget; code checks every rule, feeds violations
 * back and applies the safety profile. Everything not exposed is in the plan's `dropped`, with why.
 *
 * @throws {McpcastError} for invalid options or API settings, a spec with nothing mappable, a prompt
 * over 600,000 characters ("narrow the spec first"), a model that cannot be used, or a
 * proposal still breaking rules after the last attempt ("curation failed after N attempt(s): ...").
 * Rejects with the signal's reason when `signal` aborts.
 *
 * @example
 * ```ts ignore
 * const spec = await parseSpec("petstore.yaml");
 * const { plan, attempts } = await curate(spec, { model: "openai:gpt-5-mini", env: hostEnv, maxTools: 10 });
 * ```
 */
export async function curate(spec: ParsedSpec, options: CurateOptions): Promise<CurationResult> {
  const resolved = resolveCurateOptions(options);
  const { complete, maxAttempts, signal, onProgress } = resolved;
  signal?.throwIfAborted();
  const context = curationContext(spec, { ...options, ...resolved });
  const system = systemPrompt(context.maxTools);
  const prompt = userPrompt(context);
  const violations: string[][] = [];
  let feedback: string | undefined;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    signal?.throwIfAborted();
    onProgress({ kind: "attempt", attempt, maxAttempts });
    const user = feedback === undefined ? prompt : `${prompt}\n\n${feedback}`;
    const reply = await abortable(complete(system, user, signal), signal);
    const judged = judge(reply, context, attempt === maxAttempts);
    if ("plan" in judged) {
      const { plan, renamed, removed } = judged;
      onProgress({ kind: "done", attempts: attempt, tools: plan.tools.length, dropped: plan.dropped.length });
      return {
        plan,
        attempts: attempt,
        violations,
        renamed,
        removedSentences: removed,
        promptChars: prompt.length,
      };
    }
    violations.push(judged.violations);
    onProgress({ kind: "violations", attempt, violations: judged.violations });
    feedback = judged.feedback;
  }
  throw failure(maxAttempts, violations.at(-1) ?? []);
}
