/**
 * "Manage templates…": the library's templates (New, Edit: name, body, negative prompt; Delete;
 * Import… and Export… through main's own dialogs, in a format chosen here) and its word lists
 * (a name and one word a line). Main checks every change; its sentence shows here (a name with a
 * bidi control, a body that does not parse with its line and column, a template saved elsewhere
 * since it was opened).
 */
import { useLayoutEffect, useRef, useState } from 'react';
import type { PromptTemplate } from '../../../shared/domain/prompt-template';
import { Button } from '../../components/button';
import { ConfirmDialog, Dialog } from '../../components/dialog';
import { Field } from '../../components/field';
import { TextField } from '../../components/text-field';
import { errorText, t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import type { TemplateDraft } from '../../store/form-drafts';
import { useFormDraft } from '../../store/use-form-draft';
import type { TemplateExportFormat, TemplateFileFormat } from '../../store/templates-slice';
import { EditorPreview, SyntaxHelp } from './template-editor-help';

const FORMATS: readonly TemplateFileFormat[] = ['pictor', 'fooocus', 'a1111', 'invokeai'];

/** The template being edited: a new one (no id) or a saved one at the version opened. */
type Editing = TemplateDraft;

function editingOf(template: PromptTemplate): Editing {
  const { id, version, name, body } = template;
  return { id, version, name, body, negative: template.negative ?? '' };
}

function TextArea(props: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <Field label={props.label}>
      {(control) => (
        <textarea
          {...control}
          className="input"
          dir="auto"
          rows={4}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

function TemplateEditor({ editing, onDone }: { editing: Editing; onDone: () => void }) {
  const save = useAppStore((state) => state.templatesSave);
  // The store's (form-drafts.ts), as the editor being open: a new language keeps what is typed.
  const [kept, setDraft] = useFormDraft('templates.editing', editing);
  const draft = kept ?? editing;
  const submit = async () => {
    const { id, version, name, body, negative } = draft;
    const saved = await save({
      name,
      body,
      ...(negative.trim() ? { negative } : {}),
      ...(id ? { id, version } : {}),
    });
    if (saved) onDone();
  };
  return (
    <form
      aria-label={t('templates.manage.editor')}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextField
        label={t('templates.manage.name')}
        value={draft.name}
        onChange={(name) => setDraft({ ...draft, name })}
      />
      <TextArea
        label={t('templates.manage.body')}
        value={draft.body}
        onChange={(body) => setDraft({ ...draft, body })}
      />
      <SyntaxHelp />
      <EditorPreview body={draft.body} />
      <TextArea
        label={t('templates.manage.negative')}
        value={draft.negative}
        onChange={(negative) => setDraft({ ...draft, negative })}
      />
      <Button type="submit">{t('templates.manage.save')}</Button>{' '}
      <Button variant="ghost" onClick={onDone}>
        {t('templates.manage.cancel')}
      </Button>
    </form>
  );
}

function WordListEditor() {
  const lists = useAppStore((state) => state.templateWordLists);
  const saveList = useAppStore((state) => state.templatesSaveWordList);
  const removeList = useAppStore((state) => state.templatesDeleteWordList);
  const [name, setName] = useFormDraft('templates.listName', '');
  const [words, setWords] = useFormDraft('templates.listWords', '');
  return (
    <section aria-label={t('templates.manage.wordLists')}>
      <h3>{t('templates.manage.wordLists')}</h3>
      <ul>
        {lists.map((list) => (
          <li key={list.name}>
            <Button
              variant="ghost"
              size="small"
              onClick={() => (setName(list.name), setWords(list.words.join('\n')))}
            >
              {list.name}
            </Button>
            <Button variant="ghost" size="small" onClick={() => void removeList(list.name)}>
              {t('templates.manage.deleteNamed', { name: list.name })}
            </Button>
          </li>
        ))}
      </ul>
      <TextField label={t('templates.manage.listName')} value={name} onChange={setName} />
      <TextArea label={t('templates.manage.words')} value={words} onChange={setWords} />
      <Button onClick={() => void saveList(name, words)}>{t('templates.manage.saveList')}</Button>
    </section>
  );
}

function FileActions() {
  const [format, setFormat] = useFormDraft('templates.format', 'pictor');
  const importFile = useAppStore((state) => state.templatesImport);
  const exportFile = useAppStore((state) => state.templatesExport);
  const outcome = useAppStore((state) => state.templatesFileOutcome);
  return (
    <div>
      <Field label={t('templates.manage.format')}>
        {(control) => (
          <select
            {...control}
            className="select"
            value={format}
            onChange={(event) => setFormat(event.target.value as TemplateFileFormat)}
          >
            {FORMATS.map((one) => (
              <option key={one} value={one}>
                {t(`templates.format.${one}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Button onClick={() => void importFile(format)}>{t('templates.manage.import')}</Button>{' '}
      <Button
        disabled={format === 'invokeai'}
        onClick={() => void exportFile(format as TemplateExportFormat)}
      >
        {t('templates.manage.export')}
      </Button>
      {outcome ? (
        <p role="status">
          {t(`templates.manage.${outcome.kind}`, {
            count: outcome.count,
            problems: outcome.problems,
          })}
        </p>
      ) : null}
    </div>
  );
}

/** What opened the editor for a new template (a saved one's opener is its id). */
const NEW_TEMPLATE = 'new';

/**
 * The editor open or not, and the focus when it closes (Save or Cancel): back on the button that
 * opened it (a template's Edit, or New), or New when that template went meanwhile.
 */
function useEditorFocus() {
  const [editing, setEditing] = useFormDraft('templates.editing', null);
  const opener = useRef<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (editing !== null || opener.current === null || !list) return;
    const openers = [...list.querySelectorAll<HTMLElement>('[data-opens-editor]')];
    const find = (key: string) => openers.find((button) => button.dataset.opensEditor === key);
    (find(opener.current) ?? find(NEW_TEMPLATE))?.focus();
    opener.current = null;
  }, [editing]);
  return {
    editing,
    listRef,
    edit: (next: Editing, from: string) => {
      opener.current = from;
      setEditing(next);
    },
    done: () => setEditing(null),
  };
}

/** The library's templates, each with Edit and Delete, and the rows that cannot be read. */
function TemplateList(props: {
  onEdit: (editing: Editing, opener: string) => void;
  onDelete: (template: PromptTemplate) => void;
}) {
  const templates = useAppStore((state) => state.templates);
  const problems = useAppStore((state) => state.templateProblems);
  return (
    <ul aria-label={t('templates.manage.title')}>
      {templates.map((template) => (
        <li key={template.id}>
          <span dir="auto">{template.name}</span>{' '}
          <Button
            size="small"
            data-opens-editor={template.id}
            onClick={() => props.onEdit(editingOf(template), template.id)}
          >
            {t('templates.manage.editNamed', { name: template.name })}
          </Button>{' '}
          <Button size="small" variant="ghost" onClick={() => props.onDelete(template)}>
            {t('templates.manage.deleteNamed', { name: template.name })}
          </Button>
        </li>
      ))}
      {problems.map((row) => (
        <li key={row.id} className="muted">
          <span dir="auto">{row.name}</span>
          {': '}
          {errorText({ message: '', sentence: row.problem })}
        </li>
      ))}
    </ul>
  );
}

/** What the manager keeps while open (form-drafts.ts), forgotten when it closes. */
const TEMPLATE_DRAFTS = [
  'templates.editing',
  'templates.listName',
  'templates.listWords',
  'templates.format',
] as const;

/** The dialog while "Manage templates…" is open. */
export function TemplateManagerHost() {
  const open = useAppStore((state) => state.templatesManaging);
  const show = useAppStore((state) => state.templatesShowManager);
  const drop = useAppStore((state) => state.formDraftDrop);
  const close = () => {
    for (const field of TEMPLATE_DRAFTS) drop(field);
    show(false);
  };
  return open ? <TemplateManager onClose={close} /> : null;
}

function TemplateManager({ onClose }: { onClose: () => void }) {
  const error = useAppStore((state) => state.templatesError);
  const remove = useAppStore((state) => state.templatesDelete);
  const { editing, edit, done, listRef } = useEditorFocus();
  // Deleting asks first: a template's text is not kept anywhere else once it goes.
  const [deleting, setDeleting] = useState<PromptTemplate | null>(null);
  return (
    <Dialog title={t('templates.manage.title')} onClose={onClose} size="large">
      {error ? <p className="tone--danger">{error.text()}</p> : null}
      {editing ? (
        <TemplateEditor editing={editing} onDone={done} />
      ) : (
        <div ref={listRef}>
          <TemplateList onEdit={edit} onDelete={setDeleting} />
          <Button
            data-opens-editor={NEW_TEMPLATE}
            onClick={() => edit({ name: '', body: '{{prompt}}', negative: '' }, NEW_TEMPLATE)}
          >
            {t('templates.manage.new')}
          </Button>
          <FileActions />
          <WordListEditor />
        </div>
      )}
      {deleting ? (
        <ConfirmDialog
          title={t('templates.manage.deleteQuestion', { name: deleting.name })}
          body={t('templates.manage.deleteBody')}
          confirmLabel={t('templates.manage.deleteNamed', { name: deleting.name })}
          danger
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            setDeleting(null);
            void remove(deleting.id);
          }}
        />
      ) : null}
    </Dialog>
  );
}
