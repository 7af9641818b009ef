// The protocol registry: generic code asks it for a protocol by id and never names one. It is
// filled by the registering index (index.ts: one line per built-in protocol), which only the
// composition root (facade/core.ts) imports; tests register their own (eslint.config.mjs).
import { AppError } from '../base/errors';
import { registerDatasetKind, unregisterDatasetKind } from '../import/kinds';
import type { AnyProtocol } from './plugin';

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
