// The one place that lists the protocols the app offers: adding a protocol = its folder under
// src/main/protocols/ and a line here (tests register their own). Only the composition root
// (facade/core.ts) imports this file; generic code reads the registry (registry.ts).
import { biasProbesPlugin } from './bias-probes/plugin';
import { judgeLsPlugin } from './judge-ls/plugin';
import { referenceSensitivityPlugin } from './reference-sensitivity/plugin';
import { registerProtocol } from './registry';
import { selfConsistencyPlugin } from './self-consistency/plugin';

registerProtocol(judgeLsPlugin);
registerProtocol(referenceSensitivityPlugin);
registerProtocol(biasProbesPlugin);
registerProtocol(selfConsistencyPlugin);

export * from './registry';
