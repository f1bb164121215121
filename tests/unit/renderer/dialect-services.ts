/**
 * Real services for the wired renderer tests (render-wired-app.tsx): a demo service speaking a
 * service's dialect on loopback (electron/demo-service/, as the journeys start one with
 * `--dialect`), Settings pointed at it, and a key stored in main as Save stores it (checked with
 * the service first). A wrong key, a refused key or an address that answers 404 are then the
 * service's own answers, not an injected fault.
 */
import { createServer, type AddressInfo } from 'node:net';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService, DemoServiceOptions } from '../../../electron/demo-service/types';
import type { ProviderId } from '../../../shared/domain/providers';
import { withAddress } from '../../../shared/domain/submit-target';
import type { WiredApi } from '../../support/wired-api';
import { afterEachTest } from '../../support/after-each-test';

/** The key a dialect service started here accepts (account `user`). */
export const SERVICE_KEY = 'service-key-0123456789';

const running: DemoService[] = [];
afterEachTest(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()));
});

/** Starts a demo service speaking `dialect`, closed after the test; it accepts {@link SERVICE_KEY}. */
export async function startDialect(
  dialect: ProviderId,
  options: DemoServiceOptions = {},
): Promise<DemoService> {
  const service = await startDemoService({
    dialect,
    accounts: [{ account: 'user', key: SERVICE_KEY }],
    durationMs: 100,
    ...options,
  });
  running.push(service);
  return service;
}

/**
 * Points `provider`'s address in main's settings at a new dialect service and, unless `key` is
 * null, stores a key there as Save does (`checked`: through the service's key probe; otherwise
 * stored unchecked). Returns the service.
 */
export async function connectService(
  main: WiredApi,
  provider: ProviderId,
  options: { key?: string | null; checked?: boolean; service?: DemoServiceOptions } = {},
): Promise<DemoService> {
  const service = await startDialect(provider, options.service);
  const { serviceBaseUrls } = withAddress(main.runtime.settings.get(), provider, service.url);
  await main.runtime.updateSettings({ serviceBaseUrls });
  const key = options.key === undefined ? SERVICE_KEY : options.key;
  if (key === null) return service;
  if (options.checked === false) await main.runtime.setKey(key, false, provider);
  else {
    const saved = await main.runtime.saveKey(
      key,
      { allowWeakStorage: false, skipCheck: false },
      provider,
    );
    if (saved.outcome !== 'saved') throw new Error(`The ${provider} key was not stored.`);
  }
  return service;
}

/** An address on loopback where nothing listens (a port just freed): a service that cannot be asked. */
export async function unusedAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${String(port)}`;
}
