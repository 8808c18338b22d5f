import assert from "node:assert/strict";
import { secretReferenceIssues, withServerSecrets } from "./server_secrets.ts";
import { testConfig } from "./_test_runtime.ts";

const SERVERS = {
  gh: {
    url: "https://mcp.example.com/mcp",
    bearer_token: "${secret:GH_TOKEN}",
    headers: { "x-team": "t-${secret:TEAM}" },
  },
  local: { command: "tool-server", args: ["${secret:GH_TOKEN}"] },
};

Deno.test("server credentials take secret values at start; commands are left alone", () => {
  const values: Record<string, string> = { GH_TOKEN: "ghp_abc", TEAM: "ops" };
  const servers = withServerSecrets(SERVERS, (name) => values[name]);
  const gh = servers.gh;
  assert.equal(gh.url !== undefined && gh.bearer_token, "ghp_abc");
  assert.deepEqual(gh.url !== undefined && gh.headers, { "x-team": "t-ops" });
  assert.deepEqual(servers.local, SERVERS.local);
  assert.throws(
    () => withServerSecrets(SERVERS, () => undefined),
    (error: Error) => error.message === "server gh uses the secret TEAM, which has no active value",
  );
});

Deno.test("a reference to an undeclared secret is a config issue naming the field", () => {
  const declared = testConfig({
    servers: { gh: SERVERS.gh },
    secrets: { enabled: true, secrets: { GH_TOKEN: "x", TEAM: "y" } },
  });
  assert.deepEqual(secretReferenceIssues(declared), []);
  const missing = testConfig({
    servers: { gh: SERVERS.gh },
    secrets: { enabled: true, secrets: { GH_TOKEN: "x" } },
  });
  assert.deepEqual(secretReferenceIssues(missing).map((i) => i.field), ["servers.gh.headers.x-team"]);
  const off = testConfig({ servers: { gh: SERVERS.gh } });
  assert.equal(secretReferenceIssues(off).length, 2);
});
