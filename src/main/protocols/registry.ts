// The protocol registry: generic code asks it for a protocol by id and never names one. It is
// filled by the registering index (index.ts: one line per built-in protocol), which only the
// composition root (facade/core.ts) imports; tests register their own (eslint.config.mjs).
import { AppError } from '../base/errors';
import type { AnyProtocol } from './plugin';

const registry = new Map<string, AnyProtocol>();

export function registerProtocol(p: AnyProtocol): void {
  registry.set(p.id, p);
}

/** Removes a protocol (tests that register their own clean up with it). */
export function unregisterProtocol(id: string): void {
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
