import { readdirSync } from "node:fs";
import path from "node:path";
import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi-document";

const v1 = path.resolve(import.meta.dirname, "..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

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
        if (typeof module[method] === "function") served.push(`${method} ${route.path}`);
    }
    const documented = Object.entries(document.paths).flatMap(([p, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${p}`),
    );
    expect(served.sort()).toEqual(documented.sort());
    expect(served.length).toBeGreaterThanOrEqual(5);
  });
});
