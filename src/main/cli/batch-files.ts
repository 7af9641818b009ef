// `judge-lab batch export|import`: offline batch files for vLLM / SGLang clusters (DESIGN §11,
// "Batch files for a cluster"), over the API methods the app calls. Thin: the format, the seal
// and the ledger writes live in experiments/batch-files.ts.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { writeFilesWhole } from '../base/write-files';
import type { CoreDoor } from '../facade/door';
import { experimentIdOf, type WithCore } from './door';

/**
 * The experiment a batch command names: an experiment's name or id, or a config file (created,
 * or continued, as `judge-lab run` does, without sending anything), so a study whose judges run
 * only on the cluster starts with its first export.
 */
async function experimentOf(core: CoreDoor, ref: string): Promise<{ id: number; name: string }> {
  if (ref.toLowerCase().endsWith('.json') && existsSync(ref) && statSync(ref).isFile()) {
    const { loadExperimentConfig, attributeToConfigFile } = await import('../facade/config-files');
    const { config } = loadExperimentConfig(ref);
    const s = await core.call('experiments.createForExport', { config }).catch((err: unknown) =>
      attributeToConfigFile(ref, () => {
        throw err;
      }),
    );
    return { id: s.id, name: s.name };
  }
  const id = await experimentIdOf(core, ref);
  return { id, name: ref };
}

export function registerBatchFileCommands(
  program: Command,
  withCore: WithCore,
  out: (s: string) => void,
): void {
  const batch = program
    .command('batch')
    .description(
      'offline batch files for a GPU cluster (vllm run-batch): export the open requests, import the answers',
    );
  batch
    .command('export')
    .description(
      'every request of the experiment not answered yet, in the OpenAI Batch input format that `vllm run-batch -i` reads',
    )
    .argument('<experiment>', 'experiment name or id, or its config file (created if new; nothing is sent)')
    .requiredOption('--out <file>', 'the JSONL file to write')
    .option('--model <name>', "only this model's requests (vllm run-batch serves one model a run)")
    .action((ref: string, opts: { out: string; model?: string }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const file = resolve(opts.out);
        const exp = await experimentOf(core, ref);
        const r = await core.call('experiments.batchExport', {
          experimentId: exp.id,
          ...(opts.model ? { model: opts.model } : {}),
        });
        writeFilesWhole([[file, r.text]]);
        const models = Object.entries(r.models);
        if (!r.requests)
          out(
            r.otherModels || r.inFlight || r.skipped.length
              ? `No request to write. Wrote an empty ${file}\n`
              : `Nothing to export: every request of the plan is answered. Wrote an empty ${file}\n`,
          );
        else {
          out(`Wrote ${r.requests} requests (${r.stages.join(', ')}) to ${file}\n`);
          for (const [m, n] of models) out(`  ${n} for ${m}\n`);
          out(
            models.length === 1
              ? `On the GPU machine: vllm run-batch -i ${file} -o results.jsonl --model ${models[0][0]}\n`
              : 'vllm run-batch serves one model a run: export each model with --model <name>\n',
          );
          out(`Then: judge-lab batch import ${JSON.stringify(exp.name)} results.jsonl\n`);
        }
        if (r.otherModels) out(`${r.otherModels} open requests of other models left out (--model)\n`);
        if (r.inFlight)
          out(`${r.inFlight} requests are in flight in a run or a provider batch: not written\n`);
        for (const s of r.skipped)
          out(`Left out ${s.requests} requests of provider "${s.provider}": ${s.reason}\n`);
      }),
    );
  batch
    .command('import')
    .description('a `vllm run-batch` output file into the experiment (answers already stored are kept)')
    .argument('<experiment>', 'experiment name or id')
    .argument('<results>', 'the output file (JSONL)')
    .action((ref: string, results: string, _opts: unknown, cmd: Command) =>
      withCore(cmd, async (core) => {
        const file = resolve(results);
        const text = readFileSync(file, 'utf8');
        const r = await core.call('experiments.batchImport', {
          experimentId: await experimentIdOf(core, ref),
          file,
          text,
        });
        out(
          `Read ${r.lines} lines of ${file}: ${r.stored} answers stored, ${r.kept} already answered (kept), ` +
            `${r.askAgain} to ask again, ${r.failed.count} failed, ${r.malformed.count} unreadable\n`,
        );
        for (const f of r.failed.first) out(`  failed: line ${f.line} (${f.customId}): ${f.reason}\n`);
        if (r.failed.count > r.failed.first.length)
          out(`  … and ${r.failed.count - r.failed.first.length} more failed\n`);
        for (const m of r.malformed.first) out(`  unreadable: line ${m.line}: ${m.problem}\n`);
        if (r.malformed.count > r.malformed.first.length)
          out(`  … and ${r.malformed.count - r.malformed.first.length} more unreadable\n`);
        out(
          r.open
            ? `${r.open} requests are open (failed, unanswered, or the next stage): judge-lab batch export ${ref} --out requests.jsonl\n`
            : `Every request of the plan is answered: judge-lab export ${ref} --out DIR\n`,
        );
      }),
    );
}
