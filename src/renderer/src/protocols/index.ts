// The renderer's protocol registry with the built-in protocols registered: one line each.
import { biasProbes } from './bias-probes';
import { judgeLs } from './judge-ls';
import { referenceSensitivity } from './reference-sensitivity';
import { registerRendererProtocol } from './registry';

registerRendererProtocol(judgeLs);
registerRendererProtocol(referenceSensitivity);
registerRendererProtocol(biasProbes);

export * from './registry';
