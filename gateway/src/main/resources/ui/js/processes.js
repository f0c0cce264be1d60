// Processes: the workspace's list, one process's definition, and the kickoff form that starts an instance.

import { allows, notAllowed } from './access.js';
import { ApiError, call, get, post, segment } from './api.js';
import { announce, definitionList, fill, h, table, text } from './dom.js';
import { describe, formFields } from './fields.js';

const RESOLVED_BY = { form: 'a person', automated: 'a worker', judgment: 'an agent, or a person', webhook: 'a third party' };

export function processListView(container) {
  const body = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  fill(container, h('h1', {}, 'Processes'), body, registerForm());

  get('/sop/').then(({ data }) => {
    if (data.length === 0) {
      fill(body, h('p', {}, 'No process is registered in this workspace yet.', allows('register') ? ' Register one below.' : ''));
      return;
    }
    fill(body, table('Processes', ['Name', 'Version', 'Description', 'Owner'], data.map((summary) =>
      h('tr', {},
        h('td', {}, h('a', { href: `#/processes/${segment(summary.name)}` }, summary.name)),
        h('td', {}, summary.version),
        h('td', {}, summary.description),
        h('td', {}, summary.owner)))));
  }).catch((error) => fill(body, h('p', { class: 'form-error' }, error.message)));
}

/** In place of a form the token's role may not send: the section's heading, and why there is no form. */
function notOffered(headingId, heading, action) {
  return h('section', { class: 'card', 'aria-labelledby': headingId },
    h('h2', { id: headingId }, heading),
    h('p', { class: 'role-note' }, notAllowed(action)));
}

function registerForm() {
  if (!allows('register')) {
    return notOffered('register-heading', 'Register a process', 'register');
  }
  const file = h('input', { type: 'file', id: 'register-file', name: 'file', accept: '.yaml,.yml,application/yaml' });
  const errors = h('div', { class: 'form-error', role: 'alert', hidden: true });
  const form = h('form', { class: 'card', 'aria-labelledby': 'register-heading' },
    h('h2', { id: 'register-heading' }, 'Register a process'),
    h('div', { class: 'field' }, h('label', { for: 'register-file' }, 'Process file (YAML)'), file),
    errors,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Register')));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    errors.hidden = true;
    if (!file.files.length) {
      showErrors(errors, 'Choose a process file first.', []);
      return;
    }
    const data = new FormData();
    data.append('file', file.files[0]);
    try {
      const { data: registered } = await call('POST', '/sop/processes/register', { form: data });
      const page = `#/processes/${segment(registered.name)}`;
      announce(`Registered ${registered.name} version ${registered.version}.`, 'done', { page });
      window.location.hash = page;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      showErrors(errors, error.message, error.details.map((detail) =>
        `${detail.field || 'file'}${detail.line ? ` (line ${detail.line})` : ''}: ${describe(detail)}`));
    }
  });
  return form;
}

function showErrors(element, message, lines) {
  fill(element, h('p', {}, message), lines.length ? h('ul', {}, lines.map((line) => h('li', {}, line))) : null);
  element.hidden = false;
}

export function processView(container, name) {
  const heading = h('h1', {}, name);
  const body = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  fill(container, heading, body);
  get(`/sop/${segment(name)}/schema`).then(({ data }) => {
    heading.append(' ', h('span', { class: 'muted' }, `v${data.version}`));
    fill(body,
      data.description ? h('p', { class: 'lead' }, data.description) : null,
      h('p', { class: 'meta' }, `Started by: ${data.trigger?.type || 'api'}`, data.owner ? ` · owner ${data.owner}` : '',
        ' · ', h('a', { href: `#/instances?process=${segment(data.name)}` }, 'its instances')),
      kickoffForm(data),
      h('section', { 'aria-labelledby': 'steps-heading' },
        h('h2', { id: 'steps-heading' }, 'Steps'),
        h('ol', { class: 'steps' }, (data.steps || []).map((step) => h('li', {},
          h('strong', {}, step.name || step.id), ` (${step.type}, resolved by ${RESOLVED_BY[step.type] || step.type})`,
          step.run ? h('span', { class: 'muted' }, ` runs ${step.run}`) : null,
          (step.outputs || []).length ? h('span', { class: 'muted' }, ` · outputs: ${step.outputs.map((o) => o.name).join(', ')}`) : null)))),
      h('section', { 'aria-labelledby': 'inputs-heading' },
        h('h2', { id: 'inputs-heading' }, 'Inputs'),
        declarations('Inputs', data.inputs || [])),
      h('section', { 'aria-labelledby': 'outputs-heading' },
        h('h2', { id: 'outputs-heading' }, 'Outputs'),
        declarations('Outputs', data.outputs || [])),
      h('details', {}, h('summary', {}, 'The whole definition (JSON)'), h('pre', {}, JSON.stringify(data, null, 2))));
  }).catch((error) => fill(body, h('p', { class: 'form-error' }, error.message)));
}

function declarations(caption, items) {
  if (items.length === 0) {
    return h('p', { class: 'muted' }, 'None');
  }
  return table(caption, ['Name', 'Type', 'Required', 'Allowed values'], items.map((item) => h('tr', {},
    h('td', {}, item.name), h('td', {}, item.type), h('td', {}, item.required ? 'yes' : 'no'),
    h('td', {}, item.value ? `computed: ${item.value}` : text((item.values || []).join(', '))))));
}

function kickoffForm(definition) {
  if (!allows('start')) {
    return notOffered('kickoff-heading', 'Start an instance', 'start');
  }
  const fields = formFields(definition.inputs || [], { prefix: 'inputs' });
  const formError = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Start instance');
  const form = h('form', { class: 'card', novalidate: true, 'aria-labelledby': 'kickoff-heading' },
    h('h2', { id: 'kickoff-heading' }, 'Start an instance'),
    fields.elements.length ? fields.elements : h('p', { class: 'muted' }, 'This process takes no inputs.'),
    formError,
    h('div', { class: 'actions' }, submit));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    formError.hidden = true;
    fields.clearErrors();
    submit.disabled = true;
    try {
      const { data } = await post(`/sop/${segment(definition.name)}/start`, { inputs: fields.values() });
      const page = `#/instances/${segment(definition.name)}/${segment(data.id)}`;
      announce(`Started instance ${data.id}.`, 'done', { page });
      window.location.hash = page;
    } catch (error) {
      submit.disabled = false;
      if (!(error instanceof ApiError)) throw error;
      const unmatched = error.code === 'invalid_inputs' ? fields.showErrors(error.details) : [];
      formError.textContent = error.code === 'invalid_inputs'
        ? (unmatched.length ? unmatched.map(describe).join(' ') : 'Some inputs need attention; see the fields marked above.')
        : error.message;
      formError.hidden = false;
    }
  });
  return form;
}
