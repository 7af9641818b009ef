// Seeded malformed files for the inputs beside pairwise datasets: QA and pointwise datasets,
// human label files, annotation packages and imported-answers files. As in ./fuzz-inputs.ts,
// every case breaks a rule the README states, so a case that is accepted is a bug (a value
// stored other than the file says it, or past a limit): "silently changed". Same seed, same cases.
import { INPUT_LIMITS } from '../../src/main/base/input-limits';
import { mulberry32, type Rng } from '../../src/shared/random';
import type { FuzzCase } from './fuzz-inputs';

const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];

type Rec = Record<string, unknown>;
type Format = 'jsonl' | 'json' | 'csv';

function csvCell(v: unknown): string {
  const s = typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);
  return `"${s.replace(/"/g, '""')}"`;
}

function serialize(recs: Rec[], format: Format, columns: readonly string[]): string {
  if (format === 'jsonl') return recs.map((r) => JSON.stringify(r)).join('\n') + '\n';
  if (format === 'json') return '[\n' + recs.map((r) => ' ' + JSON.stringify(r)).join(',\n') + '\n]\n';
  return (
    [columns.join(','), ...recs.map((r) => columns.map((c) => csvCell(r[c])).join(','))].join('\r\n') + '\r\n'
  );
}

/** Inserts bytes after an ASCII byte, so they cannot complete a multi-byte character. */
function insertBytes(rng: Rng, text: string, extra: number[]): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  let at = int(rng, 1, bytes.length - 1);
  while (at > 1 && bytes[at - 1] >= 0x80) at--;
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(extra), bytes.subarray(at)]);
}

const CONTROLS = ['\x1b[31m', '\x07', '\x00', '\x08', '\x7f', '\u009b2J', '\x0c'];

interface Spec {
  /** Valid records (3–6). */
  records: (rng: Rng) => Rec[];
  formats: readonly Format[];
  columns: readonly string[];
  /** Field → values that break its rule. */
  bad: Record<string, unknown[]>;
  /** Fields that must be present. */
  required: readonly string[];
  /** Fields that name things: a control character in them is refused. */
  names: readonly string[];
  /** Text fields with a length limit. */
  texts: readonly string[];
  /** A field whose repeat across records is refused. */
  unique?: (recs: Rec[], i: number, j: number) => void;
  /** Extra, format-specific mutations. */
  extra?: Record<string, Mutation>;
}

type Mutation = (
  rng: Rng,
  recs: Rec[],
  format: Format,
  spec: Spec,
) => { text?: string; bytes?: Buffer; format?: Format; fileLevel?: boolean; what: string };

