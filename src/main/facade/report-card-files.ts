// The judge report card's files for a door that writes them (the CLI): the gates file a
// researcher passes, and the card's exports. Loaded when the command runs.
export { readGatesFile } from '../report-card/gates-file';
export { registryCardText, writeReportCard } from '../report-card/export';
