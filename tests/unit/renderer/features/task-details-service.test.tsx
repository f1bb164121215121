/**
 * Task details name the service (its address on hover, and copied by a button), say where a cost
 * comes from in words, and remark on an image that is not the size asked for.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeImage } from '../../../support/task-records';
import { seedHistory, startWiredApp } from '../render-wired-app';

describe('task details', () => {
  it('name the service, give its address on hover and by a button', async () => {
    const { user, main } = await startWiredApp({
      prepare: (m) =>
        void seedHistory(m, 1, () => ({
          status: 'completed',
          provider: 'fal',
          endpoint: 'https://queue.fal.run',
          cost: { source: 'reported', micros: 40_000, unit: 'USD', field: 'usage.cost' },
          request: { prompt: 'A lighthouse', size: '1024x1024' },
          images: [makeImage(0, { width: 256, height: 256 }), makeImage(1)],
        })),
    });
    const row = screen.getAllByRole('article')[0]!;
    await user.click(within(row).getByRole('button', { name: 'Details' }));
    const dialog = screen.getByRole('dialog', { name: 'Task details' });
    const service = within(dialog).getByText('Service').nextElementSibling as HTMLElement;
    expect(service.textContent).toBe('fal.ai');
    expect(within(service).getByText('fal.ai').getAttribute('title')).toBe('https://queue.fal.run');
    await user.click(within(service).getByRole('button', { name: 'Copy the service’s address' }));
    // Main put it on the clipboard (the OS stand-in records it).
    expect(main.os.calls).toContainEqual({ action: 'copyText', arg: 'https://queue.fal.run' });
    expect(
      await within(screen.getByRole('status', { name: 'Done' })).findByText(
        'Service address copied.',
      ),
    ).toBeTruthy();

    // The cost's source in words; the field the service said it in, on hover only.
    const cost = within(dialog).getByText('Cost').nextElementSibling as HTMLElement;
    expect(cost.textContent).toBe('$0.04, reported by the service');
    expect(within(cost).getByText('$0.04, reported by the service').getAttribute('title')).toBe(
      'usage.cost',
    );

    // The image sent at another size than asked for is remarked on; the other is not.
    const remarks = dialog.querySelectorAll('.details-images__remark');
    expect([...remarks].map((remark) => remark.textContent)).toEqual([
      'The service sent 256×256, not the 1024×1024 asked for.',
    ]);
  });
});
