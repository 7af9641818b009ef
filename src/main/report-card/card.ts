// The judge report card (issue 25 §1): every experiment of the store that used one judge model,
// with the headline figures its protocol contributes (through the plug-in's `reportCard` hook)
// and the judge's agreement with people from the annotation sets of those experiments, held to
// the researcher's gates. Knows no protocol: a protocol without the hook is listed with a note.
import type { AnnotationService } from '../annotation/service';
import { AppError } from '../base/errors';
import { computeResults } from '../experiments/results';
import { loadExperiment, modelsOf, type LoadedExperiment } from '../experiments/load';
import { listSets } from '../annotation/store';
import { getDataset } from '../store/datasets';
import type { Database } from '../store/db';
import { listExperiments } from '../store/experiments';
import { anyRecorded, anySimulated } from '../providers/config';
import { evaluateGates, resolveGates } from '../../shared/report-card/gates';
import { declaredGates } from './gates-file';
import type { CardDictionary } from '../../shared/report-card/phrases';
import {
  judgeKey,
  type CardExperiment,
  type CardPhrase,
  type GateCheck,
  type GateSettings,
  type HeadlineRow,
  type JudgeModelRef,
  type JudgeSummary,
  type ReportCard,
} from '../../shared/report-card/types';

/**
 * The judge labels under which an experiment calls the model (provider kind + model id). Answers
 * from a recorded file are the named model's answers made elsewhere: they count for that model
 * under any live provider kind (and are marked recorded on the card), never on a simulated
 * model's card, whose answers are made up: a card mixes real and made-up answers nowhere.
 */
function labelsOf(exp: LoadedExperiment, judge: JudgeModelRef): string[] {
  return modelsOf(exp)
    .filter((m) => {
      const kind = exp.providers[m.provider]?.kind;
      return (
        m.role === 'judge' &&
        m.model === judge.model &&
        (kind === judge.kind || (kind === RECORDED && judge.kind !== SIMULATED))
      );
    })
    .map((m) => m.label);
}

/** Experiments that open (a config a later rule refuses still opens; a broken one is skipped). */
function* loadedExperiments(db: Database): Generator<LoadedExperiment> {
  for (const row of listExperiments(db)) {
    try {
      yield loadExperiment(db, row.id);
    } catch {
      // An experiment whose dataset or protocol is gone cannot say which judges it used.
    }
  }
}

/**
 * Every judge model of the store, with how many experiments used it. A model judged only from
 * recorded files is listed as `recorded:model`; once the same model id is also judged live, its
 * recorded experiments join that judge (see `labelsOf`).
 */
export function listJudges(db: Database): JudgeSummary[] {
  const by = new Map<string, JudgeSummary>();
  const recordedOnly = new Map<string, Set<LoadedExperiment>>();
  for (const exp of loadedExperiments(db)) {
    const seen = new Set<string>();
    for (const m of modelsOf(exp)) {
      const kind = exp.providers[m.provider]?.kind;
      if (m.role !== 'judge' || !kind) continue;
      if (kind === RECORDED) {
        recordedOnly.set(m.model, (recordedOnly.get(m.model) ?? new Set()).add(exp));
        continue;
      }
      const key = judgeKey({ kind, model: m.model });
      if (seen.has(key)) continue;
      seen.add(key);
      const j = by.get(key) ?? blankSummary(kind, m.model);
      count(j, exp);
      by.set(key, j);
    }
  }
  for (const [model, exps] of recordedOnly) {
    const live = [...by.values()].filter((j) => j.model === model && j.kind !== SIMULATED);
    const targets = live.length ? live : [blankSummary(RECORDED, model)];
    for (const j of targets) {
      for (const exp of exps) count(j, exp);
      by.set(j.key, j);
    }
  }
  return [...by.values()].sort((a, b) => a.key.localeCompare(b.key));
}

