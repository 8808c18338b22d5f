/**
 * The help text of `agentry mcpcast`.
 *
 * @module
 */

/** Help text of `agentry mcpcast`. */
export const MCPCAST_HELP = `Usage: agentry mcpcast SOURCE [options]
       agentry mcpcast --plan FILE [--out DIR] [--force] [--review] [--json] [--eval --model M]
       agentry mcpcast             (on a terminal: guided setup, step by step)

Turn an OpenAPI 3.x or Swagger 2 description (SOURCE: a file path or an http(s) URL) into an MCP
server project: every operation is classified (read, write, destructive, financial), the safety
profile decides which become tools and which wait for a human approval, and the result is written
as a Deno project with mcpcast.plan.yaml, the editable source of truth. Edit the plan, then
regenerate the project from it with --plan.

Options:
  -o, --out DIR           where to write (default ./<api name>-mcp; with --plan, the plan's directory)
  --force                 write into a non-empty directory that is not an mcpcast project, replace
                          an existing plan, or overwrite tool modules without the generated header
  --profile PROFILE       read-only (reads only), standard (reads + approval-gated writes) or full
                          (everything, every non-read gated) (default read-only)
  --auth MODE             how the server authenticates upstream (default none when the spec declares
                          no security requirement, else passthrough when its credential is the
                          Authorization header, else env-token):
                            passthrough  forwards each caller's Authorization header
                            env-token    one credential from MCPCAST_UPSTREAM_TOKEN (loopback only)
                            api-key      clients present keys; each tenant has its own credential
                            none         the API needs no credential (loopback only)
  --approval MODE         who approves gated calls: elicitation (the calling client asks its user)
                          or pending (a reviewer decides; needs --auth api-key)
                          (default pending with api-key, else elicitation)
  --base-url URL          upstream base URL (default: the spec's servers)
  --external-refs         follow $refs into other files under the spec file's directory (off by
                          default: an operation using such a $ref is left out as unsupported)
  --allow-ref-host HOST   also follow $refs to http(s) documents on HOST (host or host:port, exact,
                          case-insensitive; repeatable; implies --external-refs). Each document is
                          loaded once, at most 50, each within the MCPCAST_* spec limits and all
                          together within MCPCAST_MAX_SPEC_BYTES
  --name NAME             API name: lower-case letters, digits, '-' and '_' (default: a short title,
                          else the spec's host: api.github.com is github)
  --max-tools N           at most N tools (default 25 with --model, else unlimited; without a
                          model reads are kept first)
  --tag TAG               convert only operations with this tag (repeatable; case-insensitive)
  --path PREFIX           convert only operations under this path prefix, whole segments
                          (repeatable; with --tag, an operation matching either is kept). For a large
                          API, one area at a time: --tag issues, --path /repos/{owner}/{repo}/pulls
  --framework-import SPECIFIER|PATH
                          where the project finds the agentry library: a jsr:, npm: or http(s)
                          specifier, or the path of a local checkout (written as its absolute
                          file: URL) (default: what the project's deno.json maps, else
                          jsr:@agentry/agentry@^0.1, the published package)
  --plan FILE             regenerate the project from an edited mcpcast.plan.yaml instead of a spec
  --plan-only             write only mcpcast.plan.yaml (review or edit it, then use --plan)
  --model PROVIDER:MODEL  a model designs the tool surface: fewer tools (routes serving one goal
                          merged), intent names, descriptions written for agents; every rule is
                          checked in code and broken ones go back to the model (at most 3
                          attempts, then an error, never a silent fallback). Also the model of
                          --eval. Providers: openai, anthropic, ollama, openai-compatible; keys and
                          base URLs come from the environment (e.g. OPENAI_API_KEY) (default: no
                          model, one tool per operation)
  --no-curate             keep one tool per operation even with --model (it then serves --eval only)
  --eval                  after writing, run an agent (the --model) against the project's tools and
                          write eval/report.md, eval/report.json and eval/tasks.yaml: the Agent
                          Readiness Score (grade A to F); reads may reach the API, everything else
                          is answered by mocks
  --eval-tasks N          tasks the model writes for --eval, 1 to 500 (default 20; implies --eval)
  --eval-offline          --eval with every upstream request answered by a mock, reads too: nothing
                          reaches the API and no network permission for it is needed (implies --eval)
  --descriptions MODE     full (as planned) or compact (first sentences, short parameter
                          descriptions, schema noise removed: a smaller tools/list) (default full)
  --tool-mode MODE        direct (every tool listed) or meta (the server lists search_tools,
                          describe_tool and invoke_tool instead, for tool lists too large for a
                          model's context) (default direct)
  --review                print the review table and ask before writing (needs a terminal)
  -i, --interactive       the guided setup; only SOURCE, --base-url, --out, --force,
                          --framework-import and --model pre-fill it
  --json                  print a JSON summary on stdout (human output stays on stderr)
  -h, --help              show this help

Permissions (deno run): --allow-read of SOURCE and of the output directory, --allow-write of the
output directory, --allow-net for a URL SOURCE, and --ignore-env=LOG_STREAM,LOG_TOKENS (the yaml
library looks them up; do not grant them). With --model: --allow-env=VARS for the provider's
variables (e.g. --allow-env=OPENAI_API_KEY,OPENAI_BASE_URL) and --allow-net to its host; with --eval
also --allow-net to the API's host (reads may go live). A missing one is named with its flag before
anything is read or written.

Exit status: 0 written, 1 invalid spec or plan, refused directory, missing permission, a model that
cannot be used, failed curation or evaluation, or aborted, 2 wrong usage, 130 interrupted (SIGINT; 143 SIGTERM;
nothing is left half-written: the project is written only after curation, eval/ files atomically).
`;
