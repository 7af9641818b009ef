/** 1-based line and column of an offset into a text; CRLF, CR and LF each end one line. */
export interface TextLocation {
  line: number;
  column: number;
}

/** Maps offsets to lines in O(log n) per lookup, for files with thousands of records. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string | Uint8Array) {
    const at = (i: number) => (typeof text === 'string' ? text.charCodeAt(i) : text[i]);
    for (let i = 0; i < text.length; i++) {
      const c = at(i);
      if (c === 0x0a || (c === 0x0d && at(i + 1) !== 0x0a)) this.starts.push(i + 1);
    }
  }

  locate(offset: number): TextLocation {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo] + 1 };
  }

  line(offset: number): number {
    return this.locate(offset).line;
  }
}
