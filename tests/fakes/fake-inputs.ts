/**
 * The fake API's images-as-inputs channels (shared/ipc/inputs-contract.ts). Placeholder: each
 * refuses until the renderer's edit panel has a fake to script.
 */
import type { RequestChannel, RequestInput, RequestOutput } from '../../shared/ipc/contract';

type Channel = Extract<RequestChannel, `inputs:${string}` | `edit:${string}` | `images:${string}`>;
type InputHandlers = {
  [C in Channel]: (input: RequestInput<C>) => RequestOutput<C> | Promise<RequestOutput<C>>;
};

const refuse = (): never => {
  throw new Error('Not available in the fake yet.');
};

export const fakeInputHandlers: InputHandlers = {
  'inputs:pickFile': refuse,
  'inputs:fromLibrary': refuse,
  'inputs:putMask': refuse,
  'inputs:downscale': refuse,
  'inputs:address': refuse,
  'inputs:consent': refuse,
  'edit:plan': refuse,
  'edit:run': refuse,
  'images:stack': refuse,
};
