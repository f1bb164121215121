/**
 * The compose form's Service list names the service a submit sends its tasks to: while the
 * built-in demo stands in for today's contract (no address, or no key), its option is the demo's
 * (as the tasks are named on every screen after), and once the service is set up it is the
 * service's own name. Checked against what main is asked to submit, in one wired app.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { isDemoEndpoint } from '../../../../shared/domain/submit-target';
import type { WiredApi } from '../../../support/wired-api';
import { connectService } from '../dialect-services';
import { startWiredApp } from '../render-wired-app';

const DEMO_OPTION = 'Image task service (demo)';
const form = () => screen.getByRole('form', { name: 'New task' });
const serviceList = () => within(form()).getByRole('combobox', { name: 'Service' });
const prompt = () => within(form()).getByRole('textbox', { name: 'Prompt' });
const chosenName = () => {
  const list = serviceList() as HTMLSelectElement;
  return list.selectedOptions[0]?.textContent;
};

/** The endpoint of main's `at`-th submit (from 1). */
async function submittedEndpoint(main: WiredApi, at: number): Promise<string> {
  await waitFor(() => expect(main.callsTo('tasks:submit')).toHaveLength(at), { timeout: 10_000 });
  return main.callsTo('tasks:submit')[at - 1]!.target.endpoint;
}

describe('the compose form’s Service list', () => {
  it('names the built-in demo while it stands in for today’s contract, and the tasks go there', async () => {
    const { user, main } = await startWiredApp();
    expect(chosenName()).toBe(DEMO_OPTION);
    await user.type(prompt(), 'a red kite{Enter}');
    expect(isDemoEndpoint(await submittedEndpoint(main, 1))).toBe(true);
  });

  it('names the demo while the service has an address but no key, and the tasks go there', async () => {
    const { user, main } = await startWiredApp({
      prepare: async (main) => {
        await connectService(main, 'pictor', { key: null });
      },
    });
    // The service is named by its address's host until the user names it.
    expect(chosenName()).toMatch(/^127\.0\.0\.1:\d+ \(no key: demo\)$/);
    await user.type(prompt(), 'a red kite{Enter}');
    expect(isDemoEndpoint(await submittedEndpoint(main, 1))).toBe(true);
  });

  it('names the service itself once it has an address and a key, and the tasks go there', async () => {
    const { user, main } = await startWiredApp({
      prepare: async (main) => {
        await connectService(main, 'pictor');
      },
    });
    expect(chosenName()).not.toMatch(/demo/i);
    await user.type(prompt(), 'a red kite{Enter}');
    expect(isDemoEndpoint(await submittedEndpoint(main, 1))).toBe(false);
  });
});
