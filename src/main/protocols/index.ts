// The protocol registry: the one place that lists the protocols the app offers. Adding a
// protocol = its folder under src/main/protocols/ and a line here (tests register their own).
import { AppError } from '../base/errors';
import { registerDatasetKind, unregisterDatasetKind } from '../import/kinds';
import { biasProbesPlugin } from './bias-probes/plugin';
import { judgeLsPlugin } from './judge-ls/plugin';
import type { AnyProtocol } from './plugin';
import { referenceSensitivityPlugin } from './reference-sensitivity/plugin';
import { selfConsistencyPlugin } from './self-consistency/plugin';

const registry = new Map<string, AnyProtocol>();

/** Adds a protocol, with the dataset kinds it declares (the importer then reads them). */
export function registerProtocol(p: AnyProtocol): void {
  registry.set(p.id, p);
  for (const k of p.datasetKinds ?? []) registerDatasetKind(k);
}

/** Removes a protocol and its dataset kinds (tests that register their own clean up with it). */
export function unregisterProtocol(id: string): void {
  for (const k of registry.get(id)?.datasetKinds ?? []) unregisterDatasetKind(k.kind);
  registry.delete(id);
}

export function getProtocol(id: string): AnyProtocol {
  const p = registry.get(id);
  if (!p) {
    throw new AppError(
      'invalid_input',
      `protocol: unknown protocol "${id}" (have: ${[...registry.keys()].join(', ')})`,
      [{ file: 'config', field: 'protocol', message: `unknown protocol "${id}"` }],
    );
  }
  return p;
}

export function listProtocols(): AnyProtocol[] {
  return [...registry.values()];
}

registerProtocol(judgeLsPlugin);
registerProtocol(referenceSensitivityPlugin);
registerProtocol(biasProbesPlugin);
registerProtocol(selfConsistencyPlugin);
