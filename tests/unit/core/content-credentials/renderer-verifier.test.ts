/**
 * The app's Content Credentials verifier over a scripted image renderer (the page is the test):
 * an honest verdict is recorded as the page said it; a page that lies about the shape of its
 * verdict is refused (the renderer is ended, the file answers `unreadable`, the next file gets a
 * new renderer); the time limit cancels the job in the page; a renderer that cannot run the
 * library rejects with VerifierUnavailableError, and the app's verifier then uses its fallback.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appCredentialVerifier } from '../../../../electron/adapters/image-engines/app-credential-verifier';
import { VerifierUnavailableError } from '../../../../electron/core/content-credentials/c2pa-verifier';
import { RendererCredentialVerifier } from '../../../../electron/core/content-credentials/renderer-verifier';
import { RendererImageEngine } from '../../../../electron/core/images/renderer-image-engine';
import type { ContentCredentialVerifier } from '../../../../electron/ports/content-credential-verifier';
import { silentLogger } from '../../../../electron/ports/logger';
import type { VerifyJob } from '../../../../shared/image-renderer/protocol';
import { FakeRendererHost } from '../../../fakes/fake-image-renderer';
import { SIGNED_VERDICT } from '../../../support/c2pa-hostile-cases';
import { ManualClock } from '../../../fakes/manual-clock';
import { UNTIL } from '../../../support/waits';

const TIMEOUT = 20_000;
const HONEST = SIGNED_VERDICT;

/** The image's bytes, as the caller read them from the file it opened. */
const bytes = Buffer.from('a signed image, as far as this test goes');
let clock: ManualClock;
let host: FakeRendererHost;
let engine: RendererImageEngine;
let verifier: RendererCredentialVerifier;

beforeEach(async () => {
  clock = new ManualClock();
  host = new FakeRendererHost();
  engine = new RendererImageEngine({ host, pageOrigin: 'pictor-app://images', clock });
  verifier = new RendererCredentialVerifier({
    renderer: engine,
    trustAnchors: '-----BEGIN CERTIFICATE-----test',
    timeoutMs: TIMEOUT,
  });
});

afterEach(async () => {
  await engine.dispose();
});

/** Every verify job the pages received so far. */
function verifyJobs(): VerifyJob[] {
  return host.renderers.flatMap((renderer) =>
    renderer.jobs().filter((job): job is VerifyJob => job.type === 'verify'),
  );
}

/** Starts a verification and returns it once the page received its job. */
async function sent(start = () => verifier.verify({ bytes, format: 'png' })) {
  const before = verifyJobs().length;
  const verdict = start();
  verdict.catch(() => undefined);
  const job = await vi.waitFor(() => {
    const posted = verifyJobs()[before];
    if (!posted) throw new Error('no verify job yet');
    return posted;
  }, UNTIL);
  return { verdict, job };
}

