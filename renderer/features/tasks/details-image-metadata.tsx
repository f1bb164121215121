/**
 * What task details say of a saved image's metadata: its Content Credentials, and what Pictor
 * removed from it because it carried a held key, in the viewer's words (one label and sentence:
 * shared/i18n/key-removed.ts).
 */
import type { ImageRecord } from '../../../shared/domain/task-record';
import { KEY_REMOVED_LABEL, keyRemovedSentence } from '../../../shared/i18n/key-removed';
import { CredentialsSummary } from '../../components/content-credentials';
import { sentenceShown, t } from '../../i18n';

export function DetailsImageMetadata({ image }: { readonly image: ImageRecord }) {
  return (
    <>
      {image.contentCredentials ? (
        <div className="details-images__credentials">
          <span className="muted">{t('common.credentials.title')}</span>
          <CredentialsSummary credentials={image.contentCredentials} />
        </div>
      ) : null}
      {image.keyRemoved ? (
        <div className="details-images__credentials">
          <span className="muted">{sentenceShown(KEY_REMOVED_LABEL)}</span>
          <span>{sentenceShown(keyRemovedSentence(image.keyRemoved))}</span>
        </div>
      ) : null}
    </>
  );
}
