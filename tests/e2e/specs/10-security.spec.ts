/**
 * Journey 10, security in the page: no Node in the page and only the three members of
 * window.pictor; the API key (and a refused one before it) is nowhere the page or the disk can
 * show it — DOM, form fields, web storage, IndexedDB, IPC payloads the page received, files in
 * the data folder (the vault holds only ciphertext), logs, the gallery; the page cannot leave
 * the app (navigation, links, window.open), run injected code or reach the network itself, and
 * a request outside the IPC contract is refused.
 *
 * What stops navigation and new windows: in Electron, adapters/window-guards.ts (will-navigate,
 * setWindowOpenHandler → deny, no link to the OS browser: the page has no way to name one, and
 * no `app:openExternal` channel); in the chromium host, tests/e2e/harness/window-guards.ts
 * applies the same decisions through Playwright (navigation requests away from the app answered
 * 204 and so not committed, window.open replaced by one that returns null and opens nothing, a
 * page a target=_blank link opens closed).
 * Injected code and the network are stopped by the app's own CSP (RENDERER_CSP), which both
 * hosts send with the page.
 *
 * Only a browser shows here: the page's real isolation: no Node, the CSP the host sends blocking
 * injected code and network, navigation and window.open stopped; the key absent from DOM, web
 * storage and IndexedDB of a real browser.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { RENDERER_CSP } from '../../../electron/app/protocol/csp';
import { listFiles } from './support/disk';
import { useDemoProcess } from './support/service';
import { useAppSession } from './support/session';
import { expectNotInPage, generateAll, keySection, showScreen } from './support/ui';

const ACCOUNT = 'secure';
const SECRET = `sk-e2e-secret-${'7f3a9c1e5b'.repeat(3)}`;
const REFUSED = `sk-e2e-secret-refused-${'4d8b2f6a'.repeat(3)}`;
// The user's own service's vault (each service has its own file, key-vault-<provider>.json).
const VAULT_FILE = 'key-vault-pictor.json';

const demo = useDemoProcess({ keys: [`${ACCOUNT}:${SECRET}`], durationMs: 1_000 });
const session = useAppSession('security');

test.beforeEach(async () => {
  await session.launch();
});

test('the page has no Node and only galleryBase, invoke and on; unknown requests are refused', async () => {
  const { page } = session.app;
  const globals = await page.evaluate(() => ({
    require: typeof (window as unknown as Record<string, unknown>)['require'],
    process: typeof (window as unknown as Record<string, unknown>)['process'],
    module: typeof (window as unknown as Record<string, unknown>)['module'],
    Buffer: typeof (window as unknown as Record<string, unknown>)['Buffer'],
    ipcRenderer: typeof (window as unknown as Record<string, unknown>)['ipcRenderer'],
    pictor: Object.getOwnPropertyNames(window.pictor ?? {}).sort(),
    galleryBase: typeof window.pictor?.galleryBase,
  }));
  expect(globals).toEqual({
    require: 'undefined',
    process: 'undefined',
    module: 'undefined',
    Buffer: 'undefined',
    ipcRenderer: 'undefined',
    pictor: ['galleryBase', 'invoke', 'on'],
    galleryBase: 'string',
  });

  const refused = await page.evaluate(async () => {
    const invoke = window.pictor?.invoke as unknown as (c: string, i?: unknown) => Promise<unknown>;
    return {
      unknown: await invoke('fs:readFile', { path: '/etc/passwd' }),
      shell: await invoke('shell:openExternal', { url: 'file:///etc/passwd' }),
      // No channel opens a link the page names: there was one, and it is gone.
      link: await invoke('app:openExternal', { url: 'https://example.com/' }),
      badInput: await invoke('keys:set', { provider: 'pictor', key: 42, allowWeakStorage: 'yes' }),
    };
  });
  expect(refused.unknown).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  expect(refused.shell).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  expect(refused.link).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  expect(refused.badInput).toMatchObject({ ok: false, error: { code: 'bad_input' } });
  expect(JSON.stringify(refused.badInput)).not.toContain('42');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('the key is nowhere in the page, its storage, the IPC it received, the files or the logs', async () => {
  let page = session.app.page;
  await storeRefusedThenGoodKey(page);
  await generateAll(page, ['A brass key on a velvet cushion']);
  // The key really went to the service (so not finding it below means something).
  const log = await demo.log();
  expect(log.submits.at(-1)?.headers['authorization']).toBe(`Bearer ${SECRET}`);
  for (const secret of [SECRET, REFUSED]) await expectNotInPage(page, secret);

  page = await session.app.restart();
  await showScreen(page, 'Settings');
  await expect(keySection(page).getByText(/^A key is stored\. Fingerprint:/)).toBeVisible();

  for (const secret of [SECRET, REFUSED]) await expectNotInPage(page, secret);
  if (session.app.host === 'chromium') {
    const payloads = session.app.ipcPayloads();
    expect(payloads.some((text) => text.includes('"fingerprint"'))).toBe(true);
    for (const secret of [SECRET, REFUSED]) {
      expect(payloads.filter((text) => text.includes(secret))).toEqual([]);
    }
  }
  await session.close();
  await expectNotOnDisk();
});

test('the page cannot leave the app, open windows, run injected code or reach the network', async () => {
  const { page } = session.app;
  const appUrl = page.url();

  await page.evaluate(() => {
    window.location.href = 'https://example.com/';
  });
  await expectStillTheApp(page, appUrl);

  await addLink(page, 'https://example.com/', null);
  await page.getByRole('link', { name: 'e2e link' }).click();
  await expectStillTheApp(page, appUrl);

  // A new window opens nothing, in the app or in the OS browser, for any address however often
  // the page asks: both hosts record the OS browser's openExternal (RECORDED_ON_EVERY_HOST).
  for (const href of ['http://example.com/blank', 'https://example.com/blank']) {
    await addLink(page, href, '_blank');
    await page.getByRole('link', { name: 'e2e link' }).click();
    await expectStillTheApp(page, appUrl);
  }
  const opened = await page.evaluate(() =>
    ['https://example.com/', 'https://example.com/', 'mailto:a@example.com'].map(
      (url) => window.open(url) === null,
    ),
  );
  expect(opened).toEqual([true, true, true]);
  await expectStillTheApp(page, appUrl);
  expect(session.app.osCalls().filter((call) => call.action === 'openExternal')).toEqual([]);

  await expectCspEnforced(page);
});

/** A refused key first (Test connection says so), then the working one in its place. */
async function storeRefusedThenGoodKey(page: Page): Promise<void> {
  await showScreen(page, 'Settings');
  const service = page.locator('#settings-service-pictor');
  await service.getByLabel('Service address (base URL)').fill(demo.url);
  await service.getByRole('button', { name: 'Save' }).click();
  await expect(service.getByRole('button', { name: 'Save' })).toBeDisabled();
  // A key the service refuses is checked before it is stored, and never stored.
  const section = keySection(page);
  const field = section.getByLabel('API key', { exact: true });
  await expect(field).toHaveAttribute('type', 'password');
  await field.fill(REFUSED);
  await section.getByRole('button', { name: 'Save key' }).click();
  await expect(section).toContainText(/refused this key/);
  await expect(section.getByText(/^A key is stored\. Fingerprint:/)).toHaveCount(0);
  await field.fill(SECRET);
  await section.getByRole('button', { name: 'Save key' }).click();
  const consent = section.getByRole('button', { name: 'Store with weaker protection' });
  const stored = section.getByText(/^A key is stored\. Fingerprint:/);
  await expect(consent.or(stored)).toBeVisible();
  if (await consent.isVisible()) await consent.click();
  await expect(stored).toBeVisible();
  for (const secret of [SECRET, REFUSED]) await expectNotInPage(page, secret);
  await section.getByRole('button', { name: 'Test connection' }).click();
  await expect(section).toContainText(/The service at \S+ answered and accepted the key\./);
}

