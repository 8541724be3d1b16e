// Whether a redirect's target stays on this site, judged the way a browser resolves a Location
// (WHATWG URL, the same parser): against the public origin, after it strips leading and
// trailing C0 controls and spaces and removes tabs and newlines, reading `\` as `/`.
//
// Two more forms are refused although a parser may keep them here: a scheme without `//`
// (`http:evil.example` is a path against an `http:` base but a host against an `https:` one,
// and the origin a browser sees may differ from ours behind a proxy), and a target whose
// percent-decoded path would leave (`/%5C%5Cevil.example`), for whatever decodes it on the way.

/** What a browser strips before parsing a URL (WHATWG URL, "basic URL parser", steps 1–3). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const EDGES = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const TAB_OR_NEWLINE = /[\t\n\r]/g;
/** A scheme not followed by two slashes (backslashes count as slashes for http and https). */
const SCHEME_WITHOUT_AUTHORITY = /^[a-z][a-z\d+.-]*:(?![\\/]{2})/i;
/** The part that decides where a URL points: everything before its query or fragment. */
const BEFORE_QUERY = /^[^?#]*/;

function resolvesTo(target: string, origin: string): string | undefined {
  try {
    return new URL(target, origin).origin;
  } catch {
    return undefined;
  }
}

/** Each valid %XX as the byte it stands for: how a server or a proxy that decodes would read it. */
function decodeOnce(text: string): string {
  return text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function isSameOriginTarget(location: string, origin: string): boolean {
  const form = location.replace(EDGES, '').replace(TAB_OR_NEWLINE, '');
  if (SCHEME_WITHOUT_AUTHORITY.test(form)) return false;
  if (resolvesTo(form, origin) !== origin) return false;
  const path = BEFORE_QUERY.exec(form)![0];
  if (!path.includes('%')) return true;
  const decoded = decodeOnce(path).replace(EDGES, '').replace(TAB_OR_NEWLINE, '');
  return !SCHEME_WITHOUT_AUTHORITY.test(decoded) && resolvesTo(decoded, origin) === origin;
}
