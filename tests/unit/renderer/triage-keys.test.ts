/**
 * The triage keys read the key's place (`KeyboardEvent.code`), so the digits work on AZERTY
 * (where they need Shift, and unshifted write & é " ' ( …) and on the numeric keypad, and a
 * letter a layout writes elsewhere does nothing; never in a text field, select or editor.
 */
import { describe, expect, it } from 'vitest';
import { inEditor, triageKeyOf } from '../../../renderer/lib/triage-keys';

const key = (code: string, letter: string, more: Partial<Parameters<typeof triageKeyOf>[0]> = {}) =>
  triageKeyOf({
    code,
    key: letter,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    target: document.body,
    ...more,
  });

describe('triageKeyOf', () => {
  it('reads every digit place, row and keypad, as its rating; 6–9 are not ratings', () => {
    const azerty = ['à', '&', 'é', '"', "'", '('];
    for (let digit = 0; digit <= 5; digit += 1) {
      expect(key(`Digit${String(digit)}`, azerty[digit] ?? '')).toEqual({
        command: { kind: 'change', change: { kind: 'rating', rating: digit } },
        advance: false,
      });
      expect(key(`Numpad${String(digit)}`, String(digit))?.command).toEqual({
        kind: 'change',
        change: { kind: 'rating', rating: digit },
      });
    }
    for (const digit of [6, 7, 8, 9])
      expect(key(`Digit${String(digit)}`, String(digit))).toBeNull();
  });

  it('Shift applies and moves on (AZERTY types its digits with Shift: they still rate)', () => {
    expect(key('Digit4', '4', { shiftKey: true })).toEqual({
      command: { kind: 'change', change: { kind: 'rating', rating: 4 } },
      advance: true,
    });
    expect(key('KeyX', 'X', { shiftKey: true })?.advance).toBe(true);
  });

  it('flags by place: P and F pick, X rejects, U unflags; the letter written does not count', () => {
    expect(key('KeyP', 'p')?.command).toEqual({
      kind: 'change',
      change: { kind: 'flag', flag: 'pick' },
    });
    expect(key('KeyF', 'f')?.command).toEqual({
      kind: 'change',
      change: { kind: 'flag', flag: 'pick' },
    });
    expect(key('KeyX', 'x')?.command).toEqual({
      kind: 'change',
      change: { kind: 'flag', flag: 'reject' },
    });
    expect(key('KeyU', 'u')?.command).toEqual({
      kind: 'change',
      change: { kind: 'flag', flag: 'none' },
    });
    // AZERTY writes "a" on the KeyQ place, QWERTZ "z" on KeyY: neither is a triage key.
    expect(key('KeyQ', 'a')).toBeNull();
    expect(key('KeyY', 'z')).toBeNull();
  });

  it('B files, Ctrl/Cmd+B chooses the target, T edits tags; Ctrl/Cmd+Shift+Z (or Ctrl+Y) redoes', () => {
    expect(key('KeyB', 'b')?.command).toEqual({ kind: 'board' });
    expect(key('KeyB', 'b', { ctrlKey: true })?.command).toEqual({ kind: 'chooseBoard' });
    expect(key('KeyB', 'b', { metaKey: true })?.command).toEqual({ kind: 'chooseBoard' });
    expect(key('KeyT', 't')?.command).toEqual({ kind: 'tags' });
    // Ctrl/Cmd+Z alone is the window's Undo (shell/undo-key.ts), never a triage key.
    expect(key('KeyZ', 'z', { ctrlKey: true })).toBeNull();
    expect(key('KeyZ', 'Z', { metaKey: true, shiftKey: true })?.command).toEqual({ kind: 'redo' });
    expect(key('KeyY', 'y', { ctrlKey: true })?.command).toEqual({ kind: 'redo' });
    // Ctrl+Alt is AltGr on many layouts: it writes characters, never triage.
    expect(key('KeyB', 'b', { ctrlKey: true, altKey: true })).toBeNull();
    expect(key('Digit3', '3', { altKey: true })).toBeNull();
    // Ctrl+digit is the screens' and the viewer's zoom, not a rating.
    expect(key('Digit1', '1', { ctrlKey: true })).toBeNull();
  });

  it('never in a text field, a select, a text area or an editor', () => {
    const fields = [
      document.createElement('input'),
      document.createElement('textarea'),
      document.createElement('select'),
    ];
    const editor = document.createElement('div');
    editor.setAttribute('contenteditable', 'true');
    const inside = document.createElement('span');
    editor.append(inside);
    document.body.append(...fields, editor);
    for (const target of [...fields, editor, inside]) {
      expect(inEditor(target), target.tagName).toBe(true);
      expect(key('Digit3', '3', { target })).toBeNull();
    }
    expect(inEditor(document.body)).toBe(false);
    editor.remove();
    for (const field of fields) field.remove();
  });
});
