import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { FIGURE_LANGUAGES, type FigureLanguage } from '../../shared/report/figure-i18n';
import { RUN_STATUS_TEXT, runOutcome } from '../../shared/run-status-text';
import type { CoreDoor } from '../facade/door';
import { AppError, exitCodeOf, formatIssue } from '../base/errors';
import { columnChoiceHint } from '../facade/cli-kit';
import { releaseTokenizerAfterEstimates } from '../facade/counting-ahead';
import { rendererDir, resolveDataDir } from '../base/paths';
import { APP_VERSION } from '../base/version';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { registerStoreCommands } from './store';
import { registerAnnotateCommands } from './annotate';
import { registerPaperCommands } from './paper';
import { registerPreregistrationCommands } from './preregister';
import { registerRecordedCommands } from './recorded';
import { registerBatchFileCommands } from './batch-files';
import { registerReportCardCommands } from './report-card';
import { BundleDiffers, registerBundleCommands } from './bundle';
import { experimentIdOf } from './door';

/** The rest, loaded when a command runs: `--version` and `--help` start in a fraction of the time. */
const runtime = () => import('./runtime');

/** How long `serve` waits for the first page before it loads the core regardless. */
const CORE_GRACE_MS = 200;

/** Exit codes of DESIGN.md section 7, and 3: finished, but calls failed for infrastructure reasons. */
export const EXIT = { ok: 0, runtime: 1, usage: 2, failedCalls: 3 } as const;

interface GlobalOptions {
  dataDir?: string;
  readOnly?: boolean;
}

/** Commands that only read the store: they open one a newer release made read-only. */
const READING_COMMANDS = new Set([
  'list',
  'export',
  'compare',
  'export-answers',
  'methods',
  'preregistration',
]);

/** `door` says who calls the core: pages (serve) get the page-door checks of keys and paths. */
async function openCoreFor(cmd: Command, door: 'cli' | 'web' = 'cli'): Promise<CoreDoor> {
  const { dataDir, readOnly } = cmd.optsWithGlobals<GlobalOptions>();
  const readOnlyIfNewer = READING_COMMANDS.has(cmd.name());
  const { openCore } = await runtime();
  return openCore({
    dataDir: resolveDataDir(dataDir),
    door,
    readOnly,
    readOnlyIfNewer,
    ...(cmd.name() === 'run' ? { pageCacheKiB: ONE_SHOT_PAGE_CACHE_KIB } : {}),
  });
}

/**
 * SQLite's own default page cache (better-sqlite3 raises it to 16 MB) for `judge-lab run`, a
 * process that runs one study and exits: the cache filled up on the 419 × 3 study's store and
 * stayed through the export, its peak (issue 39: 300 -> 286 MiB, CPU unchanged; pages it
 * misses are read back from the OS's file cache). Processes that serve many studies keep 16 MB.
 */
const ONE_SHOT_PAGE_CACHE_KIB = 2000;

/** Runs one command with the core open, closing it on the way out. */
async function withCore<T>(cmd: Command, fn: (core: CoreDoor) => Promise<T> | T): Promise<T> {
  const { explainStoreFault, DB_FILE_NAME } = await runtime();
  const core = await openCoreFor(cmd);
  if (core.readOnlyNote) process.stderr.write(`${core.readOnlyNote}\n`);
  try {
    return await fn(core);
  } catch (err) {
    // A write that fails later (full disk, file made read-only meanwhile) is a store fault too.
    throw explainStoreFault(err, join(core.dataDir, DB_FILE_NAME)) ?? err;
  } finally {
    await core.shutdown();
  }
}

/** A run that ended early (Ctrl+C, or every endpoint paused): exit 1, the ledger keeps everything. */
class RunStopped extends Error {}

/**
 * Calls that failed or could not go out for provider reasons: a run that finished with such
 * failures, or one whose models the provider refused (401, quota, …) and were paused: exit 3.
 */
class CallsFailed extends Error {}

