import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { derivePostgresSchema } from "./derive-postgres-schema";

const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

describe("derivePostgresSchema", () => {
  it("matches the committed PostgreSQL schema (run `npm run db:generate` after editing the model)", () => {
    expect(read("prisma/postgres/schema.prisma")).toBe(derivePostgresSchema(read("prisma/schema.prisma")));
  });

  it("changes only the provider and the client output", () => {
    const source = read("prisma/schema.prisma");
    const derived = derivePostgresSchema(source);
    expect(derived).toContain('provider = "postgresql"');
    expect(derived).toContain('output   = "../../lib/generated/postgres"');
    const modelsOf = (schema: string) => schema.slice(schema.indexOf("model User"));
    expect(modelsOf(derived)).toBe(modelsOf(source));
  });

  it("refuses a schema whose provider or output it does not recognize", () => {
    const source = read("prisma/schema.prisma");
    expect(() => derivePostgresSchema(source.replace('"sqlite"', '"mysql"'))).toThrow(/provider/);
    expect(() => derivePostgresSchema(source.replace("generated/sqlite", "generated/other"))).toThrow(
      /output/,
    );
  });
});
