// Input limits the API's parameter schemas (src/shared/api/) state as well as main's readers
// (src/main/base/input-limits.ts, which holds the others): kept here so the two cannot differ.

/** The largest study bundle (*.judgelab) the app takes, as a file or as an API call's base64. */
export const BUNDLE_FILE_BYTES = 256 * 1024 * 1024;
