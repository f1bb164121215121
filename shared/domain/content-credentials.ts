/**
 * What an image's C2PA Content Credentials (the manifest a service signs its output with) said
 * when Pictor verified them. Kept in the image's record (history, `pictor.json`), shown in the
 * viewer and the task details, filtered on in the gallery, printed by `pictor info`.
 *
 * - `none`: the file carries no manifest store;
 * - `valid`: the signature and the hashes check out; `trusted` when the signer's certificate
 *   chains to a trust list Pictor ships, else a valid signature by a signer Pictor cannot vouch for;
 * - `invalid`: the manifest is there but does not verify (the codes say why, C2PA's own words);
 * - `unreadable`: a manifest store is there but could not be read within the limits, or (`remote`)
 *   the file names one kept online, which Pictor does not fetch.
 *
 * Every text is the signer's, so it is bounded here; a value that does not parse is dropped on read
 * (the record keeps its image, the credentials show as not checked).
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { cleanNameSchema, shownNameSchema } from '../text/shown-name.ts';

/** A name from a certificate or a manifest (a signer, an issuer, a generator). */
export const MAX_CREDENTIAL_NAME_CHARS = 200;
/** Validation codes kept per image (`assertion.dataHash.mismatch`, …). */
export const MAX_CREDENTIAL_CODES = 16;

const code = () =>
  z
    .string()
    .max(100)
    .regex(/^[A-Za-z0-9._-]+$/);

/**
 * Each state's fields, shared by the record's schema and the strict one a verifier answer meets;
 * `name` is how a name is taken (shared/text/shown-name.ts): cleaned when read back, refused
 * unless already clean in an answer.
 */
function states(name: z.ZodType<string>) {
  return {
    VALID: {
      state: z.literal('valid'),
      /** The signing certificate's organisation, else its common name. */
      signer: name,
      /** The tool that made the manifest (its claim generator), when it names one. */
      generator: name.optional(),
      trusted: z.boolean(),
      /** The manifest says the content was made by a trained model (IPTC digital source type). */
      aiGenerated: z.boolean(),
    },
    INVALID: {
      state: z.literal('invalid'),
      codes: z.array(code()).max(MAX_CREDENTIAL_CODES),
      signer: name.optional(),
    },
  };
}
const none = () => ({ state: z.literal('none') });
const unreadable = () => ({
  state: z.literal('unreadable'),
  /** The store is not in the file but online, at an address its XMP names: never fetched. */
  remote: z.literal(true).optional(),
});
/** What an image's record keeps. Built on first use (lazy-schema.ts), as the verdict's schema. */
export const contentCredentialsSchema = lazySchema(() => {
  const record = states(shownNameSchema(MAX_CREDENTIAL_NAME_CHARS));
  return z.discriminatedUnion('state', [
    z.object(none()),
    z.object(record.VALID),
    z.object(record.INVALID),
    z.object(unreadable()),
  ]);
});
export type ContentCredentials = z.infer<ReturnType<typeof contentCredentialsSchema>>;

/** A verifier's verdict on a file that carries a store: never `none` (the finding of the core). */
export type CredentialVerdict = Exclude<ContentCredentials, { state: 'none' }>;

/**
 * A verdict from a place that read hostile bytes (the sandboxed image renderer's page): exactly
 * these fields, each within the record's limits, nothing else. It says what the page says, and
 * only keeps that from reaching the record in a shape the record could not hold.
 */
export const credentialVerdictSchema = lazySchema(() => {
  const answer = states(cleanNameSchema(MAX_CREDENTIAL_NAME_CHARS));
  return z.discriminatedUnion('state', [
    z.strictObject(answer.VALID),
    z.strictObject(answer.INVALID),
    z.strictObject(unreadable()),
  ]);
});

/** Whether the image carries a manifest store at all (the gallery's "has Content Credentials"). */
export function hasContentCredentials(credentials: ContentCredentials | undefined): boolean {
  return credentials !== undefined && credentials.state !== 'none';
}

/**
 * What the credentials say first, the way Content Credentials tools lead with it: a signer on
 * the trust list Pictor ships (`trusted`), a valid signature by a signer Pictor cannot vouch for
 * (`unverified`: the name is only the signer's own claim), a manifest that does not verify
 * (`tampered`: the file or the manifest changed after signing), a store that could not be read,
 * or none at all.
 */
export type VerdictKind = 'trusted' | 'unverified' | 'tampered' | 'unreadable' | 'none';

export function verdictKind(credentials: ContentCredentials): VerdictKind {
  switch (credentials.state) {
    case 'valid':
      return credentials.trusted ? 'trusted' : 'unverified';
    case 'invalid':
      return 'tampered';
    default:
      return credentials.state;
  }
}

/**
 * What a record read from a folder or an archive anyone could have written may keep of a verdict:
 * "no credentials" claims nothing, so it stays; a signer's name, trusted or not, is only believed
 * from Pictor's own verification, so any other verdict is dropped (shown as not checked).
 */
export function verdictFromDisk(
  credentials: ContentCredentials | undefined,
): ContentCredentials | undefined {
  return credentials?.state === 'none' ? credentials : undefined;
}
