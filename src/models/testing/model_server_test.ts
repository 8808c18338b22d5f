import assert from "node:assert/strict";
import { startModelServer } from "./model_server.ts";

async function post(
  url: string,
  body: unknown,
  options: { headers?: Record<string, string> } = {},
): Promise<Response> {
  return await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...options.headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

Deno.test("model server binds 127.0.0.1 on a free port and answers the echo model by default", async () => {
  await using server = startModelServer();
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const response = await post(`${server.url}/chat/completions`, {
    model: "echo",
    messages: [{ role: "user", content: "hello world" }],
  }, { headers: { "x-trace": "t1" } });
  const answer = await response.json();
  assert.equal(answer.choices[0].message.content, "Echo: hello world");
  assert.equal(answer.choices[0].finish_reason, "stop");
  assert.deepEqual(answer.usage, { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 });
  assert.equal(server.requests[0].headers["x-trace"], "t1");
  assert.deepEqual(server.requests[0].messages, [{ role: "user", content: "hello world" }]);
});

Deno.test("model server answers error statuses with their headers and body", async () => {
  await using server = startModelServer({
    respond: () => ({ status: 429, headers: { "retry-after": "2" }, body: "slow down" }),
  });
  const response = await post(`${server.url}/messages`, { model: "m", messages: [] });
  assert.equal(response.status, 429);
  assert.equal(response.headers.get("retry-after"), "2");
  assert.equal(await response.text(), "slow down");
});

Deno.test("model server refuses unknown paths and bodies that are not JSON objects", async () => {
  await using server = startModelServer();
  const missing = await post(`${server.url}/embeddings`, {});
  assert.equal(missing.status, 404);
  await missing.body?.cancel();
  const bad = await post(`${server.url}/responses`, "[1,2");
  assert.equal(bad.status, 400);
  await bad.body?.cancel();
  assert.equal(server.requests.length, 0);
});

Deno.test("model server reads a plain string Responses input as one user message", async () => {
  await using server = startModelServer({ record: true });
  const response = await post(`${server.url}/responses`, { model: "m", input: "hi", instructions: "sys" });
  const answer = await response.json();
  assert.equal(answer.output[0].content[0].text, "Echo: hi");
  assert.deepEqual(server.requests[0].messages, [{ role: "system", content: "sys" }, {
    role: "user",
    content: "hi",
  }]);
});

Deno.test("model server keeps no requests when recording is off", async () => {
  await using server = startModelServer({ record: false });
  const response = await post(`${server.url}/chat/completions`, { model: "m", messages: [] });
  await response.body?.cancel();
  assert.equal(response.status, 200);
  assert.equal(server.requests.length, 0);
});

Deno.test("model server closes while a slow stream is being read", async () => {
  const server = startModelServer({ chunkDelayMs: 10_000 });
  const response = await post(`${server.url}/chat/completions`, {
    model: "m",
    stream: true,
    messages: [{ role: "user", content: "a long enough message to need more than one chunk of text" }],
  });
  const reading = response.text();
  await server.close();
  const text = await reading;
  assert.ok(text.startsWith("data: "));
  assert.equal(text.includes("[DONE]"), false);
});
