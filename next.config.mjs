import { PHASE_DEVELOPMENT_SERVER } from "next/constants.js";

/** @type {(phase: string) => import('next').NextConfig} */
const nextConfig = (phase) => ({
  // The Node front (server/main.ts) serves the app; Next only renders pages.
  poweredByHeader: false,
  // Lets two builds live side by side (e.g. parallel e2e runs while developing); CI uses the default. Read here, not
  // through environment.ts: DESIGN.md names this plain-ESM file, which cannot import Owo's TypeScript (README "Settings").
  distDir: process.env.OWO_NEXT_DIST || ".next",
  serverExternalPackages: ["better-sqlite3", "@node-rs/argon2", "pino"],
  typescript: { ignoreBuildErrors: true }, // tsc --noEmit runs in npm test; no need to check twice per build
  experimental: {
    // No source maps in a production build (as Next's webpack builds have none for the server): the server runs under
    // tsx, which turns on Node's source-map support, and Node then parses every loaded chunk's map and keeps it —
    // ~37 MB of an idle server's ~255 MB (bench/README.md "Export RSS"). `next dev` keeps them.
    turbopackSourceMaps: phase === PHASE_DEVELOPMENT_SERVER,
  },
});

export default nextConfig;
