import assert from "node:assert/strict";
import { McpcastError } from "../errors.ts";
import { decodeSpecBytes, unescapedPosition } from "./decode.ts";
import { parseSpecText } from "./text.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const isAscii = (text: string) => [...text].every((char) => char.charCodeAt(0) < 0x80);

Deno.test("ASCII JSON decodes as it is, without escapes", () => {
  const decoded = decodeSpecBytes(encode('{"openapi": "3.1.0"}'));
  assert.deepEqual(decoded, { text: '{"openapi": "3.1.0"}' });
});

Deno.test("JSON with a few non-ASCII characters becomes ASCII text that parses to the same data", () => {
  const source = '{"title": "Café ☕", "emoji": "😀", "note": "naïve", "keys": {"ü": 1}}';
  const decoded = decodeSpecBytes(encode(source));
  assert.ok(isAscii(decoded.text));
  assert.deepEqual(JSON.parse(decoded.text), JSON.parse(source));
  // é, ☕, the two halves of 😀, ï, ü: six escapes, at their places in the text.
  assert.equal(decoded.escapes?.length, 6);
  for (const at of decoded.escapes!) assert.equal(decoded.text.slice(at, at + 2), "\\u");
});

Deno.test("a byte order mark is dropped, with or without escapes", () => {
  const bom = [0xef, 0xbb, 0xbf];
  const plain = decodeSpecBytes(new Uint8Array([...bom, ...encode('{"a": 1}')]));
  assert.equal(plain.text, '{"a": 1}');
  const escaped = decodeSpecBytes(new Uint8Array([...bom, ...encode('{"a": "é"}')]));
  assert.deepEqual(JSON.parse(escaped.text), { a: "é" });
});

Deno.test("YAML, mostly non-ASCII JSON and a non-ASCII character after a backslash decode unchanged", () => {
  for (
    const source of [
      "openapi: 3.1.0\ninfo: {title: Café}\n",
      '{"title": "日本語のタイトルと説明"}',
      '{"odd": "\\é"}',
    ]
  ) {
    const decoded = decodeSpecBytes(encode(source));
    assert.deepEqual(decoded, { text: source }, source);
  }
});

Deno.test("invalid UTF-8 is replaced as TextDecoder replaces it", () => {
  const bytes = new Uint8Array([
    ...encode('{"a": "x'),
    0xc3,
    ...encode('y", "b": "'),
    0xff,
    0xfe,
    ...encode(`", "padding": "${"p".repeat(64)}"}`),
  ]);
  const decoded = decodeSpecBytes(bytes);
  assert.ok(isAscii(decoded.text));
  assert.deepEqual(JSON.parse(decoded.text), JSON.parse(new TextDecoder().decode(bytes)));
});

Deno.test("positions map back past the escapes before them", () => {
  const escapes = new Uint32Array([3, 20]);
  assert.equal(unescapedPosition(2, escapes), 2);
  assert.equal(unescapedPosition(3, escapes), 3);
  assert.equal(unescapedPosition(9, escapes), 4);
  assert.equal(unescapedPosition(26, escapes), 16);
  assert.equal(unescapedPosition(7, undefined), 7);
});

Deno.test("a JSON error is placed by line and column of the file, escapes not counted", () => {
  const source = '{\n  "title": "Café ☕ ünïcode", oops\n}';
  const { text, escapes } = decodeSpecBytes(encode(source));
  assert.ok(escapes !== undefined);
  const message = (input: string, withEscapes?: Uint32Array) => {
    try {
      parseSpecText(input, { label: "spec.json", maxNodes: 100, escapes: withEscapes });
    } catch (error) {
      assert.ok(error instanceof McpcastError);
      return error.message;
    }
    assert.fail("the text should have been refused");
  };
  const expected = message(source);
  assert.match(expected, /at line 2, column 30$/);
  assert.equal(message(text, escapes), expected);
});

Deno.test("non-ASCII characters are found at every alignment, at the end and after a byte order mark", () => {
  for (const bom of [[], [0xef, 0xbb, 0xbf]]) {
    for (let offset = 0; offset < 9; offset++) {
      const source = `{"k": "${"a".repeat(40 + offset)}é${"b".repeat(offset)}", "t": "${"c".repeat(64)}ü"}`;
      const decoded = decodeSpecBytes(new Uint8Array([...bom, ...encode(source)]));
      assert.ok(isAscii(decoded.text), `offset ${offset}`);
      assert.equal(decoded.escapes?.length, 2);
      assert.deepEqual(JSON.parse(decoded.text), JSON.parse(source));
    }
  }
});
