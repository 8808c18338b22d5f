/**
 * Config-time checks of cron expressions and time zones.
 *
 * @module
 */

import { Cron } from "croner";

/** Words used for a cron expression in issues. */
export const CRON_WORDS = 'a cron expression of 5 fields (or 6 with seconds first), such as "*\/5 * * * *"';

/** Why `expression` is not a usable cron expression, or undefined when it is. */
export function cronProblem(expression: string): string | undefined {
  const trimmed = expression.trim();
  if (!trimmed.startsWith("@")) {
    const fields = trimmed.split(/\s+/).length;
    if (fields !== 5 && fields !== 6) return CRON_WORDS;
  }
  let job: Cron | undefined;
  try {
    job = new Cron(trimmed, { paused: true });
    return job.nextRun() === null ? "a cron expression that matches at least one future time" : undefined;
  } catch {
    return CRON_WORDS;
  } finally {
    job?.stop();
  }
}

/** True when `name` is an IANA time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  if (name.trim() === "") return false;
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
