/**
 * The argument a reviewer is most likely to change in an approval's form, as a path of property
 * names: the first one the tool constrains (a pattern, a format, a bound: the tool said what a
 * good value looks like, so it expects people to look at it), else the first free text or number
 * (a choice from a list is rarely what changes). Undefined when the schema offers nothing.
 */
export function likelyFieldPath(schema: unknown): string[] | undefined {
  return firstMatching(schema, [], isConstrained) ?? firstMatching(schema, [], isFreeValue);
}

type Node = Record<string, unknown>;

const CONSTRAINTS = [
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
];

function isConstrained(node: Node): boolean {
  return CONSTRAINTS.some((key) => node[key] !== undefined) && node.enum === undefined;
}

function isFreeValue(node: Node): boolean {
  return (
    (node.type === "string" || node.type === "number" || node.type === "integer") && node.enum === undefined
  );
}

function firstMatching(schema: unknown, path: string[], test: (node: Node) => boolean): string[] | undefined {
  if (!isNode(schema)) return undefined;
  const properties = schema.properties;
  if (!isNode(properties)) return test(schema) && path.length > 0 ? path : undefined;
  for (const [key, child] of Object.entries(properties)) {
    const found = firstMatching(child, [...path, key], test);
    if (found) return found;
  }
  return undefined;
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
