import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TASKS_PER_SUBMIT } from '../../../../shared/domain/limits';
import { makeTask } from '../../../support/task-records';
import { startWiredApp } from '../render-wired-app';

const form = () => screen.getByRole('form', { name: 'New task' });
const prompt = () => within(form()).getByRole('textbox', { name: 'Prompt' });

describe('compose form', () => {
  it('starts from the defaults in settings', async () => {
    await startWiredApp({
      prepare: async (main) => {
        await main.runtime.updateSettings({
          defaultModel: 'gpt-image-1',
          defaultSize: '1536x1024',
          defaultQuality: 'ultra',
          defaultCount: 2,
        });
      },
    });
    expect(within(form()).getByRole('combobox', { name: 'Model' })).toHaveProperty(
      'value',
      'gpt-image-1',
    );
    expect(within(form()).getByRole('combobox', { name: 'Size' })).toHaveProperty(
      'value',
      '1536x1024',
    );
    // A default that is not a preset shows as a custom value.
    expect(within(form()).getByRole('combobox', { name: 'Quality' })).toHaveProperty(
      'value',
      '__custom__',
    );
    expect(within(form()).getByRole('textbox', { name: 'Custom quality' })).toHaveProperty(
      'value',
      'ultra',
    );
    expect(within(form()).getByRole('spinbutton', { name: 'Number of tasks' })).toHaveProperty(
      'value',
      '2',
    );
    expect(within(form()).getByRole('button', { name: /Generate 2/ })).toBeTruthy();
  });

  it('goes back to the default count after a submit, so a count of 3 is not sticky', async () => {
    const { user, main } = await startWiredApp({
      prepare: (main) => main.runtime.updateSettings({ defaultCount: 2 }).then(() => undefined),
    });
    const count = within(form()).getByRole('spinbutton', { name: 'Number of tasks' });
    await user.clear(count);
    await user.type(count, '3');
    await user.type(prompt(), 'three foxes');
    await user.click(within(form()).getByRole('button', { name: 'Generate 3' }));
    await waitFor(() => expect(main.callsTo('tasks:submit')).toHaveLength(1));
    expect(main.callsTo('tasks:submit')[0]!.count).toBe(3);
    await waitFor(() => expect(count).toHaveProperty('value', '2'));
    expect(within(form()).getByRole('button', { name: 'Generate 2' })).toBeTruthy();
  });

  it('names the count field apart from the Tasks screen', async () => {
    await startWiredApp();
    expect(within(form()).getByRole('spinbutton', { name: 'Number of tasks' })).toBeTruthy();
    expect(within(form()).queryByLabelText('Tasks', { exact: true })).toBeNull();
  });

  it('checks a custom size as it is typed and says why it is refused', async () => {
    const { user } = await startWiredApp();
    await user.selectOptions(within(form()).getByRole('combobox', { name: 'Size' }), 'Custom…');
    const size = within(form()).getByRole('textbox', { name: /Custom size/ });
    expect(size).toHaveProperty('value', '1024x1024');
    await user.clear(size);
    await user.type(size, '1536');
    expect(size.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/two whole numbers with an x between them/)).toBeTruthy();
    await user.type(size, 'x0');
    expect(screen.getByText('Width and height must be at least 1.')).toBeTruthy();
    await user.type(size, '24');
    expect(size.getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByText('Width and height must be at least 1.')).toBeNull();
  });

  it('sends a custom size and quality in canonical form, count tasks in one request', async () => {
    const { user, main } = await startWiredApp();
    await user.type(prompt(), 'A red fox');
    await user.type(within(form()).getByRole('combobox', { name: 'Model' }), 'my-model');
    await user.selectOptions(within(form()).getByRole('combobox', { name: 'Size' }), 'Custom…');
    const size = within(form()).getByRole('textbox', { name: /Custom size/ });
    await user.clear(size);
    await user.type(size, '640 X 480');
    await user.selectOptions(within(form()).getByRole('combobox', { name: 'Quality' }), 'Custom…');
    const quality = within(form()).getByRole('textbox', { name: 'Custom quality' });
    await user.clear(quality);
    await user.type(quality, 'hd');
    const count = within(form()).getByRole('spinbutton', { name: 'Number of tasks' });
    await user.clear(count);
    await user.type(count, '3');
    await user.click(within(form()).getByRole('button', { name: /Generate 3/ }));
    await waitFor(() => expect(main.callsTo('tasks:submit')).toHaveLength(1));
    expect(main.callsTo('tasks:submit')[0]).toEqual({
      request: { prompt: 'A red fox', model: 'my-model', size: '640x480', quality: 'hd' },
      // No key yet: today's contract on the built-in demo, named by the form.
      target: { provider: 'pictor', endpoint: 'demo:' },
      count: 3,
    });
    // One submit's three tasks: one batch holding an article per task.
    const batch = await screen.findByRole('article', { name: 'Batch of 3 tasks from one submit' });
    await waitFor(() =>
      expect(within(batch).getAllByRole('article', { name: 'A red fox' })).toHaveLength(3),
    );
  });

  it('refuses a count outside 1–10 with the reason, and an empty custom quality', async () => {
    const { user, main } = await startWiredApp();
    await user.type(prompt(), 'x');
    const count = within(form()).getByRole('spinbutton', { name: 'Number of tasks' });
    await user.clear(count);
    await user.type(count, '11');
    expect(
      screen.getByText(
        `Choose a whole number from ${TASKS_PER_SUBMIT.min} to ${TASKS_PER_SUBMIT.max}.`,
      ),
    ).toBeTruthy();
    // The button names only a count it would send.
    expect(within(form()).getByRole('button', { name: 'Generate' })).toBeTruthy();
    expect(within(form()).queryByRole('button', { name: /Generate 11/ })).toBeNull();
    await user.click(within(form()).getByRole('button', { name: /Generate/ }));
    expect(document.activeElement).toBe(count);
    await user.clear(count);
    await user.type(count, '1');
    await user.selectOptions(within(form()).getByRole('combobox', { name: 'Quality' }), 'Custom…');
    const quality = within(form()).getByRole('textbox', { name: 'Custom quality' });
    await user.clear(quality);
    await user.click(within(form()).getByRole('button', { name: /Generate/ }));
    expect(screen.getByText('Type a quality value, or choose one from the list.')).toBeTruthy();
    expect(document.activeElement).toBe(quality);
    expect(main.callsTo('tasks:submit')).toEqual([]);
  });

  it('asks for a prompt when there is none', async () => {
    const { user } = await startWiredApp();
    await user.click(within(form()).getByRole('button', { name: /Generate/ }));
    expect(screen.getByRole('alert').textContent).toMatch(/Write a prompt first/);
    expect(document.activeElement).toBe(prompt());
  });

  it('has the focus in the prompt when the app starts', async () => {
    await startWiredApp();
    await waitFor(() => expect(document.activeElement).toBe(prompt()));
  });

  it('submits on Enter; Shift+Enter adds a line; the keys are shown', async () => {
    const { user, main } = await startWiredApp();
    expect(within(form()).getByText('Enter to generate · Shift+Enter for a new line')).toBeTruthy();
    await user.type(prompt(), 'line one{Shift>}{Enter}{/Shift}line two');
    expect(main.callsTo('tasks:submit')).toEqual([]);
    expect(prompt()).toHaveProperty('value', 'line one\nline two');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(main.callsTo('tasks:submit')).toHaveLength(1));
    expect(main.callsTo('tasks:submit')[0]!.request.prompt).toBe('line one\nline two');
  });

  it('names the Mac keys on macOS', async () => {
    await startWiredApp({ platform: 'darwin' });
    expect(
      within(form()).getByText('Return to generate · Shift-Return for a new line'),
    ).toBeTruthy();
  });

  it('keeps an Enter that ends an IME composition in the prompt', async () => {
    const { user, main } = await startWiredApp();
    await user.type(prompt(), 'かな');
    fireEvent.keyDown(prompt(), { key: 'Enter', isComposing: true });
    expect(main.callsTo('tasks:submit')).toEqual([]);
    fireEvent.keyDown(prompt(), { key: 'Enter' });
    await waitFor(() => expect(main.callsTo('tasks:submit')).toHaveLength(1));
  });

  it('still submits on Ctrl+Enter', async () => {
    const { user, main } = await startWiredApp();
    await user.type(prompt(), 'a prompt');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(main.callsTo('tasks:submit')).toHaveLength(1));
  });

  // Fault: the submit held back by the contract's interceptor, to see the form while it is pending.
  it('never blocks: tasks show at once and the next prompt can be written while a submit is pending', async () => {
    const { user, main } = await startWiredApp();
    const submit = main.intercept.request['tasks:submit'];
    const held = submit.hold();
    await user.type(prompt(), 'first prompt');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(submit.inputs).toHaveLength(1));
    expect(main.callsTo('tasks:submit')).toEqual([]);
    // While the first submit is unanswered, the form is usable.
    expect(within(form()).getByRole('button', { name: /Generate/ })).toHaveProperty(
      'disabled',
      false,
    );
    await user.clear(prompt());
    await user.type(prompt(), 'second prompt');
    expect(screen.getByText('Sending…')).toBeTruthy();
    // Main's events of the task wait, so its row shows main's answer as it came.
    const changes = main.intercept.event['tasks:updated'].hold();
    await held.pass(0);
    const row = await screen.findByRole('article');
    expect(within(row).getByText('first prompt')).toBeTruthy();
    expect(within(row).getByText('Sending')).toBeTruthy();
    // The prompt typed meanwhile is kept.
    expect(prompt()).toHaveProperty('value', 'second prompt');
    changes.release();
  });

  // Fault: a submit refused with a technical detail line (main's own refusals here carry none).
  it('shows a refused submit as a sentence with its details and keeps the prompt', async () => {
    const { user, main } = await startWiredApp();
    main.intercept.request['tasks:submit'].fail(
      {
        code: 'failed',
        message: 'No API key is set. Add one in Settings, then try again.',
        detail: 'engine: no credentials',
      },
      1,
    );
    await user.type(prompt(), 'a prompt');
    await user.keyboard('{Control>}{Enter}{/Control}');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('No API key is set. Add one in Settings, then try again.');
    await user.click(within(alert).getByText('Details'));
    expect(within(alert).getByText('engine: no credentials')).toBeTruthy();
    expect(prompt()).toHaveProperty('value', 'a prompt');
    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers models used before, most recent first', async () => {
    await startWiredApp({
      prepare: (main) =>
        main.runtime.core.history.putMany(
          ['newest', 'older', 'newest'].map((model, i) =>
            makeTask({
              createdAt: Date.UTC(2026, 0, 15) - i * 60_000,
              request: { prompt: `p${i}`, model },
            }),
          ),
        ),
    });
    const list = document.getElementById(
      within(form()).getByRole('combobox', { name: 'Model' }).getAttribute('list')!,
    )!;
    const options = [...list.querySelectorAll('option')].map((option) => option.value);
    expect(options).toEqual(['newest', 'older']);
  });
});
