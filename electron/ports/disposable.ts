/**
 * Something that ends what it started: a subscription, a registration, a watch (VS Code's
 * `IDisposable`). Every `on…`/`subscribe` in the main process returns one (see event.ts);
 * {@link toDisposable} wraps an unsubscribe function and {@link DisposableStore} lets an owner
 * release everything it holds at once.
 */
export interface Disposable {
  /** Ends it. Calling it again does nothing. */
  dispose(): void;
}

/** Wraps an unsubscribe function; it runs once, however often the result is disposed. */
export function toDisposable(release: () => unknown): Disposable {
  let released = false;
  return {
    dispose() {
      if (released) return;
      released = true;
      release();
    },
  };
}

/** Holds disposables and disposes them together, the last added first. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  /** Keeps `item` (or disposes it at once when the store is already disposed). */
  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  dispose(): void {
    this.disposed = true;
    for (const item of this.items.splice(0).reverse()) item.dispose();
  }
}
