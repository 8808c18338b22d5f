import assert from "node:assert/strict";
import { missingPermission, permissionFailure, permissionHint, yamlEnvFailure } from "./permission_hint.ts";

Deno.test("a permission hint names what is refused and the flag, with the parent directory as the wider grant", () => {
  assert.equal(
    permissionHint({ name: "write", path: "./x-mcp" }),
    "may not write to ./x-mcp: run with --allow-write=./x-mcp (or --allow-write=.)",
  );
  assert.equal(
    permissionHint({ name: "read", path: "/srv/specs/a.yaml" }),
    "may not read /srv/specs/a.yaml: run with --allow-read=/srv/specs/a.yaml (or --allow-read=/srv/specs)",
  );
  assert.equal(
    permissionHint({ name: "write", path: "/out" }),
    "may not write to /out: run with --allow-write=/out",
  );
  assert.equal(
    permissionHint({ name: "write", path: "/tmp/my dir/x" }),
    "may not write to /tmp/my dir/x: run with '--allow-write=/tmp/my dir/x' (or '--allow-write=/tmp/my dir')",
  );
  assert.equal(
    permissionHint({ name: "net", host: "api.example.com", query: "api.example.com:443" }),
    "may not connect to api.example.com: run with --allow-net=api.example.com",
  );
});

Deno.test("only Deno's and the system's refusals become permission answers", () => {
  const needed = { name: "read", path: "spec.yaml" } as const;
  assert.equal(
    permissionFailure(new Deno.errors.NotCapable('Requires read access to "spec.yaml"'), needed),
    "may not read spec.yaml: run with --allow-read=spec.yaml (or --allow-read=.)",
  );
  assert.equal(
    permissionFailure(new Deno.errors.PermissionDenied("Permission denied (os error 13)"), needed),
    "the system refused access to spec.yaml (check its owner and mode)",
  );
  assert.equal(permissionFailure(new Deno.errors.NotFound("gone"), needed), undefined);
});

Deno.test("the yaml library's env look-ups are answered with --ignore-env, other env refusals are not", () => {
  assert.equal(
    yamlEnvFailure(
      new Deno.errors.NotCapable('Requires env access to "LOG_TOKENS", run again with --allow-env'),
    ),
    "the yaml library looks up LOG_STREAM and LOG_TOKENS: run with --ignore-env=LOG_STREAM,LOG_TOKENS",
  );
  assert.equal(yamlEnvFailure(new Deno.errors.NotCapable('Requires env access to "HOME"')), undefined);
  assert.equal(yamlEnvFailure(new Error('"LOG_TOKENS"')), undefined);
});

Deno.test("permissions the test holds are not reported missing", () => {
  assert.equal(missingPermission([{ name: "read", path: "." }, { name: "write", path: "./x" }]), undefined);
});
