// What the CLI's commands run with, loaded by `import()` only when a command runs: the core (with
// the store, both provider SDKs, the tokenizer and the report stack), the web door and the
// progress printer. `judge-lab --version` and `--help` need none of it, and loading it costs
// about a second of CPU (issue 27); `serve` loads it after its first page (serve-runtime.ts).
export { openCore } from '../facade/door';
export { estimateText, failureSummary, ProgressPrinter, warnFigureFailures } from './progress';
export { compareText, writeComparison } from './compare';
export { drawFewPngsOnThisThread } from '../facade/export-preload';
export { withExportHeap } from '../base/heap';
export {
  attributeToConfigFile,
  DB_FILE_NAME,
  explainStoreFault,
  loadExperimentConfig,
  parseColumnOptions,
} from '../facade/config-files';
