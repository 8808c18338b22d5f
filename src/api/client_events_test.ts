import assert from "node:assert/strict";
import { RuntimeClient } from "./client.ts";

function sse(text: string): Response {
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

Deno.test("client.events sends the token and the filters, and types each event", async () => {
  const requests: Request[] = [];
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return Promise.resolve(sse(
      ': connected\n\nevent: reset\ndata: {"reason":"gap"}\n\n' +
        'id: 7\nevent: run.started\ndata: {"process":"a","at":"2026-01-01T00:00:00.000Z","run_id":"r1"}\n\n',
    ));
  };
  await using client = new RuntimeClient({ baseUrl: "http://127.0.0.1:9100", token: "tok-1", fetch });
  const events = [];
  for await (
    const event of client.events({ processes: ["a", "b c"], types: ["run.started", "run.ended"], since: 3 })
  ) events.push(event);
  assert.deepEqual(events, [
    { id: null, type: "reset", data: { reason: "gap" } },
    { id: 7, type: "run.started", data: { process: "a", at: "2026-01-01T00:00:00.000Z", run_id: "r1" } },
  ]);
  const url = new URL(requests[0].url);
  assert.equal(url.pathname, "/api/v1/events");
  assert.deepEqual(url.searchParams.getAll("process"), ["a", "b c"]);
  assert.equal(url.searchParams.get("types"), "run.started,run.ended");
  assert.equal(url.searchParams.get("since"), "3");
  assert.equal(requests[0].headers.get("authorization"), "Bearer tok-1");
  assert.equal(requests[0].headers.get("accept"), "text/event-stream");
});

Deno.test("client.events without options asks for every event, and a closed client refuses", async () => {
  const urls: string[] = [];
  const fetch = (input: RequestInfo | URL) => {
    urls.push(String(input));
    return Promise.resolve(sse(""));
  };
  const client = new RuntimeClient({ baseUrl: "http://127.0.0.1:9100/api/v1", fetch });
  for await (const _ of client.events()) throw new Error("no event expected");
  assert.deepEqual(urls, ["http://127.0.0.1:9100/api/v1/events"]);
  await client.close();
  await assert.rejects(client.events().next(), TypeError);
});
