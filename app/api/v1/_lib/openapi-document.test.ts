import { readdirSync } from "node:fs";
import path from "node:path";
import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { allowedMethods, refusesMethod } from "./api-methods";
import { buildOpenApiDocument } from "./openapi-document";

const v1 = path.resolve(import.meta.dirname, "..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Handler = (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;

/** Every route file under /api/v1 with the OpenAPI path it serves. */
function routeFiles(dir = v1): { file: string; path: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith("_") ? [] : routeFiles(full);
    if (entry.name !== "route.ts") return [];
    const segments = path
      .relative(v1, dir)
      .split(path.sep)
      .filter(Boolean)
      .map((segment) => segment.replace(/^\[(\w+)\]$/, "{$1}"));
    return [{ file: full, path: ["/api/v1", ...segments].join("/") }];
  });
}

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const document = buildOpenApiDocument("http://localhost:3000");
    expect(document.openapi).toBe("3.1.0");
    // The validator dereferences in place: give it a copy.
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  it("describes every method of every route under /api/v1, and nothing that is not served", async () => {
    const document = buildOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
    const served: string[] = [];
    for (const route of routeFiles()) {
      // The catch-all only answers unknown paths with the API's JSON 404.
      if (route.path.includes("[...")) continue;
      const module = (await import(route.file)) as Record<string, unknown>;
      for (const method of METHODS)
        if (typeof module[method] === "function" && !refusesMethod(module[method]))
          served.push(`${method} ${route.path}`);
    }
    const documented = Object.entries(document.paths).flatMap(([p, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${p}`),
    );
    expect(served.sort()).toEqual(documented.sort());
    expect(served.length).toBeGreaterThanOrEqual(5);
  });

  it("answers every other method with a JSON 405 and an Allow header, and OPTIONS with the list", async () => {
    let refused = 0;
    for (const route of routeFiles()) {
      if (route.path.includes("[...")) continue;
      const module = (await import(route.file)) as Record<string, Handler>;
      const allow = allowedMethods(route.path);
      for (const method of METHODS) {
        expect(typeof module[method], `${method} ${route.path}`).toBe("function");
        if (!refusesMethod(module[method])) {
          expect(allow).toContain(method);
          continue;
        }
        expect(allow).not.toContain(method);
        const response = await module[method]!(new Request(`http://app.test${route.path}`, { method }), {
          params: Promise.resolve({}),
        });
        expect([response.status, response.headers.get("allow")]).toEqual([405, allow]);
        expect(await response.json()).toEqual({
          code: "method_not_allowed:route",
          status: 405,
          message: expect.any(String),
          issues: [],
        });
        refused += 1;
      }
      const options = await module.OPTIONS!(
        new Request(`http://app.test${route.path}`, { method: "OPTIONS" }),
        {
          params: Promise.resolve({}),
        },
      );
      expect([options.status, options.headers.get("allow")]).toEqual([204, allow]);
    }
    expect(refused).toBeGreaterThanOrEqual(15);
  });
});
