/**
 * "Manage templates…" as the compose form holds it: the dialog's code (template-manager.tsx, with
 * its editor help) is loaded the first time it opens, or ahead when the window is idle.
 */
import { lazyPart } from '../../components/lazy-part';
import { useAppStore } from '../../store/app-store';

export const TemplateManagerParts = lazyPart(
  () => import('./template-manager').then((module) => module.TemplateManagerHost),
  'common.loading',
);

/** The dialog while "Manage templates…" is open. */
export function TemplateManagerGate() {
  const open = useAppStore((state) => state.templatesManaging);
  return open ? <TemplateManagerParts.Part /> : null;
}
