// #/ : the processes, their actions, and the deploy form.

import { api, processPath } from "./api.js";
import { confirmHere, field, fill, h, notice, resultArea, showError, showOk, when } from "./ui.js";

const ACTIONS = ["start", "stop", "suspend", "resume", "restart"];

/** Renders the processes view into `main`. */
export async function renderProcesses(main, scope) {
  const tbody = h("tbody");
  const table = h(
    "table",
    { class: "stack" },
    h("caption", { class: "sr-only" }, "Processes"),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["Name", "State", "Model", "Triggers", "Queue", "Runs", "Usage", "Features", "Actions"].map((t) =>
          h("th", { scope: "col" }, t)
        ),
      ),
    ),
    tbody,
  );
  const empty = h("p", { class: "muted", testid: "processes-empty", hidden: true }, "No processes deployed.");
  fill(main, h("h2", {}, "Processes"), deployPanel(scope, () => refresh()), table, empty);
  async function refresh() {
    const list = await api("GET", "/api/v1/processes");
    const statuses = await Promise.all(
      list.processes.map((p) => api("GET", processPath(p.name)).catch(() => p)),
    );
    if (scope.signal.aborted) return;
    fill(tbody, statuses.map((status) => processRow(status, refresh)));
    empty.hidden = statuses.length > 0;
  }
  let timer;
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      // A redraw would drop an open confirmation: wait until it is answered.
      if (main.querySelector("[data-testid=confirm]")) later();
      else refresh().catch(() => {});
    }, 250);
  };
  scope.onEvent((event) => {
    if (/^(process\.|run\.|dead_letter|reset)/.test(event.event)) later();
  });
  await refresh();
}

function processRow(status, refresh) {
  const name = status.name;
  const runs = status.runs ?? {};
  const usage = runs.usage?.total;
  const features = Object.entries(status.features ?? {}).filter(([, on]) => on).map(([key]) => key);
  const row = h(
    "tr",
    { testid: "process-row", dataset: { name } },
    h(
      "td",
      { "data-label": "Name" },
      h("a", { href: `#/p/${encodeURIComponent(name)}`, testid: "process-link" }, name),
    ),
    h(
      "td",
      { "data-label": "State" },
      h("span", { testid: "process-state", class: `state-${status.state}` }, status.state),
    ),
    h("td", { "data-label": "Model" }, status.agent?.model ?? "—"),
    h("td", { "data-label": "Triggers" }, String(status.trigger_count ?? status.triggers?.count ?? 0)),
    h(
      "td",
      { "data-label": "Queue" },
      runs.queue_size === undefined ? "—" : `${runs.queue_size}/${runs.queue_capacity}`,
    ),
    h(
      "td",
      { "data-label": "Runs" },
      `${runs.invocations ?? 0}` + (runs.runs_failed ? ` (${runs.runs_failed} failed)` : ""),
    ),
    h("td", { "data-label": "Usage" }, usage ? `${usage.input_tokens} in / ${usage.output_tokens} out` : "—"),
    h("td", { "data-label": "Features" }, features.join(", ") || "—"),
  );
  const actions = h("div", { class: "actions" });
  for (const action of ACTIONS) {
    actions.append(h("button", {
      type: "button",
      testid: `action-${action}`,
      "aria-label": `${action} ${name}`,
      onclick: () => act(action, name, refresh),
    }, action));
  }
  const remove = h("button", {
    type: "button",
    class: "danger",
    testid: "action-remove",
    "aria-label": `remove ${name}`,
    onclick: async () => {
      if (!await confirmHere(actions, `Remove ${name}? Its deployment, inbox and context go.`)) return;
      try {
        await api("DELETE", processPath(name));
        notice(`${name} removed.`);
      } catch (error) {
        notice(`${name}: ${error.message}`);
      }
      refresh().catch(() => {});
    },
  }, "remove");
  actions.append(remove);
  row.append(h("td", { "data-label": "Actions" }, actions));
  row.title = status.created_at ? `created ${when(status.created_at)}` : "";
  return row;
}

async function act(action, name, refresh) {
  try {
    const answer = await api("POST", processPath(name, `/${action}`));
    notice(`${name}: ${action} → ${answer?.state ?? "done"}`);
  } catch (error) {
    notice(`${name}: ${action} failed: ${error.message}`);
  }
  await refresh().catch(() => {});
}

const EXAMPLE = JSON.stringify(
  { model: "openai:gpt-4o-mini", instructions: "You are a helpful agent.", triggers: [] },
  null,
  2,
);

function deployPanel(scope, refresh) {
  const result = resultArea();
  const form = h("form", { testid: "deploy-form", "aria-label": "Deploy a process", hidden: true });
  const open = h("button", {
    type: "button",
    testid: "deploy-open",
    "aria-expanded": "false",
    onclick: () => {
      form.hidden = !form.hidden;
      open.setAttribute("aria-expanded", String(!form.hidden));
      if (!form.hidden) form.querySelector("input")?.focus();
    },
  }, "Deploy a process");
  form.append(
    field({ label: "Name", name: "name", testid: "deploy-name", required: true, autocomplete: "off" }),
    field({
      label: "Config (JSON)",
      tag: "textarea",
      name: "config",
      testid: "deploy-config",
      rows: 10,
      value: EXAMPLE,
    }),
    field({
      label: "Start it now",
      type: "checkbox",
      name: "start",
      testid: "deploy-start",
      inline: true,
      checked: true,
    }),
    h("button", { type: "submit", class: "primary", testid: "deploy-submit" }, "Deploy"),
    ...result.nodes,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = form.elements.name.value.trim();
    let config;
    try {
      config = JSON.parse(form.elements.config.value);
    } catch (error) {
      showError(form, result, {
        message: "The config is not valid JSON.",
        details: [{ field: "config", expected: `JSON (${error.message})` }],
      });
      return;
    }
    try {
      const answer = await api("POST", "/api/v1/processes", {
        name,
        config,
        start: form.elements.start.checked,
      });
      showOk(form, result, `Deployed ${answer.name} (${answer.state}).`);
      if (!scope.signal.aborted) await refresh();
    } catch (error) {
      showError(form, result, error);
    }
  });
  return h("section", { "aria-label": "Deploy" }, open, form);
}
