import assert from 'node:assert/strict';
import { test } from 'node:test';
import { identityHeaders, looksLikeToken, tokenUser } from './api.js';

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
