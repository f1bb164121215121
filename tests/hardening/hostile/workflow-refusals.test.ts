/**
 * A crafted ComfyUI workflow file's refusal: the sentence that says why it cannot be imported
 * named the place in the file with the file's own keys and values, as they were: a node id or an
 * input name of 400,000 characters, a link to a node named with ESC sequences or a bidi override.
 * The window shows that sentence and the CLI prints it; it was as long as the key and carried its
 * controls. Read from real files the one way both fronts take (core/workflows readWorkflowFile),
 * and through `pictor comfy import`: each refusal is one short sentence with no control, format or
 * separator character, still naming the place when it can.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkflowFile } from '../../../electron/core/workflows';
import { runCliHere } from '../../integration/cli/run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** Longest refusal said, in characters. */
const MAX_SAID = 600;
const HOSTILE = '\u001b]52;c;cm0gLXJmIH4K\u0007\u202e\u2028';
const LONG = 'k'.repeat(400_000);

/** Workflows refused at a place named by the file's own text. */
const CRAFTED: Record<string, unknown> = {
  'a long node id': { [`${HOSTILE}${LONG}`]: { class_type: 'X', inputs: {} } },
  'a long input name': { '1': { class_type: 'X', inputs: { [`${HOSTILE}${LONG}`]: 1 } } },
  'a link to a node named by the file': {
    '1': { class_type: 'X', inputs: { model: [`${HOSTILE}${'n'.repeat(30_000)}`, 0] } },
  },
  'a class type with controls': { '1': { class_type: `Save${HOSTILE}`, inputs: {} } },
  'a reserved key inside a value': {
    '1': { class_type: 'X', inputs: { v: JSON.parse('{"__proto__": 1}') as unknown } },
  },
};

function obeyed(text: string): string | undefined {
  return [...text].find((char) => /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(char));
}

let dir = '';
beforeAll(async () => {
  dir = await tempFolder('workflow-refusals');
});
afterAll(async () => {
  await removeFolder(dir);
});

async function craftedFile(name: string): Promise<string> {
  const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
  await writeFile(file, JSON.stringify(CRAFTED[name]));
  return file;
}

describe('a crafted workflow file’s refusal', () => {
  it.each(Object.keys(CRAFTED))('%s: one short clean sentence', async (name) => {
    const read = await readWorkflowFile(await craftedFile(name));
    expect(read.ok).toBe(false);
    const problem = 'problem' in read ? read.problem : '';
    expect(problem).toMatch(/^The workflow /);
    expect(problem.length).toBeLessThanOrEqual(MAX_SAID);
    expect(obeyed(problem)).toBeUndefined();
  });

  it('is said so by pictor comfy import', async () => {
    const file = await craftedFile('a long node id');
    const run = await runCliHere(
      ['comfy', 'import', file, '--name', 'crafted', '--prompt', '1.text', '--data-dir', dir],
      { home: dir },
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr.length).toBeLessThanOrEqual(MAX_SAID + 1);
  });
});
