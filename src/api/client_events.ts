/**
 * The client's event streams: `GET /events` (runtime events) and `GET /processes/{name}/runs/events` (run
 * progress), opened with the client's token and read as they arrive.
 *
 * @module
 */

import type { RuntimeEvent, RuntimeEventType } from "../runtime/mod.ts";
import { RuntimeApiError } from "./client_error.ts";
import { fetchApi } from "./client_fetch.ts";
import { readServerEvents, type ServerEvent } from "./client_stream.ts";

/** Options of `client.events(...)`. */
export interface EventsOptions {
  /** Only these processes' events. @default every process */
  processes?: readonly string[];
  /** Only these types. @default every type */
  types?: readonly RuntimeEventType[];
  /** Replays the kept events after this id first (the `id` of the last event seen). */
  since?: number;
  /** Ends the stream when it aborts. */
  signal?: AbortSignal;
}

/**
 * The first event after a `since` the runtime can no longer replay: `gap` when events after it were
 * dropped from the runtime's ring, `unknown_id` when the id is ahead of the runtime (it restarted). Read
 * the state again; the events that follow are the ones still kept.
 */
export interface RuntimeEventReset {
  /** No id. */
  id: null;
  /** Always `reset`. */
  type: "reset";
  /** Why. */
  data: { reason: "gap" | "unknown_id" };
}

/** What the client's stream connection needs from the client. */
export interface StreamConnection {
  /** The fetch implementation. */
  fetch: typeof fetch;
  /** Request headers (the token). */
  headers: Record<string, string>;
  /** The client's close signal. */
  closed: AbortSignal;
}

/**
 * Each server-sent event of `url` until `signal` aborts, the client closes or the server ends the stream.
 * Opening it rejects with a {@linkcode RuntimeApiError} for an error answer.
 */
export async function* openEventStream<T>(
  connection: StreamConnection,
  url: string,
  signal?: AbortSignal,
): AsyncGenerator<ServerEvent<T>> {
  if (connection.closed.aborted) throw new TypeError("the client is closed");
  const signals = [connection.closed, ...(signal ? [signal] : [])];
  const response = await fetchApi(connection.fetch, url, {
    init: { headers: { ...connection.headers, accept: "text/event-stream" } },
    signal: AbortSignal.any(signals),
  });
  if (!response.ok || !response.body) {
    throw RuntimeApiError.fromAnswer(response.status, await response.text());
  }
  try {
    yield* readServerEvents<T>(response.body);
  } catch (error) {
    if (signals.some((s) => s.aborted)) return;
    throw error;
  }
}

/** `GET /events` with these options, as typed events (see {@linkcode EventsOptions}). */
export async function* runtimeEvents(
  connection: StreamConnection,
  apiUrl: string,
  options: EventsOptions = {},
): AsyncGenerator<RuntimeEvent | RuntimeEventReset> {
  const query = new URLSearchParams();
  for (const name of options.processes ?? []) query.append("process", name);
  if (options.types !== undefined) query.set("types", options.types.join(","));
  if (options.since !== undefined) query.set("since", String(options.since));
  const search = query.size > 0 ? `?${query}` : "";
  const stream = openEventStream<unknown>(
    connection,
    `${apiUrl}/events${search}`,
    options.signal,
  );
  for await (const event of stream) {
    if (event.event === "reset") {
      yield { id: null, type: "reset", data: event.data as RuntimeEventReset["data"] };
    } else {
      yield { id: Number(event.id), type: event.event, data: event.data } as unknown as RuntimeEvent;
    }
  }
}
