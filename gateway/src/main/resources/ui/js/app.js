// The task inbox's shell: sign-in, navigation and the routes (#/inbox, #/processes, #/instances, ...).

import { ApiError, call, session, whenSignedOut } from './api.js';
import { fill, focusHeading, h } from './dom.js';
import { inboxView } from './inbox.js';
import { instanceListView } from './instances.js';
import { instanceView } from './instance.js';
import { processListView, processView } from './processes.js';

const main = document.getElementById('main');
const nav = document.getElementById('main-nav');
let disposeView = () => {};

const routes = [
  [/^\/inbox$/, (query) => inboxView(main, query)],
  [/^\/processes$/, () => processListView(main)],
  [/^\/processes\/([^/]+)$/, (query, name) => processView(main, name)],
  [/^\/instances$/, (query) => instanceListView(main, query)],
  [/^\/instances\/([^/]+)\/([^/]+)$/, (query, process, id) => instanceView(main, process, id)],
];

function route() {
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
    if (match) {
      markSection(path);
      disposeView = view(query, ...match.slice(1).map(decodeURIComponent)) || (() => {});
      document.title = `${main.querySelector('h1')?.textContent || 'Sopline'} · Sopline`;
      focusHeading(main);
      return;
    }
  }
  fill(main, h('h1', {}, 'Not found'), h('p', {}, 'There is no such page. ', h('a', { href: '#/inbox' }, 'Go to the inbox.')));
  focusHeading(main);
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
    'aria-describedby': 'token-hint token-error', required: true });
  const error = h('p', { id: 'token-error', class: 'form-error', role: 'alert', hidden: !message }, message);
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Sign in');
  const form = h('form', { class: 'card sign-in', 'aria-labelledby': 'sign-in-heading', novalidate: true },
    h('h1', { id: 'sign-in-heading' }, 'Sign in'),
    h('div', { class: 'field' },
      h('label', { for: 'token' }, 'Workspace token'),
      h('p', { class: 'hint', id: 'token-hint' },
        'The token you use with the API (X-SOP-Token). It is kept for this browser tab only.'),
      token),
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
      await call('GET', '/sop/', { token: value });
      session.signIn(value);
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

document.getElementById('sign-out').addEventListener('click', () => {
  session.signOut();
  window.location.hash = '#/inbox';
  route();
});

whenSignedOut((message) => {
  disposeView();
  disposeView = () => {};
  signInView(message);
});

window.addEventListener('hashchange', route);
route();
