// The renderer's protocol registry with the built-in protocols registered: one line each.
import { judgeLs } from './judge-ls';
import { registerRendererProtocol } from './registry';

registerRendererProtocol(judgeLs);

export * from './registry';
