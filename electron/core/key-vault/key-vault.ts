/**
 * The API key, kept encrypted through a SecretCipher in its own small store, decrypted only when
 * a request needs it and never kept longer than that call. The renderer learns only a KeyStatus.
 */
import { keyFingerprint } from '../../../shared/domain/fingerprint';
import type { KeyStatus } from '../../../shared/domain/key-status';
import type { Clock } from '../../ports/clock';
import type { KeyValueStore } from '../../ports/key-value-store';
import { damagedFileSuffix } from '../../ports/key-value-store';
import { Emitter, type Event } from '../../ports/event';
import type { Logger } from '../../ports/logger';
import { silentLogger } from '../../ports/logger';
import type { DecryptedSecret, SecretCipher } from '../../ports/secret-cipher';
import type { KeyCheckMark, KeyRecord } from './key-record';
import { KEY_RECORD_NAME, encryptedRecord, keyRecordSchema, plaintextRecord } from './key-record';
import { keyMessages } from './key-messages';
import type { KeyFacts, KeyProblem } from './key-state';
import { computeKeyStatus, consentRefusal } from './key-state';
import { KeyVaultError, checkKeyText, isPlausibleKey } from '../secrets';
import { messageOf } from '../errors';

export interface KeyVaultOptions {
  /** The vault's own store (key-vault.json), never the settings store. */
  readonly store: KeyValueStore;
  readonly cipher: SecretCipher;
  readonly now: () => number;
  readonly logger?: Logger;
  /**
   * The timers a decrypt's wait is told by ({@link DECRYPT_NOTICE_MS}); absent (a command, which
   * has no window to tell), none is told.
   */
  readonly timers?: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
}

/**
 * How long a decrypt of the stored key may take before its status says it waits (`decrypting`):
 * the OS answers in milliseconds unless it asks the user, so a request's own decrypt tells the
 * window nothing, and one held by a prompt is said within a second.
 */
export const DECRYPT_NOTICE_MS = 750;

export interface SetKeyOptions {
  /** The user agreed to weak (basic_text) or no encryption. */
  readonly allowWeakStorage: boolean;
  /**
   * The service base URL the key is entered for (see service/key-binding.ts); the key is sent
   * only under it. `null` when no service address is set yet.
   */
  readonly baseUrl: string | null;
  /** The service's answer to the key's check at `baseUrl`; absent: stored without a check. */
  readonly check?: KeyCheckMark;
}

export class KeyVault {
  /** `undefined` until first read: the file is read lazily so construction never throws. */
  private record: KeyRecord | null | undefined;
  private problem: KeyProblem | null = null;
  private lastEmitted: string | null = null;
  /** Decrypts running longer than {@link DECRYPT_NOTICE_MS}: the status says `decrypting`. */
  private slowDecrypts = 0;
  private readonly logger: Logger;
  private readonly changed: Emitter<KeyStatus>;

  constructor(private readonly options: KeyVaultOptions) {
    this.logger = options.logger ?? silentLogger;
    this.changed = new Emitter({ name: 'key status changed', logger: this.logger });
  }

  status(): KeyStatus {
    const status = computeKeyStatus(this.facts());
    return this.slowDecrypts > 0 && status.state === 'ready'
      ? { ...status, decrypting: true }
      : status;
  }

  /**
   * Stores `raw` (trimmed). On weak or absent encryption without `allowWeakStorage` nothing is
   * stored and the answer is `needs_consent` / `unavailable`; before the app is ready, `not_ready`.
   * @throws KeyVaultError `invalid_key` (a sentence, never the key) or `not_saved`.
   */
  async setKey(raw: string, options: SetKeyOptions): Promise<KeyStatus> {
    const key = checkKeyText(raw);
    const fingerprint = await keyFingerprint(key);
    const facts = this.facts();
    const refusal = this.storageRefusal(options.allowWeakStorage);
    if (refusal !== null) return refusal;
    const storedAt = this.options.now();
    const { baseUrl, check } = options;
    const kept = { fingerprint, storedAt, baseUrl, ...(check ? { check } : {}) };
    const record = facts.available
      ? encryptedRecord(await this.encryptChecked(key), {
          backend: facts.backend,
          weak: facts.weak,
          ...kept,
        })
      : plaintextRecord(key, kept);
    this.save(record);
    this.problem = null;
    this.logger.info('API key stored', { backend: record.backend, weak: record.weak, baseUrl });
    return this.refresh();
  }

  /**
   * Why a key would not be stored now (before the app is ready: `not_ready`; weak or no
   * encryption without the user's consent: `needs_consent` / `unavailable`), or null when it
   * would be. Asked before a key is checked with its service, so the user is asked once.
   */
  storageRefusal(allowWeakStorage: boolean): KeyStatus | null {
    const facts = this.facts();
    if (!facts.ready) return computeKeyStatus(facts);
    const weakOrNone = !facts.available || facts.weak;
    return weakOrNone && !allowWeakStorage ? consentRefusal(facts) : null;
  }

