// A seeded generator of malformed datasets and experiment configs. Every case is malformed by
// construction (each mutation breaks a rule the importer or the config schema states), so a case
// that is accepted is a bug, not noise. Same seed, same cases.
import { INPUT_LIMITS } from '../../src/main/base/input-limits';
import { mulberry32, type Rng } from '../../src/shared/random';

export interface FuzzCase {
  /** What was done, for the failure message. */
  name: string;
  /** File name (its extension picks the reader). */
  fileName: string;
  bytes: Buffer;
  /** The problem is the whole file (empty, UTF-16, too big): no line or field to name. */
  fileLevel?: boolean;
}

const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];

type Item = Record<string, unknown>;
type Format = 'jsonl' | 'json' | 'csv';
const TEXT_FIELDS = ['instruction', 'output_1', 'output_2'] as const;
const COLUMNS = ['id', 'subset', 'instruction', 'output_1', 'output_2', 'label'];

function baseItems(rng: Rng): Item[] {
  const n = int(rng, 3, 8);
  return Array.from({ length: n }, (_, i) => ({
    id: `item-${i + 1}`,
    subset: pick(rng, ['Natural', 'Adversarial/Neighbor', '自然']),
    instruction: pick(rng, [
      'Write a haiku about rain.',
      '把这句话翻译成英文：你好。',
      'Sum 2 and 3, "quickly", please.',
    ]),
    output_1: pick(rng, ['Rain taps the window,\nsoft', '5', 'Hello.']),
    output_2: pick(rng, ['Sunny skies, 42 days', 'six', '你好。']),
    label: pick(rng, [1, 2]),
  }));
}

function csvCell(v: unknown): string {
  return `"${String(v ?? '').replace(/"/g, '""')}"`;
}

function serialize(items: Item[], format: Format, columns = COLUMNS): string {
  if (format === 'jsonl') return items.map((i) => JSON.stringify(i)).join('\n') + '\n';
  if (format === 'json') return '[\n' + items.map((i) => ' ' + JSON.stringify(i)).join(',\n') + '\n]\n';
  return (
    [columns.join(','), ...items.map((i) => columns.map((c) => csvCell(i[c])).join(','))].join('\r\n') +
    '\r\n'
  );
}

function deepValue(depth: number): string {
  return '['.repeat(depth) + '1' + ']'.repeat(depth);
}

/** Inserts bytes where the byte before is ASCII, so they cannot complete a multi-byte character. */
function insertBytes(rng: Rng, text: string, extra: number[], from = 1): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  let at = int(rng, from, bytes.length - 1);
  while (at > from && bytes[at - 1] >= 0x80) at--;
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(extra), bytes.subarray(at)]);
}

const INVALID_UTF8 = [
  [0xff],
  [0xc3, 0x28],
  [0x80],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf5, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
];

type DatasetMutation = (
  rng: Rng,
  items: Item[],
  format: Format,
) => { text?: string; bytes?: Buffer; fileLevel?: boolean; format?: Format; what: string };

