import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Lets a test run build into its own folder while another build or dev server uses `.next`.
  ...(process.env.NEXT_DIST_DIR ? { distDir: process.env.NEXT_DIST_DIR } : {}),
  // The library ships as TypeScript source; let Next compile it.
  transpilePackages: ["toolnexus"],
  serverExternalPackages: ["better-sqlite3", "pg", "oidc-provider", "undici", "jsdom"],
  poweredByHeader: false,
  // `forbidden()` renders app/forbidden.tsx with a real 403 status.
  experimental: { authInterrupts: true },
};

export default nextConfig;
