/**
 * The scrubbers of "the keys this process holds now", the one home of their rule: every text that
 * leaves the key search (a CSV the user keeps, a copied command, an outgoing image's metadata, a
 * downloaded image's, an import's or a rebuild's task ids) is scrubbed through a factory below.
 *
 * THE RULE, for every such text:
 * - Nothing goes out unchecked while the keys are not known yet. The app's vaults may wait on
 *   the OS's storage (a keychain prompt nobody has answered: the start does not wait for it), and
 *   meanwhile a plain read of the keys gives none (AppCredentials.heldKeys: a request never
 *   waits for a prompt). A scrubber is made of the keys read UNTIL KNOWN (`heldKeys(true)`): it
 *   waits for the storage's first answer, only while a key is stored (none stored, none to wait
 *   for). The page guard (app/kept-id-page.ts) waits the same way.
 * - Once the storage has answered, what it cannot decrypt (a vault "could not be decrypted", a
 *   storage that is not available) is not searched for, and what goes out goes on. Refusing
 *   would protect nothing: that key's text is unknown to this process, so it can neither be
 *   scrubbed nor have been sent by it, and ids kept while it could be read were swept then
 *   (app/kept-key-sweep.ts); a refusal would only keep the user's own library from them, while
 *   Settings already says the key cannot be read. A read that fails outright is the same answer
 *   (the vault turns every decrypt failure into it): none readable. The log's redactor and the
 *   page guard read a failure so too.
 *
 * NOT UNDER THE RULE: a service's answers (service/client-parts.ts `keysToFind`) are searched
 * for the key sent and every key readable NOW, without waiting: a request never waits for a
 * keychain prompt (the demo's, ComfyUI's with no key, go on while one is open). For the key
 * sent that is whole (it was decrypted to be sent). For the others, while a prompt is open, an
 * answer from a server that was sent no key is searched for none. Can such a server know a key
 * held but not yet decrypted? Not from this run: no key was decrypted, so none was sent. Not from
 * Pictor at all, unless it is, or works with, the origin a key is bound to: a key goes only to
 * its own origin (core/service `checkCredentials`, the vault's bound base URL), so it was sent
 * there in earlier runs, and a party that runs that origin and also a server Pictor calls with
 * no key (the same host on another port, ComfyUI at an address another service's key was bound
 * to) could echo it back before the prompt is answered. That path exists;
 * what it reaches: a task id carrying the key waits at the page guard and is swept once the keys
 * are known (app/kept-key-sweep.ts), the log holds its lines until then; other text of such an
 * answer (an error's words, an image's address) is not searched again. The demo is Pictor's own
 * code and learns no key. Closing the path means an answer from a no-key server other than the
 * demo waits for the storage's first answer while a key is stored: not done here (it is the
 * service client's, and makes a local engine's tasks wait on a prompt).
 */
import { scrubKey } from './key-echo';
import { keyCarriers } from './key-echo-many';

/**
 * Every key the process holds (CredentialsProvider.heldKeys); `untilKnown`: after the OS's
 * storage has answered (see the module comment).
 */
export type HeldKeys = (untilKnown?: boolean) => Promise<readonly string[]>;

/**
 * Text with every key the process held when it was made scrubbed out (`scrubKey`); its
 * `carriers` says which of many texts it would change, as {@link keyCarriers} finds them: a
 * rebuild's task ids, a CSV's rows, a million of them at most, searched for a fraction of a
 * scrub each.
 */
type KeyScrubber = ((text: string) => string) & {
  readonly carriers: (texts: readonly string[]) => number[];
};

/** The keys `heldKeys` holds once known, by the module's rule. */
async function keysKnown(heldKeys: HeldKeys | undefined): Promise<readonly string[]> {
  return (await heldKeys?.(true).catch(() => [])) ?? [];
}

/** The scrubber of `keys`; none, the text as it is. */
function keyScrubberOf(keys: readonly string[]): KeyScrubber {
  return Object.assign((text: string) => (keys.length === 0 ? text : scrubKey(text, keys)), {
    carriers: (texts: readonly string[]) => (keys.length === 0 ? [] : keyCarriers(texts, keys)),
  });
}

/**
 * Scrubs every key `heldKeys` holds from a text (an import's task ids: library/archive/
 * import-kept-id.ts; a rebuild's: library/relocate-open.ts; a refused track's kept task:
 * ipc/task-handlers.ts); none readable, the text as it is.
 */
export async function heldKeyScrubber(heldKeys: HeldKeys | undefined): Promise<KeyScrubber> {
  return keyScrubberOf(await keysKnown(heldKeys));
}

/**
 * {@link heldKeyScrubber}, or null when no key is readable: a downloaded image is not read again
 * for a key when none is held (download/key-intake.ts), a CSV's rows are not searched
 * (costs/ledger-csv.ts).
 */
export async function heldKeyScrubberOrNone(
  heldKeys: HeldKeys | undefined,
): Promise<KeyScrubber | null> {
  const keys = await keysKnown(heldKeys);
  return keys.length === 0 ? null : keyScrubberOf(keys);
}

/**
 * For a task id: {@link heldKeyScrubberOrNone}'s scrubber when the id carries a key `heldKeys`
 * holds, else null (what leaves the app of a task kept under such an id before the sweep
 * rewrote its files: gallery/outgoing-file.ts, a copied command). One scrub of the id: cheap.
 */
export function keptIdScrubberOf(
  heldKeys: HeldKeys | undefined,
): (taskId: string | null) => Promise<KeyScrubber | null> {
  return async (taskId) => {
    if (taskId === null) return null;
    const scrub = await heldKeyScrubberOrNone(heldKeys);
    return scrub && scrub(taskId) !== taskId ? scrub : null;
  };
}
