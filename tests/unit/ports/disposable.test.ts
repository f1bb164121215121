import { describe, expect, it } from 'vitest';
import { DisposableStore, toDisposable } from '../../../electron/ports/disposable';

describe('toDisposable and DisposableStore', () => {
  it('releases each once, the last added first, and at once when added after disposal', () => {
    const released: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => released.push('first')));
    const second = store.add(toDisposable(() => released.push('second')));
    second.dispose();
    store.dispose();
    store.dispose();
    expect(released).toEqual(['second', 'first']);
    store.add(toDisposable(() => released.push('late')));
    expect(released).toEqual(['second', 'first', 'late']);
  });
});