  /**
   * Keeps what the service said of the stored key (Test connection), when it is still the key
   * with `fingerprint`, bound to `baseUrl`: a key replaced or bound elsewhere since keeps its own.
   * A file that cannot be written loses only the mark (logged).
   */
  recordCheck(fingerprint: string, baseUrl: string, outcome: KeyCheckMark['outcome']): KeyStatus {
    const record = this.loadRecord();
    if (record === null || record.fingerprint !== fingerprint || record.baseUrl !== baseUrl) {
      return this.status();
    }
    try {
      this.save({ ...record, check: { outcome, at: this.options.now() } });
    } catch {
      this.logger.warn('key check could not be recorded', { path: this.options.store.path });
    }
    return this.refresh();
  }

  /** When the stored key was stored (each key stored is a record of its own), if one is. */
  storedAt(): number | undefined {
    return this.loadRecord()?.storedAt;
  }

  /** True when a key record is stored (whether or not it can be read right now). */
  hasKey(): boolean {
    return this.loadRecord() !== null;
  }

  /**
   * The base URL the stored key is bound to: a string, `null` (stored before any service address
   * was set), or `undefined` when no key is stored or the record predates base URLs.
   */
  boundBaseUrl(): string | null | undefined {
    return this.loadRecord()?.baseUrl;
  }

  /**
   * What a record written before base URLs says: the origin it was bound to, `null` (none yet),
   * or `undefined` (no key, a record from before any binding, or one already bound to a base URL).
   */
  legacyOrigin(): string | null | undefined {
    const record = this.loadRecord();
    return record?.baseUrl === undefined ? record?.origin : undefined;
  }

  /**
   * Binds the stored key to `baseUrl`, after the user confirmed sending it there (or, once, for a
   * record written by an earlier version). The ciphertext is kept as it is.
   * @throws KeyVaultError `not_saved` when the file cannot be written.
   */
  bindBaseUrl(baseUrl: string | null): KeyStatus {
    const record = this.loadRecord();
    if (record === null || (record.baseUrl === baseUrl && record.origin === undefined)) {
      return this.refresh();
    }
    // A check said something of the key at its old address only: bound elsewhere, it is unchecked.
    const { origin: _legacy, check: _check, ...rest } = record;
    this.save({ ...rest, baseUrl });
    this.logger.info('API key bound to a service', { from: record.baseUrl ?? null, to: baseUrl });
    return this.refresh();
  }

  /**
   * Forgets the key (one action).
   * @throws KeyVaultError `not_saved` when the file can be neither changed nor moved away.
   */
  clear(): KeyStatus {
    const { store } = this.options;
    try {
      store.delete(KEY_RECORD_NAME);
    } catch {
      try {
        store.moveAside(damagedFileSuffix(this.options.now()));
      } catch {
        throw new KeyVaultError('not_saved', keyMessages.notRemoved(store.path));
      }
    }
    this.record = null;
    this.problem = null;
    this.logger.info('API key cleared');
    return this.refresh();
  }

  /**
   * The key, decrypted now for one request, or `null` in every state but `ready`. A cipher that
   * becomes ready by itself (the app's, whose first answer may wait on a keychain prompt) is
   * waited for first: a request waits for its key rather than going without. A decrypt that
   * throws or yields text that is not the stored key turns the state to `decrypt_failed`.
   */
  async readKey(): Promise<string | null> {
    const { cipher } = this.options;
    if (!cipher.isReady() && this.loadRecord() !== null) await cipher.whenReady?.();
    const facts = this.facts();
    const record = facts.record;
    if (record === null || computeKeyStatus(facts).state !== 'ready') return null;
    const decrypted = await this.decryptTold(record);
    const key = decrypted?.text ?? null;
    const matches = key !== null && (await keyFingerprint(key)) === record.fingerprint;
    if (this.record !== record) return null;
    if (key === null || !matches) {
      this.problem = { kind: 'decrypt_failed' };
      this.logger.warn('API key could not be decrypted', { backend: record.backend });
      this.refresh();
      return null;
    }
    if (decrypted?.shouldReEncrypt && !(await this.reEncrypt(record, key))) return null;
    return key;
  }

