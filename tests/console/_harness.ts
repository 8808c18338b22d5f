/**
 * The harness of the console's browser tests: a temp data dir, the local model server, `agentry runtime start`
 * as a subprocess on 127.0.0.1 (free port, known token), Chromium driven by `playwright-core` with a page at
 * 1280x800, screenshots under `artifacts/console/`, and a cleanup that leaves no process behind.
 *
 * Chromium is `AGENTRY_CHROMIUM`, else `chromium` (or `chromium-browser`) on PATH. Without either the tests
 * are skipped with a message, unless `AGENTRY_CONSOLE_REQUIRED=1` (set by `.ci/run`): then they fail.
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import type { RuntimeClient } from "../../src/api/client.ts";
import { type RecordedRequest, type ScriptedReply, startModelServer } from "../../src/models/testing/mod.ts";
import { within } from "../../src/_util/_test_raw_client.ts";
import { type Runtime, startRuntime } from "../_agent_harness.ts";

/** Where screenshots go: `artifacts/console/` at the repository root (gitignored). */
export const SCREENSHOTS: string = fileURLToPath(new URL("../../artifacts/console/", import.meta.url));

/** The API token every console test's runtime uses. */
export const TOKEN = "console-test-token";

/** Desktop viewport of the tests. */
export const DESKTOP = { width: 1280, height: 800 } as const;

/** Phone viewport of the narrow-screen check. */
export const PHONE = { width: 390, height: 844 } as const;

/** How long one browser test may take before it is failed and torn down. */
const TEST_TIMEOUT_MS = 120_000;

/** How long one Playwright action or assertion waits. */
const ACTION_TIMEOUT_MS = 15_000;

/** The Chromium executable: `AGENTRY_CHROMIUM`, else `chromium` / `chromium-browser` on PATH. */
export function chromiumPath(): string | undefined {
  const named = Deno.env.get("AGENTRY_CHROMIUM");
  if (named) return named;
  for (const dir of (Deno.env.get("PATH") ?? "").split(":").filter(Boolean)) {
    for (const name of ["chromium", "chromium-browser"]) {
      try {
        if (Deno.statSync(join(dir, name)).isFile) return join(dir, name);
      } catch {
        // not there
      }
    }
  }
  return undefined;
}

const CHROMIUM = chromiumPath();
const REQUIRED = Deno.env.get("AGENTRY_CONSOLE_REQUIRED") === "1";
let warned = false;

/** The scripted model of a session: answers each request (the echo model when not given). */
export type Respond = (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;

/** Options of {@link consoleTest}. */
export interface ConsoleTestOptions {
  /** The model server's answers. @default a text "Done." */
  respond?: Respond;
  /** Extra `runtime start` flags. */
  args?: string[];
  /** Extra environment of the runtime subprocess (e.g. a webhook secret named by `--allow-env-var`). */
  env?: Record<string, string>;
  /** Start the runtime with `--no-token` instead of {@link TOKEN}. */
  noToken?: boolean;
  /** Viewport of the page. @default {@link DESKTOP} */
  viewport?: { width: number; height: number };
  /** Overall time limit in ms. @default 120000 */
  timeoutMs?: number;
}

/** What a console test gets: the runtime, its client, the model server, the browser page. */
export interface ConsoleSession {
  /** The API's base URL (`http://127.0.0.1:<port>`). */
  url: string;
  /** The console's URL (`<url>/console/`). */
  consoleUrl: string;
  /** A typed client of the runtime (token set). */
  client: RuntimeClient;
  /** The runtime subprocess (its stderr is the log). */
  runtime: Runtime;
  /** Requests the model server received. */
  modelRequests: RecordedRequest[];
  /** The browser. */
  browser: Browser;
  /** The page (viewport as asked). */
  page: Page;
  /** The temp data dir. */
  dataDir: string;
  /** Saves a full-page screenshot as `artifacts/console/<name>.png`; resolves its path. */
  screenshot(name: string): Promise<string>;
  /** Opens the console and saves the token, waiting for `connected`. */
  login(): Promise<void>;
}

/** A default model: a short text answer. */
const done: Respond = () => ({ text: "Done." });

/** Starts everything a console test needs; dispose it to stop them all. */
export async function openSession(
  options: ConsoleTestOptions = {},
): Promise<ConsoleSession & AsyncDisposable> {
  const stack = new AsyncDisposableStack();
  try {
    const dataDir = await Deno.makeTempDir({ prefix: "agentry-console-" });
    stack.defer(() => Deno.remove(dataDir, { recursive: true }).catch(() => undefined));
    const model = stack.use(startModelServer({ respond: options.respond ?? done }));
    const runtime = stack.use(
      await startRuntime(
        [
          "--host",
          "127.0.0.1",
          "--data-dir",
          join(dataDir, "state"),
          ...(options.noToken ? ["--no-token"] : ["--token", TOKEN]),
          ...(options.args ?? []),
        ],
        { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "test-key", ...options.env },
      ),
    );
    const { url } = await runtime.cli.listening();
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-dev-shm-usage"],
      headless: true,
      timeout: 30_000,
    });
    stack.defer(() => within(10_000, "closing Chromium", browser.close()).catch(() => undefined));
    const context = await browser.newContext({ viewport: options.viewport ?? DESKTOP });
    const page = await context.newPage();
    page.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const consoleUrl = `${url}/console/`;
    const session: ConsoleSession = {
      url,
      consoleUrl,
      client: runtime.client,
      runtime,
      modelRequests: model.requests,
      browser,
      page,
      dataDir,
      async screenshot(name) {
        await Deno.mkdir(SCREENSHOTS, { recursive: true });
        const path = join(SCREENSHOTS, `${name}.png`);
        await page.screenshot({ path, fullPage: true });
        return path;
      },
      async login() {
        await page.goto(consoleUrl);
        await page.getByTestId("token-input").fill(TOKEN);
        await page.getByTestId("token-save").click();
        await page.getByTestId("connection").filter({ hasText: "connected" }).waitFor();
      },
    };
    const moved = stack.move();
    return { ...session, [Symbol.asyncDispose]: () => moved.disposeAsync() };
  } catch (error) {
    await stack.disposeAsync();
    throw error;
  }
}

