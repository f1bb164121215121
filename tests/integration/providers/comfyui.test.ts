/**
 * ComfyUI's profile end to end against the demo's comfyui dialect (see provider-scenarios.ts),
 * as a proxied ComfyUI that takes a Bearer key: it hands out no task address (a prompt is found
 * by its id under the base URL).
 */
import { describeCancel, describeProvider } from './provider-scenarios';

describeProvider({ provider: 'comfyui', handles: [], local: true });
// Its cancel is two requests: out of the queue, then an interrupt of that prompt if it runs.
describeCancel('comfyui', 2);
