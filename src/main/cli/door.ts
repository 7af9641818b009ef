// What a command runs with: the core as a door holds it (facade/door.ts), opened and closed
// around the command by index.ts, and the lookup of an experiment a command names.
import type { Command } from 'commander';
import type { CoreDoor } from '../facade/door';

export type WithCore = <T>(cmd: Command, fn: (core: CoreDoor) => Promise<T> | T) => Promise<T>;

/** The id of the experiment `ref` names (its name, or its id), as `experiments.find` finds it. */
export async function experimentIdOf(core: CoreDoor, ref: string): Promise<number> {
  return (await core.call('experiments.find', { ref })).id;
}
