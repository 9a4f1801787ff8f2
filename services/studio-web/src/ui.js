// Small DOM helpers: the page is plain HTML built from code, no framework.

/** An element with attributes (undefined/null/false ones left out) and children (strings become text). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c !== undefined && c !== null && c !== '') node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

/** A modal dialog with a title, some content and a Close button. */
export function show(title, ...content) {
  const dialog = el('dialog', { class: 'modal' }, el('h2', {}, title), ...content);
  const close = el('button', { class: 'close' }, 'Close');
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  dialog.append(close);
  document.body.append(dialog);
  dialog.showModal();
}

/** A message at the bottom of the page for a few seconds. */
export function toast(message) {
  const t = el('div', { class: 'toast', role: 'alert' }, message);
  document.body.append(t);
  setTimeout(() => t.remove(), 6000);
}

/** A coloured badge for a run state. */
export function stateBadge(state) {
  return el('span', { class: `badge state-${String(state).toLowerCase()}`, 'data-state': state }, state);
}
