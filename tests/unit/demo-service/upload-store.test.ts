/**
 * The demo's upload store holds what its callers leave in it within bounds: the bytes of every
 * kind of upload together (fal's and Replicate's files, DashScope's objects, ComfyUI's inputs),
 * the open fal slots, and the storage origin's request record.
 */
import { describe, expect, it } from 'vitest';
import { LOG_LIMIT } from '../../../electron/demo-service/bounded-log';
import type { DemoStorageRequest } from '../../../electron/demo-service/types';
import { MAX_OPEN_SLOTS, UploadStore } from '../../../electron/demo-service/uploads';

const now = () => 1_000;

function grantFor(store: UploadStore) {
  const { policy, signature } = store.policy('acct', 'wan2.5-i2i', 10_000);
  const grant = store.grantOf(policy, signature);
  if (!grant) throw new Error('the store refused its own policy');
  return grant;
}

describe('the demo’s upload store', () => {
  it('holds every kind of upload within one bound, forgetting the oldest first', () => {
    const store = new UploadStore(now, 1_000);
    const replicate = store.addFile('acct', Buffer.alloc(300), 'image/png', 'a.png');
    const slot = store.openSlot('acct', 'image/png', 'b.png');
    expect(store.fillSlot(slot.id, slot.token, Buffer.alloc(300))).toBe(true);
    store.putObject('dir/c.png', grantFor(store), Buffer.alloc(300), 'image/png');
    expect(store.heldBytes).toBe(900);
    const input = store.putInput(Buffer.alloc(300));
    // 1,200 bytes: the oldest (Replicate's file) goes, the others stay.
    expect(store.heldBytes).toBe(900);
    expect(store.file(replicate.id)).toBeUndefined();
    expect(store.file(slot.id)?.bytes.length).toBe(300);
    expect(store.object('dir/c.png')?.bytes.length).toBe(300);
    expect(store.input(input)?.length).toBe(300);
  });

  it('gives back what a removed file held, and counts a replaced input once', () => {
    const store = new UploadStore(now, 1_000);
    const file = store.addFile('acct', Buffer.alloc(400), 'image/png', 'a.png');
    expect(store.deleteFile(file.id)).toBe(true);
    expect(store.heldBytes).toBe(0);
    expect(store.deleteFile(file.id)).toBe(false);
    store.putInput(Buffer.alloc(200), 'same.png');
    store.putInput(Buffer.alloc(250), 'same.png');
    expect(store.heldBytes).toBe(250);
    expect(store.input('same.png')?.length).toBe(250);
  });

  it('keeps an upload alone over the bound (each body is bounded too), and the next one replaces it', () => {
    const store = new UploadStore(now, 100);
    const big = store.putInput(Buffer.alloc(150));
    expect(store.input(big)?.length).toBe(150);
    const next = store.putInput(Buffer.alloc(50));
    expect(store.input(big)).toBeUndefined();
    expect(store.input(next)?.length).toBe(50);
    expect(store.heldBytes).toBe(50);
  });

  it('names an unnamed input apart from one a caller named like it', () => {
    const store = new UploadStore(now, 1_000);
    store.putInput(Buffer.from('first'), 'upload_1.png');
    const made = store.putInput(Buffer.from('second'));
    expect(made).not.toBe('upload_1.png');
    expect(store.input('upload_1.png')?.toString()).toBe('first');
    expect(store.input(made)?.toString()).toBe('second');
  });

  it('keeps at most its open slots, the oldest forgotten first', () => {
    const store = new UploadStore(now, 1_000);
    const slots = Array.from({ length: MAX_OPEN_SLOTS + 1 }, () =>
      store.openSlot('acct', 'image/png', 'x.png'),
    );
    const [oldest, second] = slots;
    expect(store.fillSlot(oldest!.id, oldest!.token, Buffer.alloc(1))).toBe(false);
    expect(store.fillSlot(second!.id, second!.token, Buffer.alloc(1))).toBe(true);
  });

  it('keeps the latest requests of its record', () => {
    const store = new UploadStore(now, 1_000);
    const entry = (n: number): DemoStorageRequest => ({
      at: n,
      method: 'PUT',
      path: `/${n}`,
      headerNames: [],
      keySeen: false,
      status: null,
      stored: null,
    });
    const count = 3 * LOG_LIMIT;
    for (let n = 0; n < count; n += 1) store.record(entry(n));
    expect(store.log.length).toBeLessThanOrEqual(LOG_LIMIT + 1000);
    expect(store.log.at(-1)?.at).toBe(count - 1);
  });
});