const DATASET_MUTATIONS: Record<string, DatasetMutation> = {
  wrongType: (rng, items, format) => {
    const i = int(rng, 0, items.length - 1);
    if (format === 'csv') {
      const [field, value] = pick(rng, [
        ['label', pick(rng, ['3', 'x', '', '0', '1.0', 'one'])],
        [pick(rng, TEXT_FIELDS), pick(rng, ['', '   ', '\t'])],
      ] as const);
      items[i][field] = value;
      return { text: serialize(items, format), what: `${field}=${JSON.stringify(value)}` };
    }
    const field = pick(rng, [...TEXT_FIELDS, 'label', 'subset', 'id']);
    const bad: Record<string, unknown[]> = {
      label: [0, 3, -1, 1.5, 'x', null, true, [], {}, ''],
      subset: [5, true, [], { a: 1 }],
      id: [[], {}, true, '   '],
    };
    const value = pick(rng, bad[field] ?? [42, true, null, [], { a: 'b' }, '', '  \n ']);
    items[i][field] = value;
    return { text: serialize(items, format), what: `${field}=${JSON.stringify(value)}` };
  },
  missingField: (rng, items, format) => {
    const field = pick(rng, ['instruction', 'output_1', 'output_2', 'label']);
    if (format === 'csv') {
      const columns = COLUMNS.filter((c) => c !== field);
      return { text: serialize(items, format, columns), what: `no ${field} column` };
    }
    delete items[int(rng, 0, items.length - 1)][field];
    return { text: serialize(items, format), what: `no ${field}` };
  },
  duplicateIds: (rng, items, format) => {
    const j = int(rng, 1, items.length - 1);
    items[j].id = items[int(rng, 0, j - 1)].id;
    return { text: serialize(items, format), what: `item ${j + 1} repeats an id` };
  },
  truncated: (rng, items, format) => {
    const text = serialize(items, format);
    if (format === 'csv') {
      // Inside a quoted cell of a data row: the quote is never closed.
      const firstRow = text.indexOf('\r\n') + 2;
      const quote = text.indexOf('"', int(rng, firstRow, text.length - 4));
      return { text: text.slice(0, (quote < 0 ? firstRow : quote) + 2), what: 'cut inside a quoted cell' };
    }
    if (format === 'json')
      return { text: text.slice(0, int(rng, 2, text.trimEnd().length - 1)), what: 'cut short' };
    const lines = text.split('\n');
    const k = int(rng, 0, items.length - 1);
    const cut = lines[k].slice(0, int(rng, 1, lines[k].length - 1));
    return { text: [...lines.slice(0, k), cut].join('\n'), what: `line ${k + 1} cut short` };
  },
  badEncoding: (rng, items, format) => {
    const seq = pick(rng, INVALID_UTF8);
    return {
      bytes: insertBytes(rng, serialize(items, format), seq),
      what: `bytes ${seq.map((b) => b.toString(16))}`,
    };
  },
  nulByte: (rng, items, format) => ({
    bytes: insertBytes(rng, serialize(items, format), [0]),
    what: 'a NUL byte',
  }),
  deepNesting: (rng, items, format) => {
    const f: Format = format === 'csv' ? 'jsonl' : format;
    const depth = pick(rng, [INPUT_LIMITS.jsonDepth + 1, 500, 20_000, int(rng, 65, 100_000)]);
    const marker = '"__DEEP__"';
    items[int(rng, 0, items.length - 1)][pick(rng, [...TEXT_FIELDS, 'label'])] = '__DEEP__';
    return {
      text: serialize(items, f).replace(marker, deepValue(depth)),
      format: f,
      what: `nested ${depth} deep`,
    };
  },
  hugeField: (rng, items, format) => {
    const field = pick(rng, TEXT_FIELDS);
    items[int(rng, 0, items.length - 1)][field] = 'w'.repeat(
      INPUT_LIMITS.datasetTextChars + int(rng, 1, 5000),
    );
    return { text: serialize(items, format), what: `huge ${field}` };
  },
  hugeGarbageLine: (rng, items) => {
    const lines = serialize(items, 'jsonl').split('\n');
    lines.splice(int(rng, 0, items.length - 1), 0, '{' + '"a":'.repeat(int(rng, 10_000, 300_000)));
    return { text: lines.join('\n'), format: 'jsonl', what: 'a huge broken line' };
  },
  bomInOddPlace: (rng, items, format) => {
    if (format === 'csv') {
      // JavaScript trims a BOM like a space, so header names survive one; a label does not.
      const i = int(rng, 0, items.length - 1);
      items[i].label = '\uFEFF' + String(items[i].label);
      return { text: serialize(items, format), what: `BOM inside row ${i + 1}'s label` };
    }
    const text = serialize(items, format);
    if (format === 'json') return { text: text.replace('},\n', '},\uFEFF\n'), what: 'BOM between items' };
    const lines = text.split('\n');
    const k = int(rng, 1, items.length - 1);
    lines[k] = '\uFEFF' + lines[k];
    return { text: lines.join('\n'), what: `BOM at line ${k + 1}` };
  },
  // Only the first BOM is a byte order mark; JSON has no place for a second (CSV trims it as a space).
  doubleBom: (_rng, items, format) => {
    const f: Format = format === 'csv' ? 'jsonl' : format;
    return { text: '\uFEFF\uFEFF' + serialize(items, f), format: f, what: 'two BOMs' };
  },
  utf16: (rng, items, format) => {
    const body = Buffer.from(serialize(items, format), 'utf16le');
    const withBom = rng() < 0.5;
    return {
      bytes: withBom ? Buffer.concat([Buffer.from([0xff, 0xfe]), body]) : body,
      fileLevel: withBom,
      what: 'UTF-16',
    };
  },
  empty: (rng) => ({ text: pick(rng, ['', ' ', '\n\n', '\r\n\t ']), fileLevel: true, what: 'nothing in it' }),
  wrongTopLevel: (rng, items, format) => {
    if (format === 'jsonl') {
      const lines = serialize(items, format).split('\n');
      lines[int(rng, 0, items.length - 1)] = pick(rng, ['[1,2]', '"text"', '42', 'null', 'true']);
      return { text: lines.join('\n'), what: 'a line that is not an object' };
    }
    return {
      text: pick(rng, [
        `{"data": ${serialize(items, 'json')}}`,
        '42',
        '"items"',
        'null',
        '[1, 2, 3]',
        '[[]]',
      ]),
      format: 'json',
      what: 'top level not an array of objects',
    };
  },
  columnCount: (rng, items) => {
    const lines = serialize(items, 'csv').split('\r\n');
    const k = int(rng, 1, items.length);
    lines[k] = rng() < 0.5 ? lines[k] + ',"extra"' : lines[k].slice(0, lines[k].lastIndexOf(','));
    return { text: lines.join('\r\n'), format: 'csv', what: `row ${k} has the wrong number of cells` };
  },
  duplicateHeader: (rng, items) => {
    const col = pick(rng, ['output_1', 'label', 'instruction']);
    return { text: serialize(items, 'csv', [...COLUMNS, col]), format: 'csv', what: `column ${col} twice` };
  },
  protoKey: (rng, items, format) => {
    const f: Format = format === 'csv' ? 'json' : format;
    const i = int(rng, 0, items.length - 1);
    const text = serialize(items, f).replace(
      JSON.stringify(items[i]),
      JSON.stringify(items[i]).replace('{', '{"__proto__":{"label":2},'),
    );
    return { text, format: f, what: '__proto__ key' };
  },
  trailingGarbage: (rng, items) => ({
    text: serialize(items, 'json') + pick(rng, [']', 'x', '{}', ',']),
    format: 'json',
    what: 'text after the array',
  }),
  controlChar: (rng, items, format) => {
    const f: Format = format === 'csv' ? 'jsonl' : format;
    const text = serialize(items, f);
    const at = text.indexOf('"instruction":"') + '"instruction":"'.length;
    return {
      text: text.slice(0, at) + String.fromCharCode(int(rng, 1, 8)) + text.slice(at),
      format: f,
      what: 'raw control character in a string',
    };
  },
  allLabelsBad: (rng, items, format) => {
    for (const it of items) it.label = pick(rng, ['3', 0, 'B']);
    return { text: serialize(items, format), what: 'every label bad' };
  },
};

