/**
 * Reads the runnable blocks of a Markdown page for `tests/docs_run_test.ts`: fenced ```sh and ```ts blocks, the
 * `<!-- run: ... -->` annotation right before one, the prose before it, and for shell blocks the commands with
 * the output their `# ...` comment lines document.
 *
 * Annotations (keep them rare; the runner prints every skip with its reason):
 * - `<!-- run: skip (REASON) -->`: not run.
 * - `<!-- run: background until "TEXT" -->`: a server the following blocks use; the runner waits until its
 *   output shows TEXT and stops it when the page ends.
 * - `<!-- run: file NAME -->`: the block (ts, or any other language: a manifest, a spec) is written to NAME, for
 *   a later block to use; the prose before it must name NAME.
 * - `<!-- run: check -->`: a ts block that is not a program (a fragment); it is type-checked only.
 *
 * A ts block without an annotation must follow prose that gives its command as a code span,
 * `` `deno run FLAGS NAME.ts` `` (variables may come first): it is written to NAME.ts and run with that command.
 *
 * @module
 */

/** What an annotation asks of the runner. */
export type Annotation =
  | { kind: "skip"; reason: string }
  | { kind: "background"; until: string }
  | { kind: "file"; name: string }
  | { kind: "check" };

/** One fenced block. */
export interface DocBlock {
  /** The page, as given to {@linkcode docBlocks}. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** `sh`, `ts`, or the language of a block annotated `file NAME` (`yaml`, `json`...). */
  readonly lang: string;
  readonly code: string;
  readonly annotation?: Annotation;
  /** The text between the previous block or heading and this block. */
  readonly prose: string;
}

/** A shell command and the output lines its `# ...` comments document (`…` matches any text). */
export interface ShellStep {
  readonly command: string;
  readonly expected: readonly string[];
}

const FENCE = /^```(\w*)\s*$/;
const ANNOTATION = /^<!--\s*run:\s*(.*?)\s*-->$/;

/** The sh and ts blocks of a Markdown page, in order; throws on an annotation it does not know. */
export function docBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split("\n");
  const blocks: DocBlock[] = [];
  let prose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i]);
    if (!fence) {
      if (lines[i].startsWith("#")) prose = [];
      else prose.push(lines[i]);
      continue;
    }
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    const lang = fence[1];
    const before = prose.filter((line) => line.trim() !== "");
    const marker = ANNOTATION.exec(before.at(-1)?.trim() ?? "");
    const annotation = marker ? parseAnnotation(marker[1], `${file}:${start + 1}`) : undefined;
    if (lang === "sh" || lang === "ts" || annotation?.kind === "file") {
      const text = (marker ? before.slice(0, -1) : before).join("\n");
      blocks.push({ file, line: start + 1, lang, code: body.join("\n"), annotation, prose: text });
    } else if (annotation) {
      throw new Error(
        `${file}:${start + 1}: a \`\`\`${lang} block is only written to a file (run: file NAME)`,
      );
    }
    prose = [];
  }
  return blocks;
}

function parseAnnotation(text: string, where: string): Annotation {
  let match;
  if ((match = /^skip \((.+)\)$/.exec(text))) return { kind: "skip", reason: match[1] };
  if ((match = /^background until "(.+)"$/.exec(text))) return { kind: "background", until: match[1] };
  if ((match = /^file (\S+)$/.exec(text))) return { kind: "file", name: match[1] };
  if (text === "check") return { kind: "check" };
  throw new Error(
    `${where}: unknown annotation "run: ${text}"; use skip (REASON), background until "TEXT", file NAME or check`,
  );
}

/** The `[VAR=value ...] deno run ... NAME.ts` command the prose gives as a code span, if any. */
export function proseCommand(prose: string): { command: string; file: string } | undefined {
  const match = /`((?:[A-Z_]+=\S+ )*deno run [^`]*?(\S+\.ts))`/.exec(prose);
  return match ? { command: match[1], file: match[2] } : undefined;
}

/**
 * Splits a shell block into commands (a command goes on while a line ends in `\` or a quote is open), each with
 * the `# ...` comment lines right after it as its documented output.
 */
export function shellSteps(code: string): ShellStep[] {
  const steps: { command: string; expected: string[] }[] = [];
  let pending: string[] = [];
  for (const line of code.split("\n")) {
    if (pending.length === 0) {
      const last = steps.at(-1);
      if (line.startsWith("#") && last) {
        last.expected.push(line.replace(/^# ?/, ""));
        continue;
      }
      if (line.trim() === "") {
        steps.push({ command: "", expected: [] }); // a blank line ends the comments of the last command
        continue;
      }
    }
    pending.push(line);
    const command = pending.join("\n");
    if (!line.endsWith("\\") && !openQuote(command)) {
      steps.push({ command, expected: [] });
      pending = [];
    }
  }
  if (pending.length > 0) steps.push({ command: pending.join("\n"), expected: [] });
  return steps.filter((step) => step.command !== "");
}

function openQuote(text: string): boolean {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quote === undefined && char === "#" && (i === 0 || /\s/.test(text[i - 1]))) {
      const end = text.indexOf("\n", i);
      if (end === -1) return false;
      i = end;
    } else if (char === "\\" && quote !== "'") i++;
    else if (quote === undefined && (char === "'" || char === '"')) quote = char;
    else if (char === quote) quote = undefined;
  }
  return quote !== undefined;
}

/** Output lines that a ts block documents: the trailing `// TEXT` of a `console.log(...);` line is what it prints. */
export function tsExpected(code: string): string[] {
  const out: string[] = [];
  for (const line of code.split("\n")) {
    const match = /console\.log\(.*\);\s*\/\/ (.*)$/.exec(line);
    if (match) out.push(match[1]);
  }
  return out;
}

/**
 * The first documented line that the output does not show, in order (whitespace runs count as one space and
 * `…` matches any text), or undefined when all are there.
 */
export function missingOutput(expected: readonly string[], output: string): string | undefined {
  const text = collapse(output);
  let from = 0;
  for (const line of expected) {
    const pattern = collapse(line).split("…").map(escape).join(".*?");
    const found = new RegExp(pattern, "s").exec(text.slice(from));
    if (!found) return line;
    from += found.index + found[0].length;
  }
  return undefined;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
