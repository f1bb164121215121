import { beforeEach, describe, expect, it, vi } from 'vitest';

const exposed: Record<string, unknown> = {};
const ipcRenderer = {
  invoke: vi.fn(async (channel: string, input: unknown) => ({
    ok: true,
    value: { channel, input },
  })),
  on: vi.fn(),
  removeListener: vi.fn(),
};

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (name: string, value: unknown) => (exposed[name] = value) },
  ipcRenderer,
}));

describe('preload', () => {
  beforeEach(() => vi.clearAllMocks());

  it('exposes one object, window.pictor, with only invoke, on and the gallery base', async () => {
    const { api } = await import('../../../electron/preload');
    expect(Object.keys(exposed)).toEqual(['pictor']);
    expect(exposed.pictor).toBe(api);
    expect(Object.keys(api).sort()).toEqual(['galleryBase', 'invoke', 'on']);
    expect(api.galleryBase).toBe('pictor-gallery://gallery/');
  });

  it('forwards contract channels and refuses others without touching ipcRenderer', async () => {
    const { api } = await import('../../../electron/preload');
    await expect(api.invoke('tasks:remove', { localId: 'a' })).resolves.toMatchObject({ ok: true });
    expect(ipcRenderer.invoke).toHaveBeenCalledWith('tasks:remove', { localId: 'a' });
    const refused = await api.invoke('shell:openPath' as never, '/etc' as never);
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(ipcRenderer.invoke).toHaveBeenCalledTimes(1);
  });

  it('passes only the payload to listeners, never the Electron event, and unsubscribes', async () => {
    const { api } = await import('../../../electron/preload');
    const listener = vi.fn();
    const off = api.on('network:changed', listener);
    const forward = ipcRenderer.on.mock.calls[0]![1] as (event: unknown, payload: unknown) => void;
    forward({ sender: 'ipcRenderer internals' }, { online: true });
    expect(listener).toHaveBeenCalledWith({ online: true });
    expect(listener.mock.calls[0]).toHaveLength(1);
    off();
    expect(ipcRenderer.removeListener).toHaveBeenCalledWith('network:changed', forward);
    expect(() => api.on('nope' as never, listener)).toThrow(/Unknown event/);
  });
});
