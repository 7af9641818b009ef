// Every end-to-end check (issue 33), in the report's order; `lab` reads the lab opened once per run.
import { agreementChecks } from './agreement';
import { judgeLsFlipChecks, lengthChecks, repeatNoiseChecks } from './planted';
import { biasPositionChecks, judgeLsPositionChecks } from './position';
import { probeChecks } from './probes';
import type { Check } from './runner';
import type { Lab } from './studies';

export function allE2eChecks(lab: () => Lab): Check[] {
  return [
    ...biasPositionChecks(lab),
    ...judgeLsPositionChecks(lab),
    ...judgeLsFlipChecks(lab),
    ...repeatNoiseChecks(lab),
    ...lengthChecks(lab),
    ...probeChecks(lab),
    ...agreementChecks(lab),
  ];
}
