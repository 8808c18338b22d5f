/**
 * InboxConfig: the human-to-agent message inbox of a process.
 *
 * @module
 */

import type { z } from "zod";
import { boolean, integer, number, type Resolved, strictObject } from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";

/** The `inbox` section as written. Every field is optional. */
export interface InboxConfigInput {
  /**
   * Turns the inbox on: operators can queue messages and ask questions the agent sees on its next run.
   * @default false
   */
  enabled?: boolean;
  /**
   * Most messages held at once; never exceeded. When full, a new message replaces an answered question, else
   * evicts the oldest message of the lowest priority held (never a critical or a higher-priority one), else it
   * is refused (409 INBOX_FULL). An integer >= 1.
   * @default 50
   */
  max_messages?: number;
  /**
   * Longest message in characters; longer content is cut to this length. An integer >= 1.
   * @default 2000
   */
  max_message_length?: number;
  /**
   * Seconds a message lives when it gives no ttl. A number >= 0; 0 means no expiry. May not exceed
   * `max_ttl` unless `max_ttl` is 0.
   * @default 3600
   */
  default_ttl?: number;
  /**
   * Cap in seconds on any message's lifetime. A number >= 0; 0 means no cap.
   * @default 86400
   */
  max_ttl?: number;
  /**
   * Messages one sender may queue per hour; messages without a sender are not limited. An integer >= 1.
   * @default 20
   */
  rate_limit_per_sender?: number;
  /**
   * Scan messages for prompt injection when they arrive: with the process `guardrails`, else with the payload
   * scanner when `trigger_delivery.scan_payloads` is on; with neither they are accepted and one warning is
   * logged. False turns scanning, and that warning, off.
   * @default true
   */
  scan_with_guardrails?: boolean;
  /**
   * Ours, beyond spec 000: a new message or question queues an `inbox` event (trigger_type and trigger_id
   * `inbox`, payload `{reason, message_id}`), so the process runs without waiting for its next trigger and
   * an `/ask` can be answered in seconds. Messages arriving before that run starts share it.
   * @default false
   */
  wake?: boolean;
}

/** The `inbox` section with every default filled. */
export type InboxConfig = Resolved<InboxConfigInput>;

/** Inbox settings; every field has a default. */
export const InboxConfigSchema: z.ZodType<InboxConfig, InboxConfigInput> = exactly(
  strictObject({
    enabled: boolean().default(false),
    max_messages: integer({ min: 1 }).default(50),
    max_message_length: integer({ min: 1 }).default(2000),
    default_ttl: number({ min: 0 }).default(3600),
    max_ttl: number({ min: 0 }).default(86400),
    rate_limit_per_sender: integer({ min: 1 }).default(20),
    scan_with_guardrails: boolean().default(true),
    wake: boolean().default(false),
  }).superRefine((inbox, ctx) => {
    if (inbox.max_ttl > 0 && inbox.default_ttl > inbox.max_ttl) {
      ctx.addIssue({
        code: "custom",
        path: ["default_ttl"],
        message: "a number <= max_ttl (default_ttl may not exceed max_ttl unless max_ttl is 0)",
      });
    }
  }),
);
