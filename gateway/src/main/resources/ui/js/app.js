// The task inbox's shell: sign-in, navigation and the routes (#/inbox, #/processes, #/instances, ...).

import { signedIn } from './access.js';
import { ApiError, call, session, whenSignedOut } from './api.js';
import { clearStaleStatus, clearStatus, fill, focusHeading, h } from './dom.js';
import { inboxView } from './inbox.js';
import { instanceListView } from './instances.js';
import { instanceView } from './instance.js';
import { processListView, processView } from './processes.js';
import { managesWorkspaces, workspaceListView } from './workspaces.js';

const main = document.getElementById('main');
const nav = document.getElementById('main-nav');
const signedInAs = document.getElementById('signed-in-as');
const workspacesNav = document.getElementById('workspaces-nav');
let disposeView = () => {};

const routes = [
  [/^\/inbox$/, (query) => inboxView(main, query)],
  [/^\/processes$/, () => processListView(main)],
  [/^\/processes\/([^/]+)$/, (query, name) => processView(main, name)],
  [/^\/instances$/, (query) => instanceListView(main, query)],
  [/^\/instances\/([^/]+)\/([^/]+)$/, (query, process, id) => instanceView(main, process, id)],
  [/^\/workspaces$/, () => workspaceListView(main)],
];

function route() {
  clearStaleStatus();
  disposeView();
  disposeView = () => {};
  if (!session.token()) {
    signInView();
    return;
  }
  nav.hidden = false;
  const [path, search = ''] = (window.location.hash.replace(/^#/, '') || '/inbox').split('?');
  const query = new URLSearchParams(search);
  for (const [pattern, view] of routes) {
    const match = path.match(pattern);
    const parts = match && decodedParts(match.slice(1));
    if (match && !parts) {
      break;
    }
    if (match) {
      markSection(path);
      disposeView = view(query, ...parts) || (() => {});
      document.title = `${main.querySelector('h1')?.textContent || 'Sopline'} · Sopline`;
      focusHeading(main);
      return;
    }
  }
  fill(main, h('h1', {}, 'Not found'), h('p', {}, 'There is no such page. ', h('a', { href: '#/inbox' }, 'Go to the inbox.')));
  focusHeading(main);
}

/** The path's parts decoded, or null when one holds a malformed percent-escape (#/processes/%E0): no such page. */
function decodedParts(parts) {
  try {
    return parts.map(decodeURIComponent);
  } catch {
    return null;
  }
}

function markSection(path) {
  const section = path.split('/')[1];
  nav.querySelectorAll('a[data-section]').forEach((link) => {
    if (link.dataset.section === section) {
      link.setAttribute('aria-current', 'page');
    } else {
      link.removeAttribute('aria-current');
    }
  });
}

function signInView(message = '') {
  nav.hidden = true;
  const token = h('input', { id: 'token', name: 'token', type: 'password', autocomplete: 'off', spellcheck: 'false',
    'aria-describedby': 'token-hint token-where token-error', required: true });
  const error = h('p', { id: 'token-error', class: 'form-error', role: 'alert', hidden: !message }, message);
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Sign in');
  const form = h('form', { class: 'card sign-in', 'aria-labelledby': 'sign-in-heading', novalidate: true },
    h('h1', { id: 'sign-in-heading' }, 'Sign in'),
    h('div', { class: 'field' },
      h('label', { for: 'token' }, 'Workspace token'),
      h('p', { class: 'hint', id: 'token-hint' },
        'The token you use with the API (X-SOP-Token). It is kept for this browser tab only.'),
      token),
    h('p', { class: 'token-where', id: 'token-where' },
      'A new installation’s first token, the bootstrap token, is printed when the platform starts and written to ',
      h('code', {}, 'data/bootstrap-token'), ' in its data directory (', h('code', {}, 'SOP_DATA_DIR'), ', ',
      h('code', {}, './data'), ' by default). A workspace admin makes further tokens with the API (', h('code', {}, 'POST /workspace/tokens'), ').'),
    error,
    h('div', { class: 'actions' }, submit));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const value = token.value.trim();
    if (!value) {
      showError('Enter your workspace token.');
      return;
    }
    submit.disabled = true;
    try {
      const { data: caller } = await call('GET', '/sop/token', { token: value });
      session.signIn(value);
      showCaller(caller);
      route();
    } catch (failure) {
      submit.disabled = false;
      showError(failure instanceof ApiError && failure.status === 401
        ? 'That token was not accepted: it is wrong, revoked or expired. Check it and try again.'
        : failure.message);
    }
  });
  function showError(text) {
    error.textContent = text;
    error.hidden = false;
    token.setAttribute('aria-invalid', 'true');
    token.focus();
  }
  fill(main, form);
  document.title = 'Sign in · Sopline';
  token.focus();
}

/** The workspace and role of the signed-in token, next to "Sign out": "default · viewer". */
function showCaller(caller) {
  signedIn.set(caller);
  fill(signedInAs,
    h('span', { class: 'visually-hidden' }, 'Signed in to workspace '), caller.workspace,
    h('span', { 'aria-hidden': 'true' }, ' · '),
    h('span', { class: 'visually-hidden' }, ', with the role '), h('span', { class: 'role' }, caller.role));
  signedInAs.hidden = false;
  workspacesNav.hidden = !managesWorkspaces();
}

function forgetCaller() {
  signedIn.clear();
  signedInAs.replaceChildren();
  signedInAs.hidden = true;
  workspacesNav.hidden = true;
}

/**
 * Reads the stored token's role before the first page is drawn, so no page offers what the role does not allow.
 * False when the token is no longer accepted: the sign-in form is then shown with the reason.
 */
async function readCaller() {
  try {
    const { data } = await call('GET', '/sop/token');
    showCaller(data);
    return true;
  } catch (failure) {
    // Without its role (the gateway unreachable for a moment) every action is offered; the gateway still decides.
    return !(failure instanceof ApiError && failure.status === 401);
  }
}

document.getElementById('sign-out').addEventListener('click', () => {
  session.signOut();
  forgetCaller();
  window.location.hash = '#/inbox';
  route();
});

whenSignedOut((message) => {
  clearStatus();
  forgetCaller();
  disposeView();
  disposeView = () => {};
  signInView(message);
});

async function start() {
  window.addEventListener('hashchange', route);
  if (session.token() && !(await readCaller())) {
    return;
  }
  route();
}

start();
