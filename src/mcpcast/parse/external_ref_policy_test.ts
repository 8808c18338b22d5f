import assert from "node:assert/strict";
import { hostAllowed, insideDir, refusalOf } from "./external_ref_policy.ts";

Deno.test("an allowed host matches host[:port] exactly and case-insensitively, default ports implied", () => {
  const allow = ["Schemas.Example.com", "127.0.0.1:8080", "api.example.com:443"];
  assert.ok(hostAllowed(new URL("https://schemas.example.COM/x.json"), allow));
  assert.ok(hostAllowed(new URL("http://127.0.0.1:8080/x.json"), allow));
  assert.ok(hostAllowed(new URL("https://api.example.com/x.json"), allow));
  assert.ok(!hostAllowed(new URL("http://api.example.com/x.json"), allow));
  assert.ok(!hostAllowed(new URL("https://schemas.example.com:8443/x.json"), allow));
  assert.ok(!hostAllowed(new URL("http://127.0.0.1/x.json"), allow));
  assert.ok(!hostAllowed(new URL("https://evil.schemas.example.com/x.json"), allow));
  assert.ok(!hostAllowed(new URL("ftp://schemas.example.com/x.json"), allow));
});

Deno.test("file refs are followed only for a file spec, relative and under its directory", () => {
  const policy = { allowHosts: [], rootDir: "/specs/api" };
  const at = (ref: string) => refusalOf(ref, new URL(ref, "file:///specs/api/spec.yaml"), policy);
  assert.equal(at("schemas.yaml#/X"), undefined);
  assert.equal(at("sub/../common/x.yaml"), undefined);
  assert.equal(at("../x.yaml"), "it points outside the spec's directory");
  assert.equal(at("/specs/api/x.yaml"), "absolute file references are not followed");
  assert.equal(at("file:///specs/api/x.yaml"), "absolute file references are not followed");
  assert.equal(
    refusalOf("x.yaml", new URL("file:///x.yaml"), { allowHosts: [] }),
    "file references are followed only for a spec read from a file",
  );
  assert.ok(insideDir("/a", "/a/b/c") && !insideDir("/a", "/ab") && !insideDir("/a", "/a/../b"));
});
