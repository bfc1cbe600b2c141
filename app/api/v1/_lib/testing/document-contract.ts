import { Ajv2020, type ErrorObject } from "ajv/dist/2020";
import addFormats from "ajv-formats";

// The OpenAPI document read as a client reads it: a JSON Schema validator over its schemas, with
// the document's own `x-` keywords taken at their documented word. Contract tests ask it what the
// document allows and compare with what the routes do; nothing here imports the routes' schemas.

type Json = Record<string, unknown>;

/** Keywords that refuse a value (not annotations), and so each need a request that breaks them. */
const CONSTRAINTS = new Set([
  "type",
  "enum",
  "const",
  "pattern",
  "format",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "required",
  "x-maxJsonBytes",
  "x-futureWithinDays",
]);

export interface Verdict {
  valid: boolean;
  /** The fields the document refuses, as the API's issues name them (`/kind`, `/headers/…`). */
  fields: string[];
  /** Each broken keyword by its place in the schema, e.g. `#/properties/kind/allOf/1/pattern`. */
  broken: string[];
}

export interface Contract {
  validate(value: unknown): Verdict;
  /** Every constraint of the schema, by its place. */
  constraints: string[];
}

function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

function constraintsOf(schema: Json, at = "#"): string[] {
  const out: string[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (CONSTRAINTS.has(keyword)) out.push(`${at}/${keyword}`);
    if (keyword === "additionalProperties" && value === false) out.push(`${at}/${keyword}`);
    if (keyword === "properties")
      for (const [name, property] of Object.entries(value as Record<string, Json>))
        out.push(...constraintsOf(property, `${at}/properties/${name}`));
    if (keyword === "allOf")
      for (const [index, part] of (value as Json[]).entries())
        out.push(...constraintsOf(part, `${at}/allOf/${index}`));
  }
  return out;
}

export function documentContract(document: Json) {
  const components = (document.components as { schemas: Record<string, Json> }).schemas;
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  ajv.addKeyword({
    keyword: "x-maxJsonBytes",
    schemaType: "number",
    validate: (max: number, data: unknown) => jsonBytes(data) <= max,
  });
  ajv.addKeyword({
    keyword: "x-futureWithinDays",
    type: "string",
    schemaType: "number",
    validate: (days: number, data: string) => {
      const ahead = Date.parse(data) - Date.now();
      return ahead > 0 && ahead <= days * 24 * 60 * 60 * 1000;
    },
  });
  const rewrite = (value: unknown): Json =>
    JSON.parse(
      JSON.stringify(value).replaceAll('"#/components/schemas/', '"https://api.test/schemas#/$defs/'),
    );
  ajv.addSchema({ $id: "https://api.test/schemas", $defs: rewrite(components) });

  /** An inline schema, or the component a `$ref` names (so places read from its root). */
  const resolve = (schema: Json): Json => {
    const ref = schema.$ref as string | undefined;
    return ref ? rewrite(components[ref.replace("#/components/schemas/", "")]) : rewrite(schema);
  };

  const contractOf = (schema: Json, fieldOf: (error: ErrorObject) => string): Contract => {
    const check = ajv.compile(schema);
    return {
      constraints: constraintsOf(schema),
      validate(value) {
        const valid = check(value);
        const errors = valid ? [] : (check.errors ?? []);
        return {
          valid,
          fields: [...new Set(errors.map(fieldOf))],
          broken: [...new Set(errors.map((error) => error.schemaPath))],
        };
      },
    };
  };

  const operation = (operationId: string): Json => {
    for (const methods of Object.values(document.paths as Record<string, Record<string, Json>>))
      for (const op of Object.values(methods)) if (op.operationId === operationId) return op;
    throw new Error(`no operation ${operationId}`);
  };

  return {
    /** The request body of an operation; fields are named as the body's issues name them. */
    body(operationId: string): Contract {
      const content = (operation(operationId).requestBody as { content: Record<string, { schema: Json }> })
        .content["application/json"]!;
      return contractOf(resolve(content.schema), (error) => {
        // A field missing inside another (an audience's `required`) is named by the outer one.
        if (error.keyword === "required" && !error.instancePath) return `/${error.params.missingProperty}`;
        return `/${error.instancePath.split("/")[1] ?? ""}`;
      });
    },

    /** The query or header parameters of an operation, as one object of their text values. */
    parameters(operationId: string, where: "query" | "header"): Contract {
      const parameters = ((operation(operationId).parameters ?? []) as Json[]).filter((p) => p.in === where);
      const schema = {
        type: "object",
        properties: Object.fromEntries(parameters.map((p) => [p.name, resolve(p.schema as Json)])),
        required: parameters.filter((p) => p.required).map((p) => p.name),
      };
      const prefix = where === "header" ? "/headers" : "";
      return contractOf(
        schema,
        (error) => `${prefix}${error.instancePath || `/${error.params.missingProperty}`}`,
      );
    },

    /** Whether the operation documents this status, and whether the body matches its schema. */
    response(operationId: string, status: number, body: unknown): { documented: boolean; valid: boolean } {
      const documented = (operation(operationId).responses as Record<string, Json>)[String(status)];
      const schema = (documented?.content as Record<string, { schema: Json }> | undefined)?.[
        "application/json"
      ]?.schema;
      if (!documented || !schema) return { documented: Boolean(documented), valid: false };
      return { documented: true, valid: ajv.validate(rewrite(schema), body) };
    },
  };
}
