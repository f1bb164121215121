import { describe, expect, it } from 'vitest';
import {
  INITIAL_KEY_FORM,
  askingConsent,
  canSave,
  keyFormReducer,
  type KeyFormEvent,
  type KeyFormState,
} from '../../../../renderer/features/settings/key-form';

const run = (...events: KeyFormEvent[]): KeyFormState =>
  events.reduce(keyFormReducer, INITIAL_KEY_FORM);
const typed = (text: string): KeyFormEvent => ({ type: 'typed', text });
const failed: KeyFormEvent = { type: 'failed', error: { message: 'Not stored.', detail: 'EIO' } };

describe('the key form', () => {
  it('saves what was typed, then empties the field and closes the replace form', () => {
    const saving = run({ type: 'replace' }, typed('sk-1'), { type: 'save', weak: false });
    expect(saving.phase).toEqual({ name: 'saving', weak: false });
    expect(canSave(saving, false)).toBe(false);
    expect(keyFormReducer(saving, { type: 'saved' })).toEqual(INITIAL_KEY_FORM);
  });

  it('never saves an empty field, nor twice at once', () => {
    expect(run(typed('  '), { type: 'save', weak: false })).toEqual(run(typed('  ')));
    const saving = run(typed('sk-1'), { type: 'save', weak: false });
    expect(keyFormReducer(saving, { type: 'save', weak: false })).toBe(saving);
  });

  it('asks for consent when weak storage is needed, and keeps asking while that save runs', () => {
    const asked = run(typed('sk-1'), { type: 'save', weak: false }, { type: 'consentNeeded' });
    expect(asked.phase).toEqual({ name: 'consent' });
    expect(askingConsent(asked.phase)).toBe(true);
    // The field is locked while the question is open.
    expect(keyFormReducer(asked, typed('other')).text).toBe('sk-1');
    expect(canSave(asked, false)).toBe(false);
    const weak = keyFormReducer(asked, { type: 'save', weak: true });
    expect(weak.phase).toEqual({ name: 'saving', weak: true });
    expect(askingConsent(weak.phase)).toBe(true);
    expect(keyFormReducer(weak, { type: 'saved' })).toEqual(INITIAL_KEY_FORM);
  });

  it('forgets the key when the user declines weak storage', () => {
    const declined = run(
      typed('sk-1'),
      { type: 'save', weak: false },
      { type: 'consentNeeded' },
      { type: 'declined' },
    );
    expect(declined).toEqual(INITIAL_KEY_FORM);
  });

  it('keeps the typed key after a failure, and the question open after a failed weak save', () => {
    const plain = run(typed('sk-1'), { type: 'save', weak: false }, failed);
    expect(plain).toMatchObject({ phase: { name: 'editing' }, text: 'sk-1' });
    expect(plain.error).toEqual({ message: 'Not stored.', detail: 'EIO' });
    const weak = run(
      typed('sk-1'),
      { type: 'save', weak: false },
      { type: 'consentNeeded' },
      { type: 'save', weak: true },
      failed,
    );
    expect(weak.phase).toEqual({ name: 'consent' });
    // The next save clears the error; dismissing does too.
    expect(keyFormReducer(weak, { type: 'save', weak: true }).error).toBeNull();
    expect(keyFormReducer(weak, { type: 'dismissError' }).error).toBeNull();
  });

  it('opens the remove confirmation over the form without losing its state', () => {
    const asked = run(typed('sk-1'), { type: 'save', weak: false }, { type: 'consentNeeded' });
    const confirming = keyFormReducer(asked, { type: 'askRemove' });
    expect(confirming).toMatchObject({ confirmingRemove: true, phase: { name: 'consent' } });
    expect(keyFormReducer(confirming, { type: 'closeRemove' })).toEqual(asked);
  });

  it('cancelling a replacement empties the field', () => {
    expect(run({ type: 'replace' }, typed('sk-1'), { type: 'cancelReplace' })).toEqual(
      INITIAL_KEY_FORM,
    );
  });
});
