// One instance: its state, steps, inputs and outputs, the step waiting on a person if any, and a timeline of its
// state changes, all kept current by the instance's live stream.

import { allows, notAllowed } from './access.js';
import { ApiError, get, post, segment, withQuery } from './api.js';
import { announce, badge, definitionList, fill, h, table, text, time } from './dom.js';
import { debounce, follow } from './events.js';
import { taskCard, taskKey } from './task.js';

const TERMINAL = ['completed', 'failed', 'cancelled'];

export function instanceView(container, process, id) {
  const path = `/sop/${segment(process)}/${segment(id)}`;
  const summary = h('div', { class: 'summary' });
  const actions = h('div', { class: 'actions' });
  const waiting = h('section', { 'aria-labelledby': 'waiting-heading', hidden: true },
    h('h2', { id: 'waiting-heading' }, 'Waiting on a person'), h('div', {}));
  const steps = h('div', {});
  const data = h('div', { class: 'columns' });
  const timeline = h('ol', { class: 'timeline', role: 'log', 'aria-label': 'Timeline' });
  const entries = new Map();
  let lastState = null;

  fill(container,
    h('h1', {}, `${process} instance`),
    summary, actions, waiting,
    h('section', { 'aria-labelledby': 'steps-heading' }, h('h2', { id: 'steps-heading' }, 'Steps'), steps),
    data,
    h('section', { 'aria-labelledby': 'timeline-heading' }, h('h2', { id: 'timeline-heading' }, 'Timeline'), timeline));

  async function load() {
    let instance;
    try {
      ({ data: instance } = await get(path));
    } catch (error) {
      fill(summary, h('p', { class: 'form-error' }, error.status === 404 ? `No instance ${id} of ${process}.` : error.message));
      return;
    }
    if (lastState && lastState !== instance.state) {
      announce(`The instance is now ${instance.state}.`);
    }
    lastState = instance.state;
    renderSummary(instance);
    renderSteps(instance);
    fill(data,
      h('section', { 'aria-labelledby': 'inputs-heading' }, h('h2', { id: 'inputs-heading' }, 'Inputs'), definitionList(instance.inputs)),
      h('section', { 'aria-labelledby': 'outputs-heading' }, h('h2', { id: 'outputs-heading' }, 'Outputs'),
        definitionList(instance.outputs, 'No outputs yet.')));
    derivedEntries(instance).forEach((entry) => { if (!entries.has(entry.key)) entries.set(entry.key, entry); });
    renderTimeline();
    await renderWaiting(instance);
  }

  function renderSummary(instance) {
    fill(summary,
      h('p', {}, 'Instance ', h('code', {}, instance.id), ` of ${instance.process} v${instance.version} is `,
        badge(instance.state, { id: 'instance-state' }), '.'),
      h('p', { class: 'meta' }, 'Started ', time(instance.started_at),
        instance.completed_at ? [' · ended ', time(instance.completed_at)] : null),
      instance.error ? h('p', { class: 'form-error' }, `Step ${instance.error.step_id} failed: ${instance.error.code}: ${instance.error.message}`) : null);
    fill(actions, TERMINAL.includes(instance.state) ? null : cancelControl());
  }

  function cancelControl() {
    return allows('cancel')
      ? h('button', { type: 'button', class: 'danger', onclick: cancel }, 'Cancel instance')
      : h('p', { class: 'role-note' }, notAllowed('cancel'));
  }

  async function cancel() {
    if (!window.confirm('Cancel this instance? Its active step is cancelled too.')) return;
    try {
      await post(`${path}/cancel`);
      announce('The instance was cancelled.');
    } catch (error) {
      announce(error.code === 'invalid_transition' ? 'The instance had already ended.' : error.message);
    }
    load();
  }

  function renderSteps(instance) {
    fill(steps, table('Steps', ['Step', 'Type', 'State', 'Who', 'Started', 'Ended', 'Result'], instance.steps.map((step) =>
      h('tr', { 'data-step': step.id },
        h('td', {}, step.name || step.id, step.attempt > 1 ? h('span', { class: 'muted' }, ` (attempt ${step.attempt})`) : null),
        h('td', {}, step.type),
        h('td', {}, badge(step.state), step.escalated ? [' ', h('span', { class: 'badge badge-escalated' }, 'escalated')] : null),
        h('td', {}, who(step)),
        h('td', {}, time(step.started_at)),
        h('td', {}, time(step.completed_at)),
        h('td', {}, result(step))))));
  }

  let shownTask = null;

  async function renderWaiting(instance) {
    const active = instance.steps.find((step) => step.state === 'active' && step.assignee === 'human');
    if (!active) {
      waiting.hidden = true;
      shownTask = null;
      return;
    }
    const { data: pending } = await get(withQuery('/sop/steps/pending', { process, assignee: 'human', limit: 500 }));
    const entry = pending.find((item) => item.instance_id === instance.id && item.step_id === active.id);
    if (!entry) {
      // Further down a long feed than one page reaches: the inbox lists it.
      shownTask = null;
      fill(waiting.lastElementChild, h('p', {}, `${active.name || active.id} waits on a person. `,
        h('a', { href: `#/inbox?process=${segment(process)}` }, 'Resolve it from the inbox.')));
      waiting.hidden = false;
      return;
    }
    if (taskKey(entry) === shownTask) {
      waiting.hidden = false;
      return;
    }
    shownTask = taskKey(entry);
    fill(waiting.lastElementChild, taskCard(entry, {
      headingLevel: 'h3',
      onDone: (message, tone) => {
        announce(message, tone);
        waiting.hidden = true;
        load();
      },
    }));
    waiting.hidden = false;
  }

  function renderTimeline() {
    const sorted = [...entries.values()].sort((a, b) => a.at.localeCompare(b.at));
    fill(timeline, sorted.map((entry) => h('li', {}, time(entry.at), ' ', entry.text)));
  }

  function onChange(event) {
    const entry = liveEntry(event);
    if (entry) {
      entries.set(entry.key, entry);
      renderTimeline();
    }
    refresh();
  }

  const refresh = debounce(load, 100);
  load();
  const stream = follow(`${path}/events`, { onOpen: load, onChange });
  return () => stream.close();
}

