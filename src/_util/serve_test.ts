import assert from "node:assert/strict";
import { type Served, serveHandler, type ServeOptions } from "./serve.ts";

/** Serves on 127.0.0.1: guarded (node:http) with limits; pass `undefined` for the fast engine (Deno.serve). */
async function serve(
  handler: ServeOptions["handler"],
  limits: ServeOptions["limits"] = { headTimeoutMs: 10_000 },
): Promise<Served & AsyncDisposable> {
  const served = await serveHandler({
    hostname: "127.0.0.1",
    port: 0,
    handler,
    onError: () => new Response("handler failed", { status: 500 }),
    limits,
  });
  return { ...served, [Symbol.asyncDispose]: () => served.shutdown() };
}

/** Sends raw bytes and reads until the server closes; resolves what was read and when it closed. */
async function raw(port: number, bytes: string): Promise<{ text: string; closedAfterMs: number }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const started = performance.now();
  await conn.write(new TextEncoder().encode(bytes));
  const chunks: string[] = [];
  const buffer = new Uint8Array(4096);
  try {
    for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
      chunks.push(new TextDecoder().decode(buffer.subarray(0, n)));
    }
  } catch {
    // reset
  }
  conn.close();
  return { text: chunks.join(""), closedAfterMs: performance.now() - started };
}

for (const engine of ["guarded", "fast"] as const) {
  Deno.test(`serveHandler (${engine}) answers requests with headers, cookies, a body and the client address`, async () => {
    await using served = await serve(
      async (request, remote) =>
        Response.json(
          { method: request.method, url: request.url, body: await request.text(), remote: remote.hostname },
          { headers: [["set-cookie", "a=1"], ["set-cookie", "b=2"], ["x-kind", "echo"]] },
        ),
      engine === "guarded" ? { headTimeoutMs: 10_000 } : undefined,
    );
    const answer = await fetch(`http://127.0.0.1:${served.port}/p?q=1`, { method: "POST", body: "hello" });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("x-kind"), "echo");
    assert.deepEqual(answer.headers.getSetCookie(), ["a=1", "b=2"]);
    const text = await answer.text();
    assert.equal(answer.headers.get("content-length"), String(new TextEncoder().encode(text).length));
    assert.deepEqual(JSON.parse(text), {
      method: "POST",
      url: `http://127.0.0.1:${served.port}/p?q=1`,
      body: "hello",
      remote: "127.0.0.1",
    });
  });
}

