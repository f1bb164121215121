/**
 * IPC handler of an image's stack (`images:stack`, shared/ipc/inputs-contract.ts): its original
 * and every image made from it, read from the history (core/lineage/image-stack.ts). The page
 * names an image by its task and index; one the library lacks is refused with a sentence.
 */
import type { inputRequests } from '../../shared/ipc/inputs-contract';
import { sentence } from '../../shared/i18n/sentence';
import { UserFacingError } from '../core/errors';
import { imageStack, type StackHistory } from '../core/lineage';
import type { IpcHandlers } from './ipc-main-bridge';

type StackChannel = Extract<keyof typeof inputRequests, `images:${string}`>;

export function stackHandlers(history: StackHistory): Pick<IpcHandlers, StackChannel> {
  return {
    'images:stack': (image) => {
      const stack = imageStack(history, image);
      if (!stack) {
        throw new UserFacingError(sentence('error.lineage.noImage'), { code: 'bad_input' });
      }
      return stack;
    },
  };
}
