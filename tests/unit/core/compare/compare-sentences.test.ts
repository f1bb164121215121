/**
 * What a compare's plan says comes as catalogue sentences (shared/i18n/errors/compare.ts, the
 * target check's and the caps' own), so the compare dialog says it in the window's language:
 * each case of a parameter adapted (a quality the service lacks, a size as an aspect ratio, a
 * size that is none), of a target left out (no address, no key there, another service's key, the
 * demo not running, an address Pictor sends nothing to), of a compare refused (nothing left, past
 * one submit's limit, a hard cap, out of its bounds) and a soft cap's warning. Each sentence reads
 * as the English the CLI prints, reads otherwise in German and in the pseudo-locale with every
 * value kept, and passes the schema sentences cross IPC with.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { localeInfo, type LocaleInfo } from '../../../../shared/domain/locales';
import { MainCatalogue } from '../../../../shared/i18n/main-catalogue';
import { MAIN_TRANSLATIONS } from '../../../../shared/i18n/main-translations';
import { englishText, sentenceSchema, type Sentence } from '../../../../shared/i18n/sentence';
import { adaptRequest } from '../../../../electron/core/fan-out/fan-out-adapt';
import {
  CompareInputError,
  planCompare,
  type CompareInput,
  type CompareTargetInput,
} from '../../../../electron/core/compare/compare-plan';
import { CostBook } from '../../../../electron/core/costs/cost-book';
import type {
  CredentialsProvider,
  ServiceCredentials,
} from '../../../../electron/ports/credentials';
import { historyStorePerTest } from '../history/history-fixtures';

const german = new MainCatalogue(localeInfo('de') as LocaleInfo, MAIN_TRANSLATIONS['de']);
const pseudo = new MainCatalogue(localeInfo('en-XA') as LocaleInfo, undefined);

/**
 * `said` has `key`, reads as `english`, and reads otherwise in German and the pseudo-locale with
 * each of `values` kept; it survives the IPC schema unchanged.
 */
function expectSentence(
  said: Sentence | undefined,
  key: string,
  english: string,
  values: string[] = [],
) {
  expect(said?.key).toBe(key);
  expect(englishText(said!)).toBe(english);
  expect(sentenceSchema().parse(said)).toEqual(said);
  for (const shown of [
    german.text(said!.key, said!.params),
    pseudo.text(said!.key, said!.params),
  ]) {
    expect(shown).not.toBe(english);
    for (const value of values) expect(shown).toContain(value);
  }
}

describe('a parameter adapted to its service', () => {
  it('today’s contract takes the size and the quality as they are, and says nothing', () => {
    const adapted = adaptRequest('pictor', { prompt: 'a kite', size: '1000x300', quality: 'hd' });
    expect(adapted.request).toEqual({ prompt: 'a kite', size: '1000x300', quality: 'hd' });
    expect(adapted.notes).toEqual([]);
  });

  it('a quality the service lacks is left out, said with its value', () => {
    const adapted = adaptRequest('fal', { prompt: 'a kite', quality: 'hd' });
    expect(adapted.request).toEqual({ prompt: 'a kite' });
    expect(adapted.notes).toHaveLength(1);
    expectSentence(
      adapted.notes[0],
      'error.compare.noQuality',
      'fal.ai has no quality setting: “hd” is left out.',
      ['fal.ai', 'hd'],
    );
  });

  it('a size becomes the aspect ratio the service takes: 1024×1024 → 1:1', () => {
    const adapted = adaptRequest('replicate', { prompt: 'a kite', size: '1024x1024' });
    expect(adapted.request.size).toBe('1024x1024');
    expectSentence(
      adapted.notes[0],
      'error.compare.aspectRatio',
      'Replicate takes an aspect ratio: 1024×1024 → 1:1.',
      ['Replicate', '1024×1024', '1:1'],
    );
  });

  it('a size that is no aspect ratio the service offers is left out', () => {
    const adapted = adaptRequest('replicate', { prompt: 'a kite', size: '1000x300' });
    expect(adapted.request.size).toBeUndefined();
    expectSentence(
      adapted.notes[0],
      'error.compare.noAspectRatio',
      'Replicate takes an aspect ratio, and 1000×300 is none it offers: the size is left out (its default).',
      ['Replicate', '1000×300'],
    );
  });
});

/** Keys by endpoint, each entered for a provider. */
class MapCredentials implements CredentialsProvider {
  constructor(private readonly keys: Record<string, ServiceCredentials>) {}
  currentEndpoint(): string {
    return 'demo:';
  }
  async credentialsFor(endpoint: string): Promise<ServiceCredentials | null> {
    return this.keys[endpoint] ?? null;
  }
  baseUrlFor(endpoint: string): string | null {
    return this.keys[endpoint]?.baseUrl ?? null;
  }
}

const FAL = 'https://fal.example';
const BFL = 'https://bfl.example';
const keyOf = (baseUrl: string, provider: 'fal' | 'bfl'): ServiceCredentials => ({
  baseUrl,
  key: `${provider}-key`,
  keyFingerprint: `${provider}fingerprint`,
  provider,
});

const history = historyStorePerTest();
let costs: CostBook;
beforeEach(() => {
  costs = new CostBook({ history: history.store, now: () => Date.now(), timeZone: 'UTC' });
});

function plan(targets: CompareTargetInput[], prompts = ['a kite']) {
  // fal.example holds fal's key; bfl.example holds fal's key too (entered for another service).
  const credentials = new MapCredentials({
    [FAL]: keyOf(FAL, 'fal'),
    [BFL]: keyOf(BFL, 'fal'),
  });
  return planCompare({ credentials, costs, newGroupId: () => 'group' }, { prompts, targets });
}

