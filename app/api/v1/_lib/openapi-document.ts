import { z } from "zod";
import { apiRoutes } from "./api-routes";
import { apiComponents } from "./api-schemas";
import type { ApiRouteSpec } from "./define-api-route";

// The OpenAPI 3.1 document of /api/v1, generated from the route specs and the zod schemas the
// routes parse with. OpenAPI 3.1 schemas are JSON Schema 2020-12, which is what zod emits.

type Json = Record<string, unknown>;

const COMPONENTS = "#/components/schemas/";

/** A schema for the document: named shapes become references into `components.schemas`. */
function schemaOf(schema: z.ZodType, io: "input" | "output"): Json {
  const id = apiComponents.get(schema)?.id;
  if (id) return { $ref: `${COMPONENTS}${id}` };
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
  return json;
}

function parametersOf(spec: ApiRouteSpec): Json[] {
  const out: Json[] = [];
  const add = (where: "path" | "query", object: z.ZodType | undefined) => {
    if (!object) return;
    const json = schemaOf(object, "input") as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = property;
      out.push({
        name,
        in: where,
        required: where === "path" || (json.required ?? []).includes(name),
        schema: rest,
        ...(typeof description === "string" ? { description } : {}),
      });
    }
  };
  add("path", spec.params);
  add("query", spec.query);
  for (const header of spec.headers ?? []) {
    out.push({
      name: header.name,
      in: "header",
      required: false,
      description: header.description,
      schema: schemaOf(header.schema, "input"),
    });
  }
  return out;
}

function operationOf(spec: ApiRouteSpec): Json {
  const responses: Json = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.schema
        ? {
            content: {
              [response.contentType ?? "application/json"]: { schema: schemaOf(response.schema, "output") },
            },
          }
        : {}),
      ...(response.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(response.headers).map(([name, description]) => [
                name,
                { description, schema: { type: "integer" } },
              ]),
            ),
          }
        : {}),
    };
  }
  const parameters = parametersOf(spec);
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.scope ? { security: [{ bearerToken: [spec.scope] }] } : { security: [] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: schemaOf(spec.body, "input") } },
          },
        }
      : {}),
    responses,
  };
}

export function buildOpenApiDocument(serverUrl?: string): Json {
  const paths: Record<string, Json> = {};
  for (const spec of apiRoutes) {
    paths[spec.path] = { ...paths[spec.path], [spec.method.toLowerCase()]: operationOf(spec) };
  }
  const { schemas } = z.toJSONSchema(apiComponents, {
    io: "input",
    uri: (id) => `${COMPONENTS}${id}`,
    unrepresentable: "any",
  }) as { schemas: Record<string, Json> };
  // A component's `$id` would be a fragment, which JSON Schema 2020-12 does not allow there.
  const components = Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _schema, $id: _id, ...schema }]) => [id, schema]),
  );
  return {
    openapi: "3.1.0",
    info: {
      title: "toolnexus inbox API",
      version: "1.0.0",
      description: [
        "Ask people from any process: make a request, wait for its answer. Requests are answered in the web inbox like a tool's, by the same people, exactly once.",
        "Every refusal is an Error object. A method a path does not take is answered 405 with an Allow header.",
        "Two schema keywords say what JSON Schema cannot: `x-maxJsonBytes`, the most bytes the value may take as UTF-8 JSON; `x-futureWithinDays`, a date-time after the moment of the call and at most this many days later.",
      ].join("\n\n"),
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearerToken: {
          type: "http",
          scheme: "bearer",
          description: "A personal API token from /settings/tokens, with the scope the call lists.",
        },
      },
    },
  };
}