const GENERIC: Record<string, Mutation> = {
  wrongValue: (rng, recs, format, spec) => {
    const field = pick(rng, Object.keys(spec.bad));
    const value = pick(rng, spec.bad[field]);
    // A CSV cell is text: only values that stay wrong as text apply there.
    const f: Format = format === 'csv' && typeof value !== 'string' ? 'jsonl' : format;
    recs[int(rng, 0, recs.length - 1)][field] = value;
    return { text: serialize(recs, f, spec.columns), format: f, what: `${field}=${JSON.stringify(value)}` };
  },
  missing: (rng, recs, format, spec) => {
    const field = pick(rng, spec.required);
    if (format === 'csv')
      return {
        text: serialize(
          recs,
          format,
          spec.columns.filter((c) => c !== field),
        ),
        what: `no ${field} column`,
      };
    delete recs[int(rng, 0, recs.length - 1)][field];
    return { text: serialize(recs, format, spec.columns), what: `no ${field}` };
  },
  controlInName: (rng, recs, format, spec) => {
    const field = pick(rng, spec.names);
    const i = int(rng, 0, recs.length - 1);
    const c = pick(
      rng,
      CONTROLS.filter((x) => format !== 'csv' || x !== '\x00'),
    );
    recs[i][field] = `${String(recs[i][field] ?? 'n')}${c}`;
    return { text: serialize(recs, format, spec.columns), what: `control ${JSON.stringify(c)} in ${field}` };
  },
  protoKey: (rng, recs, format, spec) => {
    if (format === 'csv') {
      const cols = [...spec.columns, '__proto__'];
      return { text: serialize(recs, format, cols), what: '__proto__ column' };
    }
    const i = int(rng, 0, recs.length - 1);
    const one = JSON.stringify(recs[i]);
    const text = serialize(recs, format, spec.columns).replace(
      one,
      one.replace('{', '{"__proto__":{"x":1},'),
    );
    return { text, what: '__proto__ key' };
  },
  hugeText: (rng, recs, format, spec) => {
    const field = pick(rng, spec.texts);
    recs[int(rng, 0, recs.length - 1)][field] = 'w'.repeat(INPUT_LIMITS.datasetTextChars + int(rng, 1, 3000));
    return { text: serialize(recs, format, spec.columns), what: `huge ${field}` };
  },
  duplicate: (rng, recs, format, spec) => {
    if (!spec.unique) return GENERIC.missing(rng, recs, format, spec);
    const j = int(rng, 1, recs.length - 1);
    spec.unique(recs, int(rng, 0, j - 1), j);
    return { text: serialize(recs, format, spec.columns), what: `record ${j + 1} repeats a key` };
  },
  truncated: (rng, recs, format, spec) => {
    const f: Format = format === 'csv' ? 'jsonl' : format;
    const text = serialize(recs, f, spec.columns);
    const lines = text.split('\n');
    const k = int(rng, 0, recs.length - 1) + (f === 'json' ? 1 : 0);
    lines[k] = lines[k].slice(0, int(rng, 2, lines[k].length - 3));
    return {
      text: lines.slice(0, f === 'json' ? k + 1 : lines.length).join('\n'),
      format: f,
      what: 'cut short',
    };
  },
  badEncoding: (rng, recs, format, spec) => ({
    bytes: insertBytes(rng, serialize(recs, format, spec.columns), pick(rng, [[0xff], [0xc3, 0x28], [0x80]])),
    what: 'invalid UTF-8',
  }),
  notObject: (rng, recs, format, spec) => {
    const f: Format = format === 'csv' ? 'jsonl' : format;
    const lines = serialize(recs, f, spec.columns).split('\n');
    lines[int(rng, 0, recs.length - 1) + (f === 'json' ? 1 : 0)] =
      pick(rng, ['[1,2]', '"text"', '42', 'null']) + (f === 'json' ? ',' : '');
    return { text: lines.join('\n'), format: f, what: 'a record that is not an object' };
  },
};

function generate(seed: number, count: number, prefix: string, spec: Spec): FuzzCase[] {
  const rng = mulberry32(seed);
  const mutations = { ...GENERIC, ...spec.extra };
  const names = Object.keys(mutations);
  return Array.from({ length: count }, (_, i) => {
    const name = names[i % names.length];
    const format = pick(rng, spec.formats);
    const out = mutations[name](rng, spec.records(rng), format, spec);
    const ext = out.format ?? format;
    return {
      name: `${name} (${ext}): ${out.what}`,
      fileName: `${prefix}-${String(i).padStart(3, '0')}-${name}.${ext}`,
      bytes: out.bytes ?? Buffer.from(out.text ?? '', 'utf8'),
      fileLevel: out.fileLevel,
    };
  });
}

const rows = (rng: Rng, make: (i: number) => Rec) =>
  Array.from({ length: int(rng, 3, 6) }, (_, i) => make(i));

export function generateQaCases(seed: number, count: number): FuzzCase[] {
  return generate(seed ^ 0x0a, count, 'qa', {
    formats: ['jsonl', 'json', 'csv'],
    columns: ['id', 'question', 'answers', 'language', 'context', 'category'],
    records: (rng) =>
      rows(rng, (i) => ({
        id: `q${i + 1}`,
        question: pick(rng, ['Capital of France?', 'ما عاصمة مصر؟', 'Who wrote "Hamlet"?']),
        answers: pick(rng, [['Paris'], ['القاهرة', 'مدينة القاهرة'], ['Shakespeare']]),
        language: pick(rng, ['en', 'ar', 'te']),
        category: pick(rng, ['geo', 'lit']),
      })),
    bad: {
      answers: [[], '', [1], ['  '], null, {}],
      language: ['xx', 'english', 5, ''],
      id: [null, '', [], true, '  '],
      question: ['', '   ', 42],
      category: [5, [], { a: 1 }],
    },
    required: ['id', 'question', 'answers', 'language'],
    names: ['id', 'category'],
    texts: ['question', 'context'],
    unique: (recs, i, j) => (recs[j].id = recs[i].id),
    extra: {
      tooManyAnswers: (rng, recs) => {
        recs[int(rng, 0, recs.length - 1)].answers = Array.from(
          { length: INPUT_LIMITS.datasetListItems + int(rng, 1, 200_000) },
          (_, k) => `a${k}`,
        );
        return { text: serialize(recs, 'jsonl', []), format: 'jsonl', what: 'too many answers' };
      },
      hugeAnswer: (rng, recs) => {
        recs[int(rng, 0, recs.length - 1)].answers = ['ok', 'a'.repeat(INPUT_LIMITS.datasetTextChars + 1)];
        return { text: serialize(recs, 'jsonl', []), format: 'jsonl', what: 'an answer above the limit' };
      },
      ambiguous: (rng, recs, format, spec) => {
        recs[int(rng, 0, recs.length - 1)].output_1 = 'also pairwise';
        return {
          text: serialize(recs, format, [...spec.columns, 'output_1']),
          what: 'QA and pairwise fields',
        };
      },
    },
  });
}