export function generateDatasetCases(seed: number, count: number): FuzzCase[] {
  const rng = mulberry32(seed);
  const names = Object.keys(DATASET_MUTATIONS);
  return Array.from({ length: count }, (_, i) => {
    const mutation = names[i % names.length];
    const format = pick(rng, ['jsonl', 'json', 'csv'] as const);
    const out = DATASET_MUTATIONS[mutation](rng, baseItems(rng), format);
    const ext = out.format ?? format;
    return {
      name: `${mutation} (${ext}): ${out.what}`,
      fileName: `ds-${String(i).padStart(3, '0')}-${mutation}.${ext}`,
      bytes: out.bytes ?? Buffer.from(out.text ?? '', 'utf8'),
      fileLevel: out.fileLevel,
    };
  });
}

// ---- configs ----

type Json = Record<string, unknown>;

/** A valid config over `dataset` (a file beside the config). */
export function baseConfig(dataset: string): Json {
  return {
    name: 'fuzz',
    protocol: 'judge-ls',
    dataset,
    providers: {
      p: { kind: 'openai', baseURL: 'http://127.0.0.1:9/v1', rpm: 60, tpm: 100_000, concurrency: 2 },
      q: { kind: 'anthropic', apiKeyEnv: 'FUZZ_KEY' },
    },
    transform: { provider: 'p', model: 'm', languages: ['ZH', 'LS'] },
    judges: [
      { label: 'J1', provider: 'p', model: 'm', temperature: 0 },
      { label: 'J2', provider: 'q', model: 'n' },
    ],
    tieProbes: true,
    limit: 3,
    maxParseRetries: 1,
    prices: { m: { input: 1, output: 2 } },
    options: { audit: { numberCountDiff: 3 }, templates: {} },
  };
}

