// {{placeholder}} prompt templates, shared by every protocol.

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
