// The designer view: palette, canvas, parameter panel, live validation, templates, exports and the run form.
import { api } from './api.js';
import { createCanvas } from './canvas.js';
import { defaultParams, formatShape, parseParam } from './model.js';
import { el, show, toast } from './ui.js';

const VALIDATE_DELAY_MS = 250;
const PALETTE_GROUPS = [
  ['In and out', ['Input', 'Output']],
  ['Layers', ['Linear', 'Conv2d', 'MaxPool2d', 'AvgPool2d', 'Flatten', 'BatchNorm', 'Dropout']],
  ['Activations', ['ReLU', 'Tanh', 'Sigmoid', 'GELU']],
  ['Merge', ['Add', 'Concat']],
];

export function createDesigner(root, catalog, { onSubmitted }) {
  const layers = new Map(catalog.layers.map((l) => [l.type, l]));
  const $ = (sel) => root.querySelector(sel);
  const state = { dataset: catalog.datasets.find((d) => d.name === 'digits') ?? catalog.datasets[0], valid: false,
    validation: null, saved: null, seq: 0, timer: null };
  const canvas = createCanvas($('#canvas'), { onChange: scheduleValidation, onSelect: select });

  buildPalette();
  buildTemplates();
  buildRunForm();
  canvas.graph.on('cell:removed', ({ cell }) => { if (cell.id === state.selected) select({}); });
  // After the undo or redo is complete (its cell events come before the stacks change).
  canvas.graph.on('history:change', updateHistoryButtons);
  $('#undo').addEventListener('click', () => canvas.undo());
  $('#redo').addEventListener('click', () => canvas.redo());
  $('#clear').addEventListener('click', () => canvas.graph.clearCells());
  $('#export-djl').addEventListener('click', () => exportCode('djl', 'Network.java', 'DJL (Java)'));
  $('#export-pytorch').addEventListener('click', () => exportCode('pytorch', 'network.py', 'PyTorch (Python)'));
  document.addEventListener('keydown', (e) => {
    if (!root.offsetParent || e.target.closest('input, select, textarea')) return;
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === 'z') { e.preventDefault(); e.shiftKey ? canvas.redo() : canvas.undo(); }
    if (mod && e.key.toLowerCase() === 'y') { e.preventDefault(); canvas.redo(); }
    if (e.key === 'Delete' || e.key === 'Backspace') canvas.graph.getSelectedCells().forEach((c) => c.remove());
  });
  scheduleValidation();
  // The network as the server sees it, for the browser test and the devtools console.
  window.gantryStudio = { model: () => canvas.toModelGraph() };

  function buildPalette() {
    const palette = $('#palette');
    const known = new Set(PALETTE_GROUPS.flatMap(([, types]) => types));
    const groups = [...PALETTE_GROUPS, ['Other', [...layers.keys()].filter((t) => !known.has(t))]];
    for (const [title, types] of groups) {
      const present = types.filter((t) => layers.has(t));
      if (!present.length) continue;
      palette.append(el('h3', {}, title));
      for (const type of present) {
        const item = el('div', { class: 'palette-item', 'data-layer': type, title: `Drag ${type} onto the canvas` }, type);
        item.addEventListener('mousedown', (e) => {
          if (e.button === 0) canvas.startDrag(type, defaultParams(layers.get(type)), e);
        });
        item.addEventListener('dblclick', () => canvas.addLayer(type, defaultParams(layers.get(type))));
        palette.append(item);
      }
    }
  }

  function buildTemplates() {
    const box = $('#templates');
    for (const t of catalog.templates ?? []) {
      const b = el('button', { 'data-template': t.name, title: `Replace the canvas with the ${t.title} template` }, t.title);
      b.addEventListener('click', () => {
        if (t.dataset) setDataset(t.dataset);
        canvas.load(t.graph);
        $('#graph-name').value = `my ${t.name}`;
        state.saved = null;
      });
      box.append(b);
    }
  }

  function buildRunForm() {
    const datasets = $('#dataset');
    for (const d of catalog.datasets) {
      datasets.append(el('option', { value: d.name }, `${d.name} (${formatShape(d.inputShape)}, ${d.classes} classes)`));
    }
    datasets.value = state.dataset.name;
    datasets.addEventListener('change', () => setDataset(datasets.value));
    for (const o of catalog.optimizers ?? ['adam', 'sgd']) $('#optimizer').append(el('option', { value: o }, o));
    $('#optimizer').value = (catalog.optimizers ?? []).includes('adam') ? 'adam' : $('#optimizer').value;
    $('#run-form').addEventListener('submit', (e) => { e.preventDefault(); submit(); });
    showDataset();
  }

  function setDataset(name) {
    state.dataset = catalog.datasets.find((d) => d.name === name) ?? state.dataset;
    $('#dataset').value = state.dataset.name;
    showDataset();
    scheduleValidation();
  }

  function showDataset() {
    const d = state.dataset;
    $('#dataset-info').textContent = `${d.name}: each sample is ${formatShape(d.inputShape)}, ${d.classes} classes, `
      + `${d.samples ?? 'unknown number of'} samples. The Input layer takes this shape; Output gets one unit per class.`;
  }

  function scheduleValidation() {
    clearTimeout(state.timer);
    state.valid = false;
    updateSubmit();
    updateHistoryButtons();
    state.timer = setTimeout(validate, VALIDATE_DELAY_MS);
  }

  function updateHistoryButtons() {
    $('#undo').disabled = !canvas.canUndo();
    $('#redo').disabled = !canvas.canRedo();
  }

  async function validate() {
    const model = canvas.toModelGraph();
    const seq = ++state.seq;
    $('#canvas-hint').hidden = model.layers.length > 0;
    if (!model.layers.length) {
      showProblems({ valid: false, nodes: {}, errors: [] }, model);
      return;
    }
    try {
      const result = await api.validate(model, state.dataset.name);
      if (seq !== state.seq) return; // an older answer arriving after a newer edit
      state.validation = result;
      state.valid = result.valid;
      canvas.showStatus(result.nodes, state.dataset);
      showProblems(result, model);
      if (state.selected) showVerdict(state.selected);
    } catch (err) {
      if (seq === state.seq) showProblems({ valid: false, nodes: {}, errors: [{ reason: err.message }] }, model);
    }
    updateSubmit();
  }

  function showProblems(result, model) {
    const list = $('#problems');
    list.replaceChildren();
    const status = $('#validation-status');
    if (!model.layers.length) {
      status.textContent = 'Empty canvas';
      status.dataset.status = 'empty';
      return;
    }
    status.textContent = result.valid ? 'The network is valid' : `${result.errors.length} problem(s) to fix`;
    status.dataset.status = result.valid ? 'valid' : 'invalid';
    for (const e of result.errors ?? []) {
      const item = el('li', { 'data-node-id': e.nodeId ?? '' }, e.nodeId ? el('b', {}, e.nodeId) : '', ' ', e.reason);
      if (e.nodeId) item.addEventListener('click', () => select({ node: canvas.graph.getCellById(e.nodeId) }));
      list.append(item);
    }
  }

  function updateSubmit() {
    $('#submit-run').disabled = !state.valid;
  }

  /** The side panel: the selected layer's parameters, or the selected connection. */
  function select({ node, edge }) {
    state.selected = node?.id ?? null;
    const panel = $('#inspector');
    panel.replaceChildren();
    if (edge) {
      panel.append(el('h3', {}, 'Connection'), el('p', {}, `${edge.getSourceCellId()} → ${edge.getTargetCellId()}`));
      const remove = el('button', { id: 'remove-edge', class: 'danger' }, 'Remove connection');
      remove.addEventListener('click', () => { edge.remove(); select({}); });
      panel.append(remove);
      return;
    }
    if (!node) {
      panel.append(el('p', { class: 'muted' }, 'Select a layer to edit its parameters. Connect a layer\'s bottom port '
        + 'to the next layer\'s top port. Delete removes the selection; Ctrl+Z undoes.'));
      return;
    }
    const { type, params } = node.getData();
    const spec = layers.get(type) ?? { params: [] };
    panel.append(el('h3', {}, `${type} · ${node.id}`), el('p', { id: 'inspector-verdict' }));
    showVerdict(node.id);
    if (type === 'Input') panel.append(el('p', {}, `Takes the dataset's samples: ${state.dataset.name}, `
      + `${formatShape(state.dataset.inputShape)}.`));
    for (const p of spec.params) panel.append(paramField(node, p, params));
    const remove = el('button', { id: 'remove-node', class: 'danger' }, 'Delete layer');
    remove.addEventListener('click', () => { node.remove(); select({}); });
    panel.append(remove);
  }

  /** The selected layer's shape or error, kept current as validations come back. */
  function showVerdict(nodeId) {
    const box = $('#inspector-verdict');
    const verdict = state.validation?.nodes?.[nodeId];
    if (!box) return;
    box.className = verdict?.error ? 'error' : '';
    box.textContent = verdict?.error ?? (verdict?.shape ? `Output shape: ${formatShape(verdict.shape)}` : '');
  }

  function paramField(node, p, params) {
    const input = el('input', { type: 'number', name: p.name, value: params[p.name] ?? '', placeholder: p.default ?? '',
      min: p.min, max: p.max, step: p.kind === 'int' ? 1 : 'any', 'data-param': p.name });
    const message = el('span', { class: 'error' });
    input.addEventListener('change', () => {
      const parsed = parseParam(p, input.value);
      message.textContent = parsed.error ?? '';
      if (parsed.error) return;
      canvas.setParams(node, { ...node.getData().params, [p.name]: parsed.value });
    });
    const hint = `${p.kind === 'int' ? 'whole number' : 'number'}, ${p.min} to ${p.max}${p.required === false ? ', optional' : ''}`;
    return el('label', { class: 'param' }, el('span', {}, p.name), input, el('small', {}, hint), message);
  }

  async function exportCode(kind, fileName, title) {
    try {
      const code = await api.exportCode(kind, canvas.toModelGraph(), state.dataset.name);
      const download = el('button', {}, `Download ${fileName}`);
      download.addEventListener('click', () => {
        const a = el('a', { href: URL.createObjectURL(new Blob([code], { type: 'text/plain' })), download: fileName });
        a.click();
        URL.revokeObjectURL(a.href);
      });
      show(`${title} code for this network`, el('pre', { id: `export-${kind}-code` }, code), download);
    } catch (err) {
      toast(`Export failed: ${err.message}`);
    }
  }

  /** Saves the network (a new graph, or a new version when it changed) and submits a run of that version. */
  async function submit() {
    const model = canvas.toModelGraph();
    const name = $('#graph-name').value.trim() || 'my network';
    const button = $('#submit-run');
    button.disabled = true;
    try {
      const json = JSON.stringify([model, state.dataset.name]);
      if (!state.saved || state.saved.name !== name) {
        const g = await api.createGraph(name, model, state.dataset.name);
        state.saved = { id: g.id, version: g.version, name, json };
      } else if (state.saved.json !== json) {
        const g = await api.updateGraph(state.saved.id, model, state.dataset.name);
        state.saved = { ...state.saved, version: g.version, json };
      }
      const targetOn = $('#target-on').checked;
      const run = await api.submitRun({
        graphId: state.saved.id, version: state.saved.version, dataset: state.dataset.name,
        optimizer: $('#optimizer').value, learningRate: Number($('#learning-rate').value),
        batchSize: Number($('#batch-size').value), epochs: Number($('#epochs').value), seed: Number($('#seed').value),
        target: targetOn ? { metric: 'test_accuracy', value: Number($('#target-value').value) } : null,
        tune: $('#tune').checked,
      });
      onSubmitted(run.runId);
    } catch (err) {
      toast(`Not submitted: ${err.message}`);
    } finally {
      updateSubmit();
    }
  }

  return { canvas };
}
