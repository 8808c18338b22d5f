/**
 * TriggerDeliveryConfig: retries, dead letters and payload scanning of trigger events.
 *
 * @module
 */

import type { z } from "zod";
import { boolean, integer, number, type Resolved, strictObject } from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";

/** The `trigger_delivery` section as written. Every field is optional. */
export interface TriggerDeliveryConfigInput {
  /**
   * Scan every trigger payload for prompt injection before the agent sees it; flagged events are
   * dead-lettered.
   * @default false
   */
  scan_payloads?: boolean;
  /**
   * Times a failed run is retried. Each retry runs the whole turn again, so tools with side effects may
   * run twice. An integer from 0 to 10.
   * @default 0
   */
  max_retries?: number;
  /**
   * Seconds before the first retry; each further retry waits twice as long. A number > 0.
   * @default 2
   */
  retry_backoff?: number;
  /**
   * Longest wait in seconds between retries. A number > 0, at least `retry_backoff`.
   * @default 60
   */
  retry_backoff_max?: number;
  /**
   * Events the process queue holds (between the triggers and the workers). When it is full, trigger
   * listeners wait for room: events wait in the triggers' own queues, which then refuse or drop (see each
   * trigger's `queue_capacity`). An integer from 1 to 100000.
   * @default 1000
   */
  queue_capacity?: number;
  /**
   * Undeliverable events kept for inspection and redelivery (oldest dropped first). An integer from 0
   * to 10000.
   * @default 100
   */
  dead_letter_size?: number;
  /**
   * Longest payload, in characters, shown to the agent (and scanned); longer payloads are cut. An
   * integer >= 200.
   * @default 20000
   */
  max_payload_chars?: number;
  /**
   * Events in a row that may fail all their retries before the process goes to `failed`. An integer
   * >= 1.
   * @default 3
   */
  max_consecutive_failures?: number;
}

/** The `trigger_delivery` section with every default filled. */
export type TriggerDeliveryConfig = Resolved<TriggerDeliveryConfigInput>;

/** Trigger delivery settings; every field has a default. Durations are seconds. */
export const TriggerDeliveryConfigSchema: z.ZodType<TriggerDeliveryConfig, TriggerDeliveryConfigInput> =
  exactly(
    strictObject({
      scan_payloads: boolean().default(false),
      max_retries: integer({ min: 0, max: 10 }).default(0),
      retry_backoff: number({ gt: 0 }).default(2),
      retry_backoff_max: number({ gt: 0 }).default(60),
      queue_capacity: integer({ min: 1, max: 100_000 }).default(1000),
      dead_letter_size: integer({ min: 0, max: 10000 }).default(100),
      max_payload_chars: integer({ min: 200 }).default(20000),
      max_consecutive_failures: integer({ min: 1 }).default(3),
    }).superRefine((delivery, ctx) => {
      if (delivery.retry_backoff_max < delivery.retry_backoff) {
        ctx.addIssue({ code: "custom", path: ["retry_backoff_max"], message: "a number >= retry_backoff" });
      }
    }),
  );
