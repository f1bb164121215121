/**
 * How the image page reads a job's bytes (electron/image-renderer/read-source.ts), in Debian's
 * Chromium against a loopback server that answers each way a body can go wrong: the module built
 * by esbuild as the page's own bundle is, its two readers (into a Blob, into the worker's own
 * buffer) on the same answers. Each bad body is a refusal with its sentence, never a short image.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/harness/host';
import { REPO_ROOT } from '../../support/source-files';

const MODULE = join(REPO_ROOT, 'electron/image-renderer/read-source.ts');
const BYTES = Buffer.from(Array.from({ length: 300_000 }, (_, n) => (n * 7) % 256));

/** The answers by path: whole, cut short, without a length, past the page's ceiling. */
const ANSWERS: Record<string, (res: ServerResponse) => void> = {
  '/whole': (res) => {
    res.writeHead(200, { 'content-length': BYTES.length });
    res.end(BYTES);
  },
  '/short': (res) => {
    res.writeHead(200, { 'content-length': BYTES.length });
    res.write(BYTES.subarray(0, 100_000));
    // The connection ends before the declared length.
    setTimeout(() => res.destroy(), 50);
  },
  '/unsized': (res) => {
    res.writeHead(200, { 'transfer-encoding': 'chunked' });
    res.end(BYTES);
  },
  '/refused': (res) => {
    res.writeHead(404);
    res.end();
  },
  '/over-main-cap': (res) => {
    res.writeHead(413, { 'content-type': 'text/plain' });
    res.end('The image is larger than Pictor reads.');
  },
  '/empty': (res) => {
    res.writeHead(200, { 'content-length': 0 });
    res.end();
  },
};

let server: Server;
let origin = '';
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const bundled = await build({
    entryPoints: [MODULE],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'readSourceModule',
    target: 'chrome120',
  });
  const script = bundled.outputFiles[0]!.text;
  server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><script>${script}</script>`);
      return;
    }
    (ANSWERS[req.url ?? ''] ?? ANSWERS['/refused']!)(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  page = await browser.newPage();
  await page.goto(`${origin}/`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

interface Read {
  readonly ok: boolean;
  readonly size?: number;
  readonly sum?: number;
  readonly error?: string;
  readonly tooLarge?: boolean;
}

/** Reads `path` with the page's reader `how`; its size and byte sum, or its refusal. */
function readIn(path: string, how: 'bytes' | 'blob', maxBytes = 1_000_000): Promise<Read> {
  return page.evaluate(
    async ({ url, how, maxBytes }) => {
      type Module = {
        readSource(url: string, max: number): Promise<Blob>;
        readSourceBytes(url: string, max: number): Promise<Uint8Array>;
        SourceTooLargeError: new () => Error;
      };
      const module = (window as unknown as { readSourceModule: Module }).readSourceModule;
      try {
        const bytes =
          how === 'bytes'
            ? await module.readSourceBytes(url, maxBytes)
            : new Uint8Array(await (await module.readSource(url, maxBytes)).arrayBuffer());
        let sum = 0;
        for (const byte of bytes) sum += byte;
        return { ok: true, size: bytes.length, sum };
      } catch (error) {
        return {
          ok: false,
          error: (error as Error).message,
          tooLarge: error instanceof module.SourceTooLargeError,
        };
      }
    },
    { url: `${origin}${path}`, how, maxBytes },
  );
}

const SUM = BYTES.reduce((total, byte) => total + byte, 0);

describe.each(['bytes', 'blob'] as const)('the page reading a job’s bytes (%s)', (how) => {
  it('reads a whole body of its declared length, every byte', async () => {
    expect(await readIn('/whole', how)).toEqual({ ok: true, size: BYTES.length, sum: SUM });
    expect(await readIn('/empty', how)).toEqual({ ok: true, size: 0, sum: 0 });
  });

  it('refuses a body cut short, one without a length and a refused address', async () => {
    const short = await readIn('/short', how);
    expect(short.ok).toBe(false);
    expect(short.error).toMatch(/stopped arriving|did not all arrive/);
    expect(await readIn('/unsized', how)).toMatchObject({
      ok: false,
      error: 'The image bytes came without their length.',
    });
    expect(await readIn('/refused', how)).toMatchObject({
      ok: false,
      error: 'The image bytes were refused (404).',
    });
  });

  it('refuses a body declared past the ceiling before reading it, as the image’s fault', async () => {
    expect(await readIn('/whole', how, BYTES.length - 1)).toMatchObject({
      ok: false,
      tooLarge: true,
    });
  });

  it('takes main’s refusal of a file over its cap (413) as the image’s fault too', async () => {
    expect(await readIn('/over-main-cap', how)).toMatchObject({
      ok: false,
      error: 'The image is larger than Pictor reads.',
      tooLarge: true,
    });
  });
});
