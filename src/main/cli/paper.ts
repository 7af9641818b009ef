// The paper kit's CLI commands (issue 24): `judge-lab estimate` (cost, time and the power plan).
// Thin: each command calls one API method through Core.call; the text is src/main/paper's.
import { Command, InvalidArgumentError } from 'commander';
import type { Core } from '../facade/core';

type WithCore = <T>(cmd: Command, fn: (core: Core) => Promise<T> | T) => Promise<T>;

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
}
