import type { OutputUnit } from "@cfworker/json-schema";

// A date field may say how early its answer can be: `"x-minDate": "today"` (the day the form is
// filled in, in the person's own time zone) or `"x-minDate": "2031-01-01"` (ADR 0083). JSON
// Schema has no keyword for a date relative to now, and the server's Ajv ignores `x-` keywords,
// so this is the browser's check for people; the tool that declares the rule enforces it itself
// and asks again, saying why, when an answer still breaks it.

export const MIN_DATE_KEYWORD = "x-minDate";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The person's calendar date as YYYY-MM-DD (not UTC's: "today" is the day they see). */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The earliest date a field's schema allows, or undefined when it sets none (or an unreadable one). */
export function minDateOf(schema: unknown, today: string): string | undefined {
  if (!isNode(schema)) return undefined;
  const floor = schema[MIN_DATE_KEYWORD];
  if (floor === "today") return today;
  return typeof floor === "string" && ISO_DATE.test(floor) ? floor : undefined;
}

function escapeSegment(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, "~0").replace(/\//g, "~1"));
}

/**
 * Every date earlier than its field allows, as the validator library's output units, so they
 * become field errors like any keyword's. Walks `properties`, `items` and local `$ref`s along the
 * data (so a recursive schema ends where the data does); a value that is not a date at all is
 * the `format` keyword's to report.
 */
export function dateFloorUnits(root: Node, data: unknown, today: string): OutputUnit[] {
  const units: OutputUnit[] = [];
  const resolve = (node: Node): Node => {
    const ref = node.$ref;
    if (typeof ref !== "string" || !ref.startsWith("#")) return node;
    let target: unknown = root;
    for (const part of ref.slice(1).split("/").filter(Boolean)) {
      target = isNode(target)
        ? target[decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~")]
        : undefined;
    }
    return isNode(target) ? target : node;
  };
  const walk = (raw: unknown, value: unknown, keywordPath: string, instancePath: string) => {
    if (!isNode(raw)) return;
    const node = resolve(raw);
    const path = node === raw ? keywordPath : String(raw.$ref);
    const floor = minDateOf(node, today);
    if (floor !== undefined && typeof value === "string" && ISO_DATE.test(value) && value < floor) {
      units.push({
        keyword: MIN_DATE_KEYWORD,
        keywordLocation: `${path}/${MIN_DATE_KEYWORD}`,
        instanceLocation: instancePath,
        error: `Date must be ${floor} or later.`,
      });
    }
    if (isNode(node.properties) && isNode(value)) {
      for (const [key, child] of Object.entries(node.properties)) {
        if (key in value) {
          const segment = escapeSegment(key);
          walk(child, value[key], `${path}/properties/${segment}`, `${instancePath}/${segment}`);
        }
      }
    }
    if (isNode(node.items) && Array.isArray(value)) {
      value.forEach((item, index) => {
        walk(node.items, item, `${path}/items`, `${instancePath}/${index}`);
      });
    }
  };
  walk(root, data, "#", "#");
  return units;
}
