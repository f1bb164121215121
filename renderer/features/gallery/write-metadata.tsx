/**
 * "Write metadata to files" in the selection's bar: main writes each selected image's rating and
 * tags into its file (a file with Content Credentials keeps its bytes: its .xmp sidecar has them),
 * and the status area says what came of it ("Wrote 12 files. 3 with Content Credentials keep
 * theirs in the .xmp beside them.").
 */
import type { RequestOutput } from '../../../shared/ipc/contract';
import { IconButton } from '../../components/icon-button';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import type { Words } from '../../store/status-slice';
import type { GallerySelectionState } from './gallery-selection-state';

/** What the write did, in sentences: written, then those left as they were, kept, or failed. */
function outcomeText(outcome: RequestOutput<'triage:writeMetadata'>): string {
  const { written, unchanged, withCredentials, failed } = outcome;
  return [
    t('triage.metadata.written', { count: written }),
    unchanged > 0 ? t('triage.metadata.unchanged', { count: unchanged }) : null,
    withCredentials > 0 ? t('triage.metadata.credentials', { count: withCredentials }) : null,
    failed > 0 ? t('triage.metadata.failed', { count: failed }) : null,
  ]
    .filter((part): part is string => part !== null)
    .join(' ');
}

export function WriteMetadataButton(props: {
  selection: Pick<GallerySelectionState, 'refs'>;
  run: (action: () => Promise<Words | null>) => Promise<void>;
  disabled: boolean;
}) {
  const write = () =>
    void props.run(async () => {
      const refs = await props.selection.refs(['saved']);
      if (refs.length === 0) return null;
      const outcome = await useAppStore.getState().boardsWriteMetadata(refs);
      return () => outcomeText(outcome);
    });
  return (
    // An icon with its name as its tooltip: the selection bar stays one row at 1280 px.
    <IconButton
      size="small"
      icon="image"
      label={t('triage.metadata.action')}
      disabled={props.disabled}
      onClick={write}
    />
  );
}
