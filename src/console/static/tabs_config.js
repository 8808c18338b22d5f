// Process tabs on how a process is configured: governance (budget, health, mission) and triggers.

import { api, processPath } from "./api.js";
import { field, fill, h, notice, parseValue, resultArea, showError, showOk, when } from "./ui.js";

const BUDGET_FIELDS = [
  "enabled",
  "max_tool_calls_per_run",
  "max_llm_turns_per_run",
  "max_cost_per_run",
  "max_irreversible_per_run",
  "max_tool_calls_per_day",
  "max_runs_per_day",
  "max_cost_per_day",
  "max_tokens_per_run",
  "max_tokens_per_day",
  "on_exceeded",
  "daily_reset_hour_utc",
  "inject_remaining",
];
const HEALTH_FIELDS = [
  "enabled",
  "stuck_threshold",
  "loop_window",
  "loop_min_repeats",
  "empty_threshold",
  "empty_max_chars",
  "error_window",
  "error_rate_threshold",
  "on_anomaly",
  "cooldown",
];
const MISSION_FIELDS = [
  "enabled",
  "objective",
  "success_criteria",
  "eval_model",
  "eval_every",
  "confidence_threshold",
  "timeout_hours",
  "max_invocations",
  "on_complete",
];

/** A live PATCH form: the filled inputs are sent (as JSON values when they parse), errors shown by field. */
function patchForm(kind, fields, path, current, after) {
  const result = resultArea();
  const form = h(
    "form",
    { testid: `${kind}-form`, "aria-label": `Change ${kind}`, class: "panel" },
    h("h3", {}, kind[0].toUpperCase() + kind.slice(1)),
    h(
      "p",
      { class: "muted" },
      "Fill only what changes; numbers and true/false are sent as JSON, null resets a field.",
    ),
    h(
      "div",
      { class: "grid" },
      fields.map((name) =>
        field({
          label: name,
          name,
          placeholder: current?.[name] === undefined ? "" : JSON.stringify(current[name]),
          autocomplete: "off",
        })
      ),
    ),
    h("button", { type: "submit", class: "primary", testid: `${kind}-submit` }, `Apply ${kind}`),
    ...result.nodes,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {};
    for (const name of fields) {
      const text = form.elements[name].value;
      if (text.trim() !== "") body[name] = parseValue(text);
    }
    try {
      const answer = await api("PATCH", path, body);
      showOk(form, result, `Applied (effective from ${answer.effective_from}).`);
      after?.(answer);
    } catch (error) {
      showError(form, result, error);
    }
  });
  return form;
}

/** The governance tab: budget, health and mission values and their live PATCH forms. */
export async function governanceTab(panel, _scope, name) {
  const status = await api("GET", processPath(name));
  const mission = await api("GET", processPath(name, "/mission")).catch(() => null);
  const anomalies = await api("GET", processPath(name, "/health/anomalies")).catch(() => null);
  const missionView = h("div", { testid: "mission-view" });
  const drawMission = (m) =>
    fill(
      missionView,
      m
        ? [
          h(
            "p",
            {},
            `State ${m.state}; ${m.invocation_count} runs counted; activated ${when(m.activated_at)}`,
            m.reason ? `; ${m.reason}` : "",
          ),
          h(
            "div",
            { class: "actions" },
            ["pause", "resume", "fail"].map((op) =>
              h("button", {
                type: "button",
                testid: `mission-${op}`,
                onclick: async () => {
                  try {
                    drawMission(
                      await api("POST", processPath(name, `/mission/${op}`), op === "fail" ? {} : undefined),
                    );
                  } catch (error) {
                    notice(error.message);
                  }
                },
              }, `${op} mission`)
            ),
          ),
        ]
        : h("p", { class: "muted" }, "No mission."),
    );
  drawMission(mission);
  fill(
    panel,
    h("h3", {}, "Current values"),
    h(
      "pre",
      { testid: "governance-status" },
      JSON.stringify({ budget: status.budget, health: status.health, mission: status.mission }, null, 2),
    ),
    anomalies && anomalies.length
      ? h(
        "ul",
        { testid: "anomalies" },
        anomalies.map((a) => h("li", {}, `${when(a.timestamp)} ${a.type}: ${a.description}`)),
      )
      : null,
    patchForm("budget", BUDGET_FIELDS, processPath(name, "/budget"), undefined),
    patchForm("health", HEALTH_FIELDS, processPath(name, "/health"), undefined),
    missionView,
    patchForm("mission", MISSION_FIELDS, processPath(name, "/mission"), mission ?? undefined, () => {
      api("GET", processPath(name, "/mission")).then(drawMission).catch(() => drawMission(null));
    }),
  );
}

/** The triggers tab: list, remove, add from a JSON config. */
export async function triggersTab(panel, scope, name) {
  const rows = h("tbody");
  const draw = async () => {
    const answer = await api("GET", processPath(name, "/triggers"));
    if (scope.signal.aborted) return;
    fill(
      rows,
      answer.triggers.map((t) =>
        h(
          "tr",
          { testid: "trigger-row", dataset: { triggerId: t.id } },
          h("th", { scope: "row" }, t.id),
          h("td", { "data-label": "Type" }, t.type),
          h("td", { "data-label": "Source" }, t.source ?? "—"),
          h("td", { "data-label": "Live" }, t.live ? "live" : "not live"),
          h("td", { "data-label": "Config" }, h("pre", {}, JSON.stringify(t.config))),
          h(
            "td",
            {},
            h("button", {
              type: "button",
              class: "danger",
              testid: "trigger-remove",
              "aria-label": `remove trigger ${t.id}`,
              onclick: async () => {
                try {
                  const done = await api(
                    "DELETE",
                    processPath(name, `/triggers/${encodeURIComponent(t.id)}`),
                  );
                  notice(done.warning ?? `Trigger ${t.id} removed.`);
                } catch (error) {
                  notice(error.message);
                }
                await draw();
              },
            }, "Remove"),
          ),
        )
      ),
    );
  };
  const result = resultArea();
  const form = h(
    "form",
    { class: "panel", "aria-label": "Add a trigger", testid: "trigger-add-form" },
    h("h3", {}, "Add a trigger"),
    field({
      label: "Trigger config (JSON)",
      tag: "textarea",
      name: "config",
      testid: "trigger-add-config",
      rows: 5,
      value: JSON.stringify({ type: "cron", cron_expression: "*/5 * * * *" }, null, 2),
    }),
    h("button", { type: "submit", class: "primary", testid: "trigger-add-submit" }, "Add"),
    ...result.nodes,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    let config;
    try {
      config = JSON.parse(form.elements.config.value);
    } catch (error) {
      showError(form, result, {
        message: "Not valid JSON.",
        details: [{ field: "config", expected: error.message }],
      });
      return;
    }
    try {
      const answer = await api("POST", processPath(name, "/triggers"), config);
      showOk(form, result, `Added ${answer.trigger_id} (${answer.trigger_type}).`);
      await draw();
    } catch (error) {
      showError(form, result, error);
    }
  });
  fill(panel, h("table", { class: "stack" }, h("caption", { class: "sr-only" }, "Triggers"), rows), form);
  await draw();
}
