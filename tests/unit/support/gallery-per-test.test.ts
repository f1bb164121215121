/**
 * The set-up of the gallery download tests (tests/support/gallery-per-test.ts): one loopback server
 * for the block, a gallery of each test's own, its folder still there in the block's afterEach and
 * gone once the test ends. The tests of a block run in order: each later one looks at what the one
 * before left.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { galleryPerTest } from '../../support/gallery-per-test';
import { makeImage, makeRecord, serve } from '../../support/gallery-helpers';

describe('galleryPerTest', () => {
  let madeFor = 0;
  const fixture = galleryPerTest(() => {
    madeFor += 1;
    return { downloadTimeoutMs: 5_000 };
  });
  const atCollection = (() => {
    try {
      return fixture.root;
    } catch (error) {
      return error;
    }
  })();
  const seen: { root: string; baseUrl: string }[] = [];
  let rootInAfterEach: boolean | undefined;
  afterEach(() => {
    rootInAfterEach = existsSync(fixture.root);
  });

  it('has no gallery while the file is collected, and makes one in each test’s beforeEach', () => {
    expect(atCollection).toBeInstanceOf(Error);
    expect(madeFor).toBe(1);
  });

  it('downloads into the test’s own initialised gallery from the block’s server', async () => {
    const url = fixture.server.route('/a.png', serve(await makeImage('png', 8, 8)));
    const record = makeRecord([url]);
    const saved = await fixture.intake.downloadImage(record, 0, fixture.server.baseUrl);
    if (saved.state !== 'saved') throw new Error(`not saved: ${JSON.stringify(saved)}`);
    expect(existsSync(join(fixture.root, saved.file))).toBe(true);
    seen.push({ root: fixture.root, baseUrl: fixture.server.baseUrl });
  });

  it('keeps the folder for the afterEach, then removes it; the server stays, the options run again', () => {
    expect(rootInAfterEach).toBe(true);
    expect(existsSync(seen[0]!.root)).toBe(false);
    expect(fixture.root).not.toBe(seen[0]!.root);
    expect(fixture.server.baseUrl).toBe(seen[0]!.baseUrl);
    expect(madeFor).toBe(3);
  });
});
