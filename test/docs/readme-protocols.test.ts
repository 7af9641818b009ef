// Issue 15 item 10: the README lists exactly the protocols the app offers (its registry), so a
// protocol that lands, or one the README promised early, makes this fail until both agree.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listProtocols } from '../../src/main/protocols';
import { ROOT } from '../helpers/cli';

function readmeProtocols(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Protocols offered');
  expect(start, 'README has a "Protocols offered" section').toBeGreaterThan(-1);
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^- \*\*([a-z0-9-]+)\*\*/gm)].map((m) => m[1]);
}

describe('README and app in step', () => {
  it('lists exactly the protocols the registry offers', () => {
    expect(readmeProtocols().sort()).toEqual(
      listProtocols()
        .map((p) => p.id)
        .sort(),
    );
  });

  it('every protocol a README config example names is offered', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const named = new Set([...readme.matchAll(/"protocol": "([a-z0-9-]+)"/g)].map((m) => m[1]));
    const offered = new Set(listProtocols().map((p) => p.id));
    expect([...named].filter((id) => !offered.has(id))).toEqual([]);
  });
});
