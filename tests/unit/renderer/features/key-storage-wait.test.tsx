/**
 * While a stored key waits for the OS's storage (a keychain prompt nobody has answered: the app's
 * start does not wait for it), the task list, the gallery and every export wait for the keys
 * (core/secrets/held-key-scrub.ts, app/kept-id-page.ts): the window says why, naming the storage
 * as Settings does, and where the prompt may be; it goes by itself once the storage answers.
 * Main's real wiring over vaults whose storage the test answers for (HeldCipher).
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DECRYPT_NOTICE_MS } from '../../../../electron/core/key-vault/key-vault';
import { ServiceKeys } from '../../../../electron/core/key-vault/service-keys';
import { PROVIDER_IDS, perProvider } from '../../../../shared/domain/providers';
import { useAppStore } from '../../../../renderer/store/app-store';
import { composeTarget } from '../../../../renderer/store/compose-model';
import { serviceStateOf } from '../../../../renderer/store/use-service-key-state';
import { HeldCipher } from '../../../fakes/in-memory-cipher';
import { InMemoryKv } from '../../../fakes/in-memory-kv';
import { ManualClock } from '../../../fakes/manual-clock';
import { connectService } from '../dialect-services';
import { seedHistory, showSettings, startWiredApp } from '../render-wired-app';

const KEY = 'fal-held-wait-7c1e4b9a2d5f8036';
const NOTICE = { name: 'Waiting for your key' } as const;

/** Vaults on a storage held from the start; `stored`: the fal key is in its vault. */
async function heldVaults(stored: boolean) {
  const cipher = new HeldCipher({ backend: 'gnome_libsecret' });
  const stores = perProvider(PROVIDER_IDS, (provider) => new InMemoryKv('/held', `kv-${provider}`));
  if (stored) {
    const keys = new ServiceKeys({
      storeFor: (provider) => stores[provider],
      cipher,
      now: () => 1,
    });
    await keys.vault('fal').setKey(KEY, { allowWeakStorage: false, baseUrl: null });
  }
  cipher.hold();
  return {
    cipher,
    runtime: { cipher, serviceVaultStore: (id: keyof typeof stores) => stores[id] },
  };
}

describe('a stored key waiting for the OS’s storage', () => {
  it('is said above the waiting list, naming the storage, until the storage answers', async () => {
    const { cipher, runtime } = await heldVaults(true);
    const { main } = await startWiredApp({
      runtime,
      listWaits: true,
      prepare: (main) => void seedHistory(main, 3),
    });
    const notice = await screen.findByRole('region', NOTICE);
    expect(notice.textContent).toContain(
      'waiting for the GNOME keyring to unlock your saved API key',
    );
    expect(notice.textContent).toContain('hidden behind other windows');
    // The list waits for the keys meanwhile: its spinner, no task.
    expect(useAppStore.getState().tasksLoaded).toBe(false);
    expect(screen.getByText('Loading tasks…')).toBeTruthy();
    expect(screen.queryByText('Prompt number 0')).toBeNull();
    cipher.answer();
    // The desktop host verifies the keys once the storage answered (host/desktop-start.ts).
    await main.runtime.keys.verify();
    await waitFor(() => expect(screen.queryByRole('region', NOTICE)).toBeNull());
    expect(await screen.findByText('Prompt number 0')).toBeTruthy();
    expect(useAppStore.getState().serviceKeys?.fal.state).toBe('ready');
  });

  it('gives way to the key banner when the storage answers that the key cannot be read', async () => {
    const { cipher, runtime } = await heldVaults(true);
    const { main } = await startWiredApp({
      runtime,
      listWaits: true,
      prepare: (main) => void seedHistory(main, 1),
    });
    await screen.findByRole('region', NOTICE);
    cipher.decryptFault = 'throws';
    cipher.answer();
    await main.runtime.keys.verify();
    const banner = await screen.findByRole('region', { name: 'API key' });
    expect(banner.textContent).toContain('could not be decrypted');
    expect(screen.queryByRole('region', NOTICE)).toBeNull();
    expect(await screen.findByText('Prompt number 0')).toBeTruthy();
  });

  it('is said while the storage, having answered, asks again to decrypt the key', async () => {
    // The storage's first answer came before the page asked (its status is `ready`), and the
    // decrypt itself waits (a prompt asked for it): the list waits on that decrypt.
    const { cipher, runtime } = await heldVaults(true);
    const clock = new ManualClock();
    let verified: Promise<void> = Promise.resolve();
    await startWiredApp({
      runtime: { ...runtime, clock },
      listWaits: true,
      prepare: (main) => {
        seedHistory(main, 2);
        cipher.holdDecrypt();
        cipher.answer();
        // The desktop host verifies the keys once the storage answered (host/desktop-start.ts).
        verified = main.runtime.keys.verify();
      },
    });
    await waitFor(() => expect(cipher.heldDecrypts).toBeGreaterThan(0));
    expect(useAppStore.getState().serviceKeys?.fal.state).toBe('ready');
    // A decrypt the OS answers at once tells nothing: nothing is said before the notice's time.
    await clock.advance(DECRYPT_NOTICE_MS - 1);
    expect(screen.queryByRole('region', NOTICE)).toBeNull();
    await clock.advance(1);
    const notice = await screen.findByRole('region', NOTICE);
    expect(notice.textContent).toContain(
      'waiting for the GNOME keyring to unlock your saved API key',
    );
    expect(useAppStore.getState().tasksLoaded).toBe(false);
    expect(screen.queryByText('Prompt number 0')).toBeNull();
    cipher.answerDecrypt();
    await verified;
    await waitFor(() => expect(screen.queryByRole('region', NOTICE)).toBeNull());
    expect(await screen.findByText('Prompt number 0')).toBeTruthy();
    expect(useAppStore.getState().serviceKeys?.fal).not.toHaveProperty('decrypting');
  });

  it('is not said when no key is stored: nothing waits', async () => {
    const { runtime } = await heldVaults(false);
    await startWiredApp({ runtime, prepare: (main) => void seedHistory(main, 1) });
    expect(await screen.findByText('Prompt number 0')).toBeTruthy();
    expect(useAppStore.getState().serviceKeys?.fal.state).toBe('not_ready');
    expect(screen.queryByRole('region', NOTICE)).toBeNull();
  });
});

