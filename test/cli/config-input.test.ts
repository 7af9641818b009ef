// Hostile or odd experiment configs: each is refused with a located exit-2 error (or, for a BOM,
// accepted), quickly, before anything is stored.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/main/base/errors';
import { loadExperimentConfig, parseExperimentConfig } from '../../src/main/experiments/config';
// The built-in protocols, registered as the core registers them (the config reads their registry).
import '../../src/main/protocols';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = tempDir()));
afterAll(() => cleanup());

const base = () => ({
  name: 'cfg',
  protocol: 'judge-ls',
  dataset: 'data.jsonl',
  providers: { p: { kind: 'openai', baseURL: 'http://127.0.0.1:9/v1' } },
  transform: { provider: 'p', model: 'm' },
  judges: [{ label: 'J', provider: 'p', model: 'm' }],
});

function refused(run: () => unknown): AppError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('invalid_input');
    return err as AppError;
  }
  throw new Error('accepted');
}

function fields(err: AppError): string[] {
  return err.issues.map((i) => i.field ?? '');
}

describe('experiment config input', () => {
  it('accepts a config file that starts with a UTF-8 BOM, as dataset imports do', () => {
    const file = join(dir, 'bom.json');
    writeFileSync(file, '\uFEFF' + JSON.stringify(base(), null, 2));
    expect(loadExperimentConfig(file).config.name).toBe('cfg');
  });

  it('names the line and column of a JSON syntax error', () => {
    const file = join(dir, 'syntax.json');
    writeFileSync(file, '{\n  "name": "x",\n  "protocol": judge-ls\n}');
    const err = refused(() => loadExperimentConfig(file));
    expect(err.message).toMatch(/syntax\.json: line 3: not valid JSON: .*\(line 3, column 15\)/);
  });

  it('refuses nesting 20,000 levels deep by its key, without overflowing the stack', () => {
    const cfg = base() as Record<string, unknown>;
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    cfg.options = { audit: deep };
    const err = refused(() => parseExperimentConfig(cfg, 'deep.json'));
    expect(err.message).toMatch(
      /deep\.json: options\.audit(\.a)+: nested deeper than 64 levels \(the limit\)/,
    );
    const file = join(dir, 'deep.json');
    const text = JSON.stringify({ ...base(), options: { audit: 0 } });
    writeFileSync(file, text.replace('"audit":0', `"audit":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`));
    expect(refused(() => loadExperimentConfig(file)).message).toMatch(/nested deeper than 64 levels/);
  });

  it('names a forbidden key inside an array by its index, file and line', () => {
    const file = join(dir, 'deep-forbidden.json');
    const cfg = {
      ...base(),
      judges: [
        { label: 'J', provider: 'p', model: 'm' },
        { label: 'K', x: [0, {}] },
      ],
    };
    const text = JSON.stringify(cfg, null, 2).replace(
      '"x": [\n        0,\n        {}',
      '"x": [\n        0,\n        {"constructor": 1}',
    );
    writeFileSync(file, text);
    const line = text.split('\n').findIndex((l) => l.includes('"constructor"')) + 1;
    expect(line).toBeGreaterThan(1);
    const err = refused(() => loadExperimentConfig(file));
    expect(err.issues[0]).toMatchObject({ field: 'judges[1].x[1].constructor', line });
    expect(err.message).toContain(
      `${file}: line ${line}: judges[1].x[1].constructor: is not allowed as a key`,
    );
  });

  it('reports "__proto__" keys in providers, options, prices and judges as unknown keys', () => {
    const text = JSON.stringify(base())
      .replace(
        '"providers":{',
        '"prices":{"__proto__":{"input":1,"output":2}},"options":{"__proto__":{"x":1}},"providers":{"__proto__":{"kind":"openai"},',
      )
      .replace('"label":"J"', '"__proto__":{},"label":"J"');
    const err = refused(() => parseExperimentConfig(JSON.parse(text), 'proto.json'));
    expect(fields(err).sort()).toEqual(
      ['judges[0].__proto__', 'options.__proto__', 'prices.__proto__', 'providers.__proto__'].sort(),
    );
    expect(err.issues.every((i) => i.message === 'unknown key')).toBe(true);
  });

  it.each([
    ['.', /must not be "\."/],
    ['..', /must not be "\.\."/],
    ['.hidden', /start or end with a dot or a space/],
    ['trailing.', /start or end with a dot or a space/],
    [' padded', /start or end with a dot or a space/],
    ['tab\there', /control characters/],
    ['CON', /Windows reserves it/],
    ['nul.txt', /Windows reserves it/],
    ['a/../b', /must not contain \//],
  ])('refuses the experiment name %j, which could escape or break the export folder', (name, why) => {
    const err = refused(() => parseExperimentConfig({ ...base(), name }, 'names.json'));
    expect(err.issues[0]).toMatchObject({ field: 'name' });
    expect(err.issues[0].message).toMatch(why);
  });

  it('refuses rate limits outside their range, naming the range', () => {
    const cfg = base();
    const err = refused(() =>
      parseExperimentConfig(
        {
          ...cfg,
          providers: { p: { ...cfg.providers.p, rpm: 1e-300, tpm: 1e300 } },
          judges: [{ ...cfg.judges[0], rpm: 0.5 }],
        },
        'rates.json',
      ),
    );
    expect(err.issues.map((i) => `${i.field}: ${i.message}`).sort()).toEqual([
      'judges[0].rpm: must be between 1 and 1,000,000 (requests per minute)',
      'providers.p.rpm: must be between 1 and 1,000,000 (requests per minute)',
      'providers.p.tpm: must be between 1,000 and 10,000,000,000 (tokens per minute)',
    ]);
  });

  // Refused by size and length before anything parses or reads the text (the messages say which
  // check fired), so it is quick; how quick is not asserted here.
  it('refuses a 20 MB template: as a file by its size, through the API by its length', () => {
    const cfg = { ...base(), options: { templates: { judgeUser: 'x'.repeat(20 * 1024 * 1024) } } };
    const err = refused(() => parseExperimentConfig(cfg, 'api'));
    expect(err.issues[0]).toMatchObject({ field: 'options.templates.judgeUser' });
    expect(err.issues[0].message).toMatch(/above the limit of 100,000/);
    const file = join(dir, 'huge.json');
    writeFileSync(file, JSON.stringify(cfg));
    expect(refused(() => loadExperimentConfig(file)).message).toMatch(
      /huge\.json: file is 20 MiB, above the limit of 1 MiB/,
    );
  });

  it('refuses a FIFO or a folder as the config without blocking', () => {
    const fifo = join(dir, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    expect(refused(() => loadExperimentConfig(fifo)).message).toMatch(
      /named pipe \(FIFO\), not a regular file/,
    );
    expect(refused(() => loadExperimentConfig(dir)).message).toMatch(/a folder, not a regular file/);
  });
});
