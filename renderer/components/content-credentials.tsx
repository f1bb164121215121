/**
 * What an image's Content Credentials (C2PA) said when Pictor verified them, verdict first, as
 * Content Credentials tools show it: a mark and a headline in the verdict's colour (a signer on
 * Pictor's trust list, an unverified signer, credentials that were tampered with, unreadable,
 * none), one sentence of what it means, and C2PA's own codes behind a Details disclosure. The
 * signer's and the generator's names are their own words, each isolated (`<bdi>`); the colour
 * only repeats what the words say. The gallery's tiles carry the small mark
 * ({@link CredentialsMark}), its verdict in words for assistive technology.
 */
import type { ReactNode } from 'react';
import {
  verdictKind,
  type ContentCredentials,
  type VerdictKind,
} from '../../shared/domain/content-credentials';
import { t } from '../i18n';
import { Icon, type IconName } from './icon';
import { sentenceWithNames } from './isolated-name';
import './content-credentials.css';

/** Each verdict's mark: a check, a caution, a warning; plain words alone for the rest. */
const MARK: Record<VerdictKind, IconName | null> = {
  trusted: 'verified',
  unverified: 'warning',
  tampered: 'tampered',
  unreadable: 'info',
  none: null,
};

interface Lines {
  readonly headline: ReactNode;
  readonly meaning: ReactNode;
  /** AI-generated, as the manifest says (its signer's claim when the signer is unverified). */
  readonly ai: boolean;
}

function validLines(credentials: Extract<ContentCredentials, { state: 'valid' }>): Lines {
  const { signer, generator, trusted, aiGenerated } = credentials;
  const made = generator ? (
    <> {sentenceWithNames('common.credentials.generator', {}, { generator })}</>
  ) : null;
  return {
    headline: sentenceWithNames(
      trusted ? 'common.credentials.signedBy' : 'common.credentials.unverified',
      {},
      { signer },
    ),
    meaning: (
      <>
        {sentenceWithNames(
          trusted ? 'common.credentials.trusted' : 'common.credentials.untrusted',
          {},
          { signer },
        )}
        {made}
      </>
    ),
    ai: aiGenerated,
  };
}

/** The verdict's headline and meaning, in the window's words (the codes go to Details). */
function lines(credentials: ContentCredentials): Lines {
  switch (credentials.state) {
    case 'valid':
      return validLines(credentials);
    case 'invalid':
      return {
        headline: t('common.credentials.tampered'),
        meaning: t('common.credentials.tamperedMeaning'),
        ai: false,
      };
    case 'unreadable':
      return {
        headline: t('common.credentials.unreadable'),
        meaning: t(
          credentials.remote
            ? 'common.credentials.remoteMeaning'
            : 'common.credentials.unreadableMeaning',
        ),
        ai: false,
      };
    default:
      return {
        headline: t('common.credentials.none'),
        meaning: t('common.credentials.noneMeaning'),
        ai: false,
      };
  }
}

/** C2PA's own words for what failed, and the signer the broken manifest names, on request. */
function TamperedDetails({
  credentials,
}: {
  readonly credentials: Extract<ContentCredentials, { state: 'invalid' }>;
}) {
  const { codes, signer } = credentials;
  if (codes.length === 0 && signer === undefined) return null;
  return (
    <details className="credentials__details">
      <summary>{t('common.details')}</summary>
      {signer === undefined ? null : (
        <p>{sentenceWithNames('common.credentials.claimedSigner', {}, { signer })}</p>
      )}
      {codes.length === 0 ? null : (
        <>
          <p>{t('common.credentials.codes')}</p>
          <ul className="credentials__codes">
            {codes.map((code) => (
              <li key={code}>
                <code dir="ltr">{code}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </details>
  );
}

/** The verdict, its meaning and its details; nothing for an image never checked (older records). */
export function CredentialsSummary({
  credentials,
}: {
  readonly credentials: ContentCredentials | undefined;
}) {
  if (!credentials) return null;
  const kind = verdictKind(credentials);
  const { headline, meaning, ai } = lines(credentials);
  const mark = MARK[kind];
  return (
    <div className={`credentials credentials--${kind}`} data-verdict={kind}>
      <p className="credentials__verdict">
        {mark ? <Icon name={mark} className="credentials__icon" /> : null}
        <strong className="credentials__headline">{headline}</strong>
        {ai ? (
          <span className="credentials__tag">{t('common.credentials.aiGenerated')}</span>
        ) : null}
      </p>
      <p className="credentials__meaning">{meaning}</p>
      {credentials.state === 'invalid' ? <TamperedDetails credentials={credentials} /> : null}
    </div>
  );
}

/** The glyph beside "CR" on a tile: what the verdict is at a glance, not by colour alone. */
const TILE_GLYPH: Partial<Record<VerdictKind, IconName>> = {
  trusted: 'check',
  unverified: 'warning',
  tampered: 'tampered',
};

/**
 * The small Content Credentials mark of a tile whose image carries credentials: "CR" and the
 * verdict's glyph, named by the verdict (the tile's accessible name takes it in). Nothing for an
 * image with none, or never checked.
 */
export function CredentialsMark({
  credentials,
  corner = false,
}: {
  readonly credentials: ContentCredentials | undefined;
  /** Placed in the bottom inline-start corner of a tile (which is its containing block). */
  readonly corner?: boolean;
}) {
  if (!credentials || credentials.state === 'none') return null;
  const kind = verdictKind(credentials);
  const glyph = TILE_GLYPH[kind];
  return (
    <span
      className={`credentials-mark credentials-mark--${kind}${corner ? ' credentials-mark--corner' : ''}`}
      role="img"
      aria-label={t('common.credentials.mark', { verdict: kind })}
      title={t('common.credentials.mark', { verdict: kind })}
    >
      <span className="credentials-mark__cr" aria-hidden="true">
        CR
      </span>
      {glyph ? <Icon name={glyph} className="credentials-mark__glyph" /> : null}
    </span>
  );
}