const OBJECT_PATHS = [
  [],
  ['providers', 'p'],
  ['providers', 'q'],
  ['transform'],
  ['judges', 0],
  ['judges', 1],
  ['options'],
  ['options', 'audit'],
  ['prices', 'm'],
] as const;

function at(obj: Json, path: readonly (string | number)[]): Json {
  return path.reduce<Json>((o, k) => o[k as string] as Json, obj);
}

function setAt(obj: Json, path: readonly (string | number)[], value: unknown): void {
  at(obj, path.slice(0, -1))[path[path.length - 1] as string] = value;
}

type ConfigMutation = (
  rng: Rng,
  cfg: Json,
) => { text?: string; bytes?: Buffer; fileLevel?: boolean; what: string };

const asText = (cfg: Json) => JSON.stringify(cfg, null, 2);

const WRONG_VALUES: [readonly (string | number)[], unknown[]][] = [
  [['name'], [5, null, [], '']],
  [['protocol'], ['judge-xx', 1, null]],
  [['dataset'], [true, [], {}, -1, 0, 1.5, '']],
  [['providers'], [[], 'x', {}, null]],
  [
    ['providers', 'p', 'kind'],
    ['azure', 1, null],
  ],
  [
    ['providers', 'p', 'baseURL'],
    ['ftp://x', 'not a url', 5],
  ],
  [
    ['providers', 'q', 'apiKeyEnv'],
    ['has space', '1ABC', '', 7],
  ],
  [
    ['providers', 'p', 'concurrency'],
    [0, 2000, 1.5, '4'],
  ],
  [
    ['providers', 'p', 'timeoutMs'],
    [0, 1e12, 'soon'],
  ],
  [['transform'], ['x', [], null]],
  [
    ['transform', 'languages'],
    [['FR'], [], 'ZH', ['ZH', 'ZH']],
  ],
  [['judges'], [[], {}, 'x']],
  [
    ['judges', 0, 'label'],
    ['', 5, 'x'.repeat(101)],
  ],
  [
    ['judges', 0, 'temperature'],
    [3, -1, '0'],
  ],
  [
    ['judges', 1, 'maxOutputTokens'],
    [0, 1.5, -5],
  ],
  [['tieProbes'], ['yes', 1, null]],
  [['limit'], [0, -1, 1.5, '10']],
  [['maxParseRetries'], [11, -1, 'two']],
  [
    ['prices', 'm', 'input'],
    [-1, '1', null],
  ],
  [
    ['options', 'audit', 'numberCountDiff'],
    [0, 'x', 2.5],
  ],
];

