// An experiment's name becomes a folder name (the default export folder, the app's exports/),
// so it must be a single, portable path segment that cannot point anywhere else.

/** Device names Windows reserves in every folder, with or without an extension ("nul.txt"). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

const FORBIDDEN_CHARS = /[/\\:*?"<>|]/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

export const MAX_NAME_LENGTH = 120;

/** Why a name cannot be a folder name on every system, or undefined when it can. */
export function folderNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'must not be empty';
  if (name.length > MAX_NAME_LENGTH) return `must be at most ${MAX_NAME_LENGTH} characters`;
  if (name === '.' || name === '..') return `must not be "${name}" (it names the export folder)`;
  if (CONTROL_CHARS.test(name)) return 'must not contain control characters (it names the export folder)';
  if (FORBIDDEN_CHARS.test(name)) return 'must not contain / \\ : * ? " < > | (it names the export folder)';
  if (/^[\s.]|[\s.]$/.test(name))
    return 'must not start or end with a dot or a space (it names the export folder)';
  if (WINDOWS_RESERVED.test(name))
    return `must not be "${name}": Windows reserves it as a device name (it names the export folder)`;
  return undefined;
}
