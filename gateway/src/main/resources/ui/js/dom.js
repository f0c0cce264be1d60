// Small DOM helpers. Content is always set as text, never parsed as markup, so data from the API cannot inject any.

/** Creates an element: h('a', {href: '#/x', class: 'link'}, 'text', child). Functions in attrs become listeners. */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) {
      continue;
    }
    if (typeof value === 'function') {
      element.addEventListener(name.replace(/^on/, ''), value);
    } else if (value === true) {
      element.setAttribute(name, '');
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false || child === '') {
      continue;
    }
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** A value from the API as readable text. */
export function text(value) {
  if (value === undefined || value === null) {
    return '';
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A key/value list, or a note when there is nothing to show. */
export function definitionList(values, emptyNote = 'None') {
  const entries = Object.entries(values || {});
  if (entries.length === 0) {
    return h('p', { class: 'muted' }, emptyNote);
  }
  return h('dl', { class: 'pairs' }, entries.map(([name, value]) => [h('dt', {}, name), h('dd', {}, text(value))]));
}

/** A timestamp in the reader's locale, with the ISO value kept for machines. */
export function time(iso) {
  if (!iso) {
    return '';
  }
  return h('time', { datetime: iso }, new Date(iso).toLocaleString());
}

/** A state badge: the state is written out, so colour is never the only signal. */
export function badge(state, attrs = {}) {
  return h('span', { class: `badge badge-${state}`, ...attrs }, state);
}

/**
 * A table; on a phone-sized screen each row becomes a block of labelled cells (see app.css). Rows may be a tbody,
 * to which rows added later are labelled by labelCells.
 */
export function table(caption, headings, rows) {
  const body = rows instanceof HTMLTableSectionElement ? rows : h('tbody', {}, rows);
  labelCells(body, headings);
  body.dataset.headings = JSON.stringify(headings);
  return h('div', { class: 'table-scroll' },
    h('table', {},
      h('caption', { class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, headings.map((heading) => h('th', { scope: 'col' }, heading)))),
      body));
}

/** Gives each cell its column's heading, shown beside the value where rows are stacked. */
export function labelCells(body, headings = JSON.parse(body.dataset.headings || '[]')) {
  for (const row of body.rows) {
    [...row.cells].forEach((cell, index) => { cell.dataset.label = headings[index] || ''; });
  }
}

let statusTimer;

/**
 * Announces a message in the page's live region (read by screen readers, shown at the top); tone 'notice' marks
 * news the person did not cause, such as a step resolved by someone else.
 */
export function announce(message, tone = 'done') {
  const status = document.getElementById('status');
  status.textContent = message;
  status.dataset.tone = tone;
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => { status.textContent = ''; }, 8000);
}

/** Moves focus to a view's heading after navigation, so keyboard and screen-reader users start there. */
export function focusHeading(container) {
  const heading = container.querySelector('h1');
  if (heading) {
    heading.setAttribute('tabindex', '-1');
    heading.focus();
  }
}
