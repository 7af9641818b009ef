// `judge-lab report-card MODEL --out DIR`: the judge report card's files (JSON, LaTeX, SVG, PNG)
// and its gates in the terminal. Thin: the card is the API's (src/main/report-card/); the heavy
// modules (figures, zod schemas) load inside the action, so --help and --version stay light.
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { WithCore } from './door';

export function registerReportCardCommands(
  program: Command,
  withCore: WithCore,
  out: (s: string) => void,
): void {
  program
    .command('report-card')
    .description(
      'one judge model across every experiment of the store: headline figures and gates (report-card.json, .tex, .md, .csv, -gates.csv, .svg, .png)',
    )
    .argument(
      '<model>',
      'the judge: kind:model (e.g. openai:gpt-4.1-mini) or a model id judged under one provider kind',
    )
    .requiredOption('--out <dir>', 'the folder to write')
    .option(
      '--gates <file>',
      "gate thresholds (JSON; default: the store's gates, else the literature defaults)",
    )
    .addOption(
      new Option('--lang <lang>', 'language of the tables and the figure')
        .choices(['en', 'zh'])
        .default('en'),
    )
    .action((model: string, opts: { out: string; gates?: string; lang: 'en' | 'zh' }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const { readGatesFile, registryCardText, writeReportCard } =
          await import('../facade/report-card-files');
        const { cardSpeaker } = await import('../../shared/report-card/phrases');
        const { CARD_TEXT } = await import('../../shared/report-card/text');
        const { gateName } = await import('../../shared/report-card/gates');
        const { checkProtocol, experimentName, formatInterval, formatValue, gateRule } =
          await import('../../shared/report-card/tables');
        // A bad gates file is refused before anything is computed or written.
        const gates = opts.gates === undefined ? undefined : readGatesFile(resolve(opts.gates));
        const card = await core.call('judges.reportCard', { model, ...(gates ? { gates } : {}) });
        const files = await writeReportCard(card, resolve(opts.out), opts.lang);
        const t = CARD_TEXT[opts.lang];
        const say = cardSpeaker(opts.lang, registryCardText);
        const lines = [
          `${t.title}: ${card.judge.kind}:${card.judge.model} (${card.experiments.length} experiments)`,
        ];
        for (const e of card.experiments)
          lines.push(
            `  ${experimentName(e, opts.lang)} — ${say.protocolTitle(e)}, ${t.dataset.toLowerCase()} ${e.dataset}, ${e.rows.length} figures${e.note ? ` (${say.phrase(e.note, e.protocol)})` : ''}`,
          );
        lines.push(`${t.gatesTitle}:`);
        for (const g of card.gates) {
          const d = g.decisive;
          const protocol = d ? checkProtocol(card, d) : '';
          const at = d
            ? ` ${formatValue(g.definition.unit, d.value)}${d.ci ? ` ${formatInterval(g.definition.unit, d.ci)}` : ''}, n = ${d.n}, ${d.experimentName} (${say.phrase(d.condition, protocol)})${d.note ? ` — ${say.phrase(d.note, protocol)}` : ''}`
            : '';
          lines.push(
            `  ${t.statuses[g.status].padEnd(12)} ${gateName(g.definition, opts.lang)} ${gateRule(g.definition, opts.lang)}:${at}`,
          );
        }
        lines.push(...files.map((f) => `Wrote ${f}`));
        out(lines.join('\n') + '\n');
      }),
    );
}
