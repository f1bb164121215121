/**
 * The kept file of model options (model-options.json, written by another hand: its reader also
 * answers the window's `models:` calls) was read by looser rules than a schema a service
 * publishes: a range whose minimum is past its maximum, a whole-number range with no whole number
 * in it, numbers past 2⁵³, a default outside the range, off the step or not among the choices, a
 * text default longer than the option takes, a title holding control characters. The form then
 * offered a range it could never send (and showed a default main would refuse); the reader of
 * published schemas dropped such an option or its default, and a published maximum length that is
 * no length (-1, 2.5) made keeping the options throw. One rule now (param-spec-rule.ts
 * `soundSpec`) for both readers, and a number off its step is refused (paramProblem) by the CLI's
 * `--param`, the form and main's check alike.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requestParamsOf } from '../../../electron/cli/param-args';
import { UsageError } from '../../../electron/core/command-line';
import { ParamSchemaBook } from '../../../electron/core/param-schemas/param-schema-book';
import { useParamSchemas } from '../../../shared/domain/model-param-schemas';
import { paramProblem } from '../../../shared/domain/model-params';
import { paramSpecsSchema } from '../../../shared/domain/param-specs-schema';
import { modelOptionsRequests } from '../../../shared/ipc/model-options-contract';
import { englishText } from '../../../shared/i18n/sentence';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let dir = '';
let n = 0;
beforeAll(async () => {
  dir = await tempFolder('kept-option-rules');
});
afterAll(async () => {
  await removeFolder(dir);
});
afterEach(() => useParamSchemas([]));

/** A data folder of its own, its kept file holding `models` when given. */
async function dataFolder(models?: unknown[]): Promise<string> {
  const dataDir = join(dir, `lib-${String(n++)}`);
  await mkdir(dataDir);
  if (models) {
    await writeFile(join(dataDir, 'model-options.json'), JSON.stringify({ version: 1, models }));
  }
  return dataDir;
}

const entry = (model: string, params: Record<string, unknown>) => ({
  provider: 'pictor',
  model,
  origin: 'file',
  at: 1,
  params,
});

const PLAIN = { steps: { type: 'integer', min: 1, max: 50, default: 28 } };

/** Options a form could never send, or show a default of that main would refuse. */
const CRAFTED: Record<string, Record<string, unknown>> = {
  'a minimum past its maximum': { q: { type: 'integer', min: 5, max: 1 } },
  'a whole-number range with no whole number': { q: { type: 'integer', min: 0.2, max: 0.8 } },
  'a maximum past 2⁵³': { q: { type: 'number', min: 0, max: 1e300 } },
  'a choice past 2⁵³': { q: { type: 'enum', values: [1e300, 2] } },
  'a default outside the range': { q: { type: 'integer', min: 1, max: 4, default: 9 } },
  'a default that is not whole': { q: { type: 'integer', min: 1, max: 4, default: 2.5 } },
  'a default off the step': { q: { type: 'number', min: 0, max: 10, step: 0.5, default: 0.3 } },
  'a range with no multiple of its step': { q: { type: 'number', min: 0.1, max: 0.4, step: 0.5 } },
  'a default not among the choices': { q: { type: 'enum', values: ['a', 'b'], default: 'c' } },
  'a default of another kind': { q: { type: 'boolean', default: 'yes' } },
  'a text default longer than the option takes': {
    q: { type: 'string', maxLength: 3, default: 'abcd' },
  },
  'a title holding a control character': { q: { type: 'boolean', title: 'A\u001b[2JB' } },
  'a title holding a bidi override': { q: { type: 'boolean', title: 'safe\u202etxt' } },
  'a title too long': { q: { type: 'boolean', title: 'x'.repeat(201) } },
  'a step of zero': { q: { type: 'number', min: 0, max: 1, step: 0 } },
  'a maximum length that is no length': { q: { type: 'string', maxLength: 2.5 } },
};

describe('the kept file, written by another hand', () => {
  it.each(Object.entries(CRAFTED))(
    'leaves out an entry with %s, keeps the others; the window refuses it too',
    async (_, params) => {
      const dataDir = await dataFolder([entry('crafted', params), entry('plain', PLAIN)]);
      const book = new ParamSchemaBook(dataDir, () => 5);
      await book.open();
      expect(book.kept().map((kept) => kept.model)).toEqual(['plain']);
      const answer = [{ provider: 'pictor', model: 'crafted', params }];
      expect(modelOptionsRequests['models:kept'].output.safeParse(answer).success).toBe(false);
      // The CLI knows no such option: the entry is not in use.
      expect(() => requestParamsOf({ param: ['q=1'] }, 'pictor', 'crafted')).toThrow(UsageError);
      expect(requestParamsOf({ param: ['steps=20'] }, 'pictor', 'plain').params).toEqual({
        steps: 20,
      });
    },
  );
});

