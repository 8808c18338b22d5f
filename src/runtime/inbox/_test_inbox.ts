/**
 * Test helpers of the inbox tests: an inbox on a parsed config with a memory log and a settable state.
 *
 * @module
 */

import { Logger, memorySink } from "../../log.ts";
import { testConfig } from "../_test_config.ts";
import type { ProcessState } from "../lifecycle.ts";
import { RuntimeError, type RuntimeErrorCode } from "../errors.ts";
import { Inbox } from "./inbox.ts";
import type { InboxItem } from "./inbox_types.ts";

/** An inbox for tests. */
export interface TestInbox {
  inbox: Inbox;
  /** Log records written. */
  records: ReturnType<typeof memorySink>["records"];
  /** Sets the process state the inbox sees. */
  setState(state: ProcessState): void;
  /** Items passed to `onArrival`. */
  arrivals: InboxItem[];
}

/** An inbox with `inbox` settings (enabled) and other config fields. */
export function testInbox(
  inbox: Record<string, unknown> = {},
  config: Record<string, unknown> = {},
): TestInbox {
  const sink = memorySink();
  const parsed = testConfig({ ...config, inbox: { enabled: true, ...inbox } });
  let state: ProcessState = "running";
  const arrivals: InboxItem[] = [];
  return {
    inbox: new Inbox({
      process: "p",
      config: () => parsed,
      state: () => state,
      logger: new Logger("test", { sink }),
      onArrival: (item) => arrivals.push(item),
    }),
    records: sink.records,
    setState: (next) => (state = next),
    arrivals,
  };
}

/** A predicate for `assert.rejects`/`throws`: a RuntimeError with this code. */
export const code = (expected: RuntimeErrorCode) => (e: unknown) =>
  e instanceof RuntimeError && e.code === expected;