const shellArg = (a: string) => (/^[\w./:@%+=,-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

/** The command that sends an experiment's failed calls again, as the user would type it. */
function retryCommand(
  cmd: Command,
  configPath: string,
  out: string | undefined,
  flags: string[] = ['--retry-failed'],
): string {
  const args = ['judge-lab', 'run', ...flags, configPath];
  if (out !== undefined) args.push('--out', out);
  const { dataDir } = cmd.optsWithGlobals<GlobalOptions>();
  if (dataDir !== undefined && cmd.getOptionValueSourceWithGlobals('dataDir') === 'cli')
    args.push('--data-dir', dataDir);
  return args.map(shellArg).join(' ');
}

/** --lang: the language of the figures' titles, axes and legends in the export. */
function langOption(): Option {
  return new Option('--lang <lang>', "figures' language (titles, axes, legends)")
    .choices([...FIGURE_LANGUAGES])
    .default('en');
}

export function buildProgram(out: (s: string) => void = (s) => process.stdout.write(s)): Command {
  const program = new Command('judge-lab')
    .description('Audit LLM judges: language switching, answer order, references, formats.')
    .version(APP_VERSION)
    .addOption(
      new Option('--data-dir <dir>', 'where experiments are stored (default: the app data folder)').env(
        'JUDGE_LAB_HOME',
      ),
    )
    .option('--read-only', 'open the data store without writing to it (list, export, compare)')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('import')
    .description('import a dataset: LLMBar JSONL/JSON (also upstream dataset.json) or CSV with a header')
    .argument('<file>', 'the file to import')
    .option('--name <name>', 'dataset name (default: the file name)')
    .option(
      '--column <field=column>',
      'which column of the file is which field, e.g. instruction=prompt (repeat; remembered for files with the same columns)',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .action((file: string, opts: { name?: string; column?: string[] }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const { parseColumnOptions } = await runtime();
        const columns = opts.column ? parseColumnOptions(opts.column) : undefined;
        const { dataset, duplicate } = await core.call('datasets.importFile', {
          path: file,
          name: opts.name,
          columns,
        });
        const subsets = dataset.subsets.map((s) => `${s.subset || '(none)'} ${s.count}`).join(', ');
        out(
          duplicate
            ? `Already imported as dataset ${dataset.id} "${dataset.name}" (${dataset.itemCount} items); nothing added.\n`
            : `Imported dataset ${dataset.id} "${dataset.name}": ${dataset.itemCount} items (${subsets}).\n`,
        );
      }),
    );

  program
    .command('run')
    .description('plan, run to the end (resumable) and export an experiment from a config file')
    .argument('<config>', 'experiment config (JSON, see README)')
    .option('--out <dir>', 'export folder (default: ./<experiment name>)')
    .option('--yes', 'accepted for scripts; the run never asks questions')
    .option('--retry-failed', 'send the calls of this experiment that failed before again')
    .option(
      '--resume-judge <label>',
      'go on with a judge the early warning paused in an earlier run (repeat for more judges)',
      (label: string, labels: string[]) => [...labels, label],
      [] as string[],
    )
    .addOption(langOption())
    .action(
      (
        configPath: string,
        opts: { out?: string; retryFailed?: boolean; resumeJudge?: string[]; lang: FigureLanguage },
        cmd: Command,
      ) => {
        // One study in this process: its estimates count tokens in a worker thread that ends (the
        // tables never enter this heap), started before the core loads (facade/counting-ahead.ts).
        releaseTokenizerAfterEstimates();
        return withCore(cmd, async (core) => {
          const {
            loadExperimentConfig,
            attributeToConfigFile,
            estimateText,
            ProgressPrinter,
            failureSummary,
            warnFigureFailures,
            drawFewPngsOnThisThread,
            withExportHeap,
          } = await runtime();
          drawFewPngsOnThisThread();
          const { config } = loadExperimentConfig(configPath);
          // A config's plan first locked on an experiment that already has answers is registered
          // after data collection: told once, when this run locks it (the lock goes with the update).
          const unlocked = await unlockedWithAnswers(core, config);
          // Held until the store is closed (export included): a restore waits for all of it.
          const summary = await core.call('experiments.createForRun', { config }).catch((err: unknown) =>
            attributeToConfigFile(configPath, () => {
              throw err;
            }),
          );
          const experimentId = summary.id;
          if (unlocked) {
            const { afterData } = await core.call('experiments.preregistration', { experimentId });
            if (afterData)
              process.stderr.write(
                `Warning: the config's preregistration was locked when ${afterData.answers} answers of "${summary.name}" ` +
                  'were already stored: it is registered after data collection, not preregistered, and its ' +
                  'comparisons will not be reported as confirmatory.\n',
              );
          }
          process.stderr.write(
            `Experiment "${summary.name}" (id ${summary.id}) on ${summary.datasetName}, ${summary.itemCount} items\n`,
          );
          process.stderr.write(
            estimateText(
              await core.call('experiments.estimate', { config: { ...config, dataset: summary.datasetId } }),
            ),
          );
          const printer = new ProgressPrinter();
          // The export's libraries (ECharts, exceljs) load with the export, not while answers
          // come in: loaded during the run they sat beside its ledger and SDKs, +46 MiB at the
          // position study's peak (issue 39), to save ~0.3 s after the last answer.
          const off = core.on('run.progress', (p) => {
            if (p.experimentId !== experimentId) return;
            printer.update(p);
          });
          let interrupted = false;
          const onSignal = () => {
            interrupted = true;
            process.stderr.write(
              '\nStopping: waiting for calls on the wire, then saving. Run the same command again to resume.\n',
            );
            // Its failure (a store that cannot be written) ends runToEnd too, which reports it.
            core.call('experiments.interrupt', { experimentId }).catch(() => undefined);
          };
          process.once('SIGINT', onSignal);
          process.once('SIGTERM', onSignal);
          if (opts.retryFailed) {
            const { failuresByReason } = await core.call('experiments.progress', { experimentId });
            const failed = Object.values(failuresByReason);
            process.stderr.write(`Sending ${failed.reduce((n, v) => n + v, 0)} failed calls again.\n`);
            // The app's "Retry failed": failed → pending for this experiment's calls, then run.
            await core.call('experiments.retryFailed', { experimentId });
          }
          const resumeJudges = opts.resumeJudge ?? [];
          if (resumeJudges.length)
            process.stderr.write(
              `Resuming ${resumeJudges.map((j) => `"${j}"`).join(', ')}: the early warning no longer watches ${resumeJudges.length === 1 ? 'this judge' : 'these judges'} in this run.\n`,
            );
          const final = await core.call('experiments.runToEnd', { experimentId, resumeJudges });
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
          off();
          printer.update(final, true);
          printer.end();
          // A run that failed while stopping (its store cannot be written) says why, not "nothing is lost".
          if ((interrupted && final.status !== 'failed') || final.status === 'cancelled')
            throw new RunStopped('Run stopped before the end; nothing is lost.');
          if (final.status !== 'finished') {
            // Judges the early warning paused: the way on is named, with the command to take it.
            const watched = [
              ...new Set(
                final.pausedLanes.flatMap((l) => (l.kind === 'early_warning' && l.label ? [l.label] : [])),
              ),
            ];
            const how = watched.length
              ? `\nLook at ${watched.length === 1 ? 'its' : 'their'} failed answers (judge-lab serve: the run page lists them with their raw text) and fix the cause; then go on with:\n  ${retryCommand(cmd, configPath, opts.out, ['--retry-failed', ...watched.flatMap((j) => ['--resume-judge', j])])}`
              : '';
            // Calls held back for a provider reason (a rejected key, quota, a model not found,
            // requests rejected): the README's exit 3, the same command once the cause is fixed.
            if (!watched.length && final.pausedLanes.length)
              throw new CallsFailed(
                `Run did not finish: ${final.message ?? final.status}\nFix the cause and run the same command again; exit code ${EXIT.failedCalls}.`,
              );
            throw new RunStopped(`Run did not finish: ${final.message ?? final.status}${how}`);
          }
          const dir = resolve(opts.out ?? summary.name);
          // The run's state is garbage now and the export is about to make its own (issue 27):
          // collected first, and the heap held closer to what is live while it exports.
          const exported = await withExportHeap(() =>
            core.call('experiments.export', { experimentId, outDir: dir, lang: opts.lang }),
          );
          // A run whose calls all or mostly failed is not reported as a plain "Finished".
          const calls = Object.values(final.phases).reduce(
            (c, g) => ({ done: c.done + g.done, failed: c.failed + g.failed }),
            { done: 0, failed: 0 },
          );
          const outcome = runOutcome(final.status, calls);
          out(
            outcome === 'finished'
              ? `Finished "${summary.name}". Exported ${exported.files.length} files to ${exported.dir}\n`
              : `Run "${summary.name}" ${RUN_STATUS_TEXT.en[outcome]}. ${final.message ?? ''}\n` +
                  `Exported ${exported.files.length} files to ${exported.dir} (the failed calls are counted in them).\n`,
          );
          warnFigureFailures(exported.figureFailures);
          const failures = failureSummary(
            final.failuresByReason,
            retryCommand(cmd, configPath, opts.out),
            final.cutOffReads ?? 0,
          );
          out(failures.text);
          if (failures.infrastructure)
            throw new CallsFailed(
              `${failures.infrastructure} calls failed for infrastructure reasons; exit code ${EXIT.failedCalls}.`,
            );
        });
      },
    );

  program
    .command('export')
    .description('write metrics.json, judgments.csv, tables and figures of an experiment')
    .argument('<experiment>', 'experiment name or id')
    .requiredOption('--out <dir>', 'export folder')
    .addOption(langOption())
    .action((ref: string, opts: { out: string; lang: FigureLanguage }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const { warnFigureFailures } = await runtime();
        const exported = await core.call('experiments.export', {
          experimentId: await experimentIdOf(core, ref),
          outDir: resolve(opts.out),
          lang: opts.lang,
        });
        out(`Exported ${exported.files.length} files to ${exported.dir}\n`);
        warnFigureFailures(exported.figureFailures);
      }),
    );

  program
    .command('compare')
    .description(
      'compare two runs on their shared items: two experiments of one protocol, or two judges of one (name the judges)',
    )
    .argument('<a>', 'experiment A: name or id')
    .argument('<b>', 'experiment B: name or id (the same as A to compare two of its judges)')
    .requiredOption('--out <dir>', 'folder for compare.json, compare.csv, compare.xlsx and compare.tex')
    .option('--judge-a <label>', "A's judge (default: the judges both share)")
    .option('--judge-b <label>', "B's judge (default: the same label as A's)")
    .action(
      (refA: string, refB: string, opts: { out: string; judgeA?: string; judgeB?: string }, cmd: Command) =>
        withCore(cmd, async (core) => {
          const { writeComparison, compareText } = await runtime();
          const a = { experimentId: await experimentIdOf(core, refA), judge: opts.judgeA };
          const b = { experimentId: await experimentIdOf(core, refB), judge: opts.judgeB };
          const { result, files } = await writeComparison(core, a, b, resolve(opts.out));
          out(compareText(result));
          out(`Wrote ${files.join(', ')} to ${resolve(opts.out)}\n`);
        }),
    );

  program
    .command('list')
    .description('list datasets and experiments')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const datasets = await core.call('datasets.list', undefined);
        const experiments = await core.call('experiments.list', undefined);
        if (opts.json) return out(JSON.stringify({ datasets, experiments }, null, 2) + '\n');
        if (!datasets.length) return out('No datasets yet. Import one with: judge-lab import <file>\n');
        out('Datasets\n');
        for (const d of datasets) {
          const subsets = d.subsets.map((s) => `${s.subset || '(none)'} ${s.count}`).join(', ');
          out(`  ${d.id}  ${d.name}  ${d.itemCount} items  [${subsets}]  ${d.sourceFile}\n`);
        }
        out(
          experiments.length
            ? 'Experiments\n'
            : 'No experiments yet. Start one with: judge-lab run <config.json>\n',
        );
        for (const e of experiments) {
          out(
            `  ${e.id}  ${e.name}  ${RUN_STATUS_TEXT.en[runOutcome(e.status, e.counts)]}  ${e.counts.done}/${e.counts.planned} calls done` +
              `${e.counts.failed ? `, ${e.counts.failed} failed` : ''}  judges: ${e.judges.join(', ')}  dataset: ${e.datasetName}` +
              `${e.simulated ? '  [simulated: made-up answers]' : ''}` +
              `${e.configProblem ? `\n      cannot run: ${e.configProblem}` : ''}\n`,
          );
        }
      }),
    );

  program
    .command('serve')
    .description('start the local web app on 127.0.0.1 and print its URL')
    .option('--port <n>', 'port (default: a free one)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 65535)
        throw new InvalidArgumentError('a port is a whole number 0–65535');
      return n;
    })
    .option(
      '--token-file <file>',
      'keep the access token in this file (default: serve-token in the data folder, owner-only)',
    )
    .option('--new-token', 'replace the stored token (pages opened before need the new URL)')
    .action(async (opts: { port?: number; tokenFile?: string; newToken?: boolean }, cmd: Command) => {
      // The server first, the core after (doors/core-when-open.ts): the first page is static.
      const { coreWhenOpen, defaultTokenFile, loadServeToken, startWebServerKeepingPort } =
        await import('./serve-runtime');
      const dataDir = resolveDataDir(cmd.optsWithGlobals<GlobalOptions>().dataDir);
      mkdirSync(dataDir, { recursive: true });
      const staticDir = rendererDir();
      // The same token after a restart, so open pages keep working.
      const token = loadServeToken(resolve(opts.tokenFile ?? defaultTokenFile(dataDir)), opts.newToken);
      const pending = coreWhenOpen();
      // The same port too (when free), so open pages and their stored wizard draft carry on.
      const server = await startWebServerKeepingPort({
        core: pending,
        port: opts.port,
        staticDir,
        token,
        dataDir,
      });
      if (!staticDir) process.stderr.write('No built UI found (run npm run build); serving the API only.\n');
      out(`Judge Lab is running at ${server.url}\nData: ${dataDir}\nPress Ctrl+C to stop.\n`);
      // Loading the core holds this thread for a moment: the first page goes out before it (or,
      // when no browser asks within CORE_GRACE_MS, the core loads anyway).
      await Promise.race([server.firstPage, delay(CORE_GRACE_MS)]);
      // Calls come from browser pages: keys go only where they belong, paths stay in the data folder.
      const opening = openCoreFor(cmd, 'web');
      pending.settle(opening);
      const core = await opening.catch(async (err: unknown) => {
        await server.close();
        throw err;
      });
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await server.close();
      await core.shutdown();
    });

  registerAnnotateCommands(program, withCore, out);
  registerPaperCommands(program, withCore, out);
  registerPreregistrationCommands(program, withCore, out);
  registerRecordedCommands(program, withCore, out);
  registerBatchFileCommands(program, withCore, out);
  registerReportCardCommands(program, withCore, out);
  registerBundleCommands(program, withCore, out);
  registerStoreCommands(program, out);
  return program;
}

