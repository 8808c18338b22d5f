import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { BODY_TIMEOUT_MS, MAX_BODY_BYTES, readJsonObject } from "./body.ts";
import { ApiError } from "./errors.ts";
import { deploy, testApi } from "../../tests/_api_harness.ts";

const URL_ = "http://127.0.0.1:9100/api/v1/processes";

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request(URL_, { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

/** A stream of `chunkSize`-byte chunks of spaces, `total` bytes at most (endless by default). */
function spaces(chunkSize: number, total = Infinity) {
  const seen = { bytes: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.bytes >= total) return controller.close();
      seen.bytes += chunkSize;
      controller.enqueue(new Uint8Array(chunkSize).fill(0x20));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => assert.fail("expected a refusal"), (e: unknown) => e);
  assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
  return error;
}

Deno.test("the body limit is 1 MiB", () => {
  assert.equal(MAX_BODY_BYTES, 1024 * 1024);
});

Deno.test("an empty or blank body reads as undefined", async () => {
  assert.equal(await readJsonObject(post(null)), undefined);
  assert.equal(await readJsonObject(post("")), undefined);
  assert.equal(await readJsonObject(post(" \n\t ")), undefined);
});

Deno.test("a JSON object body is answered parsed", async () => {
  assert.deepEqual(await readJsonObject(post('{"name":"a","config":{"concurrency":2}}')), {
    name: "a",
    config: { concurrency: 2 },
  });
  assert.deepEqual(await readJsonObject(post("{}")), {});
});

Deno.test("invalid JSON, an array, a string, a number and null are 400 INVALID_JSON", async () => {
  for (const text of ['{"name": ', "[1, 2]", '"a string"', "42", "null", "{} {}"]) {
    const error = await refusal(readJsonObject(post(text)));
    assert.equal(error.status, 400, text);
    assert.equal(error.code, "INVALID_JSON", text);
  }
});

Deno.test("a body that is not UTF-8 is 400 INVALID_JSON", async () => {
  const error = await refusal(readJsonObject(post(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))));
  assert.equal(error.code, "INVALID_JSON");
});

Deno.test("a declared Content-Length over the limit is 413 without reading the body", async () => {
  const { stream, seen } = spaces(1024, 4096);
  const error = await refusal(readJsonObject(post(stream, { "content-length": "2000000" })));
  assert.equal(error.status, 413);
  assert.equal(error.code, "PAYLOAD_TOO_LARGE");
  assert.ok(seen.bytes <= 1024, `read ${seen.bytes} bytes`);
});

Deno.test("a chunked body over the limit without Content-Length is 413 and the rest is not read", async () => {
  const { stream, seen } = spaces(64 * 1024);
  const request = post(stream);
  assert.equal(request.headers.get("content-length"), null);
  const error = await refusal(readJsonObject(request));
  assert.equal(error.status, 413);
  assert.equal(error.code, "PAYLOAD_TOO_LARGE");
  assert.ok(seen.bytes <= MAX_BODY_BYTES + 3 * 64 * 1024, `read ${seen.bytes} bytes of an endless body`);
  assert.equal(seen.cancelled, true);
});

Deno.test("a body of exactly the limit is accepted; one more byte is 413", async () => {
  const exact = `{"k":"${"x".repeat(10)}"}`; // 18 bytes
  assert.deepEqual(await readJsonObject(post(exact), { limit: 18 }), { k: "x".repeat(10) });
  const error = await refusal(readJsonObject(post(`${exact} `), { limit: 18 }));
  assert.equal(error.code, "PAYLOAD_TOO_LARGE");
});

Deno.test("a body stream that fails is 400 HTTP_ERROR", async () => {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"a":'));
      controller.error(new Error("connection reset"));
    },
  });
  const error = await refusal(readJsonObject(post(stream)));
  assert.equal(error.code, "HTTP_ERROR");
  assert.equal(error.status, 400);
  assert.ok(!error.message.includes("connection reset"));
});

