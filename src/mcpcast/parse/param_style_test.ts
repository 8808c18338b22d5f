import assert from "node:assert/strict";
import { encodingStyle, paramStyle } from "./param_style.ts";

Deno.test("Swagger 2 collectionFormat becomes a style, csv when an array names none", () => {
  const array = { name: "c", type: "array", items: { type: "string" } };
  assert.deepEqual(paramStyle(array, "query"), { explode: false });
  assert.deepEqual(paramStyle({ ...array, collectionFormat: "csv" }, "query"), { explode: false });
  assert.deepEqual(paramStyle({ ...array, collectionFormat: "multi" }, "query"), {});
  assert.deepEqual(paramStyle({ ...array, collectionFormat: "ssv" }, "query"), { style: "spaceDelimited" });
  assert.deepEqual(paramStyle({ ...array, collectionFormat: "tsv" }, "query"), { style: "tabDelimited" });
  assert.deepEqual(paramStyle({ ...array, collectionFormat: "pipes" }, "body"), { style: "pipeDelimited" });
  assert.deepEqual(paramStyle({ ...array, collectionFormat: "csv" }, "path"), {});
  assert.deepEqual(paramStyle({ name: "s", type: "string" }, "query"), {});
});

Deno.test("OpenAPI 3 style, explode and allowReserved are kept only where they differ from the defaults", () => {
  const schema = { type: "array" };
  assert.deepEqual(paramStyle({ schema, style: "form", explode: false }, "query"), { explode: false });
  assert.deepEqual(paramStyle({ schema, style: "deepObject", explode: true }, "query"), {
    style: "deepObject",
    explode: true,
  });
  assert.deepEqual(paramStyle({ schema, style: "pipeDelimited" }, "query"), { style: "pipeDelimited" });
  assert.deepEqual(paramStyle({ schema, style: "matrix", explode: true }, "path"), {
    style: "matrix",
    explode: true,
  });
  assert.deepEqual(paramStyle({ schema }, "path"), {});
  assert.deepEqual(paramStyle({ schema, style: "nonsense" }, "query"), {});
  assert.deepEqual(paramStyle({ schema, allowReserved: true }, "query"), { allowReserved: true });
  assert.deepEqual(paramStyle({ schema, allowReserved: true }, "path"), {}, "allowReserved is query only");
});

Deno.test("a body encoding entry gives the content type, and style only for form bodies", () => {
  const entry = { contentType: " application/json ", style: "deepObject", explode: true };
  assert.deepEqual(encodingStyle(entry, false), {
    style: "deepObject",
    explode: true,
    contentType: "application/json",
  });
  assert.deepEqual(encodingStyle(entry, true), { contentType: "application/json" });
  assert.deepEqual(encodingStyle(undefined, false), {});
});
