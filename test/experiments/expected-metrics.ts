// Expected Judge-LS figures computed straight from the mock's verdict log, with none of
// the app's code: the check that the app's judgments, normalization and metrics agree
// with what the "model" actually answered.
import type { Item } from '../../src/shared/domain';
import type { LoggedVerdict } from '../mock-provider/judge-ls-responder';

export interface ExpectedQuality {
  n: number;
  correct: number;
  ties: number;
  aRaw: number;
}

export interface ExpectedInvariance {
  n: number;
  flips: number;
  bothCorrect: number;
  enOnly: number;
  targetOnly: number;
  bothWrong: number;
}

export interface ExpectedProbe {
  n: number;
  en: number;
  zh: number;
  ties: number;
}

type Choice = 1 | 2 | 'tie';

function choiceOf(v: LoggedVerdict): Choice {
  if (v.winner === 'tie') return 'tie';
  if (v.order === 'orig') return v.winner === 'A' ? 1 : 2;
  return v.winner === 'A' ? 2 : 1;
}

export function expectedFor(verdicts: readonly LoggedVerdict[], items: readonly Item[], model: string) {
  const gold = new Map(items.map((i) => [i.sourceId, i.label]));
  const mine = verdicts.filter((v) => v.model === model);
  const quality: Record<string, ExpectedQuality> = {};
  const choice = new Map<string, Choice>();
  for (const v of mine.filter((x) => x.kind === 'quality')) {
    const q = (quality[v.language] ??= { n: 0, correct: 0, ties: 0, aRaw: 0 });
    const c = choiceOf(v);
    q.n++;
    if (c === gold.get(v.sourceId)) q.correct++;
    if (c === 'tie') q.ties++;
    if (v.winner === 'A') q.aRaw++;
    choice.set(`${v.sourceId}|${v.language}|${v.order}`, c);
  }
  const invariance: Record<string, ExpectedInvariance> = {};
  for (const target of ['ZH', 'LS']) {
    const inv = (invariance[`EN-${target}`] = {
      n: 0,
      flips: 0,
      bothCorrect: 0,
      enOnly: 0,
      targetOnly: 0,
      bothWrong: 0,
    });
    for (const item of items) {
      for (const order of ['orig', 'swap']) {
        const en = choice.get(`${item.sourceId}|EN|${order}`);
        const t = choice.get(`${item.sourceId}|${target}|${order}`);
        if (en === undefined || t === undefined) continue;
        inv.n++;
        if (en !== t) inv.flips++;
        const ec = en === item.label;
        const tc = t === item.label;
        if (ec && tc) inv.bothCorrect++;
        else if (ec) inv.enOnly++;
        else if (tc) inv.targetOnly++;
        else inv.bothWrong++;
      }
    }
  }
  const probe: ExpectedProbe = { n: 0, en: 0, zh: 0, ties: 0 };
  for (const v of mine.filter((x) => x.kind === 'tie_probe')) {
    probe.n++;
    if (v.winner === 'tie') probe.ties++;
    else if ((v.winner === 'A') === (v.order === 'en_zh')) probe.en++;
    else probe.zh++;
  }
  return { quality, invariance, probe };
}
