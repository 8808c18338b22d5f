import assert from "node:assert/strict";
import { RuntimeApiError } from "./client_error.ts";

Deno.test("an API error body gives code, message, error id and details", () => {
  const text = JSON.stringify({
    error: {
      code: "INVALID_CONFIG",
      message: "The config is not valid: config.concurrency.",
      error_id: "err_0123456789abcdef",
      details: [{ field: "config.concurrency", expected: "an integer from 1 to 100 (got a string)" }],
    },
  });
  const error = RuntimeApiError.fromAnswer(422, text);
  assert.ok(error instanceof Error);
  assert.equal(error.name, "RuntimeApiError");
  assert.equal(error.statusCode, 422);
  assert.equal(error.code, "INVALID_CONFIG");
  assert.equal(error.errorMessage, "The config is not valid: config.concurrency.");
  assert.equal(error.errorId, "err_0123456789abcdef");
  assert.deepEqual(error.details, [
    { field: "config.concurrency", expected: "an integer from 1 to 100 (got a string)" },
  ]);
  assert.equal(error.message, "422 INVALID_CONFIG: The config is not valid: config.concurrency.");
});

Deno.test("an API error without error id or details has errorId null and no details", () => {
  const error = RuntimeApiError.fromAnswer(
    404,
    JSON.stringify({ error: { code: "PROCESS_NOT_FOUND", message: 'No process is named "a".' } }),
  );
  assert.equal(error.code, "PROCESS_NOT_FOUND");
  assert.equal(error.errorId, null);
  assert.deepEqual(error.details, []);
});

Deno.test("a plain-text body gives code null and the text, shortened, as the message", () => {
  const error = RuntimeApiError.fromAnswer(502, "Bad Gateway");
  assert.equal(error.statusCode, 502);
  assert.equal(error.code, null);
  assert.equal(error.errorMessage, "Bad Gateway");
  assert.equal(error.errorId, null);
  assert.equal(error.message, "502: Bad Gateway");
  const long = RuntimeApiError.fromAnswer(500, "x".repeat(5000));
  assert.ok(long.errorMessage.length <= 500);
  assert.equal(RuntimeApiError.fromAnswer(503, "").code, null);
});

Deno.test("JSON that is not the error envelope gives code null", () => {
  for (
    const text of [
      '{"detail":"not found"}',
      '{"error":"boom"}',
      '{"error":{"code":404,"message":"x"}}',
      '{"error":{"code":"X"}}',
      "null",
      "[1,2]",
      "42",
    ]
  ) {
    const error = RuntimeApiError.fromAnswer(400, text);
    assert.equal(error.code, null, text);
    assert.equal(error.errorId, null, text);
    assert.equal(error.errorMessage, text);
  }
});
