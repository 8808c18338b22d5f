// #/p/<name> : one process, its header and tabs (runs and journal here; the others in tabs_*.js).

import { api, processPath, readEvents } from "./api.js";
import { field, fill, h, notice, when } from "./ui.js";
import { contextTab, inboxTab, secretsTab } from "./tabs_state.js";
import { governanceTab, triggersTab } from "./tabs_config.js";

const TABS = [
  ["runs", "Runs", runsTab],
  ["journal", "Journal", journalTab],
  ["inbox", "Inbox", inboxTab],
  ["context", "Context", contextTab],
  ["secrets", "Secrets", secretsTab],
  ["governance", "Governance", governanceTab],
  ["triggers", "Triggers", triggersTab],
];

/** Renders a process page into `main`, with `tab` open (runs by default). */
export async function renderProcess(main, scope, name, tab = "runs") {
  const summary = h("p", { class: "muted", testid: "process-summary" });
  const panel = h("section", { id: "tab-panel", role: "tabpanel", tabindex: "0" });
  const list = h("div", { role: "tablist", class: "tabs", "aria-label": "Process views" });
  let tabScope;
  const open = (key) => {
    tabScope?.abort();
    tabScope = new AbortController();
    scope.signal.addEventListener("abort", () => tabScope.abort(), { once: true });
    for (const button of list.children) {
      const selected = button.dataset.key === key;
      button.setAttribute("aria-selected", String(selected));
      button.tabIndex = selected ? 0 : -1;
    }
    const [, label, render] = TABS.find(([k]) => k === key) ?? TABS[0];
    panel.setAttribute("aria-label", label);
    fill(panel, h("p", {}, "Loading…"));
    const sub = { ...scope, signal: tabScope.signal };
    render(panel, sub, name).catch((error) => {
      if (!tabScope.signal.aborted) {
        fill(panel, h("p", { testid: "form-error", role: "alert" }, error.message));
      }
    });
  };
  for (const [key, label] of TABS) {
    list.append(h("button", {
      type: "button",
      role: "tab",
      testid: `tab-${key}`,
      "aria-controls": "tab-panel",
      dataset: { key },
      onclick: () => open(key),
      onkeydown: (event) => moveTab(event, list),
    }, label));
  }
  const status = await api("GET", processPath(name));
  fill(
    main,
    h("p", {}, h("a", { href: "#/" }, "← Processes")),
    h(
      "h2",
      {},
      name,
      " ",
      h("span", { testid: "process-state", class: `state-${status.state}` }, status.state),
    ),
    summary,
    list,
    panel,
  );
  const describe = (s) => {
    const runs = s.runs ?? {};
    fill(
      summary,
      `model ${s.agent?.model ?? "—"} · ${s.trigger_count ?? 0} triggers · ${runs.invocations ?? 0} runs` +
        ` · started ${when(s.started_at)}`,
    );
    const state = main.querySelector("h2 [data-testid=process-state]");
    state.textContent = s.state;
    state.className = `state-${s.state}`;
  };
  describe(status);
  scope.onEvent((event) => {
    if (event.data?.process !== name || !/^(process\.state|run\.ended)/.test(event.event)) return;
    api("GET", processPath(name)).then(describe).catch(() => {});
  });
  open(TABS.some(([k]) => k === tab) ? tab : "runs");
}

function moveTab(event, list) {
  const tabs = [...list.children];
  const index = tabs.indexOf(event.currentTarget);
  const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
  if (next === undefined) return;
  event.preventDefault();
  const target = tabs[(next + tabs.length) % tabs.length];
  target.focus();
  target.click();
}

