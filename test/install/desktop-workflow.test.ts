import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { describe, expect, it } from 'vitest';
import { findArtifact } from '../../scripts/smoke-packaged.mjs';
import { ROOT } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

// The desktop workflow cannot run here (no Electron download), so it is checked the way GitHub
// reads it: its own parser, with the workflow schema GitHub publishes.
const WORKFLOW = join(ROOT, '.github', 'workflows', 'desktop.yml');

async function check(content: string) {
  const parsed = parseWorkflow({ name: 'desktop.yml', content }, new NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((e) => e.message);
  if (errors.length || !parsed.value) return { errors, template: undefined };
  const template = await convertWorkflowTemplate(parsed.context, parsed.value);
  return { errors: (template.errors ?? []).map((e) => e.Message), template };
}

describe('.github/workflows/desktop.yml', () => {
  it('is a valid workflow by GitHub’s schema', async () => {
    const { errors, template } = await check(readFileSync(WORKFLOW, 'utf8'));
    expect(errors).toEqual([]);
    expect(template!.jobs.map((j) => j.id.value)).toEqual(['desktop']);
  });

  it('a broken workflow is refused, so the check above can fail', async () => {
    const good = readFileSync(WORKFLOW, 'utf8');
    const cases = [
      good.replace('runs-on: ${{ matrix.os }}', 'runs_on: ${{ matrix.os }}'),
      good.replace('timeout-minutes: 60', 'timeout-minutes: soon'),
      good.replace("if: runner.os == 'Linux'", "if: runner.os == 'Linux' &&"),
    ];
    for (const bad of cases) {
      expect(bad).not.toBe(good);
      expect((await check(bad)).errors.length).toBeGreaterThan(0);
    }
  });

  it('on each OS: npm ci, npm start -- --smoke-test, installers unpublished, packaged smoke test, artifacts', () => {
    const text = readFileSync(WORKFLOW, 'utf8');
    for (const os of ['ubuntu-', 'macos-', 'windows-']) expect(text).toContain(`os: ${os}`);
    const steps = text.indexOf('    steps:');
    const order = [
      'npm ci --no-audit',
      'npm start -- --smoke-test',
      'electron-builder --projectDir .',
      '--publish never',
      'node scripts/smoke-packaged.mjs',
      'actions/upload-artifact@',
    ].map((s) => text.indexOf(s, steps));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toMatch(/gui: xvfb-run/);
  });
});

describe('smoke-packaged finds what electron-builder writes', () => {
  it('one installer per platform by electron-builder.yml’s artifactName, not its .blockmap', () => {
    const config = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8');
    const pattern = /^artifactName: (.+)$/m.exec(config)![1];
    const name = (os: string, arch: string, ext: string) =>
      pattern
        .replace('${version}', '0.1.0')
        .replace('${os}', os)
        .replace('${arch}', arch)
        .replace('${ext}', ext);
    const t = tempDir();
    try {
      // electron-builder's arch names: x86_64 for AppImage, amd64 for deb (builder-util getArtifactArchName).
      const files = [
        name('linux', 'x86_64', 'AppImage'),
        name('linux', 'amd64', 'deb'),
        name('mac', 'arm64', 'dmg'),
        name('mac', 'x64', 'dmg'),
        name('win', 'x64', 'exe'),
        `${name('win', 'x64', 'exe')}.blockmap`,
      ];
      for (const f of files) writeFileSync(join(t.dir, f), '');
      expect(findArtifact(t.dir, '-linux-x86_64.AppImage')).toBe(join(t.dir, files[0]));
      expect(findArtifact(t.dir, '-mac-arm64.dmg')).toBe(join(t.dir, files[2]));
      expect(findArtifact(t.dir, '-mac-x64.dmg')).toBe(join(t.dir, files[3]));
      expect(findArtifact(t.dir, '-win-x64.exe')).toBe(join(t.dir, files[4]));
      expect(() => findArtifact(t.dir, '.rpm')).toThrow(/expected one \*\.rpm .*found none/);
    } finally {
      t.cleanup();
    }
  });
});
