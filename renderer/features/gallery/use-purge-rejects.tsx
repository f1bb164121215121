/**
 * "Purge rejects": main names the rejected images of a board (and the boards below it), of the
 * images the gallery's filters show (the Triage view's purge: the rejects the user is shown, as
 * Lightroom's "Delete Rejected Photos" takes the current view's), or of the whole library, with
 * their total size; the question says both (and, for a board's or the library's, how many of
 * them the gallery does not show now), and a yes moves exactly those to Pictor's trash as one
 * step with Undo, through the gallery's delete (deleteWithUndo). None: a sentence.
 */
import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../components/dialog';
import { formatBytes, t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import type { ImageRef } from '../../store/gallery-delete';
import { itemKey } from '../../store/gallery-list-model';
import type { PurgeScope } from '../../store/triage-slice';
import { deleteWithUndo } from './use-image-actions';

const store = useAppStore.getState;

interface Question {
  readonly images: readonly ImageRef[];
  readonly bytes: number;
  /** How many of them the gallery's view and filters do not show now. */
  readonly hidden: number;
}

/**
 * How many of `images` (a board's or the library's rejects) the gallery does not show now: the
 * question says so, as it covers more than what is on screen. 0 when main cannot say.
 */
async function hiddenOf(images: readonly ImageRef[]): Promise<number> {
  const shown = await store().triageRejects('view');
  if (shown === null) return 0;
  const keys = new Set(shown.images.map(itemKey));
  return images.filter((image) => !keys.has(itemKey(image))).length;
}

export interface PurgeRejects {
  /** Asks main for the rejects of `scope`, then the user. */
  readonly ask: (scope: PurgeScope) => Promise<void>;
  /** The question is on screen. */
  readonly asking: boolean;
  readonly dialog: ReactNode;
}

export function usePurgeRejects(): PurgeRejects {
  const [question, setQuestion] = useState<Question | null>(null);
  const ask = async (scope: PurgeScope) => {
    const found = await store().triageRejects(scope);
    if (found === null) return;
    if (found.images.length === 0) {
      store().confirm(() => t('triage.purge.none'));
      return;
    }
    const hidden = scope === 'view' ? 0 : await hiddenOf(found.images);
    setQuestion({ ...found, hidden });
  };
  const confirm = () => {
    if (!question) return;
    setQuestion(null);
    deleteWithUndo(question.images).catch((error: unknown) => store().showError(error));
  };
  const dialog = question ? (
    <ConfirmDialog
      title={t('triage.purge.title', { count: question.images.length })}
      body={[
        t('triage.purge.body', { size: formatBytes(question.bytes) }),
        ...(question.hidden > 0 ? [t('triage.purge.hidden', { count: question.hidden })] : []),
      ].join(' ')}
      confirmLabel={t('triage.purge.confirm')}
      danger
      onConfirm={confirm}
      onCancel={() => setQuestion(null)}
    />
  ) : null;
  return { ask, asking: question !== null, dialog };
}
