// The control API as the console uses it: the token (sessionStorage only), JSON calls, event streams.

const TOKEN_KEY = "agentry.token";

/** The saved token, or "" when none. */
export function getToken() {
  return sessionStorage.getItem(TOKEN_KEY) ?? "";
}

/** Saves the token for this tab's session ("" forgets it). */
export function setToken(token) {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

function headers(extra) {
  const all = { accept: "application/json", ...extra };
  const token = getToken();
  if (token) all.authorization = `Bearer ${token}`;
  return all;
}

/** An error answer of the API: its envelope's code, message and details. */
export class ApiFailure extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = Array.isArray(details) ? details : [];
  }
}

/** `/api/v1/processes/<name>` with the name encoded. */
export function processPath(name, rest = "") {
  return `/api/v1/processes/${encodeURIComponent(name)}${rest}`;
}

/** Calls the API; resolves the JSON answer (null for 204), throws ApiFailure for error answers. */
export async function api(method, path, body) {
  const init = { method, headers: headers(body === undefined ? {} : { "content-type": "application/json" }) };
  if (body !== undefined) init.body = JSON.stringify(body);
  let answer;
  try {
    answer = await fetch(path, init);
  } catch {
    throw new ApiFailure(0, "UNREACHABLE", "The runtime does not answer.");
  }
  if (answer.status === 204) return null;
  const text = await answer.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!answer.ok) {
    const error = json && json.error ? json.error : {};
    throw new ApiFailure(
      answer.status,
      error.code ?? "HTTP_ERROR",
      error.message ?? `HTTP ${answer.status}`,
      error.details,
    );
  }
  return json;
}

/**
 * Reads a server-sent event stream with `fetch` (EventSource cannot send the token). Calls `onOpen` once the
 * answer arrives and `onEvent({id, event, data})` per event; resolves when the stream ends, throws
 * ApiFailure for an error answer.
 */
export async function readEvents(path, { lastEventId, signal, onOpen, onEvent }) {
  const extra = { accept: "text/event-stream" };
  if (lastEventId) extra["last-event-id"] = lastEventId;
  const answer = await fetch(path, { headers: headers(extra), signal });
  if (!answer.ok || !answer.body) {
    let error = {};
    try {
      error = (await answer.json()).error ?? {};
    } catch { /* not JSON */ }
    throw new ApiFailure(answer.status, error.code ?? "HTTP_ERROR", error.message ?? `HTTP ${answer.status}`);
  }
  onOpen?.();
  const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let event = { id: undefined, event: "message", data: [] };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let newline;
    while ((newline = buffer.search(/\r?\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer[newline] === "\r" ? 2 : 1));
      if (line === "") {
        if (event.data.length > 0) dispatch(event, onEvent);
        event = { id: event.id, event: "message", data: [] };
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "id") event.id = text;
      else if (field === "event") event.event = text;
      else if (field === "data") event.data.push(text);
    }
  }
}

function dispatch(event, onEvent) {
  let data;
  try {
    data = JSON.parse(event.data.join("\n"));
  } catch {
    data = event.data.join("\n");
  }
  onEvent({ id: event.id, event: event.event, data });
}
