// The studio's REST API (services/studio, contract in its README). Every call sends the signed-in user's bearer
// token when there is one (README "Security"); otherwise the typed name in X-Gantry-User, which the studio trusts
// only where gantry.studio.trust-user-header is on (./gantry up, compose).
import { sseParser } from './model.js';

const USER_KEY = 'gantry.user';
// sessionStorage: a token is a credential, so it goes with the tab instead of staying on the machine.
const TOKEN_KEY = 'gantry.token';

export function currentUser() {
  return localStorage.getItem(USER_KEY) || '';
}

export function setCurrentUser(name) {
  localStorage.setItem(USER_KEY, name);
}

export function currentToken() {
  return sessionStorage.getItem(TOKEN_KEY) || '';
}

/** Signs in with a pasted token: the user shown is the token's own (checked again by the server). */
export function setToken(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
  setCurrentUser(tokenUser(token));
}

export function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
}

/** A JWT's three base64url parts, what `./gantry up` prints; anything else is a typed user name. */
export function looksLikeToken(text) {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(text);
}

/** A token's claims as the page can read them (the signature is the server's to check); null if unreadable. */
function tokenClaims(token) {
  try {
    const claims = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    return claims && typeof claims === 'object' ? claims : null;
  } catch {
    return null;
  }
}

/** The name the server takes from a token (smallrye-jwt's principal: upn, else preferred_username, else sub). */
export function tokenUser(token) {
  const claims = tokenClaims(token) ?? {};
  return claims.upn ?? claims.preferred_username ?? claims.sub ?? '';
}

/**
 * Why the studio answered 401 to a call with this token, in words a user can act on: the server says only 401, but
 * an expired token and one this Gantry did not sign call for different fixes.
 */
export function tokenRefusal(token, nowMs = Date.now()) {
  const claims = tokenClaims(token);
  if (!claims) return 'that is not a token: its middle part is not readable claims';
  if (typeof claims.exp === 'number' && claims.exp * 1000 <= nowMs) {
    return `your token expired at ${new Date(claims.exp * 1000).toISOString().replace('.000Z', 'Z')}`;
  }
  return 'the studio did not accept your token: it was not signed with this Gantry\'s key, or is for another issuer';
}

/** The identity headers of one call: the token if signed in with one, else the typed name. */
export function identityHeaders(token, user) {
  if (token) return { Authorization: `Bearer ${token}` };
  return user ? { 'X-Gantry-User': user } : {};
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

let onUnauthorized = () => {};

/**
 * What the page does when the API answers 401 (no token, or one refused): say so instead of failing silently. The
 * handler gets the error and the token the call was made with ('' for none); only answers to calls made as the
 * tab's current identity reach it.
 */
export function whenUnauthorized(handler) {
  onUnauthorized = handler;
}

async function call(method, path, body, accept = 'application/json') {
  const token = currentToken();
  const user = currentUser();
  const headers = { Accept: accept, ...identityHeaders(token, user) };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const isJson = (res.headers.get('Content-Type') || '').includes('json');
  const parsed = isJson && text ? JSON.parse(text) : text;
  // A 401 for an identity the tab has since left (a list poll sent before a sign-in, answered after it) says
  // nothing about the current one; reported, it wrote "Not signed in" over a refused token's reason.
  if (res.status === 401 && token === currentToken() && user === currentUser()) {
    onUnauthorized(new ApiError(401, isJson ? parsed : { reason: text || res.statusText }), token);
  }
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
  const headers = { Accept: 'text/event-stream', ...identityHeaders(currentToken(), currentUser()) };
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
