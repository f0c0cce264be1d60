// Live state changes from the gateway's server-sent-event streams.
//
// The browser's EventSource cannot send the X-SOP-Token header, and a token in the URL would end up in access logs
// and history, so the stream is read with fetch and its text/event-stream framing parsed here (a few lines).

import { session } from './api.js';

const RECONNECT_DELAY_MS = 1000;

/**
 * Follows a stream until closed. onOpen runs each time the stream (re)connects, so the caller can read the current
 * state again: events only cover changes after the stream opened. onChange gets each state_changed CloudEvent.
 * Callers read the state once before too, so a page works (without live updates) where no stream gets through.
 */
export function follow(path, { onOpen = () => {}, onChange }) {
  const controller = new AbortController();
  let closed = false;

  async function connect() {
    while (!closed) {
      try {
        const response = await fetch(path, {
          headers: { 'X-SOP-Token': session.token() ?? '', Accept: 'text/event-stream' },
          signal: controller.signal,
        });
        // Reconnecting cannot help: the token is refused, its role does not reach the stream, or there is none.
        if (response.status === 401 || response.status === 403 || response.status === 404) {
          return;
        }
        if (response.ok && response.body) {
          onOpen();
          await readEvents(response.body, onChange);
        }
      } catch (error) {
        if (closed) {
          return;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_DELAY_MS));
    }
  }

  connect();
  return {
    close() {
      closed = true;
      controller.abort();
    },
  };
}

async function readEvents(body, onChange) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      return;
    }
    buffer += value;
    let boundary;
    while ((boundary = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
      dispatch(block, onChange);
    }
  }
}

function dispatch(block, onChange) {
  let name = 'message';
  const data = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) {
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') {
      name = value;
    } else if (field === 'data') {
      data.push(value);
    }
  }
  if (name !== 'state_changed' || data.length === 0) {
    return;
  }
  try {
    onChange(JSON.parse(data.join('\n')));
  } catch {
    // A malformed event is skipped; the next one, or the next read of the state, brings the page up to date.
  }
}

/**
 * Runs fn once calls pause for delayMs, and at least every maxWaitMs while they keep coming: many events in a burst
 * cost one reload, and a workspace whose events never pause (several a second) still refreshes the page.
 */
export function debounce(fn, delayMs = 200, maxWaitMs = 1500) {
  let timer;
  let firstCall = null;
  return () => {
    const now = Date.now();
    if (firstCall === null) {
      firstCall = now;
    }
    clearTimeout(timer);
    timer = setTimeout(() => {
      firstCall = null;
      fn();
    }, Math.max(0, Math.min(delayMs, firstCall + maxWaitMs - now)));
  };
}
