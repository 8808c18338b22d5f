/**
 * Calling a subscriber so that its failure (a throw or a rejected promise) never reaches the producer or
 * the other subscribers.
 *
 * @module
 */

import { describeError } from "../_util/errors.ts";
import type { Logger } from "../log.ts";

/** Calls `handler(value)`; a throw or rejection is logged as `message` with `fields` and the error. */
export function callHandler<T>(
  handler: (value: T) => unknown,
  value: T,
  report: { logger: Logger | undefined; message: string; fields: Record<string, unknown> },
): void {
  const fail = (error: unknown) =>
    report.logger?.error(report.message, { ...report.fields, error: describeError(error) });
  try {
    const result: unknown = handler(value);
    if (result instanceof Promise) result.catch(fail);
  } catch (error) {
    fail(error);
  }
}
