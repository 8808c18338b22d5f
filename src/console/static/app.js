// The console's shell: token form, the live event stream, hash routes.

import { api, ApiFailure, getToken, readEvents, setToken } from "./api.js";
import { fill, h, notice } from "./ui.js";
import { renderProcesses } from "./view_processes.js";
import { renderProcess } from "./view_process.js";
import { renderDeadLetters } from "./view_dead_letters.js";

const listeners = new Set();
let lastEventId = "";
let streamAbort;
let scope;

function connection(state) {
  const node = document.querySelector("[data-testid=connection]");
  node.textContent = state;
  node.dataset.state = state;
}

/** Keeps `GET /api/v1/events` open, reconnecting with Last-Event-ID after a drop. */
async function streamEvents() {
  streamAbort?.abort();
  const abort = new AbortController();
  streamAbort = abort;
  let delay = 1000;
  while (!abort.signal.aborted) {
    try {
      await readEvents("/api/v1/events", {
        lastEventId,
        signal: abort.signal,
        onOpen: () => {
          connection("connected");
          delay = 1000;
        },
        onEvent: (event) => {
          if (event.id) lastEventId = event.id;
          for (const listener of listeners) listener(event);
        },
      });
    } catch (error) {
      if (abort.signal.aborted) return;
      if (error instanceof ApiFailure && error.status === 401) {
        connection("token needed");
        return;
      }
    }
    if (abort.signal.aborted) return;
    connection("reconnecting");
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 15000);
  }
}

/** What a view gets: a signal aborted when the view is left, and `onEvent` to follow runtime events. */
function newScope() {
  scope?.abort.abort();
  for (const listener of scope?.listeners ?? []) listeners.delete(listener);
  const abort = new AbortController();
  const own = [];
  scope = {
    abort,
    listeners: own,
    signal: abort.signal,
    onEvent(listener) {
      own.push(listener);
      listeners.add(listener);
    },
  };
  return scope;
}

async function route() {
  const main = document.getElementById("main");
  const hash = location.hash || "#/";
  const current = newScope();
  try {
    if (hash.startsWith("#/p/")) {
      const [name, tab] = hash.slice(4).split("/");
      await renderProcess(main, current, decodeURIComponent(name), tab);
    } else if (hash === "#/dead-letters") await renderDeadLetters(main, current);
    else await renderProcesses(main, current);
  } catch (error) {
    if (current.signal.aborted) return;
    fill(
      main,
      h("h2", {}, "Cannot load this view"),
      h("p", { testid: "form-error", role: "alert" }, error.message ?? String(error)),
      error.status === 401 ? h("p", {}, "Paste the API token above and save it.") : null,
    );
  }
}

async function checkAccess() {
  try {
    await api("GET", "/api/v1/runtime/status");
    document.querySelector("[data-testid=token-form]").dataset.needed = "false";
  } catch (error) {
    if (error.status === 401) {
      connection("token needed");
      document.getElementById("token-input").focus();
      return false;
    }
  }
  return true;
}

async function start() {
  const form = document.querySelector("[data-testid=token-form]");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = document.getElementById("token-input");
    setToken(input.value.trim());
    input.value = "";
    notice(getToken() ? "Token saved for this tab." : "Token forgotten.");
    if (await checkAccess()) streamEvents();
    route();
  });
  document.querySelector("[data-testid=token-forget]").addEventListener("click", () => {
    setToken("");
    streamAbort?.abort();
    connection("token needed");
    notice("Token forgotten.");
    route();
  });
  addEventListener("hashchange", () => {
    route().then(() => document.getElementById("main").focus({ preventScroll: true }));
  });
  if (await checkAccess()) streamEvents();
  route();
}

start();
