// @ts-check
// Every request to the server goes through `send` (here only): the JSON API of docs/web.md,
// its errors read from their `{"error": ...}` body, a server that stops answering noticed
// (the page says so and polls until it is back), and the analysis stream read as Server-Sent
// Events.

import { app, PAGE, actions } from "./state.js";
import { $, showError } from "./dom.js";

/** @typedef {import("./types.js").LineReply} LineReply */
/** @typedef {import("./types.js").TickReply} TickReply */
/** @typedef {import("./types.js").BestReply} BestReply */
/** @typedef {import("./types.js").NoteReply} NoteReply */

/** @typedef {Record<string, string | number | null | undefined>} Params */

/** A refusal of the server: its status and its message. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * The query of `params` (absent and null ones left out).
 * @param {Params} params
 * @returns {string}
 */
function queryOf(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) q.set(k, String(v));
  return q.toString();
}

/**
 * A request whose parameters go in a form-encoded body instead of the address (one that may be
 * longer than an address, such as a record's tree), answered as `request`'s.
 * @template T
 * @param {string} path
 * @param {Params} params
 * @returns {Promise<T>}
 */
export function requestPosted(path, params) {
  return request(path, {}, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: queryOf(params),
  });
}

/**
 * The parameters of a game of the page's variant from its start: `moves` played.
 * @param {string[]} moves
 * @param {string | null} [start]
 * @returns {Params}
 */
export function gameParams(moves, start = app.start) {
  return { variant: app.variant, position: start, moves: moves.join(" ") };
}

/**
 * The parameters of the position shown, with `extra`.
 * @param {Params} [extra]
 * @returns {Params}
 */
export function here(extra) {
  return Object.assign(gameParams(app.moves.slice(0, app.ply)), extra || {});
}

/**
 * The one place the page asks the server: `path` (`state`, `probe`, ...) under /api/ with
 * `params`. A network failure is taken for a server gone (see `lostServer`).
 * @param {string} path
 * @param {Params} params
 * @param {RequestInit} [init]
 * @returns {Promise<Response>}
 */
export async function send(path, params, init) {
  try {
    return await fetch(`/api/${path}?${queryOf(params)}`, init);
  } catch (e) {
    if (!(init && init.signal && init.signal.aborted)) lostServer();
    throw new Error("the server is not answering");
  }
}

/**
 * A request answered with JSON (or text, for a record): the answer, or an ApiError with the
 * server's message.
 * @template T
 * @param {string} path
 * @param {Params} params
 * @param {RequestInit} [init]
 * @returns {Promise<T>}
 */
export async function request(path, params, init) {
  const res = await send(path, params, init);
  const type = res.headers.get("Content-Type") || "";
  const body = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok) throw new ApiError(res.status, (body && body.error) || body || res.statusText);
  return body;
}

/** Stops the running search, if any. */
export function stopStream() {
  if (app.stream) { app.stream.abort(); app.stream = null; }
}

/** How long a stream may stay silent before the server is taken for gone: it sends a tick at
 * least every quarter second. */
const SILENCE_MS = 3000;

/** The server stopped answering (a request failed, or a stream fell silent): say so, and ask
 * /api/info every two seconds until it answers; then show the position again, which restarts
 * what was running. */
export function lostServer() {
  stopStream();
  if (app.offline) return;
  app.offline = true;
  const note = $("connection");
  note.textContent = "The server is not answering: retrying…";
  note.hidden = false;
  const retry = async () => {
    try {
      const res = await send("info", {}, { cache: "no-store" });
      if (res.ok) {
        app.offline = false;
        note.hidden = true;
        actions.show();
        return;
      }
    } catch (e) { /* still gone */ }
    setTimeout(retry, 2000);
  };
  setTimeout(retry, 2000);
}

/**
 * What a stream's events are handed to.
 * @typedef {object} StreamHandlers
 * @property {(line: LineReply) => void} [info]
 * @property {(tick: TickReply) => void} [tick]
 * @property {(best: BestReply) => void} [best]
 */

/**
 * Runs a search of the position shown as a stream of Server-Sent Events, read with fetch so
 * that a refusal's status is seen: 503 (every search thread busy) is retried after the
 * server's Retry-After, other errors are shown, and silence or a broken connection is taken
 * for a server gone.
 * @param {Params} extra  the search's limits
 * @param {StreamHandlers} handlers
 */
export function stream(extra, handlers) {
  stopStream();
  const controller = new AbortController();
  app.stream = controller;
  const params = here(Object.assign({ page: PAGE }, extra));
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let silence;
  const quiet = () => {
    clearTimeout(silence);
    silence = setTimeout(() => { if (app.stream === controller) lostServer(); }, SILENCE_MS);
  };
  const done = () => { clearTimeout(silence); if (app.stream === controller) app.stream = null; };
  /**
   * @param {string} name
   * @param {string} data
   */
  const dispatch = (name, data) => {
    const value = JSON.parse(data);
    if (name === "info") handlers.info && handlers.info(value);
    else if (name === "note") $("tables-note").textContent = /** @type {NoteReply} */ (value).text;
    else if (name === "tick") handlers.tick && handlers.tick(value);
    else if (name === "bestmove") { done(); handlers.best && handlers.best(value); }
  };
  (async () => {
    quiet();
    let res;
    try {
      res = await send("analysis", params, { signal: controller.signal, cache: "no-store" });
    } catch (e) {
      return;
    }
    if (res.status === 503) {
      done();
      const wait = Number(res.headers.get("Retry-After")) || 1;
      $("engine-stats").textContent = `every search thread of the server is busy: retrying in ${wait} s`;
      setTimeout(() => { if (!controller.signal.aborted && !app.stream) stream(extra, handlers); }, wait * 1000);
      return;
    }
    if (!res.ok || !res.body) {
      done();
      let message = res.statusText;
      try { message = (await res.json()).error; } catch (e) { /* not JSON */ }
      showError(new Error(message));
      return;
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) break;
        quiet();
        buffer += value;
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let name = "message";
          const data = [];
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) name = line.slice(6).trim();
            else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
          }
          if (data.length && app.stream === controller) dispatch(name, data.join("\n"));
        }
      }
      done();
    } catch (e) {
      if (!controller.signal.aborted && app.stream === controller) lostServer();
    }
  })();
}
