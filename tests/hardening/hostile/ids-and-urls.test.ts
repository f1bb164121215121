/**
 * Hostile task ids and image URLs. Task ids (traversal, encoded slashes, NUL, very
 * long, look-alikes, empty) go through validation and every place an id becomes a path or URL:
 * the poll URL (also over real loopback HTTP), the gallery folder name, gallery paths and the
 * gallery protocol. Image URLs (schemes, non-public addresses in every notation, userinfo and
 * backslash tricks, overlong) go through checkImageUrl, judged by an independent oracle.
 */
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskFolderName } from '../../../electron/core/gallery/gallery-layout';
import { GalleryPathError, resolveInside } from '../../../electron/core/fs/gallery-path';
import { resolveGalleryRequest } from '../../../electron/app/protocol/gallery-request';
import { GALLERY_HOST } from '../../../electron/app/protocol/schemes';
import { GALLERY_SCHEME } from '../../../shared/ipc/api';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { ServiceError } from '../../../electron/core/service/service-error';
import { MAX_TASK_ID_LENGTH, checkTaskId, taskPath } from '../../../electron/core/service/task-id';
import {
  UrlPolicyError,
  checkBaseUrl,
  checkImageUrl,
  checkResolvedAddresses,
} from '../../../electron/core/service/url-policy';
import { classifyAddress } from '../../../electron/core/service/special-addresses';
import { AttemptAbort } from '../../../electron/core/download/attempt-abort';
import { requestImage } from '../../../electron/core/download/image-request';
import type { ResolvedAddress } from '../../../electron/ports/http';
import { startServer, sendJson, type TestServer } from '../../support/http-servers';
import { NOT_MEASURED, recordReliability } from '../support/reliability-record';
import { scaled } from '../support/scale';
import {
  dotted,
  isNonPublicHost,
  isNonPublicIp,
  nonPublicV4,
  nonPublicV6,
  publicV4,
  publicV6,
  v4Notations,
} from './address-oracle';
import { hostileImageUrl, taskId } from './id-url-inputs';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const RUNS = scaled(2000, 20000);
const CLIENT_RUNS = scaled(200, 2000);
const REMOTE = 'https://api.example.com';
const tried: Record<string, number> = {};
const count = (kind: string): void => {
  tried[kind] = (tried[kind] ?? 0) + 1;
};
const passed = new Set<string>();
/** What the checks below found, counted before each assertion fails the run on it. */
const found = {
  escapedFolder: 0,
  escapedServicePath: 0,
  nonPublicImageAccepted: 0,
  otherThrows: 0,
};
/** Counts `kind` when `bad`, and returns `bad` for the assertion that follows. */
function tally(kind: keyof typeof found, bad: boolean): boolean {
  if (bad) found[kind] += 1;
  return bad;
}

function expectIdRefusal(error: unknown, id: string): void {
  tally('otherThrows', !(error instanceof ServiceError));
  expect(error).toBeInstanceOf(ServiceError);
  const { kind, message } = error as ServiceError;
  expect(kind).toBe('config');
  expect(message).toMatch(/^The task id .+ Check the task id and paste it again\.$/);
  expect(message.length).toBeLessThan(200);
  if (id.trim().length > 3) expect(message).not.toContain(id.trim());
}

/** The id's path must stay one segment under `<base>/v1/tasks/` and decode to the id. */
function expectOneSegment(service: string, id: string, checked: string): void {
  // As the client builds it: the checked base URL (no trailing slash) plus the task path.
  const base = checkBaseUrl(service);
  const url = new URL(`${base}${taskPath(id)}`);
  const prefix = `${new URL(base).pathname.replace(/\/$/, '')}/v1/tasks/`;
  const segment = url.pathname.slice(prefix.length);
  tally(
    'escapedServicePath',
    !url.pathname.startsWith(prefix) ||
      /[/\\]/.test(segment) ||
      url.search + url.hash !== '' ||
      decodesTo(segment) !== checked,
  );
  expect(url.pathname.startsWith(prefix)).toBe(true);
  expect(segment).not.toMatch(/[/\\]/);
  expect(decodeURIComponent(segment)).toBe(checked);
  expect(url.search + url.hash).toBe('');
}