/**
 * A browser test: skipped (with one message) when no Chromium is found, failing instead with
 * `AGENTRY_CONSOLE_REQUIRED=1`; bounded by `timeoutMs`, torn down whatever happens.
 */
export function consoleTest(
  name: string,
  fn: (session: ConsoleSession) => Promise<void>,
  options: ConsoleTestOptions = {},
): void {
  const missing = CHROMIUM === undefined;
  if (missing && !REQUIRED && !warned) {
    warned = true;
    console.warn(
      "console tests skipped: no Chromium (set AGENTRY_CHROMIUM or put chromium on PATH; " +
        "AGENTRY_CONSOLE_REQUIRED=1 makes this a failure)",
    );
  }
  Deno.test({
    name: `console: ${name}`,
    ignore: missing && !REQUIRED,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      if (missing) {
        throw new Error(
          "AGENTRY_CONSOLE_REQUIRED=1 but no Chromium: set AGENTRY_CHROMIUM or install chromium",
        );
      }
      await using session = await within(60_000, "starting the runtime and Chromium", openSession(options));
      try {
        await within(options.timeoutMs ?? TEST_TIMEOUT_MS, name, fn(session));
      } catch (error) {
        // What the page showed when it failed, for the CI artifacts; then the runtime's log tail.
        const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").slice(0, 60);
        await within(10_000, "the failure screenshot", session.screenshot(`failed-${slug}`)).catch(() =>
          undefined
        );
        console.error(`runtime log (last lines):\n${session.runtime.cli.stderr.slice(-20).join("\n")}`);
        throw error;
      }
    },
  });
}

/**
 * The scripted agent of the tests: a trigger payload with `order_id` gets a `set_context` tool call and,
 * after the tool result, a text; every operator question of the system prompt is answered
 * (`ANSWER Q<n>: the answer is <n * 42>`); a payload with `"fail": true` gets a 400 (the run fails and its
 * event is dead-lettered).
 */
export const agentModel: Respond = (request) => {
  const system = request.messages.filter((m) => m.role === "system").map((m) => m.content).join("\n");
  const answers = [...system.matchAll(/\[(?:[A-Z]+ )?QUESTION\] Q(\d+)/g)]
    .map((m) => `ANSWER Q${m[1]}: the answer is ${Number(m[1]) * 42}`);
  const last = request.messages.at(-1);
  if (last?.role === "user" && /"fail": true/.test(last.content)) {
    return { status: 400, body: JSON.stringify({ error: { message: "scripted failure" } }) };
  }
  const order = last?.role === "user" ? /"order_id": (\d+)/.exec(last.content)?.[1] : undefined;
  if (order !== undefined) {
    return {
      text: "Recording the order.",
      toolCalls: [{ name: "set_context", arguments: { values: { last_order: Number(order) } } }],
      usage: { input_tokens: 100, output_tokens: 20 },
    };
  }
  return { text: ["Order handled.", ...answers].join("\n"), usage: { input_tokens: 120, output_tokens: 10 } };
};

/** The config the tests deploy (as the deploy form's JSON): a webhook on `port`, inbox with wake, budget. */
export function agentConfig(port: number): Record<string, unknown> {
  return {
    model: "openai:gpt-test",
    instructions: "You handle orders.",
    context: { writable_keys: ["last_order", "note"], initial_state: { region: "eu" } },
    journal: { level: "full" },
    inbox: { enabled: true, wake: true },
    secrets: { enabled: true, secrets: { SHOP_KEY: "shop-key-1" } },
    budget: { enabled: true, max_tool_calls_per_day: 100 },
    triggers: [{ type: "webhook", webhook_path: "/orders", webhook_port: port }],
  };
}

/** Deploys `name` with {@link agentConfig} through the console's deploy form (the page shows the list). */
export async function deployThroughForm(page: Page, name: string, port: number): Promise<void> {
  await page.getByTestId("deploy-open").click();
  await page.getByTestId("deploy-name").fill(name);
  await page.getByTestId("deploy-config").fill(JSON.stringify(agentConfig(port), null, 2));
  const start = page.getByTestId("deploy-start");
  if (!(await start.isChecked())) await start.check();
  await page.getByTestId("deploy-submit").click();
  await processRow(page, name).getByTestId("process-state").filter({ hasText: "running" }).waitFor();
}

/** The processes-list row of `name`. */
export function processRow(page: Page, name: string): Locator {
  return page.locator(`[data-testid=process-row][data-name="${name}"]`);
}
