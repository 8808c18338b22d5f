import assert from "node:assert/strict";
import { isCommandHook } from "./hooks_config.ts";
import { parseSection } from "./issues.ts";
import { expectIssues, expectOk, issueAt } from "./_test_parse.ts";

Deno.test("hooks default to an empty list", () => {
  assert.deepEqual(expectOk(parseSection("hooks", undefined)), []);
});

Deno.test("a command hook gets a 5 second timeout", () => {
  const [hook] = expectOk(
    parseSection("hooks", [{ event: "session_start", command: "notify", args: ["--quiet"] }]),
  );
  assert.deepEqual(hook, { event: "session_start", command: "notify", args: ["--quiet"], timeout: 5 });
  assert.equal(isCommandHook(hook), true);
});

Deno.test("a callback hook keeps the same function and no command fields", () => {
  const callback = () => undefined;
  const [hook] = expectOk(parseSection("hooks", [{ event: "task_completed", callback }]));
  assert.deepEqual(Object.keys(hook), ["event", "callback"]);
  assert.equal("callback" in hook && hook.callback, callback);
  assert.equal(isCommandHook(hook), false);
});

Deno.test("a hook needs exactly one of command or callback", () => {
  assert.match(
    issueAt(parseSection("hooks", [{ event: "session_end" }]), "hooks[0].command").expected,
    /neither was given/,
  );
  const both = parseSection("hooks", [{ event: "session_end", command: "x", callback: () => 1 }]);
  assert.match(issueAt(both, "hooks[0].callback").expected, /no such field when command is set/);
});

Deno.test("command-only fields are refused on a callback hook", () => {
  const result = parseSection("hooks", [{
    event: "session_end",
    callback: () => 1,
    timeout: 3,
    cwd: "/tmp",
  }]);
  assert.deepEqual(expectIssues(result).map((issue) => issue.field).sort(), [
    "hooks[0].cwd",
    "hooks[0].timeout",
  ]);
});

Deno.test("hook fields are checked strictly", () => {
  assert.match(
    issueAt(parseSection("hooks", [{ event: "on_start", command: "x" }]), "hooks[0].event").expected,
    /^one of "session_start"/,
  );
  assert.match(
    issueAt(parseSection("hooks", [{ event: "session_end", command: "" }]), "hooks[0].command").expected,
    /empty string/,
  );
  assert.match(
    issueAt(parseSection("hooks", [{ event: "session_end", command: "x", timeout: 0 }]), "hooks[0].timeout")
      .expected,
    /> 0/,
  );
  assert.match(
    issueAt(parseSection("hooks", [{ event: "session_end", callback: "fn" }]), "hooks[0].callback").expected,
    /function.*\(got a string\)/,
  );
  assert.match(
    issueAt(parseSection("hooks", [{ event: "session_end", command: "x", shell: true }]), "hooks[0].shell")
      .expected,
    /^no such field/,
  );
});
