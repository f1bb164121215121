import { describe, expect, it } from 'vitest';
import { expectState, useDownloadFixture } from './download-fixture';
import { serve, startServer } from '../../../support/gallery-helpers';
import { galleryOnServer } from '../../../support/gallery-with-intake';

const f = useDownloadFixture();

describe('statuses and network failures', () => {
  it.each([401, 403, 404, 410])('%i means the URL expired', async (status) => {
    const url = f.server.route(`/gone-${status}`, (_req, res) => res.writeHead(status).end('gone'));
    expect(expectState((await f.download(url)).outcome, 'expired').error).toMatch(String(status));
  });

  it.each([500, 503, 408])('%i is retried', async (status) => {
    const url = f.server.route(`/fail-${status}`, (_req, res) =>
      res.writeHead(status).end('later'),
    );
    const outcome = expectState((await f.download(url)).outcome, 'retry');
    expect(outcome.error).toBe(
      `The image could not be downloaded: the server answered ${status}. Pictor will try again.`,
    );
    expect(outcome.retryAfterMs).toBeUndefined();
  });

  it('429 with Retry-After in seconds is retried after that delay', async () => {
    const url = f.server.route('/busy', (_req, res) =>
      res.writeHead(429, { 'Retry-After': '7' }).end(),
    );
    expect(expectState((await f.download(url)).outcome, 'retry')).toMatchObject({
      retryAfterMs: 7000,
    });
  });

  it("503 with Retry-After as an HTTP-date is a wait from the host's own Date", async () => {
    // A minute after the host's time (a whole second, as an HTTP-date has no fraction), whose
    // clock is the gallery's here: the wait is read against the answer's Date, not this machine's.
    const date = new Date(f.clock.now()).toUTCString();
    const when = new Date(f.clock.now() + 60_000).toUTCString();
    const url = f.server.route('/busy-date', (_req, res) =>
      res.writeHead(503, { 'Retry-After': when, Date: date }).end(),
    );
    const outcome = expectState((await f.download(url)).outcome, 'retry');
    expect(outcome.retryAfterMs).toBe(60_000);
  });

  it('a connection reset in the middle of the body', async () => {
    const url = f.server.route('/reset', (_req, res) => {
      res.writeHead(200, { 'Content-Length': String(f.png.length) });
      res.write(f.png.subarray(0, 20_000), () => res.socket?.resetAndDestroy());
    });
    expect(expectState((await f.download(url)).outcome, 'retry').error).toMatch(
      /connection dropped/,
    );
  });

  it('a body shorter than its Content-Length', async () => {
    const url = f.server.route('/short', (_req, res) => {
      res.writeHead(200, { 'Content-Length': String(f.png.length) });
      res.write(f.png.subarray(0, 20_000), () => res.socket?.end());
    });
    expectState((await f.download(url)).outcome, 'retry');
  });

  it('a refused connection', async () => {
    const closed = await startServer();
    const url = closed.route('/x.png', serve(f.png));
    await closed.close();
    expect(expectState((await f.download(url)).outcome, 'retry').error).toMatch(
      /could not be reached/,
    );
  });

  it('a server that stalls mid-body hits the per-attempt timeout', async () => {
    const { intake: quickIntake } = galleryOnServer(f.root, { downloadTimeoutMs: 300 });
    const url = f.server.route('/stall', (_req, res) => {
      res.writeHead(200, { 'Content-Length': String(f.png.length) });
      res.write(f.png.subarray(0, 1000));
    });
    const outcome = expectState((await f.download(url, { intake: quickIntake })).outcome, 'retry');
    expect(outcome.error).toMatch(/did not finish within/);
  });

  it('the caller aborting the attempt', async () => {
    const controller = new AbortController();
    const url = f.server.route('/slow', (_req, res) => {
      res.writeHead(200, { 'Content-Length': String(f.png.length) });
      res.write(f.png.subarray(0, 1000), () => controller.abort());
    });
    const outcome = expectState(
      (await f.download(url, { signal: controller.signal })).outcome,
      'retry',
    );
    expect(outcome.error).toMatch(/stopped/);
  });
});
