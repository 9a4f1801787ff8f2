// The studio page: sign-in box, the user's standing, and three views (designer, jobs, one run) by URL hash.
import './style.css';
import {
  api, currentToken, currentUser, looksLikeToken, setCurrentUser, setToken, signOut, tokenRefusal, tokenUser,
  whenUnauthorized,
} from './api.js';
import { createDesigner } from './designer.js';
import { showJobs, showRun } from './runs.js';
import { el } from './ui.js';

const $ = (sel) => document.querySelector(sel);
// The same rule as io.gantry.events.Names.USER (the server checks it again).
const USER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,199}$/;
let leaveView = () => {};

async function start() {
  setUpSignIn();
  let catalog;
  try {
    catalog = await api.catalog();
  } catch (err) {
    $('#main-error').textContent = `The studio service did not answer: ${err.message}`;
    return;
  }
  createDesigner($('#view-designer'), catalog, { onSubmitted: (id) => { location.hash = `#/runs/${encodeURIComponent(id)}`; } });
  window.addEventListener('hashchange', route);
  route();
  refreshMe();
  setInterval(refreshMe, 10000);
}

function setUpSignIn() {
  const form = $('#sign-in');
  const input = $('#user-name');
  input.value = currentUser();
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const name = input.value.trim();
    $('#main-error').textContent = '';
    if (looksLikeToken(name)) {
      // A token that names no user would leave the tab signed in as no one, calling nothing: say so now.
      if (!tokenUser(name)) {
        $('#main-error').textContent = refusedMessage(name);
        return;
      }
      setToken(name);
      input.value = currentUser();
      refreshMe();
      route();
      return;
    }
    if (!USER_PATTERN.test(name)) {
      $('#me').textContent = 'A user name is letters, digits, ".", "_", "@" or "-", starting with a letter or digit.';
      return;
    }
    // Another typed name replaces a token sign-in: the token would otherwise still be sent, as someone else.
    if (name !== currentUser()) signOut();
    setCurrentUser(name);
    refreshMe();
    route();
  });
  $('#sign-out').addEventListener('click', () => {
    signOut();
    input.value = '';
    refreshMe();
    route();
  });
  whenUnauthorized((err, token) => {
    if (!token) {
      $('#main-error').textContent = `Not signed in (${err.message}): `
        + 'paste the token ./gantry up printed into the sign-in box.';
      return;
    }
    // A refused token signs the tab out: the page must not go on showing its user as signed in.
    if (token === currentToken()) {
      signOut();
      input.value = '';
      refreshMe();
      route();
    }
    $('#main-error').textContent = refusedMessage(token);
  });
}

function refusedMessage(token) {
  return `Token refused: ${tokenRefusal(token)}. Paste a fresh one (./gantry token NAME, or the one ./gantry up `
    + 'printed) into the sign-in box.';
}

/** The signed-in user's fair-share priority and usage, from priority-accounting through the studio. */
async function refreshMe() {
  const box = $('#me');
  if (!currentUser()) {
    box.textContent = 'Not signed in: paste your token (or type your user name where the studio trusts it).';
    return;
  }
  try {
    const me = await api.me();
    const p = me.priority;
    const u = me.usage;
    const num = (v, digits = 2) => (typeof v === 'number' ? v.toFixed(digits) : '—');
    // A user priority-accounting has not seen yet (no job so far) has no standing: say so, keep the reason as a tip.
    const unknown = el('span', { title: me.reason ?? '' }, 'not known yet');
    box.replaceChildren(el('b', {}, me.user), ' · priority ', el('span', { id: 'me-priority' },
      p ? num(p.priority ?? p.value) : unknown), p?.weight != null ? ` (weight ${num(p.weight, 1)})` : '',
    ' · used ', el('span', { id: 'me-usage' }, u ? `${num(u.gpuSeconds ?? u.decayedGpuSeconds, 0)} GPU-s, `
      + `${num(u.cpuSeconds, 0)} CPU-s` : 'nothing yet'));
  } catch (err) {
    // A refused token has signed the tab out already (whenUnauthorized), and this box says so.
    if (err.status === 401 && !currentUser()) return;
    box.textContent = `${err.status === 401 ? 'Not signed in as' : 'Signed in as'} ${currentUser()} (${err.message})`;
  }
}

function route() {
  leaveView();
  leaveView = () => {};
  const hash = location.hash || '#/design';
  const run = hash.match(/^#\/runs\/(.+)$/);
  const view = run ? 'run' : hash.startsWith('#/jobs') ? 'jobs' : 'designer';
  for (const v of ['designer', 'jobs', 'run']) $(`#view-${v}`).hidden = v !== view;
  document.querySelectorAll('nav a').forEach((a) => a.classList.toggle('active', a.dataset.view === view));
  if (!currentUser() && view !== 'designer') {
    $(`#view-${view}`).replaceChildren(el('p', { class: 'muted' }, 'Sign in (top right) to see your runs.'));
    return;
  }
  if (view === 'jobs') leaveView = showJobs($('#view-jobs'), { open: (id) => { location.hash = `#/runs/${encodeURIComponent(id)}`; } });
  if (view === 'run') leaveView = showRun($('#view-run'), decodeURIComponent(run[1]));
}

start();
