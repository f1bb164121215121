/**
 * What an image's Content Credentials (C2PA) said when Pictor verified them: one line
 * ("Signed by …, AI-generated") and one sentence of what it means. The signer's name is the
 * signer's own words, shown isolated (`<bdi>`); "trusted" says whether Pictor vouches for it.
 */
import type { ReactNode } from 'react';
import type { ContentCredentials } from '../../shared/domain/content-credentials';
import { t } from '../i18n';
import { sentenceWithNames } from './isolated-name';

/** The signer's and the generator's names are isolated in the sentences (isolated-name.tsx). */
function lines(credentials: ContentCredentials): { summary: ReactNode; meaning: ReactNode } {
  switch (credentials.state) {
    case 'valid': {
      const { signer, generator } = credentials;
      const made = generator ? (
        <> {sentenceWithNames('common.credentials.generator', {}, { generator })}</>
      ) : null;
      const meaning = credentials.trusted
        ? 'common.credentials.trusted'
        : 'common.credentials.untrusted';
      return {
        summary: sentenceWithNames(
          'common.credentials.valid',
          { ai: credentials.aiGenerated ? 'yes' : 'no' },
          { signer },
        ),
        meaning: (
          <>
            {sentenceWithNames(meaning, {}, { signer })}
            {made}
          </>
        ),
      };
    }
    case 'invalid':
      return {
        summary: t('common.credentials.invalid'),
        meaning: t('common.credentials.invalidMeaning', { codes: credentials.codes.join(', ') }),
      };
    case 'unreadable':
      return {
        summary: t('common.credentials.unreadable'),
        meaning: t(
          credentials.remote
            ? 'common.credentials.remoteMeaning'
            : 'common.credentials.unreadableMeaning',
        ),
      };
    default:
      return {
        summary: t('common.credentials.none'),
        meaning: t('common.credentials.noneMeaning'),
      };
  }
}

/** The verdict's line and its meaning; nothing for an image never checked (older records). */
export function CredentialsSummary({
  credentials,
}: {
  readonly credentials: ContentCredentials | undefined;
}) {
  if (!credentials) return null;
  const { summary, meaning } = lines(credentials);
  return (
    <span className={`credentials credentials--${credentials.state}`}>
      <span className="credentials__summary">{summary}</span>{' '}
      <span className="credentials__meaning muted">{meaning}</span>
    </span>
  );
}
