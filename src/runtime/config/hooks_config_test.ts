import assert from "node:assert/strict";
import { HOOK_EVENTS, isCommandHook } from "./hooks_config.ts";
import { parseSection } from "./issues.ts";
import { expectIssues, expectOk, issueAt } from "./_test_parse.ts";

Deno.test("hooks default to an empty list", () => {
  assert.deepEqual(expectOk(parseSection("hooks", undefined)), []);
});

Deno.test("a command hook gets a 10 second timeout and fails open", () => {
  const [hook] = expectOk(
    parseSection("hooks", [{ event: "run_start", command: "notify", args: ["--quiet"] }]),
  );
  assert.deepEqual(hook, {
    event: "run_start",
    command: "notify",
    args: ["--quiet"],
    timeout: 10,
    fail_closed: false,
  });
  assert.equal(isCommandHook(hook), true);
});

Deno.test("a pre_tool_call hook keeps fail_closed and its tool list", () => {
  const [hook] = expectOk(parseSection("hooks", [{
    event: "pre_tool_call",
    command: "/usr/local/bin/policy",
    fail_closed: true,
    tools: ["delete_order"],
    timeout: 2,
    env: { MODE: "strict" },
  }]));
  assert.deepEqual(hook, {
    event: "pre_tool_call",
    command: "/usr/local/bin/policy",
    fail_closed: true,
    tools: ["delete_order"],
    timeout: 2,
    env: { MODE: "strict" },
  });
});

Deno.test("a callback hook keeps the same function and gets a timeout", () => {
  const callback = () => undefined;
  const [hook] = expectOk(parseSection("hooks", [{ event: "run_end", callback }]));
  assert.deepEqual(Object.keys(hook).sort(), ["callback", "event", "fail_closed", "timeout"]);
  assert.equal("callback" in hook && hook.callback, callback);
  assert.equal(isCommandHook(hook), false);
});

Deno.test("a hook needs exactly one of command or callback", () => {
  assert.match(
    issueAt(parseSection("hooks", [{ event: "run_end" }]), "hooks[0].command").expected,
    /neither was given/,
  );
  const both = parseSection("hooks", [{ event: "run_end", command: "x", callback: () => 1 }]);
  assert.match(issueAt(both, "hooks[0].callback").expected, /no such field when command is set/);
});

Deno.test("command-only fields are refused on a callback hook", () => {
  const result = parseSection("hooks", [{
    event: "run_end",
    callback: () => 1,
    args: ["a"],
    cwd: "/tmp",
  }]);
  assert.deepEqual(expectIssues(result).map((issue) => issue.field).sort(), [
    "hooks[0].args",
    "hooks[0].cwd",
  ]);
});

Deno.test("fail_closed is only for pre_tool_call and tools only for tool events", () => {
  assert.match(
    issueAt(
      parseSection("hooks", [{ event: "post_tool_call", command: "x", fail_closed: true }]),
      "hooks[0].fail_closed",
    )
      .expected,
    /except for pre_tool_call/,
  );
  assert.match(
    issueAt(parseSection("hooks", [{ event: "run_start", command: "x", tools: ["a"] }]), "hooks[0].tools")
      .expected,
    /except for pre_tool_call and post_tool_call/,
  );
  expectOk(parseSection("hooks", [{ event: "post_tool_call", command: "x", tools: ["a"] }]));
});

Deno.test("an unknown event is refused with the list of valid events", () => {
  const expected =
    issueAt(parseSection("hooks", [{ event: "session_start", command: "x" }]), "hooks[0].event")
      .expected;
  for (const event of HOOK_EVENTS) assert.ok(expected.includes(`"${event}"`), `${event} in ${expected}`);
});

Deno.test("hook fields are checked strictly", () => {
  assert.match(
    issueAt(parseSection("hooks", [{ event: "run_end", command: "" }]), "hooks[0].command").expected,
    /empty string/,
  );
  assert.match(
    issueAt(parseSection("hooks", [{ event: "run_end", command: "x", timeout: 0 }]), "hooks[0].timeout")
      .expected,
    /> 0/,
  );
  assert.match(
    issueAt(parseSection("hooks", [{ event: "run_end", callback: "fn" }]), "hooks[0].callback").expected,
    /function.*\(got a string\)/,
  );
  assert.match(
    issueAt(parseSection("hooks", [{ event: "run_end", command: "x", shell: true }]), "hooks[0].shell")
      .expected,
    /^no such field/,
  );
});
