// The experiments part of the core: one object with three parts by concern — the catalogue
// (configs → experiments), run control, and what experiments show and export. The core's
// API table calls the parts directly; every door (the CLI too) goes through that table.
import { ExperimentCatalogue } from './catalogue';
import type { FigureLanguage } from '../../shared/report/figure-i18n';
import { keyStatus, testProviderConnection } from './provider-status';
import { ResultViews } from './result-views';
import { RunControl } from './run-control';
import type { ServiceOptions } from './service-options';

export type { ServiceOptions as ExperimentServiceOptions } from './service-options';

export class ExperimentService {
  readonly runs: RunControl;
  readonly catalogue: ExperimentCatalogue;
  readonly views: ResultViews;

  constructor(private readonly opts: ServiceOptions) {
    this.runs = new RunControl(opts);
    this.catalogue = new ExperimentCatalogue(opts, this.runs);
    this.views = new ResultViews(opts, this.catalogue, this.runs);
  }

  keyStatus(providers: Record<string, unknown>) {
    return keyStatus(this.opts.keys, providers);
  }

  testConnection(name: string, raw: unknown, model?: string) {
    return testProviderConnection(this.opts.keys, name, raw, model);
  }

  // The calls tests make by name, kept on the service itself (the CLI goes through Core.call).
  createOrUpdate = (raw: unknown) => this.catalogue.createOrUpdate(raw);
  createForRun = (raw: unknown) => this.catalogue.createForRun(raw);
  estimate = (raw: unknown) => this.catalogue.estimate(raw);
  find = (ref: string) => this.catalogue.find(ref);
  runToEnd = (id: number, resumeJudges?: readonly string[]) => this.runs.runToEnd(id, resumeJudges);
  progress = (id: number) => this.runs.progress(id);
  retryFailed = (id: number) => this.runs.retryFailed(id);
  interrupt = (id: number) => this.runs.interrupt(id);
  shutdown = () => this.runs.shutdown();
  export = (id: number, outDir?: string, lang?: FigureLanguage) => this.views.export(id, outDir, lang);
}
