import assert from "node:assert/strict";
import { resolve } from "node:path";
import { MCPCAST_HELP, parseMcpcastArgs } from "./args.ts";
import { UsageError } from "../exit.ts";

Deno.test("mcpcast SOURCE alone plans from the spec with every option at its default", () => {
  assert.deepEqual(parseMcpcastArgs(["spec.yaml"]), {
    mode: "spec",
    source: "spec.yaml",
    force: false,
    profile: undefined,
    auth: undefined,
    approval: undefined,
    baseUrl: undefined,
    name: undefined,
    maxTools: undefined,
    planOnly: false,
    review: false,
    json: false,
    help: false,
    model: undefined,
    curate: false,
    evaluate: undefined,
    descriptions: undefined,
    toolMode: undefined,
  });
});

Deno.test("mcpcast reads every flag of a spec run", () => {
  const options = parseMcpcastArgs([
    "https://api.example.com/openapi.json",
    "--out",
    "build/pets",
    "--force",
    "--profile",
    "full",
    "--auth",
    "api-key",
    "--approval",
    "pending",
    "--base-url",
    "https://api.example.com/v2",
    "--name",
    "pets_api",
    "--max-tools",
    "12",
    "--plan-only",
    "--no-curate",
    "--review",
    "--json",
    "--descriptions",
    "compact",
    "--tool-mode",
    "meta",
  ]);
  assert.deepEqual(options, {
    mode: "spec",
    source: "https://api.example.com/openapi.json",
    out: "build/pets",
    force: true,
    profile: "full",
    auth: "api-key",
    approval: "pending",
    baseUrl: "https://api.example.com/v2",
    name: "pets_api",
    maxTools: 12,
    planOnly: true,
    review: true,
    json: true,
    help: false,
    model: undefined,
    curate: false,
    evaluate: undefined,
    descriptions: "compact",
    toolMode: "meta",
  });
  assert.equal(parseMcpcastArgs(["s.yaml", "-o", "x"]).out, "x");
  assert.equal(parseMcpcastArgs(["s.yaml", "--approval", "elicitation"]).approval, "elicitation");
  for (const auth of ["passthrough", "env-token", "api-key", "none"]) {
    assert.equal(parseMcpcastArgs(["s.yaml", "--auth", auth]).auth, auth);
  }
  for (const profile of ["read-only", "standard", "full"]) {
    assert.equal(parseMcpcastArgs(["s.yaml", "--profile", profile]).profile, profile);
  }
});

Deno.test("mcpcast follows external $refs only with --external-refs or --allow-ref-host", () => {
  assert.equal(parseMcpcastArgs(["s.yaml"]).externalRefs, undefined);
  assert.deepEqual(parseMcpcastArgs(["s.yaml", "--external-refs"]).externalRefs, { allowHosts: [] });
  assert.deepEqual(
    parseMcpcastArgs([
      "s.yaml",
      "--allow-ref-host",
      "Schemas.Example.com",
      "--allow-ref-host=127.0.0.1:8080",
      "--allow-ref-host",
      "[::1]:9000",
    ]).externalRefs,
    { allowHosts: ["Schemas.Example.com", "127.0.0.1:8080", "[::1]:9000"] },
  );
});

Deno.test("mcpcast --plan FILE regenerates from a plan resolved against the working directory", () => {
  const options = parseMcpcastArgs([
    "--plan",
    "pets-mcp/mcpcast.plan.yaml",
    "--out",
    "o",
    "--force",
    "--json",
  ]);
  assert.equal(options.mode, "plan");
  assert.equal(options.planFile, resolve("pets-mcp/mcpcast.plan.yaml"));
  assert.equal(options.out, "o");
  assert.equal(options.force, true);
  assert.equal(parseMcpcastArgs(["--plan", "p.yaml", "--review"]).review, true);
});

Deno.test("mcpcast with no SOURCE, or with --interactive, is the guided setup, pre-filled by a few flags", () => {
  assert.equal(parseMcpcastArgs([]).mode, "wizard");
  const options = parseMcpcastArgs(["-i", "spec.yaml", "--base-url", "http://127.0.0.1:8000", "--out", "d"]);
  assert.equal(options.mode, "wizard");
  assert.equal(options.source, "spec.yaml");
  assert.equal(options.baseUrl, "http://127.0.0.1:8000");
  assert.equal(parseMcpcastArgs(["--interactive", "--force", "--no-curate"]).force, true);
  assert.equal(
    parseMcpcastArgs(["-i", "--framework-import", "jsr:@agentry/agentry@^0.2"]).frameworkImport,
    "jsr:@agentry/agentry@^0.2",
  );
});

