// The generic multiplicity check (DESIGN §1e) over every registered study's tables on its golden
// runs: each declared family holds each hypothesis once and its adjusted p is Holm over the
// family's raw p; an adjusted column no family declares fails too. It reads only the tables'
// declarations (`Table.families`), so a new study's tables are held to it by registering.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listProtocols } from '../../src/main/protocols';
import { checkFamilies } from '../../src/shared/report/families';
import type { Table } from '../../src/shared/report/table';

const GOLDEN = join(import.meta.dirname, '../fixtures/golden');
const goldens = readdirSync(GOLDEN).filter((f) => f.endsWith('.metrics.json'));

/** Every golden run of a protocol: its file name opens with the protocol's id and a dot. */
const runsOf = (id: string) => goldens.filter((f) => f.startsWith(`${id}.`));

describe('multiplicity families on the golden runs', () => {
  let read = 0;
  for (const protocol of listProtocols()) {
    it(`${protocol.id}: every declared family holds each hypothesis once, adjusted by Holm`, () => {
      const runs = runsOf(protocol.id);
      expect(runs.length, `a golden run of ${protocol.id}`).toBeGreaterThan(0);
      for (const run of runs) {
        const metrics: unknown = JSON.parse(readFileSync(join(GOLDEN, run), 'utf8'));
        const tables: Table[] = protocol.tables(metrics as never);
        expect(checkFamilies(tables), run).toEqual([]);
        read += tables
          .flatMap((t) =>
            (t.families ?? []).map((f) => t.rows.filter((r) => typeof r[f.adjusted ?? ''] === 'number')),
          )
          .flat().length;
      }
    });
  }
  // The check must have had adjusted p values to read (reference sensitivity's golden runs have
  // no noise floor, its only family: they read none).
  it('read adjusted p values', () => expect(read).toBeGreaterThan(20));
});