const fal = { provider: 'fal', baseUrl: FAL } as const;

describe('a target left out', () => {
  it.each([
    [
      'a service with no address of its own',
      { provider: 'pictor' },
      'error.compare.noAddress',
      'Image task service has no address of its own: give it one (a base URL).',
    ],
    [
      'no key for that address',
      { provider: 'fal', baseUrl: 'https://other.example' },
      'error.submit.noKeyThere',
      'Nothing was sent: Pictor has no API key it may send to other.example. A key goes only to the service address it was entered for in Settings.',
    ],
    [
      'a key there entered for another service',
      { provider: 'bfl', baseUrl: BFL },
      'error.submit.otherService',
      'Nothing was sent: bfl.example is the address of another kind of service in Settings, and its key goes only with that service’s tasks.',
    ],
    [
      'the demo service not running',
      { provider: 'pictor', baseUrl: 'demo:' },
      'error.submit.demoNotRunning',
      'Nothing was sent: the built-in demo service is not running. Start Pictor again to use it.',
    ],
  ] as const)('%s, with its sentence', async (_, left, key, english) => {
    const planned = await plan([fal, left]);
    expect(planned.targets.map((target) => target.slot)).toEqual([1]);
    expect(planned.leftOut).toHaveLength(1);
    expect(planned.leftOut[0]?.slot).toBe(2);
    expectSentence(planned.leftOut[0]?.reason, key, english);
    expect(planned.refusal).toBeUndefined();
  });

  it('an address Pictor sends nothing to, with the address policy’s sentence', async () => {
    const planned = await plan([fal, { provider: 'fal', baseUrl: 'http://kite.example' }]);
    const reason = planned.leftOut[0]?.reason;
    expect(reason?.key).toMatch(/^error\./);
    expect(sentenceSchema().parse(reason)).toEqual(reason);
    expect(german.text(reason!.key, reason!.params)).not.toBe(englishText(reason!));
  });

  it('every target: the compare is refused, nothing to send', async () => {
    const planned = await plan([{ provider: 'pictor' }, { provider: 'bfl', baseUrl: BFL }]);
    expect(planned.targets).toEqual([]);
    expect(planned.overCap).toBe(false);
    expectSentence(
      planned.refusal,
      'error.compare.noTargetLeft',
      'No target of this compare can be sent: each is left out above. Nothing was sent.',
    );
  });
});

describe('a compare refused or warned', () => {
  it('says each adaptation once, however many prompts it has', async () => {
    const planned = await plan([{ ...fal, quality: 'hd' }, fal], ['a kite', 'a boat', 'a hill']);
    expect(planned.targets[0]?.notes.map((note) => note.key)).toEqual(['error.compare.noQuality']);
    expect(planned.targets[1]?.notes).toEqual([]);
  });

  it('past one submit’s limit, with the engine’s sentence', async () => {
    const prompts = Array.from({ length: 6 }, (_, n) => `kite ${String(n)}`);
    const planned = await plan(
      [
        { ...fal, count: 10 },
        { ...fal, count: 10 },
      ],
      prompts,
    );
    expect(planned.overCap).toBe(false);
    expectSentence(
      planned.refusal,
      'error.library.taskCountRange',
      'The number of tasks must be a whole number from 1 to 100.',
      ['100'],
    );
  });

  it('a soft cap warns and a hard cap refuses, in the caps’ sentences with their amounts', async () => {
    costs.setPrice({ provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 30_000 });
    costs.setCap({ period: 'day', unit: 'USD', provider: 'fal', kind: 'soft', micros: 10_000 });
    const warned = await plan([fal, fal]);
    expect(warned.refusal).toBeUndefined();
    expect(warned.warnings).toHaveLength(1);
    expect(warned.warnings[0]?.key).toBe('error.costs.softCap');
    expect(englishText(warned.warnings[0]!)).toContain('adds about $0.06');
    expect(german.text(warned.warnings[0]!.key, warned.warnings[0]!.params)).toMatch(/0,06\s\$/);
    costs.setCap({ period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 50_000 });
    const refused = await plan([fal, fal]);
    expect(refused.overCap).toBe(true);
    expect(refused.refusal?.key).toBe('error.costs.hardCap');
    expect(german.text(refused.refusal!.key, refused.refusal!.params)).toMatch(/0,06\s\$/);
  });

  it.each([
    [
      'too many prompts',
      { prompts: Array.from({ length: 11 }, () => 'a kite'), targets: [fal, fal] },
      'error.compare.promptCount',
      'A compare takes 1 to 10 prompts; this one has 11. Nothing was sent.',
      ['11'],
    ],
    [
      'one target',
      { prompts: ['a kite'], targets: [fal] },
      'error.compare.targetCount',
      'A compare takes 2 to 6 targets; this one has 1. Nothing was sent.',
      [],
    ],
    [
      'a target with a count of 11',
      { prompts: ['a kite'], targets: [fal, { ...fal, count: 11 }] },
      'error.compare.badTarget',
      'A target of this compare is not valid (a service, and at most a model, a size, a quality, a count of 1 to 10 and an address). Nothing was sent.',
      ['10'],
    ],
  ] as const)(
    'out of its bounds (%s), with its sentence',
    async (_, input, key, english, values) => {
      const credentials = new MapCredentials({});
      const refused = planCompare({ credentials, costs }, input as unknown as CompareInput);
      await expect(refused).rejects.toBeInstanceOf(CompareInputError);
      const error = (await refused.catch((caught: unknown) => caught)) as CompareInputError;
      expect(error.message).toBe(english);
      expectSentence(error.sentence, key, english, [...values]);
    },
  );
});
