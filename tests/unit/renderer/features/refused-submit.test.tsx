/**
 * A refused submit: what was typed stays in the form, account-level refusals
 * are one banner however many attempts and leave no row, a 400 row puts the request back in the
 * form for editing instead of sending it again, and a row's message can be read in full.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectTaskItems } from '../../../../renderer/store/record-selectors';
import { makeTask } from '../../../support/task-records';
import { connectService, SERVICE_KEY } from '../dialect-services';
import { giveOverflow } from '../layout-sizes';
import { startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

const form = () => screen.getByRole('form', { name: 'New task' });
const prompt = () => within(form()).getByRole('textbox', { name: 'Prompt' });
const banner = () => screen.queryByRole('region', { name: 'Request not sent' });
/** The newest task in the page's list (the one just submitted). */
const submitted = () => selectTaskItems(useAppStore.getState())[0]!.record;

const shared = sharedWiredMain();

/** The app over the file's main, its history holding `records`. */
function startWith(...records: TaskRecord[]) {
  return startWiredApp({
    main: shared,
    prepare: (main) => main.runtime.core.history.putMany(records),
  });
}

describe('a submit refused for the account', () => {
  it('gives the prompt back, shows one banner for every attempt and leaves no row', async () => {
    // Today's contract at a service of the user's own, which has since revoked the key.
    const { user, main } = await startWiredApp({
      prepare: async (main) => (await connectService(main, 'pictor')).revokeKey(SERVICE_KEY),
    });
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await user.type(prompt(), 'a storm over the lighthouse');
      await user.click(within(form()).getByRole('button', { name: /Generate/ }));
      await waitFor(() => expect(main.callsTo('tasks:submit')).toHaveLength(attempt));
      // The service's 401 gives the prompt back and counts the attempt in the one banner. Waiting
      // on the banner's count, not on the prompt alone: the prompt still holds the text for a
      // moment after the click, before the form empties it for the submit.
      const counted = attempt === 1 ? /refused the API key/ : `Refused ${attempt} times.`;
      await waitFor(() => expect(banner()?.textContent ?? '').toMatch(counted));
      await waitFor(() => expect(prompt()).toHaveProperty('value', 'a storm over the lighthouse'));
      // Its row was never kept: not in the list, not in the history.
      await waitFor(() => expect(screen.queryAllByRole('article')).toEqual([]));
      expect(main.runtime.core.history.taskIds({}, 10)).toEqual([]);
      await user.clear(prompt());
    }
    const banners = screen.getAllByRole('region', { name: 'Request not sent' });
    expect(banners).toHaveLength(1);
    expect(banners[0]!.textContent).toMatch(/refused the API key/);
    expect(banners[0]!.textContent).toMatch(/Refused 3 times\./);
    expect(screen.queryAllByText('a storm over the lighthouse', { selector: 'p' })).toEqual([]);
    await user.click(within(banners[0]!).getByRole('button', { name: 'Hide this notice' }));
    expect(banner()).toBeNull();
  });

  // Fault: the submit answered in main's place (the contract's interceptor), its refusal sent
  // before the answer.
  it('keeps the prompt when the refusal comes before the submit answers', async () => {
    const { user, main } = await startWiredApp({ main: shared });
    main.intercept.request['tasks:submit'].handle(({ request }) => {
      main.intercept.event['tasks:updated'].inject([
        {
          change: 'refused',
          localId: 'gone-1',
          request,
          kind: 'credits',
          message: 'The account has run out of credits (402).',
        },
      ]);
      return [];
    });
    await user.type(prompt(), 'a quiet harbour');
    await user.click(within(form()).getByRole('button', { name: /Generate/ }));
    await waitFor(() => expect(banner()?.textContent).toMatch(/no credits left/));
    expect(prompt()).toHaveProperty('value', 'a quiet harbour');
  });

  // Fault: a refusal of the sent task injected (the contract's interceptor) once the user has
  // started a new prompt.
  it('does not overwrite a new prompt the user started meanwhile', async () => {
    const { user, main } = await startWiredApp({ main: shared });
    await user.type(prompt(), 'first idea');
    await user.click(within(form()).getByRole('button', { name: /Generate/ }));
    await waitFor(() => expect(prompt()).toHaveProperty('value', ''));
    await user.type(prompt(), 'second idea');
    // Once the demo finished the real task: its later "processing" update would dismiss the banner.
    const sent = await waitFor(() => {
      expect(submitted().status).toBe('completed');
      return submitted();
    });
    main.intercept.event['tasks:updated'].inject([
      {
        change: 'refused',
        localId: sent.localId,
        request: sent.request,
        kind: 'network',
        message: 'Pictor could not reach the service, so nothing was sent.',
      },
    ]);
    await waitFor(() => expect(banner()?.textContent).toMatch(/could not reach the service/));
    expect(prompt()).toHaveProperty('value', 'second idea');
  });

  it('gives the prompt back when a task of the submit ends refused as a row (400)', async () => {
    // The built-in demo refuses a size beyond its largest side with a 400.
    const { user, main } = await startWiredApp({ main: shared });
    await user.type(prompt(), 'an impossible size');
    await user.selectOptions(within(form()).getByRole('combobox', { name: 'Size' }), 'Custom…');
    const size = within(form()).getByRole('textbox', { name: /Custom size/ });
    await user.clear(size);
    await user.type(size, '9999x9999');
    await user.click(within(form()).getByRole('button', { name: /Generate/ }));
    await waitFor(() => expect(main.callsTo('tasks:submit')).toHaveLength(1));
    // Waiting on the row's refusal in the page first, not on the prompt alone: the prompt still
    // holds the text after the click until main answers the submit and the form empties it, and
    // the service's 400 comes later still (under load, the history said "submitting" then).
    await waitFor(() =>
      expect(submitted()).toMatchObject({
        status: 'submit_failed',
        error: { kind: 'bad_request' },
      }),
    );
    await waitFor(() => expect(prompt()).toHaveProperty('value', 'an impossible size'));
    const [localId] = main.runtime.core.history.taskIds({}, 10);
    expect(main.runtime.core.history.get(localId!)).toMatchObject({
      status: 'submit_failed',
      error: { kind: 'bad_request' },
    });
    expect(banner()).toBeNull();
  });
});

