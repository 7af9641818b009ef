// Default prompt templates of the reference-sensitivity protocol. {{placeholders}} are filled
// by ../template.ts; every template can be replaced in the config (`templates`).

export interface RefSensTemplates {
  generateSystem: string;
  generateUser: string;
  judgeSystem: string;
  /** No reference (NR); also calibration (C1, C2). */
  judgeUserNR: string;
  /** Reference visible (RV). */
  judgeUserRV: string;
  /** Reference visible and the judge told to compare (RC). */
  judgeUserRC: string;
}

export const DEFAULT_TEMPLATES: RefSensTemplates = {
  generateSystem:
    'You answer questions. Answer in the same language as the question ({{language_name}}). ' +
    'Give a short, direct answer in plain text.',
  generateUser: '{{question}}',
  judgeSystem:
    'You grade whether a generated answer to a question is correct. First copy the core answer ' +
    'the generated answer gives into "extracted_answer" (an empty string if it gives none). Then ' +
    'explain your decision briefly in "explanation" and give "verdict": "CORRECT" or "INCORRECT".',
  judgeUserNR: 'Question ({{language_name}}):\n{{question}}\n\nGenerated answer:\n{{answer}}',
  judgeUserRV:
    'Question ({{language_name}}):\n{{question}}\n\nReference answer(s):\n{{reference}}\n\n' +
    'Generated answer:\n{{answer}}',
  judgeUserRC:
    'Question ({{language_name}}):\n{{question}}\n\nReference answer(s):\n{{reference}}\n\n' +
    'Generated answer:\n{{answer}}\n\nBefore deciding, compare the answer you extracted with the ' +
    'reference answer(s): the generated answer is CORRECT only if its extracted answer matches a ' +
    'reference answer in meaning.',
};

const COMMON = ['question', 'language', 'language_name', 'context'];

/** Placeholders each template may use, and those it must use. */
export const TEMPLATE_PLACEHOLDERS: Record<
  keyof RefSensTemplates,
  { allowed: string[]; required: string[] }
> = {
  generateSystem: { allowed: COMMON, required: [] },
  generateUser: { allowed: COMMON, required: ['question'] },
  judgeSystem: { allowed: [], required: [] },
  judgeUserNR: { allowed: [...COMMON, 'answer'], required: ['question', 'answer'] },
  judgeUserRV: { allowed: [...COMMON, 'answer', 'reference'], required: ['question', 'answer', 'reference'] },
  judgeUserRC: { allowed: [...COMMON, 'answer', 'reference'], required: ['question', 'answer', 'reference'] },
};

// Made on first use, not at import: a DisplayNames pages in ~4 MiB of ICU data, which every
// process loading the core (a one-study run of another protocol too) then kept (issue 39).
let names: Intl.DisplayNames | undefined;
// Every prompt of a plan names its item's language, and Intl's lookup was ~4% of a big run's CPU.
const named = new Map<string, string>();

/** "Telugu" for te: the generator is told which language to answer in. */
export function languageName(tag: string): string {
  let name = named.get(tag);
  if (name === undefined)
    named.set(
      tag,
      (name =
        (names ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' })).of(tag) ?? tag),
    );
  return name;
}

/** Reference answers as the prompt shows them: one per line. */
export function referenceText(answers: readonly string[]): string {
  return answers.map((a) => `- ${a}`).join('\n');
}
