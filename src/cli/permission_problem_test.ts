import assert from "node:assert/strict";
import { permissionProblem } from "./permission_problem.ts";

const notCapable = (message: string) => new Deno.errors.NotCapable(message);

Deno.test("permissionProblem names the permission and the flag that grants it", () => {
  assert.equal(
    permissionProblem(
      notCapable('Requires read access to "/srv/audit.jsonl", run again with the --allow-read flag'),
    ),
    "may not read /srv/audit.jsonl: run with --allow-read=/srv/audit.jsonl (or --allow-read=/srv) (see docs/troubleshooting.md)",
  );
  assert.equal(
    permissionProblem(notCapable('Requires env access to "LOG_TOKENS", run again with the --allow-env flag')),
    "the yaml library looks up LOG_STREAM and LOG_TOKENS: run with --ignore-env=LOG_STREAM,LOG_TOKENS (see docs/troubleshooting.md)",
  );
  assert.equal(
    permissionProblem(notCapable("Requires env access, run again with the --allow-env flag")),
    "may not read environment variables: run with --allow-env (see docs/troubleshooting.md)",
  );
  assert.equal(
    permissionProblem(notCapable('Requires net access to "0.0.0.0:0", run again with the --allow-net flag')),
    "may not connect to 0.0.0.0: run with --allow-net=0.0.0.0 (see docs/troubleshooting.md)",
  );
  assert.equal(
    permissionProblem(
      notCapable('Requires write access to "/tmp/my dir", run again with the --allow-write flag'),
    ),
    "may not write to /tmp/my dir: run with '--allow-write=/tmp/my dir' (or --allow-write=/tmp) (see docs/troubleshooting.md)",
  );
});

Deno.test("permissionProblem finds a permission error among the causes, and ignores other errors", () => {
  const wrapped = new Error("cannot load", {
    cause: notCapable('Requires run access to "git", run again with the --allow-run flag'),
  });
  assert.equal(
    permissionProblem(wrapped),
    "may not run git: run with --allow-run=git (see docs/troubleshooting.md)",
  );
  assert.equal(permissionProblem(new TypeError("boom")), undefined);
  assert.equal(permissionProblem("a string"), undefined);
  assert.equal(
    permissionProblem(new Deno.errors.PermissionDenied("Permission denied (os error 13): open '/srv/x'")),
    "the system refused access: Permission denied (os error 13): open '/srv/x' (check the owner and mode of the file)",
  );
});
