import { describe, expect, it } from 'vitest';
import type { BaseWindow, MessageBoxOptions } from 'electron';
import {
  capLooseningMessage,
  createCapPrompts,
  createCommandLineToolPrompts,
  createDialogPrompts,
  keyOriginMessage,
  localServersMessage,
  overCapMessage,
} from '../../../electron/adapters/dialog-prompts';

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

describe('the command line tool’s question and answer', () => {
  it.each([
    [0, true],
    [1, false],
  ] as const)(
    'button %i answers %s; Install is the default, Cancel is Escape',
    async (response, agreed) => {
      const { dialog, shown } = fakeDialog(response);
      const prompts = createCommandLineToolPrompts(dialog, () => null);
      expect(await prompts.confirmInstall('/usr/local/bin/pictor')).toBe(agreed);
      const options = shown[0]?.options;
      expect(options?.message).toBe('Install the pictor command at /usr/local/bin/pictor?');
      expect(options?.buttons).toEqual(['Install', 'Cancel']);
      expect([options?.defaultId, options?.cancelId]).toEqual([0, 1]);
    },
  );

  it('tells how it ended, a refusal as a warning', async () => {
    const { dialog, shown } = fakeDialog(0);
    const prompts = createCommandLineToolPrompts(dialog, () => null);
    await prompts.tell(
      { key: 'commandLineTool.notPictors', params: { link: '/usr/local/bin/pictor' } },
      'warning',
    );
    expect(shown[0]?.options).toMatchObject({
      type: 'warning',
      message:
        '/usr/local/bin/pictor already exists and is not Pictor’s, so Pictor left it as it is.',
    });
  });
});

describe('the question before a hard spending cap is raised or removed', () => {
  const cap = {
    period: 'day',
    unit: 'USD',
    provider: null,
    kind: 'hard',
    micros: 5_000_000,
  } as const;

  it('names the cap and its new amount, with Keep as the default and what Escape picks', () => {
    const raise = capLooseningMessage({ cap, to: 12_500_000 });
    expect(raise.message).toBe('Raise your hard spending cap from $5.00 to $12.50?');
    expect(raise.buttons?.[raise.defaultId ?? -1]).toBe('Keep the Cap');
    expect(raise.cancelId).toBe(raise.defaultId);
    expect(raise.buttons?.[1]).toBe('Raise the Cap');
    const remove = capLooseningMessage({ cap, to: null });
    expect(remove.message).toBe('Remove your hard spending cap of $5.00?');
    expect(remove.buttons?.[1]).toBe('Remove the Cap');
  });

  it('names a price that would make the cap count less, before and after', () => {
    const lowered = capLooseningMessage({
      cap,
      to: cap.micros,
      price: {
        provider: 'fal',
        model: 'fal-ai/flux-pro',
        from: { provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 40_000 },
        to: {
          provider: 'fal',
          model: 'fal-ai/flux-pro',
          unit: 'USD',
          basis: 'megapixel',
          micros: 0,
        },
      },
    });
    expect(lowered.message).toBe(
      'Change the price of fal.ai (fal-ai/flux-pro) in USD from $0.04 per image to $0.00 per megapixel? Your hard spending cap of $5.00 counts its tasks at this price, so it will let more through.',
    );
    expect(lowered.buttons).toEqual(['Keep the Price', 'Change the Price']);
    expect(lowered.defaultId).toBe(0);
    const priced = capLooseningMessage({
      cap,
      to: cap.micros,
      price: { provider: 'bfl', model: '', from: null, to: null },
    });
    expect(priced.message).toMatch(
      /^Change the price of Black Forest Labs in USD from no price to no price\?/,
    );
  });

  it.each([
    [1, true],
    [0, false],
  ])('answers %s as %s, over the window when there is one', async (response, agreed) => {
    const { dialog, shown } = fakeDialog(response);
    const window = {} as BaseWindow;
    const prompts = createCapPrompts(dialog, () => window);
    expect(await prompts.confirmLooserCap({ cap, to: null })).toBe(agreed);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.parent).toBe(window);
  });
});

describe('the question before tasks pass a hard spending cap, this once', () => {
  const cap = { period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 50_000 } as const;
  const question = {
    refusal: { key: 'error.costs.hardCap', params: { cap: '$0.05', period: 'day' } },
    caps: [cap],
    tasks: 6,
  } as const;

  it('says the cap’s refusal and how many tasks, with Don’t Send the default and Escape', () => {
    const options = overCapMessage(question as never);
    expect(options.detail).toContain('6');
    expect(options.buttons).toEqual(['Don’t Send', 'Send Anyway']);
    expect(options).toMatchObject({ defaultId: 0, cancelId: 0, type: 'warning' });
  });

  it.each([
    [0, false],
    [1, true],
  ])('answers button %i as %s, over the window', async (response, agreed) => {
    const { dialog, shown } = fakeDialog(response);
    const window = {} as BaseWindow;
    const prompts = createCapPrompts(dialog, () => window);
    expect(await prompts.confirmOverHardCap(question as never)).toBe(agreed);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.parent).toBe(window);
  });
});

describe('the question before Local servers allows an address', () => {
  it('names the addresses and what the server there would get, Don’t Allow the default and Escape', () => {
    const options = localServersMessage(['127.0.0.1:8188', '[::1]:8188']);
    expect(options.message).toBe('Allow Pictor to send to 127.0.0.1:8188, [::1]:8188?');
    expect(options.detail).toContain('another user of this computer');
    expect(options.buttons?.[options.defaultId ?? -1]).toBe('Don’t Allow');
    expect(options.cancelId).toBe(options.defaultId);
  });

  it('agrees only with the Allow button', async () => {
    for (const [response, agreed] of [
      [0, false],
      [1, true],
      [7, false],
    ] as const) {
      const { dialog } = fakeDialog(response);
      const prompts = createDialogPrompts(dialog, () => null);
      expect(await prompts.confirmLocalServers?.(['127.0.0.1:8188'])).toBe(agreed);
    }
  });
});
