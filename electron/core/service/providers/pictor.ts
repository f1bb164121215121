/** Today's contract (docs/SERVICE.md): the default profile, and what every other one maps onto. */
import { PROVIDERS } from '../../../../shared/domain/providers';
import type { GenerationRequest } from '../../../../shared/service/wire';
import { taskPath } from '../task-id';
import type { ProviderProfile } from './provider-profile';
import { objectOf, readWord } from './provider-profile';

/** The submit body: only the spec's fields, absent or empty optional ones left out. */
function contractBody(request: GenerationRequest): Record<string, string> {
  const body: Record<string, string> = {};
  for (const field of ['model', 'prompt', 'size', 'quality'] as const) {
    const value = request[field];
    if (typeof value === 'string' && value.trim() !== '') body[field] = value;
  }
  return body;
}

export const pictorProfile: ProviderProfile = {
  id: 'pictor',
  facts: PROVIDERS.pictor,
  authHeaders: (key) => ({ Authorization: `Bearer ${key}` }),
  regionalHosts: [],
  mediaHosts: [],
  statusWords: { processing: 'running', completed: 'succeeded', failed: 'failed' },
  answerStatuses: { submit: [200], poll: [200] },
  // The spec leaves the task's other fields open: an OpenAI-style `b64_json` or a `data:` URL
  // in `output.data[]` is read as the image itself (core/service/inline-answer.ts).
  inlineResults: 'poll',
  maxInFlight: null,
  submit: (request) => ({
    method: 'POST',
    target: '/v1/images/generations',
    body: contractBody(request),
  }),
  readSubmit: (json) => {
    const answer = objectOf(json);
    return { id: answer['id'], handles: {}, model: answer['model'] };
  },
  poll: (taskId) => ({ method: 'GET', target: taskPath(taskId) }),
  readPoll(json) {
    const answer = objectOf(json);
    return { ...answer, ...readWord(this.statusWords, answer['status']) };
  },
};