Deno.test("mcpcast --model curates with a budget of 25 unless --no-curate or --max-tools say otherwise", () => {
  const curated = parseMcpcastArgs(["s.yaml", "--model", "openai:gpt-5-mini"]);
  assert.equal(curated.model, "openai:gpt-5-mini");
  assert.equal(curated.curate, true);
  assert.equal(curated.maxTools, 25);
  assert.equal(curated.evaluate, undefined);
  assert.equal(parseMcpcastArgs(["s.yaml", "--model", "ollama:llama3.2:3b", "--max-tools", "8"]).maxTools, 8);
  const offline = parseMcpcastArgs(["s.yaml", "--model", "anthropic:claude", "--no-curate"]);
  assert.deepEqual([offline.curate, offline.maxTools], [false, undefined]);
  assert.deepEqual([parseMcpcastArgs(["s.yaml"]).curate, parseMcpcastArgs(["s.yaml"]).maxTools], [
    false,
    undefined,
  ]);
  assert.equal(parseMcpcastArgs(["s.yaml", "--no-curate"]).curate, false);
});

Deno.test("mcpcast --eval evaluates with 20 tasks, --eval-tasks N sets them and implies --eval, also with --plan", () => {
  const model = ["--model", "openai-compatible:x"];
  assert.deepEqual(parseMcpcastArgs(["s.yaml", ...model, "--eval"]).evaluate, { tasks: 20, offline: false });
  assert.deepEqual(parseMcpcastArgs(["s.yaml", ...model, "--eval-tasks", "2"]).evaluate, {
    tasks: 2,
    offline: false,
  });
  assert.deepEqual(parseMcpcastArgs(["s.yaml", ...model, "--eval", "--eval-tasks=7"]).evaluate, {
    tasks: 7,
    offline: false,
  });
  const fromPlan = parseMcpcastArgs(["--plan", "p.yaml", ...model, "--eval"]);
  assert.deepEqual([fromPlan.mode, fromPlan.curate, fromPlan.evaluate], ["plan", false, {
    tasks: 20,
    offline: false,
  }]);
  assert.equal(fromPlan.model, "openai-compatible:x");
  assert.equal(fromPlan.maxTools, undefined);
  assert.equal(parseMcpcastArgs(["-i", ...model]).model, "openai-compatible:x");
});

Deno.test("mcpcast --help needs nothing else and describes every flag with its default", () => {
  assert.equal(parseMcpcastArgs(["--help"]).help, true);
  assert.equal(parseMcpcastArgs(["-h", "--profile", "bogus"]).help, true);
  const flags = [
    "--out",
    "--force",
    "--profile",
    "--auth",
    "--approval",
    "--base-url",
    "--external-refs",
    "--allow-ref-host",
    "--name",
    "--max-tools",
    "--framework-import",
    "--plan",
    "--plan-only",
    "--no-curate",
    "--model",
    "--eval",
    "--eval-tasks",
    "--descriptions",
    "--tool-mode",
    "--review",
    "--interactive",
    "--json",
  ];
  for (const flag of flags) assert.ok(MCPCAST_HELP.includes(`${flag} `), flag);
  assert.doesNotMatch(MCPCAST_HELP, /comes later/);
  for (
    const text of [
      /--max-tools N +at most N tools \(default 25 with --model, else unlimited/,
      /--eval-tasks N +tasks the model writes for --eval, 1 to 500 \(default 20; implies --eval\)/,
      /\(default full\)/,
      /\(default direct\)/,
      /130 interrupted/,
    ]
  ) assert.match(MCPCAST_HELP, text);
  assert.match(
    MCPCAST_HELP,
    /--ignore-env=LOG_STREAM,LOG_TOKENS \(the yaml\s+library looks them up; do not grant them\)/,
  );
  assert.doesNotMatch(
    MCPCAST_HELP,
    /--allow-env[ =]*(LOG|\n| )/,
    "never suggests granting the yaml variables or all",
  );
});

Deno.test("every option the command and its guided setup name in a message is spelled as the command line takes it", async () => {
  const files = [
    "wizard.ts",
    "preview.ts",
    "report.ts",
    "write.ts",
    "source.ts",
    "permissions.ts",
    "mod.ts",
    "args_model.ts",
    "../../mcpcast/emit/write_project.ts",
    "../../mcpcast/plan/build_plan.ts",
    "../../mcpcast/plan/schema.ts",
    "../../mcpcast/parse/info.ts",
    "../../mcpcast/load/source.ts",
    "../../mcpcast/load/fetch.ts",
    "../../mcpcast/load/text.ts",
    "../../mcpcast/load/spec_version.ts",
    "../../_util/permission_hint.ts",
  ];
  // Deno's permission flags, and api-spec-converter's in the Swagger 1.x answer.
  const foreign = new Set([
    "--allow-",
    "--allow-read",
    "--allow-write",
    "--allow-net",
    "--ignore-env",
    "--from",
    "--to",
  ]);
  let named = 0;
  for (const file of files) {
    const text = await Deno.readTextFile(new URL(file, import.meta.url));
    for (const [flag] of text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)) {
      named += 1;
      if (foreign.has(flag)) continue;
      assert.ok(
        new RegExp(`${flag}[ ,\n]`).test(MCPCAST_HELP),
        `${file} names ${flag}, which mcpcast does not take`,
      );
    }
    assert.doesNotMatch(text, /\bpass force\b/i, file);
  }
  assert.ok(named > 20, `only ${named} flags found: the scan is not reading the files`);
});

