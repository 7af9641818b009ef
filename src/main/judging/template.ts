// {{placeholder}} prompt templates and named prompt sections, shared by every protocol (the judging kit).
import { z } from 'zod';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The distinct placeholder names a template uses, in first-use order. */
export function templatePlaceholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

/**
 * Fills every {{name}} in one pass, so a value that itself contains "{{...}}" (model output
 * often does) is inserted as is and never expanded. A placeholder without a value is an
 * error: sending a prompt with a literal "{{output_1}}" in it would waste a paid call.
 */
export function renderTemplate(template: string, values: Record<string, string>): string {
  return template.replace(PLACEHOLDER, (_m, name: string) => {
    if (!Object.hasOwn(values, name)) {
      throw new Error(`Prompt template uses {{${name}}}, which has no value here`);
    }
    return values[name];
  });
}

/**
 * Checks a template against the placeholders it may use and those it must use; returns
 * human-readable problems (empty when the template is fine).
 */
export function checkTemplate(
  template: string,
  allowed: readonly string[],
  required: readonly string[],
): string[] {
  const used = templatePlaceholders(template);
  const problems = used
    .filter((n) => !allowed.includes(n))
    .map(
      (n) => `unknown placeholder {{${n}}} (allowed: ${allowed.map((a) => `{{${a}}}`).join(', ') || 'none'})`,
    );
  for (const n of required) if (!used.includes(n)) problems.push(`missing placeholder {{${n}}}`);
  return problems;
}

// Named sections: texts a prompt hands the judge sit in tagged blocks (<instruction>…</instruction>),
// so a reader of the prompt (the judge, the simulated provider, a person reading the manifest)
// can tell the parts apart. Block sections hold a text on lines of its own; an inline tag holds a
// short value (<scale>1-5</scale>).

/** `<name>\ntext\n</name>`. */
export function section(name: string, text: string): string {
  return `<${name}>\n${text}\n</${name}>`;
}

/** Block sections in order, a blank line between them. */
export function sections(parts: readonly (readonly [name: string, text: string])[]): string {
  return parts.map(([name, text]) => section(name, text)).join('\n\n');
}

/** `<name>value</name>` on one line. */
export function inlineTag(name: string, value: string): string {
  return `<${name}>${value}</${name}>`;
}

/**
 * A config's template field: a non-empty text whose placeholders `checkTemplate` accepts, each
 * problem reported at the field's path. The study adds its default or makes it optional.
 */
export function templateSchema(placeholders: { allowed: readonly string[]; required: readonly string[] }) {
  const { allowed, required } = placeholders;
  return z
    .string()
    .min(1)
    .superRefine((text, ctx) => {
      for (const message of checkTemplate(text, allowed, required)) ctx.addIssue({ code: 'custom', message });
    });
}