Deno.test("serveHandler closes a connection whose head is incomplete after the head timeout, with 408", async () => {
  await using served = await serve(() => new Response("ok"), { headTimeoutMs: 300 });
  const { text, closedAfterMs } = await raw(served.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Partial: ");
  assert.match(text, /^HTTP\/1\.1 408 /);
  assert.ok(closedAfterMs >= 250 && closedAfterMs < 2_000, `closed after ${closedAfterMs} ms`);
});

Deno.test("serveHandler does not time out a handler that takes longer than the head timeout", async () => {
  await using served = await serve(async () => {
    await new Promise((resolve) => setTimeout(resolve, 700));
    return new Response("late");
  }, { headTimeoutMs: 200 });
  const answer = await fetch(`http://127.0.0.1:${served.port}/`);
  assert.equal(await answer.text(), "late");
});

Deno.test("serveHandler closes an idle keep-alive connection after the idle timeout", async () => {
  await using served = await serve(() => new Response("ok"), { idleTimeoutMs: 300 });
  const { text, closedAfterMs } = await raw(served.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  assert.match(text, /^HTTP\/1\.1 200 /);
  assert.ok(closedAfterMs >= 250 && closedAfterMs < 3_000, `closed after ${closedAfterMs} ms`);
});

Deno.test("serveHandler closes connections beyond the per-address limit at once", async () => {
  await using served = await serve(() => new Response("ok"), { maxConnectionsPerAddress: 2 });
  const held = await Promise.all(
    [0, 1].map(() => Deno.connect({ hostname: "127.0.0.1", port: served.port })),
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { text, closedAfterMs } = await raw(served.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    assert.equal(text, "");
    assert.ok(closedAfterMs < 1_000);
  } finally {
    held.forEach((conn) => conn.close());
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  const answer = await fetch(`http://127.0.0.1:${served.port}/`);
  assert.equal(await answer.text(), "ok");
});

Deno.test("serveHandler streams a response as it is produced and aborts the request signal when the client leaves", async () => {
  const left = Promise.withResolvers<void>();
  await using served = await serve((request) => {
    request.signal.addEventListener("abort", () => left.resolve());
    let sent = 0;
    return new Response(
      new ReadableStream({
        async pull(controller) {
          if (sent > 0) await new Promise((resolve) => setTimeout(resolve, 50));
          controller.enqueue(new TextEncoder().encode(`data: ${sent++}\n\n`));
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  });
  const answer = await fetch(`http://127.0.0.1:${served.port}/events`);
  const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("data: 2")) text += (await reader.read()).value ?? "";
  assert.match(text, /^data: 0\n\ndata: 1\n\n/);
  await reader.cancel();
  await left.promise;
});

Deno.test("serveHandler answers onError's response when the handler throws, and 400 for a bad Host or a method fetch forbids", async () => {
  await using served = await serve(() => {
    throw new Error("boom");
  });
  const failed = await fetch(`http://127.0.0.1:${served.port}/`);
  assert.equal(failed.status, 500);
  assert.equal(await failed.text(), "handler failed");
  for (
    const head of ["GET / HTTP/1.1\r\nHost: a/b@c\r\n\r\n", "TRACE / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"]
  ) {
    const { text } = await raw(served.port, head);
    assert.match(text, /^HTTP\/1\.1 400 /);
  }
});

Deno.test("serveHandler rejects with AddrInUse when the port is taken, and bad limits with RangeError", async () => {
  await using served = await serve(() => new Response("ok"));
  await assert.rejects(
    serveHandler({
      hostname: "127.0.0.1",
      port: served.port,
      handler: () => new Response(),
      onError: () => new Response(),
    }),
    Deno.errors.AddrInUse,
  );
  await assert.rejects(serve(() => new Response("ok"), { headTimeoutMs: 0 }), RangeError);
});

Deno.test("serveHandler shutdown waits for an answer in flight", async () => {
  const release = Promise.withResolvers<void>();
  const served = await serve(async () => {
    await release.promise;
    return new Response("finished");
  });
  const answer = fetch(`http://127.0.0.1:${served.port}/`).then((r) => r.text());
  await new Promise((resolve) => setTimeout(resolve, 100));
  let down = false;
  const shutdown = served.shutdown().then(() => down = true);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(down, false);
  release.resolve();
  assert.equal(await answer, "finished");
  await shutdown;
  await served.finished;
});

Deno.test("a loopback bind without limits is served by Deno.serve; limits or another address guard it", async () => {
  const handler = () => new Response("ok");
  const onError = () => new Response("error", { status: 500 });
  const fast = await serveHandler({ hostname: "127.0.0.1", port: 0, handler, onError });
  const guarded = await serveHandler({
    hostname: "127.0.0.1",
    port: 0,
    handler,
    onError,
    limits: { headTimeoutMs: 500 },
  });
  try {
    // Only the guarded engine answers a head that never completes (408) and closes it.
    const probe = async (port: number) => {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      await conn.write(new TextEncoder().encode("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
      const buffer = new Uint8Array(1024);
      const read = await Promise.race([
        conn.read(buffer).then((n) => new TextDecoder().decode(buffer.subarray(0, n ?? 0))),
        new Promise<string>((resolve) => setTimeout(() => resolve("still open"), 1_500)),
      ]);
      conn.close();
      return read;
    };
    assert.match(await probe(guarded.port), /^HTTP\/1\.1 408|^$/);
    assert.equal(await probe(fast.port), "still open");
  } finally {
    await Promise.all([fast.close(100), guarded.close(100)]);
  }
});
