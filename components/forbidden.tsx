import Link from "next/link";

/** The plain 403 message; pages render it through `forbidden()` or directly. */
export function Forbidden({ message }: { message?: string }) {
  return (
    <section className="card narrow stack" aria-labelledby="forbidden-title">
      <h1 id="forbidden-title" className="page-title">
        403 — Forbidden
      </h1>
      <p>{message ?? "You are signed in, but your account is not allowed to see this page."}</p>
      <p>
        <Link href="/chat">Back to your chats</Link>
      </p>
    </section>
  );
}
