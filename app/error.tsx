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
  const unavailable = error.digest === UNAVAILABLE_DIGEST;
  return (
    <section className="card narrow stack" role="alert" aria-labelledby="error-title">
      <h1 id="error-title" className="page-title">
        {unavailable ? "Briefly unavailable" : "Something went wrong"}
      </h1>
      <p>
        {unavailable
          ? appErrorCatalog["unavailable:database"].message
          : "The page could not be shown. Please try again."}
      </p>
      {error.digest && !unavailable && (
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