Deno.test("mcpcast refuses unknown flags, bad values and combinations with a one-line message", () => {
  const cases: Array<[string[], RegExp]> = [
    [["s.yaml", "--bogus"], /--bogus/],
    [["s.yaml", "--curate"], /--curate/],
    [["a.yaml", "b.yaml"], /one SOURCE/],
    [["  "], /SOURCE must not be empty/],
    [["s.yaml", "--profile", "admin"], /--profile must be read-only, standard or full/],
    [["s.yaml", "--auth", "oauth"], /--auth must be passthrough, env-token, api-key or none/],
    [["s.yaml", "--approval", "auto"], /--approval must be elicitation or pending/],
    [["s.yaml", "--approval", "pending"], /--approval pending needs --auth api-key/],
    [["s.yaml", "--auth", "env-token", "--approval", "pending"], /needs --auth api-key/],
    [["s.yaml", "--max-tools", "0"], /--max-tools must be an integer of at least 1/],
    [["s.yaml", "--max-tools", "2.5"], /--max-tools/],
    [["s.yaml", "--max-tools=-3"], /--max-tools must be/],
    [["s.yaml", "--name", "Pets API"], /--name must be/],
    [["s.yaml", "--name=-pets"], /--name must be/],
    [["s.yaml", "--base-url", "api.example.com"], /--base-url must be an absolute http\(s\) URL/],
    [["s.yaml", "--base-url", "ftp://files.example.com"], /--base-url must be/],
    [["s.yaml", "--out", ""], /--out must not be empty/],
    [["s.yaml", "--profile"], /--profile/],
    [["s.yaml", "--plan", "p.yaml"], /SOURCE or --plan FILE, not both/],
    [["--plan", ""], /--plan must not be empty/],
    [["--plan", "p.yaml", "--profile", "full"], /--profile shapes a plan from a spec/],
    [["--plan", "p.yaml", "--max-tools", "3"], /--max-tools shapes a plan/],
    [["--plan", "p.yaml", "--plan-only"], /--plan-only needs SOURCE/],
    [["--profile", "full"], /mcpcast needs SOURCE or --plan FILE/],
    [["-i", "s.yaml", "--auth", "none"], /--auth does not apply to the guided setup/],
    [["-i", "--json"], /--json does not apply to the guided setup/],
    [["-i", "--plan", "p.yaml"], /--interactive takes no --plan/],
    [
      ["s.yaml", "--allow-ref-host", "https://schemas.example.com"],
      /--allow-ref-host must be a host or host:port/,
    ],
    [["s.yaml", "--allow-ref-host", "a.example.com/x"], /--allow-ref-host must be/],
    [["s.yaml", "--allow-ref-host", ""], /--allow-ref-host must be/],
    [["s.yaml", "--external-refs=yes"], /--external-refs/],
    [["--plan", "p.yaml", "--external-refs"], /--external-refs shapes a plan from a spec/],
    [["-i", "--allow-ref-host", "h"], /--allow-ref-host does not apply to the guided setup/],
    [["s.yaml", "--model", "gpt-5"], /--model must be PROVIDER:MODEL/],
    [["s.yaml", "--model", "openai:"], /--model must be PROVIDER:MODEL/],
    [
      ["s.yaml", "--model", "bogus:m"],
      /--model: unknown provider 'bogus' \(known: anthropic, ollama, openai, openai-compatible\)/,
    ],
    [["s.yaml", "--eval"], /--eval needs --model PROVIDER:MODEL/],
    [["s.yaml", "--eval-tasks", "3"], /--eval-tasks needs --model/],
    [["s.yaml", "--model", "openai:m", "--eval-tasks", "0"], /--eval-tasks must be an integer from 1 to 500/],
    [["s.yaml", "--model", "openai:m", "--eval-tasks", "501"], /--eval-tasks must be/],
    [["s.yaml", "--model", "openai:m", "--eval-tasks", "x"], /--eval-tasks must be/],
    [
      ["s.yaml", "--model", "openai:m", "--eval", "--plan-only"],
      /--eval evaluates the written project; it takes no --plan-only/,
    ],
    [["s.yaml", "--descriptions", "short"], /--descriptions must be compact or full/],
    [["s.yaml", "--tool-mode", "lazy"], /--tool-mode must be direct or meta/],
    [["s.yaml", "--eval=yes"], /--eval/],
    [["--plan", "p.yaml", "--model", "openai:m"], /--model with --plan only serves --eval/],
    [["--plan", "p.yaml", "--no-curate"], /--no-curate shapes a plan from a spec/],
    [["--plan", "p.yaml", "--descriptions", "compact"], /--descriptions shapes a plan from a spec/],
    [["--plan", "p.yaml", "--tool-mode", "meta"], /--tool-mode shapes a plan from a spec/],
    [["-i", "--eval"], /--eval does not apply to the guided setup/],
  ];
  for (const [args, message] of cases) {
    assert.throws(() => parseMcpcastArgs(args), (error) => {
      assert.ok(error instanceof UsageError, args.join(" "));
      assert.match(error.message, message, args.join(" "));
      assert.doesNotMatch(error.message, /\n/);
      return true;
    });
  }
});