const CONFIG_MUTATIONS: Record<string, ConfigMutation> = {
  unknownKey: (rng, cfg) => {
    const path = pick(rng, OBJECT_PATHS);
    const key = pick(rng, [
      'rmp',
      'temprature',
      'judge',
      'lables',
      `x_${int(rng, 0, 999)}`,
      'constructor',
      'prototype',
    ]);
    at(cfg, path)[key] = 1;
    return { text: asText(cfg), what: `${[...path, key].join('.')}` };
  },
  protoKey: (rng, cfg) => {
    const path = pick(rng, [
      [],
      ['providers'],
      ['options'],
      ['prices'],
      ['judges', 0],
      ['transform'],
      ['providers', 'p'],
      ['options', 'templates'],
    ] as const);
    const text = asText(cfg);
    const inner = JSON.stringify(at(cfg, path));
    const replaced = inner.replace('{', '{"__proto__":{"kind":"openai","x":1},');
    return {
      text: path.length === 0 ? replaced : JSON.stringify(cfg).replace(inner, replaced) || text,
      what: `__proto__ in ${path.join('.') || 'top level'}`,
    };
  },
  wrongType: (rng, cfg) => {
    const [path, values] = pick(rng, WRONG_VALUES);
    const value = pick(rng, values);
    setAt(cfg, path, value);
    return { text: asText(cfg), what: `${path.join('.')}=${JSON.stringify(value)}` };
  },
  missingRequired: (rng, cfg) => {
    const path = pick(rng, [
      ['name'],
      ['protocol'],
      ['dataset'],
      ['providers'],
      ['transform'],
      ['judges'],
      ['transform', 'provider'],
      ['transform', 'model'],
      ['judges', 0, 'model'],
      ['judges', 1, 'label'],
      ['providers', 'p', 'kind'],
      ['prices', 'm', 'output'],
    ] as const);
    delete at(cfg, path.slice(0, -1))[path[path.length - 1] as string];
    return { text: asText(cfg), what: `no ${path.join('.')}` };
  },
  rateOutOfRange: (rng, cfg) => {
    const key = pick(rng, ['rpm', 'tpm']);
    const value =
      key === 'rpm' ? pick(rng, [0, -1, 1e-300, 0.5, 2e6, 1e308]) : pick(rng, [0, 1, 999, 1e11, 1e-300]);
    const path = pick(rng, [['providers', 'p'], ['providers', 'q'], ['transform'], ['judges', 0]] as const);
    at(cfg, path)[key] = value;
    return { text: asText(cfg), what: `${[...path, key].join('.')}=${value}` };
  },
  badName: (rng, cfg) => {
    const reserved = pick(rng, ['CON', 'prn', 'Aux', 'nul', 'COM1', 'lpt9', 'con.txt', 'NUL.tar.gz']);
    cfg.name = pick(rng, [
      '.',
      '..',
      '../up',
      'a/b',
      'a\\b',
      '.hidden',
      'dot.',
      ' lead',
      'trail ',
      'tab\there',
      'bell\u0007',
      'nl\nx',
      'del\u007f',
      reserved,
      'q?',
      'x'.repeat(121),
    ]);
    return { text: asText(cfg), what: `name ${JSON.stringify(cfg.name)}` };
  },
  missingProviderRef: (rng, cfg) => {
    if (rng() < 0.5) (cfg.transform as Json).provider = 'nope';
    else (cfg.judges as Json[])[int(rng, 0, 1)].provider = 'nope';
    return { text: asText(cfg), what: 'provider "nope"' };
  },
  duplicateLabels: (_rng, cfg) => {
    (cfg.judges as Json[])[1].label = 'J1';
    return { text: asText(cfg), what: 'label J1 twice' };
  },
  truncated: (rng, cfg) => {
    const text = asText(cfg);
    return { text: text.slice(0, int(rng, 1, text.length - 2)), what: 'cut short' };
  },
  badEncoding: (rng, cfg) => {
    const seq = pick(rng, INVALID_UTF8);
    return { bytes: insertBytes(rng, asText(cfg), seq), what: `bytes ${seq.map((b) => b.toString(16))}` };
  },
  nulByte: (rng, cfg) => ({ bytes: insertBytes(rng, asText(cfg), [0]), what: 'a NUL byte' }),
  bomInside: (rng, cfg) => {
    const text = asText(cfg);
    const at = text.indexOf('\n', int(rng, 1, text.length - 3));
    return { text: text.slice(0, at + 1) + '\uFEFF' + text.slice(at + 1), what: 'BOM inside' };
  },
  deepNesting: (rng, cfg) => {
    const depth = pick(rng, [INPUT_LIMITS.jsonDepth + 1, 1000, 20_000, int(rng, 65, 200_000)]);
    const where = pick(rng, ['options', 'providers', 'prices', 'name', 'judges']);
    const text = JSON.stringify({ ...cfg, [where]: '__DEEP__' }).replace(
      '"__DEEP__"',
      `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
    );
    return { text, what: `${where} nested ${depth} deep` };
  },
  topLevel: (rng) => ({
    text: pick(rng, ['[]', '"config"', '42', 'null', 'true', `[${JSON.stringify({ name: 'x' })}]`]),
    what: 'top level not an object',
  }),
  hugeString: (rng, cfg) => {
    (cfg.options as Json).templates = {
      judgeSystem: `{{language_note}} ${'t'.repeat(int(rng, INPUT_LIMITS.configStringChars, 900_000))}`,
    };
    return { text: asText(cfg), what: 'huge template' };
  },
  hugeFile: (rng, cfg) => ({
    text: asText(cfg).replace('{', '{' + ' '.repeat(INPUT_LIMITS.configFileBytes + int(rng, 1, 10_000))),
    fileLevel: true,
    what: 'file above the size limit',
  }),
  badTemplate: (rng, cfg) => {
    const templates = (cfg.options as Json).templates as Json;
    const [key, value] = pick(rng, [
      ['judgeSystem', 'Hi {{nope}}'],
      ['judgeUser', 'no placeholders at all'],
      ['tieProbeUser', 'Only {{instruction}} and {{whatever}}'],
      ['unknownTemplate', 'x'],
    ]);
    templates[key] = value;
    return { text: asText(cfg), what: `template ${key}` };
  },
  optionInWrongPlace: (rng, cfg) => {
    (cfg.options as Json)[pick(rng, ['languages', 'tieProbes', 'limit'])] = 1;
    return { text: asText(cfg), what: 'top-level option inside options' };
  },
  emptyFile: (rng) => ({ text: pick(rng, ['', '   ', '\n']), fileLevel: true, what: 'nothing in it' }),
  missingDatasetFile: (rng, cfg) => {
    cfg.dataset = pick(rng, ['nope.jsonl', 'sub/none.csv', 'no such dataset name']);
    return { text: asText(cfg), what: `dataset ${cfg.dataset}` };
  },
};

/** Configs over `dataset` (the name of a valid dataset file beside them), each malformed. */
export function generateConfigCases(seed: number, count: number, dataset: string): FuzzCase[] {
  const rng = mulberry32(seed ^ 0x5eed);
  const names = Object.keys(CONFIG_MUTATIONS);
  return Array.from({ length: count }, (_, i) => {
    const mutation = names[i % names.length];
    const out = CONFIG_MUTATIONS[mutation](rng, baseConfig(dataset));
    return {
      name: `${mutation}: ${out.what}`,
      fileName: `cfg-${String(i).padStart(3, '0')}-${mutation}.json`,
      bytes: out.bytes ?? Buffer.from(out.text ?? '', 'utf8'),
      fileLevel: out.fileLevel,
    };
  });
}
