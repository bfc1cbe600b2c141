import { type OutputUnit, type Schema, type SchemaDraft, Validator } from "@cfworker/json-schema";
import {
  type ErrorTransformer,
  getUiOptions,
  type RJSFSchema,
  type RJSFValidationError,
  toErrorSchema,
  type UiSchema,
  type ValidationData,
  type ValidatorType,
} from "@rjsf/utils";
import { dateFloorUnits, localToday, MIN_DATE_KEYWORD } from "./date-floor";

// The request forms' JSON-Schema validation in the browser, without compiling code: Ajv (RJSF's
// default validator) turns each schema into a function with `new Function`, which would need
// 'unsafe-eval' in the page's Content-Security-Policy for every page (ADR 0039). This one
// interprets the schema instead (@cfworker/json-schema). The server still validates every answer
// with Ajv (lib/engine/validate-answer.ts); this only lets a person see their mistakes at once.
// Errors come out the way the form's wording (human-errors.ts) reads them: `name` is the keyword,
// `params` carry `missingProperty`, `limit`, `format` or `type`, `title` the field's title.

/** Keywords that say what is wrong with a value itself; the rest only say "somewhere below". */
const LEAF_KEYWORDS = new Set([
  "required",
  "type",
  "enum",
  "const",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "additionalProperties",
  "dependentRequired",
  "dependencies",
  "contains",
  "not",
]);

const LIMIT_KEYWORDS = new Set([
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "multipleOf",
]);

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The draft the schema says it is written in; draft-07 otherwise, as the server's Ajv reads it. */
function draftOf(schema: Node): SchemaDraft {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  if (declared.includes("2020-12")) return "2020-12";
  if (declared.includes("2019-09")) return "2019-09";
  if (declared.includes("draft-04")) return "4";
  return "7";
}

function decodeSegment(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~");
}

