/**
 * Leaving the gallery and coming back, with triage in use (a smart board, a board, ratings and
 * the Triage view opened and closed): the screen shows again, whole, never its error boundary.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';
import { seedGallery } from './gallery-wired';
import { giveSize } from '../layout-sizes';

const fileMain = sharedWiredMain();

describe('the gallery shown again', () => {
  it('after triage, a smart board and the Triage view, shows its grid again', async () => {
    // Newer Chromium answers scrollIntoView with a promise: an effect must not hand it to React
    // as its cleanup (the Triage view's filmstrip did, and closing the view broke the gallery).
    Object.defineProperty(Element.prototype, 'scrollIntoView', {
      configurable: true,
      value: () => Promise.resolve(),
    });
    onTestFinished(() => {
      Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
    });
    const main = await fileMain();
    seedGallery(main, 6);
    const { boards, triage, smartBoards } = main.runtime.core;
    boards.create('Harbour');
    const refs = [0, 1, 2].map((n) => ({ localId: `seed-00000${String(n)}`, index: 0 }));
    await triage.apply(refs, { kind: 'rating', rating: 5 });
    await triage.apply(refs, { kind: 'board', path: 'Harbour', add: true });
    smartBoards.create('Best', { match: 'all', items: [{ kind: 'rating', op: '>=', value: 4 }] });
    await startWiredApp({ main: fileMain });
    // The size jsdom does not lay out.
    giveSize('.gallery-grid', { width: 1000, height: 600 });
    act(() => useAppStore.getState().setView('gallery'));
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(6));
    act(() => useAppStore.getState().triageShowView(null));
    const view = await screen.findByRole('dialog', { name: 'Triage view' });
    fireEvent.keyDown(view, { key: 'Escape', code: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Triage view' })).toBeNull());
    expect(screen.queryByText(/could not be shown/)).toBeNull();
    act(() => useAppStore.getState().setView('settings'));
    act(() => useAppStore.getState().setView('gallery'));
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(6));
    expect(screen.queryByText(/could not be shown/)).toBeNull();
  });
});
