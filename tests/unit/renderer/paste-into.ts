/**
 * Puts a text into a field at once, as pasting it does: a click into the field (the caret at the
 * end of what it holds, as `user.type` starts), then one `paste` of the whole text, so the page
 * handles one input and redraws once. `user.type` sends the keys of every character and the page
 * redraws after each: about 5 ms of CPU a character on a Settings page, paid for nothing by a
 * test about what a field's value does rather than about typing it.
 */
import type userEvent from '@testing-library/user-event';

type User = ReturnType<typeof userEvent.setup>;

export async function pasteInto(user: User, field: HTMLElement, text: string): Promise<void> {
  await user.click(field);
  await user.paste(text);
}