function contains(bytes: Buffer, secret: string): boolean {
  return (
    bytes.includes(Buffer.from(secret, 'utf8')) || bytes.includes(Buffer.from(secret, 'utf16le'))
  );
}

/** Every file of the data folder and the gallery, read as bytes; the vault has ciphertext only. */
async function expectNotOnDisk(): Promise<void> {
  const { folders } = session;
  const roots = [folders.userDataDir, folders.galleryDir];
  const leaks: string[] = [];
  for (const root of roots) {
    for (const file of await listFiles(root)) {
      const bytes = await readFile(join(root, file));
      for (const secret of [SECRET, REFUSED]) if (contains(bytes, secret)) leaks.push(file);
    }
  }
  expect(leaks, 'files that hold a key').toEqual([]);

  const logs = await listFiles(join(folders.userDataDir, 'logs'));
  expect(logs.length).toBeGreaterThan(0);

  const vault = JSON.parse(await readFile(join(folders.userDataDir, VAULT_FILE), 'utf8')) as {
    apiKey?: { ciphertext: string; weak: boolean; plaintext?: boolean };
  };
  const record = vault.apiKey;
  expect(record?.plaintext).toBeUndefined();
  const ciphertext = Buffer.from(record?.ciphertext ?? '', 'base64');
  expect(ciphertext.length).toBeGreaterThan(0);
  expect(contains(ciphertext, SECRET)).toBe(false);
}

