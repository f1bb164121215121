/**
 * Tasks an import (or a gallery move) added appear in Tasks at once, without a restart: the
 * page hears `gallery:changed` and reloads the history as well as the gallery.
 */
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeImage, makeTask } from '../../../support/task-records';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** Main's own history (tests/support/wired-api.ts), one runtime for the file. */
const fileMain = sharedWiredMain();

const feed = (): HTMLElement => screen.getByRole('feed', { name: 'Task history' });

describe('tasks added behind the page’s back', () => {
  it.each(['imported', 'moved'])('show in Tasks after gallery:changed (%s)', async (reason) => {
    const { main } = await startWiredApp({
      main: fileMain,
      prepare: (m) => void seedHistory(m, 2),
    });
    expect(within(feed()).getAllByRole('article')).toHaveLength(2);
    // Older than everything shown: an archive keeps its tasks' dates.
    main.runtime.core.history.putMany([
      makeTask({
        localId: 'imported-1',
        prompt: 'A harbour from the archive',
        createdAt: Date.UTC(2020, 0, 1),
        images: [makeImage(0)],
      }),
    ]);
    act(() => main.send('gallery:changed', { reason }));
    expect(await within(feed()).findByText('A harbour from the archive')).toBeTruthy();
    expect(within(feed()).getAllByRole('article')).toHaveLength(3);
  });
});
