/**
 * EscalationTarget: where budget, health and mission escalations are sent.
 *
 * @module
 */

import type { z } from "zod";
import { boolean, httpUrl, nonEmptyString, strictObject } from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";

/**
 * Where escalations go: a webhook to POST them to, an event to emit on the event bus, or both. At least
 * one of the two is required. The same shape is written and resolved.
 */
export interface EscalationTarget {
  /** http(s) URL each escalation is POSTed to as JSON. May hold `${VAR}` references. */
  webhook_url?: string;
  /**
   * Event type emitted on the runtime's event bus for each escalation (data: the escalation body, source: the
   * process name), so `event` triggers of that type wake. A non-empty string.
   */
  event_type?: string;
  /**
   * Lets `webhook_url` name a loopback, private or link-local address (refused otherwise, when sending).
   * @default false
   */
  allow_private_network?: boolean;
}

const TARGET_WORDS = "an escalation target object with webhook_url, event_type or both";

function targetSchema(noun: string): z.ZodType<EscalationTarget, EscalationTarget> {
  return exactly(
    strictObject({
      webhook_url: httpUrl("an http(s) URL to POST escalations to").optional(),
      event_type: nonEmptyString("a non-empty event type to emit on the event bus").optional(),
      allow_private_network: boolean().optional(),
    }, { noun }).superRefine((target, ctx) => {
      if (target.webhook_url === undefined && target.event_type === undefined) {
        ctx.addIssue({ code: "custom", path: [], message: `${TARGET_WORDS} (neither was given)` });
      }
    }),
  );
}

/** An escalation target: a webhook URL to POST to, an event type to emit, or both (at least one). */
export const EscalationTargetSchema: z.ZodType<EscalationTarget, EscalationTarget> = targetSchema(
  TARGET_WORDS,
);

/** The `escalation` field of budget, health and mission: a target, or null (the default). */
export function escalationField(): z.ZodDefault<
  z.ZodNullable<z.ZodType<EscalationTarget, EscalationTarget>>
> {
  return targetSchema(`${TARGET_WORDS}, or null`).nullable().default(null);
}

/** Refinement helper: `escalation` is required when `value[actionField]` is `"escalate"`. */
export function requireEscalation(
  actionField: string,
  value: { escalation: EscalationTarget | null },
  ctx: z.RefinementCtx,
): void {
  if ((value as Record<string, unknown>)[actionField] === "escalate" && value.escalation === null) {
    ctx.addIssue({
      code: "custom",
      path: ["escalation"],
      message: `${TARGET_WORDS} (required when ${actionField} is "escalate")`,
    });
  }
}
