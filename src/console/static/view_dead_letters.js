// #/dead-letters : the dead letters of every process, redeliver and clear.

import { api, processPath } from "./api.js";
import { confirmHere, fill, h, notice, when } from "./ui.js";

/** Renders the dead letters view into `main`. */
export async function renderDeadLetters(main, scope) {
  const body = h("div");
  fill(main, h("h2", {}, "Dead letters"), body);
  const draw = async () => {
    const list = await api("GET", "/api/v1/processes");
    const all = await Promise.all(
      list.processes.map((p) => api("GET", processPath(p.name, "/dead-letters")).catch(() => null)),
    );
    if (scope.signal.aborted) return;
    const sections = all.filter((a) => a && a.count > 0).map((answer) => section(answer, draw));
    fill(
      body,
      sections.length
        ? sections
        : h("p", { class: "muted", testid: "dead-letters-empty" }, "No dead letters."),
    );
  };
  scope.onEvent((event) => {
    if (event.event.startsWith("dead_letter")) draw().catch(() => {});
  });
  await draw();
}

function section(answer, draw) {
  const name = answer.name;
  const clear = h("button", {
    type: "button",
    class: "danger",
    testid: "dead-letters-clear",
    "aria-label": `clear the dead letters of ${name}`,
    onclick: async () => {
      if (!await confirmHere(clear, `Clear the ${answer.count} dead letters of ${name}?`)) return;
      await run(
        () => api("DELETE", processPath(name, "/dead-letters")),
        (a) => `${a.dead_letters_cleared} cleared.`,
      );
      await draw();
    },
  }, "Clear all");
  const rows = answer.dead_letters.map((letter) =>
    h(
      "tr",
      { testid: "dead-letter-row", dataset: { process: name, eventId: letter.event?.event_id } },
      h(
        "td",
        { "data-label": "Event" },
        letter.event?.trigger_type ?? "—",
        " ",
        h("code", {}, letter.event?.event_id ?? ""),
      ),
      h("td", { "data-label": "Reason" }, letter.reason),
      h("td", { "data-label": "Error" }, letter.error ?? "—"),
      h("td", { "data-label": "Attempts" }, String(letter.attempts)),
      h("td", { "data-label": "At" }, when(letter.dead_lettered_at)),
      h(
        "td",
        {},
        h("button", {
          type: "button",
          testid: "dead-letter-redeliver",
          onclick: async () => {
            await run(
              () =>
                api("POST", processPath(name, "/dead-letters/redeliver"), {
                  event_ids: [letter.event.event_id],
                }),
              (a) => `${a.redelivered} redelivered.`,
            );
            await draw();
          },
        }, "Redeliver"),
      ),
    )
  );
  return h(
    "section",
    { "aria-label": `Dead letters of ${name}`, testid: "dead-letters", dataset: { name } },
    h(
      "h3",
      {},
      h("a", { href: `#/p/${encodeURIComponent(name)}` }, name),
      ` · ${answer.count} held, ${answer.total} total`,
    ),
    h(
      "table",
      { class: "stack" },
      h("caption", { class: "sr-only" }, `Dead letters of ${name}`),
      h("tbody", {}, rows),
    ),
    clear,
  );
}

async function run(call, describe) {
  try {
    notice(describe(await call()));
  } catch (error) {
    notice(error.message);
  }
}
