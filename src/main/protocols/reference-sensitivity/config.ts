// The reference-sensitivity config keys (README "Reference sensitivity") and resolved options.
import { basename } from 'node:path';
import { z } from 'zod';
import { SETTINGS, type Setting } from '../../../shared/protocols/reference-sensitivity/types';
import { judgeEntrySchema } from '../../judging/config';
import type { BaseConfig } from '../plugin';
import { templateSchema } from '../../judging/template';
import type { ImportedAnswer } from './imported-answers';
import { DEFAULT_TEMPLATES, TEMPLATE_PLACEHOLDERS, type RefSensTemplates } from './prompts';

const modelSchema = judgeEntrySchema;

function template(field: keyof RefSensTemplates) {
  return templateSchema(TEMPLATE_PLACEHOLDERS[field]).optional();
}

export const refSensConfigShape = {
  /** Models that answer the questions (the `generate` stage). */
  generators: z.array(modelSchema).optional(),
  /**
   * Answers to judge instead of (or beside) generated ones: a JSONL/JSON/CSV file's path (CLI), or
   * the file itself as the app's wizard sends it ({fileName, text}), kept with the experiment.
   */
  answers: z
    .union([
      z.string().min(1),
      z.strictObject({ fileName: z.string().trim().min(1).max(300), text: z.string().max(50 * 1024 * 1024) }),
    ])
    .optional(),
  judges: z.array(modelSchema).min(1),
  parts: z
    .strictObject({
      calibration: z.boolean().optional(),
      sensitivity: z.boolean().optional(),
      settings: z
        .array(z.enum(['NR', 'RV', 'RC']))
        .min(1)
        .optional(),
    })
    .optional(),
  /** Ask each NR verdict a second time (sample 1): the flips' noise floor (DESIGN.md section 5b). */
  noiseFloor: z.boolean().optional(),
  /** Picks the wrong answer for C2; stored with the experiment so a re-run picks the same. */
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31)
    .optional(),
  /** Only items in these languages (BCP-47, as the dataset stores them). */
  languages: z.array(z.string().min(1)).min(1).optional(),
  templates: z
    .strictObject({
      generateSystem: template('generateSystem'),
      generateUser: template('generateUser'),
      judgeSystem: template('judgeSystem'),
      judgeUserNR: template('judgeUserNR'),
      judgeUserRV: template('judgeUserRV'),
      judgeUserRC: template('judgeUserRC'),
    })
    .optional(),
};

export type ModelEntry = z.output<typeof modelSchema>;

/** A path to an answers file, or the file's name and text. */
export type AnswersSource = string | { fileName: string; text: string };

/** The file name errors and the manifest name an answers source by. */
export function answersFileName(source: AnswersSource): string {
  return typeof source === 'string' ? basename(source) : basename(source.fileName);
}

/** The study's keys beside those every study's config has (`BaseConfig`). */
export interface RefSensConfig extends BaseConfig, Record<string, unknown> {
  generators?: ModelEntry[];
  answers?: AnswersSource;
  judges: ModelEntry[];
  parts?: { calibration?: boolean; sensitivity?: boolean; settings?: Setting[] };
  noiseFloor?: boolean;
  seed?: number;
  languages?: string[];
  templates?: Partial<RefSensTemplates>;
}

export interface RefSensOptions {
  seed: number;
  calibration: boolean;
  sensitivity: boolean;
  settings: Setting[];
  /** NR asked twice per judge and answer (the repeat is sample 1). */
  noiseFloor: boolean;
  languages: string[] | null;
  templates: RefSensTemplates;
  /** Answers read from the `answers` file (empty without one), and its file name for errors. */
  imported: ImportedAnswer[];
  answersFile: string | null;
}

export function resolveRefSensOptions(
  config: RefSensConfig,
  readImported: (source: AnswersSource) => ImportedAnswer[],
): RefSensOptions {
  const settings = config.parts?.settings ?? [...SETTINGS];
  return {
    seed: config.seed ?? 0,
    calibration: config.parts?.calibration ?? true,
    sensitivity: config.parts?.sensitivity ?? true,
    // Always in NR, RV, RC order, whatever order the config lists them in.
    settings: SETTINGS.filter((s) => settings.includes(s)),
    noiseFloor: config.noiseFloor ?? false,
    languages: config.languages ?? null,
    templates: { ...DEFAULT_TEMPLATES, ...(config.templates ?? {}) },
    imported: config.answers ? readImported(config.answers) : [],
    answersFile: config.answers ? answersFileName(config.answers) : null,
  };
}

export function refineRefSensConfig(
  cfg: RefSensConfig,
  issue: (path: (string | number)[], message: string) => void,
): void {
  const seen = new Map<string, string>();
  const check = (list: ModelEntry[] | undefined, key: string) =>
    list?.forEach((m, i) => {
      const other = seen.get(m.label);
      if (other) issue([key, i, 'label'], `duplicate label "${m.label}" (also a ${other})`);
      seen.set(m.label, key === 'judges' ? 'judge' : 'generator');
    });
  check(cfg.judges, 'judges');
  check(cfg.generators, 'generators');
  const sensitivity = cfg.parts?.sensitivity ?? true;
  const calibration = cfg.parts?.calibration ?? true;
  if (!sensitivity && !calibration) issue(['parts'], 'nothing to run: turn on calibration or sensitivity');
  if (cfg.noiseFloor && (!sensitivity || !(cfg.parts?.settings ?? ['NR']).includes('NR')))
    issue(['noiseFloor'], 'the noise floor repeats the NR verdicts: turn on sensitivity with the NR setting');
  if (sensitivity && !(cfg.generators?.length ?? 0) && !cfg.answers)
    issue(['generators'], 'sensitivity needs generators or an "answers" file');
}
