/**
 * The one record the key vault keeps on disk: the encrypted key and how it was protected.
 * Parsed with zod on every read, so a hand-edited or truncated file is "damaged", never trusted.
 */
import { z } from 'zod';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * What the service said of the key when Pictor last asked it (the check made on Save, or "Test
 * connection" of the stored key), and when. Absent: not checked yet (saved without a check, or
 * by a version that kept no checks).
 */
const keyCheckMarkSchema = z.object({
  outcome: z.enum(['accepted', 'refused']),
  at: z.number(),
});
export type KeyCheckMark = z.infer<typeof keyCheckMarkSchema>;

export const keyRecordSchema = z.object({
  version: z.literal(1),
  /** The encrypted key, base64; for a `plaintext` record the key's UTF-8 bytes, base64. */
  ciphertext: z.string().min(1).max(65_536).regex(BASE64),
  /** The cipher backend that wrote it (`keychain`, `dpapi`, `gnome_libsecret`, …, `plaintext`). */
  backend: z.string().min(1).max(100),
  /** True when the storage is effectively plain text (the user consented to it). */
  weak: z.boolean(),
  /** keyFingerprint of the key: lets a decrypt be checked, and shown without decrypting. */
  fingerprint: z.string().regex(/^[0-9a-f]{12}$/),
  storedAt: z.number(),
  /** Present only when the OS offered no encryption at all and the user consented. */
  plaintext: z.literal(true).optional(),
  /**
   * The service base URL the key was entered for (checkBaseUrl's spelling): it is sent only
   * under it. `null`: entered before any service address was set (bound when the user confirms
   * one). Absent: written by an earlier version; see `origin` and legacy-key-binding.ts.
   */
  baseUrl: z.string().max(2_100).nullable().optional(),
  /**
   * Written by the version that bound keys to an origin only, read once to bind the key to that
   * origin's base URL; never written now. Absent in both: a version before any binding.
   */
  origin: z.string().max(2_100).nullable().optional(),
  /**
   * The last check of this key at `baseUrl` (dropped when the key is bound elsewhere). Added in
   * version 1 as an optional field, so a record without it reads as it did and an earlier
   * version still reads one with it (ignoring it).
   */
  check: keyCheckMarkSchema.optional(),
});
export type KeyRecord = z.infer<typeof keyRecordSchema>;

/** The key under which the record lives in key-vault.json. */
export const KEY_RECORD_NAME = 'apiKey';

/** Backend name recorded when the key is stored without any encryption. */
export const PLAINTEXT_BACKEND = 'plaintext';

/** The record for an encrypted key. */
export function encryptedRecord(
  ciphertext: Buffer,
  facts: {
    backend: string;
    weak: boolean;
    fingerprint: string;
    storedAt: number;
    baseUrl: string | null;
    check?: KeyCheckMark;
  },
): KeyRecord {
  return { version: 1, ciphertext: ciphertext.toString('base64'), ...facts };
}

/** The record for a key kept without encryption (only after explicit consent). */
export function plaintextRecord(
  key: string,
  facts: { fingerprint: string; storedAt: number; baseUrl: string | null; check?: KeyCheckMark },
): KeyRecord {
  return {
    version: 1,
    ciphertext: Buffer.from(key, 'utf8').toString('base64'),
    backend: PLAINTEXT_BACKEND,
    weak: true,
    plaintext: true,
    ...facts,
  };
}
