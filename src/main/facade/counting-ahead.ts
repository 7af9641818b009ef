// For `judge-lab run`, a process that runs one study: its estimates count tokens in a worker
// thread that ends, started before the core loads (cli/index.ts) so the tables are built while
// this thread still holds little: built beside the loaded core and the plan, they made the run's
// start as high in memory as its export (issue 39). Light: the core is not imported from here.
export { releaseTokenizerAfterEstimates } from '../providers/sdk';
