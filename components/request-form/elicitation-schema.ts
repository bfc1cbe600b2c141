// An MCP server asks for input with a restricted JSON Schema: one flat object of strings (with
// formats), numbers, integers, booleans and single- or multi-select enums, each with an
// optional default. This turns such a schema into what the form renders, or says it cannot.

type Json = Record<string, unknown>;

export type FormSchema =
  | { renderable: true; schema: Json; uiSchema: Json }
  | { renderable: false; reason: string };

const stringFormats = new Set(["email", "uri", "date", "date-time"]);

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `[{ const, title }]` options, as MCP's titled enums give them. */
function titledOptions(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((option) => isObject(option) && typeof option.const === "string")
  );
}

function stringEnum(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((option) => typeof option === "string");
}

/** The older titled-enum spelling (`enum` + `enumNames`) as the `oneOf` the form understands. */
function withTitles(property: Json): Json {
  const { enumNames, ...rest } = property;
  if (!stringEnum(rest.enum) || !Array.isArray(enumNames) || enumNames.length !== rest.enum.length)
    return rest;
  const { enum: values, ...others } = rest;
  return {
    ...others,
    oneOf: values.map((value, index) => ({ const: value, title: String(enumNames[index]) })),
  };
}

function field(name: string, property: unknown): { schema: Json; ui?: Json } | string {
  if (!isObject(property)) return `field "${name}" is not a schema`;
  switch (property.type) {
    case "string": {
      if (property.format !== undefined && !stringFormats.has(String(property.format))) {
        return `field "${name}" has an unsupported format "${String(property.format)}"`;
      }
      const schema = withTitles(property);
      const choices = schema.oneOf ?? schema.anyOf;
      if (choices !== undefined && !titledOptions(choices)) return `field "${name}" has malformed choices`;
      if (schema.enum !== undefined && !stringEnum(schema.enum))
        return `field "${name}" has malformed choices`;
      return { schema };
    }
    case "number":
    case "integer":
    case "boolean":
      return { schema: property };
    case "array": {
      const items = property.items;
      const options = isObject(items) ? (items.anyOf ?? items.oneOf) : undefined;
      const selectable =
        isObject(items) &&
        ((items.type === "string" && stringEnum(items.enum)) ||
          (options !== undefined && titledOptions(options)));
      if (!selectable) return `field "${name}" is a list the form cannot offer as choices`;
      // The form renders a multi-select only for lists of unique items.
      return { schema: { ...property, uniqueItems: true }, ui: { "ui:widget": "checkboxes" } };
    }
    default:
      return `field "${name}" has the unsupported type "${String(property.type)}"`;
  }
}

export function elicitationFormSchema(requested: unknown): FormSchema {
  if (!isObject(requested) || requested.type !== "object" || !isObject(requested.properties)) {
    return { renderable: false, reason: "the requested schema is not an object with properties" };
  }
  const properties: Json = {};
  const uiSchema: Json = {};
  for (const [name, property] of Object.entries(requested.properties)) {
    const result = field(name, property);
    if (typeof result === "string") return { renderable: false, reason: result };
    properties[name] = result.schema;
    if (result.ui) uiSchema[name] = result.ui;
  }
  const required = requested.required;
  if (
    required !== undefined &&
    !(Array.isArray(required) && required.every((key) => typeof key === "string"))
  ) {
    return { renderable: false, reason: "the list of required fields is malformed" };
  }
  return { renderable: true, schema: { ...requested, properties }, uiSchema };
}

const secretWords =
  /\b(pass ?words?|pass ?phrases?|passwd|pwd|secrets?|tokens?|api ?keys?|keys?|credentials?|pins?|otp|cvv|cvc)\b/i;

function words(text: string): string {
  return text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_\-.]+/g, " ");
}

/**
 * The labels of fields that look like they ask for a secret. MCP forbids collecting passwords,
 * tokens or keys through a form, so the form warns before anyone types one in. Only names and
 * titles count: descriptions often mention secrets to say "do not enter one".
 */
export function secretLookingFields(schema: unknown): string[] {
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  const found: string[] = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    const title = isObject(property) && typeof property.title === "string" ? property.title : undefined;
    const format = isObject(property) ? property.format : undefined;
    if (format === "password" || [name, title ?? ""].some((text) => secretWords.test(words(text)))) {
      found.push(title ?? name);
    }
  }
  return found;
}
