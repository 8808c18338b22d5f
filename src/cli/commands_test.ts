import assert from "node:assert/strict";
import { groupHelp } from "./commands.ts";

Deno.test("groupHelp lists each subcommand of the group with its summary, aligned", () => {
  assert.equal(
    groupHelp("audit"),
    [
      "Usage: agentry audit <command> [options]",
      "",
      "Commands:",
      "  verify    check the HMAC chain of MCP audit logs",
      "",
      "Run agentry audit <command> --help for a command's options.",
    ].join("\n"),
  );
});
