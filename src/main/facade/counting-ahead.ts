// For `judge-lab run`, a process that runs one study: its estimates count tokens in a worker
// thread that ends, started before the CLI loads (bin/judge-lab.mjs, through its own build entry
// out/main/counting-ahead.js; cli/index.ts starts it too, if that missed) so the tables are built while
// this thread still holds little: built beside the loaded core and the plan, they made the run's
// start as high in memory as its export (issue 39). The launcher waits for them
// (`countingTablesBuilt`) before it loads the CLI. Light: the core is not imported from here.
export { countingTablesBuilt, releaseTokenizerAfterEstimates } from '../providers/sdk';