function blankSummary(kind: string, model: string): JudgeSummary {
  return {
    key: judgeKey({ kind, model }),
    kind,
    model,
    experiments: 0,
    protocols: [],
    recorded: false,
    simulated: false,
  };
}

function count(j: JudgeSummary, exp: LoadedExperiment): void {
  j.experiments++;
  if (!j.protocols.includes(exp.row.protocol)) j.protocols.push(exp.row.protocol);
  j.recorded ||= anyRecorded(exp.providers);
  j.simulated ||= anySimulated(exp.providers);
}

/**
 * Which judge MODEL names: `kind:model` exactly, or a model id used under one provider kind only.
 * (Model ids may hold colons, e.g. fine-tuned OpenAI models, so the exact key is tried first.)
 */
export function resolveJudge(db: Database, model: string): JudgeModelRef {
  const judges = listJudges(db);
  const exact = judges.find((j) => j.key === model);
  if (exact) return { kind: exact.kind, model: exact.model };
  const byModel = judges.filter((j) => j.model === model);
  if (byModel.length === 1) return { kind: byModel[0].kind, model: byModel[0].model };
  if (byModel.length > 1)
    throw new AppError(
      'invalid_params',
      `model: "${model}" is judged under ${byModel.length} provider kinds; name one: ${byModel.map((j) => j.key).join(', ')}.`,
    );
  const known = judges.length
    ? ` Judges in this store: ${judges.map((j) => j.key).join(', ')}.`
    : ' No experiment in this store has a judge yet.';
  throw new AppError('not_found', `model: no experiment in this store used "${model}" as a judge.${known}`);
}

const RECORDED = 'recorded';
const SIMULATED = 'simulated';

type Measured = Omit<GateCheck, 'status' | 'reason'>;

/** A reason key of the card's words (text.ts), as a note; none without a reason. */
const reason = (key: string | undefined): CardPhrase | undefined => (key ? { key } : undefined);

/**
 * A value whose interval is missing says why: a protocol that gave no reason gets the card's
 * generic one, so no page or file shows "no interval" bare.
 */
const withIntervalReason = (r: HeadlineRow): HeadlineRow =>
  r.value !== null && !r.ci && !r.note ? { ...r, note: { key: 'interval_not_given' } } : r;

/** Agreement with people on the experiment's annotation sets (raw judge scores). */
function humanRows(
  db: Database,
  annotation: AnnotationService,
  exp: LoadedExperiment,
  label: string,
): { rows: HeadlineRow[]; gates: Measured[] } {
  const rows: HeadlineRow[] = [];
  const gates: Measured[] = [];
  for (const set of listSets(db, exp.row.id)) {
    const report = annotation.agreement(set.id);
    const condition = { key: 'people', params: { set: set.name } };
    const ia = report.inter_annotator;
    if (ia.n_annotators >= 2)
      rows.push({
        measure: 'human_icc',
        label: 'ICC(2,1) between people',
        condition,
        n: ia.n_complete,
        value: ia.icc21,
        ci: ia.icc21_ci,
        unit: 'num',
        ...(ia.icc21 === null
          ? { note: { key: 'icc_too_few' } }
          : ia.icc21_ci
            ? {}
            : { note: { key: 'icc_interval_undefined' } }),
      });
    for (const r of report.judge_human.filter((x) => x.judge === label && x.variant === 'raw')) {
      const rhoNote = reason(
        r.spearman_rho === null ? 'rho_side_constant' : r.spearman_rho_ci_undefined_reason,
      );
      rows.push({
        measure: 'human_rho',
        label: 'Spearman ρ with people',
        condition,
        n: r.n,
        value: r.spearman_rho,
        ci: r.spearman_rho_ci,
        unit: 'num',
        ...(rhoNote ? { note: rhoNote } : {}),
      });
      const kNote = reason(r.kappa === null ? 'kappa_undefined' : r.kappa_ci_undefined_reason);
      rows.push({
        measure: 'human_kappa',
        label: `Cohen's κ with people (${r.kappa_weights === 'quadratic' ? 'quadratic weights' : 'unweighted'})`,
        condition,
        n: r.n,
        value: r.kappa,
        ci: r.kappa_ci,
        unit: 'num',
        ...(kNote ? { note: kNote } : {}),
      });
      // Gwet's AC beside κ: it stays meaningful when one category dominates (the κ paradox).
      const g = report.judge_and_people.judges.find((j) => j.judge === label)?.gwet;
      if (g)
        rows.push({
          measure: 'human_gwet',
          label: `Gwet's ${g.name} with people`,
          condition,
          n: g.n,
          value: g.coefficient,
          ci: g.ci,
          unit: 'num',
          ...(g.undefined_reason ? { note: { key: `gwet: ${g.undefined_reason}` } } : {}),
        });
      gates.push({
        gate: 'human_rho',
        condition,
        n: r.n,
        value: r.spearman_rho,
        ci: r.spearman_rho_ci,
        ...(rhoNote ? { note: rhoNote } : {}),
        experimentId: exp.row.id,
        experimentName: exp.row.name,
        dataset: '',
      });
    }
  }
  return { rows, gates };
}

