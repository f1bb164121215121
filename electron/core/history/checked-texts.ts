/**
 * Record texts this process wrote from records the schema had checked. The record schema's
 * output is a fixed point of its own JSON (tests/hardening/hostile/checked-texts.test.ts checks
 * it over every shape the schema takes): such a text, read back, parses to the record it was
 * written from, so the schema need not check it again. That is most of what reading a record
 * costs, and a triage change reads and writes thousands ("Triage at a million tasks",
 * docs/PERFORMANCE.md).
 *
 * Only digests are kept, of the text itself: a row changed by anyone else (another process, a
 * hand edit, a crafted file) holds another text and goes through the schema as before. A
 * SHA-256 digest, so no text can be made to pass for one of these.
 */
/** Digests kept (about 100 bytes each); the oldest are forgotten first. */
const MAX_CHECKED_TEXTS = 50_000;

const digests = new Set<string>();

// node:crypto is loaded at the first digest (about 10 ms of CPU): a command that only reads
// (`pictor list`) never takes one.
const digestOf = (text: string): string =>
  process.getBuiltinModule('node:crypto').hash('sha256', text, 'base64');

/** Notes `text` as the JSON of a record the schema checked (see the file's comment). */
export function rememberCheckedText(text: string): void {
  const digest = digestOf(text);
  // Re-inserted, so a text in use is the last forgotten.
  digests.delete(digest);
  digests.add(digest);
  if (digests.size > MAX_CHECKED_TEXTS) {
    const oldest = digests.values().next().value;
    if (oldest !== undefined) digests.delete(oldest);
  }
}

/** Whether `text` is one {@link rememberCheckedText} noted. */
export function isCheckedText(text: string): boolean {
  // A process that has written nothing (a CLI that only lists) hashes nothing.
  return digests.size > 0 && digests.has(digestOf(text));
}
