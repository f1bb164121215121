/**
 * Feedback is quiet and where the eye is: one status area at the window's foot, in the layout
 * (never over the selection bar or a row), saying one thing at a time; a confirmation goes after
 * its time whether or not the pointer rests on it, the focus holds it a while but not for good;
 * the image viewer, which covers the window, says it in its own frame (status-area-viewer.test.tsx,
 * over the gallery's harness); and what is on screen follows a change of language.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sentence, englishText } from '../../../../shared/i18n/sentence';
import {
  ACTION_MS,
  CONFIRMATION_MS,
  MAX_HOLD_MS,
  StatusArea,
} from '../../../../renderer/shell/status-area';
import { applyLocale, errorText, t } from '../../../../renderer/i18n';
import { ApiError } from '../../../../renderer/lib/api';
import { deleteWithUndo } from '../../../../renderer/features/gallery/use-image-actions';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import { seedHistory, startWiredApp } from '../render-wired-app';

afterEach(async () => {
  vi.useRealTimers();
  await applyLocale('en');
});

const done = (): HTMLElement =>
  screen.getByRole('status', { name: t('toasts.confirmationsLabel') });
const store = useAppStore.getState;

describe('the status area', () => {
  it('sits in the layout at the window’s foot, outside every screen, and says one thing at a time', async () => {
    await startWiredApp({ prepare: (m) => void seedHistory(m, 3) });
    const area = done().closest('.status-area')!;
    expect(area.parentElement?.classList.contains('app__main')).toBe(true);
    expect(area.previousElementSibling?.tagName).toBe('MAIN');
    expect(document.querySelector('.toasts, .toast')).toBeNull();
    act(() => store().confirm('Image copied.'));
    act(() => store().confirm('Saved.'));
    act(() => store().showError(new ApiError('failed', 'The history is busy.')));
    act(() => store().confirm('Task id copied.'));
    // Only the newest is shown; nothing is stacked over the screen.
    expect(area.textContent).toContain('Task id copied.');
    expect(area.textContent).not.toContain('Saved.');
    expect(area.textContent).not.toContain('The history is busy.');
    act(() => store().dismissStatus(store().statusEntries.at(-1)!.id));
    // The error waited underneath; the confirmations it covered are gone for good.
    expect(area.textContent).toContain('The history is busy.');
    expect(area.textContent).not.toContain('Image copied.');
  });

  it('a confirmation goes after its time with the pointer on it; the focus holds it, not for good', () => {
    vi.useFakeTimers();
    render(<StatusArea />);
    act(() => store().confirm('Saved.'));
    fireEvent.mouseEnter(within(done()).getByText('Saved.'));
    act(() => vi.advanceTimersByTime(CONFIRMATION_MS + 1));
    expect(within(done()).queryByText('Saved.')).toBeNull();

    act(() =>
      store().confirm('Image moved to the trash.', { label: 'Undo', run: () => undefined }),
    );
    act(() => within(done()).getByRole('button', { name: 'Undo' }).focus());
    act(() => vi.advanceTimersByTime(ACTION_MS * 2));
    expect(within(done()).getByText('Image moved to the trash.')).toBeTruthy();
    act(() => vi.advanceTimersByTime(MAX_HOLD_MS - ACTION_MS * 2 + 1));
    expect(within(done()).queryByText('Image moved to the trash.')).toBeNull();
  });

  it('a job’s entry stays while it runs, then its whole time from when it ended', () => {
    vi.useFakeTimers();
    render(<StatusArea />);
    let id = 0;
    act(() => {
      id = store().startJob('Moving 300 images to the trash…', 300, {
        label: 'Undo',
        run: () => undefined,
      });
    });
    act(() => vi.advanceTimersByTime(ACTION_MS * 3));
    expect(within(done()).getByText('Moving 300 images to the trash…')).toBeTruthy();
    act(() => store().updateJob(id, { text: '300 images moved to the trash.', finished: true }));
    act(() => vi.advanceTimersByTime(ACTION_MS - 1));
    expect(within(done()).getByText('300 images moved to the trash.')).toBeTruthy();
    expect(within(done()).getByRole('button', { name: 'Undo' })).toBeTruthy();
    act(() => vi.advanceTimersByTime(2));
    expect(within(done()).queryByText('300 images moved to the trash.')).toBeNull();
  });

  // Fault: main refuses tasks:resume with a sentence (no credits) on demand (the contract's
  // interceptor).
  it('says what is on screen again in a newly chosen language', async () => {
    const { main } = await startWiredApp();
    act(() => store().confirm(() => t('settings.saved')));
    expect(within(done()).getByText('Saved.')).toBeTruthy();
    await act(() => applyLocale('de'));
    expect(within(done()).getByText('Gespeichert.')).toBeTruthy();

    const said = sentence('error.service.noCredits');
    main.intercept.request['tasks:resume'].fail({
      code: 'failed',
      message: englishText(said),
      sentence: said,
    });
    await act(() => applyLocale('en'));
    await act(async () => void (await store().tasksResume('nothing')));
    expect(screen.getByText(englishText(said))).toBeTruthy();
    await act(() => applyLocale('de'));
    expect(screen.queryByText(englishText(said))).toBeNull();
    expect(screen.getByText(/Das Konto hat kein Guthaben mehr/)).toBeTruthy();
  });

  // Fault: a failed Undo and a half-done gallery delete answered in main's place (the contract's
  // interceptor), and a broken answer to a copy.
  it('words a failed Undo, a failed copy and a failed gallery delete again in a new language', async () => {
    const { main } = await startWiredApp({
      prepare: (wired) => void seedHistory(wired, 2, () => ({ images: [makeImage(0)] })),
    });
    const { request } = main.intercept;
    const shown = (): string => document.querySelector('.status-area')?.textContent ?? '';
    /** What the area says in English, then in German once the language changes. */
    const followsLanguage = async (english: () => string): Promise<void> => {
      const before = english();
      expect(shown()).toContain(before);
      await act(() => applyLocale('de'));
      expect(shown()).not.toContain(before);
      expect(shown()).toContain(english());
      await act(() => applyLocale('en'));
      expect(shown()).toContain(before);
    };

    // Undo of a task removal main could not do: main's sentence.
    const folderGone = sentence('error.gallery.imageFolderOutside');
    request['tasks:undoRemove'].handle(({ localIds }) => ({
      items: [],
      failed: localIds.length,
      problem: englishText(folderGone),
      problemSentence: folderGone,
    }));
    // Through the window's Undo, which names the step it could not take back.
    await act(async () => {
      store().undoPush('1 task removed.', async () => {
        await store().tasksUndoRemove(['seed-000000']);
        return true;
      });
      await store().undoRun();
    });
    expect(shown()).toContain('Could not undo: 1 task removed.');
    await followsLanguage(() => errorText({ message: '', sentence: folderGone }));

    // A copy whose answer is broken (not one of main's errors): the page's own sentence.
    vi.spyOn(main.api, 'invoke').mockResolvedValueOnce(undefined as never);
    await act(() => store().copyTaskId('seed-000000'));
    await followsLanguage(() => t('tasks.copyFailed'));

    // A gallery delete that moved one image of two: the count and main's sentence.
    const unreadable = sentence('error.gallery.imageUnreadable');
    request['gallery:deleteImages'].handle(() => ({
      items: [],
      failed: 1,
      problem: englishText(unreadable),
      problemSentence: unreadable,
    }));
    const refs = [
      { localId: 'seed-000000', index: 0 },
      { localId: 'seed-000001', index: 0 },
    ];
    await act(() => deleteWithUndo(refs));
    await followsLanguage(() =>
      t('gallery.announce.partly', {
        done: 1,
        count: 2,
        problem: errorText({ message: '', sentence: unreadable }),
      }),
    );
  });
});
