import Link from "next/link";

/** Previous / next links for a list whose page lives in the URL; nothing when it fits on one. */
export function AdminPagination({
  page,
  pages,
  hrefFor,
}: {
  page: number;
  pages: number;
  hrefFor: (page: number) => string;
}) {
  if (pages <= 1) return null;
  const shown = Math.min(page, pages);
  return (
    <nav aria-label="Pages" className="admin-pages">
      {shown > 1 && <Link href={hrefFor(shown - 1)}>Previous</Link>}
      <span>
        Page {shown} of {pages}
      </span>
      {shown < pages && <Link href={hrefFor(shown + 1)}>Next</Link>}
    </nav>
  );
}
