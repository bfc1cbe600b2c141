"use client";

import { useEffect, useState } from "react";
import { CopyButton } from "@/components/copy-button";
import { tokenSnippets } from "./_lib/token-snippets";

/** A first call with the new token, ready to paste: curl, and the library in an agent of one's own. */
export function TokenSnippets({ token }: { token: string }) {
  // The address the browser reached the app at; read after mounting, as the server cannot know it.
  const [origin, setOrigin] = useState<string | null>(null);
  useEffect(() => setOrigin(window.location.origin), []);
  if (origin === null) return null;
  const { curl, library } = tokenSnippets(origin, token);
  return (
    <div className="stack" data-testid="token-snippets">
      <h3>Try it</h3>
      <p>Ask a question in your inbox from a terminal:</p>
      <pre className="tn-json" data-testid="snippet-curl">
        {curl}
      </pre>
      <CopyButton text={curl} label="Copy the curl command" />
      <p>
        Or let an agent of your own wait for people, with the <code>toolnexus</code> library:
      </p>
      <pre className="tn-json" data-testid="snippet-library">
        {library}
      </pre>
      <CopyButton text={library} label="Copy the library set-up" />
      <p>
        Every call is described in <a href="/docs/api">the API reference</a> (also as{" "}
        <a href="/api/v1/openapi.json">an OpenAPI document</a>).
      </p>
    </div>
  );
}