async function runsTab(panel, scope, name) {
  const tbody = h("tbody");
  const steps = h("section", { "aria-label": "Run steps", "aria-live": "polite" });
  let selected;
  const runs = new Map();
  const show = async (runId) => {
    selected = runId;
    const run = await api("GET", processPath(name, `/runs/${encodeURIComponent(runId)}`));
    if (selected !== runId || scope.signal.aborted) return;
    fill(
      steps,
      h("h3", {}, `Run ${run.invocation ?? ""} · ${run.status}`),
      run.error ? h("p", { class: "status-failed" }, run.error) : null,
      h("ol", { class: "steps", testid: "run-steps", dataset: { runId } }, (run.steps ?? []).map(stepItem)),
      run.reply ? h("div", {}, h("h3", {}, "Reply"), h("pre", { testid: "run-reply" }, run.reply)) : null,
    );
  };
  const row = (run) =>
    h(
      "tr",
      {
        testid: "run-row",
        dataset: { runId: run.run_id, status: run.status },
        class: "clickable",
        // The whole row opens the run (the button in it is the keyboard's way).
        onclick: (event) => {
          if (!event.target.closest("button")) show(run.run_id).catch((error) => notice(error.message));
        },
      },
      h(
        "td",
        { "data-label": "Run" },
        h("button", {
          type: "button",
          testid: "run-open",
          "aria-label": `show run ${run.invocation ?? run.run_id}`,
          onclick: () => show(run.run_id).catch((error) => notice(error.message)),
        }, `#${run.invocation ?? "?"}`),
      ),
      h("td", { "data-label": "Status" }, h("span", { class: `status-${run.status}` }, run.status)),
      h("td", { "data-label": "Trigger" }, run.trigger_type ?? "—"),
      h("td", { "data-label": "Started" }, when(run.started_at)),
      h("td", { "data-label": "Turns / tools" }, `${run.model_turns ?? 0} / ${run.tool_calls ?? 0}`),
      h(
        "td",
        { "data-label": "Tokens" },
        run.usage ? `${run.usage.input_tokens} / ${run.usage.output_tokens}` : "—",
      ),
    );
  const empty = h("p", { class: "muted", testid: "runs-empty" }, "No runs yet; they appear here live.");
  const redraw = () => {
    fill(tbody, [...runs.values()].sort((a, b) => (b.invocation ?? 0) - (a.invocation ?? 0)).map(row));
    empty.hidden = runs.size > 0;
  };
  // A run's newer record wins: a late run_started never hides its run's end.
  const keep = (run) => {
    const known = runs.get(run.run_id);
    if (known?.ended_at && !run.ended_at) return;
    runs.set(run.run_id, run);
  };
  const apply = ({ event, data }) => {
    if ((event === "run_started" || event === "run_ended") && data.run) {
      keep(data.run);
      redraw();
      if (event === "run_ended" && data.run.run_id === selected) show(selected).catch(() => {});
    } else if (event === "step" && data.run_id === selected) {
      steps.querySelector("[data-testid=run-steps]")?.append(stepItem(data.step));
    }
  };
  // Live first, then the list: a run that starts while the list loads is not missed (its events wait).
  let early = [];
  readEvents(processPath(name, "/runs/events"), {
    signal: scope.signal,
    onEvent: (event) => early ? early.push(event) : apply(event),
  }).catch(() => {});
  const answer = await api("GET", processPath(name, "/runs?limit=50"));
  for (const run of answer.runs) keep(run);
  fill(
    panel,
    h(
      "table",
      { class: "stack" },
      h("caption", { class: "sr-only" }, "Runs, newest first"),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["Run", "Status", "Trigger", "Started", "Turns / tools", "Tokens"].map((t) =>
            h("th", { scope: "col" }, t)
          ),
        ),
      ),
      tbody,
    ),
    empty,
    steps,
  );
  redraw();
  const waiting = early;
  early = undefined;
  for (const event of waiting) apply(event);
}

function stepItem(step) {
  const data = step.data ?? {};
  let text;
  if (step.type === "model_turn") {
    text = data.text ||
      (data.tool_calls?.length ? `asks for ${data.tool_calls.map((c) => c.name ?? c.tool).join(", ")}` : "");
  } else if (step.type === "tool_call") text = `${data.tool}(${JSON.stringify(data.args ?? {})})`;
  else if (step.type === "tool_result") {
    text = `${data.tool} → ${data.is_error ? "error: " : ""}${
      typeof data.result === "string" ? data.result : JSON.stringify(data.result)
    }`;
  } else text = JSON.stringify(data);
  return h(
    "li",
    { testid: "run-step", dataset: { type: step.type, index: step.index } },
    h("strong", {}, step.type.replace("_", " ")),
    " ",
    h("span", { class: "muted" }, when(step.at)),
    h("pre", {}, text),
  );
}

