import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  api, identityHeaders, looksLikeToken, setCurrentUser, setToken, signOut, tokenRefusal, tokenUser, whenUnauthorized,
} from './api.js';

// A token's parts as ./gantry token writes them: base64url header, claims, signature (not checked by the page).
const part = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
const token = (claims) => `${part({ alg: 'RS256' })}.${part(claims)}.c2ln`;

test('a pasted JWT is a token, a typed name is not', () => {
  assert.ok(looksLikeToken(token({ upn: 'alice' })));
  assert.ok(!looksLikeToken('alice'));
  assert.ok(!looksLikeToken('alice@example.org'));
});

test('the user shown is the one the server takes: upn, else preferred_username, else sub', () => {
  assert.equal(tokenUser(token({ upn: 'alice', preferred_username: 'x', sub: 'y' })), 'alice');
  assert.equal(tokenUser(token({ preferred_username: 'bob', sub: 'y' })), 'bob');
  assert.equal(tokenUser(token({ sub: 'carol' })), 'carol');
});

test('a token goes as a bearer token alone; without one the typed name goes in X-Gantry-User', () => {
  assert.deepEqual(identityHeaders('t.o.k', 'alice'), { Authorization: 'Bearer t.o.k' });
  assert.deepEqual(identityHeaders('', 'alice'), { 'X-Gantry-User': 'alice' });
  assert.deepEqual(identityHeaders('', ''), {});
});

test('a refused token is explained: unreadable, expired (with when), or not this Gantry\'s', () => {
  const now = Date.parse('2026-12-03T15:00:00Z');
  assert.equal(tokenRefusal(token({ upn: 'alice', exp: now / 1000 - 60 }), now),
    'your token expired at 2026-12-03T14:59:00Z');
  assert.match(tokenRefusal(token({ upn: 'alice', exp: now / 1000 + 3600 }), now), /not signed with this Gantry's key/);
  assert.match(tokenRefusal(token({ upn: 'alice' }), now), /not signed with this Gantry's key/);
  assert.match(tokenRefusal('a.b.c', now), /not a token/);
  assert.equal(tokenUser('a.b.c'), '', 'an unreadable token names no one (the page shows no user for it)');
});

/** Web storage as the page has it, for the calls' identity (Node has neither). */
function storage() {
  const m = new Map();
  return { getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)), removeItem: (k) => m.delete(k) };
}

test('a 401 answering a call made as an identity the tab has left is not reported; one for the current one is', async () => {
  globalThis.localStorage = storage();
  globalThis.sessionStorage = storage();
  const answers = [];
  globalThis.fetch = () => new Promise((resolve) => answers.push(resolve));
  const unauthorized = new Response('{"reason":"is required"}', { status: 401, headers: { 'Content-Type': 'application/json' } });
  const reported = [];
  whenUnauthorized((err, token) => reported.push(token));
  try {
    setCurrentUser('bob');
    const stale = api.runs().catch(() => {}); // sent as the typed name, answered after a token sign-in
    setToken(`x.${Buffer.from(JSON.stringify({ upn: 'alice' })).toString('base64url')}.y`);
    answers[0](unauthorized.clone());
    await stale;
    assert.deepEqual(reported, [], 'the late answer to the old identity says nothing about the new one');

    const current = api.runs().catch(() => {});
    answers[1](unauthorized.clone());
    await current;
    assert.equal(reported.length, 1);
    assert.ok(reported[0].startsWith('x.'), 'reported with the token the call was made with');
  } finally {
    signOut();
    whenUnauthorized(() => {});
  }
});
