// Plain prose from Markdown, for the format probe's deterministic "plain" variant. The structure
// comes from a Markdown parser (marked's lexer), never from regexes over the text: headings,
// emphasis, list bullets, block quotes, code fences and table rules are dropped, and every word
// and number of the original is kept (link targets and image sources are kept in parentheses,
// ordered-list numbers as written, inline HTML as it stands).
import { Lexer, type Token, type Tokens } from 'marked';

function inline(tokens: readonly Token[] | undefined): string {
  if (!tokens) return '';
  return tokens.map(inlineToken).join('');
}

function inlineToken(t: Token): string {
  switch (t.type) {
    case 'text': {
      const x = t as Tokens.Text;
      return x.tokens ? inline(x.tokens) : x.raw;
    }
    case 'escape':
      return (t as Tokens.Escape).text;
    case 'strong':
    case 'em':
    case 'del':
      return inline((t as Tokens.Strong).tokens);
    case 'codespan':
      // The raw span minus its backtick fences: the code exactly as written.
      return codespanText(t as Tokens.Codespan);
    case 'br':
      return '\n';
    case 'link': {
      const x = t as Tokens.Link;
      const text = inline(x.tokens);
      return x.href && x.href !== text && `mailto:${text}` !== x.href ? `${text} (${x.href})` : text;
    }
    case 'image': {
      const x = t as Tokens.Image;
      return x.text ? `${x.text} (${x.href})` : x.href;
    }
    case 'html':
    case 'tag':
      return t.raw;
    case 'checkbox':
      return '';
    default:
      return 'tokens' in t && Array.isArray(t.tokens) ? inline(t.tokens as Token[]) : t.raw;
  }
}

function codespanText(t: Tokens.Codespan): string {
  let raw = t.raw;
  let fence = 0;
  while (fence < raw.length && raw[fence] === '`') fence++;
  raw = raw.slice(fence, raw.length - fence);
  return raw;
}

/** The number an ordered-list item was written with ("3." → "3"), read from its own marker. */
function itemMarker(item: Tokens.ListItem): string {
  const raw = item.raw.trimStart();
  let i = 0;
  while (i < raw.length && raw[i] >= '0' && raw[i] <= '9') i++;
  return raw.slice(0, i);
}

function blocks(tokens: readonly Token[]): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    switch (t.type) {
      case 'space':
      case 'hr':
        break;
      case 'paragraph':
      case 'heading':
        out.push(inline((t as Tokens.Paragraph).tokens));
        break;
      case 'text': {
        const x = t as Tokens.Text;
        out.push(x.tokens ? inline(x.tokens) : x.raw.trimEnd());
        break;
      }
      case 'code':
        out.push((t as Tokens.Code).text);
        break;
      case 'blockquote':
        out.push(blocks((t as Tokens.Blockquote).tokens).join('\n\n'));
        break;
      case 'list': {
        const list = t as Tokens.List;
        const lines = list.items.map((item) => {
          const body = blocks(item.tokens).join('\n');
          return list.ordered ? `${itemMarker(item)}. ${body}` : body;
        });
        // A tight list reads as lines, a loose one as paragraphs.
        out.push(lines.join(list.loose ? '\n\n' : '\n'));
        break;
      }
      case 'table': {
        const x = t as Tokens.Table;
        const row = (cells: Tokens.TableCell[]) => cells.map((c) => inline(c.tokens)).join(', ');
        out.push([row(x.header), ...x.rows.map(row)].join('\n'));
        break;
      }
      case 'html':
        out.push(t.raw.trimEnd());
        break;
      case 'def': {
        const x = t as Tokens.Def;
        out.push([x.raw.slice(1, x.raw.indexOf(']')), x.href, x.title].filter(Boolean).join(' '));
        break;
      }
      default:
        out.push(t.raw.trimEnd());
    }
  }
  return out.filter((b) => b.trim() !== '');
}

/** The text without Markdown markup, blocks separated by blank lines. */
export function stripMarkdown(markdown: string): string {
  const tokens = new Lexer({ gfm: true }).lex(markdown);
  return blocks(tokens).join('\n\n').trim();
}
