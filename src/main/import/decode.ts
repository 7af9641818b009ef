import type { InputIssue } from '../../shared/domain';

export type DecodeResult =
  | { ok: true; text: string }
  | { ok: false; kind: 'empty' | 'utf16' | 'binary' | 'invalid-utf8'; issue: InputIssue };

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/**
 * The fatal decoder only says "invalid"; to say where, decode leniently and find the first
 * replacement character that the file did not itself contain (as the bytes EF BF BD).
 */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  const lenient = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  let offset = 0;
  for (const ch of lenient) {
    const cp = ch.codePointAt(0)!;
    if (
      cp === 0xfffd &&
      !(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)
    ) {
      return offset;
    }
    offset += utf8Length(cp);
  }
  return offset;
}

/** 1-based line and column (in bytes) of a byte offset, counting LF as the line break. */
export function byteLocation(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Turns the file's bytes into text, accepting only UTF-8 (a UTF-8 BOM is dropped). UTF-16 and
 * binary files are named as such, because "invalid UTF-8" would not tell the user what to do.
 */
export function decodeText(file: string, bytes: Uint8Array): DecodeResult {
  if (bytes.length === 0)
    return { ok: false, kind: 'empty', issue: { file, message: 'file is empty (0 bytes)' } };
  if (
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  ) {
    const order =
      bytes[0] === 0xff ? 'little-endian (byte order mark FF FE)' : 'big-endian (byte order mark FE FF)';
    return {
      ok: false,
      kind: 'utf16',
      issue: { file, message: `file is encoded as UTF-16 ${order}; save it as UTF-8 and import it again` },
    };
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    const at = byteLocation(bytes, nul);
    return {
      ok: false,
      kind: 'binary',
      issue: {
        file,
        line: at.line,
        message:
          `contains a NUL byte at byte offset ${nul} (line ${at.line}, column ${at.column}): ` +
          'this looks like UTF-16 without a byte order mark or a binary file; save it as UTF-8 text',
      },
    };
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    const offset = firstInvalidUtf8Offset(bytes);
    const at = byteLocation(bytes, offset);
    const byte = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    return {
      ok: false,
      kind: 'invalid-utf8',
      issue: {
        file,
        line: at.line,
        message:
          `not valid UTF-8: byte 0x${byte} at byte offset ${offset} (line ${at.line}, column ${at.column}); ` +
          'save the file as UTF-8',
      },
    };
  }
}
