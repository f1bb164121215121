/**
 * The files clients upload to the demo before a task names them (docs/DEMO-SERVICE.md, "Image
 * inputs"): fal's storage (an initiate with the key, then a PUT to a signed address on the demo's
 * storage origin, no key), Replicate's files (`POST /v1/files` with the key) and DashScope's
 * temporary storage (a policy with the key, then a form POST to the storage origin, no key; the
 * file is `oss://<key>` for 48 hours). Signatures are HMACs under a secret drawn per service, so
 * a token or policy from another run, or one changed by a byte, is refused.
 */
import type { DemoStorageRequest } from './types';
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { appendBounded } from './bounded-log';

/** An uploaded file. */
export interface StoredUpload {
  /** fal's storage (public link), Replicate's files, DashScope's `oss://`. */
  readonly kind: 'fal' | 'replicate' | 'oss';
  readonly id: string;
  readonly bytes: Buffer;
  readonly contentType: string;
  readonly name: string;
  /** The account whose key asked for the upload. */
  readonly account: string;
  readonly createdAt: number;
  /** DashScope: the model the policy was asked for (an `oss://` file serves that model only). */
  readonly model?: string;
}

/** What a DashScope upload policy grants, inside its signed `policy`. */
export interface OssGrant {
  readonly expiration: string;
  readonly dir: string;
  readonly maxBytes: number;
  readonly account: string;
  readonly model: string;
}

/** The access key id the demo's storage policies carry (not an account's key). */
export const OSS_ACCESS_KEY_ID = 'LTAIdemoStorageAccess';
/** How long a DashScope policy may be used. */
const POLICY_SECONDS = 300;

/**
 * Open fal slots kept at most (an initiate no PUT has filled yet; each is a few names), the oldest
 * forgotten first.
 */
export const MAX_OPEN_SLOTS = 1_000;

/** One kept upload: the map it is in, under which id, and its size. */
interface Kept {
  readonly from: Map<string, unknown>;
  readonly id: string;
  readonly bytes: number;
}

interface FalSlot {
  account: string;
  contentType: string;
  name: string;
}

/**
 * Uploaded files and the storage origin's request record. The files' bytes are held at most
 * `maxBytes` together (the service's `maxHeldBytes`): a new one past that forgets the oldest, which
 * is then not found, as an expired upload is. The record keeps the latest entries (bounded-log.ts).
 */
export class UploadStore {
  private readonly secret = randomBytes(32);
  private readonly slots = new Map<string, FalSlot>();
  private readonly files = new Map<string, StoredUpload>();
  private readonly objects = new Map<string, StoredUpload>();
  /** ComfyUI's `/upload/image`, by the name it answered. */
  private readonly inputs = new Map<string, Buffer>();
  private inputsMade = 0;
  /** Every kept upload, oldest first (fal's and Replicate's files, DashScope's objects, inputs). */
  private readonly kept = new Set<Kept>();
  private readonly keptIn = new WeakMap<Map<string, unknown>, Map<string, Kept>>();
  private keptBytes = 0;
  readonly log: DemoStorageRequest[] = [];

  constructor(
    private readonly now: () => number,
    private readonly maxBytes: number,
  ) {}

  /** Adds a request to the storage origin's record. */
  record(entry: DemoStorageRequest): void {
    appendBounded(this.log, entry);
  }

  /** The bytes of every upload kept now. */
  get heldBytes(): number {
    return this.keptBytes;
  }

  /** Forgets the upload under `id` in `from`; false when there was none. */
  private forget(from: Map<string, unknown>, id: string): boolean {
    const entry = this.keptIn.get(from)?.get(id);
    if (entry) {
      this.kept.delete(entry);
      this.keptIn.get(from)?.delete(id);
      this.keptBytes -= entry.bytes;
    }
    return from.delete(id);
  }

  /** Keeps `value` of `bytes` under `id` in `into`, then forgets the oldest others past the bound. */
  private keep<T>(into: Map<string, T>, id: string, value: T, bytes: number): T {
    const from = into as Map<string, unknown>;
    this.forget(from, id);
    into.set(id, value);
    const entry: Kept = { from, id, bytes };
    const byId = this.keptIn.get(from) ?? new Map<string, Kept>();
    this.keptIn.set(from, byId.set(id, entry));
    this.kept.add(entry);
    this.keptBytes += bytes;
    for (const oldest of this.kept) {
      if (this.keptBytes <= this.maxBytes || oldest === entry) break;
      this.forget(oldest.from, oldest.id);
    }
    return value;
  }

