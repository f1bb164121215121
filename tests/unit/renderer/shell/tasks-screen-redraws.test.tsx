/**
 * What draws the Tasks screen (its view and its compose form) again: a change the screen shows,
 * and not the window's changes that are not its own. The gallery drawn in the background once
 * the window is idle after start, and moving between the other screens, leave it as drawn; before,
 * each redrew the screen and its whole form (about 150 components) because the window made them
 * anew. Counted, not timed: how many times TasksView and ComposeForm were drawn.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement, Profiler } from 'react';
import { ComposeForm } from '../../../../renderer/features/compose/compose-form';
import type * as ComposeFormModule from '../../../../renderer/features/compose/compose-form';
import { TasksView } from '../../../../renderer/features/tasks/tasks-view';
import type * as TasksViewModule from '../../../../renderer/features/tasks/tasks-view';
import { useAppStore } from '../../../../renderer/store/app-store';
import { okValue } from '../../../support/ipc';
import { makeImage } from '../../../support/task-records';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

// Each drawing of the two is counted by a wrapper that draws the real one; every commit that
// drew anything in the Tasks screen (a part that follows the store included) by a Profiler.
const commits = vi.hoisted(() => ({ tasks: 0 }));
vi.mock('../../../../renderer/features/compose/compose-form', async (importOriginal) => {
  const actual = await importOriginal<typeof ComposeFormModule>();
  return {
    ...actual,
    ComposeForm: vi.fn((props: Parameters<typeof actual.ComposeForm>[0]) =>
      createElement(actual.ComposeForm, props),
    ),
  };
});
vi.mock('../../../../renderer/features/tasks/tasks-view', async (importOriginal) => {
  const actual = await importOriginal<typeof TasksViewModule>();
  return {
    ...actual,
    TasksView: vi.fn((props: Parameters<typeof actual.TasksView>[0]) =>
      createElement(
        Profiler,
        { id: 'tasks', onRender: () => void (commits.tasks += 1) },
        createElement(actual.TasksView, props),
      ),
    ),
  };
});

const fileMain = sharedWiredMain();
const drawn = () => ({
  tasksView: vi.mocked(TasksView).mock.calls.length,
  tasksCommits: commits.tasks,
  composeForm: vi.mocked(ComposeForm).mock.calls.length,
});
const state = () => useAppStore.getState();

/** The idle callbacks the window asked for, run when the test says (the window "idle"). */
let waiting: Array<() => void> = [];

describe('the Tasks screen is drawn again only for its own changes', () => {
  beforeEach(() => {
    waiting = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => waiting.push(callback));
    vi.stubGlobal('cancelIdleCallback', () => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.mocked(TasksView).mockClear();
    vi.mocked(ComposeForm).mockClear();
  });

  it('not when the gallery is drawn in the background once the window is idle', async () => {
    // Tasks with images (the gallery's first page brings the listed tasks again) and a template
    // library (the gallery's template filter reads it again).
    const { main } = await startWiredApp({
      main: fileMain,
      prepare: (wired) => void seedHistory(wired, 40, () => ({ images: [makeImage(0)] })),
    });
    await act(async () => {
      expect(await state().templatesSaveWordList('colour', 'red\nblue')).toBe(true);
      expect(await state().templatesSave({ name: 'Cats', body: 'a [colour] cat' })).toBe(true);
    });
    // What the window still had coming after start: the list's next page, the form's estimate.
    await waitFor(() => expect(state().tasksIds.length).toBeGreaterThan(30));
    await waitFor(() => expect(state().costPreview).not.toBeNull());
    await waitFor(() => expect(waiting.length).toBeGreaterThan(0));
    expect(drawn().composeForm).toBeGreaterThan(0);
    const before = drawn();
    const listed = main.callsTo('templates:list').length;
    act(() => waiting.splice(0).forEach((callback) => callback()));
    await waitFor(() => expect(state().galleryStatus).toBe('ready'));
    expect(state().galleryTotal).toBe(40);
    // Its filters read the library again: the same templates, kept as held.
    const filters = screen.getByRole('search', { name: 'Filter the gallery', hidden: true });
    await waitFor(() => within(filters).getByRole('combobox', { name: 'Template', hidden: true }));
    expect(main.callsTo('templates:list').length).toBeGreaterThan(listed);
    expect(drawn()).toEqual(before);
  });

  it('not when moving between the other screens; yes when it is shown again', async () => {
    const { main } = await startWiredApp({ main: fileMain });
    // Costs and Settings read again, when first drawn, what the form shows too (the prices and
    // caps of its estimate, the kept workflows of its model field): counted when answered.
    const rereads = ['costs:prices', 'costs:caps', 'workflows:list'] as const;
    let answered = 0;
    for (const channel of rereads) {
      main.intercept.request[channel].handle(async (_input, ofMain) => {
        const answer = okValue(await ofMain());
        answered += 1;
        return answer as never;
      });
    }
    await waitFor(() => expect(state().costPreview).not.toBeNull());
    act(() => state().setView('gallery'));
    await waitFor(() => expect(state().galleryStatus).toBe('ready'));
    const before = drawn();
    const asked = answered;
    act(() => state().setView('costs'));
    act(() => state().setView('settings'));
    await waitFor(() => expect(document.querySelectorAll('.app__view')).toHaveLength(4));
    await waitFor(() => expect(answered).toBeGreaterThanOrEqual(asked + rereads.length));
    await act(async () => undefined);
    act(() => state().setView('gallery'));
    expect(drawn()).toEqual(before);
    // The screen learns it is shown again (its keys and focus follow `active`).
    act(() => state().setView('tasks'));
    expect(drawn().tasksView).toBe(before.tasksView + 1);
    expect(drawn().composeForm).toBe(before.composeForm + 1);
  });
});
