// `judge-lab bundle export|verify` (issue 24): the study bundle a reviewer re-runs. Thin: each
// command calls one API method through Core.call (the bundle's layout and the replay live in
// src/main/paper/bundle*.ts).
import { writeFilesWhole } from '../base/write-files';
import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { NOT_RECOMPARED, type BundleVerifyReport } from '../../shared/paper/bundle';
import { INPUT_LIMITS, readRegularFile } from '../base/input-limits';
import { experimentIdOf, type WithCore } from './door';

/** A bundle that opened and replayed, but whose recomputed files differ from the stored ones: exit 1. */
export class BundleDiffers extends Error {}

export function verifyText(r: BundleVerifyReport): string {
  const lines = [
    `Bundle ${r.file}: experiment "${r.experiment.name}" (${r.experiment.protocol}), ${r.entries} entries, each matching its SHA-256.`,
    `Replayed ${r.replayed} answers from answers.jsonl (no provider called, no key used).`,
  ];
  const differing = r.checks.filter((c) => !c.equal);
  lines.push(
    `Recomputed ${r.checks.length} files (metrics.json, tables, the workbook by cell values, figures, PNGs by pixels): ${r.checks.length - differing.length} equal, ${differing.length} differ.`,
  );
  for (const c of differing) {
    lines.push(`  ${c.file} differs:`);
    for (const d of c.differences)
      lines.push(`    ${d.where}: stored ${d.stored}, recomputed ${d.recomputed}`);
  }
  if (r.notRecompared.length) {
    lines.push(`Not recompared (${r.notRecompared.length} files, neither equal nor different):`);
    for (const n of r.notRecompared)
      lines.push(`  ${n.file}: ${NOT_RECOMPARED[n.reason]}${n.detail ? ` (${n.detail})` : ''}`);
  }
  return lines.join('\n') + '\n';
}

export function registerBundleCommands(program: Command, withCore: WithCore, out: (s: string) => void): void {
  const bundle = program
    .command('bundle')
    .description('the study bundle (*.judgelab): everything a reviewer needs to recompute a study offline');

  bundle
    .command('export')
    .description(
      'write the study bundle of a finished experiment (config, dataset, prompts, ledger, export folder)',
    )
    .argument('<experiment>', 'experiment name or id')
    .requiredOption('--out <file>', 'the bundle to write (e.g. study.judgelab)')
    .action((ref: string, opts: { out: string }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const experimentId = await experimentIdOf(core, ref);
        const b = await core.call('experiments.exportBundle', { experimentId });
        const file = resolve(opts.out);
        // Written beside the target and renamed: a reader never sees half a bundle.
        writeFilesWhole([[file, Buffer.from(b.contentBase64, 'base64')]]);
        out(`Wrote the study bundle of "${ref}" to ${file}\n`);
      }),
    );

  bundle
    .command('verify')
    .description(
      'recompute every metric, table and figure of a bundle offline and compare (exit 0 only when all are identical)',
    )
    .argument('<file>', 'the bundle (*.judgelab)')
    .option('--json', 'print the report as JSON')
    .action((file: string, opts: { json?: boolean }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const bytes = readRegularFile(resolve(file), INPUT_LIMITS.bundle.fileBytes);
        const report = await core.call('bundles.verify', {
          fileName: basename(file),
          contentBase64: bytes.toString('base64'),
        });
        out(opts.json ? JSON.stringify(report, null, 2) + '\n' : verifyText(report));
        if (!report.identical)
          throw new BundleDiffers(
            `${file}: ${report.checks.filter((c) => !c.equal).length} recomputed files differ from the stored ones`,
          );
      }),
    );
}
