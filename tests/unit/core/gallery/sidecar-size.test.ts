/**
 * A sidecar Pictor writes is one its own rebuild reads: indenting multiplies a deeply nested
 * value (a ComfyUI workflow within the import's 512 KiB became a 4.2 MB `pictor.json`, past the
 * reader's 1 MiB cap), so such a record is written compact. Records at every other limit stay
 * indented.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_SIDECAR_BYTES,
  parseSidecar,
  sidecarText,
} from '../../../../electron/core/gallery/sidecar';
import { comfyWorkflowSchema, MAX_WORKFLOW_BYTES } from '../../../../shared/domain/comfy-workflow';
import { makeTaskRecord } from '../../../support/task-records';

/** A graph of `nodes` nodes, each input a list nested four deep: small compact, large indented. */
function deepGraph(nodes: number): Record<string, unknown> {
  const graph: Record<string, unknown> = {
    '1': { class_type: 'CLIPTextEncode', inputs: { text: 'a cat' } },
  };
  for (let node = 2; node <= nodes; node += 1) {
    const inputs: Record<string, unknown> = {};
    for (let input = 0; input < 4; input += 1)
      inputs[`v${input}`] = [
        [
          [
            [1, 2],
            [3, 4],
          ],
          [[5, 6]],
        ],
        [7],
      ];
    graph[String(node)] = { class_type: 'Note', inputs };
  }
  return graph;
}

describe('the sidecar of a record with a deep workflow', () => {
  it('is written within the reader cap and reads back whole', () => {
    const workflow = comfyWorkflowSchema().parse({
      graph: deepGraph(500),
      map: { prompt: '1.text' },
    });
    expect(JSON.stringify(workflow).length).toBeLessThan(MAX_WORKFLOW_BYTES);
    // The case's premise: indented, this record passes the cap.
    const record = makeTaskRecord({
      request: { ...makeTaskRecord().request, prompt: 'p'.repeat(20_000), workflow },
    });
    const indented = JSON.stringify({ app: 'pictor', version: 1, record }, null, 2);
    expect(Buffer.byteLength(indented)).toBeGreaterThan(MAX_SIDECAR_BYTES);

    const text = sidecarText(record);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_SIDECAR_BYTES);
    const read = parseSidecar(text);
    expect(read.ok && read.record).toEqual(record);
  });

  it('stays indented when indenting fits', () => {
    const text = sidecarText(makeTaskRecord());
    expect(text).toContain('\n  "record": {\n');
    expect(parseSidecar(text).ok).toBe(true);
  });
});
