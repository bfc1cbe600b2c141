import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The library ships as TypeScript source; let Next compile it.
  transpilePackages: ["toolnexus"],
  serverExternalPackages: ["better-sqlite3", "pg", "oidc-provider"],
  poweredByHeader: false,
  // `forbidden()` renders app/forbidden.tsx with a real 403 status.
  experimental: { authInterrupts: true },
};

export default nextConfig;