  /** The HMAC of `text` under this service's secret, base64url. */
  sign(text: string): string {
    return createHmac('sha256', this.secret).update(text).digest('base64url');
  }

  /** Whether `signature` is this service's signature of `text`. */
  signs(text: string, signature: string | null | undefined): boolean {
    const expected = Buffer.from(this.sign(text));
    const given = Buffer.from(signature ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** fal's initiate: a slot the signed PUT fills; its id and token. */
  openSlot(account: string, contentType: string, name: string): { id: string; token: string } {
    const id = randomBytes(12).toString('hex');
    for (const oldest of this.slots.keys()) {
      if (this.slots.size < MAX_OPEN_SLOTS) break;
      this.slots.delete(oldest);
    }
    this.slots.set(id, { account, contentType, name });
    return { id, token: this.sign(`fal:${id}`) };
  }

  /** fal's PUT: false when the token is not the slot's (or the slot is unknown or filled). */
  fillSlot(id: string, token: string | null, bytes: Buffer, contentType?: string): boolean {
    const slot = this.slots.get(id);
    if (!slot || !this.signs(`fal:${id}`, token)) return false;
    this.slots.delete(id);
    const file: StoredUpload = {
      kind: 'fal',
      id,
      bytes,
      contentType: contentType ?? slot.contentType,
      name: slot.name,
      account: slot.account,
      createdAt: this.now(),
    };
    this.keep(this.files, id, file, bytes.length);
    return true;
  }

  /** Replicate's files: stores one and returns it. */
  addFile(account: string, bytes: Buffer, contentType: string, name: string): StoredUpload {
    const id = randomBytes(13).toString('hex');
    const file = {
      kind: 'replicate' as const,
      id,
      bytes,
      contentType,
      name,
      account,
      createdAt: this.now(),
    };
    return this.keep(this.files, id, file, bytes.length);
  }

  /** A fal or Replicate file by id. */
  file(id: string): StoredUpload | undefined {
    return this.files.get(id);
  }

  /** Whether a file's link is public (fal's storage). */
  isPublic(id: string): boolean {
    return this.files.get(id)?.kind === 'fal';
  }

  deleteFile(id: string): boolean {
    return this.forget(this.files, id);
  }

  /**
   * ComfyUI's upload: kept under `name` (a later one of the same name replaces it), or under a
   * new name when none is given; the name it is kept under.
   */
  putInput(bytes: Buffer, name?: string): string {
    let kept = name;
    while (kept === undefined || (name === undefined && this.inputs.has(kept))) {
      this.inputsMade += 1;
      kept = `upload_${this.inputsMade}.png`;
    }
    this.keep(this.inputs, kept, bytes, bytes.length);
    return kept;
  }

  /** A ComfyUI upload by name. */
  input(name: string): Buffer | undefined {
    return this.inputs.get(name);
  }

  /** DashScope's getPolicy: a signed grant to upload under a fresh directory. */
  policy(account: string, model: string, maxBytes: number) {
    const dir = `dashscope-instant/${createHash('sha256').update(account).digest('hex').slice(0, 32)}/${randomUUID()}`;
    const grant: OssGrant = {
      expiration: new Date(this.now() + POLICY_SECONDS * 1000).toISOString(),
      dir,
      maxBytes,
      account,
      model,
    };
    const policy = Buffer.from(JSON.stringify(grant)).toString('base64');
    return { policy, signature: this.sign(policy), dir, seconds: POLICY_SECONDS };
  }

  /** The grant a policy signed by this service holds, or undefined. */
  grantOf(policy: string, signature: string | undefined): OssGrant | undefined {
    if (!this.signs(policy, signature)) return undefined;
    return JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as OssGrant;
  }

  /** Stores a DashScope object under its key. */
  putObject(key: string, grant: OssGrant, bytes: Buffer, contentType: string): void {
    const name = key.slice(key.lastIndexOf('/') + 1);
    const object: StoredUpload = {
      kind: 'oss',
      id: key,
      bytes,
      contentType,
      name,
      account: grant.account,
      createdAt: this.now(),
      model: grant.model,
    };
    this.keep(this.objects, key, object, bytes.length);
  }

  /** A DashScope object by key (without `oss://`). */
  object(key: string): StoredUpload | undefined {
    return this.objects.get(key);
  }
}
