/**
 * Line-based questions for interactive commands, over `CliContext.readLine`: free text with a
 * default, yes/no, and a numbered choice. Everything shown goes to stderr.
 *
 * @module
 */

import type { CliContext } from "./cli_context.ts";

/** The user ended the input (Ctrl-D), the process was asked to stop, or no valid answer came. */
export class PromptAborted extends Error {
  constructor(message = "aborted") {
    super(message);
    this.name = "PromptAborted";
  }
}

/** One entry of {@linkcode Prompter.choose}. */
export interface Choice<T extends string> {
  /** The value chosen (also accepted as the answer). */
  value: T;
  /** Text after the value. */
  note: string;
  /** Why it cannot be chosen here, if it cannot. */
  unavailable?: string;
}

/** Invalid answers tolerated in a row before giving up. */
const MAX_TRIES = 10;

/** Asks questions on a terminal. */
export class Prompter {
  #readLine: (question: string) => Promise<string | null>;
  #ctx: CliContext;

  /** A prompter over `ctx.readLine`, which must be present. */
  constructor(ctx: CliContext) {
    if (ctx.readLine === undefined) throw new Error("Prompter needs ctx.readLine");
    this.#readLine = ctx.readLine;
    this.#ctx = ctx;
  }

  /** Shows a line. */
  say(line = ""): void {
    this.#ctx.stderr(line);
  }

  async #line(question: string): Promise<string> {
    const signal = this.#ctx.signal;
    if (signal.aborted) throw new PromptAborted();
    let onAbort = () => {};
    const aborted = new Promise<null>((resolve) => {
      onAbort = () => resolve(null);
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      const answer = await Promise.race([this.#readLine(question), aborted]);
      if (answer === null) throw new PromptAborted();
      return answer.trim();
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  /**
   * Free text; an empty answer takes `fallback` when there is one. `check` returns a complaint to
   * ask again, or undefined to accept.
   */
  async ask(
    question: string,
    options: { fallback?: string; check?: (answer: string) => string | undefined } = {},
  ): Promise<string> {
    const shown = options.fallback === undefined || options.fallback === ""
      ? `${question}: `
      : `${question} [${options.fallback}]: `;
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const typed = await this.#line(shown);
      const answer = typed === "" ? options.fallback ?? "" : typed;
      const problem = answer === "" ? "an answer is needed" : options.check?.(answer);
      if (problem === undefined) return answer;
      this.say(`  ${problem}`);
    }
    throw new PromptAborted("too many invalid answers");
  }

  /** Yes or no; an empty answer takes `fallback`. */
  async confirm(question: string, fallback: boolean): Promise<boolean> {
    const shown = `${question} ${fallback ? "[Y/n]" : "[y/N]"} `;
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const answer = (await this.#line(shown)).toLowerCase();
      if (answer === "") return fallback;
      if (answer === "y" || answer === "yes") return true;
      if (answer === "n" || answer === "no") return false;
      this.say("  please answer y or n");
    }
    throw new PromptAborted("too many invalid answers");
  }

  /** One of `choices`, by number or by value; an empty answer takes `fallback`. */
  async choose<T extends string>(question: string, choices: readonly Choice<T>[], fallback: T): Promise<T> {
    const width = Math.max(...choices.map((choice) => choice.value.length));
    choices.forEach((choice, index) => {
      const note = choice.unavailable === undefined ? choice.note : `(not here: ${choice.unavailable})`;
      this.say(`  ${index + 1}) ${choice.value.padEnd(width)}  ${note}`);
    });
    const answer = await this.ask(question, {
      fallback,
      check: (typed) => {
        const choice = pick(choices, typed);
        if (choice === undefined) return `answer 1 to ${choices.length}, or one of: ${values(choices)}`;
        return choice.unavailable === undefined ? undefined : `${choice.value} is not possible here: ` +
          choice.unavailable;
      },
    });
    return pick(choices, answer)!.value;
  }
}

function values(choices: readonly Choice<string>[]): string {
  return choices.map((choice) => choice.value).join(", ");
}

function pick<T extends string>(choices: readonly Choice<T>[], typed: string): Choice<T> | undefined {
  const number = /^\d+$/.test(typed) ? Number(typed) : 0;
  return number >= 1 && number <= choices.length
    ? choices[number - 1]
    : choices.find((choice) => choice.value === typed.toLowerCase());
}
