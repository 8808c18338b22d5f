/**
 * Black-box tests of the answers `agentry` gives a new user (issue 17): help for every command and group,
 * usage errors that point to the help of the command used with the nearest known word, a missing
 * permission told apart from a missing value, and permission errors in one line instead of a stack trace.
 */

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath as fromFileUrl, pathToFileURL } from "node:url";
import { freePort } from "./_ports.ts";
import { tempDir } from "../src/_util/temp_dir.ts";
import { MANIFEST_SUFFIXES } from "../src/runtime/mod.ts";
import { runCli } from "./_cli_harness.ts";

const SECRET = "a-secret-of-the-audit-log";
const MCP_MODULE = pathToFileURL(join(import.meta.dirname!, "../src/mcp/mod.ts")).href;
const YAML_SPEC = join(import.meta.dirname!, "fixtures/specs/petstore_swagger2.yaml");

/** One line on stderr, no stack frame. */
function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, stderr);
  assert.doesNotMatch(lines[0], /\bat .*:\d+:\d+/);
  return lines[0];
}

Deno.test("groups and commands answer --help on stdout, and agentry help NAME prints the same", async () => {
  const [runtime, audit, startHelp, helpStart, helpNope, bare] = await Promise.all([
    runCli(["runtime", "--help"]),
    runCli(["audit", "-h"]),
    runCli(["runtime", "start", "--help"]),
    runCli(["help", "runtime", "start"]),
    runCli(["help", "nope"]),
    runCli(["runtime"]),
  ]);
  assert.equal(runtime.code, 0);
  assert.match(
    runtime.stdout,
    /^Usage: agentry runtime <command> \[options\]\n\nCommands:\n {2}start {4}serve the control API/,
  );
  assert.equal(audit.code, 0);
  assert.match(audit.stdout, /^ {2}verify {4}check the HMAC chain of MCP audit logs$/m);
  assert.equal(startHelp.code, 0);
  assert.deepEqual(helpStart, startHelp);
  assert.match(helpStart.stdout, /^Usage: agentry runtime start \[options\]/);
  assert.deepEqual({ code: helpNope.code, line: oneLine(helpNope.stderr), stdout: helpNope.stdout }, {
    code: 2,
    line: "agentry: unknown command 'nope' (see agentry --help)",
    stdout: "",
  });
  assert.deepEqual({ code: bare.code, line: oneLine(bare.stderr) }, {
    code: 2,
    line: "agentry: runtime needs a subcommand: start (see agentry runtime --help)",
  });
});

Deno.test("a mistyped flag or command gets the nearest known one and the help of the command used", async () => {
  const [flag, command] = await Promise.all([
    runCli(["runtime", "start", "--prot", "9100"]),
    runCli(["serv", "server.ts"]),
  ]);
  assert.deepEqual({ code: flag.code, line: oneLine(flag.stderr) }, {
    code: 2,
    line: "agentry: unknown option '--prot'; did you mean --port? (see agentry runtime start --help)",
  });
  assert.deepEqual({ code: command.code, line: oneLine(command.stderr) }, {
    code: 2,
    line: "agentry: unknown command 'serv'; did you mean serve? (see agentry --help)",
  });
});

Deno.test("runtime start --help names every manifest ending and where a generated token is written", async () => {
  const help = await runCli(["runtime", "start", "--help"]);
  assert.equal(help.code, 0);
  const manifests = help.stdout.split("\n").find((line) => line.includes("--manifests DIR")) ?? "";
  for (const suffix of MANIFEST_SUFFIXES) assert.ok(manifests.includes(`*${suffix}`), manifests);
  assert.match(help.stdout, /^A generated token is also written to <data-dir>\/api_token: /m);
});

