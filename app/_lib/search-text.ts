export const SEARCH_MAX_LENGTH = 200;

export type SearchText =
  | { status: "none" }
  | { status: "valid"; text: string }
  /** Not searched at all: the page says why instead of quietly listing everything. */
  | { status: "refused"; text: string; message: string };

// C0 controls (tab, newline and carriage return aside) and DEL: PostgreSQL refuses NUL in text
// outright, and the rest are never typed.
function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return (code < 0x20 && char !== "\t" && char !== "\n" && char !== "\r") || code === 0x7f;
}

/** A search box's value from the URL, trimmed; too long or with control characters, refused. */
export function readSearchText(raw: string | string[] | undefined): SearchText {
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? "";
  if (value === "") return { status: "none" };
  if ([...value].some(isControl)) {
    return {
      status: "refused",
      text: [...value].filter((char) => !isControl(char)).join(""),
      message: "The search contains control characters (such as a NUL byte); remove them and search again.",
    };
  }
  if ([...value].length > SEARCH_MAX_LENGTH) {
    return {
      status: "refused",
      text: value,
      message: `Searches can be at most ${SEARCH_MAX_LENGTH} characters long; this one has ${[...value].length}. Shorten it and search again.`,
    };
  }
  return { status: "valid", text: value };
}
