// A scripted "model" for Judge-LS in other languages with verified translations (issue 37) on the
// mock provider: it translates by tagging each text with its target (`⟦ar⟧ …`), swaps the two
// responses of the items it is told to (planted unfaithful translations), back-translates by
// removing the tag, and judges: the response that is the item's gold output in English wins, in
// any language, except where a fixed share of (judge, item, language) pairs picks the other one.
import type { Item } from '../../src/shared/domain';
import { unit } from './judge-ls-responder';
import type { MockRequest } from './server';

function between(text: string, tag: string): string {
  const open = `<${tag}>\n`;
  const start = text.indexOf(open);
  const end = text.indexOf(`\n</${tag}>`, start);
  if (start < 0 || end < 0) throw new Error(`mock: no <${tag}> in prompt`);
  return text.slice(start + open.length, end);
}

const TAG = /^⟦([A-Za-z:]+)⟧ /;
const untag = (t: string) => {
  const m = TAG.exec(t);
  return m ? { lang: m[1], text: t.slice(m[0].length) } : { lang: 'EN', text: t };
};

export function languagesResponder(
  items: readonly Item[],
  opts: { swapped: ReadonlySet<string>; wrongRate: number },
) {
  const byInstruction = new Map(items.map((i) => [i.instruction ?? '', i]));
  const calls: Record<string, number> = {};
  const count = (k: string) => (calls[k] = (calls[k] ?? 0) + 1);

  const transform = (req: MockRequest) => {
    const lang = /\(([A-Za-z]{2}|LS:[A-Za-z]{2})\)\./.exec(req.lastUser)?.[1];
    if (!lang) throw new Error('mock: no target language code in the transform prompt');
    const instruction = between(req.lastUser, 'instruction');
    const item = byInstruction.get(instruction);
    let o1 = between(req.lastUser, 'output_1');
    let o2 = between(req.lastUser, 'output_2');
    if (item && opts.swapped.has(`${item.sourceId}:${lang}`)) [o1, o2] = [o2, o1];
    const tag = (t: string) => `⟦${lang}⟧ ${t}`;
    return { instruction: tag(instruction), output_1: tag(o1), output_2: tag(o2) };
  };

  const backTranslate = (req: MockRequest) => ({
    instruction: untag(between(req.lastUser, 'instruction')).text,
    output_1: untag(between(req.lastUser, 'output_1')).text,
    output_2: untag(between(req.lastUser, 'output_2')).text,
  });

  const judge = (req: MockRequest) => {
    const instr = untag(between(req.lastUser, 'instruction'));
    const item = byInstruction.get(instr.text);
    if (!item) throw new Error('mock: quality prompt for an unknown instruction');
    const a = untag(between(req.lastUser, 'response_a')).text;
    const gold = item.label === 1 ? item.output1 : item.output2;
    const goldPos = a === gold ? 'A' : 'B';
    const wrong = unit('wrong', req.model, item.sourceId, instr.lang) < opts.wrongRate;
    const winner = wrong ? (goldPos === 'A' ? 'B' : 'A') : goldPos;
    return { winner, confidence: 0.8, reason: `Scripted verdict for ${item.sourceId} in ${instr.lang}.` };
  };

  return {
    calls,
    respond: (req: MockRequest) => {
      count(`${req.api}:${req.schemaName}`);
      if (req.schemaName === 'language_variant') return transform(req);
      if (req.schemaName === 'back_translation') return backTranslate(req);
      return judge(req);
    },
  };
}