describe('a service whose stored key waits for the OS’s storage', () => {
  it('is named where main sends its tasks: its own address, the task waiting for the key', async () => {
    // Today's contract at the user's address, its key stored (the storage answered then), and the
    // storage held when the window starts: main counts the stored key (AppCredentials.endpointOf).
    const cipher = new HeldCipher({ backend: 'gnome_libsecret' });
    const stores = perProvider(PROVIDER_IDS, (id) => new InMemoryKv('/held', `kv-${id}`));
    let own = '';
    let ownLog: { submits: unknown[] } = { submits: [] };
    const { main } = await startWiredApp({
      runtime: { cipher, serviceVaultStore: (id: keyof typeof stores) => stores[id] },
      listWaits: true,
      prepare: async (main) => {
        const service = await connectService(main, 'pictor');
        own = service.url;
        ownLog = service.log;
        cipher.hold();
      },
    });
    expect(useAppStore.getState().serviceKeys?.pictor.state).toBe('not_ready');
    const destination = main.runtime.credentials.endpointOf('pictor');
    expect(destination).toBe(own);
    // The window names it as waiting for its key, at main's destination, in compose and compare.
    expect(serviceStateOf(useAppStore.getState(), 'pictor')).toBe('waiting');
    expect(composeTarget(useAppStore.getState(), 'pictor').endpoint).toBe(destination);
    const form = screen.getByRole('form', { name: 'New task' });
    const compose = within(form).getByRole('combobox', { name: 'Service' }) as HTMLSelectElement;
    const named = /^127\.0\.0\.1:\d+ \(waiting for key\)$/;
    expect(compose.selectedOptions[0]?.textContent).toMatch(named);
    act(() => useAppStore.getState().compareShowDialog(true));
    const dialog = await screen.findByRole('dialog');
    const [compare] = within(dialog).getAllByRole('combobox', { name: 'Service' });
    expect((compare as HTMLSelectElement).selectedOptions[0]?.textContent).toMatch(named);
    act(() => useAppStore.getState().compareShowDialog(false));
    // The form's task goes there and waits for the key: nothing reaches the demo meanwhile.
    let sent: Promise<unknown> = Promise.resolve();
    act(() => {
      useAppStore.getState().composeSetDraft({ prompt: 'a harbour at dawn' });
      sent = useAppStore.getState().composeSubmit();
    });
    await waitFor(() =>
      expect(main.callsTo('tasks:submit')[0]?.target).toMatchObject({ endpoint: own }),
    );
    // Settings' badge says the wait in the banner's words.
    await showSettings();
    const badge = document.querySelector('.service-state--waiting');
    expect(badge?.textContent).toBe('Waiting for your key');
    cipher.answer();
    await act(async () => {
      await sent;
    });
    await main.runtime.keys.verify();
    await waitFor(() => expect(ownLog.submits).toHaveLength(1));
    expect(main.runtime.demo.log.submits).toEqual([]);
  });
});
