import assert from "node:assert/strict";
import { resolve } from "node:path";
import { parseServeArgs, serveArgsWithoutReload } from "./serve_args.ts";
import { UsageError } from "./exit.ts";

Deno.test("serve defaults to stdio on 127.0.0.1:8080 and resolves FILE against the cwd", () => {
  const options = parseServeArgs(["server.ts"]);
  assert.deepEqual(options, {
    file: "server.ts",
    path: resolve("server.ts"),
    transport: "stdio",
    host: "127.0.0.1",
    port: 8080,
    allowedHosts: [],
    allowedOrigins: [],
    stateless: false,
    reload: false,
    help: false,
  });
});

Deno.test("serve reads repeatable host and origin allowances, --stateless and --reload", () => {
  const options = parseServeArgs([
    "--transport",
    "http",
    "srv.ts",
    "--port",
    "0",
    "--allowed-host",
    "a.example",
    "--allowed-host",
    "b.example:9000",
    "--allowed-origin",
    "https://app.example",
    "--stateless",
    "--reload",
  ]);
  assert.equal(options.transport, "http");
  assert.equal(options.port, 0);
  assert.deepEqual(options.allowedHosts, ["a.example", "b.example:9000"]);
  assert.deepEqual(options.allowedOrigins, ["https://app.example"]);
  assert.equal(options.stateless, true);
  assert.equal(options.reload, true);
});

Deno.test("serve accepts a file: URL as FILE", () => {
  assert.equal(parseServeArgs(["file:///srv/tools/server.ts"]).path, "/srv/tools/server.ts");
});

Deno.test("serve --help needs no FILE", () => {
  assert.equal(parseServeArgs(["--help"]).help, true);
  assert.equal(parseServeArgs(["-h"]).help, true);
});

Deno.test("serve refuses unknown flags, bad values and flags that do not fit the transport", () => {
  const cases: Array<[string[], RegExp]> = [
    [[], /needs a FILE/],
    [["a.ts", "b.ts"], /one FILE/],
    [["a.ts", "--bogus"], /--bogus/],
    [["a.ts", "--transport", "websocket"], /--transport must be stdio, http or sse/],
    [["a.ts", "--transport", "http", "--port", "70000"], /--port/],
    [["a.ts", "--transport", "http", "--port", "-1"], /--port/],
    [["a.ts", "--transport", "http", "--host", ""], /--host/],
    [["a.ts", "--port", "9000"], /--port needs --transport http or sse/],
    [["a.ts", "--allowed-host", "x"], /--allowed-host needs --transport/],
    [["a.ts", "--transport", "sse", "--stateless"], /--stateless needs --transport http/],
    [["a.ts", "--transport", "http", "--allowed-origin", "nope"], /not a URL/],
    [["a.ts", "--reload=yes"], /reload/],
  ];
  for (const [args, message] of cases) {
    assert.throws(() => parseServeArgs(args), (error) => {
      assert.ok(error instanceof UsageError, args.join(" "));
      assert.match(error.message, message, args.join(" "));
      return true;
    });
  }
});

Deno.test("the child's serve arguments repeat every option except --reload", () => {
  const options = parseServeArgs([
    "srv.ts",
    "--transport",
    "http",
    "--host",
    "::1",
    "--port",
    "9001",
    "--allowed-host",
    "h.example",
    "--allowed-origin",
    "https://o.example",
    "--stateless",
    "--reload",
  ]);
  const args = serveArgsWithoutReload(options);
  assert.equal(args[0], "serve");
  assert.ok(!args.includes("--reload"));
  assert.deepEqual(parseServeArgs(args.slice(1)), { ...options, file: options.path, reload: false });
  assert.deepEqual(serveArgsWithoutReload(parseServeArgs(["s.ts", "--reload"])), [
    "serve",
    resolve("s.ts"),
    "--transport",
    "stdio",
  ]);
});
