/**
 * A crafted ComfyUI workflow file's own texts as the import's mapping shows them: each mappable
 * input is a choice labelled with its node's title (or class) and the start of its value, all the
 * file's text. A title or a value holding a bidi override, an isolate, a zero-width or tag
 * character, a line separator or a control turned the label around or hid part of it (a title
 * `\u202E…` reversed the value beside it, so the user mapped the prompt where the label did not
 * say), and a value cut at 120 code units could end on half a surrogate pair. The graph itself is
 * kept as the file has it (it is what runs); only what is shown is cleaned, as every name from a
 * file is (shared/text/shown-name.ts). Through main's handler of the channel
 * (ipc/workflow-handlers.ts) over the real workflow book, its dialog answering a real file.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkflowBook } from '../../../electron/core/workflows';
import { workflowHandlers } from '../../../electron/ipc/workflow-handlers';
import { TempFolders } from '../../support/temp-folders';

/** Characters that steer, hide or reorder text; a class type refuses controls on its own. */
const STEERING: Record<string, string> = {
  'a right-to-left override': '\u202e',
  'a left-to-right isolate': '\u2066',
  'a zero-width space': '\u200b',
  'a byte order mark': '\ufeff',
  'a tag character': '\u{e0041}',
  'a line separator': '\u2028',
  'a paragraph separator': '\u2029',
};
const CONTROLS: Record<string, string> = {
  'an escape sequence': '\u001b]52;c;cm0gLXJmIH4K\u0007',
  'a new line': '\n',
  'a next-line control': '\u0085',
};

/** What no shown text may hold: controls, format characters, separators, half a pair. */
function steering(text: string): string | undefined {
  return /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u.exec(text)?.[0];
}

interface ShownNode {
  id: string;
  classType: string;
  title?: string;
  inputs: { name: string; kind: string; value: string | number }[];
}

const dirs = new TempFolders();
afterEach(async () => {
  await dirs.removeAll();
});

async function shown(graph: unknown): Promise<ShownNode[]> {
  const dir = await dirs.make('workflow-shown');
  const path = join(dir, 'crafted.json');
  await writeFile(path, JSON.stringify(graph));
  const handlers = workflowHandlers({
    workflows: new WorkflowBook(dir),
    dialogs: { chooseWorkflowFile: () => Promise.resolve(path) },
  });
  const pick = handlers['workflows:pick'] as unknown as () => Promise<{
    pick: { nodes: ShownNode[] };
  }>;
  return (await pick()).pick.nodes;
}

function texts(nodes: readonly ShownNode[]): string[] {
  return nodes.flatMap((node) => [
    node.classType,
    ...(node.title === undefined ? [] : [node.title]),
    ...node.inputs.flatMap((input) => (typeof input.value === 'string' ? [input.value] : [])),
  ]);
}

describe('a crafted workflow’s texts, as the mapping shows them', () => {
  it('show no character that steers, hides or reorders, in a title, a class or a value', async () => {
    const graph: Record<string, unknown> = {};
    let id = 1;
    for (const char of Object.values(STEERING)) {
      graph[String(id++)] = {
        class_type: `Save${char}Image`,
        inputs: { text: `a cat${char} on a mat` },
        _meta: { title: `Positive${char} prompt` },
      };
    }
    for (const char of Object.values(CONTROLS)) {
      graph[String(id++)] = {
        class_type: 'CLIPTextEncode',
        inputs: { text: `a cat${char} on a mat` },
        _meta: { title: `Positive${char} prompt` },
      };
    }
    const nodes = await shown(graph);
    expect(nodes).toHaveLength(id - 1);
    for (const text of texts(nodes)) expect(steering(text), JSON.stringify(text)).toBeUndefined();
    // What the user reads is still there.
    for (const node of nodes) {
      expect(node.title).toMatch(/^Positive.*prompt$/);
      expect(node.inputs[0]?.value).toMatch(/^a cat.*on a mat$/);
    }
  });

  it('cut a long value at a whole character, never half of one', async () => {
    const nodes = await shown({
      '1': {
        class_type: 'CLIPTextEncode',
        inputs: { text: `${'a'.repeat(119)}${'🐈'.repeat(50)}` },
      },
    });
    const value = String(nodes[0]?.inputs[0]?.value);
    expect(steering(value)).toBeUndefined();
    expect(value.startsWith('a'.repeat(119))).toBe(true);
  });

  it('a title of nothing but such characters shows the class instead', async () => {
    const nodes = await shown({
      '1': { class_type: 'KSampler', inputs: { seed: 1 }, _meta: { title: '\u202e\u200b\u2066' } },
    });
    expect(nodes[0]).toEqual({
      id: '1',
      classType: 'KSampler',
      inputs: [{ name: 'seed', kind: 'number', value: 1 }],
    });
  });
});
