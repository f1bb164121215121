/**
 * The ComfyUI workflows kept as models (workflows-slice.ts), as the model fields offer them: the
 * compose form's and each compare row's, when the service's models are workflows. The list is read
 * from main when first asked.
 */
import { useEffect, useMemo } from 'react';
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import { useAppStore } from './app-store';

const NONE: readonly string[] = [];

/** The imported workflows' names when `provider`'s models are workflows; none otherwise. */
export function useWorkflowModels(provider: ProviderId): readonly string[] {
  const takes = PROVIDERS[provider].modelsAreWorkflows === true;
  // Read only when offered: another service's field is not drawn again when the list arrives.
  const kept = useAppStore((state) => (takes ? state.comfyWorkflows : null));
  useEffect(() => {
    if (takes && useAppStore.getState().comfyWorkflows === null)
      void useAppStore.getState().workflowsLoad();
  }, [takes]);
  return useMemo(() => (takes && kept ? kept.map((row) => row.name) : NONE), [takes, kept]);
}
