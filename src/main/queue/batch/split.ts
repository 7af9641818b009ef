// Splits requests into batches within a provider's limits (count and upload size), in order.

export function planBatches<T>(
  entries: readonly T[],
  bytesOf: (e: T) => number,
  limits: { maxRequests: number; maxBytes: number },
): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let bytes = 0;
  for (const e of entries) {
    const b = bytesOf(e);
    if (b > limits.maxBytes)
      throw new Error(`one request is ${b} bytes, over the provider's batch limit of ${limits.maxBytes}`);
    if (cur.length && (cur.length >= limits.maxRequests || bytes + b > limits.maxBytes)) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(e);
    bytes += b;
  }
  if (cur.length) out.push(cur);
  return out;
}
