// Whether a process of this host still runs: leases, run locks and batch owners ask it. It
// sits below all three (and below db.ts, which backup.ts and so the run locks need).

/** True while the pid names a live process (ours, or someone else's: EPERM). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
