// The network canvas: AntV X6 with its Dnd (palette drag) and History (undo/redo) plugins. One X6 node per layer,
// id = the layer id; an input port on top (not for Input), an output port below (not for Output).
import { Dnd, Graph, History, Selection } from '@antv/x6';
import { MERGE_LAYERS, formatShape, layout, nextLayerId, shortError } from './model.js';

const NODE_WIDTH = 230;
const NODE_HEIGHT = 80;
const COLORS = { ok: '#15803d', error: '#dc2626', pending: '#64748b' };
// Only what the user changed is undoable; the shapes and errors drawn after each validation are not.
const UNDOABLE_CHANGES = new Set(['position', 'data', 'source', 'target']);

const PORT = (group) => ({
  position: group === 'in' ? 'top' : 'bottom',
  attrs: { circle: { r: 7, magnet: true, stroke: '#334155', strokeWidth: 2, fill: '#fff', 'data-port': group } },
});

export function createCanvas(container, { onChange, onSelect }) {
  const graph = new Graph({
    container,
    autoResize: true,
    grid: { size: 10, visible: true },
    panning: { enabled: true, eventTypes: ['rightMouseDown'] },
    mousewheel: { enabled: true, modifiers: ['ctrl', 'meta'] },
    background: { color: '#f8fafc' },
    connecting: {
      snap: { radius: 28 },
      allowBlank: false,
      allowLoop: false,
      allowNode: false,
      allowEdge: false,
      allowMulti: false,
      highlight: true,
      connector: 'smooth',
      createEdge() {
        return this.createEdge({
          attrs: { line: { stroke: '#475569', strokeWidth: 2, targetMarker: { name: 'classic', size: 8 } } },
          zIndex: -1,
        });
      },
      validateMagnet: ({ magnet }) => magnet.getAttribute('data-port') === 'out',
      validateConnection: ({ sourceCell, targetCell, targetMagnet }) =>
        !!targetMagnet && targetMagnet.getAttribute('data-port') === 'in' && sourceCell !== targetCell,
    },
  });
  const history = new History({
    enabled: true,
    beforeAddCommand: (event, args) => !event.startsWith('cell:change') || UNDOABLE_CHANGES.has(args.key),
  });
  graph.use(history);
  // The selection box must not catch the mouse: a press on a selected node's port still starts a connection.
  graph.use(new Selection({ enabled: true, multiple: false, showNodeSelectionBox: true, pointerEvents: 'none' }));

  const layerIds = () => new Set(graph.getNodes().map((n) => n.id));
  const dnd = new Dnd({
    target: graph,
    scaled: false,
    getDragNode: (node) => node.clone({ keepId: true }),
    getDropNode: (node) => {
      const type = node.getData().type;
      return graph.createNode(nodeConfig(type, { ...node.getData().params }, nextLayerId(type, layerIds())));
    },
  });

  // A single-input layer fed anew drops its old input: connecting is how a user rewires it.
  graph.on('edge:connected', ({ edge, isNew }) => {
    const target = edge.getTargetCell();
    if (!isNew || !target || MERGE_LAYERS.has(target.getData().type)) return;
    graph.startBatch('rewire');
    for (const old of graph.getIncomingEdges(target) ?? []) if (old.id !== edge.id) old.remove();
    graph.stopBatch('rewire');
  });
  let lastModelJson = '';
  const changed = () => {
    // Only changes to the network itself trigger a validation (not drawing its shapes, not a half-drawn edge).
    const json = JSON.stringify(toModelGraph());
    if (json !== lastModelJson) {
      lastModelJson = json;
      onChange();
    }
  };
  graph.on('cell:added', changed);
  graph.on('cell:removed', changed);
  graph.on('edge:connected', changed);
  graph.on('node:change:data', changed);
  graph.on('history:change', changed);
  graph.on('node:click', ({ node }) => onSelect({ node }));
  graph.on('edge:click', ({ edge }) => onSelect({ edge }));
  graph.on('blank:click', () => onSelect({}));

  function toModelGraph() {
    const layers = graph.getNodes().map((n) => {
      const { type, params } = n.getData();
      const clean = Object.fromEntries(Object.entries(params ?? {}).filter(([, v]) => v !== undefined));
      return Object.keys(clean).length ? { id: n.id, type, params: clean } : { id: n.id, type };
    });
    const edges = graph.getEdges()
      .filter((e) => e.getSourceCellId() && e.getTargetCellId())
      .map((e) => ({ from: e.getSourceCellId(), to: e.getTargetCellId() }));
    return { layers, edges };
  }

  return {
    graph,
    toModelGraph,
    startDrag: (type, params, event) => dnd.start(graph.createNode(nodeConfig(type, params)), event),
    addLayer(type, params) {
      const free = graph.getNodes().reduce((y, n) => Math.max(y, n.getPosition().y + 110), 40);
      graph.addNode({ ...nodeConfig(type, params, nextLayerId(type, layerIds())), x: 250, y: free });
    },
    load(model) {
      const at = layout(model);
      graph.startBatch('load');
      graph.clearCells();
      model.layers.forEach((l) => graph.addNode({ ...nodeConfig(l.type, { ...(l.params ?? {}) }, l.id),
        x: at[l.id].x - NODE_WIDTH / 2, y: at[l.id].y }));
      model.edges.forEach((e) => graph.addEdge({ source: { cell: e.from, port: 'out' }, target: { cell: e.to, port: 'in' },
        attrs: { line: { stroke: '#475569', strokeWidth: 2, targetMarker: { name: 'classic', size: 8 } } }, zIndex: -1 }));
      graph.stopBatch('load');
      graph.centerContent();
    },
    setParams(node, params) {
      node.setData({ ...node.getData(), params }, { overwrite: true });
    },
    /** Draws the validation's verdict on every node: its output shape, or its error in red. */
    showStatus(nodes, dataset) {
      for (const node of graph.getNodes()) {
        const verdict = nodes?.[node.id];
        const status = !verdict ? 'pending' : verdict.error ? 'error' : 'ok';
        const text = !verdict ? '…' : verdict.error ? shortError(node.id, verdict.error)
          : node.getData().type === 'Input' && dataset ? `${dataset.name}: ${formatShape(verdict.shape)}`
            : `out ${formatShape(verdict.shape)}`;
        node.setAttrs({
          body: { stroke: COLORS[status], strokeWidth: status === 'error' ? 3 : 1.5 },
          detail: { fill: COLORS[status], 'data-status': status, 'data-message': text, title: text,
            textWrap: { text, width: NODE_WIDTH - 20, height: 42, ellipsis: true } },
        }, { silent: false });
      }
    },
    undo: () => history.undo(),
    redo: () => history.redo(),
    canUndo: () => history.canUndo(),
    canRedo: () => history.canRedo(),
    clearHistory: () => history.clean(),
  };
}

