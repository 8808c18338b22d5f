import assert from "node:assert/strict";
import type { CliContext } from "./cli_context.ts";
import { PromptAborted, Prompter } from "./prompter.ts";

function scripted(answers: Array<string | null>, signal = new AbortController().signal) {
  const asked: string[] = [];
  const shown: string[] = [];
  const ctx: CliContext = {
    args: [],
    env: () => undefined,
    signal,
    stdout: () => undefined,
    stderr: (line) => shown.push(line),
    readLine: (question) => {
      asked.push(question);
      return Promise.resolve(answers.length === 0 ? null : answers.shift()!);
    },
  };
  return { prompter: new Prompter(ctx), asked, shown };
}

Deno.test("prompter takes the default on Enter, trims answers, and asks again until the check passes", async () => {
  const { prompter, asked, shown } = scripted(["", "  typed  ", "bad", "good"]);
  assert.equal(await prompter.ask("Name", { fallback: "pets" }), "pets");
  assert.equal(await prompter.ask("Name", { fallback: "pets" }), "typed");
  const answer = await prompter.ask("Word", { check: (a) => a === "good" ? undefined : "say good" });
  assert.equal(answer, "good");
  assert.deepEqual(asked, ["Name [pets]: ", "Name [pets]: ", "Word: ", "Word: "]);
  assert.deepEqual(shown, ["  say good"]);
});

Deno.test("prompter confirm reads y/yes/n/no, takes the default on Enter and re-asks otherwise", async () => {
  const { prompter, asked } = scripted(["", "YES", "n", "maybe", "no", ""]);
  assert.equal(await prompter.confirm("Go?", true), true);
  assert.equal(await prompter.confirm("Go?", false), true);
  assert.equal(await prompter.confirm("Go?", true), false);
  assert.equal(await prompter.confirm("Go?", true), false);
  assert.equal(await prompter.confirm("Go?", false), false);
  assert.equal(asked[0], "Go? [Y/n] ");
  assert.equal(asked[1], "Go? [y/N] ");
});

Deno.test("prompter choose lists the choices and takes a number, a value or the default; unavailable ones are refused", async () => {
  const { prompter, shown } = scripted(["", "2", "gamma", "beta", "9", "alpha"]);
  const choices = [
    { value: "alpha", note: "first" },
    { value: "beta", note: "second", unavailable: "not today" },
    { value: "gamma", note: "third" },
  ] as const;
  assert.equal(await prompter.choose("Pick", choices, "alpha"), "alpha");
  assert.equal(await prompter.choose("Pick", choices, "alpha"), "gamma");
  assert.equal(await prompter.choose("Pick", choices, "alpha"), "alpha");
  assert.ok(shown.includes("  1) alpha  first"));
  assert.ok(shown.includes("  2) beta   (not here: not today)"));
  assert.ok(shown.some((line) => /beta is not possible here: not today/.test(line)));
  assert.ok(shown.some((line) => /answer 1 to 3/.test(line)));
});

Deno.test("prompter aborts at the end of input, when the process is asked to stop, and after many bad answers", async () => {
  await assert.rejects(scripted([null]).prompter.ask("Q"), PromptAborted);
  const stop = new AbortController();
  const ctx: CliContext = {
    args: [],
    env: () => undefined,
    signal: stop.signal,
    stdout: () => undefined,
    stderr: () => undefined,
    readLine: () => new Promise(() => {}),
  };
  const pending = new Prompter(ctx).ask("Q");
  stop.abort("SIGINT");
  await assert.rejects(pending, PromptAborted);
  await assert.rejects(scripted(Array(20).fill("x")).prompter.confirm("Q", true), /too many invalid answers/);
});
