/**
 * A submitting tool's `requestKey`: a name the agent gives one submit, so that a retry of it
 * submits nothing more. A client that timed out on `generate` cancels the call (the SDK's client
 * does on its timeout) and may send it again, under a new id: the server cannot tell that call
 * from a new one (an id repeated is refused: mcp-call-gate.ts). Given the same key, the second call gets
 * the first's tasks, waited for and answered as its own, and sends nothing. Only a submit that
 * sent something keeps its key: one refused (a limit, a cap) or cancelled before it sent frees
 * it, so the retry is a submit of its own. The same key with other arguments is refused: the
 * agent would otherwise take an earlier prompt's tasks for this one's.
 *
 * Kept for the connection's life (one server run), not in the history: a retry reaches the
 * server that timed out, and a server started again has no call in flight to repeat. The latest
 * KEYS_REMEMBERED keys of each tool are kept, each with its arguments' digest and what its
 * submit gave (task ids, never records: a task's prompt is up to 32,000 characters).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Spent } from './mcp-spend';

/** The longest key an agent may give (a UUID is 36 characters). */
const LONGEST_KEY = 200;
/** The keys each tool keeps, the oldest forgotten first. */
export const KEYS_REMEMBERED = 1_000;

/** The input field: an optional string of 1 to LONGEST_KEY characters. */
export const requestKeyInput = z
  .string()
  .min(1)
  .max(LONGEST_KEY)
  .optional()
  .describe(
    'A name of your own for this submit (a UUID): a call repeated with the same requestKey and the same arguments, such as a retry after a timeout, returns the tasks the first sent and sends nothing.',
  );

/** Said when the same key came with other arguments. */
const OTHER_ARGUMENTS =
  'This requestKey was given to an earlier call with other arguments, so nothing was sent. Give each submit a key of its own.';

/** Said in the answer of a call that repeated an earlier one's key: its tasks are the earlier's. */
export const REPEATED_SUBMIT =
  'These are the tasks an earlier call with this requestKey sent; nothing more was sent.';

/** A keyed submit's outcome: the submit's, and whether an earlier call with the key made it. */
export type KeyedOutcome<T> = Spent<T> & { readonly repeated: boolean };

interface KeptSubmit<T> {
  /** The digest of the arguments the key was given with. */
  readonly asked: string;
  /** What its submit gave; settled `ok` once it sent something. */
  readonly outcome: Promise<Spent<T>>;
}

/** A submitting tool's arguments, as far as a key goes: the key, and how the answer waits. */
export interface KeyedCall {
  readonly requestKey?: string | undefined;
  readonly wait?: boolean | undefined;
  readonly waitSeconds?: number | undefined;
}

/**
 * An object's fields in one order, whatever order they came in: the schemas keep a record's
 * (a model's params) as the client wrote it, and a retry may write the same params in another
 * (a client that builds them again), which was refused as other arguments.
 */
function inOneOrder(_field: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The digest of what decides what `call` sends: its arguments but its key and how it waits. */
function digestOf(call: KeyedCall): string {
  const { requestKey: _key, wait: _wait, waitSeconds: _seconds, ...sending } = call;
  return createHash('sha256').update(JSON.stringify(sending, inOneOrder)).digest('hex');
}

/** One tool's keys on one connection, with what each one's submit gave. */
export class RequestKeys<T> {
  private readonly kept = new Map<string, KeptSubmit<T>>();

  /**
   * `submit()`'s outcome, made once per `call.requestKey` while the key is kept: a later call
   * with the key and the same arguments (but how it waits) gets the earlier outcome, waiting for
   * it while it is on its way; one whose earlier call sent nothing submits itself. No key:
   * `submit()` as it is.
   */
  async once(call: KeyedCall, submit: () => Promise<Spent<T>>): Promise<KeyedOutcome<T>> {
    const key = call.requestKey;
    if (key === undefined) return { ...(await submit()), repeated: false };
    const asked = digestOf(call);
    const earlier = this.kept.get(key);
    if (earlier !== undefined) {
      if (earlier.asked !== asked) return { ok: false, reason: OTHER_ARGUMENTS, repeated: false };
      const spent = await earlier.outcome.catch(() => null);
      // The earlier call sent nothing, and its key was let go as it ended: this call submits.
      if (spent?.ok !== true) return this.once(call, submit);
      return { ...spent, repeated: true };
    }
    return { ...(await this.keep(key, asked, submit)), repeated: false };
  }

  /** Runs `submit` under `key`; the key is let go the moment its submit ends sending nothing. */
  private keep(key: string, asked: string, submit: () => Promise<Spent<T>>): Promise<Spent<T>> {
    // Called only once the submit has ended, when `outcome` is set.
    const letGo = () => {
      if (this.kept.get(key)?.outcome === outcome) this.kept.delete(key);
    };
    const outcome = submit().then(
      (spent) => {
        if (!spent.ok) letGo();
        return spent;
      },
      (error: unknown) => {
        letGo();
        throw error;
      },
    );
    this.kept.set(key, { asked, outcome });
    const oldest = this.kept.keys().next();
    if (this.kept.size > KEYS_REMEMBERED && oldest.done !== true) this.kept.delete(oldest.value);
    return outcome;
  }
}
