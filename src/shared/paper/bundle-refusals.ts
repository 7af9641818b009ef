// Why a study bundle (or the zip inside one) is refused before anything is replayed (issue 40): the
// English of each refusal, with its params. The core writes its message from these very texts and
// the page's `refusals` namespace uses them as its English, so the two never drift; the page's
// Chinese is in src/renderer/src/refusals/i18n.ts. `{{file}}` is the bundle, `{{entry}}` the
// entry at fault.

/** What is wrong with the zip as a whole: `{{file}}: not a study bundle (not a readable zip: …)`. */
const ZIP_LEVEL = {
  'bundle.noEnd': 'no end of central directory (not a zip, or cut short)',
  'bundle.zip64': 'a zip64 archive (the app never writes one)',
  'bundle.multipart': 'a multi-part zip (only single files are read)',
  'bundle.tooManyEntries': '{{count}} entries, above the limit of {{limit}}',
  'bundle.directoryOutside': 'the central directory lies outside the file (cut short?)',
  'bundle.directoryDamaged': 'the central directory is damaged at entry {{n}} of {{count}}',
  'bundle.damaged': 'damaged ({{detail}})',
} as const;

/** What is wrong with one entry: `{{file}}: {{entry}}: …`. */
const ENTRY_LEVEL = {
  'bundle.nameNotUtf8': 'its name is not valid UTF-8',
  'bundle.nameEmpty': 'refused: an empty name',
  'bundle.nameControl': 'refused: a control character in its name',
  'bundle.nameBackslash': 'refused: a backslash in its name (zip names use "/")',
  'bundle.nameAbsolute': 'refused: an absolute name',
  'bundle.nameClimbs': 'refused: a ".." in its name, which would climb out of the bundle',
  'bundle.nameDot': 'refused: an empty or "." part in its name',
  'bundle.nameSelf': 'refused: bundle.json cannot vouch for itself',
  'bundle.duplicate': 'appears twice in the zip (which copy counts would be ambiguous)',
  'bundle.zip64Entry': 'a zip64 entry (the app never writes one)',
  'bundle.encrypted': 'encrypted (a bundle is never encrypted)',
  'bundle.method': 'compression method {{method}}; only stored (0) and deflate (8) are read',
  'bundle.entryTooLarge': '{{size}} when unpacked, above the limit of {{limit}} for one entry',
  'bundle.totalTooLarge':
    'the entries up to this one unpack to {{size}}, above the limit of {{limit}} for all entries together',
  'bundle.localDamaged': 'its local header is missing or damaged (cut short?)',
  'bundle.localName': 'its local header names "{{name}}" (two names for one entry)',
  'bundle.localMethod': 'its local header and the central directory disagree on its compression',
  'bundle.dataPastEnd': 'its data run past the end of the entries (cut short?)',
  'bundle.overlap': 'its data overlap those of "{{other}}"',
  'bundle.storedSizes': 'stored, but its stored and unpacked sizes differ',
  'bundle.inflatesPast': 'unpacks to more than the {{size}} the zip declares for it (stopped there)',
  'bundle.unreadableData': 'its compressed data cannot be read ({{detail}})',
  'bundle.sizeMismatch': 'unpacks to {{actual}}, not the {{size}} the zip declares for it',
  'bundle.crc': 'its CRC-32 does not match its data (damaged)',
  'bundle.folderContent': 'a folder entry with content',
} as const;

/** Why a zip is refused, without the bundle's name (the workbook's reader says it this way). */
export const ZIP_PROBLEM_WHY = { ...ZIP_LEVEL, ...ENTRY_LEVEL };
export type ZipProblemKey = keyof typeof ZIP_PROBLEM_WHY;
/** The zip problems said of one entry (the others are of the zip as a whole). */
export const isEntryProblem = (key: ZipProblemKey): boolean => Object.hasOwn(ENTRY_LEVEL, key);

const prefixed = <K extends string>(texts: Record<K, string>, prefix: string) =>
  Object.fromEntries(Object.entries(texts).map(([k, t]) => [k, prefix.replace('%', t as string)])) as Record<
    K,
    string
  >;

export const BUNDLE_REFUSALS_EN = {
  ...prefixed(ZIP_LEVEL, '{{file}}: not a study bundle (not a readable zip: %)'),
  ...prefixed(ENTRY_LEVEL, '{{file}}: {{entry}}: %'),
  'bundle.fileTooLarge': '{{file}}: the bundle is {{size}}, above the limit of {{limit}} for a study bundle',
  'bundle.configPath':
    '{{file}}: config.json: {{field}}: names a file by path; a study bundle carries its files (sealed into the config), and verify opens no file outside the bundle',
  'bundle.configMismatch':
    '{{file}}: config.json: {{field}}: {{inConfig}}, but bundle.json says {{inMeta}}: the two do not describe one experiment',
  'bundle.simulatedInConfig':
    '{{file}}: config.json: providers: a simulated provider, but bundle.json says simulated: false',
  'bundle.notSimulatedInConfig':
    '{{file}}: config.json: providers: no simulated provider, but bundle.json says simulated: true',
};

export type BundleRefusalKey = keyof typeof BUNDLE_REFUSALS_EN;
export type RefusalParams = Record<string, string | number>;

/** A template with its params put in (`{{name}}`). */
export function fillRefusal(template: string, params: RefusalParams): string {
  return template.replace(/\{\{(\w+)\}\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}