Deno.test("mcpcast never echoes a --base-url it refuses (it may carry a credential)", () => {
  assert.throws(
    () => parseMcpcastArgs(["s.yaml", "--base-url", "ftp://user:s3cret@example.com"]),
    (error) => {
      assert.ok(error instanceof UsageError);
      assert.doesNotMatch(error.message, /s3cret/);
      return true;
    },
  );
});

Deno.test("mcpcast --tag and --path select operations (repeatable), checked, and are spec-only", () => {
  assert.deepEqual(
    parseMcpcastArgs(["spec.yaml", "--tag", "issues", "--tag", " pulls ", "--path", "/gists"]).select,
    { tags: ["issues", "pulls"], paths: ["/gists"] },
  );
  assert.deepEqual(parseMcpcastArgs(["spec.yaml", "--path", "/a"]).select, { tags: [], paths: ["/a"] });
  assert.equal(parseMcpcastArgs(["spec.yaml"]).select, undefined);
  assert.throws(() => parseMcpcastArgs(["spec.yaml", "--tag", " "]), /--tag must not be empty/);
  assert.throws(() => parseMcpcastArgs(["spec.yaml", "--path", "repos"]), /--path must start with '\/'/);
  assert.throws(
    () => parseMcpcastArgs(["--plan", "mcpcast.plan.yaml", "--tag", "issues"]),
    (error) => error instanceof UsageError && /--tag shapes a plan from a spec/.test(error.message),
  );
});

Deno.test("mcpcast --eval-offline implies --eval with every upstream request mocked, and needs --model", () => {
  const model = ["--model", "openai:gpt-5-mini"];
  assert.deepEqual(parseMcpcastArgs(["s.yaml", ...model, "--eval-offline"]).evaluate, {
    tasks: 20,
    offline: true,
  });
  assert.deepEqual(
    parseMcpcastArgs(["s.yaml", ...model, "--eval-tasks", "3", "--eval-offline"]).evaluate,
    { tasks: 3, offline: true },
  );
  assert.throws(() => parseMcpcastArgs(["s.yaml", "--eval-offline"]), /--eval-offline needs --model/);
});
