/**
 * An edit goes where the compose form sends its service's tasks (AppCredentials.endpointOf, the
 * one rule a compare follows too): today's contract at an address with no key is the built-in
 * demo's until a key is there, for a new task and an edit alike. Two real services on loopback: the
 * user's address (a demo service speaking today's contract) and the embedded demo.
 */
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DemoService } from '../../../../electron/demo-service/types';
import { useAppStore } from '../../../../renderer/store/app-store';
import { connectService } from '../dialect-services';
import { smallLibraryImage } from '../library-images';
import { startWiredApp } from '../render-wired-app';

describe('an edit of a service with an address and no key', () => {
  it('goes to the demo standing in, where the compose form sends a new task', async () => {
    let own: DemoService | undefined;
    let source: Awaited<ReturnType<typeof smallLibraryImage>> | undefined;
    const { main } = await startWiredApp({
      prepare: async (main) => {
        own = await connectService(main, 'pictor', { key: null });
        source = await smallLibraryImage(main);
      },
    });
    const demo = main.runtime.demo;
    await act(() =>
      useAppStore.getState().editOpenFromLibrary({ localId: 'task-1', index: 0 }, 'pink sky', {
        operation: 'edit',
      }),
    );
    const refused = await act(() =>
      useAppStore.getState().editRun({
        prompt: 'pink sky',
        inputs: {
          operation: 'edit',
          source: source!,
          parent: { localId: 'task-1', index: 0 },
          route: 'inline',
        },
        targets: [{ provider: 'pictor', model: 'demo-edit' }],
      }),
    );
    // editRun answers a refusal's sentence, null when sent.
    expect(refused).toBeNull();
    await waitFor(() => expect(demo.log.submits).toHaveLength(1));
    // The compose form's new task goes to the same place.
    await act(async () => {
      useAppStore.getState().composeSetDraft({ prompt: 'a harbour at dawn' });
      await useAppStore.getState().composeSubmit();
    });
    await waitFor(() => expect(demo.log.submits).toHaveLength(2));
    expect(own?.log.submits).toEqual([]);
    expect(main.callsTo('tasks:submit')[0]?.target).toMatchObject({ endpoint: 'demo:' });
  });
});
