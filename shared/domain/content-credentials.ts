/**
 * What an image's C2PA Content Credentials (the manifest a service signs its output with) said
 * when Pictor verified them. Kept in the image's record (history, `pictor.json`), shown in the
 * viewer and the task details, filtered on in the gallery, printed by `pictor info`.
 *
 * - `none`: the file carries no manifest store;
 * - `valid`: the signature and the hashes check out; `trusted` when the signer's certificate
 *   chains to a trust list Pictor ships, else a valid signature by a signer Pictor cannot vouch for;
 * - `invalid`: the manifest is there but does not verify (the codes say why, C2PA's own words);
 * - `unreadable`: a manifest store is there but could not be read within the limits.
 *
 * Every text is the signer's, so it is bounded here; a value that does not parse is dropped on read
 * (the record keeps its image, the credentials show as not checked).
 */
import { z } from 'zod';

/** A name from a certificate or a manifest (a signer, an issuer, a generator). */
export const MAX_CREDENTIAL_NAME_CHARS = 200;
/** Validation codes kept per image (`assertion.dataHash.mismatch`, …). */
export const MAX_CREDENTIAL_CODES = 16;

const name = z.string().min(1).max(MAX_CREDENTIAL_NAME_CHARS);
const code = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9._-]+$/);

export const contentCredentialsSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('none') }),
  z.object({
    state: z.literal('valid'),
    /** The signing certificate's organisation, else its common name. */
    signer: name,
    /** The tool that made the manifest (its claim generator), when it names one. */
    generator: name.optional(),
    trusted: z.boolean(),
    /** The manifest says the content was made by a trained model (IPTC digital source type). */
    aiGenerated: z.boolean(),
  }),
  z.object({
    state: z.literal('invalid'),
    codes: z.array(code).max(MAX_CREDENTIAL_CODES),
    signer: name.optional(),
  }),
  z.object({ state: z.literal('unreadable') }),
]);
export type ContentCredentials = z.infer<typeof contentCredentialsSchema>;

/** Whether the image carries a manifest store at all (the gallery's "has Content Credentials"). */
export function hasContentCredentials(credentials: ContentCredentials | undefined): boolean {
  return credentials !== undefined && credentials.state !== 'none';
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
