import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeElectron, protocolHandler, resetElectronFakes } from '../../fakes/electron-window';
import { removeFolder, tempFolder } from '../../support/temp-folders';

vi.mock('electron', async () => (await import('../../fakes/electron-window')).fakeElectron);

const { registerAppProtocol, registerPrivilegedSchemes } =
  await import('../../../electron/adapters/app-protocol');
const { RENDERER_CSP } = await import('../../../electron/app/protocol/csp');

let root: string;
beforeAll(async () => {
  root = await tempFolder('app-adapter');
  await writeFile(join(root, 'index.html'), '<!doctype html><title>Pictor</title>');
});
afterAll(async () => {
  await removeFolder(root);
});
beforeEach(() => {
  resetElectronFakes();
});

describe('registerPrivilegedSchemes', () => {
  it('registers the three schemes in one call, standard and secure, nothing bypassing CSP', () => {
    registerPrivilegedSchemes();
    expect(fakeElectron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledTimes(1);
    expect(fakeElectron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'pictor-app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
      { scheme: 'pictor-gallery', privileges: { standard: true, secure: true } },
      {
        scheme: 'pictor-image',
        privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true },
      },
    ]);
  });
});

describe('registerAppProtocol', () => {
  it('serves index.html from the root with the CSP', async () => {
    registerAppProtocol({ root });
    const response = await protocolHandler('pictor-app')(new Request('pictor-app://app/'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(RENDERER_CSP);
    expect(await response.text()).toContain('<title>Pictor</title>');
  });

  it('refuses traversal and missing files, and logs each refusal', async () => {
    const warnings: unknown[] = [];
    const logger = {
      debug() {},
      info() {},
      error() {},
      warn: (...args: unknown[]) => warnings.push(args),
    };
    registerAppProtocol({ root, logger });
    const handler = protocolHandler('pictor-app');
    expect((await handler(new Request('pictor-app://app/..%2f..%2fetc%2fpasswd'))).status).toBe(
      403,
    );
    expect((await handler(new Request('pictor-app://app/missing.js'))).status).toBe(404);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toEqual([
      'App protocol refused a request',
      { status: 404, url: 'pictor-app://app/missing.js' },
    ]);
  });
});
