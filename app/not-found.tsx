import Link from "next/link";

export default function NotFound() {
  return (
    <section className="card narrow stack" aria-labelledby="not-found-title">
      <h1 id="not-found-title" className="page-title">
        404 — Not found
      </h1>
      <p>There is nothing at this address. It may have been removed, or the link is wrong.</p>
      <p>
        <Link href="/chat">Back to your chats</Link>
      </p>
    </section>
  );
}
