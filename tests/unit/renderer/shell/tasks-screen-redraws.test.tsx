/**
 * What draws the Tasks screen (its view and its compose form) again: a change the screen shows,
 * and not the window's changes that are not its own. The gallery drawn in the background once
 * the window is idle after start, and moving between the other screens, leave it as drawn; before,
 * each redrew the screen and its whole form (about 150 components) because the window made them
 * anew. Counted, not timed: how many times TasksView and ComposeForm were drawn.
 */
import { act, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement } from 'react';
import { ComposeForm } from '../../../../renderer/features/compose/compose-form';
import type * as ComposeFormModule from '../../../../renderer/features/compose/compose-form';
import { TasksView } from '../../../../renderer/features/tasks/tasks-view';
import type * as TasksViewModule from '../../../../renderer/features/tasks/tasks-view';
import { useAppStore } from '../../../../renderer/store/app-store';
import { startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

// Each drawing of the two is counted by a wrapper that draws the real one.
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
      createElement(actual.TasksView, props),
    ),
  };
});

const fileMain = sharedWiredMain();
const drawn = () => ({
  tasksView: vi.mocked(TasksView).mock.calls.length,
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
    await startWiredApp({ main: fileMain });
    await waitFor(() => expect(waiting.length).toBeGreaterThan(0));
    expect(drawn().composeForm).toBeGreaterThan(0);
    const before = drawn();
    act(() => waiting.splice(0).forEach((callback) => callback()));
    await waitFor(() => expect(state().galleryStatus).toBe('ready'));
    expect(document.querySelectorAll('.app__view')).toHaveLength(2);
    expect(drawn()).toEqual(before);
  });

  it('not when moving between the other screens; yes when it is shown again', async () => {
    await startWiredApp({ main: fileMain });
    act(() => state().setView('gallery'));
    const before = drawn();
    act(() => state().setView('costs'));
    act(() => state().setView('settings'));
    act(() => state().setView('gallery'));
    await waitFor(() => expect(document.querySelectorAll('.app__view')).toHaveLength(4));
    expect(drawn()).toEqual(before);
    // The screen learns it is shown again (its keys and focus follow `active`).
    act(() => state().setView('tasks'));
    expect(drawn().tasksView).toBe(before.tasksView + 1);
    expect(drawn().composeForm).toBe(before.composeForm + 1);
  });
});
