// Reading a user's experiment config file for a door that runs one (the CLI): parsed and
// checked as the core checks it, with errors attributed to the file's own lines, and the
// store's faults worded for the person at the terminal. Loaded when a command runs.
export { loadExperimentConfig } from '../experiments/config';
export { attributeToConfigFile, readConfigText } from '../import/config-file';
export { parseColumnOptions } from '../import/column-mapping';
export { DB_FILE_NAME } from '../store/db';
export { explainStoreFault } from '../store/open-errors';
export { powerText } from '../paper/power-text';
