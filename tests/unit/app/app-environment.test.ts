import { describe, expect, it } from 'vitest';
import { readAppEnvironment, runtimeOverrides } from '../../../electron/app/app-environment';

describe('readAppEnvironment', () => {
  it('reads the overrides', () => {
    expect(
      readAppEnvironment({
        PICTOR_USER_DATA_DIR: '/tmp/data',
        PICTOR_GALLERY_DIR: '/tmp/gallery',
        PICTOR_DEMO_DURATION_MS: '500',
        PICTOR_POLL_INTERVAL_MS: '200',
        PICTOR_WATCH_TIMEOUT_MS: '4000',
      }),
    ).toEqual({
      userDataDir: '/tmp/data',
      galleryDir: '/tmp/gallery',
      demoDurationMs: 500,
      pollIntervalMs: 200,
      watchTimeoutMs: 4000,
    });
  });

  it('ignores what is malformed or out of range', () => {
    expect(
      readAppEnvironment({
        PICTOR_USER_DATA_DIR: 'relative/data',
        PICTOR_GALLERY_DIR: '',
        PICTOR_DEMO_DURATION_MS: '-5',
        PICTOR_POLL_INTERVAL_MS: '1',
      }),
    ).toEqual({});
    expect(readAppEnvironment({})).toEqual({});
  });

  it('turns the overrides into runtime options, leaving out what is not set', () => {
    expect(
      runtimeOverrides({ demoDurationMs: 500, pollIntervalMs: 200, watchTimeoutMs: 4000 }),
    ).toEqual({
      demo: { durationMs: 500 },
      pollIntervalMs: 200,
      watchTimeoutMs: 4000,
    });
    expect(runtimeOverrides({ userDataDir: '/x' })).toEqual({});
  });
});
