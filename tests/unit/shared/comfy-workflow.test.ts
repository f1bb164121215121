/**
 * A ComfyUI workflow file is hostile until checked: bounded by its bytes, its node count, its
 * inputs per node, how deep and how many values one input holds, the characters of every name,
 * links to nodes it lacks, and reserved names. A map must name inputs the workflow has, holding
 * the kind of value its role puts there. The graph sent carries the request's values only in the
 * mapped inputs, and the workflow as imported is never changed.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WORKFLOW,
  mappedWorkflow,
  promptGraph,
  readWorkflowText,
} from '../../../shared/domain/comfy-prompt';
import {
  MAX_WORKFLOW_BYTES,
  MAX_WORKFLOW_NODES,
  type WorkflowGraph,
} from '../../../shared/domain/comfy-workflow';

const GRAPH = DEFAULT_WORKFLOW.graph;

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
}

function withNode(inputs: Record<string, unknown>, classType = 'Custom'): Record<string, unknown> {
  return { ...GRAPH, '99': { class_type: classType, inputs } };
}

const HOSTILE: readonly [string, string][] = [
  ['not JSON', '{"3": {'],
  ['a list', '[]'],
  ['no nodes', '{}'],
  ['a node without class_type', JSON.stringify({ '1': { inputs: {} } })],
  ['a class_type that is not text', JSON.stringify({ '1': { class_type: 7, inputs: {} } })],
  [
    'a class_type with a control character',
    JSON.stringify({ '1': { class_type: 'A\u0000', inputs: {} } }),
  ],
  ['inputs that are a list', JSON.stringify({ '1': { class_type: 'A', inputs: [] } })],
  ['a node id with a dot', JSON.stringify({ '1.2': { class_type: 'A', inputs: {} } })],
  [
    'a node id of 65 characters',
    JSON.stringify({ ['1'.repeat(65)]: { class_type: 'A', inputs: {} } }),
  ],
  ['a __proto__ node', '{"__proto__": {"class_type": "A", "inputs": {}}}'],
  ['a constructor input', JSON.stringify(withNode({ constructor: 1 }))],
  [
    'a __proto__ key inside a value',
    `{"1": {"class_type": "A", "inputs": {"x": {"__proto__": {"polluted": true}}}}}`,
  ],
  ['a link to a node it lacks', JSON.stringify(withNode({ image: ['404', 0] }))],
  ['nesting past the bound', JSON.stringify(withNode({ deep: nested(5) }))],
  [
    'an input of 300 values',
    JSON.stringify(withNode({ many: Array.from({ length: 300 }, () => 0) })),
  ],
  ['a text of 32,001 characters', JSON.stringify(withNode({ text: 'a'.repeat(32_001) }))],
  [
    '101 inputs on a node',
    JSON.stringify(
      withNode(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`in${i}`, i]))),
    ),
  ],
  [
    `${MAX_WORKFLOW_NODES + 1} nodes`,
    JSON.stringify(
      Object.fromEntries(
        Array.from({ length: MAX_WORKFLOW_NODES + 1 }, (_, i) => [
          String(i),
          { class_type: 'A', inputs: {} },
        ]),
      ),
    ),
  ],
  [
    'a file over the byte limit',
    `{"1": {"class_type": "A", "inputs": {"t": "${'x'.repeat(MAX_WORKFLOW_BYTES)}"}}}`,
  ],
  [
    'a file over the byte limit in multibyte characters',
    `{"1": {"class_type": "A", "inputs": {"t": "${'é'.repeat(MAX_WORKFLOW_BYTES / 2 + 1)}"}}}`,
  ],
];

describe('a workflow file read as ComfyUI’s API format', () => {
  it('reads an exported workflow as it is', () => {
    const read = readWorkflowText(JSON.stringify(GRAPH));
    expect(read).toEqual({ ok: true, graph: GRAPH });
  });

  it.each(HOSTILE)('refuses %s with a sentence', (_what, text) => {
    const read = readWorkflowText(text);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problem).toMatch(/^[A-Z].*\.$/);
    expect(read.problem.length).toBeLessThan(400);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('says how to export the API format when given the editor’s own file', () => {
    const read = readWorkflowText(JSON.stringify({ nodes: [], links: [], version: 0.4 }));
    expect(read).toMatchObject({ ok: false, problem: expect.stringContaining('Export (API)') });
  });

  it('takes 500 nodes, nesting at the bound and links to its own nodes', () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_WORKFLOW_NODES }, (_, i) => [
        String(i),
        { class_type: 'A', inputs: { from: [String(Math.max(0, i - 1)), 0], deep: nested(3) } },
      ]),
    );
    expect(readWorkflowText(JSON.stringify(many)).ok).toBe(true);
  });
});

describe('a workflow’s map', () => {
  it('is taken when each role names an input holding its kind of value', () => {
    expect(mappedWorkflow(GRAPH, DEFAULT_WORKFLOW.map)).toEqual({
      ok: true,
      workflow: DEFAULT_WORKFLOW,
    });
  });

  it.each([
    ['a node the workflow lacks', { prompt: '42.text' }],
    ['an input the node lacks', { prompt: '6.words' }],
    ['a prompt on a number', { prompt: '3.seed' }],
    ['a seed on a text', { prompt: '6.text', seed: '6.text' }],
    ['a size on a link', { prompt: '6.text', width: '3.model' }],
    ['a role Pictor does not have', { prompt: '6.text', cfg: '3.cfg' }],
    ['a path without a dot', { prompt: '6' }],
  ])('refuses %s', (_what, map) => {
    const mapped = mappedWorkflow(GRAPH, map as never);
    expect(mapped.ok).toBe(false);
  });
});

describe('the graph a submit sends', () => {
  it('puts each value in its mapped input only, leaving the workflow as imported', () => {
    const before = structuredClone(GRAPH);
    const graph: WorkflowGraph = promptGraph(DEFAULT_WORKFLOW, {
      prompt: 'a fox',
      negative: 'blur',
      seed: 7,
      steps: 9,
      width: 640,
      height: 480,
    });
    expect(graph['6']!.inputs['text']).toBe('a fox');
    expect(graph['7']!.inputs['text']).toBe('blur');
    expect(graph['3']!.inputs).toMatchObject({ seed: 7, steps: 9, cfg: 8 });
    expect(graph['5']!.inputs).toEqual({ width: 640, height: 480, batch_size: 1 });
    expect(GRAPH).toEqual(before);
  });

  it('ignores a value whose role the workflow does not map', () => {
    const { image: _none, ...map } = { ...DEFAULT_WORKFLOW.map, image: undefined };
    const graph = promptGraph({ graph: GRAPH, map }, { prompt: 'x', image: 'in.png' });
    expect(JSON.stringify(graph)).not.toContain('in.png');
  });
});
