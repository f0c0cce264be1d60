// One step waiting on a person, with the form that resolves it: shown in the inbox and on the instance page.

import { allows, notAllowed } from './access.js';
import { ApiError, post, segment } from './api.js';
import { age, h, text } from './dom.js';
import { describe, fieldLabel, formFields } from './fields.js';

/** A key that changes when the same step comes back for another attempt. */
export const taskKey = (pending) => `${pending.instance_id}/${pending.step_id}/${pending.attempt}`;

export const stepLabel = (pending) => pending.name || pending.step_id;

/**
 * @param pending an entry of GET /sop/steps/pending
 * @param onDone called with a message and its tone once the step no longer waits here: resolved by this person
 *        ('done'), or by someone else first ('notice')
 * @param collapsible shown as one row (step, process, instance, age) whose heading button opens the rest, as in the
 *        inbox's list; otherwise shown open
 */
export function taskCard(pending, { onDone, headingLevel = 'h2', collapsible = false }) {
  const headingId = `task-${pending.instance_id}-${pending.step_id}`;
  const fields = formFields((pending.outputs || []).filter((output) => output.value === undefined || output.value === null),
    { prefix: 'outputs', initial: pending.proposal || {} });
  const formError = h('p', { class: 'form-error', role: 'alert', hidden: true });
  // A token that may not resolve steps still sees what the step asks, with the reason it cannot answer.
  const mayResolve = allows('submit');
  const roleNoteId = `${headingId}-role`;
  const roleNote = mayResolve ? null : h('p', { class: 'role-note', id: roleNoteId }, notAllowed('submit'));
  const submit = h('button', { type: 'submit', class: 'primary', disabled: !mayResolve,
    'aria-describedby': mayResolve ? null : roleNoteId }, 'Submit');
  const form = h('form', { class: 'task-form', novalidate: true, 'aria-labelledby': headingId },
    fields.elements, formError, roleNote, h('div', { class: 'actions' }, submit));

  const bodyId = `${headingId}-body`;
  const body = h('div', { class: 'task-body', id: bodyId, hidden: collapsible },
    pending.instructions ? h('p', { class: 'instructions' }, pending.instructions) : null,
    h('section', { 'aria-label': 'Inputs' }, h('h3', {}, 'Inputs'), inputList(pending.inputs)),
    pending.escalated ? proposal(pending) : null,
    h('section', { 'aria-label': 'Your decision' }, h('h3', {}, 'Your decision'), form));
  // The disclosure pattern: the heading holds a button that says whether the step's details are open.
  const title = collapsible
    ? h('button', { type: 'button', class: 'task-toggle', id: headingId, 'aria-expanded': 'false', 'aria-controls': bodyId,
      onclick: () => setOpen(body.hidden) }, stepLabel(pending))
    : stepLabel(pending);
  function setOpen(expanded) {
    body.hidden = !expanded;
    title.setAttribute('aria-expanded', String(expanded));
  }

  const instancePath = `#/instances/${segment(pending.process)}/${segment(pending.instance_id)}`;
  const card = h('article', { class: collapsible ? 'task collapsible' : 'task', 'aria-labelledby': headingId,
    'data-task': taskKey(pending) },
    h('header', { class: 'task-header' },
      h(headingLevel, { id: collapsible ? null : headingId }, title),
      pending.escalated ? h('span', { class: 'badge badge-escalated' }, 'escalated') : null,
      h('span', { class: 'badge badge-type' }, pending.type)),
    h('p', { class: 'meta' },
      'Process ', h('strong', {}, pending.process), ` v${pending.version} · instance `,
      h('a', { href: instancePath }, pending.instance_id),
      pending.block ? [' · ', h('span', { class: 'step-block' }, `${pending.block} › ${pending.branch}`)] : null,
      ' · waiting ', age(pending.created_at),
      pending.attempt > 1 ? ` · attempt ${pending.attempt}` : null),
    body);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!mayResolve) {
      return;
    }
    fields.clearErrors();
    formError.hidden = true;
    submit.disabled = true;
    const path = `/sop/${segment(pending.process)}/${segment(pending.instance_id)}/steps/${segment(pending.step_id)}/submit`;
    try {
      await post(path, { outputs: fields.values() });
      onDone(`Submitted “${stepLabel(pending)}” of instance ${pending.instance_id}.`, 'done');
    } catch (error) {
      submit.disabled = false;
      handleRefusal(error);
    }
  });

  function handleRefusal(error) {
    if (!(error instanceof ApiError)) {
      throw error;
    }
    if (error.code === 'invalid_outputs') {
      const unmatched = fields.showErrors(error.details);
      showFormError(unmatched.length ? unmatched.map(describe).join(' ') : 'Some values need attention; see the fields marked above.');
    } else if (error.code === 'invalid_transition' || error.status === 404) {
      onDone(`“${stepLabel(pending)}” of instance ${pending.instance_id} was already resolved by someone else, `
        + 'or its instance ended; it has been removed.', 'notice');
    } else {
      showFormError(error.message);
    }
  }

  function showFormError(message) {
    formError.textContent = message;
    formError.hidden = false;
  }

  return card;
}

function proposal(pending) {
  const decision = pending.decision || {};
  const confidence = typeof decision.confidence === 'number' ? `${Math.round(decision.confidence * 100)}%` : 'unknown';
  const declared = new Map((pending.outputs || []).map((output) => [output.name, output]));
  return h('section', { class: 'proposal', 'aria-label': 'The agent’s proposal' },
    h('h3', {}, 'The agent’s proposal'),
    h('p', {}, 'The agent was not sure enough to decide alone. Its answer is filled in below; change it if you disagree.'),
    h('dl', { class: 'pairs' },
      Object.entries(pending.proposal || {}).map(([name, value]) => [
        h('dt', {}, fieldLabel(declared.get(name) || { name })), h('dd', { class: 'proposed' }, text(value))]),
      h('dt', {}, 'Confidence'), h('dd', { class: 'confidence' }, confidence),
      h('dt', {}, 'Rationale'), h('dd', { class: 'rationale' }, text(decision.rationale) || 'None given'),
      decision.model ? [h('dt', {}, 'Model'), h('dd', {}, decision.model)] : null));
}

/** The step's inputs, named as people read them ("cost_centre" as "cost centre"). */
function inputList(inputs) {
  const entries = Object.entries(inputs || {});
  if (entries.length === 0) {
    return h('p', { class: 'muted' }, 'This step has no inputs.');
  }
  return h('dl', { class: 'pairs' }, entries.map(([name, value]) => [h('dt', {}, fieldLabel({ name })), h('dd', {}, text(value))]));
}
