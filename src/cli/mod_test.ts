import assert from "node:assert/strict";
import { fakeContext } from "./_test_context.ts";
import { COMMANDS, GROUPS } from "./commands.ts";
import { MAIN_HELP, runCli } from "./mod.ts";

async function run(...args: string[]) {
  const { ctx, stdout, stderr } = fakeContext(args);
  const code = await runCli(ctx);
  return { code, stdout: stdout.join("\n"), stderr };
}

/** Every command as typed: `runtime start`, `audit verify`, `serve`, `mcpcast`. */
const COMMAND_WORDS = [
  ...Object.entries(GROUPS).flatMap(([group, { commands }]) =>
    Object.keys(commands).map((sub) => [group, sub])
  ),
  ...Object.keys(COMMANDS).map((name) => [name]),
];

Deno.test("every command and group prints its help on stdout with --help and -h, and help NAME... prints the same", async () => {
  for (const words of [...COMMAND_WORDS, ...Object.keys(GROUPS).map((group) => [group])]) {
    const long = await run(...words, "--help");
    assert.equal(long.code, 0, words.join(" "));
    assert.deepEqual(long.stderr, [], words.join(" "));
    assert.ok(long.stdout.startsWith(`Usage: agentry ${words.join(" ")} `), long.stdout);
    assert.deepEqual(await run(...words, "-h"), long, words.join(" "));
    assert.deepEqual(await run("help", ...words), long, `help ${words.join(" ")}`);
  }
});

Deno.test("a group's help lists its subcommands with the summaries the main help gives", async () => {
  assert.equal(
    (await run("runtime", "--help")).stdout,
    [
      "Usage: agentry runtime <command> [options]",
      "",
      "Commands:",
      "  start    serve the control API for a runtime of agent processes",
      "",
      "Run agentry runtime <command> --help for a command's options.",
    ].join("\n"),
  );
  assert.match((await run("audit", "-h")).stdout, /^ {2}verify {4}check the HMAC chain of MCP audit logs$/m);
  for (const { summary } of [...Object.values(GROUPS).flatMap((group) => Object.values(group.commands))]) {
    assert.ok(MAIN_HELP.includes(summary), summary);
  }
  for (const [name, { summary }] of Object.entries(COMMANDS)) {
    assert.match(MAIN_HELP, new RegExp(`^ {2}${name} .*${summary.slice(0, 30)}`, "m"));
  }
});

Deno.test("agentry help prints the main help; help of an unknown command is a usage error", async () => {
  assert.deepEqual(await run("help"), { code: 0, stdout: MAIN_HELP.trimEnd(), stderr: [] });
  assert.deepEqual(await run("help", "nope"), {
    code: 2,
    stdout: "",
    stderr: ["agentry: unknown command 'nope' (see agentry --help)"],
  });
  assert.deepEqual((await run("help", "runtime", "strt")).stderr, [
    "agentry: unknown runtime command 'strt'; did you mean start? (see agentry runtime --help)",
  ]);
  assert.deepEqual((await run("help", "serve", "--json")).stderr, [
    "agentry: help takes command names, not '--json' (see agentry --help)",
  ]);
});

Deno.test("a group without a subcommand is a usage error listing the subcommands", async () => {
  assert.deepEqual(await run("runtime"), {
    code: 2,
    stdout: "",
    stderr: ["agentry: runtime needs a subcommand: start (see agentry runtime --help)"],
  });
  assert.deepEqual((await run("audit")).stderr, [
    "agentry: audit needs a subcommand: verify (see agentry audit --help)",
  ]);
  assert.deepEqual((await run("runtime", "--port", "9100")).stderr, [
    "agentry: runtime needs a subcommand: start (see agentry runtime --help)",
  ]);
});

Deno.test("usage errors point to the help of the command used, with the nearest known word", async () => {
  const cases: Array<[string[], string]> = [
    [["--verison"], "unknown option '--verison'; did you mean --version? (see agentry --help)"],
    [["serv"], "unknown command 'serv'; did you mean serve? (see agentry --help)"],
    [["mcpcats"], "unknown command 'mcpcats'; did you mean mcpcast? (see agentry --help)"],
    [["start"], "unknown command 'start'; did you mean runtime start? (see agentry --help)"],
    [["launch"], "unknown command 'launch' (see agentry --help)"],
    [["audit", "verfy"], "unknown audit command 'verfy'; did you mean verify? (see agentry audit --help)"],
    [
      ["runtime", "start", "--prot", "80"],
      "unknown option '--prot'; did you mean --port? (see agentry runtime start --help)",
    ],
    [
      ["runtime", "start", "--port", "99999"],
      "--port must be an integer from 0 to 65535 (see agentry runtime start --help)",
    ],
    [
      ["audit", "verify", "a.jsonl", "--strcit"],
      "unknown option '--strcit'; did you mean --strict? (see agentry audit verify --help)",
    ],
    [["audit", "verify"], "audit verify needs at least one FILE (see agentry audit verify --help)"],
    [
      ["serve", "app.ts", "--trasnport", "http"],
      "unknown option '--trasnport'; did you mean --transport? (see agentry serve --help)",
    ],
    [["serve"], "serve needs a FILE (see agentry serve --help)"],
    [
      ["mcpcast", "spec.yaml", "--proflie", "full"],
      "unknown option '--proflie'; did you mean --profile? (see agentry mcpcast --help)",
    ],
    [
      ["mcpcast", "spec.yaml", "--max-tools", "0"],
      "--max-tools must be an integer of at least 1 (see agentry mcpcast --help)",
    ],
  ];
  for (const [args, message] of cases) {
    assert.deepEqual(
      await run(...args),
      { code: 2, stdout: "", stderr: [`agentry: ${message}`] },
      args.join(" "),
    );
  }
});
