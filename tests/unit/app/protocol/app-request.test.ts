import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAppRequest, serveAppRequest } from '../../../../electron/app/protocol/app-request';
import { RENDERER_CSP } from '../../../../electron/app/protocol/csp';
import { fileFolder } from '../../../support/per-test';

const A = 'pictor-app://app';
const INDEX =
  '<!doctype html><html><head><script type="module" src="./assets/index.js"></script></head></html>';
let root: string;

fileFolder('app-protocol', async (base) => {
  root = join(base, 'renderer');
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(root, 'index.html'), INDEX);
  await writeFile(join(root, 'assets', 'index.js'), 'console.log(1);');
  await writeFile(join(root, 'assets', 'index.css'), 'body{}');
  await writeFile(join(root, 'assets', 'font.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32]));
  await writeFile(join(root, 'assets', 'data.bin'), 'x');
  await writeFile(join(base, 'secret.js'), 'secret');
  await symlink(join('..', '..', 'secret.js'), join(root, 'assets', 'escape.js'));
});

describe('serveAppRequest', () => {
  it.each([`${A}/index.html`, `${A}/`, A])('serves index.html with the CSP for %s', async (url) => {
    const response = await serveAppRequest(new Request(url), root);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(RENDERER_CSP);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe(INDEX);
  });

  it.each([
    ['assets/index.js', 'text/javascript; charset=utf-8'],
    ['assets/index.css', 'text/css; charset=utf-8'],
    ['assets/font.woff2', 'font/woff2'],
  ])('serves %s as %s', async (path, type) => {
    const response = await serveAppRequest(new Request(`${A}/${path}`), root);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('content-security-policy')).toBe(RENDERER_CSP);
  });

  it.each([
    ['missing.html', 404],
    ['assets', 403],
    ['assets/data.bin', 403],
    ['assets/escape.js', 403],
    // `new Request` (like Chromium) already resolves %2e%2e, so this asks for <root>/secret.js.
    ['%2e%2e/secret.js', 404],
    ['..%2fsecret.js', 403],
    ['assets/..%5c..%5csecret.js', 403],
    ['index.html?x=1', 400],
  ])('refuses %s with %i', async (path, status) => {
    const response = await serveAppRequest(new Request(`${A}/${path}`), root);
    expect(response.status).toBe(status);
    expect(await response.text()).not.toContain('secret');
  });

  it('refuses raw traversal and other hosts in the resolver', async () => {
    expect(await resolveAppRequest(root, `${A}/../secret.js`)).toMatchObject({ status: 403 });
    expect(await resolveAppRequest(root, `${A}/%2e%2e/secret.js`)).toMatchObject({ status: 403 });
    expect(await resolveAppRequest(root, 'pictor-app://evil/index.html')).toMatchObject({
      status: 400,
    });
    expect(await resolveAppRequest(root, 'pictor-gallery://app/index.html')).toMatchObject({
      status: 400,
    });
  });

  it('answers HEAD without a body and other methods with 405', async () => {
    const head = await serveAppRequest(new Request(`${A}/index.html`, { method: 'HEAD' }), root);
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    const post = await serveAppRequest(new Request(`${A}/index.html`, { method: 'POST' }), root);
    expect(post.status).toBe(405);
  });

  it('uses the CSP it is given (one text for the app and the e2e harness)', async () => {
    const response = await serveAppRequest(new Request(`${A}/`), root, "default-src 'none'");
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'");
  });
});
