// `judge-lab template recorded` and `judge-lab export-answers`: the two ways a recorded-answers
// file is made (DESIGN.md, "Recorded answers"), over the API methods the app calls. Thin: the
// file's format and the matching live in experiments/recorded.ts and providers/recorded/.
import { writeFilesWhole } from '../base/write-files';
import { extname, resolve } from 'node:path';
import type { Command } from 'commander';
import { experimentIdOf, type WithCore } from './door';

/** The file's format from its name: .csv is CSV, anything else JSONL. */
function formatOf(file: string): 'jsonl' | 'csv' {
  return extname(file).toLowerCase() === '.csv' ? 'csv' : 'jsonl';
}

/** Written beside the target and renamed: a reader never sees half a file. */
function writeWhole(file: string, text: string): void {
  writeFilesWhole([[file, text]]);
}

export function registerRecordedCommands(
  program: Command,
  withCore: WithCore,
  out: (s: string) => void,
): void {
  program
    .command('template')
    .description('write an empty input file to fill in')
    .command('recorded')
    .description(
      'the recorded-answers file of an experiment config: one row per call it plans, the answer empty (.csv: CSV, else JSONL)',
    )
    .argument('<config>', 'experiment config (JSON)')
    .requiredOption('--out <file>', 'the file to write (.jsonl or .csv)')
    .action((configPath: string, opts: { out: string }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const { loadExperimentConfig, attributeToConfigFile } = await import('../facade/config-files');
        const { config } = loadExperimentConfig(configPath);
        const file = resolve(opts.out);
        const t = await core
          .call('experiments.recordedTemplate', { config, format: formatOf(file) })
          .catch((err: unknown) =>
            attributeToConfigFile(configPath, () => {
              throw err;
            }),
          );
        writeWhole(file, t.text);
        out(
          `Wrote ${t.rows} rows to ${file} (columns: ${t.columns.join(', ')}, model, answer, input_tokens, output_tokens, cached_tokens)\n`,
        );
      }),
    );

  program
    .command('export-answers')
    .description(
      "an experiment's answers as a recorded-answers file (.csv: CSV, else JSONL), to audit again offline",
    )
    .argument('<experiment>', 'experiment name or id')
    .requiredOption('--out <file>', 'the file to write (.jsonl or .csv)')
    .action((ref: string, opts: { out: string }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const file = resolve(opts.out);
        const r = await core.call('experiments.exportAnswers', {
          experimentId: await experimentIdOf(core, ref),
          format: formatOf(file),
        });
        writeWhole(file, r.text);
        out(
          `Wrote ${r.rows} answers to ${file}${r.skipped ? ` (${r.skipped} calls without an answer left out)` : ''}\n`,
        );
      }),
    );
}
