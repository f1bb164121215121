/**
 * Every sentence Pictor shows comes from the catalogue: a record's stored English `message` is
 * never on screen where the record carries its sentence. Records with every kind of stored
 * failure (task errors, holds, image errors, a batch) are shown in German on every view that
 * can show them (the task rows, each task's details, the gallery, the viewer over Gallery and
 * over Tasks, the live region's announcements), and the rendered page, its text and its
 * titles, labels and alt texts, is scanned for the English words. The service's own words (a
 * failure it explained, which has no sentence) are shown quoted, after a German lead-in.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImageRecord, TaskError, TaskRecord } from '../../../../shared/domain/task-record';
import { MainCatalogue } from '../../../../shared/i18n/main-catalogue';
import { MAIN_TRANSLATIONS } from '../../../../shared/i18n/main-translations';
import { englishText, sentence, type Sentence } from '../../../../shared/i18n/sentence';
import { localeInfo, type LocaleInfo } from '../../../../shared/domain/locales';
import { applyLocale, t } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectGalleryItems } from '../../../../renderer/store/record-selectors';
import { makeImage, makeTask } from '../../../support/task-records';
import type { WiredApi } from '../../../support/wired-api';
import { startWiredApp } from '../render-wired-app';

afterEach(async () => {
  await applyLocale('en');
});

const german = new MainCatalogue(localeInfo('de') as LocaleInfo, MAIN_TRANSLATIONS['de']);
const START = Date.UTC(2026, 0, 15, 12, 0, 0);

function taskError(kind: TaskError['kind'], said: Sentence): TaskError {
  return { kind, message: englishText(said), sentence: said, detail: 'HTTP 402 body' };
}

function imageError(state: ImageRecord['state'], index: number, said: Sentence): ImageRecord {
  return makeImage(index, {
    state,
    file: undefined,
    thumbnail: undefined,
    error: englishText(said),
    errorSentence: said,
  });
}

/** Every kind of stored failure a record can carry, each with its sentence. */
const SENTENCES = {
  withheld: sentence('error.service.failureWithheld'),
  credits: sentence('error.service.noCredits'),
  unknown: sentence('error.service.taskUnknown'),
  keyRefused: sentence('error.service.authRefusedQuery', { status: '401' }),
  rejected: sentence('error.service.rejectedSubmitReason', {
    status: '400',
    reason: 'prompt too long',
  }),
  expired: sentence('error.gallery.imageExpired', { status: '403' }),
  undecodable: sentence('error.gallery.imageUndecodable'),
};

function records(): TaskRecord[] {
  const at = (n: number) => ({ createdAt: START - n * 60_000, localId: `rec-${n}` });
  return [
    makeTask({ ...at(0), status: 'failed', error: taskError('task_failed', SENTENCES.withheld) }),
    makeTask({
      ...at(1),
      status: 'submit_failed',
      taskId: null,
      error: taskError('credits', SENTENCES.credits),
    }),
    makeTask({ ...at(2), status: 'not_found', error: taskError('not_found', SENTENCES.unknown) }),
    makeTask({
      ...at(3),
      status: 'processing',
      hold: 'key_rejected',
      finishedAt: null,
      error: taskError('auth', SENTENCES.keyRefused),
    }),
    makeTask({
      ...at(4),
      status: 'completed',
      images: [
        makeImage(0),
        imageError('expired', 1, SENTENCES.expired),
        imageError('invalid', 2, SENTENCES.undecodable),
      ],
    }),
    // A batch of two ("Generate 2"): each tile has its own status line.
    ...[5, 6].map((n) =>
      makeTask({
        createdAt: START - 5 * 60_000,
        localId: `rec-${n}`,
        batchId: 'rec-5',
        status: 'submit_failed',
        taskId: null,
        error: taskError('bad_request', SENTENCES.rejected),
      }),
    ),
    // The service's own words: no sentence, shown quoted.
    makeTask({
      ...at(7),
      status: 'failed',
      error: { kind: 'task_failed', message: 'Content policy violation: nudity' },
    }),
  ];
}

/** Everything a user can read or hear on the page right now. */
function readable(): string {
  const attributes = [...document.querySelectorAll('[title], [aria-label], [alt]')].flatMap(
    (element) => ['title', 'aria-label', 'alt'].map((name) => element.getAttribute(name) ?? ''),
  );
  return [document.body.textContent ?? '', ...attributes].join('\n');
}

async function visitEveryView(main: WiredApi): Promise<string[]> {
  const seen: string[] = [];
  const state = useAppStore.getState;
  const look = async () => {
    // Let every update and effect settle before reading.
    await act(async () => undefined);
    seen.push(readable());
  };
  await screen.findByText('rec-7-prompt');
  await look();
  for (const record of records()) {
    act(() => state().tasksOpenDetails(record.localId));
    await screen.findByRole('dialog');
    await look();
    act(() => state().tasksOpenDetails(null));
  }
  act(() => state().tasksOpenViewer({ localId: 'rec-4', index: 0 }));
  await screen.findByRole('dialog', { name: t('viewer.label') });
  await look();
  act(() => state().tasksCloseViewer());
  act(() => state().setView('gallery'));
  await waitFor(() => expect(state().galleryStatus).toBe('ready'));
  await look();
  for (const item of selectGalleryItems(state())) {
    act(() => state().galleryOpenViewer(`${item.localId}/${String(item.index)}`));
    await look();
  }
  act(() => state().galleryCloseViewer());
  // Announcements: a task failing and a submit refused, as they happen. The records are main's
  // own (its history), sent as its task updates send them.
  const { history } = main.runtime.core;
  const live = makeTask({ localId: 'live', status: 'processing', finishedAt: null });
  history.put(live);
  await act(async () =>
    main.send('tasks:updated', [{ change: 'task', record: history.get('live')!, live: null }]),
  );
  history.put({
    ...live,
    status: 'failed',
    finishedAt: live.createdAt + 30_000,
    updatedAt: live.updatedAt + 1,
    error: taskError('task_failed', SENTENCES.withheld),
  });
  await act(async () =>
    main.send('tasks:updated', [{ change: 'task', record: history.get('live')!, live: null }]),
  );
  // The page heard both: the failure is announced, in German.
  const withheld = german.text(SENTENCES.withheld.key, SENTENCES.withheld.params);
  const spoken = () =>
    [...document.querySelectorAll('.visually-hidden[aria-live]')].map((el) => el.textContent);
  await waitFor(() => expect(spoken().join('\n')).toContain(withheld));
  await look();
  return seen;
}

describe('sentences in the user’s language', () => {
  it('no view shows a record’s English message where it carries a sentence', async () => {
    // Main's own history holds the records (tests/support/wired-api.ts).
    const { main } = await startWiredApp({
      prepare: (m) =>
        m.runtime.core.history.putMany(
          records().map((record) => ({
            ...record,
            request: { ...record.request, prompt: `${record.localId}-prompt` },
          })),
        ),
    });
    await act(() => applyLocale('de'));
    const pages = (await visitEveryView(main)).join('\n');
    const english = Object.values(SENTENCES).map((said) => englishText(said));
    for (const text of english) expect(pages).not.toContain(text);
    // Not vacuous: the German sentences were on screen instead.
    for (const said of Object.values(SENTENCES)) {
      expect(pages).toContain(german.text(said.key, said.params));
    }
    // The service's own words stay as it wrote them, after Pictor's German lead-in.
    expect(pages).toContain('Content policy violation: nudity');
    expect(pages).toContain(t('tasks.failed.serviceSaid'));
  });
});
