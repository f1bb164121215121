/**
 * What the CLI's command line says, once parsed and checked (cli-args.ts): one member per command,
 * the families (costs, cancel, triage, templates) from their own files.
 */
import type { ParamValues } from '../../shared/domain/model-params';
import type { SubmitTarget } from '../../shared/domain/submit-target';
import type { TriageQuery } from '../core/history';
import type { CancelCommand } from './cancel-args';
import type { CommonOptions } from './common-args';
import type { ListPage } from './list-paging';
import type { CostCommand } from './cost-args';
import type { ServiceId } from '../../shared/domain/service-id';
import type { ServiceChoice } from './service-args';
import type { TemplateCommandLine } from './template-args';
import type { TemplateRunChoice } from './template-run-args';
import type { TriageCommandLine } from './triage-args';

export type Command =
  | {
      readonly name: 'generate';
      readonly service: ServiceChoice;
      /** Where the tasks go: --provider at --base-url (or its own address), or `demo:`. */
      readonly target: SubmitTarget;
      /**
       * `pictor demo`: say what the demo is first (and that the prompt is the sample one, when
       * none was typed), and the way to a real service last.
       */
      readonly explain?: { readonly samplePrompt: boolean };
      readonly prompt: string;
      readonly model?: string;
      readonly size?: string;
      readonly quality?: string;
      readonly count: number;
      /** --board PATH: the board the images join as they arrive ("Generate into"), checked. */
      readonly board?: string;
      /** --template NAME (template-run-args.ts): the prompt fills its `{{prompt}}`. */
      readonly template?: TemplateRunChoice;
      /** The model's own options and the seed asked for (param-args.ts). */
      readonly params?: ParamValues;
      readonly seed?: number;
      /** --dry-run without a template: print the body that would be sent, send nothing. */
      readonly dryRun?: boolean;
      /** --like REF [--vary]: the request of that task again, with its seed (a new one: --vary). */
      readonly like?: { readonly ref: string; readonly vary: boolean };
      readonly common: CommonOptions;
    }
  | {
      readonly name: 'resume';
      readonly target: string | 'all';
      /** The service SERVICE_API_KEY is for; tasks on any other service wait, and say why. */
      readonly service: ServiceChoice;
      /**
       * --provider as typed: `resume --all` takes only that provider's tasks (the built-in demo's
       * with `demo`); null: every unfinished task (those of another service wait, and say why).
       */
      readonly only: ServiceId | null;
      readonly common: CommonOptions;
    }
  | {
      readonly name: 'track';
      readonly taskId: string;
      readonly service: ServiceChoice & { readonly baseUrl: string };
      readonly prompt?: string;
      /** The model the task was made with (--model): fal finds a request under its model only. */
      readonly model?: string;
      readonly common: CommonOptions;
    }
  | {
      readonly name: 'list';
      /** Only tasks of this provider, or of the built-in demo (--provider); null: every task. */
      readonly provider: ServiceId | null;
      /** Triage filters (--rating, --flag, --board, --tag, --unfiled): list images; null: tasks. */
      readonly triage: TriageQuery | null;
      /** --smart NAME: the images of that smart board (with the triage filters); null: none. */
      readonly smart: string | null;
      /** --compare GROUP: only the tasks of that compare; null: every task. */
      readonly compareGroup: string | null;
      /** --template ID: only what was made from that prompt template; null: any. */
      readonly template: string | null;
      /** --limit N, --all, --cursor C: which rows (list-paging.ts). */
      readonly page: ListPage;
      readonly common: CommonOptions;
    }
  | { readonly name: 'rebuild'; readonly common: CommonOptions }
  | {
      readonly name: 'export';
      /** The archive to write (absolute); an existing file is never replaced. */
      readonly file: string;
      /** Only these tasks (local ids); empty: the whole library. */
      readonly taskIds: readonly string[];
      readonly common: CommonOptions;
    }
  | { readonly name: 'import'; readonly source: string; readonly common: CommonOptions }
  /** Checks this installation in a temporary folder; touches no library. */
  | { readonly name: 'self-test' }
  /** What one image file says about itself: provenance and Content Credentials. */
  | {
      readonly name: 'info';
      readonly file: string;
      readonly json: boolean;
      /** The library whose rating, flag, tags and boards of the image are shown (--data-dir). */
      readonly dataDir: string;
    }
  /** The cost ledger, spending caps and prices (cost-args.ts). */
  | CostCommand
  /** Asks the services to cancel tasks (cancel-args.ts). */
  | CancelCommand
  /** Ratings, flags, tags, boards (triage-args.ts). */
  | TriageCommandLine
  /** Prompt templates and word lists (template-args.ts). */
  | TemplateCommandLine;
