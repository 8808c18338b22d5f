import assert from "node:assert/strict";
import { McpcastError } from "../errors.ts";
import { envOf } from "./_test_runtime.ts";
import { parseLaunchArgs } from "./launch_args.ts";

Deno.test("launch arguments: transports, host, port, --public from the flag or MCPCAST_PUBLIC", () => {
  assert.deepEqual(parseLaunchArgs([], envOf()), {
    transport: "stdio",
    host: "127.0.0.1",
    port: 8080,
    public: false,
    allowedHosts: [],
    help: false,
  });
  const http = parseLaunchArgs(
    [
      "--transport=sse",
      "--host",
      "0.0.0.0",
      "--port",
      "0",
      "--public",
      "--allowed-host",
      "a.example",
      "--allowed-host=b.example",
    ],
    envOf(),
  );
  assert.deepEqual(http, {
    transport: "sse",
    host: "0.0.0.0",
    port: 0,
    public: true,
    allowedHosts: ["a.example", "b.example"],
    help: false,
  });
  assert.equal(parseLaunchArgs([], envOf({ MCPCAST_PUBLIC: "1" })).public, true);
  for (const argv of [["--transport", "ws"], ["--port", "70000"], ["--port"], ["--verbose"]]) {
    assert.throws(() => parseLaunchArgs(argv, envOf()), McpcastError);
  }
});