  /**
   * The OS rotated its key (or offers a stronger one): stores the key encrypted afresh, keeping
   * the rest of the record. False when the key was cleared or replaced meanwhile (nothing written).
   */
  private async reEncrypt(record: KeyRecord, key: string): Promise<boolean> {
    try {
      const ciphertext = await this.encryptChecked(key);
      if (this.record !== record) return false;
      this.save({ ...record, ciphertext: ciphertext.toString('base64') });
      this.logger.info('API key encrypted again, as the OS asked', { backend: record.backend });
      return true;
    } catch {
      // The old ciphertext still decrypts; the next read tries again.
      this.logger.warn('API key could not be encrypted again', { backend: record.backend });
      return this.record === record;
    }
  }

  /**
   * Tries the stored key once more (after start-up, or when the user asks): clears a remembered
   * decrypt failure, decrypts and discards the key, and reports the state.
   */
  async verify(): Promise<KeyStatus> {
    if (this.problem?.kind === 'decrypt_failed') this.problem = null;
    await this.readKey();
    return this.refresh();
  }

  /** The current status, told to listeners when it differs from the last one told. */
  refresh(): KeyStatus {
    const current = this.status();
    const serialised = JSON.stringify(current);
    if (serialised !== this.lastEmitted) {
      this.lastEmitted = serialised;
      this.changed.fire(current);
    }
    return current;
  }

  /** Called with the new status whenever it changes, until the result is disposed. */
  readonly onDidChange: Event<KeyStatus> = (listener) => this.changed.event(listener);

  private facts(): KeyFacts {
    const { cipher } = this.options;
    const ready = cipher.isReady();
    return {
      ready,
      available: ready && cipher.isAvailable(),
      backend: cipher.backend(),
      weak: cipher.isWeak(),
      record: this.loadRecord(),
      problem: this.problem,
    };
  }

  private loadRecord(): KeyRecord | null {
    if (this.record !== undefined) return this.record;
    const { store } = this.options;
    let raw: unknown;
    try {
      raw = store.get(KEY_RECORD_NAME);
    } catch {
      return this.quarantine('the file is not valid JSON');
    }
    if (raw === undefined) return (this.record = null);
    const parsed = keyRecordSchema.safeParse(raw);
    if (!parsed.success) return this.quarantine('the record does not match its schema');
    return (this.record = parsed.data);
  }

  private save(record: KeyRecord): void {
    try {
      this.options.store.set(KEY_RECORD_NAME, record);
    } catch {
      throw new KeyVaultError('not_saved', keyMessages.notSaved(this.options.store.path));
    }
    this.record = record;
  }

  /** Keeps a damaged vault file aside and remembers to tell the user. */
  private quarantine(reason: string): null {
    const { store } = this.options;
    let copy: string | null = null;
    try {
      copy = store.moveAside(damagedFileSuffix(this.options.now()));
    } catch (error) {
      this.logger.error('damaged key vault file could not be moved aside', {
        path: store.path,
        error: messageOf(error),
      });
    }
    this.logger.warn('key vault file damaged', { path: store.path, reason, copy });
    this.problem = { kind: 'damaged', copy };
    this.record = null;
    return null;
  }

  /**
   * {@link decrypt}, its status `decrypting` from {@link DECRYPT_NOTICE_MS} until the OS answers:
   * the storage answered its first question (the status is `ready`), but may ask the user again
   * for this decrypt, and the task list waits meanwhile (core/secrets/held-key-scrub.ts).
   */
  private async decryptTold(record: KeyRecord): Promise<DecryptedSecret | null> {
    const timers = this.options.timers;
    if (!timers || record.plaintext) return this.decrypt(record);
    let told = false;
    const timer = timers.setTimeout(() => {
      told = true;
      this.slowDecrypts += 1;
      this.refresh();
    }, DECRYPT_NOTICE_MS);
    try {
      return await this.decrypt(record);
    } finally {
      timers.clearTimeout(timer);
      if (told) {
        this.slowDecrypts -= 1;
        this.refresh();
      }
    }
  }

  /** The key in `record`, or null when it cannot be (throws, empty, garbled). */
  private async decrypt(record: KeyRecord): Promise<DecryptedSecret | null> {
    const bytes = Buffer.from(record.ciphertext, 'base64');
    try {
      const decrypted = record.plaintext
        ? { text: bytes.toString('utf8'), shouldReEncrypt: false }
        : await this.options.cipher.decrypt(bytes);
      return typeof decrypted.text === 'string' && isPlausibleKey(decrypted.text)
        ? decrypted
        : null;
    } catch {
      return null;
    }
  }

  /** Encrypts and checks the round trip, so a cipher that garbles is caught before storing. */
  private async encryptChecked(key: string): Promise<Buffer> {
    const { cipher } = this.options;
    try {
      const ciphertext = await cipher.encrypt(key);
      if ((await cipher.decrypt(ciphertext)).text === key) return ciphertext;
    } catch {
      // The cipher's own message is not passed on: it is not ours to vouch for.
    }
    throw new KeyVaultError('not_saved', keyMessages.encryptFailed);
  }
}
