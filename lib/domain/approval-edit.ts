/**
 * An approval may offer its tool arguments for editing: `data.schema` describes them and
 * `data.values` (else the tool call's own arguments) pre-fills the form. Only keys the schema
 * knows are pre-filled, so unrelated arguments never leak into the edited answer.
 */
export function readApprovalEdit(
  data: Record<string, unknown> | undefined,
  args: Record<string, unknown>,
): { schema: Record<string, unknown>; initial: Record<string, unknown> } | undefined {
  const schema = data?.schema;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return undefined;
  const source = isObject(data?.values) ? data.values : args;
  const properties = (schema as Record<string, unknown>).properties;
  const initial: Record<string, unknown> = {};
  if (isObject(properties)) {
    for (const key of Object.keys(properties)) {
      if (source[key] !== undefined) initial[key] = source[key];
    }
  }
  return { schema: schema as Record<string, unknown>, initial };
}

// An optional field left empty is no edit, whether the form sent "" or nothing.
function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === "";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One argument a reviewer changed when approving: what the form offered and what was sent. */
export interface ArgumentChange {
  key: string;
  before: unknown;
  after: unknown;
}

/**
 * What a reviewer changed in an approval's editable arguments: each key of the approved data
 * whose value differs from what the form was pre-filled with. Empty when nothing was edited,
 * or when the approval offered no edit at all.
 */
export function listArgumentChanges(
  data: Record<string, unknown> | undefined,
  args: Record<string, unknown>,
  approved: Record<string, unknown> | undefined,
): ArgumentChange[] {
  const edit = readApprovalEdit(data, args);
  if (!edit || !approved) return [];
  return diffObjects(edit.initial, approved, "");
}

// Nested objects (an approval form that wraps the tool's arguments in one field) are compared
// key by key, so the change reads "arguments.version", not the whole object twice.
function diffObjects(before: Record<string, unknown>, after: Record<string, unknown>, prefix: string) {
  const changes: ArgumentChange[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [was, now] = [before[key], after[key]];
    if (isObject(was) && isObject(now)) changes.push(...diffObjects(was, now, `${prefix}${key}.`));
    else if (!(isBlank(was) && isBlank(now)) && JSON.stringify(was) !== JSON.stringify(now)) {
      changes.push({ key: `${prefix}${key}`, before: was, after: now });
    }
  }
  return changes;
}
