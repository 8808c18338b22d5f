import assert from "node:assert/strict";
import { formatPath, joinPath } from "./field_path.ts";

Deno.test("formatPath dots keys and brackets array indices", () => {
  assert.equal(formatPath(["triggers", 0, "cron_expression"]), "triggers[0].cron_expression");
  assert.equal(
    formatPath(["budget", "tool_costs", "send_email", "cost_weight"]),
    "budget.tool_costs.send_email.cost_weight",
  );
});

Deno.test("formatPath quotes keys that would be ambiguous when dotted", () => {
  assert.equal(formatPath(["servers", "a.b", "url"]), 'servers["a.b"].url');
  assert.equal(formatPath(["headers", ""]), 'headers[""]');
  assert.equal(formatPath(["env", "has space"]), 'env["has space"]');
});

Deno.test("formatPath keeps dashes and starts from a prefix", () => {
  assert.equal(formatPath(["my-server"], "servers"), "servers.my-server");
  assert.equal(formatPath([], "budget"), "budget");
  assert.equal(formatPath([]), "");
  assert.equal(joinPath("hooks", 2), "hooks[2]");
  assert.equal(joinPath("", "instructions"), "instructions");
});
