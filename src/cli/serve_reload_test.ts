import assert from "node:assert/strict";
import { SETTINGS_ENV } from "../mcp/mod.ts";
import { parseServeArgs } from "./serve_args.ts";
import { childPermissionFlags, RELOAD_CHILD_VARIABLE, reloadCommand } from "./serve_reload.ts";
import { CliFailure } from "./exit.ts";

const NOTHING = () => false;
const EVERYTHING = () => true;

Deno.test("the reload child gets --allow-<name> for each kind granted here for everything", () => {
  const options = parseServeArgs(["/srv/tools/server.ts", "--transport", "http"]);
  assert.deepEqual(childPermissionFlags({ options, projectDir: "/opt/agentry", granted: EVERYTHING }), [
    "--allow-net",
    "--allow-read",
    "--allow-write",
    "--allow-env",
    "--allow-run",
    "--allow-sys",
    "--allow-ffi",
  ]);
});

Deno.test("the reload child reads only FILE's and the library's directories and the AGENTRY_* settings", () => {
  const options = parseServeArgs(["/srv/tools/server.ts"]);
  assert.deepEqual(childPermissionFlags({ options, projectDir: "/opt/agentry", granted: NOTHING }), [
    "--allow-read=/srv/tools,/opt/agentry",
    `--allow-env=${[...SETTINGS_ENV, RELOAD_CHILD_VARIABLE].join(",")}`,
  ]);
});

Deno.test("reload over http needs network access: the exact address is passed on, none is refused", () => {
  const options = parseServeArgs(["/srv/server.ts", "--transport", "http", "--port", "9000"]);
  const exact = (d: Deno.PermissionDescriptor) =>
    d.name === "net" && "host" in d && d.host === "127.0.0.1:9000";
  assert.deepEqual(childPermissionFlags({ options, granted: exact }).slice(0, 2), [
    "--allow-net=127.0.0.1:9000",
    "--allow-read=/srv",
  ]);
  assert.throws(() => childPermissionFlags({ options, granted: NOTHING }), CliFailure);
  const anyPort = parseServeArgs(["/srv/server.ts", "--transport", "sse", "--port", "0"]);
  const anyHost = (d: Deno.PermissionDescriptor) => d.name === "net" && "host" in d;
  assert.throws(() => childPermissionFlags({ options: anyPort, granted: anyHost }), /--allow-net/);
});

Deno.test("a reload child runs main.ts with the project config, or the compiled binary itself", () => {
  const options = parseServeArgs(["/srv/server.ts", "--reload"]);
  const mainModule = new URL("../../main.ts", import.meta.url).href;
  const fromSource = reloadCommand(options, {
    execPath: "/bin/deno",
    mainModule,
    standalone: false,
    granted: NOTHING,
  });
  const project = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
  assert.equal(fromSource.program, "/bin/deno");
  assert.deepEqual(fromSource.args, [
    "run",
    "--no-prompt",
    `--config=${project}/deno.json`,
    `--allow-read=/srv,${project}`,
    `--allow-env=${[...SETTINGS_ENV, RELOAD_CHILD_VARIABLE].join(",")}`,
    `${project}/main.ts`,
    "serve",
    "/srv/server.ts",
    "--transport",
    "stdio",
  ]);
  const compiled = reloadCommand(options, { execPath: "/usr/bin/agentry", standalone: true });
  assert.deepEqual(compiled, {
    program: "/usr/bin/agentry",
    args: ["serve", "/srv/server.ts", "--transport", "stdio"],
  });
});
