// `judge-lab preregister` and `judge-lab preregistration` (issue 24 part 2): lock an experiment's
// analysis plan from a JSON file (a new version needs --reason), and show or write the
// preregistration document with the deviations found. Thin: each calls one API method through
// Core.call; the lock, its hash and the deviations live in src/main/paper/preregistration*.ts.
import { writeFilesWhole } from '../base/write-files';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { AppError } from '../base/errors';
import { experimentIdOf, type WithCore } from './door';
import { FIGURE_LANGUAGES, type FigureLanguage } from '../../shared/report/figure-i18n';

/** A plan problem named against the user's file (the API names the payload `plan`). */
function attributeToPlanFile(path: string, err: unknown): never {
  if (!(err instanceof AppError) || !err.issues.some((i) => i.file === 'plan')) throw err;
  throw new AppError(
    err.code,
    `${path}: ${err.message}`,
    err.issues.map((i) => (i.file === 'plan' ? { ...i, file: path } : i)),
  );
}

export function registerPreregistrationCommands(
  program: Command,
  withCore: WithCore,
  out: (s: string) => void,
): void {
  program
    .command('preregister')
    .description(
      'lock the analysis plan of an experiment (confirmatory comparisons, α, correction, exclusion and stopping rules); a lock is never edited, only superseded with --reason',
    )
    .argument('<experiment>', 'experiment name or id')
    .requiredOption('--plan <file>', 'the plan (JSON, the keys of the config\'s "preregistration")')
    .option('--reason <text>', 'why this version supersedes the plan in force')
    .option('--json', 'print JSON')
    .action((ref: string, opts: { plan: string; reason?: string; json?: boolean }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const { readConfigText } = await import('../facade/config-files');
        const plan = readConfigText(opts.plan);
        if (typeof plan !== 'object' || plan === null || Array.isArray(plan))
          throw new AppError('invalid_input', `${opts.plan}: the plan is a JSON object`, [
            { file: opts.plan, message: 'not a JSON object' },
          ]);
        const experimentId = await experimentIdOf(core, ref);
        // Said before the lock: a first plan locked once answers are stored is no preregistration.
        const before = await core.call('experiments.preregistration', { experimentId });
        if (!before.active && before.answersStored > 0)
          process.stderr.write(
            `Warning: ${before.answersStored} answers of experiment ${ref} are already stored: this plan is ` +
              'registered after data collection, not preregistered. Results, Methods, the manifest and the ' +
              'bundle will say so, and its comparisons will not be reported as confirmatory.\n',
          );
        const view = await core
          .call('experiments.preregister', {
            experimentId,
            plan: plan as Record<string, unknown>,
            ...(opts.reason !== undefined ? { reason: opts.reason } : {}),
          })
          .catch((err: unknown) => attributeToPlanFile(opts.plan, err));
        if (opts.json) return out(JSON.stringify(view, null, 2) + '\n');
        const lock = view.active!;
        out(
          `Locked version ${lock.version} of the plan of experiment ${ref} at ${lock.lockedAt}` +
            `${view.afterData ? ` (registered after data collection: ${view.afterData.answers} answers were stored at the first lock)` : ''}` +
            `\nSHA-256 ${lock.sha256}\n`,
        );
        if (view.deviations.length)
          out(`Deviations found already:\n${view.deviations.map((d) => `  - ${d.text}`).join('\n')}\n`);
      }),
    );

  program
    .command('preregistration')
    .description('show every locked plan of an experiment and the deviations from the one in force')
    .argument('<experiment>', 'experiment name or id')
    .option('--out <file>', 'write preregistration.md there instead of printing it')
    .addOption(
      new Option('--lang <lang>', 'language of the document').choices([...FIGURE_LANGUAGES]).default('en'),
    )
    .option('--json', 'print JSON (the locks, the deviations and the document)')
    .action((ref: string, opts: { out?: string; lang: FigureLanguage; json?: boolean }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const experimentId = await experimentIdOf(core, ref);
        const view = await core.call('experiments.preregistration', { experimentId, lang: opts.lang });
        if (opts.json) out(JSON.stringify(view, null, 2) + '\n');
        else if (!opts.out) out(view.markdown);
        else {
          const file = resolve(opts.out);
          writeFilesWhole([[file, view.markdown]]);
          out(`Wrote ${file}\n`);
        }
        // Shown, and marked in the document, but never passed as a sound lock: exit 1.
        const tampered = view.locks.filter((l) => l.tampered).map((l) => l.version);
        if (tampered.length)
          throw new AppError(
            'internal',
            `TAMPERED: preregistration lock version ${tampered.join(', ')} of experiment ${ref} no longer matches its stored SHA-256; it was changed after locking and cannot be relied on (judge-lab doctor lists every such lock).`,
          );
      }),
    );
}
