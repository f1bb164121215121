/**
 * The prompt templates for the in-memory `window.pictor` (fake-pictor-api.ts): templates and word
 * lists in memory, a plan expanded with the shared expander (no prices: every task `free`, no
 * caps), a run submitted through the fake's own `tasks:submit`, one submit a prompt. Import and
 * export answer "cancelled" (no dialogs). Browser-safe: imports only shared/. Main's own checks
 * (names, versions, caps) are tested over the real wiring (tests/unit/ipc/template-handlers.test.ts).
 */
import type { PromptTemplate } from '../../shared/domain/prompt-template';
import { expandTemplate } from '../../shared/domain/template-expand';
import { parseTemplate } from '../../shared/domain/template-language';
import type { RequestChannel, RequestInput, RequestOutput } from '../../shared/ipc/contract';
import type { TaskItem } from '../../shared/ipc/task-item';

type Channel = Extract<RequestChannel, `templates:${string}`>;
type TemplateHandlers = {
  [C in Channel]: (input: RequestInput<C>) => RequestOutput<C> | Promise<RequestOutput<C>>;
};

export interface FakeTemplatesDeps {
  readonly submit: (input: RequestInput<'tasks:submit'>) => TaskItem[];
  readonly now: () => number;
}

export class FakeTemplates {
  private templates: PromptTemplate[] = [];
  private readonly lists = new Map<string, string[]>();
  private seq = 0;

  constructor(private readonly deps: FakeTemplatesDeps) {}

  /** Adds a template as a test's starting library. */
  add(name: string, body: string, negative?: string): PromptTemplate {
    this.seq += 1;
    const id = `00000000-0000-4000-8000-${String(this.seq).padStart(12, '0')}`;
    const at = this.deps.now();
    const template = {
      id,
      name,
      body,
      ...(negative ? { negative } : {}),
      version: 1,
      createdAt: at,
      updatedAt: at,
    };
    this.templates.push(template);
    return template;
  }

  private plan(input: RequestInput<'templates:plan'>): RequestOutput<'templates:plan'> {
    const template = this.templates.find((one) => one.id === input.templateId);
    if (!template) throw new Error('This template is no longer in the library.');
    const parsed = parseTemplate(template.body);
    if (!parsed.ok) throw new Error(parsed.error.sentence.key);
    const context = { values: input.values, prompt: input.prompt, lists: this.lists };
    const expanded = expandTemplate(parsed.template, context, input.mode);
    if (!expanded.ok) throw new Error(expanded.error.sentence.key);
    const { prompts } = expanded;
    const { id, name, version } = template;
    return {
      template: { id, name, version },
      prompts,
      negative: template.negative ? { text: template.negative, sent: false } : null,
      tasks: prompts.length * input.count,
      estimate: {
        perPrompt: prompts.map(() => ({ source: 'free' as const })),
        totals: [],
        unknownTasks: 0,
      },
      warnings: [],
      hardCap: null,
    };
  }

  readonly handlers: TemplateHandlers = {
    'templates:list': () => ({
      templates: [...this.templates],
      problems: [],
      wordLists: [...this.lists].map(([name, words]) => ({ name, words })),
    }),
    'templates:save': ({ name, body, negative, id, version }) => {
      const known = this.templates.find((one) => one.id === id);
      if (!known) return this.add(name, body, negative);
      if (version !== known.version) throw new Error('Someone else saved this template since.');
      const saved = { ...known, name, body, negative, version: known.version + 1 };
      this.templates = this.templates.map((one) => (one === known ? saved : one));
      return saved;
    },
    'templates:delete': ({ id }) => {
      this.templates = this.templates.filter((one) => one.id !== id);
    },
    'templates:wordList:save': ({ name, words }) => {
      const kept = words.map((word) => word.trim()).filter((word) => word !== '');
      this.lists.set(name, kept);
      return { name, words: kept };
    },
    'templates:wordList:delete': ({ name }) => void this.lists.delete(name),
    'templates:import': () => ({ summary: null }),
    'templates:export': () => ({ summary: null }),
    'templates:plan': (input) => this.plan(input),
    'templates:run': (input) =>
      this.plan(input).prompts.flatMap((prompt) =>
        this.deps.submit({
          request: { ...input.request, prompt },
          target: input.target,
          count: input.count,
          ...(input.board ? { board: input.board } : {}),
        }),
      ),
  };
}
