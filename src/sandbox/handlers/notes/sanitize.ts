// HTML sanitizing of note and comment content, as the service does on write
// ("HTML, sanitized by the service"). The exact rules of the service are not
// shown; the sandbox keeps a documented allow-list:
//
// - removed with everything inside: script, style, iframe, object, noscript, template,
//   and HTML comments (embed is a void element: the tag goes, the text after it stays);
// - kept (tags and text): p, br, div, span, b, strong, i, em, u, s, strike, sub, sup,
//   ul, ol, li, blockquote, pre, code, h1-h6, hr, table, thead, tbody, tr, th, td, a;
// - any other tag is dropped but its text stays (e.g. <form>, <img>, <font>);
// - attributes: only href, title, target and rel on <a>; every other attribute goes,
//   on* event handlers and style included; an href whose scheme is javascript:,
//   vbscript: or data: is dropped.

const DROP_WITH_CONTENT = ['script', 'style', 'iframe', 'object', 'noscript', 'template'];
const KEEP = new Set([
  'p', 'br', 'div', 'span', 'b', 'strong', 'i', 'em', 'u', 's', 'strike', 'sub', 'sup', 'ul', 'ol', 'li', 'blockquote',
  'pre', 'code', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'a',
]);
const VOID = new Set(['br', 'hr']);
const LINK_ATTRS = new Set(['href', 'title', 'target', 'rel']);

export function sanitizeHtml(html: string): string {
  let s = html.replace(/<!--[\s\S]*?(-->|$)/g, '');
  for (const tag of DROP_WITH_CONTENT) {
    // A dangerous element without its end tag swallows the rest, as a browser would parse it.
    s = s.replace(new RegExp(`<${tag}\\b[^>]*>[\\s\\S]*?(</${tag}\\s*>|$)`, 'gi'), '');
    s = s.replace(new RegExp(`</?${tag}\\b[^>]*>`, 'gi'), '');
  }
  return s.replace(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/g, (_all, close: string, name: string, attrs: string) => {
    const tag = name.toLowerCase();
    if (!KEEP.has(tag)) return '';
    if (close) return VOID.has(tag) ? '' : `</${tag}>`;
    return `<${tag}${tag === 'a' ? linkAttrs(attrs) : ''}>`;
  });
}

function linkAttrs(attrs: string): string {
  let out = '';
  for (const m of attrs.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?/g)) {
    const name = m[1]!.toLowerCase();
    if (!LINK_ATTRS.has(name)) continue;
    const value = (m[2] ?? '').replace(/^["']|["']$/g, '');
    // Browsers ignore control characters and spaces inside a scheme ("java\tscript:").
    if (name === 'href' && /^(javascript|vbscript|data):/i.test(value.replace(/[\u0000-\u0020]/g, ''))) continue;
    out += ` ${name}="${value.replace(/"/g, '&quot;')}"`;
  }
  return out;
}
