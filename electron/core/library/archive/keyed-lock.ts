/**
 * Runs works one after another when they share a key, side by side when they do not. A work
 * takes all its keys at the moment it is called (no await in between), so two works can never
 * each hold one key the other waits for.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const before = keys.map((key) => this.tails.get(key) ?? Promise.resolve());
    let release: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => (release = resolve));
    for (const key of keys) this.tails.set(key, mine);
    await Promise.all(before);
    try {
      return await work();
    } finally {
      release();
      for (const key of keys) if (this.tails.get(key) === mine) this.tails.delete(key);
    }
  }
}
