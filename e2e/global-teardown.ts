import { rmSync } from "node:fs";

/** Removes the run's temporary database directory (created in playwright.config.ts). */
export default function globalTeardown() {
  const dir = process.env.E2E_DATA_DIR;
  if (dir?.includes("toolnexus-e2e-")) rmSync(dir, { recursive: true, force: true });
}