describe('a row refused as invalid (400)', () => {
  it('puts the request back in the form to edit, and sends nothing', async () => {
    const { user, main } = await startWith(
      makeTask({
        localId: 'bad-1',
        taskId: null,
        status: 'submit_failed',
        request: { prompt: 'a cat in a hat', size: '9999x9999', quality: 'low' },
        error: { kind: 'bad_request', message: 'size must look like 1024x1024 (400).' },
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Edit and submit again' }));
    expect(prompt()).toHaveProperty('value', 'a cat in a hat');
    await waitFor(() => expect(document.activeElement).toBe(prompt()));
    expect(main.callsTo('tasks:submit')).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Submit again' })).toBeNull();
  });
});

describe('a row message', () => {
  it('can be read in full, as selectable text, in Task details', async () => {
    const long = `The service refused the request: ${'the prompt mentions something the policy does not allow; '.repeat(6)}end of message.`;
    // In a window it does not fit: the row cuts the service's words.
    giveOverflow('.task-row__quote');
    const { user } = await startWith(
      makeTask({
        localId: 'long-1',
        status: 'failed',
        error: { kind: 'task_failed', message: long, detail: 'policy_violation: rule 7' },
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Read all of the message' }));
    const dialog = screen.getByRole('dialog', { name: 'Task details' });
    const full = within(dialog).getByText(long);
    expect(full.textContent).toBe(long);
    expect(getComputedStyle(full).userSelect).not.toBe('none');
    expect(within(dialog).getByText('policy_violation: rule 7')).toBeTruthy();
  });

  it('offers no "Read all" for a short sentence with nothing more to read', async () => {
    await startWith(makeTask({ localId: 'done-1', status: 'completed' }));
    expect(screen.queryByRole('button', { name: 'Read all of the message' })).toBeNull();
  });

  it('offers no "Read all" when the line is not cut, detail or not (Details has it)', async () => {
    await startWith(
      makeTask({
        localId: 'short-1',
        status: 'failed',
        error: {
          kind: 'task_failed',
          message: `A reason long enough to pass sixty characters in all, but it fits.`,
          detail: 'HTTP 200, body {"status":"failed"}',
        },
      }),
    );
    expect(screen.getByText(/A reason long enough/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Read all of the message' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Details' })).toBeTruthy();
  });
});

describe('the model asked for and the one reported', () => {
  it('are both shown in Task details, with the reported seed', async () => {
    const { user } = await startWith(
      makeTask({
        localId: 'model-1',
        status: 'completed',
        request: { prompt: 'two models' },
        reportedModel: 'demo-image-1',
        seed: 4_294_967_295,
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Details' }));
    const dialog = screen.getByRole('dialog', { name: 'Task details' });
    const value = (label: string) =>
      within(dialog).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(value('Model asked for')).toBe('Service default');
    expect(value('Model used (as the service reported it)')).toBe('demo-image-1');
    // The seed it said it used, beside the model, digit for digit.
    // (followed by its Use this seed button)
    expect(value('Seed (as the service reported it)')).toBe('4294967295 Use this seed');
  });
});
