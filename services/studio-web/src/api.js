// The studio's REST API (services/studio, contract in its README). Every call but the catalogue names the user in
// X-Gantry-User: identification, not authentication (issue 17 brings sign-in with tokens).
import { sseParser } from './model.js';

const USER_KEY = 'gantry.user';

export function currentUser() {
  return localStorage.getItem(USER_KEY) || '';
}

export function setCurrentUser(name) {
  localStorage.setItem(USER_KEY, name);
}

/** An API error carrying the server's field/node/reason list, readable as one sentence. */
export class ApiError extends Error {
  constructor(status, body) {
    const errors = body?.errors ?? (body?.reason ? [body] : []);
    super(errors.length ? errors.map((e) => e.reason).join('; ') : `HTTP ${status}`);
    this.status = status;
    this.errors = errors;
  }
}

async function call(method, path, body, accept = 'application/json') {
  const headers = { Accept: accept };
  if (currentUser()) headers['X-Gantry-User'] = currentUser();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const isJson = (res.headers.get('Content-Type') || '').includes('json');
  const parsed = isJson && text ? JSON.parse(text) : text;
  if (!res.ok) throw new ApiError(res.status, isJson ? parsed : { reason: text || res.statusText });
  return parsed;
}

export const api = {
  catalog: () => call('GET', '/api/catalog'),
  me: () => call('GET', '/api/me'),
  validate: (graph, dataset) => call('POST', '/api/graphs/validate', { graph, dataset }),
  graphs: () => call('GET', '/api/graphs'),
  graph: (id) => call('GET', `/api/graphs/${encodeURIComponent(id)}`),
  createGraph: (name, graph, dataset) => call('POST', '/api/graphs', { name, graph, dataset }),
  updateGraph: (id, graph, dataset) => call('PUT', `/api/graphs/${encodeURIComponent(id)}`, { graph, dataset }),
  submitRun: (request) => call('POST', '/api/runs', request),
  runs: () => call('GET', '/api/runs'),
  run: (id) => call('GET', `/api/runs/${encodeURIComponent(id)}`),
  cancel: (id) => call('POST', `/api/runs/${encodeURIComponent(id)}/cancel`),
  exportCode: (kind, graph, dataset) => call('POST', `/api/export/${kind}`, { graph, dataset }, 'text/plain'),
};

/**
 * Follows a run's event stream (history first, then live). EventSource cannot send headers, so this reads the
 * stream with fetch. Returns a function that stops it.
 */
export function followRun(id, onEvent, onEnd) {
  const controller = new AbortController();
  const headers = { Accept: 'text/event-stream', 'X-Gantry-User': currentUser() };
  (async () => {
    const res = await fetch(`/api/runs/${encodeURIComponent(id)}/events`, { headers, signal: controller.signal });
    if (!res.ok) throw new ApiError(res.status, { reason: await res.text() });
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    const feed = sseParser((e) => onEvent(e.event, JSON.parse(e.data)));
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      feed(value);
    }
  })().then(() => onEnd?.(null), (err) => { if (!controller.signal.aborted) onEnd?.(err); });
  return () => controller.abort();
}
