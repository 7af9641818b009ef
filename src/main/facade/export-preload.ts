// For `judge-lab run`, a process that runs one study and exits: it draws an export's few figures
// itself, without the PNG worker (report/png-pool.ts). The export's libraries are no longer loaded
// during the run (cli/index.ts); its token counting is started by counting-ahead.ts.
export { drawFewPngsOnThisThread } from '../report/png-pool';
