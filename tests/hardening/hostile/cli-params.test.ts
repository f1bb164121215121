/**
 * `--param key=value` as a hostile command line (a script built from untrusted text, an agent's
 * arguments) gives it: names that are an object's machinery (`__proto__`, `__proto__.x`,
 * `constructor.prototype.x`, `toString`), numbers JSON or JavaScript would read another way
 * (`1e309`, `0x10`, `Infinity`, four hundred digits), values of a type the option is not. Each is
 * refused with a usage error before anything is sent, and nothing reaches a prototype. Through
 * electron/cli/param-args.ts with a shipped schema (fal-ai/flux/dev: whole, decimal, choice, switch).
 * (No defect was found here; it is kept so these stay refused.)
 */
import { describe, expect, it } from 'vitest';
import { requestParamsOf } from '../../../electron/cli/param-args';
import { UsageError } from '../../../electron/core/command-line';

const MODEL = 'fal-ai/flux/dev';

function refused(param: string): boolean {
  try {
    requestParamsOf({ param: [param] }, 'fal', MODEL);
    return false;
  } catch (error) {
    if (error instanceof UsageError) return true;
    throw error;
  }
}

describe('a hostile --param', () => {
  it.each([
    '__proto__=1',
    '__proto__.polluted=1',
    'constructor.prototype.polluted=1',
    'constructor=1',
    'prototype=1',
    'toString=1',
    'hasOwnProperty=1',
    'polluted=1',
    '=1',
    'num_inference_steps',
  ])('%s: refused, no prototype touched', (param) => {
    expect(refused(param)).toBe(true);
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it.each([
    `num_inference_steps=${'9'.repeat(400)}`,
    'num_inference_steps=1e309',
    'num_inference_steps=0x10',
    'num_inference_steps=Infinity',
    'num_inference_steps=NaN',
    'num_inference_steps=1_0',
    'num_inference_steps=20.5',
    'num_inference_steps=-1',
    'num_inference_steps=9007199254740993',
    'enable_safety_checker=1',
    'enable_safety_checker=TRUE',
    'output_format=gif',
    'output_format=__proto__',
  ])('%s: refused', (param) => {
    expect(refused(param)).toBe(true);
  });

  it('a value it takes is typed by the schema', () => {
    const read = requestParamsOf(
      {
        param: [
          'num_inference_steps=20',
          'enable_safety_checker=false',
          'output_format=png',
          // An exponent as JavaScript writes one (Copy as command prints String(value)), then
          // checked against the range as any number is.
          'guidance_scale=1e1',
        ],
      },
      'fal',
      MODEL,
    );
    expect(read.params).toEqual({
      num_inference_steps: 20,
      enable_safety_checker: false,
      output_format: 'png',
      guidance_scale: 10,
    });
    expect(Object.getPrototypeOf(read.params)).toBe(Object.prototype);
  });
});
