// Process tabs on what a process holds: inbox, context, secrets.

import { api, processPath } from "./api.js";
import {
  confirmHere,
  field,
  fill,
  h,
  notice,
  parseValue,
  resultArea,
  showError,
  showOk,
  when,
} from "./ui.js";

/** The inbox tab: pending items, send a message, ask a question and wait for the answer. */
export async function inboxTab(panel, scope, name) {
  const list = h("ul", { testid: "inbox-list" });
  const draw = async () => {
    const inbox = await api("GET", processPath(name, "/inbox"));
    if (scope.signal.aborted) return;
    fill(
      list,
      inbox.enabled
        ? inbox.messages.map((m) =>
          h(
            "li",
            { testid: "inbox-item", dataset: { messageId: m.message_id } },
            `${m.message_type} · ${m.priority} · `,
            m.content,
          )
        )
        : h("li", { class: "muted" }, "This process has no inbox (config.inbox.enabled)."),
    );
  };
  const sendResult = resultArea();
  const send = h(
    "form",
    { "aria-label": "Send a message", testid: "inbox-form" },
    h("h3", {}, "Send a message"),
    field({ label: "Message", tag: "textarea", name: "content", testid: "inbox-content", rows: 3 }),
    field({ label: "Type", tag: "select", name: "message_type", testid: "inbox-type" }),
    h("button", { type: "submit", class: "primary", testid: "inbox-send" }, "Send"),
    ...sendResult.nodes,
  );
  for (const type of ["context", "directive", "question", "correction"]) {
    send.elements.message_type.append(h("option", { value: type }, type));
  }
  send.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await api("POST", processPath(name, "/messages"), {
        content: send.elements.content.value,
        message_type: send.elements.message_type.value,
      });
      send.elements.content.value = "";
      showOk(send, sendResult, `Queued (${answer.message_id}).`);
      await draw();
    } catch (error) {
      showError(send, sendResult, error);
    }
  });
  const askResult = resultArea();
  const answerBox = h("pre", { testid: "ask-answer", "aria-live": "polite" });
  const ask = h(
    "form",
    { "aria-label": "Ask a question", testid: "ask-form" },
    h("h3", {}, "Ask and wait for the answer"),
    field({ label: "Question", tag: "textarea", name: "content", testid: "ask-content", rows: 2 }),
    field({
      label: "Wait up to (seconds)",
      name: "timeout",
      testid: "ask-timeout",
      value: "120",
      inputmode: "numeric",
    }),
    h("button", { type: "submit", class: "primary", testid: "ask-submit" }, "Ask"),
    ...askResult.nodes,
    answerBox,
  );
  ask.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = ask.querySelector("[data-testid=ask-submit]");
    button.disabled = true;
    answerBox.textContent = "";
    showOk(ask, askResult, "Waiting for a run to answer…");
    draw().catch(() => {});
    try {
      const answer = await api("POST", processPath(name, "/ask"), {
        content: ask.elements.content.value,
        timeout: parseValue(ask.elements.timeout.value),
      });
      if (answer.status === "answered") {
        answerBox.textContent = answer.response;
        showOk(ask, askResult, `Answered ${when(answer.answered_at)} by run ${answer.invocation_id}.`);
      } else {
        answerBox.textContent = "(no answer in time)";
        showOk(ask, askResult, "No run answered in time; the question stays in the inbox until it expires.");
      }
    } catch (error) {
      showError(ask, askResult, error);
    } finally {
      button.disabled = false;
    }
  });
  fill(panel, h("h3", {}, "Pending"), list, send, ask);
  await draw();
}

