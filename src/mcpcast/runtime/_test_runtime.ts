/**
 * Test helpers for the runtime: a fake upstream that records requests and answers as told (the pet
 * plans are in `../_test_plans.ts`).
 *
 * @module
 */

import type { McpcastPlan, ToolPlan } from "../plan/mod.ts";

/** The tool called `name` in `plan`. */
export function toolOf(source: McpcastPlan, name: string): ToolPlan {
  const tool = source.tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
}

/** A request the fake upstream received. */
export interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

/** A fake upstream: records requests, answers with `answer` (default 200 `{"ok": true}`). */
export function fakeUpstream(
  answer: (request: Request) => Response | Promise<Response> = () => Response.json({ ok: true }),
): { fetch: (request: Request) => Promise<Response>; seen: Seen[] } {
  const seen: Seen[] = [];
  return {
    seen,
    fetch: async (request) => {
      seen.push({
        method: request.method,
        url: new URL(request.url),
        headers: request.headers,
        body: await request.text(),
      });
      return await answer(request);
    },
  };
}

/** An env lookup over `values`. */
export function envOf(values: Record<string, string> = {}): (name: string) => string | undefined {
  return (name) => Object.hasOwn(values, name) ? values[name] : undefined;
}