function who(step) {
  if (step.decision) {
    const confidence = typeof step.decision.confidence === 'number' ? ` (${Math.round(step.decision.confidence * 100)}%)` : '';
    return `${step.decision.by}${confidence}`;
  }
  return step.assignee || '';
}

function result(step) {
  if (step.error) {
    return h('span', { class: 'form-error' }, `${step.error.code}: ${step.error.message}`);
  }
  if (step.outputs) {
    return Object.entries(step.outputs).map(([name, value]) => h('div', {}, h('strong', {}, name), ` ${text(value)}`));
  }
  if (step.callback_url && step.state === 'active') {
    return h('span', {}, 'Callback URL: ', h('code', {}, step.callback_url));
  }
  return '';
}

/** What the instance's current view tells of its history, for changes that happened before the page opened. */
function derivedEntries(instance) {
  const list = [{ key: 'instance:start', at: instance.started_at, text: 'Instance started.' }];
  for (const step of instance.steps) {
    const label = step.name || step.id;
    if (step.started_at) {
      list.push({ key: `step:${step.id}:start`, at: step.started_at, text: `${label}: active.` });
    }
    if (step.completed_at) {
      list.push({ key: `step:${step.id}:end`, at: step.completed_at, text: `${label}: ${step.state}.` });
    }
  }
  if (instance.completed_at && TERMINAL.includes(instance.state)) {
    list.push({ key: 'instance:end', at: instance.completed_at, text: `Instance ${instance.state}.` });
  }
  return list;
}

/** A timeline entry for a live state change; it replaces the derived entry of the same change. */
function liveEntry(event) {
  const change = event.data || {};
  const at = event.time || new Date().toISOString();
  if (event.type === 'sop.instance.state_changed') {
    const key = !change.from ? 'instance:start' : TERMINAL.includes(change.to) ? 'instance:end' : `event:${event.id}`;
    const text = !change.from ? `Instance started (${change.to}).`
      : TERMINAL.includes(change.to) ? `Instance ${change.to} (was ${change.from}).` : `Instance ${change.from} → ${change.to}.`;
    return { key, at, text };
  }
  if (event.type === 'sop.step.state_changed' && change.step) {
    const step = change.step;
    const label = step.name || step.id;
    const key = change.from === 'pending' && change.to === 'active' ? `step:${step.id}:start`
      : TERMINAL.includes(change.to) ? `step:${step.id}:end` : `event:${event.id}`;
    const escalation = step.escalated && change.from === change.to ? ' (handed to a person by the agent)' : '';
    return { key, at, text: `${label}: ${change.from} → ${change.to}${escalation}.` };
  }
  return null;
}
