import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isDemoMode } from "./demo-mode";

type Env = Record<string, string | undefined>;

export function defaultAuthSecretPath(cwd: string = process.cwd()): string {
  return path.join(cwd, "data", ".auth-secret");
}

/**
 * `AUTH_SECRET` when set. In demo mode without one, a random secret is generated once and
 * kept in a git-ignored file, so sessions survive restarts without any setup. Outside demo
 * mode there is no fallback: next-auth then refuses to start, which is the safe failure.
 */
export function resolveAuthSecret(options: { env?: Env; file?: string } = {}): string | undefined {
  const env = options.env ?? process.env;
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  if (!isDemoMode(env)) return undefined;

  const file = options.file ?? defaultAuthSecretPath();
  const existing = readSecret(file);
  if (existing) return existing;

  mkdirSync(path.dirname(file), { recursive: true });
  // Written aside and hard-linked into place, so a concurrent reader never sees a half-written
  // file; when another process wins the race, its secret is the one everybody uses.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(draft, randomBytes(32).toString("base64url"), { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  return readSecret(file);
}

function readSecret(file: string): string | undefined {
  try {
    const value = readFileSync(file, "utf8").trim();
    return value.length > 0 ? value : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