export function buildReportCard(
  db: Database,
  annotation: AnnotationService,
  judge: JudgeModelRef,
  settings: GateSettings = {},
  now: () => Date = () => new Date(),
): ReportCard {
  const experiments: CardExperiment[] = [];
  const measured: Measured[] = [];
  const loadedProtocolText = new Map<string, CardDictionary>();
  for (const exp of loadedExperiments(db)) {
    const labels = labelsOf(exp, judge);
    if (!labels.length) continue;
    const dataset = getDataset(db, exp.row.datasetId)?.name ?? `dataset ${exp.row.datasetId}`;
    const entry: CardExperiment = {
      experimentId: exp.row.id,
      name: exp.row.name,
      protocol: exp.row.protocol,
      protocolTitle: exp.protocol.title,
      dataset,
      datasetId: exp.row.datasetId,
      items: exp.items.length,
      status: exp.row.status,
      labels,
      simulated: anySimulated(exp.providers),
      recorded: anyRecorded(exp.providers),
      rows: [],
    };
    experiments.push(entry);
    const hook = exp.protocol.reportCard;
    if (hook) loadedProtocolText.set(exp.row.protocol, hook.text);
    if (!hook) {
      entry.note = { key: 'no_rows' };
      continue;
    }
    const { metrics, counts } = computeResults(db, exp.row.id);
    if (counts.ok === 0) entry.note = { key: 'nothing_answered' };
    // A run that has not finished (paused at 22 of 192 calls) measured a part of its plan: its
    // figures are shown, but a gate neither passes nor fails on them.
    const incomplete =
      exp.row.status === 'finished'
        ? {}
        : {
            incomplete: {
              status: exp.row.status,
              answered: counts.ok + counts.failed,
              planned: counts.planned,
            },
          };
    const where = { experimentId: exp.row.id, experimentName: exp.row.name, dataset, ...incomplete };
    for (const label of labels) {
      const own = hook.contribute(metrics, label);
      const human = humanRows(db, annotation, exp, label);
      for (const r of [...own.rows, ...human.rows])
        entry.rows.push({ ...withIntervalReason(r), judge: label });
      for (const g of own.gates) measured.push({ ...g, ...where });
      for (const g of human.gates) measured.push({ ...g, ...where });
    }
  }
  const words = Object.fromEntries(
    [...new Set(experiments.map((e) => e.protocol))].flatMap((id) => {
      const text = loadedProtocolText.get(id);
      return text ? [[id, text]] : [];
    }),
  );
  return {
    judge,
    generatedAt: now().toISOString(),
    experiments,
    gates: evaluateGates(resolveGates(settings, declaredGates()), measured),
    words,
  };
}
