import assert from "node:assert/strict";
import { parseSection } from "./issues.ts";
import { isProgramServer, serverTransport } from "./server_config.ts";
import { expectIssues, expectOk, issueAt } from "./_test_parse.ts";

Deno.test("servers default to an empty map and keep entries as written", () => {
  assert.deepEqual(expectOk(parseSection("servers", undefined)), {});
  const servers = expectOk(parseSection("servers", {
    github: { url: "https://mcp.example/github", headers: { "X-Team": "a" }, bearer_token: "${GH_TOKEN}" },
  }));
  assert.deepEqual(servers.github, {
    url: "https://mcp.example/github",
    headers: { "X-Team": "a" },
    bearer_token: "${GH_TOKEN}",
  });
});

Deno.test("a server has exactly one of url or command", () => {
  assert.match(
    issueAt(parseSection("servers", { x: {} }), "servers.x").expected,
    /exactly one of url or command/,
  );
  assert.match(
    issueAt(parseSection("servers", { x: { url: "http://a", command: "b" } }), "servers.x.command").expected,
    /url is set/,
  );
});

Deno.test("stdio needs a command and http transports need a url", () => {
  assert.match(
    issueAt(parseSection("servers", { x: { url: "http://a", transport: "stdio" } }), "servers.x.command")
      .expected,
    /stdio/,
  );
  assert.match(
    issueAt(parseSection("servers", { x: { command: "mcp", type: "sse" } }), "servers.x.url").expected,
    /sse transport/,
  );
});

Deno.test("type is an alias of transport and must agree with it", () => {
  assert.equal(expectOk(parseSection("servers", { x: { url: "http://a", type: "sse" } })).x.type, "sse");
  assert.match(
    issueAt(
      parseSection("servers", { x: { url: "http://a", type: "sse", transport: "http" } }),
      "servers.x.type",
    ).expected,
    /same value as transport/,
  );
});

Deno.test("server fields of the other kind are refused", () => {
  const urlServer = parseSection("servers", { x: { url: "http://a", args: ["-v"], cwd: "/srv" } });
  assert.deepEqual(expectIssues(urlServer).map((issue) => issue.field).sort(), [
    "servers.x.args",
    "servers.x.cwd",
  ]);
  assert.match(
    issueAt(parseSection("servers", { x: { command: "mcp", api_key: "k" } }), "servers.x.api_key").expected,
    /command server/,
  );
});

Deno.test("server names, URLs and unknown fields are checked", () => {
  assert.match(
    issueAt(parseSection("servers", { "bad name": { url: "http://a" } }), 'servers["bad name"]').expected,
    /server name/,
  );
  assert.match(
    issueAt(parseSection("servers", { x: { url: "ftp://a" } }), "servers.x.url").expected,
    /http\(s\) URL/,
  );
  assert.match(
    issueAt(parseSection("servers", { x: { url: "http://a", token: "t" } }), "servers.x.token").expected,
    /^no such field; allowed: url, transport/,
  );
  assert.equal(expectOk(parseSection("servers", { x: { url: "${MCP_URL}" } })).x.url, "${MCP_URL}");
});

Deno.test("isProgramServer spots command and stdio entries", () => {
  assert.equal(isProgramServer({ command: "npx" }), true);
  assert.equal(isProgramServer({ transport: "stdio" }), true);
  assert.equal(isProgramServer({ type: "stdio" }), true);
  assert.equal(isProgramServer({ transport: "http" }), false);
  assert.equal(isProgramServer({}), false);
});

Deno.test("serverTransport falls back from transport to type to the kind of entry", () => {
  assert.equal(serverTransport({ transport: "sse", type: "sse" }), "sse");
  assert.equal(serverTransport({ type: "http" }), "http");
  assert.equal(serverTransport({ command: "mcp" }), "stdio");
  assert.equal(serverTransport({}), "streamable-http");
});

Deno.test("protocol_version takes auto or a revision, and sse servers cannot ask for 2026-07-28", () => {
  const servers = expectOk(parseSection("servers", {
    a: { url: "http://a", protocol_version: "2026-07-28" },
    b: { command: "mcp", protocol_version: "2025-11-25" },
    c: { url: "http://c", transport: "sse", protocol_version: "auto" },
  }));
  assert.equal(servers.a.protocol_version, "2026-07-28");
  assert.equal(servers.b.protocol_version, "2025-11-25");
  assert.ok(
    issueAt(
      parseSection("servers", { x: { url: "http://a", protocol_version: "2024" } }),
      "servers.x.protocol_version",
    ),
  );
  assert.match(
    issueAt(
      parseSection("servers", { x: { url: "http://a", type: "sse", protocol_version: "2026-07-28" } }),
      "servers.x.protocol_version",
    ).expected,
    /sse transport speaks only 2025-era revisions/,
  );
});
