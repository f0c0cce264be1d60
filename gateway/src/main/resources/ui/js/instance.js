// One instance: its state, steps, inputs and outputs, the step waiting on a person if any, and its history as a
// timeline (GET .../history: every change and who made it), all kept current by the instance's live stream.

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
    await Promise.all([renderTimeline(), renderWaiting(instance)]);
  }

  function renderSummary(instance) {
    fill(summary,
      h('p', {}, 'Instance ', h('code', {}, instance.id), ` of ${instance.process} v${instance.version} is `,
        badge(instance.state, { id: 'instance-state' }), '.'),
      h('p', { class: 'meta' }, 'Started ', time(instance.started_at),
        instance.completed_at ? [' · ended ', time(instance.completed_at)] : null),
      instance.error ? h('p', { class: 'form-error' }, `Step ${instance.error.step_id} failed: ${instance.error.code}: ${instance.error.message}`) : null);
    fill(actions, instance.state === 'failed' ? retryControl() : TERMINAL.includes(instance.state) ? null : cancelControl());
  }

  function retryControl() {
    return allows('retry')
      ? h('button', { type: 'button', onclick: retry }, 'Retry')
      : h('p', { class: 'role-note' }, notAllowed('retry'));
  }

  async function retry() {
    try {
      await post(`${path}/retry`);
      announce('The failed step starts a new attempt.');
    } catch (error) {
      announce(error.code === 'invalid_transition' ? 'The instance is no longer failed.' : error.message);
    }
    load();
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
      h('tr', { 'data-step': step.id, class: step.block ? 'in-block' : null, 'data-block': step.block },
        h('td', {}, blockLabel(step), step.name || step.id,
          step.attempt > 1 ? h('span', { class: 'muted' }, ` (attempt ${step.attempt})`) : null),
        h('td', {}, step.type),
        h('td', {}, badge(step.state), step.escalated ? [' ', h('span', { class: 'badge badge-escalated' }, 'escalated')] : null),
        h('td', {}, who(step)),
        h('td', {}, time(step.started_at)),
        h('td', {}, time(step.completed_at)),
        h('td', {}, result(step))))));
  }

  // Cards already shown are kept as they are, so a person typing in one loses nothing when the instance changes.
  let shownCards = new Map();

  /** Every step waiting on a person: one in a plain process, one per branch that waits in a parallel block. */
  async function renderWaiting(instance) {
    const active = instance.steps.filter((step) => step.state === 'active' && step.assignee === 'human');
    if (active.length === 0) {
      waiting.hidden = true;
      shownCards = new Map();
      return;
    }
    const { data: pending } = await get(withQuery('/sop/steps/pending', { process, assignee: 'human', instance_id: instance.id, limit: 500 }));
    const cards = new Map();
    const shown = active.map((step) => {
      const entry = pending.find((item) => item.instance_id === instance.id && item.step_id === step.id);
      if (!entry) {
        // Not in the feed yet (it is read a moment after the instance): the inbox lists it.
        return h('p', {}, blockLabel(step), `${step.name || step.id} waits on a person. `,
          h('a', { href: `#/inbox?process=${segment(process)}` }, 'Resolve it from the inbox.'));
      }
      const key = taskKey(entry);
      // The instance knows the step's block and branch; the card shows them as on the instance's steps.
      const card = shownCards.get(key) || taskCard({ ...entry, block: step.block, branch: step.branch }, {
        headingLevel: 'h3',
        onDone: (message, tone) => {
          announce(message, tone);
          card.remove();
          load();
        },
      });
      cards.set(key, card);
      return card;
    });
    shownCards = cards;
    if (shown.some((element, index) => waiting.lastElementChild.children[index] !== element)
        || waiting.lastElementChild.children.length !== shown.length) {
      fill(waiting.lastElementChild, shown);
    }
    waiting.hidden = false;
  }

  /** Every page of the history, oldest first; a long history stops at a bound rather than holding the page up. */
  async function renderTimeline() {
    const items = [];
    let next = `${path}/history?limit=500`;
    for (let pages = 0; next && pages < 20; pages += 1) {
      let page;
      try {
        page = await get(next);
      } catch (error) {
        fill(timeline, h('li', { class: 'form-error' }, error.message));
        return;
      }
      items.push(...page.data);
      next = page.next;
    }
    fill(timeline, items.map((entry) => h('li', { 'data-kind': entry.kind }, time(entry.at), ' ', describeEntry(entry))));
  }

  function onChange() {
    refresh();
  }

  const refresh = debounce(load, 100);
  load();
  const stream = follow(`${path}/events`, { onOpen: load, onChange });
  return () => stream.close();
}

/** "checks › identity · " before the name of a step inside a parallel block: its block and branch. */
function blockLabel(step) {
  if (!step.block) {
    return null;
  }
  return h('span', { class: 'step-block', title: `Parallel block ${step.block}, branch ${step.branch}` },
    `${step.block} › ${step.branch}`, ' · ');
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

/** One history entry in words: what changed, who did it, and why when the history says. */
function describeEntry(entry) {
  const by = byText(entry.by || {});
  const detail = detailText(entry.detail || {});
  if (entry.kind === 'instance') {
    const change = !entry.from ? `Instance started (${entry.to})`
      : TERMINAL.includes(entry.to) ? `Instance ${entry.to} (was ${entry.from})` : `Instance ${entry.from} → ${entry.to}`;
    return `${change} · ${by}${detail}.`;
  }
  const attempt = entry.attempt > 1 ? ` (attempt ${entry.attempt})` : '';
  const change = entry.from === 'active' && entry.to === 'active' && !entry.detail?.escalated
    ? 'new attempt' : `${entry.from} → ${entry.to}`;
  return `${entry.step_id}${attempt}: ${change} · ${by}${detail}.`;
}

function byText(by) {
  switch (by.type) {
    case 'token': return `by ${by.name || by.id || 'a token'}`;
    case 'worker': return `by worker ${by.name || by.id || ''}`.trim();
    case 'agent': return `by the agent${by.id ? ` (${by.id})` : ''}`;
    case 'callback': return 'by the third party\'s callback';
    case 'timer': return 'by a timer';
    default: return 'by the engine';
  }
}

function detailText(detail) {
  const parts = [];
  if (detail.error) parts.push(`${detail.error.code}: ${detail.error.message || ''}`.trim());
  if (detail.decision && typeof detail.decision.confidence === 'number') {
    parts.push(`confidence ${Math.round(detail.decision.confidence * 100)}%${detail.decision.rationale ? `, ${detail.decision.rationale}` : ''}`);
  }
  if (detail.proposal) parts.push(`proposed ${Object.entries(detail.proposal).map(([name, value]) => `${name} ${text(value)}`).join(', ')}`);
  return parts.length ? ` — ${parts.join('; ')}` : '';
}
