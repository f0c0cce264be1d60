// What the signed-in token may do: its role (GET /sop/token), so the pages offer only the actions the gateway allows.
// The gateway stays the judge (CONTRACT section 8, "Token roles"); this only spares people forms that would be refused.

// Each role includes the ones before it; same order as the gateway's Role.
const ROLES = ['viewer', 'worker', 'operator', 'admin'];

const ACTIONS = {
  submit: { needs: 'worker', text: 'resolving steps' },
  start: { needs: 'operator', text: 'starting instances' },
  cancel: { needs: 'operator', text: 'cancelling instances' },
  retry: { needs: 'operator', text: 'retrying instances' },
  register: { needs: 'operator', text: 'registering processes' },
};

let caller = null;

/** The calling token as GET /sop/token answers it, or null when unknown (signed out, or an older gateway). */
export const signedIn = {
  set: (token) => { caller = token; },
  clear: () => { caller = null; },
  role: () => caller?.role || null,
  workspace: () => caller?.workspace || null,
};

/** Whether the token's role allows an action; with an unknown role the action is offered and the gateway decides. */
export function allows(action) {
  const rank = ROLES.indexOf(caller?.role);
  return rank < 0 || rank >= ROLES.indexOf(ACTIONS[action].needs);
}

/** Why an action is not offered, in words. */
export function notAllowed(action) {
  const { needs, text } = ACTIONS[action];
  return `Your token's role (${caller?.role}) does not allow ${text}: that needs the role ${needs} or a wider one.`;
}

/** The message for a 403 answer: what the gateway refused, and why. */
export function forbiddenMessage() {
  const role = caller?.role ? ` (${caller.role})` : '';
  return `Your token's role${role} does not allow this. Ask a workspace admin for a token with a wider role.`;
}
