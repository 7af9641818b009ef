// Whether the experiment on screen was answered by the simulated provider, for every figure the
// results shell or a protocol's sections draw (ChartCard marks them, as the exports do).
import { createContext, useContext } from 'react';

export const SimulatedContext = createContext(false);

export function useSimulated(): boolean {
  return useContext(SimulatedContext);
}
