// CI has no duration cache, so vitest.config.ts orders files by a checked-in list of the long ones
// (test/helpers/long-first-sequencer.mjs): the longest file starts first instead of last.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config';
import { knownSeconds, longFirst, LongFirstSequencer } from '../helpers/long-first-sequencer.mjs';

const projects = (config.test?.projects ?? []).map((p) =>
  typeof p === 'object' && 'test' in p ? p.test?.name : undefined,
);

describe('long files first', () => {
  it('the config sorts with it', () => {
    expect(config.test?.sequence?.sequencer).toBe(LongFirstSequencer);
  });

  it('lists only files of the checkout, each under a project of the config', () => {
    const keys = Object.keys(knownSeconds);
    expect(keys).toContain('node:test/validation/e2e-planted.test.ts');
    const stale = keys.filter((k) => {
      const [project, path] = [k.slice(0, k.indexOf(':')), k.slice(k.indexOf(':') + 1)];
      return !projects.includes(project) || !existsSync(path);
    });
    expect(stale, 'renamed or removed: run `node test/helpers/long-files.mjs` after a whole run').toEqual([]);
  });

  it("starts the longest listed file first, keeps a project's files together, listed ones before the rest", () => {
    const seconds = { 'node:b': 30, 'e2e:x': 60, 'e2e:y': 20, 'node:c': 100 };
    const files = ['dom:d', 'e2e:y', 'node:a', 'node:b', 'e2e:x', 'node:c', 'e2e:z', 'node:e'].map((k) => {
      const [project, path] = k.split(':');
      return { project, path };
    });
    const order = longFirst(files, seconds).map((f) => `${f.project}:${f.path}`);
    // Node's c (100 s) leads; the unlisted keep the order they came in (vitest's own).
    expect(order).toEqual(['node:c', 'node:b', 'node:a', 'node:e', 'e2e:x', 'e2e:y', 'e2e:z', 'dom:d']);
  });
});
