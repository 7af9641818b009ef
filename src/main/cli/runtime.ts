// What the CLI's commands run with, loaded by `import()` only when a command runs: the core (with
// the store, both provider SDKs, the tokenizer and the report stack), the web door and the
// progress printer. `judge-lab --version` and `--help` need none of it, and loading it costs
// about a second of CPU (issue 27).
export { openCore } from '../facade/door';
export { rendererDir } from '../base/paths';
export { startWebServer } from '../doors/web';
export { startWebServerKeepingPort } from '../doors/serve-port';
export { defaultTokenFile, loadServeToken } from '../doors/serve-token';
export { estimateText, failureSummary, ProgressPrinter, warnFigureFailures } from './progress';
export { compareText, writeComparison } from './compare';
export {
  attributeToConfigFile,
  DB_FILE_NAME,
  explainStoreFault,
  loadExperimentConfig,
  parseColumnOptions,
} from '../facade/config-files';
