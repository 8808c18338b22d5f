import assert from "node:assert/strict";
import { mayReadYaml, outDirNeeds, sourceNeeds } from "./permissions.ts";

Deno.test("SOURCE needs read of its file, of its directory with external refs, or the URL's host; inline text needs nothing", () => {
  assert.deepEqual(sourceNeeds(" specs/a.yaml "), [{ name: "read", path: "specs/a.yaml" }]);
  assert.deepEqual(sourceNeeds("specs/a.yaml", { externalRefs: { allowHosts: ["refs.example.com"] } }), [
    { name: "read", path: "specs" },
    { name: "net", host: "refs.example.com" },
  ]);
  assert.deepEqual(sourceNeeds("https://user:pw@api.example.com/v1/openapi.json?key=s"), [
    { name: "net", host: "api.example.com", query: "api.example.com:443" },
  ]);
  assert.deepEqual(sourceNeeds("HTTP://[::1]:8080/spec"), [{
    name: "net",
    host: "[::1]:8080",
    query: "[::1]:8080",
  }]);
  assert.deepEqual(sourceNeeds("openapi: 3.1.0\ninfo: {}"), []);
  assert.deepEqual(sourceNeeds('{"swagger": "2.0"}'), []);
});

Deno.test("the output directory needs write and read", () => {
  assert.deepEqual(outDirNeeds("./x-mcp"), [{ name: "write", path: "./x-mcp" }, {
    name: "read",
    path: "./x-mcp",
  }]);
});

Deno.test("a source may be read as YAML unless it is inline JSON or a path or URL ending in .json", () => {
  for (const source of ["a.yaml", "spec", "https://x.example/openapi.yml", "openapi: 3.1.0"]) {
    assert.equal(mayReadYaml(source), true, source);
  }
  for (const source of ["a.json", "HTTPS://x.example/v1/openapi.JSON?x=1", ' {"openapi": "3.1.0"}']) {
    assert.equal(mayReadYaml(source), false, source);
  }
});