describe('a schema file read by the same rule', () => {
  /** The options of the schema file `properties` make, as `models import-schema` keeps them. */
  async function imported(properties: Record<string, unknown>) {
    const book = new ParamSchemaBook(await dataFolder(), () => 5);
    await book.open();
    const file = join(dir, `schema-${String(n++)}.json`);
    const steps = { type: 'integer', minimum: 1, maximum: 50 };
    await writeFile(file, JSON.stringify({ properties: { ...properties, steps } }));
    const result = await book.importFile('pictor', 'own-model', file);
    expect(result.ok).toBe(true);
    return book.lookup('pictor', 'own-model')?.params ?? {};
  }

  it('drops an option whose maximum length is no length, and keeps the rest', async () => {
    const params = await imported({
      negative: { type: 'string', maxLength: -1 },
      hint: { type: 'string', maxLength: 2.5 },
      style: { type: 'string', maxLength: 20 },
    });
    expect(Object.keys(params).sort()).toEqual(['steps', 'style']);
  });

  it('drops an option whose range holds nothing it takes, and a default off its step', async () => {
    const params = await imported({
      empty: { type: 'integer', minimum: 0.2, maximum: 0.8 },
      stepless: { type: 'number', minimum: 0.1, maximum: 0.4, multipleOf: 0.5 },
      guidance: { type: 'number', minimum: 1, maximum: 20, multipleOf: 0.5, default: 3.3 },
    });
    expect(Object.keys(params).sort()).toEqual(['guidance', 'steps']);
    expect(params['guidance']).toMatchObject({ type: 'number', min: 1, max: 20, step: 0.5 });
    expect(params['guidance']).not.toHaveProperty('default');
  });

  it('keeps only what the kept file’s reader reads back', async () => {
    const params = await imported(
      Object.fromEntries(
        Object.entries(CRAFTED).map(([, spec], index) => {
          const q = spec['q'] as Record<string, unknown>;
          const { min, max, step, values, ...rest } = q;
          return [
            `p${String(index)}`,
            {
              ...rest,
              ...(values === undefined ? {} : { enum: values }),
              ...(min === undefined ? {} : { minimum: min }),
              ...(max === undefined ? {} : { maximum: max }),
              ...(step === undefined ? {} : { multipleOf: step }),
            },
          ];
        }),
      ),
    );
    expect(paramSpecsSchema().safeParse(params).success).toBe(true);
  });
});

describe('a number off its step', () => {
  it('is refused by the one check, past a decimal step’s rounding', () => {
    const spec = { type: 'number', min: 0, max: 10, step: 0.1 } as const;
    for (const fits of [0, 0.3, 2.3, 4.5, 9.9, 10])
      expect(paramProblem('g', spec, fits)).toBeNull();
    for (const off of [0.05, 2.35, 9.95]) {
      expect(paramProblem('g', spec, off)).toMatchObject({ key: 'error.params.offStep' });
    }
  });

  it('is refused by the CLI’s --param with the sentence that names the step', () => {
    const read = () => requestParamsOf({ param: ['guidance_scale=3.7'] }, 'fal', 'fal-ai/flux/dev');
    expect(read).toThrow(UsageError);
    expect(read).toThrow('The option “guidance_scale” takes a multiple of 0.5 from 1 to 20.');
    const on = requestParamsOf({ param: ['guidance_scale=3.5'] }, 'fal', 'fal-ai/flux/dev');
    expect(on.params).toEqual({ guidance_scale: 3.5 });
  });

  it('on a kept option is refused by the CLI as its step says', async () => {
    const scaled = { g: { type: 'number', min: 0, max: 1, step: 0.25, default: 0.5 } };
    const book = new ParamSchemaBook(await dataFolder([entry('scaled', scaled)]), () => 5);
    await book.open();
    expect(requestParamsOf({ param: ['g=0.75'] }, 'pictor', 'scaled').params).toEqual({ g: 0.75 });
    const problem = paramProblem('g', scaled.g as never, 0.6);
    expect(problem && englishText(problem)).toBe(
      'The option “g” takes a multiple of 0.25 from 0 to 1.',
    );
    expect(() => requestParamsOf({ param: ['g=0.6'] }, 'pictor', 'scaled')).toThrow(
      englishText(problem!),
    );
  });
});
