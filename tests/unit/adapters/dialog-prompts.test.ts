import { describe, expect, it } from 'vitest';
import type { BaseWindow, MessageBoxOptions } from 'electron';
import { createDialogPrompts, keyOriginMessage } from '../../../electron/adapters/dialog-prompts';

const question = {
  fingerprint: '0123456789ab',
  from: 'https://api.provider-a.com',
  to: 'https://evil.example:8443',
};

function fakeDialog(response: number) {
  const shown: { parent: BaseWindow | null; options: MessageBoxOptions }[] = [];
  const showMessageBox = (async (
    parentOrOptions: BaseWindow | MessageBoxOptions,
    maybeOptions?: MessageBoxOptions,
  ) => {
    shown.push(
      maybeOptions
        ? { parent: parentOrOptions as BaseWindow, options: maybeOptions }
        : { parent: null, options: parentOrOptions as MessageBoxOptions },
    );
    return { response, checkboxChecked: false };
  }) as never;
  return { dialog: { showMessageBox }, shown };
}

describe('the key-origin question in a native message box', () => {
  it('names both origins and the fingerprint, never the key, with Cancel as default and Escape', () => {
    const options = keyOriginMessage(question);
    expect(options.message).toBe('Send your API key (0123456789ab) to evil.example:8443?');
    expect(options.detail).toContain('api.provider-a.com');
    expect(options.detail).toContain('https://evil.example:8443');
    expect(options.buttons?.[options.defaultId ?? -1]).toBe('Cancel');
    expect(options.cancelId).toBe(options.defaultId);
    expect(keyOriginMessage({ ...question, from: null }).detail).toMatch(
      /before a service address was set/,
    );
  });

  it.each([
    [0, 'cancel'],
    [1, 'carry'],
    [2, 'forget'],
    [7, 'cancel'],
  ] as const)('button %i answers %s', async (response, answer) => {
    const { dialog, shown } = fakeDialog(response);
    const window = {} as BaseWindow;
    const prompts = createDialogPrompts(dialog, () => window);
    expect(await prompts.confirmKeyOrigin(question)).toBe(answer);
    expect(shown[0]?.parent).toBe(window);
  });

  it('asks without a parent when no window is open', async () => {
    const { dialog, shown } = fakeDialog(1);
    expect(await createDialogPrompts(dialog, () => null).confirmKeyOrigin(question)).toBe('carry');
    expect(shown[0]?.parent).toBeNull();
  });
});
