/**
 * A workflow as ComfyUI's "Export (API)" writes one (nodes numbered as a user's would be, a
 * title in `_meta`): the one the renderer's, the provider's and the CLI's workflow tests import.
 */
export const EXPORTED_WORKFLOW = {
  '10': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sdxl.safetensors' } },
  '11': {
    class_type: 'CLIPTextEncode',
    inputs: { text: 'a placeholder', clip: ['10', 1] },
    _meta: { title: 'Positive' },
  },
  '12': { class_type: 'CLIPTextEncode', inputs: { text: '', clip: ['10', 1] } },
  '13': { class_type: 'EmptyLatentImage', inputs: { width: 1024, height: 1024, batch_size: 1 } },
  '14': {
    class_type: 'KSampler',
    inputs: {
      seed: 1,
      steps: 30,
      cfg: 7,
      sampler_name: 'euler',
      scheduler: 'normal',
      denoise: 1,
      model: ['10', 0],
      positive: ['11', 0],
      negative: ['12', 0],
      latent_image: ['13', 0],
    },
  },
  '15': { class_type: 'VAEDecode', inputs: { samples: ['14', 0], vae: ['10', 2] } },
  '16': { class_type: 'SaveImage', inputs: { filename_prefix: 'mine', images: ['15', 0] } },
};