Deno.test("audit verify and auditMiddleware tell a variable they may not read from one that is not set", async () => {
  await using dir = await tempDir();
  const log = join(dir.path, "audit.jsonl");
  await Deno.writeTextFile(log, "");
  const server = join(dir.path, "server.ts");
  await Deno.writeTextFile(
    server,
    `import { auditMiddleware, createToolServer } from "${MCP_MODULE}";\n` +
      "export default function build() {\n" +
      '  const server = createToolServer({ name: "audited" });\n' +
      `  server.use(auditMiddleware({ logPath: ${JSON.stringify(log)} }));\n` +
      "  return server;\n}\n",
  );
  const [unreadable, unset, middleware] = await Promise.all([
    runCli(["audit", "verify", log], {
      flags: [`--allow-read=${dir.path}`],
      env: { AGENTRY_AUDIT_SECRET: SECRET },
    }),
    runCli(["audit", "verify", log], {
      flags: [`--allow-read=${dir.path}`, "--allow-env=AGENTRY_AUDIT_SECRET"],
    }),
    runCli(["serve", server], { flags: [`--allow-read=${dir.path}`], env: { AGENTRY_AUDIT_SECRET: SECRET } }),
  ]);
  assert.deepEqual({ code: unreadable.code, line: oneLine(unreadable.stderr) }, {
    code: 2,
    line: "agentry: may not read AGENTRY_AUDIT_SECRET: run with --allow-env=AGENTRY_AUDIT_SECRET " +
      "(it must hold the audit log's HMAC key)",
  });
  assert.deepEqual({ code: unset.code, line: oneLine(unset.stderr) }, {
    code: 2,
    line: "agentry: AGENTRY_AUDIT_SECRET is not set (it must hold the audit log's HMAC key)",
  });
  assert.equal(middleware.code, 1);
  assert.equal(
    oneLine(middleware.stderr),
    `agentry: the default export of ${server} failed to build the server: TypeError: auditMiddleware: a signed ` +
      "log file needs a key, and agentry may not read AGENTRY_AUDIT_SECRET: run with " +
      "--allow-env=AGENTRY_AUDIT_SECRET (or pass hmacSecret)",
  );
  assert.ok(!`${unreadable.stderr}${middleware.stderr}`.includes(SECRET), "the secret is never printed");
});

Deno.test("a missing Deno permission is one line naming the permission and the flag, never a stack trace", async () => {
  await using dir = await tempDir();
  const log = join(dir.path, "audit.jsonl");
  await Deno.writeTextFile(log, "");
  const env = { AGENTRY_AUDIT_SECRET: SECRET };
  const [start, verify, spec, serve] = await Promise.all([
    runCli(["runtime", "start", "--data-dir", dir.path], { flags: ["--allow-read=."], cwd: dir.path }),
    runCli(["audit", "verify", log], { flags: ["--allow-env=AGENTRY_AUDIT_SECRET"], env }),
    runCli(["mcpcast", YAML_SPEC, "--out", join(dir.path, "out")], {
      flags: [`--allow-read=${YAML_SPEC}`, `--allow-write=${dir.path}`],
    }),
    runCli(["serve", log], { flags: [] }),
  ]);
  assert.equal(start.code, 1);
  assert.match(
    oneLine(start.stderr),
    new RegExp(`^agentry: missing Deno permissions: .*write access to ${dir.path};`),
  );
  assert.deepEqual({ code: verify.code, line: oneLine(verify.stderr) }, {
    code: 2,
    line: `agentry: may not read ${log}: run with --allow-read=${log} (or --allow-read=${
      dirname(log)
    }) (see docs/troubleshooting.md)`,
  });
  assert.equal(spec.code, 1);
  assert.match(
    oneLine(spec.stderr),
    /^agentry: mcpcast: the yaml library looks up LOG_STREAM and LOG_TOKENS: run with --ignore-env=LOG_STREAM,LOG_TOKENS$/,
  );
  assert.deepEqual({ code: serve.code, line: oneLine(serve.stderr) }, {
    code: 1,
    line: `agentry: may not read ${log}: run with --allow-read=${log} (or --allow-read=${
      dirname(log)
    }) (see docs/troubleshooting.md)`,
  });
});

Deno.test("serve without the net permission names the address to allow", async () => {
  const server = fromFileUrl(new URL("../examples/everything_server.ts", import.meta.url));
  const port = freePort();
  const result = await runCli(["serve", server, "--transport", "http", "--port", String(port)], {
    flags: ["--allow-read"],
  });
  assert.deepEqual({ code: result.code, line: result.stderr.trim().split("\n").at(-1) }, {
    code: 1,
    line: `agentry: may not connect to 127.0.0.1:${port}: run with --allow-net=127.0.0.1:${port} ` +
      "(see docs/troubleshooting.md)",
  });
});

Deno.test("--help wins over a mistake elsewhere in the command line", async () => {
  const [start, serve] = await Promise.all([
    runCli(["runtime", "start", "--port", "99999", "--help"]),
    runCli(["serve", "--nope", "-h"]),
  ]);
  assert.equal(start.code, 0, start.stderr);
  assert.match(start.stdout, /^Usage: agentry runtime start \[options\]/);
  assert.equal(serve.code, 0, serve.stderr);
  assert.match(serve.stdout, /^Usage: agentry serve FILE/);
});