describe('a verify job on the image renderer', () => {
  it('sends the image by a one-time address with its bounds and trust list', async () => {
    const { verdict, job } = await sent();
    expect(job).toMatchObject({
      type: 'verify',
      mime: 'image/png',
      maxBytes: 64 * 1024 * 1024,
      trustAnchors: '-----BEGIN CERTIFICATE-----test',
    });
    expect(job.url).toMatch(/^test-image:\/\/job\/.+/);
    host.current.answer({ type: 'credentials', id: job.id, verdict: HONEST });
    await expect(verdict).resolves.toEqual(HONEST);
  });

  it('keeps an honest invalid verdict with its codes', async () => {
    const { verdict, job } = await sent();
    const invalid = { state: 'invalid', codes: ['assertion.dataHash.mismatch'], signer: 'S' };
    host.current.answer({ type: 'credentials', id: job.id, verdict: invalid });
    await expect(verdict).resolves.toEqual(invalid);
  });

  const LIES: Array<[string, unknown]> = [
    ['a field the record has no place for', { ...HONEST, note: 'trust me' }],
    ['a signer with a control character', { ...HONEST, signer: 'Evil\u001b[2JCorp' }],
    ['a signer longer than the record keeps', { ...HONEST, signer: 'x'.repeat(201) }],
    ['an empty signer', { ...HONEST, signer: '' }],
    ['trusted as a word', { ...HONEST, trusted: 'yes' }],
    ['a state of its own', { ...HONEST, state: 'trusted' }],
    ['the core’s own finding, none', { state: 'none' }],
    ['a code that is not one', { state: 'invalid', codes: ['<script>'] }],
    ['more codes than the record keeps', { state: 'invalid', codes: Array(17).fill('a.b') }],
    ['no verdict at all', undefined],
  ];

  it.each(LIES)('refuses a page that answers %s: unreadable, renderer ended', async (_n, lie) => {
    const { verdict, job } = await sent();
    const lying = host.current;
    lying.answer({ type: 'credentials', id: job.id, verdict: lie });
    await expect(verdict).resolves.toEqual({ state: 'unreadable' });
    expect(lying.closed).toBe(true);
    // The next file is verified on a new renderer.
    const next = await sent();
    expect(host.current).not.toBe(lying);
    host.current.answer({ type: 'credentials', id: next.job.id, verdict: HONEST });
    await expect(next.verdict).resolves.toEqual(HONEST);
  });

  it('an answer of another kind to a verify job is not believed', async () => {
    const { verdict, job } = await sent();
    host.current.answer({ type: 'undecodable', id: job.id, detail: 'not an image' });
    await expect(verdict).resolves.toEqual({ state: 'unreadable' });
  });

  it('cancels a job that overruns its time in the page, and answers unreadable', async () => {
    const { verdict, job } = await sent();
    await clock.advance(TIMEOUT - 1);
    expect(host.current.cancels()).toEqual([]);
    await clock.advance(1);
    await expect(verdict).resolves.toEqual({ state: 'unreadable' });
    expect(host.current.cancels()).toEqual([job.id]);
  });

  it('answers unreadable for a file the renderer died on', async () => {
    const { verdict } = await sent();
    host.current.crash('its process ended (oom)');
    await expect(verdict).resolves.toEqual({ state: 'unreadable' });
  });

  it('sends nothing for a file over its size limit', async () => {
    const small = new RendererCredentialVerifier({
      renderer: engine,
      trustAnchors: '',
      maxBytes: 8,
    });
    await expect(small.verify({ bytes, format: 'png' })).resolves.toEqual({ state: 'unreadable' });
    expect(host.renderers).toHaveLength(0);
  });

  it('rejects when the page could not load the library', async () => {
    const { verdict, job } = await sent();
    host.current.answer({ type: 'failed', id: job.id, detail: 'The library did not load.' });
    await expect(verdict).rejects.toBeInstanceOf(VerifierUnavailableError);
  });

  it('rejects when the renderer cannot start', async () => {
    host.failStart = 'no display';
    await expect(verifier.verify({ bytes, format: 'png' })).rejects.toBeInstanceOf(
      VerifierUnavailableError,
    );
  });
});

describe('the app’s verifier', () => {
  it('falls back to the worker-thread verifier for the rest of the run when the renderer cannot verify', async () => {
    host.failStart = 'no display';
    const asked: Uint8Array[] = [];
    const fallback: ContentCredentialVerifier = {
      verify: async (request) => {
        asked.push(request.bytes);
        return { state: 'unreadable' };
      },
      dispose: async () => undefined,
    };
    let made = 0;
    const app = appCredentialVerifier({
      renderer: engine,
      trustAnchors: '',
      logger: silentLogger,
      fallback: () => {
        made += 1;
        return fallback;
      },
    });
    await expect(app.verify({ bytes, format: 'png' })).resolves.toEqual({ state: 'unreadable' });
    await expect(app.verify({ bytes, format: 'png' })).resolves.toEqual({ state: 'unreadable' });
    expect(asked).toEqual([bytes, bytes]);
    expect(made).toBe(1);
    expect(host.renderers).toHaveLength(0);
  });

  it('uses the renderer while it can', async () => {
    const app = appCredentialVerifier({
      renderer: engine,
      trustAnchors: '',
      logger: silentLogger,
      fallback: () => {
        throw new Error('no fallback expected');
      },
    });
    const { verdict, job } = await sent(() => app.verify({ bytes, format: 'png' }));
    host.current.answer({ type: 'credentials', id: job.id, verdict: HONEST });
    await expect(verdict).resolves.toEqual(HONEST);
  });
});
