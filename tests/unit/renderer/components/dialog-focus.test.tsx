/**
 * A dialog keeps the focus when what had it inside goes away (a form closed on Save): the focus
 * goes to the dialog, not to the page, so Escape and Tab still reach it; a focus another dialog
 * took stays there.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Dialog } from '../../../../renderer/components/dialog';
import { UNTIL } from '../../../support/waits';

function Swapping({ onClose }: { onClose: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <Dialog title="Outer" onClose={onClose}>
      {open ? (
        <button type="button" onClick={() => setOpen(false)}>
          Done
        </button>
      ) : (
        <p>Closed</p>
      )}
    </Dialog>
  );
}

describe('a dialog whose focused control goes', () => {
  it('takes the focus itself, and Escape still closes it', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<Swapping onClose={onClose} />);
    const done = screen.getByRole('button', { name: 'Done' });
    act(() => done.focus());
    await user.click(done);
    await screen.findByText('Closed');
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('dialog')), UNTIL);
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('leaves a focus that moved elsewhere where it is', async () => {
    const outside = document.createElement('button');
    document.body.append(outside);
    render(<Swapping onClose={() => undefined} />);
    act(() => outside.focus());
    // A click that moves no focus: the control goes while the focus is elsewhere.
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await screen.findByText('Closed');
    await Promise.resolve();
    expect(document.activeElement).toBe(outside);
    outside.remove();
  });
});
