// For `judge-lab run`, a process that runs one study: its estimates count tokens in a worker
// thread that ends, and tables loaded here all the same go after each estimate (issue 39). The
// export's libraries are no longer loaded during the run (cli/index.ts).
export { releaseTokenizerAfterEstimates } from '../providers/sdk';
// …and draws an export's few figures itself, without the PNG worker (report/png-pool.ts).
export { drawFewPngsOnThisThread } from '../report/png-pool';
