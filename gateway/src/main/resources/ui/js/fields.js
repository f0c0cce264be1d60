// Form fields generated from a process's declarations (inputs of a process, outputs of a step).
// Values are sent as typed as the gateway understands them; the gateway alone validates, and its error details are
// shown next to the field they name ("inputs.amount", "outputs.decision").

import { h } from './dom.js';

const CHOICES_AS_RADIOS = 5;
let nextId = 0;

/**
 * Builds the fields of a form.
 * @param declarations [{name, type, values, required, label}]: step outputs say `required` themselves
 * @param prefix 'inputs' or 'outputs': how the gateway names the fields in error details
 * @param initial values to fill in (for example an agent's proposal)
 */
export function formFields(declarations, { prefix, initial = {} }) {
  const fields = declarations.map((declaration) => field(declaration, initial[declaration.name], declaration.required === true));
  return {
    elements: fields.map((f) => f.element),

    /** The values to submit: empty fields are left out, so the gateway reports a missing required one. */
    values() {
      const values = {};
      for (const f of fields) {
        const value = f.read();
        if (value !== undefined) {
          values[f.name] = value;
        }
      }
      return values;
    },

    /** Shows each detail next to its field; returns the details that name no field. */
    showErrors(details) {
      fields.forEach((f) => f.setError(null));
      const unmatched = [];
      for (const detail of details) {
        const name = String(detail.field || '').replace(new RegExp(`^${prefix}\\.`), '');
        const target = fields.find((f) => f.name === name);
        if (target) {
          target.setError(describe(detail));
        } else {
          unmatched.push(detail);
        }
      }
      const firstInvalid = fields.find((f) => f.hasError());
      if (firstInvalid) {
        firstInvalid.focus();
      }
      return unmatched;
    },

    clearErrors() {
      fields.forEach((f) => f.setError(null));
    },
  };
}

export function describe(detail) {
  if (detail.code === 'required') {
    return 'Required: enter a value.';
  }
  if (detail.code === 'not_in_enum' && Array.isArray(detail.expected)) {
    return `Choose one of: ${detail.expected.join(', ')}.`;
  }
  return detail.message || detail.code || 'This value is not accepted.';
}

function field(declaration, initialValue, required) {
  const id = `field-${nextId++}`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const error = h('p', { class: 'field-error', id: errorId, hidden: true });
  const label = fieldLabel(declaration);
  const hint = hintFor(declaration);
  const control = controlFor(declaration, id, label, required, initialValue, hint ? hintId : null);

  const element = control.grouped
    ? h('fieldset', { class: 'field', 'data-field': declaration.name },
        h('legend', {}, label, required ? h('span', { class: 'required' }, ' (required)') : null),
        hint ? h('p', { class: 'hint', id: hintId }, hint) : null,
        control.element, error)
    : h('div', { class: 'field', 'data-field': declaration.name },
        h('label', { for: id }, label, required ? h('span', { class: 'required' }, ' (required)') : null),
        hint ? h('p', { class: 'hint', id: hintId }, hint) : null,
        control.element, error);

  return {
    name: declaration.name,
    element,
    read: control.read,
    focus: control.focus,
    hasError: () => !error.hidden,
    setError(message) {
      error.textContent = message || '';
      error.hidden = !message;
      for (const input of control.inputs) {
        if (message) {
          input.setAttribute('aria-invalid', 'true');
        } else {
          input.removeAttribute('aria-invalid');
        }
        const described = [hint ? hintId : null, message ? errorId : null].filter(Boolean).join(' ');
        if (described) {
          input.setAttribute('aria-describedby', described);
        } else {
          input.removeAttribute('aria-describedby');
        }
      }
      element.classList.toggle('invalid', Boolean(message));
    },
  };
}

function hintFor(declaration) {
  switch (declaration.type) {
    case 'number': return 'A number, for example 42.5';
    case 'integer': return 'A whole number';
    default: return null;
  }
}

function controlFor(declaration, id, label, required, initialValue, hintId) {
  const values = declaration.type === 'boolean' ? ['true', 'false'] : declaration.values || [];
  if (declaration.type === 'enum' || declaration.type === 'boolean') {
    const chosen = initialValue === undefined || initialValue === null ? '' : String(initialValue);
    return values.length <= CHOICES_AS_RADIOS
      ? radios(declaration, id, values, chosen, hintId)
      : select(declaration, id, values, chosen, required, hintId);
  }
  const numeric = declaration.type === 'number' || declaration.type === 'integer';
  const input = h('input', {
    id, name: declaration.name, type: 'text', autocomplete: 'off',
    inputmode: numeric ? (declaration.type === 'integer' ? 'numeric' : 'decimal') : null,
    'aria-required': required ? 'true' : null,
    'aria-describedby': hintId,
  });
  if (initialValue !== undefined && initialValue !== null) {
    input.value = typeof initialValue === 'string' ? initialValue : JSON.stringify(initialValue);
  }
  return {
    element: input,
    inputs: [input],
    focus: () => input.focus(),
    read: () => {
      const raw = input.value.trim();
      if (raw === '') {
        return undefined;
      }
      // A number field sends a number when the text is one, and the text otherwise, so the gateway's
      // invalid_type message is what the person reads.
      return numeric && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw) ? Number(raw) : raw;
    },
  };
}

function radios(declaration, id, values, chosen, hintId) {
  const inputs = values.map((value, index) => h('input', {
    type: 'radio', id: `${id}-${index}`, name: `${id}-choice`, value, checked: value === chosen,
    'aria-describedby': hintId,
  }));
  const element = h('div', { class: 'choices' }, values.map((value, index) =>
    h('label', { class: 'choice', for: `${id}-${index}` }, inputs[index], ` ${value}`)));
  return {
    grouped: true,
    element,
    inputs,
    focus: () => (inputs.find((input) => input.checked) || inputs[0])?.focus(),
    read: () => {
      const checked = inputs.find((input) => input.checked);
      return checked ? typed(declaration, checked.value) : undefined;
    },
  };
}

function select(declaration, id, values, chosen, required, hintId) {
  const element = h('select', { id, name: declaration.name, 'aria-required': required ? 'true' : null, 'aria-describedby': hintId },
    h('option', { value: '' }, 'Choose…'),
    values.map((value) => h('option', { value, selected: value === chosen }, value)));
  return {
    element,
    inputs: [element],
    focus: () => element.focus(),
    read: () => (element.value === '' ? undefined : typed(declaration, element.value)),
  };
}

function typed(declaration, value) {
  return declaration.type === 'boolean' ? value === 'true' : value;
}

/** A field's name for people: its declared label, else its name with "_" and "-" read as spaces. */
export function fieldLabel(declaration) {
  return declaration.label || declaration.name.replace(/[_-]+/g, ' ');
}