/** Parses argv, runs, and maps every failure to the documented exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      if (err.exitCode === 0) return EXIT.ok;
      return EXIT.usage;
    }
    if (err instanceof RunStopped) {
      process.stderr.write(`${err.message}\n`);
      return EXIT.runtime;
    }
    if (err instanceof BundleDiffers) {
      process.stderr.write(`${err.message}\n`);
      return EXIT.runtime;
    }
    if (err instanceof CallsFailed) {
      process.stderr.write(`${err.message}\n`);
      return EXIT.failedCalls;
    }
    if (err instanceof AppError) {
      process.stderr.write(`error: ${err.message}\n`);
      for (const issue of err.issues.slice(0, 50)) process.stderr.write(`  ${formatIssue(issue)}\n`);
      if (err.issues.length > 50) process.stderr.write(`  … and ${err.issues.length - 50} more\n`);
      if (err.columnChoice)
        for (const line of columnChoiceHint(err.columnChoice)) process.stderr.write(`${line}\n`);
      return exitCodeOf(err);
    }
    process.stderr.write(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return EXIT.runtime;
  }
}

/**
 * Whether `run` with this config may lock its `preregistration` on an experiment that exists
 * with answers and no lock yet (then the lock comes after the data).
 */
async function unlockedWithAnswers(core: CoreDoor, config: unknown): Promise<boolean> {
  if (typeof config !== 'object' || config === null || !('preregistration' in config)) return false;
  const name = (config as { name?: unknown }).name;
  if (typeof name !== 'string') return false;
  const existing = await core.call('experiments.find', { ref: name }).catch(() => null);
  if (!existing) return false;
  const view = await core.call('experiments.preregistration', { experimentId: existing.id });
  return view.active === null && view.answersStored > 0;
}
