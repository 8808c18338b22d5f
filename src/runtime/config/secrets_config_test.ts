import assert from "node:assert/strict";
import { parseSection } from "./issues.ts";
import { expectOk, issueAt } from "./_test_parse.ts";

Deno.test("an empty secrets section resolves to disabled scoping", () => {
  assert.deepEqual(expectOk(parseSection("secrets", {})), {
    enabled: false,
    secrets: {},
    default_ttl: null,
    ttls: {},
    revoke_on_stop: true,
  });
});

Deno.test("secret values may be literals or references and are kept unresolved", () => {
  const secrets = expectOk(
    parseSection("secrets", { enabled: true, secrets: { API_KEY: "${HOST_KEY}", PIN: "1234" } }),
  );
  assert.deepEqual(secrets.secrets, { API_KEY: "${HOST_KEY}", PIN: "1234" });
});

Deno.test("secret names follow the name rule", () => {
  assert.match(
    issueAt(parseSection("secrets", { secrets: { "9lives": "x" } }), "secrets.secrets.9lives").expected,
    /secret name/,
  );
  assert.match(
    issueAt(parseSection("secrets", { secrets: { A: 5 } }), "secrets.secrets.A").expected,
    /got a number/,
  );
});

Deno.test("ttls must name configured secrets and be positive", () => {
  assert.match(
    issueAt(parseSection("secrets", { secrets: { A: "x" }, ttls: { B: 10 } }), "secrets.ttls.B").expected,
    /listed in secrets/,
  );
  assert.match(
    issueAt(parseSection("secrets", { secrets: { A: "x" }, ttls: { A: 0 } }), "secrets.ttls.A").expected,
    /> 0/,
  );
  assert.deepEqual(expectOk(parseSection("secrets", { secrets: { A: "x" }, ttls: { A: 60 } })).ttls, {
    A: 60,
  });
  assert.match(
    issueAt(parseSection("secrets", { default_ttl: 0 }), "secrets.default_ttl").expected,
    /> 0 or null/,
  );
});
