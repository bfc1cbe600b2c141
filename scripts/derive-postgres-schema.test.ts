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

  it("changes only the provider, the client output and the native types fields ask for", () => {
    const source = read("prisma/schema.prisma");
    const derived = derivePostgresSchema(source);
    expect(derived).toContain('provider = "postgresql"');
    expect(derived).toContain('output   = "../../lib/generated/postgres"');
    const modelsOf = (schema: string) => schema.slice(schema.indexOf("model User"));
    const marked = /[ \t]*\/\/ postgres: (@db\.\w+)[ \t]*$/gm;
    expect(source).toMatch(marked);
    expect(modelsOf(derived)).toBe(modelsOf(source).replace(marked, " $1"));
    expect(derived).toMatch(/^ {2}content {3}Json @db\.Json$/m);
  });

  it("puts a field's PostgreSQL native type in place of its marker, and refuses a marker elsewhere", () => {
    const head = read("prisma/schema.prisma").slice(0, read("prisma/schema.prisma").indexOf("model User"));
    const model = "model Note {\n  id   String @id\n  body String // postgres: @db.VarChar(200)\n}\n";
    expect(derivePostgresSchema(head + model)).toContain("  body String @db.VarChar(200)\n");
    expect(() => derivePostgresSchema(`${head}// postgres: @db.Json\n${model}`)).toThrow(/marker/);
    expect(() => derivePostgresSchema(head + model.replace("@db.VarChar(200)", '@default("x")'))).toThrow(
      /marker/,
    );
  });

  it("refuses a schema whose provider or output it does not recognize", () => {
    const source = read("prisma/schema.prisma");
    expect(() => derivePostgresSchema(source.replace('"sqlite"', '"mysql"'))).toThrow(/provider/);
    expect(() => derivePostgresSchema(source.replace("generated/sqlite", "generated/other"))).toThrow(
      /output/,
    );
  });
});
