/**
 * A trigger fired on a cron schedule, read in UTC or in an IANA time zone (DST-aware).
 *
 * The schedule is driven by one timer: croner computes the next run, and the timer sleeps towards it in
 * steps of at most {@linkcode CRON_MAX_SLEEP_MS}, re-reading the wall clock on each wake. So:
 * - a scheduled time is fired at most once, and never one earlier than a time already fired (a wall
 *   clock moved backwards does not fire a time again);
 * - after the wall clock jumped forwards (or the host slept), the pending time fires once, late, and the
 *   schedule resumes with the first time after now: missed times are not fired one by one.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { Cron } from "croner";
import type { Logger } from "../log.ts";
import { TriggerBase } from "./trigger_base.ts";

/** Queue capacity of a cron trigger unless set. */
export const CRON_TRIGGER_CAPACITY = 10;

/** Longest single sleep of the schedule timer, in milliseconds (wall-clock jumps are seen this late). */
export const CRON_MAX_SLEEP_MS = 60_000;

/** Options of {@linkcode CronTrigger}. */
export interface CronTriggerOptions {
  /** 5 fields, or 6 with seconds first (`*\/10 * * * * *`), or a nickname such as `@hourly`. */
  cronExpression: string;
  /** IANA time zone the schedule is read in; null or absent for UTC. @default null */
  timezone?: string | null;
  /** Trigger id. @default `cron-<first 8 hex of SHA-256 of expression + time zone ("UTC" when null)>` */
  triggerId?: string;
  /** Capacity of the trigger's queue; when full, firings are dropped with a warning. @default 10 */
  capacity?: number;
  /** Where drops and schedule problems are logged. */
  logger?: Logger;
}

/** Payload of a cron trigger's events. */
export interface CronTriggerPayload {
  /** The scheduled time fired, ISO 8601 with the zone's offset (`2026-11-21T09:00:00+01:00`). */
  scheduled_time: string;
  /** The cron expression. */
  cron_expression: string;
  /** `"UTC"` or the IANA zone name. */
  timezone: string;
}

/** The default id of a cron trigger: `cron-<first 8 hex of SHA-256 of expression + zone>`. */
export function defaultCronTriggerId(cronExpression: string, timezone?: string | null): string {
  const digest = createHash("sha256").update(`${cronExpression}${timezone ?? "UTC"}`).digest("hex");
  return `cron-${digest.slice(0, 8)}`;
}

/** Fires on a cron schedule; `start()` arms the timer and `stop()` clears it. */
export class CronTrigger extends TriggerBase {
  /** The cron expression. */
  readonly cronExpression: string;
  /** `"UTC"` or the IANA zone name. */
  readonly timezone: string;
  #job: Cron;
  #format: Intl.DateTimeFormat;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #next: Date | null = null;
  #lastFired: number | undefined;

  /** A trigger for `options.cronExpression`; throws a RangeError for a bad expression or time zone. */
  constructor(options: CronTriggerOptions) {
    super({
      triggerId: options.triggerId ?? defaultCronTriggerId(options.cronExpression, options.timezone),
      type: "cron",
      capacity: options.capacity ?? CRON_TRIGGER_CAPACITY,
      logger: options.logger,
    });
    this.cronExpression = options.cronExpression;
    this.timezone = options.timezone ?? "UTC";
    try {
      this.#format = new Intl.DateTimeFormat("en-US", {
        timeZone: this.timezone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      });
    } catch {
      throw new RangeError(`unknown time zone ${JSON.stringify(this.timezone)}`);
    }
    try {
      this.#job = new Cron(options.cronExpression.trim(), {
        paused: true,
        timezone: this.timezone,
        mode: "5-or-6-parts",
      });
    } catch {
      throw new RangeError(
        `invalid cron expression ${
          JSON.stringify(options.cronExpression)
        }: use 5 fields, or 6 with seconds first`,
      );
    }
  }

  /** The next time the trigger will fire, or null when not running or the schedule has no more times. */
  get nextFireTime(): Date | null {
    return this.#timer === undefined ? null : this.#next;
  }

  /** Arms the timer for the first scheduled time after now. */
  protected listen(): Promise<void> {
    this.#next = this.#nextAfter(Date.now());
    this.#arm();
    return Promise.resolve();
  }

  /** Clears the timer. */
  protected unlisten(): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#job.stop();
    return Promise.resolve();
  }

  #nextAfter(now: number): Date | null {
    const from = this.#lastFired === undefined ? now : Math.max(now, this.#lastFired);
    return this.#job.nextRun(new Date(from));
  }

  #arm(): void {
    this.#timer = undefined;
    if (this.#next === null) {
      this.logger?.warning("cron schedule has no future times", { trigger_id: this.triggerId });
      return;
    }
    const delay = Math.min(Math.max(this.#next.getTime() - Date.now(), 0), CRON_MAX_SLEEP_MS);
    this.#timer = setTimeout(() => this.#wake(), delay);
  }

  #wake(): void {
    const now = Date.now();
    const due = this.#next;
    if (due !== null && due.getTime() <= now) {
      this.#lastFired = due.getTime();
      const payload: CronTriggerPayload = {
        scheduled_time: this.#isoWithOffset(due),
        cron_expression: this.cronExpression,
        timezone: this.timezone,
      };
      this.emit(this.makeEvent(payload));
    }
    // Recomputed on every wake, so a wall clock moved either way is followed.
    this.#next = this.#nextAfter(now);
    this.#arm();
  }

  #isoWithOffset(date: Date): string {
    const parts: Record<string, string> = {};
    for (const part of this.#format.formatToParts(date)) parts[part.type] = part.value;
    const [y, mo, d, h, mi, s] = ["year", "month", "day", "hour", "minute", "second"].map((k) =>
      Number(parts[k])
    );
    const wall = Date.UTC(y, mo - 1, d, h, mi, s);
    const offset = Math.round((wall - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
    const pad = (n: number, width = 2) => String(n).padStart(width, "0");
    const zone = `${offset < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(offset) / 60))}:${
      pad(Math.abs(offset) % 60)
    }`;
    return `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}${zone}`;
  }
}
