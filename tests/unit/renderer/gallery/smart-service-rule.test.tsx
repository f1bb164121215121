/**
 * A smart board's service rule in the sidebar, over the app's real main: a board saved from the
 * gallery's Service filter lists what the filter listed (today's contract's images without the
 * built-in demo's) and reads "Service: Image task service"; a board an older Pictor saved with
 * the same service lists what it listed then, the demo's images standing in for the service too,
 * and says so (shared/domain/smart-service-rule.ts).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { keyOf } from './gallery-harness';
import { seedGallery, wiredGallery } from './gallery-wired';

const wired = wiredGallery();
const cells = (): string[] =>
  screen.queryAllByRole('gridcell').map((cell) => cell.dataset['key'] ?? '');
const sidebar = (): HTMLElement => screen.getByRole('navigation', { name: 'Library and boards' });

describe('a smart board’s service rule', () => {
  it('says and lists the service as the filter it was saved from, and an older board as it was', async () => {
    const { main, user } = await wired({
      prepare: (m) => {
        const { smartBoards } = m.runtime.core;
        for (const smart of smartBoards.list()) smartBoards.delete(smart.name);
        // Images 0 and 1 the demo's, 2 and 3 the user's own service's.
        seedGallery(m, 4, (n) => ({
          endpoint: n < 2 ? 'demo:' : 'https://images.example.com',
        }));
        smartBoards.create('Before', {
          match: 'all',
          items: [{ kind: 'service', provider: 'pictor' }],
        });
      },
    });
    await waitFor(() => expect(cells()).toHaveLength(4));
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Service' }),
      'Image task service',
    );
    await waitFor(() => expect(cells()).toEqual([2, 3].map(keyOf)));
    await user.click(within(sidebar()).getByRole('button', { name: 'Save as smart board…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save as smart board' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Now');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(main.runtime.core.smartBoards.get('Now').rules).toEqual({
      match: 'all',
      items: [{ kind: 'service', service: 'pictor' }],
    });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Service' }), 'All services');

    const smart = await screen.findByRole('tree', { name: 'Smart boards' });
    await user.click(within(smart).getByRole('treeitem', { name: 'Now' }));
    await waitFor(() => expect(cells()).toEqual([2, 3].map(keyOf)));
    const now = await screen.findByRole('list', { name: 'Rules of “Now”' });
    expect(now.textContent).toBe('Service: Image task service');

    await user.click(within(smart).getByRole('treeitem', { name: 'Before' }));
    await waitFor(() => expect(cells()).toEqual([0, 1, 2, 3].map(keyOf)));
    const before = await screen.findByRole('list', { name: 'Rules of “Before”' });
    expect(before.textContent).toBe(
      'Service: Image task service, or the built-in demo standing in for it',
    );
  });
});
