// For `judge-lab run`, a process that runs one study: the tokenizer's tables go after its
// estimates (issue 39). The export's libraries are no longer loaded during the run (cli/index.ts).
export { releaseTokenizerAfterEstimates } from '../providers/sdk';
