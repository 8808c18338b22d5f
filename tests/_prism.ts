/**
 * Stoplight Prism (`@stoplight/prism-cli`) as a request validator for tests: `prism mock SPEC --errors`
 * on 127.0.0.1 checks every request against the spec and answers a problem document
 * (`application/problem+json`, type `https://stoplight.io/prism/errors#…`) for one it rejects.
 * `.ci/run` installs it into `.tools/prism`; `MCPCAST_PRISM` names another binary.
 *
 * @module
 */

import { freePort } from "./_ports.ts";

/** Where Prism is looked for: `MCPCAST_PRISM`, else `.tools/prism/node_modules/.bin/prism` in this checkout. */
export function prismBinary(): string | undefined {
  const named = Deno.env.get("MCPCAST_PRISM");
  const path = named ?? new URL("../.tools/prism/node_modules/.bin/prism", import.meta.url).pathname;
  try {
    return Deno.statSync(path).isFile ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Why Prism turned a request down: its problem type (after `#`) and detail with the validation messages. */
export interface PrismRejection {
  /** HTTP status Prism answered. */
  status: number;
  /** The problem type's fragment: `UNPROCESSABLE_ENTITY`, `UNAUTHORIZED`, `NO_PATH_MATCHED_ERROR`, … */
  type: string;
  /** The detail and each validation message (`location: message`), joined. */
  reason: string;
}

/** The rejection a Prism answer carries, or undefined when Prism accepted the request. */
export async function prismRejection(response: Response): Promise<PrismRejection | undefined> {
  if (!(response.headers.get("content-type") ?? "").includes("problem+json")) return undefined;
  const problem = await response.clone().json().catch(() => ({})) as {
    type?: string;
    detail?: string;
    validation?: Array<{ location?: string[]; message?: string }>;
  };
  const type = problem.type ?? "";
  if (!type.startsWith("https://stoplight.io/prism/errors#")) return undefined;
  // VIOLATIONS about the response only: Prism's own mock answer breaks the spec's response schema.
  const validation = problem.validation ?? [];
  if (validation.length > 0 && validation.every((item) => item.location?.[0] === "response")) {
    return undefined;
  }
  const messages = validation.map((item) => `${(item.location ?? []).join(".")}: ${item.message ?? ""}`);
  return {
    status: response.status,
    type: type.slice(type.indexOf("#") + 1),
    reason: messages.length > 0 ? messages.join("; ") : problem.detail ?? "",
  };
}

/** A running `prism mock --errors` for one spec; stopped on dispose. */
export class PrismMock implements AsyncDisposable {
  readonly url: string;
  readonly #child: Deno.ChildProcess;
  readonly #output: string[] = [];
  readonly #drained: Promise<void>;

  private constructor(child: Deno.ChildProcess, url: string) {
    this.#child = child;
    this.url = url;
    this.#drained = Promise.all([child.stdout, child.stderr].map(async (stream) => {
      for await (const chunk of stream.pipeThrough(new TextDecoderStream())) this.#output.push(chunk);
    })).then(() => {});
  }

  /** Starts Prism on a free loopback port and waits (at most `timeoutMs`) until it listens. */
  static async start(binary: string, spec: string, timeoutMs = 120_000): Promise<PrismMock> {
    const port = freePort();
    const child = new Deno.Command(binary, {
      args: ["mock", "--host", "127.0.0.1", "--port", String(port), "--errors", spec],
      env: { NO_COLOR: "1", FORCE_COLOR: "0" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const mock = new PrismMock(child, `http://127.0.0.1:${port}`);
    const deadline = Date.now() + timeoutMs;
    while (!mock.#output.join("").includes("Prism is listening")) {
      if (Date.now() > deadline) {
        await mock[Symbol.asyncDispose]();
        throw new Error(`prism did not start on ${spec}:\n${mock.#output.join("").slice(-2000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return mock;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    try {
      this.#child.kill("SIGTERM");
    } catch {
      // already exited
    }
    const timer = setTimeout(() => {
      try {
        this.#child.kill("SIGKILL");
      } catch {
        // already exited
      }
    }, 5_000);
    await this.#child.status;
    clearTimeout(timer);
    await this.#drained;
  }
}
