// Workspaces, for the platform administrator (an admin token of workspace "default"): create one and hand its first
// admin token on, list them, delete one. The gateway decides who may (CONTRACT section 12); other tokens never see
// this page in the navigation.

import { signedIn } from './access.js';
import { ApiError, call, get, post, segment } from './api.js';
import { announce, fill, h, table, time } from './dom.js';

const DEFAULT = 'default';

/** Whether the signed-in token manages workspaces: the gateway's rule, so the page is offered only where it works. */
export function managesWorkspaces() {
  return signedIn.workspace() === DEFAULT && signedIn.role() === 'admin';
}

export function workspaceListView(container) {
  const list = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const created = h('div', {});
  fill(container,
    h('h1', {}, 'Workspaces'),
    h('p', { class: 'lead' }, 'Each workspace has its own processes, instances, tokens and webhooks; none sees another\'s.'),
    created,
    createForm(created, load),
    h('section', { 'aria-labelledby': 'workspaces-heading' }, h('h2', { id: 'workspaces-heading' }, 'All workspaces'), list));
  load();

  function load() {
    get('/workspaces').then(({ data }) => {
      fill(list, table('Workspaces', ['Name', 'Created', 'Actions'], data.map((workspace) => h('tr', { 'data-workspace': workspace.name },
        h('td', {}, workspace.name, workspace.name === signedIn.workspace() ? h('span', { class: 'muted' }, ' (yours)') : null),
        h('td', {}, time(workspace.created_at)),
        h('td', {}, workspace.name === DEFAULT
          ? h('span', { class: 'muted' }, 'Cannot be deleted')
          : h('button', { type: 'button', class: 'danger', 'aria-label': `Delete workspace ${workspace.name}`,
            onclick: () => remove(workspace.name) }, 'Delete'))))));
    }).catch((error) => fill(list, h('p', { class: 'form-error' }, error.message)));
  }

  async function remove(name) {
    if (!window.confirm(`Delete workspace ${name}? Its tokens stop working at once, its unfinished instances are cancelled, `
      + 'and its name cannot be used again. This cannot be undone.')) return;
    try {
      await call('DELETE', `/workspaces/${segment(name)}`);
      announce(`Workspace ${name} was deleted.`);
    } catch (error) {
      announce(error.message, 'notice');
    }
    load();
  }
}

function createForm(createdArea, reload) {
  const name = h('input', { type: 'text', id: 'workspace-name', name: 'name', autocomplete: 'off', spellcheck: 'false', required: true,
    pattern: '[a-z0-9][a-z0-9-]{1,62}', 'aria-describedby': 'workspace-name-hint workspace-name-error' });
  const error = h('p', { class: 'field-error', id: 'workspace-name-error', hidden: true });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create workspace');
  const field = h('div', { class: 'field' },
    h('label', { for: 'workspace-name' }, 'Name'),
    h('p', { class: 'hint', id: 'workspace-name-hint' },
      '2 to 63 lowercase letters, digits and dashes, starting with a letter or digit, such as billing or team-2.'),
    name, error);
  const form = h('form', { class: 'card', novalidate: true, 'aria-labelledby': 'create-workspace-heading' },
    h('h2', { id: 'create-workspace-heading' }, 'Create a workspace'), field, h('div', { class: 'actions' }, submit));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    field.classList.remove('invalid');
    name.removeAttribute('aria-invalid');
    submit.disabled = true;
    try {
      const { data } = await post('/workspaces', { name: name.value.trim() });
      form.reset();
      showToken(createdArea, data);
      reload();
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      error.textContent = failure.code === 'workspace_exists'
        ? 'That name is taken, by a workspace that exists or one that was deleted. Choose another.'
        : failure.message;
      error.hidden = false;
      field.classList.add('invalid');
      name.setAttribute('aria-invalid', 'true');
      name.focus();
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

/** The new workspace's admin token, shown this once: the gateway keeps only its hash. */
function showToken(area, workspace) {
  const token = h('input', { type: 'text', id: 'new-workspace-token', readonly: true, value: workspace.token.token,
    spellcheck: 'false', autocomplete: 'off', 'aria-describedby': 'new-workspace-token-note' });
  const copy = h('button', { type: 'button' }, 'Copy token');
  copy.addEventListener('click', async () => {
    token.select();
    try {
      await navigator.clipboard.writeText(token.value);
      announce('The token was copied.');
    } catch {
      announce('Copying was not allowed here: the token is selected, copy it with your keyboard.', 'notice');
    }
  });
  fill(area, h('section', { class: 'card new-token', 'aria-labelledby': 'new-token-heading' },
    h('h2', { id: 'new-token-heading', tabindex: '-1' }, `Workspace ${workspace.name} created`),
    h('p', { class: 'copy-note', id: 'new-workspace-token-note' },
      'Copy its admin token now: it is shown only this once and cannot be read again. Give it to the workspace\'s owner; ',
      'with it they sign in here and make the workspace\'s other tokens.'),
    h('div', { class: 'field' }, h('label', { for: 'new-workspace-token' }, `Admin token of ${workspace.name}`), token),
    h('div', { class: 'actions' }, copy,
      h('button', { type: 'button', onclick: () => area.replaceChildren() }, 'I have copied it'))));
  area.querySelector('h2').focus();
  announce(`Workspace ${workspace.name} was created.`);
}
