// Argument checks shared by the stats functions. A bad argument here is a programming error in the
// caller (metrics code passing counts it computed), so it throws a RangeError naming the argument.

export function checkCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
}

export function checkProbability(name: string, value: number): void {
  if (!(value >= 0 && value <= 1)) {
    throw new RangeError(`${name} must be a probability in [0, 1], got ${value}`);
  }
}

export function checkZ(z: number): void {
  if (!(Number.isFinite(z) && z > 0)) throw new RangeError(`z must be a positive finite number, got ${z}`);
}
