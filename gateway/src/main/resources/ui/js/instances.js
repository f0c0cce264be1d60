// Instances: a filtered list whose states follow the workspace's live stream.

import { get, segment, withQuery } from './api.js';
import { badge, fill, h, labelCells, table, time } from './dom.js';
import { follow } from './events.js';

const STATES = ['pending', 'running', 'waiting', 'completed', 'failed', 'cancelled'];

export function instanceListView(container, query) {
  const process = query.get('process') || '';
  const state = query.get('state') || '';
  const processFilter = h('select', { id: 'filter-process', name: 'process' }, h('option', { value: '' }, 'All processes'));
  const stateFilter = h('select', { id: 'filter-state', name: 'state' }, h('option', { value: '' }, 'Any state'),
    STATES.map((value) => h('option', { value, selected: value === state }, value)));
  const rows = h('tbody', {});
  const body = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const more = h('button', { type: 'button', hidden: true }, 'Show more');
  let next = null;

  const filters = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter instances' },
    h('label', { for: 'filter-process' }, 'Process'), processFilter,
    h('label', { for: 'filter-state' }, 'State'), stateFilter,
    h('button', { type: 'submit' }, 'Filter'));
  filters.addEventListener('submit', (event) => {
    event.preventDefault();
    window.location.hash = withQuery('#/instances', { process: processFilter.value, state: stateFilter.value });
  });
  fill(container, h('h1', {}, 'Instances'), filters, body, more);

  get('/sop/').then(({ data }) => data.forEach((summary) =>
    processFilter.append(h('option', { value: summary.name, selected: summary.name === process }, summary.name)))).catch(() => {});

  function addRows(instances) {
    for (const instance of instances) {
      rows.append(h('tr', { 'data-instance': instance.id },
        h('td', {}, h('a', { href: `#/instances/${segment(instance.process)}/${segment(instance.id)}` }, instance.id)),
        h('td', {}, instance.process),
        h('td', {}, instance.version),
        h('td', {}, badge(instance.state)),
        h('td', {}, time(instance.started_at)),
        h('td', {}, time(instance.completed_at))));
    }
  }

  const listing = table('Instances', ['Instance', 'Process', 'Version', 'State', 'Started', 'Completed'], rows);

  async function load(path) {
    try {
      const page = await get(path);
      next = page.next;
      addRows(page.data);
      labelCells(rows);
      fill(body, rows.children.length ? listing : h('p', {}, 'No instance matches.'));
      more.hidden = !next;
    } catch (error) {
      fill(body, h('p', { class: 'form-error' }, error.message));
    }
  }

  more.addEventListener('click', () => load(next));
  load(withQuery('/sop/instances', { process, state, limit: 50 }));

  // Rows on the page show each instance's latest state as it changes.
  const stream = follow('/sop/events', {
    onChange: (event) => {
      if (event.type !== 'sop.instance.state_changed') return;
      const row = rows.querySelector(`tr[data-instance="${CSS.escape(event.subject)}"]`);
      if (row) {
        fill(row.cells[3], badge(event.data.to));
        if (event.data.instance?.completed_at) fill(row.cells[5], time(event.data.instance.completed_at));
      }
    },
  });
  return () => stream.close();
}
