// The researcher's gates: a small JSON file in the data folder (what the app edits) and the
// same format in any file the CLI's --gates names. Format: { "<gate id>": { "threshold": 0.9,
// "ciMustClear": false, "enabled": true }, … }; a gate left out keeps its literature default.
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../base/errors';
import { INPUT_LIMITS, readRegularFile } from '../base/input-limits';
import { gateDeclarations, gateSettingIssues, gateSettingsSchema } from '../../shared/report-card/gates';
import type { GateDeclaration, GateSettings } from '../../shared/report-card/types';
import type { InputIssue } from '../../shared/domain';
import { listProtocols } from '../protocols/registry';

/** Every gate the card offers: its own and those the registered protocols declare. */
export function declaredGates(): GateDeclaration[] {
  return gateDeclarations(listProtocols().flatMap((p) => p.reportCard?.gates ?? []));
}

/** Where the app keeps the store's gates (beside the database, so a copied folder keeps them). */
export const GATES_FILE_NAME = 'report-card-gates.json';

/** The 1-based line of the first `"key"` in the text (for errors that name a field). */
function lineOf(text: string, key: string): number | undefined {
  const at = text.indexOf(`"${key}"`);
  return at < 0 ? undefined : text.slice(0, at).split('\n').length;
}

/** Checks gate settings from a file or a call; issues name the file, the line and the field. */
export function checkGateSettings(value: unknown, file: string, text?: string): GateSettings {
  const issues: InputIssue[] = [];
  const parsed = gateSettingsSchema.safeParse(value);
  if (!parsed.success) {
    for (const i of parsed.error.issues) {
      const field = [...i.path, ...('keys' in i && Array.isArray(i.keys) ? [i.keys[0]] : [])].join('.');
      const key = String(field.split('.').pop() ?? '');
      const message =
        i.code === 'unrecognized_keys'
          ? 'unknown key; a gate takes threshold, ciMustClear, enabled'
          : i.message;
      issues.push({
        file,
        ...(text && key ? { line: lineOf(text, key) } : {}),
        field: field || '(file)',
        message,
      });
    }
  } else {
    for (const i of gateSettingIssues(parsed.data, declaredGates()))
      issues.push({
        file,
        ...(text ? { line: lineOf(text, i.path.split('.')[0]) } : {}),
        field: i.path,
        message: i.message,
      });
  }
  if (issues.length) {
    const first = issues[0];
    throw new AppError(
      'invalid_input',
      `${file}${first.line ? `:${first.line}` : ''}: field "${first.field}": ${first.message}`,
      issues,
    );
  }
  return parsed.data as GateSettings;
}

/** Reads a gates file; every problem names the file, line and field. */
export function readGatesFile(file: string): GateSettings {
  const text = readRegularFile(file, INPUT_LIMITS.configFileBytes).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const pos = /position (\d+)/.exec(String((err as Error).message));
    const line = pos ? text.slice(0, Number(pos[1])).split('\n').length : undefined;
    throw new AppError(
      'invalid_input',
      `${file}${line ? `:${line}` : ''}: not valid JSON (${(err as Error).message}).`,
      [{ file, ...(line ? { line } : {}), message: 'not valid JSON' }],
    );
  }
  return checkGateSettings(value, file, text);
}

/** The store's gates (none set: the defaults). */
export function loadStoredGates(dataDir: string): GateSettings {
  const file = join(dataDir, GATES_FILE_NAME);
  return existsSync(file) ? readGatesFile(file) : {};
}

/** Replaces the store's gates, whole, through a temporary file (never half-written). */
export function saveStoredGates(dataDir: string, settings: GateSettings): void {
  const file = join(dataDir, GATES_FILE_NAME);
  const checked = checkGateSettings(settings, GATES_FILE_NAME);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(checked, null, 2) + '\n');
  renameSync(tmp, file);
}
