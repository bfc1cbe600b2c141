// Writes prisma/postgres/schema.prisma from prisma/schema.prisma. The two differ only in the
// datasource provider, the generated client's output folder, and the PostgreSQL native types a
// field asks for with a trailing `// postgres: @db.<Type>` (SQLite has no native types), so one
// model stays the truth.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export function derivePostgresSchema(sqliteSchema: string): string {
  let providerSwaps = 0;
  let outputSwaps = 0;
  const derived = sqliteSchema
    .replace(/(datasource\s+\w+\s*\{[^}]*provider\s*=\s*)"sqlite"/, (_m, head: string) => {
      providerSwaps++;
      return `${head}"postgresql"`;
    })
    .replace(
      /(generator\s+client\s*\{[^}]*output\s*=\s*)"\.\.\/lib\/generated\/sqlite"/,
      (_m, head: string) => {
        outputSwaps++;
        return `${head}"../../lib/generated/postgres"`;
      },
    );
  if (providerSwaps !== 1 || outputSwaps !== 1) {
    throw new Error(
      'prisma/schema.prisma must declare provider = "sqlite" and output = "../lib/generated/sqlite"',
    );
  }
  // Only a native type attribute, and only at the end of a field's line.
  const withNativeTypes = derived.replace(
    /^([ \t]+\w+[ \t]+\w+[^\n]*?)[ \t]*\/\/ postgres: (@db\.\w+(?:\([^)\n]*\))?)[ \t]*$/gm,
    (_m, field: string, attribute: string) => `${field} ${attribute}`,
  );
  if (/\/\/ postgres:/.test(withNativeTypes)) {
    throw new Error("a `// postgres:` marker must end a field's line and name one @db.<Type> attribute");
  }
  const header =
    "// GENERATED from prisma/schema.prisma by scripts/derive-postgres-schema.ts; do not edit.\n";
  return header + withNativeTypes.replace(/^\/\/ Source of truth[^\n]*\n(\/\/[^\n]*\n)*/, "");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(import.meta.dirname, "..");
  const source = readFileSync(path.join(root, "prisma/schema.prisma"), "utf8");
  const target = path.join(root, "prisma/postgres/schema.prisma");
  writeFileSync(target, derivePostgresSchema(source));
  console.log(`wrote ${path.relative(root, target)}`);
}
