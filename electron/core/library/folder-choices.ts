/**
 * The folders the user chose in the main process's own dialog for the library (Settings › Gallery
 * folder › Change), each under a random ticket the page can hand back but never make up. Only the
 * folder of the last, confirmed choice can be used: every pick ends the ticket before it (a
 * cancelled pick too), the page's question about it cancelled ends it, a dialog that closes after
 * a later pick began gives none, and a ticket is taken once, within {@link FOLDER_TICKET_TTL_MS}
 * on the clock. The IPC handlers keep none of this.
 */
import { randomBytes } from 'node:crypto';
import { sentence } from '../../../shared/i18n/sentence';
import type { Clock } from '../../ports/clock';
import { UserFacingError } from '../errors';

/** How long a ticket stays usable: the confirmation the page shows, with time to read it. */
export const FOLDER_TICKET_TTL_MS = 10 * 60_000;

/** A ticket that is not the last choice's, was used, or expired. */
class FolderChoiceExpired extends UserFacingError {
  override readonly name = 'FolderChoiceExpired';
}

export class FolderChoices {
  /** The folder the dialog returned last, under its ticket and when it was given; used once. */
  private picked: { ticket: string; path: string; at: number } | null = null;
  /** Counts picks, so a dialog that closes after a later pick began gives no ticket. */
  private picks = 0;

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  /** Asks `choose` (the dialog) for a folder; its ticket, or null when none or a later pick began. */
  async pick(
    choose: () => Promise<string | null>,
  ): Promise<{ ticket: string; path: string } | null> {
    this.picked = null;
    const pick = ++this.picks;
    const path = await choose();
    if (path === null || pick !== this.picks) return null;
    const ticket = randomBytes(16).toString('hex');
    this.picked = { ticket, path, at: this.clock.now() };
    return { ticket, path };
  }

  /**
   * Ends the last choice's ticket: the user cancelled the question about that folder, so a page
   * that kept the ticket cannot spend it on a folder they turned down.
   */
  cancel(): void {
    this.picked = null;
  }

  /**
   * The folder under `ticket`, which ends with it.
   * @throws FolderChoiceExpired for any other ticket, a used one or one past its time.
   */
  take(ticket: string): string {
    const choice = this.picked;
    // A clock set back counts as expired too: the ticket's age is then unknown.
    const age = choice === null ? -1 : this.clock.now() - choice.at;
    if (age < 0 || age > FOLDER_TICKET_TTL_MS) this.picked = null;
    // Another ticket leaves the last choice's as it was: the page cannot spend it by guessing.
    if (this.picked === null || choice?.ticket !== ticket) {
      throw new FolderChoiceExpired(sentence('error.gallery.folderChoiceExpired'));
    }
    this.picked = null;
    return choice.path;
  }
}
