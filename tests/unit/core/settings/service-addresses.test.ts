import { describe, expect, it } from 'vitest';
import { SettingsError } from '../../../../electron/core/settings/settings-patch';
import { SettingsService } from '../../../../electron/core/settings/settings-service';
import { serviceAddress } from '../../../../electron/core/credentials/service-addresses';
import { InMemoryKv } from '../../../fakes/in-memory-kv';
import { ownAddress } from '../../../support/own-address';

function service() {
  return new SettingsService({ store: new InMemoryKv('/d', 'settings'), now: () => 1 });
}

describe('each service’s address in Settings', () => {
  it('is the provider’s own unless the user gives another, checked like the service URL', () => {
    const settings = service();
    expect(serviceAddress(settings.get(), 'replicate')).toBe('https://api.replicate.com');
    expect(serviceAddress(settings.get(), 'pictor')).toBeNull();
    const updated = settings.update({
      serviceBaseUrls: { replicate: ' https://proxy.example.com/replicate/ ', fal: '' },
    });
    expect(updated.serviceBaseUrls).toEqual({ replicate: 'https://proxy.example.com/replicate' });
    expect(serviceAddress(updated, 'replicate')).toBe('https://proxy.example.com/replicate');
    expect(serviceAddress(updated, 'fal')).toBe('https://queue.fal.run');
    expect(() => settings.update({ serviceBaseUrls: { bfl: 'http://example.com' } })).toThrow(
      SettingsError,
    );
    expect(() => settings.update({ serviceBaseUrls: { nope: 'https://x.example' } })).toThrow(
      SettingsError,
    );
  });

  it('refuses two services at one address, naming both, and keeps the settings as they were', () => {
    const settings = service();
    settings.update(ownAddress('https://gateway.example/images'));
    const refusals = [
      () => settings.update(ownAddress('https://api.bfl.ai/')),
      () => settings.update({ serviceBaseUrls: { fal: 'https://gateway.example/images' } }),
      () => settings.update({ serviceBaseUrls: { fal: 'https://api.replicate.com' } }),
    ];
    for (const refused of refusals) {
      let error: unknown;
      try {
        refused();
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(SettingsError);
      expect((error as SettingsError).sentence?.key).toBe('error.settings.addressShared');
      expect((error as Error).message).toMatch(/cannot share one address/);
    }
    expect(settings.get().serviceBaseUrls).toEqual({ pictor: 'https://gateway.example/images' });
  });

  it('changes only the services a change names; the user’s own address is one of them', () => {
    const settings = service();
    settings.update(ownAddress('https://gateway.example/images'));
    settings.update({ serviceBaseUrls: { fal: 'https://proxy.example.com/fal' } });
    expect(settings.get().serviceBaseUrls).toEqual({
      pictor: 'https://gateway.example/images',
      fal: 'https://proxy.example.com/fal',
    });
    // '' gives a service its provider's own address back; the user's own has none: the demo.
    settings.update({ serviceBaseUrls: { fal: '', pictor: '' } });
    expect(settings.get().serviceBaseUrls).toEqual({});
    expect(serviceAddress(settings.get(), 'pictor')).toBeNull();
  });

  it('remembers the chosen service and refuses one Pictor does not know', () => {
    const settings = service();
    expect(settings.get().provider).toBe('pictor');
    expect(settings.update({ provider: 'bfl' }).provider).toBe('bfl');
    expect(() => settings.update({ provider: 'openai' })).toThrow(SettingsError);
  });
});
