/**
 * What the page's requests in flight hold in main, bounded. Each request the contract takes is
 * bounded on its own, but the page may send as many as it likes without waiting for the answers,
 * and main holds each one's input (and what its handler makes of it) until it is answered: a mask
 * is up to 89.5 M characters of base64 and is decoded while the input store takes additions one
 * at a time, so a compromised page's hundred masks sent at once held gigabytes and main ended out
 * of memory. So the bridge takes a request only while what its requests in flight hold, with it,
 * stays within {@link MAX_HELD}; beyond, it is refused with a sentence (the page may send it again
 * when others are answered). A request alone is always taken: the bound limits requests side by
 * side, never the contract's own limits.
 */

/**
 * What the page's requests in flight may hold, in characters of their strings (and
 * {@link VALUE_SIZE} for each other value): the mask editor's two masks, sent at once, of the
 * largest size (64 MiB of PNG each), and room besides.
 */
const MAX_HELD = 256 * 1024 * 1024;

/** What a value that is no string counts for (a number, an object, an array's slot). */
const VALUE_SIZE = 8;

/** What a parsed input holds: its strings' characters and keys, and its other values. */
function heldSize(value: unknown): number {
  let size = 0;
  // A loop over a stack, no recursion: the input is parsed, but its depth is the schema's.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      size += item.length;
      continue;
    }
    size += VALUE_SIZE;
    if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) stack.push(key, inner);
    }
  }
  return size;
}

export class HeldRequests {
  private held = 0;
  private running = 0;

  /**
   * Takes a request whose parsed input is `input`: the function that lets it go when it is
   * answered, or null when it would pass the bound beside the others running.
   */
  take(input: unknown): (() => void) | null {
    const size = heldSize(input);
    if (this.running > 0 && this.held + size > MAX_HELD) return null;
    this.running += 1;
    this.held += size;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      this.held -= size;
    };
  }
}
