// Turns an HTTP request target into a decoded path and query, or says why it is refused.
// The web door answers any page on the internet that points an <img> or fetch at it, so
// this must accept every string without throwing: anything it cannot read is a 400.

/** Longer targets are no URL this app makes (its routes and assets are short). */
export const MAX_TARGET_LENGTH = 8 * 1024;

export type RequestTarget =
  { ok: true; pathname: string; query: URLSearchParams } | { ok: false; status: 400 | 414; message: string };

function refuse(message: string, status: 400 | 414 = 400): RequestTarget {
  return { ok: false, status, message };
}

export function parseRequestTarget(raw: string | undefined): RequestTarget {
  const target = raw ?? '/';
  if (target.length > MAX_TARGET_LENGTH) return refuse('Request target too long', 414);
  // Origin-form only: absolute-form ("http://host/…"), authority-form and "*" name
  // another server or no resource; browsers send origin-form to this server.
  if (!target.startsWith('/')) return refuse('Request target must be a path');
  const cut = target.search(/[?#]/);
  const rawPath = cut < 0 ? target : target.slice(0, cut);
  const rawQuery = cut >= 0 && target[cut] === '?' ? target.slice(cut + 1).replace(/#.*$/s, '') : '';
  // A backslash is a path separator on Windows and never part of one of our URLs.
  if (rawPath.includes('\\')) return refuse('Backslash in path');
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    return refuse('Malformed percent-encoding in path');
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(pathname)) return refuse('Control character or backslash in path');
  if (pathname.split('/').some((seg) => seg === '..')) return refuse('Parent-folder segment in path');
  // URLSearchParams decodes leniently (a bad escape stays literal), so it never throws.
  return { ok: true, pathname, query: new URLSearchParams(rawQuery) };
}
