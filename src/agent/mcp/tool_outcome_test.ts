import assert from "node:assert/strict";
import { MAX_TOOL_OUTPUT_CHARS, resultText, toolOutcome } from "./tool_outcome.ts";

Deno.test("text blocks are joined by newlines and isError is carried over", () => {
  const result = { content: [{ type: "text", text: "one" }, { type: "text", text: "two" }], isError: true };
  assert.deepEqual(toolOutcome(result), { content: "one\ntwo", isError: true });
  assert.deepEqual(toolOutcome({ content: [{ type: "text", text: "ok" }] }), {
    content: "ok",
    isError: false,
  });
});

Deno.test("structuredContent is given as JSON only when no block has text", () => {
  assert.equal(
    resultText({ content: [], structuredContent: { temp: 21, unit: "C" } }),
    '{"temp":21,"unit":"C"}',
  );
  assert.equal(
    resultText({ content: [{ type: "text", text: "21 C" }], structuredContent: { temp: 21 } }),
    "21 C",
  );
});

Deno.test("images, audio, resources and links become short placeholders or their text", () => {
  const text = resultText({
    content: [
      { type: "image", mimeType: "image/png", data: btoa("12345") },
      { type: "audio", mimeType: "audio/wav", data: btoa("1234") },
      { type: "resource", resource: { uri: "file:///a.txt", text: "file body" } },
      {
        type: "resource",
        resource: { uri: "file:///b.bin", mimeType: "application/zip", blob: btoa("123") },
      },
      { type: "resource_link", uri: "file:///c", name: "c" },
    ],
  });
  assert.equal(
    text,
    [
      "[image image/png, 5 bytes]",
      "[audio audio/wav, 4 bytes]",
      "file body",
      "[resource file:///b.bin, application/zip, 3 bytes]",
      "[resource link file:///c]",
    ].join("\n"),
  );
});

Deno.test("an empty result reads '(no output)' and a long one is cut with a note", () => {
  assert.equal(resultText({ content: [] }), "(no output)");
  const long = resultText({ content: [{ type: "text", text: "x".repeat(MAX_TOOL_OUTPUT_CHARS + 5) }] });
  assert.equal(long, `${"x".repeat(MAX_TOOL_OUTPUT_CHARS)}\n[truncated: 5 more characters]`);
});
