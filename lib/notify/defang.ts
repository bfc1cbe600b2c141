// A person's text quoted in a mail must not turn into a link there: mail clients link web
// addresses, bare domains and e-mail addresses in plain text by their own rules (each its own
// list of schemes and top-level domains), so this breaks every shape they could take rather
// than the ones one linkifier knows. The usual "defanged" forms stay readable to a person:
// `https://evil.example/login` becomes `hxxps://evil[.]example/login`.

// Full stops that browsers and some clients read as a dot in a domain name.
const DOT = "[.\u3002\uFF0E\uFF61]";
const HOST_LIKE = new RegExp(`[\\p{L}\\p{N}_-]+(?:${DOT}[\\p{L}\\p{N}_-]+)+`, "gu");
// Characters that change how text around them is shown (bidi overrides and isolates, marks) or
// hide in it (zero-width spaces, word joiner, BOM): a quote shows what was written, as written.
const INVISIBLE = /[\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF\u061C]/g;

function defangHost(host: string): string {
  const labels = host.split(new RegExp(DOT, "u"));
  const last = labels[labels.length - 1]!;
  // A name ending in letters may be a domain; four numbers may be an IPv4 address. Version
  // numbers and decimals ("v1.4.2", "3.5") are neither and stay as they are.
  const linkable =
    /\p{L}/u.test(last) || (labels.length === 4 && labels.every((label) => /^\d+$/.test(label)));
  return linkable ? labels.join("[.]") : host;
}

/** `text` with every URL scheme and domain-shaped word broken, so that no client links it. */
export function defang(text: string): string {
  return text
    .replace(INVISIBLE, "")
    .replace(/\b(h)tt(ps?):\/\//gi, "$1xx$2://")
    .replace(/\b(?!hxxps?:)([a-z][a-z0-9+.-]*):\/\//gi, "$1[:]//")
    .replace(HOST_LIKE, defangHost);
}