Deno.test("a body that does not arrive in time is 408 HTTP_ERROR", async () => {
  // Earlier reads leave the shared deadline sweep running on real timers until it finds nothing pending
  // (at most 250 ms); let it stop so the sweep this test starts runs on the fake clock.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const clock = FakeTimers.install({ toFake: ["setInterval", "clearInterval", "Date"] });
  try {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      cancel() {
        cancelled = true;
      },
    });
    let settled = false;
    const reading = readJsonObject(post(stream)).then(
      () => assert.fail("expected a timeout"),
      (e: unknown) => e,
    ).finally(() => settled = true);
    await clock.tickAsync(BODY_TIMEOUT_MS - 1);
    assert.equal(settled, false, "still waiting just before the limit");
    assert.equal(clock.countTimers(), 1, "one shared deadline sweep");
    await clock.tickAsync(250);
    const error = await reading;
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 408);
    assert.equal(error.code, "HTTP_ERROR");
    assert.equal(cancelled, true);
    await clock.tickAsync(250);
    assert.equal(clock.countTimers(), 0, "the sweep stops once nothing is pending");
  } finally {
    clock.uninstall();
  }
});

Deno.test("the API answers 413 for a body over 1 MiB, declared or chunked, and deploys nothing", async () => {
  await using api = await testApi();
  const big = JSON.stringify({ name: "big", config: { instructions: "x".repeat(MAX_BODY_BYTES) } });
  const declared = await api.call("POST", "/api/v1/processes", {
    body: big,
    headers: { "content-type": "application/json", "content-length": String(big.length) },
  });
  assert.equal(declared.status, 413);
  assert.equal(declared.body.error.code, "PAYLOAD_TOO_LARGE");
  const { stream } = spaces(64 * 1024, 2 * MAX_BODY_BYTES);
  const chunked = await api.call("POST", "/api/v1/processes", { body: stream });
  assert.equal(chunked.status, 413);
  assert.equal(chunked.body.error.code, "PAYLOAD_TOO_LARGE");
  assert.equal(api.runtime.size, 0);
});

Deno.test("the API answers 400 INVALID_JSON for broken JSON, an array or a string", async () => {
  await using api = await testApi();
  for (const body of ['{"name":"a",', '[{"name":"a","config":{}}]', '"name=a"']) {
    for (const path of ["/api/v1/processes", "/api/v1/runtime/start-all"]) {
      const answer = await api.call("POST", path, { body, headers: { "content-type": "application/json" } });
      assert.equal(answer.status, 400, `${path} ${body}`);
      assert.equal(answer.body.error.code, "INVALID_JSON");
    }
  }
  assert.equal(api.runtime.size, 0);
});

Deno.test("routes without a body accept an empty body or {}; any field is 422 UNKNOWN_FIELD", async () => {
  await using api = await testApi();
  assert.equal((await deploy(api, "a")).status, 201);
  assert.equal((await api.call("POST", "/api/v1/processes/a/start")).status, 200);
  assert.equal((await api.call("POST", "/api/v1/processes/a/stop", { json: {} })).status, 200);
  assert.equal((await api.call("POST", "/api/v1/runtime/start-all", { body: "" })).status, 200);
  const refused = await api.call("POST", "/api/v1/processes/a/stop", { json: { force: true } });
  assert.equal(refused.status, 422);
  assert.equal(refused.body.error.code, "UNKNOWN_FIELD");
  assert.deepEqual(refused.body.error.details.map((d: { field: string }) => d.field), ["force"]);
  assert.equal(api.runtime.get("a")?.state, "running");
  const remove = await api.call("DELETE", "/api/v1/processes/a", { json: { purge: true } });
  assert.equal(remove.status, 422);
  assert.equal(remove.body.error.code, "UNKNOWN_FIELD");
  assert.equal(api.runtime.size, 1);
});
