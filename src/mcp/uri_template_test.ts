import assert from "node:assert/strict";
import { compileUriTemplate } from "./uri_template.ts";

Deno.test("uri template {param} matches exactly one path segment", () => {
  const template = compileUriTemplate("users://{id}/profile");
  assert.deepEqual(template.match("users://42/profile"), { id: "42" });
  assert.equal(template.match("users://4/2/profile"), undefined);
  assert.equal(template.match("users://42/profile/extra"), undefined);
});

Deno.test("uri template {param*} and {+param} match the rest including slashes", () => {
  assert.deepEqual(compileUriTemplate("file:///{path*}").match("file:///a/b/c.txt"), { path: "a/b/c.txt" });
  assert.deepEqual(compileUriTemplate("repo://{owner}/{+path}").match("repo://me/src/x.ts"), {
    owner: "me",
    path: "src/x.ts",
  });
});

Deno.test("uri template decodes percent-escapes and escapes literal regexp characters", () => {
  const template = compileUriTemplate("q://search?term={term}");
  assert.deepEqual(template.match("q://search?term=a%20b"), { term: "a b" });
  assert.equal(template.match("q://searchXterm=a"), undefined);
});

Deno.test("uri template refuses repeated and malformed variables", () => {
  assert.throws(() => compileUriTemplate("x://{a}/{a}"), /repeats/);
  assert.throws(() => compileUriTemplate("x://{a"), /malformed/);
  assert.throws(() => compileUriTemplate("x://{1a}"), /malformed/);
});
