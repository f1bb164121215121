/**
 * "Purge rejects": main names the rejected images of a board (and the boards below it), of the
 * images the gallery's filters show (the Triage view's purge: the rejects the user is shown, as
 * Lightroom's "Delete Rejected Photos" takes the current view's), or of the whole library, with
 * their total size; the question says both, and a yes moves exactly those to Pictor's trash as
 * one step with Undo, through the gallery's delete (deleteWithUndo). None: a sentence.
 */
import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../components/dialog';
import { formatBytes, t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import type { ImageRef } from '../../store/gallery-delete';
import type { PurgeScope } from '../../store/triage-slice';
import { deleteWithUndo } from './use-image-actions';

const store = useAppStore.getState;

interface Question {
  readonly images: readonly ImageRef[];
  readonly bytes: number;
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
    if (found.images.length === 0) store().confirm(() => t('triage.purge.none'));
    else setQuestion(found);
  };
  const confirm = () => {
    if (!question) return;
    setQuestion(null);
    deleteWithUndo(question.images).catch((error: unknown) => store().showError(error));
  };
  const dialog = question ? (
    <ConfirmDialog
      title={t('triage.purge.title', { count: question.images.length })}
      body={t('triage.purge.body', { size: formatBytes(question.bytes) })}
      confirmLabel={t('triage.purge.confirm')}
      danger
      onConfirm={confirm}
      onCancel={() => setQuestion(null)}
    />
  ) : null;
  return { ask, asking: question !== null, dialog };
}
