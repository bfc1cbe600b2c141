"use client";

import dynamic from "next/dynamic";
import "swagger-ui-react/swagger-ui.css";
import "./api-reference.css";

// Swagger UI renders in the browser only; it is given the document itself, so it fetches
// nothing (no URL to download, no online validator badge). It documents and sends nothing:
// "Try it out" is off (calls are made with a token, as the token page's snippets show), and
// with it the server picker and Authorize, which only serve it.
const SwaggerUI = dynamic(() => import("swagger-ui-react"), {
  ssr: false,
  loading: () => <p className="muted">Loading the API reference…</p>,
});

/** The OpenAPI document, rendered as a readable, browsable page. */
export function ApiReference({ document }: { document: object }) {
  return (
    <div className="api-reference">
      <SwaggerUI
        spec={document}
        docExpansion="list"
        // Deep links put a link inside each operation's button, which nests one control in another.
        deepLinking={false}
        supportedSubmitMethods={[]}
        defaultModelsExpandDepth={0}
      />
    </div>
  );
}
