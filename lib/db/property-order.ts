/**
 * PostgreSQL's jsonb keeps no key order (it sorts keys by length, then bytes), but a form
 * schema's `properties` list the fields in the order they are to be asked. Stored values that
 * carry request schemas (a request's payload, the events that show it) go through these two:
 * the order is written next to each `properties` object as an array, which jsonb keeps, and put
 * back on reading. SQLite keeps key order by itself; the marker costs it nothing.
 */

const MARK = "x-toolnexus-property-order";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A copy of `value` in which every `properties` object has its key order written beside it. */
export function markPropertyOrder<T>(value: T): T {
  if (Array.isArray(value)) return value.map(markPropertyOrder) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = markPropertyOrder(child);
  const properties = value.properties;
  if (isPlainObject(properties) && Object.keys(properties).length > 1) out[MARK] = Object.keys(properties);
  return out as T;
}

/** The value as it was before `markPropertyOrder`: `properties` in their order, no markers. */
export function restorePropertyOrder<T>(value: T): T {
  if (Array.isArray(value)) return value.map(restorePropertyOrder) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key !== MARK) out[key] = restorePropertyOrder(child);
  }
  const order = value[MARK];
  const properties = out.properties;
  if (Array.isArray(order) && isPlainObject(properties)) {
    const ordered: Record<string, unknown> = {};
    for (const name of order)
      if (typeof name === "string" && name in properties) ordered[name] = properties[name];
    // Anything the marker does not name keeps its place after the named ones.
    for (const [name, child] of Object.entries(properties)) if (!(name in ordered)) ordered[name] = child;
    out.properties = ordered;
  }
  return out as T;
}
