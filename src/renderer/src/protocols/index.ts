// The registering index: the built-in protocols registered, one line each. Only the composition
// root (main.tsx) and tests import it; generic code reads registry.ts (eslint.config.mjs).
import { biasProbes } from './bias-probes';
import { judgeLs } from './judge-ls';
import { referenceSensitivity } from './reference-sensitivity';
import { registerRendererProtocol } from './registry';
import { selfConsistency } from './self-consistency';

registerRendererProtocol(judgeLs);
registerRendererProtocol(referenceSensitivity);
registerRendererProtocol(biasProbes);
registerRendererProtocol(selfConsistency);

export * from './registry';
