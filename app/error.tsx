"use client";

import { useEffect } from "react";
import { appErrorCatalog, UNAVAILABLE_DIGEST } from "@/lib/errors";

// Server errors reach the browser without their message in production; the digest is what
// an operator can look up in the server log.
export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  useEffect(() => {
    console.error(error);
  }, [error]);

  // The database is briefly away: nothing is broken and nobody was signed out.
  if (error.digest === UNAVAILABLE_DIGEST) {
    return (
      <section className="card narrow stack" role="alert" aria-labelledby="error-title">
        <h1 id="error-title" className="page-title">
          Briefly unavailable
        </h1>
        <p>{appErrorCatalog["unavailable:database"].message}</p>
        <p>
          <button type="button" className="button" onClick={reset}>
            Try again
          </button>
        </p>
      </section>
    );
  }

  return (
    <section className="card narrow stack" role="alert" aria-labelledby="error-title">
      <h1 id="error-title" className="page-title">
        Something went wrong
      </h1>
      <p>The page could not be shown. Please try again.</p>
      {error.digest && (
        <p className="muted">
          Reference: <code>{error.digest}</code>
        </p>
      )}
      <p>
        <button type="button" className="button" onClick={reset}>
          Try again
        </button>
      </p>
    </section>
  );
}
