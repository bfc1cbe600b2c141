import Link from "next/link";
import { buildOpenApiDocument } from "@/app/api/v1/_lib/openapi-document";
import { appBaseUrl } from "@/lib/oauth/app-url";
import { ApiReference } from "./api-reference";

export const metadata = { title: "API reference · toolnexus" };

// Built from the same document as /api/v1/openapi.json on each request, so it never drifts.
export const dynamic = "force-dynamic";

/** The HTTP API, readable: every call, its parameters, bodies, answers and refusals. */
export default function ApiDocsPage() {
  return (
    <section className="stack" aria-labelledby="api-docs-title">
      <h1 id="api-docs-title" className="page-title">
        API reference
      </h1>
      <p className="muted">
        Every call of the HTTP API, with what it takes and what it answers. Calls are made with a personal API
        token, sent as <code>Authorization: Bearer …</code>: make one under{" "}
        <Link href="/settings/tokens">API tokens</Link>. The same description is available as{" "}
        <a href="/api/v1/openapi.json">an OpenAPI document</a> for tools that read it.
      </p>
      <ApiReference document={buildOpenApiDocument(appBaseUrl()) as object} />
    </section>
  );
}
