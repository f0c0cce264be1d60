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
let statusPage = null;

/**
 * Announces a message in the page's live region (read by screen readers, shown at the top); tone 'notice' marks
 * news the person did not cause, such as a step resolved by someone else. The message belongs to one page: the
 * current one, or the page an action is about to open (`page`, a location hash), and is cleared when another opens.
 */
export function announce(message, tone = 'done', { page = window.location.hash } = {}) {
  const status = document.getElementById('status');
  status.textContent = message;
  status.dataset.tone = tone;
  statusPage = page;
  clearTimeout(statusTimer);
  statusTimer = setTimeout(clearStatus, 8000);
}

/** Clears the status line unless its message was announced for the page now shown, so no message outlives its page. */
export function clearStaleStatus(page = window.location.hash) {
  if (statusPage !== page) {
    clearStatus();
  }
}

export function clearStatus() {
  clearTimeout(statusTimer);
  document.getElementById('status').textContent = '';
  statusPage = null;
}

const units = [['day', 86400], ['hour', 3600], ['minute', 60]];

/** How long ago a timestamp was, in words ("12 minutes"); the exact time is kept for machines and as a tooltip. */
export function age(iso) {
  const element = h('time', { datetime: iso, title: new Date(iso).toLocaleString(), 'data-age': '' });
  updateAge(element);
  return element;
}

/** Brings an element made by age() up to date. */
export function updateAge(element) {
  const seconds = Math.max(0, (Date.now() - Date.parse(element.getAttribute('datetime'))) / 1000);
  const [unit, size] = units.find(([, length]) => seconds >= length) || [];
  element.textContent = unit
    ? new Intl.NumberFormat(undefined, { style: 'unit', unit, unitDisplay: 'long' }).format(Math.floor(seconds / size))
    : 'less than a minute';
}

/** Moves focus to a view's heading after navigation, so keyboard and screen-reader users start there. */
export function focusHeading(container) {
  const heading = container.querySelector('h1');
  if (heading) {
    heading.setAttribute('tabindex', '-1');
    heading.focus();
  }
}
