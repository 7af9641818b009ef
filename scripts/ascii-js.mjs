// JavaScript text with every non-ASCII UTF-16 unit written as a \uXXXX escape: the same program.
// V8 keeps a script's source for as long as its functions live, and a file with a single character
// beyond Latin-1 is held as two bytes a character: ECharts' minified build (its Chinese locale
// strings) took 2.1 MiB of the export's heap instead of 1.1 (issue 39). The build writes such a
// copy (electron.vite.config.ts), as rolldown's `charset: 'ascii'` does for our own chunks.
//
// An escape means the same character in a string, a regular expression, a template's cooked text
// and an identifier; only a template's raw text (String.raw) would differ. The built copy is checked
// by test/export/ascii-bundles.test.ts, which draws a figure from it and from the package's file.

/** @param {string} source */
export function asciiOnlyJs(source) {
  return source.replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
