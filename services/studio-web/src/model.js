// Pure functions shared by the page's views: no DOM, no network, so `node --test` checks them.

/** Layers that accept several incoming connections; every other layer takes one. */
export const MERGE_LAYERS = new Set(['Add', 'Concat']);

/** "1×8×8" for [1, 8, 8]; "—" when unknown. */
export function formatShape(shape) {
  return Array.isArray(shape) && shape.length ? shape.join('×') : '—';
}

/** The node's own message without the "layer 'x' (Type) " prefix the server adds (the node already shows both). */
export function shortError(nodeId, message) {
  const prefix = new RegExp(`^layer '${nodeId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}'( \\([A-Za-z0-9]+\\))?:? `);
  return String(message ?? '').replace(prefix, '');
}

/** A fresh layer id for `type` not among `taken`: conv2d1, conv2d2, ... (letters and digits, as ModelGraph wants). */
export function nextLayerId(type, taken) {
  const base = type.toLowerCase();
  let n = 1;
  while (taken.has(`${base}${n}`)) n++;
  return `${base}${n}`;
}

/** The starting parameters of a new layer: every required parameter at the catalogue's default. */
export function defaultParams(layerSpec) {
  const params = {};
  for (const p of layerSpec?.params ?? []) {
    if (p.required !== false && p.default !== undefined && p.default !== null) params[p.name] = p.default;
  }
  return params;
}

/**
 * A parameter typed in the side panel: a number within bounds, or undefined when the field is empty (the layer's
 * default applies). Returns {value} or {error}; the server checks again, this only keeps the form honest.
 */
export function parseParam(spec, text) {
  const t = String(text).trim();
  if (t === '') return spec.required === false ? { value: undefined } : { error: `${spec.name} is required` };
  const v = Number(t);
  if (!Number.isFinite(v)) return { error: `${spec.name} must be a number` };
  if (spec.kind === 'int' && !Number.isInteger(v)) return { error: `${spec.name} must be a whole number` };
  if ((spec.min !== undefined && v < spec.min) || (spec.max !== undefined && v > spec.max)) {
    return { error: `${spec.name} must be between ${spec.min} and ${spec.max}` };
  }
  return { value: v };
}

/**
 * Positions for a graph without any (a template, a saved version): each layer one row below its deepest input,
 * layers of the same row side by side, centred on `centerX`.
 */
export function layout(graph, { centerX = 360, top = 40, rowHeight = 110, columnWidth = 250 } = {}) {
  const depth = new Map();
  const inputs = new Map(graph.layers.map((l) => [l.id, []]));
  for (const e of graph.edges) inputs.get(e.to)?.push(e.from);
  const visit = (id, seen) => {
    if (depth.has(id)) return depth.get(id);
    if (seen.has(id)) return 0; // a cycle: the server reports it, the layout only must not loop
    seen.add(id);
    const d = Math.max(-1, ...(inputs.get(id) ?? []).map((from) => visit(from, seen))) + 1;
    depth.set(id, d);
    return d;
  };
  graph.layers.forEach((l) => visit(l.id, new Set()));
  const rows = new Map();
  for (const l of graph.layers) {
    const d = depth.get(l.id);
    if (!rows.has(d)) rows.set(d, []);
    rows.get(d).push(l.id);
  }
  const positions = {};
  for (const [d, ids] of rows) {
    ids.forEach((id, i) => {
      positions[id] = { x: centerX + (i - (ids.length - 1) / 2) * columnWidth, y: top + d * rowHeight };
    });
  }
  return positions;
}

/** Progress points as chart columns: x in epochs (progress × planned epochs), sorted, one point per x. */
export function chartSeries(points, plannedEpochs) {
  const byX = new Map();
  for (const p of points) {
    const x = typeof p.progress === 'number' && plannedEpochs ? p.progress * plannedEpochs : p.epoch;
    if (typeof x === 'number' && Number.isFinite(x)) byX.set(x, p);
  }
  const xs = [...byX.keys()].sort((a, b) => a - b);
  const col = (key) => xs.map((x) => byX.get(x)[key] ?? null);
  return {
    x: xs,
    trainLoss: col('trainLoss'),
    validationLoss: col('validationLoss'),
    validationAccuracy: col('validationAccuracy'),
  };
}

/** "1 min 05 s", "42 s", "—". */
export function formatDuration(seconds) {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${String(s % 60).padStart(2, '0')} s` : `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** "182 MiB" for a byte count. */
export function formatBytes(bytes) {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 100 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

/**
 * The confusion matrix as rows of cells with a share of their row (recall per true class) for the heat colour;
 * the diagonal is what was right.
 */
export function confusionCells(matrix) {
  return matrix.map((row, i) => {
    const total = row.reduce((a, b) => a + b, 0);
    return row.map((count, j) => ({ count, share: total ? count / total : 0, correct: i === j }));
  });
}

/** States after which a run never changes again. */
export const TERMINAL_STATES = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'REJECTED']);

/**
 * Splits a text/event-stream chunk stream into events. Feed it text as it arrives; it calls `onEvent({event, data})`
 * for every complete event and keeps the incomplete tail for the next chunk.
 */
export function sseParser(onEvent) {
  let buffer = '';
  return (chunk) => {
    buffer += chunk.replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length) onEvent({ event, data: data.join('\n') });
    }
  };
}
