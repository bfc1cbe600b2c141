"use client";

import dynamic from "next/dynamic";
import "swagger-ui-react/swagger-ui.css";
import "./api-reference.css";

// Swagger UI renders in the browser only; it is given the document itself, so it fetches
// nothing (no URL to download, no online validator badge), and "Try it out" calls this app.
const SwaggerUI = dynamic(() => import("swagger-ui-react"), {
  ssr: false,
  loading: () => <p className="muted">Loading the API reference…</p>,
});

/** The OpenAPI document, rendered as a readable, browsable page. */
export function ApiReference({ document }: { document: object }) {
  return (
    <div className="api-reference">
      <SwaggerUI spec={document} docExpansion="list" deepLinking defaultModelsExpandDepth={0} />
    </div>
  );
}
