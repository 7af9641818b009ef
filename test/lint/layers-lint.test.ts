// The layer rules and the circle check (issue 21) fail on a deliberate violation: each case
// lints a one-line file at a real path with the project's own eslint.config.mjs, and the
// circle check runs the project's dependency-cruiser config on two files that import each other.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

async function restrictedImports(
  filePath: string,
  code: string,
  rule = 'no-restricted-imports',
): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return result.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

describe('layer rules (eslint.config.mjs)', () => {
  it('refuses a protocol importing experiments/ or the store, and allows the seam and the judging kit', async () => {
    const file = 'src/main/protocols/judge-ls/new-part.ts';
    expect(
      await restrictedImports(file, "import { loadExperiment } from '../../experiments/load';\n"),
    ).toHaveLength(1);
    expect(
      await restrictedImports(file, "import { listResults } from '../../store/results';\n"),
    ).toHaveLength(1);
    expect(await restrictedImports(file, "import { getProtocol } from '../index';\n")).toHaveLength(1);
    expect(
      await restrictedImports(
        file,
        "import type { ProtocolPlugin } from '../plugin';\nimport { listResults } from '../host';\nimport { parsePairwiseVerdict } from '../../judging/pairwise';\nimport type { Item } from '../../../shared/domain';\n",
      ),
    ).toEqual([]);
  }, 60_000);

  it('refuses a door importing the store, and allows the facade', async () => {
    const file = 'src/main/doors/new-door.ts';
    expect(await restrictedImports(file, "import { openStore } from '../store/db';\n")).toHaveLength(1);
    expect(await restrictedImports(file, "import { Core } from '../facade/core';\n")).toEqual([]);
  }, 60_000);

  it('refuses a CLI command opening the store or a service itself, and allows the facade', async () => {
    const file = 'src/main/cli/new-command.ts';
    expect(await restrictedImports(file, "import { openDatabase } from '../store/db';\n")).toHaveLength(1);
    expect(
      await restrictedImports(file, "import { ExperimentService } from '../experiments/service';\n"),
    ).toHaveLength(1);
    expect(await restrictedImports(file, "import { startWebServer } from '../doors/web';\n")).toHaveLength(1);
    expect(
      await restrictedImports(
        file,
        "import type { CoreDoor } from '../facade/door';\nimport { doctorStore } from '../facade/store-maintenance';\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImports('src/main/cli/runtime.ts', "export { startWebServer } from '../doors/web';\n"),
    ).toEqual([]);
  }, 60_000);

  it('refuses a CLI command holding the Core class (its services: core.experiments…), eager or lazy', async () => {
    const file = 'src/main/cli/new-command.ts';
    const refusal = /holds a CoreDoor .* calls the API \(core\.call\)/;
    const eager = await restrictedImports(file, "import type { Core } from '../facade/core';\n");
    expect(eager).toHaveLength(1);
    expect(eager[0]).toMatch(refusal);
    const lazy = await restrictedImports(
      file,
      "export const open = () => import('../facade/core');\n",
      'no-restricted-syntax',
    );
    expect(lazy).toHaveLength(1);
    expect(lazy[0]).toMatch(refusal);
    expect(
      await restrictedImports('src/main/cli/runtime.ts', "export { Core } from '../facade/core';\n"),
    ).toHaveLength(1);
    expect(
      await restrictedImports('src/main/cli/runtime.ts', "export { openCore } from '../facade/door';\n"),
    ).toEqual([]);
  }, 60_000);

  it('refuses the store importing core/ or the experiments service', async () => {
    const file = 'src/main/store/new-table.ts';
    expect(await restrictedImports(file, "import { x } from '../core/errors';\n")).toHaveLength(1);
    expect(await restrictedImports(file, "import { x } from '../experiments/load';\n")).toHaveLength(1);
    expect(await restrictedImports(file, "import { AppError } from '../base/errors';\n")).toEqual([]);
  }, 60_000);
});

describe('circle check (.dependency-cruiser.cjs)', () => {
  it('fails on two files that import each other and passes once the circle is gone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'circle-'));
    writeFileSync(join(dir, 'a.ts'), "import { b } from './b';\nexport const a = () => b;\n");
    writeFileSync(join(dir, 'b.ts'), "import { a } from './a';\nexport const b = () => a;\n");
    const cruise = () =>
      execFileSync(
        process.execPath,
        [
          join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
          '--config',
          join(root, '.dependency-cruiser.cjs'),
          dir,
        ],
        { cwd: root, encoding: 'utf8', stdio: 'pipe' },
      );
    let failed: { status: number; stdout: string } | undefined;
    try {
      cruise();
    } catch (err) {
      failed = err as { status: number; stdout: string };
    }
    expect(failed?.status).not.toBe(0);
    expect(failed?.stdout).toMatch(/no-circular/);
    writeFileSync(join(dir, 'b.ts'), 'export const b = () => 1;\n');
    expect(cruise()).toMatch(/no dependency violations/);
  }, 120_000);
});
