// The annotation package (DESIGN.md section 5d): one JSON file a colleague opens in their own
// copy of the app, rates, and sends back. It carries the set (uid, name, scale, seed), the units
// as annotators see them under opaque unit ids, and labels; never item keys (they may name
// models), judge verdicts, model names or categories.
import { z } from 'zod';
import { controlCharProblem } from '../../shared/control-chars';
import type { AnnotationView, RatingScale, RatingValue } from '../../shared/annotation/types';
import { AppError } from '../base/errors';

export const PACKAGE_FORMAT = 'judge-lab-annotation-package';

/** Ids and names label screens, tables and figures: no control characters in them. */
const name = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .superRefine((v, ctx) => {
      const problem = controlCharProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

const scaleSchema = z.union([
  z.strictObject({ kind: z.literal('score'), min: z.number().int(), max: z.number().int() }),
  z.strictObject({ kind: z.literal('preference') }),
  z.strictObject({ kind: z.literal('label'), labels: z.array(name(100)).min(2) }),
]);

const packageSchema = z.strictObject({
  format: z.literal(PACKAGE_FORMAT),
  version: z.literal(1),
  set: z.strictObject({
    uid: name(100),
    name: name(300),
    scale: scaleSchema,
    seed: z.number().int(),
  }),
  items: z
    .array(
      z.strictObject({
        unit: name(100),
        prompt: z.string(),
        context: z.string().nullable().optional(),
        responses: z.array(z.string()).min(1).max(2),
      }),
    )
    .min(1),
  labels: z.array(
    z.strictObject({
      unit: z.string().min(1),
      annotator: name(100),
      value: z.union([z.number(), z.string()]).nullable(),
      skipped: z.boolean(),
      comment: z.string().nullable(),
      time: z.string().optional(),
      /** The guidelines version the label was made under (packages with guidelines only). */
      guidelines_version: z.number().int().positive().nullable().optional(),
    }),
  ),
  // Written only when the set has them, so a package without them still opens in older releases.
  guidelines: z
    .array(
      z.strictObject({
        version: z.number().int().positive(),
        text: z.string().max(200_000),
        time: z.string(),
      }),
    )
    .optional(),
  adjudications: z
    .array(
      z.strictObject({
        unit: z.string().min(1),
        value: z.union([z.number(), z.string()]),
        adjudicator: name(100),
        note: z.string().nullable(),
        time: z.string(),
      }),
    )
    .optional(),
});

export type AnnotationPackage = z.infer<typeof packageSchema>;

export interface PackageContent {
  set: { uid: string; name: string; scale: RatingScale; seed: number };
  items: { unit: string; view: AnnotationView }[];
  labels: {
    unit: string;
    annotator: string;
    value: RatingValue | null;
    skipped: boolean;
    comment: string | null;
    time?: string;
    guidelines_version?: number | null;
  }[];
  guidelines?: { version: number; text: string; time: string }[];
  adjudications?: {
    unit: string;
    value: RatingValue;
    adjudicator: string;
    note: string | null;
    time: string;
  }[];
}

export function writePackage(p: PackageContent): string {
  const doc: AnnotationPackage = {
    format: PACKAGE_FORMAT,
    version: 1,
    set: p.set,
    items: p.items.map((i) => ({
      unit: i.unit,
      prompt: i.view.prompt,
      context: i.view.context ?? null,
      responses: i.view.responses,
    })),
    labels: p.labels,
    ...(p.guidelines?.length ? { guidelines: p.guidelines } : {}),
    ...(p.adjudications?.length ? { adjudications: p.adjudications } : {}),
  };
  return JSON.stringify(doc, null, 1) + '\n';
}

export function readPackage(fileName: string, bytes: Buffer): PackageContent {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new AppError('invalid_input', `${fileName}: not an annotation package (${(e as Error).message})`, [
      { file: fileName, message: 'not a JSON annotation package' },
    ]);
  }
  const parsed = packageSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({
      file: fileName,
      field: i.path.join('.') || '(file)',
      message: i.message,
    }));
    throw new AppError(
      'invalid_input',
      `${fileName}: not a valid annotation package: field "${issues[0].field}": ${issues[0].message}`,
      issues.slice(0, 50),
    );
  }
  const d = parsed.data;
  const seen = new Set<string>();
  for (const [i, it] of d.items.entries()) {
    if (seen.has(it.unit)) {
      throw new AppError('invalid_input', `${fileName}: items.${i}.unit "${it.unit}" appears twice`, [
        { file: fileName, field: `items.${i}.unit`, message: 'duplicate unit' },
      ]);
    }
    seen.add(it.unit);
  }
  return {
    set: d.set,
    items: d.items.map((i) => ({
      unit: i.unit,
      view: { prompt: i.prompt, context: i.context ?? null, responses: i.responses },
    })),
    labels: d.labels,
    guidelines: d.guidelines ?? [],
    adjudications: d.adjudications ?? [],
  };
}
