import assert from "node:assert/strict";
import { parse } from "yaml";
import { mcpcast } from "../mcpcast.ts";
import { loadPlan, PLAN_HEADER, savePlan, streamPlan } from "./yaml.ts";
import { streamYaml, writeYaml } from "./yaml_writer.ts";

const read = (text: string) => parse(text, { schema: "core" });

Deno.test("strings that could be misread are quoted; the text reads back to the same data", () => {
  const tricky = [
    "",
    " lead",
    "trail ",
    "yes",
    "No",
    "null",
    "~",
    "true",
    "123",
    "1.5",
    "1e5",
    "0x1F",
    ".inf",
    "-1",
    "- dash",
    "key: value",
    "a #comment",
    "#hash",
    "ends:",
    "[x]",
    "{y}",
    "*star",
    "&amp",
    "!tag",
    "|pipe",
    ">fold",
    "'single",
    '"double',
    "%pct",
    "@at",
    "`tick",
    "multi\nline",
    "tab\there",
    "nel\u0085x",
    "ls\u2028x",
    "del\x7fx",
    "c1\x9bx",
    "bom\ufeffx",
    "emoji 😀",
    "/pets/{petId}",
    "https://a.example/b?c=d#e",
  ];
  const data = { list: tricky, map: Object.fromEntries(tricky.map((t, i) => [t || `empty${i}`, t])) };
  assert.deepEqual(read(writeYaml(data)), data);
});

Deno.test("numbers, booleans, nulls, empty and nested containers read back exactly", () => {
  const data = {
    n: [0, -3, 1.25, 1e21, 2 ** 53],
    b: [true, false],
    z: null,
    e: { m: {}, l: [] },
    nested: [[1, [2, []]], [{ a: { b: [{}] } }], { x: [{ y: null }] }],
  };
  assert.deepEqual(read(writeYaml(data)), data);
});

Deno.test("long strings are folded at spaces near the width and read back unchanged", () => {
  const sentence = "word ".repeat(60).trim() + "  double  spaces stay";
  const text = writeYaml({ outer: { description: sentence } }, 100);
  assert.ok(text.split("\n").every((line) => line.length <= 104), text);
  assert.equal((read(text) as { outer: { description: string } }).outer.description, sentence);
});

Deno.test("the GitHub spec's full plan survives savePlan and loadPlan", async () => {
  const spec = new URL("../../../tests/fixtures/specs/api.github.com.json", import.meta.url).pathname;
  const plan = await mcpcast(spec, { profile: "full" });
  const text = savePlan(plan);
  assert.deepEqual(loadPlan(text), plan);
  const chunks: string[] = [];
  streamPlan(plan, (chunk) => chunks.push(chunk));
  assert.equal(chunks.join(""), text);
  assert.ok(chunks.length > 20, "a plan of megabytes comes in many chunks");
  assert.ok(chunks[0].startsWith(PLAN_HEADER));
  // About 64 KiB each, plus at most one tool's text (the largest GitHub tool is about 25 KB).
  assert.ok(chunks.every((chunk) => chunk.length < 128_000), "chunks stay small");
});

Deno.test("streamYaml hands on chunks that join to writeYaml's text, the head first", () => {
  const data = {
    items: Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a", "b"] })),
    empty: {},
  };
  const chunks: string[] = [];
  streamYaml(data, (chunk) => chunks.push(chunk), { head: "# head\n" });
  assert.ok(chunks.length > 1);
  assert.equal(chunks.join(""), `# head\n${writeYaml(data)}`);
  assert.deepEqual(read(chunks.join("")), data);
  const whole: string[] = [];
  streamYaml({}, (chunk) => whole.push(chunk));
  assert.deepEqual(whole, [], "an empty map writes nothing (writeYaml then returns a lone newline)");
  assert.equal(writeYaml({}), "\n");
});
