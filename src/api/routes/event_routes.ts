/**
 * `GET /api/v1/events`: the runtime's events (deploys, removals, state changes, runs, trigger fires, dead
 * letters, anomalies) as a server-sent event stream, with replay after `Last-Event-ID` (or `?since=`)
 * from the runtime's ring of recent events and `process` / `types` filters.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { RUNTIME_EVENT_TYPES, type RuntimeEvent, type RuntimeEventLog } from "../../runtime/mod.ts";
import type { RuntimeEventType } from "../../runtime/mod.ts";
import { ApiError } from "../errors.ts";
import { errorResponses } from "../schemas.ts";
import type { RouteContext } from "./route_context.ts";
import { refuseUnknownQuery } from "./_query.ts";

/** Seconds between keep-alive comments on the event stream. */
export const EVENT_STREAM_KEEPALIVE_SECONDS = 15;

/** Bytes a reader may leave unread before the stream lets it go (it reconnects with `Last-Event-ID`). */
export const EVENT_STREAM_MAX_BACKLOG = 1024 * 1024;

const STREAM_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
};

const EventsQuerySchema = z.object({
  process: z.string().optional().openapi({
    param: { name: "process", in: "query" },
    description: "Only this process's events; repeat for several (`?process=a&process=b`).",
  }),
  types: z.string().optional().openapi({
    param: { name: "types", in: "query" },
    description: `Only these types, comma-separated: ${RUNTIME_EVENT_TYPES.join(", ")}.`,
  }),
  since: z.string().optional().openapi({
    param: { name: "since", in: "query" },
    description: "Replay the kept events after this id (the `Last-Event-ID` header wins when both are sent).",
  }),
});

/** What a reader asked for. */
interface EventFilter {
  processes: ReadonlySet<string> | undefined;
  types: ReadonlySet<RuntimeEventType> | undefined;
}

/** Adds `GET /api/v1/events`. */
export function registerEventRoutes(ctx: RouteContext): void {
  const { route, runtime } = ctx;
  route({
    method: "get",
    path: "/api/v1/events",
    summary: "A server-sent event stream of runtime events (`id`, `event: <type>`, `data: <JSON>`)",
    description: "Types: " + RUNTIME_EVENT_TYPES.join(", ") +
      ". `Last-Event-ID` (or `since`) replays the kept events after that id (the newest 1,000); an id older " +
      'than the ring (or ahead of this runtime) first gets `event: reset` with `data: {"reason":"gap"}` ' +
      '(or `"unknown_id"`). A `: keep-alive` comment every 15 s.',
    operationId: "streamEvents",
    request: { query: EventsQuerySchema },
    responses: {
      200: { description: "text/event-stream", content: { "text/event-stream": { schema: z.string() } } },
      ...errorResponses(401, 422),
    },
  }, (c) => {
    const query = c.req.queries();
    refuseUnknownQuery(query, ["process", "types", "since"]);
    const filter: EventFilter = { processes: processFilter(query.process), types: typeFilter(query.types) };
    const header = c.req.header("last-event-id");
    const since = header !== undefined && header.trim() !== ""
      ? eventId(header, "Last-Event-ID")
      : query.since === undefined
      ? undefined
      : eventId(query.since.at(-1) ?? "", "since");
    // HEAD (answered by this GET route) gets the headers only: a stream nobody reads would never end.
    if (c.req.method === "HEAD") return new Response(null, { headers: STREAM_HEADERS });
    return eventStream(runtime.eventLog, { filter, since, signal: c.req.raw.signal });
  });
}

function processFilter(values: string[] | undefined): ReadonlySet<string> | undefined {
  if (values === undefined) return undefined;
  const names = values.flatMap((value) => value.split(",")).map((name) => name.trim());
  if (names.some((name) => name === "")) {
    throw new ApiError("INVALID_FIELD", "`process` must name a process.", {
      details: [{ field: "process", expected: "a process name (repeat the parameter for several)" }],
    });
  }
  return new Set(names);
}

function typeFilter(values: string[] | undefined): ReadonlySet<RuntimeEventType> | undefined {
  if (values === undefined) return undefined;
  const known: readonly string[] = RUNTIME_EVENT_TYPES;
  const types = values.flatMap((value) => value.split(",")).map((type) => type.trim());
  const unknown = types.filter((type) => !known.includes(type));
  if (unknown.length > 0 || types.length === 0) {
    const list = RUNTIME_EVENT_TYPES.join(", ");
    const names = unknown.map((type) => JSON.stringify(type.slice(0, 64))).join(", ");
    throw new ApiError("INVALID_FIELD", `Unknown event type(s): ${names}. Known types: ${list}.`, {
      details: [{ field: "types", expected: `a comma-separated list of: ${list}` }],
    });
  }
  return new Set(types as RuntimeEventType[]);
}

function eventId(text: string, field: string): number {
  const value = /^\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(value)) {
    throw new ApiError("INVALID_FIELD", `\`${field}\` must be an event id (an integer ≥ 0).`, {
      details: [{ field, expected: "an event id: an integer ≥ 0" }],
    });
  }
  return value;
}

function wanted(event: RuntimeEvent, filter: EventFilter): boolean {
  if (filter.types && !filter.types.has(event.type)) return false;
  return !filter.processes || filter.processes.has(event.data.process);
}

/** One event in the stream's framing. */
export function frameEvent(event: RuntimeEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** The stream: replay (after a reset when needed), then live events, until the reader or the feed goes. */
function eventStream(
  log: RuntimeEventLog,
  options: { filter: EventFilter; since: number | undefined; signal: AbortSignal },
): Response {
  const { filter, since, signal } = options;
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const finish = () => {
        if (!open) return;
        open = false;
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed or errored
        }
      };
      const send = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          finish();
          return;
        }
        if ((controller.desiredSize ?? 0) < -EVENT_STREAM_MAX_BACKLOG) finish(); // a reader that stopped reading
      };
      const onAbort = () => finish();
      const keepAlive = setInterval(() => send(": keep-alive\n\n"), EVENT_STREAM_KEEPALIVE_SECONDS * 1000);
      let unsubscribe = () => {};
      cleanup = () => {
        unsubscribe();
        clearInterval(keepAlive);
        signal.removeEventListener("abort", onAbort);
      };
      signal.addEventListener("abort", onAbort);
      send(": connected\n\n");
      if (since !== undefined) {
        const replay = log.since(since);
        if (replay.reset) send(`event: reset\ndata: ${JSON.stringify({ reason: replay.reset })}\n\n`);
        for (const event of replay.events) if (wanted(event, filter)) send(frameEvent(event));
      }
      if (!open) return;
      unsubscribe = log.subscribe({
        event: (event) => {
          if (wanted(event, filter)) send(frameEvent(event));
        },
        close: finish,
      });
      if (signal.aborted) finish();
    },
    cancel() {
      cleanup();
    },
  }, new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }));
  return new Response(body, { headers: STREAM_HEADERS });
}
