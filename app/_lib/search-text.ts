export const SEARCH_MAX_LENGTH = 200;

export type SearchText =
  | { status: "none" }
  | { status: "valid"; text: string }
  /** Not searched at all: the page says why instead of quietly listing everything. */
  | { status: "refused"; text: string; message: string };

// C0 controls and DEL; PostgreSQL refuses NUL in text outright, the rest are never typed.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** A search box's value from the URL, trimmed; too long or with control characters, refused. */
export function readSearchText(raw: string | string[] | undefined): SearchText {
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? "";
  if (value === "") return { status: "none" };
  if (CONTROL.test(value)) {
    return {
      status: "refused",
      text: value.replace(new RegExp(CONTROL.source, "g"), ""),
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