function nodeConfig(type, params, id) {
  const ports = [];
  if (type !== 'Input') ports.push({ id: 'in', group: 'in' });
  if (type !== 'Output') ports.push({ id: 'out', group: 'out' });
  return {
    ...(id ? { id } : {}),
    shape: 'rect',
    width: NODE_WIDTH,
    height: NODE_HEIGHT,
    data: { type, params: params ?? {} },
    markup: [
      { tagName: 'rect', selector: 'body' },
      { tagName: 'text', selector: 'title' },
      { tagName: 'text', selector: 'detail' },
    ],
    attrs: {
      body: { refWidth: '100%', refHeight: '100%', rx: 8, ry: 8, fill: '#fff', stroke: COLORS.pending, strokeWidth: 1.5,
        'data-layer-type': type },
      title: { refX: 12, refY: 20, textAnchor: 'start', textVerticalAnchor: 'middle', fontSize: 14, fontWeight: 600, fill: '#0f172a', text: id ? `${type} · ${id}` : type,
        'data-role': 'title' },
      detail: { refX: 12, refY: 36, textAnchor: 'start', textVerticalAnchor: 'top', fontSize: 12, fill: COLORS.pending, text: '…', 'data-role': 'detail',
        'data-status': 'pending' },
    },
    ports: { groups: { in: PORT('in'), out: PORT('out') }, items: ports },
  };
}
