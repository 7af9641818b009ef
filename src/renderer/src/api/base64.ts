/** Bytes per slice: a multiple of 3, so slices encode to base64 that can simply be joined. */
const SLICE_BYTES = 3 * 32 * 1024;
/** How often (in bytes) to hand control back to the page so progress can paint. */
const YIELD_EVERY_BYTES = 4 * 1024 * 1024;

/**
 * Encodes bytes as base64 slice by slice. A single String.fromCharCode over a whole
 * 50 MB file would overflow the call stack, and one giant binary string doubles memory.
 */
export async function bytesToBase64(
  bytes: Uint8Array,
  onProgress?: (fraction: number) => void,
): Promise<string> {
  const parts: string[] = [];
  let sinceYield = 0;
  for (let start = 0; start < bytes.length; start += SLICE_BYTES) {
    const slice = bytes.subarray(start, Math.min(start + SLICE_BYTES, bytes.length));
    let binary = '';
    // Inner loop in 4 KiB steps keeps fromCharCode's argument list small on every engine.
    for (let i = 0; i < slice.length; i += 4096) {
      binary += String.fromCharCode(...slice.subarray(i, i + 4096));
    }
    parts.push(btoa(binary));
    sinceYield += slice.length;
    if (sinceYield >= YIELD_EVERY_BYTES) {
      sinceYield = 0;
      onProgress?.(Math.min(1, (start + slice.length) / bytes.length));
      await new Promise((r) => setTimeout(r, 0));
    }
  }
  onProgress?.(1);
  return parts.join('');
}

/** Reads a File's bytes; FileReader fallback for environments without Blob.arrayBuffer. */
export function readFileBytes(file: Blob): Promise<Uint8Array> {
  if (typeof file.arrayBuffer === 'function') return file.arrayBuffer().then((b) => new Uint8Array(b));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsArrayBuffer(file);
  });
}
