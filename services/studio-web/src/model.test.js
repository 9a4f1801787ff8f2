import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  chartSeries, confusionCells, defaultParams, formatBytes, formatDuration, formatShape, layout, nextLayerId,
  parseParam, shortError, sseParser,
} from './model.js';

test('shapes and messages read as the page shows them', () => {
  assert.equal(formatShape([16, 2, 2]), '16×2×2');
  assert.equal(formatShape(null), '—');
  assert.equal(shortError('linear1', "layer 'linear1' (Linear) needs a flat input [features], got [16, 2, 2]"),
    'needs a flat input [features], got [16, 2, 2]');
  assert.equal(shortError('a.b', "layer 'a.b': must be between 1 and 64"), 'must be between 1 and 64');
  assert.equal(shortError('x', 'the graph has no Output'), 'the graph has no Output');
});

test('new layers get unused readable ids and their required defaults', () => {
  assert.equal(nextLayerId('Conv2d', new Set(['conv2d1', 'conv2d2'])), 'conv2d3');
  const conv = { params: [{ name: 'filters', kind: 'int', default: 8, required: true },
    { name: 'stride', kind: 'int', default: 1, required: false }] };
  assert.deepEqual(defaultParams(conv), { filters: 8 });
});

test('a typed parameter is checked against its bounds', () => {
  const kernel = { name: 'kernel', kind: 'int', min: 1, max: 64, required: true };
  assert.deepEqual(parseParam(kernel, '3'), { value: 3 });
  assert.match(parseParam(kernel, '2.5').error, /whole number/);
  assert.match(parseParam(kernel, '65').error, /between 1 and 64/);
  assert.match(parseParam(kernel, '').error, /required/);
  assert.deepEqual(parseParam({ ...kernel, required: false }, ' '), { value: undefined });
});

test('layout puts every layer one row below its deepest input', () => {
  const g = { layers: [{ id: 'in' }, { id: 'a' }, { id: 'b' }, { id: 'sum' }, { id: 'out' }],
    edges: [{ from: 'in', to: 'a' }, { from: 'a', to: 'b' }, { from: 'in', to: 'sum' }, { from: 'b', to: 'sum' },
      { from: 'sum', to: 'out' }] };
  const p = layout(g, { top: 0, rowHeight: 100 });
  assert.deepEqual([p.in.y, p.a.y, p.b.y, p.sum.y, p.out.y], [0, 100, 200, 300, 400]);
  const cyclic = layout({ layers: [{ id: 'x' }, { id: 'y' }], edges: [{ from: 'x', to: 'y' }, { from: 'y', to: 'x' }] });
  assert.equal(Object.keys(cyclic).length, 2);
});

test('chart columns are sorted by epoch with one point per x', () => {
  const s = chartSeries([
    { progress: 0.2, trainLoss: 1.0, validationAccuracy: 0.5 },
    { progress: 0.1, trainLoss: 2.0 },
    { progress: 0.2, trainLoss: 0.9, validationAccuracy: 0.6 },
  ], 10);
  assert.deepEqual(s.x, [1, 2]);
  assert.deepEqual(s.trainLoss, [2.0, 0.9]);
  assert.deepEqual(s.validationAccuracy, [null, 0.6]);
});

test('durations, sizes and the confusion matrix', () => {
  assert.equal(formatDuration(42.4), '42 s');
  assert.equal(formatDuration(65), '1 min 05 s');
  assert.equal(formatDuration(undefined), '—');
  assert.equal(formatBytes(190 * 1024 * 1024), '190 MiB');
  const cells = confusionCells([[3, 1], [0, 0]]);
  assert.deepEqual(cells[0].map((c) => c.share), [0.75, 0.25]);
  assert.equal(cells[1][1].share, 0);
  assert.ok(cells[0][0].correct && !cells[0][1].correct);
});

test('server-sent events are split across chunks', () => {
  const seen = [];
  const feed = sseParser((e) => seen.push(e));
  feed('event: progress\ndata: {"epoch"');
  feed(':1}\n\n: keep-alive\n\nevent: state\r\ndata: {"state":"RUNNING"}\r\n\r\ndata: x\n');
  assert.deepEqual(seen, [{ event: 'progress', data: '{"epoch":1}' }, { event: 'state', data: '{"state":"RUNNING"}' }]);
});
