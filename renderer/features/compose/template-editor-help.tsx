/**
 * What the template editor says beside its fields: how a template is written (the four forms, each
 * with an example) and a live preview of what the body makes as it is typed (the count and the
 * first prompts, or where it does not parse), expanded with the form's own expander.
 */
import { useMemo } from 'react';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { RANDOM_PROMPTS } from '../../store/compose-template-actions';
import { expansionOf } from './use-template-expansion';

/** The four forms a template is written with, each with an example. */
const SYNTAX = [
  ['templates.manage.syntaxChoice', '{red|green|blue}'],
  ['templates.manage.syntaxVariable', '{{animal}} {{place=the sea}}'],
  ['templates.manage.syntaxPrompt', '{{prompt}}'],
  ['templates.manage.syntaxList', '__colours__'],
] as const;

export function SyntaxHelp() {
  return (
    <details className="template-editor__syntax">
      <summary>{t('templates.manage.syntaxTitle')}</summary>
      <dl>
        {SYNTAX.map(([key, example]) => (
          <div key={key}>
            <dt>
              <code dir="ltr">{example}</code>
            </dt>
            <dd>{t(key)}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/** How many prompts the body makes and the first of them, as it is typed (defaults filled). */
const PREVIEWED = 5;

export function EditorPreview({ body }: { body: string }) {
  const lists = useAppStore((state) => state.templateWordLists);
  const prompt = useAppStore((state) => state.composeDraft.prompt);
  const { preview } = useMemo(
    () =>
      expansionOf(
        body,
        { id: '', values: {}, mode: 'combinatorial', randomCount: 0, seed: 0 },
        prompt,
        lists,
      ),
    [body, prompt, lists],
  );
  return (
    <section className="template-editor__preview" aria-label={t('templates.manage.previewTitle')}>
      <h3>{t('templates.manage.previewTitle')}</h3>
      {preview.kind === 'error' ? <p className="tone--danger">{preview.text}</p> : null}
      {preview.kind === 'tooMany' ? (
        <p className="tone--warning">
          {t('compose.template.tooMany', { count: preview.count, limit: RANDOM_PROMPTS })}
        </p>
      ) : null}
      {preview.kind === 'prompts' ? (
        <>
          <p>{t('compose.template.count', { count: preview.prompts.length })}</p>
          <ol>
            {preview.prompts.slice(0, PREVIEWED).map((one, n) => (
              <li key={n} dir="auto">
                {one}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  );
}
