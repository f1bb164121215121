/**
 * Fetching the channel file over a real loopback server: a file of exactly the cap is read, one
 * byte more is refused whether or not its length was declared; HTTP errors and a refused
 * connection carry what the problem codes need; the deadline runs on the manual clock.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { FeedRefusedError } from '../../../../electron/app/updates/feed-yaml';
import {
  MAX_CHANNEL_FILE_BYTES,
  channelFileName,
  fetchRelease,
} from '../../../../electron/app/updates/release-feed';
import { classifyUpdateError } from '../../../../electron/app/updates/update-problems';
import { ManualClock } from '../../../fakes/manual-clock';
import { closedPort, startServer, type TestServer } from '../../../support/http-servers';

const sha = createHash('sha512').update('x').digest('base64');
const VALID = [
  'version: 0.2.0',
  'files:',
  '  - url: Pictor Setup 0.2.0.exe',
  `    sha512: ${sha}`,
  '    size: 1000',
  "releaseDate: '2026-11-20T10:00:00.000Z'",
  '',
].join('\n');

/** The valid file padded with a comment to exactly `bytes` bytes. */
function padded(bytes: number): string {
  const comment = '# ';
  return `${VALID}${comment}${'x'.repeat(bytes - VALID.length - comment.length)}`;
}

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(body: string, options: { declareLength: boolean; status?: number }) {
  server = await startServer((_req, res) => {
    res.writeHead(options.status ?? 200, {
      'content-type': 'text/yaml',
      ...(options.declareLength ? { 'content-length': Buffer.byteLength(body) } : {}),
    });
    // Undeclared: sent in 1 KiB pieces, so the limit is met while the body streams.
    for (let at = 0; at < body.length; at += 1024) res.write(body.slice(at, at + 1024));
    res.end();
  });
  return `${server.origin}/updates`;
}

const fetchFrom = (feedUrl: string, clock = new ManualClock()) =>
  fetchRelease({
    feedUrl,
    channelFile: 'latest.yml',
    currentVersion: '0.1.0',
    fetch: (url, init) => fetch(url, init),
    clock,
  });

describe('the channel file is read up to its cap and no further', () => {
  it.each([true, false])(
    'a file of exactly the cap is read (length declared: %s)',
    async (declared) => {
      const feedUrl = await serve(padded(MAX_CHANNEL_FILE_BYTES), { declareLength: declared });
      const { release, files } = await fetchFrom(feedUrl);
      expect(release.version).toBe('0.2.0');
      // Beside the channel file, in the feed's folder, the space encoded.
      expect(files.map((file) => file.url.href)).toEqual([
        `${server!.origin}/updates/Pictor%20Setup%200.2.0.exe`,
      ]);
      expect(server!.requests.map((request) => request.url)).toEqual(['/updates/latest.yml']);
    },
  );

  it.each([true, false])('one byte more is refused (length declared: %s)', async (declared) => {
    const feedUrl = await serve(padded(MAX_CHANNEL_FILE_BYTES + 1), { declareLength: declared });
    const error = await fetchFrom(feedUrl).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(FeedRefusedError);
    expect(classifyUpdateError(error)).toBe('feed_invalid');
  });
});

describe('what went wrong reaches the problem codes', () => {
  it('an HTTP error carries its status', async () => {
    const feedUrl = await serve('Not found', { declareLength: true, status: 404 });
    const error = await fetchFrom(feedUrl).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ statusCode: 404 });
    expect(classifyUpdateError(error)).toBe('feed_missing');
  });

  it('a refused connection carries the system code', async () => {
    const port = await closedPort();
    const error = await fetchFrom(`http://127.0.0.1:${port}/`).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'ECONNREFUSED' });
    expect(classifyUpdateError(error)).toBe('offline');
  });
});

describe('channel file names', () => {
  it.each([
    ['win32', 'x64', 'latest.yml'],
    ['darwin', 'arm64', 'latest-mac.yml'],
    ['linux', 'x64', 'latest-linux.yml'],
    ['linux', 'arm64', 'latest-linux-arm64.yml'],
  ] as const)('%s on %s reads %s', (platform, arch, name) => {
    expect(channelFileName(platform, arch)).toBe(name);
  });
});
