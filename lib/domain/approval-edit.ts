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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
