import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkParams,
  choicesApart,
  commonParam,
  orderedParams,
  paramFromText,
  paramValuesSchema,
  type ParamSchema,
} from '../../../shared/domain/model-params';
import {
  SHIPPED_PARAM_SCHEMAS,
  shippedParamSchema,
} from '../../../shared/domain/model-param-schemas';
import { englishText } from '../../../shared/i18n/sentence';
import { PROVIDERS, PROVIDER_IDS } from '../../../shared/domain/providers';

const SCHEMA: ParamSchema = {
  params: {
    steps: { type: 'integer', min: 1, max: 50, default: 28, common: 'steps' },
    guidance: { type: 'number', min: 1, max: 20, step: 0.5, common: 'guidance' },
    aspect_ratio: { type: 'enum', values: ['1:1', '16:9'], common: 'aspect' },
    raw: { type: 'boolean', default: false },
    negative_prompt: { type: 'string', maxLength: 10, common: 'negative' },
  },
};

describe('a model’s options checked against its schema', () => {
  it('takes values of every kind that fit', () => {
    const values = {
      steps: 4,
      guidance: 2.5,
      aspect_ratio: '16:9',
      raw: true,
      negative_prompt: 'blur',
    };
    expect(checkParams(SCHEMA, 'm', values)).toEqual({ ok: true, values });
  });

  it.each([
    [{ steps: 0 }, 'The option “steps” takes a whole number from 1 to 50.'],
    [{ steps: 2.5 }, 'The option “steps” takes a whole number from 1 to 50.'],
    [{ guidance: 21 }, 'The option “guidance” takes a number from 1 to 20.'],
    [{ aspect_ratio: '4:3' }, 'The option “aspect_ratio” takes one of: 1:1, 16:9.'],
    [{ raw: 'yes' }, 'The option “raw” takes true or false.'],
    [
      { negative_prompt: 'x'.repeat(11) },
      'The option “negative_prompt” takes text of at most 10 characters.',
    ],
    [{ cfg: 3 }, 'The model m has no option “cfg”.'],
  ])('refuses %j with one sentence naming the option', (values, said) => {
    const checked = checkParams(SCHEMA, 'm', values);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(englishText(checked.problem)).toBe(said);
  });

  it('refuses every option of a model with no schema', () => {
    expect(checkParams(undefined, 'x/y', { seed: 1 }).ok).toBe(false);
  });

  it('types command-line text by the schema', () => {
    const p = SCHEMA.params;
    expect(paramFromText(p['steps']!, '12')).toBe(12);
    expect(paramFromText(p['steps']!, '1e3')).toBe(1000);
    expect(paramFromText(p['steps']!, '0x10')).toBeUndefined();
    expect(paramFromText(p['steps']!, 'Infinity')).toBeUndefined();
    expect(paramFromText(p['steps']!, ' 12')).toBeUndefined();
    expect(paramFromText(p['raw']!, 'true')).toBe(true);
    expect(paramFromText(p['raw']!, '1')).toBeUndefined();
    expect(paramFromText(p['aspect_ratio']!, '16:9')).toBe('16:9');
    expect(paramFromText({ type: 'enum', values: [1, 2] }, '2')).toBe(2);
  });

  it('reads back every number as JavaScript writes it (Copy as command, models show)', () => {
    // String(1e-7) is `1e-7`: the printed line's `--param=strength=1e-7` was refused by the CLI.
    const spec = { type: 'number', min: -1, max: 1 } as const;
    fc.assert(
      fc.property(fc.double({ min: -1, max: 1, noNaN: true }), (value) => {
        expect(paramFromText(spec, String(value))).toBe(value === 0 ? 0 : value);
      }),
    );
    for (const value of [1e-7, -2.5e-7, 5e-324, 0.1, 1]) {
      expect(paramFromText(spec, String(value))).toBe(value);
    }
  });

  it('finds the common options and lists them first', () => {
    expect(commonParam(SCHEMA, 'aspect')).toBe('aspect_ratio');
    expect(commonParam(SCHEMA, 'seed')).toBeUndefined();
    expect(orderedParams(SCHEMA)).toEqual([
      'aspect_ratio',
      'negative_prompt',
      'guidance',
      'steps',
      'raw',
    ]);
  });

  it('keeps a record’s options only when they are bounded and named as options', () => {
    expect(paramValuesSchema().safeParse({ seed: 1, raw: true, a: 'x' }).success).toBe(true);
    // Refused, not dropped: zod's record alone skips an own __proto__ key in silence.
    for (const raw of ['{"__proto__": 1}', '{"constructor": 2}', '{"a": 1, "__proto__": {}}']) {
      expect(paramValuesSchema().safeParse(JSON.parse(raw)).success, raw).toBe(false);
    }
    expect(paramValuesSchema().safeParse({ 'a-b': 1 }).success).toBe(false);
    expect(paramValuesSchema().safeParse({ a: Number.NaN }).success).toBe(false);
    expect(paramValuesSchema().safeParse({ a: { nested: 1 } }).success).toBe(false);
    const many = Object.fromEntries(Array.from({ length: 49 }, (_, n) => [`p${n}`, n]));
    expect(paramValuesSchema().safeParse(many).success).toBe(false);
  });
});

describe('the shipped schemas', () => {
  it('cover every model each service lists', () => {
    for (const provider of PROVIDER_IDS) {
      for (const model of PROVIDERS[provider].models) {
        expect(shippedParamSchema(provider, model), `${provider} ${model}`).toBeDefined();
      }
    }
  });

  it('carry the most-asked models where fal or Replicate serve them', () => {
    for (const model of [
      'fal-ai/nano-banana',
      'fal-ai/gpt-image-1/text-to-image',
      'fal-ai/imagen4/preview',
      'fal-ai/flux-pro/v1.1-ultra',
      'fal-ai/bytedance/seedream/v4/text-to-image',
    ]) {
      expect(shippedParamSchema('fal', model), model).toBeDefined();
    }
    for (const model of [
      'google/nano-banana',
      'openai/gpt-image-1',
      'google/imagen-4',
      'black-forest-labs/flux-1.1-pro-ultra',
      'bytedance/seedream-4',
    ]) {
      expect(shippedParamSchema('replicate', model), model).toBeDefined();
    }
    expect(commonParam(shippedParamSchema('fal', 'fal-ai/imagen4/preview'), 'negative')).toBe(
      'negative_prompt',
    );
    expect(commonParam(shippedParamSchema('fal', 'fal-ai/nano-banana-pro'), 'resolution')).toBe(
      'resolution',
    );
  });

  it('have defaults that their own ranges take', () => {
    for (const table of Object.values(SHIPPED_PARAM_SCHEMAS)) {
      for (const [model, schema] of Object.entries(table)) {
        const defaults = Object.fromEntries(
          Object.entries(schema.params).flatMap(([name, spec]) =>
            spec.default === undefined ? [] : [[name, spec.default]],
          ),
        );
        expect(checkParams(schema, model, defaults).ok, model).toBe(true);
      }
    }
  });

  it('name every choice apart as text (what a command line and the form’s select name)', () => {
    for (const table of Object.values(SHIPPED_PARAM_SCHEMAS)) {
      for (const [model, schema] of Object.entries(table)) {
        for (const spec of Object.values(schema.params)) {
          if (spec.type === 'enum') expect(choicesApart(spec.values), model).toBe(true);
        }
      }
    }
  });
});