/** `segment` percent-decoded, or null when it does not decode. */
function decodesTo(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Percent-encoded, or as is when it cannot be (a lone surrogate). */
function encodeOrRaw(id: string): string {
  try {
    return encodeURIComponent(id);
  } catch {
    return id;
  }
}

function isInside(root: string, file: string): boolean {
  const inside = relative(root, file);
  return inside !== '' && !inside.startsWith(`..${sep}`) && inside !== '..' && !isAbsolute(inside);
}

let base: string;
let root: string;
let secret: string;
beforeAll(async () => {
  base = await realpath(await tempFolder('hostile-ids'));
  root = join(base, 'gallery');
  secret = join(base, 'secret.png');
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#f00' } })
    .png()
    .toBuffer();
  await mkdir(join(root, '2024', '01', 'task'), { recursive: true });
  await writeFile(join(root, '2024', '01', 'task', 'image-0.png'), png);
  await writeFile(secret, png);
});
afterAll(() => removeFolder(base));

describe('task ids', () => {
  it('are refused with a clear error, or stay one encoded segment of the poll URL', () => {
    fc.assert(
      fc.property(
        taskId,
        fc.constantFrom(REMOTE, 'https://api.example.com/proxy/v2', 'http://127.0.0.1:8080/a/b/'),
        (id, service) => {
          count('task-id');
          let checked: string;
          try {
            checked = checkTaskId(id);
          } catch (error) {
            expectIdRefusal(error, id);
            expect(() => taskPath(id)).toThrow(ServiceError);
            return;
          }
          expect(checked.length).toBeLessThanOrEqual(MAX_TASK_ID_LENGTH);
          expectOneSegment(service, id, checked);
        },
      ),
      { numRuns: RUNS },
    );
    passed.add('task-id');
  });

  it('never name a folder or file outside the gallery', () => {
    fc.assert(
      fc.property(taskId, fc.integer({ min: -8.64e15, max: 8.64e15 }), (id, createdAt) => {
        count('folder-name');
        const folder = taskFolderName({ createdAt, localId: id, request: { prompt: id } });
        // Three segments of [0-9a-z_-] only: nothing from the id or prompt can add a separator or a dot.
        expect(folder).toMatch(/^[0-9-]+\/[0-9-]+\/[0-9-]+_\d{6}_[a-z0-9-]+_[a-z0-9-]+$/);
        expect(tally('escapedFolder', !isInside(root, resolveInside(root, folder)))).toBe(false);
        for (const path of [id, `${folder}/${id}`, `2024/01/${id}/image-0.png`]) {
          count('gallery-path');
          let resolved: string;
          try {
            resolved = resolveInside(root, path);
          } catch (error) {
            tally('otherThrows', !(error instanceof GalleryPathError));
            expect(error).toBeInstanceOf(GalleryPathError);
            expect((error as Error).message).toMatch(/^The gallery path [^\n]{5,80}\.$/);
            continue;
          }
          expect(tally('escapedFolder', !isInside(root, resolved))).toBe(false);
        }
      }),
      { numRuns: RUNS },
    );
    passed.add('folder');
  });

  it('in a gallery protocol address: refused, or a file inside the gallery', async () => {
    const scheme = `${GALLERY_SCHEME}://${GALLERY_HOST}`;
    await fc.assert(
      fc.asyncProperty(
        taskId,
        fc.constantFrom('raw', 'encoded', 'folder', 'image'),
        async (id, how) => {
          count('gallery-request');
          const path =
            how === 'raw'
              ? id
              : how === 'encoded'
                ? encodeOrRaw(id)
                : how === 'folder'
                  ? `2024/01/${id}/image-0.png`
                  : `2024/01/task/${id}`;
          const served = await resolveGalleryRequest(root, `${scheme}/${path}`);
          if (served.ok) {
            tally('escapedFolder', !isInside(root, served.file) || served.file === secret);
            expect(isInside(root, served.file)).toBe(true);
            expect(served.file).not.toBe(secret);
          } else {
            expect([400, 403, 404]).toContain(served.status);
            expect(served.reason).toMatch(/^[A-Z][^\n]{5,80}\.$/);
            if (id.length > 3) expect(served.reason).not.toContain(id);
          }
        },
      ),
      { numRuns: RUNS },
    );
    passed.add('protocol');
  });

  it('reach the real service only as one encoded segment under /v1/tasks/', async () => {
    const server: TestServer = await startServer((_req, res) =>
      sendJson(res, 200, { status: 'processing' }),
    );
    const client = new ServiceClient({
      fetch: (url, init) => fetch(url, init),
      ...bundledAnswers(),
    });
    const credentials = {
      baseUrl: `${server.origin}/svc`,
      key: 'sk-hostile-ids-0123456789',
      keyFingerprint: 'a',
    };
    let expectedRequests = 0;
    try {
      await fc.assert(
        fc.asyncProperty(taskId, async (id) => {
          count('client-poll');
          const accepted = (() => {
            try {
              return checkTaskId(id);
            } catch {
              return null;
            }
          })();
          const outcome = await client.getTask(credentials, id).then(
            (task) => task,
            (error: unknown) => error,
          );
          if (accepted === null) return expectIdRefusal(outcome, id);
          expectedRequests += 1;
          expect(outcome).toEqual({ status: 'processing' });
          const seen = server.requests[server.requests.length - 1]!.url;
          tally(
            'escapedServicePath',
            !seen.startsWith('/svc/v1/tasks/') ||
              decodesTo(seen.slice('/svc/v1/tasks/'.length)) !== accepted,
          );
          expect(seen.startsWith('/svc/v1/tasks/')).toBe(true);
          expect(decodeURIComponent(seen.slice('/svc/v1/tasks/'.length))).toBe(accepted);
        }),
        { numRuns: CLIENT_RUNS },
      );
      // A refused id sent nothing at all (a request it made went where no task is).
      found.escapedServicePath += Math.max(0, server.requests.length - expectedRequests);
      expect(server.requests).toHaveLength(expectedRequests);
    } finally {
      await server.close();
    }
    passed.add('client');
  });
});

function expectUrlRefusal(error: unknown, url: string): void {
  tally('otherThrows', !(error instanceof UrlPolicyError));
  expect(error).toBeInstanceOf(UrlPolicyError);
  const { message } = error as UrlPolicyError;
  expect(message).toMatch(/^The image address [^\n]{10,200}\.$/);
  if (url.length > 12) expect(message).not.toContain(url);
}

describe('image URLs', () => {
  it('to non-public hosts, other schemes, through tricks or overlong: refused with a clear error', () => {
    fc.assert(
      fc.property(hostileImageUrl, ({ kind, url }) => {
        count(`image-url:${kind}`);
        let accepted: URL;
        try {
          accepted = checkImageUrl(url, REMOTE);
        } catch (error) {
          return expectUrlRefusal(error, url);
        }
        // Only a trick whose parsed host is the good one may pass (the fetch then goes there).
        expect(kind).toBe('userinfo-backslash');
        expect(tally('nonPublicImageAccepted', isNonPublicHost(accepted.hostname))).toBe(false);
        expect(accepted.username + accepted.password).toBe('');
      }),
      { numRuns: RUNS },
    );
    passed.add('image-hostile');
  });

  it('any URL is accepted exactly when the oracle calls its host public', () => {
    const anyUrl = fc.oneof(
      fc.webUrl({
        validSchemes: ['https', 'http'],
        withQueryParameters: true,
        withFragments: true,
      }),
      publicV4.map((n) => `https://${dotted(n)}/a.png`),
      fc
        .tuple(fc.oneof(publicV4, nonPublicV4), fc.nat())
        .map(([n, pick]) => `https://${v4Notations(n)[pick % 11]!}/a.png`),
      nonPublicV6.map((host) => `https://[${host}]/a.png`),
    );
    fc.assert(
      fc.property(anyUrl, (url) => {
        count('image-url:any');
        const publicHost = !isNonPublicHost(new URL(url).hostname);
        let accepted = false;
        try {
          checkImageUrl(url, REMOTE);
          accepted = true;
        } catch (error) {
          expectUrlRefusal(error, url);
        }
        tally('nonPublicImageAccepted', accepted && !publicHost);
        expect(accepted).toBe(publicHost);
      }),
      { numRuns: RUNS },
    );
    passed.add('image-any');
  });

  it.each(
    [
      'file:///etc/passwd',
      'data:image/png;base64,AAAA',
      'javascript:alert(1)',
      'blob:https://cdn.example.com/1',
      'ftp://cdn.example.com/a.png',
      'https://127.1/',
      'https://0x7f.1/',
      'https://2130706433/',
      'https://017700000001/',
      'https://0177.0.0.1/',
      'https://127.0.0.1./',
      'https://0/',
      'https://[::]/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:7f00:1]/',
      'https://[0:0:0:0:0:ffff:a9fe:a9fe]/',
      'https://[::127.0.0.1]/',
      'https://[::ffff:0:127.0.0.1]/',
      'https://[64:ff9b::127.0.0.1]/',
      'https://[64:ff9b::169.254.169.254]/',
      'https://[64:ff9b:1::808:808]/',
      'https://[2002:7f00:1::1]/',
      'https://[2002:a9fe:a9fe::]/',
      'https://[fe80::1%25eth0]/',
      'https://[fe80::1]/',
      'https://[febf::1]/',
      'https://[fc00::1]/',
      'https://[fd12:3456::1]/',
      'https://[ff02::1]/',
      'https://169.254.169.254/latest/meta-data/',
      'https://100.64.0.1/',
      'https://100.127.255.254/',
      'https://172.31.255.255/',
      'https://192.168.1.1/',
      'https://10.0.0.1/',
      'https://224.0.0.1/',
      'https://255.255.255.255/',
      'https://good.com@127.0.0.1/',
      'https://127.0.0.1#@good.com',
      'https:\\\\127.0.0.1\\a.png',
      'https://127.0.0.1\\@good.com/',
      'https://user:pass@cdn.example.com/a.png',
      'https://x.localhost./a.png',
      `https://cdn.example.com/${'a'.repeat(70_000)}`,
    ].map((url) => [
      url.length > 100 ? `${url.slice(0, 40)}… (${url.length} characters)` : url,
      url,
    ]),
  )('hand table: %s is refused', (_name, url) => {
    count('image-url:table');
    let accepted = true;
    try {
      checkImageUrl(url, REMOTE);
    } catch (error) {
      accepted = false;
      expectUrlRefusal(error, url);
    }
    expect(tally('nonPublicImageAccepted', accepted)).toBe(false);
  });

  it.each(
    [
      'https://cdn.example.com/a.png?sig=abc&exp=1',
      'https://8.8.8.8/a.png',
      'https://[2606:4700::1111]/a.png',
      'https://[64:ff9b::808:808]/a.png',
      'https://[2002:808:808::1]/a.png',
      'http://images.example.org:8080/x/y.webp',
      `https://cdn.example.com/${'a'.repeat(4_000)}.png`,
    ].map((url) => [
      url.length > 100 ? `${url.slice(0, 40)}… (${url.length} characters)` : url,
      url,
    ]),
  )('hand table: %s is accepted', (_name, url) => {
    count('image-url:table');
    expect(checkImageUrl(url, REMOTE).href).toBe(new URL(url).href);
  });
});

describe('resolved addresses', () => {
  // What a resolver may answer for an image host's name: every special block, and public ones.
  const anyAddress = fc.oneof(nonPublicV4.map(dotted), publicV4.map(dotted), nonPublicV6, publicV6);

  it('are refused exactly when the oracle calls them non-public', () => {
    fc.assert(
      fc.property(anyAddress, (address) => {
        count('resolved:any');
        const nonPublic = isNonPublicIp(address.toLowerCase());
        expect(classifyAddress(address) !== 'public', address).toBe(nonPublic);
        let refused = false;
        try {
          checkResolvedAddresses([{ address }], REMOTE);
        } catch (error) {
          refused = true;
          tally('otherThrows', !(error instanceof UrlPolicyError));
          expect(error).toBeInstanceOf(UrlPolicyError);
          expect((error as Error).message).toContain(`(${address})`);
        }
        tally('nonPublicImageAccepted', nonPublic && !refused);
        expect(refused, address).toBe(nonPublic);
      }),
      { numRuns: RUNS },
    );
    passed.add('resolved-any');
  });

  it('through the image request: a name with any non-public answer never reaches the fetch', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyAddress, { minLength: 1, maxLength: 4 }), async (answers) => {
        count('resolved:request');
        const pins: ResolvedAddress[] = [];
        const abort = new AttemptAbort(5_000);
        const answer = await requestImage(
          {
            resolve: async () =>
              answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
            fetch: async (_url, _init, address) => {
              pins.push(address);
              return new Response('image', { status: 200 });
            },
            baseUrl: REMOTE,
            maxRedirects: 5,
            abort,
            now: Date.now,
          },
          'https://images.example.net/a.png',
        ).finally(() => abort.dispose());
        const refused = answers.some((address) => isNonPublicIp(address.toLowerCase()));
        tally('nonPublicImageAccepted', refused && pins.length > 0);
        expect(answer.ok, answers.join(' ')).toBe(!refused);
        expect(pins.map((pin) => pin.address)).toEqual(refused ? [] : [answers[0]]);
      }),
      { numRuns: Math.ceil(RUNS / 4) },
    );
    passed.add('resolved-request');
  });
});

describe('record', () => {
  it('every path was tried', () => {
    expect([...passed].sort()).toEqual([
      'client',
      'folder',
      'image-any',
      'image-hostile',
      'protocol',
      'resolved-any',
      'resolved-request',
      'task-id',
    ]);
    recordReliability({
      section: 'hostile-input',
      row: 'Hostile task ids and image URLs',
      load: `${RUNS} generated ids or URLs per property, ${CLIENT_RUNS} ids through the real client over loopback HTTP`,
      injected: tried,
      outcome: { ...found },
      // Ids and URLs only: no task is made, so none can be lost or repeated.
      lost: NOT_MEASURED,
      duplicated: NOT_MEASURED,
      // A file served from outside the gallery, a key-bearing request outside the task path.
      leaked: found.escapedFolder + found.escapedServicePath,
      file: 'tests/hardening/hostile/ids-and-urls.test.ts',
    });
  });
});
