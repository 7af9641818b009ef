// The built-in probes, one line each, in the order the plan asks them and the tables list them
// (DESIGN.md §1b "How to add a probe"; a test registers its own with `registerBiasProbe`).
import type { BiasProbe } from '../probe-types';
import { formatProbe } from './format';
import { lengthProbe } from './length';
import { positionProbe } from './position';

export const BUILT_IN_PROBES: readonly BiasProbe[] = [positionProbe, lengthProbe, formatProbe];
