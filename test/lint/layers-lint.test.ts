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

describe('renderer layers (eslint.config.mjs, issue 34)', () => {
  it('refuses a renderer plug-in importing a generic page, the registry, the index or another plug-in, at any depth', async () => {
    const refusal = /renderer plug-in imports only the host/;
    const top = 'src/renderer/src/protocols/judge-ls/NewPart.tsx';
    const deep = 'src/renderer/src/protocols/judge-ls/flips/NewPart.tsx';
    const planted: [string, string][] = [
      [top, "import { DatasetsPage } from '../../pages/DatasetsPage';\n"],
      [top, "import { ResultsPage } from '../../results/ResultsPage';\n"],
      [top, "import { useWizard } from '../../stores/wizard';\n"],
      [top, "import { getRendererProtocol } from '../registry';\n"],
      [top, "import '../index';\n"],
      [top, "import '..';\n"],
      [top, "import { BIAS_NS } from '../bias-probes/i18n';\n"],
      [deep, "import { DatasetsPage } from '../../../pages/DatasetsPage';\n"],
      [deep, "import type { RendererProtocol } from '../../registry';\n"],
      [deep, "import '../..';\n"],
      [deep, "import { Field } from '../../../components/Field';\n"],
    ];
    for (const [file, code] of planted) {
      const messages = await restrictedImports(file, code);
      expect(messages, `${file}: ${code}`).toHaveLength(1);
      expect(messages[0]).toMatch(refusal);
    }
    // Still the renderer: main stays out of reach from a plug-in too (its list replaces the renderer's).
    expect(
      await restrictedImports(top, "import { listResults } from '../../../../main/protocols/host';\n"),
    ).toContainEqual(expect.stringMatching(/never imports src\/main/));
  }, 60_000);

  it('allows a renderer plug-in the host, the kits, src/shared, its own folder and packages', async () => {
    expect(
      await restrictedImports(
        'src/renderer/src/protocols/judge-ls/NewPart.tsx',
        "import { Field, type RendererProtocol } from '../host';\nimport { FlipBrowser } from '../../kits/flip-browser';\nimport type { Item } from '../../../../shared/domain';\nimport { JUDGE_LS_NS } from './i18n';\nimport { useTranslation } from 'react-i18next';\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        'src/renderer/src/protocols/judge-ls/flips/NewPart.tsx',
        "import { Field } from '../../host';\nimport { FlipBrowser } from '../../../kits/flip-browser';\nimport type { Item } from '../../../../../shared/domain';\nimport { JUDGE_LS_NS } from '../i18n';\nimport { flipsRoute } from '../routes';\n",
      ),
    ).toEqual([]);
    // Tests beside a plug-in set the app up as the composition root does.
    expect(
      await restrictedImports(
        'src/renderer/src/protocols/judge-ls/NewPart.test.tsx',
        "import '../index';\nimport { ResultsPage } from '../../results/ResultsPage';\n",
      ),
    ).toEqual([]);
  }, 60_000);

  it('refuses a generic file importing the registering index or a protocol, renderer and main, and allows the registry', async () => {
    const rule = '@typescript-eslint/no-restricted-imports';
    const refusal = /only the composition root .* imports the registering index/;
    const planted: [string, string][] = [
      ['src/renderer/src/results/NewPage.tsx', "import { getRendererProtocol } from '../protocols';\n"],
      ['src/renderer/src/results/NewPage.tsx', "import '../protocols/index';\n"],
      ['src/renderer/src/results/NewPage.tsx', "import { judgeLs } from '../protocols/judge-ls';\n"],
      ['src/renderer/src/results/NewPage.tsx', "import { JUDGE_LS_NS } from '../protocols/judge-ls/i18n';\n"],
      ['src/renderer/src/App.tsx', "import { findProtocolPage } from './protocols';\n"],
      ['src/renderer/src/protocols/ProtocolName.tsx', "import { getRendererProtocol } from './index';\n"],
      ['src/renderer/src/protocols/registry.ts', "import { judgeLs } from './judge-ls';\n"],
      ['src/main/experiments/new-part.ts', "import { getProtocol } from '../protocols';\n"],
      ['src/main/experiments/new-part.ts', "import { judgeLsPlugin } from '../protocols/judge-ls/plugin';\n"],
      ['src/main/paper/kit/new-part.ts', "import { listProtocols } from '../../protocols/index';\n"],
      ['src/main/protocols/host.ts', "import { getProtocol } from '.';\n"],
    ];
    for (const [file, code] of planted) {
      const messages = await restrictedImports(file, code, rule);
      expect(messages, `${file}: ${code}`).toHaveLength(1);
      expect(messages[0]).toMatch(refusal);
    }
    const allowed: [string, string][] = [
      [
        'src/renderer/src/results/NewPage.tsx',
        "import { getRendererProtocol } from '../protocols/registry';\nimport { ProtocolName } from '../protocols/ProtocolName';\nimport type { Item } from '../../../shared/protocols/judge-ls/types';\n",
      ],
      [
        'src/main/experiments/new-part.ts',
        "import { getProtocol } from '../protocols/registry';\nimport type { AnyProtocol } from '../protocols/plugin';\nimport type { ProtocolTask } from '../protocols/types';\n",
      ],
      ['src/renderer/src/protocols/host.ts', "export type { RendererProtocol } from './registry';\n"],
      // The composition roots.
      ['src/renderer/src/main.tsx', "import './protocols';\n"],
      ['src/main/facade/core.ts', "import { getProtocol } from '../protocols';\n"],
    ];
    for (const [file, code] of allowed) {
      expect(await restrictedImports(file, code, rule), `${file}: ${code}`).toEqual([]);
    }
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