function segmentsOf(pointer: string): string[] {
  const path = pointer.replace(/^#/, "");
  return path === "" ? [] : path.slice(1).split("/").map(decodeSegment);
}

/** The schema node at a keyword location, following `$ref`s within the document. */
function nodeAt(root: Node, location: string): Node | undefined {
  let node: unknown = root;
  for (const segment of segmentsOf(location)) {
    if (segment === "$ref" && isNode(node) && typeof node.$ref === "string" && node.$ref.startsWith("#")) {
      node = nodeAt(root, node.$ref);
      continue;
    }
    node = isNode(node) || Array.isArray(node) ? (node as Record<string, unknown>)[segment] : undefined;
  }
  return isNode(node) ? node : undefined;
}

/** `#/passengers/0/name` → `.passengers.0.name`, the property path RJSF keys its errors by. */
function propertyOf(instanceLocation: string): string {
  return segmentsOf(instanceLocation)
    .map((segment) => `.${segment}`)
    .join("");
}

function titleAt(uiSchema: UiSchema | undefined, property: string): string | undefined {
  let node: unknown = uiSchema;
  for (const segment of property.split(".").filter(Boolean)) {
    node = isNode(node) ? node[segment] : undefined;
  }
  const title = isNode(node) ? getUiOptions(node as UiSchema).title : undefined;
  return typeof title === "string" ? title : undefined;
}

function toRjsfError(unit: OutputUnit, root: Node, uiSchema: UiSchema | undefined): RJSFValidationError {
  // The keyword's own schema object: the location names the keyword last.
  const node = nodeAt(root, unit.keywordLocation.replace(/\/[^/]*$/, "")) ?? {};
  let property = propertyOf(unit.instanceLocation);
  const params: Record<string, unknown> = {};
  let schemaTitle = typeof node.title === "string" ? node.title : undefined;
  if (unit.keyword === "required") {
    const missing = unit.error.match(/required property "(.+)"\.?$/)?.[1];
    if (missing !== undefined) {
      params.missingProperty = missing;
      property = property ? `${property}.${missing}` : missing;
      const field = isNode(node.properties) ? node.properties[missing] : undefined;
      schemaTitle = isNode(field) && typeof field.title === "string" ? field.title : undefined;
    }
  } else if (LIMIT_KEYWORDS.has(unit.keyword)) {
    params.limit = node[unit.keyword];
  } else if (unit.keyword === MIN_DATE_KEYWORD) {
    params.limit = unit.error.match(/\d{4}-\d{2}-\d{2}/)?.[0];
    if (node[MIN_DATE_KEYWORD] === "today") params.relative = "today";
  } else if (unit.keyword === "pattern") {
    // The first example shows the expected form ("like LHR"); a pattern alone says nothing to people.
    const example = Array.isArray(node.examples) ? node.examples[0] : undefined;
    if (typeof example === "string" || typeof example === "number") params.example = String(example);
  } else if (unit.keyword === "format") {
    params.format = node.format;
  } else if (unit.keyword === "type") {
    params.type = Array.isArray(node.type) ? node.type.join(", ") : node.type;
  }
  const title = titleAt(uiSchema, property) ?? schemaTitle;
  return {
    name: unit.keyword,
    property,
    message: unit.error,
    params,
    stack: `${property} ${unit.error}`.trim(),
    schemaPath: unit.keywordLocation,
    ...(title ? { title } : {}),
  };
}

/** Validators by schema text; the cap keeps a page that meets many schemas from growing. */
const cache = new Map<string, Validator>();
const MAX_CACHED = 64;

function validatorFor(schema: Node): Validator {
  const key = JSON.stringify(schema);
  let validator = cache.get(key);
  if (!validator) {
    // The library annotates the schema it is given; RJSF's own object must stay as it is.
    validator = new Validator(structuredClone(schema) as Schema, draftOf(schema), false);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(key, validator);
  }
  return validator;
}

/** A sub-schema RJSF checks on its own still resolves `#/definitions/…` and `#/$defs/…` against the form's root. */
function withRootDefinitions(schema: Node, root: Node): Node {
  const borrowed: Node = {};
  for (const key of ["definitions", "$defs"] as const) {
    if (root[key] !== undefined && schema[key] === undefined) borrowed[key] = root[key];
  }
  return Object.keys(borrowed).length > 0 ? { ...schema, ...borrowed } : schema;
}

function run(schema: Node, data: unknown, today: string): { units: OutputUnit[]; failure?: Error } {
  try {
    const { errors } = validatorFor(schema).validate(data);
    const units = errors.filter((unit) => LEAF_KEYWORDS.has(unit.keyword));
    return { units: [...units, ...dateFloorUnits(schema, data, today)] };
  } catch (error) {
    return { units: [], failure: error instanceof Error ? error : new Error(String(error)) };
  }
}

export class SchemaValidator implements ValidatorType<unknown, RJSFSchema> {
  /** "today" for `x-minDate`: the person's date unless a test fixes it. */
  constructor(private readonly today: () => string = () => localToday()) {}

  validateFormData(
    formData: unknown,
    schema: RJSFSchema,
    _customValidate?: unknown,
    transformErrors?: ErrorTransformer<unknown, RJSFSchema>,
    uiSchema?: UiSchema,
  ): ValidationData<unknown> {
    const root = schema as Node;
    const { units, failure } = run(root, formData, this.today());
    let errors = units.map((unit) => toRjsfError(unit, root, uiSchema));
    if (failure) errors.push({ stack: `The form's schema cannot be used: ${failure.message}` });
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    return { errors, errorSchema: toErrorSchema(errors) };
  }

  isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema): boolean {
    const { units, failure } = run(
      withRootDefinitions(schema as Node, rootSchema as Node),
      formData,
      this.today(),
    );
    return !failure && units.length === 0;
  }

  rawValidation<Result = OutputUnit>(
    schema: RJSFSchema,
    formData?: unknown,
  ): { errors?: Result[]; validationError?: Error } {
    const { units, failure } = run(schema as Node, formData, this.today());
    return {
      ...(units.length > 0 ? { errors: units as Result[] } : {}),
      ...(failure ? { validationError: failure } : {}),
    };
  }

  reset(): void {
    cache.clear();
  }
}

/** The one validator every request form uses. */
export const schemaValidator = new SchemaValidator();
