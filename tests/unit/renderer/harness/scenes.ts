/**
 * Seeded states of the fake API for screenshots: each scene fills the fake with what one screen
 * should show. Image paths point at PNGs the screenshot script writes beside the page.
 */
import type { TaskRecord } from '../../../../shared/domain/task-record';
import type { FakePictorApi } from '../../../fakes/fake-pictor-api';
import { makeImage } from '../../../support/task-records';
import { ownAddress } from '../../../support/own-address';

/** The real clock: the page ticks with it, so elapsed times and countdowns read naturally. */
export const HARNESS_NOW = Date.now();
/** Which thumbnails the screenshot script generates: `g/<n>.png` for n in 0..IMAGE_COUNT-1. */
export const IMAGE_COUNT = 12;

/** The prompts the scenes' tasks take in turn. */
export const SCENE_PROMPTS: readonly string[] = [
  'A lighthouse on a basalt cliff at dusk, long exposure, soft pink sky',
  'Isometric illustration of a tiny bakery with a striped awning',
  'Portrait of a red fox in falling snow, shallow depth of field',
  'Watercolour map of an imaginary archipelago with hand-lettered names',
  'A brutalist library interior flooded with morning light',
  'Macro photograph of dew drops on a spider web, backlit',
  'Retro travel poster for a city on the Moon, 1960s style',
  'Still life of lemons and a blue jug on a linen tablecloth',
];

function images(seed: number, count: number): TaskRecord['images'] {
  return Array.from({ length: count }, (_, index) => {
    const n = (seed * 3 + index) % IMAGE_COUNT;
    return makeImage(index, { file: `g/${n}.png`, thumbnail: `g/${n}.png` });
  });
}

function base(index: number): Partial<TaskRecord> & { prompt: string } {
  return {
    prompt: SCENE_PROMPTS[index % SCENE_PROMPTS.length]!,
    request: {
      prompt: SCENE_PROMPTS[index % SCENE_PROMPTS.length]!,
      model: index % 3 === 0 ? 'gpt-image-1' : 'demo-1',
      size: ['1024x1024', '1536x1024', '1024x1536'][index % 3]!,
      quality: ['high', 'medium', 'low'][index % 3]!,
    },
  };
}

/** Every status the list can show, then a long completed history. */
function busyHistory(index: number): Partial<TaskRecord> & { prompt: string } {
  const common = base(index);
  const created = HARNESS_NOW - index * 60_000 - 42_000;
  switch (index) {
    case 0:
      return {
        ...common,
        status: 'submitting',
        taskId: null,
        submittedAt: null,
        finishedAt: null,
        createdAt: HARNESS_NOW - 2_000,
      };
    case 1:
      return {
        ...common,
        status: 'processing',
        submittedAt: created,
        finishedAt: null,
        createdAt: created,
      };
    case 2:
      return { ...common, status: 'completed', images: images(index, 4), createdAt: created };
    case 3:
      return {
        ...common,
        status: 'failed',
        finishedAt: created + 20_000,
        createdAt: created,
        error: {
          kind: 'task_failed',
          message:
            'The service could not generate this image: the prompt was flagged by its content policy.',
          detail: 'error: {"code":"content_policy_violation"}',
        },
      };
    case 4:
      return {
        ...common,
        status: 'submit_failed',
        taskId: null,
        submittedAt: null,
        finishedAt: null,
        createdAt: created,
        error: {
          kind: 'credits',
          message:
            'Your account has no credits left. Add credits in the billing console, then submit again.',
          httpStatus: 402,
        },
      };
    case 5:
      return {
        ...common,
        status: 'processing',
        hold: 'timed_out',
        finishedAt: null,
        createdAt: created,
      };
    case 6:
      return {
        ...common,
        status: 'submit_unknown',
        taskId: null,
        finishedAt: null,
        createdAt: created,
      };
    case 7:
      return {
        ...common,
        status: 'processing',
        hold: 'awaiting_key',
        finishedAt: null,
        createdAt: created,
        account: '3f9a1c22b07e',
      };
    case 8:
      return {
        ...common,
        status: 'completed',
        images: [
          ...images(index, 1),
          makeImage(1, { state: 'expired', file: undefined, thumbnail: undefined }),
        ],
        createdAt: created,
      };
    default:
      return {
        ...common,
        status: 'completed',
        images: images(index, 1 + (index % 4)),
        favourite: index % 5 === 0,
        createdAt: created,
      };
  }
}

export type SceneName =
  'tasks' | 'tasks-empty' | 'task-details' | 'tasks-offline' | 'settings' | 'settings-consent';

/** Fills `fake` for a scene; answers the view to open. */
export function seedScene(fake: FakePictorApi, scene: SceneName): 'tasks' | 'settings' {
  fake.settings = { ...fake.settings, defaultModel: 'gpt-image-1', defaultQuality: 'high' };
  if (scene === 'tasks-empty') return 'tasks';
  fake.seedTasks(scene === 'settings' || scene === 'settings-consent' ? 3 : 2_000, busyHistory);
  // The processing task (seed-000001) waits for its next poll.
  fake.setLive('seed-000001', { nextPollAt: HARNESS_NOW + 2_400, polling: false, downloads: 0 });
  if (scene === 'tasks-offline') fake.info = { ...fake.info, online: false };
  if (scene === 'settings') {
    fake.info = { ...fake.info, demo: false };
    fake.settings = { ...fake.settings, ...ownAddress('https://images.example.com') };
    fake.keyStatus = {
      state: 'ready',
      fingerprint: '3f9a1c22b07e',
      backend: 'gnome_libsecret',
      weak: false,
      message: null,
    };
    return 'settings';
  }
  if (scene === 'settings-consent') {
    fake.storage = { backend: 'basic_text', weak: true };
    fake.keyStatus = {
      state: 'needs_consent',
      fingerprint: null,
      backend: 'basic_text',
      weak: true,
      message:
        'This computer protects saved secrets only with Chromium’s basic text store, which is effectively plain text. Store the key anyway if you accept that anyone who can read your files could read the key, or set up a keyring and restart Pictor.',
    };
    return 'settings';
  }
  return 'tasks';
}
