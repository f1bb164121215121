/**
 * IPC handlers of the prompt history (shared/ipc/prompt-contract.ts): each translates to the
 * history's prompt rows (core/history/prompt-history.ts), which the CLI's submits fill too.
 */
import type { PictorCore } from '../core/pictor-core';
import type { HandlersOf } from './ipc-main-bridge';

export interface PromptHandlerDeps {
  /** The core's prompt history: a change refused once its close has begun (PictorCore.prompts). */
  readonly prompts: PictorCore['prompts'];
}

export function promptHandlers({ prompts }: PromptHandlerDeps): HandlersOf<'prompts'> {
  return {
    'prompts:history': ({ query, limit }) => ({ entries: prompts.list(query, limit) }),
    'prompts:pin': ({ prompt, pinned }) => ({ changed: prompts.pin(prompt, pinned) }),
    'prompts:forget': ({ prompt }) => ({ changed: prompts.forget(prompt) }),
    'prompts:clear': () => ({ removed: prompts.clear() }),
  };
}
