/**
 * The compose form's Template choice, beside the prompt: None or a saved template (by name), and
 * "Manage templates…", which opens the dialog that makes, edits, deletes, imports and exports
 * them (template-manager.tsx, drawn beside the form: its own form is never inside this one). The
 * choice is not shown while the library has no template. The library is read when the field first
 * shows and on focus (the CLI or another window may have saved one since).
 */
import { useEffect } from 'react';
import { Button } from '../../components/button';
import { Field } from '../../components/field';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';

export function TemplateField() {
  const templates = useAppStore((state) => state.templates);
  const chosen = useAppStore((state) => state.composeTemplate?.id ?? '');
  const load = useAppStore((state) => state.templatesLoad);
  const choose = useAppStore((state) => state.composeChooseTemplate);
  const manage = useAppStore((state) => state.templatesShowManager);
  useEffect(() => {
    void load();
    // While there is no choice to focus, the window's focus reads the library again instead.
    const again = () => void load();
    window.addEventListener('focus', again);
    return () => window.removeEventListener('focus', again);
  }, [load]);
  // An empty library has nothing to choose: only the way to make one is shown.
  const empty = templates.length === 0 && chosen === '';
  return (
    <>
      {empty ? null : (
        <Field label={t('compose.template.label')} className="compose__template">
          {(control) => (
            <select
              {...control}
              className="select"
              value={chosen}
              onFocus={() => void load()}
              onChange={(event) => choose(event.target.value === '' ? null : event.target.value)}
            >
              <option value="">{t('compose.template.none')}</option>
              {templates.map((template) => (
                <option key={template.id} value={template.id}>
                  {template.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Button variant="ghost" size="small" onClick={() => manage(true)}>
        {t('compose.template.manage')}
      </Button>
    </>
  );
}