export function generatePointwiseCases(seed: number, count: number): FuzzCase[] {
  return generate(seed ^ 0x0b, count, 'pw', {
    formats: ['jsonl', 'json', 'csv'],
    columns: ['id', 'instruction', 'response', 'category', 'reference', 'human_score'],
    records: (rng) =>
      rows(rng, (i) => ({
        id: `p${i + 1}`,
        instruction: pick(rng, ['Write a haiku.', '把这句话翻译成英文。']),
        response: pick(rng, ['Rain on the roof', 'Hello.']),
        category: pick(rng, ['poem', 'translate']),
        human_score: pick(rng, [1, 3.5, 7]),
      })),
    bad: {
      human_score: ['0x10', '0b11', 'Infinity', 'seven', '1_000', '1e', '0o7', true, [3]],
      id: [null, '', [], '  '],
      response: ['', '  ', 5],
      category: [5, [], true],
    },
    required: ['id', 'instruction', 'response'],
    names: ['id', 'category'],
    texts: ['instruction', 'response', 'reference'],
    unique: (recs, i, j) => (recs[j].id = recs[i].id),
    extra: {
      ambiguous: (rng, recs, format, spec) => {
        recs[int(rng, 0, recs.length - 1)].question = 'also QA';
        return {
          text: serialize(recs, format, [...spec.columns, 'question']),
          what: 'pointwise and QA fields',
        };
      },
    },
  });
}

/** Answers files over the items `q1`…`q6` (a QA dataset holding them is imported by the test). */
export function generateAnswersCases(seed: number, count: number): FuzzCase[] {
  return generate(seed ^ 0x0c, count, 'ans', {
    formats: ['jsonl', 'json', 'csv'],
    columns: ['item_id', 'generator', 'answer', 'human_label'],
    records: (rng) =>
      rows(rng, (i) => ({
        item_id: `q${i + 1}`,
        generator: pick(rng, ['gen-a', 'gen-b']),
        answer: pick(rng, ['Paris', 'It is Cairo.', 'శేక్స్‌పియర్']),
        human_label: pick(rng, ['CORRECT', 'INCORRECT', '']),
      })),
    bad: {
      human_label: ['RIGHT', 'yes', 1, true],
      item_id: [null, '', [], '  ', 'q99'],
      generator: [null, '', 5, '  '],
      answer: ['', '   ', 7, null],
    },
    required: ['item_id', 'generator', 'answer'],
    names: ['item_id', 'generator'],
    texts: ['answer'],
    unique: (recs, i, j) => {
      recs[j].item_id = recs[i].item_id;
      recs[j].generator = recs[i].generator;
    },
  });
}

/** Label files for a set of units `u1`…`u6` on a 1–5 score scale. */
export function generateLabelCases(seed: number, count: number): FuzzCase[] {
  return generate(seed ^ 0x0d, count, 'lab', {
    formats: ['jsonl', 'csv'],
    columns: ['item_id', 'annotator', 'score', 'comment'],
    records: (rng) =>
      rows(rng, (i) => ({
        item_id: `u${i + 1}`,
        annotator: pick(rng, ['ann', 'bea', '王']),
        score: int(rng, 1, 5),
        comment: pick(rng, ['', 'fine', 'hm, "ok"']),
      })),
    bad: {
      score: ['0x3', '0b10', 9, 0, 2.5, 'high', 'Infinity', -1, '3e5'],
      item_id: ['u99', 'nope'],
      annotator: [null, '', '   '],
    },
    required: ['item_id', 'annotator', 'score'],
    names: ['item_id', 'annotator'],
    texts: [],
    unique: (recs, i, j) => {
      recs[j].item_id = recs[i].item_id;
      recs[j].annotator = recs[i].annotator;
    },
    extra: {
      hugeText: (rng, recs, format, spec) => GENERIC.wrongValue(rng, recs, format, spec),
      twoValues: (rng, recs, format, spec) => {
        recs[int(rng, 0, recs.length - 1)].preference = '1';
        return {
          text: serialize(recs, format, [...spec.columns, 'preference']),
          what: 'score and preference',
        };
      },
    },
  });
}

