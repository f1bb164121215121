/** What the renderer may know about the API key: never the key itself. */
import { z } from 'zod';
import { sentenceSchema } from '../i18n/sentence';
import { PROVIDER_IDS, perProvider } from './providers';
import { lazySchema } from './lazy-schema';

export const KEY_STATES = [
  /** No key stored: the demo service is used. */
  'not_set',
  /** Stored and readable. */
  'ready',
  /** The OS offers only weak storage (Linux basic_text, or none): storing needs the user's consent. */
  'needs_consent',
  /** The OS cannot encrypt at all right now; nothing is stored without consent. */
  'unavailable',
  /** A key is stored, but the Linux secret backend changed since; it must be entered again. */
  'backend_changed',
  /** A key is stored but cannot be decrypted (another machine or user, a reset keyring). */
  'decrypt_failed',
  /** The app is still starting; encryption is not ready yet. */
  'not_ready',
] as const;

/** Built on first use (lazy-schema.ts): loading the module (main's IPC contract does) builds none. */
export const keyStatusSchema = lazySchema(() =>
  z.object({
    state: z.enum(KEY_STATES),
    /** Short fingerprint of the stored key (see keyFingerprint), when one is stored. */
    fingerprint: z.string().nullable(),
    /** How the key is protected: 'keychain', 'dpapi', 'gnome_libsecret', 'kwallet5', 'basic_text', 'plaintext'… */
    backend: z.string(),
    /** True when the storage is effectively plain text. */
    weak: z.boolean(),
    /** A sentence for the user when something needs their attention. */
    message: z.string().nullable(),
    /** `message` as a catalogue sentence: the window shows it in its own language. */
    messageSentence: sentenceSchema().optional(),
    /**
     * The service base URL the key was entered for (`https://gateway.example/team-a`): the only
     * place it is ever sent. Null when it was stored before any service address was set.
     */
    baseUrl: z.string().max(2_100).nullable().optional(),
    /**
     * What the service said of the stored key when Pictor last asked it (on Save, or "Test
     * connection"), and when (ms since the epoch); null or absent: not checked yet. Settings shows
     * a tick only beside a key its service accepted.
     */
    check: z
      .object({ outcome: z.enum(['accepted', 'refused']), at: z.number() })
      .nullable()
      .optional(),
    /**
     * `ready`, and a decrypt of the stored key has waited on the OS's storage for a while (a
     * keychain prompt asked during the decrypt itself): the task list and exports wait with it.
     * Absent once it answers.
     */
    decrypting: z.literal(true).optional(),
  }),
);
export type KeyStatus = z.infer<ReturnType<typeof keyStatusSchema>>;

/** Every service's key status (shared/domain/providers.ts), never a key. */
export const keyStatusesSchema = lazySchema(() =>
  z.object(perProvider(PROVIDER_IDS, () => keyStatusSchema())),
);
export type KeyStatuses = z.infer<ReturnType<typeof keyStatusesSchema>>;
