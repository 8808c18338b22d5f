// Small DOM helpers: element building, errors by field, confirmations, notices.

/** Builds an element: `h("button", {type: "button", testid: "x", onclick}, "text", child)`. */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "testid") element.dataset.testid = value;
    else if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else if (key === "class") element.className = value;
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (value === true) element.setAttribute(key, "");
    else element.setAttribute(key, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the children of an element. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

let counter = 0;

/** A labelled input (or textarea/select given as `tag`): `{label, name, testid, value, tag, type}`. */
export function field({ label, tag = "input", inline = false, ...attrs }) {
  const id = `f${++counter}`;
  const control = h(tag, { id, ...attrs, value: tag === "textarea" ? undefined : attrs.value });
  if (tag === "textarea" && attrs.value !== undefined) control.value = attrs.value;
  const classes = inline ? "field inline" : "field";
  return inline ? h("div", { class: classes }, control, h("label", { for: id }, label)) : h(
    "div",
    { class: classes },
    h("label", { for: id }, label),
    control,
  );
}

/** A form's result area: `form-error` for errors, `form-ok` for success, both announced. */
export function resultArea() {
  const error = h("p", { testid: "form-error", role: "alert" });
  const ok = h("p", { testid: "form-ok", role: "status", "aria-live": "polite" });
  return { error, ok, nodes: [error, ok] };
}

/** Shows an error (an ApiFailure's message and its field errors) in a form. */
export function showError(form, result, error) {
  clearResult(form, result);
  result.error.textContent = error && error.message ? `${error.message}` : String(error);
  const details = error && Array.isArray(error.details) ? error.details : [];
  for (const detail of details) {
    const name = String(detail.field ?? "");
    const note = h(
      "span",
      { testid: "field-error", dataset: { field: name }, class: "field-error" },
      `${name}: ${detail.expected ?? detail.message ?? "invalid"}`,
    );
    const input = [name, lastSegment(name), name.split(/[.[]/)[0]]
      .map((candidate) => form.querySelector(`[name="${CSS.escape(candidate)}"]`))
      .find((found) => found);
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.closest(".field")?.append(note);
    } else result.error.append(h("br"), note);
  }
}

function lastSegment(path) {
  const parts = path.split(".");
  return parts.length > 1 && ["config", "state", "(body)"].includes(parts[0])
    ? parts.slice(1).join(".")
    : path;
}

/** Shows a success note in a form. */
export function showOk(form, result, text) {
  clearResult(form, result);
  result.ok.textContent = text;
}

function clearResult(form, result) {
  result.error.textContent = "";
  result.ok.textContent = "";
  for (const note of form.querySelectorAll("[data-testid=field-error]")) note.remove();
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
}

/** Asks for a confirmation next to `anchor`: resolves true for `confirm-yes`, false for `confirm-no`. */
export function confirmHere(anchor, question) {
  document.querySelector(".dialog")?.remove();
  return new Promise((resolve) => {
    const done = (answer) => {
      box.remove();
      resolve(answer);
    };
    const yes = h("button", {
      type: "button",
      class: "danger",
      testid: "confirm-yes",
      onclick: () => done(true),
    }, "Yes");
    const box = h(
      "div",
      { class: "panel dialog", role: "alertdialog", "aria-label": question, testid: "confirm" },
      h("p", {}, question),
      yes,
      " ",
      h("button", { type: "button", testid: "confirm-no", onclick: () => done(false) }, "No"),
    );
    anchor.after(box);
    yes.focus();
  });
}

/** Announces a short notice at the bottom of the page. */
export function notice(text) {
  const area = document.querySelector("[data-testid=notice]");
  if (!area) return;
  area.textContent = text;
  clearTimeout(notice.timer);
  notice.timer = setTimeout(() => (area.textContent = ""), 6000);
}

/** Reads a form input as JSON when it is JSON (numbers, booleans, null, objects), else as text. */
export function parseValue(text) {
  const trimmed = text.trim();
  if (/^(-?\d+(\.\d+)?([eE][-+]?\d+)?|true|false|null)$/.test(trimmed) || /^[[{"]/.test(trimmed)) {
    try {
      return JSON.parse(trimmed);
    } catch { /* as text */ }
  }
  return text;
}

/** Formats an ISO time or epoch seconds for a table cell. */
export function when(value) {
  if (value === null || value === undefined || value === "") return "—";
  const date = typeof value === "number" ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
}