/** Adds a link the user can click (the app has none to the outside; the page is the attacker). */
async function addLink(page: Page, href: string, target: string | null): Promise<void> {
  await page.evaluate(
    ([url, frame]) => {
      document.getElementById('e2e-link')?.remove();
      const link = document.createElement('a');
      link.id = 'e2e-link';
      link.href = url ?? '';
      if (frame) link.target = frame;
      link.textContent = 'e2e link';
      link.style.cssText = 'position:fixed;top:0;left:40%;z-index:9999;background:#fff';
      document.body.append(link);
    },
    [href, target] as const,
  );
}

/** Still the same document at the app's URL, still answering, and no other window open. */
async function expectStillTheApp(page: Page, appUrl: string): Promise<void> {
  // Give a navigation or a popup the time to happen, if it were going to.
  await page.waitForTimeout(500);
  expect(page.url()).toBe(appUrl);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  const info = await page.evaluate(() => window.pictor?.invoke('app:getInfo'));
  expect(info).toMatchObject({ ok: true });
  await expect
    .poll(() =>
      page
        .context()
        .pages()
        .filter((other) => other !== page),
    )
    .toEqual([]);
}

/** The app's CSP arrives with the page and stops eval, inline script and outside requests. */
async function expectCspEnforced(page: Page): Promise<void> {
  const outcome = await page.evaluate(async (serviceUrl) => {
    const header = (await fetch('/index.html')).headers.get('content-security-policy');
    let evaluated: string;
    try {
      evaluated = String((0, eval)('"ran"'));
    } catch (error) {
      evaluated = (error as Error).name;
    }
    const script = document.createElement('script');
    script.textContent = 'window.__e2eInline = true;';
    document.head.append(script);
    const reach = async (url: string) =>
      fetch(url).then(
        () => 'reached',
        () => 'refused',
      );
    return {
      header,
      evaluated,
      inline: (window as unknown as Record<string, unknown>)['__e2eInline'] === true,
      service: await reach(`${serviceUrl}/v1/tasks/task_0`),
      outside: await reach('https://example.com/'),
    };
  }, demo.url);
  expect(outcome).toEqual({
    header: RENDERER_CSP,
    evaluated: 'EvalError',
    inline: false,
    service: 'refused',
    outside: 'refused',
  });
  const served = (await demo.log()).requests.filter((entry) => entry.path === '/v1/tasks/task_0');
  expect(served).toEqual([]);
}
