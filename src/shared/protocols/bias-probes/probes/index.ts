// The built-in probes, one line each (and its import), in the order the plan asks them and the
// tables list them (DESIGN.md §1b "How to add a probe"; a test registers its own with
// `registerBiasProbe`).
import type { BiasProbe } from '../probe-types';
import { authorityProbe } from './authority';
import { bandwagonProbe } from './bandwagon';
import { distractionProbe } from './distraction';
import { formatProbe } from './format';
import { identityProbe } from './identity';
import { lengthProbe } from './length';
import { positionProbe } from './position';
import { refinementProbe } from './refinement';
import { rubricProbe } from './rubric';
import { scoreOrderProbe } from './score-order';
import { selfPreferenceProbe } from './self-preference';
import { sentimentProbe } from './sentiment';

// One entry per line, so probes added side by side merge without a conflict.
// prettier-ignore
export const BUILT_IN_PROBES: readonly BiasProbe[] = [
  positionProbe,
  lengthProbe,
  formatProbe,
  rubricProbe,
  scoreOrderProbe,
  authorityProbe,
  distractionProbe,
  sentimentProbe,
  bandwagonProbe,
  refinementProbe,
  identityProbe,
  selfPreferenceProbe,
];
