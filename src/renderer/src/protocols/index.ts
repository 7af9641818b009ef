// The renderer's protocol registry with the built-in protocols registered: one line each.
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
