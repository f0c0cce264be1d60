// The inbox: steps waiting on a person, oldest first, kept current by the workspace's live stream. Each is one row
// that opens to its form, so a long inbox stays short to scan.

import { get, withQuery } from './api.js';
import { announce, fill, h, updateAge } from './dom.js';
import { debounce, follow } from './events.js';
import { taskCard, taskKey } from './task.js';

const PAGE = 100;

export function inboxView(container, query) {
  const process = query.get('process') || '';
  const filter = h('select', { id: 'inbox-process', name: 'process' }, h('option', { value: '' }, 'All processes'));
  const count = h('p', { class: 'muted', id: 'inbox-count' });
  const list = h('ul', { class: 'tasks', 'aria-labelledby': 'inbox-heading' });
  const more = h('button', { type: 'button', hidden: true }, 'Show more');
  let next = null;

  fill(container,
    h('h1', { id: 'inbox-heading' }, 'Inbox'),
    h('p', { class: 'lead' }, 'Steps waiting on a person: forms, and judgments the agent may not take or handed over.'),
    h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter the inbox', onsubmit: (event) => event.preventDefault() },
      h('label', { for: 'inbox-process' }, 'Process'), filter),
    count, list, more);

  filter.addEventListener('change', () => {
    window.location.hash = filter.value ? `#/inbox?process=${encodeURIComponent(filter.value)}` : '#/inbox';
  });
  more.addEventListener('click', async () => {
    const page = await get(next);
    next = page.next;
    pagesShown += 1;
    render(page.data, { append: true });
  });

  get('/sop/').then(({ data }) => {
    data.forEach((summary) => filter.append(h('option', { value: summary.name, selected: summary.name === process }, summary.name)));
  }).catch(() => {});

  // As many pages as the person has asked for: a refresh reads them all again, so a card shown by "Show more", and
  // what is typed in it, stays while the list changes.
  let pagesShown = 1;

  async function refresh() {
    try {
      let page = await get(withQuery('/sop/steps/pending', { assignee: 'human', process, limit: PAGE }));
      const items = [...page.data];
      for (let read = 1; read < pagesShown && page.next; read += 1) {
        page = await get(page.next);
        items.push(...page.data);
      }
      next = page.next;
      render(items, { append: false });
    } catch (error) {
      count.textContent = error.message;
    }
  }

  // Cards already on the page are kept as they are, so a person typing in one loses nothing when the list changes.
  function render(items, { append }) {
    const wanted = new Set(items.map(taskKey));
    if (!append) {
      [...list.children].forEach((item) => { if (!wanted.has(item.dataset.key)) item.remove(); });
    }
    const present = new Map([...list.children].map((item) => [item.dataset.key, item]));
    let previous = null;
    for (const pending of items) {
      const key = taskKey(pending);
      let item = present.get(key);
      if (!item) {
        item = h('li', { 'data-key': key }, taskCard(pending, { collapsible: true, onDone: (message, tone) => done(item, message, tone) }));
      }
      if (!append && item !== (previous ? previous.nextSibling : list.firstChild)) {
        list.insertBefore(item, previous ? previous.nextSibling : list.firstChild);
      } else if (append && !item.isConnected) {
        list.append(item);
      }
      previous = item;
    }
    more.hidden = !next;
    updateCount();
  }

  function done(item, message, tone) {
    const following = item.nextElementSibling || item.previousElementSibling;
    item.remove();
    announce(message, tone);
    updateCount();
    const toggle = following?.querySelector('.task-toggle');
    if (toggle) {
      toggle.focus();
    } else {
      const heading = container.querySelector('h1');
      heading.setAttribute('tabindex', '-1');
      heading.focus();
    }
  }

  function updateCount() {
    const n = list.children.length;
    count.textContent = n === 0 ? 'Nothing is waiting for you.' : `${n} step${n === 1 ? '' : 's'} waiting${next ? ' (more below)' : ''}.`;
  }

  refresh();
  const stream = follow('/sop/events', { onOpen: refresh, onChange: debounce(refresh) });
  const ages = setInterval(() => list.querySelectorAll('time[data-age]').forEach(updateAge), 30_000);
  return () => {
    stream.close();
    clearInterval(ages);
  };
}
