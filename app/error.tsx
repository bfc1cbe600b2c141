"use client";

import { useEffect } from "react";

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
