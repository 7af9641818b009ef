// The paper kit's CLI commands (issue 24): `judge-lab estimate` (cost, time and the power plan) and
// `judge-lab methods` (the Methods section and the reviewer's checklist of a stored experiment).
// Thin: each command calls one API method through Core.call; the text is src/main/paper's.
import { mkdirSync } from 'node:fs';
import { writeFilesWhole } from '../base/write-files';
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { experimentIdOf, type WithCore } from './door';
import { FIGURE_LANGUAGES, type FigureLanguage } from '../../shared/report/figure-i18n';

/** --effect ID=VALUE, repeatable. */
function effectOption(v: string, previous: Record<string, number> = {}): Record<string, number> {
  const at = v.lastIndexOf('=');
  const value = Number(v.slice(at + 1));
  if (at < 1 || v.slice(at + 1).trim() === '' || !Number.isFinite(value))
    throw new InvalidArgumentError(`expected ID=NUMBER (e.g. accuracy_change:EN-ZH=0.05), got "${v}"`);
  return { ...previous, [v.slice(0, at)]: value };
}

export function registerPaperCommands(program: Command, withCore: WithCore, out: (s: string) => void): void {
  program
    .command('estimate')
    .description('cost, time and the power plan of a config, without running it')
    .argument('<config>', 'experiment config (JSON, see README)')
    .option(
      '--effect <id=value>',
      'an effect for the power plan: the items it needs (repeatable)',
      effectOption,
    )
    .option('--json', 'print JSON')
    .action((configPath: string, opts: { effect?: Record<string, number>; json?: boolean }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const { loadExperimentConfig, attributeToConfigFile, estimateText } = await import('./runtime');
        const { powerText } = await import('../facade/config-files');
        const { config } = loadExperimentConfig(configPath);
        // A config problem is reported against the file, as `run` reports it.
        const estimate = await core
          .call('experiments.estimate', { config, ...(opts.effect ? { effects: opts.effect } : {}) })
          .catch((err: unknown) =>
            attributeToConfigFile(configPath, () => {
              throw err;
            }),
          );
        if (opts.json) return out(JSON.stringify(estimate, null, 2) + '\n');
        out(estimateText(estimate));
        if (estimate.power) out(powerText(estimate.power));
      }),
    );

  program
    .command('methods')
    .description(
      'write methods.md, methods.tex and checklist.md of an experiment (as its export folder holds them)',
    )
    .argument('<experiment>', 'experiment name or id')
    .requiredOption('--out <dir>', 'folder for the three files')
    .addOption(
      new Option('--lang <lang>', 'language of the text').choices([...FIGURE_LANGUAGES]).default('en'),
    )
    .action((ref: string, opts: { out: string; lang: FigureLanguage }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const experimentId = await experimentIdOf(core, ref);
        const files = await core.call('experiments.methods', { experimentId, lang: opts.lang });
        const dir = resolve(opts.out);
        mkdirSync(dir, { recursive: true });
        const written = [
          ['methods.md', files.markdown],
          ['methods.tex', files.latex],
          ['checklist.md', files.checklist],
        ] as const;
        writeFilesWhole(written.map(([name, text]) => [join(dir, name), text] as const));
        out(`Wrote ${written.map(([n]) => n).join(', ')} to ${dir}\n`);
      }),
    );
}
