// The job list and the run page: state, queue position and why a job waits; live curves; the result.
import { api, followRun } from './api.js';
import { createChart } from './charts.js';
import { TERMINAL_STATES, chartSeries, confusionCells, formatBytes, formatDuration } from './model.js';
import { el, stateBadge, toast } from './ui.js';

const POLL_MS = 2000;

/** The signed-in user's runs, refreshed while the list is on screen. */
export function showJobs(root, { open }) {
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    // An answer after the list was left (another view, or signed out by a refused token) must not draw over it.
    try {
      const runs = await api.runs();
      if (!stopped) render(runs);
    } catch (err) {
      if (!stopped) root.replaceChildren(el('p', { class: 'error' }, `Could not list runs: ${err.message}`));
    }
    if (!stopped) setTimeout(tick, POLL_MS);
  };
  const render = (runs) => {
    if (!runs.length) {
      root.replaceChildren(el('p', { class: 'muted' }, 'No runs yet: design a network and press "Train it".'));
      return;
    }
    const head = el('tr', {}, ...['Run', 'Dataset', 'State', 'Queue', 'Why it waits', 'Epoch', 'Accuracy', 'Submitted']
      .map((h) => el('th', {}, h)));
    const rows = runs.map((r) => {
      const row = el('tr', { class: 'clickable', 'data-run-id': r.runId },
        el('td', {}, el('a', { href: `#/runs/${encodeURIComponent(r.runId)}` }, r.runId)),
        el('td', {}, r.dataset ?? ''), el('td', {}, stateBadge(r.state)),
        el('td', {}, r.queuePosition ?? ''), el('td', { class: 'reason' }, r.pendingReason ?? ''),
        el('td', {}, r.epoch != null ? `${r.epoch} / ${r.epochs ?? '?'}` : ''),
        el('td', {}, r.lastAccuracy != null ? r.lastAccuracy.toFixed(3) : ''),
        el('td', {}, r.submittedAt ? new Date(r.submittedAt).toLocaleTimeString() : ''));
      row.addEventListener('click', () => open(r.runId));
      return row;
    });
    root.replaceChildren(el('table', { id: 'jobs-table' }, el('thead', {}, head), el('tbody', {}, ...rows)));
  };
  tick();
  return () => { stopped = true; };
}

/** One run: live from its event stream, with the details (queue, ETA, tuner, result) polled beside it. */
export function showRun(root, runId) {
  const $ = (sel) => root.querySelector(sel);
  root.replaceChildren(runSkeleton(runId));
  const loss = createChart($('#chart-loss'), 'loss');
  const accuracy = createChart($('#chart-accuracy'), 'accuracy');
  let detail = null;
  let progress = [];
  let stopped = false;
  let stopStream = () => {};

  $('#cancel-run').addEventListener('click', async () => {
    try {
      await api.cancel(runId);
      toast('Cancelling the run…');
      refresh();
    } catch (err) {
      toast(`Not cancelled: ${err.message}`);
    }
  });

  const redraw = () => {
    const series = chartSeries(progress, detail?.epochs);
    loss.update(series, detail?.epochs);
    accuracy.update(series, detail?.epochs);
    const last = progress[progress.length - 1];
    $('#stat-epoch').textContent = last?.epoch != null ? `${last.epoch} / ${detail?.epochs ?? '?'}` : '—';
    $('#stat-speed').textContent = last?.samplesPerSecond != null ? `${Math.round(last.samplesPerSecond)}` : '—';
    $('#stat-val-acc').textContent = last?.validationAccuracy != null ? last.validationAccuracy.toFixed(3) : '—';
  };

  // A poll timer set before the page was left still fires: it must call nothing then. Its call would go out as
  // whoever the tab is by then, and its 401 for a tab just signed out by a refused token wrote "Not signed in" over
  // the refusal's reason (StudioTokenSignInTest, 2026-12-06).
  const refresh = async () => {
    if (stopped) return;
    try {
      detail = await api.run(runId);
    } catch (err) {
      if (!stopped) $('#run-state').replaceChildren(el('span', { class: 'error' }, err.message));
      return;
    }
    if (stopped) return;
    if (!progress.length && detail.progress?.length) progress = detail.progress;
    renderDetail(root, detail);
    redraw();
    if (!TERMINAL_STATES.has(detail.state) && !stopped) setTimeout(refresh, POLL_MS);
  };

  const follow = () => {
    if (stopped) return;
    let fresh = true;
    stopStream = followRun(runId, (event, data) => {
      if (event === 'progress') {
        // The stream replays the history first: it replaces what the first detail request brought.
        if (fresh) { progress = []; fresh = false; }
        progress = [...progress, data];
        redraw();
      } else if (event === 'state' || event === 'result' || event === 'tuning') {
        refresh();
      }
    }, (err) => {
      // The stream broke: resubscribe (it replays the history), unless the server refused it (a 4xx says why).
      if (err && !stopped && !(err.status >= 400 && err.status < 500)) setTimeout(follow, POLL_MS);
    });
  };

  refresh().then(() => { if (!stopped) follow(); });
  return () => { stopped = true; stopStream(); };
}