/** A valid package of `uid` with units u1…u6 on a 1–5 score scale (the test opens it first). */
export function validPackage(uid: string): Rec {
  return {
    format: 'judge-lab-annotation-package',
    version: 1,
    set: { uid, name: 'Fuzz set', scale: { kind: 'score', min: 1, max: 5 }, seed: 1 },
    items: Array.from({ length: 6 }, (_, i) => ({
      unit: `u${i + 1}`,
      prompt: `Rate answer ${i + 1}.`,
      context: null,
      responses: [`Answer ${i + 1}`],
    })),
    labels: [{ unit: 'u1', annotator: 'ann', value: 3, skipped: false, comment: null }],
  };
}

type Json = Record<string, unknown>;
const PACKAGE_MUTATIONS: ((rng: Rng, p: Json) => string)[] = [
  (rng, p) => {
    (p.set as Json)[pick(rng, ['uid', 'name'])] = pick(rng, ['', 5, null, 'x\x1b[2J', 'a\x07']);
    return 'bad set field';
  },
  (rng, p) => {
    (p.set as Json).scale = pick(rng, [
      { kind: 'score', min: 1 },
      { kind: 'stars' },
      { kind: 'label', labels: ['one'] },
    ]);
    return 'bad scale';
  },
  (rng, p) => {
    const items = p.items as Json[];
    items[int(rng, 1, items.length - 1)].unit = items[0].unit;
    return 'duplicate unit';
  },
  (rng, p) => {
    (p.items as Json[])[int(rng, 0, 5)][pick(rng, ['prompt', 'responses', 'unit'])] = pick(rng, [
      5,
      null,
      [],
      {},
    ]);
    return 'bad item field';
  },
  (rng, p) => {
    (p.labels as Json[]).push({
      unit: pick(rng, ['u99', 'u2']),
      annotator: pick(rng, ['ann\x1b', '', 'x'.repeat(101)]),
      value: 3,
      skipped: false,
      comment: null,
    });
    return 'bad label';
  },
  (rng, p) => {
    (p.labels as Json[])[0].value = pick(rng, [0, 6, '0x3', 2.5, 'high', null]);
    return 'label off the scale';
  },
  (rng, p) => {
    p[pick(rng, ['extra', 'judge', 'models'])] = 1;
    return 'unknown key';
  },
  (rng, p) => {
    p.version = pick(rng, [2, '1', 0]);
    return 'bad version';
  },
  (rng, p) => {
    p.format = pick(rng, ['judge-lab', '', null]);
    return 'bad format';
  },
  (rng, p) => {
    p.items = pick(rng, [[], {}, 'none']);
    return 'no items';
  },
];

/** Malformed packages of `uid` (the set the test opened, so each would merge if accepted). */
export function generatePackageCases(seed: number, count: number, uid: string): FuzzCase[] {
  const rng = mulberry32(seed ^ 0x0e);
  return Array.from({ length: count }, (_, i) => {
    const k = i % (PACKAGE_MUTATIONS.length + 3);
    const p = validPackage(uid);
    let text: string;
    let what: string;
    let bytes: Buffer | undefined;
    if (k < PACKAGE_MUTATIONS.length) {
      what = PACKAGE_MUTATIONS[k](rng, p);
      text = JSON.stringify(p, null, 1);
    } else if (k === PACKAGE_MUTATIONS.length) {
      text = JSON.stringify(p).replace('"labels":[{', '"labels":[{"__proto__":{"value":5},');
      what = '__proto__ key';
    } else if (k === PACKAGE_MUTATIONS.length + 1) {
      const full = JSON.stringify(p, null, 1);
      text = full.slice(0, int(rng, 1, full.length - 2));
      what = 'cut short';
    } else {
      text = JSON.stringify(p);
      bytes = insertBytes(rng, text, [0xff]);
      what = 'invalid UTF-8';
    }
    return {
      name: `package: ${what}`,
      fileName: `pkg-${String(i).padStart(3, '0')}.annotation.json`,
      bytes: bytes ?? Buffer.from(text, 'utf8'),
      // A package is one JSON document: its problems are named by key path, or (unparseable) the file.
      fileLevel: /cut short|UTF-8/.test(what),
    };
  });
}
