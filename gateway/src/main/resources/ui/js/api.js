// The public HTTP API as the pages use it: every call carries the tab's workspace token.

import { forbiddenMessage } from './access.js';

const TOKEN_KEY = 'sopline.token';

// sessionStorage: the token lives as long as the browser tab and is never shared with other tabs.
export const session = {
  token: () => sessionStorage.getItem(TOKEN_KEY),
  signIn: (token) => sessionStorage.setItem(TOKEN_KEY, token),
  signOut: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** An error answer of the API: status, the contract's code, its message and details. */
export class ApiError extends Error {
  constructor(status, body) {
    // A 403 names the route the token's role does not reach; a person needs to know which role they have.
    super(status === 403 ? forbiddenMessage() : body?.message || `The gateway answered ${status}`);
    this.status = status;
    this.code = body?.error || 'unknown';
    this.details = Array.isArray(body?.details) ? body.details : [];
  }
}

let onSignedOut = () => {};

/** Called when the gateway stops accepting the tab's token (revoked or expired). */
export function whenSignedOut(callback) {
  onSignedOut = callback;
}

/**
 * Calls the API. Resolves to {data, next} where next is the path of the following page (Link rel="next"), or
 * rejects with an ApiError. A 401 on a signed-in tab signs it out; a 403 says which role the token has.
 */
export async function call(method, path, { json, form, token } = {}) {
  const headers = { 'X-SOP-Token': token ?? session.token() ?? '', Accept: 'application/json' };
  let body;
  if (json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form !== undefined) {
    body = form;
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body });
  } catch (networkError) {
    throw new ApiError(0, { error: 'unreachable', message: 'The gateway cannot be reached. Check your connection and try again.' });
  }
  const data = await readJson(response);
  if (response.status === 401 && token === undefined) {
    session.signOut();
    onSignedOut('Your token is no longer accepted. Sign in again.');
  }
  if (!response.ok) {
    throw new ApiError(response.status, data);
  }
  return { data, next: nextPage(response.headers.get('Link')) };
}

export const get = (path) => call('GET', path);
export const post = (path, json) => call('POST', path, { json });

async function readJson(response) {
  const text = await response.text();
  if (!text) {
    return null;
  }
  try {
    return JSON.parse(text);
  } catch {
    return { error: 'invalid_response', message: `The gateway answered ${response.status} without JSON` };
  }
}

function nextPage(link) {
  const match = link && link.match(/<([^>]+)>\s*;\s*rel="next"/);
  if (!match) {
    return null;
  }
  const url = new URL(match[1], window.location.href);
  return url.pathname + url.search;
}

/** Builds a path with a query string, leaving out empty parameters. */
export function withQuery(path, parameters) {
  const query = new URLSearchParams();
  Object.entries(parameters).forEach(([name, value]) => {
    if (value !== undefined && value !== null && value !== '') {
      query.set(name, value);
    }
  });
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

export const segment = encodeURIComponent;