/** The context tab: every key, with an editor for writable ones. */
export async function contextTab(panel, _scope, name) {
  const view = await api("GET", processPath(name, "/context"));
  const writable = (key) => view.all_keys_writable || (view.writable_keys ?? []).includes(key);
  const rows = h("tbody");
  const editor = h("div");
  const edit = (key, value) => {
    const result = resultArea();
    const form = h(
      "form",
      { class: "panel", "aria-label": `Edit ${key}`, testid: "context-form" },
      field({ label: "Key", name: "key", testid: "context-key-input", value: key, required: true }),
      field({
        label: "Value (JSON; null deletes the key)",
        tag: "textarea",
        name: "value",
        testid: "context-value",
        rows: 4,
        value: JSON.stringify(value ?? null, null, 2),
      }),
      h("button", { type: "submit", class: "primary", testid: "context-save" }, "Save"),
      ...result.nodes,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const k = form.elements.key.value.trim();
      try {
        const next = await api("PATCH", processPath(name, "/context"), {
          state: { [k]: parseValue(form.elements.value.value) },
        });
        Object.assign(view, next);
        draw();
        showOk(form, result, `Saved ${k}.`);
      } catch (error) {
        showError(form, result, error);
      }
    });
    fill(editor, form);
    form.elements.value.focus();
  };
  const draw = () =>
    fill(
      rows,
      Object.entries(view.state ?? {}).map(([key, value]) =>
        h(
          "tr",
          { testid: "context-key", dataset: { key } },
          h("th", { scope: "row" }, key),
          h("td", {}, h("pre", {}, JSON.stringify(value))),
          h(
            "td",
            {},
            writable(key)
              ? h("button", {
                type: "button",
                testid: "context-edit",
                "aria-label": `edit ${key}`,
                onclick: () => edit(key, value),
              }, "Edit")
              : h("span", { class: "muted" }, "read-only"),
          ),
        )
      ),
    );
  draw();
  const add = view.all_keys_writable || (view.writable_keys ?? []).length > 0
    ? h("button", { type: "button", testid: "context-add", onclick: () => edit("", null) }, "Add a key")
    : null;
  fill(
    panel,
    h(
      "p",
      { class: "muted" },
      view.all_keys_writable
        ? "Every key is writable."
        : `Writable keys: ${(view.writable_keys ?? []).join(", ") || "none"}.`,
    ),
    h("table", { class: "stack" }, h("caption", { class: "sr-only" }, "Context state"), rows),
    add,
    editor,
  );
}

/** The secrets tab: metadata (never values), rotate one, revoke all. */
export async function secretsTab(panel, scope, name) {
  let view;
  try {
    view = await api("GET", processPath(name, "/secrets"));
  } catch (error) {
    fill(panel, h("p", { class: "muted", testid: "form-error" }, error.message));
    return;
  }
  const rows = view.secrets.map((secret) => {
    const result = resultArea();
    const form = h(
      "form",
      { class: "actions", "aria-label": `Rotate ${secret.name}` },
      field({
        label: `New value of ${secret.name}`,
        type: "password",
        name: "value",
        testid: "secret-value",
        autocomplete: "off",
      }),
      field({ label: "ttl (s, optional)", name: "ttl", testid: "secret-ttl", inputmode: "numeric", size: 6 }),
      h("button", { type: "submit", testid: "secret-rotate" }, "Rotate"),
      ...result.nodes,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = { value: form.elements.value.value };
      if (form.elements.ttl.value.trim()) body.ttl = parseValue(form.elements.ttl.value);
      try {
        const answer = await api(
          "PATCH",
          processPath(name, `/secrets/${encodeURIComponent(secret.name)}`),
          body,
        );
        form.elements.value.value = "";
        // The row's metadata (rotated, expires) changed: draw the tab again from the API's answer.
        await secretsTab(panel, scope, name);
        notice(`Rotated ${secret.name}; expires ${when(answer.expires_at)}.`);
      } catch (error) {
        showError(form, result, error);
      }
    });
    return h(
      "tr",
      { testid: "secret-row", dataset: { name: secret.name } },
      h("th", { scope: "row" }, secret.name),
      h("td", { "data-label": "Active" }, secret.active ? "active" : "inactive"),
      h("td", { "data-label": "Source" }, secret.source ?? "—"),
      h("td", { "data-label": "Expires" }, when(secret.expires_at)),
      h("td", { "data-label": "Rotated" }, when(secret.rotated_at)),
      h("td", {}, form),
    );
  });
  const revoke = h("button", {
    type: "button",
    class: "danger",
    testid: "secret-revoke",
    onclick: async () => {
      if (
        !await confirmHere(revoke, "Revoke every secret value? The process holds none until its next start.")
      ) return;
      try {
        await api("DELETE", processPath(name, "/secrets"));
        notice("Secrets revoked.");
        await secretsTab(panel, scope, name);
      } catch (error) {
        notice(error.message);
      }
    },
  }, "Revoke all");
  fill(
    panel,
    h("p", {}, `${view.active_count} active. Values are never shown.`),
    h("table", { class: "stack" }, h("caption", { class: "sr-only" }, "Secrets"), h("tbody", {}, rows)),
    revoke,
  );
}