async function journalTab(panel, _scope, name) {
  const answer = await api("GET", processPath(name, "/journal?limit=500"));
  if (!answer.journal_enabled) {
    fill(panel, h("p", { class: "muted" }, "This process keeps no journal (config.journal)."));
    return;
  }
  const list = h("ol", { class: "journal", reversed: true });
  const filter = field({
    label: "Filter (type or text)",
    type: "search",
    testid: "journal-filter",
    name: "filter",
  });
  const entries = [...answer.entries].reverse();
  const draw = () => {
    const term = filter.querySelector("input").value.trim().toLowerCase();
    fill(
      list,
      entries.filter((e) => !term || JSON.stringify(e).toLowerCase().includes(term)).map((e) =>
        entryItem(e, name)
      ),
    );
  };
  filter.querySelector("input").addEventListener("input", draw);
  fill(panel, filter, h("p", { class: "muted" }, `${answer.count} entries, newest first.`), list);
  draw();
}

function entryItem(entry, name) {
  const item = h(
    "li",
    {
      testid: "journal-entry",
      dataset: { entryId: entry.entry_id, seq: entry.entry_id, type: entry.entry_type },
    },
    h("strong", {}, entry.entry_type),
    " ",
    h("span", { class: "muted" }, when(entry.timestamp)),
    " ",
    h(
      "button",
      { type: "button", testid: "rewind-button", onclick: () => planRewind(item, entry, name) },
      "Rewind to before this",
    ),
    h("pre", {}, JSON.stringify(entry.data)),
  );
  return item;
}

async function planRewind(item, entry, name) {
  document.querySelector("[data-testid=rewind-plan]")?.remove();
  const mode = field({
    label: "Mode",
    tag: "select",
    name: "mode",
    testid: "rewind-mode",
  });
  const select = mode.querySelector("select");
  for (const m of ["both", "conversation_only", "code_only", "summarize", "cancel"]) {
    select.append(h("option", { value: m }, m));
  }
  const body = h("div", { "aria-live": "polite" });
  const box = h(
    "div",
    { class: "panel", testid: "rewind-plan", role: "region", "aria-label": "Rewind plan" },
    mode,
    body,
  );
  item.append(box);
  const load = async () => {
    const query = `?target_entry_id=${encodeURIComponent(entry.entry_id)}&mode=${select.value}`;
    try {
      const plan = await api("GET", processPath(name, `/rewind/plan${query}`));
      fill(
        body,
        planView(plan),
        h("button", {
          type: "button",
          class: "primary",
          testid: "rewind-apply",
          onclick: async () => {
            try {
              const done = await api("POST", processPath(name, "/rewind"), {
                target_entry_id: entry.entry_id,
                mode: select.value,
              });
              fill(
                body,
                planView(done),
                h(
                  "p",
                  { testid: "form-ok" },
                  done.applied ? `Rewound; the process is ${done.state}.` : "Nothing applied (dry run).",
                ),
              );
            } catch (error) {
              fill(body, h("p", { testid: "form-error", role: "alert" }, error.message));
            }
          },
        }, "Apply rewind"),
        " ",
        h("button", { type: "button", testid: "rewind-cancel", onclick: () => box.remove() }, "Cancel"),
      );
      body.querySelector("[data-testid=rewind-apply]").focus();
    } catch (error) {
      fill(
        body,
        h("p", { testid: "form-error", role: "alert" }, error.message),
        h("button", { type: "button", testid: "rewind-cancel", onclick: () => box.remove() }, "Cancel"),
      );
    }
  };
  select.addEventListener("change", load);
  await load();
}

function planView(plan) {
  return h(
    "dl",
    { class: "grid" },
    h("div", {}, h("dt", {}, "Summary"), h("dd", { testid: "rewind-summary" }, plan.summary)),
    h("div", {}, h("dt", {}, "Entries affected"), h("dd", {}, String(plan.entries_affected))),
    h(
      "div",
      {},
      h("dt", {}, "Conversation entries"),
      h("dd", {}, String(plan.conversation_entries_affected)),
    ),
    h("div", {}, h("dt", {}, "Code and state entries"), h("dd", {}, String(plan.code_entries_affected))),
  );
}
