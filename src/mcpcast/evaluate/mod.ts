/**
 * The evaluation stage, the Agent Readiness Score: proof that an agent can use the generated server.
 *
 * 1. **Tasks**: a model writes realistic single-tool user requests from the server's tool catalogue
 *    (or a list is given, e.g. `eval/tasks.yaml` from an earlier run).
 * 2. **Upstream**: the server calls an evaluation upstream. Requests that only read-class tools make
 *    may reach the real API (`liveReads`); every other request gets a mock answer made from the
 *    operation's success response schema; a request no route serves gets 502 and is reported.
 * 3. **Run**: per task, an agent loop with the server's listed tools, every call through a real MCP
 *    client, gated calls approved automatically, credentials for the run set in the server's
 *    environment lookup only (never in the process environment).
 * 4. **Score**: 0.6 × task success + 0.4 × correct tool chosen first; grades A ≥ 0.9, B ≥ 0.75,
 *    C ≥ 0.6, D ≥ 0.4, else F; with confused tool pairs, parameter errors, coverage, the token size
 *    of `tools/list` and ordered fixes, as Markdown and JSON.
 *
 * @module
 */

export { evaluate } from "./evaluate.ts";
export type {
  BuildEvalServer,
  ConfusedPair,
  EvalCall,
  EvalFix,
  EvalGrade,
  EvalProgress,
  EvalReport,
  EvalTask,
  EvalTaskResult,
  EvaluateOptions,
} from "./types.ts";
export { gradeFor, scoreResults } from "./score.ts";
export { evalHeadline, renderEvalMarkdown } from "./render.ts";
export { EVAL_FILES, tasksYaml, writeEval } from "./write_eval.ts";
export { checkTasks, DEFAULT_TASKS } from "./tasks.ts";
export { EVAL_AUTHORIZATION, EVAL_HEADERS, EVAL_KEY } from "./eval_env.ts";