function runSkeleton(runId) {
  const stat = (id, label) => el('div', { class: 'stat' }, el('span', { class: 'label' }, label), el('span', { id }, '—'));
  return el('div', { class: 'run' },
    el('div', { class: 'run-head' }, el('h2', {}, 'Run ', el('code', { id: 'run-id' }, runId)),
      el('span', { id: 'run-state' }), el('button', { id: 'cancel-run', class: 'danger' }, 'Cancel')),
    el('p', { id: 'run-waiting', class: 'waiting', hidden: true }),
    el('div', { class: 'stats' }, stat('stat-epoch', 'Epoch'), stat('stat-speed', 'Samples/s'),
      stat('stat-eta', 'Time left'), stat('stat-val-acc', 'Validation accuracy'), stat('stat-node', 'Node')),
    el('div', { class: 'charts' },
      el('figure', {}, el('figcaption', {}, 'Loss (lower is better)'), el('div', { id: 'chart-loss', class: 'chart' })),
      el('figure', {}, el('figcaption', {}, 'Accuracy (higher is better)'),
        el('div', { id: 'chart-accuracy', class: 'chart' }))),
    el('section', { id: 'tuning' }),
    el('section', { id: 'result' }));
}

function renderDetail(root, d) {
  const $ = (sel) => root.querySelector(sel);
  $('#run-state').replaceChildren(stateBadge(d.state));
  $('#cancel-run').disabled = TERMINAL_STATES.has(d.state);
  const waiting = $('#run-waiting');
  const queued = d.queuePosition != null || d.pendingReason;
  waiting.hidden = !queued || TERMINAL_STATES.has(d.state) || d.state === 'RUNNING';
  waiting.textContent = queued ? `Waiting${d.queuePosition != null ? ` (position ${d.queuePosition} in the queue)` : ''}`
    + `${d.pendingReason ? `: ${d.pendingReason}` : ''}` : '';
  $('#stat-eta').textContent = TERMINAL_STATES.has(d.state) ? 'done' : formatDuration(d.etaSeconds);
  $('#stat-node').textContent = d.node ?? '—';
  if (d.failureReason) waiting.replaceChildren(el('span', { class: 'error' }, d.failureReason));
  if (d.failureReason) waiting.hidden = false;
  const tuning = d.tuning ?? [];
  $('#tuning').replaceChildren(...(tuning.length ? [el('h3', {}, 'What the tuner changed'),
    el('ul', {}, ...tuning.map((t) => el('li', {}, el('b', {}, t.field), ` ${t.from ?? '—'} → ${t.to ?? '—'}: `,
      t.reason ?? '')))] : []));
  $('#result').replaceChildren(...(d.result ? resultView(d.result) : []));
}

function resultView(r) {
  const parts = [el('h3', {}, 'Result'),
    el('p', { class: 'headline' }, 'Test accuracy ',
      el('strong', { id: 'test-accuracy' }, r.testAccuracy != null ? r.testAccuracy.toFixed(4) : '—'),
      r.testLoss != null ? ` (test loss ${r.testLoss.toFixed(4)})` : '',
      r.targetReachedAtEpoch != null ? `; target reached at epoch ${r.targetReachedAtEpoch}` : ''),
    el('p', { id: 'resources' }, `Resources used: peak memory ${formatBytes(r.peakRssBytes)}, `
      + `CPU time ${formatDuration(r.cpuSeconds)}, wall time ${formatDuration(r.wallSeconds)}`
      + `${r.epochsRun != null ? `, ${r.epochsRun} epochs` : ''}`
      + `${r.meanSamplesPerSecond != null ? `, ${Math.round(r.meanSamplesPerSecond)} samples/s on average` : ''}.`)];
  if (Array.isArray(r.confusionMatrix) && r.confusionMatrix.length) parts.push(confusionTable(r.confusionMatrix));
  return parts;
}

/** Rows: the true class; columns: what the model said. Darker = a larger share of that class. */
function confusionTable(matrix) {
  const cells = confusionCells(matrix);
  const head = el('tr', {}, el('th', {}, 'true \\ predicted'), ...matrix.map((_, j) => el('th', {}, j)));
  const rows = cells.map((row, i) => el('tr', {}, el('th', {}, i), ...row.map((c, j) => el('td', {
    class: c.correct ? 'diag' : 'off',
    style: `background: ${c.correct ? `rgba(22,163,74,${c.share})` : `rgba(220,38,38,${Math.min(1, c.share * 3)})`}`,
    title: `true ${i}, predicted ${j}: ${c.count}`,
  }, c.count))));
  return el('figure', {}, el('figcaption', {}, 'Confusion matrix: rows are the true class, columns the prediction; '
    + 'the diagonal is what the model got right.'), el('table', { id: 'confusion', class: 'heat' },
    el('thead', {}, head), el('tbody', {}, ...rows)));
}
