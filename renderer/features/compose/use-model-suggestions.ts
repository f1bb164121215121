/**
 * Models offered in the compose form. Today's contract: this session's first, then those in the
 * loaded history. Another service: its provider's models (the user may still type another), and
 * for one whose models are workflows (ComfyUI) the workflows imported (Settings or the CLI).
 */
import { useMemo } from 'react';
import { PROVIDERS } from '../../../shared/domain/providers';
import { useAppStore } from '../../store/app-store';
import { selectTaskItems } from '../../store/record-selectors';
import { useWorkflowModels } from '../../store/use-workflow-models';

const MAX_SUGGESTIONS = 20;
/** How far into the loaded history to look (it can hold 100,000 items). */
const SCAN = 500;

export function useModelSuggestions(): string[] {
  const session = useAppStore((state) => state.composeModels);
  const items = useAppStore(selectTaskItems);
  const fallback = useAppStore((state) => state.settings?.defaultModel ?? '');
  const provider = useAppStore((state) => state.composeDraft.provider);
  const workflows = useWorkflowModels(provider);
  return useMemo(() => {
    // A service with a catalogue offers it; one without (the seed's interface names no models)
    // offers the models this user asked it for.
    const listed = PROVIDERS[provider].models;
    if (listed.length > 0) return [...listed, ...workflows];
    const seen = new Set<string>();
    const add = (model: string | undefined): void => {
      if (model && seen.size < MAX_SUGGESTIONS) seen.add(model);
    };
    session.forEach(add);
    // The loaded history is newest first, so the most recently used models come first.
    for (let index = 0; index < Math.min(items.length, SCAN); index += 1) {
      add(items[index]?.record.request.model);
    }
    add(fallback);
    return [...seen];
  }, [session, items, fallback, provider, workflows]);
}
