/**
 * What a request's model takes: a ComfyUI workflow takes one input image, to edit, only when its
 * map names one; any other model as its provider's table says.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_WORKFLOW } from '../../../shared/domain/comfy-prompt';
import { capabilitiesOf, requestCapabilities } from '../../../shared/domain/model-capabilities';

const WITH_IMAGE = {
  graph: {
    ...DEFAULT_WORKFLOW.graph,
    '10': { class_type: 'LoadImage', inputs: { image: 'placeholder.png' } },
  },
  map: { ...DEFAULT_WORKFLOW.map, image: '10.image' },
};

describe('requestCapabilities', () => {
  it('gives a ComfyUI workflow that maps an input image one source to edit, by upload to the server', () => {
    const capabilities = requestCapabilities('comfyui', { model: 'mine', workflow: WITH_IMAGE });
    expect(capabilities).toMatchObject({ image: 1, operations: ['edit'], references: 0 });
    expect(capabilities?.transports).toEqual([
      expect.objectContaining({ kind: 'upload', endpoint: '/upload/image', serverFile: true }),
    ]);
  });

  it('gives none to a workflow that maps no input image, nor to the built-in graph', () => {
    expect(
      requestCapabilities('comfyui', { model: 'mine', workflow: DEFAULT_WORKFLOW }),
    ).toBeNull();
    expect(requestCapabilities('comfyui', { model: 'text-to-image' })).toBeNull();
  });

  it('reads any other provider’s table by model, a stray workflow ignored', () => {
    const model = 'wanx2.1-imageedit';
    expect(requestCapabilities('dashscope', { model, workflow: DEFAULT_WORKFLOW })).toBe(
      capabilitiesOf('dashscope', model),
    );
  });
});
